// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <EtcdQt/etcdcompare.h>
#include <EtcdQt/etcdtxnop.h>

#include <QtCore/qlist.h>

struct EtcdTxn
{
    QList<EtcdCompare> compares {};
    QList<EtcdTxnOp> success {};
    QList<EtcdTxnOp> failure {};
};

// Kept for the includes written when these types shared this header.
#include <EtcdQt/etcdkeyvalue.h>
#include <EtcdQt/etcdtxnopresult.h>
