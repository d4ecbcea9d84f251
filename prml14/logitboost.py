"""LogitBoost (Friedman, Hastie and Tibshirani, 2000), page B.3: Newton steps on the binomial
(and multinomial) log-likelihood, each fitted by a weighted least-squares tree.

Two classes, t* ∈ {0, 1} and F(x) half the log-odds, p = σ(2F):

* (B.10) :func:`binomial_log_likelihood_derivatives`: ∂ℓ/∂F = 2(t* − p) and
  −∂²ℓ/∂F² = 4p(1 − p) for ℓ = t* ln p + (1 − t*) ln(1 − p);
* (B.11) :func:`logitboost_working_response`: z = (t* − p)/{p(1 − p)}, clipped to
  [−z_max, z_max], and :func:`logitboost_weights`: w = p(1 − p);
* (B.12) :func:`logitboost_newton_step`: the leaf value c_τ = ½ Σ_τ w z/Σ_τ w, one Newton step
  on the log-likelihood restricted to the leaf (an IRLS step, Section 14.5.2).

K classes, p_k = softmax(F)_k: the same working responses and weights per class, one tree per
class, and (B.13) :func:`multiclass_logitboost_step`: f_k ← (K − 1)/K (f_k − (1/K) Σ_l f_l).
"""

from __future__ import annotations

from numbers import Real

import numpy as np
from sklearn.base import _fit_context
from sklearn.utils import check_random_state
from sklearn.utils._param_validation import Interval
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import validate_data

from ._equations import implements
from ._numerics import expit, softmax
from ._tree_boosting import (
    TreeBoosterMixin,
    leaf_sums,
    tree_output,
    weighted_least_squares_tree,
)
from ._validation import as_float, check_sample_weight

__all__ = [
    "binomial_log_likelihood_derivatives",
    "logitboost_working_response",
    "logitboost_weights",
    "logitboost_newton_step",
    "multiclass_logitboost_step",
    "LogitBoostClassifier",
]

#: The smallest Newton weight p(1 − p) used (Friedman, Hastie and Tibshirani's "2 × machine
#: zero"): a saturated p would otherwise give a point weight exactly zero.
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
    """
    t01, p = as_float(t01, "t01", allow_inf=True), as_float(p, "p", allow_inf=True)
    if t01.shape != p.shape:
        raise ValueError(f"t01 and p must have one shape, got {t01.shape} and {p.shape}")
    if np.any((p < 0) | (p > 1)):
        raise ValueError("p must hold probabilities in [0, 1]")
    if not z_max > 0:
        raise ValueError(f"z_max must be > 0, got {z_max!r}")
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
        Naming the argument, if z and w are not 1-D arrays of one length, or a weight is
        negative or not finite.
    """
    z, w = as_float(z, "z", allow_inf=True), as_float(w, "w", non_negative=True)
    if z.shape != w.shape or z.ndim != 1:
        raise ValueError(f"z and w must be 1-D arrays of one length, got {z.shape} and {w.shape}")
    if leaf is None:
        if not w.sum() > 0:
            raise ValueError(f"w must have a positive sum, got {w.sum()}")
        return float(0.5 * np.dot(w, z) / w.sum())
    leaf = np.asarray(leaf)
    n = int(leaf.max()) + 1 if n_leaves is None else n_leaves
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


