// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// The etcdqt tool's argument parsing over arbitrary argument lists (arguments split at NUL
// bytes): the global options, then a command's options and operands as the commands take
// them. Refused or accepted, never a crash. ETCDQT_PASSWORD is set: no prompt is ever shown.
#include "fuzzinput.h"

#include "cli.h"

#include <QtCore/qstringlist.h>

#include <cstdlib>

extern "C" int LLVMFuzzerInitialize(int *, char ***)
{
    qputenv("ETCDQT_PASSWORD", "fuzz");
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FuzzInput in(data, size);
    QStringList args;
    for (const QByteArray &a : in.rest().split('\0'))
        args.append(QString::fromUtf8(a));
    Cli::Globals globals;
    QString error;
    if (!Cli::parseGlobals(args, globals, error)) {
        if (error.isEmpty())
            std::abort(); // a refusal says why
        return 0;
    }
    qint64 ttl = 0;
    int holdMs = 0;
    QStringList rest = args;
    Cli::takeTtlAndHold(rest, ttl, holdMs, error);
    Cli::takeOption(rest, QStringLiteral("--timeout-ms"));
    Cli::takeFlag(rest, QStringLiteral("--json"));
    Cli::takeEtcdLayout(rest, error);
    Cli::isOnePath(rest);
    Cli::operandsAre(rest, 2, QStringLiteral("usage"), error);
    return 0;
}
