// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// The value codecs and the ServiceInstance JSON parser over arbitrary bytes: none may crash,
// and what decodes must encode back to something that decodes to the same value.
#include "fuzzinput.h"

#include <EtcdQt/etcdcodec.h>
#include <EtcdQt/etcdserviceinstance.h>

#include <cstdlib>

namespace {
void check(bool holds)
{
    if (!holds)
        std::abort();
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FuzzInput in(data, size);
    const uint8_t which = in.byte();
    const QByteArray bytes = in.rest();
    switch (which % 5) {
    case 0:
        if (const auto v = Etcd::decodeInt32(bytes))
            check(Etcd::decodeInt32(Etcd::encodeInt32(*v)) == v);
        break;
    case 1:
        if (const auto v = Etcd::decodeInt64(bytes))
            check(Etcd::decodeInt64(Etcd::encodeInt64(*v)) == v);
        break;
    case 2:
        if (const auto v = EtcdTextCodec::decode(bytes))
            check(EtcdTextCodec::decode(EtcdTextCodec::encode(*v)) == v);
        break;
    case 3:
        // Qt's JSON writer does not keep every number it reads (1e999 comes back as null), so
        // only that the encoding decodes again.
        if (const auto v = EtcdJsonCodec::decode(bytes))
            check(EtcdJsonCodec::decode(EtcdJsonCodec::encode(*v)).has_value());
        break;
    default:
        if (const auto v = EtcdServiceInstance::fromJson(bytes))
            check(EtcdServiceInstance::fromJson(v->toJson()) == v);
        break;
    }
    return 0;
}
