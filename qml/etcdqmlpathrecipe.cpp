// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "etcdqmlpathrecipe.h"
#include "etcdqmlconvert_p.h"

#include <EtcdQt/etcdfencing.h>

/*!
    \class EtcdQmlPathRecipe
    \internal
    The base of the recipe types that live under \c path on leases of \c ttl milliseconds
    (rounded up to whole seconds; 0 or less is refused with InvalidArgument) and write
    \c clientId into their keys (empty: the library picks one, readable once running).
    Changing any of them starts the recipe over.
*/

EtcdQmlPathRecipe::EtcdQmlPathRecipe(int defaultTtl, QObject *parent)
    : EtcdQmlRecipe(parent), m_ttl(defaultTtl)
{ }

EtcdQmlPathRecipe::~EtcdQmlPathRecipe() = default;

void EtcdQmlPathRecipe::setPath(const QString &path)
{
    changeSetting(m_path, path, &EtcdQmlPathRecipe::pathChanged);
}

void EtcdQmlPathRecipe::setClientId(const QString &clientId)
{
    changeSetting(m_clientId, clientId, &EtcdQmlPathRecipe::clientIdChanged);
}

void EtcdQmlPathRecipe::setTtl(int ms)
{
    changeSetting(m_ttl, ms, &EtcdQmlPathRecipe::ttlChanged);
}

bool EtcdQmlPathRecipe::isConfigured() const
{
    return !m_path.isEmpty();
}

QString EtcdQmlPathRecipe::invalidSetting() const
{
    return Etcd::Qml::ttlProblem(m_ttl);
}

// Not a setting change: the recipe runs with this id already.
void EtcdQmlPathRecipe::takeClientId(const QString &chosen)
{
    if (chosen == m_clientId)
        return;
    m_clientId = chosen;
    Q_EMIT clientIdChanged();
}

/*!
    \class EtcdQmlHold
    \internal
    The base of the types that hold something while \c active (a permit, a read or write
    hold). A lost hold is never healed: \c held stays false until \c active is switched off
    and on again.
*/

EtcdQmlHold::EtcdQmlHold(QObject *parent) : EtcdQmlPathRecipe(10000, parent) { }

EtcdQmlHold::~EtcdQmlHold() = default;

void EtcdQmlHold::takeHold(const EtcdFencingToken &token)
{
    m_fencingToken = EtcdQmlFencingToken(token);
    m_held = true;
    Q_EMIT heldChanged();
    Q_EMIT acquired();
}

void EtcdQmlHold::dropLostHold()
{
    m_fencingToken = {};
    if (!m_held)
        return;
    m_held = false;
    Q_EMIT heldChanged();
}

// close() gave the hold back (the key's deletion is on its way).
void EtcdQmlHold::recipeStopped()
{
    const bool wasHeld = m_held;
    dropLostHold();
    if (wasHeld)
        Q_EMIT released();
}
