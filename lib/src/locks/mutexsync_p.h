// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
//  W A R N I N G: internal header, not part of the EtcdQt API.
#pragma once

#include "holdbook_p.h"

#include <map>

namespace Etcd::Internal {

// A lock's holds: per thread, reentrant, with the token of each thread's hold, and how many
// of a thread's unlock()s must return false (its hold was lost or closed).
class ETCDQT_AUTOTEST_EXPORT MutexSync : public HoldBook
{
public:
    MutexSync();
    // A nested lock() by a thread that holds already: counted, true. False when it does not
    // hold (or the lock is closed), and when its hold's lease deadline passed (the hold is
    // dispossessed then, as the engine's loseLease() would).
    bool reenter(ThreadId t);
    // One unlock() by `t`: a nested hold (Nested), the last one (Last: `*id` is the
    // acquisition to release, `*hold` the hold), one whose hold was lost or closed, or none
    // at all.
    Release release(ThreadId t, quint64 *id, Lease *hold = nullptr);

    [[nodiscard]] int holdCount(ThreadId t) const;
    [[nodiscard]] EtcdFencingToken token(ThreadId t) const;
    [[nodiscard]] bool holdsId(ThreadId t, quint64 id) const;

private:
    struct Hold
    {
        int count = 0;
        EtcdFencingToken token;
        quint64 id = 0; // the owner thread's acquisition behind it
    };
    struct ThreadHolds : Holds
    {
        std::map<ThreadId, Hold> live;
        std::map<ThreadId, int> dispossessed; // unlock()s that must return false
        void record(ThreadId t, const EtcdFencingToken &token, quint64 id) override;
        bool dispossess(quint64 id) override;
        void dispossessAll() override;
    };
};

} // namespace Etcd::Internal
