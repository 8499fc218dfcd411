// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0

// etcdqt-queue-peer: etcd's own Go queues (contrib/recipes Queue and PriorityQueue, from
// Debian's golang-etcd-server-dev, etcd 3.4) measured the way etcdqt-bench measures ours:
// items a consumer took within the window, divided by the window. One producer and four
// consumers, each a goroutine with a client of its own, for -seconds; the producer enqueues
// one item after another. Once the window ends the counts are read and the process exits
// without draining (a backlog left in etcd counts as not delivered). One JSON line:
//
//	etcdqt-queue-peer -endpoint 127.0.0.1:2379 -scenario fifo|priority [-seconds 10]
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"sort"
	"strconv"
	"sync"
	"time"

	"go.etcd.io/etcd/clientv3"
	recipe "go.etcd.io/etcd/contrib/recipes"
	"go.uber.org/zap"
)

const consumers = 4

var (
	endpoint = flag.String("endpoint", "127.0.0.1:2379", "etcd endpoint")
	scenario = flag.String("scenario", "fifo", "fifo or priority")
	seconds  = flag.Int("seconds", 10, "the measurement window")
)

func client() *clientv3.Client {
	logs := zap.NewProductionConfig()
	logs.Level = zap.NewAtomicLevelAt(zap.ErrorLevel)
	c, err := clientv3.New(clientv3.Config{Endpoints: []string{*endpoint},
		DialTimeout: 5 * time.Second, LogConfig: &logs})
	if err != nil {
		fmt.Fprintln(os.Stderr, "etcdqt-queue-peer:", err)
		os.Exit(2)
	}
	return c
}

// The queue of one client: put(value, i) and take().
type queue struct {
	put  func(v string, i int) error
	take func() (string, error)
}

func open(c *clientv3.Client, path string) queue {
	if *scenario == "priority" {
		q := recipe.NewPriorityQueue(c, path)
		return queue{func(v string, i int) error { return q.Enqueue(v, uint16(i%10)) }, q.Dequeue}
	}
	q := recipe.NewQueue(c, path)
	return queue{func(v string, _ int) error { return q.Enqueue(v) }, q.Dequeue}
}

// What the producer sent and the consumers took within the window.
type tally struct {
	sync.Mutex
	sentAt  map[string]time.Time
	seen    map[string]int
	latency []float64
	end     time.Time
}

func (t *tally) took(v string) {
	now := time.Now()
	t.Lock()
	defer t.Unlock()
	if now.After(t.end) {
		return
	}
	t.seen[v]++
	if t.seen[v] == 1 {
		t.latency = append(t.latency, float64(now.Sub(t.sentAt[v]).Nanoseconds())/1e6)
	}
}

func percentile(v []float64, p float64) float64 {
	if len(v) == 0 {
		return 0
	}
	sort.Float64s(v)
	i := int(p * float64(len(v)))
	if i >= len(v) {
		i = len(v) - 1
	}
	return v[i]
}

func main() {
	flag.Parse()
	path := fmt.Sprintf("/bench/go-window/%s/%d", *scenario, time.Now().UnixNano())
	window := time.Duration(*seconds) * time.Second
	t := &tally{sentAt: map[string]time.Time{}, seen: map[string]int{}}
	for w := 0; w < consumers; w++ {
		q := open(client(), path)
		go func() {
			for {
				v, err := q.take()
				if err != nil {
					return
				}
				t.took(v)
			}
		}()
	}
	out := open(client(), path)
	t0 := time.Now()
	t.Lock()
	t.end = t0.Add(window)
	t.Unlock()
	sent := 0
	for time.Now().Before(t0.Add(window)) {
		v := strconv.Itoa(sent)
		t.Lock()
		t.sentAt[v] = time.Now()
		t.Unlock()
		if err := out.put(v, sent); err != nil {
			fmt.Fprintln(os.Stderr, "etcdqt-queue-peer: enqueue:", err)
			os.Exit(2)
		}
		sent++
	}
	time.Sleep(time.Until(t0.Add(window)))
	t.Lock()
	taken, dup := len(t.seen), 0
	for _, n := range t.seen {
		if n > 1 {
			dup++
		}
	}
	line := map[string]interface{}{"peer": "go-window", "scenario": *scenario, "n": taken,
		"ops_per_s": float64(taken) / window.Seconds(), "p50_ms": percentile(t.latency, 0.5),
		"p99_ms": percentile(t.latency, 0.99), "enqueued": sent, "duplicates": dup,
		"consumers": consumers}
	t.Unlock()
	b, _ := json.Marshal(line)
	fmt.Println(string(b))
	os.Exit(0) // the consumers wait in Dequeue(): the backlog is not drained
}
