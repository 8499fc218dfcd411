// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QtCore/qglobal.h>

// How often an election changed hands here: the metrics of one selector or latch.
struct EtcdElectionCounters
{
    quint64 acquired = 0; // terms won
    quint64 relinquished = 0; // terms ended, however they ended
    quint64 steppedDown = 0; // of those, ended because leadership was lost
};
