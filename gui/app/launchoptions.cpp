// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "launchoptions.h"

#include "profiles.h"

#include <QtCore/qcommandlineparser.h>
#include <QtCore/qcoreapplication.h>
#include <QtCore/qprocess.h>

namespace Inspector {

namespace {
struct Parser
{
    QCommandLineParser p;
    QCommandLineOption endpoints {QStringLiteral("endpoints"),
        QCoreApplication::translate(
            "Inspector::LaunchOptions", "etcd endpoints, comma-separated (http://127.0.0.1:2379)."),
        QStringLiteral("urls")};
    QCommandLineOption cacert {QStringLiteral("cacert"),
        QCoreApplication::translate("Inspector::LaunchOptions", "CA certificate file (PEM)."),
        QStringLiteral("file")};
    QCommandLineOption cert {QStringLiteral("cert"),
        QCoreApplication::translate("Inspector::LaunchOptions", "Client certificate file (PEM)."),
        QStringLiteral("file")};
    QCommandLineOption key {QStringLiteral("key"),
        QCoreApplication::translate("Inspector::LaunchOptions", "Client key file (PEM)."),
        QStringLiteral("file")};
    QCommandLineOption user {QStringLiteral("user"),
        QCoreApplication::translate("Inspector::LaunchOptions",
            "User name; the password is read from ETCDQT_PASSWORD or asked for."),
        QStringLiteral("name")};
    QCommandLineOption prefix {QStringLiteral("prefix"),
        QCoreApplication::translate(
            "Inspector::LaunchOptions", "Key prefix to inspect (default /)."),
        QStringLiteral("prefix"), QStringLiteral("/")};
    QCommandLineOption readOnly {QStringLiteral("read-only"),
        QCoreApplication::translate("Inspector::LaunchOptions",
            "true (default) or false: false enables revoke, step-down, release and lift."),
        QStringLiteral("bool"), QStringLiteral("true")};
    QCommandLineOption profile {QStringLiteral("profile"),
        QCoreApplication::translate("Inspector::LaunchOptions", "Saved connection profile."),
        QStringLiteral("name")};
    QCommandLineOption sandbox {QStringLiteral("sandbox"),
        QCoreApplication::translate("Inspector::LaunchOptions",
            "Start a private etcd with a demo workload and inspect it.")};
    QCommandLineOption lang {QStringLiteral("lang"),
        QCoreApplication::translate("Inspector::LaunchOptions",
            "User interface language: en, de or fr (default: the system's)."),
        QStringLiteral("code")};
    QCommandLineOption theme {QStringLiteral("theme"),
        QCoreApplication::translate("Inspector::LaunchOptions", "light or dark."),
        QStringLiteral("name")};
    QCommandLineOption screenshots {QStringLiteral("screenshot-dir"),
        QCoreApplication::translate("Inspector::LaunchOptions",
            "Save a PNG of every view to this directory once the data is loaded, then quit."),
        QStringLiteral("dir")};

    Parser()
    {
        p.setApplicationDescription(QCoreApplication::translate(
            "Inspector::LaunchOptions", "A recipe-aware live view of an etcd cluster."));
        p.addHelpOption();
        p.addVersionOption();
        p.addOptions({endpoints, cacert, cert, key, user, prefix, readOnly, profile, sandbox, lang,
            theme, screenshots});
    }
};

bool parseBool(const QString &text, bool *out)
{
    const QString t = text.toLower();
    if (t == QLatin1String("true") || t == QLatin1String("yes") || t == QLatin1String("1"))
        *out = true;
    else if (t == QLatin1String("false") || t == QLatin1String("no") || t == QLatin1String("0"))
        *out = false;
    else
        return false;
    return true;
}
} // namespace

bool parseLaunchOptions(const QStringList &arguments, LaunchOptions *out, QString *error)
{
    Parser parser;
    if (!parser.p.parse(arguments)) {
        *error = parser.p.errorText();
        return false;
    }
    if (parser.p.isSet(QStringLiteral("help")))
        parser.p.showHelp(0);
    if (parser.p.isSet(QStringLiteral("version")))
        parser.p.showVersion();
    if (!parser.p.positionalArguments().isEmpty()) {
        *error = QCoreApplication::translate("Inspector::LaunchOptions", "Unexpected argument: %1")
                     .arg(parser.p.positionalArguments().first());
        return false;
    }
    LaunchOptions o;
    for (const QString &url : parser.p.value(parser.endpoints).split(u',', Qt::SkipEmptyParts))
        o.session.endpoints.append(QUrl(url.trimmed(), QUrl::StrictMode));
    o.session.prefix = parser.p.value(parser.prefix).toUtf8();
    o.session.tls
        = {parser.p.value(parser.cacert), parser.p.value(parser.cert), parser.p.value(parser.key)};
    o.session.user = parser.p.value(parser.user);
    if (!o.session.user.isEmpty())
        o.session.password
            = QProcessEnvironment::systemEnvironment().value(QStringLiteral("ETCDQT_PASSWORD"));
    if (!parseBool(parser.p.value(parser.readOnly), &o.readOnly)) {
        *error = QCoreApplication::translate(
            "Inspector::LaunchOptions", "--read-only takes true or false.");
        return false;
    }
    o.profile = parser.p.value(parser.profile);
    o.sandbox = parser.p.isSet(parser.sandbox);
    o.lang = parser.p.value(parser.lang);
    o.theme = parser.p.value(parser.theme);
    o.screenshotDir = parser.p.value(parser.screenshots);
    if (!o.theme.isEmpty() && o.theme != QLatin1String("light")
        && o.theme != QLatin1String("dark")) {
        *error = QCoreApplication::translate(
            "Inspector::LaunchOptions", "--theme takes light or dark.");
        return false;
    }
    if (o.sandbox && !o.session.endpoints.isEmpty()) {
        *error = QCoreApplication::translate("Inspector::LaunchOptions",
            "--sandbox starts its own etcd: it cannot be combined with --endpoints.");
        return false;
    }
    if (!o.profile.isEmpty()) {
        if (!o.session.endpoints.isEmpty() || o.sandbox) {
            *error = QCoreApplication::translate("Inspector::LaunchOptions",
                "--profile cannot be combined with --endpoints or --sandbox.");
            return false;
        }
        const auto saved = loadProfile(o.profile);
        if (!saved) {
            *error = QCoreApplication::translate(
                "Inspector::LaunchOptions", "No saved profile is called \"%1\".")
                         .arg(o.profile);
            return false;
        }
        o.session = sessionOptions(*saved,
            QProcessEnvironment::systemEnvironment().value(QStringLiteral("ETCDQT_PASSWORD")));
    }
    o.connectNow = !o.session.endpoints.isEmpty();
    if (o.connectNow) {
        if (const QString why = InspectorSession::validate(o.session); !why.isEmpty()) {
            *error = why;
            return false;
        }
    }
    *out = o;
    return true;
}

} // namespace Inspector
