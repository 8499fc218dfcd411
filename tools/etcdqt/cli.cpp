// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "cli.h"

#include <EtcdQt/etcdprometheusexporter.h>

#include <recipeview.h>

#include <QtCore/qcoreapplication.h>
#include <QtCore/qjsondocument.h>
#include <QtCore/qsocketnotifier.h>
#include <QtCore/qurl.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>

#include <sys/socket.h>
#include <unistd.h>

namespace Cli {

namespace {
int g_signalPipe[2] = {-1, -1};

constexpr unsigned char kFromTerminal = 0x80; // above every signal number

void writeSignal(int signal, siginfo_t *info, void *)
{
    // SI_KERNEL: the tty driver's Ctrl+C (or Ctrl+\), sent to the whole foreground group.
    const unsigned char byte
        = (signal & 0x7f) | (info && info->si_code == SI_KERNEL ? kFromTerminal : 0);
    const int savedErrno = errno; // the interrupted code may be about to read it
    [[maybe_unused]] const auto n = ::write(g_signalPipe[1], &byte, 1); // async-signal-safe
    errno = savedErrno;
}

// The handlers write one byte per signal into a socket pair, read in the event loop.
void installSignalPipe(std::function<void(int signal, bool fromTerminal)> onSignal, bool once)
{
    if (g_signalPipe[0] >= 0
        || ::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, g_signalPipe) != 0)
        return;
    auto *notifier = new QSocketNotifier(g_signalPipe[0], QSocketNotifier::Read, qApp);
    QObject::connect(notifier, &QSocketNotifier::activated, qApp, [notifier, onSignal, once] {
        unsigned char byte = 0;
        if (::read(g_signalPipe[0], &byte, 1) != 1)
            return;
        if (once) {
            notifier->setEnabled(false); // once is enough: the command is ending
            std::signal(SIGINT, SIG_DFL); // a second Ctrl+C ends it at once
            std::signal(SIGTERM, SIG_DFL);
        }
        onSignal(byte & ~kFromTerminal, (byte & kFromTerminal) != 0);
    });
    struct sigaction action = {};
    action.sa_sigaction = writeSignal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART | SA_SIGINFO;
    sigaction(SIGINT, &action, nullptr);
    sigaction(SIGTERM, &action, nullptr);
}
} // namespace

bool parseGlobals(QStringList &args, Globals &g, QString &error)
{
    g.endpoints = {QUrl(QStringLiteral("http://127.0.0.1:2379"))};
    bool passwordGiven = false;
    while (!args.isEmpty() && args.first().startsWith(QLatin1String("--"))) {
        const QString name = args.takeFirst();
        if (args.isEmpty()) {
            error = QStringLiteral("%1 needs a value").arg(name);
            return false;
        }
        const QString value = args.takeFirst();
        if (name == QLatin1String("--endpoints")) {
            g.endpoints.clear();
            for (const QString &e : value.split(u',', Qt::SkipEmptyParts)) {
                const QUrl url(e.contains(QLatin1String("://")) ? e : QLatin1String("http://") + e);
                if (!url.isValid() || url.host().isEmpty()) {
                    error = QStringLiteral("bad endpoint: %1").arg(e);
                    return false;
                }
                g.endpoints.append(url);
            }
        } else if (name == QLatin1String("--cacert")) {
            g.tls.caCertificate = value;
        } else if (name == QLatin1String("--cert")) {
            g.tls.clientCertificate = value;
        } else if (name == QLatin1String("--key")) {
            g.tls.clientKey = value;
        } else if (name == QLatin1String("--user")) {
            g.user = value.section(u':', 0, 0);
            g.password = value.section(u':', 1);
            passwordGiven = value.contains(u':');
        } else {
            error = QStringLiteral("unknown option: %1").arg(name);
            return false;
        }
    }
    if (g.endpoints.isEmpty()) {
        error = QStringLiteral("no endpoints");
        return false;
    }
    return checkTlsFiles(g, error) && resolveCredentials(g, passwordGiven, error);
}

std::unique_ptr<EtcdClient> makeClient(const Globals &g)
{
    auto client = std::make_unique<EtcdClient>(g.endpoints);
    client->setTlsFiles(g.tls);
    client->setMetrics(g.metrics);
    if (!g.user.isEmpty())
        client->setCredentials(g.user, g.password);
    // A command line should say "unreachable" in seconds, not retry for half a minute.
    client->setCallDeadline(std::chrono::seconds(5));
    client->connectToEndpoints();
    return client;
}

bool serveMetrics(QStringList &args, Globals &g, QString &error)
{
    const qsizetype end
        = args.contains(QStringLiteral("--")) ? args.indexOf(QStringLiteral("--")) : args.size();
    QStringList options = args.mid(0, end);
    const bool wanted = options.contains(QStringLiteral("--metrics-port"));
    const QString portText = takeOption(options, QStringLiteral("--metrics-port"));
    const QString address
        = takeOption(options, QStringLiteral("--metrics-address"), QStringLiteral("127.0.0.1"));
    args = options + args.mid(end);
    if (!wanted)
        return true;
    bool ok = false;
    const uint port = portText.toUInt(&ok);
    const QHostAddress host(address);
    if (!ok || port > 65535 || host.isNull()) {
        error = QStringLiteral("--metrics-port needs a port (0-65535) and --metrics-address an IP "
                               "address");
        return false;
    }
    g.metrics = std::make_shared<EtcdMetricsRegistry>();
    auto *exporter = new EtcdPrometheusExporter(g.metrics, qApp);
    if (!exporter->listen(host, quint16(port))) {
        error = exporter->errorString();
        return false;
    }
    note(QStringLiteral("metrics at %1").arg(exporter->url().toString()));
    return true;
}

