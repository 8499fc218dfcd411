// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// Fault: the faulted client is cut off for 3 TTLs by a FaultProxy that blackholes its
// traffic (connections open, nothing forwarded); the clean client and etcd carry on.
#include "suite.h"

#include <etcdtestserver.h>

using namespace FaultMatrix;
using namespace Qt::StringLiterals;

namespace {
class CutoffFault : public Fault
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
    QString applyHoldHeal() override
    {
        m_proxy->setMode(FaultProxy::Mode::Blackhole);
        QTest::qWait(3 * kTtlMs); // the fault's own duration
        m_proxy->setMode(FaultProxy::Mode::Pass);
        return {};
    }
    FaultFacts facts() const override { return {.outlastsTtl = true, .cleanHit = false}; }
    QString log() const override { return m_server.log(); }

private:
    EtcdTestServer m_server;
    std::unique_ptr<FaultProxy> m_proxy;
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
