// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <EtcdQt/etcdfencing.h>
#include <EtcdQt/etcdrecipe.h>

#include <QtCore/qbytearray.h>

#include <chrono>
#include <memory>

class EtcdBoolReply;
class EtcdElectionPrivate;
class EtcdTxnReply;

struct EtcdElectionOptions
{
    // Of each campaign's lease: how long a crashed leader keeps the others waiting, and how
    // long a leader may go unheard before etcd hands its leadership on.
    std::chrono::seconds ttl {10};
};

// etcd's own election (Go's concurrency.Election, etcdctl elect): keys "<prefix>/<lease hex>"
// holding each candidate's value; the lowest create revision leads. Leadership never heals.
class ETCDQT_EXPORT EtcdElection : public EtcdRecipe
{
    Q_OBJECT
    Q_PROPERTY(QByteArray prefix READ prefix CONSTANT)
    Q_PROPERTY(State state READ state NOTIFY stateChanged)
    Q_PROPERTY(bool isLeader READ isLeader NOTIFY stateChanged)
    Q_PROPERTY(EtcdFencingToken fencingToken READ fencingToken NOTIFY stateChanged)
    Q_PROPERTY(QByteArray value READ value NOTIFY valueChanged)
    Q_PROPERTY(QByteArray leader READ leader NOTIFY leaderChanged)
    Q_PROPERTY(QByteArray leaderKey READ leaderKey NOTIFY leaderChanged)
    Q_PROPERTY(bool observing READ isObserving NOTIFY observed)
public:
    enum class State { Idle, Campaigning, Leading, Closed };
    Q_ENUM(State)

    EtcdElection(EtcdClient *client, const QByteArray &prefix,
        const EtcdElectionOptions &options = {}, QObject *parent = nullptr);
    ~EtcdElection() override;

    [[nodiscard]] QByteArray prefix() const;
    [[nodiscard]] std::chrono::seconds ttl() const;
    [[nodiscard]] State state() const;
    [[nodiscard]] QByteArray value() const;
    [[nodiscard]] QByteArray leader() const;
    [[nodiscard]] QByteArray leaderKey() const;
    [[nodiscard]] bool isObserving() const;

    // Any thread:
    [[nodiscard]] bool isLeader() const;
    [[nodiscard]] EtcdFencingToken fencingToken() const;
    [[nodiscard]] std::chrono::milliseconds remainingValidity() const;

    // This object's thread:
    EtcdBoolReply *proclaim(const QByteArray &value);
    EtcdTxnReply *guardedTxn(const EtcdTxn &txn);
    // Worker threads (refused in this object's thread):
    bool commitGuarded(
        const EtcdTxn &txn, std::chrono::milliseconds timeout, EtcdStatus *status = nullptr);

public Q_SLOTS:
    void observe();
    bool campaign(const QByteArray &value);
    bool resign();
    void close();

Q_SIGNALS:
    void stateChanged(EtcdElection::State state);
    void observed(); // the leader was read and is followed from now on
    void elected();
    void leadershipLost(const EtcdStatus &reason);
    void resigned();
    void valueChanged();
    void leaderChanged(const QByteArray &value);
    void failed(const EtcdStatus &reason);

private:
    Q_DECLARE_PRIVATE(EtcdElection)
    std::unique_ptr<EtcdElectionPrivate> const d_ptr;
};
