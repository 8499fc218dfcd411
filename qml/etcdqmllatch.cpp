// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "etcdqmllatch.h"
#include "etcdqmlconnection_p.h"

#include <EtcdQt/etcdclient.h>
#include <EtcdQt/etcdcountdownlatch.h>
#include <EtcdQt/etcdstatus.h>

#include <QtCore/qpointer.h>

#include <cmath>

/*!
    \qmltype CountDownLatch
    \inqmlmodule EtcdQt
    \brief A gate that opens when a count shared through etcd reaches zero
    (EtcdCountDownLatch: the key \c path holds the count, with no lease).

    While \c active, the item follows the latch: \c count is the count in etcd (-1 when no
    latch exists, or while inactive), \c open turns true and opened() is emitted once, the
    first time the count is seen at zero (at once for a latch already open).

    create(count) and countDown() work whether or not the item is active, as long as its
    client is connected and \c path is set (they return false otherwise). They answer with
    createFinished(count, created) (the count in etcd after the call, the first creator's;
    whether this call created the latch) and countDownFinished(count) (the count after the
    call, never below zero). A failed call answers with count -1 and sets \c errorCode and
    \c errorString (errorOccurred(code, message)): for instance NotFound for a count-down
    where no latch exists.
*/

EtcdQmlCountDownLatch::EtcdQmlCountDownLatch(QObject *parent) : EtcdQmlRecipe(parent) { }

EtcdQmlCountDownLatch::~EtcdQmlCountDownLatch() = default;

QString EtcdQmlCountDownLatch::path() const
{
    return m_path;
}

void EtcdQmlCountDownLatch::setPath(const QString &path)
{
    if (path == m_path)
        return;
    m_path = path;
    Q_EMIT pathChanged();
    restart();
}

double EtcdQmlCountDownLatch::count() const
{
    return m_count;
}

bool EtcdQmlCountDownLatch::isOpen() const
{
    return m_open;
}

/*! \qmlmethod bool CountDownLatch::create(int count)
    Creates the latch with \a count unless one exists; createFinished() answers. Returns
    \c false, and sends nothing, when \a count is not a whole number above zero or the item
    has no client or path. */
bool EtcdQmlCountDownLatch::create(double count)
{
    if (count != std::floor(count) || count < 1 || count > 9007199254740992.0) {
        setError(EtcdStatus(Etcd::ErrorCode::InvalidArgument,
            tr("a latch needs a whole count above zero, not %1").arg(count)));
        return false;
    }
    EtcdCountDownLatch *latch = latchForCall();
    if (!latch)
        return false;
    whenFinished(latch, latch->create(qint64(count)), [this](bool ok, EtcdValueReply *reply) {
        Q_EMIT createFinished(ok ? double(reply->value()) : -1, ok && reply->written());
    });
    return true;
}

/*! \qmlmethod bool CountDownLatch::countDown()
    Takes one off the count; countDownFinished() answers. Returns \c false,
    and sends nothing, when the item has no client or path. */
bool EtcdQmlCountDownLatch::countDown()
{
    EtcdCountDownLatch *latch = latchForCall();
    if (!latch)
        return false;
    whenFinished(latch, latch->countDown(), [this](bool ok, EtcdValueReply *reply) {
        Q_EMIT countDownFinished(ok ? double(reply->value()) : -1);
    });
    return true;
}

// Lets go of a latch made for this one call (the item inactive), records a failure, then
// reports; the item may be gone by then.
void EtcdQmlCountDownLatch::whenFinished(EtcdCountDownLatch *latch, EtcdValueReply *reply,
    std::function<void(bool ok, EtcdValueReply *reply)> report)
{
    const bool oneOff = latch != current();
    connect(reply, &EtcdReply::finished, latch,
        [self = QPointer(this), latch, reply, oneOff, report](const EtcdStatus &status) {
            if (oneOff)
                EtcdQmlConnection::closeAndLetGo(latch);
            if (!self)
                return;
            if (!status.isOk())
                self->setError(status);
            report(status.isOk(), reply);
        });
}

// The latch this item follows, or a one-off one on the client's connection for one call.
EtcdCountDownLatch *EtcdQmlCountDownLatch::latchForCall()
{
    if (auto *latch = currentAs<EtcdCountDownLatch>())
        return latch;
    EtcdClient *etcd = client() ? client()->etcdClient() : nullptr;
    if (!etcd || m_path.isEmpty())
        return nullptr;
    auto *latch = new EtcdCountDownLatch(etcd, m_path.toUtf8());
    client()->adopt(latch);
    return latch;
}

bool EtcdQmlCountDownLatch::isConfigured() const
{
    return !m_path.isEmpty();
}

QObject *EtcdQmlCountDownLatch::startRecipe(EtcdClient *client)
{
    auto *latch = new EtcdCountDownLatch(client, m_path.toUtf8());
    followRecipe(latch);
    connect(latch, &EtcdCountDownLatch::countChanged, this,
        [this](qint64 count) { setCount(double(count)); });
    connect(latch, &EtcdCountDownLatch::opened, this, [this] {
        setOpen(true);
        Q_EMIT opened();
    });
    latch->start();
    return latch;
}

void EtcdQmlCountDownLatch::recipeStopped()
{
    setCount(-1);
    setOpen(false);
}

void EtcdQmlCountDownLatch::setCount(double count)
{
    if (count == m_count)
        return;
    m_count = count;
    Q_EMIT countChanged();
}

void EtcdQmlCountDownLatch::setOpen(bool open)
{
    if (open == m_open)
        return;
    m_open = open;
    Q_EMIT openChanged();
}
