// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
//  W A R N I N G: internal header, not part of the EtcdQt API.
#pragma once

#include "etcdqt_internal_p.h"

#include <QtCore/qbytearray.h>

namespace Etcd::Internal {

// The client's key namespace: every key the caller names is stored under `prefix`, and every
// key etcd returns has it stripped again, so the namespace is invisible above the transport.
class ETCDQT_AUTOTEST_EXPORT KeySpace
{
public:
    explicit KeySpace(const QByteArray &prefix = {}) : m_prefix(prefix) { }

    [[nodiscard]] QByteArray prefix() const { return m_prefix; }
    [[nodiscard]] QByteArray key(const QByteArray &key) const;
    [[nodiscard]] QByteArray rangeKey(const QByteArray &key, bool prefixScan) const;
    [[nodiscard]] QByteArray rangeEnd(
        const QByteArray &key, bool prefixScan, const QByteArray &rangeEnd) const;
    [[nodiscard]] QByteArray strip(const QByteArray &key) const;

private:
    QByteArray m_prefix;
};

} // namespace Etcd::Internal
