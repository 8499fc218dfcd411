// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
//  W A R N I N G: internal header, not part of the EtcdQt API.
#pragma once

#include <EtcdQt/etcdkeyvalue.h>
#include <EtcdQt/etcdstatus.h>

#include <QtCore/qobject.h>

#include <deque>
#include <functional>
#include <memory>
#include <optional>

class EtcdRecipe;
class EtcdWatch;
class EtcdWatchEvent;

namespace Etcd::Internal {

// The take side every queue shares (etcd-recipes' AbstractQueue): the head of a prefix in the
// queue's order, taken by a transaction that deletes it only while its mod revision is
// unchanged. A take that loses the race reads the new head from the same answer (no second
// RPC); an empty queue is waited on with a watch of puts anchored right after the read that
// saw it empty, and the put it reports is taken without a read in between. Takes of one
// object run one at a time, in call order.
class QueueTaker : public QObject
{
    Q_OBJECT
public:
    enum class Order { ModRevision, Key };
    // `item.key` empty: nothing was taken (an empty queue, a take that did not wait).
    using Done = std::function<void(const EtcdStatus &status, const EtcdKeyValue &item)>;

    QueueTaker(EtcdRecipe *recipe, const QByteArray &prefix, Order order);
    ~QueueTaker() override;

    // Queues a take; waiting, it lasts until an item is taken (or cancel(), close(), or the
    // watch failed). Returns its id for cancel().
    quint64 take(bool wait, Done done);
    // Ends take `id` with Cancelled at once. When its delete was already on the wire, the
    // item it takes is kept for the next take, so nothing taken is dropped.
    void cancel(quint64 id);
    // Follows the queue from now (itemAdded()), also with no take waiting.
    void follow();
    // Cancels every take; a delete on the wire still answers its take. Items kept by
    // cancelled takes go to `orphaned` (the queue puts them back). Idempotent.
    void close(const std::function<void(const QList<EtcdKeyValue> &items)> &orphaned);

Q_SIGNALS:
    void itemAdded(const EtcdKeyValue &item); // while following: an item was put

private:
    struct Take
    {
        quint64 id = 0;
        bool wait = false;
        Done done;
    };
    enum class Phase { Idle, Reading, Deleting, Waiting };

    void pump();
    void readHead();
    void readBatchFirst(const EtcdKeyValue &head);
    void sendDelete(const EtcdKeyValue &head);
    void onHead(const QList<EtcdKeyValue> &kvs, qint64 revision);
    void onDeleted(quint64 takeId, const EtcdKeyValue &item);
    void onEvents(const QList<EtcdWatchEvent> &events);
    void finishFront(const EtcdStatus &status, const EtcdKeyValue &item = {});
    void startWatch(qint64 revision);
    [[nodiscard]] bool current(quint64 epoch) const { return epoch == m_epoch; }

    EtcdRecipe *m_recipe;
    QByteArray m_prefix;
    Order m_order;
    std::deque<Take> m_takes;
    std::deque<EtcdKeyValue> m_kept; // taken for a take that was cancelled meanwhile
    std::optional<EtcdKeyValue> m_head; // a candidate, from an answer or a put event
    std::unique_ptr<EtcdWatch> m_watch;
    std::function<void(const QList<EtcdKeyValue> &)> m_orphaned; // set by close()
    Phase m_phase = Phase::Idle;
    quint64 m_nextId = 1;
    quint64 m_epoch = 0; // answers of an earlier read are dropped
    qint64 m_emptyAt = 0; // the revision at which the queue was last seen empty
    bool m_closed = false;
};

} // namespace Etcd::Internal
