// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0

// Runs tst_*.qml in this directory against an etcd started by EtcdTestServer. QML sees
// `etcdUrl` (the server's client URL) and `etcdTest` (this setup: availability, and the
// out-of-band operations a test needs, from a client of its own).

#include "etcdtestserver.h"

#include <EtcdQt/etcdclient.h>
#include <EtcdQt/etcdreplies.h>
#include <EtcdQt/etcdstatus.h>

#include <QtCore/qcoreapplication.h>
#include <QtCore/qdebug.h>
#include <QtCore/qeventloop.h>
#include <QtCore/qtimer.h>

#include <QtQml/qqmlcontext.h>
#include <QtQml/qqmlengine.h>
#include <QtQuickTest/quicktest.h>
#include <QtTest/qtestsystem.h>

#include <algorithm>
#include <memory>

class EtcdQmlTestSetup : public QObject
{
    Q_OBJECT
    Q_PROPERTY(bool available READ isAvailable CONSTANT)
public:
    EtcdQmlTestSetup() = default;

    [[nodiscard]] bool isAvailable() const { return m_client != nullptr; }

    // Revokes `leaseId` from outside the item under test (the reply deletes itself).
    // Lease ids come from QML as decimal strings (they exceed a JS number's precision).
    Q_INVOKABLE void revokeLease(const QString &leaseIdText)
    {
        bool ok = false;
        const qint64 leaseId = leaseIdText.toLongLong(&ok);
        if (!m_client || !ok) {
            qWarning() << "revokeLease: not a lease id:" << leaseIdText;
            return;
        }
        EtcdReply *reply = m_client->revokeLease(leaseId);
        connect(reply, &EtcdReply::finished, this, [leaseId](const EtcdStatus &status) {
            if (!status.isOk())
                qWarning() << "revoking lease" << leaseId << "failed:" << status;
        });
    }

    // Writes `value` at `key` (no lease) from outside the item under test; the test waits
    // for what the items see, a failure is a warning.
    Q_INVOKABLE void put(const QString &key, const QString &value)
    {
        if (!m_client)
            return;
        warnOnFailure(m_client->put(key.toUtf8(), value.toUtf8()), "put", key);
    }

    // Deletes `key` from outside the item under test.
    Q_INVOKABLE void remove(const QString &key)
    {
        if (!m_client)
            return;
        warnOnFailure(m_client->remove(key.toUtf8()), "remove", key);
    }

    // Stops etcd (SIGTERM, waited for) and starts it again on the same ports and data: for
    // the tests of what items do while etcd is away. Blocks the test for as long.
    Q_INVOKABLE bool stopEtcd() { return m_server && m_server->stop(); }
    Q_INVOKABLE bool startEtcd() { return m_server && m_server->restart(); }

    // The TTL etcd granted lease `leaseIdText` (decimal), in seconds; -1 when it cannot say.
    // Waits for etcd's answer in a local event loop, at most 5 s.
    Q_INVOKABLE int grantedTtl(const QString &leaseIdText)
    {
        bool ok = false;
        const qint64 leaseId = leaseIdText.toLongLong(&ok);
        if (!m_client || !ok)
            return -1;
        EtcdLeaseTimeToLiveReply *reply = m_client->leaseTimeToLive(leaseId);
        int granted = -1;
        QEventLoop loop;
        connect(reply, &EtcdReply::finished, &loop, [&](const EtcdStatus &status) {
            if (status.isOk())
                granted = int(reply->grantedTtl().count());
            loop.quit();
        });
        QTimer::singleShot(5000, &loop, &QEventLoop::quit);
        loop.exec();
        return granted;
    }

    // The connections the module retired and still keeps (EtcdQmlConnection, parented to
    // the application until their recipes reported closed()).
    Q_INVOKABLE int retiredConnections() const
    {
        const QList<QObject *> children
            = QCoreApplication::instance()->findChildren<QObject *>(Qt::FindDirectChildrenOnly);
        return int(std::count_if(children.cbegin(), children.cend(),
            [](const QObject *child) { return child->inherits("EtcdQmlConnection"); }));
    }

public Q_SLOTS:
    void applicationAvailable()
    {
        if (!EtcdTestServer::etcdAvailable()) {
            if (qEnvironmentVariableIntValue("ETCDQT_REQUIRE_ETCD"))
                qFatal("etcd not found and ETCDQT_REQUIRE_ETCD=1");
            qWarning("etcd not installed (/usr/bin/etcd): the QML recipe tests skip");
            return;
        }
        m_server = std::make_unique<EtcdTestServer>();
        if (!m_server->start())
            qFatal("etcd did not start: %s", qPrintable(m_server->log()));
        m_client = std::make_unique<EtcdClient>(QList<QUrl> {m_server->clientUrl()});
        m_client->connectToEndpoints();
    }

    void qmlEngineAvailable(QQmlEngine *engine)
    {
        engine->addImportPath(QStringLiteral(ETCDQT_QML_IMPORT_PATH));
        const QString url = m_server ? m_server->clientUrl().toString() : QString();
        engine->rootContext()->setContextProperty(QStringLiteral("etcdUrl"), url);
        engine->rootContext()->setContextProperty(QStringLiteral("etcdTest"), this);
    }

    // The last file's engine is gone and its connections retired: their revokes reach etcd
    // before it stops (each retired connection is bounded to 10 s).
    void cleanupTestCase()
    {
        if (!QTest::qWaitFor([this] { return retiredConnections() == 0; }, 15000))
            qWarning("retired connections still wait for their recipes' closed()");
        m_client.reset();
        m_server.reset();
    }

private:
    void warnOnFailure(EtcdReply *reply, const char *what, const QString &key)
    {
        connect(reply, &EtcdReply::finished, this, [what, key](const EtcdStatus &status) {
            if (!status.isOk())
                qWarning() << what << key << "failed:" << status;
        });
    }

    std::unique_ptr<EtcdTestServer> m_server;
    std::unique_ptr<EtcdClient> m_client;
};

QUICK_TEST_MAIN_WITH_SETUP(tst_qmlrecipes, EtcdQmlTestSetup)

#include "tst_qmlrecipes.moc"
