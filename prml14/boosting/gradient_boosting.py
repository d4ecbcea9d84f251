"""The losses of gradient boosting (page B.4): gradients, Hessians, starting values and the
per-leaf line search of GBDT.

A loss L(t, f) compares a target t with a raw score f (the additive model's output before any
link: the regression value, the log-odds, K class scores or half the log-odds). Gradient
boosting needs from it

* the constant f_0 minimising Σ_n w_n L(t_n, f) (``init_raw``);
* the pseudo-residuals r_n = −∂L/∂f at the current model, (B.14) (``gradient``, negated);
* the Hessians ∂²L/∂f² (``hessian``) for Newton and second-order trees;
* the per-leaf line search (B.16) (``leaf_values``): once a tree has been grown on the
  pseudo-residuals, the value of leaf j is the constant γ_j minimising Σ_{n ∈ R_j} w_n
  L(t_n, f(x_n) + γ_j).

=====================  ==========================  ===============  ============================
loss                   L(t, f)                     −∂L/∂f           leaf value γ_j (B.16)
=====================  ==========================  ===============  ============================
``squared_error``      ½ (t − f)²                  t − f            mean of the residuals
``absolute_error``     abs(t − f)                  sign(t − f)      median of the residuals
``huber``              Huber's loss, δ (B.17)      clip(t − f, δ)   one step from the median
``log_loss`` (K = 2)   ln(1 + e^f) − t f           t − σ(f)         Newton step Σr / Σp(1 − p)
``log_loss`` (K > 2)   −Σ_k t_k ln softmax_k(f)    t_k − p_k        (K−1)/K · Σr / Σp(1 − p)
``exponential``        exp(−y f), y = 2t − 1       y e^{−y f}       Newton step Σr / Σ abs(r)
=====================  ==========================  ===============  ============================

The line searches of the squared and absolute errors are exact; those of the log-losses and the
exponential loss are one Newton step from γ = 0, as in Friedman (2001) and
scikit-learn. Every function takes t of shape (n_samples,) (class indices for the
classification losses) and F of shape (n_samples, n_outputs).
"""

from __future__ import annotations

import numpy as np
from scipy.optimize import minimize_scalar

from .._equations import implements
from .._numerics import expit, log_expit, logsumexp_last
from .._validation import Axes, as_float, check_number
from .losses import huber_loss, huber_loss_gradient

__all__ = [
    "LOSS_NAMES",
    "make_loss",
    "weighted_quantile",
    "huber_delta",
    "pseudo_residuals",
    "line_search",
    "leaf_line_search",
]

_TINY = 1e-150


def _leaf_sums(values, leaf, n_nodes, w=None):
    """Σ_{n in leaf j} w_n values_n for every node id j (w None: Σ values_n).

    ``np.add.at`` adds in the order of the samples, as ``np.bincount`` does, and faster.
    """
    sums = np.zeros(n_nodes)
    np.add.at(sums, leaf, values if w is None else w * values)
    return sums


def _check_ids(ids, name, n_ids, axes, axis="n_samples"):
    """Integer ids in 0, ..., n_ids − 1, one per sample, as intp (ValueError naming ``name``)."""
    ids = axes.array(ids, name, (axis,))
    if np.any((ids != np.floor(ids)) | (ids < 0) | (ids >= n_ids)):
        raise ValueError(f"{name} must hold integer ids in 0, ..., {n_ids - 1}")
    return ids.astype(np.intp)


def _safe_ratio(num, den):
    """num/den, 0 where abs(den) < 1e-150 (a leaf whose loss cannot be lowered)."""
    small = np.abs(den) < _TINY
    return np.where(small, 0.0, num / np.where(small, 1.0, den))


