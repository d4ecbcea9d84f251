"""Seeded synthetic data sets used by the book's pages and the tests (no downloads)."""

from __future__ import annotations

import numpy as np
from sklearn.utils import check_random_state


def make_gated_regression(n_samples=300, noise=0.15, random_state=None):
    """1-D regression data whose regime switches with x: two lines joined by a logistic gate.

    For x in [-1, 1] the target follows t = 1 + 2x (left regime) or t = -1 - 0.5x (right
    regime); the right regime is chosen with probability σ(8x), and Gaussian noise of standard
    deviation ``noise`` is added.

    Parameters
    ----------
    n_samples : int
    noise : float
        Standard deviation of the Gaussian noise.
    random_state : int, RandomState or None

    Returns
    -------
    X : ndarray of shape (n_samples, 1)
    t : ndarray of shape (n_samples,)
    """
    rng = check_random_state(random_state)
    x = rng.uniform(-1.0, 1.0, n_samples)
    right = rng.uniform(size=n_samples) < 1.0 / (1.0 + np.exp(-8.0 * x))
    t = np.where(right, -1.0 - 0.5 * x, 1.0 + 2.0 * x) + noise * rng.standard_normal(n_samples)
    return x[:, None], t
