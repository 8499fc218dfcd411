// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// How the sandbox runs its children (etcd and the workload's etcdqt commands): each leads a
// process group of its own, so a signal also reaches what it started (the command under
// `etcdqt lock`), and on Linux the kernel ends it when the sandbox's process dies without
// stopping it. Internal to EtcdQtInspectorSandbox.
#pragma once

#include <QtCore/qlist.h>
#include <QtCore/qloggingcategory.h>

#include <chrono>

class QProcess;

Q_DECLARE_LOGGING_CATEGORY(lcSandbox)

namespace Inspector::SandboxChild {

// Call before each start(): no stdin, own process group, dies with its parent (Linux).
void prepare(QProcess &process);

// SIGTERM to every process's group at once; waits until `grace` has passed for all of them,
// then SIGKILLs the groups still there and reaps their leaders. Returns how many needed it.
int terminate(const QList<QProcess *> &processes, std::chrono::milliseconds grace);

// Distinct free ports on 127.0.0.1 (all held open together while choosing); empty on failure.
QList<quint16> freeLoopbackPorts(int count);

} // namespace Inspector::SandboxChild
