"""Node impurities of Section 14.4, equations (14.29), (14.30), (14.32), (14.33), and the
second-order leaf value and split gain.

The functional core holds the quantities the text defines:

* :func:`leaf_value` — the optimal constant in a region for the sum-of-squares error, the
  (weighted) mean of its targets, equation (14.29);
* :func:`sum_of_squares` — the residual sum of squares of a region, equation (14.30);
* :func:`cross_entropy_impurity` — equation (14.32), in nats;
* :func:`gini_impurity` — equation (14.33);
* :func:`misclassification_impurity` — the misclassification rate 1 − max_k p_τk;
* :func:`second_order_leaf_value` and :func:`second_order_split_gain` — the leaf value
  −G/(H + λ) and the split gain of a second-order (gradient/Hessian, XGBoost-style) tree.

The criteria of :mod:`prml14.trees.criteria` compute the node impurities of a growing tree
with these functions (or, for (14.30), with the same formula from sums over nodes).
"""

from __future__ import annotations

import numpy as np

from .._equations import implements
from .._validation import as_float, check_magnitude, check_number

__all__ = [
    "leaf_value",
    "sum_of_squares",
    "cross_entropy_impurity",
    "gini_impurity",
    "misclassification_impurity",
    "second_order_leaf_value",
    "second_order_split_gain",
]


def _weights(t, sample_weight):
    if sample_weight is None:
        return np.ones(len(t))
    w = as_float(sample_weight, "sample_weight")
    if w.shape != t.shape:
        raise ValueError(f"sample_weight must have shape {t.shape}, got {w.shape}")
    if np.any(w < 0) or not np.all(np.isfinite(w)):
        raise ValueError("sample_weight must be finite and non-negative")
    return w


@implements("14.29")
def leaf_value(t, sample_weight=None):
    """The constant y_τ that minimises the sum-of-squares error in a region, equation (14.29).

    y_τ = Σ_n w_n t_n / Σ_n w_n over the training points in the region R_τ (the plain mean
    (1/N_τ) Σ t_n for unit weights).

    Parameters
    ----------
    t : array-like of shape (n_samples,)
        Targets of the points that fall in the region.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights (unit weights if None).

    Returns
    -------
    float
        y_τ, the weighted mean of the targets.

    Raises
    ------
    ValueError
        If t is not a non-empty finite real 1-D array, or sample_weight is not finite and
        non-negative with a positive sum and one entry per target.
    """
    t = as_float(t, "t")
    if t.ndim != 1 or t.size == 0:
        raise ValueError(f"t must be a non-empty 1-D array, got shape {t.shape}")
    w = _weights(t, sample_weight)
    if w.sum() <= 0:
        raise ValueError(f"sample_weight must have a positive sum, got {w.sum()}")
    return float(np.dot(w, t) / w.sum())


def _sum_of_squares_from_sums(W, S, SS):
    """Σ w (t − S/W)² from the sums W = Σ w, S = Σ w t, SS = Σ w t² (vectorised over nodes)."""
    return SS - S * (S / W)


@implements("14.30")
def sum_of_squares(t, sample_weight=None):
    """The residual sum of squares of a region, Q_τ(T) = Σ_n w_n (t_n − y_τ)², equation (14.30).

    Computed from the sums Σw, Σwt, Σwt² of the targets centred at y_τ (the same formula gives
    the node impurities while a tree grows, from the sums of its nodes).

    Parameters
    ----------
    t : array-like of shape (n_samples,)
        Targets of the points that fall in the region.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights (unit weights if None).

    Returns
    -------
    float
        Q_τ, with y_τ the weighted mean (14.29).

    Raises
    ------
    ValueError
        If a target exceeds 1e150 in magnitude (its square would overflow): rescale t.
    """
    t = as_float(t, "t")
    check_magnitude(t, "t")
    w = _weights(t, sample_weight)
    d = t - leaf_value(t, w)
    wd = w * d
    return float(_sum_of_squares_from_sums(w.sum(), wd.sum(), np.dot(wd, d)))


def _xlogx(a):
    """a ln a elementwise, with 0 ln 0 = 0."""
    positive = a > 0
    return np.where(positive, a * np.log(np.where(positive, a, 1.0)), 0.0)


def _check_proportions(p):
    p = as_float(p, "p")
    if p.ndim == 0:
        raise ValueError("p must have at least one axis (the K classes)")
    if np.any(p < 0) or not np.allclose(p.sum(axis=-1), 1.0, rtol=0, atol=1e-9):
        raise ValueError(
            "p must be non-negative and sum to one over the last axis (the K classes)"
        )
    return p


@implements("14.32")
def cross_entropy_impurity(p):
    """Cross-entropy (entropy) impurity Q_τ = −Σ_k p_τk ln p_τk, equation (14.32), in nats.

    0 ln 0 is taken as 0. scikit-learn's ``criterion="entropy"`` uses log₂: it is this value
    divided by ln 2.

    Parameters
    ----------
    p : array-like of shape (..., n_classes)
        Class proportions p_τk in the region(s); each row sums to one.

    Returns
    -------
    ndarray of shape (...)
        Q_τ of every region, in nats.

    Raises
    ------
    ValueError
        If p is not a finite real array that is non-negative and sums to one over its last axis.
    """
    return _entropy(_check_proportions(p))


def _entropy(p):
    """(14.32) of checked proportions (the criteria call it on every level of a tree)."""
    return -_xlogx(p).sum(axis=-1)


