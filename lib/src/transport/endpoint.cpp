// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "endpoint_p.h"

#include <QtCore/qcoreapplication.h>
#include <QtCore/qfile.h>
#include <QtCore/qregularexpression.h>

using namespace Qt::StringLiterals;

namespace Etcd::Internal {

namespace {

EtcdStatus invalid(const QString &message)
{
    return EtcdStatus(Etcd::ErrorCode::InvalidArgument, message);
}

QString translated(const char *text)
{
    return QCoreApplication::translate("EtcdClient", text);
}

std::variant<Endpoint, EtcdStatus> parseOne(const QUrl &url)
{
    const QString shown = url.toDisplayString();
    if (!url.isValid())
        return invalid(
            translated(QT_TRANSLATE_NOOP("EtcdClient", "malformed endpoint URL '%1': %2"))
                .arg(shown, url.errorString()));
    const QString scheme = url.scheme();
    if (scheme != u"http" && scheme != u"https")
        return invalid(translated(
            QT_TRANSLATE_NOOP("EtcdClient", "endpoint '%1' must use http:// or https://"))
                           .arg(shown));
    if (url.host().isEmpty())
        return invalid(
            translated(QT_TRANSLATE_NOOP("EtcdClient", "endpoint '%1' has no host")).arg(shown));
    if (url.port() <= 0)
        return invalid(
            translated(QT_TRANSLATE_NOOP("EtcdClient", "endpoint '%1' has no port")).arg(shown));
    if (!url.path().isEmpty() && url.path() != u"/")
        return invalid(
            translated(QT_TRANSLATE_NOOP("EtcdClient", "endpoint '%1' must not have a path"))
                .arg(shown));
    return Endpoint {url.host(), static_cast<quint16>(url.port()), scheme == u"https"};
}

} // namespace

QString Endpoint::grpcTarget() const
{
    static const QRegularExpression ipv4(u"^\\d{1,3}(\\.\\d{1,3}){3}$"_s);
    const QString p = QString::number(port);
    if (host.contains(u':')) // QUrl hands IPv6 literals over without their brackets
        return u"ipv6:["_s + host + u"]:"_s + p;
    if (ipv4.match(host).hasMatch())
        return u"ipv4:"_s + host + u':' + p;
    return u"dns:"_s + host + u':' + p;
}

namespace {

std::variant<QByteArray, EtcdStatus> readPem(const QString &path, const char *what)
{
    if (path.isEmpty())
        return QByteArray();
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return invalid(
            translated(QT_TRANSLATE_NOOP("EtcdClient", "cannot read the TLS %1 file '%2': %3"))
                .arg(QLatin1String(what), path, file.errorString()));
    const QByteArray pem = file.readAll();
    if (!pem.contains("-----BEGIN "))
        return invalid(
            translated(QT_TRANSLATE_NOOP("EtcdClient", "the TLS %1 file '%2' is not PEM"))
                .arg(QLatin1String(what), path));
    return pem;
}

} // namespace

std::variant<TlsMaterial, EtcdStatus> loadTlsMaterial(
    const QString &caFile, const QString &certFile, const QString &keyFile)
{
    if (certFile.isEmpty() != keyFile.isEmpty())
        return invalid(translated(QT_TRANSLATE_NOOP(
            "EtcdClient", "a client certificate needs its key, and a key its certificate")));
    TlsMaterial m;
    const std::pair<QByteArray *, std::variant<QByteArray, EtcdStatus>> parts[] = {
        {&m.ca, readPem(caFile, "CA")},
        {&m.cert, readPem(certFile, "certificate")},
        {&m.key, readPem(keyFile, "key")},
    };
    for (const auto &[field, result] : parts) {
        if (auto *status = std::get_if<EtcdStatus>(&result))
            return *status;
        *field = std::get<QByteArray>(result);
    }
    return m;
}

std::variant<QList<Endpoint>, EtcdStatus> parseEndpoints(const QList<QUrl> &urls)
{
    if (urls.isEmpty())
        return invalid(translated(QT_TRANSLATE_NOOP("EtcdClient", "no endpoints given")));
    QList<Endpoint> out;
    for (const QUrl &url : urls) {
        auto one = parseOne(url);
        if (auto *status = std::get_if<EtcdStatus>(&one))
            return *status;
        out.append(std::get<Endpoint>(one));
        if (out.first().tls != out.last().tls)
            return invalid(
                translated(QT_TRANSLATE_NOOP("EtcdClient", "endpoints mix http:// and https://")));
    }
    return out;
}

} // namespace Etcd::Internal
