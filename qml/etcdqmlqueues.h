// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "etcdqmlcache.h"
#include "etcdqmlrecipe.h"
#include "etcdqmlvalues.h"

#include <EtcdQt/etcdqueuemodel.h>
#include <EtcdQt/etcdworkitem.h>

#include <QtCore/qhash.h>
#include <QtCore/qpointer.h>
#include <QtCore/qset.h>
#include <QtCore/qtimer.h>
#include <QtCore/qvariant.h>

#include <functional>

class EtcdAbstractQueue;
class EtcdQueueItemReply;
class EtcdReply;
class EtcdValueReply;
class EtcdWorkItemReply;
class EtcdWorkQueue;

// What the queue types share: the path, a declarative consumer (`consuming`), enqueue and
// size answers, and the answers of a run that is over being dropped.
class EtcdQmlQueueBase : public EtcdQmlRecipe
{
    Q_OBJECT
    QML_ANONYMOUS
    Q_PROPERTY(QString path READ path WRITE setPath NOTIFY pathChanged)
    Q_PROPERTY(bool consuming READ isConsuming WRITE setConsuming NOTIFY consumingChanged)
public:
    ~EtcdQmlQueueBase() override;

    [[nodiscard]] QString path() const { return m_path; }
    void setPath(const QString &path);
    [[nodiscard]] bool isConsuming() const { return m_consuming; }
    void setConsuming(bool consuming);

    Q_INVOKABLE bool size();

Q_SIGNALS:
    void pathChanged();
    void consumingChanged();
    void enqueueFinished(const QString &value, bool ok);
    void sizeFinished(int size);

protected:
    explicit EtcdQmlQueueBase(QObject *parent);

    [[nodiscard]] QString invalidSetting() const override;
    // The running library object's size(); nullptr while not running.
    virtual EtcdValueReply *requestSize() = 0;
    // `consuming` changed, or the library object started or stopped: take or stop taking.
    virtual void consumeIfWanted() = 0;
    // `report(ok, reply)` once `reply` finished, unless the library object that sent it was
    // let go of meanwhile; a failure is reported through errorOccurred() first.
    template <typename Reply>
    void whenAnswered(Reply *reply, std::function<void(bool ok, Reply *reply)> report)
    {
        connectAnswer(reply, [reply, report](bool ok) { report(ok, reply); });
    }
    void answerEnqueue(const QString &value, EtcdReply *reply);

private:
    void connectAnswer(EtcdReply *reply, std::function<void(bool ok)> report);

    QString m_path;
    bool m_consuming = false;
};

// Queue and PriorityQueue: the take side (EtcdAbstractQueue).
class EtcdQmlAbstractQueue : public EtcdQmlQueueBase
{
    Q_OBJECT
    QML_ANONYMOUS
public:
    ~EtcdQmlAbstractQueue() override;

    Q_INVOKABLE bool tryDequeue();

Q_SIGNALS:
    void received(const QString &value, const QByteArray &bytes);
    void tryDequeueFinished(bool found, const QString &value);

protected:
    explicit EtcdQmlAbstractQueue(QObject *parent);

    virtual EtcdAbstractQueue *makeQueue(EtcdClient *client) = 0;
    QObject *startRecipe(EtcdClient *client) override;
    void recipeStopped() override;
    EtcdValueReply *requestSize() override;
    void consumeIfWanted() override;

private:
    void taken(EtcdQueueItemReply *reply, const EtcdStatus &status);

    QPointer<EtcdQueueItemReply> m_take; // the consumer's dequeue, while one is out
    QTimer m_retry; // after a failed dequeue
};

class EtcdQmlQueue : public EtcdQmlAbstractQueue
{
    Q_OBJECT
    QML_NAMED_ELEMENT(Queue)
public:
    explicit EtcdQmlQueue(QObject *parent = nullptr);
    ~EtcdQmlQueue() override;

    Q_INVOKABLE bool enqueue(const QString &value);

protected:
    EtcdAbstractQueue *makeQueue(EtcdClient *client) override;
};

