// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <EtcdQt/etcdstatus.h>

#include <QtCore/qobject.h>

#include <memory>

class EtcdReplyPrivate;

class ETCDQT_EXPORT EtcdReply : public QObject
{
    Q_OBJECT
    Q_PROPERTY(bool finished READ isFinished NOTIFY finished)
    Q_PROPERTY(bool autoDelete READ autoDelete WRITE setAutoDelete)
public:
    ~EtcdReply() override;

    [[nodiscard]] bool isFinished() const;
    [[nodiscard]] EtcdStatus status() const;
    [[nodiscard]] qint64 revision() const;
    [[nodiscard]] quint64 memberId() const;
    [[nodiscard]] quint64 raftTerm() const;

    [[nodiscard]] bool autoDelete() const;
    void setAutoDelete(bool autoDelete);

public Q_SLOTS:
    void abort();

Q_SIGNALS:
    void finished(const EtcdStatus &status);

protected:
    explicit EtcdReply(QObject *parent);

private:
    friend class EtcdReplyPrivate;
    Q_DECLARE_PRIVATE(EtcdReply)
    std::unique_ptr<EtcdReplyPrivate> const d_ptr;
};
