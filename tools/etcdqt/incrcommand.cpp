// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// etcdqt incr <lock-path> <counter-key> --count N [--ttl S] [--fenced|--unfenced]: N cycles of
// lock, read the counter (decimal text, absent = 0), write it plus one, unlock; then one JSON
// line {"failed":F,"lost":L,"succeeded":S,"unknown":U}:
//   succeeded  writes etcd committed;
//   failed     cycles that committed nothing (a guarded write refused, an error, no answer);
//   unknown    of the failed, those whose write may have committed all the same;
//   lost       holds lost while held (the lease ran out or the key was deleted).
// Fenced (the default), the write is a transaction guarded by the hold's fencing token, so a
// holder paused or cut off past its TTL writes nothing; a fenced write that got no answer is
// settled from etcd's history afterwards (unknown stays 0 while etcd keeps that history).
// Unfenced, the write is a plain put: what the lock alone does not prevent.
// A failure does not end the run: all N cycles are attempted. Exit status: 0 once they ran,
// whatever failed; 1 on bad input or when etcd is unreachable at the start; 128+N after signal
// N, which ends the run once the cycle in progress is over (the summary is printed still).
#include "cli.h"

#include <EtcdQt/etcdmutex.h>
#include <EtcdQt/etcdreplies.h>

#include <QtCore/qcoreapplication.h>
#include <QtCore/qdeadlinetimer.h>
#include <QtCore/qtimer.h>

#include <algorithm>
#include <optional>

namespace Cli {

namespace {

const QString kIncrUsage = QStringLiteral(
    "usage: incr <lock-path> <counter-key> --count N [--ttl S] [--fenced|--unfenced]");

// The counter's value: absent is 0; nullopt when it is not a decimal number.
std::optional<qint64> counterValue(const EtcdRangeReply &reply)
{
    const QList<EtcdKeyValue> kvs = reply.keyValues();
    if (kvs.isEmpty())
        return 0;
    bool ok = false;
    const qint64 value = kvs.first().value.toLongLong(&ok);
    return ok ? std::optional<qint64>(value) : std::nullopt;
}

// How long an unanswered write is settled from etcd's history: 10 TTLs (the key is gone
// within one), at most a day, so that a long TTL neither overflows QDeadlineTimer's
// nanoseconds nor keeps the command waiting for years.
std::chrono::seconds settleBound(std::chrono::seconds ttl)
{
    return std::min<std::chrono::seconds>(ttl, std::chrono::hours(24) / 10) * 10;
}

// The pause between two looks at the history: a quarter TTL, within QTimer's int milliseconds.
std::chrono::milliseconds settleRetry(std::chrono::seconds ttl)
{
    return std::min<std::chrono::milliseconds>(
        std::chrono::milliseconds(ttl) / 4, std::chrono::hours(1));
}

class Incrementer
{
public:
    Incrementer(EtcdClient *client, const QByteArray &lockPath, const QByteArray &counter,
        const EtcdMutexOptions &options, qint64 cycles, bool fenced);

    void start();
    void stop(int signal);

private:
    enum class Phase { Starting, Acquiring, Holding, Leaving };
    enum class Outcome { Committed, Failed, Unknown };

    void nextCycle();
    void read();
    void write(qint64 value, qint64 readRevision);
    void endCycle(Outcome outcome);
    void settle(qint64 readRevision, QDeadlineTimer deadline);
    void existsAt(qint64 revision, std::function<void(std::optional<bool>)> answer);
    void bisect(qint64 readRevision, qint64 present, qint64 gone);
    void settleAt(qint64 readRevision, qint64 gone);
    void finish(int exitCode, bool withSummary = true);

