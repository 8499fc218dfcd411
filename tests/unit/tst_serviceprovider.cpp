// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// ProviderLogic, what EtcdServiceProvider decides, on a fake clock: the strategies' picks,
// ejection after exactly errorThreshold errors, and the end of an ejection exactly when its
// period is over, whether or not anyone (the provider's timer) looked.
#include "providerlogic_p.h"

#include <QtCore/qhash.h>
#include <QtCore/qset.h>
#include <QtTest/qtest.h>

using namespace Qt::StringLiterals;
using namespace std::chrono_literals;
using Etcd::Internal::ProviderLogic;
using Strategy = EtcdServiceProvider::Strategy;
using Instances = QList<EtcdServiceInstance>;

namespace {

// Time moves only when a test says so.
struct FakeClock
{
    ProviderLogic::TimePoint now = ProviderLogic::TimePoint() + 1000h;
    ProviderLogic::Clock clock()
    {
        return [this] { return now; };
    }
};

EtcdServiceInstance inst(const QString &id, bool enabled = true, const QString &name = u"svc"_s)
{
    EtcdServiceInstance s;
    s.name = name;
    s.id = id;
    s.enabled = enabled;
    return s;
}

QStringList idsOf(const Instances &instances)
{
    QStringList out;
    for (const EtcdServiceInstance &i : instances)
        out.append(i.id);
    return out;
}

// n picks, as ids ("-" for none).
QStringList picks(ProviderLogic &logic, int n)
{
    QStringList out;
    for (int i = 0; i < n; ++i) {
        const std::optional<EtcdServiceInstance> p = logic.pick();
        out.append(p ? p->id : u"-"_s);
    }
    return out;
}

const Strategy kBuiltIn[] = {Strategy::Random, Strategy::RoundRobin, Strategy::Sticky};

} // namespace

class tst_ServiceProvider : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void defaults();
    void nothingToPick();
    void randomCoversCandidatesOnly();
    void roundRobinSequence();
    void roundRobinCursorGoesOn();
    void stickyKeepsItsPick();
    void stickySwitchesWhenItsInstanceGoes();
    void stickyKeepsTheNewPick();
    void leavingStickyForgets();
    void customSelector();
    void customSelectorDeclines();
    void disabledNeverPicked();
    void ejectionAfterExactlyThreshold_data();
    void ejectionAfterExactlyThreshold();
    void errorsPerInstance();
    void errorsIgnoredWhileEjected();
    void restoreExactlyAtPeriodEnd();
    void restoreWithoutPick();
    void restoredStartsFromZero();
    void severalEjections();
    void downPeriodAppliesToLaterEjections();
    void ejectionOutlivesAbsence();
    void errorsForgottenWhenGone();
    void stickyLeavesAnEjectedInstance();
    void limits();
};

void tst_ServiceProvider::defaults()
{
    ProviderLogic logic;
    QCOMPARE(logic.strategy(), Strategy::Random);
    QCOMPARE(logic.errorThreshold(), 3);
    QCOMPARE(logic.downPeriod(), 30000ms);
    QVERIFY(!logic.nextRestore());
    QVERIFY(logic.instances().isEmpty());
}

// No instance, or none enabled: nothing, whatever the strategy; a selector is never asked.
void tst_ServiceProvider::nothingToPick()
{
    int asked = 0;
    for (const Instances &all : {Instances(), Instances({inst(u"a"_s, false)})}) {
        ProviderLogic logic;
        logic.setInstances(all);
        for (const Strategy s : kBuiltIn) {
            logic.setStrategy(s);
            QVERIFY(!logic.pick());
        }
        logic.setSelector([&asked](const Instances &) {
            ++asked;
            return qsizetype(0);
        });
        QVERIFY(!logic.pick());
        QVERIFY(logic.candidates().isEmpty());
    }
    QCOMPARE(asked, 0);
}

