// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <EtcdQt/etcdqtglobal.h>

#include <QtCore/qlocale.h>
#include <QtCore/qstring.h>

namespace EtcdQt {
ETCDQT_EXPORT bool installTranslator(const QLocale &locale = QLocale());
ETCDQT_EXPORT QString translationsDirectory();
} // namespace EtcdQt
