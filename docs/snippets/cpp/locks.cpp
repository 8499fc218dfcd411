// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "snippets.h"

#include <EtcdQt/EtcdQt>

#include <QtCore/qdebug.h>
#include <QtCore/qthreadpool.h>

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

namespace snippets {

EtcdMutex *appendUnderLock(EtcdClient *client, QObject *owner)
{
    //! [mutex]
    // The mutex lives in this thread; lock() and unlock() block, so a worker calls them.
    // The lock alone is advisory: the write that must not interleave is guarded by the
    // hold's fencing token, so it fails if the hold was lost meanwhile.
    auto *mutex = new EtcdMutex(client, "/locks/ledger"_ba, {}, owner);
    QThreadPool::globalInstance()->start([mutex] {
        if (!mutex->lock())
            return;
        EtcdTxn append;
        append.success = {EtcdTxnOp::put("/ledger/next"_ba, "entry-1"_ba)};
        EtcdStatus why;
        if (!mutex->commitGuarded(append, 2s, &why))
            qWarning() << "not written:" << why.toString();
        mutex->unlock(); // false if the hold was lost: nothing was left to release
    });
    //! [mutex]
    return mutex;
}

EtcdMutex *lockFromTheGuiThread(EtcdClient *client, QObject *owner)
{
    //! [acquire]
    // The same lock without blocking, for a GUI thread: acquire(), then acquired().
    auto *mutex = new EtcdMutex(client, "/locks/ledger"_ba, {}, owner);
    QObject::connect(mutex, &EtcdMutex::acquired, owner, [mutex] {
        EtcdTxn append;
        append.success = {EtcdTxnOp::put("/ledger/next"_ba, "entry-2"_ba)};
        EtcdTxnReply *reply = mutex->guardedTxn(append);
        QObject::connect(reply, &EtcdReply::finished, mutex, [mutex] { mutex->release(); });
    });
    QObject::connect(mutex, &EtcdMutex::lockLost, owner,
        [](const EtcdStatus &why) { qWarning() << "lock lost:" << why.toString(); });
    mutex->acquire();
    //! [acquire]
    return mutex;
}

EtcdSemaphore *twoAtATime(EtcdClient *client, QObject *owner)
{
    //! [semaphore]
    // At most two holders across every process; a third waits for a permit.
    auto *uploads = new EtcdSemaphore(client, "/semaphores/uploads"_ba, 2, {}, owner);
    QThreadPool::globalInstance()->start([uploads] {
        if (!uploads->tryAcquire(10s))
            return; // no permit within 10 s: nothing is left behind in etcd
        // Upload, checking uploads->remainingValidity() before each chunk.
        qInfo() << "uploading under permit" << uploads->fencingToken().key;
        uploads->release();
    });
    //! [semaphore]
    return uploads;
}

EtcdReadWriteLock *readersAndAWriter(EtcdClient *client, QObject *owner)
{
    //! [rwlock]
    // Readers share the lock; a writer holds it alone. A reader waits only for writers that
    // queued before it.
    auto *config = new EtcdReadWriteLock(client, "/locks/config"_ba, {}, owner);
    QThreadPool::globalInstance()->start([config] {
        if (!config->lockForWrite())
            return;
        EtcdTxn update;
        update.success = {EtcdTxnOp::put("/config/version"_ba, "7"_ba)};
        config->commitGuarded(update, 2s);
        config->unlock();
    });
    //! [rwlock]
    return config;
}

} // namespace snippets
