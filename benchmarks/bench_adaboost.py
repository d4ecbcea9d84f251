"""AdaBoost with decision stumps: prml14 against scikit-learn, side by side, single-threaded.

For N = 20 000 and 100 000 points in D = 20 dimensions and M = 200 rounds it times

* fit: ``prml14.AdaBoostClassifier()`` (exact weighted-error stumps on presorted columns)
  against ``sklearn.ensemble.AdaBoostClassifier(DecisionTreeClassifier(max_depth=1))``;
* fit in gini mode: ``prml14.AdaBoostClassifier(DecisionStump(criterion="gini"))``, which
  reproduces scikit-learn's rounds (the table reports how many rounds chose the same split);
* predict on N points with the fitted models.

Usage::

    python benchmarks/bench_adaboost.py            # the full table (a few minutes)
    python benchmarks/bench_adaboost.py --quick    # a small smoke run (seconds)
"""

from __future__ import annotations

import argparse
from functools import partial

import numpy as np
from _timing import median_time, row, timed
from sklearn.datasets import make_classification
from sklearn.ensemble import AdaBoostClassifier as SklearnAdaBoost
from sklearn.tree import DecisionTreeClassifier
from threadpoolctl import threadpool_limits

from prml14 import AdaBoostClassifier, DecisionStump


def data(n_samples, n_features, seed=0):
    X, y = make_classification(
        n_samples=n_samples, n_features=n_features, n_informative=8, flip_y=0.05, random_state=seed
    )
    # scikit-learn's trees work in float32: give both libraries the same float32 values
    return X.astype(np.float32).astype(np.float64), y


def same_rounds(ours, sk):
    pairs = zip(ours.estimators_, sk.estimators_, strict=False)  # ours may stop early
    return sum(
        (a.feature_, a.threshold_) == (b.tree_.feature[0], b.tree_.threshold[0]) for a, b in pairs
    )


def run(sizes, n_features, n_rounds, repeats):
    rows = []
    for n in sizes:
        X, y = data(n, n_features)
        sk = SklearnAdaBoost(
            DecisionTreeClassifier(max_depth=1), n_estimators=n_rounds, random_state=0
        )
        t_sk, sk = timed(partial(sk.fit, X, y), repeats)
        ours = AdaBoostClassifier(n_estimators=n_rounds)
        t_ours, ours = timed(partial(ours.fit, X, y), repeats)
        gini = AdaBoostClassifier(DecisionStump(criterion="gini"), n_estimators=n_rounds)
        t_gini, gini = timed(partial(gini.fit, X, y), repeats)

        p_sk, pred_sk = timed(partial(sk.predict, X), max(repeats, 3))
        p_ours, _ = timed(partial(ours.predict, X), max(repeats, 3))
        p_gini, pred_gini = timed(partial(gini.predict, X), max(repeats, 3))

        rows.append(
            dict(
                n=n,
                t_sk=t_sk,
                t_ours=t_ours,
                t_gini=t_gini,
                p_sk=p_sk,
                p_ours=p_ours,
                p_gini=p_gini,
                rounds=len(sk.estimators_),
                same=same_rounds(gini, sk),
                agree=float(np.mean(pred_gini == pred_sk)),
                acc_sk=sk.score(X, y),
                acc_ours=ours.score(X, y),
            )
        )
    return rows


def table(rows, n_features, n_rounds):
    lines = [
        f"AdaBoost with stumps, D = {n_features}, M = {n_rounds} rounds, one thread "
        "(times in seconds; ratio = scikit-learn / prml14)",
        "",
        "| N | task | scikit-learn | prml14 | ratio | notes |",
        "|---:|---|---:|---:|---:|---|",
    ]
    for r in rows:
        lines += [
            f"| {r['n']:,} | fit (error stumps) | {r['t_sk']:.3f} | {r['t_ours']:.3f} | "
            f"{r['t_sk'] / r['t_ours']:.1f}× | training accuracy {r['acc_ours']:.3f} vs "
            f"{r['acc_sk']:.3f} |",
            f"| {r['n']:,} | fit (gini mode) | {r['t_sk']:.3f} | {r['t_gini']:.3f} | "
            f"{r['t_sk'] / r['t_gini']:.1f}× | same split in {r['same']}/{r['rounds']} rounds, "
            f"{100 * r['agree']:.2f}% same predictions |",
            f"| {r['n']:,} | predict (N points) | {r['p_sk']:.4f} | {r['p_ours']:.4f} | "
            f"{r['p_sk'] / r['p_ours']:.1f}× | gini-mode model: {r['p_gini']:.4f} s |",
        ]
    return "\n".join(lines)


def benchmark(quick=False):
    """Rows for ``make bench`` (benchmarks/run.py): N = 20 000 only (scikit-learn takes 40 s a
    fit at 100 000), medians of three fits."""
    n, n_rounds = (2_000, 20) if quick else (20_000, 200)
    X, y = data(n, 20)
    sk = SklearnAdaBoost(
        DecisionTreeClassifier(max_depth=1), n_estimators=n_rounds, random_state=0
    )
    t_sk, sk = median_time(partial(sk.fit, X, y))
    t_ours, ours = median_time(partial(AdaBoostClassifier(n_estimators=n_rounds).fit, X, y))
    gini = AdaBoostClassifier(DecisionStump(criterion="gini"), n_estimators=n_rounds)
    t_gini, gini = median_time(partial(gini.fit, X, y))
    p_sk, _ = median_time(partial(sk.predict, X), 5)
    p_ours, _ = median_time(partial(ours.predict, X), 5)
    size = f"N={n:,}, D=20, M={n_rounds}"
    note = "vs scikit-learn AdaBoostClassifier(max_depth=1 trees)"
    return [
        row("fit (error stumps)", size, t_ours, t_sk, min_speedup=40.0, note=note),
        row(
            "fit (gini mode)",
            size,
            t_gini,
            t_sk,
            min_speedup=1.0,
            note=f"same split in {same_rounds(gini, sk)}/{len(sk.estimators_)} rounds",
        ),
        row("predict", size, p_ours, p_sk, min_speedup=1.0),
    ]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="N = 2 000, 20 rounds: a smoke run")
    args = parser.parse_args(argv)
    if args.quick:
        sizes, n_rounds, repeats = [2_000], 20, 1
    else:
        sizes, n_rounds, repeats = [20_000, 100_000], 200, 1
    n_features = 20
    with threadpool_limits(1):
        rows = run(sizes, n_features, n_rounds, repeats)
    print(table(rows, n_features, n_rounds))


if __name__ == "__main__":
    main()
