// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <EtcdQt/etcdcodec.h>
#include <EtcdQt/etcdleaseresilience.h>
#include <EtcdQt/etcdtransientkeyvalue.h>

#include <QtCore/qbytearray.h>

#include <chrono>
#include <memory>
#include <optional>

class EtcdClient;

// A transient key whose value is a T, written with Codec (see etcdcodec.h). Owns its
// untyped recipe, which carries the signals.
template <class Codec>
class EtcdTypedTransientKeyValue
{
public:
    using Value = typename Codec::Value;

    EtcdTypedTransientKeyValue(EtcdClient *client, const QByteArray &key, const Value &value,
        std::chrono::seconds ttl = std::chrono::seconds(2),
        const EtcdLeaseResilience &resilience = {})
        : m_untyped(std::make_unique<EtcdTransientKeyValue>(
            client, key, Codec::encode(value), ttl, resilience))
    { }

    [[nodiscard]] EtcdTransientKeyValue *untyped() const { return m_untyped.get(); }
    [[nodiscard]] std::optional<Value> value() const { return Codec::decode(m_untyped->value()); }
    void start() { m_untyped->start(); }
    void close() { m_untyped->close(); }

private:
    std::unique_ptr<EtcdTransientKeyValue> m_untyped;
};
