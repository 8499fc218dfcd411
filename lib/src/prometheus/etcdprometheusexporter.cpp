// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include <EtcdQt/etcdmetricsregistry.h>
#include <EtcdQt/etcdprometheusexporter.h>

#include <QtHttpServer/qhttpserver.h>
#include <QtHttpServer/qhttpserverresponse.h>
#include <QtNetwork/qtcpserver.h>

/*!
    \class EtcdPrometheusExporter
    \inmodule EtcdQt
    \brief Serves an EtcdMetricsRegistry at \c /metrics over HTTP, in Prometheus' text
    exposition format, with nothing but Qt (Qt HttpServer).

    \snippet cpp/observability.cpp exporter

    Link \c EtcdQt::Prometheus (\c{find_package(EtcdQt COMPONENTS Prometheus)}); the core
    library needs neither Qt Network nor Qt HttpServer. Scrapes are answered in the exporter's
    thread, which can be a thread of its own (QObject::moveToThread()) when the owner thread is
    busy. Only \c GET \c /metrics is served; anything else is answered with 404. Listen on
    loopback (the default) unless the metrics are meant for other hosts: they name recipe
    paths.
*/

/*! \property EtcdPrometheusExporter::url
    The address to scrape (\c{http://host:port/metrics}) once listening, else empty.
*/

/*! \fn void EtcdPrometheusExporter::listening(const QUrl &url)
    Emitted when listen() succeeded: metrics are served at \a url.
*/

/*! \fn void EtcdPrometheusExporter::scraped()
    Emitted after each answered scrape.
*/

class EtcdPrometheusExporterPrivate
{
public:
    std::shared_ptr<const EtcdMetricsRegistry> registry;
    QHttpServer server;
    QTcpServer *socket = nullptr; // owned by `server` once bound
    QString error;
    quint64 scrapes = 0;
};

/*!
    Constructs an exporter of \a registry with \a parent; it serves nothing until listen().
*/
EtcdPrometheusExporter::EtcdPrometheusExporter(
    std::shared_ptr<const EtcdMetricsRegistry> registry, QObject *parent)
    : QObject(parent), d_ptr(std::make_unique<EtcdPrometheusExporterPrivate>())
{
    Q_D(EtcdPrometheusExporter);
    d->registry = std::move(registry);
    d->server.setParent(this); // moves with the exporter to another thread
    d->server.route(QStringLiteral("/metrics"), QHttpServerRequest::Method::Get, [this] {
        Q_D(EtcdPrometheusExporter);
        QByteArray text = d->registry ? d->registry->prometheusText() : QByteArray();
        ++d->scrapes;
        QMetaObject::invokeMethod(this, &EtcdPrometheusExporter::scraped, Qt::QueuedConnection);
        return QHttpServerResponse(
            QByteArrayLiteral("text/plain; version=0.0.4; charset=utf-8"), std::move(text));
    });
}

/*! Stops serving and destroys the exporter. */
EtcdPrometheusExporter::~EtcdPrometheusExporter() = default;

/*!
    Starts serving on \a address and \a port (0: any free port; serverPort() tells which).
    Returns false, with errorString() set, when the port cannot be bound or the exporter
    listens already.
*/
bool EtcdPrometheusExporter::listen(const QHostAddress &address, quint16 port)
{
    Q_D(EtcdPrometheusExporter);
    if (d->socket) {
        d->error = tr("already listening on port %1").arg(d->socket->serverPort());
        return false;
    }
    auto tcp = std::make_unique<QTcpServer>();
    if (!tcp->listen(address, port)) {
        d->error = tr("cannot listen on %1 port %2: %3")
                       .arg(address.toString(), QString::number(port), tcp->errorString());
        return false;
    }
    d->error.clear();
    d->socket = tcp.release();
    d->server.bind(d->socket); // takes ownership
    Q_EMIT listening(url());
    return true;
}

/*! Returns whether the exporter serves metrics. */
bool EtcdPrometheusExporter::isListening() const
{
    Q_D(const EtcdPrometheusExporter);
    return d->socket && d->socket->isListening();
}

/*! Returns the port metrics are served on, 0 when not listening. */
quint16 EtcdPrometheusExporter::serverPort() const
{
    Q_D(const EtcdPrometheusExporter);
    return isListening() ? d->socket->serverPort() : 0;
}

QUrl EtcdPrometheusExporter::url() const
{
    Q_D(const EtcdPrometheusExporter);
    if (!isListening())
        return {};
    QHostAddress host = d->socket->serverAddress();
    if (host == QHostAddress::Any || host == QHostAddress::AnyIPv4)
        host = QHostAddress::LocalHost;
    else if (host == QHostAddress::AnyIPv6)
        host = QHostAddress::LocalHostIPv6;
    QUrl url;
    url.setScheme(QStringLiteral("http"));
    url.setHost(host.toString());
    url.setPort(d->socket->serverPort());
    url.setPath(QStringLiteral("/metrics"));
    return url;
}

/*! Returns why the last listen() failed (empty after a success). */
QString EtcdPrometheusExporter::errorString() const
{
    Q_D(const EtcdPrometheusExporter);
    return d->error;
}

/*! Returns how many scrapes were answered. */
quint64 EtcdPrometheusExporter::scrapeCount() const
{
    Q_D(const EtcdPrometheusExporter);
    return d->scrapes;
}
