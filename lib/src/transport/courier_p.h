// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
//  W A R N I N G: internal header, not part of the EtcdQt API.
#pragma once

#include "mailbox_p.h"

#include <functional>
#include <memory>
#include <vector>

namespace Etcd::Internal {

// One call for the target of a mailbox, made only while the mailbox is open.
struct CourierItem
{
    MailboxPtr mailbox;
    std::function<void()> call;
};

// Carries many mailboxes' calls to one thread in one Qt event. A change that n watches of a
// thread share (n candidates of one election in one process) was n posted events: n
// allocations, locks and wake-ups on the gRPC thread, n dispatches in the owner's. The calls
// of one post run in order; every post of a thread goes through its one Courier, so calls keep
// the order they were posted in, even when one of them runs a nested event loop (the rest of
// the interrupted post runs before anything posted after it). A mailbox whose target moved to
// another thread since gets its call posted there instead.
class Courier : public QObject
{
public:
    // The courier of `thread`, shared by everyone posting there; it lives while anyone holds it.
    static std::shared_ptr<Courier> of(QThread *thread);
    // Any thread.
    static void post(const std::shared_ptr<Courier> &courier, std::vector<CourierItem> items);

private:
    struct Run
    {
        std::vector<CourierItem> *items;
        size_t next = 0;
    };
    void run(std::vector<CourierItem> &items);
    static void drain(Run &run);

    std::vector<Run *> m_runs; // this thread's posts being run, outermost (oldest) first
};

// The calls of one moment, gathered per courier and posted once to each.
class CourierBatch
{
public:
    void add(const std::shared_ptr<Courier> &courier, CourierItem item);
    void post();

private:
    std::vector<std::pair<std::shared_ptr<Courier>, std::vector<CourierItem>>> m_byCourier;
};

} // namespace Etcd::Internal
