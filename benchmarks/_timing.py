"""Timing helper shared by the benchmark scripts."""

import time

import numpy as np


def timed(function, repeats=1):
    """Best wall-clock time of ``repeats`` calls, and the last result."""
    best, result = np.inf, None
    for _ in range(repeats):
        start = time.perf_counter()
        result = function()
        best = min(best, time.perf_counter() - start)
    return best, result
