#!/usr/bin/env python3
"""Medians over runs, one JSON line per (scenario, impl), with etcdqt/peer ratios.
The scale curves (scenarios "scale_*", bench/run --scale): one line per (scenario, impl, x),
their medians per point, EtcdQt's and (bench/run --scale --peers) Go's recipes' side by side;
no ratios.

usage: summarize.py raw.jsonl
Each output line: {"summary": true, "scenario", "impl", "runs", "p50_ms", "p99_ms", ...
medians of every numeric field (per key for objects of numbers, e.g. election_requests_100's
"requests_by_method"; true/false fields are true when every run said true); and on etcdqt lines, per peer, the median over runs of
the ratio etcdqt/peer measured in the same run ("paired_ratio_p50_vs_<peer>" for latency,
"paired_ratio_cpu_vs_<peer>" for keepalive_1000 client CPU) -- the figure to judge by: on
a noisy machine both sides of one run share its load -- and the ratio of the medians
("ratio_p50_vs_<peer>", "ratio_cpu_vs_<peer>") for comparison. Below 1 means EtcdQt
needed less. Where both sides report them, also p99 latency ("..._p99_vs_<peer>", below 1
is better) and throughput ("..._ops_vs_<peer>": ops_per_s, ABOVE 1 means EtcdQt did more,
e.g. lock_contended_4's acquisitions/s)."""
import json
import statistics
import sys
from collections import defaultdict

def is_number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def point(r):
    """A scale curve's point (its "x"); None for every other scenario."""
    return r.get("x") if r["scenario"].startswith("scale_") else None


rows = defaultdict(list)  # (scenario, impl) -> lines; scale curves: (scenario, impl, x)
for line in open(sys.argv[1]):
    line = line.strip()
    if line:
        r = json.loads(line)
        x = point(r)
        rows[(r["scenario"], r["impl"]) + (() if x is None else (x,))].append(r)

medians = {}
for key, runs in sorted(rows.items()):
    scenario, impl = key[:2]
    out = {"summary": True, "scenario": scenario, "impl": impl, "runs": len(runs)}
    for field in sorted({k for r in runs for k in r}):
        if field == "run":
            continue
        vals = [r[field] for r in runs if is_number(r.get(field))]
        flags = [r[field] for r in runs if isinstance(r.get(field), bool)]
        objects = [r[field] for r in runs if isinstance(r.get(field), dict)]
        if vals:
            out[field] = round(statistics.median(vals), 4)
        elif flags:
            out[field] = all(flags)
        elif objects:
            keys = sorted({k for o in objects for k in o if is_number(o[k])})
            out[field] = {k: round(statistics.median(o.get(k, 0) for o in objects), 4) for k in keys}
    medians[key] = out

def paired(scenario, peer, field):
    """Median over runs of etcdqt/peer for `field`, pairing runs by their number."""
    ours = {r.get("run"): r.get(field) for r in rows[(scenario, "etcdqt")]}
    theirs = {r.get("run"): r.get(field) for r in rows[(PEERS_OF.get(scenario, scenario), peer)]}
    ratios = [ours[k] / theirs[k] for k in ours
              if k in theirs and ours[k] and theirs[k]]
    return round(statistics.median(ratios), 3) if ratios else None


# Our variants of a scenario the peers ran once, and scenarios judged against another's floor: compared with that one's peer lines.
PEERS_OF = {"lock_uncontended_worker": "lock_uncontended",
            # put -> childUpdated is judged against the raw watch floor (the peers' s5)
            "cache_event_latency": "watch_latency"}
# Scenarios with a peer of their own that are also judged against a floor of another name:
# (that scenario, that floor's impl) -> "ratio_p50_vs_floor" (the paired median).
FLOORS = {"queue_latency": ("watch_latency", "cpp-grpc-raw")}
RATIOS = (("p50_ms", "p50"), ("p99_ms", "p99"), ("ops_per_s", "ops"), ("client_cpu_pct", "cpu"),
          ("cpu_p50_ms", "cpu_ms"))

for key, out in medians.items():
    scenario, impl = key[:2]
    if impl == "etcdqt" and len(key) == 2:
        theirs = PEERS_OF.get(scenario, scenario)
        for (s2, peer, *_) in list(medians):
            if s2 != theirs or peer == impl:
                continue
            for field, name in RATIOS:
                value = paired(scenario, peer, field)
                if value is not None:
                    out["paired_ratio_%s_vs_%s" % (name, peer)] = value
        for (s2, peer, *_), other in medians.items():
            if s2 != theirs or peer == impl:
                continue
            for field, name in RATIOS:
                if other.get(field) and out.get(field):
                    out["ratio_%s_vs_%s" % (name, peer)] = round(out[field] / other[field], 3)
        if scenario in FLOORS:
            floor, floor_impl = FLOORS[scenario]
            theirs_by_run = {r.get("run"): r.get("p50_ms") for r in rows[(floor, floor_impl)]}
            ratios = [r["p50_ms"] / theirs_by_run[r.get("run")] for r in rows[(scenario, impl)]
                      if r.get("p50_ms") and theirs_by_run.get(r.get("run"))]
            if ratios:
                out["paired_ratio_p50_vs_floor_%s" % floor] = round(statistics.median(ratios), 3)
    print(json.dumps(out, sort_keys=True))
