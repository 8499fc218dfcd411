// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
// Leadership as a job: while this node leads, a body runs on a worker thread, works in
// batches, stops early when its std::stop_token says leadership is ending, and writes its
// result through a fenced transaction, which commits only while this term still holds the
// LEADER key. When the body returns the term ends: the lease is revoked, so a successor could
// win at once.
// Usage: etcdqt-example-selector [http://127.0.0.1:2379]
#include "exampleutil.h"

#include <EtcdQt/EtcdQt>

#include <QtCore/qcoreapplication.h>

#include <condition_variable>
#include <mutex>

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

namespace {
const QByteArray kResultKey = "/example/election/selector-result"_ba;

// Stands for a slice of real work; returns early, with false, when leadership is ending.
bool work(std::chrono::milliseconds duration, std::stop_token stop)
{
    std::mutex mutex;
    std::condition_variable_any wake;
    std::unique_lock lock(mutex);
    wake.wait_for(lock, stop, duration, [] { return false; });
    return !stop.stop_requested();
}
} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    EtcdClient client({endpointArgument(argc, argv)});
    client.connectToEndpoints();
    EtcdLeaderSelector selector(
        &client, "/example/election/selector"_ba, {.ttl = 5s, .clientId = u"example-selector"_s});

    selector.setTakeLeadership([](EtcdLeaderSelector &self, std::stop_token stop) {
        const qint64 token = self.fencingToken().revision;
        say(u"[body] leading with fencing token %1; 3 batches to do"_s.arg(token));
        int items = 0;
        for (int batch = 1; batch <= 3; ++batch) {
            if (!work(300ms, stop))
                return say(u"[body] asked to stop after %1 items: no write"_s.arg(items));
            items += 10;
            say(u"[body] batch %1 done, %2 items"_s.arg(batch).arg(items));
        }
        // Fenced: commits only while this term still holds LEADER, however late it arrives.
        EtcdTxn txn;
        txn.success = {EtcdTxnOp::put(kResultKey, QByteArray::number(items))};
        EtcdStatus why;
        const bool committed = self.commitGuarded(txn, 5s, &why);
        say(u"[body] result written under token %1: %2"_s.arg(token).arg(
            committed ? u"committed"_s : why.toString()));
    });
    selector.setRelinquishLeadership(
        [](EtcdLeaderSelector &) { say(u"[body] relinquish callback: the term is over"_s); });

    QObject::connect(&selector, &EtcdLeaderSelector::started, &app,
        [&selector] { say(u"in the running as %1"_s.arg(selector.clientId())); });
    QObject::connect(&selector, &EtcdLeaderSelector::elected, &app, [] { say(u"elected"_s); });
    QObject::connect(&selector, &EtcdLeaderSelector::leadershipLost, &app,
        [](const EtcdStatus &why) { say(u"leadership lost: "_s + why.toString()); });
    QObject::connect(&selector, &EtcdLeaderSelector::relinquished, &app,
        [] { say(u"relinquished: the leadership lease is being revoked"_s); });
    QObject::connect(&selector, &EtcdLeaderSelector::failed, &app, [](const EtcdStatus &why) {
        say(u"failed: "_s + why.toString());
        QCoreApplication::exit(1);
    });
    // The term ended by itself: read the result back, then leave the election for good.
    QObject::connect(&selector, &EtcdLeaderSelector::termFinished, &app, [&client, &selector] {
        EtcdRangeReply *read = client.get(kResultKey);
        QObject::connect(read, &EtcdReply::finished, &selector, [read, &selector] {
            const auto kvs = read->keyValues();
            say(u"%1 = %2"_s.arg(QString::fromUtf8(kResultKey),
                kvs.isEmpty() ? u"(none)"_s : QString::fromUtf8(kvs.first().value)));
            selector.close();
        });
    });
    // Quit once etcd answered the revoke: nothing is left to run out a TTL.
    QObject::connect(&selector, &EtcdRecipe::closed, &app, [] {
        say(u"closed"_s);
        QCoreApplication::quit();
    });
    selector.start();
    return QCoreApplication::exec();
}
