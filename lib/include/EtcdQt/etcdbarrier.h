// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <EtcdQt/etcdrecipe.h>
#include <EtcdQt/etcdrecipereplies.h>
#include <EtcdQt/etcdretrypolicy.h>

#include <chrono>
#include <memory>

class EtcdBarrierPrivate;

struct EtcdBarrierOptions
{
    std::chrono::seconds ttl {2}; // of the lease that holds the barrier key
    bool waitOnMissingBarriers = true; // a wait on an unset barrier waits for set, then removal
    QString clientId; // empty: "DistributedBarrier:<7 random>"
    EtcdLeaseResilience resilience {};
};

// A gate one client sets and removes while others wait for it to go: etcd-recipes'
// DistributedBarrier, key "<path>" holding "<clientId>:<7>" on a self-healing lease. Not a
// lock: if the lease expires, waiters see the barrier lift (see the class documentation).
class ETCDQT_EXPORT EtcdBarrier : public EtcdRecipe
{
    Q_OBJECT
    Q_PROPERTY(QByteArray path READ path CONSTANT)
    Q_PROPERTY(QString clientId READ clientId CONSTANT)
    Q_PROPERTY(bool waitOnMissingBarriers READ waitOnMissingBarriers CONSTANT)
    Q_PROPERTY(State state READ state NOTIFY stateChanged)
    Q_PROPERTY(int waiterCount READ waiterCount NOTIFY waiterCountChanged)
    Q_PROPERTY(qint64 leaseId READ leaseId NOTIFY leaseIdChanged)
public:
    // This instance's hold of the barrier key.
    enum class State { Unset, Setting, Set, Lost, Failed, Removed };
    Q_ENUM(State)

    EtcdBarrier(EtcdClient *client, const QByteArray &path, const EtcdBarrierOptions &options = {},
        QObject *parent = nullptr);
    ~EtcdBarrier() override;

    [[nodiscard]] QByteArray path() const;
    [[nodiscard]] QString clientId() const;
    [[nodiscard]] std::chrono::seconds ttl() const;
    [[nodiscard]] bool waitOnMissingBarriers() const;
    [[nodiscard]] State state() const;
    // The waits of this object in place (barrier read, watch anchored) and not yet released.
    [[nodiscard]] int waiterCount() const;
    // The lease holding the barrier this object set; -1 when it holds none.
    [[nodiscard]] qint64 leaseId() const;
    [[nodiscard]] std::chrono::milliseconds remainingValidity() const; // any thread

    // This object's thread. setBarrier(): true if this call set it; false if it was set
    // already (by anyone) or this object set it before. removeBarrier(): a setter deletes only
    // the barrier it set (true once it is gone; someone else's is left alone: false,
    // FailedPrecondition); an object that never set it removes anyone's. isBarrierSet(): a
    // probe.
    EtcdBoolReply *setBarrier();
    EtcdBoolReply *removeBarrier();
    EtcdBoolReply *isBarrierSet();

    // Worker threads (refused in this object's thread): true when the barrier lifted, false
    // on timeout or close().
    bool waitOnBarrier();
    bool waitOnBarrier(std::chrono::milliseconds timeout);

public Q_SLOTS:
    // The non-blocking wait: lifted() follows when the barrier is removed.
    void startWaiting();
    void close();

Q_SIGNALS:
    void stateChanged(EtcdBarrier::State state);
    void waiterCountChanged(int count);
    void leaseIdChanged(qint64 leaseId);
    void lifted();
    void waitFailed(const EtcdStatus &reason);
    void leaseEvent(const EtcdLeaseEvent &event);
    void failed(const EtcdStatus &reason);
    // The barrier this object set was deleted or written over by someone else: state Lost.
    void barrierLost(const EtcdStatus &reason);

private:
    Q_DECLARE_PRIVATE(EtcdBarrier)
    std::unique_ptr<EtcdBarrierPrivate> const d_ptr;
};
