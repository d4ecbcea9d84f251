"""Numerically stable building blocks shared by the modules (log space, sigmoid, softmax)."""

from __future__ import annotations

import numpy as np
from scipy.special import expit, log_expit, log_softmax, logsumexp, softmax

__all__ = ["expit", "log_expit", "log_softmax", "logsumexp", "softmax", "affine_features"]


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
