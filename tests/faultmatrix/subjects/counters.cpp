// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// The atomic counter under a fault: incremented from both clients all through it
// (counting.h), no increment lost or doubled; afterwards the faulted object, whose last seen
// value is stale, still answers the next value.
#include "counting.h"
#include "subjects.h"

using namespace Qt::StringLiterals;

namespace FaultMatrix {
namespace {

class AtomicCounterSubject : public CountingSubject
{
public:
    QString recover() override;

protected:
    qint64 startValue() const override { return 0; }
    int direction() const override { return 1; }
    void createFaulted() override
    {
        m_counter = std::make_unique<EtcdAtomicCounter>(m_faulted, countKey(), startValue());
    }
    void createClean() override
    {
        m_other = std::make_unique<EtcdAtomicCounter>(m_clean, countKey(), startValue());
    }
    bool ready() const override { return true; } // the first change creates the counter
    EtcdValueReply *faultedChange() override { return m_counter->increment(); }
    EtcdValueReply *cleanChange() override { return m_other->increment(); }
    QList<EtcdRecipe *> recipes() const override { return {m_counter.get(), m_other.get()}; }
    std::unique_ptr<EtcdRecipe> takeFaulted() override { return std::move(m_counter); }
    QString afterSettled(qint64 value) override
    {
        m_settled = value;
        return {};
    }

private:
    std::unique_ptr<EtcdAtomicCounter> m_counter, m_other;
    qint64 m_settled = 0; // etcd's count after the fault
};

// Usable again: each object's next increment answers the next value, in turn.
QString AtomicCounterSubject::recover()
{
    if (std::exchange(m_faultedReplaced, false))
        createFaulted(); // on the deleted client's replacement
    for (EtcdAtomicCounter *c : {m_counter.get(), m_other.get()}) {
        const auto r = await(c->increment());
        if (!r.status.isOk() || r->value() != ++m_settled)
            return u"an increment after the fault answered %1 (%2), not %3"_s.arg(
                QString::number(r->value()), r.status.toString(), QString::number(m_settled));
    }
    return {};
}

} // namespace

std::unique_ptr<Subject> makeAtomicCounter()
{
    return std::make_unique<AtomicCounterSubject>();
}

} // namespace FaultMatrix
