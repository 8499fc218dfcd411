#!/usr/bin/python3
# SPDX-FileCopyrightText: 2026 The EtcdQt authors
# SPDX-License-Identifier: Apache-2.0
"""A report of one bench/run for people to look at (issue 21, item 5).

usage: /usr/bin/python3 bench/report.py DIR
Reads DIR/raw.jsonl (every run's line) and DIR/summary.jsonl (summarize.py's medians) and
writes DIR/report.md (per scenario: each implementation's medians, then EtcdQt's paired ratios
to each peer) and DIR/ratios.png (per scenario with a raw gRPC floor: the p50 of EtcdQt and of
Go's recipes as multiples of that floor, medians of the runs' ratios). Debian's
python3-matplotlib draws the chart (scripts/setup-deps --bench-report), hence /usr/bin/python3.
"""
import json
import os
import statistics
import sys
from collections import defaultdict

FLOOR = "cpp-grpc-raw"
GO = "go-concurrency"
# Our scenarios measured against another scenario's floor (as summarize.py's PEERS_OF).
FLOOR_OF = {"lock_uncontended_worker": "lock_uncontended", "cache_event_latency": "watch_latency"}
COLUMNS = (("p50_ms", "p50 ms"), ("p99_ms", "p99 ms"), ("ops_per_s", "ops/s"),
           ("client_cpu_pct", "client CPU %"))


def read_lines(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def fmt(value):
    if value is None:
        return "–"
    if isinstance(value, float):
        return f"{value:.3f}" if abs(value) < 10 else f"{value:,.0f}"
    return str(value)


def floor_ratios(raw):
    """{scenario: {impl: median over runs of p50 / the floor's p50 in the same run}}."""
    p50 = defaultdict(dict)  # (scenario, impl) -> {run: p50}
    for r in raw:
        if r.get("p50_ms"):
            p50[(r["scenario"], r["impl"])][r.get("run")] = r["p50_ms"]
    out = defaultdict(dict)
    for (scenario, impl), runs in p50.items():
        floor = p50.get((FLOOR_OF.get(scenario, scenario), FLOOR))
        if impl == FLOOR or not floor:
            continue
        ratios = [v / floor[k] for k, v in runs.items() if floor.get(k)]
        if ratios:
            out[scenario][impl] = statistics.median(ratios)
    return out


def markdown(summary, ratios):
    by_scenario = defaultdict(list)
    for s in summary:
        by_scenario[s["scenario"]].append(s)
    runs = max((s.get("runs", 0) for s in summary), default=0)
    lines = ["# EtcdQt benchmark report", "",
             f"Medians of {runs} runs of `bench/run` (one etcd, every implementation in the "
             "same run). Ratios are medians of the per-run ratios: below 1, EtcdQt needed "
             "less (for ops/s: above 1, EtcdQt did more).", ""]
    if ratios:
        lines += ["![p50 as a multiple of the raw gRPC floor](ratios.png)", "",
                  "| scenario | EtcdQt / floor | Go / floor |", "|---|---|---|"]
        for scenario in sorted(ratios):
            r = ratios[scenario]
            lines.append(f"| {scenario} | {fmt(r.get('etcdqt'))} | {fmt(r.get(GO))} |")
        lines.append("")
    for scenario in sorted(by_scenario):
        rows = sorted(by_scenario[scenario], key=lambda s: (s["impl"] != "etcdqt", s["impl"]))
        shown = [(k, title) for k, title in COLUMNS if any(k in s for s in rows)]
        lines += [f"## {scenario}", "",
                  "| impl | runs | " + " | ".join(t for _, t in shown) + " |",
                  "|---|---|" + "---|" * len(shown)]
        for s in rows:
            cells = " | ".join(fmt(s.get(k)) for k, _ in shown)
            lines.append(f"| {s['impl']} | {s.get('runs')} | {cells} |")
        ours = next((s for s in rows if s["impl"] == "etcdqt"), {})
        paired = sorted(k for k in ours if k.startswith("paired_ratio_"))
        if paired:
            lines += ["", "EtcdQt, paired: " + ", ".join(
                f"{k[len('paired_ratio_'):]} {fmt(ours[k])}" for k in paired)]
        lines.append("")
    return "\n".join(lines)


def chart(ratios, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FormatStrFormatter

    scenarios = sorted(ratios)
    ours = [ratios[s].get("etcdqt", 0) for s in scenarios]
    go = [ratios[s].get(GO, 0) for s in scenarios]
    y = range(len(scenarios))
    fig, ax = plt.subplots(figsize=(8, 0.5 * len(scenarios) + 1.5))
    ax.barh([i + 0.2 for i in y], ours, height=0.4, label="EtcdQt", color="#2a6fdb")
    ax.barh([i - 0.2 for i in y], go, height=0.4, label="Go (etcd clientv3 recipes)",
            color="#9aa5b1")
    ax.axvline(1, color="black", linewidth=0.8)
    ax.set_yticks(list(y))
    ax.set_yticklabels(scenarios)
    ax.set_xscale("log")  # Go's queued hand-off is hundreds of floors, ours a few
    for axis in (ax.xaxis.set_major_formatter, ax.xaxis.set_minor_formatter):
        axis(FormatStrFormatter("%g"))
    ax.set_xlabel("p50 latency as a multiple of the raw gRPC floor (1 = the floor; log scale)")
    ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(path, dpi=100)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    raw = read_lines(os.path.join(out, "raw.jsonl"))
    summary = read_lines(os.path.join(out, "summary.jsonl"))
    ratios = floor_ratios(raw)
    with open(os.path.join(out, "report.md"), "w") as f:
        f.write(markdown(summary, ratios) + "\n")
    if ratios:
        chart(ratios, os.path.join(out, "ratios.png"))
    print(f"report: {os.path.join(out, 'report.md')}", file=sys.stderr)


if __name__ == "__main__":
    main()
