// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
//  W A R N I N G: internal header, not part of the EtcdQt API.
#pragma once

#include "etcdqt_internal_p.h"
#include "recipelayer_p.h"

#include <QtCore/qhash.h>
#include <QtCore/qobject.h>
#include <QtCore/qpointer.h>

#include <memory>
#include <vector>

class EtcdClient;
class EtcdWatch;
struct EtcdWatchEvent;

namespace Etcd::Internal {

// Who is registered (clientId -> create revision of its participant key) and those revisions
// sorted, so that a place in line is a binary search: at each vacancy a LeaderView asks for
// the place of every candidate it serves, and a count over all participants made that n^2
// per hand-off (1,000 candidates: a tenth of the hand-off's CPU in bench/run --scale).
class ETCDQT_AUTOTEST_EXPORT ParticipantOrder
{
public:
    void insert(const QString &id, qint64 createRevision);
    void remove(const QString &id);
    void clear();
    // `self`'s place among the candidates other than `leader` (0: first, or unknown).
    [[nodiscard]] int place(const QString &self, const QString &leader) const;

private:
    [[nodiscard]] int below(qint64 revision) const;

    QHash<QString, qint64> m_created;
    std::vector<qint64> m_sorted; // the values of m_created, ascending
};

// The candidates of one election in the order they registered (their participant keys'
// create revisions), kept by one prefix watch. When LEADER is vacated, only the first in this
// queue tries at once; the first of each other process's candidates waits a few milliseconds
// per place and gives up when the new leader's key appears (LeaderView). So a hand-off among
// N candidates costs one compare-and-set, not N, and the first candidate is not slowed.
// Advisory only: the compare-and-set decides, and a queue that is stale or unknown only means
// an extra attempt or a short wait.
class ParticipantQueue : public QObject
{
public:
    ParticipantQueue(EtcdClient *client, const QByteArray &electionPath);
    ~ParticipantQueue() override;

    // The queue of `electionPath` that every candidate of `client` in this thread shares: one
    // watch and one order for all, not one each. With one each, a thousand candidates in one
    // process took a thousand deliveries of every join and leave, and every rejoin re-read the
    // whole queue (bench/run --scale: a third of a hand-off's CPU).
    static std::shared_ptr<ParticipantQueue> sharedFor(
        EtcdClient *client, const QByteArray &electionPath);

    // Reads the queue and follows it, unless it is already (a failed read is tried again here).
    void start();
    // `self`'s place among the candidates other than `leader` (0: first, or unknown).
    [[nodiscard]] int placeOf(const QString &self, const QString &leader) const;

private:
    void read(bool resync);
    void follow(qint64 revision);
    void onEvents(const QList<EtcdWatchEvent> &events);

    QPointer<EtcdClient> m_client;
    const EtcdClient *const m_key; // the client's address: its key among the shared queues
    const QByteArray m_path;
    QByteArray m_prefix;
    bool m_reading = false;
    ParticipantOrder m_order;
    std::unique_ptr<EtcdWatch> m_watch;
};

} // namespace Etcd::Internal
