// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// The queues under a fault (the FIFO queue, the priority queue): the clean client puts items
// before, during and after the fault; a taker on each client takes them, and the faulted
// taker waits on the empty queue as the fault begins. Invariants: every item put is taken
// exactly once once the fault is over (none lost, none doubled; a put whose answer was lost
// may be taken or not, once at most); a waiting take rides out the fault (it never fails on
// an outage of an etcd it had reached) and wakes for an item put after it; items waiting
// together come out in the queue's order. The queues own no lease.
#include "paced.h"
#include "subjects.h"

#include <EtcdQt/etcdpriorityqueue.h>
#include <EtcdQt/etcdqueue.h>
#include <EtcdQt/etcdqueueitemreply.h>

#include <QtCore/qhash.h>
#include <QtCore/qpointer.h>

using namespace Qt::StringLiterals;

namespace FaultMatrix {
namespace {

// dequeue() after dequeue() on one queue while running, every value taken recorded.
class Taker
{
public:
    explicit Taker(QString name) : m_name(std::move(name)) { }

    void setQueue(EtcdAbstractQueue *queue)
    {
        m_queue = queue;
        m_pending = nullptr;
        m_running = false;
        m_context = std::make_unique<QObject>(); // answers for an earlier queue are dropped
    }
    // Takes on and on from now.
    void run()
    {
        m_running = true;
        if (!m_pending)
            issue();
    }
    // Takes one more item (not running).
    void takeOne()
    {
        m_running = false;
        if (!m_pending)
            issue();
    }
    // No take after the one waiting now (which stays).
    void hold() { m_running = false; }
    // Ends the waiting take too (an item it took meanwhile goes to the queue's next take).
    bool stop()
    {
        m_running = false;
        if (m_pending)
            m_pending->abort();
        return waitFor([this] { return !m_pending; });
    }
    [[nodiscard]] bool waiting() const { return bool(m_pending); }

    QList<QByteArray> taken;
    QStringList failures; // takes that ended with an error

private:
    void issue()
    {
        EtcdQueueItemReply *r = m_queue->dequeue();
        m_pending = r;
        QObject::connect(r, &EtcdReply::finished, m_context.get(), [this, r](const EtcdStatus &s) {
            m_pending = nullptr;
            if (s.isOk() && r->found())
                taken.append(r->value());
            else if (s.code() != Etcd::ErrorCode::Cancelled)
                failures.append(u"%1: %2"_s.arg(m_name, s.toString()));
            if (m_running)
                issue();
        });
    }

    QString m_name;
    EtcdAbstractQueue *m_queue = nullptr;
    QPointer<EtcdQueueItemReply> m_pending;
    bool m_running = false;
    std::unique_ptr<QObject> m_context = std::make_unique<QObject>();
};

// An item put by the checks (not by the paced puts), and the priority it was put with.
struct Put
{
    QByteArray value;
    int priority = 0;
};

constexpr int kBefore = 3; // puts before the fault
constexpr int kDuring = 3;

class QueueSubject : public Subject
{
public:
    void start(EtcdClient *faulted, EtcdClient *clean, const QByteArray &path) override;
    // A few items put and taken; both takers wait on the empty queue.
    bool steady() override;
    // From the fault on: a few more puts, one right after the other as it begins. Spread
    // over the fault they would keep the faulted taker's client busy, and its auth token
    // would never run out (the token column).
    void sample() override;
    QString afterFault(const FaultFacts &facts) override;
    QString recover() override;
    bool close() override;
    // Mid-operation: its waiting take goes with the client.
    void handOverFaulted() override
    {
        m_faultedTaker.setQueue(nullptr);
        m_faultedQueue.release()->setParent(m_faulted);
    }
    // Nothing of a queue is leased.
    [[nodiscard]] QList<qint64> faultedLeases() const override { return {}; }

protected:
    virtual std::unique_ptr<EtcdAbstractQueue> create(EtcdClient *client) = 0;
    virtual EtcdReply *put(const QByteArray &value, int priority) = 0;
    // Items put one after another with no take waiting, and the order they must come out in.
    [[nodiscard]] virtual QList<Put> batch() const = 0;
    [[nodiscard]] virtual QList<QByteArray> order(const QList<Put> &batch) const = 0;
    // The paced puts' priorities.
    [[nodiscard]] virtual int priorityOf(int n) const { return n % 3; }

    std::unique_ptr<EtcdAbstractQueue> m_cleanQueue;

private:
    static QByteArray valueOf(int n) { return "i" + QByteArray::number(n); }
    QString putNow(const QByteArray &value, int priority);
    QString drained(const QString &after);
    QString wakesAndKeepsOrder(const QString &after);
    QString accounted();

