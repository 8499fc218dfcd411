// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// The work queue under a fault: the faulted consumer holds a claim (visibility timeout: the
// matrix's TTL) through it, while the clean client puts items before, during and after it and
// a clean consumer receives and acknowledges them. Invariants: no item lost, none
// acknowledged twice nor delivered after its acknowledgement; a fault that outlasts the TTL
// makes the faulted consumer report its claims lost, the held item is delivered again
// (attempt 2) to the clean consumer, and the faulted consumer's late ack answers false (etcd
// agrees: the new delivery's ack commits after it); a fault the lease outlives keeps the
// claim: no new delivery, and the ack commits. The consumers' leases are gone after close.
#include "paced.h"
#include "subjects.h"

#include <EtcdQt/etcdboolreply.h>
#include <EtcdQt/etcdworkqueue.h>

#include <QtCore/qhash.h>
#include <QtCore/qpointer.h>
#include <QtCore/qtimer.h>

using namespace Qt::StringLiterals;

namespace FaultMatrix {
namespace {

constexpr QByteArrayView kHeld = "held";
constexpr int kBefore = 3; // puts before the fault
constexpr int kDuring = 3;

// The answer of the faulted consumer's late ack, kept past the subject's checks.
struct LateAck
{
    bool answered = false;
    EtcdStatus status;
    bool result = false;
};

class WorkQueueSubject : public Subject
{
public:
    void start(EtcdClient *faulted, EtcdClient *clean, const QByteArray &path) override;
    // The faulted consumer holds its claim; the clean one has acknowledged a few items.
    bool steady() override;
    void sample() override;
    QString afterFault(const FaultFacts &facts) override;
    QString recover() override;
    bool close() override;
    // Mid-operation: a receive waits as the client goes.
    void handOverFaulted() override
    {
        m_faultedQueue->receive();
        m_faultedQueue.release()->setParent(m_faulted);
    }
    [[nodiscard]] QList<qint64> faultedLeases() const override { return {m_held.claim.leaseId}; }
    // The clean consumer got the held item again.
    [[nodiscard]] bool tookOver() const override { return m_heldAgain.isValid(); }

private:
    std::unique_ptr<EtcdWorkQueue> create(
        EtcdClient *client, const QString &id, std::chrono::seconds visibility);
    void receiveClean();
    void delivered(const EtcdWorkItem &item, const QString &by);
    void ack(EtcdWorkQueue *queue, const EtcdWorkItem &item, bool retried = false);
    void sendLateAck();
    QString afterLoss(const FaultFacts &facts);
    QString afterKeptClaim();
    QString putNow(const QByteArray &value);
    QString allAcknowledged(const QString &after);
    static QByteArray valueOf(int n) { return "i" + QByteArray::number(n); }

