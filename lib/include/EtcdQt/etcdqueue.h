// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <EtcdQt/etcdabstractqueue.h>

#include <QtCore/qlist.h>

// A FIFO queue ordered by mod revision, in etcd-recipes' DistributedQueue layout:
// "<path>/<millis %019d>-<3 random>" per item, "<path>/<millis %019d>-<index %05d>-<3 random>"
// per item of one enqueueAll(), the raw value bytes, no lease.
class ETCDQT_EXPORT EtcdQueue : public EtcdAbstractQueue
{
    Q_OBJECT
public:
    EtcdQueue(EtcdClient *client, const QByteArray &path, QObject *parent = nullptr);
    ~EtcdQueue() override;

    EtcdReply *enqueue(const QByteArray &value);
    EtcdReply *enqueueAll(const QList<QByteArray> &values);

protected:
    void putBack(const QByteArray &key, const QByteArray &value) override;
};
