// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// One fault binary: the fixture, the fault applied once to every subject, and one cell()
// row per recipe reporting that recipe's outcome.
#pragma once

#include "matrix.h"

#include <etcdtestserver.h>
#include <faultproxy.h>

#include <QtCore/qhash.h>
#include <QtCore/qobject.h>
#include <QtCore/qtimer.h>

namespace FaultMatrix {

// The etcd fixture of one fault and the fault itself.
class Fault
{
public:
    virtual ~Fault() = default;
    // Starts etcd (and what stands in front of it); empty on success.
    virtual QString setUp() = 0;
    virtual QList<QUrl> faultedEndpoints() const = 0;
    virtual QList<QUrl> cleanEndpoints() const = 0;
    // Client settings the fault needs (credentials, stream liveness).
    virtual void configureFaulted(EtcdClient &) { }
    virtual void configureClean(EtcdClient &) { }
    // The contenders' lease TTL; one apart from kTtl tells the faulted client's leases apart.
    [[nodiscard]] virtual std::chrono::seconds cleanTtl() const { return kTtl; }
    // Applies the fault, holds it as long as it needs, and heals it; empty on success. Not
    // called when facts() says faultedDestroyed: the suite deletes the faulted client.
    virtual QString applyHoldHeal() = 0;
    [[nodiscard]] virtual FaultFacts facts() const = 0;
    // Why `recipe` cannot meet this fault (the cell is skipped), or empty.
    [[nodiscard]] virtual QString skipReason(const QString &) const { return {}; }
    [[nodiscard]] virtual QString log() const { return {}; }
    // After every cell's checks: whether the fault did what it is about (every cell fails
    // with the reason when not); empty when it did.
    [[nodiscard]] virtual QString verify() const { return {}; }
    // The subjects make late writes while the fault is on (Subject::setLateWrites()).
    [[nodiscard]] virtual bool lateWrites() const { return false; }

    // Set by the suite before applyHoldHeal(): every contender holds what the faulted
    // recipes lost, for a fault that acts on that state.
    std::function<bool()> contendersHold;
};

// One etcd with a FaultProxy in front of the faulted client, the clean one direct: the
// fixture of every fault that acts on one client's connection (cut-off, delay, compaction
// during a cut-off).
class ProxiedFault : public Fault
{
public:
    QString setUp() override;
    QList<QUrl> faultedEndpoints() const override { return {m_proxy->url()}; }
    QList<QUrl> cleanEndpoints() const override { return {m_server.clientUrl()}; }
    FaultFacts facts() const override { return {.outlastsTtl = true, .cleanHit = false}; }
    QString log() const override { return m_server.log(); }

protected:
    EtcdTestServer m_server;
    std::unique_ptr<FaultProxy> m_proxy;
};

class FaultSuite : public QObject
{
    Q_OBJECT
public:
    explicit FaultSuite(std::unique_ptr<Fault> fault);
    ~FaultSuite() override;

private Q_SLOTS:
    void initTestCase();
    void cell_data();
    void cell();
    void cleanupTestCase();

private:
    struct Entry
    {
        QString name;
        std::unique_ptr<Subject> subject;
        QString outcome;
    };
    void startAll();
    std::unique_ptr<EtcdClient> makeClient(const QList<QUrl> &endpoints, bool faulted);
    QString runFault();
    QString destroyFaulted();
    void blameLeftLeases(const QList<qint64> &left);
    void checkAll();
    QString checkOne(Entry &entry);
    void sampleAll();

    std::unique_ptr<Fault> m_fault;
    std::unique_ptr<EtcdClient> m_faulted;
    std::unique_ptr<EtcdClient> m_clean;
    std::vector<Entry> m_entries;
    QTimer m_monitor;
    QString m_setupFailure;
    QHash<QString, QStringList> m_blame; // recipe -> what the fault itself showed of it
};

} // namespace FaultMatrix
