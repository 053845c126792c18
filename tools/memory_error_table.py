#!/usr/bin/env python3
"""Run every case of tests/data/memory_cases.json through the gpuplan CLI and
print the measured error per case and per source (the table in
docs/memory-model.md). The GoogleTest tests/core/memory_validation_test.cpp
applies the same rules and fails when the error distribution degrades.

usage: tools/memory_error_table.py [path/to/gpuplan] [--markdown] [--all] [--strict]

It also prints the error per software stack (workload.stack) and the coverage
of an 80 % interval on the memory estimate calibrated leave-one-source-out:
for each source, the 10th-90th percentile of measured / estimated over every
other source's measured cases (the same rule as tools/time_error_table.py).

--strict compares cases whose statistic is unknown with reserved_bytes instead
of accepting anything between allocated_bytes and total_bytes.
"""
import json
import os
import statistics
import subprocess
import sys

from error_stats import loso_interval, percentile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GIB = 2.0 ** 30
STRICT = "--strict" in sys.argv


def plan(binary, request):
    out = subprocess.run([binary, "plan", "-"], input=json.dumps(request), capture_output=True, text=True)
    return json.loads(out.stdout)


def component(resp, cid):
    for c in resp["memory"]["components"]:
        if c["id"] == cid:
            return c["bytes"]
    return 0


def evaluate(case, resp):
    """Returns (signed relative error or None, right_side or None, estimate_gib)."""
    m = resp["memory"]["per_gpu"]
    alloc, reserved, total = m["allocated_bytes"] / GIB, m["reserved_bytes"] / GIB, m["total_bytes"] / GIB
    kind = case["kind"]
    if kind in ("fit", "capacity"):
        return None, total <= case["vram_gib"], total
    if kind == "oom":
        return None, total > case["vram_gib"], total
    if "component" in case:
        est = component(resp, case["component"]) / GIB
        lo = hi = est
    else:
        metric = case["metric"]
        if metric == "allocated":
            lo = hi = alloc
        elif metric == "reserved":
            lo = hi = reserved
        elif metric == "total":
            lo = hi = total
        elif STRICT:  # --strict: read an unknown statistic as max_memory_reserved
            lo = hi = reserved
        else:  # unknown: any figure between allocated and total is consistent
            lo, hi = alloc, total
    measured = case["measured_gib"]
    rng = case.get("measured_range_gib")
    mlo, mhi = (rng[0], rng[1]) if rng else (measured, measured)
    if hi < mlo:
        err = (hi - mlo) / mlo
    elif lo > mhi:
        err = (lo - mhi) / mhi
    else:
        err = 0.0
    return err, None, (lo + hi) / 2


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    binary = args[0] if args else os.path.join(ROOT, "build", "native", "bin", "gpuplan")
    markdown = "--markdown" in sys.argv
    cases = json.load(open(os.path.join(ROOT, "tests", "data", "memory_cases.json")))["cases"]
    rows, by_source, by_stack = [], {}, {}
    errors, sided = [], []
    ratios = []  # {"source", "ratio": measured / estimated} of the measured cases
    for case in cases:
        if case.get("unmappable"):
            continue
        request = dict(case["request"])
        request.pop("hardware", None)  # the per-GPU estimate does not depend on the card
        resp = plan(binary, request)
        if "error" in resp:
            print("ERROR", case["id"], resp["error"], file=sys.stderr)
            continue
        err, right, est = evaluate(case, resp)
        src = case["source"]
        by_source.setdefault(src, {"errors": [], "sided": []})
        stack = case["request"].get("workload", {}).get("stack", "eager")
        if err is not None:
            errors.append(abs(err))
            by_source[src]["errors"].append(abs(err))
            by_stack.setdefault(stack, []).append(abs(err))
            ratios.append({"source": src, "ratio": 1 / (1 + err)})
        else:
            sided.append(right)
            by_source[src]["sided"].append(right)
        rows.append((case["id"], case["kind"], case["metric"] if "component" not in case else "component",
                     case.get("measured_gib") or case.get("vram_gib"), est, err, right))
    if not markdown or "--all" in sys.argv:
        for r in rows:
            flag = ""
            if r[5] is not None and abs(r[5]) > 0.25:
                flag = "  <-- >25%"
            if r[6] is False:
                flag = "  <-- WRONG SIDE"
            e = "%+6.1f%%" % (100 * r[5]) if r[5] is not None else ("ok" if r[6] else "WRONG")
            print("%-28s %-9s %-9s %8.2f %8.2f %s%s" % (r[0], r[1], r[2], r[3], r[4], e, flag))
    def pct(xs, q):
        xs = sorted(xs)
        return xs[min(len(xs) - 1, int(q * (len(xs) - 1) + 0.5))] if xs else 0
    print()
    if markdown:
        print("| source | measured cases | median abs error | max abs error | fit/oom right side |")
        print("| --- | ---: | ---: | ---: | ---: |")
        for src, d in by_source.items():
            e = d["errors"]
            s = d["sided"]
            print("| %s | %d | %s | %s | %s |" % (
                src, len(e), "%.1f %%" % (100 * statistics.median(e)) if e else "-",
                "%.1f %%" % (100 * max(e)) if e else "-", "%d / %d" % (sum(s), len(s)) if s else "-"))
    print("measured cases: %d, median |error| %.1f %%, p90 %.1f %%; fit/oom/capacity: %d / %d on the right side" % (
        len(errors), 100 * statistics.median(errors), 100 * pct(errors, 0.9), sum(sided), len(sided)))
    print()
    if markdown:
        print("| stack | measured cases | median abs error | p90 abs error |")
        print("| --- | ---: | ---: | ---: |")
    for stack, e in sorted(by_stack.items()):
        line = (stack, len(e), 100 * statistics.median(e), 100 * pct(e, 0.9))
        print(("| %s | %d | %.1f %% | %.1f %% |" if markdown else "stack %-10s %3d cases, median %.1f %%, p90 %.1f %%") % line)
    print()

    covered = {}
    for r in ratios:
        lo, hi = loso_interval(ratios, r["source"])
        covered.setdefault(r["source"], []).append(lo <= r["ratio"] <= hi)
    if markdown:
        print("| source | measured cases | 80 % interval covers (leave-one-source-out) |")
        print("| --- | ---: | ---: |")
    for src, c in covered.items():
        print(("| %s | %d | %.0f %% |" if markdown else "%-70s %3d cases, LOSO 80 %% interval covers %.0f %%") % (
            src[:70] if not markdown else src, len(c), 100 * sum(c) / len(c)))
    flat = [x for c in covered.values() for x in c]
    everything = [r["ratio"] for r in ratios]
    print("all: LOSO 80 %% interval covers %.0f %% of %d measured cases; pooled interval on the estimate: x%.2f to x%.2f" % (
        100 * sum(flat) / len(flat), len(flat), percentile(everything, 0.1), percentile(everything, 0.9)))


if __name__ == "__main__":
    main()
