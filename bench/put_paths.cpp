// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
// Diagnosis, not in bench/run: what each way of waiting for a unary gRPC answer costs, on
// the put round trip, raw stubs and no Qt. The waiter always sleeps on a semaphore, as an
// owner thread sleeps in its event loop, except on the synchronous path (the floor), where
// the calling thread polls for its own answer:
//   sync      kv.Put() on the calling thread
//   callback  gRPC's callback API; the callback releases the waiter (lib/ before its own queue)
//   cq        a completion queue drained by one thread of ours; it releases the waiter
// The paths take turns in blocks of 100, so load on the machine falls on each alike.
// PUT_PATHS (default 012) picks which take part: gRPC starts its callback threads (two
// pollers and an executor) on the first callback call, and they slow every other path of the
// process too (on 2 cores: sync 0.26-0.28 ms beside them, 0.22-0.26 without, the cq path as
// fast as sync), so "02" measures a process that never uses the callback API, as lib/ now.
// *_allocs_per_op: the whole process's heap allocations per timed put (alloccount.cpp).
#include <grpcpp/grpcpp.h>

#include "alloccount.h"
#include "etcdserverpb/rpc.grpc.pb.h"

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

double p50(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

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
    const std::function<bool()> paths[] = {syncPut, callbackPut, cqPut};
    const char *picked = std::getenv("PUT_PATHS") ? std::getenv("PUT_PATHS") : "012";
    const char *names[] = {"sync", "callback", "cq"};
    std::vector<double> ms[3];
    long long allocs[3] = {}; // the whole process's, in the timed blocks
    for (int block = 0; block * 100 < n + 100; ++block) { // the first block warms up
        for (int p = 0; p < 3; ++p) {
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
    const double floor = p50(ms[0]);
    std::printf("{\"scenario\":\"put_paths\",\"impl\":\"cpp-grpc-raw\",\"n\":%d,"
                "\"sync_p50_ms\":%.4f,\"callback_p50_ms\":%.4f,\"cq_p50_ms\":%.4f,"
                "\"callback_ratio\":%.3f,\"cq_ratio\":%.3f,\"sync_allocs_per_op\":%.1f,"
                "\"callback_allocs_per_op\":%.1f,\"cq_allocs_per_op\":%.1f}\n",
        n, floor, p50(ms[1]), p50(ms[2]), p50(ms[1]) / floor, p50(ms[2]) / floor,
        perOp(allocs[0], ms[0]), perOp(allocs[1], ms[1]), perOp(allocs[2], ms[2]));
    std::fflush(stdout);
}
