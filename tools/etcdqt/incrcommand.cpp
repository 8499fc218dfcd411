// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// etcdqt incr <lock-path> <counter-key> --count N [--ttl S] [--hold-ms N] [--fenced|--unfenced]
// [--events]: N cycles of lock, read the counter (decimal text, absent = 0), work for
// --hold-ms (0), write it plus one, unlock;
// then one JSON line {"failed":F,"leases":[...],"lost":L,"refused":R,"succeeded":S,"unknown":U}:
//   succeeded  writes etcd committed;
//   failed     cycles that committed nothing (a guarded write refused, an error, no answer);
//   refused    of the failed, guarded writes that etcd answered and refused;
//   unknown    of the failed, those whose write may have committed all the same;
//   lost       holds lost while held (the lease ran out or the key was deleted);
//   leases     every lease a hold was on, as the lowercase hex of the key's name, first first.
// With --events, before it: {"event":"held","key":K,"lease":HEX,"token":T} once it holds,
// before it reads; {"event":"read",...,"value":V} once it read V, before it works and writes;
// {"event":"refused",...} when etcd refused its guarded write, "failed" or "unknown" when a
// cycle's write failed otherwise (settled as not committed, or not settled); {"event":"lost",
// ...} when the hold was lost while held. K, HEX and T are the hold's key, lease and token.
// Fenced (the default), the write is a transaction guarded by the hold's fencing token, so a
// holder paused or cut off past its TTL writes nothing; a fenced write that got no answer is
// settled from etcd's history afterwards (unknown stays 0 while etcd keeps that history).
// Unfenced, the write is a plain put: what the lock alone does not prevent.
// A failure does not end the run: all N cycles are attempted. Exit status: 0 once they ran,
// whatever failed; 1 on bad input or when etcd is unreachable at the start; 128+N after signal
// N, which ends the run once the cycle in progress is over (the summary is printed still).
// `etcdqt elect --layout etcd <prefix> --incr <counter-key>` runs the same loop under a
// leadership (electIncr() below): each term writes --term-writes times, guarded by the term.
#include "cli.h"

#include <EtcdQt/etcdelection.h>
#include <EtcdQt/etcdmutex.h>
#include <EtcdQt/etcdreplies.h>

#include <QtCore/qcoreapplication.h>
#include <QtCore/qdeadlinetimer.h>
#include <QtCore/qjsonarray.h>
#include <QtCore/qsysinfo.h>
#include <QtCore/qtimer.h>

#include <algorithm>
#include <optional>

namespace Cli {

namespace {

const QString kIncrUsage
    = QStringLiteral("usage: incr <lock-path> <counter-key> --count N [--ttl S] [--hold-ms N] "
                     "[--fenced|--unfenced] [--events]");

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

// What the loop counts under: a lock's hold or a leadership term. acquired() and lost() are
// the recipe's signals, closed() its end; the rest is the recipe's API by another name.
class Ownership
{
public:
    virtual ~Ownership() = default;
    [[nodiscard]] virtual QObject *recipe() = 0;
    [[nodiscard]] virtual QString what() const = 0; // for errors
    virtual bool acquire() = 0;
    [[nodiscard]] virtual bool isHeld() const = 0;
    // Whether an acquire() is still in flight: a loss told meanwhile is an earlier hold's.
    [[nodiscard]] virtual bool isAcquiring() const = 0;
    [[nodiscard]] virtual EtcdFencingToken token() const = 0;
    virtual EtcdTxnReply *guardedTxn(const EtcdTxn &txn) = 0;
    virtual void release() = 0;
    virtual void close() = 0;
    [[nodiscard]] virtual std::chrono::seconds ttl() const = 0;

