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
    Release release(quint64 *id);
    [[nodiscard]] int liveCount() const;
    [[nodiscard]] EtcdFencingToken latestToken() const; // of the most recent live permit

protected:
    void record(ThreadId t, const EtcdFencingToken &token, quint64 id) override;
    bool dispossessLocked(quint64 id) override;
    void dispossessAllLocked() override;

private:
    struct Permit
    {
        quint64 id = 0;
        EtcdFencingToken token;
        bool lost = false;
    };
    std::vector<Permit> permits;
};

} // namespace Etcd::Internal