// 3,000 picks of three candidates: each about a third (1,000 +- 11 standard deviations),
// the disabled never.
void tst_ServiceProvider::randomCoversCandidatesOnly()
{
    ProviderLogic logic;
    logic.setInstances(
        {inst(u"a"_s), inst(u"b"_s, false), inst(u"c"_s), inst(u"d"_s), inst(u"e"_s, false)});
    QCOMPARE(idsOf(logic.candidates()), QStringList({u"a"_s, u"c"_s, u"d"_s}));
    QHash<QString, int> seen;
    for (const QString &id : picks(logic, 3000))
        ++seen[id];
    QCOMPARE(seen.size(), 3);
    for (const QString &id : {u"a"_s, u"c"_s, u"d"_s})
        QVERIFY2(seen.value(id) > 700 && seen.value(id) < 1300, qPrintable(id));
}

void tst_ServiceProvider::roundRobinSequence()
{
    ProviderLogic logic;
    logic.setStrategy(Strategy::RoundRobin);
    logic.setInstances({inst(u"a"_s), inst(u"b"_s), inst(u"c"_s)});
    QCOMPARE(
        picks(logic, 7), QStringList({u"a"_s, u"b"_s, u"c"_s, u"a"_s, u"b"_s, u"c"_s, u"a"_s}));
}

// As etcd-recipes: one counter, floorMod'ed by the number of candidates at each call.
void tst_ServiceProvider::roundRobinCursorGoesOn()
{
    ProviderLogic logic;
    logic.setStrategy(Strategy::RoundRobin);
    logic.setInstances({inst(u"a"_s), inst(u"b"_s), inst(u"c"_s)});
    QCOMPARE(picks(logic, 2), QStringList({u"a"_s, u"b"_s})); // counter now 2
    logic.setInstances({inst(u"a"_s), inst(u"c"_s)});
    QCOMPARE(picks(logic, 3), QStringList({u"a"_s, u"c"_s, u"a"_s})); // 2 % 2, 3 % 2, 4 % 2
    logic.setInstances({inst(u"a"_s), inst(u"b"_s), inst(u"c"_s), inst(u"d"_s)});
    QCOMPARE(picks(logic, 4), QStringList({u"b"_s, u"c"_s, u"d"_s, u"a"_s})); // 5 % 4 ...
}

// The same instance every time, and its latest registration (same name and id).
void tst_ServiceProvider::stickyKeepsItsPick()
{
    ProviderLogic logic;
    logic.setStrategy(Strategy::Sticky);
    logic.setInstances({inst(u"a"_s), inst(u"b"_s), inst(u"c"_s), inst(u"d"_s)});
    const QString first = logic.pick()->id;
    QCOMPARE(picks(logic, 100), QStringList(100, first));
    Instances updated = logic.instances();
    for (EtcdServiceInstance &i : updated)
        i.port = 9000;
    updated.prepend(inst(u"0"_s)); // its index moves too
    logic.setInstances(updated);
    const std::optional<EtcdServiceInstance> again = logic.pick();
    QVERIFY(again);
    QCOMPARE(again->id, first);
    QCOMPARE(again->port, 9000);
}

void tst_ServiceProvider::stickySwitchesWhenItsInstanceGoes()
{
    for (const bool disable : {false, true}) {
        ProviderLogic logic;
        logic.setStrategy(Strategy::Sticky);
        logic.setInstances({inst(u"a"_s), inst(u"b"_s), inst(u"c"_s)});
        const QString first = logic.pick()->id;
        Instances rest;
        for (const EtcdServiceInstance &i : logic.instances()) {
            if (i.id != first)
                rest.append(i);
            else if (disable)
                rest.append(inst(i.id, false));
        }
        logic.setInstances(rest);
        const std::optional<EtcdServiceInstance> next = logic.pick();
        QVERIFY(next);
        QVERIFY(next->id != first);
        QVERIFY(next->enabled);
        QCOMPARE(picks(logic, 50), QStringList(50, next->id));
    }
}

