// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
// A strict reader of Prometheus' text exposition format (version 0.0.4), for the tests of the
// metrics registry and exporter: it refuses what Prometheus' own parser refuses and more
// (series out of their family, a histogram whose buckets do not add up), so that what we
// serve is what a scraper can take. Written from the format's description
// (prometheus.io/docs/instrumenting/exposition_formats), not from any parser's code.
#pragma once

#include <QtCore/qbytearray.h>
#include <QtCore/qhash.h>
#include <QtCore/qlist.h>
#include <QtCore/qmap.h>
#include <QtCore/qset.h>
#include <QtCore/qstring.h>

#include <cmath>
#include <limits>
#include <optional>

namespace PromParse {

struct Sample
{
    QByteArray name;
    QMap<QByteArray, QByteArray> labels; // unescaped values
    double value = 0;
};

struct Exposition
{
    QHash<QByteArray, QByteArray> types; // family -> counter, gauge, histogram, ...
    QList<Sample> samples;
    QString error; // empty when the text is valid

    // The sum of the samples named `name` whose labels include every one of `labels`.
    double sum(const QByteArray &name, const QMap<QByteArray, QByteArray> &labels = {}) const
    {
        double total = 0;
        for (const Sample &s : samples) {
            if (s.name != name)
                continue;
            bool match = true;
            for (auto it = labels.begin(); it != labels.end() && match; ++it)
                match = s.labels.value(it.key()) == it.value();
            if (match)
                total += s.value;
        }
        return total;
    }
};

namespace Detail {

inline bool isNameStart(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':';
}
inline bool isNameChar(char c)
{
    return isNameStart(c) || (c >= '0' && c <= '9');
}
inline bool isMetricName(const QByteArray &n)
{
    if (n.isEmpty() || !isNameStart(n.at(0)))
        return false;
    for (char c : n) {
        if (!isNameChar(c))
            return false;
    }
    return true;
}
inline bool isLabelName(const QByteArray &n)
{
    return isMetricName(n) && !n.contains(':') && !n.startsWith("__");
}

inline std::optional<double> parseValue(const QByteArray &text)
{
    if (text == "+Inf")
        return std::numeric_limits<double>::infinity();
    if (text == "-Inf")
        return -std::numeric_limits<double>::infinity();
    if (text == "NaN")
        return std::numeric_limits<double>::quiet_NaN();
    bool ok = false;
    const double v = text.toDouble(&ok);
    if (!ok || text.contains(' ') || text.isEmpty())
        return std::nullopt;
    return v;
}

// The family a sample belongs to: a histogram's _bucket, _sum and _count are its own.
inline QByteArray familyOf(const QByteArray &name, const QHash<QByteArray, QByteArray> &types)
{
    for (const char *suffix : {"_bucket", "_sum", "_count"}) {
        if (name.endsWith(suffix)) {
            const QByteArray base = name.chopped(qsizetype(qstrlen(suffix)));
            if (types.value(base) == "histogram")
                return base;
        }
    }
    return name;
}

class Reader
{
public:
    explicit Reader(const QByteArray &text) : m_text(text) { }

    Exposition read()
    {
        if (!m_text.isEmpty() && !m_text.endsWith('\n'))
            return fail(QStringLiteral("the last line has no newline"));
        int lineNo = 0;
        for (const QByteArray &line : m_text.split('\n')) {
            ++lineNo;
            if (line.isEmpty())
                continue;
            const QString why = line.startsWith('#') ? comment(line) : sample(line);
            if (!why.isEmpty())
                return fail(QStringLiteral("line %1: %2: %3")
                                .arg(lineNo)
                                .arg(why, QString::fromUtf8(line.left(120))));
        }
        if (const QString why = checkHistograms(); !why.isEmpty())
            return fail(why);
        return m_out;
    }

private:
    Exposition fail(const QString &why)
    {
        m_out.error = why;
        return m_out;
    }

    // A family may not come back once another one started.
    QString enter(const QByteArray &family)
    {
        if (family == m_current)
            return {};
        if (m_seenFamilies.contains(family))
            return QStringLiteral("%1 continues after another family")
                .arg(QString::fromUtf8(family));
        m_seenFamilies.insert(family);
        m_current = family;
        return {};
    }

    QString comment(const QByteArray &line)
    {
        const QList<QByteArray> parts = line.split(' ');
        if (parts.size() < 3 || (parts[1] != "HELP" && parts[1] != "TYPE"))
            return {}; // a plain comment
        const QByteArray &name = parts[2];
        if (!isMetricName(name))
            return QStringLiteral("bad metric name");
        if (const QString why = enter(name); !why.isEmpty())
            return why;
        if (parts[1] == "HELP") {
            if (std::exchange(m_help[name], true))
                return QStringLiteral("a second HELP");
            return {};
        }
        static const QSet<QByteArray> kTypes {
            "counter", "gauge", "histogram", "summary", "untyped"};
        if (parts.size() != 4 || !kTypes.contains(parts[3]))
            return QStringLiteral("bad TYPE");
        if (m_out.types.contains(name))
            return QStringLiteral("a second TYPE");
        if (m_sampled.contains(name))
            return QStringLiteral("TYPE after the family's samples");
        m_out.types.insert(name, parts[3]);
        return {};
    }

