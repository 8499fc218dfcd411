// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// What every example shares: where it prints, and which etcd it talks to.
#pragma once

#include <QtCore/qtextstream.h>
#include <QtCore/qurl.h>

inline QTextStream &out()
{
    static QTextStream stream(stdout);
    return stream;
}

// The endpoint named by the first argument, else etcd's default local address.
inline QUrl endpointArgument(int argc, char **argv)
{
    return QUrl(
        argc > 1 ? QString::fromLocal8Bit(argv[1]) : QStringLiteral("http://127.0.0.1:2379"));
}
