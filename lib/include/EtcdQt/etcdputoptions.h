// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QtCore/qglobal.h>

struct EtcdPutOptions
{
    qint64 lease = 0;
    bool prevKv = false;
};
