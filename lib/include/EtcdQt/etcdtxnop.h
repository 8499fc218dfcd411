// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <EtcdQt/etcddeleteoptions.h>
#include <EtcdQt/etcdputoptions.h>
#include <EtcdQt/etcdrangeoptions.h>

#include <QtCore/qbytearray.h>

struct ETCDQT_EXPORT EtcdTxnOp
{
    enum class Type { Range, Put, Delete };

    Type type = Type::Range;
    QByteArray key;
    QByteArray value;
    EtcdRangeOptions rangeOptions;
    EtcdPutOptions putOptions;
    EtcdDeleteOptions deleteOptions;

    static EtcdTxnOp get(const QByteArray &key, const EtcdRangeOptions &options = {});
    static EtcdTxnOp put(
        const QByteArray &key, const QByteArray &value, const EtcdPutOptions &options = {});
    static EtcdTxnOp remove(const QByteArray &key, const EtcdDeleteOptions &options = {});
};
