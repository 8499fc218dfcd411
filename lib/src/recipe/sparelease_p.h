// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
//  W A R N I N G: internal header, not part of the EtcdQt API.
#pragma once

#include <EtcdQt/etcdstatus.h>

#include <QtCore/qelapsedtimer.h>
#include <QtCore/qlist.h>

#include <chrono>
#include <functional>
#include <optional>

class EtcdReply;

namespace Etcd::Internal {

class PendingGrants;

// A lease granted ahead of a heal (issue 18). A revoke or an expiry shows first as a deleted
// key; the recipe then asks etcd whether its lease is gone and, meanwhile, takes the client's
// standby lease or, when there is none, grants this one.
// Its id is chosen here, so the heal can run on it the moment etcd says the lease is gone,
// before the grant's own answer: the grant left a round trip earlier and etcd applies it
// first. tookEarly() tells a heal whose write may have overtaken the grant anyway.
class SpareLease
{
public:
    explicit SpareLease(PendingGrants &grants) : m_grants(grants) { }

    // Unless one is on its way or held: takes the client's standby of `ttl` (StandbyLeases),
    // granted and renewed already, or grants one.
    void prepare(std::chrono::seconds ttl, std::chrono::milliseconds timeout);
    // For a heal: the spare's id, if it is less than `maxAge` old and was not refused. One
    // already granted is the heal's from then on; one still on its way stays followed here.
    [[nodiscard]] std::optional<qint64> take(std::chrono::milliseconds maxAge);
    // Since its grant was sent, or the standby's last renewal; zero when there is none.
    [[nodiscard]] std::chrono::milliseconds age() const;
    // take() gave out `leaseId` before etcd had answered its grant, and it has not released it.
    [[nodiscard]] bool tookEarly(qint64 leaseId) const;
    // `then` runs once the taken spare's grant answered (at once if it has).
    void whenAnswered(std::function<void(const EtcdStatus &)> then);
    void release(); // the heal is done with the taken spare: it is the heal's lease now
    // Not wanted (the lease lives, or the recipe failed): revoked, now or when it is granted.
    void drop();
    // close(): the held spare's revoke (null when none); one in flight is the grants' to revoke.
    EtcdReply *closeAndRevoke();

private:
    void answered(qint64 leaseId, const EtcdStatus &status);

    PendingGrants &m_grants;
    qint64 m_id = -1; // the spare sent, -1 when none
    QElapsedTimer m_sent;
    std::chrono::milliseconds m_ageAtSend {0}; // a standby's age when it became the spare
    std::optional<EtcdStatus> m_answer; // its grant's, once etcd answered
    bool m_taken = false; // by a heal, before m_answer
    std::function<void(const EtcdStatus &)> m_then;
    QList<qint64> m_unwanted; // dropped while granted: revoked when etcd answers
};

} // namespace Etcd::Internal
