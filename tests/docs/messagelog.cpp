// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "messagelog.h"

namespace {
QMutex g_mutex;
QStringList g_lines;
QtMessageHandler g_forward = nullptr;
} // namespace

MessageLog::MessageLog()
{
    QMutexLocker lock(&g_mutex);
    g_lines.clear();
    m_previous = qInstallMessageHandler(&MessageLog::handler);
    g_forward = m_previous;
}

MessageLog::~MessageLog()
{
    qInstallMessageHandler(m_previous);
}

void MessageLog::handler(QtMsgType type, const QMessageLogContext &context, const QString &text)
{
    QtMessageHandler forward = nullptr;
    {
        // A worker thread's message may come while the next test installs its log.
        QMutexLocker lock(&g_mutex);
        g_lines.append(text);
        forward = g_forward;
    }
    if (forward)
        forward(type, context, text); // QtTest still sees (and prints) every message
}

int MessageLog::count(const QString &fragment) const
{
    QMutexLocker lock(&g_mutex);
    return int(g_lines.filter(fragment).size());
}

QStringList MessageLog::lines() const
{
    QMutexLocker lock(&g_mutex);
    return g_lines;
}
