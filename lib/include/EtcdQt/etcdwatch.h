// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <EtcdQt/etcdkeyvalue.h>
#include <EtcdQt/etcdstatus.h>
#include <EtcdQt/etcdwatchevent.h>

#include <QtCore/qobject.h>

#include <functional>
#include <memory>

class EtcdClient;
class EtcdWatch;
class EtcdWatchPrivate;
namespace Etcd::Internal { // the library's own engine-side look at a watch's events
void setWatchGuard(EtcdWatch &watch, std::function<void(const QList<EtcdWatchEvent> &)> guard);
}

struct EtcdWatchOptions
{
    bool prefix = false;
    QByteArray rangeEnd {};
    qint64 startRevision = 0; // 0: from now
    bool noPut = false;
    bool noDelete = false;
    bool prevKv = false;
    bool progressNotify = true; // advances the resume revision while the key is quiet
};

class ETCDQT_EXPORT EtcdWatch : public QObject
{
    Q_OBJECT
    Q_PROPERTY(State state READ state NOTIFY stateChanged)
    Q_PROPERTY(qint64 nextRevision READ nextRevision NOTIFY eventsReceived)
    Q_PROPERTY(ResyncMode resyncMode READ resyncMode WRITE setResyncMode)
public:
    enum class State { Inactive, Creating, Active, Suspended, AwaitingResync, Failed };
    Q_ENUM(State)
    enum class ResyncMode { ResumeAtCompaction, AwaitResync };
    Q_ENUM(ResyncMode)

    EtcdWatch(EtcdClient *client, const QByteArray &key, const EtcdWatchOptions &options = {},
        QObject *parent = nullptr);
    ~EtcdWatch() override;

    [[nodiscard]] QByteArray key() const;
    [[nodiscard]] State state() const;
    [[nodiscard]] qint64 nextRevision() const;
    [[nodiscard]] ResyncMode resyncMode() const;
    void setResyncMode(ResyncMode mode);

public Q_SLOTS:
    void start();
    void cancel();
    void resync(qint64 anchorRevision);

Q_SIGNALS:
    void stateChanged(EtcdWatch::State state);
    void eventsReceived(const QList<EtcdWatchEvent> &events);
    void suspended(const EtcdStatus &reason);
    void resubscribed(qint64 revision);
    void resyncRequested(qint64 compactRevision);
    void resynced(qint64 compactRevision, qint64 anchorRevision);
    void failed(const EtcdStatus &status);

private:
    friend void Etcd::Internal::setWatchGuard(
        EtcdWatch &, std::function<void(const QList<EtcdWatchEvent> &)>);
    Q_DECLARE_PRIVATE(EtcdWatch)
    std::unique_ptr<EtcdWatchPrivate> const d_ptr;
};