@implements("14.33")
def gini_impurity(p):
    """Gini index Q_τ = Σ_k p_τk (1 − p_τk) = 1 − Σ_k p_τk², equation (14.33).

    Parameters
    ----------
    p : array-like of shape (..., n_classes)
        Class proportions p_τk in the region(s); each row sums to one.

    Returns
    -------
    ndarray of shape (...)
        Q_τ of every region.

    Raises
    ------
    ValueError
        If p is not a finite real array that is non-negative and sums to one over its last axis.
    """
    return _gini(_check_proportions(p))


def _gini(p):
    """(14.33) of checked proportions (the criteria call it on every level of a tree)."""
    return np.sum(p * (1.0 - p), axis=-1)


def misclassification_impurity(p):
    """Misclassification rate of a region that predicts its majority class: 1 − max_k p_τk.

    Parameters
    ----------
    p : array-like of shape (..., n_classes)
        Class proportions p_τk in the region(s); each row sums to one.

    Returns
    -------
    ndarray of shape (...)
        The misclassification rate of every region.

    Raises
    ------
    ValueError
        If p is not a finite real array that is non-negative and sums to one over its last axis.
    """
    return _misclassification(_check_proportions(p))


def _misclassification(p):
    """1 − max_k p_k of checked proportions (the criteria call it on every level)."""
    return 1.0 - p.max(axis=-1)


def _second_order_leaf_value(G, H, reg_lambda):
    """−G/(H + λ), unchecked (the criterion calls it on every level of a growing tree)."""
    return -G / (H + reg_lambda)


def _check_hessians(H, name, reg_lambda):
    """H as floats, non-negative, with H + λ > 0 (else the leaf objective has no minimum)."""
    H = as_float(H, name, non_negative=True)
    if np.any(H + reg_lambda <= 0):
        raise ValueError(
            f"{name} + reg_lambda must be positive: a leaf of zero Hessian has no finite "
            "optimal value (set reg_lambda > 0)"
        )
    return H


@implements("B.20")
def second_order_leaf_value(G, H, reg_lambda=0.0):
    """The leaf value v = −G / (H + λ) that minimises G v + ½ (H + λ) v².

    G = Σ g_n and H = Σ h_n are the sums of the first and second derivatives of the loss over
    the leaf's points; the minimum of the second-order objective is −½ G² / (H + λ).

    Parameters
    ----------
    G, H : array-like
        Sums of gradients and of Hessians per leaf (broadcast together).
    reg_lambda : float >= 0, default=0.0
        The L2 penalty λ on the leaf values.

    Returns
    -------
    ndarray
        The optimal leaf values.

    Raises
    ------
    TypeError
        If ``reg_lambda`` is not a real number.
    ValueError
        If ``reg_lambda`` is negative or not finite, G or H is not finite, H is negative,
        H + reg_lambda is zero somewhere, or G and H do not broadcast.
    """
    reg_lambda = check_number(reg_lambda, "reg_lambda", low=0.0)
    G = as_float(G, "G")
    H = _check_hessians(H, "H", reg_lambda)
    _check_broadcast(G=G, H=H)
    return _second_order_leaf_value(G, H, reg_lambda)


def _check_broadcast(**arrays):
    """Refuse arrays that do not broadcast together, naming them."""
    try:
        np.broadcast_shapes(*(a.shape for a in arrays.values()))
    except ValueError:
        shapes = ", ".join(f"{name} {a.shape}" for name, a in arrays.items())
        raise ValueError(f"{' and '.join(arrays)} must broadcast together, got {shapes}") from None


@implements("B.21")
def second_order_split_gain(G_left, H_left, G_right, H_right, reg_lambda=0.0, gamma=0.0):
    """Decrease of the second-order objective when a leaf is cut in two, minus γ.

    gain = ½ [G_L²/(H_L + λ) + G_R²/(H_R + λ) − G²/(H + λ)] − γ with G = G_L + G_R and
    H = H_L + H_R: the two children's minima −½ G²/(H + λ) replace the parent's, and the one
    extra leaf costs γ.

    Parameters
    ----------
    G_left, H_left, G_right, H_right : array-like
        Sums of gradients and Hessians on each side of the cut (broadcast together).
    reg_lambda : float >= 0, default=0.0
        The L2 penalty λ on the leaf values.
    gamma : float >= 0, default=0.0
        The cost γ of one more leaf.

    Returns
    -------
    ndarray
        The gains (positive: the cut lowers the regularised objective).

    Raises
    ------
    TypeError
        If ``reg_lambda`` or ``gamma`` is not a real number.
    ValueError
        If ``reg_lambda`` or ``gamma`` is negative or not finite, a sum is not finite, a Hessian
        sum is negative or zero with ``reg_lambda = 0``, a gradient sum exceeds 1e150 in
        magnitude (its square would overflow: rescale the loss), or the arrays do not broadcast
        together.
    """
    lam = check_number(reg_lambda, "reg_lambda", low=0.0)
    gamma = check_number(gamma, "gamma", low=0.0)
    GL, GR = as_float(G_left, "G_left"), as_float(G_right, "G_right")
    check_magnitude(GL, "G_left")
    check_magnitude(GR, "G_right")
    HL, HR = _check_hessians(H_left, "H_left", lam), _check_hessians(H_right, "H_right", lam)
    _check_broadcast(G_left=GL, H_left=HL, G_right=GR, H_right=HR)
    G, H = GL + GR, HL + HR
    return 0.5 * (GL * GL / (HL + lam) + GR * GR / (HR + lam) - G * G / (H + lam)) - gamma
