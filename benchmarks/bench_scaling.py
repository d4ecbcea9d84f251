"""How fit time grows with N: AdaBoost, trees and EM at N, 2N, 4N, 8N.

The growth exponent is the least-squares slope of ln(time) against ln(N), beside the one the
algorithm should show: AdaBoost with presorted stumps and a full-depth tree are O(N log N)
(an exponent a little above 1 at these sizes), one EM iteration is O(N).

Usage::

    python benchmarks/run.py --only scaling
"""

from __future__ import annotations

from functools import partial

import numpy as np
from _timing import median_time, scaling_row
from sklearn.datasets import make_classification

from prml14 import AdaBoostClassifier, DecisionTreeRegressor, MixtureOfLinearRegressions


def _times(fit, sizes, make):
    return [median_time(partial(fit, *make(n)))[0] for n in sizes]


def benchmark(quick=False):
    """Rows for ``make bench``: one scaling row per model."""
    base = 2_000 if quick else 10_000
    sizes = [base, 2 * base, 4 * base, 8 * base]
    rng = np.random.default_rng(0)

    def classes(n):
        return make_classification(n_samples=n, n_features=10, random_state=0)

    def regression(n):
        X = rng.normal(size=(n, 5))
        return X, X[:, 0] + np.sin(3 * X[:, 1]) + 0.1 * rng.normal(size=n)

    ada = AdaBoostClassifier(n_estimators=50).fit
    tree = DecisionTreeRegressor().fit
    em = MixtureOfLinearRegressions(3, max_iter=10, tol=0.0, random_state=0)

    def em_fit(X, y):
        import warnings

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # ten iterations, by design not converged
            return em.fit(X, y)

    return [
        scaling_row(
            "AdaBoost fit (50 stumps)", sizes, _times(ada, sizes, classes), 1.1, note="D=10"
        ),
        scaling_row(
            "tree fit (full depth)", sizes, _times(tree, sizes, regression), 1.1, note="D=5"
        ),
        scaling_row(
            "EM fit (mixture of 3 linear regressions, 10 iterations)",
            sizes,
            _times(em_fit, sizes, regression),
            1.0,
            note="D=5",
        ),
    ]
