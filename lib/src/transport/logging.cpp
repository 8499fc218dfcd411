// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "etcdqt_internal_p.h"

// One category per area, warnings only by default: an application (or the etcdqt tool) must
// not find our debug lines in its terminal unless someone asked for them with
// QT_LOGGING_RULES (e.g. "etcdqt.lease.debug=true"). The README lists them.
Q_LOGGING_CATEGORY(lcEtcdClient, "etcdqt.client", QtWarningMsg)
Q_LOGGING_CATEGORY(lcEtcdTransport, "etcdqt.transport", QtWarningMsg)
Q_LOGGING_CATEGORY(lcEtcdWatch, "etcdqt.watch", QtWarningMsg)
Q_LOGGING_CATEGORY(lcEtcdLease, "etcdqt.lease", QtWarningMsg)
Q_LOGGING_CATEGORY(lcEtcdRecipe, "etcdqt.recipe", QtWarningMsg)
Q_LOGGING_CATEGORY(lcEtcdElection, "etcdqt.election", QtWarningMsg)
Q_LOGGING_CATEGORY(lcEtcdLock, "etcdqt.lock", QtWarningMsg)
Q_LOGGING_CATEGORY(lcEtcdBarrier, "etcdqt.barrier", QtWarningMsg)
Q_LOGGING_CATEGORY(lcEtcdCounter, "etcdqt.counter", QtWarningMsg)
Q_LOGGING_CATEGORY(lcEtcdQueue, "etcdqt.queue", QtWarningMsg)
Q_LOGGING_CATEGORY(lcEtcdCache, "etcdqt.cache", QtWarningMsg)
Q_LOGGING_CATEGORY(lcEtcdDiscovery, "etcdqt.discovery", QtWarningMsg)