    QString labels(const QByteArray &line, qsizetype &at, Sample &s)
    {
        ++at; // '{'
        while (at < line.size() && line.at(at) != '}') {
            const qsizetype eq = line.indexOf('=', at);
            if (eq < 0)
                return QStringLiteral("label without a value");
            const QByteArray name = line.mid(at, eq - at);
            if (!isLabelName(name) || s.labels.contains(name))
                return QStringLiteral("bad or repeated label name");
            at = eq + 1;
            if (at >= line.size() || line.at(at) != '"')
                return QStringLiteral("label value not quoted");
            QByteArray value;
            for (++at; at < line.size() && line.at(at) != '"'; ++at) {
                if (line.at(at) != '\\') {
                    value += line.at(at);
                    continue;
                }
                if (++at >= line.size())
                    return QStringLiteral("escape at the end");
                const char e = line.at(at);
                if (e != '\\' && e != '"' && e != 'n')
                    return QStringLiteral("bad escape in a label value");
                value += e == 'n' ? '\n' : e;
            }
            if (at >= line.size())
                return QStringLiteral("unterminated label value");
            if (QString::fromUtf8(value).toUtf8() != value)
                return QStringLiteral("label value is not UTF-8");
            s.labels.insert(name, value);
            ++at; // closing quote
            if (at < line.size() && line.at(at) == ',')
                ++at;
            else if (at < line.size() && line.at(at) != '}')
                return QStringLiteral("labels not separated by commas");
        }
        if (at >= line.size())
            return QStringLiteral("unterminated labels");
        ++at; // '}'
        return {};
    }

    QString sample(const QByteArray &line)
    {
        Sample s;
        qsizetype at = 0;
        while (at < line.size() && isNameChar(line.at(at)))
            ++at;
        s.name = line.left(at);
        if (!isMetricName(s.name))
            return QStringLiteral("bad metric name");
        if (at < line.size() && line.at(at) == '{') {
            if (const QString why = labels(line, at, s); !why.isEmpty())
                return why;
        }
        if (at >= line.size() || line.at(at) != ' ')
            return QStringLiteral("no value");
        const QList<QByteArray> rest = line.mid(at + 1).split(' ');
        if (rest.size() > 2)
            return QStringLiteral("more than a value and a timestamp");
        const std::optional<double> value = parseValue(rest.at(0));
        if (!value)
            return QStringLiteral("bad value");
        s.value = *value;
        const QByteArray family = familyOf(s.name, m_out.types);
        if (const QString why = enter(family); !why.isEmpty())
            return why;
        if (const QString why = typed(family, s); !why.isEmpty())
            return why;
        QByteArray series = s.name;
        for (auto it = s.labels.begin(); it != s.labels.end(); ++it)
            series += '\0' + it.key() + '=' + it.value();
        if (m_series.contains(series))
            return QStringLiteral("a series twice");
        m_series.insert(series);
        m_sampled.insert(family);
        m_out.samples.append(s);
        return {};
    }

    // What the family's TYPE asks of a sample.
    QString typed(const QByteArray &family, const Sample &s) const
    {
        const QByteArray type = m_out.types.value(family);
        if (type == "counter" && (s.value < 0 || std::isnan(s.value)))
            return QStringLiteral("a negative counter");
        if (type != "histogram")
            return s.name == family ? QString() : QStringLiteral("not a sample of its family");
        if (s.name.endsWith("_bucket") != s.labels.contains("le"))
            return QStringLiteral("a bucket needs le, and only a bucket has it");
        if (s.name.endsWith("_bucket") && !parseValue(s.labels.value("le")))
            return QStringLiteral("le is no number");
        return {};
    }

    // Per histogram series: buckets in increasing le with non-decreasing counts, ending at
    // +Inf, which equals _count; _sum and _count present.
    QString checkHistograms() const
    {
        struct Series
        {
            QList<std::pair<double, double>> buckets;
            std::optional<double> count;
            bool sum = false;
        };
        QMap<QByteArray, Series> all;
        for (const Sample &s : m_out.samples) {
            const QByteArray family = familyOf(s.name, m_out.types);
            if (m_out.types.value(family) != "histogram")
                continue;
            QMap<QByteArray, QByteArray> rest = s.labels;
            rest.remove("le");
            QByteArray key = family;
            for (auto it = rest.begin(); it != rest.end(); ++it)
                key += '\0' + it.key() + '=' + it.value();
            Series &h = all[key];
            if (s.name.endsWith("_bucket"))
                h.buckets.append({*parseValue(s.labels.value("le")), s.value});
            else if (s.name.endsWith("_count"))
                h.count = s.value;
            else
                h.sum = true;
        }
        for (auto it = all.begin(); it != all.end(); ++it) {
            const Series &h = it.value();
            const QString name = QString::fromUtf8(it.key()).replace(QChar(0), QLatin1Char(' '));
            if (h.buckets.isEmpty() || !h.count || !h.sum)
                return QStringLiteral("histogram %1 lacks buckets, _sum or _count").arg(name);
            for (qsizetype i = 1; i < h.buckets.size(); ++i) {
                if (h.buckets[i].first <= h.buckets[i - 1].first
                    || h.buckets[i].second < h.buckets[i - 1].second)
                    return QStringLiteral("histogram %1: buckets out of order").arg(name);
            }
            if (!std::isinf(h.buckets.last().first) || h.buckets.last().second != *h.count)
                return QStringLiteral("histogram %1: +Inf bucket is not _count").arg(name);
        }
        return {};
    }

    const QByteArray &m_text;
    Exposition m_out;
    QByteArray m_current;
    QSet<QByteArray> m_seenFamilies;
    QSet<QByteArray> m_sampled;
    QSet<QByteArray> m_series;
    QHash<QByteArray, bool> m_help;
};

} // namespace Detail

inline Exposition parse(const QByteArray &text)
{
    return Detail::Reader(text).read();
}

} // namespace PromParse
