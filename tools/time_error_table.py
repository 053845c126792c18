#!/usr/bin/env python3
"""Run every comparable case of tests/data/throughput_cases.json through the
gpuplan CLI and print the time model's error per source and per software
stack, and the coverage of its 80 % prediction interval under
leave-one-source-out calibration (the tables in docs/time-model.md).

usage: tools/time_error_table.py [path/to/gpuplan] [--markdown]

Leave-one-source-out (LOSO): a source's cases are never used to set their own
interval. For each source, the interval is the split-conformal 10th-90th
order statistics (error_stats.conformal: the floor((n+1)·0.1)-th and the
ceil((n+1)·0.9)-th of the n sorted ratios) of measured / estimated over
every *other* source's cases of the same stack class (workload.stack), or
over every other source when its class has fewer than MIN_CLASS_CASES cases
from at least two other sources. A case is covered when its measured rate
lies in [estimate x low, estimate x high].

A case marked `calibration` set a coefficient from its own figure (the
llama.cpp decode shares, core/src/estimate/decode_bandwidth.cpp): it is in
the error tables but neither in any interval's pool nor in the coverage.

The factors the core ships (core/src/estimate/throughput.cpp, rate_interval()) are the
same order statistics over all cases of a class: the last table prints them, and
tests/core/throughput_validation_test.cpp checks the two stay in step. Tables
per source, per stack and per workload class (train / infer) give the median
and p90 of |error| (linear-interpolation percentiles) and the coverage.
"""
import json
import os
import statistics
import subprocess
import sys

from error_stats import conformal, loso_interval, percentile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MIN_CLASS_CASES = 8
LOW_Q, HIGH_Q = 0.10, 0.90


def runnable(case, supplements, presets):
    """The case's request against this build: a preset the catalog lacks is
    dropped and replaced by the file's supplements (as the GoogleTest does)."""
    request = json.loads(json.dumps(case["request"]))
    model = request["model"]
    preset = model.get("preset")
    if preset and preset not in presets:
        del model["preset"]
        for key, value in supplements.get(preset, {}).items():
            if key != "sources":
                model[key] = value
    return request


def plan(binary, request):
    out = subprocess.run([binary, "plan", "-"], input=json.dumps(request), capture_output=True, text=True)
    return json.loads(out.stdout)


def stack_of(case):
    return case["request"].get("workload", {}).get("stack", "eager")


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    binary = args[0] if args else os.path.join(ROOT, "build/native/bin/gpuplan")
    markdown = "--markdown" in sys.argv
    data = json.load(open(os.path.join(ROOT, "tests/data/throughput_cases.json")))
    catalog = json.loads(subprocess.run([binary, "catalog"], capture_output=True, text=True).stdout)
    presets = {m["id"] for m in catalog.get("models", [])}
    rows = []
    for case in data["cases"]:
        if "unmappable" in case or case.get("per_gpu"):
            continue
        reply = plan(binary, runnable(case, data.get("supplements", {}), presets))
        metric = "tokens_per_s" if "tokens_per_s" in case["measured"] else "samples_per_s"
        gpus = reply.get("gpus") or []
        if not gpus:
            print("no estimate:", case["id"], file=sys.stderr)
            continue
        t = gpus[0]["throughput"]
        rows.append({
            "id": case["id"], "source": case["source"], "stack": stack_of(case),
            "workload": case["request"].get("workload", {}).get("mode", "train"),
            "measured": case["measured"][metric], "estimated": t[metric],
            "ratio": case["measured"][metric] / t[metric],
            "low": t["low_factor"], "high": t["high_factor"],
            "calibration": "calibration" in case,
        })
    evidence = [r for r in rows if not r["calibration"]]
    for r in rows:
        r["abs_error"] = abs(r["estimated"] / r["measured"] - 1)
        if r["calibration"]:
            continue
        lo, hi = loso_interval(evidence, r["source"], LOW_Q, HIGH_Q,
                               same_class=lambda other, stack=r["stack"]: other["stack"] == stack,
                               min_class_cases=MIN_CLASS_CASES, quantile=conformal)
        r["loso_covered"] = lo <= r["ratio"] <= hi
        r["shipped_covered"] = r["low"] <= r["ratio"] <= r["high"]

    def summary(group):
        errors = [r["abs_error"] for r in group]
        scored = [r for r in group if not r["calibration"]]
        cover = (lambda key: 100 * sum(r[key] for r in scored) / len(scored)) if scored else (lambda key: float("nan"))
        return (len(group), 100 * statistics.median(errors), 100 * percentile(errors, 0.9),
                cover("loso_covered"), cover("shipped_covered"))

    def table(title, key):
        groups = {}
        for r in rows:
            groups.setdefault(r[key], []).append(r)
        if markdown:
            print(f"| {title} | cases | median abs error | p90 abs error | 80 % interval covers (LOSO) | shipped interval covers |")
            print("| --- | ---: | ---: | ---: | ---: | ---: |")
        else:
            print(f"\n{title}")
        for name, group in sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0])):
            n, med, p90, loso, shipped = summary(group)
            if markdown:
                print(f"| {name} | {n} | {med:.1f} % | {p90:.1f} % | {loso:.0f} % | {shipped:.0f} % |")
            else:
                print(f"  {name[:70]:70s} n={n:3d} median {med:5.1f}%  p90 {p90:6.1f}%  LOSO cover {loso:4.0f}%  shipped {shipped:4.0f}%")
        print()

    table("source", "source")
    table("stack", "stack")
    table("workload class", "workload")
    n, med, p90, loso, shipped = summary(rows)
    print(f"all: {n} cases, median |error| {med:.1f} %, p90 {p90:.1f} %, "
          f"80 % interval coverage {loso:.0f} % (leave-one-source-out), {shipped:.0f} % (shipped factors)")
    n, med, p90, loso, shipped = summary(evidence)
    print(f"without the {len(rows) - len(evidence)} calibration cases: {n} cases, median |error| {med:.1f} %, "
          f"p90 {p90:.1f} %")
    print("\nshipped factors (split-conformal 10th / 90th of measured / estimated, all cases of the class"
          " but calibration cases):")
    classes = {}
    for r in evidence:
        classes.setdefault(r["stack"], []).append(r["ratio"])
    everything = [r["ratio"] for r in evidence]
    for name, ratios in sorted(classes.items()):
        pool = ratios if len(ratios) >= MIN_CLASS_CASES else everything
        print(f"  {name}: {len(ratios)} cases, low {conformal(pool, LOW_Q):.2f}, high {conformal(pool, HIGH_Q):.2f}"
              + ("" if pool is ratios else " (pooled: too few cases)"))
    print(f"  pooled: {len(everything)} cases, low {conformal(everything, LOW_Q):.2f}, high {conformal(everything, HIGH_Q):.2f}")
    if "--cases" in sys.argv:
        for r in rows:
            print(f"{r['id']:28s} {r['stack']:10s} {r['measured']:14.1f} {r['estimated']:14.1f} "
                  f"{100 * (r['estimated'] / r['measured'] - 1):+7.0f}%  "
                  f"{'calibration' if r['calibration'] else 'in' if r['loso_covered'] else 'OUT'}")


if __name__ == "__main__":
    main()
