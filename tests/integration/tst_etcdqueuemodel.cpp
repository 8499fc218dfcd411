// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// EtcdQueueModel against a real etcd: the rows of a FIFO queue in take order across two
// producers (and batches), of a priority queue by priority, and of a work queue through its
// states (queued, delayed, in flight, orphaned, dead letter and back), row by row, never
// reset. Producers wait for each enqueue's answer, so the order etcd applies them in is known.
#include "leaseledger.h"
#include "testutil.h"

#include <etcdtestserver.h>

#include <QtCore/qdatetime.h>
#include <QtTest/qabstractitemmodeltester.h>

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;
using Model = EtcdQueueModel;
using State = EtcdQueueModel::State;

namespace {

constexpr int kWaitMs = 10000;

// The rows' values, in row order.
QStringList values(const Model &model)
{
    QStringList out;
    for (int row = 0; row < model.rowCount(); ++row)
        out.append(model.index(row).data(Model::ValueRole).toString());
    return out;
}

QString stateName(State state)
{
    switch (state) {
    case State::Queued:
        return u"Queued"_s;
    case State::Delayed:
        return u"Delayed"_s;
    case State::InFlight:
        return u"InFlight"_s;
    case State::Orphaned:
        return u"Orphaned"_s;
    case State::DeadLetter:
        return u"DeadLetter"_s;
    }
    return u"?"_s;
}

// The rows as "<state> <value>", in row order.
QStringList stateRows(const Model &model)
{
    QStringList out;
    for (int row = 0; row < model.rowCount(); ++row) {
        const QModelIndex i = model.index(row);
        out.append(stateName(State(i.data(Model::StateRole).toInt())) + u' '
            + i.data(Model::ValueRole).toString());
    }
    return out;
}

// What `role` says of the row holding `value`; invalid when there is none.
QVariant fieldOf(const Model &model, const QString &value, int role)
{
    for (int row = 0; row < model.rowCount(); ++row) {
        if (model.index(row).data(Model::ValueRole).toString() == value)
            return model.index(row).data(role);
    }
    return {};
}

// Every row inserted, as "<first>..<last>", and the states of the rows it inserted.
struct Insertions
{
    explicit Insertions(Model *model)
    {
        QObject::connect(model, &QAbstractItemModel::rowsInserted, model,
            [this, model](const QModelIndex &, int first, int last) {
                ranges.append(u"%1..%2"_s.arg(first).arg(last));
                for (int row = first; row <= last; ++row)
                    states.append(State(model->index(row).data(Model::StateRole).toInt()));
            });
    }
    QStringList ranges;
    QList<State> states;
};

} // namespace

class tst_EtcdQueueModel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void fifoRowsInTakeOrderAcrossProducers();
    void priorityRowsByPriority();
    void workRowsFollowTheStates();
    void workRequeueAndAckAndStateFilter();
    void kindChangeReadsTheRowsAgain();

private:
    bool enqueue(EtcdQueue &queue, const QByteArray &value);
    bool startedModel(EtcdPathChildrenCache &cache);
    EtcdTestServer m_server;
    LeaseLedger m_leases; // issue 22 item 7: no test leaves a lease
    std::unique_ptr<EtcdClient> m_client;
};

void tst_EtcdQueueModel::initTestCase()
{
    ETCDQT_START_OR_SKIP(m_server);
    m_client = connectedClient(m_server.clientUrl());
}

void tst_EtcdQueueModel::init()
{
    if (!m_server.isRunning())
        QVERIFY2(m_server.restart(), qPrintable(m_server.log()));
    m_leases.begin(m_server);
}

void tst_EtcdQueueModel::cleanup()
{
    VERIFY_NO_LEASE_LEFT(m_leases);
    await(m_client->remove("/qm/", {.prefix = true}));
    await(m_client->remove("__/qm/", {.prefix = true})); // the priority markers
}

bool tst_EtcdQueueModel::enqueue(EtcdQueue &queue, const QByteArray &value)
{
    return await(queue.enqueue(value)).status.isOk();
}

bool tst_EtcdQueueModel::startedModel(EtcdPathChildrenCache &cache)
{
    cache.start(EtcdPathChildrenCache::StartMode::BuildInitialCache);
    return QTest::qWaitFor([&cache] { return cache.isStarted(); }, kWaitMs);
}

