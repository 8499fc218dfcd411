// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// The sandbox's demo workload: which etcdqt commands run under the prefix, and how often.
// TTLs are etcd's minimum (2 s) and runs are short, so something changes every second or two.
// Internal to EtcdQtInspectorSandbox.
#pragma once

#include "workloadprocess.h"

#include <vector>

namespace Inspector::SandboxWorkload {

std::vector<WorkloadProcess::Spec> specs(const QByteArray &prefix);

} // namespace Inspector::SandboxWorkload
