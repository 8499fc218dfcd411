// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "suite.h"

#include <etcdtestserver.h>

#include <QtCore/qabstracteventdispatcher.h>
#include <QtCore/qelapsedtimer.h>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace FaultMatrix {

QString ProxiedFault::setUp()
{
    if (!m_server.start())
        return m_server.log();
    m_proxy = std::make_unique<FaultProxy>(u"127.0.0.1"_s, m_server.clientPort());
    return m_proxy->start() ? QString() : u"the fault proxy did not start"_s;
}

FaultSuite::FaultSuite(std::unique_ptr<Fault> fault) : m_fault(std::move(fault))
{
    // Every turn of this thread's event loops (nested ones too), while the fault is on and
    // while the checks wait; the 1 ms timer makes a turn at least that often. A 0 ms timer
    // would spin a core of the 2 the machine has, which etcd and the clients need.
    m_monitor.setInterval(1);
    m_monitor.setTimerType(Qt::PreciseTimer);
    connect(&m_monitor, &QTimer::timeout, this, &FaultSuite::sampleAll);
}

FaultSuite::~FaultSuite() = default;

// The whole matrix row of this fault happens here, once: the cells only report it.
void FaultSuite::initTestCase()
{
    if (!EtcdTestServer::etcdAvailable()) {
        if (qEnvironmentVariableIntValue("ETCDQT_REQUIRE_ETCD"))
            QFAIL("etcd not found and ETCDQT_REQUIRE_ETCD=1");
        QSKIP("etcd not installed (/usr/bin/etcd); run scripts/setup-deps");
    }
    QElapsedTimer phase;
    phase.start();
    m_setupFailure = m_fault->setUp();
    if (!m_setupFailure.isEmpty())
        return; // every cell fails with it: a visible row, not a missing one
    m_faulted = makeClient(m_fault->faultedEndpoints(), true);
    m_clean = makeClient(m_fault->cleanEndpoints(), false);
    startAll();
    qInfo("fault matrix: subjects steady after %lld ms", phase.restart());
    m_monitor.start();
    const QMetaObject::Connection turns = connect(QAbstractEventDispatcher::instance(),
        &QAbstractEventDispatcher::awake, this, &FaultSuite::sampleAll);
    m_setupFailure = runFault();
    qInfo("fault matrix: fault applied, held and healed in %lld ms", phase.restart());
    if (m_setupFailure.isEmpty()) {
        checkAll();
        if (const QString r = m_fault->verify(); !r.isEmpty())
            m_setupFailure = u"the fault did not do what it is about: "_s + r;
    }
    m_monitor.stop();
    disconnect(turns);
    qInfo("fault matrix: checks done in %lld ms", phase.elapsed());
}

// Both notice quiet streams within half a second: a pause hits the clean one too.
std::unique_ptr<EtcdClient> FaultSuite::makeClient(const QList<QUrl> &endpoints, bool faulted)
{
    auto client = std::make_unique<EtcdClient>(endpoints);
    client->setStreamLivenessInterval(500ms);
    if (faulted)
        m_fault->configureFaulted(*client);
    else
        m_fault->configureClean(*client);
    client->connectToEndpoints();
    return client;
}

void FaultSuite::startAll()
{
    for (const Recipe &recipe : recipes()) {
        if (!m_fault->skipReason(recipe.name).isEmpty())
            continue;
        Entry entry {recipe.name, recipe.make(), {}};
        entry.subject->setCleanTtl(m_fault->cleanTtl());
        entry.subject->start(m_faulted.get(), m_clean.get(), "/fm/"_ba + recipe.name.toUtf8());
        m_entries.push_back(std::move(entry));
    }
    waitFor([this] {
        return std::all_of(
            m_entries.begin(), m_entries.end(), [](const Entry &e) { return e.subject->steady(); });
    });
    for (Entry &e : m_entries) {
        if (!e.subject->steady())
            e.outcome = u"never reached its steady state before the fault"_s;
    }
}

QString FaultSuite::runFault()
{
    m_fault->contendersHold = [this] {
        return std::all_of(m_entries.begin(), m_entries.end(),
            [](const Entry &e) { return e.subject->tookOver(); });
    };
    for (Entry &e : m_entries)
        e.subject->setLateWrites(m_fault->lateWrites());
    const QString failure
        = m_fault->facts().faultedDestroyed ? destroyFaulted() : m_fault->applyHoldHeal();
    for (Entry &e : m_entries)
        e.subject->setLateWrites(false);
    return failure.isEmpty() ? QString() : u"the fault itself failed: "_s + failure;
}

