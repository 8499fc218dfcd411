// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "courier_p.h"
#include "weakregistry_p.h"

#include <algorithm>

namespace Etcd::Internal {

namespace {

using Couriers = WeakRegistry<const QThread *, Courier>;
Q_GLOBAL_STATIC(Couriers, couriers)

} // namespace

std::shared_ptr<Courier> Courier::of(QThread *thread)
{
    // A QThread at the address of a finished one: its courier (thread() now null) is not ours.
    const auto ours = [thread](const Courier &courier) { return courier.thread() == thread; };
    return couriers->obtain(thread, ours, [thread] {
        auto *courier = new Courier;
        courier->moveToThread(thread);
        // The last holder may be any thread: the courier is deleted in its own. There, at
        // once: the last holder can be a post Qt discards with its thread's event list locked
        // (an application's teardown), and deleteLater() would post to that list: a deadlock.
        return std::shared_ptr<Courier>(courier, [](Courier *c) {
            if (c->thread() == QThread::currentThread())
                delete c;
            else
                c->deleteLater();
        });
    });
}

void Courier::post(const std::shared_ptr<Courier> &courier, std::vector<CourierItem> items)
{
    postQueued(courier.get(), [c = courier, items = std::move(items)]() mutable { c->run(items); });
}

void Courier::run(std::vector<CourierItem> &items)
{
    // Inside a nested event loop, the posts it interrupted are older than this one: their
    // rest goes first, outermost first (an item may nest again: the index moves on before).
    for (size_t i = 0; i < m_runs.size(); ++i)
        drain(*m_runs[i]);
    Run self {&items};
    m_runs.push_back(&self);
    drain(self);
    m_runs.pop_back();
}

void Courier::drain(Run &run)
{
    while (run.next < run.items->size()) {
        CourierItem &item = (*run.items)[run.next++];
        if (item.mailbox->opensHere())
            item.call();
        else
            item.mailbox->post(std::move(item.call)); // closed: dropped; moved: followed
    }
}

void CourierBatch::add(const std::shared_ptr<Courier> &courier, CourierItem item)
{
    auto it = std::find_if(m_byCourier.begin(), m_byCourier.end(),
        [&courier](const auto &entry) { return entry.first == courier; });
    if (it == m_byCourier.end())
        it = m_byCourier.insert(m_byCourier.end(), {courier, {}});
    it->second.push_back(std::move(item));
}

void CourierBatch::post()
{
    for (auto &[courier, items] : std::exchange(m_byCourier, {}))
        Courier::post(courier, std::move(items));
}

} // namespace Etcd::Internal
