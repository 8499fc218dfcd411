// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <EtcdQt/etcdcodec.h>
#include <EtcdQt/etcdkeyvalue.h>
#include <EtcdQt/etcdrecipe.h>

#include <QtCore/qbytearray.h>

#include <functional>
#include <memory>
#include <optional>

class EtcdNodeCachePrivate;

class ETCDQT_EXPORT EtcdNodeCache : public EtcdRecipe
{
    Q_OBJECT
    Q_PROPERTY(QByteArray key READ key CONSTANT)
    Q_PROPERTY(QByteArray value READ value NOTIFY valueChanged)
    Q_PROPERTY(bool exists READ exists NOTIFY valueChanged)
    Q_PROPERTY(qint64 modRevision READ modRevision NOTIFY valueChanged)
    Q_PROPERTY(bool started READ isStarted NOTIFY started)
public:
    EtcdNodeCache(EtcdClient *client, const QByteArray &key, QObject *parent = nullptr);
    ~EtcdNodeCache() override;

    [[nodiscard]] QByteArray key() const;
    [[nodiscard]] QByteArray value() const;
    [[nodiscard]] bool exists() const;
    [[nodiscard]] qint64 modRevision() const;
    [[nodiscard]] EtcdKeyValue keyValue() const;
    [[nodiscard]] qint64 revision() const;
    [[nodiscard]] bool isStarted() const;
    void setValueValidator(std::function<bool(const QByteArray &value)> validator);

public Q_SLOTS:
    void start();
    void close();

Q_SIGNALS:
    void started();
    void created(const QByteArray &value, qint64 revision);
    void updated(const QByteArray &value, const QByteArray &previous, qint64 revision);
    void deleted(const QByteArray &previous, qint64 revision);
    void valueChanged();
    void resynced(qint64 revision);
    void failed(const EtcdStatus &reason);

private:
    Q_DECLARE_PRIVATE(EtcdNodeCache)
    std::unique_ptr<EtcdNodeCachePrivate> const d_ptr;
};

// A node cache whose value is a T, read with Codec (see etcdcodec.h). Owns its untyped cache,
// which carries the signals; a value that does not decode is still cached and signalled,
// and reported as an error of the untyped cache.
template <class Codec>
class EtcdTypedNodeCache
{
public:
    using Value = typename Codec::Value;

    EtcdTypedNodeCache(EtcdClient *client, const QByteArray &key)
        : m_untyped(std::make_unique<EtcdNodeCache>(client, key))
    {
        m_untyped->setValueValidator(
            [](const QByteArray &bytes) { return Codec::decode(bytes).has_value(); });
    }

    [[nodiscard]] EtcdNodeCache *untyped() const { return m_untyped.get(); }
    // nullopt when the key does not exist or its value does not decode.
    [[nodiscard]] std::optional<Value> value() const
    {
        return m_untyped->exists() ? Codec::decode(m_untyped->value()) : std::nullopt;
    }
    [[nodiscard]] static std::optional<Value> decode(const QByteArray &bytes)
    {
        return Codec::decode(bytes);
    }
    void start() { m_untyped->start(); }
    void close() { m_untyped->close(); }

private:
    std::unique_ptr<EtcdNodeCache> m_untyped;
};
