// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0

// etcdqt-worker-roster [--endpoint URL] [--path PATH] [--demo] [--language LANG]
//                      [--screenshot FILE]
// A window listing the live workers under a path (PathChildrenCache), each on a lease, and
// a demo worker of its own to start and stop. SIGINT and SIGTERM close the window.

#include "quickexample.h"

#include <QtCore/qcommandlineparser.h>
#include <QtGui/qguiapplication.h>

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

    const QVariantMap properties {
        {QStringLiteral("endpoint"), parser.value(endpoint)},
        {QStringLiteral("rosterPath"), parser.value(path)},
        {QStringLiteral("demoAtStart"), parser.isSet(demo)},
    };
    return ExampleUtil::runQuickExample(
        app, QStringLiteral("WorkerRoster"), properties, parser.value(screenshot));
}
