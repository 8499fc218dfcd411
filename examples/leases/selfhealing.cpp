// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
// A self-healing lease: its establish hook creates the owned key only where it is free (a
// compare-and-set), so healing restores ownership but never takes it from someone else.
// Revoke the lease from elsewhere to watch it heal:
//   etcdctl lease revoke <id printed below>
// Usage: etcdqt-example-selfhealing [http://127.0.0.1:2379]   (Ctrl+C to stop)
#include "exampleutil.h"
#include "stopsignals.h"

#include <EtcdQt/EtcdQt>

#include <QtCore/qcoreapplication.h>

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    EtcdClient client({endpointArgument(argc, argv)});
    client.connectToEndpoints();
    const QByteArray key = "/example/barrier"_ba;
    auto createIfFree = [&client, key](qint64 lease, std::function<void(bool)> done) {
        EtcdTxn txn;
        txn.compares = {EtcdCompare::version(key, Etcd::CompareResult::Equal, 0)};
        txn.success = {EtcdTxnOp::put(key, "armed"_ba, {.lease = lease})};
        auto *reply = client.txn(txn);
        QObject::connect(reply, &EtcdReply::finished, &client,
            [reply, done](const EtcdStatus &s) { done(s.isOk() && reply->succeeded()); });
    };
    EtcdSelfHealingKeepAlive lease(&client, 2s, createIfFree);
    QObject::connect(&lease, &EtcdSelfHealingKeepAlive::established, &app,
        [](qint64 id) { out() << "key armed under lease " << id << Qt::endl; });
    QObject::connect(
        &lease, &EtcdSelfHealingKeepAlive::leaseEvent, &app, [](const EtcdLeaseEvent &e) {
            out() << e.typeName() << ": lease " << e.leaseId;
            if (e.type == EtcdLeaseEvent::Type::Restored)
                out() << " -> " << e.newLeaseId;
            out() << Qt::endl;
        });
    QObject::connect(&lease, &EtcdSelfHealingKeepAlive::failed, &app, [](const EtcdStatus &why) {
        out() << "stopped for good: " << why.toString() << Qt::endl;
        QCoreApplication::exit(1);
    });
    // Ctrl+C closes: the lease is revoked and the key goes at once; quit when etcd answered.
    QObject::connect(&lease, &EtcdRecipe::closed, &app, &QCoreApplication::quit);
    // A signal handler may not call into Qt, not even to post (that allocates and locks):
    // onStopSignals() has it write a byte that the event loop reads.
    ExampleUtil::onStopSignals(&lease, [&lease] { lease.close(); });
    lease.start();
    return QCoreApplication::exec();
}
