// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "casnumber_p.h"
#include "clientcalls_p.h"
#include "etcdreply_p.h"
#include "recipereplies_p.h"

#include <EtcdQt/etcdclient.h>
#include <EtcdQt/etcdcodec.h>
#include <EtcdQt/etcdrecipe.h>
#include <EtcdQt/etcdreplies.h>

#include <QtCore/qrandom.h>
#include <QtCore/qtimer.h>

#include <memory>

namespace Etcd::Internal::CasNumber {

namespace {

struct Run
{
    Request request;
    QPointer<EtcdClient> client;
    int conflicts = 0; // lost compare-and-sets on a fresh snapshot
};
using RunPtr = std::shared_ptr<Run>;

void read(const RunPtr &run);
void write(const RunPtr &run, const Snapshot &seen, qint64 value, bool cached);

void finish(const RunPtr &run, const Outcome &outcome)
{
    run->request.done(outcome);
}

EtcdStatus malformed(const RunPtr &run)
{
    return EtcdStatus(Etcd::ErrorCode::FailedPrecondition,
        EtcdRecipe::tr("%1 does not hold an 8-byte number")
            .arg(QString::fromUtf8(run->request.key)));
}

// The snapshot a read shows; nullopt when the key holds something else than 8 bytes.
std::optional<Snapshot> snapshotOf(const QList<EtcdKeyValue> &kvs)
{
    Snapshot s;
    s.known = true;
    if (kvs.isEmpty())
        return s;
    const std::optional<qint64> value = decode(kvs.first().value);
    if (!value)
        return std::nullopt;
    s.exists = true;
    s.value = *value;
    s.modRevision = kvs.first().modRevision;
    return s;
}

// Ends the run with Cancelled once its owner said stop; true then.
bool stopping(const RunPtr &run)
{
    if (!run->request.stopped || !run->request.stopped())
        return false;
    finish(run, {EtcdStatus(Etcd::ErrorCode::Cancelled, EtcdRecipe::tr("closed"))});
    return true;
}

// The rule's answer to what etcd holds now (`seen`, read at `revision`).
void apply(const RunPtr &run, const Snapshot &seen, qint64 revision)
{
    const Step step = run->request.rule(seen);
    if (step.kind == Step::Kind::Write)
        return write(run, seen, step.value, false);
    if (step.kind == Step::Kind::Fail)
        return finish(run, {step.status, 0, revision, false, seen});
    finish(run, {{}, seen.value, revision, false, seen});
}

void retryLater(const RunPtr &run)
{
    ++run->conflicts;
    const int delayMs = int(QRandomGenerator::global()->bounded(run->conflicts * 100));
    QTimer::singleShot(delayMs, run->request.context, [run] { read(run); });
}

void write(const RunPtr &run, const Snapshot &seen, qint64 value, bool cached)
{
    if (stopping(run))
        return;
    const QByteArray &key = run->request.key;
    EtcdTxn txn;
    txn.compares
        = {seen.exists ? EtcdCompare::modRevision(key, Etcd::CompareResult::Equal, seen.modRevision)
                       : EtcdCompare::version(key, Etcd::CompareResult::Equal, 0)};
    txn.success = {EtcdTxnOp::put(key, encode(value))};
    txn.failure = {EtcdTxnOp::get(key)};
    EtcdTxnReply *reply = txnOn(run->client, txn); // no client: NotConnected, next turn
    QObject::connect(reply, &EtcdReply::finished, run->request.context,
        [run, reply, value, cached](const EtcdStatus &s) {
            if (!s.isOk())
                return finish(run, {s});
            if (reply->succeeded()) {
                // The put is the transaction's only write: its revision is the key's.
                const Snapshot after {true, true, value, reply->revision()};
                return finish(run, {{}, value, reply->revision(), true, after});
            }
            const QList<EtcdTxnOpResult> results = reply->results();
            const std::optional<Snapshot> fresh
                = snapshotOf(results.isEmpty() ? QList<EtcdKeyValue>() : results.first().keyValues);
            if (!fresh)
                return finish(run, {malformed(run)});
            if (!cached)
                return retryLater(run);
            // Only the cache was old: the value that won is known now, so try again at once.
            apply(run, *fresh, reply->revision());
        });
}

void read(const RunPtr &run)
{
    if (stopping(run))
        return;
    EtcdRangeReply *reply = getOn(run->client, run->request.key);
    QObject::connect(
        reply, &EtcdReply::finished, run->request.context, [run, reply](const EtcdStatus &s) {
            if (!s.isOk())
                return finish(run, {s});
            const std::optional<Snapshot> seen = snapshotOf(reply->keyValues());
            if (!seen)
                return finish(run, {malformed(run)});
            apply(run, *seen, reply->revision());
        });
}

// A reply's outcome: value() the number, written() whether this operation wrote it.
void finishReply(EtcdValueReply *reply, const Outcome &o)
{
    ReplyData data;
    data.count = o.value;
    data.revision = o.revision;
    data.succeeded = o.wrote;
    EtcdReplyPrivate::get(reply)->finish(o.status, std::move(data));
}

} // namespace

QByteArray encode(qint64 value)
{
    return Etcd::encodeInt64(value);
}

std::optional<qint64> decode(const QByteArray &bytes)
{
    return Etcd::decodeInt64(bytes);
}

void run(Request request)
{
    auto r = std::make_shared<Run>();
    r->client = request.client;
    r->request = std::move(request);
    const Snapshot start = r->request.start;
    if (!start.known)
        return read(r);
    // A cached snapshot may be old: only a write is tried on it, which etcd checks. An
    // answer that writes nothing must come from what etcd holds now.
    const Step step = r->request.rule(start);
    if (step.kind == Step::Kind::Write)
        return write(r, start, step.value, true);
    read(r);
}

EtcdValueReply *Queue::enqueue(Rule rule, Start start)
{
    EtcdValueReply *reply = RecipeReplies::valueReply(recipe);
    pending.push_back({std::move(rule), start, reply});
    runNext();
    return reply;
}

void Queue::runNext()
{
    while (!running && !closed && !pending.empty()) {
        Operation op = std::move(pending.front());
        pending.pop_front();
        if (!op.reply || op.reply->isFinished())
            continue; // aborted while it waited
        running = true;
        Request r;
        r.client = recipe->client();
        r.context = recipe;
        r.key = key;
        r.rule = std::move(op.rule);
        if (op.start == Start::FromCache)
            r.start = cached;
        r.stopped = [this] { return closed; };
        r.done = [this, reply = op.reply](const Outcome &o) {
            cached = o.after;
            running = false;
            QPointer<EtcdRecipe> alive(recipe);
            if (reply)
                finishReply(reply, o); // its receivers may queue more, or delete the recipe
            if (alive)
                runNext();
        };
        run(std::move(r));
    }
}

void Queue::close()
{
    closed = true;
    for (const Operation &op : pending) {
        if (op.reply)
            EtcdReplyPrivate::get(op.reply)->finishLater(
                EtcdStatus(Etcd::ErrorCode::Cancelled, EtcdRecipe::tr("closed")));
    }
    pending.clear();
}

} // namespace Etcd::Internal::CasNumber