class EtcdQmlPriorityQueue : public EtcdQmlAbstractQueue
{
    Q_OBJECT
    QML_NAMED_ELEMENT(PriorityQueue)
public:
    explicit EtcdQmlPriorityQueue(QObject *parent = nullptr);
    ~EtcdQmlPriorityQueue() override;

    Q_INVOKABLE bool enqueue(const QString &value, double priority);

protected:
    EtcdAbstractQueue *makeQueue(EtcdClient *client) override;
};

// One delivery of a work item (EtcdWorkItem): id, value, delivery number and claim, plus
// ack() and requeue() on the WorkQueue that received it.
class EtcdQmlWorkItem
{
    Q_GADGET
    QML_VALUE_TYPE(workItem)
    Q_PROPERTY(QString id READ id CONSTANT)
    Q_PROPERTY(QString value READ value CONSTANT)
    Q_PROPERTY(QByteArray bytes READ bytes CONSTANT)
    Q_PROPERTY(int attempt READ attempt CONSTANT)
    Q_PROPERTY(EtcdQmlFencingToken claim READ claim CONSTANT)
    Q_PROPERTY(bool valid READ isValid CONSTANT)
public:
    EtcdQmlWorkItem() = default;
    EtcdQmlWorkItem(const EtcdWorkItem &item, QObject *queue);

    [[nodiscard]] QString id() const { return QString::fromUtf8(m_item.id); }
    [[nodiscard]] QString value() const { return QString::fromUtf8(m_item.value); }
    [[nodiscard]] QByteArray bytes() const { return m_item.value; }
    [[nodiscard]] int attempt() const { return m_item.attempt; }
    [[nodiscard]] EtcdQmlFencingToken claim() const { return EtcdQmlFencingToken(m_item.claim); }
    [[nodiscard]] bool isValid() const { return m_item.isValid(); }
    [[nodiscard]] const EtcdWorkItem &item() const { return m_item; }

    Q_INVOKABLE bool ack() const;
    Q_INVOKABLE bool requeue() const;

private:
    EtcdWorkItem m_item;
    QPointer<QObject> m_queue; // the WorkQueue item that received it
};

// EtcdWorkQueue: a producer, and while `consuming` a consumer with at most `maxInFlight`
// deliveries not settled yet.
class EtcdQmlWorkQueue : public EtcdQmlQueueBase
{
    Q_OBJECT
    QML_NAMED_ELEMENT(WorkQueue)
    Q_PROPERTY(QString clientId READ clientId WRITE setClientId NOTIFY clientIdChanged)
    Q_PROPERTY(int visibilityTimeout READ visibilityTimeout WRITE setVisibilityTimeout NOTIFY
            visibilityTimeoutChanged)
    Q_PROPERTY(
        int maxDeliveries READ maxDeliveries WRITE setMaxDeliveries NOTIFY maxDeliveriesChanged)
    Q_PROPERTY(
        int sweepInterval READ sweepInterval WRITE setSweepInterval NOTIFY sweepIntervalChanged)
    Q_PROPERTY(int maxInFlight READ maxInFlight WRITE setMaxInFlight NOTIFY maxInFlightChanged)
    Q_PROPERTY(int inFlight READ inFlight NOTIFY inFlightChanged)
public:
    explicit EtcdQmlWorkQueue(QObject *parent = nullptr);
    ~EtcdQmlWorkQueue() override;

    [[nodiscard]] QString clientId() const { return m_clientId; }
    void setClientId(const QString &clientId);
    [[nodiscard]] int visibilityTimeout() const { return m_visibilityTimeout; }
    void setVisibilityTimeout(int ms);
    [[nodiscard]] int maxDeliveries() const { return m_maxDeliveries; }
    void setMaxDeliveries(int count);
    [[nodiscard]] int sweepInterval() const { return m_sweepInterval; }
    void setSweepInterval(int ms);
    [[nodiscard]] int maxInFlight() const { return m_maxInFlight; }
    void setMaxInFlight(int count);
    [[nodiscard]] int inFlight() const { return int(m_inFlight.size()); }

