// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
//  W A R N I N G: internal header, not part of the EtcdQt API.
#pragma once

#include "etcdqt_internal_p.h"

#include <EtcdQt/etcdserviceinstance.h>
#include <EtcdQt/etcdserviceprovider.h>

#include <QtCore/qhash.h>
#include <QtCore/qlist.h>
#include <QtCore/qrandom.h>

#include <chrono>
#include <functional>
#include <optional>

namespace Etcd::Internal {

// What EtcdServiceProvider decides, without Qt's event loop or etcd: which instance a call
// gets, and which instances are out for a while after failing. Time comes from an injected
// monotonic clock, so tests move it by hand. pick() is the hot path: it reads a candidate
// list kept ready (recomputed when the instances or the ejections change, never per call)
// and asks the clock only while something is ejected.
class ETCDQT_AUTOTEST_EXPORT ProviderLogic
{
public:
    using TimePoint = std::chrono::steady_clock::time_point;
    using Clock = std::function<TimePoint()>;
    using Strategy = EtcdServiceProvider::Strategy;
    using Selector = EtcdServiceProvider::Selector;

    explicit ProviderLogic(Clock clock = {}); // empty: std::chrono::steady_clock::now

    // What identifies an instance across updates: its name and id (not its other fields).
    [[nodiscard]] static QString keyOf(const EtcdServiceInstance &instance);

    // The cache's instances, all of them (enabled or not), as they are now.
    void setInstances(const QList<EtcdServiceInstance> &instances);
    [[nodiscard]] const QList<EtcdServiceInstance> &instances() const { return m_all; }
    // Those a pick chooses from: enabled and not ejected, at the clock's now.
    [[nodiscard]] QList<EtcdServiceInstance> candidates() const;

    // One of the candidates by the strategy; nullopt when there is none (or the selector
    // declined). Ejections whose period is over end here if they have not yet.
    [[nodiscard]] std::optional<EtcdServiceInstance> pick();

    [[nodiscard]] Strategy strategy() const { return m_strategy; }
    void setStrategy(Strategy strategy);
    void setSelector(Selector selector); // the strategy becomes Custom
    [[nodiscard]] int errorThreshold() const { return m_threshold; }
    void setErrorThreshold(int errors); // at least 1
    [[nodiscard]] std::chrono::milliseconds downPeriod() const { return m_downPeriod; }
    void setDownPeriod(std::chrono::milliseconds period); // at least 0

    // Counts an error of `instance`; returns true when this one ejected it (the threshold's
    // error). Errors of an instance that is out are not counted.
    bool noteError(const EtcdServiceInstance &instance);
    [[nodiscard]] int errorCount(const EtcdServiceInstance &instance) const;
    [[nodiscard]] bool isEjected(const EtcdServiceInstance &instance) const;
    // The ejections over by now, each reported once, as they were ejected (also those a pick()
    // or noteError() already ended). Their error counts start again from zero.
    [[nodiscard]] QList<EtcdServiceInstance> restoreDue();
    // The earliest end of an ejection still in force; nullopt when nothing is ejected.
    [[nodiscard]] std::optional<TimePoint> nextRestore() const;

private:
    struct Ejection
    {
        TimePoint until;
        EtcdServiceInstance instance;
    };

    [[nodiscard]] bool ejectedAt(const QString &key, TimePoint now) const;
    void expireIfDue();
    void refresh();

    Clock m_clock;
    QList<EtcdServiceInstance> m_all;
    QList<EtcdServiceInstance> m_candidates; // enabled, not ejected: what pick() reads
    QHash<QString, int> m_errors;
    QHash<QString, Ejection> m_ejections;
    TimePoint m_nextEnd = TimePoint::max(); // the earliest Ejection::until
    QList<EtcdServiceInstance> m_restored; // ended, not yet handed out by restoreDue()
    Strategy m_strategy = Strategy::Random;
    Selector m_selector;
    QRandomGenerator m_random;
    qint64 m_cursor = 0; // RoundRobin
    QString m_stickyKey; // Sticky: the last pick, while it is a candidate
    qsizetype m_stickyIndex = -1; // its index in m_candidates
    int m_threshold = 3;
    std::chrono::milliseconds m_downPeriod {30000};
};

} // namespace Etcd::Internal
