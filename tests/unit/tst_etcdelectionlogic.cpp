// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// The pure logic under the election: the order candidates take their turn in when LEADER is
// vacated, and what a fencing token adds to a transaction.
#include <EtcdQt/etcdfencing.h>

#include "participantqueue_p.h"

#include <QtTest/qtest.h>

using namespace Qt::StringLiterals;
using Etcd::Internal::ParticipantOrder;

namespace {
ParticipantOrder orderOf(const QList<std::pair<QString, qint64>> &created)
{
    ParticipantOrder order;
    for (const auto &[id, revision] : created)
        order.insert(id, revision);
    return order;
}
} // namespace

class tst_EtcdElectionLogic : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void placeFollowsRegistrationOrder();
    void placeSkipsTheLeaderAndUnknowns();
    void guardPrependsTheCreateRevision();
    void invalidTokenNeverCommits();
};

void tst_EtcdElectionLogic::placeFollowsRegistrationOrder()
{
    ParticipantOrder order = orderOf({{u"a"_s, 10}, {u"b"_s, 12}, {u"c"_s, 11}});
    QCOMPARE(order.place(u"a"_s, {}), 0);
    QCOMPARE(order.place(u"c"_s, {}), 1);
    QCOMPARE(order.place(u"b"_s, {}), 2);
    // A departed candidate leaves the line; one registered again goes to its back.
    order.remove(u"a"_s);
    QCOMPARE(order.place(u"c"_s, {}), 0);
    QCOMPARE(order.place(u"b"_s, {}), 1);
    order.insert(u"c"_s, 13);
    QCOMPARE(order.place(u"b"_s, {}), 0);
    QCOMPARE(order.place(u"c"_s, {}), 1);
    order.remove(u"unknown"_s); // nothing to remove: nothing changes
    QCOMPARE(order.place(u"c"_s, {}), 1);
    order.clear();
    QCOMPARE(order.place(u"c"_s, {}), 0);
}

void tst_EtcdElectionLogic::placeSkipsTheLeaderAndUnknowns()
{
    const ParticipantOrder order = orderOf({{u"a"_s, 10}, {u"b"_s, 12}, {u"c"_s, 11}});
    // The leader that just left is no rival for the next turn.
    QCOMPARE(order.place(u"c"_s, u"a"_s), 0);
    QCOMPARE(order.place(u"b"_s, u"a"_s), 1);
    // A leader registered after this candidate was never ahead of it, nor is itself.
    QCOMPARE(order.place(u"c"_s, u"b"_s), 1);
    QCOMPARE(order.place(u"b"_s, u"b"_s), 2);
    // A candidate the queue has not seen yet goes at once rather than wait for nothing.
    QCOMPARE(order.place(u"new"_s, u"a"_s), 0);
    QCOMPARE(ParticipantOrder().place(u"a"_s, {}), 0);
}

void tst_EtcdElectionLogic::guardPrependsTheCreateRevision()
{
    const EtcdFencingToken token {"/e/LEADER", 77, 1234};
    QVERIFY(token.isValid());
    EtcdTxn txn;
    txn.compares = {EtcdCompare::value("/x", Etcd::CompareResult::Equal, "1")};
    txn.success = {EtcdTxnOp::put("/x", "2")};
    const EtcdTxn guarded = token.guard(txn);
    QCOMPARE(guarded.compares.size(), 2);
    const EtcdCompare &first = guarded.compares.first();
    QCOMPARE(first.target, Etcd::CompareTarget::CreateRevision);
    QCOMPARE(first.result, Etcd::CompareResult::Equal);
    QCOMPARE(first.key, "/e/LEADER"_ba);
    QCOMPARE(first.number, 1234);
    QCOMPARE(guarded.compares.last().key, "/x"_ba);
    QCOMPARE(guarded.success.size(), 1);
}

void tst_EtcdElectionLogic::invalidTokenNeverCommits()
{
    // A missing key has create revision 0; -1 matches nothing, so the guard always fails.
    const EtcdTxn guarded = EtcdFencingToken {}.guard({});
    QCOMPARE(guarded.compares.size(), 1);
    QCOMPARE(guarded.compares.first().number, -1);
    QVERIFY(!guarded.compares.first().key.isEmpty());
}

QTEST_GUILESS_MAIN(tst_EtcdElectionLogic)
#include "tst_etcdelectionlogic.moc"
