// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
//  W A R N I N G: internal header, not part of the EtcdQt API.
#pragma once

#include <EtcdQt/etcdstatus.h>

#include <QtCore/qobject.h>
#include <QtCore/qpointer.h>

#include "leaseview_p.h"

#include <atomic>
#include <memory>

class EtcdClient;
struct EtcdKeyValue;
struct EtcdWatchEvent;
class EtcdWatch;

namespace Etcd::Internal {

// Follows a key its owner wrote (at `writtenAt`, on lease `leaseId`) and tells once how it
// stopped being the owner's: deleted while that lease still lives (someone removed it),
// deleted with its lease (an expiry or a revoke: the lease's own events follow), or written
// over by someone else. Any change after that write is one of these, except a put with the
// owner's own lease, which is an update of the owner's value (only the owner knows its
// lease). Watches from writtenAt + 1; after a compaction gap it reads the key to find out
// what the gap hid. The decision that the key is no longer owned is the engine
// thread's (issue 16): its watch guard makes `view` read 0 at the first change it sees,
// before the owner thread hears of it and however busy that thread is.
class OwnedKey : public QObject
{
    Q_OBJECT
public:
    enum class Loss { Removed, Replaced, LeaseEnded };
    Q_ENUM(Loss)

    OwnedKey(EtcdClient *client, const QByteArray &key, qint64 writtenAt, qint64 leaseId,
        std::shared_ptr<LeaseView> view, QObject *parent = nullptr);
    ~OwnedKey() override;
    // Before start(): a put with `leaseId` is the owner's too. The owner moves its key
    // between two leases of its own (an early heal, LeaseView::setRestoresKeys()), and only
    // it knows either.
    void alsoOwnWritesOn(qint64 leaseId) { m_otherLeaseId = leaseId; }
    void start();
    // The key was deleted and the lease's keeper writes it again itself (LeaseView::
    // setRestoresKeys()): a Removed loss needs nothing of the owner.
    [[nodiscard]] bool keeperRestores() const { return m_keeperRestores; }
    // Done with: signals and watch stop now; deleted once etcd answered a question about the
    // lease, whose answer the keeper still waits for.
    void retire();

Q_SIGNALS:
    void lost(OwnedKey::Loss how, const EtcdStatus &why);
    void errorOccurred(const EtcdStatus &status); // it cannot follow the key (any more)

private:
    void onDeleted();
    void resync();
    void end(Loss how);
    void stopWatching();
    [[nodiscard]] bool isOurs(const EtcdKeyValue &kv) const;
    [[nodiscard]] static bool isOwnWrite(const EtcdWatchEvent &e, qint64 leaseId, qint64 other);

    QPointer<EtcdClient> m_client;
    QByteArray m_key;
    qint64 m_writtenAt;
    qint64 m_leaseId;
    qint64 m_otherLeaseId = -1;
    std::shared_ptr<LeaseView> m_view;
    std::unique_ptr<EtcdWatch> m_watch;
    bool m_done = false;
    bool m_asking = false; // whether the lease is gone, asked at a deletion
    bool m_retired = false;
    bool m_keeperRestores = false;
    // The watch guard's: whether the key is still followed (read on the gRPC thread).
    std::shared_ptr<std::atomic<bool>> m_following = std::make_shared<std::atomic<bool>>(true);
};

} // namespace Etcd::Internal
