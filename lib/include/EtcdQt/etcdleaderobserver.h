// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <EtcdQt/etcdrecipe.h>

#include <memory>

class EtcdLeaderObserverPrivate;

class ETCDQT_EXPORT EtcdLeaderObserver : public EtcdRecipe
{
    Q_OBJECT
    Q_PROPERTY(QByteArray electionPath READ electionPath CONSTANT)
    Q_PROPERTY(QString currentLeader READ currentLeader NOTIFY leaderChanged)
    Q_PROPERTY(bool started READ isStarted NOTIFY started)
public:
    EtcdLeaderObserver(
        EtcdClient *client, const QByteArray &electionPath, QObject *parent = nullptr);
    ~EtcdLeaderObserver() override;

    [[nodiscard]] QByteArray electionPath() const;
    [[nodiscard]] QString currentLeader() const;
    [[nodiscard]] bool isStarted() const;

public Q_SLOTS:
    void start();
    void close();

Q_SIGNALS:
    void started();
    void leaderChanged(const QString &leaderId);
    void failed(const EtcdStatus &reason);

private:
    Q_DECLARE_PRIVATE(EtcdLeaderObserver)
    std::unique_ptr<EtcdLeaderObserverPrivate> const d_ptr;
};
