// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <EtcdQt/etcdabstractqueue.h>

#include <memory>

class EtcdPriorityQueuePrivate;

// A queue taken lowest priority number first, then in enqueue order, in etcd-recipes'
// DistributedPriorityQueue layout: "<path>/<priority %05d>/<seq %016d>" per item, and the
// marker "__<path>/<priority %05d>" that orders concurrent enqueues at one priority.
class ETCDQT_EXPORT EtcdPriorityQueue : public EtcdAbstractQueue
{
    Q_OBJECT
public:
    static constexpr int kMaxPriority = 65535;

    EtcdPriorityQueue(EtcdClient *client, const QByteArray &path, QObject *parent = nullptr);
    ~EtcdPriorityQueue() override;

    // `priority` 0 (first) .. 65535; the reply's status says InvalidArgument outside it.
    EtcdReply *enqueue(const QByteArray &value, int priority);

protected:
    void putBack(const QByteArray &key, const QByteArray &value) override;

private:
    std::unique_ptr<EtcdPriorityQueuePrivate> const d_ptr;
};