void emitLine(const QJsonObject &object)
{
    std::fputs(QJsonDocument(object).toJson(QJsonDocument::Compact).constData(), stdout);
    std::fputc('\n', stdout);
    std::fflush(stdout);
}

int fail(const QString &message)
{
    note(message);
    return 1;
}

void note(const QString &message)
{
    std::fprintf(stderr, "etcdqt: %s\n", qPrintable(message));
}

QString shownBytes(const QByteArray &bytes)
{
    // Quoted text only when it is valid UTF-8 with nothing a terminal would act on instead of
    // showing (the decoder's rule, by code point: a supplementary-plane format character such
    // as U+E0001 is two surrogates, neither of them a format character, to a QChar test).
    const QString text = QString::fromUtf8(bytes);
    const QList<uint> codePoints = text.toUcs4();
    const bool plain = text.toUtf8() == bytes
        && std::none_of(codePoints.cbegin(), codePoints.cend(),
            [](uint c) { return Etcd::Decode::isInvisibleControl(char32_t(c)); });
    if (!plain)
        return QStringLiteral("0x") + QString::fromLatin1(bytes.toHex());
    return QStringLiteral("\"%1\"").arg(text);
}

void onTerminationSignal(std::function<void(int signal)> onSignal)
{
    installSignalPipe([onSignal](int signal, bool) { onSignal(signal); }, true);
}

void onEveryTerminationSignal(std::function<void(int signal, bool fromTerminal)> onSignal)
{
    installSignalPipe(std::move(onSignal), false);
}

QString takeOption(QStringList &args, const QString &name, const QString &fallback)
{
    const qsizetype i = args.indexOf(name);
    if (i < 0 || i + 1 >= args.size())
        return fallback;
    const QString value = args.at(i + 1);
    args.remove(i, 2);
    return value;
}

bool takeFlag(QStringList &args, const QString &name)
{
    return args.removeAll(name) > 0;
}

QJsonObject leaseEventObject(const EtcdLeaseEvent &e, const QString &field)
{
    QJsonObject o {{field, e.typeName()}};
    if (e.type == EtcdLeaseEvent::Type::Restored) {
        o.insert(QStringLiteral("old"), e.leaseId);
        o.insert(QStringLiteral("new"), e.newLeaseId);
    } else {
        o.insert(QStringLiteral("lease"), e.leaseId);
        o.insert(QStringLiteral("cause"), e.cause.toString());
    }
    return o;
}

bool parseTtl(const QString &text, qint64 &ttl, QString &error)
{
    constexpr qint64 kMaxLeaseTtl = 9'000'000'000; // etcd's MaxLeaseTTL, lease/lessor.go
    bool ok = false;
    ttl = text.toLongLong(&ok);
    if (ok && ttl > 0 && ttl <= kMaxLeaseTtl)
        return true;
    error
        = QStringLiteral("--ttl must be a whole number of seconds from 1 to %1").arg(kMaxLeaseTtl);
    return false;
}

bool takeTtlAndHold(QStringList &args, qint64 &ttl, int &holdMs, QString &error)
{
    const QString ttlText = takeOption(args, QStringLiteral("--ttl"), QStringLiteral("2"));
    const bool holds = args.contains(QStringLiteral("--hold-ms"));
    const QString holdText = takeOption(args, QStringLiteral("--hold-ms"));
    if (!parseTtl(ttlText, ttl, error))
        return false;
    bool ok = false;
    holdMs = holds ? holdText.toInt(&ok) : -1;
    if (holds && (!ok || holdMs < 0)) {
        error = QStringLiteral("--hold-ms must be a number of milliseconds, 0 or more");
        return false;
    }
    return true;
}

bool takeEtcdLayout(QStringList &args, QString &error)
{
    const QString layout = takeOption(args, QStringLiteral("--layout"), QStringLiteral("recipes"));
    if (layout != QLatin1String("etcd") && layout != QLatin1String("recipes"))
        error = QStringLiteral("--layout must be etcd or recipes, not %1").arg(layout);
    return layout == QLatin1String("etcd");
}

bool isOnePath(const QStringList &args)
{
    return args.size() == 1 && !args.first().isEmpty()
        && !args.first().startsWith(QLatin1String("--"));
}

void printText(const QString &line)
{
    std::fputs(line.toUtf8().append('\n').constData(), stdout);
    std::fflush(stdout);
}

bool operandsAre(const QStringList &args, qsizetype count, const QString &usage, QString &error)
{
    for (const QString &arg : args) {
        if (arg.startsWith(QLatin1String("--"))) {
            error = QStringLiteral("unknown option, or one without its value: %1").arg(arg);
            return false;
        }
    }
    if (args.size() != count) {
        error = usage;
        return false;
    }
    if (args.first().isEmpty()) {
        error = QStringLiteral("the path must not be empty");
        return false;
    }
    return true;
}

int printWhenDone(EtcdReply *reply, std::function<QJsonObject()> line)
{
    QObject::connect(reply, &EtcdReply::finished, reply, [line](const EtcdStatus &status) {
        if (!status.isOk())
            return QCoreApplication::exit(fail(status.toString()));
        emitLine(line());
        QCoreApplication::exit(0);
    });
    return QCoreApplication::exec();
}

} // namespace Cli
