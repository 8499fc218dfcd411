// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
// Key-value basics with replies: put, read back, compare-and-set with a transaction, delete.
// Usage: etcdqt-example-kv [http://127.0.0.1:2379]
#include "exampleutil.h"

#include <EtcdQt/EtcdQt>

#include <QtCore/qcoreapplication.h>

using namespace Qt::StringLiterals;

namespace {

void fail(const EtcdStatus &status)
{
    out() << "failed: " << status.toString() << Qt::endl;
    QCoreApplication::exit(1);
}

// Step 3: replace the value only if nobody wrote it since we read it (modRevision CAS).
void compareAndSet(EtcdClient *client, const EtcdKeyValue &seen)
{
    EtcdTxn txn;
    txn.compares
        = {EtcdCompare::modRevision(seen.key, Etcd::CompareResult::Equal, seen.modRevision)};
    txn.success = {EtcdTxnOp::put(seen.key, "green"_ba)};
    txn.failure = {EtcdTxnOp::get(seen.key)};
    auto *reply = client->txn(txn);
    QObject::connect(reply, &EtcdReply::finished, client, [client, reply](const EtcdStatus &s) {
        if (!s.isOk())
            return fail(s);
        out() << "compare-and-set " << (reply->succeeded() ? "committed" : "lost the race")
              << " at revision " << reply->revision() << Qt::endl;
        auto *removed = client->remove("/example/colour"_ba);
        QObject::connect(removed, &EtcdReply::finished, client, [removed](const EtcdStatus &s) {
            if (!s.isOk())
                return fail(s);
            out() << "deleted " << removed->deleted() << " key" << Qt::endl;
            QCoreApplication::quit();
        });
    });
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    EtcdClient client({endpointArgument(argc, argv)});
    QObject::connect(&client, &EtcdClient::errorOccurred, &app,
        [](const EtcdStatus &s) { out() << "connection problem: " << s.toString() << Qt::endl; });
    client.connectToEndpoints();

    auto *put = client.put("/example/colour"_ba, "blue"_ba);
    QObject::connect(put, &EtcdReply::finished, &app, [&client, put](const EtcdStatus &s) {
        if (!s.isOk())
            return fail(s);
        out() << "put at revision " << put->revision() << Qt::endl;
        auto *get = client.get("/example/colour"_ba);
        QObject::connect(get, &EtcdReply::finished, &client, [&client, get](const EtcdStatus &s) {
            if (!s.isOk() || get->keyValues().isEmpty())
                return fail(s);
            const EtcdKeyValue kv = get->keyValues().first();
            out() << "read " << kv.key << " = " << kv.value << " (version " << kv.version << ")"
                  << Qt::endl;
            compareAndSet(&client, kv);
        });
    });
    return app.exec();
}
