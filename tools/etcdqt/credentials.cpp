// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// The tool's credentials and how they travel: a password from ETCDQT_PASSWORD or the terminal
// rather than the command line (which every user of the machine can read in ps), a warning
// when it would cross the network in plain text, a refusal of certificates for http://.
#include "cli.h"

#include <QtNetwork/qhostaddress.h>

#include <cstdio>
#include <optional>

#include <fcntl.h>
#include <termios.h>
#include <unistd.h>

namespace Cli {

namespace {
// Asks on the controlling terminal, without echo (as sudo and ssh do, whatever stdin is);
// nullopt without a terminal.
std::optional<QString> promptPassword(const QString &user)
{
    const int fd = ::open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (fd < 0)
        return std::nullopt;
    // Echo goes off before the prompt shows: an answer typed as soon as the prompt appears
    // must be neither echoed nor flushed away (TCSAFLUSH after the prompt discarded it, and
    // the tool waited for a line that never came: seen once in a CI rehearsal).
    termios saved {};
    const bool terminal = ::tcgetattr(fd, &saved) == 0;
    if (terminal) {
        termios quiet = saved;
        quiet.c_lflag &= ~tcflag_t(ECHO);
        ::tcsetattr(fd, TCSAFLUSH, &quiet);
    }
    const QByteArray prompt = "Password for " + user.toUtf8() + ": ";
    [[maybe_unused]] auto n = ::write(fd, prompt.constData(), size_t(prompt.size()));
    QByteArray line;
    char c = 0;
    while (::read(fd, &c, 1) == 1 && c != '\n')
        line += c;
    if (terminal)
        ::tcsetattr(fd, TCSANOW, &saved);
    n = ::write(fd, "\n", 1);
    ::close(fd);
    if (line.endsWith('\r'))
        line.chop(1);
    return QString::fromUtf8(line);
}

bool isLoopback(const QString &host)
{
    const QHostAddress address(host);
    return host == QLatin1String("localhost") || (!address.isNull() && address.isLoopback());
}
} // namespace

bool resolveCredentials(Globals &g, bool passwordGiven, QString &error)
{
    if (g.user.isEmpty())
        return true;
    if (!passwordGiven) {
        if (qEnvironmentVariableIsSet("ETCDQT_PASSWORD")) {
            g.password = qEnvironmentVariable("ETCDQT_PASSWORD");
        } else if (const std::optional<QString> typed = promptPassword(g.user)) {
            g.password = *typed;
        } else {
            error = QStringLiteral("no password for %1: set ETCDQT_PASSWORD, or run etcdqt on a "
                                   "terminal to be asked")
                        .arg(g.user);
            return false;
        }
    }
    for (const QUrl &e : std::as_const(g.endpoints)) {
        if (e.scheme() == QLatin1String("http") && !isLoopback(e.host())) {
            note(QStringLiteral("warning: the password of %1 goes to %2 in plain text; use "
                                "https:// with --cacert")
                     .arg(g.user, e.host()));
        }
    }
    return true;
}

bool checkTlsFiles(const Globals &g, QString &error)
{
    const bool files = !g.tls.caCertificate.isEmpty() || !g.tls.clientCertificate.isEmpty()
        || !g.tls.clientKey.isEmpty();
    for (const QUrl &e : g.endpoints) {
        if (files && e.scheme() != QLatin1String("https")) {
            error = QStringLiteral("--cacert, --cert and --key need https:// endpoints, not %1")
                        .arg(e.toString());
            return false;
        }
    }
    return true;
}

} // namespace Cli
