// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
// A worker pool on an at-least-once work queue, with dead letters. A producer enqueues 12
// jobs; 3 workers, each with its own client and its own EtcdWorkQueue (as 3 processes would
// have), receive them one at a time:
//  - a good job is done, and its result is written by ackWith(): the result and the
//    acknowledgement commit in one transaction guarded by the claim, so the result is
//    written once even if the job were delivered twice;
//  - a flaky job fails on its first delivery, and the worker hands it back with requeue()
//    (the delivery count is kept); its second delivery does it;
//  - a poison job crashes the worker that takes it. The worker's consumer lease goes (here
//    close() revokes it; a worker that really died would leave it to run out after the
//    visibility timeout, 3 s), the claim is orphaned, another consumer's sweep puts the job
//    back, and the crashed worker comes back as a new consumer. After 3 deliveries the sweep
//    moves the job to the dead-letter queue instead, where it stops hurting workers.
// requeue() never dead-letters by itself: a job that fails without crashing goes back, so a
// worker that gives a job up for good acknowledges it (ackWith() can record why).
// The summary lists the jobs done and the dead letters; the exit status is 0 when every good
// and flaky job was done exactly once and every poison job is a dead letter. The results and
// the dead letters stay in etcd to look at (`etcdqt work dlq /example/queues/jobs`); the next
// run clears them first.
// Usage: etcdqt-example-workerpool [http://127.0.0.1:2379]
#include "exampleutil.h"

#include <EtcdQt/EtcdQt>

#include <QtCore/qcoreapplication.h>
#include <QtCore/qhash.h>
#include <QtCore/qtimer.h>

#include <memory>
#include <vector>

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

namespace {
const QByteArray kPrefix = "/example/queues/"_ba; // what a run clears first
const QByteArray kQueuePath = "/example/queues/jobs"_ba;
const QByteArray kResults = "/example/queues/results/"_ba;
constexpr int kJobs = 12;
constexpr int kWorkers = 3;
constexpr int kMaxDeliveries = 3;

enum class Kind { Good, Flaky, Poison };

Kind kindOf(int job)
{
    if (job % 5 == 0)
        return Kind::Poison; // jobs 5 and 10
    return job % 4 == 3 ? Kind::Flaky : Kind::Good; // jobs 3, 7 and 11
}

// A job travels as "<name> <kind>", e.g. "job-05 poison".
QByteArray jobValue(int job)
{
    static const char *const kinds[] = {"good", "flaky", "poison"};
    return u"job-%1 "_s.arg(job, 2, 10, QLatin1Char('0')).toUtf8() + kinds[int(kindOf(job))];
}

QString nameOf(const QByteArray &value)
{
    return QString::fromUtf8(value.left(value.indexOf(' ')));
}

// What the pool has seen, and when it is over.
struct Tally
{
    int toDo = 0; // good and flaky jobs
    int poison = 0;
    QHash<QString, int> done; // job -> times its result and ack committed
    int finalCrashes = 0; // poison deliveries that were the last allowed, their lease gone
    int liveConsumers = 0;
    bool finishing = false;
    int exitCode = 0;
    std::function<void()> progressed; // checks whether every job reached its end
    std::function<void()> allClosed;
};

//! [options]
EtcdWorkQueue::Options consumerOptions(const QString &name)
{
    return {.visibilityTimeout = 3s,
        .maxDeliveries = kMaxDeliveries,
        .sweepInterval = 500ms, // how soon another consumer's sweep finds an orphan
        .clientId = name};
}
//! [options]

// One worker: its own client, and a consumer on it that is replaced when the worker crashes.
// The consumers are members, not children: they go before the client they use.
class Worker : public QObject
{
public:
    Worker(const QString &name, const QUrl &endpoint, Tally &tally)
        : m_name(name), m_client(std::make_unique<EtcdClient>(QList<QUrl> {endpoint})),
          m_tally(tally)
    {
        m_client->connectToEndpoints();
    }

    void start()
    {
        m_consumer
            = std::make_unique<EtcdWorkQueue>(m_client.get(), kQueuePath, consumerOptions(m_name));
        ++m_tally.liveConsumers;
        QObject::connect(m_consumer.get(), &EtcdRecipe::closed, this, [this] {
            if (--m_tally.liveConsumers == 0 && m_tally.finishing)
                m_tally.allClosed();
        });
        QObject::connect(m_consumer.get(), &EtcdWorkQueue::claimsLost, this, [this] {
            say(u"%1: its consumer lease ended, its claims are lost"_s.arg(m_name));
            m_tally.exitCode = 1;
        });
        receiveNext();
    }