// The destroy column: every lease the faulted client holds (its recipes' and any spare) is
// gone within kLeaseGoneMs of its destructor, which revokes them; then a new client stands in.
QString FaultSuite::destroyFaulted()
{
    // The faulted recipes' leases are the ones granted with kTtl; the contenders use another.
    auto census = leasesGrantedWith(*m_clean, kTtl);
    if (!census)
        return u"etcd did not list its leases"_s;
    for (Entry &e : m_entries) {
        for (const qint64 id : e.subject->faultedLeases()) {
            if (!census->contains(id))
                census->append(id);
        }
    }
    for (Entry &e : m_entries)
        e.subject->handOverFaulted();
    QElapsedTimer took;
    took.start();
    m_faulted.reset(); // in one turn: its recipes (its children) first, then the client
    qInfo("fault matrix: %lld lease(s) in the census; the faulted client went in %lld ms",
        qint64(census->size()), took.elapsed());
    blameLeftLeases(leasesLeft(*m_clean, *census));
    m_faulted = makeClient(m_fault->faultedEndpoints(), true);
    for (Entry &e : m_entries)
        e.subject->replaceFaulted(m_faulted.get());
    return {};
}

// A lease left behind fails the cell whose keys it holds; one without keys (a spare) cannot
// be told apart, so it fails every cell, saying so.
void FaultSuite::blameLeftLeases(const QList<qint64> &left)
{
    for (const qint64 id : left) {
        const QList<QByteArray> keys = keysOfLease(*m_clean, id);
        const QString what = u"lease %1 of the deleted client left in etcd %2 ms after its "
                             u"destructor (keys: %3)"_s.arg(QString::number(id, 16))
                                 .arg(kLeaseGoneMs)
                                 .arg(QString::fromUtf8(keys.join(", ")));
        for (const Entry &e : m_entries) {
            const QByteArray path = "/fm/"_ba + e.name.toUtf8() + '/';
            if (keys.isEmpty()
                || std::any_of(keys.begin(), keys.end(),
                    [&path](const QByteArray &k) { return k.startsWith(path); }))
                m_blame[e.name].append(what);
        }
    }
}

void FaultSuite::checkAll()
{
    for (Entry &e : m_entries) {
        const QString outcome = checkOne(e);
        if (e.outcome.isEmpty())
            e.outcome = outcome;
    }
}

// Every phase runs even after a failed one: a subject left open would disturb the others.
QString FaultSuite::checkOne(Entry &entry)
{
    Subject &s = *entry.subject;
    QStringList failures;
    if (const QString r = s.afterFault(m_fault->facts()); !r.isEmpty())
        failures.append(u"after the fault: "_s + r);
    else if (const QString r = s.recover(); !r.isEmpty())
        failures.append(u"recovering: "_s + r);
    const QList<qint64> leases = s.leasesInUse();
    if (!s.close())
        failures.append(u"not every recipe said closed()"_s);
    else if (const QString r = leasesGone(*m_clean, leases); !r.isEmpty())
        failures.append(r);
    if (const QString v = s.violations(); !v.isEmpty())
        failures.prepend(v);
    for (const QString &blame : m_blame.value(entry.name))
        failures.prepend(blame);
    return failures.join(u" | ");
}

void FaultSuite::sampleAll()
{
    for (Entry &e : m_entries)
        e.subject->sample();
}

void FaultSuite::cell_data()
{
    QTest::addColumn<QString>("recipe");
    for (const Recipe &recipe : recipes())
        QTest::newRow(qPrintable(recipe.name)) << recipe.name;
}

void FaultSuite::cell()
{
    QFETCH(QString, recipe);
    if (const QString why = m_fault->skipReason(recipe); !why.isEmpty())
        QSKIP(qPrintable(why));
    QVERIFY2(m_setupFailure.isEmpty(), qPrintable(m_setupFailure + u'\n' + m_fault->log()));
    const auto it = std::find_if(
        m_entries.begin(), m_entries.end(), [&recipe](const Entry &e) { return e.name == recipe; });
    QVERIFY(it != m_entries.end());
    QVERIFY2(it->outcome.isEmpty(), qPrintable(it->outcome));
}

void FaultSuite::cleanupTestCase()
{
    m_monitor.stop();
    m_entries.clear(); // recipes before their clients, clients before etcd
    m_faulted.reset();
    m_clean.reset();
}

} // namespace FaultMatrix
