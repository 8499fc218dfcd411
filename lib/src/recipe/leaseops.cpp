// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "leaseops_p.h"

#include "etcdqt_internal_p.h"
#include "handover_p.h"
#include "leaseshared_p.h"

#include <EtcdQt/etcdclient.h>
#include <EtcdQt/etcdreplies.h>
#include <EtcdQt/etcdtxn.h>

#include <QtCore/qcoreapplication.h>
#include <QtCore/qpointer.h>
#include <QtCore/qrandom.h>
#include <QtCore/qtimer.h>

#include <exception>

namespace Etcd::Internal {

using namespace std::chrono;

namespace {
QString leaseText(const char *text)
{
    return QCoreApplication::translate("EtcdLease", text);
}

// One claim: the request and how many more transactions it may try.
struct Claim
{
    QPointer<EtcdClient> client;
    QByteArray key;
    QByteArray value;
    qint64 leaseId;
    qint64 previousLeaseId;
    QPointer<QObject> context;
    ClaimDone done;
    int roundsLeft = 2; // a take-over that lost to the old lease's expiry creates once more
};

void createOrRead(std::shared_ptr<Claim> claim);

// False when nobody waits for the answer any more, or there is no client to ask.
bool stillWanted(const Claim &claim)
{
    if (!claim.context)
        return false;
    if (!claim.client) {
        claim.done(EtcdStatus(Etcd::ErrorCode::NotConnected,
                       leaseText(QT_TRANSLATE_NOOP("EtcdLease", "no client"))),
            false, 0, 0);
        return false;
    }
    return true;
}

// One step of a claim: `key` = `value` under the new lease if `guard` holds, else
// `refused` with the transaction's answer.
void putUnder(std::shared_ptr<Claim> claim, const EtcdCompare &guard, QList<EtcdTxnOp> otherwise,
    std::function<void(const EtcdTxnReply &reply)> refused)
{
    if (!stillWanted(*claim))
        return;
    EtcdPutOptions put;
    put.lease = claim->leaseId;
    const EtcdTxn txn {{guard}, {EtcdTxnOp::put(claim->key, claim->value, put)}, otherwise};
    EtcdTxnReply *r = claim->client->txn(txn);
    QObject::connect(
        r, &EtcdReply::finished, claim->context, [claim, r, refused](const EtcdStatus &s) {
            if (!s.isOk())
                return claim->done(s, false, 0, 0);
            if (r->succeeded()) // the txn's one write
                return claim->done(s, true, claim->leaseId, r->revision());
            refused(*r);
        });
}

// The key is still on our own earlier lease: move it to the new one, if it still is.
void takeOver(std::shared_ptr<Claim> claim)
{
    const auto guard
        = EtcdCompare::lease(claim->key, Etcd::CompareResult::Equal, claim->previousLeaseId);
    // Refused: the old lease ran out meanwhile, taking the key: create it.
    putUnder(claim, guard, {}, [claim](const EtcdTxnReply &) { createOrRead(claim); });
}

void createOrRead(std::shared_ptr<Claim> claim)
{
    --claim->roundsLeft;
    putUnder(claim, EtcdCompare::missing(claim->key), {EtcdTxnOp::get(claim->key)},
        [claim](const EtcdTxnReply &r) {
            const QList<EtcdTxnOpResult> results = r.results();
            const qint64 holder = results.isEmpty() || results[0].keyValues.isEmpty()
                ? 0
                : results[0].keyValues[0].lease;
            if (claim->previousLeaseId > 0 && holder == claim->previousLeaseId
                && claim->roundsLeft > 0)
                return takeOver(claim);
            claim->done(EtcdStatus(), false, holder, 0);
        });
}

} // namespace

std::optional<EtcdStatus> leaseTtlProblem(seconds ttl)
{
    if (ttl.count() <= 0)
        return EtcdStatus(Etcd::ErrorCode::InvalidArgument,
            leaseText(QT_TRANSLATE_NOOP("EtcdLease", "the lease TTL must be positive, got %1 s"))
                .arg(ttl.count()));
    if (ttl > kMaxLeaseTtl)
        return EtcdStatus(Etcd::ErrorCode::InvalidArgument,
            leaseText(QT_TRANSLATE_NOOP(
                          "EtcdLease", "the lease TTL of %1 s is above etcd's maximum of %2 s"))
                .arg(ttl.count())
                .arg(kMaxLeaseTtl.count()));
    return std::nullopt;
}

void claimKey(EtcdClient *client, const QByteArray &key, const QByteArray &value, qint64 leaseId,
    qint64 previousLeaseId, QObject *context, ClaimDone done)
{
    if (!client) { // answered on a later turn, as an RPC would be
        QTimer::singleShot(0, context, [done] {
            done(EtcdStatus(Etcd::ErrorCode::NotConnected,
                     leaseText(QT_TRANSLATE_NOOP("EtcdLease", "no client"))),
                false, 0, 0);
        });
        return;
    }
    createOrRead(std::make_shared<Claim>(
        Claim {client, key, value, leaseId, previousLeaseId, context, std::move(done)}));
}

qint64 randomLeaseId()
{
    const qint64 id = qint64(QRandomGenerator::global()->generate64() >> 1);
    return id > 0 ? id : 1;
}

namespace {
// The request may or may not have been applied: its answer never came.
bool outcomeUnknown(const EtcdStatus &status)
{
    switch (status.code()) {
    case Etcd::ErrorCode::Cancelled:
    case Etcd::ErrorCode::Unknown:
    case Etcd::ErrorCode::DeadlineExceeded:
    case Etcd::ErrorCode::Unavailable:
    case Etcd::ErrorCode::Internal:
    case Etcd::ErrorCode::NoLeader:
    case Etcd::ErrorCode::NotConnected:
        return true;
    default:
        return false;
    }
}

// A grant of our own id that the transport sent again, after the first attempt's answer was
// lost with its connection, finds the lease that attempt created: "lease already exists".
// The id is random over 63 bits, so that lease is ours (seen in takeoverWhileCutOff..., where
// a standby reported as failed was never revoked).
bool isOwnRetriedGrant(const EtcdStatus &status)
{
    return status.code() == Etcd::ErrorCode::FailedPrecondition
        && status.message().contains(QLatin1String("lease already exists"));
}

// The grant may still be queued in etcd: a paused etcd applies what it had queued on resuming,
// two requests of one connection in no fixed order, and a connection the client gave up on
// may still be read. So a revoke that finds no lease is sent again, five times over 3.1 s;
// one etcd did not answer (failed, or cancelled with its connection) is retried until it
// does, as for a lease given up on our clock; and a client deleted meanwhile revokes the id
// once more as it goes (EtcdClientPrivate::unresolvedGrants). Under two CPU hogs,
// pausedEtcdSuspendsExpiresThenRestores left such a lease in 3 of 70 runs with one recheck
// 200 ms later, in 1 of 110 with these rechecks alone, in 0 of 80 with both.
void revokeUnansweredGrant(EtcdClient *client, qint64 leaseId)
{
    constexpr int kNotFoundRechecks = 5;
    revokeAbandonedLease(client, leaseId, kNotFoundRechecks);
}

// A lease's validity counts from when its grant was sent (its keep-alive's deadline is the
// send time + TTL - the safety margin): a grant answered after that, as a paused etcd
// answers on resuming, starts already expired. Acquiring on it would hold a lock or a seat
// for the instant before the keep-alive reports the loss.
bool grantedTooLate(
    const EtcdClient &client, seconds ttl, std::chrono::steady_clock::time_point sent)
{
    return std::chrono::steady_clock::now() - sent >= ttl - client.leaseSafetyMargin();
}
} // namespace

EtcdLeaseGrantReply *grantLeaseWithin(EtcdClient *client, seconds ttl, milliseconds timeout,
    QObject *context, GrantDone done, qint64 leaseId)
{
    if (!client) {
        QTimer::singleShot(0, context, [done] {
            done(EtcdStatus(Etcd::ErrorCode::NotConnected,
                     leaseText(QT_TRANSLATE_NOOP("EtcdLease", "no client"))),
                -1);
        });
        return nullptr;
    }
    const auto sent = std::chrono::steady_clock::now();
    EtcdLeaseGrantReply *reply = client->grantLease(ttl, leaseId);
    auto timedOut = std::make_shared<bool>(false);
    if (timeout.count() > 0) {
        QTimer::singleShot(timerDelay(timeout), reply, [reply, timedOut] {
            *timedOut = true;
            reply->abort(); // not sent again after a reconnect, to create a lease no one wants
        });
    }
    // A grant of our own id whose answer was lost (the connection broke, the call timed out)
    // may have been applied: that id is revoked, as no one else holds a random 63-bit id.
    QObject::connect(reply, &EtcdReply::finished, context,
        [reply, timedOut, timeout, done, client = QPointer(client), leaseId, ttl, sent](
            const EtcdStatus &answer) {
            const bool retriedOwn = leaseId > 0 && isOwnRetriedGrant(answer);
            EtcdStatus status = retriedOwn ? EtcdStatus() : answer;
            if (status.isOk() && client && grantedTooLate(*client, ttl, sent)) {
                revokeLeaseQuietly(client, retriedOwn ? leaseId : reply->leaseId());
                status = EtcdStatus(Etcd::ErrorCode::LeaseExpired,
                    leaseText(QT_TRANSLATE_NOOP("EtcdLease",
                        "the lease was granted after its TTL had run out on this client's "
                        "clock (etcd answered late)")));
            }
            if (!status.isOk() && leaseId > 0 && outcomeUnknown(status))
                revokeUnansweredGrant(client, leaseId);
            if (*timedOut) {
                done(EtcdStatus(Etcd::ErrorCode::DeadlineExceeded,
                         leaseText(
                             QT_TRANSLATE_NOOP("EtcdLease", "lease grant took longer than %1 ms"))
                             .arg(timeout.count())),
                    -1);
                return;
            }
            done(status, !status.isOk() ? -1 : retriedOwn ? leaseId : reply->leaseId());
        });
    return reply;
}

EtcdReply *revokeLeaseQuietly(EtcdClient *client, qint64 leaseId)
{
    if (!client || leaseId <= 0)
        return nullptr;
    EtcdReply *reply = client->revokeLease(leaseId);
    QObject::connect(reply, &EtcdReply::finished, client, [leaseId](const EtcdStatus &status) {
        if (!status.isOk() && status.code() != Etcd::ErrorCode::LeaseNotFound)
            qCInfo(lcEtcdLease) << "revoking lease" << leaseId << "failed:" << status
                                << "(it expires on its TTL)";
    });
    return reply;
}

void runEstablishHook(const std::function<void(qint64, std::function<void(bool)>)> &hook,
    qint64 leaseId, milliseconds timeout, QObject *context, HookResult result)
{
    // Shared by the hook's callback and the timer: whichever comes first answers.
    auto answer = std::make_shared<HookResult>(std::move(result));
    auto finish = [answer](bool owned, const EtcdStatus &why) {
        if (auto r = std::exchange(*answer, nullptr))
            r(owned, why);
    };
    if (timeout.count() > 0) // like the grant: no timeout when none is set
        QTimer::singleShot(timerDelay(timeout), context, [finish, timeout] {
            finish(false,
                EtcdStatus(Etcd::ErrorCode::DeadlineExceeded,
                    leaseText(QT_TRANSLATE_NOOP(
                                  "EtcdLease", "the establish hook did not answer within %1 ms"))
                        .arg(timeout.count())));
        });
    // Always answered on a later turn of the loop: the hook may call back inline.
    QPointer<QObject> guard(context);
    auto post = [finish, guard](bool owned, const EtcdStatus &why) {
        if (guard)
            postQueued(guard.data(), [finish, owned, why] { finish(owned, why); });
    };
    try {
        hook(leaseId, [post](bool owned) {
            post(owned,
                owned ? EtcdStatus()
                      : EtcdStatus(Etcd::ErrorCode::FailedPrecondition,
                          leaseText(QT_TRANSLATE_NOOP(
                              "EtcdLease", "the establish hook declined the lease"))));
        });
    } catch (const std::exception &e) {
        qCWarning(lcEtcdLease) << "establish hook threw:" << e.what();
        post(false,
            EtcdStatus(Etcd::ErrorCode::FailedPrecondition,
                leaseText(QT_TRANSLATE_NOOP("EtcdLease", "the establish hook threw: %1"))
                    .arg(QString::fromUtf8(e.what()))));
    } catch (...) {
        qCWarning(lcEtcdLease) << "establish hook threw";
        post(false,
            EtcdStatus(Etcd::ErrorCode::FailedPrecondition,
                leaseText(QT_TRANSLATE_NOOP("EtcdLease", "the establish hook threw"))));
    }
}

} // namespace Etcd::Internal
