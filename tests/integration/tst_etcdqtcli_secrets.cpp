// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
// How etcdqt takes a password and where it lets it go (issue 22, item 5): from ETCDQT_PASSWORD
// or asked on the terminal without echo (a pseudo-terminal made by script(1) answers the
// prompt), refused with one line when neither is there; a warning before it goes to another
// host over http://; certificates refused for an http:// endpoint. Against an etcd with auth
// on (user "app", role limited to /app/).

#include "clitestutil.h"
#include "leaseledger.h"
#include "testutil.h"

#include <QtCore/qtemporaryfile.h>

using namespace CliTest;

namespace {
// etcdqt under script(1): a pseudo-terminal, `typed` once its prompt shows (typed ahead, the
// terminal would echo it before the prompt could turn echo off). Its transcript is what the
// terminal showed: prompt and output, and an echoed password.
QByteArray onATerminal(const QStringList &args, const QByteArray &prompt, const QByteArray &typed)
{
    QStringList quoted;
    for (const QString &a : args)
        quoted.append(u"'"_s + a + u"'"_s);
    ChildProcess p;
    p.start(u"script"_s,
        {u"-qec"_s, QStringLiteral(ETCDQT_CLI) + u" "_s + quoted.join(u' '), u"/dev/null"_s});
    if (!p.waitForStarted(kRunMs))
        return {};
    QByteArray shown;
    const QDeadlineTimer deadline(kRunMs);
    while (!shown.contains(prompt) && p.state() == QProcess::Running && !deadline.hasExpired()) {
        p.waitForReadyRead(int(deadline.remainingTime()));
        shown += p.readAllStandardOutput();
    }
    p.write(typed);
    p.waitForFinished(int(deadline.remainingTime()));
    return shown + p.readAllStandardOutput();
}
} // namespace

class tst_EtcdqtCliSecrets : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void passwordFromTheEnvironment();
    void passwordAskedOnTheTerminal();
    void noPasswordAndNoTerminalIsRefused();
    void plainTextToAnotherHostIsWarnedOf();
    void certificatesNeedHttps();

private:
    Run runWith(const QStringList &args, const QString &password);
    EtcdTestServer m_server;
    LeaseLedger m_leases; // issue 22 item 7: no test leaves a lease
};

// A run with ETCDQT_PASSWORD set to `password` (unset when null).
Run tst_EtcdqtCliSecrets::runWith(const QStringList &args, const QString &password)
{
    ChildProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(u"ETCDQT_PASSWORD"_s);
    if (!password.isNull())
        env.insert(u"ETCDQT_PASSWORD"_s, password);
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(ETCDQT_CLI), args);
    return finishedRun(p, kRunMs);
}

void tst_EtcdqtCliSecrets::initTestCase()
{
    ETCDQT_START_OR_SKIP(m_server);
    QVERIFY(enableAuthWithAppUser(m_server.clientUrl()));
}

void tst_EtcdqtCliSecrets::init()
{
    m_leases.begin(m_server);
}

void tst_EtcdqtCliSecrets::cleanup()
{
    VERIFY_NO_LEASE_LEFT(m_leases);
}

void tst_EtcdqtCliSecrets::passwordFromTheEnvironment()
{
    const QStringList add {u"--endpoints"_s, m_server.clientUrl().toString(), u"--user"_s, u"app"_s,
        u"counter"_s, u"add"_s, u"/app/env"_s, u"3"_s};
    const Run ok = runWith(add, u"app-pw"_s);
    QCOMPARE(ok.exitCode, 0);
    QCOMPARE(ok.lines.value(0).value(u"value"_s).toInteger(), 3);
    QVERIFY2(ok.log.isEmpty(), ok.log.constData()); // loopback: no warning
    const Run wrong = runWith(add, u"not-it"_s);
    QCOMPARE(wrong.exitCode, 1);
    QVERIFY(wrong.lines.isEmpty());
}

void tst_EtcdqtCliSecrets::passwordAskedOnTheTerminal()
{
    const QByteArray shown
        = onATerminal({u"--endpoints"_s, m_server.clientUrl().toString(), u"--user"_s, u"app"_s,
                          u"counter"_s, u"add"_s, u"/app/tty"_s, u"5"_s},
            "Password for app: ", "app-pw\n");
    QVERIFY2(shown.contains("Password for app: "), shown.constData());
    QVERIFY2(shown.contains("{\"value\":5}"), shown.constData());
    QVERIFY2(!shown.contains("app-pw"), shown.constData()); // not echoed
}

// No password, no terminal (ChildProcess gives none): refused before anything is sent.
void tst_EtcdqtCliSecrets::noPasswordAndNoTerminalIsRefused()
{
    ChildProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(u"ETCDQT_PASSWORD"_s);
    p.setProcessEnvironment(env);
    // setsid: no controlling terminal even when the test itself runs on one.
    p.start(u"setsid"_s,
        {QStringLiteral(ETCDQT_CLI), u"--endpoints"_s, m_server.clientUrl().toString(), u"--user"_s,
            u"app"_s, u"counter"_s, u"get"_s, u"/app/none"_s});
    const Run run = finishedRun(p, kRunMs);
    QVERIFY2(isOneLineRefusal(run), run.log.constData());
    QVERIFY(run.log.contains("ETCDQT_PASSWORD"));
}

// Over http:// to a host that is not this one: a warning first. (Nothing listens there; the
// run fails afterwards, as etcdqt does for an unreachable etcd.)
void tst_EtcdqtCliSecrets::plainTextToAnotherHostIsWarnedOf()
{
    const Run run = runWith({u"--endpoints"_s, u"http://192.0.2.1:2379"_s, u"--user"_s, u"app"_s,
                                u"counter"_s, u"get"_s, u"/app/x"_s},
        u"app-pw"_s);
    const QList<QByteArray> log = run.log.trimmed().split('\n');
    QVERIFY2(log.first().startsWith("etcdqt: warning: the password of app goes to 192.0.2.1"),
        run.log.constData());
    QVERIFY(!run.log.contains("app-pw"));
}

void tst_EtcdqtCliSecrets::certificatesNeedHttps()
{
    QTemporaryFile ca;
    QVERIFY(ca.open());
    const QStringList get {u"counter"_s, u"get"_s, u"/app/x"_s};
    const QStringList wrong = notRefusedWithOneLine({
        QStringList {
            u"--cacert"_s, ca.fileName(), u"--endpoints"_s, m_server.clientUrl().toString()}
            + get,
        QStringList {u"--endpoints"_s, u"http://127.0.0.1:2379"_s, u"--cert"_s, ca.fileName(),
            u"--key"_s, ca.fileName()}
            + get,
    });
    QVERIFY2(wrong.isEmpty(), qPrintable(wrong.join(u'\n')));
}

QTEST_GUILESS_MAIN(tst_EtcdqtCliSecrets)
#include "tst_etcdqtcli_secrets.moc"
