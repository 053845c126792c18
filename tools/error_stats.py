"""Statistics shared by the error-table tools (tools/time_error_table.py,
tools/memory_error_table.py): the same linear-interpolation percentile the
GoogleTest validation suites use, the split-conformal order statistic the
time model's range is made of, and the leave-one-source-out interval."""
import math


def percentile(values, p):
    v = sorted(values)
    pos = p * (len(v) - 1)
    lo = int(pos)
    hi = min(len(v) - 1, lo + 1)
    return v[lo] + (v[hi] - v[lo]) * (pos - lo)


def conformal(values, p):
    """The split-conformal order statistic of the p-quantile (Lei et al. 2018,
    "Distribution-Free Predictive Inference for Regression", sec. 2.2): of n
    sorted values the ceil((n+1)p)-th for an upper quantile and the
    floor((n+1)p)-th for a lower one (1-based, clamped to 1..n), as
    core/src/estimate/throughput.cpp rate_interval() and
    tests/core/throughput_validation_test.cpp conformal() take them."""
    v = sorted(values)
    n = len(v)
    if p > 0.5:
        return v[min(n, math.ceil((n + 1) * p)) - 1]
    return v[max(1, math.floor((n + 1) * p)) - 1]


def loso_interval(rows, source, low_q=0.10, high_q=0.90, same_class=None, min_class_cases=8, quantile=percentile):
    """The low_q-high_q quantiles (`quantile`: percentile, or conformal) of
    r["ratio"] over every row whose r["source"] is not `source`; restricted
    to the rows for which same_class(r) holds when that leaves
    min_class_cases cases from at least two other sources."""
    others = [r for r in rows if r["source"] != source]
    pool = others
    if same_class is not None:
        same = [r for r in others if same_class(r)]
        if len(same) >= min_class_cases and len({r["source"] for r in same}) >= 2:
            pool = same
    ratios = [r["ratio"] for r in pool]
    return quantile(ratios, low_q), quantile(ratios, high_q)
