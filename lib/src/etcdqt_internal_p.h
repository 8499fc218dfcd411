// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
//  W A R N I N G
//  -------------
// This file is not part of the EtcdQt API. It may change from version to version.
#pragma once

#include <EtcdQt/etcdqtglobal.h>

#include <QtCore/qloggingcategory.h>

// Internal classes that unit tests reach are exported only in test-enabled builds.
#if defined(ETCDQT_BUILDING_TESTS)
#define ETCDQT_AUTOTEST_EXPORT ETCDQT_EXPORT
#else
#define ETCDQT_AUTOTEST_EXPORT ETCDQT_NO_EXPORT
#endif

Q_DECLARE_LOGGING_CATEGORY(lcEtcdClient)
Q_DECLARE_LOGGING_CATEGORY(lcEtcdTransport)
Q_DECLARE_LOGGING_CATEGORY(lcEtcdLease)
Q_DECLARE_LOGGING_CATEGORY(lcEtcdRecipe)
