// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// Service discovery's layout (etcd-recipes.md §2.7): <P>/names/<service>/<id> holding the
// instance's ServiceInstance JSON, on a self-healing lease of its own.
#include "recipelayouts_p.h"

#include <QtCore/qcoreapplication.h>
#include <QtCore/qjsondocument.h>

#include <algorithm>

namespace Etcd::Decode::Layouts {

namespace {
struct ServiceShape
{
    QByteArray path; // <P>/names/<service>
    QByteArray id;
};

std::optional<ServiceShape> serviceShape(const QByteArray &key)
{
    const QByteArray path = parentOf(key);
    const QByteArray id = lastSegment(key);
    if (!key.contains('/') || id.isEmpty() || !path.contains('/'))
        return std::nullopt;
    if (lastSegment(path).isEmpty() || lastSegment(parentOf(path)) != "names")
        return std::nullopt;
    return ServiceShape {path, id};
}

// The key names the instance; its JSON should say the same. A JSON without an id got a
// random one from fromJson(), as the Kotlin reader would: the key's id is the one that counts.
void reconcile(EtcdServiceInstance &s, const EtcdKeyValue &kv, const ServiceShape &shape,
    const QString &service, Recipe &r)
{
    const QString id = QString::fromUtf8(shape.id);
    if (s.id != id) {
        if (QJsonDocument::fromJson(kv.value).object().contains(QLatin1String("id")))
            r.notes.append(QCoreApplication::translate(
                "Etcd::Decode", "%1 holds the JSON of instance \"%2\": its key's id counts")
                               .arg(QString::fromUtf8(kv.key), s.id));
        s.id = id;
    }
    if (s.name != service)
        r.notes.append(
            QCoreApplication::translate("Etcd::Decode", "%1 holds the JSON of service \"%2\"")
                .arg(QString::fromUtf8(kv.key), s.name));
    if (kv.lease == 0)
        r.notes.append(QCoreApplication::translate(
            "Etcd::Decode", "%1 is on no lease: it outlives whoever registered it")
                           .arg(QString::fromUtf8(kv.key)));
}
} // namespace

QList<Recipe> takeServices(Pool &pool)
{
    QMap<QByteArray, Recipe> services;
    for (const EtcdKeyValue &kv : pool.keys.values()) {
        const std::optional<ServiceShape> shape = serviceShape(kv.key);
        if (!shape)
            continue;
        std::optional<EtcdServiceInstance> s = EtcdServiceInstance::fromJson(kv.value);
        if (!s)
            continue; // not an instance: a later pass, or raw
        Recipe &r = services[shape->path];
        r.kind = Kind::Service;
        r.path = shape->path;
        reconcile(*s, kv, *shape, QString::fromUtf8(lastSegment(shape->path)), r);
        Entry e = pool.take(kv, Role::Instance, s->id);
        e.service = std::move(s);
        r.entries.append(std::move(e));
    }
    for (Recipe &r : services)
        std::stable_sort(r.entries.begin(), r.entries.end(),
            [](const Entry &a, const Entry &b) { return a.createRevision < b.createRevision; });
    return services.values();
}

} // namespace Etcd::Decode::Layouts
