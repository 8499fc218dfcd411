// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// TLS against a real etcd serving https with client-certificate authentication. Certificates
// are made fresh by openssl for each run (IP:127.0.0.1 in the server's subject alt name).
#include "leaseledger.h"
#include "testutil.h"

#include <etcdtestserver.h>

#include <QtCore/qprocess.h>
#include <QtCore/qtemporarydir.h>

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;
using Etcd::ErrorCode;

class tst_EtcdTls : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void mutualTlsWorks();
    void wrongCaFailsNamingTls();
    void missingClientCertificateIsRefused();
    void badTlsFilesAreInvalidArguments_data();
    void badTlsFilesAreInvalidArguments();

private:
    bool openssl(const QStringList &args);
    bool makeCertificate(const QString &name, const QString &ca, const QString &extensions);
    QString file(const QString &name) const { return m_dir.filePath(name); }
    EtcdTlsFiles goodFiles() const
    {
        return {file(u"ca.crt"_s), file(u"client.crt"_s), file(u"client.key"_s)};
    }
    std::unique_ptr<EtcdClient> tlsClient(const EtcdTlsFiles &files);

    QTemporaryDir m_dir;
    EtcdTestServer m_server;
    LeaseLedger m_leases; // issue 22 item 7: no test leaves a lease
    QUrl m_https;
};

// Through the test kit's TestProcess, as testutil.h's etcdctl().
bool tst_EtcdTls::openssl(const QStringList &args)
{
    const QString log = m_dir.filePath(u"openssl.log"_s);
    QFile::remove(log);
    TestProcess p;
    p.setWorkingDirectory(m_dir.path());
    p.start(u"openssl"_s, args, log);
    if (!p.waitForStarted() || !p.waitForFinished(30000) || p.exitCode() != 0) {
        QFile f(log);
        qWarning() << "openssl" << args
                   << (f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray());
        return false;
    }
    return true;
}

bool tst_EtcdTls::makeCertificate(const QString &name, const QString &ca, const QString &ext)
{
    QFile extFile(file(name + u".ext"_s));
    if (!extFile.open(QIODevice::WriteOnly) || extFile.write(ext.toUtf8()) < 0)
        return false;
    extFile.close();
    return openssl({u"req"_s, u"-newkey"_s, u"rsa:2048"_s, u"-nodes"_s, u"-keyout"_s,
               name + u".key"_s, u"-out"_s, name + u".csr"_s, u"-subj"_s, u"/CN=etcdqt-"_s + name})
        && openssl({u"x509"_s, u"-req"_s, u"-in"_s, name + u".csr"_s, u"-CA"_s, ca + u".crt"_s,
            u"-CAkey"_s, ca + u".key"_s, u"-CAcreateserial"_s, u"-out"_s, name + u".crt"_s,
            u"-days"_s, u"2"_s, u"-extfile"_s, name + u".ext"_s});
}

void tst_EtcdTls::initTestCase()
{
    QVERIFY(m_dir.isValid());
    for (const QString &ca : {u"ca"_s, u"otherca"_s}) {
        QVERIFY(openssl({u"req"_s, u"-x509"_s, u"-newkey"_s, u"rsa:2048"_s, u"-nodes"_s,
            u"-keyout"_s, ca + u".key"_s, u"-out"_s, ca + u".crt"_s, u"-days"_s, u"2"_s, u"-subj"_s,
            u"/CN=etcdqt-test-"_s + ca}));
    }
    QVERIFY(makeCertificate(
        u"server"_s, u"ca"_s, u"subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n"_s));
    QVERIFY(makeCertificate(u"client"_s, u"ca"_s, u"extendedKeyUsage=clientAuth\n"_s));
    QVERIFY(makeCertificate(u"stranger"_s, u"otherca"_s, u"extendedKeyUsage=clientAuth\n"_s));

    // Plain http stays on the kit's port (its readiness probe), https on a second one.
    const QList<quint16> ports = EtcdTestServer::freePorts(3);
    m_server.setPorts(ports[0], ports[1]);
    m_https = QUrl(u"https://127.0.0.1:%1"_s.arg(ports[2]));
    const QString http = u"http://127.0.0.1:%1"_s.arg(ports[0]);
    m_server.setExtraArguments({u"--listen-client-urls="_s + http + u',' + m_https.toString(),
        u"--advertise-client-urls="_s + http, u"--cert-file="_s + file(u"server.crt"_s),
        u"--key-file="_s + file(u"server.key"_s), u"--trusted-ca-file="_s + file(u"ca.crt"_s),
        u"--client-cert-auth"_s});
    ETCDQT_START_OR_SKIP(m_server);
}