// Two producers on their own clients, interleaved, and a batch: the rows are in the order
// etcd committed them (a batch in its index order), each put one row inserted at the end,
// each take one row removed from the top. A model of a cache started later reads the same.
void tst_EtcdQueueModel::fifoRowsInTakeOrderAcrossProducers()
{
    const auto a = connectedClient(m_server.clientUrl());
    const auto b = connectedClient(m_server.clientUrl());
    EtcdQueue producerA(a.get(), "/qm/fifo");
    EtcdQueue producerB(b.get(), "/qm/fifo");
    EtcdPathChildrenCache cache(m_client.get(), "/qm/fifo");
    Model model(&cache, Model::Kind::Fifo);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
    QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);
    Insertions inserted(&model);
    QVERIFY(startedModel(cache));
    QCOMPARE(model.rowCount(), 0);

    QVERIFY(enqueue(producerA, "a1"));
    QVERIFY(enqueue(producerB, "b1"));
    QVERIFY(enqueue(producerA, "a2"));
    QVERIFY(enqueue(producerB, "b2"));
    QVERIFY_OK(await(producerB.enqueueAll({"c0", "c1", "c2"})).status);
    // A producer whose clock is far behind: its key sorts first, its revision is the last.
    QVERIFY_OK(await(a->put("/qm/fifo/0000000000000000001-old", "skewed")).status);
    const QStringList order {
        u"a1"_s, u"b1"_s, u"a2"_s, u"b2"_s, u"c0"_s, u"c1"_s, u"c2"_s, u"skewed"_s};
    QTRY_COMPARE_WITH_TIMEOUT(model.rowCount(), 8, kWaitMs);
    QCOMPARE(values(model), order);
    QCOMPARE(inserted.ranges,
        (QStringList {u"0..0"_s, u"1..1"_s, u"2..2"_s, u"3..3"_s, u"4..4"_s, u"5..5"_s, u"6..6"_s,
            u"7..7"_s}));
    QCOMPARE(model.index(0).data(Model::IdRole).toString(),
        model.index(0).data(Model::KeyRole).toString().mid(QByteArray("/qm/fifo/").size()));
    QCOMPARE(
        model.index(4).data(Model::ModRevisionRole), model.index(6).data(Model::ModRevisionRole));
    QCOMPARE(model.index(0).data(Model::StateRole).toInt(), int(State::Queued));
    QCOMPARE(model.index(0).data(Model::PriorityRole).toInt(), -1);

    EtcdPathChildrenCache later(m_client.get(), "/qm/fifo");
    Model snapshot(&later, Model::Kind::Fifo);
    QVERIFY(startedModel(later));
    QCOMPARE(values(snapshot), order);

    EtcdQueue taker(m_client.get(), "/qm/fifo");
    for (const char *expected : {"a1", "b1"}) {
        const auto taken = await(taker.tryDequeue());
        QVERIFY_OK(taken.status);
        QCOMPARE(taken->value(), QByteArray(expected));
    }
    QTRY_COMPARE_WITH_TIMEOUT(model.rowCount(), 6, kWaitMs);
    QCOMPARE(removed.size(), 2);
    QCOMPARE(removed.at(0).at(1).toInt(), 0);
    QCOMPARE(removed.at(1).at(1).toInt(), 0);
    QCOMPARE(values(model), order.mid(2));
    QTRY_COMPARE_WITH_TIMEOUT(values(snapshot), order.mid(2), kWaitMs);
    QCOMPARE(resets.size(), 0);
}

// Lowest number first, in enqueue order within one priority, from two producers; a put of
// a higher priority is inserted before the lower ones.
void tst_EtcdQueueModel::priorityRowsByPriority()
{
    const auto other = connectedClient(m_server.clientUrl());
    EtcdPriorityQueue producerA(m_client.get(), "/qm/prio");
    EtcdPriorityQueue producerB(other.get(), "/qm/prio");
    EtcdPathChildrenCache cache(m_client.get(), "/qm/prio");
    Model model(&cache, Model::Kind::Priority);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    Insertions inserted(&model);
    QVERIFY(startedModel(cache));

    QVERIFY_OK(await(producerA.enqueue("low", 9)).status);
    QVERIFY_OK(await(producerA.enqueue("high", 0)).status);
    QVERIFY_OK(await(producerB.enqueue("mid", 4)).status);
    QVERIFY_OK(await(producerB.enqueue("high2", 0)).status);
    QTRY_COMPARE_WITH_TIMEOUT(model.rowCount(), 4, kWaitMs);
    QCOMPARE(values(model), (QStringList {u"high"_s, u"high2"_s, u"mid"_s, u"low"_s}));
    QCOMPARE(inserted.ranges, (QStringList {u"0..0"_s, u"0..0"_s, u"1..1"_s, u"1..1"_s}));
    QList<int> priorities;
    for (int row = 0; row < model.rowCount(); ++row)
        priorities.append(model.index(row).data(Model::PriorityRole).toInt());
    QCOMPARE(priorities, (QList<int> {0, 0, 4, 9}));
    QVERIFY(model.index(0).data(Model::IdRole).toString().startsWith(u"00000/"_s));
    QCOMPARE(model.index(0).data(Model::KeyRole).toString(),
        u"/qm/prio/"_s + model.index(0).data(Model::IdRole).toString());

    EtcdPriorityQueue taker(m_client.get(), "/qm/prio");
    const auto taken = await(taker.tryDequeue());
    QVERIFY_OK(taken.status);
    QCOMPARE(taken->value(), "high"_ba);
    QTRY_COMPARE_WITH_TIMEOUT(
        values(model), (QStringList {u"high2"_s, u"mid"_s, u"low"_s}), kWaitMs);
}

