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
class DelayFault : public Fault
{
public:
    QString setUp() override
    {
        if (!m_server.start())
            return m_server.log();
        m_proxy = std::make_unique<FaultProxy>(u"127.0.0.1"_s, m_server.clientPort());
        return m_proxy->start() ? QString() : u"the fault proxy did not start"_s;
    }
    QList<QUrl> faultedEndpoints() const override { return {m_proxy->url()}; }
    QList<QUrl> cleanEndpoints() const override { return {m_server.clientUrl()}; }
    bool lateWrites() const override { return true; }
    QString applyHoldHeal() override
    {
        m_proxy->setDelay(2 * kTtl);
        QTest::qWait(4 * kTtlMs); // the fault's own duration
        m_proxy->setDelay(0ms); // Pass: what it held arrives at once
        return {};
    }
    FaultFacts facts() const override { return {.outlastsTtl = true, .cleanHit = false}; }
    QString log() const override { return m_server.log(); }

private:
    EtcdTestServer m_server;
    std::unique_ptr<FaultProxy> m_proxy;
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
