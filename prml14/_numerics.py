"""Numerically stable building blocks shared by the modules (log space, sigmoid, softmax)."""

from __future__ import annotations

import numpy as np
from scipy.special import expit, log_expit, log_softmax, logsumexp, softmax

__all__ = ["expit", "log_expit", "log_softmax", "logsumexp", "softmax", "softplus", "log_or_minus_inf", "affine_features"]


def softplus(a):
    """ln(1 + e^a) = −ln σ(−a) = max(a, 0) + ln(1 + e^(−|a|)), stable for any a.

    Parameters
    ----------
    a : ndarray

    Returns
    -------
    ndarray of the shape of ``a``
    """
    return np.maximum(a, 0.0) + np.log1p(np.exp(-np.abs(a)))


def log_or_minus_inf(a):
    """ln a for a ≥ 0, with ln 0 = −∞ and no divide-by-zero warning (zero weights, zero priors).

    Parameters
    ----------
    a : array-like

    Returns
    -------
    ndarray of the shape of ``a``
    """
    with np.errstate(divide="ignore"):
        return np.log(a)


def affine_features(X):
    """Prepend a column of ones: the basis vector φ(x) = (1, x) of a linear model.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)

    Returns
    -------
    ndarray of shape (n_samples, n_features + 1)
    """
    X = np.asarray(X, dtype=float)
    return np.hstack([np.ones((X.shape[0], 1)), X])
