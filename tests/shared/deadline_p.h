// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
//  W A R N I N G: internal header, not part of the EtcdQt test kit's API.
#pragma once

#include <QtCore/qdeadlinetimer.h>

#include <algorithm>
#include <chrono>

namespace EtcdTestKitInternal {

// What is left of `deadline`, never negative: the budget of the next wait.
inline std::chrono::milliseconds remaining(const QDeadlineTimer &deadline)
{
    return std::chrono::milliseconds(std::max<qint64>(0, deadline.remainingTime()));
}

} // namespace EtcdTestKitInternal
