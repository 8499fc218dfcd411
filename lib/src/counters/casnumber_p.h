// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
//  W A R N I N G: internal header, not part of the EtcdQt API.
#pragma once

#include "etcdqt_internal_p.h"

#include <EtcdQt/etcdstatus.h>

#include <QtCore/qbytearray.h>
#include <QtCore/qpointer.h>

#include <deque>
#include <functional>
#include <optional>

class EtcdClient;
class EtcdRecipe;
class EtcdValueReply;

// A number kept at one key as 8 bytes big-endian (etcd-recipes' Long), changed only by
// compare-and-set: the engine of EtcdAtomicCounter and EtcdCountDownLatch.
namespace Etcd::Internal::CasNumber {

// The bytes of a number, and back (nullopt unless exactly 8 bytes).
ETCDQT_AUTOTEST_EXPORT QByteArray encode(qint64 value);
ETCDQT_AUTOTEST_EXPORT std::optional<qint64> decode(const QByteArray &bytes);

// What the key held when last seen. modRevision is meaningful only when it exists.
struct Snapshot
{
    bool known = false;
    bool exists = false;
    qint64 value = 0;
    qint64 modRevision = 0;
};

// What a rule decides from a snapshot: write a new value, keep the current one (answer it,
// write nothing), or fail with a status.
struct Step
{
    enum class Kind { Write, Keep, Fail };
    Kind kind = Kind::Keep;
    qint64 value = 0;
    EtcdStatus status {};

    static Step write(qint64 value) { return {Kind::Write, value, {}}; }
    static Step keep() { return {Kind::Keep, 0, {}}; }
    static Step fail(const EtcdStatus &why) { return {Kind::Fail, 0, why}; }
};

using Rule = std::function<Step(const Snapshot &)>;

struct Outcome
{
    EtcdStatus status {};
    qint64 value = 0; // committed (Write) or read (Keep)
    qint64 revision = 0; // etcd's revision when it was true
    bool wrote = false;
    Snapshot after {}; // unknown after a failure
};

struct Request
{
    EtcdClient *client = nullptr;
    QObject *context = nullptr; // every callback is dropped once it is destroyed
    QByteArray key;
    Rule rule;
    Snapshot start {}; // a cached snapshot to try first; unknown: read the key first
    std::function<bool()> stopped; // checked before each new attempt (Cancelled when true)
    std::function<void(const Outcome &)> done;
};

// Applies the rule to what the key holds and writes its value with a transaction that
// commits only if the key is unchanged since; on a conflict, applies it again to the value
// that won, after a random backoff of up to 100 ms times the conflicts so far (etcd-recipes'
// DistributedAtomicLong), without bound. A cached start that proved stale is retried at once.
void run(Request request);

// The operations of one recipe object on its key, one at a time in call order. Remembers
// the last snapshot it saw, so an uncontended change is one transaction.
class Queue
{
public:
    enum class Start { FromCache, FromRead };

    Queue(EtcdRecipe *recipe, const QByteArray &key) : recipe(recipe), key(key) { }

    // A reply that finishes with the outcome of `rule`, run after every operation before it.
    // FromRead always reads the key first (an answer that keeps a value is read fresh anyway).
    EtcdValueReply *enqueue(Rule rule, Start start);
    // Operations not started yet finish with Cancelled; one in flight still reports its
    // outcome but makes no new attempt. Idempotent.
    void close();

private:
    struct Operation
    {
        Rule rule;
        Start start;
        QPointer<EtcdValueReply> reply;
    };
    void runNext();

    EtcdRecipe *recipe;
    QByteArray key;
    Snapshot cached;
    std::deque<Operation> pending;
    bool running = false;
    bool closed = false;
};

} // namespace Etcd::Internal::CasNumber
