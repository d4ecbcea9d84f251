"""LogitBoost (Friedman, Hastie and Tibshirani, 2000), page B.3, the functional core: Newton
steps on the binomial (and multinomial) log-likelihood, each fitted by a weighted least-squares
tree.

Two classes, t* ∈ {0, 1} and F(x) half the log-odds, p = σ(2F):

* (B.10) :func:`binomial_log_likelihood_derivatives`: ∂ℓ/∂F = 2(t* − p) and
  −∂²ℓ/∂F² = 4p(1 − p) for ℓ = t* ln p + (1 − t*) ln(1 − p);
* (B.11) :func:`logitboost_working_response`: z = (t* − p)/{p(1 − p)}, clipped to
  [−z_max, z_max], and :func:`logitboost_weights`: w = p(1 − p);
* (B.12) :func:`logitboost_newton_step`: the leaf value c_τ = ½ Σ_τ w z/Σ_τ w, one Newton step
  on the log-likelihood restricted to the leaf (an IRLS step, Section 14.5.2).

K classes, p_k = softmax(F)_k: the same working responses and weights per class, one tree per
class, and (B.13) :func:`multiclass_logitboost_step`: f_k ← (K − 1)/K (f_k − (1/K) Σ_l f_l).
The estimator is in :mod:`prml14.boosting.logitboost_estimators`.
"""

from __future__ import annotations

import numpy as np

from .._equations import implements
from .._numerics import expit
from .._validation import as_float, check_leaf, check_number
from ._tree_boosting import leaf_sums

__all__ = [
    "binomial_log_likelihood_derivatives",
    "logitboost_working_response",
    "logitboost_weights",
    "logitboost_newton_step",
    "multiclass_logitboost_step",
]


_MIN_WEIGHT = 2.0 * np.finfo(float).tiny


def _probabilities(F):
    """p = σ(2F) and 1 − p = σ(−2F), each computed without cancellation."""
    return expit(2.0 * F), expit(-2.0 * F)


@implements("B.10")
def binomial_log_likelihood_derivatives(t01, F):
    """∂ℓ/∂F = 2(t* − p) and −∂²ℓ/∂F² = 4p(1 − p), with p = σ(2F) (B.10).

    ℓ = t* ln p + (1 − t*) ln(1 − p) is the log-likelihood of one point when F is half the
    log-odds, as in (14.28).

    Parameters
    ----------
    t01 : array-like of shape (n_samples,)
        Targets t* ∈ {0, 1}.
    F : array-like of shape (n_samples,)
        The current model F(x_n).

    Returns
    -------
    gradient : ndarray of shape (n_samples,)
        The first derivative of ℓ.
    negative_hessian : ndarray of shape (n_samples,)
        Minus its second derivative.

    Raises
    ------
    ValueError
        If t01 or F is not a real array, holds NaN, or their shapes differ.
    """
    t01, F = as_float(t01, "t01", allow_inf=True), as_float(F, "F", allow_inf=True)
    if t01.shape != F.shape:
        raise ValueError(f"t01 and F must have one shape, got {t01.shape} and {F.shape}")
    p, q = _probabilities(F)
    return 2.0 * (t01 - p), 4.0 * p * q


@implements("B.11")
def logitboost_working_response(t01, p, z_max=4.0):
    """z = (t* − p)/{p(1 − p)}, clipped to [−z_max, z_max] (B.11).

    For t* = 1 this is 1/p, for t* = 0 it is −1/(1 − p): large where the model is confidently
    wrong, which is why it is clipped.

    Parameters
    ----------
    t01 : array-like
        Targets t* ∈ {0, 1}.
    p : array-like
        The current probabilities p(t* = 1 | x), in [0, 1].
    z_max : float > 0, default=4.0
        The clip (``np.inf``: none).

    Returns
    -------
    ndarray
        The working responses, of the shape of ``p``.

    Raises
    ------
    TypeError
        If z_max is not a real number.
    ValueError
        If t01 or p is not a real array or holds NaN, p holds values outside [0, 1], their
        shapes differ, or z_max is NaN or not > 0 (+inf is allowed).
    """
    t01, p = as_float(t01, "t01", allow_inf=True), as_float(p, "p", allow_inf=True)
    if t01.shape != p.shape:
        raise ValueError(f"t01 and p must have one shape, got {t01.shape} and {p.shape}")
    if np.any((p < 0) | (p > 1)):
        raise ValueError("p must hold probabilities in [0, 1]")
    check_number(z_max, "z_max", low=0.0, closed="neither", finite=False)
    with np.errstate(divide="ignore"):
        z = np.where(t01 > 0.5, 1.0 / p, -1.0 / (1.0 - p))
    return np.clip(z, -z_max, z_max)


