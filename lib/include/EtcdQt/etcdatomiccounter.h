// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <EtcdQt/etcdrecipe.h>
#include <EtcdQt/etcdrecipereplies.h>

#include <chrono>
#include <memory>
#include <optional>

class EtcdAtomicCounterPrivate;

// A 64-bit counter shared through etcd: etcd-recipes' DistributedAtomicLong, key "<path>"
// holding 8 bytes big-endian, no lease. Every change is a compare-and-set on the key's
// modification revision, so each returns a value no other change returned.
class ETCDQT_EXPORT EtcdAtomicCounter : public EtcdRecipe
{
    Q_OBJECT
    Q_PROPERTY(QByteArray path READ path CONSTANT)
    Q_PROPERTY(qint64 initialValue READ initialValue CONSTANT)
public:
    EtcdAtomicCounter(EtcdClient *client, const QByteArray &path, qint64 initialValue = 0,
        QObject *parent = nullptr);
    ~EtcdAtomicCounter() override;

    [[nodiscard]] QByteArray path() const;
    [[nodiscard]] qint64 initialValue() const;

    // This object's thread; each reply's value() is the value committed (get: read).
    EtcdValueReply *get();
    EtcdValueReply *add(qint64 delta);
    EtcdValueReply *subtract(qint64 delta);
    EtcdValueReply *increment();
    EtcdValueReply *decrement();

    // Worker threads (refused in this object's thread): the same, waited for at most
    // `timeout`; nullopt with `status` set when it failed or its outcome is unknown.
    std::optional<qint64> waitForValue(
        std::chrono::milliseconds timeout, EtcdStatus *status = nullptr);
    std::optional<qint64> addAndWait(
        qint64 delta, std::chrono::milliseconds timeout, EtcdStatus *status = nullptr);

    static EtcdReply *remove(EtcdClient *client, const QByteArray &path);

public Q_SLOTS:
    void close();

private:
    Q_DECLARE_PRIVATE(EtcdAtomicCounter)
    std::unique_ptr<EtcdAtomicCounterPrivate> const d_ptr;
};
