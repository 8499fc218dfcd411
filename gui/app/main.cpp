// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// etcdqt-inspector: a recipe-aware live view of an etcd cluster. See mainwindow.h.
#include "launchoptions.h"
#include "mainwindow.h"
#include "theme.h"

#include <QtCore/qlibraryinfo.h>
#include <QtCore/qlocale.h>
#include <QtCore/qtimer.h>
#include <QtCore/qtranslator.h>
#include <QtWidgets/qapplication.h>

#include <cstdio>

using namespace Inspector;

namespace {
// --lang has to be known before the option texts are built, so it is read ahead of them.
QString requestedLanguage(const QStringList &args)
{
    for (qsizetype i = 0; i < args.size(); ++i) {
        if (args.at(i) == QLatin1String("--lang") && i + 1 < args.size())
            return args.at(i + 1);
        if (args.at(i).startsWith(QLatin1String("--lang=")))
            return args.at(i).mid(7);
    }
    return QLocale::system().name();
}

void installTranslations(QApplication &app, const QString &language)
{
    const QLocale locale(language);
    auto *ours = new QTranslator(&app);
    if (ours->load(locale, QStringLiteral("etcdqt-inspector"), QStringLiteral("_"),
            QStringLiteral(":/i18n")))
        QApplication::installTranslator(ours);
    auto *qt = new QTranslator(&app); // Qt's own dialog buttons, when the system has them
    if (qt->load(locale, QStringLiteral("qtbase"), QStringLiteral("_"),
            QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
        QApplication::installTranslator(qt);
}

// --screenshot-dir: once the first view is shown and the workload had a moment to move,
// save every view and quit (status 1 if nothing arrived within a minute).
void scheduleScreenshots(MainWindow *window, const QString &dir)
{
    constexpr int kSettleMs = 3000;
    constexpr int kGiveUpMs = 60000;
    QObject::connect(window->session(), &InspectorSession::viewUpdated, window, [window, dir] {
        static bool scheduled = false;
        if (std::exchange(scheduled, true))
            return;
        QTimer::singleShot(kSettleMs, window, [window, dir] {
            const bool ok = window->saveScreenshots(dir);
            std::fprintf(stdout, "screenshots %s: %s\n", ok ? "saved" : "FAILED", qPrintable(dir));
            window->close();
            QCoreApplication::exit(ok ? 0 : 1);
        });
    });
    QTimer::singleShot(kGiveUpMs, window, [] {
        std::fputs("screenshots: no data within a minute\n", stderr);
        QCoreApplication::exit(1);
    });
}

// --help and --version need no display: answered before QApplication (which aborts when
// it finds none) is created.
bool wantsTextOnly(int argc, char **argv)
{
    for (int i = 1; i < argc; ++i) {
        const QByteArray arg(argv[i]);
        if (arg == "--help" || arg == "-h" || arg == "-?" || arg == "--version" || arg == "-v")
            return true;
    }
    return false;
}

int textOnly(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationVersion(QStringLiteral(ETCDQT_VERSION));
    auto *translator = new QTranslator(&app);
    if (translator->load(QLocale(requestedLanguage(QCoreApplication::arguments())),
            QStringLiteral("etcdqt-inspector"), QStringLiteral("_"), QStringLiteral(":/i18n")))
        QCoreApplication::installTranslator(translator);
    LaunchOptions options;
    QString error;
    parseLaunchOptions(QCoreApplication::arguments(), &options, &error); // exits after printing
    std::fprintf(stderr, "etcdqt-inspector: %s\n", qPrintable(error));
    return 1;
}
} // namespace

int main(int argc, char **argv)
{
    if (wantsTextOnly(argc, argv))
        return textOnly(argc, argv);
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("EtcdQt"));
    QApplication::setApplicationName(QStringLiteral("etcdqt-inspector"));
    QApplication::setApplicationVersion(QStringLiteral(ETCDQT_VERSION));
    installTranslations(app, requestedLanguage(QApplication::arguments()));

    LaunchOptions options;
    QString error;
    if (!parseLaunchOptions(QApplication::arguments(), &options, &error)) {
        std::fprintf(stderr, "etcdqt-inspector: %s\n", qPrintable(error));
        return 1;
    }
    applyTheme(
        options.theme.isEmpty() ? savedThemeIsDark() : options.theme == QLatin1String("dark"));
    MainWindow window(options);
    if (!options.screenshotDir.isEmpty())
        scheduleScreenshots(&window, options.screenshotDir);
    window.show();
    return QApplication::exec();
}
