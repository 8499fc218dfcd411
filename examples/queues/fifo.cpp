// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
// The two at-most-once queues. A consumer asks an empty EtcdQueue for an item and waits; a
// producer (another client, as another process would be) enqueues three, and the consumer
// takes them in the order they were put. Then four tasks go into an EtcdPriorityQueue with
// priorities 9, 0, 5 and 0, and come out lowest number first, the two 0s in the order they
// were put. A take deletes the item, so nothing is left in either queue.
// Usage: etcdqt-example-fifo [http://127.0.0.1:2379]
#include "exampleutil.h"

#include <EtcdQt/EtcdQt>

#include <QtCore/qcoreapplication.h>

#include <array>
#include <functional>
#include <memory>

using namespace Qt::StringLiterals;

namespace {
// Puts with `put`, one after the other (each once the one before committed): puts sent at
// once may reach etcd in any order.
void putInTurn(QObject *context, const QList<std::function<EtcdReply *()>> &puts,
    const std::function<void()> &done)
{
    if (puts.isEmpty())
        return done();
    EtcdReply *reply = puts.first()();
    QObject::connect(reply, &EtcdReply::finished, context,
        [context, rest = puts.mid(1), done](const EtcdStatus &s) {
            if (!s.isOk()) {
                out() << "enqueue failed: " << s.toString() << Qt::endl;
                return QCoreApplication::exit(1);
            }
            putInTurn(context, rest, done);
        });
}

using Taken = std::function<void(const QByteArrayList &values, const QByteArrayList &keys)>;

// Takes `count` items one after the other, each waiting for one if the queue is empty.
void take(EtcdAbstractQueue *queue, int count, const Taken &done,
    const std::shared_ptr<QByteArrayList> &values = std::make_shared<QByteArrayList>(),
    const std::shared_ptr<QByteArrayList> &keys = std::make_shared<QByteArrayList>())
{
    if (values->size() == count)
        return done(*values, *keys);
    EtcdQueueItemReply *reply = queue->dequeue();
    QObject::connect(reply, &EtcdReply::finished, queue,
        [queue, count, done, values, keys, reply](const EtcdStatus &s) {
            if (!s.isOk()) {
                out() << "take failed: " << s.toString() << Qt::endl;
                return QCoreApplication::exit(1);
            }
            values->append(reply->value());
            keys->append(reply->key());
            take(queue, count, done, values, keys);
        });
}
} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QUrl endpoint = endpointArgument(argc, argv);
    EtcdClient consumerClient({endpoint});
    EtcdClient producerClient({endpoint});
    consumerClient.connectToEndpoints();
    producerClient.connectToEndpoints();
    const QByteArray fifoPath = "/example/queues/fifo"_ba;
    const QByteArray priorityPath = "/example/queues/priority"_ba;
    EtcdQueue consumer(&consumerClient, fifoPath);
    EtcdQueue producer(&producerClient, fifoPath);
    EtcdPriorityQueue tasks(&producerClient, priorityPath);
    EtcdPriorityQueue taker(&consumerClient, priorityPath);
    const QByteArrayList sent = {"first"_ba, "second"_ba, "third"_ba};
    int exitCode = 0;

    const std::array<EtcdAbstractQueue *, 4> all = {&consumer, &producer, &tasks, &taker};
    const auto closeAll = [&all] {
        for (EtcdAbstractQueue *queue : all)
            queue->close();
    };
    quitWhenAllClosed(all, exitCode);

    // Lowest priority number first; at one priority, in the order they were put.
    const auto priorities = [&] {
        const QList<std::pair<QByteArray, int>> queued = {{"tidy the logs"_ba, 9},
            {"page the on-call"_ba, 0}, {"rebuild the index"_ba, 5}, {"answer the customer"_ba, 0}};
        QList<std::function<EtcdReply *()>> puts;
        for (const auto &[task, priority] : queued) {
            puts.append([&tasks, task, priority] {
                out() << "enqueue \"" << task << "\" at priority " << priority << Qt::endl;
                return tasks.enqueue(task, priority);
            });
        }
        // All four are in before the first take: a waiting taker takes what comes first.
        putInTurn(&tasks, puts, [&] {
            take(&taker, 4, [&](const QByteArrayList &values, const QByteArrayList &keys) {
                for (qsizetype i = 0; i < values.size(); ++i) {
                    // The key is <path>/<priority %05d>/<sequence %016d>.
                    const int priority = keys.at(i).split('/').value(4).toInt();
                    out() << "took \"" << values.at(i) << "\" (priority " << priority << ')'
                          << Qt::endl;
                }
                const QByteArrayList expected = {"page the on-call"_ba, "answer the customer"_ba,
                    "rebuild the index"_ba, "tidy the logs"_ba};
                out() << "priority order kept: " << (values == expected ? "yes" : "no") << Qt::endl;
                if (values != expected)
                    exitCode = 1;
                closeAll();
            });
        });
    };

    out() << "the consumer waits on the empty queue " << fifoPath << Qt::endl;
    take(&consumer, 3, [&](const QByteArrayList &values, const QByteArrayList &) {
        for (const QByteArray &value : values)
            out() << "took \"" << value << '"' << Qt::endl;
        out() << "FIFO order kept: " << (values == sent ? "yes" : "no") << Qt::endl;
        if (values != sent)
            exitCode = 1;
        priorities();
    });
    QList<std::function<EtcdReply *()>> puts;
    for (const QByteArray &value : sent) {
        puts.append([&producer, value] {
            out() << "the producer enqueues \"" << value << '"' << Qt::endl;
            return producer.enqueue(value);
        });
    }
    putInTurn(&producer, puts, [] {});
    return QCoreApplication::exec();
}
