// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
#include "pagedread_p.h"

#include "clientcalls_p.h"

#include <EtcdQt/etcdclient.h>
#include <EtcdQt/etcdreplies.h>

#include <QtCore/qpointer.h>

#include <memory>

namespace Etcd::Internal {

namespace {

constexpr int kRestarts = 3; // compactions between pages before the read gives up

struct PagedRun
{
    QPointer<EtcdClient> client;
    QPointer<QObject> context;
    QByteArray key;
    QByteArray rangeEnd;
    int pageSize = 0;
    int restarts = 0;
    PagedSnapshot snapshot;
    std::function<void(const EtcdStatus &, PagedSnapshot)> done;
};
using RunPtr = std::shared_ptr<PagedRun>;

void nextPage(const RunPtr &run, const QByteArray &from);

bool tooLarge(const EtcdStatus &s)
{
    return s.code() == Etcd::ErrorCode::ResourceExhausted
        || s.code() == Etcd::ErrorCode::RequestTooLarge;
}

void pageAnswered(const RunPtr &run, const QByteArray &from, EtcdRangeReply *reply)
{
    const EtcdStatus s = reply->status();
    const bool first = run->snapshot.revision == 0;
    if (tooLarge(s) && run->pageSize > 1) {
        run->pageSize /= 2;
        return nextPage(run, from);
    }
    if (s.code() == Etcd::ErrorCode::Compacted && !first && run->restarts++ < kRestarts) {
        run->snapshot = {};
        return nextPage(run, run->key);
    }
    if (!s.isOk())
        return run->done(s, {});
    const QList<EtcdKeyValue> page = reply->keyValues();
    if (first) {
        run->snapshot.revision = reply->revision();
        run->snapshot.keyValues.reserve(qsizetype(reply->count())); // every key, in one go
    }
    const bool more = reply->hasMore() && !page.isEmpty() && !run->rangeEnd.isEmpty();
    if (more) // asked first: this page is copied while etcd reads the next
        nextPage(run, page.last().key + '\0');
    run->snapshot.keyValues += page;
    if (!more)
        run->done(EtcdStatus(), std::move(run->snapshot));
}

void nextPage(const RunPtr &run, const QByteArray &from)
{
    if (!run->context)
        return;
    EtcdRangeOptions o;
    o.rangeEnd = run->rangeEnd;
    if (!run->rangeEnd.isEmpty())
        o.limit = run->pageSize;
    o.revision = run->snapshot.revision; // 0 for the first page: now
    EtcdRangeReply *reply = getOn(run->client, from, o); // no client: fails on the next turn
    QObject::connect(reply, &EtcdReply::finished, run->context,
        [run, from, reply] { pageAnswered(run, from, reply); });
}

} // namespace

void readPaged(EtcdClient *client, QObject *context, const QByteArray &key,
    const QByteArray &rangeEnd, std::function<void(const EtcdStatus &, PagedSnapshot)> done,
    int pageSize)
{
    auto run = std::make_shared<PagedRun>();
    run->client = client;
    run->context = context;
    run->key = key;
    run->rangeEnd = rangeEnd;
    run->pageSize = std::max(pageSize, 1);
    run->done = std::move(done);
    nextPage(run, key);
}

} // namespace Etcd::Internal
