"""LogitBoost (Friedman, Hastie and Tibshirani, 2000), page B.3: the estimator.

:class:`LogitBoostClassifier` fits one weighted least-squares tree per round (per class for K
classes) to the working responses of :mod:`prml14.boosting.logitboost` and sets its leaves to
the Newton steps (B.12)-(B.13).
"""

from __future__ import annotations

from numbers import Real

import numpy as np
from sklearn.base import _fit_context
from sklearn.utils import check_random_state
from sklearn.utils._param_validation import Interval
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import validate_data

from .._equations import implements
from .._numerics import softmax
from .._validation import check_sample_weight
from ..trees.exact import sort_features
from ._tree_boosting import TreeBoosterMixin, tree_output, weighted_least_squares_tree
from .logitboost import (
    _probabilities,
    logitboost_newton_step,
    logitboost_weights,
    logitboost_working_response,
    multiclass_logitboost_step,
)

__all__ = [
    "LogitBoostClassifier",
]


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
    max_features : int, float, {"sqrt", "log2"} or None, default=None
        Features drawn at random at every node: a number, a fraction of them, their square
        root or log2 (None: all), as for :class:`~prml14.trees.DecisionTreeRegressor`.
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

        Raises
        ------
        ValueError
            If X is empty, not 2-D, not numeric, complex, or holds NaN or ±inf; y has fewer than
            two classes; sample_weight is negative, NaN, all zero or not one per sample; or a
            hyper-parameter is outside its declared constraints (scikit-learn's
            InvalidParameterError, which is also a TypeError).
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
        features = sort_features(X)  # once for all rounds
        self.estimators_ = (
            self._fit_binary(X, features, Y[:, 1], s, params, rng)
            if K == 2
            else self._fit_multiclass(X, features, Y, s, params, rng)
        )
        return self

    def _fit_binary(self, X, features, t01, s, params, rng):
        F, trees = np.zeros(X.shape[0]), []
        for _ in range(self.n_estimators):
            p, _ = _probabilities(F)
            z = logitboost_working_response(t01, p, self.z_max)  # (B.11)
            w = s * logitboost_weights(p)
            tree, leaf = weighted_least_squares_tree(X, features, z, w, params, rng)
            step = logitboost_newton_step(z, w, leaf, tree.node_count)  # (B.12)
            tree.value = np.where(tree.is_leaf, np.nan_to_num(step), 0.0)[:, None]
            trees.append(tree)
            F = F + tree.value[leaf, 0]
        return trees

    def _fit_multiclass(self, X, features, Y, s, params, rng):
        F, rounds = np.zeros(Y.shape), []
        for _ in range(self.n_estimators):
            P = softmax(F, axis=1)
            trees, fits = [], []
            for k in range(Y.shape[1]):
                z = logitboost_working_response(Y[:, k], P[:, k], self.z_max)
                w = s * logitboost_weights(P[:, k])
                tree, leaf = weighted_least_squares_tree(X, features, z, w, params, rng)
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