    void stop()
    {
        if (m_consumer) // none while a crashed consumer's revoke is on its way
            m_consumer->close();
    }

private:
    void receiveNext()
    {
        EtcdWorkQueue *consumer = m_consumer.get();
        EtcdWorkItemReply *reply = consumer->receive();
        QObject::connect(reply, &EtcdReply::finished, consumer, [this, reply](const EtcdStatus &s) {
            if (s.code() == Etcd::ErrorCode::Cancelled)
                return; // the pool is closing
            if (!s.isOk()) {
                say(u"%1: receive failed: %2"_s.arg(m_name, s.toString()));
                m_tally.exitCode = 1;
                return;
            }
            work(reply->item());
        });
    }

    // A job takes 100 ms, on the event loop, so that the workers' lines interleave.
    void work(const EtcdWorkItem &item)
    {
        const QString job = nameOf(item.value);
        const bool poison = item.value.endsWith("poison");
        say(u"%1 took %2 (delivery %3)%4"_s.arg(m_name, job)
                .arg(item.attempt)
                .arg(poison ? u": poison, the worker crashes"_s : QString()));
        if (poison)
            return crash(item);
        QTimer::singleShot(100ms, m_consumer.get(), [this, item, job] {
            if (item.value.endsWith("flaky") && item.attempt == 1)
                return fail(item, job);
            succeed(item, job);
        });
    }

    // The effect and the ack in one transaction, committed only while this claim holds.
    void succeed(const EtcdWorkItem &item, const QString &job)
    {
        //! [ackWith]
        EtcdTxn effect;
        effect.success = {EtcdTxnOp::put(kResults + job.toUtf8(),
            u"by %1 on delivery %2"_s.arg(m_name).arg(item.attempt).toUtf8())};
        EtcdBoolReply *ack = m_consumer->ackWith(item, effect);
        //! [ackWith]
        QObject::connect(
            ack, &EtcdReply::finished, m_consumer.get(), [this, ack, job](const EtcdStatus &s) {
                if (s.isOk() && ack->result()) {
                    say(u"%1 did %2: result and ack committed together"_s.arg(m_name, job));
                    ++m_tally.done[job];
                } else {
                    say(u"%1 did %2, but its claim was lost: nothing written (%3)"_s.arg(
                        m_name, job, s.toString()));
                    m_tally.exitCode = 1;
                }
                m_tally.progressed();
                receiveNext();
            });
    }

    void fail(const EtcdWorkItem &item, const QString &job)
    {
        EtcdBoolReply *back = m_consumer->requeue(item);
        QObject::connect(
            back, &EtcdReply::finished, m_consumer.get(), [this, back, job](const EtcdStatus &s) {
                const bool requeued = s.isOk() && back->result();
                say(u"%1 failed %2: %3"_s.arg(
                    m_name, job, requeued ? u"requeued, its delivery count kept"_s : s.toString()));
                if (!requeued)
                    m_tally.exitCode = 1;
                receiveNext();
            });
    }

    // No ack, no requeue: the consumer goes, and its lease with it. Once etcd answered the
    // revoke, the claim is an orphan; the worker restarts as a new consumer.
    void crash(const EtcdWorkItem &item)
    {
        const bool last = item.attempt >= kMaxDeliveries;
        EtcdWorkQueue *dead = m_crashed.emplace_back(std::move(m_consumer)).get();
        QObject::connect(dead, &EtcdRecipe::closed, this, [this, last] {
            if (last)
                ++m_tally.finalCrashes;
            if (m_tally.finishing)
                return;
            say(u"%1 restarts as a new consumer"_s.arg(m_name));
            start();
            m_tally.progressed();
        });
        dead->close();
    }

