// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "termsync_p.h"

namespace Etcd::Internal {

using namespace std::chrono;

namespace {
// Outside the state's lock: a stop request runs the body's stop callbacks right here, and one
// of them may well ask isLeader().
void stop(std::stop_source body)
{
    if (body.stop_possible())
        body.request_stop();
}
} // namespace

std::stop_source TermSync::View::end(const Loss &why)
{
    leader = false;
    loss = why;
    if (phase == Phase::Running)
        phase = Phase::Ending; // waitUntilFinished() returns
    return interruptOnLoss ? body : std::stop_source(std::nostopstate);
}

void TermSync::begin()
{
    m_state.update([this](View &v) {
        const quint64 terms = v.terms + 1;
        v = View {};
        v.phase = Phase::Running;
        v.terms = terms;
        publish(v);
    });
}

void TermSync::markStarted()
{
    m_state.update([](View &v) { v.started = v.phase == Phase::Running; });
}

void TermSync::markLeader(
    const EtcdFencingToken &token, std::shared_ptr<LeaseShared> lease, const QByteArray &value)
{
    m_state.update([&](View &v) {
        v.token = token;
        v.ownValue = value;
        v.lease = std::move(lease);
        v.leader = true;
        if (v.lease && v.lease->isLost()) // lost between the win and this: never led
            v.end(Loss {Loss::Lease, {}}); // no body runs yet: nothing to stop
        publish(v);
    });
}

void TermSync::setBody(std::stop_source body, bool interrupt)
{
    stop(m_state.update([&](View &v) {
        v.body = std::move(body);
        v.interruptOnLoss = interrupt;
        return interrupt && v.loss ? v.body : std::stop_source(std::nostopstate);
    }));
}

void TermSync::markEnding()
{
    m_state.update([this](View &v) {
        v.leader = false;
        if (v.phase != Phase::Idle)
            v.phase = Phase::Ending;
        publish(v);
    });
}

void TermSync::finish()
{
    m_state.update([this](View &v) {
        v.leader = false;
        v.phase = Phase::Idle;
        publish(v);
    });
}

void TermSync::loseLease(qint64 leaseId, const EtcdStatus &why)
{
    stop(m_state.update([&](View &v) {
        std::stop_source body = v.leader && v.token.leaseId == leaseId
            ? v.end(Loss {Loss::Lease, why})
            : std::stop_source(std::nostopstate);
        publish(v);
        return body;
    }));
}

void TermSync::seeKeyEvents(const QList<EtcdWatchEvent> &events)
{
    stop(m_state.update([&](View &v) {
        for (const EtcdWatchEvent &e : events) {
            const bool gone
                = e.type == EtcdWatchEvent::Type::Delete || e.keyValue.value != v.ownValue;
            if (v.leader && e.revision > v.token.revision && gone) {
                std::stop_source body = v.end(Loss {Loss::Key, {}});
                publish(v);
                return body;
            }
        }
        return std::stop_source(std::nostopstate); // nothing changed
    }));
}

void TermSync::publish(const View &v) const
{
    m_leading->store(v.leader);
}

bool TermSync::isLeader() const
{
    return m_state.read([](const View &v) { return v.leads(); });
}

milliseconds TermSync::remainingValidity() const
{
    return m_state.read([](const View &v) {
        if (!v.leads() || !v.lease)
            return milliseconds(0);
        const auto left = v.lease->deadline() - steady_clock::now();
        return std::max(duration_cast<milliseconds>(left), milliseconds(0));
    });
}

EtcdFencingToken TermSync::fencingToken() const
{
    return m_state.read([](const View &v) { return v.token; });
}

quint64 TermSync::termCount() const
{
    return m_state.read([](const View &v) { return v.terms; });
}

std::optional<TermSync::Loss> TermSync::engineLoss() const
{
    return m_state.read([](const View &v) { return v.loss; });
}

} // namespace Etcd::Internal
