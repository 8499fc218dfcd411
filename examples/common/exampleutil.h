// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// What every example shares: where it prints, and which etcd it talks to.
#pragma once

#include <EtcdQt/etcdrecipe.h>

#include <QtCore/qcoreapplication.h>
#include <QtCore/qtextstream.h>
#include <QtCore/qurl.h>

#include <memory>
#include <mutex>

inline QTextStream &out()
{
    static QTextStream stream(stdout);
    return stream;
}

// One whole line, from any thread: workers print while others do.
inline void say(const QString &line)
{
    static std::mutex mutex;
    std::lock_guard lock(mutex);
    out() << line << Qt::endl;
}

// The endpoint named by the first argument, else etcd's default local address.
inline QUrl endpointArgument(int argc, char **argv)
{
    return QUrl(
        argc > 1 ? QString::fromLocal8Bit(argv[1]) : QStringLiteral("http://127.0.0.1:2379"));
}

// The run time in seconds named by the second argument, else `fallback`.
inline int secondsArgument(int argc, char **argv, int fallback = 0)
{
    return argc > 2 ? QByteArray(argv[2]).toInt() : fallback;
}

// Prints "closed" and quits with `exitCode` (read then) once every recipe said closed():
// their revokes have reached etcd, so nothing is left to run out a TTL.
template <typename Recipes>
void quitWhenAllClosed(const Recipes &recipes, const int &exitCode)
{
    auto left = std::make_shared<int>(int(std::size(recipes)));
    for (const auto &recipe : recipes) {
        QObject::connect(
            &*recipe, &EtcdRecipe::closed, QCoreApplication::instance(), [left, &exitCode] {
                if (--*left > 0)
                    return;
                say(QStringLiteral("closed"));
                QCoreApplication::exit(exitCode);
            });
    }
}