void tst_EtcdTls::init()
{
    m_leases.begin(m_server);
}

void tst_EtcdTls::cleanup()
{
    VERIFY_NO_LEASE_LEFT(m_leases);
}

std::unique_ptr<EtcdClient> tst_EtcdTls::tlsClient(const EtcdTlsFiles &files)
{
    auto client = std::make_unique<EtcdClient>(QList<QUrl> {m_https});
    client->setTlsFiles(files);
    client->setRpcResilience({EtcdRetryPolicy::bounded(2, 100ms), 5s});
    client->connectToEndpoints();
    return client;
}

void tst_EtcdTls::mutualTlsWorks()
{
    auto client = tlsClient(goodFiles());
    QVERIFY_OK(await(client->put("/tls/k"_ba, "secret"_ba)).status);
    QCOMPARE(await(client->get("/tls/k"_ba))->keyValues().first().value, "secret"_ba);
    QTRY_COMPARE_WITH_TIMEOUT(client->state(), EtcdClient::State::Connected, 5000);
    EtcdWatch watch(client.get(), "/tls/k"_ba);
    QSignalSpy events(&watch, &EtcdWatch::eventsReceived);
    watch.start();
    QTRY_COMPARE_WITH_TIMEOUT(watch.state(), EtcdWatch::State::Active, 5000);
    QVERIFY_OK(await(client->put("/tls/k"_ba, "again"_ba)).status);
    QTRY_COMPARE_WITH_TIMEOUT(events.size(), 1, 5000); // streams use the same credentials
}

void tst_EtcdTls::wrongCaFailsNamingTls()
{
    auto client = tlsClient({file(u"otherca.crt"_s), file(u"client.crt"_s), file(u"client.key"_s)});
    const auto put = await(client->put("/tls/k"_ba, "v"_ba), 20s);
    QCOMPARE(put.status.code(), ErrorCode::TlsError);
    QVERIFY2(put.status.message().contains(u"handshake"_s, Qt::CaseInsensitive)
            || put.status.message().contains(u"ssl"_s, Qt::CaseInsensitive),
        qPrintable(put.status.message()));
}

void tst_EtcdTls::missingClientCertificateIsRefused()
{
    auto client = tlsClient({file(u"ca.crt"_s), {}, {}});
    const auto put = await(client->put("/tls/k"_ba, "v"_ba), 20s);
    QVERIFY(!put.status.isOk());
    auto stranger
        = tlsClient({file(u"ca.crt"_s), file(u"stranger.crt"_s), file(u"stranger.key"_s)});
    QVERIFY(!await(stranger->put("/tls/k"_ba, "v"_ba), 20s).status.isOk());
}

void tst_EtcdTls::badTlsFilesAreInvalidArguments_data()
{
    QTest::addColumn<QString>("ca");
    QTest::addColumn<QString>("cert");
    QTest::addColumn<QString>("key");
    QTest::newRow("missing CA") << file(u"nope.crt"_s) << QString() << QString();
    QTest::newRow("not PEM") << file(u"server.ext"_s) << QString() << QString();
    QTest::newRow("cert without key") << file(u"ca.crt"_s) << file(u"client.crt"_s) << QString();
}

void tst_EtcdTls::badTlsFilesAreInvalidArguments()
{
    QFETCH(QString, ca);
    QFETCH(QString, cert);
    QFETCH(QString, key);
    EtcdClient client({m_https});
    client.setTlsFiles({ca, cert, key});
    QSignalSpy errors(&client, &EtcdClient::errorOccurred);
    QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u"cannot connect"_s));
    client.connectToEndpoints();
    QTRY_COMPARE(errors.size(), 1);
    QCOMPARE(errors.first().first().value<EtcdStatus>().code(), ErrorCode::InvalidArgument);
    QCOMPARE(client.state(), EtcdClient::State::Disconnected);
}

QTEST_GUILESS_MAIN(tst_EtcdTls)
#include "tst_etcdtls.moc"
