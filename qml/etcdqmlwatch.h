// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "etcdqmlrecipe.h"

#include <EtcdQt/etcdkeyvalue.h>

#include <QtCore/qabstractitemmodel.h>

// The rows of a Watch: one key each, sorted by key.
class EtcdQmlKeyValueModel : public QAbstractListModel
{
    Q_OBJECT
    QML_ANONYMOUS
    Q_PROPERTY(int count READ rowCount NOTIFY countChanged)
public:
    enum Role {
        KeyRole = Qt::UserRole + 1,
        ValueRole,
        CreateRevisionRole,
        ModRevisionRole,
        VersionRole,
        LeaseRole
    };
    Q_ENUM(Role)

    explicit EtcdQmlKeyValueModel(QObject *parent = nullptr);

    [[nodiscard]] int rowCount(const QModelIndex &parent = {}) const override;
    [[nodiscard]] QVariant data(const QModelIndex &index, int role) const override;
    [[nodiscard]] QHash<int, QByteArray> roleNames() const override;

    // The value of `key`, or undefined when the model does not hold it.
    Q_INVOKABLE QVariant value(const QString &key) const;

    void reset(QList<EtcdKeyValue> keyValues);
    void put(const EtcdKeyValue &keyValue);
    void remove(const QByteArray &key);
    void clear();

Q_SIGNALS:
    void countChanged();

private:
    [[nodiscard]] qsizetype lowerBound(const QByteArray &key) const;

    QList<EtcdKeyValue> m_rows;
};

class EtcdQmlWatch : public EtcdQmlRecipe
{
    Q_OBJECT
    QML_NAMED_ELEMENT(Watch)
    Q_PROPERTY(QString key READ key WRITE setKey NOTIFY keyChanged)
    Q_PROPERTY(bool prefix READ isPrefix WRITE setPrefix NOTIFY prefixChanged)
    Q_PROPERTY(bool ready READ isReady NOTIFY readyChanged)
    Q_PROPERTY(EtcdQmlKeyValueModel *model READ model CONSTANT)
public:
    explicit EtcdQmlWatch(QObject *parent = nullptr);
    ~EtcdQmlWatch() override;

    [[nodiscard]] QString key() const;
    void setKey(const QString &key);
    [[nodiscard]] bool isPrefix() const;
    void setPrefix(bool prefix);
    [[nodiscard]] bool isReady() const;
    [[nodiscard]] EtcdQmlKeyValueModel *model() const;

Q_SIGNALS:
    void keyChanged();
    void prefixChanged();
    void readyChanged();

protected:
    [[nodiscard]] bool isConfigured() const override;
    QObject *startRecipe(EtcdClient *client) override;
    void recipeStopped() override;

private:
    void setReady(bool ready);

    QString m_key;
    bool m_prefix = false;
    bool m_ready = false;
    EtcdQmlKeyValueModel *m_model;
};
