// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <EtcdQt/etcdpathchildrencache.h>

#include <QtCore/qabstractitemmodel.h>

#include <memory>

class EtcdQueueModelPrivate;

class ETCDQT_EXPORT EtcdQueueModel : public QAbstractListModel
{
    Q_OBJECT
    Q_PROPERTY(EtcdPathChildrenCache *cache READ cache WRITE setCache NOTIFY cacheChanged)
    Q_PROPERTY(Kind kind READ kind WRITE setKind NOTIFY kindChanged)
    Q_PROPERTY(States states READ states WRITE setStates NOTIFY statesChanged)
    Q_PROPERTY(int count READ rowCount NOTIFY countChanged)
public:
    enum class Kind { Fifo, Priority, Work };
    Q_ENUM(Kind)
    // In the order the model shows them (Work): the next to take first, the dead last.
    enum class State {
        Queued = 0x01,
        Delayed = 0x02,
        InFlight = 0x04,
        Orphaned = 0x08,
        DeadLetter = 0x10,
    };
    Q_DECLARE_FLAGS(States, State)
    Q_FLAG(States)
    enum Role {
        KeyRole = Qt::UserRole + 1,
        IdRole,
        ValueRole,
        RawValueRole,
        PriorityRole,
        StateRole,
        AttemptRole,
        ConsumerRole,
        ModRevisionRole,
        DueTimeRole
    };
    Q_ENUM(Role)

    explicit EtcdQueueModel(QObject *parent = nullptr);
    EtcdQueueModel(EtcdPathChildrenCache *cache, Kind kind, QObject *parent = nullptr);
    ~EtcdQueueModel() override;

    [[nodiscard]] EtcdPathChildrenCache *cache() const;
    void setCache(EtcdPathChildrenCache *cache);
    [[nodiscard]] Kind kind() const;
    void setKind(Kind kind);
    [[nodiscard]] States states() const;
    void setStates(States states);

    [[nodiscard]] int rowCount(const QModelIndex &parent = {}) const override;
    [[nodiscard]] QVariant data(const QModelIndex &index, int role) const override;
    [[nodiscard]] QHash<int, QByteArray> roleNames() const override;

Q_SIGNALS:
    void cacheChanged();
    void kindChanged();
    void statesChanged();
    void countChanged();

private:
    Q_DECLARE_PRIVATE(EtcdQueueModel)
    std::unique_ptr<EtcdQueueModelPrivate> const d_ptr;
};

Q_DECLARE_OPERATORS_FOR_FLAGS(EtcdQueueModel::States)
