// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
// The Watch and LeaseKeepAlive streams: decode in the completion thread, post to the engine.
#include "bidistream_p.h"
#include "convert_p.h"
#include "keyspace_p.h"

namespace Etcd::Internal {

namespace pb = etcdserverpb;

namespace {

WatchResponseData decode(const pb::WatchResponse &r)
{
    WatchResponseData d;
    d.watchId = r.watch_id();
    d.created = r.created();
    d.canceled = r.canceled();
    d.compactRevision = r.compact_revision();
    d.cancelReason = QString::fromStdString(r.cancel_reason());
    d.revision = r.header().revision();
    d.events.reserve(r.events_size());
    const KeySpace raw; // keys stay whole; each watch strips its own client's prefix
    for (const auto &e : r.events()) {
        EtcdWatchEvent event;
        event.type = e.type() == mvccpb::Event::DELETE ? EtcdWatchEvent::Type::Delete
                                                       : EtcdWatchEvent::Type::Put;
        event.keyValue = Convert::keyValue(e.kv(), raw);
        if (e.has_prev_kv())
            event.prevKeyValue = Convert::keyValue(e.prev_kv(), raw);
        event.revision = e.kv().mod_revision();
        d.events.append(std::move(event));
    }
    return d;
}

// Responses decoded in the completion thread wait in a batch; only the first of a batch wakes the
// engine thread, which then takes them all, in order. Under load (1,000 keep-alive acks every
// few seconds) that is a handful of wake-ups instead of one per response.
template <class Data>
struct Batch
{
    std::mutex mutex;
    std::vector<Data> items;
};

template <class Response, class Data>
auto poster(const StreamCallbacks<Data> &cb, Data (*convert)(const Response &))
{
    auto batch = std::make_shared<Batch<Data>>();
    return [mailbox = cb.mailbox, fn = cb.response, intercept = cb.intercept, convert, batch](
               const Response &r) {
        Data data = convert(r);
        if (intercept && intercept(data))
            return;
        {
            std::lock_guard lock(batch->mutex);
            batch->items.push_back(std::move(data));
            if (batch->items.size() > 1)
                return; // a wake-up is already on its way
        }
        mailbox->post([fn, batch] {
            std::vector<Data> items;
            {
                std::lock_guard lock(batch->mutex);
                items.swap(batch->items);
            }
            for (Data &d : items)
                fn(std::move(d));
        });
    };
}

template <class Data>
auto finisher(const StreamCallbacks<Data> &cb)
{
    return [mailbox = cb.mailbox, fn = cb.done](
               const EtcdStatus &s) { mailbox->post([fn, s] { fn(s); }); };
}

KeepAliveAck decodeAck(const pb::LeaseKeepAliveResponse &r)
{
    return KeepAliveAck {r.id(), r.ttl()};
}

class WatchStreamImpl final : public WatchStream,
                              public BidiStream<pb::WatchRequest, pb::WatchResponse>
{
public:
    using BidiStream::BidiStream;
    void cancel() override { stop(); }
    void create(const WatchCreate &c) override
    {
        pb::WatchRequest r;
        auto *create = r.mutable_create_request();
        create->set_key(c.key.toStdString());
        create->set_range_end(c.rangeEnd.toStdString());
        create->set_start_revision(c.startRevision);
        create->set_progress_notify(c.progressNotify);
        create->set_prev_kv(c.prevKv);
        if (c.noPut)
            create->add_filters(pb::WatchCreateRequest::NOPUT);
        if (c.noDelete)
            create->add_filters(pb::WatchCreateRequest::NODELETE);
        write(std::move(r));
    }
    void cancelWatch(qint64 watchId) override
    {
        pb::WatchRequest r;
        r.mutable_cancel_request()->set_watch_id(watchId);
        write(std::move(r));
    }
    void requestProgress() override
    {
        pb::WatchRequest r;
        r.mutable_progress_request();
        write(std::move(r));
    }
};

class KeepAliveStreamImpl final
    : public KeepAliveStream,
      public BidiStream<pb::LeaseKeepAliveRequest, pb::LeaseKeepAliveResponse>
{
public:
    using BidiStream::BidiStream;
    void cancel() override { stop(); }
    void renew(qint64 leaseId) override
    {
        pb::LeaseKeepAliveRequest r;
        r.set_id(leaseId);
        write(std::move(r));
    }
};

} // namespace

std::shared_ptr<WatchStream> Transport::openWatch(StreamCallbacks<WatchResponseData> cb)
{
    auto stream = std::make_shared<WatchStreamImpl>(d, poster(cb, &decode), finisher(cb));
    const bool started
        = stream->start([](Stubs &s, grpc::ClientContext *c,
                            grpc::CompletionQueue *q) { return s.watch->PrepareAsyncWatch(c, q); },
            stream);
    return started ? stream : nullptr;
}

std::shared_ptr<KeepAliveStream> Transport::openKeepAlive(StreamCallbacks<KeepAliveAck> cb)
{
    auto stream = std::make_shared<KeepAliveStreamImpl>(d, poster(cb, &decodeAck), finisher(cb));
    const bool started = stream->start(
        [](Stubs &s, grpc::ClientContext *c, grpc::CompletionQueue *q) {
            return s.lease->PrepareAsyncLeaseKeepAlive(c, q);
        },
        stream);
    return started ? stream : nullptr;
}

} // namespace Etcd::Internal
