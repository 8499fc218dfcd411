// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
// The user guide's C++ snippets (docs/src/*.qdoc quote them with \snippet). Each function
// is one example, written as an application would; tests/docs/tst_docsnippets.cpp runs them
// against a real etcd and checks what they did, so a snippet that no longer compiles, or no
// longer does what its page says, fails the build or the test.
#pragma once

#include <QtCore/qbytearray.h>
#include <QtCore/qobject.h>

#include <chrono>
#include <functional>
#include <memory>

class EtcdAtomicCounter;
class EtcdBarrier;
class EtcdClient;
class EtcdCountDownLatch;
class EtcdCountedBarrier;
class EtcdDoubleBarrier;
class EtcdElection;
class EtcdKeepAlive;
class EtcdLeaderLatch;
class EtcdLeaderObserver;
class EtcdLeaderSelector;
class EtcdLeasedKeys;
class EtcdMutex;
class EtcdNodeCache;
class EtcdPrometheusExporter;
class EtcdPathChildrenCache;
class EtcdPathChildrenModel;
class EtcdPriorityQueue;
class EtcdQueue;
class EtcdReadWriteLock;
class EtcdSelfHealingKeepAlive;
class EtcdSemaphore;
class EtcdTransientKeyValue;
class EtcdWorkQueue;
class QTranslator;
class QUrl;
struct EtcdJsonCodec;
template <class Codec>
class EtcdTypedPathChildrenCache;

namespace snippets {

// Leases (leases.cpp)
void grantAndBind(EtcdClient *client);
void renewWhileWorking(EtcdClient *client, qint64 leaseId, const std::function<void()> &work);
EtcdKeepAlive *renewUntilStopped(EtcdClient *client, qint64 leaseId, QObject *owner);
void revoke(EtcdClient *client, qint64 leaseId);
EtcdLeasedKeys *registerWorker(EtcdClient *client, QObject *owner);
EtcdLeasedKeys *registerHostAndPort(EtcdClient *client, QObject *owner);

// Leases and loss (leasesandloss.cpp)
EtcdSelfHealingKeepAlive *ownKeyThatHeals(EtcdClient *client, QObject *owner);
EtcdTransientKeyValue *announcePresence(EtcdClient *client, QObject *owner);
bool startIfLeaseLastsFor(EtcdMutex *mutex, std::chrono::milliseconds work);

// Leader election (election.cpp)
EtcdLeaderSelector *runReportsWhileLeading(EtcdClient *client, QObject *owner);
EtcdLeaderSelector *leadUntilResigned(EtcdClient *client, QObject *owner);
EtcdLeaderLatch *holdLeadership(EtcdClient *client, QObject *owner);
EtcdLeaderObserver *watchWhoLeads(EtcdClient *client, QObject *owner);
void listCandidates(EtcdClient *client, QObject *owner);
void writeAsLeader(EtcdLeaderLatch *latch);

// etcd's own election (etcdelection.cpp)
EtcdElection *campaignWithGo(EtcdClient *client, QObject *owner);
EtcdElection *followIngestLeader(EtcdClient *client, QObject *owner);

// Locks and fencing (locks.cpp)
EtcdMutex *appendUnderLock(EtcdClient *client, QObject *owner);
EtcdMutex *lockFromTheGuiThread(EtcdClient *client, QObject *owner);
EtcdSemaphore *twoAtATime(EtcdClient *client, QObject *owner);
EtcdReadWriteLock *readersAndAWriter(EtcdClient *client, QObject *owner);

// Barriers and latches (barriers.cpp)
EtcdBarrier *holdTheGate(EtcdClient *client, QObject *owner);
EtcdBarrier *waitAtTheGate(EtcdClient *client, QObject *owner);
EtcdCountedBarrier *meetBeforeSwitching(EtcdClient *client, int members, QObject *owner);
EtcdDoubleBarrier *runPhaseInStep(EtcdClient *client, int members, QObject *owner);
EtcdCountDownLatch *waitForWorkers(EtcdClient *client, int workers, QObject *owner);

// Counters (counters.cpp)
EtcdAtomicCounter *countRequests(EtcdClient *client, QObject *owner);
void takeTicketOnWorker(EtcdAtomicCounter *counter);

// Caches (caches.cpp)
EtcdNodeCache *followMaintenanceFlag(EtcdClient *client, QObject *owner);
EtcdPathChildrenCache *followWorkers(EtcdClient *client, QObject *owner);
EtcdPathChildrenModel *workersModel(EtcdPathChildrenCache *workers, QObject *owner);
std::unique_ptr<EtcdTypedPathChildrenCache<EtcdJsonCodec>> followServices(
    EtcdClient *client, QObject *owner);

// Queues (queues.cpp)
EtcdQueue *sendMail(EtcdClient *client, QObject *owner);
EtcdPriorityQueue *urgentFirst(EtcdClient *client, QObject *owner);
void sendMailOnWorker(EtcdQueue *mail);
EtcdWorkQueue *makeThumbnails(EtcdClient *client, QObject *owner);
void remindLater(EtcdWorkQueue *jobs);
void reviewDeadLetters(EtcdWorkQueue *jobs);
void drainOnWorker(EtcdWorkQueue *jobs);

// Metrics and translations (observability.cpp)
EtcdPrometheusExporter *serveMetrics(EtcdClient *client, quint16 port, QObject *owner);
bool speakTheUsersLanguage();
bool loadFrench(QTranslator &translator);

// The command line (cli.cpp)
void addWithTheCli(const QString &etcdqt, const QUrl &endpoint, QObject *owner);

} // namespace snippets
