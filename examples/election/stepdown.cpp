// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
// What losing leadership looks like. This node leads until a second client revokes its lease
// behind its back (as `etcdctl lease revoke` would; a lease that expired during a long pause
// or a partition ends the same way). The selector steps down at once: its connection state
// turns Lost, leadershipLost() says why, the term is relinquished, and a write guarded by the
// old term's fencing token no longer commits. Leadership is never healed.
// Usage: etcdqt-example-stepdown [http://127.0.0.1:2379]
#include "exampleutil.h"

#include <EtcdQt/EtcdQt>

#include <QtCore/qcoreapplication.h>

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QUrl endpoint = endpointArgument(argc, argv);
    EtcdClient client({endpoint});
    EtcdClient intruder({endpoint}); // someone else: an operator, another process
    client.connectToEndpoints();
    intruder.connectToEndpoints();
    EtcdLeaderSelector selector(
        &client, "/example/election/stepdown"_ba, {.ttl = 5s, .clientId = u"example-stepdown"_s});

    QObject::connect(&selector, &EtcdLeaderSelector::elected, &app, [&selector, &intruder] {
        const EtcdFencingToken token = selector.fencingToken();
        out() << "elected: fencing token " << token.revision << ", lease " << token.leaseId
              << Qt::endl;
        EtcdReply *revoke = intruder.revokeLease(token.leaseId);
        QObject::connect(revoke, &EtcdReply::finished, &intruder, [](const EtcdStatus &s) {
            out() << "a second client revoked that lease: " << s.toString() << Qt::endl;
        });
    });
    QObject::connect(&selector, &EtcdRecipe::connectionStateChanged, &app,
        [](EtcdRecipe::ConnectionState state) {
            out() << "connection state: " << QVariant::fromValue(state).toString() << Qt::endl;
        });
    QObject::connect(&selector, &EtcdLeaderSelector::leadershipLost, &app,
        [](const EtcdStatus &why) { out() << "leadership lost: " << why.toString() << Qt::endl; });
    QObject::connect(&selector, &EtcdLeaderSelector::relinquished, &app,
        [] { out() << "relinquished" << Qt::endl; });
    QObject::connect(&selector, &EtcdLeaderSelector::failed, &app, [](const EtcdStatus &why) {
        out() << "failed: " << why.toString() << Qt::endl;
        QCoreApplication::exit(1);
    });
    // Work that was still under way when the lease went: its write is fenced, so it fails.
    QObject::connect(&selector, &EtcdLeaderSelector::termFinished, &app, [&selector] {
        EtcdTxn txn;
        txn.success = {EtcdTxnOp::put("/example/election/stepdown-result"_ba, "late"_ba)};
        EtcdTxnReply *write = selector.guardedTxn(txn);
        QObject::connect(
            write, &EtcdReply::finished, &selector, [write, &selector](const EtcdStatus &s) {
                const bool committed = s.isOk() && write->succeeded();
                out() << "late write guarded by token " << selector.fencingToken().revision << ": "
                      << (committed ? "committed" : "refused, that term is over") << Qt::endl;
                selector.close();
            });
    });
    QObject::connect(&selector, &EtcdRecipe::closed, &app, [] {
        out() << "closed" << Qt::endl;
        QCoreApplication::quit();
    });
    selector.start();
    return QCoreApplication::exec();
}
