// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "etcdqt_internal_p.h"

Q_LOGGING_CATEGORY(lcEtcdClient, "etcdqt.client", QtInfoMsg)
Q_LOGGING_CATEGORY(lcEtcdTransport, "etcdqt.transport", QtInfoMsg)
Q_LOGGING_CATEGORY(lcEtcdLease, "etcdqt.lease", QtInfoMsg)
Q_LOGGING_CATEGORY(lcEtcdRecipe, "etcdqt.recipe", QtInfoMsg)
