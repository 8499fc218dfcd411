// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
// The floors of the cache scenarios that the peers' raw_bench has no mode for: raw etcd v3
// gRPC calls from C++ (the generated stubs lib/ builds, synchronous API, one channel), no
// Qt, no conversion of what etcd sent. One JSON line per scenario on stdout, in
// etcdqt-bench's shape, "impl": "cpp-grpc-raw".
//
// usage: etcdqt-raw-floor HOST:PORT SCENARIO[,SCENARIO...] [REPS]
//   cache_load_10k, cache_load_100k  a paged range read of every key under
//                   /bench/cache/<N>/, as EtcdPathChildrenCache reads it: pages of 1,000
//                   keys, the first at the current revision, every later one pinned to it
//                   and going on from the last key + '\0', linearizable, the responses kept.
//                   REPS reads (default 5) after one untimed; p50/min/max of the reads. The
//                   keys are those cache_bench.cpp seeds (24-byte names, 64-byte values);
//                   seeded here the same way if they are not there.
//   put_paths       diagnosis, not in bench/run: the put round trip waited for in five ways
//                   (synchronous, gRPC's callback API, a completion queue of our own, that
//                   queue posting to a Qt event loop, EtcdClient::put()), in alternating
//                   blocks, REPS puts each (default 3,000); see put_paths.cpp
//   queue_latency   the floor of queue_latency, paced as it is (2 ms apart, REPS x 200
//                   items, default 1,000): a put on one channel -> the event on a watch of
//                   the queue's prefix on a second channel -> that channel's transaction
//                   deleting the key if its mod revision is unchanged, answered. The least
//                   any queue take can do: one watch event and one compare-and-delete.
//   election_handoff, election_handoff_queued  the etcd-recipes selector's hand-off at its
//                   floor, REPS hand-offs (default 20), a peer's line: see handoff_floor.cpp
#include <grpcpp/grpcpp.h>

#include "etcdserverpb/rpc.grpc.pb.h"
#include "benchcore.h"
#include "rawgrpc.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace pb = etcdserverpb;
using Bench::check;
using Bench::percentile;
using Clock = std::chrono::steady_clock;

namespace {

constexpr int kPageSize = 1000; // pagedread_p.h's default
constexpr int kTxnOps = 128; // etcd's default --max-txn-ops

// cache_bench.cpp's childName() and childValue(), byte for byte.
std::string childName(int i)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "child-%018d", i);
    return buf;
}

std::string childValue(int i)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%016d", i);
    return std::string(buf) + buf + buf + buf;
}

std::string prefixEnd(std::string key)
{
    while (!key.empty() && static_cast<unsigned char>(key.back()) == 0xff)
        key.pop_back();
    if (key.empty())
        return std::string(1, '\0');
    key.back() = char(key.back() + 1);
    return key;
}

long countUnder(pb::KV::Stub &kv, const std::string &prefix)
{
    grpc::ClientContext ctx;
    pb::RangeRequest q;
    q.set_key(prefix);
    q.set_range_end(prefixEnd(prefix));
    q.set_count_only(true);
    pb::RangeResponse a;
    check(kv.Range(&ctx, q, &a), "Range (count)");
    return long(a.count());
}

void seed(pb::KV::Stub &kv, const std::string &prefix, int count)
{
    if (countUnder(kv, prefix) == count)
        return;
    {
        grpc::ClientContext ctx;
        pb::DeleteRangeRequest q;
        q.set_key(prefix);
        q.set_range_end(prefixEnd(prefix));
        pb::DeleteRangeResponse a;
        check(kv.DeleteRange(&ctx, q, &a), "DeleteRange");
    }
    for (int first = 0; first < count; first += kTxnOps) {
        grpc::ClientContext ctx;
        pb::TxnRequest q;
        for (int i = first; i < std::min(count, first + kTxnOps); ++i) {
            pb::PutRequest *put = q.add_success()->mutable_request_put();
            put->set_key(prefix + childName(i));
            put->set_value(childValue(i));
        }
        pb::TxnResponse a;
        check(kv.Txn(&ctx, q, &a), "Txn");
    }
}

// One paged read of the range; returns how many keys it saw.
long pagedRead(pb::KV::Stub &kv, const std::string &prefix, std::vector<pb::RangeResponse> &pages)
{
    const std::string end = prefixEnd(prefix);
    std::string from = prefix;
    long seen = 0, revision = 0;
    for (;;) {
        grpc::ClientContext ctx;
        pb::RangeRequest q;
        q.set_key(from);
        q.set_range_end(end);
        q.set_limit(kPageSize);
        q.set_revision(revision);
        pages.emplace_back();
        pb::RangeResponse &a = pages.back();
        check(kv.Range(&ctx, q, &a), "Range");
        if (revision == 0)
            revision = long(a.header().revision());
        seen += a.kvs_size();
        if (!a.more() || a.kvs_size() == 0)
            return seen;
        from = a.kvs(a.kvs_size() - 1).key() + '\0';
    }
}

double cpuMs()
{
    timespec ts {};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) / 1e6;
}

