"""Seeded synthetic data sets used by the book's pages and the tests (no downloads)."""

from __future__ import annotations

from numbers import Integral, Real

import numpy as np
from sklearn.utils import check_random_state
from sklearn.utils._param_validation import Interval, validate_params

from ._numerics import expit
from ._validation import as_float

__all__ = [
    "make_gated_regression",
    "make_mixture_of_linear_regressions",
    "make_mixture_of_logistic_regressions",
    "make_wavy_classes",
    "make_five_regions",
    "make_xor_regression",
]

# the parameters every generator shares, checked by scikit-learn's validate_params (the error
# names the parameter and the range it must lie in, as for sklearn.datasets.make_*)
_N_SAMPLES = [Interval(Integral, 1, None, closed="left")]
_NOISE = [Interval(Real, 0, None, closed="left")]
_RANDOM_STATE = ["random_state"]


def _check_components(weights, coef, n_coef):
    """Mixing weights (normalised) and one row of ``n_coef`` finite coefficients per weight."""
    weights = as_float(weights, "weights", non_negative=True)
    if weights.ndim != 1 or weights.size == 0 or not weights.sum() > 0:
        raise ValueError(
            "weights must be a non-empty 1-D sequence of non-negative numbers with a positive "
            f"sum, got {weights.tolist()}"
        )
    coef = as_float(coef, "coef")
    if coef.shape != (weights.size, n_coef):
        raise ValueError(
            f"coef must have shape (len(weights), {n_coef}) = ({weights.size}, {n_coef}): one "
            f"row per component, got shape {coef.shape}"
        )
    return weights / weights.sum(), coef


@validate_params(
    {"n_samples": _N_SAMPLES, "noise": _NOISE, "random_state": _RANDOM_STATE},
    prefer_skip_nested_validation=True,
)
def make_gated_regression(n_samples=300, noise=0.15, random_state=None):
    """1-D regression data whose regime switches with x: two lines joined by a logistic gate.

    For x in [-1, 1] the target follows t = 1 + 2x (left regime) or t = -1 - 0.5x (right
    regime); the right regime is chosen with probability σ(8x), and Gaussian noise of standard
    deviation ``noise`` is added.

    Parameters
    ----------
    n_samples : int, default=300
        The number of points N.
    noise : float, default=0.15
        Standard deviation of the Gaussian noise.
    random_state : int, RandomState or None, default=None
        Seeds the draws; the same seed gives the same data.

    Returns
    -------
    X : ndarray of shape (n_samples, 1)
        The inputs.
    t : ndarray of shape (n_samples,)
        The targets.

    Raises
    ------
    ValueError
        If n_samples is not an integer >= 1, noise is not a real number >= 0, or random_state is
        not a seed in [0, 2**32 - 1], a RandomState or None (scikit-learn's InvalidParameterError,
        which is also a TypeError).
    """
    rng = check_random_state(random_state)
    x = rng.uniform(-1.0, 1.0, n_samples)
    right = rng.uniform(size=n_samples) < 1.0 / (1.0 + np.exp(-8.0 * x))
    t = np.where(right, -1.0 - 0.5 * x, 1.0 + 2.0 * x) + noise * rng.standard_normal(n_samples)
    return x[:, None], t


