// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// Fault: the faulted client is cut off (FaultProxy blackhole) until the contenders hold what
// it lost; then etcd is compacted to its latest revision and the cut heals. The faulted
// client's watches resume from revisions etcd no longer has: each must resync (counted by
// the client's metrics), and the recipes keep their invariants as after a plain cut-off.
#include "suite.h"

#include <etcdtestserver.h>

#include <QtCore/qelapsedtimer.h>

#include <atomic>

using namespace FaultMatrix;
using namespace Qt::StringLiterals;

namespace {
// Watch recoveries of the faulted client (recorded on its engine thread).
class Resyncs : public EtcdMetrics
{
public:
    void recordWatchRecovery(WatchRecovery kind) override
    {
        if (kind == WatchRecovery::Resynced)
            ++count;
    }
    std::atomic<int> count {0};
};

class CompactFault : public ProxiedFault
{
public:
    void configureFaulted(EtcdClient &client) override { client.setMetrics(m_resyncs); }
    QString applyHoldHeal() override
    {
        QElapsedTimer held;
        held.start();
        m_proxy->setMode(FaultProxy::Mode::Blackhole);
        const bool acted = waitFor(contendersHold);
        const QString compacted = acted ? compact() : QString();
        QTest::qWait(int(qMax<qint64>(0, 3 * kTtlMs - held.elapsed()))); // the fault's duration
        m_proxy->setMode(FaultProxy::Mode::Pass);
        if (!acted)
            return u"the contenders never held while the faulted client was cut off"_s;
        if (!compacted.isEmpty())
            return compacted;
        if (!waitFor([this] { return m_resyncs->count > 0; }))
            return u"no watch of the faulted client resynced after the compaction"_s;
        return {};
    }

private:
    // Through a client of its own, the way an operator's tool compacts.
    QString compact()
    {
        EtcdClient admin({m_server.clientUrl()});
        admin.connectToEndpoints();
        const auto latest = await(admin.get("/"_ba));
        if (!latest.status.isOk())
            return u"reading etcd's revision failed: "_s + latest.status.toString();
        const auto done = await(admin.compact(latest->revision()));
        if (!done.status.isOk())
            return u"compacting failed: "_s + done.status.toString();
        qInfo("fault matrix: compacted to revision %lld", latest->revision());
        return {};
    }

    std::shared_ptr<Resyncs> m_resyncs = std::make_shared<Resyncs>();
};
} // namespace

class tst_FaultCompaction : public FaultSuite
{
    Q_OBJECT
public:
    tst_FaultCompaction() : FaultSuite(std::make_unique<CompactFault>()) { }
};

QTEST_GUILESS_MAIN(tst_FaultCompaction)
#include "fault_compact.moc"
