// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "clientcalls_p.h"
#include "etcdreply_p.h"
#include "recipelayer_p.h"
#include "recipepaths_p.h"

#include <EtcdQt/etcdclient.h>
#include <EtcdQt/etcdparticipants.h>
#include <EtcdQt/etcdreplies.h>
#include <EtcdQt/etcdwatch.h>

#include <QtCore/qpointer.h>
#include <QtCore/qset.h>
#include <QtCore/qtimer.h>

#include <algorithm>

using namespace Etcd::Internal;

/*!
    \class EtcdParticipantsReply
    \inmodule EtcdQt
    \brief Who runs in an election and who leads, as read once.
*/

struct EtcdParticipantsReplyAccess
{
    static void fill(EtcdParticipantsReply *r, QList<EtcdParticipant> list, const QString &leader)
    {
        r->m_participants = std::move(list);
        r->m_leader = leader;
    }
};

namespace {
QByteArray participantsPrefix(const QByteArray &electionPath)
{
    return RecipePaths::appendToPath(electionPath, "participants/");
}

EtcdRangeOptions prefixRange()
{
    EtcdRangeOptions o;
    o.prefix = true;
    return o;
}
} // namespace

/*!
    Constructs an unfinished reply; Etcd::electionParticipants() fills one. The object is a child of
    \a parent.
*/
EtcdParticipantsReply::EtcdParticipantsReply(QObject *parent) : EtcdReply(parent) { }

/*! Every registered candidate in key order, with the one holding LEADER marked. */
QList<EtcdParticipant> EtcdParticipantsReply::participants() const
{
    return m_participants;
}

/*! The leader's client id; empty when the election is vacant. */
QString EtcdParticipantsReply::leader() const
{
    return m_leader;
}

/*!
    \relates EtcdParticipantsReply
    Reads LEADER and the participant keys of the election at \a electionPath on \a client, in
    one transaction. Advisory: by the time it is read, it may have changed.
*/
EtcdParticipantsReply *Etcd::electionParticipants(
    EtcdClient *client, const QByteArray &electionPath)
{
    auto *reply = new EtcdParticipantsReply(client);
    auto *d = EtcdReplyPrivate::get(reply);
    if (!client || electionPath.isEmpty()) {
        d->finishLater(
            EtcdStatus(client ? Etcd::ErrorCode::InvalidArgument : Etcd::ErrorCode::NotConnected,
                client ? EtcdParticipantsReply::tr("empty election path")
                       : EtcdParticipantsReply::tr("no client")));
        return reply;
    }
    EtcdTxn txn;
    txn.success = {EtcdTxnOp::get(RecipePaths::leaderKey(electionPath)),
        EtcdTxnOp::get(participantsPrefix(electionPath), prefixRange())};
    EtcdTxnReply *read = client->txn(txn);
    QObject::connect(reply, &EtcdReply::finished, read, &EtcdReply::abort);
    QObject::connect(read, &EtcdReply::finished, reply, [reply, read](const EtcdStatus &s) {
        auto *d = EtcdReplyPrivate::get(reply);
        const auto results = read->results();
        if (!s.isOk() || results.size() != 2)
            return d->finish(
                s.isOk() ? EtcdStatus(Etcd::ErrorCode::Internal, QStringLiteral("short txn")) : s);
        const auto &held = results.at(0).keyValues;
        const QString leader
            = held.isEmpty() ? QString() : RecipePaths::stripUniqueSuffix(held.first().value);
        QList<EtcdParticipant> list;
        for (const EtcdKeyValue &kv : results.at(1).keyValues) {
            const QString id = QString::fromUtf8(kv.value);
            list.append({id, !leader.isEmpty() && id == leader});
        }
        EtcdParticipantsReplyAccess::fill(reply, std::move(list), leader);
        ReplyData data;
        data.revision = read->revision();
        d->finish(s, std::move(data));
    });
    return reply;
}

/*!
    \class EtcdParticipantsModel
    \inmodule EtcdQt
    \brief The candidates of one election as a live list model (roles \c clientId and
    \c isLeader), for views and dashboards.

    start() reads the participant keys and LEADER, then follows them with one watch on the
    election's prefix, anchored at the read's revision plus one; rows are inserted and
    removed one by one (no reset per change), and the leader's row changes its \c isLeader
    role. When the watch's history is compacted away it re-reads and reconciles.
*/

