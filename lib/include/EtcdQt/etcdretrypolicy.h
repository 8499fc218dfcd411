// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <EtcdQt/etcdqtglobal.h>

#include <chrono>
#include <limits>
#include <optional>

class ETCDQT_EXPORT EtcdRetryPolicy
{
public:
    using Duration = std::chrono::milliseconds;
    enum class Kind { Never, Fixed, Exponential };

    static EtcdRetryPolicy exponentialBackoff(Duration initialDelay = Duration(250),
        Duration maxDelay = Duration(15000), double factor = 2.0, double jitterRatio = 0.25,
        int maxAttempts = std::numeric_limits<int>::max(), Duration maxElapsed = Duration::max());
    static EtcdRetryPolicy bounded(int maxAttempts, Duration delay = Duration(500));
    static EtcdRetryPolicy unbounded(); // etcd-recipes: "forever" (a Qt macro)
    static EtcdRetryPolicy never();

    [[nodiscard]] std::optional<Duration> nextDelay(int attempt, Duration elapsed) const;
    [[nodiscard]] std::optional<Duration> nextDelay(
        int attempt, Duration elapsed, double unitRandom) const;

    [[nodiscard]] Kind kind() const noexcept { return m_kind; }
    [[nodiscard]] bool isValid() const noexcept { return m_valid; }
    [[nodiscard]] int maxAttempts() const noexcept { return m_maxAttempts; }
    [[nodiscard]] Duration initialDelay() const noexcept { return m_initial; }
    [[nodiscard]] Duration maxDelay() const noexcept { return m_max; }
    [[nodiscard]] Duration maxElapsed() const noexcept { return m_maxElapsed; }
    [[nodiscard]] double factor() const noexcept { return m_factor; }
    [[nodiscard]] double jitterRatio() const noexcept { return m_jitter; }

private:
    Kind m_kind = Kind::Never;
    bool m_valid = true;
    int m_maxAttempts = 0;
    Duration m_initial {0};
    Duration m_max {0};
    Duration m_maxElapsed = Duration::max();
    double m_factor = 1.0;
    double m_jitter = 0.0;
};

// Kept for the includes written when these types shared this header. Last, after
// EtcdRetryPolicy, because both include this header back.
#include <EtcdQt/etcdleaseresilience.h>
#include <EtcdQt/etcdrpcresilience.h>
