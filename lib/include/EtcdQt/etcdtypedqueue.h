// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <EtcdQt/etcdcodec.h>
#include <EtcdQt/etcdpriorityqueue.h>
#include <EtcdQt/etcdqueue.h>
#include <EtcdQt/etcdworkqueue.h>

#include <QtCore/qlist.h>

#include <chrono>
#include <memory>
#include <optional>

// Queues whose values are T, written with Codec (see etcdcodec.h), byte-identical to
// etcd-recipes' typed queues for the same encoding. Each owns its untyped queue, which carries
// the signals and the replies (decode a reply's value() with Codec::decode()). A value that
// does not decode reads as nullopt with InvalidArgument in `status`: it was taken all the same.

namespace Etcd::Internal {
template <class Codec>
std::optional<typename Codec::Value> decodeTaken(
    const std::optional<QByteArray> &bytes, EtcdStatus *status)
{
    if (!bytes)
        return std::nullopt;
    std::optional<typename Codec::Value> value = Codec::decode(*bytes);
    if (!value && status)
        *status = EtcdStatus(Etcd::ErrorCode::InvalidArgument,
            QStringLiteral("a taken value does not decode (%1 bytes)").arg(bytes->size()));
    return value;
}
} // namespace Etcd::Internal

// The take side both typed queues share.
template <class Codec, class Untyped>
class EtcdTypedQueueBase
{
public:
    using Value = typename Codec::Value;

    [[nodiscard]] Untyped *untyped() const { return m_untyped.get(); }
    // Worker threads, as EtcdAbstractQueue::take() and tryTake().
    std::optional<Value> take(std::chrono::milliseconds timeout, EtcdStatus *status = nullptr)
    {
        return Etcd::Internal::decodeTaken<Codec>(m_untyped->take(timeout, status), status);
    }
    std::optional<Value> tryTake(EtcdStatus *status = nullptr)
    {
        return Etcd::Internal::decodeTaken<Codec>(m_untyped->tryTake(status), status);
    }
    void close() { m_untyped->close(); }

protected:
    explicit EtcdTypedQueueBase(std::unique_ptr<Untyped> untyped)
        : m_untyped(std::move(untyped)) { }
    std::unique_ptr<Untyped> m_untyped;
};

template <class Codec>
class EtcdTypedQueue : public EtcdTypedQueueBase<Codec, EtcdQueue>
{
public:
    using Value = typename Codec::Value;
    EtcdTypedQueue(EtcdClient *client, const QByteArray &path)
        : EtcdTypedQueueBase<Codec, EtcdQueue>(std::make_unique<EtcdQueue>(client, path))
    { }
    EtcdReply *enqueue(const Value &value)
    {
        return this->m_untyped->enqueue(Codec::encode(value));
    }
    EtcdReply *enqueueAll(const QList<Value> &values)
    {
        QList<QByteArray> bytes;
        bytes.reserve(values.size());
        for (const Value &v : values)
            bytes.append(Codec::encode(v));
        return this->m_untyped->enqueueAll(bytes);
    }
};

template <class Codec>
class EtcdTypedPriorityQueue : public EtcdTypedQueueBase<Codec, EtcdPriorityQueue>
{
public:
    using Value = typename Codec::Value;
    EtcdTypedPriorityQueue(EtcdClient *client, const QByteArray &path)
        : EtcdTypedQueueBase<Codec, EtcdPriorityQueue>(
            std::make_unique<EtcdPriorityQueue>(client, path))
    { }
    EtcdReply *enqueue(const Value &value, int priority)
    {
        return this->m_untyped->enqueue(Codec::encode(value), priority);
    }
};

// A work queue of T: enqueue() encodes; an item's value decodes with valueOf().
template <class Codec>
class EtcdTypedWorkQueue
{
public:
    using Value = typename Codec::Value;
    EtcdTypedWorkQueue(
        EtcdClient *client, const QByteArray &path, const EtcdWorkQueue::Options &options = {})
        : m_untyped(std::make_unique<EtcdWorkQueue>(client, path, options))
    { }
    [[nodiscard]] EtcdWorkQueue *untyped() const { return m_untyped.get(); }
    EtcdReply *enqueue(
        const Value &value, std::chrono::milliseconds delay = std::chrono::milliseconds(0))
    {
        return m_untyped->enqueue(Codec::encode(value), delay);
    }
    static std::optional<Value> valueOf(const EtcdWorkItem &item)
    {
        return Codec::decode(item.value);
    }
    void close() { m_untyped->close(); }

private:
    std::unique_ptr<EtcdWorkQueue> m_untyped;
};
