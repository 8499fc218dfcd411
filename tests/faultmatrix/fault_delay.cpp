// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// Fault: etcd's answers to the faulted client come 2 TTLs late (a FaultProxy in Delay mode;
// its requests still arrive at once) for 4 TTLs. No renewal is acknowledged within its
// lease's TTL, so the client must count every hold lost; once the contender holds, the old
// holder's late write (its stale fencing token) must be refused. Then the delay goes.
#include "suite.h"

#include <etcdtestserver.h>

using namespace FaultMatrix;
using namespace Qt::StringLiterals;

namespace {
class DelayFault : public ProxiedFault
{
public:
    bool lateWrites() const override { return true; }
    QString applyHoldHeal() override
    {
        m_proxy->setDelay(2 * kTtl);
        QTest::qWait(4 * kTtlMs); // the fault's own duration
        m_proxy->setDelay(0ms); // Pass: what it held arrives at once
        return {};
    }
};
} // namespace

class tst_FaultDelay : public FaultSuite
{
    Q_OBJECT
public:
    tst_FaultDelay() : FaultSuite(std::make_unique<DelayFault>()) { }
};

QTEST_GUILESS_MAIN(tst_FaultDelay)
#include "fault_delay.moc"
