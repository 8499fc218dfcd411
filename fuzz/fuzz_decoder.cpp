// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// The recipe decoder over arbitrary key sets: keys made of recipe-like segments (so the
// fuzzer reaches every layout quickly) and raw bytes, any values, leases and revisions; then
// both of its renderings, the JSON of `etcdqt inspect --json` and its terminal text. None may
// crash, and the text may carry no control byte but the newlines between its lines.
#include "fuzzinput.h"

#include <recipedecoder.h>
#include <recipeview.h>

#include "inspecttext.h"

#include <QtCore/qjsondocument.h>

#include <cstdio>
#include <cstdlib>

namespace {
// Pieces of the recipes' layouts (reference §3), picked by the fuzzer to build keys.
const char *const kSegments[] = {"/", "LEADER", "participants", "ready", "waiting", "enter",
    "leave", "holders", "permits", "write-", "read-", "items", "claimed", "claims", "attempts",
    "dlq", "delayed", "__", "00001", "0000000000000000001", "-abc", ":", "x",
    "LeaderSelector:aB3xK9q", "\xff", "\x1b[2J", "\u202e"};

QByteArray key(FuzzInput &in)
{
    QByteArray k = "/r";
    const int parts = in.byte() % 6;
    for (int i = 0; i < parts; ++i) {
        const uint8_t pick = in.byte();
        if (pick < std::size(kSegments) * 8)
            k += kSegments[pick % std::size(kSegments)];
        else
            k += in.bytes(12);
    }
    return k;
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FuzzInput in(data, size);
    Etcd::Decode::Snapshot s;
    s.prefix = in.byte() % 2 ? QByteArray("/r") : QByteArray();
    s.revision = qint64(in.number(2));
    const int count = in.byte() % 40;
    for (int i = 0; i < count && !in.atEnd(); ++i) {
        EtcdKeyValue kv;
        kv.key = key(in);
        kv.value = in.bytes(64);
        kv.lease = qint64(in.number(1)); // a few leases, shared by keys
        kv.createRevision = qint64(in.number(2));
        kv.modRevision = kv.createRevision + qint64(in.number(1));
        kv.version = qint64(in.number(1));
        if (kv.lease && in.byte() % 2)
            s.leaseTtls.insert(kv.lease, qint64(in.number(1)) - 1);
        s.keyValues.append(kv);
    }
    const qint64 wall = in.byte() % 2 ? 1'790'000'000'000 : 0;
    const Etcd::Decode::View view = Etcd::Decode::decode(s, wall);
    const QByteArray json = QJsonDocument(Etcd::Decode::toJson(view)).toJson();
    if (QJsonDocument::fromJson(json).isNull())
        std::abort(); // toJson() must give valid JSON
    const QString text = Cli::inspectText(view);
    // By code point: a supplementary-plane format character is two surrogates to a QChar.
    for (const uint c : text.toUcs4()) {
        if (c != '\n' && Etcd::Decode::isInvisibleControl(char32_t(c))) {
            std::fprintf(stderr, "U+%04X in:\n%s\n", c, qPrintable(text));
            std::abort(); // a terminal must get no raw control, bidi or separator character
        }
    }
    return 0;
}
