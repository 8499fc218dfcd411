// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// The fixture of the cluster faults: three members, each client given every member's
// endpoint in its own order (a client works with the first that answers).
#pragma once

#include "suite.h"

#include <etcdtestcluster.h>

namespace FaultMatrix {

class ClusterFault : public Fault
{
public:
    QString setUp() override;
    QList<QUrl> faultedEndpoints() const override { return m_faultedEndpoints; }
    QList<QUrl> cleanEndpoints() const override { return m_cleanEndpoints; }
    QString log() const override { return m_cluster.log(); }

protected:
    // Sets both clients' endpoints once the cluster has elected `leader`.
    virtual void chooseEndpoints(int leader) = 0;
    // Every member's endpoint, those of `first` in that order first.
    [[nodiscard]] QList<QUrl> endpointsFrom(const QList<int> &first) const;
    // Waits, with the event loop running, until a running member leads; how long it took in
    // ms, or -1 when none did within kWaitMs.
    qint64 msUntilLeader() const;

    EtcdTestCluster m_cluster {3};
    QList<QUrl> m_faultedEndpoints;
    QList<QUrl> m_cleanEndpoints;
};

} // namespace FaultMatrix
