// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QtCore/qobject.h>
#include <QtCore/qprocess.h>
#include <QtCore/qstringlist.h>

class QSocketNotifier;

namespace Cli {

// The command `etcdqt lock` runs while it holds the lock, with the tool's own stdin, stdout and
// stderr. Started by posix_spawnp(), not QProcess: QProcess forks a process whose engine and
// gRPC threads are running (the child copies their locks as they were), and after that fork
// GCC's TSan no longer tracks the tool's threads (issue 22 item 6: its lock tests reported
// races on mutex-guarded state from then on). Its end is seen through a pidfd.
class CommandProcess : public QObject
{
    Q_OBJECT
public:
    using QObject::QObject;
    ~CommandProcess() override; // a command still running is killed, as QProcess does

    // `command`: program (looked up in PATH) and arguments; `environment`: the command's
    // whole environment (QProcess's rule). False, with errorString(), when it could not start.
    bool start(const QStringList &command, const QProcessEnvironment &environment);
    [[nodiscard]] QString errorString() const { return m_error; }
    [[nodiscard]] qint64 processId() const { return m_pid; }

Q_SIGNALS:
    // `status`: the exit code, or 128+N when signal N ended it (as a shell reports it).
    void finished(int status);

private:
    void reap();

    qint64 m_pid = 0; // 0: not running
    int m_pidfd = -1;
    QSocketNotifier *m_exit = nullptr;
    QString m_error;
};

} // namespace Cli