// One item through every state: queued, in flight (with its consumer and delivery number),
// orphaned once its consumer's lease is revoked, dead after its last delivery, queued again.
// A delayed item waits after the queued ones. No row ever shows an item half claimed.
void tst_EtcdQueueModel::workRowsFollowTheStates()
{
    EtcdWorkQueue producer(m_client.get(), "/qm/work");
    EtcdPathChildrenCache cache(m_client.get(), "/qm/work");
    Model model(&cache, Model::Kind::Work);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
    Insertions inserted(&model);
    QVERIFY(startedModel(cache));

    QVERIFY_OK(await(producer.enqueue("w1")).status);
    const qint64 before = QDateTime::currentMSecsSinceEpoch();
    QVERIFY_OK(await(producer.enqueue("later", 1h)).status);
    QTRY_COMPARE_WITH_TIMEOUT(model.rowCount(), 2, kWaitMs);
    QCOMPARE(stateRows(model), (QStringList {u"Queued w1"_s, u"Delayed later"_s}));
    QCOMPARE(model.index(0).data(Model::AttemptRole).toInt(), 0);
    QCOMPARE(model.index(0).data(Model::DueTimeRole).toDateTime().isValid(), false);
    const QDateTime due = model.index(1).data(Model::DueTimeRole).toDateTime();
    QVERIFY(due.toMSecsSinceEpoch() >= before + 3600 * 1000);
    QVERIFY(due.toMSecsSinceEpoch() <= QDateTime::currentMSecsSinceEpoch() + 3600 * 1000);
    QVERIFY(model.index(1).data(Model::KeyRole).toString().startsWith(u"/qm/work/delayed/"_s));

    EtcdWorkQueue::Options options;
    options.maxDeliveries = 1;
    options.clientId = u"consumer-1"_s;
    auto consumer = std::make_unique<EtcdWorkQueue>(m_client.get(), "/qm/work", options);
    const auto received = await(consumer->receive());
    QVERIFY_OK(received.status);
    const EtcdWorkItem item = received->item();
    QCOMPARE(item.value, "w1"_ba);
    QTRY_COMPARE_WITH_TIMEOUT(
        stateRows(model), (QStringList {u"Delayed later"_s, u"InFlight w1"_s}), kWaitMs);
    QCOMPARE(model.index(1).data(Model::ConsumerRole).toString(), u"consumer-1"_s);
    QCOMPARE(model.index(1).data(Model::AttemptRole).toInt(), 1);
    QCOMPARE(model.index(1).data(Model::IdRole).toString(), QString::fromUtf8(item.id));
    QCOMPARE(model.index(1).data(Model::KeyRole).toString(),
        QString::fromUtf8("/qm/work/claimed/" + item.id));

    QVERIFY_OK(await(producer.enqueue("w2")).status);
    QTRY_COMPARE_WITH_TIMEOUT(stateRows(model),
        (QStringList {u"Queued w2"_s, u"Delayed later"_s, u"InFlight w1"_s}), kWaitMs);

    // The claim's keys were applied together: the item was never shown half claimed.
    QCOMPARE(inserted.states.count(State::Orphaned), 0);
    QSignalSpy closed(consumer.get(), &EtcdRecipe::closed);
    consumer->close(); // revokes the consumer's lease: its claim goes with it
    QVERIFY(closed.wait(kWaitMs));
    QTRY_COMPARE_WITH_TIMEOUT(stateRows(model),
        (QStringList {u"Queued w2"_s, u"Delayed later"_s, u"Orphaned w1"_s}), kWaitMs);
    QCOMPARE(model.index(2).data(Model::ConsumerRole).toString(), QString());
    QCOMPARE(inserted.states.count(State::Orphaned), 1);

    EtcdWorkQueue sweeper(m_client.get(), "/qm/work", options);
    const auto swept = await(sweeper.sweep());
    QVERIFY_OK(swept.status);
    QCOMPARE(swept->value(), qint64(1));
    QTRY_COMPARE_WITH_TIMEOUT(stateRows(model),
        (QStringList {u"Queued w2"_s, u"Delayed later"_s, u"DeadLetter w1"_s}), kWaitMs);
    QCOMPARE(model.index(2).data(Model::AttemptRole).toInt(), 1);
    QCOMPARE(model.index(2).data(Model::KeyRole).toString(),
        QString::fromUtf8("/qm/work/dlq/" + item.id));

    const auto back = await(sweeper.requeueDeadLetter(item.id));
    QVERIFY_OK(back.status);
    QVERIFY(back->result());
    // Back under its id, so at its first place, before the item enqueued after it.
    QTRY_COMPARE_WITH_TIMEOUT(model.rowCount(), 3, kWaitMs);
    QTRY_COMPARE_WITH_TIMEOUT(
        fieldOf(model, u"w1"_s, Model::StateRole).toInt(), int(State::Queued), kWaitMs);
    QCOMPARE(fieldOf(model, u"w1"_s, Model::AttemptRole).toInt(), 0);
    QVERIFY(model.index(0).data(Model::IdRole).toString()
        < model.index(1).data(Model::IdRole).toString());
    QCOMPARE(model.index(2).data(Model::StateRole).toInt(), int(State::Delayed));

    // Every row came in by one insertion of one row (states in between: a move is a
    // removal and an insertion), never by a reset.
    for (const QString &range : std::as_const(inserted.ranges)) {
        const QStringList ends = range.split(u".."_s);
        QCOMPARE(ends.first(), ends.last());
    }
    QCOMPARE(resets.size(), 0);
}

