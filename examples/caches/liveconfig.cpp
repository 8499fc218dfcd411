// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
// A live configuration: one key holds the settings as JSON, {"logLevel": "debug"|"info"|
// "warning", "greeting": "..."}. An EtcdTypedNodeCache with the JSON codec keeps a copy and
// each change is applied as it comes, in etcd's order, without polling. A value that is not
// such a document is reported and the settings in force stay; a deleted key brings the
// defaults back. Change it from elsewhere while this runs:
//   etcdctl put /example/config/app '{"logLevel":"debug","greeting":"hi"}'
// Usage: etcdqt-example-liveconfig [http://127.0.0.1:2379] [seconds, default: until Ctrl+C]
#include "exampleutil.h"
#include "stopsignals.h"

#include <EtcdQt/EtcdQt>

#include <QtCore/qcoreapplication.h>
#include <QtCore/qjsonobject.h>
#include <QtCore/qloggingcategory.h>

#include <optional>

using namespace Qt::StringLiterals;

Q_LOGGING_CATEGORY(lcApp, "example.liveconfig")

namespace {
const QByteArray kKey = "/example/config/app"_ba;
const QStringList kLevels {u"debug"_s, u"info"_s, u"warning"_s};

struct Settings
{
    QString logLevel = u"info"_s;
    QString greeting = u"hello"_s;
};

// The settings a document holds; nullopt when it holds something else. Absent fields keep
// their defaults.
std::optional<Settings> settingsFrom(const std::optional<QJsonDocument> &document)
{
    if (!document || !document->isObject())
        return std::nullopt;
    const QJsonObject o = document->object();
    Settings s;
    s.logLevel = o.value(u"logLevel"_s).toString(s.logLevel);
    s.greeting = o.value(u"greeting"_s).toString(s.greeting);
    if (!kLevels.contains(s.logLevel)
        || (o.contains(u"greeting"_s) && !o[u"greeting"_s].isString()))
        return std::nullopt;
    return s;
}

// What "applying" means here: the log level becomes this category's filter, and the
// greeting is logged through it.
void apply(const Settings &s, const QString &why)
{
    const int level = int(kLevels.indexOf(s.logLevel));
    QLoggingCategory::setFilterRules(
        u"example.liveconfig.debug=%1\nexample.liveconfig.info=%2"_s.arg(
            level <= 0 ? u"true"_s : u"false"_s, level <= 1 ? u"true"_s : u"false"_s));
    say(u"%1: log level %2, greeting \"%3\""_s.arg(why, s.logLevel, s.greeting));
    qCInfo(lcApp) << s.greeting;
    qCDebug(lcApp) << "debug logging is on";
}

// Applies `value` when it is a settings document; else reports it, and the settings in force
// stay. The typed cache reports the bytes that are no JSON at all through errorOccurred() too.
bool applyValue(const QByteArray &value, qint64 revision, Settings &current)
{
    const std::optional<Settings> s
        = settingsFrom(EtcdTypedNodeCache<EtcdJsonCodec>::decode(value));
    if (!s) {
        say(u"rejected revision %1 (not a settings document: %2); keeping log level %3"_s.arg(
            QString::number(revision), QString::fromUtf8(value.left(60)), current.logLevel));
        return false;
    }
    current = *s;
    apply(current, u"applied revision %1"_s.arg(revision));
    return true;
}
} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    EtcdClient client({endpointArgument(argc, argv)});
    const int seconds = secondsArgument(argc, argv);
    client.connectToEndpoints();
    EtcdTypedNodeCache<EtcdJsonCodec> config(&client, kKey);
    EtcdNodeCache *cache = config.untyped();
    Settings current;
    QObject::connect(cache, &EtcdNodeCache::started, &app, [&] {
        say(u"watching %1 from revision %2"_s.arg(QString::fromUtf8(kKey)).arg(cache->revision()));
        if (!cache->exists() || !applyValue(cache->value(), cache->modRevision(), current))
            apply(current, u"defaults"_s);
    });
    // The settings in force, `current`, are what a rejected value leaves in place.
    QObject::connect(cache, &EtcdNodeCache::created, &app,
        [&](const QByteArray &value, qint64 revision) { applyValue(value, revision, current); });
    QObject::connect(cache, &EtcdNodeCache::updated, &app,
        [&](const QByteArray &value, const QByteArray &, qint64 revision) {
            applyValue(value, revision, current);
        });
    QObject::connect(cache, &EtcdNodeCache::deleted, &app, [&](const QByteArray &, qint64 rev) {
        current = Settings();
        apply(current, u"deleted at revision %1, defaults"_s.arg(rev));
    });
    QObject::connect(
        cache, &EtcdRecipe::connectionStateChanged, &app, [](EtcdRecipe::ConnectionState s) {
            say(u"connection: "_s + QVariant::fromValue(s).toString());
        });
    QObject::connect(cache, &EtcdNodeCache::failed, &app, [](const EtcdStatus &why) {
        say(u"failed: "_s + why.toString());
        QCoreApplication::exit(1);
    });
    QObject::connect(cache, &EtcdRecipe::closed, &app, [] {
        say(u"closed"_s);
        QCoreApplication::quit();
    });

    ExampleUtil::stopOnSignalsOrAfter(cache, seconds, [cache] { cache->close(); });
    config.start();
    return QCoreApplication::exec();
}
