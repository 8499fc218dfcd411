// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0

// etcdqt-scale-peer: etcd's own Go recipes (clientv3 and clientv3/concurrency, Debian's
// golang-etcd-server-dev, etcd 3.4) at the scale curves' points, measured the way
// bench/scale_bench.cpp measures ours, so bench/run --scale --peers can draw Go beside us:
//
//	scale_election_candidates  a leader and x candidates (concurrency.Election, session TTL
//	                           60 s) on 10 clients (candidate i on client i % 10): per
//	                           hand-off, Resign() -> the next Campaign() returned; this
//	                           process's CPU until 50 ms after; etcd's requests for it
//	scale_lock_waiters         a holder and x waiters (concurrency.Mutex), the same way:
//	                           Unlock() -> the next Lock() returned
//	scale_leases               x leases (TTL 10 s) kept alive by one client's lessor (one
//	                           LeaseKeepAlive stream) for -seconds: CPU %, heap per lease
//	scale_watches              x watches of one client, a key each: setup, heap per watch,
//	                           200 puts from a second client -> the event received
//
// One JSON line per run, "impl": "go-concurrency", fields named as ours:
//
//	etcdqt-scale-peer -endpoint 127.0.0.1:2379 -scenario S -x N [-handoffs 10] [-seconds 10]
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"runtime"
	"sort"
	"time"

	"go.etcd.io/etcd/clientv3"
	"go.uber.org/zap"
)

const clients = 10 // election and lock points: the same clients whatever x is

var (
	endpoint = flag.String("endpoint", "127.0.0.1:2379", "etcd endpoint")
	scenario = flag.String("scenario", "scale_election_candidates", "the scale curve")
	x        = flag.Int("x", 1, "the point: candidates, waiters, leases or watches")
	handoffs = flag.Int("handoffs", 10, "hand-offs per election or lock point")
	seconds  = flag.Int("seconds", 10, "scale_leases' window")
)

var ctx = context.Background()

func fatal(format string, args ...interface{}) {
	fmt.Fprintf(os.Stderr, "etcdqt-scale-peer: "+format+"\n", args...)
	os.Exit(2)
}

func must(err error, what string) {
	if err != nil {
		fatal("%s: %v", what, err)
	}
}

func newClient() *clientv3.Client {
	logs := zap.NewProductionConfig()
	logs.Level = zap.NewAtomicLevelAt(zap.ErrorLevel)
	c, err := clientv3.New(clientv3.Config{Endpoints: []string{*endpoint},
		DialTimeout: 5 * time.Second, LogConfig: &logs})
	must(err, "client")
	return c
}

// A key space of this process alone, as ours (a prefix read must not walk an earlier run's).
func scalePath(name string) string {
	return fmt.Sprintf("/bench/go-scale/%s/%d", name, os.Getpid())
}

func percentile(v []float64, p float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	i := int(p * float64(len(s)-1))
	return s[i]
}

func msSince(t time.Time) float64 { return float64(time.Since(t).Nanoseconds()) / 1e6 }

func emit(line map[string]interface{}) {
	line["impl"] = "go-concurrency"
	line["scenario"] = *scenario
	line["x"] = *x
	b, err := json.Marshal(line)
	must(err, "json")
	fmt.Println(string(b))
}

func main() {
	flag.Parse()
	if *x < 1 {
		fatal("-x must be at least 1")
	}
	switch *scenario {
	case "scale_election_candidates":
		benchElection()
	case "scale_lock_waiters":
		benchLock()
	case "scale_leases":
		benchLeases()
	case "scale_watches":
		benchWatches()
	default:
		fatal("unknown scenario %q", *scenario)
	}
	runtime.KeepAlive(ctx)
}
