// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
// Diagnosis, not in bench/run: what each way of waiting for a unary gRPC answer costs, on
// the put round trip. The waiter sleeps on a semaphore, as an owner thread sleeps in its
// event loop, except on the synchronous path (the floor), where the calling thread polls for
// its own answer:
//   sync      kv.Put() on the calling thread
//   callback  gRPC's callback API; the callback releases the waiter (lib/ before its own queue)
//   cq        a completion queue drained by one thread of ours; it releases the waiter
//   qt        the same queue, its thread posting to this thread's Qt event loop
//             (QMetaObject::invokeMethod, queued), which waits in QEventLoop::exec(): the
//             least any Qt-native asynchronous API pays, with nothing of EtcdQt in it
//   etcdqt    EtcdClient::put() from this thread, its finished() ending a QEventLoop: what
//             bench/etcdqt_bench.cpp's put measures
// The paths take turns in blocks of 100, so load on the machine falls on each alike (the
// machine's speed drifts within seconds: separate processes minutes apart compare poorly).
// PUT_PATHS (default 0234) picks which take part: gRPC starts its callback threads (two
// pollers and an executor) on the first callback call, and they slow every other path of the
// process too (on 2 cores: sync 0.26-0.28 ms beside them, 0.22-0.26 without, the cq path as
// fast as sync), so the default leaves the callback API out, as lib/ does.
// *_allocs_per_op: the whole process's heap allocations per timed put (alloccount.cpp).
#include <grpcpp/grpcpp.h>

#include "alloccount.h"
#include "etcdserverpb/rpc.grpc.pb.h"
#include "benchcore.h"

#include <EtcdQt/etcdclient.h>
#include <EtcdQt/etcdreply.h>

#include <QtCore/qcoreapplication.h>
#include <QtCore/qeventloop.h>
#include <QtCore/qurl.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <semaphore>
#include <string>
#include <thread>
#include <vector>

namespace pb = etcdserverpb;
using Clock = std::chrono::steady_clock;

namespace {

struct Tag
{
    std::function<void()> done;
};

// Allocations per timed put; -1 when not counted or not run.
double perOp(long long allocs, const std::vector<double> &timed)
{
    return Bench::Allocations::counted() && !timed.empty() ? double(allocs) / timed.size() : -1;
}

} // namespace

void benchPutPaths(const std::string &target, int n)
{
    auto channel = grpc::CreateChannel(target, grpc::InsecureChannelCredentials());
    auto kv = pb::KV::NewStub(channel);
    grpc::CompletionQueue cq;
    std::thread drainer([&cq] {
        void *tag = nullptr;
        bool ok = false;
        while (cq.Next(&tag, &ok))
            static_cast<Tag *>(tag)->done();
    });
    std::binary_semaphore answered(0);
    pb::PutRequest q;
    q.set_key("/bench/raw/put_paths");
    q.set_value("v");
    const auto syncPut = [&] {
        grpc::ClientContext ctx;
        pb::PutResponse a;
        return kv->Put(&ctx, q, &a).ok();
    };
    const auto callbackPut = [&] {
        grpc::ClientContext ctx;
        pb::PutResponse a;
        grpc::Status status;
        kv->async()->Put(&ctx, &q, &a, [&](grpc::Status s) {
            status = std::move(s);
            answered.release();
        });
        answered.acquire();
        return status.ok();
    };
    const auto cqPut = [&] {
        grpc::ClientContext ctx;
        pb::PutResponse a;
        grpc::Status status;
        Tag tag {[&] { answered.release(); }};
        auto rpc = kv->PrepareAsyncPut(&ctx, q, &cq);
        rpc->StartCall();
        rpc->Finish(&a, &status, &tag);
        answered.acquire();
        return status.ok();
    };
    static int argc = 1;
    static char name[] = "put_paths", *argv[] = {name, nullptr};
    QCoreApplication app(argc, argv); // the event loop the qt and etcdqt paths wait in
    QObject receiver; // this thread's: the qt path's posts run here
    const auto qtPut = [&] {
        grpc::ClientContext ctx;
        pb::PutResponse a;
        grpc::Status status;
        QEventLoop loop;
        Tag tag {[&] { QMetaObject::invokeMethod(&receiver, [&] { loop.quit(); }); }};
        auto rpc = kv->PrepareAsyncPut(&ctx, q, &cq);
        rpc->StartCall();
        rpc->Finish(&a, &status, &tag);
        loop.exec();
        return status.ok();
    };
    EtcdClient client({QUrl(QStringLiteral("http://") + QString::fromStdString(target))});
    client.connectToEndpoints();
    const auto etcdqtPut = [&] {
        QEventLoop loop;
        bool ok = false;
        EtcdReply *reply
            = client.put(QByteArrayLiteral("/bench/raw/put_paths"), QByteArrayLiteral("v"));
        QObject::connect(reply, &EtcdReply::finished, &loop, [&](const EtcdStatus &s) {
            ok = s.isOk();
            loop.quit();
        });
        loop.exec();
        return ok;
    };
    constexpr int kPaths = 5;
    const std::function<bool()> paths[kPaths] = {syncPut, callbackPut, cqPut, qtPut, etcdqtPut};
    const char *picked = std::getenv("PUT_PATHS") ? std::getenv("PUT_PATHS") : "0234";
    const char *names[kPaths] = {"sync", "callback", "cq", "qt", "etcdqt"};
    std::vector<double> ms[kPaths];
    long long allocs[kPaths] = {}; // the whole process's, in the timed blocks
    for (int block = 0; block * 100 < n + 100; ++block) { // the first block warms up
        for (int p = 0; p < kPaths; ++p) {
            if (!std::strchr(picked, '0' + p))
                continue;
            const Bench::Allocations::Window window;
            for (int i = 0; i < 100; ++i) {
                const auto t0 = Clock::now();
                if (!paths[p]()) {
                    std::fprintf(stderr, "put_paths: %s put failed\n", names[p]);
                    std::exit(2);
                }
                if (block > 0)
                    ms[p].push_back(
                        std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
            }
            if (block > 0)
                allocs[p] += window.process();
        }
    }
    cq.Shutdown();
    drainer.join();
    const double floor = Bench::percentile(ms[0], 0.5);
    std::printf("{\"scenario\":\"put_paths\",\"impl\":\"cpp-grpc-raw\",\"n\":%d", n);
    for (int p = 0; p < kPaths; ++p) {
        if (ms[p].empty())
            continue;
        std::printf(",\"%s_p50_ms\":%.4f,\"%s_allocs_per_op\":%.1f", names[p],
            Bench::percentile(ms[p], 0.5), names[p], perOp(allocs[p], ms[p]));
        if (p > 0)
            std::printf(",\"%s_ratio\":%.3f", names[p], Bench::percentile(ms[p], 0.5) / floor);
    }
    std::printf("}\n");
    std::fflush(stdout);
}