    std::unique_ptr<EtcdAbstractQueue> m_faultedQueue;
    Taker m_faultedTaker {u"the faulted taker"_s};
    Taker m_cleanTaker {u"the clean taker"_s};
    PacedCalls m_puts {100};
    QList<QByteArray> m_checkPuts; // acknowledged puts of the checks
    bool m_faultOn = false;
    bool m_putsDone = false;
};

void QueueSubject::start(EtcdClient *faulted, EtcdClient *clean, const QByteArray &path)
{
    m_faulted = faulted;
    m_clean = clean;
    m_path = path;
    m_faultedQueue = create(faulted);
    m_cleanQueue = create(clean);
    m_faultedTaker.setQueue(m_faultedQueue.get());
    m_cleanTaker.setQueue(m_cleanQueue.get());
    m_puts.setCall([this](int n) { return put(valueOf(n), priorityOf(n)); });
    m_faultedTaker.run();
    m_cleanTaker.run();
}

bool QueueSubject::steady()
{
    m_puts.setRunning(m_puts.sent() < kBefore);
    m_puts.pump();
    return m_puts.sent() == kBefore && m_puts.idle()
        && m_faultedTaker.taken.size() + m_cleanTaker.taken.size() == m_puts.acked.size()
        && m_faultedTaker.waiting() && m_cleanTaker.waiting();
}

void QueueSubject::sample()
{
    if (!std::exchange(m_faultOn, true))
        m_puts.setPace(0);
    m_puts.setRunning(!m_putsDone && m_puts.sent() < kBefore + kDuring);
    m_puts.pump();
}

QString QueueSubject::putNow(const QByteArray &value, int priority)
{
    const auto r = await(put(value, priority));
    if (!r.status.isOk())
        return u"putting %1 failed: %2"_s.arg(QString::fromUtf8(value), r.status.toString());
    m_checkPuts.append(value);
    return {};
}

// The takers running take every item left; then both wait again.
QString QueueSubject::drained(const QString &after)
{
    if (!waitFor([this] {
            return keyCount(*m_clean, m_path) == 0 && m_cleanTaker.waiting()
                && (!m_faultedQueue || m_faultedTaker.waiting());
        }))
        return u"after %1 the items were never all taken; etcd holds %2"_s.arg(
            after, keysText(*m_clean, m_path));
    return {};
}

// With the clean taker stopped, the faulted taker's waiting take wakes for a new item; then
// items put together come out in the queue's order.
QString QueueSubject::wakesAndKeepsOrder(const QString &after)
{
    if (!m_cleanTaker.stop())
        return u"the clean taker's take never ended"_s;
    m_faultedTaker.hold();
    if (const QString r = putNow("wake", 0); !r.isEmpty())
        return r;
    // Its take may have been on the wire with an item put before (a put whose answer the fault
    // lost, seen late): then the next take gets the new one.
    const auto woke = [this] {
        if (!m_faultedTaker.taken.isEmpty() && m_faultedTaker.taken.last() == "wake")
            return true;
        m_faultedTaker.takeOne(); // a no-op while one waits
        return false;
    };
    if (!waitFor(woke))
        return u"after %1 the faulted taker never took an item put after it (it took %2; etcd "
               u"holds %3)"_s.arg(after, QString::fromUtf8(m_faultedTaker.taken.join(' ')),
                   keysText(*m_clean, m_path));
    const QList<Put> items = batch();
    for (const Put &p : items) {
        if (const QString r = putNow(p.value, p.priority); !r.isEmpty())
            return r;
    }
    const qsizetype from = m_faultedTaker.taken.size();
    for (qsizetype i = 0; i < items.size(); ++i) {
        m_faultedTaker.takeOne();
        if (!waitFor([&] { return m_faultedTaker.taken.size() > from + i; }))
            return u"a take of an item waiting never answered"_s;
    }
    const QList<QByteArray> got = m_faultedTaker.taken.mid(from);
    if (got != order(items))
        return u"items waiting together came out as %1, not %2"_s.arg(
            QString::fromUtf8(got.join(' ')), QString::fromUtf8(order(items).join(' ')));
    return {};
}

QString QueueSubject::afterFault(const FaultFacts &facts)
{
    m_putsDone = true;
    if (!m_puts.stop())
        return u"a put never answered after the fault"_s;
    for (int i = 0; i < 2; ++i) { // some after it
        const int n = m_puts.sendNow();
        if (!waitFor([this] { return m_puts.idle(); }) || !m_puts.acked.contains(n))
            return u"a put after the fault failed"_s;
    }
    qInfo("fault matrix: %s: %d puts, %lld unknown; taken %lld by the faulted taker, %lld by "
          "the clean one",
        m_path.constData(), m_puts.sent(), qint64(m_puts.unknown.size()),
        qint64(m_faultedTaker.taken.size()), qint64(m_cleanTaker.taken.size()));
    if (!m_faultedTaker.failures.isEmpty() || !m_cleanTaker.failures.isEmpty())
        return u"a waiting take failed: "_s
            + (m_faultedTaker.failures + m_cleanTaker.failures).join(u"; ");
    if (const QString r = drained(u"the fault"_s); !r.isEmpty())
        return r;
    if (facts.faultedDestroyed)
        return {}; // its taker went with it; recover() makes a new one
    return wakesAndKeepsOrder(u"the fault"_s);
}

QString QueueSubject::recover()
{
    if (std::exchange(m_faultedReplaced, false)) {
        m_faultedQueue = create(m_faulted); // on the deleted client's replacement
        m_faultedTaker.setQueue(m_faultedQueue.get());
        m_faultedTaker.run();
        if (const QString r = wakesAndKeepsOrder(u"a new client's start"_s); !r.isEmpty())
            return r;
    }
    m_cleanTaker.run();
    m_faultedTaker.run();
    if (const QString r = putNow("recovered", 1); !r.isEmpty())
        return r;
    if (const QString r = drained(u"recovering"_s); !r.isEmpty())
        return r;
    return accounted();
}

// Every item taken once: each acknowledged put, and at most once each put of unknown outcome.
QString QueueSubject::accounted()
{
    QList<QByteArray> expected = m_checkPuts;
    QList<QByteArray> mayBe;
    for (int n = 0; n < m_puts.sent(); ++n)
        (m_puts.acked.contains(n) ? expected : mayBe).append(valueOf(n));
    // A take may still be on its way back with the last of them.
    waitFor([&] {
        const QList<QByteArray> all = m_faultedTaker.taken + m_cleanTaker.taken;
        return std::all_of(expected.cbegin(), expected.cend(),
            [&all](const QByteArray &v) { return all.contains(v); });
    });
    if (!m_faultedTaker.failures.isEmpty() || !m_cleanTaker.failures.isEmpty())
        return u"a waiting take failed: "_s
            + (m_faultedTaker.failures + m_cleanTaker.failures).join(u"; ");
    QHash<QByteArray, int> taken;
    for (const QByteArray &v : m_faultedTaker.taken + m_cleanTaker.taken)
        ++taken[v];
    QStringList problems;
    for (auto it = taken.cbegin(); it != taken.cend(); ++it) {
        if (it.value() > 1)
            problems.append(
                u"%1 taken %2 times"_s.arg(QString::fromUtf8(it.key())).arg(it.value()));
    }
    for (const QByteArray &v : std::as_const(expected)) {
        if (!taken.contains(v))
            problems.append(u"%1 lost (put, never taken; etcd holds %2)"_s.arg(
                QString::fromUtf8(v), keysText(*m_clean, m_path)));
    }
    for (auto it = taken.cbegin(); it != taken.cend(); ++it) {
        if (!expected.contains(it.key()) && !mayBe.contains(it.key()))
            problems.append(u"%1 taken but never put"_s.arg(QString::fromUtf8(it.key())));
    }
    if (!problems.isEmpty())
        return problems.join(u"; ");
    return {};
}

bool QueueSubject::close()
{
    QList<EtcdRecipe *> open {m_cleanQueue.get()};
    if (m_faultedQueue)
        open.append(m_faultedQueue.get());
    return closeAll(open);
}

class FifoQueueSubject : public QueueSubject
{
protected:
    std::unique_ptr<EtcdAbstractQueue> create(EtcdClient *client) override
    {
        return std::make_unique<EtcdQueue>(client, m_path);
    }
    EtcdReply *put(const QByteArray &value, int) override
    {
        return static_cast<EtcdQueue *>(m_cleanQueue.get())->enqueue(value);
    }
    QList<Put> batch() const override { return {{"o0"}, {"o1"}, {"o2"}}; }
    QList<QByteArray> order(const QList<Put> &items) const override
    {
        QList<QByteArray> values;
        for (const Put &p : items)
            values.append(p.value);
        return values;
    }
};

class PriorityQueueSubject : public QueueSubject
{
protected:
    std::unique_ptr<EtcdAbstractQueue> create(EtcdClient *client) override
    {
        return std::make_unique<EtcdPriorityQueue>(client, m_path);
    }
    EtcdReply *put(const QByteArray &value, int priority) override
    {
        return static_cast<EtcdPriorityQueue *>(m_cleanQueue.get())->enqueue(value, priority);
    }
    // Lowest priority number first, then in the order put.
    QList<Put> batch() const override
    {
        return {{"o0", 5}, {"o1", 2}, {"o2", 5}, {"o3", 0}, {"o4", 2}};
    }
    QList<QByteArray> order(const QList<Put> &items) const override
    {
        QList<Put> sorted = items;
        std::stable_sort(sorted.begin(), sorted.end(),
            [](const Put &a, const Put &b) { return a.priority < b.priority; });
        QList<QByteArray> values;
        for (const Put &p : sorted)
            values.append(p.value);
        return values;
    }
};

} // namespace

std::unique_ptr<Subject> makeQueue()
{
    return std::make_unique<FifoQueueSubject>();
}
std::unique_ptr<Subject> makePriorityQueue()
{
    return std::make_unique<PriorityQueueSubject>();
}

} // namespace FaultMatrix
