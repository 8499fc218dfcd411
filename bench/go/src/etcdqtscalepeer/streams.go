// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"context"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"go.etcd.io/etcd/clientv3"
)

const inFlight = 256 // grants, revokes: outstanding at once, as ours

// Calls f(i) for i < n, at most inFlight at once.
func windowed(n int, f func(i int)) {
	slots := make(chan struct{}, inFlight)
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		slots <- struct{}{}
		wg.Add(1)
		go func(i int) {
			defer func() { <-slots; wg.Done() }()
			f(i)
		}(i)
	}
	wg.Wait()
}

// The Go heap and the goroutine stacks in use (a Go program's way to serve a lease or a watch
// is a goroutine reading its channel).
func memInUse() int64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc + m.StackInuse)
}

// x leases kept alive by one client (clientv3's lessor: one LeaseKeepAlive stream, each lease
// renewed at TTL/3) for -seconds: this process's CPU over the window, what they hold, and how
// many expired meanwhile (0). A warm-up lease opens the stream before the baseline.
func benchLeases() {
	const ttl = 10
	c := newClient()
	keepCtx, stopKeeping := context.WithCancel(ctx)
	var stopping int32
	var expired int64
	keep := func(id clientv3.LeaseID) {
		ch, err := c.KeepAlive(keepCtx, id)
		must(err, "keep-alive")
		go func() {
			for range ch {
			}
			if atomic.LoadInt32(&stopping) == 0 {
				atomic.AddInt64(&expired, 1) // the channel closes when the lease is gone
			}
		}()
	}
	grant := func() clientv3.LeaseID {
		g, err := c.Grant(ctx, ttl)
		must(err, "grant")
		return g.ID
	}
	warm := grant()
	keep(warm)
	heap0, rss0 := memInUse(), rssBytes()
	ids := make([]clientv3.LeaseID, *x)
	windowed(*x, func(i int) { ids[i] = grant() })
	for _, id := range ids {
		keep(id)
	}
	heap1, rss1 := memInUse(), rssBytes()
	cpu0, t0 := cpuMs(), time.Now()
	time.Sleep(time.Duration(*seconds) * time.Second)
	window := time.Since(t0)
	cpuPct := 100 * (cpuMs() - cpu0) / (float64(window.Nanoseconds()) / 1e6)
	nThreads := threads()
	atomic.StoreInt32(&stopping, 1)
	stopKeeping()
	windowed(*x, func(i int) { _, _ = c.Revoke(ctx, ids[i]) })
	_, _ = c.Revoke(ctx, warm)
	left := 0
	listed, err := c.Leases(ctx)
	must(err, "leases")
	mine := map[clientv3.LeaseID]bool{warm: true}
	for _, id := range ids {
		mine[id] = true
	}
	for _, l := range listed.Leases {
		if mine[l.ID] {
			left++
		}
	}
	emit(map[string]interface{}{"ttl_s": ttl, "window_s": window.Seconds(),
		"client_cpu_pct": cpuPct, "rss_mb": float64(rss1) / 1e6,
		"heap_per_lease_b": float64(heap1-heap0) / float64(*x),
		"rss_per_lease_b":  float64(rss1-rss0) / float64(*x), "expired": atomic.LoadInt64(&expired),
		"leases_left": left, "threads": nThreads})
	c.Close()
	if left != 0 {
		fatal("scale_leases: %d leases left in etcd after revoking", left)
	}
}

// x watches of one client (one Watch stream: one context), a key each, each read by its own
// goroutine; then 200 puts from a second client to one of the keys (they take turns) -> the
// event read. A warm-up watch opens the stream first.
func benchWatches() {
	const samples = 200
	watcher, writer := newClient(), newClient()
	prefix := scalePath("watch") + "/"
	watchCtx, stopWatching := context.WithCancel(ctx)
	created := make(chan struct{}, *x+1)
	seen := make(chan time.Time, samples)
	watch := func(key string) {
		ch := watcher.Watch(watchCtx, key, clientv3.WithCreatedNotify())
		go func() {
			for r := range ch {
				if r.Created {
					created <- struct{}{}
				} else if len(r.Events) > 0 {
					seen <- time.Now()
				}
			}
		}()
	}
	awaitCreated := func(n int) {
		for i := 0; i < n; i++ {
			select {
			case <-created:
			case <-time.After(120 * time.Second):
				fatal("scale_watches: %d of %d watches created after 120 s", i, n)
			}
		}
	}
	watch(prefix + "warm-0")
	awaitCreated(1)
	heap0, rss0 := memInUse(), rssBytes()
	setup := time.Now()
	for i := 0; i < *x; i++ {
		watch(prefix + strconv.Itoa(i))
	}
	awaitCreated(*x)
	setupMs := msSince(setup)
	heap1, rss1 := memInUse(), rssBytes()
	lat := make([]float64, 0, samples)
	for s := 0; s < samples; s++ {
		sent := time.Now()
		_, err := writer.Put(ctx, prefix+strconv.Itoa((s*7919)%*x), strconv.Itoa(s))
		must(err, "put")
		select {
		case at := <-seen:
			lat = append(lat, float64(at.Sub(sent).Nanoseconds())/1e6)
		case <-time.After(10 * time.Second):
			fatal("scale_watches: put %d not seen within 10 s", s)
		}
	}
	emit(map[string]interface{}{"n": samples, "p50_ms": percentile(lat, 0.5),
		"p99_ms": percentile(lat, 0.99), "setup_ms": setupMs, "rss_mb": float64(rss1) / 1e6,
		"heap_per_watch_b": float64(heap1-heap0) / float64(*x),
		"rss_per_watch_b":  float64(rss1-rss0) / float64(*x), "threads": threads()})
	stopWatching()
	_, _ = writer.Delete(ctx, prefix, clientv3.WithPrefix())
	watcher.Close()
	writer.Close()
}
