// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "pendinggrants_p.h"

#include <EtcdQt/etcdclient.h>
#include <EtcdQt/etcdrecipe.h>
#include <EtcdQt/etcdreply.h>

namespace Etcd::Internal {

using namespace std::chrono;

// Shared with the answers in flight, which may outlive the PendingGrants (not the owner:
// they run with the owner as context).
struct PendingGrants::Book
{
    QPointer<EtcdRecipe> owner;
    int inFlight = 0; // abandoned ones included
    int wanted = 0; // of them, sent since the last abandon()
    quint64 generation = 0; // bumped by abandon(): answers of older grants are not wanted
    bool closing = false;
    int closeWaits = 0; // grants and revokes close() still waits for

    void step()
    {
        if (closing && --closeWaits == 0 && owner)
            Q_EMIT owner->closed();
    }
    // Counts `revoke` (if any) for close(): closed() comes after it finished.
    void await(EtcdReply *revoke, const std::shared_ptr<Book> &self)
    {
        ++closeWaits;
        QObject::connect(revoke, &EtcdReply::finished, owner, [self] { self->step(); });
    }
};

PendingGrants::PendingGrants(EtcdRecipe *owner) : m_book(std::make_shared<Book>())
{
    m_book->owner = owner;
}

PendingGrants::~PendingGrants()
{
    abandon();
}

void PendingGrants::grant(seconds ttl, milliseconds timeout, GrantDone done, qint64 leaseId)
{
    Book &b = *m_book;
    ++b.inFlight;
    ++b.wanted;
    // Our own id, known before etcd answers: a grant whose answer is lost can be revoked.
    const qint64 id = leaseId ? leaseId : randomLeaseId();
    EtcdLeaseGrantReply *reply = grantLeaseWithin(
        b.owner->client(), ttl, timeout, b.owner,
        [book = m_book, sent = b.generation, done = std::move(done)](
            const EtcdStatus &status, qint64 lease) {
            --book->inFlight;
            if (sent == book->generation) {
                --book->wanted;
                return done(status, lease);
            }
            // The owner gave this grant up: its lease goes now, and close() waits for that.
            EtcdReply *revoke
                = status.isOk() ? revokeLeaseQuietly(book->owner->client(), lease) : nullptr;
            if (revoke && book->closing)
                book->await(revoke, book);
            book->step(); // this grant's own wait
        },
        id);
    if (reply)
        revokeIfOrphaned(reply, id);
}

// An owner deleted with a grant in flight (from its own signal, say) takes the answer's
// context with it: nothing above runs, and the lease etcd granted would live until the
// client closes, renewed by no one but never revoked. The reply itself outlives its answer.
// Its id is revoked whatever the answer: a failed grant's may have been applied unanswered.
void PendingGrants::revokeIfOrphaned(EtcdLeaseGrantReply *reply, qint64 leaseId)
{
    QObject::connect(reply, &EtcdReply::finished, reply,
        [book = std::weak_ptr<Book>(m_book), client = QPointer(m_book->owner->client()), leaseId] {
            const auto alive = book.lock();
            if (!alive || !alive->owner)
                revokeLeaseQuietly(client, leaseId);
        });
}

EtcdClient *PendingGrants::client() const
{
    return m_book->owner ? m_book->owner->client() : nullptr;
}

int PendingGrants::inFlight() const
{
    return m_book->wanted;
}

void PendingGrants::abandon()
{
    ++m_book->generation;
    m_book->wanted = 0;
}

void PendingGrants::close(const QList<EtcdReply *> &revokes)
{
    Book &b = *m_book;
    abandon();
    if (b.closing || !b.owner)
        return;
    b.closing = true;
    b.closeWaits = b.inFlight + 1; // the last step is this function's own
    for (EtcdReply *revoke : revokes) {
        if (revoke)
            b.await(revoke, m_book);
    }
    if (b.closeWaits > 1)
        return b.step();
    b.closeWaits = 0; // nothing to wait for: closed() on the next turn, never synchronously
    QMetaObject::invokeMethod(b.owner, &EtcdRecipe::closed, Qt::QueuedConnection);
}

} // namespace Etcd::Internal