class EtcdParticipantsModelPrivate
{
public:
    void read(bool first);
    void follow(qint64 revision);
    void reconcile(const QList<EtcdKeyValue> &participants, const QString &leaderId);
    void setLeader(const QString &id);
    void add(const QString &id);
    void removeId(const QString &id);
    void onEvents(const QList<EtcdWatchEvent> &events);
    int rowOf(const QString &id) const;

    EtcdParticipantsModel *q = nullptr;
    QPointer<EtcdClient> client;
    QByteArray path;
    QByteArray prefix; // "<path>/participants/"
    QByteArray leaderKey;
    QStringList ids; // sorted: key order
    QString leaderId;
    std::unique_ptr<EtcdWatch> watch;
    bool running = false;
};

// ids is kept sorted: a binary search, as each event looks a row up (1,000 participants: a
// linear search per event was 1,000 string compares).
int EtcdParticipantsModelPrivate::rowOf(const QString &id) const
{
    const auto it = std::lower_bound(ids.cbegin(), ids.cend(), id);
    return it != ids.cend() && *it == id ? int(it - ids.cbegin()) : -1;
}

void EtcdParticipantsModelPrivate::setLeader(const QString &id)
{
    if (leaderId == id)
        return;
    const QString old = std::exchange(leaderId, id);
    for (const QString &changed : {old, id}) {
        if (const int row = rowOf(changed); row >= 0)
            Q_EMIT q->dataChanged(
                q->index(row), q->index(row), {EtcdParticipantsModel::IsLeaderRole});
    }
    Q_EMIT q->leaderChanged(id);
}

void EtcdParticipantsModelPrivate::add(const QString &id)
{
    if (rowOf(id) >= 0)
        return;
    const int row = int(std::lower_bound(ids.cbegin(), ids.cend(), id) - ids.cbegin());
    q->beginInsertRows({}, row, row);
    ids.insert(row, id);
    q->endInsertRows();
    Q_EMIT q->countChanged();
}

void EtcdParticipantsModelPrivate::removeId(const QString &id)
{
    const int row = rowOf(id);
    if (row < 0)
        return;
    q->beginRemoveRows({}, row, row);
    ids.removeAt(row);
    q->endRemoveRows();
    Q_EMIT q->countChanged();
}

void EtcdParticipantsModelPrivate::reconcile(const QList<EtcdKeyValue> &kvs, const QString &leader)
{
    QStringList now;
    for (const EtcdKeyValue &kv : kvs)
        now.append(QString::fromUtf8(kv.key.mid(prefix.size())));
    const QSet<QString> present(now.cbegin(), now.cend());
    for (const QString &id : QStringList(ids)) {
        if (!present.contains(id))
            removeId(id);
    }
    for (const QString &id : std::as_const(now))
        add(id);
    setLeader(leader);
}

void EtcdParticipantsModelPrivate::read(bool first)
{
    EtcdTxn txn;
    txn.success = {EtcdTxnOp::get(leaderKey), EtcdTxnOp::get(prefix, prefixRange())};
    EtcdTxnReply *reply = txnOn(client, txn); // no client: failed() on the next turn
    QObject::connect(reply, &EtcdReply::finished, q, [this, reply, first](const EtcdStatus &s) {
        const auto results = reply->results();
        if (!s.isOk() || results.size() != 2) {
            running = false;
            return Q_EMIT q->failed(s);
        }
        const auto &held = results.at(0).keyValues;
        reconcile(results.at(1).keyValues,
            held.isEmpty() ? QString() : RecipePaths::stripUniqueSuffix(held.first().value));
        if (!first)
            return watch->resync(reply->revision() + 1);
        follow(reply->revision() + 1);
    });
}

// A model has no connection state to report: the watch resumes on its own, and only a
// compacted gap (a re-read and reconcile) or a failure is the model's business.
void EtcdParticipantsModelPrivate::follow(qint64 revision)
{
    WatchFollower f;
    f.events = [this](const QList<EtcdWatchEvent> &events) { onEvents(events); };
    f.active = [this] {
        if (std::exchange(running, false))
            Q_EMIT q->started();
    };
    f.reconnected = [this](qint64 compactedAt) {
        if (compactedAt > 0)
            read(false);
    };
    f.failed = [this](const EtcdStatus &why) { Q_EMIT q->failed(why); };
    EtcdWatchOptions o;
    o.prefix = true;
    o.startRevision = revision;
    watch = RecipeLayer::followWatch(client, q, RecipePaths::appendToPath(path, QByteArray()), o,
        EtcdWatch::ResyncMode::AwaitResync, std::move(f));
}

