"""Timing helpers shared by the benchmark scripts."""

import statistics
import time
import tracemalloc

import numpy as np


def timed(function, repeats=1):
    """Best wall-clock time of ``repeats`` calls, and the last result."""
    best, result = np.inf, None
    for _ in range(repeats):
        start = time.perf_counter()
        result = function()
        best = min(best, time.perf_counter() - start)
    return best, result


def median_time(function, repeats=3):
    """Median wall-clock time of ``repeats`` calls, and the last result."""
    times, result = [], None
    for _ in range(repeats):
        start = time.perf_counter()
        result = function()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def peak_memory(function):
    """Wall-clock time of one call and the peak of the memory it allocated (``tracemalloc``,
    which sees numpy's buffers but not memory that compiled code takes from malloc directly)."""
    tracemalloc.start()
    tracemalloc.reset_peak()
    try:
        start = time.perf_counter()
        function()
        seconds = time.perf_counter() - start
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return seconds, peak


def row(task, size, prml14, reference=None, *, min_speedup=None, note=""):
    """One row of ``make bench``: median seconds of prml14 and of the reference library.

    ``min_speedup`` is the goal: reference time / prml14 time must be at least this (None: no
    goal, the row only reports).
    """
    return {
        "task": task,
        "size": size,
        "prml14": prml14,
        "reference": reference,
        "goal": None if min_speedup is None else {"min_speedup": min_speedup},
        "note": note,
    }


def scaling_row(task, sizes, seconds, expected_exponent, tolerance=0.35, note=""):
    """A scaling row: fit times at N, 2N, 4N, 8N and the growth exponent of time in N.

    The exponent is the least-squares slope of ln(time) against ln(N); the goal is that it is
    within ``tolerance`` of ``expected_exponent``.
    """
    slope = float(np.polyfit(np.log(sizes), np.log(seconds), 1)[0])
    times = ", ".join(f"{s:.3g}" for s in seconds)
    return {
        "task": task,
        "size": " → ".join(f"{n:,}" for n in (sizes[0], sizes[-1])),
        "prml14": seconds[-1],
        "reference": None,
        "exponent": slope,
        "goal": {"exponent": expected_exponent, "tolerance": tolerance},
        "note": f"times {times} s; {note}".rstrip("; "),
    }
