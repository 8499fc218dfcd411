// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include <EtcdQt/etcdtranslations.h>

#include <QtCore/qcoreapplication.h>
#include <QtCore/qpointer.h>
#include <QtCore/qtranslator.h>

/*!
    \namespace EtcdQt
    \inmodule EtcdQt
    \brief Functions for the library as a whole.
*/

/*!
    Returns the resource directory of the library's translations, \c{:/etcdqt/i18n}: one
    \c{etcdqt_<language>.qm} per language (German and French so far), built into the library.
    An application that manages its own QTranslator objects loads them from here:

    \snippet cpp/observability.cpp load
*/
QString EtcdQt::translationsDirectory()
{
    return QStringLiteral(":/etcdqt/i18n");
}

/*!
    Makes the library's messages (EtcdStatus texts, errors of recipes and clients) speak the
    language of \a locale: installs a translator for it on the application, replacing the one
    an earlier call installed. Returns false, and installs nothing, when the library has no
    translation for \a locale (English needs none) or there is no application object yet.

    \snippet cpp/observability.cpp install

    Call it in the application's thread, after creating the QCoreApplication.
*/
bool EtcdQt::installTranslator(const QLocale &locale)
{
    static QPointer<QTranslator> installed; // a child of the application
    if (!QCoreApplication::instance())
        return false;
    auto next = std::make_unique<QTranslator>(QCoreApplication::instance());
    if (!next->load(locale, QStringLiteral("etcdqt"), QStringLiteral("_"), translationsDirectory()))
        return false;
    if (installed) {
        QCoreApplication::removeTranslator(installed);
        delete installed;
    }
    installed = next.release();
    return QCoreApplication::installTranslator(installed);
}
