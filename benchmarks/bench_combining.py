"""Voting and stacking: prml14 against scikit-learn, side by side, single-threaded.

Both libraries combine the *same* members (scikit-learn's depth-8 tree, logistic regression and
Gaussian naive Bayes for classification; a depth-8 tree and ridge regression for regression), so
the table measures what the combiner itself costs: cloning and fitting the members, assembling
the out-of-fold predictions, the vote. Goal: prml14 no slower than scikit-learn, with 10% slack
for timing noise (ratio = scikit-learn / prml14 >= 0.9).

Usage::

    python benchmarks/bench_combining.py            # N = 20 000 and 100 000 (about a minute)
    python benchmarks/bench_combining.py --quick    # N = 2 000: a smoke run (seconds)
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
from functools import partial  # noqa: E402
from statistics import median  # noqa: E402

from _timing import row as _row  # noqa: E402
from _timing import timed  # noqa: E402
from sklearn.datasets import make_classification, make_regression  # noqa: E402
from sklearn.ensemble import StackingClassifier as SkStackingClassifier  # noqa: E402
from sklearn.ensemble import StackingRegressor as SkStackingRegressor  # noqa: E402
from sklearn.ensemble import VotingClassifier as SkVotingClassifier  # noqa: E402
from sklearn.linear_model import LogisticRegression, Ridge  # noqa: E402
from sklearn.model_selection import KFold, StratifiedKFold  # noqa: E402
from sklearn.naive_bayes import GaussianNB  # noqa: E402
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor  # noqa: E402
from threadpoolctl import threadpool_limits  # noqa: E402

from prml14 import StackingClassifier, StackingRegressor, VotingClassifier  # noqa: E402

GOAL = 0.9  # scikit-learn time / prml14 time


def classifiers():
    return [
        ("tree", DecisionTreeClassifier(max_depth=8, random_state=0)),
        ("logistic", LogisticRegression(max_iter=300)),
        ("bayes", GaussianNB()),
    ]


def regressors():
    return [("tree", DecisionTreeRegressor(max_depth=8, random_state=0)), ("ridge", Ridge())]


def tasks(n):
    """(task, prml14 callable, scikit-learn callable) triples for N = n points, D = 10."""
    X, y = make_classification(n, n_features=10, n_informative=6, n_classes=3, random_state=0)
    Xr, yr = make_regression(n, n_features=10, noise=5.0, random_state=0)
    cv = StratifiedKFold(5, shuffle=True, random_state=0)
    cv_r = KFold(5, shuffle=True, random_state=0)
    ours_stack = StackingClassifier(classifiers(), cv=cv)
    sk_stack = SkStackingClassifier(classifiers(), cv=cv)
    ours_vote = VotingClassifier(classifiers(), voting="soft")
    sk_vote = SkVotingClassifier(classifiers(), voting="soft")
    ours_reg = StackingRegressor(regressors(), cv=cv_r)
    sk_reg = SkStackingRegressor(regressors(), cv=cv_r)
    fitted = [m.fit(X, y) for m in (ours_stack, sk_stack, ours_vote, sk_vote)]
    return [
        ("stacking classifier: fit", partial(ours_stack.fit, X, y), partial(sk_stack.fit, X, y)),
        (
            "stacking classifier: predict_proba",
            partial(fitted[0].predict_proba, X),
            partial(fitted[1].predict_proba, X),
        ),
        ("soft voting: fit", partial(ours_vote.fit, X, y), partial(sk_vote.fit, X, y)),
        (
            "soft voting: predict",
            partial(fitted[2].predict, X),
            partial(fitted[3].predict, X),
        ),
        ("stacking regressor: fit", partial(ours_reg.fit, Xr, yr), partial(sk_reg.fit, Xr, yr)),
    ]


def benchmark(quick=False):
    """Rows for ``make bench``: every task of :func:`tasks` at N = 20 000 (2 000 if quick),
    the medians of three interleaved runs; goal: at least GOAL times scikit-learn's speed."""
    n = 2_000 if quick else 20_000
    rows = []
    for name, ours, theirs in tasks(n):
        t_ours, t_sk = [], []
        for _ in range(3):  # interleaved, so both see the same machine state
            t_ours.append(timed(ours)[0])
            t_sk.append(timed(theirs)[0])
        rows.append(
            _row(
                name,
                f"N={n:,}, D=10",
                median(t_ours),
                median(t_sk),
                min_speedup=GOAL,
            )  # fmt: skip
        )
    return rows


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="N = 2 000: a smoke run")
    args = parser.parse_args(argv)
    sizes, repeats = ([2_000], 1) if args.quick else ([20_000, 100_000], 3)
    lines = [
        "Voting and stacking with the same members, D = 10, 5 folds, one thread "
        "(times in seconds; ratio = scikit-learn / prml14)",
        "",
        "| task | N | prml14 | scikit-learn | ratio | goal | met? |",
        "|---|---:|---:|---:|---:|---|---|",
    ]
    with threadpool_limits(1):
        for n in sizes:
            for name, ours, theirs in tasks(n):
                t_ours = t_sk = float("inf")
                for _ in range(repeats):  # interleaved, so both see the same machine state
                    t_ours = min(t_ours, timed(ours)[0])
                    t_sk = min(t_sk, timed(theirs)[0])
                ratio = t_sk / t_ours
                lines.append(
                    f"| {name} | {n:,} | {t_ours:.3f} | {t_sk:.3f} | {ratio:.2f}× | "
                    f"≥ {GOAL}× | {'yes' if ratio >= GOAL else 'no'} |"
                )
    print("\n".join(lines))


if __name__ == "__main__":
    main()
