"""Bootstrap samples and out-of-bag sets: the functional core of bagging (Breiman 1996).

Each member of a bagged committee (14.7) is trained on a bootstrap sample of the data (N points
drawn with replacement), :func:`bootstrap_indices`; the points a sample leaves out (about 1/e of
them, :func:`expected_oob_fraction`) form its out-of-bag set, :func:`out_of_bag_mask`. The
estimators are in :mod:`prml14.committees.bagging_estimators`.
"""

from __future__ import annotations

from numbers import Integral, Real

import numpy as np
from sklearn.utils.validation import (
    check_scalar,
)

from .._validation import check_random_state

__all__ = [
    "bootstrap_indices",
    "out_of_bag_mask",
    "expected_oob_fraction",
]


def bootstrap_indices(n_samples, n_estimators, max_samples=None, random_state=None):
    """Indices of M bootstrap samples: each row draws ``max_samples`` points with replacement.

    Parameters
    ----------
    n_samples : int
        N, the size of the data set.
    n_estimators : int
        M, the number of bootstrap samples.
    max_samples : int or float, default=None
        Points per sample: an int in [1, N], a float in (0, 1] (a fraction of N), or None (N).
    random_state : int, RandomState or None, default=None
        Seeds the draws.

    Returns
    -------
    ndarray of shape (n_estimators, n_draws)
        Row m holds the indices of the points in bootstrap sample m (one row per member, like
        ``estimators_samples_``).

    Raises
    ------
    TypeError
        If ``n_samples`` or ``n_estimators`` is not an integer, or ``max_samples`` is not None,
        an integer or a real number.
    ValueError
        If ``n_samples`` or ``n_estimators`` is below 1, ``max_samples`` is outside [1, N] (an
        integer) or (0, 1] (a float), or ``random_state`` cannot seed a generator.
    """
    check_scalar(n_samples, "n_samples", Integral, min_val=1)
    check_scalar(n_estimators, "n_estimators", Integral, min_val=1)
    n_draws = _n_draws(n_samples, max_samples)
    rng = check_random_state(random_state)
    return rng.randint(0, n_samples, size=(n_estimators, n_draws))


def _n_draws(n_samples, max_samples):
    """The bootstrap sample size that ``max_samples`` (None, an int or a fraction) asks for."""
    if max_samples is None:
        return n_samples
    if isinstance(max_samples, Integral):
        return check_scalar(max_samples, "max_samples", Integral, min_val=1, max_val=n_samples)
    check_scalar(
        max_samples, "max_samples", Real, min_val=0, max_val=1, include_boundaries="right"
    )
    if np.isnan(max_samples):  # check_scalar lets NaN through (every comparison is False)
        raise ValueError("max_samples must be a number, got nan")
    return max(int(max_samples * n_samples), 1)


def out_of_bag_mask(indices, n_samples):
    """Which points each bootstrap sample left out: ``mask[n, m]`` is True when n ∉ sample m.

    Parameters
    ----------
    indices : array-like of int, shape (n_estimators, n_draws) or a list of 1-D arrays
        The bootstrap samples, one row per member (:func:`bootstrap_indices`).
    n_samples : int
        N, the size of the data set.

    Returns
    -------
    ndarray of bool, shape (n_samples, n_estimators)
        Samples first, like the member predictions it masks.

    Raises
    ------
    TypeError
        If indices does not hold integers, or n_samples is not an integer.
    ValueError
        If n_samples is below 1, or an index lies outside [0, n_samples).
    """
    check_scalar(n_samples, "n_samples", Integral, min_val=1)
    rows = [np.asarray(i) for i in indices]
    mask = np.ones((n_samples, len(rows)), dtype=bool, order="F")
    for m, idx in enumerate(rows):  # loop over members, not samples
        if idx.size and not np.issubdtype(idx.dtype, np.integer):
            raise TypeError(f"indices must be integers, got dtype {idx.dtype}")
        if idx.size and (idx.min() < 0 or idx.max() >= n_samples):
            raise ValueError(f"indices must lie in [0, n_samples={n_samples})")
        mask[idx, m] = False
    return mask


def expected_oob_fraction(n_samples):
    """(1 − 1/N)^N: the probability that a given point is missing from a bootstrap sample.

    It tends to 1/e ≈ 0.368 as N → ∞.

    Parameters
    ----------
    n_samples : int or array-like of int
        N, the size of the data set (and of the bootstrap sample).

    Returns
    -------
    float or ndarray
        The out-of-bag probability for each N.

    Raises
    ------
    TypeError
        If n_samples is not a number.
    ValueError
        If n_samples is NaN, infinite or below 1.
    """
    try:
        n = np.asarray(n_samples, dtype=float)
    except (ValueError, TypeError) as error:
        raise TypeError(f"n_samples must be numbers, got {n_samples!r}") from error
    if not np.all(np.isfinite(n)) or np.any(n < 1):
        raise ValueError(f"n_samples must be finite and >= 1, got {n_samples!r}")
    with np.errstate(divide="ignore"):
        return np.exp(n * np.log1p(-1.0 / n))  # exactly 0 at N = 1
