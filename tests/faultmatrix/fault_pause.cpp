// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// Fault: etcd SIGSTOPped for 3 TTLs. Its connections stay open and go quiet, for both
// clients; on SIGCONT its lessor finds every lease run out and revokes them.
#include "suite.h"

#include <etcdtestserver.h>

using namespace FaultMatrix;
using namespace Qt::StringLiterals;

namespace {
class PauseFault : public Fault
{
public:
    QString setUp() override { return m_server.start() ? QString() : m_server.log(); }
    QList<QUrl> faultedEndpoints() const override { return {m_server.clientUrl()}; }
    QList<QUrl> cleanEndpoints() const override { return {m_server.clientUrl()}; }
    QString applyHoldHeal() override
    {
        if (!m_server.pause())
            return u"etcd did not stop (SIGSTOP)"_s;
        QTest::qWait(3 * kTtlMs); // the fault's own duration
        return m_server.resume() ? QString() : u"etcd did not continue (SIGCONT)"_s;
    }
    FaultFacts facts() const override { return {.outlastsTtl = true, .cleanHit = true}; }
    QString log() const override { return m_server.log(); }

private:
    EtcdTestServer m_server;
};
} // namespace

class tst_FaultPause : public FaultSuite
{
    Q_OBJECT
public:
    tst_FaultPause() : FaultSuite(std::make_unique<PauseFault>()) { }
};

QTEST_GUILESS_MAIN(tst_FaultPause)
#include "fault_pause.moc"