@validate_params(
    {
        "n_samples": _N_SAMPLES,
        "weights": ["array-like"],
        "coef": ["array-like"],
        "precision": [Interval(Real, 0, None, closed="neither")],
        "random_state": _RANDOM_STATE,
    },
    prefer_skip_nested_validation=True,
)
def make_mixture_of_linear_regressions(
    n_samples=200,
    weights=(0.5, 0.5),
    coef=((0.0, 1.0), (0.0, -1.0)),
    precision=100.0,
    random_state=None,
):
    """1-D data drawn from a mixture of straight lines (Section 14.5.1, model (14.34)).

    x is uniform on [-1, 1]; a component k is drawn with probability ``weights[k]``; then
    t = coef[k][0] + coef[k][1] x plus Gaussian noise of *precision* ``precision`` (variance
    1/precision).

    Parameters
    ----------
    n_samples : int, default=200
        The number of points N.
    weights : sequence of float, default=(0.5, 0.5)
        Mixing coefficients π_k (normalised to sum to one).
    coef : sequence of (intercept, slope), default=((0.0, 1.0), (0.0, -1.0))
        One line per component.
    precision : float, default=100.0
        The noise precision β.
    random_state : int, RandomState or None, default=None
        Seeds the draws; the same seed gives the same data.

    Returns
    -------
    X : ndarray of shape (n_samples, 1)
        The inputs.
    t : ndarray of shape (n_samples,)
        The targets.
    z : ndarray of shape (n_samples,)
        The component that generated each point.

    Raises
    ------
    ValueError
        If ``weights`` is not array-like, empty, negative, not finite or sums to zero, or ``coef``
        is not a finite array with one row of two (intercept, slope) per weight; or if n_samples is
        not an integer >= 1, precision is not a real number > 0, or random_state is not a seed in
        [0, 2**32 - 1], a RandomState or None (scikit-learn's InvalidParameterError, which is also
        a TypeError).
    """
    weights, coef = _check_components(weights, coef, 2)
    rng = check_random_state(random_state)
    x = rng.uniform(-1.0, 1.0, n_samples)
    z = rng.choice(len(weights), size=n_samples, p=weights)
    t = coef[z, 0] + coef[z, 1] * x + rng.standard_normal(n_samples) / np.sqrt(precision)
    return x[:, None], t, z


@validate_params(
    {
        "n_samples": _N_SAMPLES,
        "weights": ["array-like"],
        "coef": ["array-like"],
        "random_state": _RANDOM_STATE,
    },
    prefer_skip_nested_validation=True,
)
def make_mixture_of_logistic_regressions(
    n_samples=400, weights=(0.5, 0.5), coef=((-1.0, 4.0, 0.0), (-1.0, 0.0, 4.0)), random_state=None
):
    """2-D binary data from a mixture of logistic regressions (Section 14.5.2, model (14.45)).

    x is uniform on [-2, 2]²; a component k is drawn with probability ``weights[k]``; then
    t = 1 with probability σ(w_kᵀ(1, x)), w_k = ``coef[k]``.

    Parameters
    ----------
    n_samples : int, default=400
        The number of points N.
    weights : sequence of float, default=(0.5, 0.5)
        Mixing coefficients π_k (normalised to sum to one).
    coef : sequence of (bias, w1, w2), default=((-1.0, 4.0, 0.0), (-1.0, 0.0, 4.0))
        One weight vector w_k = (bias, w1, w2) per component.
    random_state : int, RandomState or None, default=None
        Seeds the draws; the same seed gives the same data.

    Returns
    -------
    X : ndarray of shape (n_samples, 2)
        The inputs.
    t : ndarray of shape (n_samples,)
        Labels in {0, 1}.
    z : ndarray of shape (n_samples,)
        The component that generated each point.

    Raises
    ------
    ValueError
        If ``weights`` is not array-like, empty, negative, not finite or sums to zero, or ``coef``
        is not a finite array with one row of three (bias, w1, w2) per weight; or if n_samples is
        not an integer >= 1 or random_state is not a seed in [0, 2**32 - 1], a RandomState or None
        (scikit-learn's InvalidParameterError, which is also a TypeError).
    """
    weights, coef = _check_components(weights, coef, 3)
    rng = check_random_state(random_state)
    X = rng.uniform(-2.0, 2.0, size=(n_samples, 2))
    z = rng.choice(len(weights), size=n_samples, p=weights)
    a = coef[z, 0] + np.einsum("nd,nd->n", X, coef[z, 1:])
    t = (rng.uniform(size=n_samples) < expit(a)).astype(int)
    return X, t, z


@validate_params(
    {"n_samples": _N_SAMPLES, "noise": _NOISE, "random_state": _RANDOM_STATE},
    prefer_skip_nested_validation=True,
)
def make_wavy_classes(n_samples=30, noise=0.15, random_state=None):
    """Two classes in the unit square separated by a wavy curve, with a little label noise.

    A point x = (x_1, x_2), uniform on [−1, 1]², has class t = +1 when
    x_2 + ε > 0.5 sin(2.5 x_1) and t = −1 otherwise, with ε ~ N(0, noise²). No single
    axis-aligned cut separates the classes, so boosted stumps need many rounds (Section 14.3).

    Parameters
    ----------
    n_samples : int, default=30
        The number of points N.
    noise : float, default=0.15
        Standard deviation of the Gaussian perturbation of the boundary.
    random_state : int, RandomState or None, default=None
        Seeds the draws; the same seed gives the same data.

    Returns
    -------
    X : ndarray of shape (n_samples, 2)
        The inputs.
    t : ndarray of shape (n_samples,)
        Labels in {−1, +1}.

    Raises
    ------
    ValueError
        If n_samples is not an integer >= 1, noise is not a real number >= 0, or random_state is
        not a seed in [0, 2**32 - 1], a RandomState or None (scikit-learn's InvalidParameterError,
        which is also a TypeError).
    """
    rng = check_random_state(random_state)
    X = rng.uniform(-1.0, 1.0, size=(n_samples, 2))
    boundary = 0.5 * np.sin(2.5 * X[:, 0])
    t = np.where(X[:, 1] + noise * rng.standard_normal(n_samples) > boundary, 1, -1)
    return X, t