    EtcdClient *m_client;
    EtcdMutex m_mutex;
    QByteArray m_counter;
    const qint64 m_cycles;
    const bool m_fenced;
    Phase m_phase = Phase::Starting;
    EtcdFencingToken m_token; // of the cycle in progress
    qint64 m_attempted = 0;
    qint64 m_succeeded = 0;
    qint64 m_failed = 0;
    qint64 m_unknown = 0;
    qint64 m_lost = 0;
    int m_stopSignal = 0;
    int m_exitCode = 0;
};

Incrementer::Incrementer(EtcdClient *client, const QByteArray &lockPath, const QByteArray &counter,
    const EtcdMutexOptions &options, qint64 cycles, bool fenced)
    : m_client(client), m_mutex(client, lockPath, options), m_counter(counter), m_cycles(cycles),
      m_fenced(fenced)
{
    QObject::connect(&m_mutex, &EtcdMutex::acquired, &m_mutex, [this] {
        if (m_phase != Phase::Acquiring)
            return;
        m_phase = Phase::Holding;
        m_token = m_mutex.fencingToken();
        read();
    });
    QObject::connect(&m_mutex, &EtcdMutex::lockLost, &m_mutex, [this] { ++m_lost; });
    QObject::connect(
        &m_mutex, &EtcdRecipe::closed, &m_mutex, [this] { QCoreApplication::exit(m_exitCode); });
}

// One read first: an unreachable etcd, or a counter that is no number, ends the run at once.
void Incrementer::start()
{
    EtcdRangeReply *reply = m_client->get(m_counter);
    QObject::connect(reply, &EtcdReply::finished, &m_mutex, [this, reply](const EtcdStatus &s) {
        if (m_phase != Phase::Starting)
            return;
        if (!s.isOk())
            return finish(fail(QStringLiteral("etcd unreachable: %1").arg(s.toString())), false);
        if (!counterValue(*reply))
            return finish(fail(QStringLiteral("%1 does not hold a decimal number")
                                   .arg(QString::fromUtf8(m_counter))),
                false);
        nextCycle();
    });
}

void Incrementer::stop(int signal)
{
    m_stopSignal = signal;
    if (m_phase == Phase::Starting || m_phase == Phase::Acquiring)
        finish(128 + signal); // close() gives up the acquisition and its key
    // Holding: the cycle in progress ends first (nextCycle() then finishes).
}

void Incrementer::nextCycle()
{
    if (m_stopSignal)
        return finish(128 + m_stopSignal);
    if (m_attempted == m_cycles)
        return finish(0);
    ++m_attempted;
    m_phase = Phase::Acquiring;
    if (!m_mutex.acquire())
        finish(fail(QStringLiteral("cannot lock %1").arg(QString::fromUtf8(m_mutex.path()))));
}

void Incrementer::read()
{
    EtcdRangeReply *reply = m_client->get(m_counter);
    QObject::connect(reply, &EtcdReply::finished, &m_mutex, [this, reply](const EtcdStatus &s) {
        if (!s.isOk())
            return endCycle(Outcome::Failed);
        const std::optional<qint64> value = counterValue(*reply);
        if (!value) {
            fail(QStringLiteral("%1 does not hold a decimal number")
                     .arg(QString::fromUtf8(m_counter)));
            return endCycle(Outcome::Failed);
        }
        write(*value + 1, reply->revision());
    });
}

void Incrementer::write(qint64 value, qint64 readRevision)
{
    const QByteArray text = QByteArray::number(value);
    if (!m_fenced) {
        EtcdPutReply *reply = m_client->put(m_counter, text);
        QObject::connect(reply, &EtcdReply::finished, &m_mutex, [this](const EtcdStatus &s) {
            // Without a fence, a put that got no answer may commit at any time: unknown.
            endCycle(s.isOk() ? Outcome::Committed : Outcome::Unknown);
        });
        return;
    }
    EtcdTxn txn;
    txn.success = {EtcdTxnOp::put(m_counter, text)};
    EtcdTxnReply *reply = m_mutex.guardedTxn(txn);
    QObject::connect(
        reply, &EtcdReply::finished, &m_mutex, [this, reply, readRevision](const EtcdStatus &s) {
            if (s.isOk())
                return endCycle(reply->succeeded() ? Outcome::Committed : Outcome::Failed);
            m_mutex.release(); // the hold's key goes: from then on, the outcome is settled
            settle(readRevision, QDeadlineTimer(settleBound(m_mutex.ttl())));
        });
}

void Incrementer::endCycle(Outcome outcome)
{
    if (outcome == Outcome::Committed)
        ++m_succeeded;
    else
        ++m_failed;
    if (outcome == Outcome::Unknown)
        ++m_unknown;
    if (m_mutex.isHeldByCurrentThread())
        m_mutex.release();
    nextCycle();
}

// A guarded write commits only while the hold's key exists with its create revision: none of
// ours after it is gone, and none of any other holder's before (they hold only once it is
// gone). So once it is gone, the write committed iff the counter changed between our read and
// the key's deletion, which etcd's history tells: the revision the key was deleted at, found by
// bisection over reads of the key at past revisions, and the counter just before it.
void Incrementer::settle(qint64 readRevision, QDeadlineTimer deadline)
{
    EtcdRangeReply *reply = m_client->get(m_token.key);
    QObject::connect(reply, &EtcdReply::finished, &m_mutex,
        [this, reply, readRevision, deadline](const EtcdStatus &s) {
            const QList<EtcdKeyValue> kvs = reply->keyValues();
            if (s.isOk() && (kvs.isEmpty() || kvs.first().createRevision != m_token.revision)) {
                const qint64 gone = reply->revision();
                return existsAt(readRevision, [this, readRevision, gone](std::optional<bool> held) {
                    if (!held)
                        return endCycle(Outcome::Unknown);
                    if (!*held) // lost before the read: the write could never commit
                        return endCycle(Outcome::Failed);
                    bisect(readRevision, readRevision, gone);
                });
            }
            if (deadline.hasExpired())
                return endCycle(Outcome::Unknown);
            // Unreachable, or the key not gone yet (the delete or the lease expiry to come).
            QTimer::singleShot(settleRetry(m_mutex.ttl()), &m_mutex,
                [this, readRevision, deadline] { settle(readRevision, deadline); });
        });
}

void Incrementer::existsAt(qint64 revision, std::function<void(std::optional<bool>)> answer)
{
    EtcdRangeOptions options;
    options.revision = revision;
    EtcdRangeReply *reply = m_client->get(m_token.key, options);
    QObject::connect(
        reply, &EtcdReply::finished, &m_mutex, [this, reply, answer](const EtcdStatus &s) {
            if (!s.isOk()) // e.g. compacted away
                return answer(std::nullopt);
            const QList<EtcdKeyValue> kvs = reply->keyValues();
            answer(!kvs.isEmpty() && kvs.first().createRevision == m_token.revision);
        });
}

// The key exists at `present` and is gone at `gone`.
void Incrementer::bisect(qint64 readRevision, qint64 present, qint64 gone)
{
    if (gone - present <= 1)
        return settleAt(readRevision, gone);
    const qint64 middle = present + (gone - present) / 2;
    existsAt(middle, [this, readRevision, present, middle, gone](std::optional<bool> held) {
        if (!held)
            return endCycle(Outcome::Unknown);
        if (*held)
            bisect(readRevision, middle, gone);
        else
            bisect(readRevision, present, middle);
    });
}

// The key was deleted at `gone`: did the counter change after our read, before that?
void Incrementer::settleAt(qint64 readRevision, qint64 gone)
{
    EtcdRangeOptions options;
    options.revision = gone - 1;
    EtcdRangeReply *reply = m_client->get(m_counter, options);
    QObject::connect(
        reply, &EtcdReply::finished, &m_mutex, [this, reply, readRevision](const EtcdStatus &s) {
            if (!s.isOk())
                return endCycle(Outcome::Unknown);
            const QList<EtcdKeyValue> kvs = reply->keyValues();
            const bool changed = !kvs.isEmpty() && kvs.first().modRevision > readRevision;
            endCycle(changed ? Outcome::Committed : Outcome::Failed);
        });
}

// Every way out goes through close(): closed() comes once etcd answered the revokes, so no
// key of ours is left behind.
void Incrementer::finish(int exitCode, bool withSummary)
{
    if (m_phase == Phase::Leaving)
        return;
    m_phase = Phase::Leaving;
    m_exitCode = exitCode;
    if (withSummary) {
        emitLine({{QStringLiteral("succeeded"), m_succeeded}, {QStringLiteral("failed"), m_failed},
            {QStringLiteral("unknown"), m_unknown}, {QStringLiteral("lost"), m_lost}});
    }
    m_mutex.close();
}

} // namespace

int incrCommand(const Globals &globals, QStringList args)
{
    const QString countText = takeOption(args, QStringLiteral("--count"));
    const QString ttlText = takeOption(args, QStringLiteral("--ttl"), QStringLiteral("10"));
    const bool fenced = takeFlag(args, QStringLiteral("--fenced"));
    const bool unfenced = takeFlag(args, QStringLiteral("--unfenced"));
    bool ok = false;
    const qint64 count = countText.toLongLong(&ok);
    if (!ok || count <= 0)
        return fail(QStringLiteral("--count must be a positive number of cycles"));
    qint64 ttl = 0;
    if (QString error; !parseTtl(ttlText, ttl, error))
        return fail(error);
    if (fenced && unfenced)
        return fail(QStringLiteral("--fenced and --unfenced exclude each other"));
    if (args.size() != 2 || args.at(0).isEmpty() || args.at(1).isEmpty()
        || args.at(0).startsWith(QLatin1String("--")) || args.at(1).startsWith(QLatin1String("--")))
        return fail(kIncrUsage);

    auto client = makeClient(globals);
    EtcdMutexOptions options;
    options.ttl = std::chrono::seconds(ttl);
    Incrementer incrementer(
        client.get(), args.at(0).toUtf8(), args.at(1).toUtf8(), options, count, !unfenced);
    onTerminationSignal([&incrementer](int signal) { incrementer.stop(signal); });
    incrementer.start();
    return QCoreApplication::exec();
}

} // namespace Cli