def weighted_quantile(values, weights, q, groups=None, n_groups=1):
    """The weighted q-quantile (inverted CDF) of ``values``, per group.

    The smallest value v such that the weight of the values <= v is at least q times the total:
    for unit weights and q = ½, the lower median (an exact minimiser of Σ w abs(v − x)).

    Parameters
    ----------
    values, weights : ndarray of shape (n,)
        Values and their non-negative weights.
    q : float in (0, 1]
        The quantile level.
    groups : ndarray of int of shape (n,) or None, default=None
        The group of every value (None: one group).
    n_groups : int, default=1
        The number of groups (ids 0, ..., n_groups − 1); an empty group gets 0.

    Returns
    -------
    ndarray of shape (n_groups,)
        The quantile of every group.

    Raises
    ------
    TypeError
        If ``q`` is not a real number or ``n_groups`` not an integer.
    ValueError
        Naming the argument: ``values`` with NaN, ``weights`` negative or not finite, arrays of
        different lengths or empty, ``q`` outside (0, 1], ``n_groups`` < 1, or group ids
        outside 0, ..., n_groups − 1.
    """
    axes = Axes()
    values = axes.array(values, "values", ("n",), allow_inf=True)
    weights = axes.array(weights, "weights", ("n",), non_negative=True)
    q = check_number(q, "q", low=0.0, high=1.0, closed="right")
    n_groups = check_number(n_groups, "n_groups", low=1, integer=True)
    if groups is not None:
        groups = _check_ids(groups, "groups", n_groups, axes, "n")
    return _weighted_quantile(values, weights, q, groups, n_groups)


def _weighted_quantile(values, weights, q, groups=None, n_groups=1):
    """:func:`weighted_quantile` without the checks (float arrays, for the losses)."""
    if groups is None:
        groups = np.zeros(values.size, dtype=np.intp)
    order = np.lexsort((values, groups))
    v, w, g = values[order], weights[order], groups[order]
    cum = np.cumsum(w)
    total = np.bincount(g, weights=w, minlength=n_groups)
    before = np.concatenate([[0.0], np.cumsum(total)[:-1]])
    end = np.cumsum(np.bincount(g, minlength=n_groups))
    # the first position of the group whose cumulative weight reaches q × the group's total
    pos = np.searchsorted(cum, before + q * total * (1 - 1e-12), side="left")
    pos = np.minimum(pos, end - 1)
    out = np.where(end > np.concatenate([[0], end[:-1]]), v[np.maximum(pos, 0)], 0.0)
    return out


@implements("B.17")
def huber_delta(residuals, sample_weight, alpha):
    """Huber's δ: the weighted α-quantile of the absolute residuals abs(t − f) (B.17).

    Parameters
    ----------
    residuals : ndarray of shape (n_samples,)
        t − f at the current model.
    sample_weight : ndarray of shape (n_samples,)
        Non-negative weights.
    alpha : float in (0, 1)
        The share of residuals treated quadratically.

    Returns
    -------
    float
        δ.

    Raises
    ------
    TypeError
        If alpha is not a real number.
    ValueError
        Naming the argument: ``residuals`` with NaN, ``sample_weight`` negative or not finite,
        arrays of different lengths or empty, ``alpha`` outside (0, 1).
    """
    axes = Axes()
    residuals = axes.array(residuals, "residuals", ("n_samples",), allow_inf=True)
    w = axes.array(sample_weight, "sample_weight", ("n_samples",), non_negative=True)
    alpha = check_number(alpha, "alpha", low=0.0, high=1.0, closed="neither")
    return _huber_delta(residuals, w, alpha)


def _huber_delta(residuals, sample_weight, alpha):
    """:func:`huber_delta` without the checks."""
    return float(_weighted_quantile(np.abs(residuals), sample_weight, alpha)[0])


class _Loss:
    """Interface (see the module docstring); ``n_outputs`` raw scores per sample."""

    n_outputs = 1
    has_hessian = True
    is_classification = False

    def __call__(self, t, F, sample_weight):
        """The weighted mean loss Σ w L(t, f) / Σ w.

        Parameters
        ----------
        t : ndarray of shape (n_samples,)
            Targets.
        F : ndarray of shape (n_samples, n_outputs)
            Raw scores.
        sample_weight : ndarray of shape (n_samples,)
            Weights.

        Returns
        -------
        float
            The weighted mean loss.
        """
        return float(np.average(self.pointwise(t, F), weights=sample_weight))

    def hessian(self, t, F, sample_weight):
        """The second derivatives ∂²L/∂f² (not defined for this loss).

        Parameters
        ----------
        t : ndarray of shape (n_samples,)
            Targets.
        F : ndarray of shape (n_samples, n_outputs)
            Raw scores.
        sample_weight : ndarray of shape (n_samples,)
            Weights.

        Returns
        -------
        ndarray of shape (n_samples, n_outputs)
            The Hessians.
        """
        raise ValueError(f"loss {self.name!r} has no useful second derivative")