@validate_params(
    {"n_samples": _N_SAMPLES, "noise": _NOISE, "random_state": _RANDOM_STATE},
    prefer_skip_nested_validation=True,
)
def make_five_regions(n_samples=400, noise=0.3, random_state=None):
    """2-D regression data whose mean is constant on five axis-aligned regions (Fig 14.5).

    Inputs are uniform on the unit square. The regions are A: x₁ ≤ 0.45, x₂ ≤ 0.6;
    B: x₁ ≤ 0.45, x₂ > 0.6; C: 0.45 < x₁ ≤ 0.75, x₂ ≤ 0.35; D: x₁ > 0.75, x₂ ≤ 0.35;
    E: x₁ > 0.45, x₂ > 0.35, with means 0, 2, 3, 1 and 4; Gaussian noise of standard deviation
    ``noise`` is added.

    Parameters
    ----------
    n_samples : int, default=400
        The number of points N.
    noise : float, default=0.3
        Standard deviation of the Gaussian noise.
    random_state : int, RandomState or None, default=None
        Seeds the draws; the same seed gives the same data.

    Returns
    -------
    X : ndarray of shape (n_samples, 2)
        The inputs.
    t : ndarray of shape (n_samples,)
        The targets.
    region : ndarray of shape (n_samples,)
        The true region index 0-4 (A-E).

    Raises
    ------
    ValueError
        If n_samples is not an integer >= 1, noise is not a real number >= 0, or random_state is
        not a seed in [0, 2**32 - 1], a RandomState or None (scikit-learn's InvalidParameterError,
        which is also a TypeError).
    """
    rng = check_random_state(random_state)
    X = rng.uniform(size=(n_samples, 2))
    x1, x2 = X[:, 0], X[:, 1]
    region = np.where(
        x1 <= 0.45, np.where(x2 <= 0.6, 0, 1), np.where(x2 > 0.35, 4, np.where(x1 <= 0.75, 2, 3))
    )
    t = np.array([0.0, 2.0, 3.0, 1.0, 4.0])[region] + noise * rng.standard_normal(n_samples)
    return X, t, region


@validate_params(
    {"n_samples": _N_SAMPLES, "noise": _NOISE, "random_state": _RANDOM_STATE},
    prefer_skip_nested_validation=True,
)
def make_xor_regression(n_samples=400, noise=0.1, random_state=None):
    """2-D regression data: t = +1 on two opposite quadrants of the unit square, −1 elsewhere.

    No single axis-aligned cut reduces the sum-of-squares error much, but two levels of cuts
    explain the data: the example of a split that pays off only later.

    Parameters
    ----------
    n_samples : int, default=400
        The number of points N.
    noise : float, default=0.1
        Standard deviation of the Gaussian noise.
    random_state : int, RandomState or None, default=None
        Seeds the draws; the same seed gives the same data.

    Returns
    -------
    X : ndarray of shape (n_samples, 2)
        The inputs.
    t : ndarray of shape (n_samples,)
        The targets.

    Raises
    ------
    ValueError
        If n_samples is not an integer >= 1, noise is not a real number >= 0, or random_state is
        not a seed in [0, 2**32 - 1], a RandomState or None (scikit-learn's InvalidParameterError,
        which is also a TypeError).
    """
    rng = check_random_state(random_state)
    X = rng.uniform(size=(n_samples, 2))
    t = np.where((X[:, 0] > 0.5) == (X[:, 1] > 0.5), 1.0, -1.0) + noise * rng.standard_normal(
        n_samples
    )
    return X, t
