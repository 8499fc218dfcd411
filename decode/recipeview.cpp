// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "recipeview.h"

#include <QtCore/qbytearrayview.h>
#include <QtCore/qutf8stringview.h>

#include <algorithm>

namespace Etcd::Decode {

QList<Entry> Recipe::withRole(Role role) const
{
    QList<Entry> found;
    for (const Entry &e : entries) {
        if (e.role == role)
            found.append(e);
    }
    return found;
}

const Entry *Recipe::first(Role role) const
{
    const auto it = std::find_if(
        entries.cbegin(), entries.cend(), [role](const Entry &e) { return e.role == role; });
    return it == entries.cend() ? nullptr : &*it;
}

qsizetype Recipe::count(Role role) const
{
    return std::count_if(
        entries.cbegin(), entries.cend(), [role](const Entry &e) { return e.role == role; });
}

QList<PriorityLevel> priorityLevels(const Recipe &r)
{
    QList<PriorityLevel> levels;
    for (const Entry &e : r.entries) {
        if (!e.queue || e.queue->priority < 0 || (e.role != Role::Item && e.role != Role::Marker))
            continue;
        if (levels.isEmpty() || levels.last().priority != e.queue->priority)
            levels.append({e.queue->priority, 0, false, nullptr});
        PriorityLevel &level = levels.last();
        if (e.role == Role::Marker) {
            level.marked = true;
        } else {
            ++level.depth;
            level.next = level.next ? level.next : &e;
        }
    }
    return levels;
}

bool isQueue(Kind kind)
{
    return kind == Kind::Queue || kind == Kind::PriorityQueue || kind == Kind::WorkQueue;
}

const Entry *queueHead(const Recipe &r)
{
    return isQueue(r.kind) ? r.first(Role::Item) : nullptr;
}

qsizetype orphanedClaims(const Recipe &r)
{
    return std::count_if(r.entries.cbegin(), r.entries.cend(),
        [](const Entry &e) { return e.role == Role::Claimed && e.queue && e.queue->orphaned; });
}

// By Unicode category, not a list: lists let U+0600 and U+070F through (found by fuzz_decoder).
bool isInvisibleControl(char32_t c)
{
    switch (QChar::category(c)) {
    case QChar::Other_Control:
    case QChar::Other_Format:
    case QChar::Separator_Line:
    case QChar::Separator_Paragraph:
        return true;
    default:
        return false;
    }
}

namespace {

void appendEscaped(QString &out, char32_t c)
{
    switch (c) {
    case U'\\':
        out += QLatin1String("\\\\");
        return;
    case U'\n':
        out += QLatin1String("\\n");
        return;
    case U'\r':
        out += QLatin1String("\\r");
        return;
    case U'\t':
        out += QLatin1String("\\t");
        return;
    default:
        break;
    }
    if (c <= 0xff && isInvisibleControl(c))
        out += QStringLiteral("\\x%1").arg(uint(c), 2, 16, QLatin1Char('0'));
    else if (isInvisibleControl(c))
        out += QStringLiteral("\\u{%1}").arg(uint(c), 4, 16, QLatin1Char('0'));
    else
        out += QString::fromUcs4(&c, 1);
}

// The length of the UTF-8 sequence a lead byte starts, 0 for a byte no sequence starts with.
qsizetype utf8Length(uchar lead)
{
    if (lead < 0x80)
        return 1;
    if (lead >= 0xc2 && lead <= 0xdf)
        return 2;
    if (lead >= 0xe0 && lead <= 0xef)
        return 3;
    if (lead >= 0xf0 && lead <= 0xf4)
        return 4;
    return 0;
}
} // namespace

QString previewBytes(const QByteArray &bytes, qsizetype maxChars)
{
    QString out;
    for (qsizetype i = 0; i < bytes.size();) {
        // Stop once the cut is certain: a payload can be a megabyte.
        if (maxChars >= 0 && out.size() > maxChars)
            break;
        const qsizetype length = utf8Length(uchar(bytes.at(i)));
        const QByteArrayView sequence
            = QByteArrayView(bytes).sliced(i, std::min(length, bytes.size() - i));
        if (length == 0 || sequence.size() < length
            || !QUtf8StringView(sequence.data(), sequence.size()).isValidUtf8()) {
            out += QStringLiteral("\\x%1").arg(uint(uchar(bytes.at(i))), 2, 16, QLatin1Char('0'));
            ++i;
            continue;
        }
        const QList<uint> points = QString::fromUtf8(sequence).toUcs4();
        appendEscaped(out, char32_t(points.value(0)));
        i += length;
    }
    if (maxChars >= 0 && out.size() > maxChars)
        return out.left(std::max<qsizetype>(maxChars - 1, 0)) + QStringLiteral("…");
    return out;
}

QString serviceEndpoint(const EtcdServiceInstance &s)
{
    const int port = s.port >= 0 ? s.port : s.sslPort;
    if (!s.address.isEmpty())
        return port >= 0 ? QStringLiteral("%1:%2").arg(s.address).arg(port) : s.address;
    return s.uri;
}

QString serviceRegistrant(const EtcdServiceInstance &s)
{
    const QString endpoint = serviceEndpoint(s);
    return endpoint.isEmpty() ? s.id : endpoint;
}

QString serviceName(const Recipe &r)
{
    return QString::fromUtf8(r.path.mid(r.path.lastIndexOf('/') + 1));
}

// The names are the JSON vocabulary of `etcdqt inspect --json`: stable, lower-case.
QString kindName(Kind kind)
{
    switch (kind) {
    case Kind::Election:
        return QStringLiteral("election");
    case Kind::Mutex:
        return QStringLiteral("mutex");
    case Kind::ReadWriteLock:
        return QStringLiteral("rwlock");
    case Kind::Semaphore:
        return QStringLiteral("semaphore");
    case Kind::Barrier:
        return QStringLiteral("barrier");
    case Kind::CountedBarrier:
        return QStringLiteral("counted-barrier");
    case Kind::DoubleBarrier:
        return QStringLiteral("double-barrier");
    case Kind::Number:
        return QStringLiteral("number");
    case Kind::TransientKey:
        return QStringLiteral("transient");
    case Kind::Service:
        return QStringLiteral("service");
    case Kind::Queue:
        return QStringLiteral("queue");
    case Kind::PriorityQueue:
        return QStringLiteral("priority-queue");
    case Kind::WorkQueue:
        return QStringLiteral("work-queue");
    }
    return {};
}

QString roleName(Role role)
{
    switch (role) {
    case Role::Leader:
        return QStringLiteral("leader");
    case Role::Participant:
        return QStringLiteral("participant");
    case Role::Holder:
        return QStringLiteral("holder");
    case Role::Waiter:
        return QStringLiteral("waiter");
    case Role::Unranked:
        return QStringLiteral("unranked");
    case Role::Ready:
        return QStringLiteral("ready");
    case Role::Member:
        return QStringLiteral("member");
    case Role::Setter:
        return QStringLiteral("setter");
    case Role::Value:
        return QStringLiteral("value");
    case Role::Instance:
        return QStringLiteral("instance");
    case Role::Item:
        return QStringLiteral("item");
    case Role::Marker:
        return QStringLiteral("marker");
    case Role::Claimed:
        return QStringLiteral("claimed");
    case Role::Claim:
        return QStringLiteral("claim");
    case Role::Attempts:
        return QStringLiteral("attempts");
    case Role::DeadLetter:
        return QStringLiteral("dead-letter");
    case Role::Delayed:
        return QStringLiteral("delayed");
    }
    return {};
}

QString sideName(Side side)
{
    switch (side) {
    case Side::None:
        return {};
    case Side::Read:
        return QStringLiteral("read");
    case Side::Write:
        return QStringLiteral("write");
    case Side::Enter:
        return QStringLiteral("enter");
    case Side::Leave:
        return QStringLiteral("leave");
    }
    return {};
}

} // namespace Etcd::Decode
