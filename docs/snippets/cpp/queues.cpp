// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "snippets.h"

#include <EtcdQt/EtcdQt>

#include <QtCore/qdebug.h>
#include <QtCore/qthreadpool.h>

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

namespace snippets {

namespace {
// Stands for real work that can fail: an empty image makes no thumbnail.
std::optional<QByteArray> makeThumbnail(const QByteArray &image)
{
    if (image.isEmpty())
        return std::nullopt;
    return "thumbnail of " + image;
}
} // namespace

EtcdQueue *sendMail(EtcdClient *client, QObject *owner)
{
    //! [queue]
    // At most once: a take deletes the item, so a taker that dies before it is done loses it.
    auto *mail = new EtcdQueue(client, "/queues/mail"_ba, owner);
    mail->enqueue("welcome ada"_ba);
    EtcdQueueItemReply *next = mail->dequeue(); // waits while the queue is empty
    QObject::connect(next, &EtcdReply::finished, owner, [next](const EtcdStatus &status) {
        if (status.isOk())
            qInfo() << "sending" << next->value();
    });
    //! [queue]
    return mail;
}

EtcdPriorityQueue *urgentFirst(EtcdClient *client, QObject *owner)
{
    //! [priorityQueue]
    // Lower numbers are taken first (0 to 65535); one priority's items in the order put.
    auto *tasks = new EtcdPriorityQueue(client, "/queues/tasks"_ba, owner);
    tasks->enqueue("rebuild the search index"_ba, 10);
    tasks->enqueue("page the on-call"_ba, 0);
    //! [priorityQueue]
    return tasks;
}

void sendMailOnWorker(EtcdQueue *mail)
{
    //! [take]
    // The blocking form, for worker threads (refused in the queue's own thread).
    QThreadPool::globalInstance()->start([mail] {
        EtcdStatus why;
        if (const std::optional<QByteArray> next = mail->take(5s, &why))
            qInfo() << "sending" << *next;
        else if (why.code() == Etcd::ErrorCode::DeadlineExceeded)
            qInfo() << "no mail for 5 s";
    });
    //! [take]
}

EtcdWorkQueue *makeThumbnails(EtcdClient *client, QObject *owner)
{
    //! [workQueue]
    EtcdWorkQueue::Options options;
    options.visibilityTimeout = 10s; // a dead consumer's claims come back after this long
    options.maxDeliveries = 3; // an orphan delivered this often becomes a dead letter
    auto *jobs = new EtcdWorkQueue(client, "/queues/thumbnails"_ba, options, owner);
    EtcdWorkItemReply *next = jobs->receive(); // waits while the queue is empty
    QObject::connect(next, &EtcdReply::finished, owner, [jobs, next](const EtcdStatus &status) {
        if (!status.isOk())
            return;
        const EtcdWorkItem item = next->item();
        const std::optional<QByteArray> thumbnail = makeThumbnail(item.value);
        if (!thumbnail) {
            jobs->requeue(item); // delivered again, item.attempt one higher
            return;
        }
        // The effect and the acknowledgement in one transaction, guarded by this delivery's
        // claim: if the claim was lost, neither happens, and the next delivery writes it.
        EtcdTxn effect;
        effect.success = {EtcdTxnOp::put("/thumbnails/" + item.value, *thumbnail)};
        EtcdBoolReply *done = jobs->ackWith(item, effect);
        QObject::connect(done, &EtcdReply::finished, jobs, [done, item] {
            if (!done->result())
                qWarning() << "delivery" << item.attempt << "of" << item.id << "wrote nothing";
        });
    });
    //! [workQueue]
    return jobs;
}

void remindLater(EtcdWorkQueue *jobs)
{
    //! [delayed]
    // Waits under delayed/ and is delivered from 2 s on (this host's clock decides when).
    jobs->enqueue("send the reminder"_ba, 2s);
    //! [delayed]
}

void reviewDeadLetters(EtcdWorkQueue *jobs)
{
    //! [deadLetters]
    EtcdDeadLettersReply *reply = jobs->deadLetters();
    QObject::connect(reply, &EtcdReply::finished, jobs, [jobs, reply](const EtcdStatus &status) {
        if (!status.isOk())
            return;
        for (const EtcdDeadLetter &letter : reply->deadLetters()) {
            qInfo() << "dead letter" << letter.id << "after" << letter.attempts << "deliveries";
            // Once its bug is fixed: back to the head of the queue, its count reset.
            jobs->requeueDeadLetter(letter.id);
        }
    });
    //! [deadLetters]
}

void drainOnWorker(EtcdWorkQueue *jobs)
{
    //! [workerThread]
    // The blocking forms, for worker threads: one item at a time until none came for 2 s.
    QThreadPool::globalInstance()->start([jobs] {
        EtcdStatus why;
        while (const std::optional<EtcdWorkItem> item = jobs->receiveAndWait(2s, &why)) {
            EtcdTxn effect;
            effect.success = {EtcdTxnOp::put("/thumbnails/" + item->value, "done"_ba)};
            if (!jobs->ackWithAndWait(*item, effect, 5s, &why))
                qWarning() << "not acknowledged:" << item->id << why.toString();
        }
        qInfo() << "worker stops:" << why.toString(); // DeadlineExceeded: the queue stayed empty
    });
    //! [workerThread]
}

} // namespace snippets
