// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// One scrape of a Prometheus endpoint over HTTP, read by the strict parser of
// tests/unit/prometheustext.h (tst_etcdmetrics, tst_etcdqtcli_metrics).
#pragma once

#include "prometheustext.h"

#include <QtNetwork/qnetworkaccessmanager.h>
#include <QtNetwork/qnetworkreply.h>
#include <QtTest/qsignalspy.h>

// The parsed exposition at `url`; its error says what went wrong (no answer within `ms`, an
// HTTP error, a content type other than the text format's, text that is not the format).
inline PromParse::Exposition scrapeMetrics(QNetworkAccessManager &http, const QUrl &url, int ms)
{
    using namespace Qt::StringLiterals;
    QNetworkReply *reply = http.get(QNetworkRequest(url));
    QSignalSpy done(reply, &QNetworkReply::finished);
    PromParse::Exposition e;
    const QString type = [&] {
        if (!reply->isFinished() && !done.wait(ms))
            return QString();
        return reply->header(QNetworkRequest::ContentTypeHeader).toString();
    }();
    if (!reply->isFinished())
        e.error = u"no answer within %1 ms"_s.arg(ms);
    else if (reply->error() != QNetworkReply::NoError)
        e.error = reply->errorString();
    else if (!type.startsWith(u"text/plain; version=0.0.4"_s))
        e.error = u"content type "_s + type;
    else
        e = PromParse::parse(reply->readAll());
    reply->deleteLater();
    return e;
}
