// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// Service discovery under a fault: an instance registered on the faulted client (the heal
// group, healing.h: reported, healed, never given up) and discovered by a cache on the clean
// one. Discovery must never see the instance removed when the fault did not outlast its TTL
// (the lease lived), must see it again on the registration's current lease after the fault,
// and must see it go at once with its deleted client.
#include "healing.h"
#include "subjects.h"

#include <EtcdQt/etcdservicecache.h>
#include <EtcdQt/etcdserviceregistry.h>

using namespace Qt::StringLiterals;

namespace FaultMatrix {
namespace {

const QString kService = u"svc"_s;

class ServiceSubject : public HealingKeySubject
{
public:
    void start(EtcdClient *faulted, EtcdClient *clean, const QByteArray &path) override
    {
        m_instance = EtcdServiceInstance::create(kService);
        m_instance.id = u"faulted"_s;
        HealingKeySubject::start(faulted, clean, path);
        m_cache = std::make_unique<EtcdServiceCache>(clean, path, kService);
        QObject::connect(
            m_cache.get(), &EtcdServiceCache::instanceRemoved, [this] { ++m_removals; });
        m_cache->start();
    }
    bool steady() override { return alive() && m_cache->instance(m_instance.id).has_value(); }
    // The lease has no signal of its own: each sample notes the current one.
    void sample() override
    {
        HealingKeySubject::sample();
        if (currentLease() > 0)
            onLease(currentLease());
    }
    QString afterFault(const FaultFacts &facts) override;
    QString recover() override
    {
        if (const QString r = HealingKeySubject::recover(); !r.isEmpty())
            return r;
        return discovered(u"a revoke"_s);
    }
    bool close() override { return closeAll({recipe(), m_cache.get()}); }

protected:
    void create() override
    {
        m_failed = false;
        m_registry = std::make_unique<EtcdServiceRegistry>(m_faulted, m_path, kTtl, fastHealing());
        QObject::connect(m_registry.get(), &EtcdServiceRegistry::leaseEvent,
            [this](const EtcdServiceInstance &, const EtcdLeaseEvent &e) { onLeaseEvent(e); });
        QObject::connect(
            m_registry.get(), &EtcdServiceRegistry::failed, [this] { m_failed = true; });
        m_registry->registerService(m_instance);
    }
    EtcdRecipe *recipe() const override { return m_registry.get(); }
    std::unique_ptr<EtcdRecipe> takeRecipe() override { return std::move(m_registry); }
    bool alive() const override { return m_registry && m_registry->isRegistered(m_instance); }
    bool gaveUp() const override { return m_failed; }
    qint64 currentLease() const override
    {
        return m_registry ? m_registry->leaseIdOf(m_instance) : 0;
    }
    QString stateText() const override
    {
        return u"registered %1, failed %2"_s.arg(alive()).arg(m_failed);
    }
    QByteArray value() const override { return {}; } // the instance's JSON

private:
    QString discovered(const QString &after);

    EtcdServiceInstance m_instance;
    std::unique_ptr<EtcdServiceRegistry> m_registry;
    std::unique_ptr<EtcdServiceCache> m_cache;
    bool m_failed = false;
    int m_removals = 0; // instanceRemoved() the cache reported
};

QString ServiceSubject::afterFault(const FaultFacts &facts)
{
    if (const QString r = HealingKeySubject::afterFault(facts); !r.isEmpty())
        return r;
    if (facts.faultedDestroyed) {
        if (!waitFor(
                [this] { return m_removals > 0 && !m_cache->instance(m_instance.id); }, kTtlMs))
            return u"discovery still lists the instance of the deleted client"_s;
        return {};
    }
    if (m_removals > 0 && !facts.outlastsTtl && !expiryReported())
        return u"discovery saw the instance removed %1 time(s) while its lease lived"_s.arg(
            m_removals);
    return discovered(u"the fault"_s);
}

// The cache lists the instance on the lease the registry holds it on.
QString ServiceSubject::discovered(const QString &after)
{
    const auto seen = [this] {
        return alive() && m_cache->instance(m_instance.id)
            && m_cache->leaseOf(m_instance.id) == currentLease();
    };
    if (!waitFor(seen))
        return u"after %1 discovery lists the instance on lease %2, the registry has %3"_s.arg(
            after, QString::number(m_cache->leaseOf(m_instance.id), 16),
            QString::number(currentLease(), 16));
    return {};
}

} // namespace

std::unique_ptr<Subject> makeServiceDiscovery()
{
    return std::make_unique<ServiceSubject>();
}

} // namespace FaultMatrix
