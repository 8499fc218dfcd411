// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "snippets.h"

#include <EtcdQt/EtcdQt>
#include <EtcdQt/etcdprometheusexporter.h>

#include <QtCore/qcoreapplication.h>
#include <QtCore/qdebug.h>
#include <QtCore/qtranslator.h>

using namespace Qt::StringLiterals;

namespace snippets {

EtcdPrometheusExporter *serveMetrics(EtcdClient *client, quint16 port, QObject *owner)
{
    //! [registry]
    // One registry for the process; every client reports into it.
    auto registry = std::make_shared<EtcdMetricsRegistry>();
    // One lock per job would be one label per job: fold them into one.
    registry->setPathLabeler([](QByteArrayView path) {
        return path.startsWith("/jobs/") ? "/jobs/*"_ba : path.toByteArray();
    });
    client->setMetrics(registry);
    //! [registry]
    //! [exporter]
    auto *exporter = new EtcdPrometheusExporter(registry, owner);
    if (!exporter->listen(QHostAddress::LocalHost, port))
        qWarning() << "no metrics:" << exporter->errorString();
    //! [exporter]
    return exporter;
}

bool speakTheUsersLanguage()
{
    //! [install]
    // In main(), once the application object exists: the library's messages in the user's
    // language (German and French so far; false, and English, for the others).
    const bool translated = EtcdQt::installTranslator(QLocale());
    //! [install]
    return translated;
}

bool loadFrench(QTranslator &translator)
{
    //! [load]
    const bool loaded = translator.load(
        QLocale(QLocale::French), u"etcdqt"_s, u"_"_s, EtcdQt::translationsDirectory());
    if (loaded)
        QCoreApplication::installTranslator(&translator);
    //! [load]
    return loaded;
}

} // namespace snippets
