// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// The clean client's side of the data recipes (the caches, the queues): numbered calls, one
// after another, the next `paceMs` after the last answered, while running. Each call's
// outcome is kept by its number: acknowledged, or unknown (it failed, so it may or may not
// have committed).
#pragma once

#include "../matrix.h"

#include <QtCore/qelapsedtimer.h>
#include <QtCore/qset.h>

namespace FaultMatrix {

class PacedCalls
{
public:
    // The n-th call (from 0); its reply is watched for finished().
    using Call = std::function<EtcdReply *(int n)>;

    explicit PacedCalls(int paceMs) : m_paceMs(paceMs) { }

    void setCall(Call call) { m_call = std::move(call); }
    void setPace(int paceMs) { m_paceMs = paceMs; }
    void setRunning(bool on) { m_running = on; }
    // Sends the next call when it is due (called on every event-loop turn).
    void pump();
    // Sends the next call now unless one is in flight; the number it got, or -1.
    int sendNow();
    // Stops and waits for the call in flight to answer; false when it never did.
    bool stop();
    [[nodiscard]] bool idle() const { return m_inFlight < 0; }
    [[nodiscard]] int sent() const { return m_next; }

    QSet<int> acked; // the calls etcd answered with success
    QSet<int> unknown; // the calls that failed: they may or may not have committed

private:
    int m_paceMs;
    Call m_call;
    bool m_running = false;
    int m_inFlight = -1;
    int m_next = 0;
    QElapsedTimer m_since; // since the last answer
    std::unique_ptr<QObject> m_context = std::make_unique<QObject>();
};

} // namespace FaultMatrix
