// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
//  W A R N I N G: internal header, not part of the EtcdQt API.
#pragma once

#include "holdbook_p.h"

#include <vector>

namespace Etcd::Internal {

// A semaphore's permits: not reentrant and not per thread; release() gives back the most
// recent one (lost ones included, which then answer false).
class PermitSync : public HoldBook
{
public:
    PermitSync();
    Release release(quint64 *id);
    [[nodiscard]] int liveCount() const;
    [[nodiscard]] EtcdFencingToken latestToken() const; // of the most recent live permit

private:
    struct Permit
    {
        quint64 id = 0;
        EtcdFencingToken token;
        bool lost = false;
    };
    struct Permits : Holds
    {
        std::vector<Permit> stack; // the most recent last
        void record(ThreadId t, const EtcdFencingToken &token, quint64 id) override;
        bool dispossess(quint64 id) override;
        void dispossessAll() override;
    };
};

} // namespace Etcd::Internal
