// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "etcdqmlpathrecipe.h"

class EtcdQmlSemaphore : public EtcdQmlHold
{
    Q_OBJECT
    QML_NAMED_ELEMENT(Semaphore)
    Q_PROPERTY(int permits READ permits WRITE setPermits NOTIFY permitsChanged)
public:
    explicit EtcdQmlSemaphore(QObject *parent = nullptr);
    ~EtcdQmlSemaphore() override;

    [[nodiscard]] int permits() const { return m_permits; }
    void setPermits(int permits);

Q_SIGNALS:
    void permitsChanged();
    void permitLost(int code, const QString &message);

protected:
    [[nodiscard]] QString invalidSetting() const override;
    QObject *startRecipe(EtcdClient *client) override;

private:
    int m_permits = 1;
};

class EtcdQmlReadWriteLock : public EtcdQmlHold
{
    Q_OBJECT
    QML_NAMED_ELEMENT(ReadWriteLock)
    Q_PROPERTY(Mode mode READ mode WRITE setMode NOTIFY modeChanged)
public:
    // EtcdReadWriteLock::Mode
    enum Mode { Read, Write };
    Q_ENUM(Mode)

    explicit EtcdQmlReadWriteLock(QObject *parent = nullptr);
    ~EtcdQmlReadWriteLock() override;

    [[nodiscard]] Mode mode() const { return m_mode; }
    void setMode(Mode mode);

Q_SIGNALS:
    void modeChanged();
    void lockLost(int code, const QString &message);

protected:
    QObject *startRecipe(EtcdClient *client) override;

private:
    Mode m_mode = Write;
};
