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
    ExampleUtil::QuickExampleOptions common(
        QStringLiteral("Where the workers register."), QStringLiteral("/examples/worker-roster"));
    const QCommandLineOption demo(
        QStringLiteral("demo"), QStringLiteral("Start this window's demo worker at once."));
    common.process(app, parser, {demo}, QStringLiteral("worker-roster"));

    const QVariantMap properties {
        {QStringLiteral("endpoint"), common.endpoint()},
        {QStringLiteral("rosterPath"), common.path()},
        {QStringLiteral("demoAtStart"), parser.isSet(demo)},
    };
    return ExampleUtil::runQuickExample(
        app, QStringLiteral("WorkerRoster"), properties, common.screenshot());
}
