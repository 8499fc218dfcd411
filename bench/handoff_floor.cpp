// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0
//
// The floor of the etcd-recipes leader selector's hand-off: what election_handoff and
// election_handoff_queued measure, done in raw synchronous gRPC with nothing else (no Qt, no
// engine, no participation keys). The peers' raw floor (raw_bench's handoff) times a delete
// -> the watch event, and Go's successor then only reads; on etcd-recipes' layout the
// successor must also win a compare-and-set on LEADER, so this is the least any client of
// that layout can do:
//   the leader revokes its lease (LEADER goes with it) -> the follower's watch on LEADER sees
//   the DELETE -> the follower's transaction "LEADER's version is 0 -> put LEADER = its id
//   with its lease" is answered, succeeded.
// Two candidates, each its own channel, watch stream and lease (TTL 10 s, as the peers' s3);
// a candidate grants its lease for the term and is turned down once by a leader that holds,
// untimed, before it is timed (as start() -> started()). The follower waits in its own
// thread, as the follower's process would, so the revoke's answer and the event race as they
// do between two programs. held: the leader holds 100-200 ms first (bench/benchcore.h's
// peersLeadTime(), same seed), the peers' s3; else the revoke follows at once (s3_immediate).
// One JSON line, as the peers' (bench/run names it a peer of our scenario of the same name):
// "peer": "cpp-grpc-raw-recipes".
#include <grpcpp/grpcpp.h>

#include "benchcore.h"
#include "etcdserverpb/rpc.grpc.pb.h"
#include "rawgrpc.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

namespace pb = etcdserverpb;
using Bench::check;
using Bench::percentile;
using Clock = std::chrono::steady_clock;

namespace {

const std::string kLeader = "/bench/raw-recipes/election/LEADER";

void require(bool ok, const char *what)
{
    if (!ok) {
        std::fprintf(stderr, "handoff floor: %s failed\n", what);
        std::exit(2);
    }
}

struct Candidate
{
    explicit Candidate(const std::string &target, int id)
        : channel(grpc::CreateCustomChannel(target, grpc::InsecureChannelCredentials(),
            [id] {
                grpc::ChannelArguments args;
                args.SetInt("etcdqt.bench.candidate", id); // a connection of its own
                return args;
            }())),
          kv(pb::KV::NewStub(channel)), leases(pb::Lease::NewStub(channel)),
          watcher(pb::Watch::NewStub(channel)), name("candidate-" + std::to_string(id))
    {
        stream = watcher->Watch(&watchContext);
        pb::WatchRequest create;
        create.mutable_create_request()->set_key(kLeader);
        pb::WatchResponse created;
        require(stream->Write(create) && stream->Read(&created) && created.created(), "watch");
    }

    void grant()
    {
        grpc::ClientContext ctx;
        pb::LeaseGrantRequest q;
        q.set_ttl(10);
        pb::LeaseGrantResponse a;
        check(leases->LeaseGrant(&ctx, q, &a), "LeaseGrant");
        lease = a.id();
    }

    void revoke()
    {
        grpc::ClientContext ctx;
        pb::LeaseRevokeRequest q;
        q.set_id(lease);
        pb::LeaseRevokeResponse a;
        check(leases->LeaseRevoke(&ctx, q, &a), "LeaseRevoke");
    }

    // The selector's compare-and-set; the revision etcd answered at, and whether it won.
    bool campaign(long long *revision)
    {
        grpc::ClientContext ctx;
        pb::TxnRequest q;
        pb::Compare *vacant = q.add_compare();
        vacant->set_key(kLeader);
        vacant->set_target(pb::Compare::VERSION);
        vacant->set_result(pb::Compare::EQUAL);
        vacant->set_version(0);
        pb::PutRequest *put = q.add_success()->mutable_request_put();
        put->set_key(kLeader);
        put->set_value(name);
        put->set_lease(lease);
        q.add_failure()->mutable_request_range()->set_key(kLeader);
        pb::TxnResponse a;
        check(kv->Txn(&ctx, q, &a), "Txn");
        *revision = a.header().revision();
        return a.succeeded();
    }

    // Blocks until LEADER's DELETE after `after` arrives on this candidate's watch.
    void awaitVacancy(long long after)
    {
        for (pb::WatchResponse r; stream->Read(&r);) {
            for (const mvccpb::Event &e : r.events())
                if (e.type() == mvccpb::Event::DELETE && e.kv().mod_revision() > after)
                    return;
        }
        require(false, "the watch ended");
    }

    std::shared_ptr<grpc::Channel> channel;
    std::unique_ptr<pb::KV::Stub> kv;
    std::unique_ptr<pb::Lease::Stub> leases;
    std::unique_ptr<pb::Watch::Stub> watcher;
    grpc::ClientContext watchContext;
    std::unique_ptr<grpc::ClientReaderWriter<pb::WatchRequest, pb::WatchResponse>> stream;
    std::string name;
    long long lease = 0;
};

// One hand-off from `leader` to `follower`, which is in the running: milliseconds from the
// revoke sent to the follower's compare-and-set answered.
double handOff(Candidate &leader, Candidate &follower, long long queuedAt)
{
    Clock::time_point won;
    bool succeeded = false;
    std::thread waiter([&] {
        follower.awaitVacancy(queuedAt);
        long long revision = 0;
        succeeded = follower.campaign(&revision);
        won = Clock::now();
    });
    const Clock::time_point t0 = Clock::now();
    leader.revoke();
    waiter.join();
    require(succeeded, "the follower's compare-and-set after the DELETE");
    return std::chrono::duration<double, std::milli>(won - t0).count();
}

} // namespace

void benchHandoffFloor(const std::string &target, int n, bool held)
{
    Candidate a(target, 1), b(target, 2);
    {
        grpc::ClientContext ctx; // a LEADER left by an earlier run that died
        pb::DeleteRangeRequest q;
        q.set_key(kLeader);
        pb::DeleteRangeResponse r;
        check(a.kv->DeleteRange(&ctx, q, &r), "DeleteRange");
    }
    long long revision = 0;
    a.grant();
    require(a.campaign(&revision), "the first campaign");
    Candidate *leader = &a, *follower = &b;
    std::mt19937 rng(42); // the peers' seed, as our held hand-offs
    std::vector<double> lat;
    for (int i = 0; i < n; ++i) {
        follower->grant();
        require(!follower->campaign(&revision), "a campaign against a held LEADER");
        if (held)
            std::this_thread::sleep_for(Bench::peersLeadTime(rng));
        lat.push_back(handOff(*leader, *follower, revision));
        std::swap(leader, follower);
    }
    leader->revoke();
    for (Candidate *c : {&a, &b}) {
        c->watchContext.TryCancel();
        c->stream->Finish(); // CANCELLED, by us
    }
    std::printf("{\"scenario\":\"%s\",\"peer\":\"cpp-grpc-raw-recipes\",\"n\":%d,"
                "\"p50_ms\":%.4f,\"p99_ms\":%.4f,\"min_ms\":%.4f,\"max_ms\":%.4f,\"held\":%s}\n",
        held ? "election_handoff" : "election_handoff_queued", n, percentile(lat, 0.5),
        percentile(lat, 0.99), percentile(lat, 0), percentile(lat, 1), held ? "true" : "false");
    std::fflush(stdout);
}
