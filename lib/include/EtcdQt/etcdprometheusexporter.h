// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <EtcdQt/etcdqtglobal.h>
#include <EtcdQt/etcdqtprometheus_export.h>

#include <QtCore/qobject.h>
#include <QtCore/qurl.h>
#include <QtNetwork/qhostaddress.h>

#include <memory>

class EtcdMetricsRegistry;
class EtcdPrometheusExporterPrivate;

class ETCDQT_PROMETHEUS_EXPORT EtcdPrometheusExporter : public QObject
{
    Q_OBJECT
    Q_PROPERTY(QUrl url READ url NOTIFY listening)
public:
    explicit EtcdPrometheusExporter(
        std::shared_ptr<const EtcdMetricsRegistry> registry, QObject *parent = nullptr);
    ~EtcdPrometheusExporter() override;

    bool listen(const QHostAddress &address = QHostAddress::LocalHost, quint16 port = 0);
    [[nodiscard]] bool isListening() const;
    [[nodiscard]] quint16 serverPort() const;
    [[nodiscard]] QUrl url() const;
    [[nodiscard]] QString errorString() const;
    [[nodiscard]] quint64 scrapeCount() const;

Q_SIGNALS:
    void listening(const QUrl &url);
    void scraped();

private:
    Q_DECLARE_PRIVATE(EtcdPrometheusExporter)
    std::unique_ptr<EtcdPrometheusExporterPrivate> const d_ptr;
};