@implements("B.11")
def logitboost_weights(p):
    """w = p(1 − p), the Newton (IRLS) weight of every point (B.11), at least 2 × tiny.

    Parameters
    ----------
    p : array-like
        Probabilities in [0, 1].

    Returns
    -------
    ndarray
        The weights, of the shape of ``p``.

    Raises
    ------
    ValueError
        If p is not a real array or holds NaN or values outside [0, 1].
    """
    p = as_float(p, "p", allow_inf=True)
    if np.any((p < 0) | (p > 1)):
        raise ValueError("p must hold probabilities in [0, 1]")
    return np.maximum(p * (1.0 - p), _MIN_WEIGHT)


@implements("B.12")
def logitboost_newton_step(z, w, leaf=None, n_leaves=None):
    """c_τ = ½ Σ_τ w_n z_n / Σ_τ w_n, the LogitBoost step of a region (B.12).

    Without clipping this is Σ_τ 2(t* − p)/Σ_τ 4p(1 − p): one Newton step on the log-likelihood
    of the points of the region, for the value c added to F there.

    Parameters
    ----------
    z : array-like of shape (n_samples,)
        Working responses (B.11).
    w : array-like of shape (n_samples,)
        Weights (B.11), times any sample weights.
    leaf : array-like of int of shape (n_samples,), default=None
        The leaf of every sample; None: all samples form one region.
    n_leaves : int, default=None
        The number of leaf ids (``leaf.max() + 1`` if None).

    Returns
    -------
    float or ndarray of shape (n_leaves,)
        The step (nan for ids no sample of positive weight reaches).

    Raises
    ------
    ValueError
        Naming the argument, if z and w are not 1-D arrays of one length, a weight is
        negative or not finite, ``leaf`` is not one non-negative integer id per sample, or
        ``n_leaves`` does not exceed every id.
    """
    z, w = as_float(z, "z", allow_inf=True), as_float(w, "w", non_negative=True)
    if z.shape != w.shape or z.ndim != 1:
        raise ValueError(f"z and w must be 1-D arrays of one length, got {z.shape} and {w.shape}")
    if leaf is None:
        if not w.sum() > 0:
            raise ValueError(f"w must have a positive sum, got {w.sum()}")
        return float(0.5 * np.dot(w, z) / w.sum())
    leaf, n = check_leaf(leaf, len(w), n_leaves)
    S, W = leaf_sums(leaf, w * z, n), leaf_sums(leaf, w, n)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(W > 0, 0.5 * S / W, np.nan)


@implements("B.13")
def multiclass_logitboost_step(f):
    """f_k ← (K − 1)/K (f_k − (1/K) Σ_l f_l), the K-class LogitBoost update (B.13).

    Parameters
    ----------
    f : array-like of shape (n_samples, n_classes)
        The K weighted least-squares fits of the working responses, evaluated at the inputs.

    Returns
    -------
    ndarray of shape (n_samples, n_classes)
        The update of F; every row sums to zero.

    Raises
    ------
    ValueError
        If f is not a finite (n_samples, n_classes) array with two classes or more.
    """
    f = as_float(f, "f")
    if f.ndim != 2 or f.shape[1] < 2:
        raise ValueError(f"f must have shape (n_samples, n_classes >= 2), got {f.shape}")
    K = f.shape[1]
    return (K - 1.0) / K * (f - f.mean(axis=1, keepdims=True))
