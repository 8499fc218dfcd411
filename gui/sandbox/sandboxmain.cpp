// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// etcdqt-sandbox: runs Inspector::Sandbox without a window (scripts/demo uses it when there is
// no display). Prints one line once etcd serves and the workload runs:
//   sandbox: etcd at http://127.0.0.1:PORT, workload under /sandbox
// and runs until SIGINT or SIGTERM, then stops every process and removes its directory.
// Exit status: 0 after a signal, 1 when the sandbox failed (the reason is on stderr).
#include "sandbox.h"

#include <QtCore/qcommandlineparser.h>
#include <QtCore/qcoreapplication.h>
#include <QtCore/qsocketnotifier.h>

#include <csignal>
#include <cstdio>
#include <fcntl.h>
#include <functional>
#include <unistd.h>

namespace {

int signalPipe[2] = {-1, -1};

extern "C" void writeSignalToPipe(int signal)
{
    const char byte = char(signal);
    [[maybe_unused]] const auto written = ::write(signalPipe[1], &byte, 1);
}

// SIGINT and SIGTERM become a call of `onSignal` from the event loop (the handler itself
// only writes a byte to a pipe, which is all a signal handler may safely do).
bool callOnTerminationSignal(QObject *context, std::function<void()> onSignal)
{
    if (::pipe2(signalPipe, O_CLOEXEC | O_NONBLOCK) != 0)
        return false;
    struct sigaction action = {};
    action.sa_handler = writeSignalToPipe;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    if (::sigaction(SIGINT, &action, nullptr) != 0 || ::sigaction(SIGTERM, &action, nullptr) != 0)
        return false;
    auto *notifier = new QSocketNotifier(signalPipe[0], QSocketNotifier::Read, context);
    QObject::connect(notifier, &QSocketNotifier::activated, context, [onSignal] {
        char drained[16];
        while (::read(signalPipe[0], drained, sizeof drained) > 0) { }
        onSignal();
    });
    return true;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    // A developer tool with no translations loaded: its text stays English.
    parser.setApplicationDescription(
        QStringLiteral("Runs a private etcd on loopback with a demo workload of etcdqt processes "
                       "under /sandbox, until SIGINT or SIGTERM."));
    parser.addHelpOption();
    parser.process(app);

    Inspector::Sandbox sandbox;
    QObject::connect(&sandbox, &Inspector::Sandbox::started, &app, [](const QUrl &endpoint) {
        std::printf("sandbox: etcd at %s, workload under %s\n",
            endpoint.toString().toUtf8().constData(), Inspector::Sandbox::prefix().constData());
        std::fflush(stdout);
    });
    QObject::connect(&sandbox, &Inspector::Sandbox::failed, &app, [](const QString &why) {
        std::fprintf(stderr, "etcdqt-sandbox: %s\n", why.toLocal8Bit().constData());
        QCoreApplication::exit(1);
    });
    const bool watching = callOnTerminationSignal(&app, [&sandbox] {
        sandbox.stop();
        QCoreApplication::exit(0);
    });
    if (!watching) {
        std::perror("etcdqt-sandbox: cannot watch for SIGINT/SIGTERM");
        return 1;
    }
    sandbox.start();
    return QCoreApplication::exec();
}
