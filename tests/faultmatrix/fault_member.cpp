// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// Fault: the member the faulted client uses is killed (SIGKILL) and stays dead; it is a raft
// follower, so the cluster keeps its leader (the leader column kills that). The faulted
// client fails over to another member inside the TTL: every hold is kept (DESIGN.md, the
// keep-alive stream renews on any healthy endpoint), and must stay kept for 2 TTLs after.
#include "cluster.h"

using namespace FaultMatrix;
using namespace Qt::StringLiterals;

namespace {
class MemberFault : public ClusterFault
{
public:
    QString applyHoldHeal() override
    {
        m_cluster.kill(m_victim);
        QTest::qWait(2 * kTtlMs); // the fault's own duration: the member stays dead
        return m_cluster.leaderIndex() >= 0 ? QString() : u"the cluster lost its quorum"_s;
    }
    FaultFacts facts() const override
    {
        return {.outlastsTtl = false, .mayOutlastTtl = false, .cleanHit = false};
    }

protected:
    void chooseEndpoints(int leader) override
    {
        m_victim = (leader + 1) % m_cluster.size();
        m_faultedEndpoints = endpointsFrom({m_victim});
        m_cleanEndpoints = endpointsFrom({leader});
        m_cleanEndpoints.removeAll(m_cluster.clientUrl(m_victim));
    }

private:
    int m_victim = -1;
};
} // namespace

class tst_FaultMemberKilled : public FaultSuite
{
    Q_OBJECT
public:
    tst_FaultMemberKilled() : FaultSuite(std::make_unique<MemberFault>()) { }
};

QTEST_GUILESS_MAIN(tst_FaultMemberKilled)
#include "fault_member.moc"
