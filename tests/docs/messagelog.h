// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// What the guide's snippets print (they report with qInfo() and qWarning(), as an
// application would): the tests wait on those lines instead of on the snippets' internals.
#pragma once

#include <QtCore/qmutex.h>
#include <QtCore/qstringlist.h>

class MessageLog
{
public:
    MessageLog();
    ~MessageLog();
    [[nodiscard]] int count(const QString &fragment) const; // lines that contain `fragment`
    [[nodiscard]] QStringList lines() const;

private:
    static void handler(QtMsgType type, const QMessageLogContext &context, const QString &text);
    QtMessageHandler m_previous;
};
