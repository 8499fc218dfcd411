// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// The Leases page's rows made from a view: each lease with the keys attached to it. Made on
// InspectorSession's builder thread beside the view, so the GUI thread only diffs them.
#pragma once

#include <recipeview.h>

#include <QtCore/qlist.h>

namespace Inspector {

// One key on a lease, with what the decoder made of it.
struct LeaseAttached
{
    QByteArray key;
    QByteArray path; // the owning recipe; empty for a raw key
    Etcd::Decode::Kind kind = Etcd::Decode::Kind::TransientKey;
    Etcd::Decode::Role role = Etcd::Decode::Role::Value;
    Etcd::Decode::Side side = Etcd::Decode::Side::None;
    bool raw = false;

    friend bool operator==(const LeaseAttached &, const LeaseAttached &) = default;
};

// A lease and its keys, by key.
struct LeaseGroup
{
    qint64 lease = 0;
    QList<LeaseAttached> keys;
};

// Every lease a key of the view (a recipe's or a raw one) is attached to, by lease id. At
// 100,000 keys this grouping was most of the 25-40 ms LeaseModel::setView took in the GUI
// thread on every view.
[[nodiscard]] QList<LeaseGroup> leaseGroupsOf(const Etcd::Decode::View &view);

} // namespace Inspector
