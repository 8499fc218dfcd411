// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "snippets.h"

#include <EtcdQt/EtcdQt>

#include <QtCore/qdebug.h>
#include <QtCore/qthreadpool.h>

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;

namespace snippets {

EtcdAtomicCounter *countRequests(EtcdClient *client, QObject *owner)
{
    //! [counter]
    // A 64-bit number at one key. Every change is a compare-and-set that answers the value
    // it committed, so no two increments, from any processes, answer the same value.
    auto *requests = new EtcdAtomicCounter(client, "/counters/requests"_ba, 0, owner);
    EtcdValueReply *reply = requests->increment();
    QObject::connect(reply, &EtcdReply::finished, owner, [reply](const EtcdStatus &status) {
        if (status.isOk())
            qInfo() << "request number" << reply->value();
    });
    //! [counter]
    return requests;
}

void takeTicketOnWorker(EtcdAtomicCounter *counter)
{
    //! [addAndWait]
    // The blocking form, on a worker thread.
    QThreadPool::globalInstance()->start([counter] {
        EtcdStatus why;
        if (const std::optional<qint64> ticket = counter->addAndWait(1, 2s, &why))
            qInfo() << "ticket" << *ticket;
        else
            qWarning() << "no ticket:" << why.toString();
    });
    //! [addAndWait]
}

} // namespace snippets
