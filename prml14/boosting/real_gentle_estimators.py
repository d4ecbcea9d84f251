"""Real AdaBoost and Gentle AdaBoost (Friedman, Hastie and Tibshirani, 2000), page B.2: the
estimators.

:class:`RealAdaBoostClassifier` and :class:`GentleAdaBoostClassifier` grow each tree through
:func:`prml14.trees.growing.grow_tree` (weighted least squares) and then set its leaf values with
the core functions of :mod:`prml14.boosting.real_gentle`, (B.4)-(B.7).
"""

from __future__ import annotations

from numbers import Real

import numpy as np
from sklearn.base import _fit_context
from sklearn.utils import check_random_state
from sklearn.utils._param_validation import Interval
from sklearn.utils.validation import validate_data

from .._equations import implements
from .._validation import binary_targets, check_sample_weight
from ..trees.exact import sort_features
from ._tree_boosting import TreeBoosterMixin, leaf_sums, weighted_least_squares_tree
from .adaboost import normalise_log_weights
from .real_gentle import exponential_reweight, gentle_newton_step, half_log_odds_leaf_values

__all__ = [
    "RealAdaBoostClassifier",
    "GentleAdaBoostClassifier",
]


_EPS = float(np.finfo(float).eps)


class _ExponentialBooster(TreeBoosterMixin):
    """The loop shared by Real and Gentle AdaBoost; subclasses define ``_leaf_values``."""

    _scale = 1.0

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y, sample_weight=None):
        """Boost ``n_estimators`` trees on (X, y).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Finite inputs.
        y : array-like of shape (n_samples,)
            Exactly two class labels.
        sample_weight : array-like of shape (n_samples,), default=None
            Initial weights (uniform if None). Points of zero weight are left out.

        Returns
        -------
        self
            The fitted model.

        Raises
        ------
        ValueError
            If X is empty, not 2-D, not numeric, complex, or holds NaN or ±inf; y does not have
            exactly two classes; sample_weight is negative, NaN, all zero or not one per sample; or
            a hyper-parameter is outside its declared constraints (scikit-learn's
            InvalidParameterError, which is also a TypeError).
        """
        X, y = validate_data(self, X, y, dtype=np.float64)
        self.classes_, t = binary_targets(y)
        w = check_sample_weight(sample_weight, X, dtype=np.float64, max_magnitude=None)
        # points of zero weight never count, and (B.5) keeps them at zero: drop them, so that
        # they do not move the trees' midpoint thresholds either
        keep = w > 0
        if not keep.all():
            X, t, w = X[keep], t[keep], w[keep]
        w, log_w = normalise_log_weights(np.log(w))
        params = self._tree_params(X.shape[1])
        rng = check_random_state(self.random_state)
        features = sort_features(X)  # once for all rounds
        trees = []
        for _ in range(self.n_estimators):
            tree, leaf = weighted_least_squares_tree(
                X, features, self._tree_target(t), w, params, rng
            )
            leaves = np.flatnonzero(tree.is_leaf)
            values = np.zeros(tree.node_count)
            values[leaves] = self._leaf_values(t, w, leaf, tree.node_count)[leaves]
            tree.value = values[:, None]
            trees.append(tree)
            log_w = exponential_reweight(log_w, t, values[leaf])  # (B.5), finite leaf values
            w, log_w = normalise_log_weights(log_w)
        self.estimators_ = trees
        return self

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        return tags


