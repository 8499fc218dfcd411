// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// Where the sandbox finds the programs it runs.
#include "sandbox.h"

#include <QtCore/qcoreapplication.h>
#include <QtCore/qfileinfo.h>
#include <QtCore/qstandardpaths.h>

using namespace Qt::StringLiterals;

namespace Inspector {

namespace {

bool isExecutableFile(const QString &path)
{
    const QFileInfo info(path);
    return info.isFile() && info.isExecutable();
}

} // namespace

QString Sandbox::locateCli(QString *why)
{
    if (qEnvironmentVariableIsSet("ETCDQT_CLI")) {
        const QString path = qEnvironmentVariable("ETCDQT_CLI");
        if (isExecutableFile(path))
            return path;
        *why = tr("ETCDQT_CLI is set to %1, which is not an executable file.").arg(path);
        return {};
    }
    QStringList candidates {QCoreApplication::applicationDirPath() + u"/etcdqt"_s};
#ifdef ETCDQT_CLI_BUILD_PATH
    candidates.append(QStringLiteral(ETCDQT_CLI_BUILD_PATH));
#endif
    for (const QString &candidate : std::as_const(candidates)) {
        if (isExecutableFile(candidate))
            return candidate;
    }
    *why = tr("The etcdqt command-line tool was not found (looked for %1). Build the etcdqt "
              "target, or set ETCDQT_CLI to its path.")
               .arg(candidates.join(u", "_s));
    return {};
}

QString Sandbox::locateEtcd(QString *why)
{
    const QString etcd = QStandardPaths::findExecutable(u"etcd"_s);
    if (etcd.isEmpty()) {
        *why = tr("etcd was not found in PATH (%1). Install etcd (scripts/setup-deps does) to "
                  "run the sandbox.")
                   .arg(qEnvironmentVariable("PATH"));
    }
    return etcd;
}

} // namespace Inspector
