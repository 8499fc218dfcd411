// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "modelstyle.h"

#include <QtGui/qbrush.h>
#include <QtGui/qfont.h>
#include <QtGui/qguiapplication.h>
#include <QtGui/qpalette.h>
#include <QtGui/qtextdocument.h>

namespace Inspector::ModelStyle {

QVariant anomaly()
{
    return QBrush(QColor(0xe0, 0x3c, 0x3c));
}

QVariant muted()
{
    // Read at paint time: the window may switch between the light and the dark palette.
    return QBrush(QGuiApplication::palette().color(QPalette::Disabled, QPalette::Text));
}

QVariant bold()
{
    QFont font;
    font.setBold(true);
    return font;
}

QVariant italic()
{
    QFont font;
    font.setItalic(true);
    return font;
}

QVariant highlight()
{
    return QBrush(QColor(0xff, 0xb0, 0x20, 0x50));
}

QString plainToolTip(const QString &text)
{
    return text.isEmpty() ? text : Qt::convertFromPlainText(text, Qt::WhiteSpaceNormal);
}

} // namespace Inspector::ModelStyle
