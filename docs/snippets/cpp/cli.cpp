// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "snippets.h"

#include <QtCore/qdebug.h>
#include <QtCore/qjsondocument.h>
#include <QtCore/qjsonobject.h>
#include <QtCore/qprocess.h>
#include <QtCore/qurl.h>

using namespace Qt::StringLiterals;

namespace snippets {

void addWithTheCli(const QString &etcdqt, const QUrl &endpoint, QObject *owner)
{
    //! [cli]
    // The tool prints one JSON object per line, so a script (or a Qt program) reads its
    // answers without parsing text meant for people.
    auto *cli = new QProcess(owner);
    QObject::connect(cli, &QProcess::finished, owner, [cli](int exitCode) {
        const QJsonObject answer = QJsonDocument::fromJson(cli->readAllStandardOutput()).object();
        qInfo() << "jobs counter now" << answer.value(u"value"_s).toInteger() << "exit" << exitCode;
    });
    cli->start(etcdqt,
        {u"--endpoints"_s, endpoint.toString(), u"counter"_s, u"add"_s, u"/counters/jobs"_s,
            u"5"_s});
    //! [cli]
}

} // namespace snippets
