// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// Shared by the Qt Quick examples: loading their Main.qml and running until the window
// closes, a screenshot of the window as it closes (for their offscreen tests and READMEs) and
// their translations (embedded under :/i18n). Header-only: each example stays buildable on
// its own (and ETCDQT_QML_IMPORT_PATH, set on an example's main.cpp in the tree, is seen here).
#pragma once

#include "stopsignals.h"

#include <QtCore/qcommandlineparser.h>
#include <QtCore/qcoreapplication.h>
#include <QtCore/qlocale.h>
#include <QtCore/qtranslator.h>
#include <QtCore/qvariantmap.h>
#include <QtGui/qguiapplication.h>
#include <QtGui/qimage.h>
#include <QtGui/qwindow.h>
#include <QtQml/qqmlapplicationengine.h>
#include <QtQuick/qquickwindow.h>

#include <memory>

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

// The options every translated Qt Quick example takes: etcd's URL, the example's path in
// etcd, the interface language and a screenshot as the window closes.
class QuickExampleOptions
{
public:
    QuickExampleOptions(const QString &pathHelp, const QString &defaultPath)
        : m_path(QStringLiteral("path"), pathHelp, QStringLiteral("path"), defaultPath)
    { }

    // Adds these options and the example's `own` to `parser`, reads the command line (exits
    // on a bad one) and installs the translation `translations`_<language>.
    void process(QCoreApplication &app, QCommandLineParser &parser,
        const QList<QCommandLineOption> &own, const QString &translations)
    {
        parser.addHelpOption();
        parser.addOptions({m_endpoint, m_path});
        parser.addOptions(own);
        parser.addOptions({m_language, m_screenshot});
        parser.process(app);
        m_parser = &parser;
        installTranslator(app, translations, parser.value(m_language));
    }

    [[nodiscard]] QString endpoint() const { return m_parser->value(m_endpoint); }
    [[nodiscard]] QString path() const { return m_parser->value(m_path); }
    [[nodiscard]] QString screenshot() const { return m_parser->value(m_screenshot); }

private:
    QCommandLineOption m_endpoint {QStringLiteral("endpoint"), QStringLiteral("etcd's URL."),
        QStringLiteral("url"), QStringLiteral("http://127.0.0.1:2379")};
    QCommandLineOption m_path;
    QCommandLineOption m_language {QStringLiteral("language"),
        QStringLiteral("The interface language (de, en, ...; default: the system's)."),
        QStringLiteral("lang")};
    QCommandLineOption m_screenshot {QStringLiteral("screenshot"),
        QStringLiteral("Save the window as this PNG when it closes."), QStringLiteral("file")};
    const QCommandLineParser *m_parser = nullptr;
};

// SIGINT/SIGTERM close the windows, as the window manager would, so a signal ends the
// example the same clean way as closing it (its leases revoked as its window goes).
inline void closeWindowsOnSignals(QGuiApplication &app)
{
    onStopSignals(&app, [] {
        const QWindowList windows = QGuiApplication::topLevelWindows();
        for (QWindow *window : windows)
            window->close();
    });
}

// Loads qrc:/<uri>/Main.qml with `properties` and runs until its window closes (SIGINT and
// SIGTERM close it too); with `screenshot`, the window is saved there as it closes. Returns
// the exit status: 1 when Main.qml could not be created.
inline int runQuickExample(QGuiApplication &app, const QString &uri, const QVariantMap &properties,
    const QString &screenshot = {})
{
    auto engine = std::make_unique<QQmlApplicationEngine>();
#ifdef ETCDQT_QML_IMPORT_PATH
    engine->addImportPath(QStringLiteral(ETCDQT_QML_IMPORT_PATH));
#endif
    engine->setInitialProperties(properties);
    QObject::connect(
        engine.get(), &QQmlApplicationEngine::objectCreationFailed, &app,
        [] { QCoreApplication::exit(1); }, Qt::QueuedConnection);
    // Qt 6.4 has no loadFromModule: the module's files are at qrc:/<URI>/.
    engine->load(QUrl(QStringLiteral("qrc:/") + uri + QStringLiteral("/Main.qml")));
    if (engine->rootObjects().isEmpty())
        return 1;
    auto *window = qobject_cast<QQuickWindow *>(engine->rootObjects().constFirst());
    if (window && !screenshot.isEmpty())
        new ScreenshotOnClose(window, screenshot);

    closeWindowsOnSignals(app);
    const int status = app.exec();
    // Closing the window ended the loop; destroying the items now revokes their leases (and
    // resigns), and the module lets those revokes reach etcd before the application is gone.
    engine.reset();
    return status;
}

} // namespace ExampleUtil
