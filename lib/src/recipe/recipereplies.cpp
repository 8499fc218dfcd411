// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "etcdqt_internal_p.h"
#include "etcdreply_p.h"
#include "recipereplies_p.h"

#include <EtcdQt/etcdrecipe.h>

#include <QtCore/qthread.h>
#include <QtCore/qtimer.h>

using namespace Etcd::Internal;

namespace {
// `r` finished with `why` on the next event-loop turn, after its caller has connected.
template <typename Reply>
Reply *failedLater(Reply *r, const EtcdStatus &why)
{
    EtcdReplyPrivate::get(r)->finishLater(why);
    return r;
}
} // namespace

/*!
    \class EtcdValueReply
    \inmodule EtcdQt
    \brief The number a recipe operation yields: a counter's committed value, a latch's count.
*/

/*! \property EtcdValueReply::value
    The number, once finished() reported success. */
qint64 EtcdValueReply::value() const
{
    return EtcdReplyPrivate::get(this)->data.count;
}

/*!
    \property EtcdValueReply::written
    Whether this operation wrote the number, once finished() reported success: true when it
    created or changed it, false when it found it and left it as it was (a counter's get()
    of an existing counter, a latch's create() of one that existed, or its countDown() once
    open).
*/
bool EtcdValueReply::written() const
{
    return EtcdReplyPrivate::get(this)->data.succeeded;
}

/*!
    \class EtcdBoolReply
    \inmodule EtcdQt
    \brief The yes or no a recipe operation yields, such as whether a barrier was set.
*/

/*! \property EtcdBoolReply::result
    The answer, once finished() reported success. */
bool EtcdBoolReply::result() const
{
    return EtcdReplyPrivate::get(this)->data.succeeded;
}

void RecipeReplies::finish(
    EtcdValueReply *r, const EtcdStatus &status, qint64 value, qint64 revision)
{
    ReplyData data;
    data.count = value;
    data.revision = revision;
    EtcdReplyPrivate::get(r)->finish(status, std::move(data));
}

void RecipeReplies::finish(EtcdBoolReply *r, const EtcdStatus &status, bool result, qint64 revision)
{
    ReplyData data;
    data.succeeded = result;
    data.revision = revision;
    EtcdReplyPrivate::get(r)->finish(status, std::move(data));
}

void RecipeReplies::finishLater(EtcdValueReply *r, qint64 value)
{
    QTimer::singleShot(0, r, [r, value] { finish(r, {}, value); });
}

void RecipeReplies::finishLater(EtcdBoolReply *r, bool result)
{
    QTimer::singleShot(0, r, [r, result] { finish(r, {}, result); });
}

EtcdValueReply *RecipeReplies::failedValue(QObject *recipe, const EtcdStatus &why)
{
    return failedLater(valueReply(recipe), why);
}

EtcdBoolReply *RecipeReplies::failedBool(QObject *recipe, const EtcdStatus &why)
{
    return failedLater(boolReply(recipe), why);
}

bool Etcd::Internal::refuseOwnThread(const QObject *o, const char *what, EtcdStatus *status)
{
    if (QThread::currentThread() != o->thread())
        return false;
    qCWarning(lcEtcdRecipe,
        "%s called in the object's own thread: it would block the events it waits for; refused",
        what);
    if (status)
        *status = EtcdStatus(
            Etcd::ErrorCode::WrongThread, EtcdRecipe::tr("called in the object's own thread"));
    return true;
}

/*!
    \class EtcdQueueItemReply
    \inmodule EtcdQt
    \brief The answer of a queue's take: whether an item was taken, and which.
*/

/*! \property EtcdQueueItemReply::found
    Whether an item was taken (false: the queue was empty and the take did not wait). */
bool EtcdQueueItemReply::found() const
{
    return EtcdReplyPrivate::get(this)->data.hasPrevKeyValue;
}

/*! \property EtcdQueueItemReply::value
    The taken item's value. */
QByteArray EtcdQueueItemReply::value() const
{
    return EtcdReplyPrivate::get(this)->data.prevKeyValue.value;
}

/*! \property EtcdQueueItemReply::key
    The key the taken item had (deleted by the take). */
QByteArray EtcdQueueItemReply::key() const
{
    return EtcdReplyPrivate::get(this)->data.prevKeyValue.key;
}

void RecipeReplies::finish(
    EtcdQueueItemReply *r, const EtcdStatus &status, const EtcdKeyValue &item, qint64 revision)
{
    ReplyData data;
    data.prevKeyValue = item;
    data.hasPrevKeyValue = !item.key.isEmpty();
    data.revision = revision;
    EtcdReplyPrivate::get(r)->finish(status, std::move(data));
}

EtcdQueueItemReply *RecipeReplies::failedQueueItem(QObject *recipe, const EtcdStatus &why)
{
    return failedLater(queueItemReply(recipe), why);
}

/*!
    \class EtcdWorkItemReply
    \inmodule EtcdQt
    \brief The answer of a work queue's receive: the delivered item, if any.
*/

/*! \property EtcdWorkItemReply::found
    Whether an item was delivered (false: the queue was empty and the receive did not wait). */
bool EtcdWorkItemReply::found() const
{
    return item().isValid();
}

/*! \property EtcdWorkItemReply::item
    The delivered item, with its claim. */
EtcdWorkItem EtcdWorkItemReply::item() const
{
    return EtcdReplyPrivate::get(this)->data.payload.value<EtcdWorkItem>();
}

/*!
    \class EtcdDeadLettersReply
    \inmodule EtcdQt
    \brief The dead letters of a work queue.
*/

/*! The dead letters, in id order (the order they were first enqueued). */
QList<EtcdDeadLetter> EtcdDeadLettersReply::deadLetters() const
{
    return EtcdReplyPrivate::get(this)->data.payload.value<QList<EtcdDeadLetter>>();
}

void RecipeReplies::finish(EtcdWorkItemReply *r, const EtcdStatus &status, const EtcdWorkItem &item)
{
    ReplyData data;
    data.payload = QVariant::fromValue(item);
    data.revision = item.claim.revision;
    EtcdReplyPrivate::get(r)->finish(status, std::move(data));
}

void RecipeReplies::finish(
    EtcdDeadLettersReply *r, const EtcdStatus &status, const QList<EtcdDeadLetter> &letters)
{
    ReplyData data;
    data.payload = QVariant::fromValue(letters);
    EtcdReplyPrivate::get(r)->finish(status, std::move(data));
}

EtcdWorkItemReply *RecipeReplies::failedWorkItem(QObject *recipe, const EtcdStatus &why)
{
    return failedLater(workItemReply(recipe), why);
}

EtcdDeadLettersReply *RecipeReplies::failedDeadLetters(QObject *recipe, const EtcdStatus &why)
{
    return failedLater(deadLettersReply(recipe), why);
}
