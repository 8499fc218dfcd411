// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// The inspector's command line, parsed and checked before any window exists.
#pragma once

#include "inspectorsession.h"

#include <QtCore/qstring.h>
#include <QtCore/qstringlist.h>

namespace Inspector {

struct LaunchOptions
{
    InspectorSession::Options session;
    QString profile; // a saved connection profile to start from
    bool readOnly = true;
    bool sandbox = false;
    QString lang; // empty: the system locale
    QString theme; // "light", "dark", or empty: as last chosen
    QString screenshotDir; // headless capture of every view, then exit
    bool connectNow = false; // endpoints or a profile were given
};

// Parses argv; on bad input returns false with a message for stderr (and the usage).
bool parseLaunchOptions(const QStringList &arguments, LaunchOptions *out, QString *error);

} // namespace Inspector
