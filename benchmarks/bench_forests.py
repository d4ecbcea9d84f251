"""Random forests: prml14 against scikit-learn, side by side, single-threaded.

Regression with 100 fully grown trees on N = 50 000 training points in D = 10 dimensions
(float32-representable inputs), predictions on 50 000 fresh points. It times

* fit with scikit-learn's default ``max_features=1.0`` (bagged trees) — the goal: no slower
  than ``sklearn.ensemble.RandomForestRegressor(n_jobs=1)`` — and with ``max_features="sqrt"``
  (both finders sort only the k features drawn at a node);
* fit of ``RandomForestClassifier`` at both libraries' defaults (``max_features="sqrt"``), on
  the same inputs with the targets cut at their median (goal: no slower);
* predict (goal: no slower);
* fit with ``n_jobs=2`` as a speed-up over ``n_jobs=1`` for both libraries (goal for prml14:
  1.7×; scikit-learn's own ratio is shown beside it). prml14 fits in joblib's worker processes
  (loky), scikit-learn in threads: the goal row times a fit with the two workers already
  running, as they are after a session's first parallel fit (joblib keeps them for 5 idle
  minutes); the next row times that first fit, which also starts the workers (each imports
  scikit-learn and scipy);
* the peak memory of a fit at N = 10⁶ (``tracemalloc``, which sees numpy's buffers; a forest
  of 2 trees of depth 8, so that the row takes well under a minute), as a multiple of the
  size of X and t;
* permutation importance of the same fitted prml14 forest on 5 000 held-out points (D × 3
  permutations): :func:`prml14.permutation_importance` against
  ``sklearn.inspection.permutation_importance`` — the same work; the table says whether the
  importances are identical.

The "check" column compares the held-out mean squared errors of the two forests (the same
algorithm with different random numbers: they agree to a few per cent).

Usage::

    python benchmarks/bench_forests.py            # the full table (several minutes)
    python benchmarks/bench_forests.py --quick    # a small smoke run (seconds)
"""

from __future__ import annotations

import argparse
import os

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np
from _timing import peak_memory, timed
from _timing import row as _row
from joblib.externals.loky import get_reusable_executor
from sklearn.ensemble import RandomForestClassifier as SklearnForestClassifier
from sklearn.ensemble import RandomForestRegressor as SklearnForest
from sklearn.inspection import permutation_importance as sk_permutation_importance
from threadpoolctl import threadpool_limits

from prml14 import RandomForestClassifier, RandomForestRegressor, permutation_importance


