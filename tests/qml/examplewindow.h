// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// A Qt Quick example run offscreen as its own process by a test (tst_roster,
// tst_servicelist), and what it logged on stderr: its QML logs each change of its list with
// the number of rows its model holds ("live: N").
#pragma once

#include <childprocess_p.h>
#include <QtCore/qprocess.h>
#include <QtCore/qregularexpression.h>
#include <QtTest/qtest.h>

#include <memory>

// What `window` logged so far (collected into `log`) contains `needle`, within `timeoutMs`.
inline bool waitForOutput(ChildProcess &window, QString &log, const QString &needle, int timeoutMs)
{
    return QTest::qWaitFor(
        [&] {
            log += QString::fromUtf8(window.readAllStandardError());
            return log.contains(needle);
        },
        timeoutMs);
}

// The number of rows the window's model held at its last logged change; -1 before any.
inline int lastLiveCount(const QString &log)
{
    static const QRegularExpression live(QStringLiteral("live: (\\d+)"));
    int count = -1;
    for (auto it = live.globalMatch(log); it.hasNext();)
        count = it.next().captured(1).toInt();
    return count;
}

// A window a failed test left running is killed, not left to the next test.
inline void killLeftOver(std::unique_ptr<ChildProcess> &window)
{
    if (window && window->state() != QProcess::NotRunning) {
        window->kill();
        window->waitForFinished(5000);
    }
    window.reset();
}
