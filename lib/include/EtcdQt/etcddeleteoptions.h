// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QtCore/qbytearray.h>

struct EtcdDeleteOptions
{
    bool prefix = false;
    QByteArray rangeEnd {};
    bool prevKv = false;
};
