// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// Fault: auth tokens run out. etcd has auth on with simple tokens that expire after 2 s of
// disuse (--auth-token-ttl); both clients log in and hold, idle but for their renewals, for 3
// token TTLs. A call with an expired token fails "invalid auth token"; the client logs in
// again and repeats it (design/streams.md), so every hold is kept and stays usable.
#include "suite.h"

#include <etcdtestserver.h>

#include <atomic>

using namespace FaultMatrix;
using namespace Qt::StringLiterals;

namespace {
constexpr int kTokenTtlS = 2;

// A client's successful logins (recorded on its engine thread).
class Logins : public EtcdMetrics
{
public:
    void recordRpc(Rpc rpc, Duration, int, Etcd::ErrorCode code) override
    {
        if (rpc == Rpc::Authenticate && code == Etcd::ErrorCode::Ok)
            ++count;
    }
    std::atomic<int> count {0};
};

class TokenFault : public Fault
{
public:
    QString setUp() override
    {
        m_server.setExtraArguments({u"--auth-token-ttl=%1"_s.arg(kTokenTtlS)});
        if (!m_server.start())
            return m_server.log();
        // root: the matrix's keys are outside the app user's /app/ role.
        return enableAuthWithAppUser(m_server.clientUrl()) ? QString() : u"enabling auth failed"_s;
    }
    QList<QUrl> faultedEndpoints() const override { return {m_server.clientUrl()}; }
    QList<QUrl> cleanEndpoints() const override { return {m_server.clientUrl()}; }
    void configureFaulted(EtcdClient &client) override
    {
        logIn(client);
        client.setMetrics(m_logins);
    }
    void configureClean(EtcdClient &client) override { logIn(client); }
    QString applyHoldHeal() override
    {
        m_loginsBefore = m_logins->count;
        QTest::qWait(3 * kTokenTtlS * 1000); // the fault's own duration: tokens run out
        return {};
    }
    // The faulted client's token ran out and it logged in again (else nothing was tested).
    QString verify() const override
    {
        return m_logins->count > m_loginsBefore
            ? QString()
            : u"the faulted client never logged in again after its token's TTL"_s;
    }
    FaultFacts facts() const override
    {
        return {.outlastsTtl = false, .mayOutlastTtl = false, .cleanHit = true};
    }
    QString log() const override { return m_server.log(); }

private:
    static void logIn(EtcdClient &client) { client.setCredentials(u"root"_s, u"root-pw"_s); }

    EtcdTestServer m_server;
    std::shared_ptr<Logins> m_logins = std::make_shared<Logins>();
    int m_loginsBefore = 0;
};
} // namespace

class tst_FaultTokenExpiry : public FaultSuite
{
    Q_OBJECT
public:
    tst_FaultTokenExpiry() : FaultSuite(std::make_unique<TokenFault>()) { }
};

QTEST_GUILESS_MAIN(tst_FaultTokenExpiry)
#include "fault_token.moc"