    Q_INVOKABLE bool enqueue(const QString &value, double delay = 0);
    Q_INVOKABLE bool ack(const EtcdQmlWorkItem &item);
    Q_INVOKABLE bool requeue(const EtcdQmlWorkItem &item);
    Q_INVOKABLE bool deadLetters();
    Q_INVOKABLE bool requeueDeadLetter(const QString &id);
    Q_INVOKABLE bool purgeDeadLetter(const QString &id);
    Q_INVOKABLE bool sweep();

Q_SIGNALS:
    void clientIdChanged();
    void visibilityTimeoutChanged();
    void maxDeliveriesChanged();
    void sweepIntervalChanged();
    void maxInFlightChanged();
    void inFlightChanged();
    void received(const EtcdQmlWorkItem &item);
    void ackFinished(const EtcdQmlWorkItem &item, bool acknowledged);
    void requeueFinished(const EtcdQmlWorkItem &item, bool requeued);
    void deadLettersFinished(const QVariantList &deadLetters);
    void requeueDeadLetterFinished(const QString &id, bool requeued);
    void purgeDeadLetterFinished(const QString &id, bool purged);
    void sweepFinished(int moved);
    void claimsLost();

protected:
    [[nodiscard]] QString invalidSetting() const override;
    QObject *startRecipe(EtcdClient *client) override;
    void recipeStopped() override;
    EtcdValueReply *requestSize() override;
    void consumeIfWanted() override;

private:
    enum class Settle { Ack, Requeue };
    bool settle(const EtcdQmlWorkItem &item, Settle how);
    void delivered(EtcdWorkItemReply *reply, const EtcdStatus &status);
    void forgetInFlight();

    QString m_clientId;
    int m_visibilityTimeout = 30000;
    int m_maxDeliveries = 5;
    int m_sweepInterval = 30000;
    int m_maxInFlight = 1;
    QHash<QByteArray, EtcdWorkItem> m_inFlight; // delivered to QML, not settled yet, by id
    QSet<QByteArray> m_settling; // ack() or requeue() sent, not answered yet
    QPointer<EtcdWorkItemReply> m_receive; // the consumer's receive, while one is out
    QTimer m_retry; // after a failed receive
};

// A queue's items in take order: EtcdQueueModel over an EtcdPathChildrenCache of its path.
class EtcdQmlQueueContents : public EtcdQmlCache
{
    Q_OBJECT
    QML_NAMED_ELEMENT(QueueContents)
    Q_PROPERTY(QString path READ path WRITE setPath NOTIFY pathChanged)
    Q_PROPERTY(Kind kind READ kind WRITE setKind NOTIFY kindChanged)
    Q_PROPERTY(States states READ states WRITE setStates NOTIFY statesChanged)
    Q_PROPERTY(int count READ count NOTIFY countChanged)
    Q_PROPERTY(QAbstractItemModel *model READ model CONSTANT)
public:
    // EtcdQueueModel::Kind and EtcdQueueModel::State
    enum Kind { Fifo, Priority, Work };
    Q_ENUM(Kind)
    enum State {
        Queued = 0x01,
        Delayed = 0x02,
        InFlight = 0x04,
        Orphaned = 0x08,
        DeadLetter = 0x10
    };
    Q_DECLARE_FLAGS(States, State)
    Q_FLAG(States)

    explicit EtcdQmlQueueContents(QObject *parent = nullptr);
    ~EtcdQmlQueueContents() override;

    [[nodiscard]] QString path() const { return m_path; }
    void setPath(const QString &path);
    [[nodiscard]] Kind kind() const;
    void setKind(Kind kind);
    [[nodiscard]] States states() const;
    void setStates(States states);
    [[nodiscard]] int count() const;
    [[nodiscard]] QAbstractItemModel *model() const;

    Q_INVOKABLE QVariant get(int row) const;

Q_SIGNALS:
    void pathChanged();
    void kindChanged();
    void statesChanged();
    void countChanged();

protected:
    [[nodiscard]] QString invalidSetting() const override;
    QObject *startRecipe(EtcdClient *client) override;
    void recipeStopped() override;

private:
    QString m_path;
    EtcdQueueModel *m_model;
};
