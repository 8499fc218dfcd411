// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
// etcd's own election, the layout of Go's concurrency.Election and of `etcdctl elect`: each
// candidate's key is <prefix>/<lease id in hex>, holding its value; the key created first
// leads. Two candidates run here, alpha and beta, each with its own client (as two processes
// would). Alpha leads, proclaims a new value, and resigns; beta, waiting in line, leads at
// once, then resigns too. An observer, which never campaigns, prints every change of leader
// and value as it sees it.
// Go services and etcdctl take part in the same election. While this runs (or in place of
// one candidate), try:
//   etcdctl elect /example/election/etcd gamma     # a third candidate, in line behind them
//   etcdctl elect -l /example/election/etcd        # another observer
// Usage: etcdqt-example-etcdelection [http://127.0.0.1:2379]
#include "exampleutil.h"

#include <EtcdQt/EtcdQt>

#include <QtCore/qcoreapplication.h>

#include <array>

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

namespace {
const QByteArray kPrefix = "/example/election/etcd"_ba;
} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QUrl endpoint = endpointArgument(argc, argv);
    EtcdClient alphaClient({endpoint});
    EtcdClient betaClient({endpoint});
    EtcdClient observerClient({endpoint});
    for (EtcdClient *client : {&alphaClient, &betaClient, &observerClient})
        client->connectToEndpoints();
    const EtcdElectionOptions options {.ttl = 5s};
    EtcdElection alpha(&alphaClient, kPrefix, options);
    EtcdElection beta(&betaClient, kPrefix, options);
    EtcdElection observer(&observerClient, kPrefix, options);
    // The candidates' keys as etcd holds them, followed by a watch: beta is in line once its
    // key is there.
    EtcdPathChildrenCache line(&observerClient, kPrefix);
    const std::array<EtcdRecipe *, 4> all = {&alpha, &beta, &observer, &line};
    int exitCode = 0;
    bool betaLed = false;
    quitWhenAllClosed(all, exitCode);
    const auto closeAll = [&] {
        for (EtcdElection *election : {&alpha, &beta, &observer})
            election->close();
        line.close();
    };

    // The observer: the leader's value (whoever campaigned, Go and etcdctl too) and its key.
    QObject::connect(&observer, &EtcdElection::observed, &app, [&] {
        out() << "observing " << kPrefix << "; leader now: "
              << (observer.leaderKey().isEmpty() ? "(nobody)"_ba : observer.leader()) << Qt::endl;
        alpha.campaign("alpha"_ba);
    });
    QObject::connect(&observer, &EtcdElection::leaderChanged, &app, [&](const QByteArray &value) {
        if (observer.leaderKey().isEmpty()) {
            out() << "observer: nobody leads" << Qt::endl;
            if (betaLed)
                closeAll();
            return;
        }
        out() << "observer: the leader is \"" << value << "\" (key " << observer.leaderKey() << ')'
              << Qt::endl;
    });

    QObject::connect(&alpha, &EtcdElection::elected, &app, [&] {
        out() << "alpha leads: key " << alpha.fencingToken().key << ", fencing token "
              << alpha.fencingToken().revision << Qt::endl;
        beta.campaign("beta"_ba);
    });
    // Once beta is in line, alpha proclaims a new value, then resigns.
    bool proclaiming = false;
    QObject::connect(&line, &EtcdPathChildrenCache::countChanged, &alpha, [&] {
        if (proclaiming || !alpha.isLeader() || line.count() < 2)
            return;
        proclaiming = true;
        out() << "beta waits in line behind alpha" << Qt::endl;
        EtcdBoolReply *proclaimed = alpha.proclaim("alpha, proclaimed"_ba);
        QObject::connect(proclaimed, &EtcdReply::finished, &alpha, [&, proclaimed] {
            out() << "alpha proclaimed \"" << alpha.value()
                  << "\": " << (proclaimed->result() ? "committed" : "refused") << Qt::endl;
            if (!proclaimed->result())
                exitCode = 1;
            out() << "alpha resigns" << Qt::endl;
            alpha.resign();
        });
    });
    QObject::connect(&beta, &EtcdElection::elected, &app, [&] {
        betaLed = true;
        out() << "beta leads: fencing token " << beta.fencingToken().revision << "; it resigns"
              << Qt::endl;
        beta.resign();
    });
    for (EtcdElection *election : {&alpha, &beta, &observer}) {
        QObject::connect(election, &EtcdElection::leadershipLost, &app, [&](const EtcdStatus &why) {
            out() << "leadership lost: " << why.toString() << Qt::endl;
            exitCode = 1;
            closeAll();
        });
        QObject::connect(election, &EtcdElection::failed, &app, [&](const EtcdStatus &why) {
            out() << "failed: " << why.toString() << Qt::endl;
            exitCode = 1;
            closeAll();
        });
    }
    line.start();
    observer.observe();
    return QCoreApplication::exec();
}
