"""Bagging (Section 14.2): prml14's BaggingRegressor against scikit-learn's, the same trees.

Both bag scikit-learn's ``DecisionTreeRegressor`` (full depth), 50 members, N = 20 000 points in
D = 10 dimensions; fit and predict with n_jobs = 1 and 2 (medians of three runs).

Usage::

    python benchmarks/run.py --only bagging          # the rows of make bench
    python benchmarks/run.py --only bagging --quick  # a smoke run
"""

from __future__ import annotations

from functools import partial

import numpy as np
from _timing import median_time, row
from sklearn.datasets import make_friedman1
from sklearn.ensemble import BaggingRegressor as SklearnBagging
from sklearn.tree import DecisionTreeRegressor

from prml14 import BaggingRegressor


def benchmark(quick=False):
    """Rows for ``make bench``: fit and predict, n_jobs 1 and 2."""
    n, n_estimators = (2_000, 10) if quick else (20_000, 50)
    X, y = make_friedman1(n_samples=n, n_features=10, noise=1.0, random_state=0)
    size = f"N={n:,}, D=10, {n_estimators} trees"
    rows = []
    for n_jobs in (1, 2):
        ours = BaggingRegressor(
            DecisionTreeRegressor(), n_estimators=n_estimators, n_jobs=n_jobs, random_state=0
        )
        sk = SklearnBagging(
            DecisionTreeRegressor(), n_estimators=n_estimators, n_jobs=n_jobs, random_state=0
        )
        t_ours, ours = median_time(partial(ours.fit, X, y))
        t_sk, sk = median_time(partial(sk.fit, X, y))
        p_ours, pred_ours = median_time(partial(ours.predict, X))
        p_sk, pred_sk = median_time(partial(sk.predict, X))
        # different bootstrap draws: compare the fits by their training error
        mse_ours, mse_sk = np.mean((pred_ours - y) ** 2), np.mean((pred_sk - y) ** 2)
        note = f"training MSE {mse_ours:.3f} vs {mse_sk:.3f}"
        rows += [
            row(f"fit, n_jobs={n_jobs}", size, t_ours, t_sk, min_speedup=0.9, note=note),
            row(f"predict, n_jobs={n_jobs}", size, p_ours, p_sk, min_speedup=0.9),
        ]
    return rows
