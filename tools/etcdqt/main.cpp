// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// etcdqt [global options] <command> ...   (see DESIGN.md, "The etcdqt command line")
#include "cli.h"

#include <QtCore/qcoreapplication.h>
#include <QtCore/qloggingcategory.h>

namespace {
const char *const kUsage
    = "usage: etcdqt [--endpoints URL[,URL...]] [--cacert F --cert F --key F]\n"
      "              [--user NAME] <command> ...   (the password: ETCDQT_PASSWORD, or asked)\n"
      "       any command also takes --metrics-port N [--metrics-address A]: Prometheus\n"
      "       metrics at http://A:N/metrics while it runs (A: 127.0.0.1, N 0: a free port)\n"
      "commands:\n"
      "  elect <path> [--id ID] [--ttl S] [--hold-ms N]\n"
      "  elect --layout etcd <prefix> [--value V] [--ttl S] [--hold-ms N]   (Go's, etcdctl's)\n"
      "  elect --layout etcd <prefix> --incr <counter-key> [--term-writes N] [--count N]\n"
      "        [--ttl S] [--hold-ms N] [--fenced|--unfenced] [--events]   (incr's loop, led)\n"
      "  observe <path>\n"
      "  observe --layout etcd <prefix>\n"
      "  lock <path> [--ttl S] [--timeout-ms N] -- <command> [args...]\n"
      "  incr <lock-path> <counter-key> --count N [--ttl S] [--hold-ms N]\n"
      "       [--fenced|--unfenced] [--events]\n"
      "  barrier set <path> [--ttl S] [--hold-ms N]   (exit 3: set already, or taken over)\n"
      "  barrier remove <path>\n"
      "  barrier wait <path> [--timeout-ms N] [--no-wait-on-missing]   (exit 2: timed out)\n"
      "  latch create <path> --count N\n"
      "  latch count-down <path>\n"
      "  latch await <path> [--timeout-ms N]\n"
      "  counter get <path>\n"
      "  counter add <path> [N]\n"
      "  lease keep <key> <value> --ttl S [--no-heal]\n"
      "  inspect [prefix] [--json] [--watch]\n"
      "  cache watch <prefix> [--json]   (the snapshot, then every change, until a signal)\n"
      "  service register <path> <name> [--id ID] [--payload TEXT] [--address A] [--port P]\n"
      "                   [--ssl-port P] [--uri U] [--ttl S]   (until a signal; exit 3: id taken)\n"
      "  service list <path> [name] [--json]\n"
      "  service watch <path> <name>\n"
      "  queue put <path> <value> [--priority P]\n"
      "  queue take <path> [--timeout-ms N] [--priority]   (exit 2: timed out)\n"
      "  queue size <path> [--priority]\n"
      "  work enqueue <path> <value> [--delay-ms N]\n"
      "  work receive <path> [--timeout-ms N] [--visibility-s S] [--max-deliveries M]\n"
      "               [--ack] [--hold-ms N]   (exit 2: timed out)\n"
      "  work ack <path> <id>\n"
      "  work dlq <path> [--requeue ID | --purge ID]\n"
      "  work size <path>\n"
      "  work process <path> --effects <prefix> [--visibility-s S] [--max-deliveries M]\n"
      "               [--hold-ms N] [--unfenced]   (until a signal)\n";
} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    // Events are the JSON lines; failures end in one error line. QT_LOGGING_RULES still wins.
    QLoggingCategory::setFilterRules(QStringLiteral("etcdqt.*.warning=false"));
    QStringList args = app.arguments().mid(1);
    Cli::Globals globals;
    QString error;
    if (!Cli::serveMetrics(args, globals, error) || !Cli::parseGlobals(args, globals, error))
        return Cli::fail(error);
    if (args.isEmpty() || args.first() == QLatin1String("help")) {
        std::fputs(kUsage, args.isEmpty() ? stderr : stdout);
        return args.isEmpty() ? 2 : 0;
    }
    const QString command = args.takeFirst();
    if (command == QLatin1String("elect"))
        return Cli::electCommand(globals, args);
    if (command == QLatin1String("observe"))
        return Cli::observeCommand(globals, args);
    if (command == QLatin1String("lease"))
        return Cli::leaseCommand(globals, args);
    if (command == QLatin1String("lock"))
        return Cli::lockCommand(globals, args);
    if (command == QLatin1String("incr"))
        return Cli::incrCommand(globals, args);
    if (command == QLatin1String("barrier"))
        return Cli::barrierCommand(globals, args);
    if (command == QLatin1String("latch"))
        return Cli::latchCommand(globals, args);
    if (command == QLatin1String("counter"))
        return Cli::counterCommand(globals, args);
    if (command == QLatin1String("inspect"))
        return Cli::inspectCommand(globals, args);
    if (command == QLatin1String("cache"))
        return Cli::cacheCommand(globals, args);
    if (command == QLatin1String("service"))
        return Cli::serviceCommand(globals, args);
    if (command == QLatin1String("queue"))
        return Cli::queueCommand(globals, args);
    if (command == QLatin1String("work"))
        return Cli::workCommand(globals, args);
    return Cli::fail(QStringLiteral("unknown command: %1 (try etcdqt help)").arg(command));
}
