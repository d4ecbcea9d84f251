"""Conditional mixtures p(t | x) = Σ_k π_k(x) p(t | x, k): the chapter's opening equation (14.1).

The input-dependent mixing coefficients π_k(x) = p(k | x) are *gates*. The softmax of linear
functions of x is the usual choice: it is positive and sums to one for every x.
"""

from __future__ import annotations

import numpy as np

from .._equations import implements
from .._numerics import log_softmax, logsumexp
from .._validation import as_float

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


def _check_mixture(gates, densities, names, *, log=False):
    """Gates and component densities (or their logarithms) as float arrays: the gates on the
    simplex of their last axis, the densities non-negative, the last axes equal (one entry per
    component) and the leading axes broadcasting; the errors name ``names``."""
    gates_name, densities_name = names
    gates = as_float(gates, gates_name, allow_inf=log)
    densities = as_float(densities, densities_name, allow_inf=log, non_negative=not log)
    if gates.ndim == 0 or densities.ndim == 0 or gates.shape[-1] != densities.shape[-1]:
        raise ValueError(
            f"{gates_name} and {densities_name} must have shape (..., n_components) with the "
            f"same n_components, got shapes {gates.shape} and {densities.shape}"
        )
    try:
        np.broadcast_shapes(gates.shape, densities.shape)
    except ValueError:
        raise ValueError(
            f"{gates_name} and {densities_name} must broadcast against each other, got shapes "
            f"{gates.shape} and {densities.shape}"
        ) from None
    if log:
        with np.errstate(over="ignore"):  # exp(ln π) = inf is refused just below
            _check_gates(np.exp(gates), f"exp({gates_name})")
    else:
        _check_gates(gates, gates_name)
    return gates, densities


def _mixture_density(gates, densities, names):
    gates, densities = _check_mixture(gates, densities, names)
    return np.sum(gates * densities, axis=-1)


def _log_mixture_density(log_gates, log_densities, names):
    log_gates, log_densities = _check_mixture(log_gates, log_densities, names, log=True)
    return logsumexp(log_gates + log_densities, axis=-1)


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

    Raises
    ------
    ValueError
        If X (a single sample may be 1-D) or V has the wrong shape or is not finite.
    """
    X = np.atleast_2d(as_float(X, "X"))
    if X.ndim != 2:
        raise ValueError(f"X must have shape (n_samples, n_features), got shape {X.shape}")
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
        p(t | x, k) evaluated at the same (x, t) pairs: finite, non-negative; the leading axes
        broadcast against those of ``gates``, the last axis is the same.

    Returns
    -------
    ndarray of shape (...)
        p(t | x) at each pair.

    Raises
    ------
    ValueError
        If the gates are not on the simplex, a density is negative or not finite, or the shapes
        do not agree (one entry per component on the last axis of both).
    """
    return _mixture_density(gates, component_densities, ("gates", "component_densities"))


@implements("14.1")
def log_conditional_mixture_density(log_gates, log_component_densities):
    """ln p(t | x) = ln Σ_k exp{ln π_k(x) + ln p(t | x, k)}, equation (14.1) in log space.

    Use this form when the component densities underflow (far tails, many dimensions).

    Parameters
    ----------
    log_gates : array-like of shape (..., n_components)
        ln π_k(x); the gates must sum to one over the last axis.
    log_component_densities : array-like of shape (..., n_components)
        ln p(t | x, k) at the same (x, t) pairs (−∞ allowed); the leading axes broadcast
        against those of ``log_gates``, the last axis is the same.

    Returns
    -------
    ndarray of shape (...)
        ln p(t | x) at each pair.

    Raises
    ------
    ValueError
        If the gates are not on the simplex, an argument holds NaN, or the shapes do not agree
        (one entry per component on the last axis of both).
    """
    return _log_mixture_density(
        log_gates, log_component_densities, ("log_gates", "log_component_densities")
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

    Raises
    ------
    ValueError
        If X is not a 2-D array of finite numbers.
    """
    X = as_float(X, "X")
    if X.ndim != 2:
        raise ValueError(f"X must have shape (n_samples, n_features), got shape {X.shape}")
    return np.hstack([np.ones((X.shape[0], 1)), X])
