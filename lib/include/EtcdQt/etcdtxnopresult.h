// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <EtcdQt/etcdkeyvalue.h>
#include <EtcdQt/etcdtxnop.h>

#include <QtCore/qlist.h>

/*
 * One operation's result inside a transaction: the key-values of a range, the previous
 * key-value of a put (when asked for), or the previous key-values of a delete.
 */
struct EtcdTxnOpResult
{
    EtcdTxnOp::Type type = EtcdTxnOp::Type::Range;
    QList<EtcdKeyValue> keyValues {};
    qint64 count = 0;
    bool more = false;
};