void EtcdParticipantsModelPrivate::onEvents(const QList<EtcdWatchEvent> &events)
{
    for (const EtcdWatchEvent &e : events) {
        const bool deleted = e.type == EtcdWatchEvent::Type::Delete;
        if (e.keyValue.key == leaderKey)
            setLeader(deleted ? QString() : RecipePaths::stripUniqueSuffix(e.keyValue.value));
        else if (e.keyValue.key.startsWith(prefix) && deleted)
            removeId(QString::fromUtf8(e.keyValue.key.mid(prefix.size())));
        else if (e.keyValue.key.startsWith(prefix))
            add(QString::fromUtf8(e.keyValue.key.mid(prefix.size())));
    }
}

/*!
    Constructs a model of the election at \a electionPath on \a client; start() fills it. The object
    is a child of \a parent.
*/
EtcdParticipantsModel::EtcdParticipantsModel(
    EtcdClient *client, const QByteArray &electionPath, QObject *parent)
    : QAbstractListModel(parent), d_ptr(new EtcdParticipantsModelPrivate)
{
    Q_D(EtcdParticipantsModel);
    d->q = this;
    d->client = client;
    d->path = electionPath;
    d->prefix = participantsPrefix(electionPath);
    d->leaderKey = RecipePaths::leaderKey(electionPath);
}

EtcdParticipantsModel::~EtcdParticipantsModel() = default;

/*! \property EtcdParticipantsModel::leader
    The leader's client id; empty when vacant. */
QString EtcdParticipantsModel::leader() const
{
    return d_func()->leaderId;
}

/*! The number of participants (\a parent must be invalid). */
int EtcdParticipantsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(d_func()->ids.size());
}

/*! The client id or leader flag (\a role) of the participant at \a index. */
QVariant EtcdParticipantsModel::data(const QModelIndex &index, int role) const
{
    Q_D(const EtcdParticipantsModel);
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const QString &id = d->ids.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
    case ClientIdRole:
        return id;
    case IsLeaderRole:
        return !d->leaderId.isEmpty() && id == d->leaderId;
    default:
        return {};
    }
}

/*! \c clientId and \c isLeader, for QML delegates. */
QHash<int, QByteArray> EtcdParticipantsModel::roleNames() const
{
    return {{ClientIdRole, "clientId"}, {IsLeaderRole, "isLeader"}};
}

/*! Reads the election and starts following it; started() or failed() follows. */
void EtcdParticipantsModel::start()
{
    Q_D(EtcdParticipantsModel);
    if (d->running || d->watch)
        return;
    if (d->path.isEmpty()) {
        QTimer::singleShot(0, this, [this] {
            Q_EMIT failed(EtcdStatus(Etcd::ErrorCode::InvalidArgument, tr("empty election path")));
        });
        return;
    }
    d->running = true;
    d->read(true);
}

/*!
    \class EtcdParticipant
    \inmodule EtcdQt
    \brief One candidate of an election: its client id, and whether it leads.
*/

/*!
    \variable EtcdParticipant::clientId
    \brief the candidate's client id.
*/

/*!
    \variable EtcdParticipant::isLeader
    \brief whether the candidate holds the election's leadership key.
*/

/*!
    \property EtcdParticipant::clientId
    \brief the client id, for QML; the member of the same name.
*/

/*!
    \property EtcdParticipant::isLeader
    \brief whether it leads, for QML; the member of the same name.
*/

/*!
    \fn bool EtcdParticipant::operator==(const EtcdParticipant &a, const EtcdParticipant &b)
    Returns \c true if \a a and \a b have the same client id and leader flag.
*/

/*!
    \enum EtcdParticipantsModel::Role
    \value ClientIdRole the participant's client id (a string; QML name \c clientId)
    \value IsLeaderRole whether it leads (a bool; QML name \c isLeader)
*/

/*!
    \property EtcdParticipantsModel::count
    \brief the number of participants; rowCount().
*/

/*!
    \fn EtcdParticipantsModel::~EtcdParticipantsModel()
    Destroys the model and stops following the election.
*/

/*!
    \fn void EtcdParticipantsModel::started()
    Emitted once the first read filled the model and the watch follows the election.
*/

/*!
    \fn void EtcdParticipantsModel::failed(const EtcdStatus &reason)
    Emitted when the model stopped following the election for good, with \a reason.
*/
