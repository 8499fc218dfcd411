// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "recipepaths_p.h"

#include <QtCore/qrandom.h>

namespace Etcd::Internal::RecipePaths {

QByteArray appendToPath(const QByteArray &path, const QByteArray &suffix, char delim)
{
    const QByteArray head = path.endsWith(delim) ? path.chopped(1) : path;
    const QByteArray tail = suffix.startsWith(delim) ? suffix.mid(1) : suffix;
    return head + delim + tail;
}

QByteArray randomId(int n)
{
    static constexpr char kAlphabet[]
        = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    QByteArray id(n, Qt::Uninitialized);
    for (char &c : id)
        c = kAlphabet[QRandomGenerator::system()->bounded(int(sizeof(kAlphabet) - 1))];
    return id;
}

QByteArray uniqueToken(const QString &clientId)
{
    return clientId.toUtf8() + ':' + randomId(kTokenLength);
}

QString stripUniqueSuffix(const QByteArray &token)
{
    return QString::fromUtf8(token.chopped(std::min<qsizetype>(token.size(), kTokenLength + 1)));
}

QByteArray leaderKey(const QByteArray &electionPath)
{
    return appendToPath(electionPath, "LEADER");
}

QByteArray participantKey(const QByteArray &electionPath, const QString &clientId)
{
    return appendToPath(appendToPath(electionPath, "participants"), clientId.toUtf8());
}

QByteArray countedReadyKey(const QByteArray &barrierPath)
{
    return appendToPath(barrierPath, "ready");
}

QByteArray countedWaitingPrefix(const QByteArray &barrierPath)
{
    return appendToPath(barrierPath, "waiting") + '/';
}

QByteArray countedWaitingKey(const QByteArray &barrierPath, const QByteArray &token)
{
    return appendToPath(appendToPath(barrierPath, "waiting"), token);
}

QByteArray doubleBarrierPhase(const QByteArray &barrierPath, const QByteArray &phase)
{
    return appendToPath(barrierPath, phase);
}

QByteArray serviceNamesPath(const QByteArray &servicePath)
{
    return appendToPath(servicePath, "names");
}

QByteArray serviceInstancesPath(const QByteArray &servicePath, const QString &name)
{
    return appendToPath(serviceNamesPath(servicePath), name.toUtf8());
}

QByteArray serviceInstanceKey(const QByteArray &servicePath, const QString &name, const QString &id)
{
    return appendToPath(serviceNamesPath(servicePath), (name + u'/' + id).toUtf8());
}

QByteArray leaseTag(qint64 leaseId)
{
    static constexpr char kDigits[]
        = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    auto rest = quint64(leaseId);
    QByteArray tag(kTokenLength, '0');
    for (int i = kTokenLength - 1; i >= 0; --i, rest /= 62)
        tag[i] = kDigits[rest % 62];
    return tag;
}

QByteArray mutexKey(const QByteArray &path, qint64 leaseId)
{
    // etcd grants positive ids only; a negative one is still written as Go would ("-1f").
    const QByteArray hex = leaseId < 0 ? '-' + QByteArray::number(0ULL - quint64(leaseId), 16)
                                       : QByteArray::number(leaseId, 16);
    return path + '/' + hex;
}

} // namespace Etcd::Internal::RecipePaths
