// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// The one monotonic time base of the inspector: LeaseClock samples are stamped with it by the
// session and read back with it by the models, so both must use the same clock.
#pragma once

#include <QtCore/qglobal.h>

namespace Inspector {

// Milliseconds on std::chrono::steady_clock: never jumps with the wall clock (NTP, DST).
qint64 monotonicMs();

} // namespace Inspector
