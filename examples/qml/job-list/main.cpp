// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0

// etcdqt-job-list [--endpoint URL] [--path PATH] [--id ID] [--visibility-ms MS]
//                 [--max-in-flight N] [--paused] [--enqueue TEXT]... [--language LANG]
//                 [--screenshot FILE]
// A job list on a work queue (WorkQueue): every item of the queue in take order
// (QueueContents), the jobs this window holds, to acknowledge or requeue, and a field to
// enqueue more. SIGINT and SIGTERM close the window.

#include "quickexample.h"

#include <QtCore/qcommandlineparser.h>
#include <QtGui/qguiapplication.h>

int main(int argc, char *argv[])
{
    QGuiApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("etcdqt-job-list"));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("A job list on an etcd work queue."));
    ExampleUtil::QuickExampleOptions common(
        QStringLiteral("The work queue's path (as etcd-recipes' queuePath)."),
        QStringLiteral("/examples/jobs"));
    const QCommandLineOption id(QStringLiteral("id"),
        QStringLiteral("This window's consumer id (default: a random one)."), QStringLiteral("id"));
    const QCommandLineOption visibility(QStringLiteral("visibility-ms"),
        QStringLiteral("The visibility timeout: how long a job held by a window that died "
                       "stays hidden, in ms (default: 10000)."),
        QStringLiteral("ms"));
    const QCommandLineOption maxInFlight(QStringLiteral("max-in-flight"),
        QStringLiteral("How many jobs this window holds at most (default: 3)."),
        QStringLiteral("count"));
    const QCommandLineOption paused(
        QStringLiteral("paused"), QStringLiteral("Start without taking jobs."));
    const QCommandLineOption enqueue(QStringLiteral("enqueue"),
        QStringLiteral("Enqueue this job once connected (repeatable)."), QStringLiteral("text"));
    common.process(
        app, parser, {id, visibility, maxInFlight, paused, enqueue}, QStringLiteral("job-list"));

    QVariantMap properties {
        {QStringLiteral("endpoint"), common.endpoint()},
        {QStringLiteral("queuePath"), common.path()},
        {QStringLiteral("consumeAtStart"), !parser.isSet(paused)},
        {QStringLiteral("initialJobs"), parser.values(enqueue)},
    };
    if (parser.isSet(id))
        properties.insert(QStringLiteral("consumerId"), parser.value(id));
    if (parser.isSet(visibility))
        properties.insert(QStringLiteral("visibilityTimeout"), parser.value(visibility).toInt());
    if (parser.isSet(maxInFlight))
        properties.insert(QStringLiteral("maxJobs"), parser.value(maxInFlight).toInt());
    return ExampleUtil::runQuickExample(
        app, QStringLiteral("JobList"), properties, common.screenshot());
}
