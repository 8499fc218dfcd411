// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0

// etcdqt-election-dashboard [--endpoint URL] [--path PATH] [--name NAME] [--slot N]
// One participant of an election, as a window. Start three (run-three.sh): one leads, all
// show the participants, and closing the leader's window hands leadership on. SIGINT and
// SIGTERM close the window the same way.

#include "quickexample.h"

#include <QtCore/qcommandlineparser.h>
#include <QtGui/qguiapplication.h>

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

    const QVariantMap properties {
        {QStringLiteral("endpoint"), parser.value(endpoint)},
        {QStringLiteral("electionPath"), parser.value(path)},
        {QStringLiteral("participantName"), parser.value(name)},
        {QStringLiteral("slot"), parser.value(slot).toInt()},
    };
    return ExampleUtil::runQuickExample(app, QStringLiteral("ElectionDashboard"), properties);
}
