// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// KeyMirror, the priority queue's copy of its first keys: what a read and the watch's events
// after it make of it, in the orders they can come in.
#include "keymirror_p.h"

#include <EtcdQt/etcdwatchevent.h>

#include <QtTest/qtest.h>

using Etcd::Internal::KeyMirror;
using namespace Qt::StringLiterals;

namespace {
EtcdKeyValue kv(const QByteArray &key, qint64 modRevision)
{
    EtcdKeyValue k;
    k.key = key;
    k.modRevision = modRevision;
    return k;
}

EtcdWatchEvent put(const QByteArray &key, qint64 revision)
{
    EtcdWatchEvent e;
    e.keyValue = kv(key, revision);
    e.revision = revision;
    return e;
}

EtcdWatchEvent del(const QByteArray &key, qint64 revision)
{
    EtcdWatchEvent e = put(key, revision);
    e.type = EtcdWatchEvent::Type::Delete;
    e.keyValue.modRevision = 0;
    return e;
}

QByteArray headKey(const KeyMirror &m)
{
    const auto head = m.head();
    return head ? head->key : "<none>"_ba;
}
} // namespace

class tst_KeyMirror : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void unloadedDropsEvents();
    void eventsDuringTheReadApplyAfterIt();
    void eventsOfOneRevisionAllApply();
    void truncatedKeepsNoLaterKey();
    void correctionOlderThanTheEventsIsIgnored();
    void invalidateForgetsEverything();
};

void tst_KeyMirror::unloadedDropsEvents()
{
    KeyMirror m;
    m.apply({put("q/a", 5)});
    QVERIFY(!m.isLoaded());
    QCOMPARE(m.size(), 0);
}

// The read was served at revision 10: a put at 9 it already has, a delete at 12 it has not.
void tst_KeyMirror::eventsDuringTheReadApplyAfterIt()
{
    KeyMirror m;
    m.startLoading();
    m.apply({put("q/b", 9), put("q/a", 11), del("q/c", 12)});
    m.load({kv("q/b", 9), kv("q/c", 7)}, 10, false);
    QCOMPARE(m.size(), 2);
    QCOMPARE(headKey(m), "q/a"_ba);
    QCOMPARE(m.head()->modRevision, 11);
    QCOMPARE(m.revision(), 12);
    m.apply({del("q/a", 13)});
    QCOMPARE(headKey(m), "q/b"_ba);
}

// A batch is one transaction: its puts share a revision, and each is applied.
void tst_KeyMirror::eventsOfOneRevisionAllApply()
{
    KeyMirror m;
    m.startLoading();
    m.load({}, 3, false);
    m.apply({put("q/2", 4), put("q/1", 4), put("q/3", 4)});
    QCOMPARE(m.size(), 3);
    QCOMPARE(headKey(m), "q/1"_ba);
    QCOMPARE(m.revision(), 4);
}

// Only the first keys are kept: a later put is left for the read that follows, an earlier
// one is kept; once the kept keys are gone, the mirror says it must read again.
void tst_KeyMirror::truncatedKeepsNoLaterKey()
{
    KeyMirror m;
    m.startLoading();
    m.load({kv("q/b", 2), kv("q/d", 3)}, 5, true);
    QVERIFY(m.isTruncated());
    m.apply({put("q/z", 6), put("q/a", 7)});
    QCOMPARE(m.size(), 3);
    QCOMPARE(headKey(m), "q/a"_ba);
    m.apply({del("q/a", 8), del("q/b", 9), del("q/d", 10)});
    QVERIFY(!m.head());
    QVERIFY(m.isTruncated());
}

// A take's answer at revision 6 says q/a is gone, but the watch already brought its put
// again at 7: the mirror keeps what it knows.
void tst_KeyMirror::correctionOlderThanTheEventsIsIgnored()
{
    KeyMirror m;
    m.startLoading();
    m.load({kv("q/a", 2)}, 5, false);
    m.apply({del("q/a", 6), put("q/a", 7)});
    m.correct("q/a", std::nullopt, 6);
    QCOMPARE(headKey(m), "q/a"_ba);
    m.correct("q/a", std::nullopt, 7);
    QVERIFY(!m.head());
    m.correct("q/b", 9, 9);
    QCOMPARE(headKey(m), "q/b"_ba);
}

void tst_KeyMirror::invalidateForgetsEverything()
{
    KeyMirror m;
    m.startLoading();
    m.load({kv("q/a", 2)}, 5, true);
    m.invalidate();
    QVERIFY(!m.isLoaded());
    QVERIFY(!m.isLoading());
    QVERIFY(!m.isTruncated());
    QCOMPARE(m.size(), 0);
    m.apply({put("q/b", 6)});
    QCOMPARE(m.size(), 0);
}

QTEST_APPLESS_MAIN(tst_KeyMirror)
#include "tst_keymirror.moc"
