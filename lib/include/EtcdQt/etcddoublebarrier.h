// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <EtcdQt/etcdcountedbarrier.h> // EtcdCountedBarrierOptions

#include <chrono>
#include <memory>

class EtcdDoubleBarrierPrivate;

// Phase synchronisation: all memberCount members enter together and leave together.
// etcd-recipes' DistributedDoubleBarrier: two counted barriers, "<path>/enter" and
// "<path>/leave".
class ETCDQT_EXPORT EtcdDoubleBarrier : public EtcdRecipe
{
    Q_OBJECT
    Q_PROPERTY(QByteArray path READ path CONSTANT)
    Q_PROPERTY(int memberCount READ memberCount CONSTANT)
    Q_PROPERTY(int enterWaiterCount READ enterWaiterCount NOTIFY enterWaiterCountChanged)
    Q_PROPERTY(int leaveWaiterCount READ leaveWaiterCount NOTIFY leaveWaiterCountChanged)
public:
    EtcdDoubleBarrier(EtcdClient *client, const QByteArray &path, int memberCount,
        const EtcdCountedBarrierOptions &options = {}, QObject *parent = nullptr);
    ~EtcdDoubleBarrier() override;

    [[nodiscard]] QByteArray path() const;
    [[nodiscard]] int memberCount() const;
    [[nodiscard]] int enterWaiterCount() const;
    [[nodiscard]] int leaveWaiterCount() const;

    // Worker threads (refused in this object's thread).
    bool enter();
    bool enter(std::chrono::milliseconds timeout);
    bool leave();
    bool leave(std::chrono::milliseconds timeout);

public Q_SLOTS:
    // Non-blocking: entered() / left() follow.
    void startEnter();
    void startLeave();
    void close();

Q_SIGNALS:
    void enterWaiterCountChanged(int count);
    void leaveWaiterCountChanged(int count);
    void entered();
    void left();
    void failed(const EtcdStatus &reason);

private:
    Q_DECLARE_PRIVATE(EtcdDoubleBarrier)
    std::unique_ptr<EtcdDoubleBarrierPrivate> const d_ptr;
};
