// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// The locks under a fault: mutex, read-write lock (a writer against a reader) and a
// semaphore of two permits (a second clean holder sits on the other one).
#include "ownership.h"
#include "subjects.h"

#include <EtcdQt/etcdmutex.h>
#include <EtcdQt/etcdreadwritelock.h>
#include <EtcdQt/etcdsemaphore.h>

namespace FaultMatrix {
namespace {

template <typename Options>
Options withTtl(std::chrono::seconds ttl = kTtl)
{
    Options o;
    o.ttl = ttl;
    return o;
}

class MutexSubject : public OwnershipSubject
{
protected:
    void createFaulted() override
    {
        m_holder = std::make_unique<EtcdMutex>(m_faulted, m_path, withTtl<EtcdMutexOptions>());
        QObject::connect(m_holder.get(), &EtcdMutex::acquired, [this] { onFaultedAcquired(); });
        QObject::connect(m_holder.get(), &EtcdMutex::lockLost, [this] { onFaultedLost(); });
    }
    void createContenders() override
    {
        m_contender
            = std::make_unique<EtcdMutex>(m_clean, m_path, withTtl<EtcdMutexOptions>(m_cleanTtl));
        QObject::connect(m_contender.get(), &EtcdMutex::acquired, [this] { sample(); });
    }
    QList<EtcdRecipe *> recipes() const override { return {m_holder.get(), m_contender.get()}; }
    std::unique_ptr<EtcdRecipe> takeFaulted() override { return std::move(m_holder); }
    void acquireFaulted() override { m_holder->acquire(); }
    bool releaseFaulted() override { return m_holder->release(); }
    void acquireContender() override { m_contender->acquire(); }
    bool releaseContender() override { return m_contender->release(); }
    bool contenderQueued() override { return keyCount(*m_clean, m_path) == 2; }
    int holders() const override { return int(faultedHolds()) + int(contenderHolds()); }
    bool faultedHolds() const override { return faultedToken().isValid(); }
    bool contenderHolds() const override { return m_contender->fencingToken().isValid(); }
    EtcdFencingToken faultedToken() const override
    {
        return m_holder ? m_holder->fencingToken() : EtcdFencingToken {};
    }
    EtcdFencingToken contenderToken() const override { return m_contender->fencingToken(); }
    EtcdTxnReply *faultedGuardedTxn(const EtcdTxn &t) override { return m_holder->guardedTxn(t); }
    EtcdTxnReply *contenderGuardedTxn(const EtcdTxn &t) override
    {
        return m_contender->guardedTxn(t);
    }

private:
    std::unique_ptr<EtcdMutex> m_holder, m_contender;
};

// The writer is faulted; a reader waits behind it.
class RwLockSubject : public OwnershipSubject
{
    using Mode = EtcdReadWriteLock::Mode;

protected:
    void createFaulted() override
    {
        m_writer = std::make_unique<EtcdReadWriteLock>(
            m_faulted, m_path, withTtl<EtcdReadWriteLockOptions>());
        QObject::connect(
            m_writer.get(), &EtcdReadWriteLock::acquired, [this] { onFaultedAcquired(); });
        QObject::connect(m_writer.get(), &EtcdReadWriteLock::lockLost, [this] { onFaultedLost(); });
    }
    void createContenders() override
    {
        m_reader = std::make_unique<EtcdReadWriteLock>(
            m_clean, m_path, withTtl<EtcdReadWriteLockOptions>(m_cleanTtl));
        QObject::connect(m_reader.get(), &EtcdReadWriteLock::acquired, [this] { sample(); });
    }
    QList<EtcdRecipe *> recipes() const override { return {m_writer.get(), m_reader.get()}; }
    std::unique_ptr<EtcdRecipe> takeFaulted() override { return std::move(m_writer); }
    void acquireFaulted() override { m_writer->acquire(Mode::Write); }
    bool releaseFaulted() override { return m_writer->release(); }
    void acquireContender() override { m_reader->acquire(Mode::Read); }
    bool releaseContender() override { return m_reader->release(); }
    bool contenderQueued() override { return keyCount(*m_clean, m_path) == 2; }
    // A writer excludes everyone: a writer and a reader holding at once is two.
    int holders() const override { return int(faultedHolds()) + int(contenderHolds()); }
    bool faultedHolds() const override { return faultedToken().isValid(); }
    bool contenderHolds() const override { return m_reader->fencingToken().isValid(); }
    EtcdFencingToken faultedToken() const override
    {
        return m_writer ? m_writer->fencingToken() : EtcdFencingToken {};
    }
    EtcdFencingToken contenderToken() const override { return m_reader->fencingToken(); }
    EtcdTxnReply *faultedGuardedTxn(const EtcdTxn &t) override { return m_writer->guardedTxn(t); }
    EtcdTxnReply *contenderGuardedTxn(const EtcdTxn &t) override { return m_reader->guardedTxn(t); }

private:
    std::unique_ptr<EtcdReadWriteLock> m_writer, m_reader;
};

// Two permits: the faulted holder and a clean sitter hold them, the contender waits.
class SemaphoreSubject : public OwnershipSubject
{
protected:
    void createFaulted() override
    {
        m_holder = std::make_unique<EtcdSemaphore>(
            m_faulted, m_path, 2, withTtl<EtcdSemaphoreOptions>());
        QObject::connect(m_holder.get(), &EtcdSemaphore::acquired, [this] { onFaultedAcquired(); });
        QObject::connect(m_holder.get(), &EtcdSemaphore::permitLost, [this] { onFaultedLost(); });
    }
    void createContenders() override
    {
        const auto o = withTtl<EtcdSemaphoreOptions>(m_cleanTtl);
        m_sitter = std::make_unique<EtcdSemaphore>(m_clean, m_path, 2, o);
        m_contender = std::make_unique<EtcdSemaphore>(m_clean, m_path, 2, o);
        for (EtcdSemaphore *s : {m_sitter.get(), m_contender.get()})
            QObject::connect(s, &EtcdSemaphore::acquired, s, [this] { sample(); });
    }
    QList<EtcdRecipe *> recipes() const override
    {
        return {m_holder.get(), m_sitter.get(), m_contender.get()};
    }
    std::unique_ptr<EtcdRecipe> takeFaulted() override { return std::move(m_holder); }
    void acquireFaulted() override
    {
        m_holder->acquire();
        if (!m_sitterAsked)
            m_sitterAsked = m_sitter->acquire();
    }
    bool releaseFaulted() override { return m_holder->release(); }
    // The sitter holds the other permit before the contender asks: then it must wait.
    bool steady() override { return m_sitter->heldPermits() == 1 && OwnershipSubject::steady(); }
    void acquireContender() override { m_contender->acquire(); }
    bool releaseContender() override { return m_contender->release(); }
    bool contenderQueued() override
    {
        return m_sitter->heldPermits() == 1 && keyCount(*m_clean, m_path + "/holders") == 3;
    }
    int holders() const override
    {
        return int(faultedHolds()) + m_sitter->heldPermits() + m_contender->heldPermits();
    }
    int capacity() const override { return 2; }
    bool faultedHolds() const override { return m_holder && m_holder->heldPermits() > 0; }
    bool contenderHolds() const override { return m_contender->heldPermits() > 0; }
    EtcdFencingToken faultedToken() const override
    {
        return m_holder ? m_holder->fencingToken() : EtcdFencingToken {};
    }
    EtcdFencingToken contenderToken() const override { return m_contender->fencingToken(); }
    EtcdTxnReply *faultedGuardedTxn(const EtcdTxn &t) override { return m_holder->guardedTxn(t); }
    EtcdTxnReply *contenderGuardedTxn(const EtcdTxn &t) override
    {
        return m_contender->guardedTxn(t);
    }

private:
    std::unique_ptr<EtcdSemaphore> m_holder, m_sitter, m_contender;
    bool m_sitterAsked = false;
};

} // namespace

std::unique_ptr<Subject> makeMutex()
{
    return std::make_unique<MutexSubject>();
}
std::unique_ptr<Subject> makeRwLock()
{
    return std::make_unique<RwLockSubject>();
}
std::unique_ptr<Subject> makeSemaphore()
{
    return std::make_unique<SemaphoreSubject>();
}

} // namespace FaultMatrix
