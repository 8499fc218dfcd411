// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
//  W A R N I N G: internal header, not part of the EtcdQt API.
#pragma once

#include "leaseops_p.h"

#include <QtCore/qlist.h>
#include <QtCore/qpointer.h>

#include <chrono>
#include <memory>

class EtcdClient;
class EtcdLeaseGrantReply;
class EtcdRecipe;
class EtcdReply;

namespace Etcd::Internal {

// The lease grants a recipe sent and etcd has not answered yet (issue 16's guarded grant).
// A grant that comes back to an owner that no longer wants it (after abandon() or close())
// revokes its own lease, here and nowhere else; and close() reports the
// owner's closed() only once etcd answered every grant in flight and the revoke of its
// lease, so an application that quits on closed() leaves no lease behind.
class PendingGrants
{
public:
    explicit PendingGrants(EtcdRecipe *owner);
    ~PendingGrants(); // abandon(): no `done` runs after this
    PendingGrants(const PendingGrants &) = delete;
    PendingGrants &operator=(const PendingGrants &) = delete;

    // Grants a lease of `ttl` on the owner's client (a positive `timeout` gives up after
    // that long), with the id `leaseId` or, when 0, a random one of our own. `done` runs once in
    // the owner's thread with etcd's answer, unless the grant was abandoned meanwhile: then its
    // lease is revoked instead.
    void grant(std::chrono::seconds ttl, std::chrono::milliseconds timeout, GrantDone done,
        qint64 leaseId = 0);
    [[nodiscard]] EtcdClient *client() const; // the owner's
    // Grants sent since the last abandon() and not answered yet: those whose `done` will run.
    [[nodiscard]] int inFlight() const;

    // The grants in flight are no longer wanted: each revokes its lease when it answers.
    void abandon();
    // abandon(), then the owner's closed() once every grant in flight answered (its lease
    // revoked) and every reply in `revokes` (the owner's own revokes; nulls are skipped)
    // finished; on the next event-loop turn when nothing is pending. Once per owner.
    void close(const QList<EtcdReply *> &revokes = {});

private:
    void revokeIfOrphaned(EtcdLeaseGrantReply *reply, qint64 leaseId);

    struct Book;
    std::shared_ptr<Book> m_book;
};

} // namespace Etcd::Internal
