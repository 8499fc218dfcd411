// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "snippets.h"

#include <EtcdQt/EtcdQt>

#include <QtCore/qdebug.h>

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

namespace snippets {

EtcdElection *campaignWithGo(EtcdClient *client, QObject *owner)
{
    //! [etcdElection]
    // etcd's own layout: Go's concurrency.Election and `etcdctl elect` run in this election.
    EtcdElectionOptions options;
    options.ttl = 5s;
    auto *election = new EtcdElection(client, "/election/ingest"_ba, options, owner);
    QObject::connect(election, &EtcdElection::elected, owner, [election] {
        qInfo() << "leading under" << election->fencingToken().key;
        // The value every observer reads for the leader, Go's Proclaim.
        election->proclaim("host-a, draining"_ba);
    });
    election->campaign("host-a"_ba);
    //! [etcdElection]
    return election;
}

EtcdElection *followIngestLeader(EtcdClient *client, QObject *owner)
{
    //! [etcdObserve]
    // observe() alone follows the election without running in it.
    auto *observer = new EtcdElection(client, "/election/ingest"_ba, {}, owner);
    QObject::connect(
        observer, &EtcdElection::leaderChanged, owner, [observer](const QByteArray &value) {
            if (observer->leaderKey().isEmpty())
                qInfo() << "nobody leads";
            else
                qInfo() << "the leader says" << value;
        });
    observer->observe();
    //! [etcdObserve]
    return observer;
}

} // namespace snippets