    QString m_name;
    std::unique_ptr<EtcdClient> m_client;
    Tally &m_tally;
    std::unique_ptr<EtcdWorkQueue> m_consumer;
    std::vector<std::unique_ptr<EtcdWorkQueue>> m_crashed; // closed, kept until the client goes
};

// The summary: the results written (each once?) and the dead letters (every poison job?).
void summarize(EtcdClient *client, EtcdWorkQueue *queue, Tally *tally, std::function<void()> done)
{
    EtcdRangeOptions all;
    all.prefix = true;
    EtcdRangeReply *results = client->get(kResults, all);
    QObject::connect(results, &EtcdReply::finished, queue, [queue, tally, results, done] {
        bool onceEach = results->keyValues().size() == tally->toDo;
        out() << "summary:" << Qt::endl;
        for (const EtcdKeyValue &kv : results->keyValues()) {
            const QString job = QString::fromUtf8(kv.key.mid(kResults.size()));
            // Version 1: the key was written once, by the one ack that committed.
            onceEach = onceEach && kv.version == 1 && tally->done.value(job) == 1;
            out() << "  done: " << job << ' ' << kv.value << " (written " << kv.version
                  << (kv.version == 1 ? " time)" : " times)") << Qt::endl;
        }
        EtcdDeadLettersReply *dlq = queue->deadLetters();
        QObject::connect(dlq, &EtcdReply::finished, queue, [tally, dlq, onceEach, done] {
            const QList<EtcdDeadLetter> letters = dlq->deadLetters();
            bool allPoison = letters.size() == tally->poison;
            for (const EtcdDeadLetter &letter : letters) {
                allPoison = allPoison && letter.value.endsWith("poison")
                    && letter.attempts == kMaxDeliveries;
                out() << "  dead letter: " << nameOf(letter.value) << " after " << letter.attempts
                      << " deliveries (id " << letter.id << ')' << Qt::endl;
            }
            out() << tally->done.size() << " of " << tally->toDo << " jobs done, " << letters.size()
                  << " of " << tally->poison << " poison jobs dead-lettered" << Qt::endl;
            const bool ok = onceEach && allPoison && tally->exitCode == 0;
            out() << "every good job done exactly once, every poison job in the DLQ: "
                  << (ok ? "yes" : "no") << Qt::endl;
            if (!ok)
                tally->exitCode = 1;
            done();
        });
    });
}
} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QUrl endpoint = endpointArgument(argc, argv);
    EtcdClient producerClient({endpoint});
    producerClient.connectToEndpoints();
    // The producer's queue only enqueues, sweeps and reads the dead letters: it never
    // receives, so it holds no lease. Its sweep() sends an orphan delivered maxDeliveries
    // times to the DLQ: every queue on one path should agree on that number.
    EtcdWorkQueue producer(&producerClient, kQueuePath, consumerOptions(u"producer"_s));
    Tally tally;
    std::vector<std::unique_ptr<Worker>> workers;
    for (int i = 1; i <= kWorkers; ++i)
        workers.push_back(std::make_unique<Worker>(u"worker-%1"_s.arg(i), endpoint, tally));

    QList<QByteArray> jobs;
    for (int job = 1; job <= kJobs; ++job) {
        jobs.append(jobValue(job));
        ++(kindOf(job) == Kind::Poison ? tally.poison : tally.toDo);
    }
    tally.allClosed = [&tally] {
        say(u"closed"_s);
        QCoreApplication::exit(tally.exitCode);
    };
    // Over when every good job is done and every poison job had its last delivery: one more
    // sweep then moves the last orphans to the DLQ, before the summary reads it.
    tally.progressed = [&] {
        if (tally.finishing || tally.done.size() < tally.toDo || tally.finalCrashes < tally.poison)
            return;
        tally.finishing = true;
        EtcdValueReply *swept = producer.sweep();
        QObject::connect(swept, &EtcdReply::finished, &producer, [&] {
            summarize(&producerClient, &producer, &tally, [&workers] {
                for (const auto &worker : workers)
                    worker->stop();
            });
        });
    };

    // A pool that got stuck (etcd went away, a claim was lost) gives up rather than hang.
    QTimer::singleShot(15s, &producer, [&] {
        if (tally.finishing)
            return;
        out() << "gave up after 15 s: " << tally.done.size() << " of " << tally.toDo << " jobs done"
              << Qt::endl;
        tally.finishing = true;
        tally.exitCode = 1;
        for (const auto &worker : workers)
            worker->stop();
    });

    // A fresh start: no results, dead letters or jobs left by an earlier run.
    EtcdDeleteReply *cleared = producerClient.remove(kPrefix, {.prefix = true});
    QObject::connect(cleared, &EtcdReply::finished, &producer, [&](const EtcdStatus &s) {
        if (!s.isOk()) {
            out() << "etcd unreachable: " << s.toString() << Qt::endl;
            return QCoreApplication::exit(1);
        }
        out() << kJobs << " jobs on " << kQueuePath << ": " << tally.toDo
              << " good or flaky (a flaky one fails its first delivery), " << tally.poison
              << " poison (they crash their worker)" << Qt::endl;
        out() << kWorkers << " workers, each with its own client: visibility timeout 3 s, "
              << kMaxDeliveries << " deliveries at most" << Qt::endl;
        EtcdReply *put = producer.enqueueAll(jobs); // one transaction, in this order
        QObject::connect(put, &EtcdReply::finished, &producer, [&](const EtcdStatus &status) {
            if (!status.isOk()) {
                out() << "enqueue failed: " << status.toString() << Qt::endl;
                return QCoreApplication::exit(1);
            }
            for (const auto &worker : workers)
                worker->start();
        });
    });
    return QCoreApplication::exec();
}
