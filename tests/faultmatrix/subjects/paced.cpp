// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "paced.h"

namespace FaultMatrix {

void PacedCalls::pump()
{
    if (m_running && (!m_since.isValid() || m_since.elapsed() >= m_paceMs))
        sendNow();
}

int PacedCalls::sendNow()
{
    if (m_inFlight >= 0)
        return -1;
    const int n = m_next++;
    m_inFlight = n;
    EtcdReply *reply = m_call(n);
    QObject::connect(reply, &EtcdReply::finished, m_context.get(), [this, n](const EtcdStatus &s) {
        if (s.isOk())
            acked.insert(n);
        else
            unknown.insert(n);
        m_inFlight = -1;
        m_since.start();
    });
    return n;
}

bool PacedCalls::stop()
{
    m_running = false;
    return waitFor([this] { return idle(); });
}

} // namespace FaultMatrix
