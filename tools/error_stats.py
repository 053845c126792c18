"""Statistics shared by the error-table tools (tools/time_error_table.py,
tools/memory_error_table.py): the same linear-interpolation percentile the
GoogleTest validation suites use, and the leave-one-source-out interval."""


def percentile(values, p):
    v = sorted(values)
    pos = p * (len(v) - 1)
    lo = int(pos)
    hi = min(len(v) - 1, lo + 1)
    return v[lo] + (v[hi] - v[lo]) * (pos - lo)


def loso_interval(rows, source, low_q=0.10, high_q=0.90, same_class=None, min_class_cases=8):
    """The low_q-high_q percentiles of r["ratio"] over every row whose
    r["source"] is not `source`; restricted to the rows for which
    same_class(r) holds when that leaves min_class_cases cases from at least
    two other sources."""
    others = [r for r in rows if r["source"] != source]
    pool = others
    if same_class is not None:
        same = [r for r in others if same_class(r)]
        if len(same) >= min_class_cases and len({r["source"] for r in same}) >= 2:
            pool = same
    ratios = [r["ratio"] for r in pool]
    return percentile(ratios, low_q), percentile(ratios, high_q)
