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
The scale curves (bench/run --scale, summarize.py's lines per x) get a table each in report.md
and a chart each, DIR/scale-<scenario>.png: each measure against x, both axes log, EtcdQt's
line and, with --peers, Go's recipes' beside it (bench/go/src/etcdqtscalepeer).
"""
import json
import os
import statistics
import sys
from collections import defaultdict

FLOOR = "cpp-grpc-raw"
GO = "go-concurrency"
# The etcd-recipes selector's hand-off done in raw gRPC (bench/handoff_floor.cpp): the least
# that layout allows, drawn as a mark on our bar.
LAYOUT = "cpp-grpc-raw-recipes"
# Our scenarios measured against another scenario's floor (as summarize.py's PEERS_OF).
FLOOR_OF = {"lock_uncontended_worker": "lock_uncontended", "cache_event_latency": "watch_latency"}
COLUMNS = (("p50_ms", "p50 ms"), ("p99_ms", "p99 ms"), ("ops_per_s", "ops/s"),
           ("client_cpu_pct", "client CPU %"))
# The measures of scenarios that are not (only) a latency, after COLUMNS.
STALLS = (("stall_max_ms", "max stall ms"), ("stalls_over_100ms", "stalls > 100 ms"),
          ("stall_bound_ms", "stall budget ms"), ("load_stall_max_ms", "max stall loading ms"))
SCENARIO_COLUMNS = {
    "inspector_ui_stall": STALLS, "inspector_ui_stall_overview": STALLS,
    "inspector_ui_stall_100k": STALLS,
    "put_outstanding_1000": (("wall_ms", "wall ms"), ("threads_peak", "threads (peak)"),
                             ("failed", "failed")),
    "cache_memory": (("heap_per_child_b", "heap per child B"),
                     ("rss_per_child_b", "RSS per child B"), ("ratio_to_target", "÷ target")),
    "discovery_lookup": (("round_robin_ns", "round-robin ns"), ("random_ns", "random ns"),
                         ("sticky_ns", "sticky ns")),
    "metrics_overhead": (("put_ratio", "put, with / without"),
                         ("lock_ratio", "lock, with / without")),
}
# Per scale curve, what is drawn against x (and tabled, with TABLED_TOO).
THREADS = (("threads", "threads"), ("engine_threads", "EtcdQt engine threads"))
HANDOFF = (("p50_ms", "hand-off p50 ms"), ("requests_per_handoff", "requests per hand-off"),
           ("requests_per_handoff_max", "requests, the dearest hand-off"),
           ("cpu_per_handoff_ms", "client CPU per hand-off ms")) + THREADS
SCALE = {
    "scale_leases": (("client_cpu_pct", "client CPU %"), ("heap_per_lease_b", "heap per lease B"),
                     ("rss_mb", "RSS MB")) + THREADS,
    "scale_watches": (("p50_ms", "event p50 ms"), ("p99_ms", "event p99 ms"),
                      ("heap_per_watch_b", "heap per watch B"), ("rss_mb", "RSS MB")) + THREADS,
    "scale_election_candidates": HANDOFF,
    "scale_lock_waiters": HANDOFF,
    "scale_cache_children": (("p50_ms", "load p50 ms"), ("load_us_per_child", "load µs per child"),
                             ("cpu_us_per_child", "client CPU µs per child"),
                             ("heap_per_child_b", "heap per child B")) + THREADS,
}
TABLED_TOO = (("p99_ms", "p99 ms"), ("setup_ms", "setup ms"), ("expired", "expired"),
              ("leases_left", "leases left"), ("startup_ms", "startup ms"),
              ("rss_per_child_b", "RSS per child B"))


def is_scale(s):
    return s["scenario"] in SCALE and "x" in s


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


def scale_curves(summary):
    """{scale scenario: its lines, smallest x first, EtcdQt's before Go's at each x}."""
    curves = defaultdict(list)
    for s in summary:
        if is_scale(s):
            curves[s["scenario"]].append(s)
    return {k: sorted(v, key=lambda s: (s["x"], s["impl"] != "etcdqt"))
            for k, v in sorted(curves.items())}


def scale_markdown(curves):
    lines = ["## Scale curves", "",
             "Medians per point (x). Threads should not grow with x. With `--peers`, etcd's Go "
             "recipes (`go-concurrency`: clientv3's lessor and watcher, concurrency.Election "
             "and Mutex) ran each point right beside ours, measured the same way "
             "(bench/go/src/etcdqtscalepeer); the cache curve has no Go counterpart.", ""]
    for scenario, points in curves.items():
        shown = []  # what is drawn, then the rest; each key once
        for k, t in SCALE[scenario] + TABLED_TOO:
            if k not in {s for s, _ in shown} and any(k in p for p in points):
                shown.append((k, t))
        lines += [f"### {scenario}", "", f"![{scenario} against x](scale-{scenario}.png)", "",
                  "| x | impl | runs | " + " | ".join(t for _, t in shown) + " |",
                  "|---|---|---|" + "---|" * len(shown)]
        for p in points:
            cells = " | ".join(fmt(p.get(k)) for k, _ in shown)
            lines.append(f"| {p['x']:,} | {p['impl']} | {p.get('runs')} | {cells} |")
        lines.append("")
    return lines


def markdown(summary, ratios):
    by_scenario = defaultdict(list)
    for s in summary:
        if not is_scale(s):
            by_scenario[s["scenario"]].append(s)
    runs = max((s.get("runs", 0) for s in summary), default=0)
    what = "One run" if runs == 1 else f"Medians of {runs} runs"
    lines = ["# EtcdQt benchmark report", "",
             f"{what} of `bench/run` (one etcd, every implementation in the "
             "same run). Ratios are medians of the per-run ratios: below 1, EtcdQt needed "
             "less (for ops/s: above 1, EtcdQt did more).", ""]
    if ratios:
        lines += ["![p50 as a multiple of the raw gRPC floor](ratios.png)", "",
                  "| scenario | EtcdQt / floor | Go / floor | layout's floor / floor |",
                  "|---|---|---|---|"]
        for scenario in sorted(ratios):
            r = ratios[scenario]
            lines.append(f"| {scenario} | {fmt(r.get('etcdqt'))} | {fmt(r.get(GO))} | "
                         f"{fmt(r.get(LAYOUT))} |")
        lines += ["", "The layout's floor: the same hand-off on etcd-recipes' layout in raw gRPC "
                  "(bench/handoff_floor.cpp), the least any client of that layout can do; "
                  "the raw floor's own hand-off only watches a delete."]
        lines.append("")
    for scenario in sorted(by_scenario):
        rows = sorted(by_scenario[scenario], key=lambda s: (s["impl"] != "etcdqt", s["impl"]))
        shown = [(k, title) for k, title in COLUMNS + SCENARIO_COLUMNS.get(scenario, ())
                 if any(k in s for s in rows)]
        lines += [f"## {scenario}", "",
                  "| " + " | ".join(["impl", "runs"] + [t for _, t in shown]) + " |",
                  "|---|---|" + "---|" * len(shown)]
        for s in rows:
            cells = [s["impl"], str(s.get("runs"))] + [fmt(s.get(k)) for k, _ in shown]
            lines.append("| " + " | ".join(cells) + " |")
        ours = next((s for s in rows if s["impl"] == "etcdqt"), {})
        paired = sorted(k for k in ours if k.startswith("paired_ratio_"))
        if paired:
            lines += ["", "EtcdQt, paired: " + ", ".join(
                f"{k[len('paired_ratio_'):]} {fmt(ours[k])}" for k in paired)]
        lines.append("")
    curves = scale_curves(summary)
    if curves:
        lines += scale_markdown(curves)
    return "\n".join(lines)


def chart(ratios, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FormatStrFormatter, LogLocator, NullFormatter

    scenarios = sorted(ratios)
    ours = [ratios[s].get("etcdqt", 0) for s in scenarios]
    go = [ratios[s].get(GO, 0) for s in scenarios]
    y = range(len(scenarios))
    fig, ax = plt.subplots(figsize=(8, 0.5 * len(scenarios) + 1.5))
    ax.barh([i + 0.2 for i in y], ours, height=0.4, label="EtcdQt", color="#2a6fdb")
    ax.barh([i - 0.2 for i in y], go, height=0.4, label="Go (etcd clientv3 recipes)",
            color="#9aa5b1")
    layout = [(i, ratios[s][LAYOUT]) for i, s in enumerate(scenarios) if ratios[s].get(LAYOUT)]
    if layout:
        ax.scatter([v for _, v in layout], [i + 0.2 for i, _ in layout], marker="|", s=300,
                   color="black", zorder=3,
                   label="the same hand-off in raw gRPC on etcd-recipes' layout")
    ax.axvline(1, color="black", linewidth=0.8)
    ax.set_yticks(list(y))
    ax.set_yticklabels(scenarios)
    ax.set_xscale("log")  # Go's queued hand-off is hundreds of floors, ours a few
    ax.xaxis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
    ax.xaxis.set_major_formatter(FormatStrFormatter("%g"))
    ax.xaxis.set_minor_formatter(NullFormatter())  # 0.8 0.9 1 … 70 80 90 ran together
    for i, (a, b) in enumerate(zip(ours, go)):  # the figures, not only the bars
        for value, dy in ((a, 0.2), (b, -0.2)):
            if value:
                ax.annotate(f"{value:.2f}" if value < 10 else f"{value:.0f}", (value, i + dy),
                            xytext=(3, 0), textcoords="offset points", va="center", fontsize=8)
    ax.set_xlabel("p50 latency as a multiple of the raw gRPC floor (1 = the floor; log scale)")
    ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(path, dpi=100)


def scale_chart(scenario, points, path):
    """One panel per measure against x, both axes log (a flat line is a constant)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FormatStrFormatter, LogLocator, NullFormatter

    measures = [(k, t) for k, t in SCALE[scenario] if any(k in p for p in points)]
    fig, axes = plt.subplots(1, len(measures), figsize=(3.2 * len(measures), 3.2), squeeze=False)
    impls = [i for i in ("etcdqt", GO) if any(p["impl"] == i for p in points)]
    for ax, (key, title) in zip(axes[0], measures):
        ys = []
        for impl in impls:
            mine = [p for p in points if p["impl"] == impl and p.get(key) is not None]
            xs, values = [p["x"] for p in mine], [p[key] for p in mine]
            if not mine:
                continue
            ys += values
            ax.plot(xs, values, marker="o", label="Go (etcd 3.4)" if impl == GO else "EtcdQt",
                    color="#9a9a9a" if impl == GO else "#2a6fdb")
            for x, y in zip(xs, values):  # a log axis has few labels: each point says its value
                ax.annotate(f"{y:,.0f}" if y >= 1000 else f"{y:.3g}", (x, y),
                            textcoords="offset points", xytext=(0, 6 if impl != GO else -11),
                            ha="center", fontsize=7)
        if len(impls) > 1:
            ax.legend(fontsize=7)
        ax.set_xscale("log")
        positive = [y for y in ys if y > 0]
        # A zero (no CPU measured at one lease) has no place on a log axis: symlog keeps it.
        if positive and len(positive) == len(ys):
            ax.set_yscale("log")
        elif positive:
            ax.set_yscale("symlog", linthresh=min(positive))
        ax.yaxis.set_major_formatter(FormatStrFormatter("%g"))
        ax.yaxis.set_minor_formatter(FormatStrFormatter(""))
        if positive and max(positive) < 10 * min(positive) and ax.get_yscale() == "log":
            ax.set_ylim(min(positive) / 3, max(positive) * 3)  # flat reads flat, not magnified
        ax.margins(y=0.2)  # room for the top point's label
        ax.set_title(title, fontsize=9)
        ax.set_xlabel("x")
        ax.grid(True, which="major", linewidth=0.3)
    who = "EtcdQt and Go" if len(impls) > 1 else "EtcdQt"
    fig.suptitle(f"{scenario} ({who}; medians per point)", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


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
    for scenario, points in scale_curves(summary).items():
        scale_chart(scenario, points, os.path.join(out, f"scale-{scenario}.png"))
    print(f"report: {os.path.join(out, 'report.md')}", file=sys.stderr)


if __name__ == "__main__":
    main()
