// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// The test kit page's snippets: QtTest code, called from tst_docsnippets' test functions.
#pragma once

namespace snippets {
void lockHolderIsPartitioned();
void leaseSurvivesAPause();
void leaderFailover();
} // namespace snippets
