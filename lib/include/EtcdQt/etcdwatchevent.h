// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <EtcdQt/etcdkeyvalue.h>

#include <QtCore/qmetatype.h>

struct ETCDQT_EXPORT EtcdWatchEvent
{
    Q_GADGET
    Q_PROPERTY(Type type MEMBER type)
    Q_PROPERTY(EtcdKeyValue keyValue MEMBER keyValue)
    Q_PROPERTY(EtcdKeyValue prevKeyValue MEMBER prevKeyValue)
    Q_PROPERTY(qint64 revision MEMBER revision)
public:
    enum class Type { Put, Delete };
    Q_ENUM(Type)

    Type type = Type::Put;
    EtcdKeyValue keyValue {};
    EtcdKeyValue prevKeyValue {}; // set when EtcdWatchOptions::prevKv asked for it
    qint64 revision = 0; // the revision of the change (keyValue.modRevision)
};
