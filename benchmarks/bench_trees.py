"""CART trees: prml14 against scikit-learn, side by side, single-threaded.

Regression on N = 100 000 points in D = 10 dimensions (float32-representable inputs, continuous
targets). It times

* fit with ``max_depth`` = 4 and 8 and at full depth (grown until the leaves are pure): prml14's
  level-by-level growth against ``sklearn.tree.DecisionTreeRegressor``;
* the whole weakest-link pruning path (14.31) of the full-depth tree (about 2N = 200 000 nodes):
  :func:`prml14.weakest_link_path` (a heap) against scikit-learn's ``ccp_pruning_path`` on its
  own, identical tree (tree growth excluded on both sides). The table says whether the
  breakpoints agree (λ = N·α) and whether the training predictions of the fits agree.

Usage::

    python benchmarks/bench_trees.py            # the full table (minutes: sklearn's path)
    python benchmarks/bench_trees.py --quick    # a small smoke run (seconds)
"""

from __future__ import annotations

import argparse

import numpy as np
from _timing import median_time, row, timed
from sklearn.tree import DecisionTreeRegressor as SklearnTree
from sklearn.tree._tree import ccp_pruning_path
from threadpoolctl import threadpool_limits

from prml14 import DecisionTreeRegressor, pruning_costs, weakest_link_path


def data(n_samples, n_features, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.uniform(size=(n_samples, n_features)).astype(np.float32).astype(np.float64)
    t = np.sin(4 * X[:, 0]) + X[:, 1] * X[:, 2] + 0.3 * rng.normal(size=n_samples)
    return X, t


def run(n, d, repeats):
    X, t = data(n, d)
    rows = []
    for depth in (4, 8, None):
        t_sk, sk = timed(lambda depth=depth: SklearnTree(max_depth=depth).fit(X, t), repeats)
        t_ours, ours = timed(
            lambda depth=depth: DecisionTreeRegressor(max_depth=depth).fit(X, t), repeats
        )
        same = np.allclose(ours.predict(X), sk.predict(X), rtol=1e-9, atol=1e-12)
        label = f"fit, max_depth={depth}" if depth else "fit, full depth"
        rows.append(
            (f"{label} ({ours.tree_.node_count} nodes)", t_sk, t_ours, "yes" if same else "NO")
        )
    # pruning path of the full-depth trees (the last pair fitted above)
    costs = pruning_costs(ours.tree_)
    t_ours, path = timed(lambda: weakest_link_path(ours.tree_, costs), repeats)
    t_sk, ref = timed(lambda: ccp_pruning_path(sk.tree_), 1)
    same = len(path.lambdas) == len(ref["ccp_alphas"]) and np.allclose(
        path.lambdas / n, ref["ccp_alphas"], rtol=1e-8, atol=1e-14
    )
    rows.append(
        (
            f"pruning path ({ours.tree_.node_count} nodes, {len(path.lambdas)} breakpoints)",
            t_sk,
            t_ours,
            "yes" if same else "NO",
        )
    )
    return rows


def benchmark(quick=False):
    """Rows for ``make bench`` (benchmarks/run.py): medians of three fits at N = 100 000; the
    pruning path at N = 20 000 (scikit-learn's takes 40 s at 100 000)."""
    n, n_path = (10_000, 5_000) if quick else (100_000, 20_000)
    X, t = data(n, 10)
    rows = []
    for depth in (4, 8, None):
        t_sk, sk = median_time(lambda depth=depth: SklearnTree(max_depth=depth).fit(X, t))
        t_ours, ours = median_time(
            lambda depth=depth: DecisionTreeRegressor(max_depth=depth).fit(X, t)
        )
        same = np.allclose(ours.predict(X), sk.predict(X), rtol=1e-9, atol=1e-12)
        label = f"fit, max_depth={depth}" if depth else "fit, full depth"
        note = f"{ours.tree_.node_count} nodes, same predictions: {'yes' if same else 'NO'}"
        rows.append(row(label, f"N={n:,}, D=10", t_ours, t_sk, min_speedup=1.0, note=note))
    X, t = X[:n_path], t[:n_path]
    ours = DecisionTreeRegressor().fit(X, t)
    sk = SklearnTree().fit(X, t)
    costs = pruning_costs(ours.tree_)
    t_ours, path = median_time(lambda: weakest_link_path(ours.tree_, costs))
    t_sk, ref = median_time(lambda: ccp_pruning_path(sk.tree_))
    same = len(path.lambdas) == len(ref["ccp_alphas"])
    note = f"{len(path.lambdas)} breakpoints, same path: {'yes' if same else 'NO'}"
    rows.append(
        row("pruning path", f"N={n_path:,}, D=10", t_ours, t_sk, min_speedup=1.0, note=note)
    )
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes, for a smoke run")
    args = parser.parse_args()
    n, d, repeats = (10_000, 10, 1) if args.quick else (100_000, 10, 3)
    with threadpool_limits(1):
        rows = run(n, d, repeats)
    print(
        f"Regression trees, N = {n}, D = {d}, single-threaded (best of {repeats} runs, except "
        "scikit-learn's pruning path: one run)\n"
    )
    print("| task | scikit-learn (s) | prml14 (s) | speed-up | same result |")
    print("|---|---:|---:|---:|:---:|")
    for name, t_sk, t_ours, same in rows:
        print(f"| {name} | {t_sk:.3f} | {t_ours:.3f} | {t_sk / t_ours:.2f}× | {same} |")


if __name__ == "__main__":
    main()
