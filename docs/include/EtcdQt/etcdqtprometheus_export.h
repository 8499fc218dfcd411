// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// For qdoc only: the Prometheus exporter's export header, which CMake generates at build time.
#pragma once
#define ETCDQT_PROMETHEUS_EXPORT
#define ETCDQT_PROMETHEUS_NO_EXPORT
