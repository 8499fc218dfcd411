// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// For qdoc only: CMake generates the real export header at build time, and the docs build
// parses the sources without a build tree, so the export macro expands to nothing here.
#pragma once
#define ETCDQT_EXPORT
#define ETCDQT_NO_EXPORT