class _SquaredErrorLoss(_Loss):
    """½ (t − f)²: pseudo-residuals are the residuals, leaf values their means (L2Boost)."""

    name = "squared_error"

    def pointwise(self, t, F):
        """½ (t − f)² of every sample."""
        return 0.5 * (t - F[:, 0]) ** 2

    def init_raw(self, t, sample_weight):
        """The weighted mean of t."""
        return np.array([np.average(t, weights=sample_weight)])

    def gradient(self, t, F, sample_weight):
        """f − t."""
        return (F[:, 0] - t)[:, None]

    def hessian(self, t, F, sample_weight):
        """1."""
        return np.ones((t.size, 1))

    def leaf_values(self, t, F, leaf, n_nodes, sample_weight, k=0):
        """The weighted mean residual of each leaf."""
        num = _leaf_sums(t - F[:, 0], leaf, n_nodes, sample_weight)
        return _safe_ratio(num, _leaf_sums(sample_weight, leaf, n_nodes))


class _AbsoluteErrorLoss(_Loss):
    """abs(t − f): pseudo-residuals are signs, leaf values the weighted medians of t − f."""

    name = "absolute_error"
    has_hessian = False

    def pointwise(self, t, F):
        """abs(t − f) of every sample."""
        return np.abs(t - F[:, 0])

    def init_raw(self, t, sample_weight):
        """The weighted median of t."""
        return _weighted_quantile(t, sample_weight, 0.5)

    def gradient(self, t, F, sample_weight):
        """−sign(t − f)."""
        return -np.sign(t - F[:, 0])[:, None]

    def leaf_values(self, t, F, leaf, n_nodes, sample_weight, k=0):
        """The weighted median of t − f in each leaf."""
        return _weighted_quantile(t - F[:, 0], sample_weight, 0.5, leaf, n_nodes)


class _HuberLoss(_Loss):
    """Huber's loss (B.17) with δ re-estimated each round as the α-quantile of abs(t − f).

    Parameters
    ----------
    alpha : float in (0, 1), default=0.9
        The share of residuals inside the quadratic zone.
    """

    name = "huber"
    has_hessian = False

    def __init__(self, alpha=0.9):
        self.alpha = alpha

    def pointwise(self, t, F, delta=None):
        """Huber's loss of every sample (δ from the residuals when not given)."""
        r = t - F[:, 0]
        if delta is None:
            delta = _huber_delta(r, np.ones_like(r), self.alpha)
        return huber_loss(r, max(delta, _TINY))

    def init_raw(self, t, sample_weight):
        """The weighted median of t."""
        return _weighted_quantile(t, sample_weight, 0.5)

    def gradient(self, t, F, sample_weight):
        """−clip(t − f, −δ, δ), δ the weighted α-quantile of abs(t − f)."""
        r = t - F[:, 0]
        delta = max(_huber_delta(r, sample_weight, self.alpha), _TINY)
        return -huber_loss_gradient(r, delta)[:, None]

    def leaf_values(self, t, F, leaf, n_nodes, sample_weight, k=0):
        """Median m_j of t − f in leaf j plus the mean of clip(t − f − m_j, −δ, δ)."""
        r = t - F[:, 0]
        delta = max(_huber_delta(r, sample_weight, self.alpha), _TINY)
        med = _weighted_quantile(r, sample_weight, 0.5, leaf, n_nodes)
        step = _leaf_sums(np.clip(r - med[leaf], -delta, delta), leaf, n_nodes, sample_weight)
        return med + _safe_ratio(step, _leaf_sums(sample_weight, leaf, n_nodes))