// A requeued delivery is queued again with its count kept; an acknowledged one leaves the
// rows; `states` shows only the states asked for.
void tst_EtcdQueueModel::workRequeueAndAckAndStateFilter()
{
    EtcdWorkQueue producer(m_client.get(), "/qm/work2");
    QVERIFY_OK(await(producer.enqueue("only")).status);
    EtcdPathChildrenCache cache(m_client.get(), "/qm/work2");
    Model model(&cache, Model::Kind::Work);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    QVERIFY(startedModel(cache));
    QCOMPARE(stateRows(model), QStringList {u"Queued only"_s});

    EtcdWorkQueue consumer(m_client.get(), "/qm/work2");
    const auto first = await(consumer.receive());
    QVERIFY_OK(first.status);
    QTRY_COMPARE_WITH_TIMEOUT(stateRows(model), QStringList {u"InFlight only"_s}, kWaitMs);
    QCOMPARE(model.index(0).data(Model::ConsumerRole).toString(), consumer.clientId());

    model.setStates(State::Queued | State::DeadLetter);
    QCOMPARE(model.rowCount(), 0);
    model.setStates(Model::States::fromInt(0x1f));
    QCOMPARE(model.rowCount(), 1);

    const auto requeued = await(consumer.requeue(first->item()));
    QVERIFY_OK(requeued.status);
    QVERIFY(requeued->result());
    QTRY_COMPARE_WITH_TIMEOUT(stateRows(model), QStringList {u"Queued only"_s}, kWaitMs);
    QCOMPARE(model.index(0).data(Model::AttemptRole).toInt(), 1);

    const auto second = await(consumer.receive());
    QVERIFY_OK(second.status);
    QCOMPARE(second->item().attempt, 2);
    QTRY_COMPARE_WITH_TIMEOUT(model.index(0).data(Model::AttemptRole).toInt(), 2, kWaitMs);
    const auto acked = await(consumer.ack(second->item()));
    QVERIFY_OK(acked.status);
    QVERIFY(acked->result());
    QTRY_COMPARE_WITH_TIMEOUT(model.rowCount(), 0, kWaitMs);
    QCOMPARE(cache.count(), 0);
}

// The same keys read as another kind: a FIFO model set to Priority orders by key.
void tst_EtcdQueueModel::kindChangeReadsTheRowsAgain()
{
    EtcdPriorityQueue producer(m_client.get(), "/qm/kind");
    QVERIFY_OK(await(producer.enqueue("second", 7)).status);
    QVERIFY_OK(await(producer.enqueue("first", 2)).status);
    EtcdPathChildrenCache cache(m_client.get(), "/qm/kind");
    Model model(&cache, Model::Kind::Fifo);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    QVERIFY(startedModel(cache));
    QCOMPARE(values(model), (QStringList {u"second"_s, u"first"_s})); // as they were put
    QSignalSpy kind(&model, &Model::kindChanged);
    model.setKind(Model::Kind::Priority);
    QCOMPARE(kind.size(), 1);
    QCOMPARE(values(model), (QStringList {u"first"_s, u"second"_s}));
    model.setCache(nullptr);
    QCOMPARE(model.rowCount(), 0);
}

QTEST_GUILESS_MAIN(tst_EtcdQueueModel)

#include "tst_etcdqueuemodel.moc"