// The original coming back does not take the place of the one picked meanwhile.
void tst_ServiceProvider::stickyKeepsTheNewPick()
{
    ProviderLogic logic;
    logic.setStrategy(Strategy::Sticky);
    logic.setInstances({inst(u"a"_s)});
    QCOMPARE(logic.pick()->id, u"a"_s);
    logic.setInstances({inst(u"b"_s)});
    QCOMPARE(logic.pick()->id, u"b"_s);
    logic.setInstances({inst(u"a"_s), inst(u"b"_s)});
    QCOMPARE(picks(logic, 20), QStringList(20, u"b"_s));
}

// Sticky chosen again picks afresh: with 20 candidates, 20 rounds of "stick, leave, come
// back" land on more than one instance (all alike: 20^-19).
void tst_ServiceProvider::leavingStickyForgets()
{
    ProviderLogic logic;
    Instances all;
    for (int i = 0; i < 20; ++i)
        all.append(inst(QString::number(i)));
    logic.setInstances(all);
    QSet<QString> stuck;
    for (int round = 0; round < 20; ++round) {
        logic.setStrategy(Strategy::Sticky);
        const QString id = logic.pick()->id;
        QCOMPARE(logic.pick()->id, id);
        stuck.insert(id);
        logic.setStrategy(Strategy::RoundRobin);
    }
    QVERIFY(stuck.size() > 1);
}

// The selector sees the candidates only, and its index is the pick.
void tst_ServiceProvider::customSelector()
{
    FakeClock fake;
    ProviderLogic logic(fake.clock());
    logic.setErrorThreshold(1);
    logic.setInstances({inst(u"a"_s), inst(u"b"_s, false), inst(u"c"_s), inst(u"d"_s)});
    QStringList offered;
    logic.setSelector([&offered](const Instances &candidates) {
        offered = idsOf(candidates);
        return candidates.size() - 1;
    });
    QCOMPARE(logic.strategy(), Strategy::Custom);
    QCOMPARE(logic.pick()->id, u"d"_s);
    QCOMPARE(offered, QStringList({u"a"_s, u"c"_s, u"d"_s}));
    QVERIFY(logic.noteError(inst(u"d"_s)));
    QCOMPARE(logic.pick()->id, u"c"_s);
    QCOMPARE(offered, QStringList({u"a"_s, u"c"_s}));
}

// -1 is none, and so is an index outside the list; an empty selector picks nothing.
void tst_ServiceProvider::customSelectorDeclines()
{
    ProviderLogic logic;
    logic.setInstances({inst(u"a"_s), inst(u"b"_s)});
    for (const qsizetype answer : {qsizetype(-1), qsizetype(-2), qsizetype(2), qsizetype(99)}) {
        logic.setSelector([answer](const Instances &) { return answer; });
        QVERIFY2(!logic.pick(), qPrintable(QString::number(answer)));
    }
    logic.setSelector([](const Instances &) { return qsizetype(1); });
    QCOMPARE(logic.pick()->id, u"b"_s);
    logic.setSelector({});
    QCOMPARE(logic.strategy(), Strategy::Custom);
    QVERIFY(!logic.pick());
}

void tst_ServiceProvider::disabledNeverPicked()
{
    ProviderLogic logic;
    logic.setInstances({inst(u"x"_s, false), inst(u"a"_s), inst(u"y"_s, false), inst(u"b"_s),
        inst(u"z"_s, false)});
    for (const Strategy s : kBuiltIn) {
        logic.setStrategy(s);
        for (const QString &id : picks(logic, 200))
            QVERIFY2(id == u"a"_s || id == u"b"_s, qPrintable(id));
    }
    logic.setSelector([](const Instances &c) { return c.size() - 1; });
    QCOMPARE(logic.pick()->id, u"b"_s);
}

void tst_ServiceProvider::ejectionAfterExactlyThreshold_data()
{
    QTest::addColumn<int>("threshold");
    QTest::newRow("1") << 1;
    QTest::newRow("default 3") << 3;
    QTest::newRow("5") << 5;
}

