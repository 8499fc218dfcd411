// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
//  W A R N I N G: internal header, not part of the EtcdQt API.
#pragma once

#include <EtcdQt/etcdmetrics.h>

#include <QtCore/qbytearray.h>

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <vector>

namespace Etcd::Internal {

// A histogram with fixed upper bounds (seconds), lock-free to observe. Bucket counts are kept
// apart and made cumulative when written, so an observation touches three counters.
class Histogram
{
public:
    explicit Histogram(std::span<const double> bounds);
    void observe(EtcdMetrics::Duration value);
    // `name`_bucket / _sum / _count lines, each with `labels` ("" or `a="b",c="d"`).
    void write(QByteArray &out, const QByteArray &name, const QByteArray &labels) const;
    [[nodiscard]] quint64 count() const { return m_count.load(std::memory_order_relaxed); }

private:
    std::span<const double> m_bounds;
    std::vector<qint64> m_boundsNs; // the same bounds, to compare integers
    std::unique_ptr<std::atomic<quint64>[]> m_buckets; // one per bound, then +Inf
    std::atomic<quint64> m_count {0};
    std::atomic<quint64> m_sumNs {0};
};

// One metric family whose series are told apart by label values; thread-safe. Series are
// created on first use and never removed (their number is bounded by the label values the
// registry lets through).
class MetricFamily
{
public:
    enum class Kind { Counter, Gauge, Histogram };
    MetricFamily(const char *name, const char *help, Kind kind,
        std::vector<const char *> labelNames, std::span<const double> buckets = {});

    using Labels = std::vector<QByteArray>;
    void add(const Labels &labels, qint64 delta); // a counter or a gauge
    void set(const Labels &labels, qint64 value); // a gauge
    void observe(const Labels &labels, EtcdMetrics::Duration value); // a histogram
    void write(QByteArray &out) const;

private:
    struct Series
    {
        std::atomic<qint64> value {0};
        std::unique_ptr<Histogram> histogram;
    };
    Series &series(const Labels &labels);
    [[nodiscard]] QByteArray labelText(const Labels &labels) const;

    const char *m_name;
    const char *m_help;
    Kind m_kind;
    std::vector<const char *> m_labelNames;
    std::span<const double> m_buckets;
    mutable std::mutex m_mutex;
    std::map<Labels, std::unique_ptr<Series>> m_series;
};

namespace PromText {
// `# HELP` and `# TYPE` of a family.
void header(QByteArray &out, const char *name, const char *help, const char *type);
// A label value escaped for the text format (backslash, quote, newline), valid UTF-8.
QByteArray labelValue(QByteArrayView raw);
// `name{labels} value\n` (no braces for empty labels).
void sample(QByteArray &out, const QByteArray &name, const QByteArray &labels, qint64 value);
QByteArray number(double value);
} // namespace PromText

} // namespace Etcd::Internal