    std::unique_ptr<EtcdWorkQueue> m_faultedQueue;
    std::unique_ptr<EtcdWorkQueue> m_cleanQueue;
    std::unique_ptr<QObject> m_cleanContext = std::make_unique<QObject>();
    QPointer<EtcdWorkItemReply> m_cleanPending;
    bool m_cleanRunning = false;
    PacedCalls m_puts {100};
    QList<QByteArray> m_checkPuts; // acknowledged puts of the checks
    bool m_faultOn = false;
    bool m_putsDone = false;
    EtcdWorkItem m_held; // the faulted consumer's claim through the fault
    EtcdWorkItem m_heldAgain; // its delivery to the clean consumer
    bool m_heldSettled = false; // the faulted consumer's ack (or loss) was decided
    int m_claimsLost = 0; // the faulted consumer's claimsLost()
    std::shared_ptr<LateAck> m_lateAck; // null until sent
    QHash<QByteArray, int> m_acked; // value -> acks that answered true
    QHash<QByteArray, int> m_deliveries; // value -> deliveries
    QSet<QByteArray> m_ackedUnknown; // an ack failed, its repeat answered false
    QStringList m_failures; // receives that ended with an error
};

std::unique_ptr<EtcdWorkQueue> WorkQueueSubject::create(
    EtcdClient *client, const QString &id, std::chrono::seconds visibility)
{
    EtcdWorkQueue::Options o;
    o.visibilityTimeout = visibility;
    o.clientId = id;
    auto queue = std::make_unique<EtcdWorkQueue>(client, m_path, o);
    if (client == m_faulted) {
        QObject::connect(queue.get(), &EtcdWorkQueue::claimsLost, [this] { ++m_claimsLost; });
    }
    return queue;
}

void WorkQueueSubject::start(EtcdClient *faulted, EtcdClient *clean, const QByteArray &path)
{
    m_faulted = faulted;
    m_clean = clean;
    m_path = path;
    m_faultedQueue = create(faulted, u"faulted"_s, kTtl);
    m_cleanQueue = create(clean, u"clean"_s, m_cleanTtl);
    m_puts.setCall([this](int n) { return m_cleanQueue->enqueue(valueOf(n)); });
    // The faulted consumer waits first: the first item is its.
    EtcdWorkItemReply *r = m_faultedQueue->receive();
    QObject::connect(r, &EtcdReply::finished, m_faultedQueue.get(), [this, r](const EtcdStatus &s) {
        if (!s.isOk() || !r->found())
            return violate(u"the faulted consumer's first receive failed: "_s + s.toString());
        m_held = r->item();
        delivered(m_held, u"the faulted consumer"_s);
    });
    QObject::connect(m_cleanQueue->enqueue(kHeld.toByteArray()), &EtcdReply::finished,
        m_cleanQueue.get(), [this](const EtcdStatus &s) {
            if (s.isOk())
                m_checkPuts.append(kHeld.toByteArray());
        });
}

bool WorkQueueSubject::steady()
{
    if (!m_held.isValid())
        return false;
    if (!m_cleanRunning) {
        m_cleanRunning = true;
        receiveClean();
    }
    m_puts.setRunning(m_puts.sent() < kBefore);
    m_puts.pump();
    if (m_puts.sent() < kBefore || !m_puts.idle())
        return false;
    for (const int n : std::as_const(m_puts.acked)) {
        if (m_acked.value(valueOf(n)) == 0)
            return false;
    }
    return m_checkPuts.contains(kHeld.toByteArray());
}

void WorkQueueSubject::sample()
{
    // A few more puts, one right after the other as the fault begins. Each ack of the clean
    // consumer is a claim's end, which the faulted consumer's claims watch follows with a
    // read: puts spread over the fault would keep its client busy, and its auth token would
    // never run out (the token column).
    if (!std::exchange(m_faultOn, true))
        m_puts.setPace(0);
    m_puts.setRunning(!m_putsDone && m_puts.sent() < kBefore + kDuring);
    m_puts.pump();
    // The delay column: once the item was delivered again, the faulted consumer, unaware of
    // its loss, acknowledges it through its own client.
    if (m_lateWrites && !m_lateAck && m_heldAgain.isValid())
        sendLateAck();
}

// receive() after receive() on the clean consumer while running; each item acknowledged at
// once, but the held item's new delivery only after the faulted consumer's ack was decided.
void WorkQueueSubject::receiveClean()
{
    EtcdWorkItemReply *r = m_cleanQueue->receive();
    m_cleanPending = r;
    QObject::connect(r, &EtcdReply::finished, m_cleanContext.get(), [this, r](const EtcdStatus &s) {
        m_cleanPending = nullptr;
        if (s.isOk() && r->found()) {
            const EtcdWorkItem item = r->item();
            delivered(item, u"the clean consumer"_s);
            if (item.id == m_held.id && !m_heldSettled)
                m_heldAgain = item;
            else
                ack(m_cleanQueue.get(), item);
        } else if (s.code() != Etcd::ErrorCode::Cancelled) {
            m_failures.append(u"the clean consumer: "_s + s.toString());
        }
        if (m_cleanRunning)
            receiveClean();
    });
}

void WorkQueueSubject::delivered(const EtcdWorkItem &item, const QString &by)
{
    noteLease(item.claim.leaseId);
    ++m_deliveries[item.value];
    if (m_acked.value(item.value) > 0)
        violate(u"%1 delivered again (attempt %2, to %3) after an ack of it committed"_s
                    .arg(QString::fromUtf8(item.value))
                    .arg(item.attempt)
                    .arg(by));
}

// An ack whose answer was lost is repeated until etcd answers: false then may mean that the
// first one committed.
void WorkQueueSubject::ack(EtcdWorkQueue *queue, const EtcdWorkItem &item, bool retried)
{
    EtcdBoolReply *r = queue->ack(item);
    QObject::connect(
        r, &EtcdReply::finished, queue, [this, queue, item, r, retried](const EtcdStatus &s) {
            if (!s.isOk()) {
                QTimer::singleShot(250, queue, [this, queue, item] { ack(queue, item, true); });
                return;
            }
            if (r->result() && ++m_acked[item.value] > 1)
                violate(u"%1 acknowledged %2 times"_s.arg(QString::fromUtf8(item.value))
                            .arg(m_acked[item.value]));
            if (!r->result() && retried)
                m_ackedUnknown.insert(item.value);
        });
}

void WorkQueueSubject::sendLateAck()
{
    m_lateAck = std::make_shared<LateAck>();
    EtcdBoolReply *r = m_faultedQueue->ack(m_held);
    // The reply may finish after the subject is gone (the queue closes first).
    QObject::connect(r, &EtcdReply::finished, r, [late = m_lateAck, r](const EtcdStatus &s) {
        late->answered = true;
        late->status = s;
        late->result = s.isOk() && r->result();
    });
}

QString WorkQueueSubject::putNow(const QByteArray &value)
{
    const auto r = await(m_cleanQueue->enqueue(value));
    if (!r.status.isOk())
        return u"putting %1 failed: %2"_s.arg(QString::fromUtf8(value), r.status.toString());
    m_checkPuts.append(value);
    return {};
}

QString WorkQueueSubject::afterFault(const FaultFacts &facts)
{
    m_putsDone = true;
    if (!m_puts.stop())
        return u"a put never answered after the fault"_s;
    for (int i = 0; i < 2; ++i) { // some after it
        const int n = m_puts.sendNow();
        if (!waitFor([this] { return m_puts.idle(); }) || !m_puts.acked.contains(n))
            return u"a put after the fault failed"_s;
    }
    QString r;
    if (facts.faultedDestroyed) {
        // Its destructor revoked the lease: the claim went at once, not a TTL later.
        if (!waitFor([this] { return m_heldAgain.isValid(); }, kTtlMs))
            return u"the held item was not delivered again within a TTL of its consumer's "
                   u"deletion; etcd holds %1"_s.arg(keysText(*m_clean, m_path));
        m_heldSettled = true;
        ack(m_cleanQueue.get(), m_heldAgain);
    } else if (facts.outlastsTtl || (facts.mayOutlastTtl && m_claimsLost > 0)) {
        r = afterLoss(facts);
    } else {
        r = afterKeptClaim();
    }
    if (!r.isEmpty())
        return r;
    return allAcknowledged(u"the fault"_s);
}

QString WorkQueueSubject::afterLoss(const FaultFacts &facts)
{
    if (!waitFor([this] { return m_claimsLost > 0; }))
        return u"the faulted consumer never reported its claims lost"_s;
    if (!waitFor([this] { return m_heldAgain.isValid(); }))
        return u"the item whose claim was lost was never delivered again; etcd holds %1"_s.arg(
            keysText(*m_clean, m_path));
    // Both leases may have run out when the fault hit both clients: then a later delivery.
    if (facts.cleanHit ? m_heldAgain.attempt < 2 : m_heldAgain.attempt != 2)
        return u"the item was delivered again as attempt %1"_s.arg(m_heldAgain.attempt);
    if (!m_lateAck)
        sendLateAck();
    if (!waitFor([this] { return m_lateAck->answered; }))
        return u"the faulted consumer's late ack never answered"_s;
    if (m_lateAck->result)
        return u"the faulted consumer's late ack answered true after its claim was lost and "
               u"the item delivered again"_s;
    qInfo("fault matrix: %s: the held claim was lost, delivered again as attempt %d; the late "
          "ack answered false (%s)",
        m_path.constData(), m_heldAgain.attempt, qPrintable(m_lateAck->status.toString()));
    m_heldSettled = true;
    if (facts.cleanHit) { // the new delivery's claim may be lost too: it comes again
        ack(m_cleanQueue.get(), m_heldAgain);
        return {};
    }
    // etcd's word, whatever the late ack's answer said: the new delivery's claim stands.
    const auto again = await(m_cleanQueue->ack(m_heldAgain));
    if (!again.status.isOk() || !again->result())
        return u"the new delivery's ack did not commit after the late ack (%1)"_s.arg(
            again.status.toString());
    ++m_acked[m_heldAgain.value];
    return {};
}

QString WorkQueueSubject::afterKeptClaim()
{
    if (m_claimsLost > 0)
        return u"the faulted consumer reported its claims lost; its lease outlived the fault"_s;
    if (m_heldAgain.isValid())
        return u"the held item was delivered again (attempt %1) while its claim held"_s.arg(
            m_heldAgain.attempt);
    const auto acked = await(m_faultedQueue->ack(m_held));
    m_heldSettled = true;
    if (!acked.status.isOk() || !acked->result())
        return u"the faulted consumer's ack of the claim it kept did not commit (%1, result %2); "
               u"etcd holds %3"_s.arg(acked.status.toString())
                   .arg(acked.status.isOk() && acked->result())
                   .arg(keysText(*m_clean, m_path));
    ++m_acked[m_held.value];
    qInfo("fault matrix: %s: the held claim was kept and acknowledged", m_path.constData());
    return {};
}

// Every item put is acknowledged once (or its ack's first answer was lost and a repeat found
// the claim gone); nothing left in etcd but what is still to come.
QString WorkQueueSubject::allAcknowledged(const QString &after)
{
    QList<QByteArray> expected = m_checkPuts;
    QList<QByteArray> mayBe;
    for (int n = 0; n < m_puts.sent(); ++n)
        (m_puts.acked.contains(n) ? expected : mayBe).append(valueOf(n));
    const auto done = [this](const QByteArray &v) {
        return m_acked.value(v) > 0 || m_ackedUnknown.contains(v);
    };
    const auto allDone = [&] {
        return std::all_of(expected.cbegin(), expected.cend(), done)
            && keyCount(*m_clean, m_path + "/items") == 0
            && keyCount(*m_clean, m_path + "/claimed") == 0;
    };
    if (!waitFor(allDone)) {
        QStringList missing;
        for (const QByteArray &v : std::as_const(expected)) {
            if (!done(v))
                missing.append(
                    u"%1 (%2 deliveries)"_s.arg(QString::fromUtf8(v)).arg(m_deliveries.value(v)));
        }
        return u"after %1 not every item was acknowledged: %2; etcd holds %3"_s.arg(
            after, missing.join(u", "), keysText(*m_clean, m_path));
    }
    for (auto it = m_acked.cbegin(); it != m_acked.cend(); ++it) {
        if (!expected.contains(it.key()) && !mayBe.contains(it.key()))
            return u"%1 acknowledged but never put"_s.arg(QString::fromUtf8(it.key()));
    }
    if (!m_failures.isEmpty())
        return u"a waiting receive failed: "_s + m_failures.join(u"; ");
    qInfo("fault matrix: %s: %d puts, %lld unknown; %lld acknowledged, %lld by a lost answer",
        m_path.constData(), m_puts.sent(), qint64(m_puts.unknown.size()), qint64(m_acked.size()),
        qint64(m_ackedUnknown.size()));
    return {};
}

// Usable: with the clean consumer stopped, the faulted (or new) consumer receives a new item
// as its first delivery, and its ack commits; then nothing is left in etcd.
QString WorkQueueSubject::recover()
{
    if (std::exchange(m_faultedReplaced, false))
        m_faultedQueue = create(m_faulted, u"faulted"_s, kTtl);
    m_cleanRunning = false;
    if (m_cleanPending)
        m_cleanPending->abort();
    if (!waitFor([this] { return !m_cleanPending; }))
        return u"the clean consumer's receive never ended"_s;
    EtcdWorkItemReply *waiting = m_faultedQueue->receive();
    waiting->setAutoDelete(false); // it may answer while the put is awaited
    std::unique_ptr<EtcdWorkItemReply> owner(waiting);
    if (const QString r = putNow("recovered"); !r.isEmpty())
        return r;
    const auto received = await(owner.release(), std::chrono::milliseconds(kWaitMs));
    if (!received.status.isOk() || !received->found())
        return u"the faulted consumer never received an item put after the fault (%1); etcd "
               u"holds %2"_s.arg(received.status.toString(), keysText(*m_clean, m_path));
    const EtcdWorkItem item = received->item();
    delivered(item, u"the faulted consumer"_s);
    if (item.value != "recovered" || item.attempt != 1)
        return u"the faulted consumer received %1 as attempt %2, not the new item's first "
               u"delivery"_s.arg(QString::fromUtf8(item.value))
                   .arg(item.attempt);
    const auto acked = await(m_faultedQueue->ack(item));
    if (!acked.status.isOk() || !acked->result())
        return u"the faulted consumer's ack after recovering did not commit: "_s
            + acked.status.toString();
    ++m_acked[item.value];
    if (const QString r = allAcknowledged(u"recovering"_s); !r.isEmpty())
        return r;
    if (const int left = keyCount(*m_clean, m_path); left != 0)
        return u"%1 key(s) left in the queue after every item was acknowledged: %2"_s.arg(left).arg(
            keysText(*m_clean, m_path));
    return {};
}

bool WorkQueueSubject::close()
{
    QList<EtcdRecipe *> open {m_cleanQueue.get()};
    if (m_faultedQueue)
        open.append(m_faultedQueue.get());
    return closeAll(open);
}

} // namespace

std::unique_ptr<Subject> makeWorkQueue()
{
    return std::make_unique<WorkQueueSubject>();
}

} // namespace FaultMatrix
