// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <EtcdQt/etcdcodec.h>
#include <EtcdQt/etcdkeyvalue.h>
#include <EtcdQt/etcdrecipe.h>

#include <QtCore/qbytearray.h>
#include <QtCore/qlist.h>
#include <QtCore/qmap.h>
#include <QtCore/qstring.h>
#include <QtCore/qstringlist.h>

#include <functional>
#include <memory>
#include <optional>

class EtcdPathChildrenCachePrivate;

class ETCDQT_EXPORT EtcdPathChildrenCache : public EtcdRecipe
{
    Q_OBJECT
    Q_PROPERTY(QByteArray path READ path CONSTANT)
    Q_PROPERTY(QByteArray prefix READ prefix CONSTANT)
    Q_PROPERTY(StartMode startMode READ startMode WRITE setStartMode NOTIFY startModeChanged)
    Q_PROPERTY(int count READ count NOTIFY countChanged)
    Q_PROPERTY(bool started READ isStarted NOTIFY started)
public:
    enum class StartMode { Normal, BuildInitialCache, PostInitializedEvent };
    Q_ENUM(StartMode)

    EtcdPathChildrenCache(EtcdClient *client, const QByteArray &path, QObject *parent = nullptr);
    ~EtcdPathChildrenCache() override;

    [[nodiscard]] QByteArray path() const;
    [[nodiscard]] QByteArray prefix() const;
    [[nodiscard]] StartMode startMode() const;
    void setStartMode(StartMode mode);
    [[nodiscard]] int count() const;
    [[nodiscard]] bool isStarted() const;
    [[nodiscard]] qint64 revision() const;

    [[nodiscard]] QList<EtcdKeyValue> currentData() const;
    [[nodiscard]] std::optional<EtcdKeyValue> currentData(const QString &name) const;
    [[nodiscard]] QStringList names() const;
    [[nodiscard]] QMap<QString, QByteArray> currentDataAsMap() const;
    [[nodiscard]] QString nameOf(const QByteArray &key) const;
    void setValueValidator(std::function<bool(const QByteArray &value)> validator);

    void start(StartMode mode);

public Q_SLOTS:
    void start();
    void rebuild();
    void clear();
    void close();

Q_SIGNALS:
    void started();
    void initialized(const QList<EtcdKeyValue> &snapshot, qint64 revision);
    void childAdded(const QString &name, const EtcdKeyValue &child);
    void childUpdated(const QString &name, const EtcdKeyValue &child, const EtcdKeyValue &previous);
    void childRemoved(const QString &name, const EtcdKeyValue &previous, qint64 revision);
    void countChanged();
    void rebuilt();
    void cleared();
    void resynced(qint64 revision);
    void startModeChanged();
    void failed(const EtcdStatus &reason);

private:
    Q_DECLARE_PRIVATE(EtcdPathChildrenCache)
    std::unique_ptr<EtcdPathChildrenCachePrivate> const d_ptr;
};

// A path children cache whose values are Ts, read with Codec (see etcdcodec.h). Owns its
// untyped cache, which carries the signals; a value that does not decode is still cached
// and signalled, and reported as an error of the untyped cache.
template <class Codec>
class EtcdTypedPathChildrenCache
{
public:
    using Value = typename Codec::Value;
    struct Child
    {
        QString name;
        EtcdKeyValue keyValue;
        std::optional<Value> value; // nullopt: the bytes do not decode
    };

    EtcdTypedPathChildrenCache(EtcdClient *client, const QByteArray &path)
        : m_untyped(std::make_unique<EtcdPathChildrenCache>(client, path))
    {
        m_untyped->setValueValidator(
            [](const QByteArray &bytes) { return Codec::decode(bytes).has_value(); });
    }

    [[nodiscard]] EtcdPathChildrenCache *untyped() const { return m_untyped.get(); }
    [[nodiscard]] QList<Child> currentData() const
    {
        QList<Child> out;
        for (const EtcdKeyValue &kv : m_untyped->currentData())
            out.append({m_untyped->nameOf(kv.key), kv, Codec::decode(kv.value)});
        return out;
    }
    [[nodiscard]] std::optional<Value> currentData(const QString &name) const
    {
        const std::optional<EtcdKeyValue> kv = m_untyped->currentData(name);
        return kv ? Codec::decode(kv->value) : std::nullopt;
    }
    [[nodiscard]] static std::optional<Value> decode(const EtcdKeyValue &kv)
    {
        return Codec::decode(kv.value);
    }
    void start(EtcdPathChildrenCache::StartMode mode) { m_untyped->start(mode); }
    void rebuild() { m_untyped->rebuild(); }
    void clear() { m_untyped->clear(); }
    void close() { m_untyped->close(); }

private:
    std::unique_ptr<EtcdPathChildrenCache> m_untyped;
};
