// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// Shared by the Qt Quick examples: a screenshot of the window as it closes (for their
// offscreen tests and READMEs) and their translations (embedded under :/i18n). Header-only:
// each example stays buildable on its own.
#pragma once

#include <QtCore/qcoreapplication.h>
#include <QtCore/qlocale.h>
#include <QtCore/qtranslator.h>
#include <QtGui/qimage.h>
#include <QtQuick/qquickwindow.h>

namespace ExampleUtil {

// Saves the window to `file` when it is asked to close, as it looks then.
class ScreenshotOnClose : public QObject
{
public:
    ScreenshotOnClose(QQuickWindow *window, const QString &file)
        : QObject(window), m_window(window), m_file(file)
    {
        window->installEventFilter(this);
    }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (watched == m_window && event->type() == QEvent::Close && !m_saved) {
            m_saved = true;
            if (!m_window->grabWindow().save(m_file))
                qWarning("%s: could not save %s",
                    qUtf8Printable(QCoreApplication::applicationName()), qUtf8Printable(m_file));
        }
        return false;
    }

private:
    QQuickWindow *m_window;
    QString m_file;
    bool m_saved = false;
};

// `name`_<language>.qm from :/i18n, for `language` (empty: the system's locale).
inline void installTranslator(QCoreApplication &app, const QString &name, const QString &language)
{
    const QLocale locale = language.isEmpty() ? QLocale() : QLocale(language);
    auto *translator = new QTranslator(&app);
    if (translator->load(locale, name, QStringLiteral("_"), QStringLiteral(":/i18n")))
        QCoreApplication::installTranslator(translator);
}

} // namespace ExampleUtil
