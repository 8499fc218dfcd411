// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "etcdqmlconnection_p.h"
#include "etcdqmlconvert_p.h"

#include <EtcdQt/etcdclient.h>
#include <EtcdQt/etcdrecipe.h>

#include <QtCore/qcoreapplication.h>
#include <QtCore/qeventloop.h>
#include <QtCore/qmetaobject.h>
#include <QtCore/qpointer.h>
#include <QtCore/qthread.h>
#include <QtCore/qtimer.h>

#include <algorithm>

using std::chrono::milliseconds;

namespace {
// Deleting later needs an event loop in this thread; without one, objects go at once.
bool canDeleteLater()
{
    const QCoreApplication *app = QCoreApplication::instance();
    return app && app->thread() == QThread::currentThread();
}

QList<EtcdQmlConnection *> retiredConnections()
{
    return QCoreApplication::instance()->findChildren<EtcdQmlConnection *>(
        Qt::FindDirectChildrenOnly);
}

// A post routine: the application is being destroyed, its event loop has ended, and an engine
// destroyed after it (the usual `return app.exec();`) retired connections that now wait for
// their revokes' answers. Let them arrive (each connection is bounded, at most 10 s) rather
// than cut the revokes and leave the leases to their TTL.
void finishRetiredConnections()
{
    if (retiredConnections().isEmpty())
        return;
    QEventLoop loop;
    QTimer poll;
    QObject::connect(&poll, &QTimer::timeout, &loop, [&loop] {
        if (retiredConnections().isEmpty())
            loop.quit();
    });
    poll.start(10);
    QTimer::singleShot(10000, &loop, &QEventLoop::quit);
    loop.exec();
}
} // namespace

EtcdQmlConnection::EtcdQmlConnection(std::unique_ptr<EtcdClient> client)
    : m_client(std::move(client))
{ }

// The objects first: their destructors may still talk to the client.
EtcdQmlConnection::~EtcdQmlConnection()
{
    const QList<QObject *> objects = findChildren<QObject *>(Qt::FindDirectChildrenOnly);
    for (QObject *object : objects) {
        object->disconnect(this);
        delete object;
    }
    m_client.reset();
}

void EtcdQmlConnection::adopt(QObject *object)
{
    object->setParent(this);
    m_open.insert(object);
    connect(object, &QObject::destroyed, this, [this, object] { forget(object); });
    if (auto *recipe = qobject_cast<EtcdRecipe *>(object)) {
        connect(recipe, &EtcdRecipe::closed, this, [this, object] {
            if (m_letGo.contains(object))
                object->deleteLater(); // not inside its own signal
            else
                m_closed.insert(object);
        });
    }
}

void EtcdQmlConnection::retire()
{
    m_retired = true;
    const QSet<QObject *> open = m_open;
    for (QObject *object : open)
        closeAndLetGo(object);
    if (!canDeleteLater()) {
        delete this;
        return;
    }
    QCoreApplication *app = QCoreApplication::instance();
    setParent(app);
    static QPointer<QCoreApplication> routineAddedFor;
    if (routineAddedFor != app) {
        qAddPostRoutine(finishRetiredConnections);
        routineAddedFor = app;
    }
    const milliseconds limit = bound(m_client.get());
    QTimer::singleShot(limit, this, [this, limit] {
        if (!m_letGo.isEmpty())
            qCInfo(lcEtcdQml) << m_letGo.size() << "closed recipe(s) did not report closed()"
                              << "within" << limit.count() << "ms; deleting their client";
        deleteLater();
    });
    finishIfDone();
}

void EtcdQmlConnection::closeAndLetGo(QObject *object)
{
    if (!object)
        return;
    // Every recipe (and a watch session's cancel) ends without blocking.
    const QMetaObject *meta = object->metaObject();
    if (meta->indexOfMethod("close()") >= 0)
        QMetaObject::invokeMethod(object, "close", Qt::DirectConnection);
    else if (meta->indexOfMethod("cancel()") >= 0)
        QMetaObject::invokeMethod(object, "cancel", Qt::DirectConnection);
    if (auto *connection = qobject_cast<EtcdQmlConnection *>(object->parent()))
        connection->letGo(object);
    else if (canDeleteLater())
        object->deleteLater();
    else
        delete object;
}

milliseconds EtcdQmlConnection::bound(const EtcdClient *client)
{
    const milliseconds deadline = client ? client->callDeadline() : milliseconds(0);
    if (deadline <= milliseconds(0))
        return milliseconds(5000);
    // Compared before adding: a deadline of milliseconds::max() must not overflow.
    return deadline >= milliseconds(9000) ? milliseconds(10000) : deadline + milliseconds(1000);
}

void EtcdQmlConnection::letGo(QObject *object)
{
    if (!m_open.remove(object))
        return;
    if (!canDeleteLater()) {
        delete object;
        return;
    }
    if (!qobject_cast<EtcdRecipe *>(object) || m_closed.contains(object)) {
        object->deleteLater();
        return;
    }
    m_letGo.insert(object);
    QTimer::singleShot(bound(m_client.get()), object, [object] {
        qCInfo(lcEtcdQml) << object << "did not report closed() in time; deleting it";
        object->deleteLater();
    });
}

// `object` is being destroyed (its children still exist): the client goes on the next loop
// turn at the earliest.
void EtcdQmlConnection::forget(QObject *object)
{
    m_open.remove(object);
    m_letGo.remove(object);
    m_closed.remove(object);
    if (m_retired)
        QMetaObject::invokeMethod(this, &EtcdQmlConnection::finishIfDone, Qt::QueuedConnection);
}

void EtcdQmlConnection::finishIfDone()
{
    if (m_retired && m_open.isEmpty() && m_letGo.isEmpty()
        && findChildren<QObject *>(Qt::FindDirectChildrenOnly).isEmpty())
        deleteLater();
}
