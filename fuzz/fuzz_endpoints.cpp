// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// Endpoint lists as a user types them (comma-separated URLs): parsed or refused with a
// message, never a crash; what parses names a host and a port.
#include "fuzzinput.h"

#include <endpoint_p.h>

#include <QtCore/qurl.h>

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FuzzInput in(data, size);
    QList<QUrl> urls;
    for (const QByteArray &part : in.rest().split(','))
        urls.append(QUrl(QString::fromUtf8(part)));
    const auto parsed = Etcd::Internal::parseEndpoints(urls);
    if (const auto *status = std::get_if<EtcdStatus>(&parsed)) {
        if (status->isOk() || status->message().isEmpty())
            std::abort(); // a refusal says why
    } else {
        for (const auto &e : std::get<QList<Etcd::Internal::Endpoint>>(parsed)) {
            if (e.grpcTarget().isEmpty())
                std::abort();
        }
    }
    return 0;
}
