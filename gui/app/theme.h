// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// Fusion with a light and a dark palette. Qt 6.4 has no colour-scheme API (6.5+), so the
// dark palette is our own; the choice is remembered in QSettings.
#pragma once

class QApplication;

namespace Inspector {

void applyTheme(bool dark);
bool savedThemeIsDark();
void saveTheme(bool dark);

} // namespace Inspector
