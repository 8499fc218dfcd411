// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
//  W A R N I N G: internal header, not part of the EtcdQt API.
#pragma once

#include <EtcdQt/etcdstatus.h>

#include <QtCore/qobject.h>
#include <QtCore/qpointer.h>

#include <memory>

class EtcdClient;
class EtcdKeyValue;
class EtcdWatch;

namespace Etcd::Internal {

// Follows a key its owner created (at `createRevision`, on lease `leaseId`) and tells once
// how it stopped being the owner's: deleted while that lease still lives (someone removed
// it), deleted with its lease (an expiry or a revoke: the lease's own events follow), or
// written over by someone else. The owner never writes the key again, so any change after
// its creation is one of these. Watches from createRevision + 1; after a compaction gap it
// reads the key to find out what the gap hid.
class OwnedKey : public QObject
{
    Q_OBJECT
public:
    enum class Loss { Removed, Replaced, LeaseEnded };
    Q_ENUM(Loss)

    OwnedKey(EtcdClient *client, const QByteArray &key, qint64 createRevision, qint64 leaseId,
        QObject *parent);
    ~OwnedKey() override;
    void start();

Q_SIGNALS:
    void lost(OwnedKey::Loss how, const EtcdStatus &why);
    void errorOccurred(const EtcdStatus &status); // it cannot follow the key (any more)

private:
    void onDeleted();
    void resync();
    void end(Loss how);
    void stopWatching();
    [[nodiscard]] bool isOurs(const EtcdKeyValue &kv) const;

    QPointer<EtcdClient> m_client;
    QByteArray m_key;
    qint64 m_createRevision;
    qint64 m_leaseId;
    std::unique_ptr<EtcdWatch> m_watch;
    bool m_done = false;
};

} // namespace Etcd::Internal
