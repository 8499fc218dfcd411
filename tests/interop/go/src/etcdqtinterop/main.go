// etcdqt-interop-go: etcd's own Go recipes (clientv3/concurrency Mutex and
// Election, from Debian's golang-etcd-server-dev) as child processes for the
// interop tests. Every state change is one JSON object per line on stdout.
//
//	etcdqt-interop-go mutex   -endpoint H:P -name N [-ttl 2] [-hold-ms -1]
//	etcdqt-interop-go elect   -endpoint H:P -prefix P -value V [-ttl 2] [-hold-ms -1]
//	etcdqt-interop-go observe -endpoint H:P -prefix P
//
// -hold-ms -1 holds until SIGTERM/SIGINT. Exit codes: 0 done (lock released,
// resigned or cancelled), 1 error (one line on stderr), 3 session lease lost.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/ioutil"
	"os"
	"os/signal"
	"syscall"
	"time"

	"go.etcd.io/etcd/clientv3"
	"go.etcd.io/etcd/clientv3/concurrency"
	"go.uber.org/zap"
	"google.golang.org/grpc"
)

type event struct {
	Event    string `json:"event"`
	Key      string `json:"key,omitempty"`
	Revision int64  `json:"revision,omitempty"`
}

type leader struct {
	Leader *string `json:"leader"` // null: no leader
	Key    string  `json:"key,omitempty"`
}

// emit writes one line with a single Write: os.Stdout is unbuffered, so the
// reader sees it at once even through a pipe.
func emit(v interface{}) {
	b, err := json.Marshal(v)
	if err != nil {
		fail(err)
	}
	os.Stdout.Write(append(b, '\n'))
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "etcdqt-interop-go:", err)
	os.Exit(1)
}

func check(err error) {
	if err != nil {
		fail(err)
	}
}

// opCtx bounds the release RPCs; they must not use the signal context, which
// is already cancelled when they run.
func opCtx() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), 5*time.Second)
}

func connect(endpoint string) *clientv3.Client {
	// Errors only: the client's retry warnings would clutter stderr.
	logCfg := zap.NewProductionConfig()
	logCfg.Level = zap.NewAtomicLevelAt(zap.ErrorLevel)
	// WithBlock: without it the dial is lazy, DialTimeout never applies and
	// an unreachable endpoint hangs the first RPC (NewSession's Grant).
	c, err := clientv3.New(clientv3.Config{Endpoints: []string{endpoint},
		DialTimeout: 5 * time.Second, LogConfig: &logCfg,
		DialOptions: []grpc.DialOption{grpc.WithBlock()}})
	check(err)
	return c
}

// hold waits hold-ms (forever when negative), a signal or the end of the
// session; it reports false when the session's lease was lost.
func hold(ctx context.Context, s *concurrency.Session, ms int) bool {
	var timer <-chan time.Time // nil: never fires
	if ms >= 0 {
		timer = time.After(time.Duration(ms) * time.Millisecond)
	}
	select {
	case <-timer:
	case <-ctx.Done():
	case <-s.Done():
		return false
	}
	return true
}

// untilLost returns a child of ctx that is also cancelled when the session
// ends, so a blocked Lock or Campaign does not outlive its lease.
func untilLost(ctx context.Context, s *concurrency.Session) (context.Context, context.CancelFunc) {
	c, cancel := context.WithCancel(ctx)
	go func() {
		select {
		case <-s.Done():
			cancel()
		case <-c.Done():
		}
	}()
	return c, cancel
}

// waitFailed handles an error from a blocking Lock or Campaign.
func waitFailed(sig context.Context, s *concurrency.Session, err error) {
	select {
	case <-s.Done():
		emit(event{Event: "lost"})
		os.Exit(3)
	default:
	}
	if sig.Err() != nil {
		s.Close() // the recipe already removed its waiting key
		emit(event{Event: "cancelled"})
		os.Exit(0)
	}
	fail(err)
}

