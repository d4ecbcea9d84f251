"""Real and Gentle AdaBoost, LogitBoost and K-class SAMME: prml14 against scikit-learn, one thread.

* SAMME with K = 3 classes, depth-1 trees: ``prml14.AdaBoostClassifier`` against
  ``sklearn.ensemble.AdaBoostClassifier(DecisionTreeClassifier(max_depth=1))`` (the same
  algorithm; the table reports how many rounds chose the same split). Goal: at most half its
  time (2× faster).
* Real AdaBoost, Gentle AdaBoost and LogitBoost with stumps: scikit-learn has none of them (its
  SAMME.R is gone), so the reference is the nearest estimator that also grows one weighted
  least-squares stump per round, ``GradientBoostingClassifier(max_depth=1, learning_rate=1)``.
  Goal: at most 2× its time.

Usage::

    python benchmarks/bench_adaboost_variants.py            # N = 20 000, 100 rounds (a minute)
    python benchmarks/bench_adaboost_variants.py --quick    # a small smoke run (seconds)
"""

from __future__ import annotations

import argparse
import os

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from functools import partial

import numpy as np
from _timing import row as _row
from _timing import timed
from sklearn.datasets import make_classification, make_hastie_10_2
from sklearn.ensemble import AdaBoostClassifier as SklearnAdaBoost
from sklearn.ensemble import GradientBoostingClassifier
from sklearn.tree import DecisionTreeClassifier
from threadpoolctl import threadpool_limits

from prml14 import (
    AdaBoostClassifier,
    GentleAdaBoostClassifier,
    LogitBoostClassifier,
    RealAdaBoostClassifier,
)


def samme_row(n, n_rounds, repeats):
    X, y = make_classification(
        n, n_features=20, n_informative=8, n_redundant=0, n_classes=3, random_state=0
    )
    X = X.astype(np.float32).astype(np.float64)  # the float32 values scikit-learn's trees see
    sk = SklearnAdaBoost(
        DecisionTreeClassifier(max_depth=1), n_estimators=n_rounds, random_state=0
    )
    t_ref, sk = timed(partial(sk.fit, X, y), repeats)
    ours = AdaBoostClassifier(n_estimators=n_rounds)
    t_ours, ours = timed(partial(ours.fit, X, y), repeats)
    same = sum(
        (a.tree_.feature[0], a.tree_.threshold[0]) == (b.tree_.feature[0], b.tree_.threshold[0])
        for a, b in zip(ours.estimators_, sk.estimators_, strict=False)
    )
    note = f"same split in {same}/{len(sk.estimators_)} rounds"
    return ("SAMME, K = 3, depth-1 trees", n, t_ours, t_ref, 0.5, note)


def variant_rows(n, n_rounds, repeats):
    X, y = make_hastie_10_2(n_samples=n, random_state=0)
    reference = GradientBoostingClassifier(
        n_estimators=n_rounds, max_depth=1, learning_rate=1.0, random_state=0
    )
    t_ref, reference = timed(partial(reference.fit, X, y), repeats)
    rows = []
    for cls in (RealAdaBoostClassifier, GentleAdaBoostClassifier, LogitBoostClassifier):
        model = cls(n_estimators=n_rounds)
        t_ours, model = timed(partial(model.fit, X, y), repeats)
        note = f"training accuracy {model.score(X, y):.3f} vs {reference.score(X, y):.3f}"
        rows.append((f"{cls.__name__}, stumps", n, t_ours, t_ref, 2.0, note))
    return rows


def table(rows, n_rounds):
    lines = [
        f"{n_rounds} rounds, D = 20 (SAMME) or 10 (Hastie), one thread; times in seconds, "
        "ratio = prml14 / reference",
        "",
        "| task | N | prml14 | reference | ratio | goal | met? | notes |",
        "|---|---:|---:|---:|---:|---|---|---|",
    ]
    for task, n, t_ours, t_ref, goal, note in rows:
        ratio = t_ours / t_ref
        lines.append(
            f"| {task} | {n:,} | {t_ours:.3f} | {t_ref:.3f} | {ratio:.2f}× | ≤ {goal}× | "
            f"{'yes' if ratio <= goal else 'no'} | {note} |"
        )
    return "\n".join(lines)


def benchmark(quick=False):
    """Rows for ``make bench``: the rows of :func:`main`'s table (goal: prml14 at most ``goal``
    times the reference's time, i.e. a minimum speed-up of 1 / goal)."""
    n, n_rounds, repeats = (2_000, 20, 1) if quick else (20_000, 100, 1)
    rows = [samme_row(n, n_rounds, repeats), *variant_rows(n, n_rounds, repeats)]
    return [
        _row(
            task,
            f"N={m:,}, {n_rounds} rounds",
            t_ours,
            t_ref,
            min_speedup=1 / goal,
            note=f"goal: at most {goal}x; {note}",
        )  # fmt: skip
        for task, m, t_ours, t_ref, goal, note in rows
    ]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="N = 2 000, 20 rounds: a smoke run")
    args = parser.parse_args(argv)
    n, n_rounds, repeats = (2_000, 20, 1) if args.quick else (20_000, 100, 1)
    with threadpool_limits(1):
        rows = [samme_row(n, n_rounds, repeats), *variant_rows(n, n_rounds, repeats)]
    print(table(rows, n_rounds))


if __name__ == "__main__":
    main()
