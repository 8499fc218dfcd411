// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "testprocess_p.h"

void TestProcess::setEnvironment(const QStringList &additions)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const QString &v : additions)
        env.insert(v.section(u'=', 0, 0), v.section(u'=', 1));
    m_child.setProcessEnvironment(env);
}

void TestProcess::start(
    const QString &program, const QStringList &arguments, const QString &outputFile)
{
    m_child.setStandardOutputFile(outputFile);
    m_child.setProcessChannelMode(QProcess::MergedChannels);
    m_child.start(program, arguments);
}

bool TestProcess::isRunning()
{
    return m_child.state() == QProcess::Running && !m_child.waitForFinished(0);
}

void TestProcess::kill()
{
    m_child.kill();
    m_child.waitForFinished(-1);
}

int TestProcess::exitCode() const
{
    if (m_child.state() != QProcess::NotRunning || m_child.exitStatus() != QProcess::NormalExit)
        return -1;
    return m_child.exitCode();
}
