// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// The words the inspector's models show for recipes, keys and leases, in one place so every
// model says "holder" or "expired" the same way and translators see each phrase once.
#pragma once

#include <recipeview.h>

#include <QtCore/qcoreapplication.h>
#include <QtCore/qstring.h>

namespace Inspector {

class LeaseClock;

class RecipeText
{
    Q_DECLARE_TR_FUNCTIONS(Inspector::RecipeText)
public:
    static QString kind(Etcd::Decode::Kind kind);
    static QString role(Etcd::Decode::Role role);
    static QString roleWithSide(
        Etcd::Decode::Role role, Etcd::Decode::Side side); // "holder (write)"
    static QString roleWithSide(const Etcd::Decode::Entry &entry);
    // Who an entry stands for: a service instance's id and endpoint; else its owner, else its
    // proclamation, else its lease.
    static QString who(const Etcd::Decode::Entry &entry);
    static QString instance(const EtcdServiceInstance &instance); // "a1b2c3d at host:8080"
    static QString registered(const EtcdServiceInstance &instance); // local time, short
    static QString summary(const Etcd::Decode::Recipe &recipe);

    // Text when the bytes are valid UTF-8 without control characters, else spaced hex;
    // cut to maxChars with an ellipsis.
    static QString printable(const QByteArray &bytes, qsizetype maxChars = 200);
    static QString leaseHex(qint64 lease); // lowercase hex as etcdctl prints it, "—" for none
    // "4 s", "expired", or "?" while the clock knows nothing of the lease; "—" for no lease.
    static QString ttl(const LeaseClock *clock, qint64 lease, qint64 nowMs);
    static QString seconds(qint64 seconds);
    static QString none(); // "—"
};

} // namespace Inspector
