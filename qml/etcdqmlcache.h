// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "etcdqmlrecipe.h"

#include <EtcdQt/etcdpathchildrencache.h>
#include <EtcdQt/etcdpathchildrenmodel.h>

#include <QtCore/qvariant.h>

#include <functional>
#include <optional>

// What the two caches share: `ready` once the first read is in and the watch is live,
// resynced() after a re-read that a compaction forced, and a fresh start once the client is
// connected again after the library cache failed (its first read found etcd unreachable).
class EtcdQmlCache : public EtcdQmlRecipe
{
    Q_OBJECT
    QML_ANONYMOUS
    Q_PROPERTY(bool ready READ isReady NOTIFY readyChanged)
public:
    ~EtcdQmlCache() override;

    [[nodiscard]] bool isReady() const { return m_ready; }

Q_SIGNALS:
    void readyChanged();
    void resynced(double revision);

protected:
    explicit EtcdQmlCache(QObject *parent);

    // Follows the library cache's state, errors, started() and resynced(); `onStarted` runs
    // before `ready` turns true.
    template <typename Cache>
    void followCache(Cache *cache, std::function<void()> onStarted = {})
    {
        followRecipe(cache);
        connect(cache, &Cache::started, this, [this, onStarted] {
            if (onStarted)
                onStarted();
            setReady(true);
        });
        connect(cache, &Cache::resynced, this,
            [this](qint64 revision) { Q_EMIT resynced(double(revision)); });
        connect(cache, &Cache::failed, this, [this] { m_failed = true; });
    }
    void recipeStopped() override;

private:
    void setReady(bool ready);
    void followClientState();

    bool m_ready = false;
    bool m_failed = false; // the library cache gave up: start over once connected
    QMetaObject::Connection m_clientState;
};

class EtcdQmlNodeCache : public EtcdQmlCache
{
    Q_OBJECT
    QML_NAMED_ELEMENT(NodeCache)
    Q_PROPERTY(QString key READ key WRITE setKey NOTIFY keyChanged)
    Q_PROPERTY(QString value READ value NOTIFY valueChanged)
    Q_PROPERTY(bool exists READ exists NOTIFY valueChanged)
    Q_PROPERTY(double modRevision READ modRevision NOTIFY valueChanged)
public:
    explicit EtcdQmlNodeCache(QObject *parent = nullptr);
    ~EtcdQmlNodeCache() override;

    [[nodiscard]] QString key() const { return m_key; }
    void setKey(const QString &key);
    [[nodiscard]] QString value() const { return m_value; }
    [[nodiscard]] bool exists() const { return m_exists; }
    [[nodiscard]] double modRevision() const { return m_modRevision; }

Q_SIGNALS:
    void keyChanged();
    void valueChanged();
    void created(const QString &value, double revision);
    void updated(const QString &value, const QString &previous, double revision);
    void deleted(const QString &previous, double revision);

protected:
    [[nodiscard]] QString invalidSetting() const override;
    QObject *startRecipe(EtcdClient *client) override;
    void recipeStopped() override;

private:
    void show(const QString &value, bool exists, double modRevision);

    QString m_key;
    QString m_value;
    bool m_exists = false;
    double m_modRevision = 0;
};

// The library's model of the children, with lease ids as decimal strings as everywhere in
// the module (a JS number would round them).
class EtcdQmlPathChildrenModel : public EtcdPathChildrenModel
{
    Q_OBJECT
public:
    using EtcdPathChildrenModel::EtcdPathChildrenModel;

    [[nodiscard]] QVariant data(const QModelIndex &index, int role) const override;
};

class EtcdQmlPathChildrenCache : public EtcdQmlCache
{
    Q_OBJECT
    QML_NAMED_ELEMENT(PathChildrenCache)
    Q_PROPERTY(QString path READ path WRITE setPath NOTIFY pathChanged)
    Q_PROPERTY(StartMode startMode READ startMode WRITE setStartMode NOTIFY startModeChanged)
    Q_PROPERTY(int count READ count NOTIFY countChanged)
    Q_PROPERTY(QAbstractItemModel *model READ model CONSTANT)
public:
    // EtcdPathChildrenCache::StartMode
    enum StartMode { Normal, BuildInitialCache, PostInitializedEvent };
    Q_ENUM(StartMode)

    explicit EtcdQmlPathChildrenCache(QObject *parent = nullptr);
    ~EtcdQmlPathChildrenCache() override;

    [[nodiscard]] QString path() const { return m_path; }
    void setPath(const QString &path);
    [[nodiscard]] StartMode startMode() const { return m_startMode; }
    void setStartMode(StartMode mode);
    [[nodiscard]] int count() const;
    [[nodiscard]] QAbstractItemModel *model() const;

    Q_INVOKABLE QVariant value(const QString &name) const;
    Q_INVOKABLE bool rebuild();
    Q_INVOKABLE bool clear();

Q_SIGNALS:
    void pathChanged();
    void startModeChanged();
    void countChanged();
    void initialized(double revision);
    void childAdded(const QString &name, const QString &value);
    void childUpdated(const QString &name, const QString &value, const QString &previous);
    void childRemoved(const QString &name, const QString &previous);
    void rebuilt();

protected:
    [[nodiscard]] QString invalidSetting() const override;
    QObject *startRecipe(EtcdClient *client) override;
    void recipeStopped() override;

private:
    QString m_path;
    StartMode m_startMode = BuildInitialCache;
    EtcdQmlPathChildrenModel *m_model;
    std::optional<qint64> m_initializedAt; // told once the model holds the snapshot
};
