// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// The Overview's measures and colours, shared by its layout and its drawing.
#pragma once

#include <QtGui/qcolor.h>

namespace Inspector::OverviewMetrics {

inline constexpr int kGap = 10; // between cards, and around them
inline constexpr int kPad = 8; // inside a card
inline constexpr int kRadius = 6;
inline constexpr int kChipRows = 2;
inline constexpr int kChipGap = 4; // between chips, and between their rows
// TTL rings: plenty left, under half, due (readable on the light and the dark palette).
inline const QColor kGreen {0x3c, 0xa0, 0x5a};
inline const QColor kAmber {0xf0, 0xa0, 0x20};
inline const QColor kRed {0xe0, 0x3c, 0x3c};

} // namespace Inspector::OverviewMetrics
