// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0

// etcdqt-worker-roster [--endpoint URL] [--path PATH] [--demo] [--language LANG]
//                      [--screenshot FILE]
// A window listing the live workers under a path (PathChildrenCache), each on a lease, and
// a demo worker of its own to start and stop. SIGINT and SIGTERM close the window.

#include "quickexample.h"
#include "windowsignals.h"

#include <QtCore/qcommandlineparser.h>
#include <QtCore/qlocale.h>
#include <QtCore/qtranslator.h>
#include <QtGui/qguiapplication.h>
#include <QtGui/qimage.h>
#include <QtQml/qqmlapplicationengine.h>
#include <QtQuick/qquickwindow.h>

#include <memory>

int main(int argc, char *argv[])
{
    QGuiApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("etcdqt-worker-roster"));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("The live workers under an etcd path."));
    parser.addHelpOption();
    const QCommandLineOption endpoint(QStringLiteral("endpoint"), QStringLiteral("etcd's URL."),
        QStringLiteral("url"), QStringLiteral("http://127.0.0.1:2379"));
    const QCommandLineOption path(QStringLiteral("path"),
        QStringLiteral("Where the workers register."), QStringLiteral("path"),
        QStringLiteral("/examples/worker-roster"));
    const QCommandLineOption demo(
        QStringLiteral("demo"), QStringLiteral("Start this window's demo worker at once."));
    const QCommandLineOption language(QStringLiteral("language"),
        QStringLiteral("The interface language (de, en, ...; default: the system's)."),
        QStringLiteral("lang"));
    const QCommandLineOption screenshot(QStringLiteral("screenshot"),
        QStringLiteral("Save the window as this PNG when it closes."), QStringLiteral("file"));
    parser.addOptions({endpoint, path, demo, language, screenshot});
    parser.process(app);
    ExampleUtil::installTranslator(app, QStringLiteral("worker-roster"), parser.value(language));

    auto engine = std::make_unique<QQmlApplicationEngine>();
#ifdef ETCDQT_QML_IMPORT_PATH
    engine->addImportPath(QStringLiteral(ETCDQT_QML_IMPORT_PATH));
#endif
    engine->setInitialProperties({
        {QStringLiteral("endpoint"), parser.value(endpoint)},
        {QStringLiteral("rosterPath"), parser.value(path)},
        {QStringLiteral("demoAtStart"), parser.isSet(demo)},
    });
    QObject::connect(
        engine.get(), &QQmlApplicationEngine::objectCreationFailed, &app,
        [] { QCoreApplication::exit(1); }, Qt::QueuedConnection);
    // Qt 6.4 has no loadFromModule: the module's files are at qrc:/<URI>/.
    engine->load(QUrl(QStringLiteral("qrc:/WorkerRoster/Main.qml")));
    if (engine->rootObjects().isEmpty())
        return 1;
    auto *window = qobject_cast<QQuickWindow *>(engine->rootObjects().constFirst());
    if (window && parser.isSet(screenshot))
        new ExampleUtil::ScreenshotOnClose(window, parser.value(screenshot));

    ExampleUtil::closeWindowsOnSignals(app);
    const int status = app.exec();
    // Closing the window ended the loop; destroying the items now revokes the demo worker's
    // lease, and the module lets that revoke reach etcd before the application is gone.
    engine.reset();
    return status;
}
