// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <EtcdQt/etcdtxn.h>

#include <QtCore/qobjectdefs.h>

// What proves one ownership (a leadership term, a lock hold, a permit) to etcd: the key that
// holds it, the lease behind it, and the key's create revision, which no later owner can share.
struct ETCDQT_EXPORT EtcdFencingToken
{
    Q_GADGET
    Q_PROPERTY(QByteArray key MEMBER key)
    Q_PROPERTY(qint64 leaseId MEMBER leaseId)
    Q_PROPERTY(qint64 revision MEMBER revision)
    Q_PROPERTY(bool valid READ isValid)
public:
    QByteArray key {};
    qint64 leaseId = 0;
    qint64 revision = 0; // the key's create revision; 0: no ownership

    [[nodiscard]] bool isValid() const noexcept { return revision > 0 && !key.isEmpty(); }
    [[nodiscard]] EtcdTxn guard(EtcdTxn txn) const;

    friend bool operator==(const EtcdFencingToken &a, const EtcdFencingToken &b) noexcept
    {
        return a.key == b.key && a.leaseId == b.leaseId && a.revision == b.revision;
    }
};