class _LogLoss(_Loss):
    """The binomial log-loss ln(1 + e^f) − t f, t ∈ {0, 1}, f the log-odds."""

    name = "log_loss"
    is_classification = True

    def pointwise(self, t, F):
        """−t ln σ(f) − (1 − t) ln σ(−f) of every sample."""
        f = F[:, 0]
        return -(t * log_expit(f) + (1 - t) * log_expit(-f))

    def init_raw(self, t, sample_weight):
        """The log-odds of the weighted share of t = 1 (clipped away from 0 and 1)."""
        eps = np.finfo(float).eps
        p = np.clip(np.average(t, weights=sample_weight), eps, 1 - eps)
        return np.array([np.log(p) - np.log1p(-p)])

    def gradient(self, t, F, sample_weight):
        """σ(f) − t."""
        return (expit(F[:, 0]) - t)[:, None]

    def hessian(self, t, F, sample_weight):
        """σ(f)(1 − σ(f))."""
        p = expit(F[:, 0])
        return (p * (1 - p))[:, None]

    def leaf_values(self, t, F, leaf, n_nodes, sample_weight, k=0):
        """One Newton step: Σ w (t − p) / Σ w p (1 − p) per leaf."""
        p = expit(F[:, 0])
        num = _leaf_sums(t - p, leaf, n_nodes, sample_weight)
        return _safe_ratio(num, _leaf_sums(p * (1 - p), leaf, n_nodes, sample_weight))


class _MultinomialLogLoss(_Loss):
    """The multinomial log-loss with K raw scores, p = softmax(f), one tree per class a round.

    Parameters
    ----------
    n_classes : int >= 3
        K.
    """

    name = "log_loss"
    is_classification = True

    def __init__(self, n_classes):
        self.n_classes = self.n_outputs = n_classes

    def _probabilities(self, F):
        return np.exp(F - logsumexp_last(F)[:, None])

    def pointwise(self, t, F):
        """ln Σ_k e^{f_k} − f_t of every sample."""
        return logsumexp_last(F) - F[np.arange(t.size), t.astype(np.intp)]

    def init_raw(self, t, sample_weight):
        """ln of the weighted class shares minus their mean (scikit-learn's symmetric link)."""
        eps = np.finfo(float).eps
        p = np.bincount(t.astype(np.intp), weights=sample_weight, minlength=self.n_classes)
        logp = np.log(np.clip(p / p.sum(), eps, 1 - eps))
        return logp - logp.mean()

    def gradient(self, t, F, sample_weight):
        """p_k − t_k."""
        P = self._probabilities(F)
        P[np.arange(t.size), t.astype(np.intp)] -= 1.0
        return P

    def hessian(self, t, F, sample_weight):
        """The diagonal p_k (1 − p_k)."""
        P = self._probabilities(F)
        return P * (1 - P)

    def leaf_values(self, t, F, leaf, n_nodes, sample_weight, k=0):
        """(K − 1)/K · Σ w (t_k − p_k) / Σ w p_k (1 − p_k) per leaf, for class k."""
        p = self._probabilities(F)[:, k]
        r = (t == k) - p
        K = self.n_classes
        num = (K - 1) / K * _leaf_sums(r, leaf, n_nodes, sample_weight)
        return _safe_ratio(num, _leaf_sums(p * (1 - p), leaf, n_nodes, sample_weight))


class _ExponentialLoss(_Loss):
    """The exponential loss exp(−y f) with y = 2t − 1: AdaBoost's (14.20), f half the log-odds."""

    name = "exponential"
    is_classification = True

    def pointwise(self, t, F):
        """exp(−y f) of every sample."""
        return np.exp(-(2 * t - 1) * F[:, 0])

    def init_raw(self, t, sample_weight):
        """Half the log-odds of the weighted share of t = 1, the minimiser (14.28)."""
        eps = np.finfo(float).eps
        p = np.clip(np.average(t, weights=sample_weight), eps, 1 - eps)
        return np.array([0.5 * (np.log(p) - np.log1p(-p))])

    def gradient(self, t, F, sample_weight):
        """−y exp(−y f)."""
        y = 2 * t - 1
        return (-y * np.exp(-y * F[:, 0]))[:, None]

    def hessian(self, t, F, sample_weight):
        """exp(−y f)."""
        return np.exp(-(2 * t - 1) * F[:, 0])[:, None]

    def leaf_values(self, t, F, leaf, n_nodes, sample_weight, k=0):
        """One Newton step: Σ w y e^{−y f} / Σ w e^{−y f} per leaf."""
        y = 2 * t - 1
        e = np.exp(-y * F[:, 0])
        num = _leaf_sums(y * e, leaf, n_nodes, sample_weight)
        return _safe_ratio(num, _leaf_sums(e, leaf, n_nodes, sample_weight))


