// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
// Why writes under a lock are fenced. Holder A takes a mutex and writes with guardedTxn().
// Then A stalls (a GC pause, a stopped VM) for longer than its lease's TTL, so etcd gives
// the lock away; here an operator revokes A's lease, as etcd would on expiry. B, queued
// behind A, takes the lock and writes. When A runs again it still has the fencing token it
// took, and finishes its work: the write guarded by that token is refused, so B's value
// stands, while the same write unguarded goes through and silently overwrites B's. Both
// mutexes close at the end, revoking their leases.
// Usage: etcdqt-example-fenced [http://127.0.0.1:2379]
#include "exampleutil.h"

#include <EtcdQt/EtcdQt>

#include <QtCore/qcoreapplication.h>
#include <QtCore/qtimer.h>

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

namespace {
const QByteArray kLockPath = "/example/locks/fenced"_ba;
const QByteArray kResourceKey = "/example/locks/fenced-resource"_ba;

EtcdTxn putResource(const QByteArray &value)
{
    EtcdTxn txn;
    txn.success = {EtcdTxnOp::put(kResourceKey, value)};
    txn.failure = {EtcdTxnOp::get(kResourceKey)}; // when refused: what stands instead
    return txn;
}

QString standing(EtcdTxnReply *reply)
{
    const QList<EtcdTxnOpResult> results = reply->results();
    return results.isEmpty() || results.first().keyValues.isEmpty()
        ? u"(nothing)"_s
        : QString::fromUtf8(results.first().keyValues.first().value);
}
} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QUrl endpoint = endpointArgument(argc, argv);
    EtcdClient clientA({endpoint}); // process A
    EtcdClient clientB({endpoint}); // process B
    EtcdClient operatorClient({endpoint}); // someone else: an operator, etcd's lease expiry
    for (EtcdClient *client : {&clientA, &clientB, &operatorClient})
        client->connectToEndpoints();
    EtcdMutex a(&clientA, kLockPath);
    EtcdMutex b(&clientB, kLockPath);
    EtcdFencingToken tokenA; // what A knew when it last ran
    int exitCode = 1; // until every step turned out as told
    int closedMutexes = 0;
    const auto finish = [&a, &b] {
        a.close();
        b.close();
    };
    const auto expect = [&finish](bool as) {
        if (!as)
            finish();
        return as;
    };

    // A runs again where it stopped, its lockLost() still queued behind: it writes with the
    // token it took, the very transaction a.guardedTxn() sends while the hold looks current.
    // (A's mutex in this process has already heard of the loss; its guardedTxn() would now
    // carry an invalid token, which never commits either.)
    const auto lateWrites = [&] {
        out() << "A runs again and finishes its work with the token it took (revision "
              << tokenA.revision << "):" << Qt::endl;
        EtcdTxnReply *guarded = clientA.txn(tokenA.guard(putResource("A (stale)"_ba)));
        QObject::connect(guarded, &EtcdReply::finished, &a, [&, guarded](const EtcdStatus &s) {
            if (!expect(s.isOk() && !guarded->succeeded()))
                return;
            out() << "  guarded by that token: refused (succeeded() false); " << kResourceKey
                  << " = \"" << standing(guarded) << "\" stands" << Qt::endl;
            EtcdPutReply *plain = clientA.put(kResourceKey, "A (stale)"_ba, {.prevKv = true});
            QObject::connect(plain, &EtcdReply::finished, &a, [&, plain](const EtcdStatus &put) {
                if (!expect(put.isOk()))
                    return;
                out() << "  unguarded, a plain put: committed; it overwrote \""
                      << QString::fromUtf8(plain->prevKeyValue().value) << "\": B's write is lost"
                      << Qt::endl;
                exitCode = 0;
                finish();
            });
        });
    };

    QObject::connect(&a, &EtcdMutex::acquired, &app, [&] {
        tokenA = a.fencingToken();
        out() << "A holds the lock: fencing token " << tokenA.revision << ", lease "
              << tokenA.leaseId << Qt::endl;
        EtcdTxnReply *write = a.guardedTxn(putResource("A"_ba));
        QObject::connect(write, &EtcdReply::finished, &a, [&, write](const EtcdStatus &s) {
            if (!expect(s.isOk() && write->succeeded()))
                return;
            out() << "A writes \"A\" with guardedTxn(): committed" << Qt::endl;
            out() << "B asks for the lock and waits behind A" << Qt::endl;
            b.acquire();
            QTimer::singleShot(300ms, &a, [&] {
                out() << "A stalls past its TTL; the operator revokes its lease" << Qt::endl;
                EtcdReply *revoke = operatorClient.revokeLease(tokenA.leaseId);
                QObject::connect(revoke, &EtcdReply::finished, &a,
                    [&](const EtcdStatus &revoked) { expect(revoked.isOk()); });
            });
        });
    });
    QObject::connect(&a, &EtcdMutex::lockLost, &app, [](const EtcdStatus &why) {
        out() << "A's mutex: lock lost (" << why.toString()
              << "); a stalled A hears of it only when it runs again" << Qt::endl;
    });
    QObject::connect(&b, &EtcdMutex::acquired, &app, [&] {
        const EtcdFencingToken token = b.fencingToken();
        out() << "B holds the lock: fencing token " << token.revision << Qt::endl;
        EtcdTxnReply *write = b.guardedTxn(putResource("B"_ba));
        QObject::connect(write, &EtcdReply::finished, &b, [&, write](const EtcdStatus &s) {
            if (!expect(s.isOk() && write->succeeded()))
                return;
            out() << "B writes \"B\" with guardedTxn(): committed" << Qt::endl;
            lateWrites();
        });
    });
    QObject::connect(&b, &EtcdMutex::lockLost, &app, [&](const EtcdStatus &why) {
        out() << "B's mutex: lock lost: " << why.toString() << Qt::endl;
        expect(false);
    });
    // Quit once etcd answered the revokes: nothing is left to run out a TTL.
    for (EtcdMutex *mutex : {&a, &b}) {
        QObject::connect(mutex, &EtcdRecipe::closed, &app, [&] {
            if (++closedMutexes < 2)
                return;
            out() << (exitCode == 0 ? "closed" : "closed after an unexpected outcome") << Qt::endl;
            QCoreApplication::exit(exitCode);
        });
    }
    a.acquire();
    return QCoreApplication::exec();
}
