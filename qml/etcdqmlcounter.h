// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "etcdqmlrecipe.h"

#include <limits>

class EtcdValueReply;

class EtcdQmlAtomicCounter : public EtcdQmlRecipe
{
    Q_OBJECT
    QML_NAMED_ELEMENT(AtomicCounter)
    Q_PROPERTY(QString path READ path WRITE setPath NOTIFY pathChanged)
    Q_PROPERTY(
        double initialValue READ initialValue WRITE setInitialValue NOTIFY initialValueChanged)
    Q_PROPERTY(double value READ value NOTIFY valueChanged)
public:
    explicit EtcdQmlAtomicCounter(QObject *parent = nullptr);
    ~EtcdQmlAtomicCounter() override;

    [[nodiscard]] QString path() const { return m_path; }
    void setPath(const QString &path);
    [[nodiscard]] double initialValue() const { return m_initialValue; }
    void setInitialValue(double value);
    [[nodiscard]] double value() const { return m_value; }

    Q_INVOKABLE bool get();
    Q_INVOKABLE bool add(double delta);
    Q_INVOKABLE bool subtract(double delta);
    Q_INVOKABLE bool increment();
    Q_INVOKABLE bool decrement();

Q_SIGNALS:
    void pathChanged();
    void initialValueChanged();
    void valueChanged();
    void getFinished(double value);
    void addFinished(double value);

protected:
    [[nodiscard]] bool isConfigured() const override;
    [[nodiscard]] QString invalidSetting() const override;
    QObject *startRecipe(EtcdClient *client) override;
    void recipeStopped() override;

private:
    [[nodiscard]] bool refusesDelta(double delta);
    void answer(EtcdValueReply *reply, void (EtcdQmlAtomicCounter::*finished)(double));
    void setValue(double value);

    QString m_path;
    double m_initialValue = 0;
    double m_value = std::numeric_limits<double>::quiet_NaN();
};