void tst_ServiceProvider::ejectionAfterExactlyThreshold()
{
    QFETCH(int, threshold);
    FakeClock fake;
    ProviderLogic logic(fake.clock());
    if (threshold != 3)
        logic.setErrorThreshold(threshold);
    logic.setStrategy(Strategy::RoundRobin);
    const EtcdServiceInstance a = inst(u"a"_s), b = inst(u"b"_s);
    logic.setInstances({a, b});
    for (int i = 1; i < threshold; ++i) {
        QVERIFY(!logic.noteError(a));
        QCOMPARE(logic.errorCount(a), i);
        QVERIFY(!logic.isEjected(a));
        QCOMPARE(idsOf(logic.candidates()), QStringList({u"a"_s, u"b"_s}));
    }
    QVERIFY(logic.noteError(a));
    QVERIFY(logic.isEjected(a));
    QVERIFY(!logic.isEjected(b));
    QCOMPARE(logic.errorCount(a), 0);
    QCOMPARE(idsOf(logic.candidates()), QStringList({u"b"_s}));
    QCOMPARE(picks(logic, 4), QStringList(4, u"b"_s));
    QCOMPARE(logic.nextRestore(), fake.now + 30s);
    QVERIFY(logic.restoreDue().isEmpty());
}

// Counted per instance (its name and id), whatever else its registration says.
void tst_ServiceProvider::errorsPerInstance()
{
    FakeClock fake;
    ProviderLogic logic(fake.clock());
    const EtcdServiceInstance a = inst(u"a"_s), b = inst(u"b"_s);
    const EtcdServiceInstance otherServiceA = inst(u"a"_s, true, u"other"_s);
    logic.setInstances({a, b, otherServiceA});
    QVERIFY(!logic.noteError(a));
    QVERIFY(!logic.noteError(b));
    QVERIFY(!logic.noteError(otherServiceA));
    EtcdServiceInstance movedA = a;
    movedA.port = 1234;
    movedA.jsonPayload = u"{}"_s;
    QVERIFY(!logic.noteError(movedA));
    QCOMPARE(logic.errorCount(a), 2);
    QCOMPARE(logic.errorCount(b), 1);
    QCOMPARE(logic.errorCount(otherServiceA), 1);
    QVERIFY(logic.noteError(a));
    QVERIFY(logic.isEjected(movedA));
    QVERIFY(!logic.isEjected(otherServiceA));
    QVERIFY(!logic.isEjected(b));
}

void tst_ServiceProvider::errorsIgnoredWhileEjected()
{
    FakeClock fake;
    ProviderLogic logic(fake.clock());
    const EtcdServiceInstance a = inst(u"a"_s);
    logic.setInstances({a});
    for (int i = 0; i < 3; ++i)
        (void)logic.noteError(a);
    QVERIFY(logic.isEjected(a));
    const auto until = *logic.nextRestore();
    fake.now += 10s;
    for (int i = 0; i < 10; ++i)
        QVERIFY(!logic.noteError(a));
    QCOMPARE(logic.errorCount(a), 0);
    QCOMPARE(logic.nextRestore(), until); // not extended
}

// Out until the last nanosecond of the period, back at its end: pick() alone sees it, and
// restoreDue() hands it out once afterwards.
void tst_ServiceProvider::restoreExactlyAtPeriodEnd()
{
    FakeClock fake;
    ProviderLogic logic(fake.clock());
    logic.setDownPeriod(30s);
    const EtcdServiceInstance a = inst(u"a"_s);
    logic.setInstances({a});
    for (int i = 0; i < 3; ++i)
        (void)logic.noteError(a);
    const ProviderLogic::TimePoint end = fake.now + 30s;
    QCOMPARE(logic.nextRestore(), end);
    fake.now = end - 1ns;
    QVERIFY(logic.isEjected(a));
    QVERIFY(logic.candidates().isEmpty());
    QVERIFY(!logic.pick());
    QVERIFY(logic.restoreDue().isEmpty());
    fake.now = end;
    QVERIFY(!logic.isEjected(a));
    QCOMPARE(idsOf(logic.candidates()), QStringList({u"a"_s}));
    QCOMPARE(logic.pick()->id, u"a"_s); // no timer has run
    QVERIFY(!logic.nextRestore());
    QCOMPARE(idsOf(logic.restoreDue()), QStringList({u"a"_s}));
    QVERIFY(logic.restoreDue().isEmpty());
}