#: the regression and the classification losses :func:`make_loss` knows
LOSS_NAMES = {
    "regression": ("squared_error", "absolute_error", "huber"),
    "classification": ("log_loss", "exponential"),
}


def make_loss(name, *, n_classes=2, alpha=0.9):
    """The loss object of gradient boosting called ``name`` (see the module docstring).

    Parameters
    ----------
    name : {"squared_error", "absolute_error", "huber", "log_loss", "exponential"}
        The loss.
    n_classes : int >= 2, default=2
        The number of classes (``log_loss`` with more than two classes is the multinomial
        log-loss with one raw score per class; ``exponential`` needs two).
    alpha : float in (0, 1), default=0.9
        Huber's quantile level (B.17).

    Returns
    -------
    object
        The loss, with ``pointwise``, ``init_raw``, ``gradient``, ``hessian`` and
        ``leaf_values`` methods, ``n_outputs`` raw scores per sample.

    Raises
    ------
    TypeError
        If n_classes is not an integer, or alpha is not a real number for "huber".
    ValueError
        If name is not one of the five losses, n_classes < 2, alpha is not in (0, 1) for
        "huber", or n_classes is not 2 for "exponential".
    """
    check_number(n_classes, "n_classes", low=2, integer=True)
    if name == "squared_error":
        return _SquaredErrorLoss()
    if name == "absolute_error":
        return _AbsoluteErrorLoss()
    if name == "huber":
        check_number(alpha, "alpha", low=0.0, high=1.0, closed="neither")
        return _HuberLoss(alpha)
    if name == "log_loss":
        return _LogLoss() if n_classes == 2 else _MultinomialLogLoss(n_classes)
    if name == "exponential":
        if n_classes != 2:
            raise ValueError(f"loss='exponential' needs two classes, got {n_classes}")
        return _ExponentialLoss()
    raise ValueError(
        "name must be 'squared_error', 'absolute_error', 'huber', 'log_loss' or "
        f"'exponential', got {name!r}"
    )


def _check_loss_call(loss, t, F, sample_weight, *, one_output=False, magnitude=None):
    """t, F as (n_samples, n_outputs) (1-D if ``one_output``) and the weights, checked."""
    n_outputs = getattr(loss, "n_outputs", None)
    if n_outputs is None:
        raise TypeError(f"loss must be a loss object of make_loss, got {loss!r}")
    axes = Axes(n_outputs=n_outputs)
    t = axes.array(t, "t", ("n_samples",), allow_inf=True, max_magnitude=magnitude)
    F = as_float(F, "F", allow_inf=True)
    if one_output or F.ndim != 2:
        F = axes.array(F, "F", ("n_samples",), allow_inf=True, max_magnitude=magnitude)[:, None]
    else:
        F = axes.array(F, "F", ("n_samples", "n_outputs"), allow_inf=True)
    if F.shape[1] != n_outputs:  # a 1-D F for a loss with several outputs
        raise ValueError(f"F must have shape (n_samples, {n_outputs}) for loss {loss.name!r}")
    if sample_weight is None:
        w = np.ones(t.size)
    else:
        w = axes.array(sample_weight, "sample_weight", ("n_samples",), non_negative=True)
    return t, F, w


