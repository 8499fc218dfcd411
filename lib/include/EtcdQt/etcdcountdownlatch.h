// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <EtcdQt/etcdrecipe.h>
#include <EtcdQt/etcdrecipereplies.h>

#include <chrono>
#include <memory>
#include <optional>

class EtcdCountDownLatchPrivate;

// A gate that opens when a count, shared through etcd, reaches zero. Key "<path>" holding
// the remaining count as 8 bytes big-endian (the counter's format), no lease: the latch
// outlives its creator, and stays open once open.
class ETCDQT_EXPORT EtcdCountDownLatch : public EtcdRecipe
{
    Q_OBJECT
    Q_PROPERTY(QByteArray path READ path CONSTANT)
    Q_PROPERTY(qint64 count READ count NOTIFY countChanged)
    Q_PROPERTY(bool open READ isOpen NOTIFY opened)
public:
    EtcdCountDownLatch(EtcdClient *client, const QByteArray &path, QObject *parent = nullptr);
    ~EtcdCountDownLatch() override;

    [[nodiscard]] QByteArray path() const;
    // The count last seen in etcd once start() follows it; -1 before, or while no latch exists.
    [[nodiscard]] qint64 count() const;
    [[nodiscard]] bool isOpen() const;

    // This object's thread. create(): the count in etcd after it (the first creator's).
    // countDown(): the count after this call; never below zero.
    EtcdValueReply *create(qint64 count);
    EtcdValueReply *countDown();

    // Worker threads (refused in this object's thread): true once the count is zero, false
    // on timeout or close().
    bool await(std::chrono::milliseconds timeout);
    std::optional<qint64> countDownAndWait(
        std::chrono::milliseconds timeout, EtcdStatus *status = nullptr);

    static EtcdReply *remove(EtcdClient *client, const QByteArray &path);

public Q_SLOTS:
    void start();
    void close();

Q_SIGNALS:
    void countChanged(qint64 count);
    void opened();

private:
    Q_DECLARE_PRIVATE(EtcdCountDownLatch)
    std::unique_ptr<EtcdCountDownLatchPrivate> const d_ptr;
};
