// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
//  W A R N I N G: internal header, not part of the EtcdQt API.
#pragma once

#include "etcdqt_internal_p.h"

#include <EtcdQt/etcdstatus.h>

#include <QtCore/qlist.h>
#include <QtCore/qurl.h>

#include <variant>

namespace Etcd::Internal {

struct ETCDQT_AUTOTEST_EXPORT Endpoint
{
    QString host;
    quint16 port = 0;
    bool tls = false;

    // The gRPC target: "ipv4:a.b.c.d:p", "ipv6:[::1]:p" or "dns:host:p".
    [[nodiscard]] QString grpcTarget() const;
};

// PEM bytes for https endpoints; empty ca means the system's roots, empty cert/key no client
// certificate.
struct TlsMaterial
{
    QByteArray ca;
    QByteArray cert;
    QByteArray key;
};

// Reads and sanity-checks the files; an InvalidArgument status names the file at fault.
ETCDQT_AUTOTEST_EXPORT std::variant<TlsMaterial, EtcdStatus> loadTlsMaterial(
    const QString &caFile, const QString &certFile, const QString &keyFile);

// Validates a user's endpoint list: http:// or https:// with a host and a port, one scheme for
// all. Anything else is an InvalidArgument status that names the offending entry.
ETCDQT_AUTOTEST_EXPORT std::variant<QList<Endpoint>, EtcdStatus> parseEndpoints(
    const QList<QUrl> &urls);

} // namespace Etcd::Internal