    std::function<void()> acquired, lost, closed;
};

class MutexOwnership final : public Ownership
{
public:
    MutexOwnership(EtcdClient *client, const QByteArray &path, const EtcdMutexOptions &options)
        : m_mutex(client, path, options)
    {
        QObject::connect(&m_mutex, &EtcdMutex::acquired, &m_mutex, [this] { acquired(); });
        QObject::connect(&m_mutex, &EtcdMutex::lockLost, &m_mutex, [this] { lost(); });
        QObject::connect(&m_mutex, &EtcdRecipe::closed, &m_mutex, [this] { closed(); });
    }
    QObject *recipe() override { return &m_mutex; }
    QString what() const override
    {
        return QStringLiteral("cannot lock %1").arg(QString::fromUtf8(m_mutex.path()));
    }
    bool acquire() override { return m_mutex.acquire(); }
    bool isHeld() const override { return m_mutex.isHeldByCurrentThread(); }
    // A lock's wait outlives a lost lease (it queues again on a fresh one): only a hold ends
    // by loss, so a loss told while acquiring is the released hold's, found late.
    bool isAcquiring() const override { return !isHeld(); }
    EtcdFencingToken token() const override { return m_mutex.fencingToken(); }
    EtcdTxnReply *guardedTxn(const EtcdTxn &txn) override { return m_mutex.guardedTxn(txn); }
    void release() override { m_mutex.release(); }
    void close() override { m_mutex.close(); }
    std::chrono::seconds ttl() const override { return m_mutex.ttl(); }

private:
    EtcdMutex m_mutex;
};

class ElectionOwnership final : public Ownership
{
public:
    ElectionOwnership(EtcdClient *client, const QByteArray &prefix,
        const EtcdElectionOptions &options, const QByteArray &value)
        : m_election(client, prefix, options), m_value(value)
    {
        QObject::connect(&m_election, &EtcdElection::elected, &m_election, [this] { acquired(); });
        QObject::connect(
            &m_election, &EtcdElection::leadershipLost, &m_election, [this] { lost(); });
        QObject::connect(&m_election, &EtcdRecipe::closed, &m_election, [this] { closed(); });
    }
    QObject *recipe() override { return &m_election; }
    QString what() const override
    {
        const QList<EtcdStatus> why = m_election.errors();
        return why.isEmpty() ? QStringLiteral("cannot campaign") : why.last().toString();
    }
    bool acquire() override { return m_election.campaign(m_value); }
    bool isHeld() const override { return m_election.state() == EtcdElection::State::Leading; }
    // A campaign whose lease ended goes back to Idle: then it must be asked again.
    bool isAcquiring() const override
    {
        return m_election.state() == EtcdElection::State::Campaigning;
    }
    EtcdFencingToken token() const override { return m_election.fencingToken(); }
    EtcdTxnReply *guardedTxn(const EtcdTxn &txn) override { return m_election.guardedTxn(txn); }
    void release() override { m_election.resign(); }
    void close() override { m_election.close(); }
    std::chrono::seconds ttl() const override { return m_election.ttl(); }

private:
    EtcdElection m_election;
    QByteArray m_value;
};

class Incrementer
{
public:
    // `writesPerHold` cycles share one hold when it lasts: 1 for a lock, a term's for a leader.
    Incrementer(EtcdClient *client, Ownership &owner, const QByteArray &counter, qint64 cycles,
        qint64 writesPerHold, int holdMs, bool fenced, bool events);

    void start();
    void stop(int signal);

private:
    enum class Phase { Starting, Acquiring, Holding, Leaving };
    enum class Outcome { Committed, Refused, Failed, Unknown };
    // How the last hold ended, so that its loss, told late, is still counted as its own.
    enum class HoldEnd { Holding, Released, Reported, EndedUnreported };

    void nextCycle();
    void read();
    void write(qint64 value, qint64 readRevision);
    void endCycle(Outcome outcome);
    void settle(qint64 readRevision, QDeadlineTimer deadline);
    void existsAt(qint64 revision, std::function<void(std::optional<bool>)> answer);
    void bisect(qint64 readRevision, qint64 present, qint64 gone);
    void settleAt(qint64 readRevision, qint64 gone);
    void emitEvent(const QString &name, const QJsonObject &more = {}) const;
    void countLoss() // of the last hold, once
    {
        m_holdEnd = HoldEnd::Reported;
        ++m_lost;
        emitEvent(QStringLiteral("lost"));
    }
    void releaseHold()
    {
        m_holdEnd = HoldEnd::Released;
        m_owner.release();
    }
    void finish(int exitCode, bool withSummary = true);

