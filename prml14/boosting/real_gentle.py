"""Real AdaBoost and Gentle AdaBoost (Friedman, Hastie and Tibshirani, 2000), page B.2: the
functional core.

Both fit an additive model F(x) = Σ_m f_m(x) to the exponential error (14.20), with trees as
weak learners and the weights w_n = exp{−t_n F(x_n)} (14.22) (normalised):

* (B.4) :func:`half_log_odds_leaf_values`: Real AdaBoost's leaf value
  f_τ = ½ ln(W_τ⁺/W_τ⁻), the weighted version of (14.28), with the probabilities clipped;
* (B.5) :func:`exponential_reweight`: w_n ← w_n exp{−t_n f_m(x_n)};
* (B.6) :func:`exponential_loss_derivatives`: g_n = −w_n t_n and h_n = w_n t_n², the first
  and second derivatives of w_n exp(−t_n c) at c = 0;
* (B.7) :func:`gentle_newton_step`: Gentle AdaBoost's leaf value −Σ g/Σ h = Σ w t / Σ w.

The estimators are in :mod:`prml14.boosting.real_gentle_estimators`.
"""

from __future__ import annotations

import numpy as np

from .._equations import implements
from .._validation import as_float, check_leaf, check_number
from ._tree_boosting import leaf_sums

__all__ = [
    "half_log_odds_leaf_values",
    "exponential_reweight",
    "exponential_loss_derivatives",
    "gentle_newton_step",
]


@implements("B.4")
def half_log_odds_leaf_values(w_pos, w_neg, proba_clip=0.0):
    """f_τ = ½ ln(p_τ/(1 − p_τ)), p_τ = W_τ⁺/(W_τ⁺ + W_τ⁻): Real AdaBoost's leaf value (B.4).

    W_τ^± is the total weight of the points of class ±1 in leaf τ; p_τ is clipped to
    [``proba_clip``, 1 − ``proba_clip``] first, so that a pure leaf gets a finite value
    ±½ ln{(1 − c)/c} instead of ±∞ (for c >= 2.2e-16: a smaller c rounds 1 − c to 1).

    Parameters
    ----------
    w_pos, w_neg : array-like of shape (n_leaves,)
        W_τ⁺ and W_τ⁻, non-negative with a positive sum per leaf.
    proba_clip : float in [0, 0.5), default=0.0
        The clip c (0: no clipping; pure leaves then give ±inf).

    Returns
    -------
    ndarray of shape (n_leaves,)
        The leaf values f_τ.

    Raises
    ------
    TypeError
        If proba_clip is not a real number.
    ValueError
        Naming the argument, if the weights are not finite, of different shapes, negative or
        with a zero sum in a leaf, or if ``proba_clip`` is outside [0, 0.5).
    """
    w_pos = as_float(w_pos, "w_pos")
    w_neg = as_float(w_neg, "w_neg")
    if w_pos.shape != w_neg.shape:
        raise ValueError(
            f"w_pos and w_neg must have one shape, got {w_pos.shape} and {w_neg.shape}"
        )
    total = w_pos + w_neg
    if np.any(w_pos < 0) or np.any(w_neg < 0) or np.any(~(total > 0)):
        raise ValueError("w_pos and w_neg must be >= 0 with a positive sum in every leaf")
    proba_clip = check_number(proba_clip, "proba_clip", low=0.0, high=0.5, closed="left")
    p = np.clip(w_pos / total, proba_clip, 1.0 - proba_clip)
    with np.errstate(divide="ignore"):
        return 0.5 * (np.log(p) - np.log1p(-p))


@implements("B.5")
def exponential_reweight(log_w, t, f):
    """ln w_n ← ln w_n − t_n f_m(x_n), i.e. w_n ← w_n exp{−t_n f_m(x_n)} (B.5).

    The weights stay those of (14.22), w_n = exp{−t_n F_m(x_n)} up to a common factor.

    Parameters
    ----------
    log_w : array-like of shape (n_samples,)
        ln w_n (−inf for points of weight zero).
    t : array-like of shape (n_samples,)
        Targets in {−1, +1}.
    f : array-like of shape (n_samples,)
        The new tree's outputs f_m(x_n).

    Returns
    -------
    ndarray of shape (n_samples,)
        The new ln w_n, not normalised.

    Raises
    ------
    ValueError
        If log_w, t or f is not a real array or holds NaN, or they are not 1-D arrays of one
        length.
    """
    log_w, t, f = (
        as_float(log_w, "log_w", allow_inf=True),
        as_float(t, "t", allow_inf=True),
        as_float(f, "f", allow_inf=True),
    )
    if not log_w.shape == t.shape == f.shape or log_w.ndim != 1:
        raise ValueError("log_w, t and f must be 1-D arrays of one length")
    return log_w - t * f


@implements("B.6")
def exponential_loss_derivatives(t, w):
    """g_n = −w_n t_n and h_n = w_n t_n²: derivatives of w_n exp(−t_n c) at c = 0 (B.6).

    With w_n = exp{−t_n F(x_n)} they are the derivatives of the exponential error (14.20) of
    F + c with respect to the added value c, at c = 0.

    Parameters
    ----------
    t : array-like of shape (n_samples,)
        Targets in {−1, +1}.
    w : array-like of shape (n_samples,)
        Non-negative weights.

    Returns
    -------
    g : ndarray of shape (n_samples,)
        First derivatives.
    h : ndarray of shape (n_samples,)
        Second derivatives (h_n = w_n, since t_n² = 1).

    Raises
    ------
    ValueError
        Naming the argument, if t and w are not 1-D arrays of one length, a target is not −1 or
        +1, or a weight is negative or not finite.
    """
    t, w = as_float(t, "t", allow_inf=True), as_float(w, "w", non_negative=True)
    if t.shape != w.shape or t.ndim != 1:
        raise ValueError(f"t and w must be 1-D arrays of one length, got {t.shape} and {w.shape}")
    if np.any(np.abs(t) != 1):
        raise ValueError("t must hold targets in {-1, +1}")
    return -w * t, w * t**2


@implements("B.7")
def gentle_newton_step(t, w, leaf=None, n_leaves=None):
    """c = −Σ g_n/Σ h_n = Σ w_n t_n/Σ w_n, one Newton step on the exponential error (B.7).

    Over one region (``leaf=None``) or per leaf of a tree: Gentle AdaBoost's leaf values, the
    weighted mean of the targets.

    Parameters
    ----------
    t : array-like of shape (n_samples,)
        Targets in {−1, +1}.
    w : array-like of shape (n_samples,)
        Non-negative weights w_n = exp{−t_n F(x_n)} (any common factor).
    leaf : array-like of int of shape (n_samples,), default=None
        The leaf of every sample; None: all samples form one region.
    n_leaves : int, default=None
        The number of leaf ids (``leaf.max() + 1`` if None).

    Returns
    -------
    float or ndarray of shape (n_leaves,)
        The Newton step (nan for ids that no sample of positive weight reaches).

    Raises
    ------
    ValueError
        As :func:`exponential_loss_derivatives`, if the weights sum to zero (``leaf=None``), or
        if ``leaf`` is not one non-negative integer id per sample or ``n_leaves`` does not
        exceed every id.
    """
    g, h = exponential_loss_derivatives(t, w)
    if leaf is None:
        if not h.sum() > 0:
            raise ValueError(f"w must have a positive sum (times t²), got {h.sum()}")
        return float(-g.sum() / h.sum())
    leaf, n = check_leaf(leaf, len(g), n_leaves)
    G, H = leaf_sums(leaf, g, n), leaf_sums(leaf, h, n)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(H > 0, -G / H, np.nan)
