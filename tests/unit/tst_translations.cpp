// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
// The library's own translations (translations/etcdqt_<lang>.ts, built into the library) and
// the inspector's: complete (no unfinished entry, every placeholder kept in every plural
// form). And what EtcdQt::installTranslator() installs is exactly what the library's .ts files
// say, also in a message the library makes itself.
// ETCDQT_TS_DIR (set by CMake) names the folder of the .ts files.

#include <EtcdQt/etcdclient.h>
#include <EtcdQt/etcdtranslations.h>

#include <QtCore/qfile.h>
#include <QtCore/qregularexpression.h>
#include <QtCore/qxmlstream.h>
#include <QtTest/qsignalspy.h>
#include <QtTest/qtest.h>

using namespace Qt::StringLiterals;

namespace {
struct Message
{
    QString context;
    QString source;
    QStringList translations; // one, or each plural form of a %n message
    bool unfinished = false;
};

// A <translation>'s text, or the text of each of its <numerusform> children.
QStringList translationForms(QXmlStreamReader &xml)
{
    QStringList forms;
    QString text;
    while (!xml.atEnd()) {
        const auto token = xml.readNext();
        if (token == QXmlStreamReader::StartElement && xml.name() == u"numerusform")
            forms.append(xml.readElementText());
        else if (token == QXmlStreamReader::Characters)
            text += xml.text();
        else if (token == QXmlStreamReader::EndElement && xml.name() == u"translation")
            break;
    }
    return forms.isEmpty() ? QStringList {text} : forms;
}

QList<Message> readTs(const QString &path, QString *error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = file.errorString();
        return {};
    }
    QList<Message> messages;
    QXmlStreamReader xml(&file);
    QString context;
    while (!xml.atEnd()) {
        if (xml.readNext() != QXmlStreamReader::StartElement)
            continue;
        if (xml.name() == u"name")
            context = xml.readElementText();
        else if (xml.name() == u"message")
            messages.append({context, {}, {}, false});
        else if (xml.name() == u"source" && !messages.isEmpty())
            messages.last().source = xml.readElementText();
        else if (xml.name() == u"translation" && !messages.isEmpty()) {
            messages.last().unfinished
                = xml.attributes().value(QStringLiteral("type")) == QLatin1String("unfinished");
            messages.last().translations = translationForms(xml);
        }
    }
    if (xml.hasError())
        *error = xml.errorString();
    return messages;
}

QStringList placeholders(const QString &text)
{
    static const QRegularExpression re(u"%L?\\d+"_s);
    QStringList found;
    for (auto it = re.globalMatch(text); it.hasNext();)
        found.append(it.next().captured());
    found.sort();
    return found;
}

QString tsPath(const char *language, const char *catalogue = "etcdqt")
{
    return qEnvironmentVariable("ETCDQT_TS_DIR") + u'/' + QLatin1String(catalogue) + u'_'
        + QLatin1String(language) + u".ts"_s;
}
} // namespace

class tst_Translations : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void complete_data();
    void complete();
    void installedTranslatorSaysWhatTheTsFileSays_data();
    void installedTranslatorSaysWhatTheTsFileSays();
    void libraryMessagesSpeakGerman();
    void englishNeedsNoTranslator();
};

void tst_Translations::complete_data()
{
    QTest::addColumn<QString>("path");
    QTest::newRow("de") << tsPath("de");
    QTest::newRow("fr") << tsPath("fr");
    // The inspector's catalogues too (issue 23: German and French complete).
    QTest::newRow("inspector de") << tsPath("de", "etcdqt-inspector");
    QTest::newRow("inspector fr") << tsPath("fr", "etcdqt-inspector");
}

void tst_Translations::complete()
{
    QFETCH(QString, path);
    QString error;
    const QList<Message> messages = readTs(path, &error);
    QVERIFY2(error.isEmpty(), qPrintable(path + u": "_s + error));
    QVERIFY2(messages.size() > 100, qPrintable(QString::number(messages.size())));
    for (const Message &m : messages) {
        const QString where = m.context + u": "_s + m.source;
        QVERIFY2(!m.unfinished && !m.translations.isEmpty(), qPrintable(u"unfinished: "_s + where));
        for (const QString &form : m.translations) {
            QVERIFY2(!form.trimmed().isEmpty(), qPrintable(u"unfinished: "_s + where));
            QVERIFY2(placeholders(form) == placeholders(m.source),
                qPrintable(u"placeholders differ: "_s + where));
        }
    }
}

void tst_Translations::installedTranslatorSaysWhatTheTsFileSays_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QLocale>("locale");
    QTest::newRow("de") << tsPath("de") << QLocale(QLocale::German, QLocale::Germany);
    QTest::newRow("fr") << tsPath("fr") << QLocale(QLocale::French, QLocale::France);
}

void tst_Translations::installedTranslatorSaysWhatTheTsFileSays()
{
    QFETCH(QString, path);
    QFETCH(QLocale, locale);
    QVERIFY(EtcdQt::installTranslator(locale));
    QString error;
    const QList<Message> messages = readTs(path, &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    for (const Message &m : messages) {
        const QString shown = QCoreApplication::translate(
            m.context.toUtf8().constData(), m.source.toUtf8().constData());
        QVERIFY2(shown == m.translations.value(0), qPrintable(m.context + u": "_s + m.source));
    }
}

// A message made deep in the library (a malformed endpoint), after one call.
void tst_Translations::libraryMessagesSpeakGerman()
{
    QVERIFY(EtcdQt::installTranslator(QLocale(QLocale::German, QLocale::Germany)));
    EtcdClient client({QUrl(u"ftp://127.0.0.1:2379"_s)});
    QSignalSpy errors(&client, &EtcdClient::errorOccurred);
    client.connectToEndpoints();
    QVERIFY(errors.wait(5000));
    const EtcdStatus status = errors.first().at(0).value<EtcdStatus>();
    QCOMPARE(status.code(), Etcd::ErrorCode::InvalidArgument);
    const QString english
        = u"endpoint '%1' must use http:// or https://"_s.arg(u"ftp://127.0.0.1:2379"_s);
    const QString german
        = QCoreApplication::translate("EtcdClient", "endpoint '%1' must use http:// or https://")
              .arg(u"ftp://127.0.0.1:2379"_s);
    QVERIFY(german != english);
    QVERIFY2(status.message().contains(german), qPrintable(status.message()));
}

void tst_Translations::englishNeedsNoTranslator()
{
    QVERIFY(EtcdQt::installTranslator(QLocale(QLocale::French, QLocale::France)));
    QVERIFY(!EtcdQt::installTranslator(QLocale(QLocale::English, QLocale::UnitedStates)));
    QCOMPARE(EtcdQt::translationsDirectory(), u":/etcdqt/i18n"_s);
    QVERIFY(QFile::exists(u":/etcdqt/i18n/etcdqt_de.qm"_s));
    QVERIFY(QFile::exists(u":/etcdqt/i18n/etcdqt_fr.qm"_s));
}

QTEST_GUILESS_MAIN(tst_Translations)
#include "tst_translations.moc"