// The provider's timer path: nothing picked, restoreDue() at the end (or late) ends it.
void tst_ServiceProvider::restoreWithoutPick()
{
    FakeClock fake;
    ProviderLogic logic(fake.clock());
    logic.setErrorThreshold(1);
    EtcdServiceInstance a = inst(u"a"_s);
    a.port = 1;
    logic.setInstances({a});
    QVERIFY(logic.noteError(a));
    fake.now += 29999ms;
    QVERIFY(logic.restoreDue().isEmpty()); // a timer firing early
    QVERIFY(logic.nextRestore());
    fake.now += 5s; // and one firing late
    const Instances restored = logic.restoreDue();
    QCOMPARE(restored.size(), 1);
    QCOMPARE(restored.first(), a); // as it was ejected
    QVERIFY(!logic.isEjected(a));
    QVERIFY(!logic.nextRestore());
}

void tst_ServiceProvider::restoredStartsFromZero()
{
    FakeClock fake;
    ProviderLogic logic(fake.clock());
    const EtcdServiceInstance a = inst(u"a"_s);
    logic.setInstances({a});
    for (int i = 0; i < 3; ++i)
        (void)logic.noteError(a);
    fake.now += 30s;
    QVERIFY(!logic.noteError(a)); // the ejection ends first: this is error 1 of a new count
    QCOMPARE(idsOf(logic.restoreDue()), QStringList({u"a"_s}));
    QVERIFY(!logic.noteError(a));
    QCOMPARE(logic.errorCount(a), 2);
    QVERIFY(logic.noteError(a));
    QCOMPARE(logic.nextRestore(), fake.now + 30s);
}

void tst_ServiceProvider::severalEjections()
{
    FakeClock fake;
    ProviderLogic logic(fake.clock());
    logic.setErrorThreshold(1);
    const EtcdServiceInstance a = inst(u"a"_s), b = inst(u"b"_s), c = inst(u"c"_s);
    logic.setInstances({a, b, c});
    const ProviderLogic::TimePoint t0 = fake.now;
    QVERIFY(logic.noteError(a));
    fake.now += 10s;
    QVERIFY(logic.noteError(b));
    QCOMPARE(idsOf(logic.candidates()), QStringList({u"c"_s}));
    QCOMPARE(logic.nextRestore(), t0 + 30s);
    fake.now = t0 + 30s;
    QCOMPARE(idsOf(logic.restoreDue()), QStringList({u"a"_s}));
    QCOMPARE(logic.nextRestore(), t0 + 40s);
    QCOMPARE(idsOf(logic.candidates()), QStringList({u"a"_s, u"c"_s}));
    fake.now = t0 + 40s;
    QCOMPARE(idsOf(logic.candidates()), QStringList({u"a"_s, u"b"_s, u"c"_s}));
    QCOMPARE(idsOf(logic.restoreDue()), QStringList({u"b"_s}));
    QVERIFY(!logic.nextRestore());
}

void tst_ServiceProvider::downPeriodAppliesToLaterEjections()
{
    FakeClock fake;
    ProviderLogic logic(fake.clock());
    logic.setErrorThreshold(1);
    const EtcdServiceInstance a = inst(u"a"_s), b = inst(u"b"_s);
    logic.setInstances({a, b});
    const ProviderLogic::TimePoint t0 = fake.now;
    QVERIFY(logic.noteError(a));
    logic.setDownPeriod(5s);
    QCOMPARE(logic.downPeriod(), 5000ms);
    QVERIFY(logic.noteError(b));
    QCOMPARE(logic.nextRestore(), t0 + 5s);
    fake.now = t0 + 5s;
    QCOMPARE(idsOf(logic.restoreDue()), QStringList({u"b"_s}));
    QVERIFY(logic.isEjected(a));
    QCOMPARE(logic.nextRestore(), t0 + 30s);
}

