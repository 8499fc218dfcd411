// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// Fault: etcd stops and stays down for 3 TTLs, then restarts on its data. Both clients lose
// it; etcd restores every lease with a fresh TTL, so a hold the client gave up on its own
// clock is still in etcd for another TTL.
#include "suite.h"

#include <etcdtestserver.h>

using namespace FaultMatrix;
using namespace Qt::StringLiterals;

namespace {
class RestartFault : public Fault
{
public:
    QString setUp() override { return m_server.start() ? QString() : m_server.log(); }
    QList<QUrl> faultedEndpoints() const override { return {m_server.clientUrl()}; }
    QList<QUrl> cleanEndpoints() const override { return {m_server.clientUrl()}; }
    QString applyHoldHeal() override
    {
        if (!m_server.stop())
            return u"etcd did not stop"_s;
        QTest::qWait(3 * kTtlMs); // the fault's own duration
        return m_server.start() ? QString() : u"etcd did not start again"_s;
    }
    FaultFacts facts() const override { return {.outlastsTtl = true, .cleanHit = true}; }
    QString log() const override { return m_server.log(); }

private:
    EtcdTestServer m_server;
};
} // namespace

class tst_FaultRestart : public FaultSuite
{
    Q_OBJECT
public:
    tst_FaultRestart() : FaultSuite(std::make_unique<RestartFault>()) { }
};

QTEST_GUILESS_MAIN(tst_FaultRestart)
#include "fault_restart.moc"
