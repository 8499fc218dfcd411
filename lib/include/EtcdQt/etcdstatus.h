// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <EtcdQt/etcdqtglobal.h>

#include <QtCore/qmetatype.h>
#include <QtCore/qstring.h>

class QDebug;

class ETCDQT_EXPORT EtcdStatus final
{
    Q_GADGET
    Q_PROPERTY(Etcd::ErrorCode code READ code CONSTANT)
    Q_PROPERTY(QString message READ message CONSTANT)
    Q_PROPERTY(bool ok READ isOk CONSTANT)
public:
    EtcdStatus() = default;
    EtcdStatus(Etcd::ErrorCode code, const QString &message = {});

    [[nodiscard]] Etcd::ErrorCode code() const noexcept { return m_code; }
    [[nodiscard]] QString message() const { return m_message; }
    [[nodiscard]] bool isOk() const noexcept { return m_code == Etcd::ErrorCode::Ok; }
    [[nodiscard]] QString toString() const;

    friend bool operator==(const EtcdStatus &a, const EtcdStatus &b) noexcept
    {
        return a.m_code == b.m_code && a.m_message == b.m_message;
    }
    friend bool operator==(const EtcdStatus &s, Etcd::ErrorCode code) noexcept
    {
        return s.m_code == code;
    }

private:
    Etcd::ErrorCode m_code = Etcd::ErrorCode::Ok;
    QString m_message;
};

ETCDQT_EXPORT QDebug operator<<(QDebug debug, const EtcdStatus &status);
