// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// The few colours and fonts the models hand to views. Colours that read on both the light and
// the dark Fusion palette, so a palette switch needs no model change.
#pragma once

#include <QtCore/qvariant.h>

namespace Inspector::ModelStyle {

inline constexpr qsizetype kToolTipChars = 4000; // a tool tip shows the whole value, within reason

QVariant anomaly(); // QBrush: red, for anomalies
QVariant muted(); // QBrush: the palette's disabled text, for waiters and backfilled rows
QVariant bold(); // QFont: leaders and holders
QVariant italic(); // QFont: backfilled rows
QVariant highlight(); // QBrush: a translucent amber background, for flapping elections

// A tool tip that shows `text` as it is. Qt renders a tool tip as rich text when it merely
// looks like HTML (Qt::mightBeRichText), and tool tips hold etcd's keys and values: a path
// such as "<a href=x>Cancel</a>" would show as a link. Converted here, it reads literally.
QString plainToolTip(const QString &text);

} // namespace Inspector::ModelStyle
