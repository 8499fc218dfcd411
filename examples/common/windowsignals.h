// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// Shared by the QML examples: SIGINT/SIGTERM close the windows, as the window manager would,
// so a signal ends the example the same clean way as closing it (its leases revoked as its
// window goes). Header-only: each example stays buildable on its own.
#pragma once

#include "stopsignals.h"

#include <QtGui/qguiapplication.h>
#include <QtGui/qwindow.h>

namespace ExampleUtil {

inline void closeWindowsOnSignals(QGuiApplication &app)
{
    onStopSignals(&app, [] {
        const QWindowList windows = QGuiApplication::topLevelWindows();
        for (QWindow *window : windows)
            window->close();
    });
}

} // namespace ExampleUtil