@implements("B.14")
def pseudo_residuals(loss, t, F, sample_weight=None):
    """The pseudo-residuals r_n = −∂L(t_n, f)/∂f at f = F_n, (B.14).

    Parameters
    ----------
    loss : loss object
        A loss of :func:`make_loss`, e.g. ``make_loss("squared_error")``.
    t : array-like of shape (n_samples,)
        Targets (class indices for the classification losses).
    F : array-like of shape (n_samples,) or (n_samples, n_outputs)
        The current raw scores f_{m−1}(x_n).
    sample_weight : array-like of shape (n_samples,) or None, default=None
        Weights (they only matter for Huber's δ).

    Returns
    -------
    ndarray of shape (n_samples, n_outputs)
        The negative gradient.

    Raises
    ------
    TypeError
        If loss is not a loss object of ``make_loss``.
    ValueError
        Naming the argument, if t, F or sample_weight is empty, of another length than t or of
        the wrong shape, holds NaN, or if a weight is negative or infinite.
    """
    t, F, w = _check_loss_call(loss, t, F, sample_weight)
    return -loss.gradient(t, F, w)


@implements("B.15")
def line_search(loss, t, F, h, sample_weight=None):
    """The step ρ minimising Σ_n w_n L(t_n, F_n + ρ h_n), (B.15) (Brent's method).

    Parameters
    ----------
    loss : loss object
        A one-output loss of :func:`make_loss`.
    t : array-like of shape (n_samples,)
        Targets.
    F : array-like of shape (n_samples,)
        Current raw scores.
    h : array-like of shape (n_samples,)
        The new base learner's outputs (the search direction).
    sample_weight : array-like of shape (n_samples,) or None, default=None
        Weights.

    Returns
    -------
    float
        ρ.

    Raises
    ------
    TypeError
        If loss is not a loss object of ``make_loss``.
    ValueError
        Naming the argument, if t, F, h or sample_weight is empty, not 1-D or of another length
        than t, t or F has entries beyond 1e150 in magnitude (the loss would overflow: rescale
        them), h is not finite, or the weights are negative, infinite or all zero.
    """
    t, F, w = _check_loss_call(loss, t, F, sample_weight, one_output=True, magnitude=1e150)
    h = Axes(n_samples=t.size).array(h, "h", ("n_samples",))
    if not w.sum() > 0:
        raise ValueError(f"sample_weight must have a positive sum, got {w.sum()}")
    return _line_search(loss, t, F[:, 0], h, w)


def _line_search(loss, t, F, h, w):
    """:func:`line_search` on checked 1-D float arrays."""

    def objective(rho):
        return loss(t, (F + rho * h)[:, None], w)

    scale = max(float(np.max(np.abs(h))), _TINY)
    res = minimize_scalar(objective, bracket=(-1.0 / scale, 1.0 / scale), tol=1e-12)
    return float(res.x)


@implements("B.16")
def leaf_line_search(loss, t, F, leaf, n_nodes, sample_weight=None, k=0):
    """GBDT's per-leaf line search (B.16): γ_j minimising Σ_{n ∈ R_j} w_n L(t_n, f_n + γ_j).

    Parameters
    ----------
    loss : loss object
        A loss of :func:`make_loss`.
    t : array-like of shape (n_samples,)
        Targets.
    F : array-like of shape (n_samples,) or (n_samples, n_outputs)
        Current raw scores.
    leaf : array-like of int of shape (n_samples,)
        The node id of every sample's leaf.
    n_nodes : int
        The number of nodes of the tree (ids 0, ..., n_nodes − 1).
    sample_weight : array-like of shape (n_samples,) or None, default=None
        Weights.
    k : int, default=0
        The class whose score the tree changes (multinomial loss).

    Returns
    -------
    ndarray of shape (n_nodes,)
        γ_j for every node id (0 for nodes without samples).

    Raises
    ------
    ValueError
        Naming the argument, if t, F, leaf or sample_weight is empty, of another length than t
        or of the wrong shape, holds NaN, if a leaf id is not an integer in 0, ..., n_nodes − 1,
        if a weight is negative or infinite, or if k is not a score of the loss.
    TypeError
        If n_nodes or k is not an integer.
    """
    t, F, w = _check_loss_call(loss, t, F, sample_weight)
    n_nodes = check_number(n_nodes, "n_nodes", low=1, integer=True)
    k = check_number(k, "k", low=0, high=F.shape[1] - 1, integer=True)
    leaf = _check_ids(leaf, "leaf", n_nodes, Axes(n_samples=t.size))
    return loss.leaf_values(t, F, leaf, n_nodes, w, k)
