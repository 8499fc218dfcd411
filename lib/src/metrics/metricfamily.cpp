// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "metricfamily_p.h"

#include <QtCore/qstring.h>

#include <algorithm>
#include <cmath>

namespace Etcd::Internal {

namespace {
constexpr double kNsPerSecond = 1e9;
} // namespace

Histogram::Histogram(std::span<const double> bounds)
    : m_bounds(bounds), m_buckets(std::make_unique<std::atomic<quint64>[]>(bounds.size() + 1))
{
    m_boundsNs.reserve(bounds.size());
    for (double b : bounds)
        m_boundsNs.push_back(qint64(std::llround(b * kNsPerSecond)));
}

void Histogram::observe(EtcdMetrics::Duration value)
{
    const qint64 ns = std::max<qint64>(value.count(), 0);
    // The first bound the value does not exceed (Prometheus' `le`); past the last: +Inf.
    const auto at = std::lower_bound(m_boundsNs.begin(), m_boundsNs.end(), ns);
    m_buckets[std::size_t(at - m_boundsNs.begin())].fetch_add(1, std::memory_order_relaxed);
    m_sumNs.fetch_add(quint64(ns), std::memory_order_relaxed);
    m_count.fetch_add(1, std::memory_order_relaxed);
}

void Histogram::write(QByteArray &out, const QByteArray &name, const QByteArray &labels) const
{
    // Read the buckets first and derive the count from them: written while observations go
    // on, the lines still agree with each other (cumulative, +Inf equal to _count).
    const QByteArray bucket = name + "_bucket";
    const QByteArray sep = labels.isEmpty() ? QByteArray() : labels + ',';
    quint64 cumulative = 0;
    for (std::size_t i = 0; i <= m_bounds.size(); ++i) {
        cumulative += m_buckets[i].load(std::memory_order_relaxed);
        const QByteArray le = i < m_bounds.size() ? PromText::number(m_bounds[i]) : "+Inf";
        PromText::sample(out, bucket, sep + "le=\"" + le + '"', qint64(cumulative));
    }
    const double sum = double(m_sumNs.load(std::memory_order_relaxed)) / kNsPerSecond;
    out += name + "_sum" + (labels.isEmpty() ? QByteArray() : '{' + labels + '}') + ' '
        + PromText::number(sum) + '\n';
    PromText::sample(out, name + "_count", labels, qint64(cumulative));
}

MetricFamily::MetricFamily(const char *name, const char *help, Kind kind,
    std::vector<const char *> labelNames, std::span<const double> buckets)
    : m_name(name), m_help(help), m_kind(kind), m_labelNames(std::move(labelNames)),
      m_buckets(buckets)
{ }

MetricFamily::Series &MetricFamily::series(const Labels &labels)
{
    std::lock_guard lock(m_mutex);
    std::unique_ptr<Series> &s = m_series[labels];
    if (!s) {
        s = std::make_unique<Series>();
        if (m_kind == Kind::Histogram)
            s->histogram = std::make_unique<Histogram>(m_buckets);
    }
    return *s;
}

void MetricFamily::add(const Labels &labels, qint64 delta)
{
    series(labels).value.fetch_add(delta, std::memory_order_relaxed);
}

void MetricFamily::set(const Labels &labels, qint64 value)
{
    series(labels).value.store(value, std::memory_order_relaxed);
}

void MetricFamily::observe(const Labels &labels, EtcdMetrics::Duration value)
{
    series(labels).histogram->observe(value);
}

QByteArray MetricFamily::labelText(const Labels &labels) const
{
    QByteArray text;
    for (std::size_t i = 0; i < labels.size() && i < m_labelNames.size(); ++i) {
        if (i > 0)
            text += ',';
        text += QByteArray(m_labelNames[i]) + "=\"" + PromText::labelValue(labels[i]) + '"';
    }
    return text;
}

void MetricFamily::write(QByteArray &out) const
{
    static constexpr const char *kTypes[] = {"counter", "gauge", "histogram"};
    PromText::header(out, m_name, m_help, kTypes[int(m_kind)]);
    const QByteArray name(m_name);
    std::lock_guard lock(m_mutex);
    for (const auto &[labels, s] : m_series) {
        if (s->histogram)
            s->histogram->write(out, name, labelText(labels));
        else
            PromText::sample(out, name, labelText(labels), s->value.load());
    }
}

namespace PromText {

void header(QByteArray &out, const char *name, const char *help, const char *type)
{
    out += QByteArray("# HELP ") + name + ' ' + help + "\n# TYPE " + name + ' ' + type + '\n';
}

QByteArray labelValue(QByteArrayView raw)
{
    // Recipe paths are bytes; the format wants UTF-8. Invalid sequences become U+FFFD.
    const QByteArray utf8 = QString::fromUtf8(raw).toUtf8();
    QByteArray escaped;
    escaped.reserve(utf8.size());
    for (char c : utf8) {
        if (c == '\\')
            escaped += "\\\\";
        else if (c == '"')
            escaped += "\\\"";
        else if (c == '\n')
            escaped += "\\n";
        else
            escaped += c;
    }
    return escaped;
}

void sample(QByteArray &out, const QByteArray &name, const QByteArray &labels, qint64 value)
{
    out += name;
    if (!labels.isEmpty())
        out += '{' + labels + '}';
    out += ' ' + QByteArray::number(value) + '\n';
}

QByteArray number(double value)
{
    return QByteArray::number(value, 'g', 15);
}

} // namespace PromText

} // namespace Etcd::Internal
