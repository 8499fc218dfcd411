// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "cluster.h"

#include <QtCore/qelapsedtimer.h>

using namespace Qt::StringLiterals;

namespace FaultMatrix {

QString ClusterFault::setUp()
{
    if (!m_cluster.start())
        return u"the cluster did not start: "_s + m_cluster.log();
    const int leader = m_cluster.leaderIndex();
    if (leader < 0)
        return u"the cluster elected no leader: "_s + m_cluster.log();
    chooseEndpoints(leader);
    return {};
}

QList<QUrl> ClusterFault::endpointsFrom(const QList<int> &first) const
{
    QList<QUrl> urls;
    for (const int i : first)
        urls.append(m_cluster.clientUrl(i));
    for (int i = 0; i < m_cluster.size(); ++i) {
        if (!first.contains(i))
            urls.append(m_cluster.clientUrl(i));
    }
    return urls;
}

// leaderIndex(0ms) asks each running member once: the event loop runs between the rounds,
// so the clients' signals and the monitor keep up while the cluster elects.
qint64 ClusterFault::msUntilLeader() const
{
    QElapsedTimer took;
    took.start();
    if (!waitFor([this] { return m_cluster.leaderIndex(std::chrono::milliseconds(0)) >= 0; }))
        return -1;
    return took.elapsed();
}

} // namespace FaultMatrix
