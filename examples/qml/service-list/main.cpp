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
    parser.addHelpOption();
    const QCommandLineOption endpoint(QStringLiteral("endpoint"), QStringLiteral("etcd's URL."),
        QStringLiteral("url"), QStringLiteral("http://127.0.0.1:2379"));
    const QCommandLineOption path(QStringLiteral("path"),
        QStringLiteral("The service path (as etcd-recipes' servicePath)."), QStringLiteral("path"),
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
    const QCommandLineOption screenshot(QStringLiteral("screenshot"),
        QStringLiteral("Save the window as this PNG when it closes."), QStringLiteral("file"));
    const QCommandLineOption language(QStringLiteral("language"),
        QStringLiteral("The interface language (de, en, ...; default: the system's)."),
        QStringLiteral("lang"));
    parser.addOptions({endpoint, path, service, port, ttl, registerAtStart, language, screenshot});
    parser.process(app);
    ExampleUtil::installTranslator(app, QStringLiteral("service-list"), parser.value(language));

    QVariantMap properties {
        {QStringLiteral("endpoint"), parser.value(endpoint)},
        {QStringLiteral("servicePath"), parser.value(path)},
        {QStringLiteral("serviceName"), parser.value(service)},
        {QStringLiteral("registerAtStart"), parser.isSet(registerAtStart)},
    };
    if (parser.isSet(port))
        properties.insert(QStringLiteral("ownPort"), parser.value(port).toInt());
    if (parser.isSet(ttl))
        properties.insert(QStringLiteral("ownTtl"), parser.value(ttl).toInt());
    return ExampleUtil::runQuickExample(
        app, QStringLiteral("ServiceListApp"), properties, parser.value(screenshot));
}
