// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "sparelease_p.h"

#include "leaseops_p.h"
#include "pendinggrants_p.h"
#include "standbyleases_p.h"

#include <EtcdQt/etcdrecipe.h>

namespace Etcd::Internal {

using namespace std::chrono;

void SpareLease::prepare(seconds ttl, milliseconds timeout)
{
    if (m_id > 0)
        return;
    m_sent.start();
    m_taken = false;
    if (const auto standby = StandbyLeases::take(m_grants.client(), ttl)) {
        m_id = standby->leaseId;
        m_ageAtSend = standby->age;
        m_answer = EtcdStatus(); // granted long ago: nothing for a heal's write to overtake
        return;
    }
    m_id = randomLeaseId();
    m_ageAtSend = milliseconds(0);
    m_answer.reset();
    m_grants.grant(
        ttl, timeout, [this, id = m_id](const EtcdStatus &s, qint64) { answered(id, s); }, m_id);
}

std::optional<qint64> SpareLease::take(milliseconds maxAge)
{
    if (m_id <= 0 || m_taken)
        return std::nullopt;
    if ((m_answer && !m_answer->isOk()) || age() >= maxAge) {
        drop();
        return std::nullopt;
    }
    const qint64 id = m_id;
    if (m_answer) // granted: the heal's own lease from now on
        release();
    else
        m_taken = true; // until its grant answers, see tookEarly()
    return id;
}

milliseconds SpareLease::age() const
{
    return m_id > 0 ? m_ageAtSend + milliseconds(m_sent.elapsed()) : milliseconds(0);
}

bool SpareLease::tookEarly(qint64 leaseId) const
{
    return m_taken && leaseId == m_id;
}

void SpareLease::whenAnswered(std::function<void(const EtcdStatus &)> then)
{
    if (m_answer)
        return then(*m_answer);
    m_then = std::move(then);
}

void SpareLease::release()
{
    m_id = -1;
    m_answer.reset();
    m_taken = false;
    m_then = nullptr;
}

void SpareLease::drop()
{
    if (m_id > 0 && !m_answer)
        m_unwanted.append(m_id);
    else if (m_id > 0 && m_answer->isOk())
        revokeLeaseQuietly(m_grants.client(), m_id);
    release();
}

EtcdReply *SpareLease::closeAndRevoke()
{
    EtcdReply *revoke = nullptr;
    if (m_id > 0 && !m_taken && m_answer && m_answer->isOk())
        revoke = revokeLeaseQuietly(m_grants.client(), m_id);
    release();
    m_unwanted.clear(); // the grants abandoned revoke those when etcd answers
    return revoke;
}

void SpareLease::answered(qint64 leaseId, const EtcdStatus &status)
{
    if (m_unwanted.removeOne(leaseId)) {
        if (status.isOk())
            revokeLeaseQuietly(m_grants.client(), leaseId);
        return;
    }
    if (leaseId != m_id)
        return; // released: the heal that took it holds it, or gave it up
    m_answer = status;
    if (auto then = std::exchange(m_then, nullptr))
        then(status);
}

} // namespace Etcd::Internal
