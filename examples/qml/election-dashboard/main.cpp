// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0

// etcdqt-election-dashboard [--endpoint URL] [--path PATH] [--name NAME] [--slot N]
// One participant of an election, as a window. Start three (run-three.sh): one leads, all
// show the participants, and closing the leader's window hands leadership on. SIGINT and
// SIGTERM close the window the same way.

#include "windowsignals.h"

#include <QtCore/qcommandlineparser.h>
#include <QtGui/qguiapplication.h>
#include <QtGui/qwindow.h>
#include <QtQml/qqmlapplicationengine.h>

#include <memory>

int main(int argc, char *argv[])
{
    QGuiApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("etcdqt-election-dashboard"));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("One participant of an etcd election."));
    parser.addHelpOption();
    const QCommandLineOption endpoint(QStringLiteral("endpoint"), QStringLiteral("etcd's URL."),
        QStringLiteral("url"), QStringLiteral("http://127.0.0.1:2379"));
    const QCommandLineOption path(QStringLiteral("path"), QStringLiteral("The election's path."),
        QStringLiteral("path"), QStringLiteral("/examples/election-dashboard"));
    const QCommandLineOption name(QStringLiteral("name"),
        QStringLiteral("This participant's id (default: a random one)."), QStringLiteral("name"));
    const QCommandLineOption slot(QStringLiteral("slot"),
        QStringLiteral("Window position from the left, 0, 1, 2, ..."), QStringLiteral("n"),
        QStringLiteral("0"));
    parser.addOptions({endpoint, path, name, slot});
    parser.process(app);

    auto engine = std::make_unique<QQmlApplicationEngine>();
#ifdef ETCDQT_QML_IMPORT_PATH
    engine->addImportPath(QStringLiteral(ETCDQT_QML_IMPORT_PATH));
#endif
    engine->setInitialProperties({
        {QStringLiteral("endpoint"), parser.value(endpoint)},
        {QStringLiteral("electionPath"), parser.value(path)},
        {QStringLiteral("participantName"), parser.value(name)},
        {QStringLiteral("slot"), parser.value(slot).toInt()},
    });
    QObject::connect(
        engine.get(), &QQmlApplicationEngine::objectCreationFailed, &app,
        [] { QCoreApplication::exit(1); }, Qt::QueuedConnection);
    // Qt 6.4 has no loadFromModule: the module's files are at qrc:/<URI>/.
    engine->load(QUrl(QStringLiteral("qrc:/ElectionDashboard/Main.qml")));
    if (engine->rootObjects().isEmpty())
        return 1;

    ExampleUtil::closeWindowsOnSignals(app);
    const int status = app.exec();
    // Closing the window ended the loop; destroying the items now resigns and revokes, and the
    // module lets those revokes reach etcd before the application is gone.
    engine.reset();
    return status;
}
