// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

// What a list model of key-values shows of one EtcdKeyValue, shared by EtcdPathChildrenModel
// and the QML Watch's model (the QML plugin reaches it through EtcdQtInternalHeaders). Each
// model lists its roles once, as KeyValueRole entries; data() and roleNames() both read that
// list. Inline: the plugin links the library's public API only.

#include <EtcdQt/etcdkeyvalue.h>

#include <QtCore/qhash.h>
#include <QtCore/qstring.h>
#include <QtCore/qstringconverter.h>
#include <QtCore/qvariant.h>

#include <optional>
#include <span>

namespace Etcd::Internal {

enum class KeyValueField { Key, Value, RawValue, CreateRevision, ModRevision, Version, Lease };

// How the Value field shows the bytes: Auto is text when they are valid UTF-8, hex otherwise.
enum class ValueText { Auto, Text, Hex };

struct KeyValueRole
{
    int role;
    KeyValueField field;
    const char *name; // the QML role name
};

inline QString valueText(const QByteArray &bytes, ValueText format)
{
    if (format == ValueText::Hex)
        return QString::fromLatin1(bytes.toHex());
    QStringDecoder decoder(QStringDecoder::Utf8);
    const QString text = decoder(bytes);
    if (format == ValueText::Auto && decoder.hasError())
        return QString::fromLatin1(bytes.toHex());
    return text;
}

inline QVariant keyValueField(const EtcdKeyValue &kv, KeyValueField field, ValueText format)
{
    switch (field) {
    case KeyValueField::Key:
        return QString::fromUtf8(kv.key);
    case KeyValueField::Value:
        return valueText(kv.value, format);
    case KeyValueField::RawValue:
        return kv.value;
    case KeyValueField::CreateRevision:
        return kv.createRevision;
    case KeyValueField::ModRevision:
        return kv.modRevision;
    case KeyValueField::Version:
        return kv.version;
    case KeyValueField::Lease:
        return kv.lease;
    }
    return {};
}

inline std::optional<KeyValueField> fieldOfRole(std::span<const KeyValueRole> roles, int role)
{
    for (const KeyValueRole &r : roles) {
        if (r.role == role)
            return r.field;
    }
    return std::nullopt;
}

inline QHash<int, QByteArray> roleNamesOf(std::span<const KeyValueRole> roles)
{
    QHash<int, QByteArray> names;
    for (const KeyValueRole &r : roles)
        names.insert(r.role, QByteArray(r.name));
    return names;
}

} // namespace Etcd::Internal
