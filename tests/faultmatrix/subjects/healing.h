// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// What the heal group shares under a fault (docs: leases-and-loss): one key at "<path>/<name>"
// on the recipe's current lease. A fault the lease outlives keeps that lease and reports no
// expiry; one it does not must be reported (Expired) and healed to a new lease that owns the
// key again; the recipe never gives up (Failed) on a fault it can heal. The deleted client's
// keys go with it; afterwards a revoke from elsewhere is healed too.
#pragma once

#include "../matrix.h"

#include <EtcdQt/etcdleaseevent.h>
#include <EtcdQt/etcdleaseresilience.h>

namespace FaultMatrix {

// The value every key the lease subjects write holds.
inline constexpr QByteArrayView kValue = "v";

// Heals within the fault's slack: retries every 100 ms to 1 s, each attempt bounded.
EtcdLeaseResilience fastHealing();
// True when etcd has exactly `count` keys under `path`, each on lease `lease` (and holding
// `value`, unless empty).
bool heldBy(EtcdClient &client, const QByteArray &path, qint64 lease, int count,
    const QByteArray &value = {});
// The destroy column: the deleted client revoked its leases, and their keys went at once.
QString keysGoneWithClient(EtcdClient &client, const QByteArray &path);

class HealingKeySubject : public Subject
{
public:
    // `name`: the key's last part.
    explicit HealingKeySubject(QByteArray name = "owned") : m_name(std::move(name)) { }

    void start(EtcdClient *faulted, EtcdClient *clean, const QByteArray &path) override;
    bool steady() override { return alive(); }
    void sample() override;
    QString afterFault(const FaultFacts &facts) override;
    QString recover() override;
    bool close() override { return closeAll({recipe()}); }
    // The recipe goes with the client's recipes; no call is in flight between heals.
    void handOverFaulted() override { takeRecipe().release()->setParent(m_faulted); }
    [[nodiscard]] QList<qint64> faultedLeases() const override;

protected:
    // Makes the recipe on m_faulted and starts it (again on the deleted client's successor).
    virtual void create() = 0;
    [[nodiscard]] virtual EtcdRecipe *recipe() const = 0;
    virtual std::unique_ptr<EtcdRecipe> takeRecipe() = 0;
    // Established (or healed) and renewing; false while handed over.
    [[nodiscard]] virtual bool alive() const = 0;
    [[nodiscard]] virtual bool gaveUp() const = 0;
    [[nodiscard]] virtual qint64 currentLease() const = 0;
    [[nodiscard]] virtual QString stateText() const = 0;
    // What the key holds; empty when it is the recipe's own (a random token).
    [[nodiscard]] virtual QByteArray value() const { return kValue.toByteArray(); }

    // For the recipes' signals.
    void onLease(qint64 id);
    void onLeaseEvent(const EtcdLeaseEvent &e) { m_events.append(e.type); }
    [[nodiscard]] bool expiryReported() const;
    // Alive, and etcd's key is held by the lease the recipe says it has, with its value.
    QString ownsTheKey(const QString &after);

    QByteArray m_key;

private:
    QByteArray m_name;
    qint64 m_first = 0; // the lease that first established the key
    QList<EtcdLeaseEvent::Type> m_events;
};

} // namespace FaultMatrix
