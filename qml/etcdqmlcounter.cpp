// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "etcdqmlcounter.h"
#include "etcdqmlconvert_p.h"

#include <EtcdQt/etcdatomiccounter.h>
#include <EtcdQt/etcdstatus.h>

#include <QtCore/qpointer.h>

#include <cmath>

/*!
    \qmltype AtomicCounter
    \inqmlmodule EtcdQt
    \brief A 64-bit counter shared through etcd at the key \c path (EtcdAtomicCounter,
    etcd-recipes' DistributedAtomicLong), usable while \c active.

    get(), add(delta), subtract(delta), increment() and decrement() return false when the
    item is not running; otherwise they run one at a time, in call order, and each answers
    with getFinished(value) (the value read) or addFinished(value) (the value this call
    committed, which no other change anywhere answered). \c value is the last value this
    item read or committed (NaN before the first answer, and while inactive); the counter
    is not watched, so other writers' changes show only with the next answer.

    A counter that does not exist is created by the first operation with \c initialValue
    (only the first creator's counts). A failed operation answers NaN and sets \c errorCode
    and \c errorString (errorOccurred(code, message)): for instance
    \c EtcdError.FailedPrecondition when the key holds anything but a counter. Values are
    exact up to 2^53 in QML; a delta or \c initialValue that is no whole number in that
    range is refused with \c EtcdError.InvalidArgument. The counter stays in etcd when the
    item stops.
*/

EtcdQmlAtomicCounter::EtcdQmlAtomicCounter(QObject *parent) : EtcdQmlRecipe(parent) { }

EtcdQmlAtomicCounter::~EtcdQmlAtomicCounter() = default;

void EtcdQmlAtomicCounter::setPath(const QString &path)
{
    changeSetting(m_path, path, &EtcdQmlAtomicCounter::pathChanged);
}

void EtcdQmlAtomicCounter::setInitialValue(double value)
{
    changeSetting(m_initialValue, value, &EtcdQmlAtomicCounter::initialValueChanged);
}

/*! \qmlmethod bool AtomicCounter::get()
    Reads the counter (creating it when absent); getFinished() answers. Returns \c false,
    and sends nothing, when the item is not running. */
bool EtcdQmlAtomicCounter::get()
{
    auto *counter = currentAs<EtcdAtomicCounter>();
    if (!counter)
        return false;
    answer(counter->get(), &EtcdQmlAtomicCounter::getFinished);
    return true;
}

/*! \qmlmethod bool AtomicCounter::add(double delta)
    Adds \a delta (may be negative); addFinished() answers with the committed value.
    Returns \c false, and sends nothing, when the item is not running or \a delta is no
    whole number up to 2^53 (then with \c EtcdError.InvalidArgument). */
bool EtcdQmlAtomicCounter::add(double delta)
{
    auto *counter = currentAs<EtcdAtomicCounter>();
    if (!counter || refusesDelta(delta))
        return false;
    answer(counter->add(qint64(delta)), &EtcdQmlAtomicCounter::addFinished);
    return true;
}

/*! \qmlmethod bool AtomicCounter::subtract(double delta)
    Subtracts \a delta; addFinished() answers. Returns \c false as add() does. */
bool EtcdQmlAtomicCounter::subtract(double delta)
{
    auto *counter = currentAs<EtcdAtomicCounter>();
    if (!counter || refusesDelta(delta))
        return false;
    answer(counter->subtract(qint64(delta)), &EtcdQmlAtomicCounter::addFinished);
    return true;
}

/*! \qmlmethod bool AtomicCounter::increment()
    Adds one; addFinished() answers. Returns \c false when the item is not running. */
bool EtcdQmlAtomicCounter::increment()
{
    return add(1);
}

/*! \qmlmethod bool AtomicCounter::decrement()
    Subtracts one; addFinished() answers. Returns \c false when the item is not
    running. */
bool EtcdQmlAtomicCounter::decrement()
{
    return add(-1);
}

bool EtcdQmlAtomicCounter::refusesDelta(double delta)
{
    if (Etcd::Qml::exactInteger(delta))
        return false;
    setError(EtcdStatus(Etcd::ErrorCode::InvalidArgument,
        tr("a counter changes by a whole number up to 2^53, not %1").arg(delta)));
    return true;
}

// Answers from a counter this item let go of meanwhile are dropped: they describe a run
// that is over.
void EtcdQmlAtomicCounter::answer(
    EtcdValueReply *reply, void (EtcdQmlAtomicCounter::*finished)(double))
{
    QPointer<QObject> counter = current();
    connect(reply, &EtcdReply::finished, this,
        [this, reply, counter, finished](const EtcdStatus &status) {
            if (!counter || counter != current())
                return;
            if (!status.isOk()) {
                setError(status);
                Q_EMIT(this->*finished)(std::numeric_limits<double>::quiet_NaN());
                return;
            }
            setValue(double(reply->value()));
            Q_EMIT(this->*finished)(double(reply->value()));
        });
}

bool EtcdQmlAtomicCounter::isConfigured() const
{
    return !m_path.isEmpty();
}

QString EtcdQmlAtomicCounter::invalidSetting() const
{
    if (Etcd::Qml::exactInteger(m_initialValue))
        return {};
    return tr("initialValue must be a whole number up to 2^53, not %1").arg(m_initialValue);
}

QObject *EtcdQmlAtomicCounter::startRecipe(EtcdClient *client)
{
    auto *counter
        = new EtcdAtomicCounter(client, m_path.toUtf8(), *Etcd::Qml::exactInteger(m_initialValue));
    followRecipe(counter);
    return counter;
}

void EtcdQmlAtomicCounter::recipeStopped()
{
    setValue(std::numeric_limits<double>::quiet_NaN());
}

// NaN never equals itself: two NaNs are no change.
void EtcdQmlAtomicCounter::setValue(double value)
{
    if (value == m_value || (std::isnan(value) && std::isnan(m_value)))
        return;
    m_value = value;
    Q_EMIT valueChanged();
}
