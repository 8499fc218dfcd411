// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "etcdqmlrecipe.h"

#include <functional>

class EtcdValueReply;

class EtcdCountDownLatch;

class EtcdQmlCountDownLatch : public EtcdQmlRecipe
{
    Q_OBJECT
    QML_NAMED_ELEMENT(CountDownLatch)
    Q_PROPERTY(QString path READ path WRITE setPath NOTIFY pathChanged)
    Q_PROPERTY(double count READ count NOTIFY countChanged)
    Q_PROPERTY(bool open READ isOpen NOTIFY openChanged)
public:
    explicit EtcdQmlCountDownLatch(QObject *parent = nullptr);
    ~EtcdQmlCountDownLatch() override;

    [[nodiscard]] QString path() const;
    void setPath(const QString &path);
    [[nodiscard]] double count() const;
    [[nodiscard]] bool isOpen() const;

    Q_INVOKABLE bool create(double count);
    Q_INVOKABLE bool countDown();

Q_SIGNALS:
    void pathChanged();
    void countChanged();
    void openChanged();
    void opened();
    void createFinished(double count, bool created);
    void countDownFinished(double count);

protected:
    [[nodiscard]] bool isConfigured() const override;
    QObject *startRecipe(EtcdClient *client) override;
    void recipeStopped() override;

private:
    EtcdCountDownLatch *latchForCall();
    void whenFinished(EtcdCountDownLatch *latch, EtcdValueReply *reply,
        std::function<void(bool ok, EtcdValueReply *reply)> report);
    void setCount(double count);
    void setOpen(bool open);

    QString m_path;
    double m_count = -1;
    bool m_open = false;
};
