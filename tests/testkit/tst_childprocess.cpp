// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// ChildProcess, the test kit's QProcess without a fork: what the process tests rely on, shown
// with /bin/sh children.
#include <childprocess_p.h>

#include <QtCore/qtemporarydir.h>
#include <QtTest/qsignalspy.h>
#include <QtTest/qtest.h>

#include <csignal>

using namespace Qt::StringLiterals;

namespace {
constexpr int kWaitMs = 10000;

void sh(ChildProcess &p, const QString &script)
{
    p.start(u"sh"_s, {u"-c"_s, script});
}
} // namespace

class tst_ChildProcess : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void outputAndErrorsApart();
    void mergedChannels();
    void exitCodeAndCrash();
    void linesArriveThroughTheEventLoop();
    void waitForReadyReadReturnsOnOutput();
    void standardInput();
    void environmentAndDirectory();
    void outputFile();
    void missingProgramDoesNotStart();
    void largeOutputDoesNotBlockTheEnd();
    void destructorEndsAStoppedChild();
};

void tst_ChildProcess::outputAndErrorsApart()
{
    ChildProcess p;
    sh(p, u"echo out; echo err >&2"_s);
    QVERIFY(p.waitForStarted());
    QVERIFY(p.waitForFinished(kWaitMs));
    QCOMPARE(p.readAllStandardOutput(), "out\n");
    QCOMPARE(p.readAllStandardError(), "err\n");
    QCOMPARE(p.state(), QProcess::NotRunning);
    QVERIFY(p.waitForFinished(0)); // at once: it does not run
}

void tst_ChildProcess::mergedChannels()
{
    ChildProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    sh(p, u"echo out; echo err >&2"_s);
    QVERIFY(p.waitForFinished(kWaitMs));
    QCOMPARE(p.readAll(), "out\nerr\n");
    QCOMPARE(p.readAllStandardError(), QByteArray());
}

void tst_ChildProcess::exitCodeAndCrash()
{
    ChildProcess p;
    sh(p, u"exit 3"_s);
    QVERIFY(p.waitForFinished(kWaitMs));
    QCOMPARE(p.exitStatus(), QProcess::NormalExit);
    QCOMPARE(p.exitCode(), 3);
    sh(p, u"kill -KILL $$"_s);
    QVERIFY(p.waitForFinished(kWaitMs));
    QCOMPARE(p.exitStatus(), QProcess::CrashExit);
}

// With no waitFor*(): the notifiers collect the lines, then finished() comes, last.
void tst_ChildProcess::linesArriveThroughTheEventLoop()
{
    ChildProcess p;
    QStringList seen;
    connect(&p, &ChildProcess::readyReadStandardOutput, this, [&] {
        while (p.canReadLine())
            seen.append(QString::fromUtf8(p.readLine().trimmed()));
    });
    connect(
        &p, &ChildProcess::finished, this, [&](int code) { seen.append(u"end %1"_s.arg(code)); });
    sh(p, u"echo one; sleep 0.1; echo two"_s);
    QTRY_COMPARE_WITH_TIMEOUT(seen, (QStringList {u"one"_s, u"two"_s, u"end 0"_s}), kWaitMs);
    QCOMPARE(p.state(), QProcess::NotRunning);
}

void tst_ChildProcess::waitForReadyReadReturnsOnOutput()
{
    ChildProcess p;
    sh(p, u"echo ready; exec sleep 30"_s);
    QVERIFY(p.waitForReadyRead(kWaitMs));
    QVERIFY(p.canReadLine());
    QCOMPARE(p.readLine(), "ready\n");
    QVERIFY(!p.waitForReadyRead(100)); // it sleeps: nothing more comes
    QCOMPARE(p.state(), QProcess::Running);
    p.terminate();
    QVERIFY(p.waitForFinished(kWaitMs));
    QCOMPARE(p.exitStatus(), QProcess::CrashExit);
}

void tst_ChildProcess::standardInput()
{
    ChildProcess p;
    p.start(u"cat"_s);
    QCOMPARE(p.write("typed\n"), 6);
    p.closeWriteChannel(); // cat ends at the end of its input
    QVERIFY(p.waitForFinished(kWaitMs));
    QCOMPARE(p.readAll(), "typed\n");
    QCOMPARE(p.write("late"), -1); // no child to write to: an error, not SIGPIPE
}

void tst_ChildProcess::environmentAndDirectory()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(u"CHILD_TEST_VALUE"_s, u"42"_s);
    ChildProcess p;
    p.setProcessEnvironment(env);
    p.setWorkingDirectory(dir.path());
    sh(p, u"echo $CHILD_TEST_VALUE; pwd -P"_s);
    QVERIFY(p.waitForFinished(kWaitMs));
    const QList<QByteArray> lines = p.readAll().split('\n');
    QCOMPARE(lines.value(0), "42");
    QCOMPARE(QString::fromLocal8Bit(lines.value(1)), QFileInfo(dir.path()).canonicalFilePath());
}

void tst_ChildProcess::outputFile()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString file = dir.filePath(u"log"_s);
    for (const char *word : {"first", "second"}) { // appended, not replaced
        ChildProcess p;
        p.setStandardOutputFile(file);
        p.setProcessChannelMode(QProcess::MergedChannels);
        sh(p, u"echo %1 >&2"_s.arg(QLatin1StringView(word)));
        QVERIFY(p.waitForFinished(kWaitMs));
    }
    QFile f(file);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(f.readAll(), "first\nsecond\n");
}

void tst_ChildProcess::missingProgramDoesNotStart()
{
    ChildProcess p;
    p.start(u"/nonexistent/etcdqt-no-such-program"_s);
    QVERIFY(!p.waitForStarted());
    QCOMPARE(p.state(), QProcess::NotRunning);
    QVERIFY(p.waitForFinished(0));
}

// More than a pipe holds (64 KiB): waitForFinished() reads while it waits.
void tst_ChildProcess::largeOutputDoesNotBlockTheEnd()
{
    ChildProcess p;
    sh(p, u"head -c 1000000 /dev/zero; head -c 300000 /dev/zero >&2"_s);
    QVERIFY(p.waitForFinished(kWaitMs));
    QCOMPARE(p.readAllStandardOutput().size(), 1000000);
    QCOMPARE(p.readAllStandardError().size(), 300000);
}

void tst_ChildProcess::destructorEndsAStoppedChild()
{
    qint64 pid = 0;
    {
        ChildProcess p;
        sh(p, u"exec sleep 30"_s);
        QVERIFY(p.waitForStarted());
        pid = p.processId();
        ::kill(pid_t(pid), SIGSTOP);
    }
    QCOMPARE(::kill(pid_t(pid), 0), -1); // reaped: no such process
}

QTEST_GUILESS_MAIN(tst_ChildProcess)
#include "tst_childprocess.moc"