void benchLoad(pb::KV::Stub &kv, const std::string &scenario, int children, int reps)
{
    const std::string prefix = "/bench/cache/" + std::to_string(children) + "/";
    seed(kv, prefix, children);
    {
        std::vector<pb::RangeResponse> warm;
        pagedRead(kv, prefix, warm);
    }
    std::vector<double> ms, cpu;
    for (int r = 0; r < reps; ++r) {
        std::vector<pb::RangeResponse> pages;
        const double cpu0 = cpuMs();
        const auto t0 = Clock::now();
        const long seen = pagedRead(kv, prefix, pages);
        ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
        cpu.push_back(cpuMs() - cpu0);
        if (seen != children) {
            std::fprintf(
                stderr, "%s: read %ld keys, %d expected\n", scenario.c_str(), seen, children);
            std::exit(2);
        }
    }
    std::printf("{\"scenario\":\"%s\",\"impl\":\"cpp-grpc-raw\",\"n\":%d,\"reps\":%d,"
                "\"p50_ms\":%.3f,\"min_ms\":%.3f,\"max_ms\":%.3f,\"cpu_p50_ms\":%.3f,"
                "\"page_size\":%d}\n",
        scenario.c_str(), children, reps, percentile(ms, 0.5), percentile(ms, 0), percentile(ms, 1),
        percentile(cpu, 0.5), kPageSize);
    std::fflush(stdout);
}

} // namespace

void benchPutPaths(const std::string &target, int n); // put_paths.cpp
void benchHandoffFloor(const std::string &target, int n, bool held); // handoff_floor.cpp

void benchQueueLatency(const std::string &target, int n)
{
    auto producer
        = pb::KV::NewStub(grpc::CreateChannel(target, grpc::InsecureChannelCredentials()));
    auto channel = grpc::CreateChannel(target, grpc::InsecureChannelCredentials());
    auto consumer = pb::KV::NewStub(channel);
    auto watcher = pb::Watch::NewStub(channel);
    const std::string prefix = "/bench/raw/queue/" + std::to_string(std::time(nullptr)) + "/";
    grpc::ClientContext watchContext;
    auto stream = watcher->Watch(&watchContext);
    pb::WatchRequest create;
    create.mutable_create_request()->set_key(prefix);
    std::string end = prefix;
    end.back() = char(end.back() + 1);
    create.mutable_create_request()->set_range_end(end);
    create.mutable_create_request()->add_filters(pb::WatchCreateRequest::NODELETE);
    pb::WatchResponse response;
    if (!stream->Write(create) || !stream->Read(&response) || !response.created()) {
        std::fprintf(stderr, "watch create failed\n");
        std::exit(2);
    }
    std::vector<double> latency;
    for (int i = 0; i < n; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
        const auto sent = Clock::now();
        pb::PutRequest put;
        put.set_key(prefix + std::to_string(i));
        put.set_value(std::to_string(i));
        pb::PutResponse putAnswer;
        grpc::ClientContext putContext;
        check(producer->Put(&putContext, put, &putAnswer), "put");
        do {
            if (!stream->Read(&response)) {
                std::fprintf(stderr, "watch ended\n");
                std::exit(2);
            }
        } while (response.events_size() == 0);
        const auto &kv = response.events(0).kv();
        pb::TxnRequest txn;
        auto *compare = txn.add_compare();
        compare->set_key(kv.key());
        compare->set_target(pb::Compare::MOD);
        compare->set_result(pb::Compare::EQUAL);
        compare->set_mod_revision(kv.mod_revision());
        auto *del = txn.add_success()->mutable_request_delete_range();
        del->set_key(kv.key());
        del->set_prev_kv(true);
        pb::TxnResponse answer;
        grpc::ClientContext txnContext;
        check(consumer->Txn(&txnContext, txn, &answer), "txn");
        latency.push_back(std::chrono::duration<double, std::milli>(Clock::now() - sent).count());
    }
    watchContext.TryCancel();
    std::sort(latency.begin(), latency.end());
    std::printf("{\"impl\":\"cpp-grpc-raw\",\"scenario\":\"queue_latency\",\"n\":%d,"
                "\"p50_ms\":%.3f,\"p99_ms\":%.3f}\n",
        n, latency[latency.size() / 2],
        latency[std::min(latency.size() - 1, latency.size() * 99 / 100)]);
    std::fflush(stdout);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        std::fprintf(
            stderr, "usage: %s HOST:PORT cache_load_10k,cache_load_100k [REPS]\n", argv[0]);
        return 2;
    }
    const int reps = argc > 3 ? std::atoi(argv[3]) : 5;
    grpc::ChannelArguments args;
    args.SetMaxReceiveMessageSize(-1);
    auto kv = pb::KV::NewStub(
        grpc::CreateCustomChannel(argv[1], grpc::InsecureChannelCredentials(), args));
    std::stringstream list(argv[2]);
    for (std::string scenario; std::getline(list, scenario, ',');) {
        if (scenario == "cache_load_10k")
            benchLoad(*kv, scenario, 10000, reps);
        else if (scenario == "cache_load_100k")
            benchLoad(*kv, scenario, 100000, reps);
        else if (scenario == "put_paths")
            benchPutPaths(argv[1], argc > 3 ? reps : 3000);
        else if (scenario == "queue_latency")
            benchQueueLatency(argv[1], argc > 3 ? reps * 200 : 1000);
        else if (scenario == "election_handoff" || scenario == "election_handoff_queued")
            benchHandoffFloor(argv[1], argc > 3 ? reps : 20, scenario == "election_handoff");
        else if (!scenario.empty()) {
            std::fprintf(stderr, "unknown scenario %s\n", scenario.c_str());
            return 2;
        }
    }
    return 0;
}