    EtcdClient *m_client;
    Ownership &m_owner;
    QByteArray m_counter;
    const qint64 m_cycles;
    const qint64 m_writesPerHold;
    const int m_holdMs;
    const bool m_fenced;
    const bool m_events;
    Phase m_phase = Phase::Starting;
    EtcdFencingToken m_token; // of the hold in progress
    qint64 m_holdWrites = 0; // cycles in the hold in progress
    HoldEnd m_holdEnd = HoldEnd::Released;
    qint64 m_attempted = 0;
    qint64 m_succeeded = 0;
    qint64 m_failed = 0;
    qint64 m_refused = 0;
    qint64 m_unknown = 0;
    qint64 m_lost = 0;
    QStringList m_leases;
    int m_stopSignal = 0;
    int m_exitCode = 0;
};

Incrementer::Incrementer(EtcdClient *client, Ownership &owner, const QByteArray &counter,
    qint64 cycles, qint64 writesPerHold, int holdMs, bool fenced, bool events)
    : m_client(client), m_owner(owner), m_counter(counter), m_cycles(cycles),
      m_writesPerHold(writesPerHold), m_holdMs(holdMs), m_fenced(fenced), m_events(events)
{
    m_owner.acquired = [this] {
        if (m_phase != Phase::Acquiring)
            return;
        m_phase = Phase::Holding;
        m_token = m_owner.token();
        m_holdWrites = 0;
        m_holdEnd = HoldEnd::Holding;
        // Invalid when the hold was lost before this turn of the loop: its write is refused.
        const QString lease = QString::number(quint64(m_token.leaseId), 16);
        if (m_token.isValid() && !m_leases.contains(lease))
            m_leases.append(lease);
        emitEvent(QStringLiteral("held"));
        read();
    };
    m_owner.lost = [this] {
        // The last hold's loss, told after its cycle ended and the next acquisition began
        // (a write answered before the loss was, or failed and the hold was released): still
        // that hold's, with its token. The acquisition goes on.
        if (m_phase == Phase::Acquiring && m_owner.isAcquiring()) {
            if (m_holdEnd == HoldEnd::EndedUnreported || m_holdEnd == HoldEnd::Released)
                countLoss();
            return;
        }
        if (m_phase == Phase::Acquiring) { // a campaign's lease ended before it led: again
            QTimer::singleShot(0, m_owner.recipe(), [this] {
                if (m_phase == Phase::Acquiring && !m_owner.acquire())
                    finish(fail(m_owner.what()));
            });
            return;
        }
        if (m_phase == Phase::Holding)
            countLoss();
    };
    m_owner.closed = [this] { QCoreApplication::exit(m_exitCode); };
}

// One read first: an unreachable etcd, or a counter that is no number, ends the run at once.
void Incrementer::start()
{
    EtcdRangeReply *reply = m_client->get(m_counter);
    QObject::connect(
        reply, &EtcdReply::finished, m_owner.recipe(), [this, reply](const EtcdStatus &s) {
            if (m_phase != Phase::Starting)
                return;
            if (!s.isOk())
                return finish(
                    fail(QStringLiteral("etcd unreachable: %1").arg(s.toString())), false);
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
    if (!m_owner.acquire())
        finish(fail(m_owner.what()));
}

void Incrementer::read()
{
    EtcdRangeReply *reply = m_client->get(m_counter);
    QObject::connect(
        reply, &EtcdReply::finished, m_owner.recipe(), [this, reply](const EtcdStatus &s) {
            if (!s.isOk())
                return endCycle(Outcome::Failed);
            const std::optional<qint64> value = counterValue(*reply);
            if (!value) {
                fail(QStringLiteral("%1 does not hold a decimal number")
                         .arg(QString::fromUtf8(m_counter)));
                return endCycle(Outcome::Failed);
            }
            emitEvent(QStringLiteral("read"), {{QStringLiteral("value"), *value}});
            if (m_holdMs == 0)
                return write(*value + 1, reply->revision());
            QTimer::singleShot(m_holdMs, Qt::PreciseTimer, m_owner.recipe(),
                [this, next = *value + 1, at = reply->revision()] { write(next, at); });
        });
}

void Incrementer::write(qint64 value, qint64 readRevision)
{
    const QByteArray text = QByteArray::number(value);
    if (!m_fenced) {
        EtcdPutReply *reply = m_client->put(m_counter, text);
        QObject::connect(
            reply, &EtcdReply::finished, m_owner.recipe(), [this](const EtcdStatus &s) {
                // Without a fence, a put that got no answer may commit at any time: unknown.
                endCycle(s.isOk() ? Outcome::Committed : Outcome::Unknown);
            });
        return;
    }
    EtcdTxn txn;
    txn.success = {EtcdTxnOp::put(m_counter, text)};
    EtcdTxnReply *reply = m_owner.guardedTxn(txn);
    QObject::connect(reply, &EtcdReply::finished, m_owner.recipe(),
        [this, reply, readRevision](const EtcdStatus &s) {
            if (s.isOk())
                return endCycle(reply->succeeded() ? Outcome::Committed : Outcome::Refused);
            releaseHold(); // the hold's key goes: from then on, the outcome is settled
            settle(readRevision, QDeadlineTimer(settleBound(m_owner.ttl())));
        });
}

void Incrementer::endCycle(Outcome outcome)
{
    if (outcome == Outcome::Committed)
        ++m_succeeded;
    else
        ++m_failed;
    if (outcome == Outcome::Refused) {
        ++m_refused;
        emitEvent(QStringLiteral("refused"));
    }
    if (outcome == Outcome::Failed)
        emitEvent(QStringLiteral("failed"));
    if (outcome == Outcome::Unknown) {
        ++m_unknown;
        emitEvent(QStringLiteral("unknown"));
    }
    // A leader writes again in the same term while it lasts; a lock is taken per cycle.
    if (m_owner.isHeld() && ++m_holdWrites < m_writesPerHold && !m_stopSignal
        && m_attempted < m_cycles) {
        ++m_attempted;
        return read();
    }
    if (m_owner.isHeld())
        releaseHold();
    else if (m_holdEnd == HoldEnd::Holding) // gone, and the loss not told yet: it will be
        m_holdEnd = HoldEnd::EndedUnreported;
    nextCycle();
}

// A guarded write commits only while the hold's key exists with its create revision: none of
// ours after it is gone, and none of any other holder's before (they hold only once it is
// gone). So once it is gone, the write committed iff the counter changed between our read and
// the key's deletion, which etcd's history tells: the revision the key was deleted at, found by
// bisection over reads of the key at past revisions, and the counter just before it.
void Incrementer::settle(qint64 readRevision, QDeadlineTimer deadline)
{
    // A hold lost before acquired() was handled: its write was guarded by an invalid token,
    // which etcd never lets through (and there is no key to settle on).
    if (!m_token.isValid())
        return endCycle(Outcome::Failed);
    EtcdRangeReply *reply = m_client->get(m_token.key);
    QObject::connect(reply, &EtcdReply::finished, m_owner.recipe(),
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
            QTimer::singleShot(settleRetry(m_owner.ttl()), m_owner.recipe(),
                [this, readRevision, deadline] { settle(readRevision, deadline); });
        });
}

void Incrementer::existsAt(qint64 revision, std::function<void(std::optional<bool>)> answer)
{
    EtcdRangeOptions options;
    options.revision = revision;
    EtcdRangeReply *reply = m_client->get(m_token.key, options);
    QObject::connect(
        reply, &EtcdReply::finished, m_owner.recipe(), [this, reply, answer](const EtcdStatus &s) {
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
    QObject::connect(reply, &EtcdReply::finished, m_owner.recipe(),
        [this, reply, readRevision](const EtcdStatus &s) {
            if (!s.isOk())
                return endCycle(Outcome::Unknown);
            const QList<EtcdKeyValue> kvs = reply->keyValues();
            const bool changed = !kvs.isEmpty() && kvs.first().modRevision > readRevision;
            endCycle(changed ? Outcome::Committed : Outcome::Failed);
        });
}

void Incrementer::emitEvent(const QString &name, const QJsonObject &more) const
{
    if (!m_events)
        return;
    QJsonObject line = more;
    line.insert(QStringLiteral("event"), name);
    line.insert(QStringLiteral("key"), QString::fromUtf8(m_token.key));
    line.insert(QStringLiteral("lease"), QString::number(quint64(m_token.leaseId), 16));
    line.insert(QStringLiteral("token"), m_token.revision);
    emitLine(line);
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
            {QStringLiteral("refused"), m_refused}, {QStringLiteral("unknown"), m_unknown},
            {QStringLiteral("lost"), m_lost},
            {QStringLiteral("leases"), QJsonArray::fromStringList(m_leases)}});
    }
    m_owner.close();
}

} // namespace

int incrCommand(const Globals &globals, QStringList args)
{
    const QString countText = takeOption(args, QStringLiteral("--count"));
    const QString ttlText = takeOption(args, QStringLiteral("--ttl"), QStringLiteral("10"));
    const bool fenced = takeFlag(args, QStringLiteral("--fenced"));
    const bool unfenced = takeFlag(args, QStringLiteral("--unfenced"));
    const bool events = takeFlag(args, QStringLiteral("--events"));
    const QString holdText = takeOption(args, QStringLiteral("--hold-ms"), QStringLiteral("0"));
    bool ok = false;
    const int holdMs = holdText.toInt(&ok);
    if (!ok || holdMs < 0)
        return fail(QStringLiteral("--hold-ms must be a number of milliseconds"));
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
    MutexOwnership owner(client.get(), args.at(0).toUtf8(), options);
    Incrementer incrementer(
        client.get(), owner, args.at(1).toUtf8(), count, 1, holdMs, !unfenced, events);
    onTerminationSignal([&incrementer](int signal) { incrementer.stop(signal); });
    incrementer.start();
    return QCoreApplication::exec();
}

int electIncr(const Globals &globals, const QByteArray &prefix, const QByteArray &value,
    const ElectIncrOptions &options)
{
    auto client = makeClient(globals);
    EtcdElectionOptions electionOptions;
    electionOptions.ttl = options.ttl;
    ElectionOwnership owner(client.get(), prefix, electionOptions, value);
    Incrementer incrementer(client.get(), owner, options.counter, options.count, options.termWrites,
        options.holdMs, options.fenced, options.events);
    onTerminationSignal([&incrementer](int signal) { incrementer.stop(signal); });
    incrementer.start();
    return QCoreApplication::exec();
}

} // namespace Cli
