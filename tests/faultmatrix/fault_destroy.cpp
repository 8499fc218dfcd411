// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// Fault: the faulted client is deleted, with its recipes as its children, while they hold,
// while a guarded write of theirs is in flight and while the contenders wait: the way an
// application quits. Its destructor revokes every lease it held; the contenders take over at
// once, and a new client's recipe on the same path owns again.
#include "suite.h"

#include <etcdtestserver.h>

using namespace FaultMatrix;
using namespace Qt::StringLiterals;

namespace {
class DestroyFault : public Fault
{
public:
    QString setUp() override { return m_server.start() ? QString() : m_server.log(); }
    QList<QUrl> faultedEndpoints() const override { return {m_server.clientUrl()}; }
    QList<QUrl> cleanEndpoints() const override { return {m_server.clientUrl()}; }
    // The suite's lease census takes every lease granted with kTtl for the faulted client's.
    std::chrono::seconds cleanTtl() const override { return kTtl + 1s; }
    QString applyHoldHeal() override { return {}; } // the suite deletes the client
    FaultFacts facts() const override
    {
        return {.outlastsTtl = false, .cleanHit = false, .faultedDestroyed = true};
    }
    QString log() const override { return m_server.log(); }

private:
    EtcdTestServer m_server;
};
} // namespace

class tst_FaultDestroyed : public FaultSuite
{
    Q_OBJECT
public:
    tst_FaultDestroyed() : FaultSuite(std::make_unique<DestroyFault>()) { }
};

QTEST_GUILESS_MAIN(tst_FaultDestroyed)
#include "fault_destroy.moc"
