// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// For qdoc only: CMake generates the test kit's export header at build time (tests/shared),
// and the docs build parses the sources without a build tree.
#pragma once
#define ETCDQT_TESTKIT_EXPORT
#define ETCDQT_TESTKIT_NO_EXPORT