// An ejected instance that the cache loses and finds again (a heal) is still out.
void tst_ServiceProvider::ejectionOutlivesAbsence()
{
    FakeClock fake;
    ProviderLogic logic(fake.clock());
    logic.setErrorThreshold(1);
    const EtcdServiceInstance a = inst(u"a"_s), b = inst(u"b"_s);
    logic.setInstances({a, b});
    QVERIFY(logic.noteError(a));
    logic.setInstances({b});
    fake.now += 10s;
    logic.setInstances({a, b});
    QVERIFY(logic.isEjected(a));
    QCOMPARE(idsOf(logic.candidates()), QStringList({u"b"_s}));
    fake.now += 20s;
    QCOMPARE(idsOf(logic.candidates()), QStringList({u"a"_s, u"b"_s}));
}

// Errors of an instance that went away are dropped (they would pile up forever otherwise).
void tst_ServiceProvider::errorsForgottenWhenGone()
{
    ProviderLogic logic;
    const EtcdServiceInstance a = inst(u"a"_s), b = inst(u"b"_s);
    logic.setInstances({a, b});
    (void)logic.noteError(a);
    (void)logic.noteError(a);
    (void)logic.noteError(b);
    logic.setInstances({b});
    QCOMPARE(logic.errorCount(a), 0);
    QCOMPARE(logic.errorCount(b), 1);
    logic.setInstances({a, b});
    QVERIFY(!logic.noteError(a));
    QVERIFY(!logic.isEjected(a));
}

void tst_ServiceProvider::stickyLeavesAnEjectedInstance()
{
    FakeClock fake;
    ProviderLogic logic(fake.clock());
    logic.setStrategy(Strategy::Sticky);
    logic.setErrorThreshold(1);
    logic.setInstances({inst(u"a"_s), inst(u"b"_s)});
    const EtcdServiceInstance first = *logic.pick();
    QVERIFY(logic.noteError(first));
    const QString other = first.id == u"a"_s ? u"b"_s : u"a"_s;
    QCOMPARE(picks(logic, 10), QStringList(10, other));
    fake.now += 30s; // back, but the pick stays where it went
    QCOMPARE(logic.candidates().size(), 2);
    QCOMPARE(picks(logic, 10), QStringList(10, other));
}

void tst_ServiceProvider::limits()
{
    FakeClock fake;
    ProviderLogic logic(fake.clock());
    const EtcdServiceInstance a = inst(u"a"_s);
    logic.setInstances({a});
    logic.setErrorThreshold(0);
    QCOMPARE(logic.errorThreshold(), 1);
    logic.setErrorThreshold(-4);
    QCOMPARE(logic.errorThreshold(), 1);
    logic.setDownPeriod(-5ms);
    QCOMPARE(logic.downPeriod(), 0ms);
    // A zero period: ejected and over at once.
    QVERIFY(logic.noteError(a));
    QVERIFY(!logic.isEjected(a));
    QCOMPARE(logic.pick()->id, u"a"_s);
    QCOMPARE(idsOf(logic.restoreDue()), QStringList({u"a"_s}));
    // A period beyond the clock's range: out for good, no overflow.
    logic.setDownPeriod(std::chrono::milliseconds::max());
    QVERIFY(logic.noteError(a));
    QCOMPARE(logic.nextRestore(), ProviderLogic::TimePoint::max());
    fake.now += 24h * 365 * 100;
    QVERIFY(logic.isEjected(a));
    QVERIFY(!logic.pick());
}

QTEST_APPLESS_MAIN(tst_ServiceProvider)
#include "tst_serviceprovider.moc"