@implements("B.10", "B.11", "B.12", "B.13")
class LogitBoostClassifier(TreeBoosterMixin):
    """LogitBoost: Newton steps on the log-likelihood, each fitted by a least-squares tree.

    Two classes: round m computes p = σ(2F), the working responses z (B.11) and weights
    w = p(1 − p), grows a least-squares tree on z with weights w, and adds the leaf values
    ½ Σ_τ w z/Σ_τ w (B.12). F(x) estimates half the log-odds (14.28).
    K > 2 classes: p_k = softmax(F)_k, one tree per class on (z_k, w_k), and the update
    (B.13) (Friedman, Hastie and Tibshirani's Algorithm 6); at K = 2 it is the two-class rule.

    Parameters
    ----------
    n_estimators : int, default=50
        The number of rounds M (K trees per round for K > 2).
    max_depth : int, default=1
        The depth of every tree (1: stumps).
    min_samples_leaf : int, default=1
        The fewest samples in a leaf.
    max_features : int or None, default=None
        Features drawn at random at every node (None: all).
    z_max : float > 0, default=4.0
        The clip of the working responses (Friedman et al. recommend 2 to 4; ``np.inf``: none).
    random_state : int, RandomState or None, default=None
        Draws the features when ``max_features`` is set.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        For two classes ``classes_[1]`` is t* = 1.
    estimators_ : list
        Per round a Tree (two classes; leaf values c_τ in ``value[:, 0]``) or a list of K trees
        holding the weighted means of z_k, combined by (B.13).
    n_features_in_ : int
        The number of input features.

    Notes
    -----
    The Newton weights are at least 2 × the smallest positive float, so a saturated
    probability never leaves a tree with no weight; the clip ``z_max`` bounds each leaf value
    by ½ z_max (two classes).
    """

    _parameter_constraints = {
        **TreeBoosterMixin._parameter_constraints,
        "z_max": [Interval(Real, 0.0, None, closed="right")],
    }
    _scale = 1.0

    def __init__(
        self,
        n_estimators=50,
        *,
        max_depth=1,
        min_samples_leaf=1,
        max_features=None,
        z_max=4.0,
        random_state=None,
    ):
        self.n_estimators = n_estimators
        self.max_depth = max_depth
        self.min_samples_leaf = min_samples_leaf
        self.max_features = max_features
        self.z_max = z_max
        self.random_state = random_state

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y, sample_weight=None):
        """Boost ``n_estimators`` rounds on (X, y).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Finite inputs.
        y : array-like of shape (n_samples,)
            Class labels (at least two classes).
        sample_weight : array-like of shape (n_samples,), default=None
            Weights of the points in the log-likelihood (unit if None). Points of zero weight
            are left out.

        Returns
        -------
        self
            The fitted model.
        """
        X, y = validate_data(self, X, y, dtype=np.float64)
        check_classification_targets(y)
        self.classes_, index = np.unique(y, return_inverse=True)
        K = self.classes_.size
        if K < 2:
            raise ValueError(f"y must contain at least two classes, got {K} class")
        s = check_sample_weight(sample_weight, X, dtype=np.float64, max_magnitude=None)
        keep = s > 0  # points of zero weight are left out (they would move thresholds)
        if not keep.all():
            X, index, s = X[keep], index[keep], s[keep]
        s = s / s.sum()
        params = self._tree_params(X.shape[1])
        rng = check_random_state(self.random_state)
        Y = np.eye(K)[index.reshape(-1)]  # one-hot targets t*_k
        self.estimators_ = (
            self._fit_binary(X, Y[:, 1], s, params, rng)
            if K == 2
            else self._fit_multiclass(X, Y, s, params, rng)
        )
        return self

    def _fit_binary(self, X, t01, s, params, rng):
        F, trees = np.zeros(X.shape[0]), []
        for _ in range(self.n_estimators):
            p, _ = _probabilities(F)
            z = logitboost_working_response(t01, p, self.z_max)  # (B.11)
            w = s * logitboost_weights(p)
            tree, leaf = weighted_least_squares_tree(X, z, w, params, rng)
            step = logitboost_newton_step(z, w, leaf, tree.node_count)  # (B.12)
            tree.value = np.where(tree.is_leaf, np.nan_to_num(step), 0.0)[:, None]
            trees.append(tree)
            F = F + tree.value[leaf, 0]
        return trees

    def _fit_multiclass(self, X, Y, s, params, rng):
        F, rounds = np.zeros(Y.shape), []
        for _ in range(self.n_estimators):
            P = softmax(F, axis=1)
            trees, fits = [], []
            for k in range(Y.shape[1]):
                z = logitboost_working_response(Y[:, k], P[:, k], self.z_max)
                w = s * logitboost_weights(P[:, k])
                tree, leaf = weighted_least_squares_tree(X, z, w, params, rng)
                # the weighted mean of z per leaf: twice the two-class step (B.12)
                mean = 2.0 * logitboost_newton_step(z, w, leaf, tree.node_count)
                tree.value = np.where(tree.is_leaf, np.nan_to_num(mean), 0.0)[:, None]
                trees.append(tree)
                fits.append(tree.value[leaf, 0])
            rounds.append(trees)
            F = F + multiclass_logitboost_step(np.column_stack(fits))  # (B.13)
        return rounds

    def _round_output(self, trees, X):
        if isinstance(trees, list):
            return multiclass_logitboost_step(np.column_stack([tree_output(t, X) for t in trees]))
        return tree_output(trees, X)