def data(n_samples, n_features, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.uniform(size=(n_samples, n_features)).astype(np.float32).astype(np.float64)
    t = np.sin(4 * X[:, 0]) + X[:, 1] * X[:, 2] + 0.3 * rng.normal(size=n_samples)
    return X, t


def mse(model, X, t):
    return float(np.mean((model.predict(X) - t) ** 2))


def _alternated(forest, n_trees, X, t, pairs):
    """Best times of ``forest(n_jobs=2)`` and ``forest(n_jobs=1)`` fits, alternated ``pairs``
    times."""
    two, one = [], []
    for _ in range(pairs):
        for n_jobs, times in ((2, two), (1, one)):
            times.append(
                timed(lambda j=n_jobs: forest(n_trees, n_jobs=j, random_state=0).fit(X, t))[0]
            )
    return min(two), min(one)


def run(n, d, n_trees, repeats):
    X, t = data(n, d, seed=0)
    X_test, t_test = data(n, d, seed=1)
    size = f"M = {n_trees}, N = {n}, D = {d}"
    rows = []
    fitted = {}
    for max_features, goal in ((1.0, 1.0), ("sqrt", None)):
        t_sk, sk = timed(
            lambda mf=max_features: SklearnForest(
                n_trees, max_features=mf, n_jobs=1, random_state=0
            ).fit(X, t),
            repeats,
        )
        t_ours, ours = timed(
            lambda mf=max_features: RandomForestRegressor(
                n_trees, max_features=mf, n_jobs=1, random_state=0
            ).fit(X, t),
            repeats,
        )
        check = f"test MSE {mse(ours, X_test, t_test):.4f} vs {mse(sk, X_test, t_test):.4f}"
        if max_features == 1.0:  # kept for predict; the others are freed (about 1 GB each)
            fitted[max_features] = (ours, sk)
        del ours, sk
        rows.append((f"fit, max_features={max_features!r}", size, t_ours, t_sk, goal, check))
    # classification at both libraries' defaults (max_features="sqrt")
    y, y_test = t > np.median(t), t_test > np.median(t)
    t_sk, sk = timed(lambda: SklearnForestClassifier(n_trees, random_state=0).fit(X, y), repeats)
    t_ours, ours = timed(
        lambda: RandomForestClassifier(n_trees, random_state=0).fit(X, y), repeats
    )
    check = f"test accuracy {ours.score(X_test, y_test):.3f} vs {sk.score(X_test, y_test):.3f}"
    del ours, sk
    rows.append(("RandomForestClassifier fit, defaults", size, t_ours, t_sk, 1.0, check))
    ours, sk = fitted[1.0]
    t_ours, _ = timed(lambda: ours.predict(X_test), repeats)
    t_sk, _ = timed(lambda: sk.predict(X_test), repeats)
    rows.append(("predict, max_features=1.0", size, t_ours, t_sk, 1.0, ""))

    # n_jobs = 2: each library against itself with n_jobs = 1 (the "reference" column), the
    # two fits alternated (best of three pairs): on a shared machine a ratio of two times
    # taken minutes apart measures the machine's drift as much as the speed-up
    get_reusable_executor().shutdown(wait=True)  # no workers left from earlier rows
    t_cold, _ = timed(
        lambda: RandomForestRegressor(n_trees, n_jobs=2, random_state=0).fit(X, t), 1
    )
    t_two, t_one = _alternated(RandomForestRegressor, n_trees, X, t, max(repeats, 3))
    note = "the two worker processes already running; alternated with n_jobs=1"
    rows.append(("fit, n_jobs=2 vs n_jobs=1: prml14", size, t_two, t_one, 1.7, note))
    note = f"starting the workers took {t_cold - t_two:.2f} s more"
    rows.append(
        ("the same, first parallel fit (starts the workers)", size, t_cold, t_one, None, note)
    )
    t_sk_two, t_sk_one = _alternated(SklearnForest, n_trees, X, t, max(repeats, 3))
    note = "alternated with n_jobs=1"
    rows.append(("fit, n_jobs=2 vs n_jobs=1: scikit-learn", size, t_sk_two, t_sk_one, None, note))

    n_imp = min(5000, n)
    X_imp, t_imp = X_test[:n_imp], t_test[:n_imp]
    t_ours, res = timed(
        lambda: permutation_importance(ours, X_imp, t_imp, n_repeats=3, random_state=0), 1
    )
    t_sk, ref = timed(
        lambda: sk_permutation_importance(ours, X_imp, t_imp, n_repeats=3, random_state=0), 1
    )
    same = "identical" if np.array_equal(res.importances, ref.importances) else "DIFFERENT"
    rows.append(
        (
            "permutation importance (same prml14 forest)",
            f"{d} features × 3 repeats, {n_imp} points",
            t_ours,
            t_sk,
            1.0,
            same,
        )
    )
    return rows


def memory_row(n, d=10, n_trees=2, max_depth=8):
    """The peak memory of one forest fit at N = n (tracemalloc), and the fit's time."""
    X, t = data(n, d, seed=2)
    forest = RandomForestRegressor(n_trees, max_depth=max_depth, n_jobs=1, random_state=0)
    seconds, peak = peak_memory(lambda: forest.fit(X, t))
    note = (
        f"peak {peak / 2**20:.0f} MiB = {peak / (X.nbytes + t.nbytes):.1f}× the data; "
        f"{n_trees} trees of depth {max_depth} (fit time with tracemalloc on)"
    )
    size = f"M = {n_trees}, N = {n:,}, D = {d}"
    return ("peak memory (tracemalloc), forest fit", size, seconds, None, None, note)


def benchmark(quick=False):
    """Rows for ``make bench``: the rows of :func:`run`, at N = 20 000 and 50 trees (a minute;
    ``main`` keeps the full N = 50 000, 100 trees table), and the peak memory at N = 10⁶."""
    n, d, n_trees = (5_000, 10, 20) if quick else (20_000, 10, 50)
    rows = run(n, d, n_trees, 1) + [memory_row(10**5 if quick else 10**6)]
    return [
        _row(task, size, t_ours, t_ref, min_speedup=goal, note=check)
        for task, size, t_ours, t_ref, goal, check in rows
    ]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes, for a smoke run")
    args = parser.parse_args()
    n, d, n_trees, repeats = (5_000, 10, 20, 1) if args.quick else (50_000, 10, 100, 1)
    with threadpool_limits(1):
        rows = run(n, d, n_trees, repeats) + [memory_row(10**5 if args.quick else 10**6)]
    print(
        f"Random forests (regression), single-threaded unless n_jobs says otherwise, best of "
        f"{repeats} run(s). Ratio = reference time / prml14 time (> 1: prml14 faster).\n"
    )
    print("| task | size | prml14 (s) | reference (s) | ratio | goal | met? | check |")
    print("|---|---|---:|---:|---:|:---:|:---:|---|")
    for task, size, t_ours, t_ref, goal, check in rows:
        ratio = "" if t_ref is None else f"{t_ref / t_ours:.2f}×"
        met = "—" if goal is None else ("yes" if t_ref / t_ours >= goal else "no")
        goal = "—" if goal is None else f"≥ {goal:g}×"
        reference = "" if t_ref is None else f"{t_ref:.2f}"
        print(
            f"| {task} | {size} | {t_ours:.2f} | {reference} | {ratio} | {goal} | {met} "
            f"| {check} |"
        )


if __name__ == "__main__":
    main()
