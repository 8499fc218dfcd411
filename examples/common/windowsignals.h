// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// Shared by the QML examples: SIGINT/SIGTERM close the windows, as the window manager would,
// so a signal ends the example the same clean way as closing it (its leases revoked as its
// window goes). Header-only: each example stays buildable on its own.
#pragma once

#include <QtCore/qsocketnotifier.h>
#include <QtGui/qguiapplication.h>
#include <QtGui/qwindow.h>

#include <csignal>

#include <sys/socket.h>
#include <unistd.h>

namespace ExampleUtil {

// The handler may only write a byte; the event loop does the closing.
inline int g_signalPipe[2] = {-1, -1};

inline void closeWindowsOnSignals(QGuiApplication &app)
{
    if (::socketpair(AF_UNIX, SOCK_STREAM, 0, g_signalPipe) != 0)
        return;
    auto *notifier = new QSocketNotifier(g_signalPipe[0], QSocketNotifier::Read, &app);
    QObject::connect(notifier, &QSocketNotifier::activated, &app, [notifier] {
        char byte = 0;
        if (::read(g_signalPipe[0], &byte, 1) != 1)
            return;
        notifier->setEnabled(false);
        std::signal(SIGINT, SIG_DFL); // a second signal ends it at once
        std::signal(SIGTERM, SIG_DFL);
        const QWindowList windows = QGuiApplication::topLevelWindows();
        for (QWindow *window : windows)
            window->close();
    });
    const auto handler = [](int) {
        const char byte = 1;
        [[maybe_unused]] const auto written = ::write(g_signalPipe[1], &byte, 1);
    };
    std::signal(SIGINT, handler);
    std::signal(SIGTERM, handler);
}

} // namespace ExampleUtil