@implements("B.4", "B.5")
class RealAdaBoostClassifier(_ExponentialBooster):
    """Real AdaBoost: trees whose leaves hold half the weighted log-odds (B.4).

    Round m grows a least-squares tree on t* = (t + 1)/2 ∈ {0, 1} with the weights w^{(m)}, so
    that each leaf holds the weighted proportion p_τ of class +1 (squared error on 0/1 targets
    chooses the cuts of the Gini impurity (14.33)); it replaces it by f_τ = ½ ln{p_τ/(1 − p_τ)}
    (B.4), with p_τ clipped to [``proba_clip``, 1 − ``proba_clip``], and re-weights with
    w_n ← w_n exp{−t_n f_m(x_n)} (B.5). F(x) = Σ_m f_m(x) estimates half the log-odds (14.28).

    Parameters
    ----------
    n_estimators : int, default=50
        The number of rounds M.
    max_depth : int, default=1
        The depth of every tree (1: stumps).
    min_samples_leaf : int, default=1
        The fewest samples in a leaf.
    max_features : int, float, {"sqrt", "log2"} or None, default=None
        Features drawn at random at every node: a number, a fraction of them, their square
        root or log2 (None: all), as for :class:`~prml14.trees.DecisionTreeRegressor`.
    proba_clip : float in [2.2e-16, 0.5), default=1e-3
        The clip c of the leaf proportions; a pure leaf gets ±½ ln{(1 − c)/c} (≈ ±3.45 for
        the default). It must be at least the machine epsilon, so that 1 − c < 1: unclipped,
        a pure leaf would get ±∞ (see Notes).
    random_state : int, RandomState or None, default=None
        Draws the features when ``max_features`` is set.

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
        ``classes_[1]`` is t = +1.
    estimators_ : list of Tree
        The trees, their leaf values f_τ in ``value[:, 0]``.
    n_features_in_ : int
        The number of input features.

    Notes
    -----
    (B.4) has no finite value for a pure leaf (p_τ = 0 or 1: the leaf's error W⁺e^{−c} or
    W⁻e^{c} has no minimiser), so ``proba_clip=0`` is refused: its leaves would be ±∞, the
    weights of their points 0, and a test point meeting a +∞ and a −∞ leaf would get
    F = ∞ − ∞. :func:`~prml14.boosting.real_gentle.half_log_odds_leaf_values` shows the
    unclipped values.
    """

    _parameter_constraints = {
        **TreeBoosterMixin._parameter_constraints,
        "proba_clip": [Interval(Real, _EPS, 0.5, closed="left")],
    }

    def __init__(
        self,
        n_estimators=50,
        *,
        max_depth=1,
        min_samples_leaf=1,
        max_features=None,
        proba_clip=1e-3,
        random_state=None,
    ):
        self.n_estimators = n_estimators
        self.max_depth = max_depth
        self.min_samples_leaf = min_samples_leaf
        self.max_features = max_features
        self.proba_clip = proba_clip
        self.random_state = random_state

    def _tree_target(self, t):
        return 0.5 * (t + 1.0)

    def _leaf_values(self, t, w, leaf, n_nodes):
        w_pos = leaf_sums(leaf, w * (t > 0), n_nodes)
        w_neg = leaf_sums(leaf, w * (t < 0), n_nodes)
        reached = (w_pos + w_neg) > 0
        values = np.zeros(n_nodes)
        values[reached] = half_log_odds_leaf_values(  # (B.4)
            w_pos[reached], w_neg[reached], self.proba_clip
        )
        return values


@implements("B.5", "B.6", "B.7")
class GentleAdaBoostClassifier(_ExponentialBooster):
    """Gentle AdaBoost: every tree is one Newton step on the exponential error (B.7).

    Round m grows a weighted least-squares tree on t ∈ {−1, +1} with the weights w^{(m)}; its
    leaf values are the Newton steps Σ_τ w t / Σ_τ w (B.7), each in [−1, 1]; then
    w_n ← w_n exp{−t_n f_m(x_n)} (B.5). The split criterion of the least-squares tree is the
    Newton decrease G²/H of the exponential error, so the tree is the best Newton step too.

    Parameters
    ----------
    n_estimators : int, default=50
        The number of rounds M.
    max_depth : int, default=1
        The depth of every tree (1: stumps).
    min_samples_leaf : int, default=1
        The fewest samples in a leaf.
    max_features : int, float, {"sqrt", "log2"} or None, default=None
        Features drawn at random at every node: a number, a fraction of them, their square
        root or log2 (None: all), as for :class:`~prml14.trees.DecisionTreeRegressor`.
    random_state : int, RandomState or None, default=None
        Draws the features when ``max_features`` is set.

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
        ``classes_[1]`` is t = +1.
    estimators_ : list of Tree
        The trees, their leaf values in ``value[:, 0]``.
    n_features_in_ : int
        The number of input features.
    """

    def __init__(
        self,
        n_estimators=50,
        *,
        max_depth=1,
        min_samples_leaf=1,
        max_features=None,
        random_state=None,
    ):
        self.n_estimators = n_estimators
        self.max_depth = max_depth
        self.min_samples_leaf = min_samples_leaf
        self.max_features = max_features
        self.random_state = random_state

    def _tree_target(self, t):
        return t

    def _leaf_values(self, t, w, leaf, n_nodes):
        return np.nan_to_num(gentle_newton_step(t, w, leaf, n_nodes))  # (B.7)
