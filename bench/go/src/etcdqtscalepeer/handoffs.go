// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"context"
	"fmt"
	"time"

	"go.etcd.io/etcd/clientv3"
	"go.etcd.io/etcd/clientv3/concurrency"
)

const startBatch = 100 // contenders started at once, as ours

// One candidate or lock waiter: win blocks until it leads or holds, yield resigns or unlocks,
// key is the key that puts it in line.
type contender struct {
	client  *clientv3.Client
	session *concurrency.Session
	win     func(ctx context.Context) error
	yield   func() error
	key     func() string
	rejoin  chan struct{}
}

type winner struct {
	index int
	at    time.Time
}

func newContender(c *clientv3.Client, path string, election bool) *contender {
	s, err := concurrency.NewSession(c, concurrency.WithTTL(60))
	must(err, "session")
	// Both recipes name a contender's key <path>/<its lease in hex>.
	k := fmt.Sprintf("%s/%x", path, s.Lease())
	out := &contender{client: c, session: s, key: func() string { return k },
		rejoin: make(chan struct{})}
	if election {
		e := concurrency.NewElection(s, path)
		out.win = func(ctx context.Context) error { return e.Campaign(ctx, k) }
		out.yield = func() error { return e.Resign(ctx) }
	} else {
		m := concurrency.NewMutex(s, path)
		out.win = func(ctx context.Context) error { return m.Lock(ctx) }
		out.yield = func() error { return m.Unlock(ctx) }
	}
	return out
}

// Wins, says so, and after each turn (rejoin) stands in line again, until ctx ends.
func (c *contender) run(ctx context.Context, i int, won chan<- winner) {
	for {
		if err := c.win(ctx); err != nil {
			if ctx.Err() != nil {
				return
			}
			fatal("campaign or lock: %v", err)
		}
		won <- winner{i, time.Now()}
		select {
		case <-c.rejoin:
		case <-ctx.Done():
			return
		}
	}
}

// Polls until the contender's key is in etcd: it is in line.
func (c *contender) awaitQueued(deadline time.Duration) {
	until := time.Now().Add(deadline)
	for time.Now().Before(until) {
		r, err := c.client.Get(ctx, c.key(), clientv3.WithCountOnly())
		must(err, "get")
		if r.Count > 0 {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	fatal("%s: a contender not in line after %v", *scenario, deadline)
}

func awaitWinner(won <-chan winner) winner {
	select {
	case w := <-won:
		return w
	case <-time.After(10 * time.Second):
		fatal("%s: no hand-off within 10 s", *scenario)
	}
	return winner{}
}

// What the hand-offs measured, as bench/scale_bench.cpp's Handoffs.
type handoffStats struct {
	lat, cpu, requests []float64
	byMethod           map[string][]float64
	settled            bool
}

func (h *handoffStats) record(ms, cpu float64, before, after map[string]float64) {
	h.lat = append(h.lat, ms)
	h.cpu = append(h.cpu, cpu)
	total := 0.0
	for k, v := range after {
		if k == "LeaseKeepAlive" {
			continue
		}
		h.byMethod[k] = append(h.byMethod[k], v-before[k])
		total += v - before[k]
	}
	h.requests = append(h.requests, total)
}

func (h *handoffStats) fields() map[string]interface{} {
	methods, methodsMax := map[string]float64{}, map[string]float64{}
	for k, v := range h.byMethod {
		if percentile(v, 1) > 0 {
			methods[k] = percentile(v, 0.5)
			methodsMax[k] = percentile(v, 1)
		}
	}
	return map[string]interface{}{"n": len(h.lat), "p50_ms": percentile(h.lat, 0.5),
		"p99_ms": percentile(h.lat, 0.99), "cpu_per_handoff_ms": percentile(h.cpu, 0.5),
		"requests_per_handoff":     percentile(h.requests, 0.5),
		"requests_per_handoff_max": percentile(h.requests, 1), "requests_by_method": methods,
		"requests_by_method_max": methodsMax, "settled": h.settled}
}

func benchElection() { benchHandoffs(true) }
func benchLock()     { benchHandoffs(false) }

// A leader (holder) and x contenders behind it on 10 clients; per hand-off the leader yields
// and the next wins, then the old leader stands in line again at the back.
func benchHandoffs(election bool) {
	path := scalePath(map[bool]string{true: "election", false: "lock"}[election])
	cs := make([]*clientv3.Client, clients)
	for i := range cs {
		cs[i] = newClient()
	}
	all := make([]*contender, *x+1)
	for i := range all {
		all[i] = newContender(cs[i%clients], path, election)
	}
	runCtx, stop := context.WithCancel(ctx)
	won := make(chan winner, len(all))
	startup := time.Now()
	for first := 0; first < len(all); first += startBatch {
		last := first + startBatch
		if last > len(all) {
			last = len(all)
		}
		for i := first; i < last; i++ {
			go all[i].run(runCtx, i, won)
		}
		for i := first; i < last; i++ {
			all[i].awaitQueued(60 * time.Second)
		}
	}
	leader := awaitWinner(won).index
	startupMs := msSince(startup)
	h := &handoffStats{byMethod: map[string][]float64{}, settled: true}
	for i := 0; i < *handoffs; i++ {
		before := quietCounters(&h.settled)
		cpu0 := cpuMs()
		t0 := time.Now()
		must(all[leader].yield(), "resign or unlock")
		w := awaitWinner(won)
		time.Sleep(50 * time.Millisecond) // the others' reactions to the hand-off
		cpu := cpuMs() - cpu0
		h.record(float64(w.at.Sub(t0).Nanoseconds())/1e6, cpu, before, quietCounters(&h.settled))
		all[leader].rejoin <- struct{}{}
		all[leader].awaitQueued(10 * time.Second)
		leader = w.index
	}
	line := h.fields()
	line["threads"] = threads()
	line["candidates"] = len(all)
	line["clients"] = clients
	line["startup_ms"] = startupMs
	emit(line)
	stop()
	for _, c := range all {
		c.session.Close() // revokes its lease: nothing of this run stays in etcd
	}
	for _, c := range cs {
		c.Close()
	}
}
