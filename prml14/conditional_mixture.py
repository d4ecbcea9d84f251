"""Conditional mixtures p(t | x) = Σ_k π_k(x) p(t | x, k): the chapter's opening equation (14.1).

The input-dependent mixing coefficients π_k(x) = p(k | x) are *gates*. The softmax of linear
functions of x is the usual choice: it is positive and sums to one for every x.
"""

from __future__ import annotations

import numpy as np

from ._equations import implements
from ._numerics import log_softmax, logsumexp
from ._validation import as_float

__all__ = [
    "affine_features",
    "softmax_gates",
    "conditional_mixture_density",
    "log_conditional_mixture_density",
]


def _check_gates(gates, name):
    if np.any(gates < 0) or not np.allclose(gates.sum(axis=-1), 1.0, rtol=0, atol=1e-8):
        raise ValueError(
            f"{name} must be non-negative and sum to one over the last axis (the K components)"
        )


def softmax_gates(X, V, *, log=False):
    """Softmax gates π_k(x) = exp(v_kᵀφ(x)) / Σ_j exp(v_jᵀφ(x)) with φ(x) = (1, x).

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
        Inputs.
    V : ndarray of shape (n_features + 1, n_components)
        Gate parameters; row 0 holds the biases.
    log : bool, default=False
        Return ln π_k(x) instead (computed stably).

    Returns
    -------
    ndarray of shape (n_samples, n_components)
        π_k(x_n) (or its logarithm); each row sums to one.
    """
    X = np.atleast_2d(as_float(X, "X"))
    V = as_float(V, "V")
    if V.ndim != 2 or V.shape[0] != X.shape[1] + 1:
        raise ValueError(
            "V must have shape (n_features + 1, n_components) = "
            f"({X.shape[1] + 1}, K), got {V.shape}"
        )
    log_gates = log_softmax(affine_features(X) @ V, axis=1)
    return log_gates if log else np.exp(log_gates)


@implements("14.1")
def conditional_mixture_density(gates, component_densities):
    """The conditional mixture p(t | x) = Σ_k π_k(x) p(t | x, k), equation (14.1).

    Parameters
    ----------
    gates : array-like of shape (..., n_components)
        π_k(x): non-negative, summing to one over the last axis.
    component_densities : array-like of shape (..., n_components)
        p(t | x, k) evaluated at the same (x, t) pairs; broadcast against ``gates``.

    Returns
    -------
    ndarray of shape (...)
        p(t | x) at each pair.
    """
    gates = as_float(gates, "gates")
    densities = as_float(component_densities, "component_densities")
    _check_gates(gates, "gates")
    if np.any(densities < 0):
        raise ValueError("component_densities must be non-negative")
    return np.sum(gates * densities, axis=-1)


@implements("14.1")
def log_conditional_mixture_density(log_gates, log_component_densities):
    """ln p(t | x) = ln Σ_k exp{ln π_k(x) + ln p(t | x, k)}, equation (14.1) in log space.

    Use this form when the component densities underflow (far tails, many dimensions).

    Parameters
    ----------
    log_gates : array-like of shape (..., n_components)
        ln π_k(x); the gates must sum to one over the last axis.
    log_component_densities : array-like of shape (..., n_components)
        ln p(t | x, k) at the same (x, t) pairs; broadcast against ``log_gates``.

    Returns
    -------
    ndarray of shape (...)
        ln p(t | x) at each pair.
    """
    log_gates = as_float(log_gates, "log_gates", allow_inf=True)
    _check_gates(np.exp(log_gates), "exp(log_gates)")
    return logsumexp(
        log_gates + as_float(log_component_densities, "log_component_densities", allow_inf=True),
        axis=-1,
    )


def affine_features(X):
    """Prepend a column of ones: the basis vector φ(x) = (1, x) of a linear model.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        The inputs x_n, one per row.

    Returns
    -------
    ndarray of shape (n_samples, n_features + 1)
        The rows φ(x_n) = (1, x_n).
    """
    X = as_float(X, "X")
    return np.hstack([np.ones((X.shape[0], 1)), X])
