// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// Shared by the examples: SIGINT and SIGTERM (Ctrl+C, kill) end an example through its event
// loop, the same clean way as its timer or its window does (its leases revoked), and a second
// signal ends it at once. Header-only: each example stays buildable on its own.
#pragma once

#include <QtCore/qobject.h>
#include <QtCore/qsocketnotifier.h>
#include <QtCore/qtimer.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <functional>

#include <unistd.h>

namespace ExampleUtil {

inline int g_stopPipe[2] = {-1, -1};

// Calls `stop` in `context`'s thread on the first SIGINT or SIGTERM. A signal handler may
// only write a byte; a socket notifier on the pipe's other end does the rest.
inline void onStopSignals(QObject *context, std::function<void()> stop)
{
    if (::pipe(g_stopPipe) != 0)
        return;
    auto *notifier = new QSocketNotifier(g_stopPipe[0], QSocketNotifier::Read, context);
    QObject::connect(notifier, &QSocketNotifier::activated, context, [notifier, stop] {
        char byte = 0;
        if (::read(g_stopPipe[0], &byte, 1) != 1)
            return;
        notifier->setEnabled(false); // stopping once is enough
        std::signal(SIGINT, SIG_DFL);
        std::signal(SIGTERM, SIG_DFL);
        stop();
    });
    const auto handler = [](int) {
        const int savedErrno = errno; // the interrupted code may be about to read it
        const char byte = 1;
        [[maybe_unused]] const auto written = ::write(g_stopPipe[1], &byte, 1);
        errno = savedErrno;
    };
    std::signal(SIGINT, handler);
    std::signal(SIGTERM, handler);
}

// As onStopSignals(), and after `seconds` too (0: only on a signal), for a run of fixed length.
inline void stopOnSignalsOrAfter(QObject *context, int seconds, const std::function<void()> &stop)
{
    onStopSignals(context, stop);
    if (seconds > 0)
        QTimer::singleShot(std::chrono::seconds(seconds), context, stop);
}

} // namespace ExampleUtil
