// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// The fault matrix (issue 22): every recipe under every fault, one binary per fault. A
// Subject drives one recipe through the fault; a Fault owns the etcd fixture and applies the
// fault once, to every subject at the same time.
#pragma once

#include "testutil.h"

#include <QtCore/qstringlist.h>

#include <chrono>
#include <functional>
#include <memory>

namespace FaultMatrix {

using namespace std::chrono_literals;

// Every lease the matrix uses; every wait is a generous multiple of it (a loaded 2-core
// machine), and only the fault's own duration is a timed wait.
constexpr auto kTtl = 2s;
constexpr int kTtlMs = 2000;
constexpr int kWaitMs = 5 * kTtlMs;
constexpr int kLeaseGoneMs = 500; // after closed(): revoked leases are gone at once

// What a subject may expect of the fault that hit it.
struct FaultFacts
{
    // The faulted client was kept from etcd (or etcd from its leases) longer than the TTL:
    // every ownership it held must have been reported lost.
    bool outlastsTtl = true;
    // Without outlastsTtl: whether a loss is allowed (not required). A fault whose length on
    // the client's clock the test cannot measure (a raft election) may run past the lease's
    // renewal slack; without it a loss is a defect: the lease outlived the fault.
    bool mayOutlastTtl = false;
    // The clean client was hit too (one etcd paused or restarted under both).
    bool cleanHit = false;
    // The faulted client was deleted with its recipes (the destroy column): the contenders
    // take over at once, and a new client's recipe must own again.
    bool faultedDestroyed = false;
};

// One recipe's part in one fault binary. Calls come in this order: start, (steady polled),
// the fault with sample() on every event-loop turn, afterFault, recover, leases, close.
// Each check returns an empty string on success, else what went wrong.
class Subject
{
public:
    virtual ~Subject() = default;

    // Creates the recipe(s): the faulted one on `faulted`, contenders on `clean`, under `path`.
    virtual void start(EtcdClient *faulted, EtcdClient *clean, const QByteArray &path) = 0;
    // The state the fault should meet (held, registered, waiting).
    virtual bool steady() = 0;
    // Records invariant violations; cheap, called on every event-loop turn.
    virtual void sample() = 0;
    virtual QString afterFault(const FaultFacts &facts) = 0;
    virtual QString recover() = 0;
    // Closes every recipe; true once each said closed().
    virtual bool close() = 0;

    // The destroy column. The faulted client is about to be deleted: make the faulted recipes
    // its children (the client's destructor deletes them first, the way an application's
    // teardown does), keep no pointer to them, and leave an operation of theirs in flight.
    virtual void handOverFaulted() = 0;
    // The leases the faulted recipes hold now (the census adds any it finds by TTL).
    [[nodiscard]] virtual QList<qint64> faultedLeases() const = 0;
    // The deleted client's replacement: recover() makes a new recipe on it.
    void replaceFaulted(EtcdClient *client);
    // The TTL of the contenders' leases (the destroy column tells them apart by it).
    void setCleanTtl(std::chrono::seconds ttl) { m_cleanTtl = ttl; }
    // While on (during the fault): once the contender holds, the faulted holder writes with
    // its old fencing token through its own client, as a holder unaware of its loss would.
    void setLateWrites(bool on);
    // The contenders hold what the faulted recipe lost (a fault may wait for it to act).
    [[nodiscard]] virtual bool tookOver() const { return true; }

    // Leases this subject's keys used; read through the clean client before close().
    [[nodiscard]] QList<qint64> leasesInUse() const;
    // Every violation sample() recorded, the first few spelled out.
    [[nodiscard]] QString violations() const;

protected:
    void violate(const QString &what);
    void noteLease(qint64 id);

    EtcdClient *m_faulted = nullptr;
    EtcdClient *m_clean = nullptr;
    QByteArray m_path;
    std::chrono::seconds m_cleanTtl = kTtl;
    bool m_faultedReplaced = false; // recover() must first make the faulted recipe anew
    bool m_lateWrites = false;
    bool m_lateWritesAsked = false;
    QList<qint64> m_seenLeases; // leases seen on the way (e.g. a hold lost to the fault)

private:
    QStringList m_violations;
    int m_violationCount = 0;
};

using SubjectFactory = std::function<std::unique_ptr<Subject>()>;
struct Recipe
{
    QString name; // the row name, e.g. "mutex"
    SubjectFactory make;
};
// Every recipe with a subject, in the table's order.
QList<Recipe> recipes();

// Waits with the event loop running (QTest::qWaitFor); true when `done` came true.
bool waitFor(const std::function<bool()> &done, int timeoutMs = kWaitMs);

// The keys under "<path>/" by create revision, read through `client`; nullopt when etcd
// did not answer.
std::optional<QList<EtcdKeyValue>> keysUnder(EtcdClient &client, const QByteArray &path);
// The keys under "<path>/" with their leases, for failure messages.
QString keysText(EtcdClient &client, const QByteArray &path);
// How many keys are under "<path>/"; -1 when etcd did not answer.
int keyCount(EtcdClient &client, const QByteArray &path);
// The leases (non-zero) of the keys under "<path>/".
QList<qint64> leasesUnder(EtcdClient &client, const QByteArray &path);
// The leases of `ids` not gone within kLeaseGoneMs (TTL -1, or run out).
QList<qint64> leasesLeft(EtcdClient &client, const QList<qint64> &ids);
// Empty when every lease in `ids` is gone within kLeaseGoneMs, else which are not.
QString leasesGone(EtcdClient &client, const QList<qint64> &ids);
// Every live lease etcd granted with `ttl`; nullopt when etcd did not answer.
std::optional<QList<qint64>> leasesGrantedWith(EtcdClient &client, std::chrono::seconds ttl);
// The keys attached to lease `id` (empty when none, or etcd did not answer).
QList<QByteArray> keysOfLease(EtcdClient &client, qint64 id);

// Closes `recipes` and waits until each emitted closed().
bool closeAll(const QList<EtcdRecipe *> &recipes);

} // namespace FaultMatrix
