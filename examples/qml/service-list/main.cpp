// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0

// etcdqt-service-list [--endpoint URL] [--path PATH] [--service NAME] [--port PORT]
//                     [--ttl MS] [--register] [--language LANG] [--screenshot FILE]
// A window listing the live instances of one service (ServiceList), and a toggle that
// registers this process as an instance of it (ServiceRegistration). SIGINT and SIGTERM
// close the window.

#include "quickexample.h"

#include <QtCore/qcommandlineparser.h>
#include <QtGui/qguiapplication.h>

int main(int argc, char *argv[])
{
    QGuiApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("etcdqt-service-list"));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("The live instances of a service."));
    ExampleUtil::QuickExampleOptions common(
        QStringLiteral("The service path (as etcd-recipes' servicePath)."),
        QStringLiteral("/examples/services"));
    const QCommandLineOption service(QStringLiteral("service"),
        QStringLiteral("The service whose instances are listed."), QStringLiteral("name"),
        QStringLiteral("api"));
    const QCommandLineOption port(QStringLiteral("port"),
        QStringLiteral("The port this window's instance announces (default: a random one)."),
        QStringLiteral("port"));
    const QCommandLineOption ttl(QStringLiteral("ttl"),
        QStringLiteral("The lease TTL of this window's instance, in ms (default: 5000)."),
        QStringLiteral("ms"));
    const QCommandLineOption registerAtStart(
        QStringLiteral("register"), QStringLiteral("Register this window's instance at once."));
    common.process(
        app, parser, {service, port, ttl, registerAtStart}, QStringLiteral("service-list"));

    QVariantMap properties {
        {QStringLiteral("endpoint"), common.endpoint()},
        {QStringLiteral("servicePath"), common.path()},
        {QStringLiteral("serviceName"), parser.value(service)},
        {QStringLiteral("registerAtStart"), parser.isSet(registerAtStart)},
    };
    if (parser.isSet(port))
        properties.insert(QStringLiteral("ownPort"), parser.value(port).toInt());
    if (parser.isSet(ttl))
        properties.insert(QStringLiteral("ownTtl"), parser.value(ttl).toInt());
    return ExampleUtil::runQuickExample(
        app, QStringLiteral("ServiceListApp"), properties, common.screenshot());
}
