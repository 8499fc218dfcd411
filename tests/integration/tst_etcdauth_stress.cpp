// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
// Token refreshes under load, and clients destroyed with calls in flight (issue 22, item 8).
// etcd forgets a token after 1 s of disuse (--auth-token-ttl=1); eight threads, each with a
// client of its own, send rounds of calls with pauses longer than that between them, so
// every round starts with calls that fail on a stale token, share one re-authentication and
// go again. A call's next attempt may then begin before its failed attempt has ended; the
// transport must keep such a call registered, so that a client destroyed with calls in
// flight cancels and waits for every one of them (run under ASan and TSan: a call it forgot
// delivers into a destroyed reply). Each thread ends by destroying its client with a round
// still on the wire.

#include "leaseledger.h"
#include "testutil.h"

#include <etcdtestserver.h>

#include <QtCore/qeventloop.h>
#include <QtCore/qpointer.h>
#include <QtCore/qprocess.h>
#include <QtCore/qregularexpression.h>
#include <QtCore/qthread.h>

#include <atomic>
#include <mutex>

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

namespace {
constexpr int kThreads = 8;
constexpr int kRounds = 4;
constexpr int kPerRound = 250; // 4 x 250 = 1,000 calls per thread, then a round cut off
constexpr int kInFlight = 25;
constexpr auto kPause
    = 2200ms; // past the token's 1 s of disuse, and etcd's 1 s sweep of old tokens

struct Outcome
{
    std::shared_ptr<EtcdMetricsRegistry> metrics = std::make_shared<EtcdMetricsRegistry>();
    std::atomic<int> ok {0};
    std::atomic<int> failed {0};
    std::atomic<int> cutOff {0}; // replies of the destroyed client: Cancelled, never lost
    std::atomic<int> finishedThreads {0};
    std::mutex mutex; // guards whyFailed
    QStringList whyFailed; // the first few failures, for the message

    void count(const EtcdStatus &s)
    {
        (s.isOk() ? ok : failed)++;
        if (s.isOk())
            return;
        std::lock_guard lock(mutex);
        if (whyFailed.size() < 5)
            whyFailed.append(s.toString());
    }
};

// One thread's work, in its own event loop: rounds of puts, kInFlight at a time.
void runClient(const QUrl &url, int index, Outcome &outcome)
{
    auto client = std::make_unique<EtcdClient>(QList<QUrl> {url});
    client->setCredentials(u"app"_s, u"app-pw"_s);
    client->setMetrics(outcome.metrics); // counts the re-authentications
    client->connectToEndpoints();
    const QByteArray key = "/app/stress/"_ba + QByteArray::number(index);
    for (int round = 0; round < kRounds; ++round) {
        int sent = 0;
        int answered = 0;
        QEventLoop loop;
        std::function<void()> sendOne = [&] {
            EtcdPutReply *r = client->put(key, QByteArray::number(sent++));
            QObject::connect(r, &EtcdReply::finished, &loop, [&](const EtcdStatus &s) {
                outcome.count(s);
                if (++answered == kPerRound)
                    loop.quit();
                else if (sent < kPerRound)
                    sendOne();
            });
        };
        for (int i = 0; i < kInFlight; ++i)
            sendOne();
        loop.exec();
        QThread::msleep(ulong(kPause.count())); // the token goes stale
    }
    // A round left on the wire: the client is destroyed under it.
    std::vector<QPointer<EtcdPutReply>> last;
    for (int i = 0; i < kInFlight; ++i) {
        EtcdPutReply *r = client->put(key, "last"_ba);
        r->setAutoDelete(false);
        last.emplace_back(r);
    }
    QThread::msleep(ulong(3 * index)); // each client cut off at another point of its round
    client.reset();
    for (const QPointer<EtcdPutReply> &r : last) {
        // Finished by the client's destructor, or deleted with it as its child.
        if (!r || r->isFinished())
            outcome.cutOff++;
        delete r.data();
    }
    outcome.finishedThreads++;
}
} // namespace

class tst_EtcdAuthStress : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void refreshesUnderLoadAndDestroyedClients();

private:
    EtcdTestServer m_server;
    LeaseLedger m_leases; // issue 22 item 7: no test leaves a lease
};

void tst_EtcdAuthStress::initTestCase()
{
    m_server.setExtraArguments({u"--auth-token-ttl=1"_s});
    ETCDQT_START_OR_SKIP(m_server);
    QVERIFY(enableAuthWithAppUser(m_server.clientUrl()));
}

void tst_EtcdAuthStress::init()
{
    m_leases.begin(m_server);
}

void tst_EtcdAuthStress::cleanup()
{
    VERIFY_NO_LEASE_LEFT(m_leases);
}

void tst_EtcdAuthStress::refreshesUnderLoadAndDestroyedClients()
{
    Outcome outcome;
    std::vector<std::unique_ptr<QThread>> threads;
    for (int i = 0; i < kThreads; ++i) {
        threads.emplace_back(QThread::create(
            [url = m_server.clientUrl(), i, &outcome] { runClient(url, i, outcome); }));
        threads.back()->start();
    }
    // Rounds of up to a few seconds each on a loaded machine, plus the pauses.
    QTRY_COMPARE_WITH_TIMEOUT(outcome.finishedThreads.load(), kThreads, 120'000);
    for (auto &t : threads)
        QVERIFY(t->wait(10'000));
    // Every call of every round answered, and all but none of them well: a stale token is
    // refreshed and the call repeated, never reported.
    QCOMPARE(outcome.ok.load() + outcome.failed.load(), kThreads * kRounds * kPerRound);
    QVERIFY2(outcome.failed.load() == 0,
        qPrintable(u"%1 failed, first: %2"_s.arg(outcome.failed.load())
                       .arg(outcome.whyFailed.join(u"; "_s))));
    QCOMPARE(outcome.cutOff.load(), kThreads * kInFlight);
    // The stale tokens happened: every client authenticated again after each pause (one
    // Authenticate serves all of a client's calls that found the token stale).
    const QByteArray text = outcome.metrics->prometheusText();
    const QRegularExpression authenticated(
        u"etcdqt_rpc_duration_seconds_count\\{method=\"Authenticate\"\\} (\\d+)"_s);
    const QRegularExpressionMatch m = authenticated.match(QString::fromUtf8(text));
    QVERIFY2(m.hasMatch(), text.constData());
    QVERIFY2(m.captured(1).toInt() >= kThreads * kRounds, qPrintable(m.captured(1)));
}

QTEST_GUILESS_MAIN(tst_EtcdAuthStress)
#include "tst_etcdauth_stress.moc"
