// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "snippets.h"

#include <EtcdQt/EtcdQt>

#include <QtCore/qdebug.h>
#include <QtCore/qthreadpool.h>

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

namespace snippets {

namespace {
void runScheduledReports() { }
} // namespace

EtcdLeaderSelector *runReportsWhileLeading(EtcdClient *client, QObject *owner)
{
    //! [selector]
    EtcdLeaderSelectorOptions options;
    options.ttl = 2s; // how long a crashed leader keeps the others waiting
    auto *selector = new EtcdLeaderSelector(client, "/election/reports"_ba, options, owner);
    // The body runs on a thread of its own for one term; returning from it ends the term
    // and lets a successor win at once. The stop token is requested when the term is over
    // for any other reason: resign(), close(), or a lost lease.
    selector->setTakeLeadership([](EtcdLeaderSelector &self, std::stop_token stop) {
        while (!stop.stop_requested() && !self.waitUntilFinished(200ms))
            runScheduledReports();
    });
    QObject::connect(selector, &EtcdLeaderSelector::leadershipLost, owner,
        [](const EtcdStatus &why) { qWarning() << "term lost:" << why.toString(); });
    selector->start();
    //! [selector]
    return selector;
}

EtcdLeaderSelector *leadUntilResigned(EtcdClient *client, QObject *owner)
{
    //! [signalsOnly]
    // Without a body, leadership lasts until resign() or close(): the form for a GUI.
    auto *selector = new EtcdLeaderSelector(client, "/election/dashboard"_ba, {}, owner);
    QObject::connect(selector, &EtcdLeaderSelector::elected, owner, [] { qInfo() << "leading"; });
    QObject::connect(selector, &EtcdLeaderSelector::leaderChanged, owner,
        [](const QString &leader) { qInfo() << "led by" << leader; });
    selector->start();
    //! [signalsOnly]
    return selector;
}

EtcdLeaderLatch *holdLeadership(EtcdClient *client, QObject *owner)
{
    //! [latch]
    // Leadership as a role: once won, it is held until close() or until its lease is lost.
    auto *latch = new EtcdLeaderLatch(client, "/election/scheduler"_ba, {}, owner);
    QObject::connect(latch, &EtcdLeaderLatch::elected, owner,
        [latch] { qInfo() << "scheduler role taken, term" << latch->fencingToken().revision; });
    latch->start();
    //! [latch]
    return latch;
}

EtcdLeaderObserver *watchWhoLeads(EtcdClient *client, QObject *owner)
{
    //! [observer]
    // Follows an election without taking part in it.
    auto *observer = new EtcdLeaderObserver(client, "/election/scheduler"_ba, owner);
    QObject::connect(
        observer, &EtcdLeaderObserver::leaderChanged, owner, [](const QString &leader) {
            qInfo() << "leader now:" << (leader.isEmpty() ? u"nobody"_s : leader);
        });
    observer->start();
    //! [observer]
    return observer;
}

void listCandidates(EtcdClient *client, QObject *owner)
{
    //! [participants]
    EtcdParticipantsReply *reply = Etcd::electionParticipants(client, "/election/scheduler"_ba);
    QObject::connect(reply, &EtcdReply::finished, owner, [reply](const EtcdStatus &status) {
        if (!status.isOk()) {
            qWarning() << "not read:" << status.toString();
            return;
        }
        for (const EtcdParticipant &p : reply->participants())
            qInfo() << p.clientId << (p.isLeader ? "leads" : "waits");
    });
    //! [participants]
}

void writeAsLeader(EtcdLeaderLatch *latch)
{
    //! [guardedTxn]
    // Commits only while this term's leadership key still exists with its revision: a
    // leader that was paused past its lease cannot overwrite its successor's work.
    EtcdTxn publish;
    publish.success = {EtcdTxnOp::put("/schedule/current"_ba, "plan-42"_ba)};
    EtcdTxnReply *reply = latch->guardedTxn(publish);
    QObject::connect(reply, &EtcdReply::finished, latch, [reply](const EtcdStatus &status) {
        if (status.isOk() && !reply->succeeded())
            qWarning() << "not written: this term is over";
    });
    //! [guardedTxn]
}

} // namespace snippets
