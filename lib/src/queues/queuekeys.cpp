// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "queuekeys_p.h"
#include "recipepaths_p.h"

namespace Etcd::Internal::QueueKeys {

namespace {
constexpr int kMillisDigits = 19; // Long.MAX_VALUE's digits, as etcd-recipes pads
constexpr int kIndexDigits = 5;
constexpr int kRandomLength = 3;
constexpr int kPriorityDigits = 5; // etcd-recipes' UShort range, zero-padded

QByteArray padded(qint64 value, int width)
{
    return QByteArray::number(value).rightJustified(width, '0');
}

bool allDigits(QByteArrayView text)
{
    return !text.isEmpty()
        && std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}
} // namespace

QByteArray itemName(qint64 millis)
{
    return padded(millis, kMillisDigits) + '-' + RecipePaths::randomId(kRandomLength);
}

QByteArray batchItemName(qint64 millis, int index)
{
    return padded(millis, kMillisDigits) + '-' + padded(index, kIndexDigits) + '-'
        + RecipePaths::randomId(kRandomLength);
}

std::optional<int> batchIndex(const QByteArray &name)
{
    // "<19>-<5>-<3>": 29 characters; a single item's name is 23.
    constexpr qsizetype length = kMillisDigits + 1 + kIndexDigits + 1 + kRandomLength;
    if (name.size() != length || name.at(kMillisDigits) != '-'
        || name.at(kMillisDigits + 1 + kIndexDigits) != '-')
        return std::nullopt;
    const QByteArrayView index = QByteArrayView(name).sliced(kMillisDigits + 1, kIndexDigits);
    if (!allDigits(index))
        return std::nullopt;
    return QByteArray(index.data(), index.size()).toInt();
}

std::optional<qint64> nameMillis(const QByteArray &name)
{
    const QByteArrayView millis
        = QByteArrayView(name).first(std::min<qsizetype>(name.size(), kMillisDigits));
    if (millis.size() != kMillisDigits || !allDigits(millis))
        return std::nullopt;
    return QByteArray(millis.data(), millis.size()).toLongLong();
}

QByteArray children(const QByteArray &queuePath)
{
    return queuePath + '/';
}

QByteArray priorityLevel(const QByteArray &queuePath, int priority)
{
    return children(queuePath) + padded(priority, kPriorityDigits) + '/';
}

QByteArray priorityItem(const QByteArray &queuePath, int priority, qint64 seq)
{
    return priorityLevel(queuePath, priority) + padded(seq, 16);
}

QByteArray priorityMarker(const QByteArray &queuePath, int priority)
{
    return "__" + queuePath + '/' + padded(priority, kPriorityDigits);
}

std::optional<int> priorityOf(const QByteArray &queuePath, const QByteArray &key)
{
    const QByteArray prefix = children(queuePath);
    if (!key.startsWith(prefix) || key.size() <= prefix.size() + kPriorityDigits
        || key.at(prefix.size() + kPriorityDigits) != '/')
        return std::nullopt;
    const QByteArrayView digits = QByteArrayView(key).sliced(prefix.size(), kPriorityDigits);
    if (!allDigits(digits))
        return std::nullopt;
    return QByteArray(digits.data(), digits.size()).toInt();
}

std::pair<QByteArray, QByteArray> markerRange(const QByteArray &queuePath)
{
    const QByteArray from = "__" + queuePath + '/';
    return {from, "__" + queuePath + char('/' + 1)};
}

std::optional<qint64> prioritySequence(const QByteArray &key)
{
    const qsizetype slash = key.lastIndexOf('/');
    const QByteArrayView seq = QByteArrayView(key).sliced(slash + 1);
    if (slash < 0 || !allDigits(seq))
        return std::nullopt;
    bool ok = false;
    const qint64 value = QByteArray(seq.data(), seq.size()).toLongLong(&ok);
    return ok ? std::optional<qint64>(value) : std::nullopt;
}

QByteArray area(const QByteArray &queuePath, Area area)
{
    switch (area) {
    case Area::Items:
        return queuePath + "/items/";
    case Area::Claimed:
        return queuePath + "/claimed/";
    case Area::Claims:
        return queuePath + "/claims/";
    case Area::Attempts:
        return queuePath + "/attempts/";
    case Area::DeadLetters:
        return queuePath + "/dlq/";
    case Area::Delayed:
        return queuePath + "/delayed/";
    }
    return {};
}

QByteArray workKey(const QByteArray &queuePath, Area a, const QByteArray &id)
{
    return area(queuePath, a) + id;
}

QByteArray idOf(const QByteArray &key, const QByteArray &areaPrefix)
{
    return key.startsWith(areaPrefix) ? key.mid(areaPrefix.size()) : QByteArray();
}

} // namespace Etcd::Internal::QueueKeys
