// SPDX-FileCopyrightText: 2026 The EtcdQt authors
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"bufio"
	"io/ioutil"
	"net/http"
	"os"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// This process's CPU time (user + system) in milliseconds.
func cpuMs() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		fatal("getrusage: %v", err)
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e6
}

// A field of /proc/self/status ("Threads", "VmRSS" in kB).
func status(field string) int64 {
	f, err := os.Open("/proc/self/status")
	must(err, "/proc/self/status")
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		if strings.HasPrefix(s.Text(), field+":") {
			v, _ := strconv.ParseInt(strings.Fields(s.Text())[1], 10, 64)
			return v
		}
	}
	return 0
}

func threads() int64  { return status("Threads") }
func rssBytes() int64 { return status("VmRSS") * 1024 }

var methodRe = regexp.MustCompile(`grpc_method="([^"]+)"`)

// etcd's gRPC messages received per method (its /metrics), as etcdqt-bench's etcdCounters.
func etcdCounters() map[string]float64 {
	resp, err := http.Get("http://" + *endpoint + "/metrics")
	must(err, "GET /metrics")
	defer resp.Body.Close()
	body, err := ioutil.ReadAll(resp.Body)
	must(err, "GET /metrics")
	out := map[string]float64{}
	for _, line := range strings.Split(string(body), "\n") {
		if !strings.HasPrefix(line, "grpc_server_msg_received_total{") {
			continue
		}
		space := strings.LastIndexByte(line, ' ')
		m := methodRe.FindStringSubmatch(line)
		if space < 0 || m == nil {
			continue
		}
		v, _ := strconv.ParseFloat(line[space+1:], 64)
		out[m[1]] += v
	}
	return out
}

// Keep-alives renew leases on their own clock, whatever the hand-off does: left out.
func sameBesidesKeepAlives(a, b map[string]float64) bool {
	for k, v := range b {
		if k != "LeaseKeepAlive" && a[k] != v {
			return false
		}
	}
	return true
}

// The counters once two reads 300 ms apart agree (at most 30 tries); settled says they did.
func quietCounters(settled *bool) map[string]float64 {
	last := etcdCounters()
	for tries := 0; tries < 30; tries++ {
		time.Sleep(300 * time.Millisecond)
		next := etcdCounters()
		if sameBesidesKeepAlives(last, next) {
			return next
		}
		last = next
	}
	*settled = false
	return last
}