func runMutex(sig context.Context, c *clientv3.Client, name string, ttl, holdMs int) {
	s, err := concurrency.NewSession(c, concurrency.WithTTL(ttl))
	check(err)
	m := concurrency.NewMutex(s, name)
	lctx, cancel := untilLost(sig, s)
	err = m.Lock(lctx)
	cancel()
	if err != nil {
		waitFailed(sig, s, err)
	}
	// m.Header().Revision is the store revision when the wait ended, not the
	// creation revision of our key that orders the waiters; read the key.
	gctx, gcancel := opCtx()
	r, err := c.Get(gctx, m.Key())
	gcancel()
	check(err)
	if len(r.Kvs) == 0 {
		emit(event{Event: "lost"})
		os.Exit(3)
	}
	emit(event{Event: "locked", Key: m.Key(), Revision: r.Kvs[0].CreateRevision})
	if !hold(sig, s, holdMs) {
		emit(event{Event: "lost"})
		os.Exit(3)
	}
	uctx, ucancel := opCtx()
	check(m.Unlock(uctx))
	ucancel()
	emit(event{Event: "unlocked"})
	check(s.Close())
}

func runElect(sig context.Context, c *clientv3.Client, prefix, value string, ttl, holdMs int) {
	s, err := concurrency.NewSession(c, concurrency.WithTTL(ttl))
	check(err)
	e := concurrency.NewElection(s, prefix)
	emit(event{Event: "campaigning"})
	cctx, cancel := untilLost(sig, s)
	err = e.Campaign(cctx, value)
	cancel()
	if err != nil {
		waitFailed(sig, s, err)
	}
	emit(event{Event: "elected", Key: e.Key(), Revision: e.Rev()})
	if !hold(sig, s, holdMs) {
		emit(event{Event: "lost"})
		os.Exit(3)
	}
	rctx, rcancel := opCtx()
	check(e.Resign(rctx))
	rcancel()
	emit(event{Event: "resigned"})
	check(s.Close())
}

func runObserve(sig context.Context, c *clientv3.Client, prefix string) {
	// Leader and Observe only use the session's client; the lease is unused.
	s, err := concurrency.NewSession(c, concurrency.WithTTL(5))
	check(err)
	defer s.Close()
	e := concurrency.NewElection(s, prefix)
	var lastKey string
	var lastMod int64
	show := func(r *clientv3.GetResponse) {
		kv := r.Kvs[0]
		v := string(kv.Value)
		lastKey, lastMod = string(kv.Key), kv.ModRevision
		emit(leader{Leader: &v, Key: lastKey})
	}
	r, err := e.Leader(sig)
	switch {
	case err == concurrency.ErrElectionNoLeader:
		emit(leader{})
	case err != nil:
		fail(err)
	default:
		show(r)
	}
	for r := range e.Observe(sig) {
		// Observe starts by re-reading the current leader: skip the line
		// already printed above.
		if kv := r.Kvs[0]; string(kv.Key) == lastKey && kv.ModRevision == lastMod {
			continue
		}
		show(&r)
	}
	if sig.Err() == nil {
		fail(errors.New("observe: watch ended"))
	}
}

func main() {
	if len(os.Args) < 2 {
		fail(errors.New("usage: etcdqt-interop-go mutex|elect|observe -endpoint host:port ..."))
	}
	fs := flag.NewFlagSet(os.Args[1], flag.ContinueOnError)
	fs.SetOutput(ioutil.Discard) // our own one-line error instead of the usage text
	endpoint := fs.String("endpoint", "", "etcd endpoint host:port (required)")
	var name, prefix, value *string
	var ttl, holdMs *int
	switch os.Args[1] {
	case "mutex":
		name = fs.String("name", "", "mutex prefix (required)")
	case "elect":
		prefix = fs.String("prefix", "", "election prefix (required)")
		value = fs.String("value", "", "campaign value")
	case "observe":
		prefix = fs.String("prefix", "", "election prefix (required)")
	default:
		fail(fmt.Errorf("unknown subcommand %q", os.Args[1]))
	}
	if os.Args[1] != "observe" {
		ttl = fs.Int("ttl", 2, "session TTL, seconds")
		holdMs = fs.Int("hold-ms", -1, "hold time, ms; -1: until SIGTERM/SIGINT")
	}
	check(fs.Parse(os.Args[2:]))
	switch {
	case *endpoint == "":
		fail(errors.New("-endpoint is required"))
	case name != nil && *name == "":
		fail(errors.New("-name is required"))
	case prefix != nil && *prefix == "":
		fail(errors.New("-prefix is required"))
	}

	// Registered before connecting, so an early signal is not fatal: the
	// context is cancelled instead and the release path runs.
	sig, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	c := connect(*endpoint)
	defer c.Close()
	switch os.Args[1] {
	case "mutex":
		runMutex(sig, c, *name, *ttl, *holdMs)
	case "elect":
		runElect(sig, c, *prefix, *value, *ttl, *holdMs)
	case "observe":
		runObserve(sig, c, *prefix)
	}
}
