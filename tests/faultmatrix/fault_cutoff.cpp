// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// Fault: the faulted client is cut off for 3 TTLs by a FaultProxy that blackholes its
// traffic (connections open, nothing forwarded); the clean client and etcd carry on.
#include "suite.h"

#include <etcdtestserver.h>

using namespace FaultMatrix;
using namespace Qt::StringLiterals;

namespace {
class CutoffFault : public ProxiedFault
{
public:
    QString applyHoldHeal() override
    {
        m_proxy->setMode(FaultProxy::Mode::Blackhole);
        QTest::qWait(3 * kTtlMs); // the fault's own duration
        m_proxy->setMode(FaultProxy::Mode::Pass);
        return {};
    }
};
} // namespace

class tst_FaultCutoff : public FaultSuite
{
    Q_OBJECT
public:
    tst_FaultCutoff() : FaultSuite(std::make_unique<CutoffFault>()) { }
};

QTEST_GUILESS_MAIN(tst_FaultCutoff)
#include "fault_cutoff.moc"
