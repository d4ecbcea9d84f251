"""What Real AdaBoost, Gentle AdaBoost and LogitBoost share: weighted least-squares trees grown
through :func:`prml14.trees.grow_tree`, leaf values set from per-leaf sums, and the prediction
methods of an additive model F(x) = Σ_m f_m(x) with p(t = +1 | x) = σ(2 F(x)).
"""

from __future__ import annotations

from numbers import Integral

import numpy as np
from scipy.special import log_expit, log_softmax
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils._param_validation import Interval
from sklearn.utils.validation import check_is_fitted, validate_data

from .._numerics import expit, softmax
from ..trees import SquaredError, grow_tree
from ..trees.cart_estimators import MAX_FEATURES_OPTIONS, _n_features_split

__all__: list[str] = []


def leaf_sums(leaf, values, n_nodes):
    """Σ over the samples of every node of ``values`` (zero for nodes no sample reaches).

    Parameters
    ----------
    leaf : ndarray of int of shape (n_samples,)
        The node each sample falls in.
    values : ndarray of shape (n_samples,)
        Per-sample values.
    n_nodes : int
        The number of nodes.

    Returns
    -------
    ndarray of shape (n_nodes,)
        The sums.
    """
    return np.bincount(leaf, weights=values, minlength=n_nodes)


def weighted_least_squares_tree(X, features, target, w, params, rng):
    """A regression tree grown on ``target`` with weights ``w`` (squared error, (14.29)-(14.30)).

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
        Validated inputs.
    features : SortedFeatures
        X sorted once for all rounds (:func:`~prml14.trees.exact.sort_features`).
    target : ndarray of shape (n_samples,)
        What the tree fits.
    w : ndarray of shape (n_samples,)
        Non-negative weights with a positive sum.
    params : dict
        ``max_depth``, ``min_samples_leaf`` and ``max_features`` of :func:`grow_tree`.
    rng : RandomState
        Draws the features when ``max_features`` is set.

    Returns
    -------
    tree : Tree
        The grown tree (its leaf values are the weighted means of ``target``).
    leaf : ndarray of int of shape (n_samples,)
        The leaf of every training sample.
    """
    criterion = SquaredError()
    # centred targets: the same cuts, without cancellation in the node variances
    # (a sum, not np.dot: BLAS rounds differently by CPU and thread count, and the offset
    # reaches every leaf value)
    offset = np.sum(w * target) / w.sum()
    statistics = criterion.statistics(target - offset, w)
    tree = grow_tree(
        features, statistics, criterion, random_state=rng, check_input=False, **params
    )
    tree.value = tree.value + offset
    return tree, tree.apply(X)


def tree_output(tree, X):
    """The leaf value (column 0) of the leaf each row of X falls in."""
    return tree.value[tree.apply(X), 0]


class TreeBoosterMixin(ClassifierMixin, BaseEstimator):
    """Prediction methods of F(x) = scale Σ_m f_m(x) (binary) or F_k(x) (K classes).

    Subclasses set ``classes_``, ``estimators_`` (a list of :class:`~prml14.trees.Tree`, or for
    K > 2 a list of lists of K trees) and ``_scale`` (the factor in front of each tree).
    """

    _parameter_constraints = {
        "n_estimators": [Interval(Integral, 1, None, closed="left")],
        "max_depth": [Interval(Integral, 1, None, closed="left")],
        "min_samples_leaf": [Interval(Integral, 1, None, closed="left")],
        "max_features": MAX_FEATURES_OPTIONS,
        "random_state": ["random_state"],
    }

    def _tree_params(self, n_features):
        return {
            "max_depth": self.max_depth,
            "min_samples_leaf": self.min_samples_leaf,
            "max_features": _n_features_split(self.max_features, n_features),
        }

    def _check_X(self, X):
        check_is_fitted(self)
        return validate_data(self, X, dtype=np.float64, reset=False)

    def _round_output(self, trees, X):
        if isinstance(trees, list):
            return self._scale * np.column_stack([tree_output(tree, X) for tree in trees])
        return self._scale * tree_output(trees, X)

    def staged_decision_function(self, X):
        """F_m(x) after each round m = 1, ..., M.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The inputs.

        Yields
        ------
        ndarray of shape (n_samples,) or (n_samples, n_classes)
            F_m(x), half the log-odds of ``classes_[1]`` (two classes), or one column per class.
        """
        X = self._check_X(X)
        F = 0.0
        for trees in self.estimators_:
            F = F + self._round_output(trees, X)
            yield F

    def decision_function(self, X):
        """F(x) = Σ_m f_m(x), the fitted additive model; positive means ``classes_[1]``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The inputs.

        Returns
        -------
        ndarray of shape (n_samples,) or (n_samples, n_classes)
            F(x) (two classes: half the estimated log-odds, (14.28)), or F_k(x) for K > 2.
        """
        X = self._check_X(X)
        return sum(self._round_output(trees, X) for trees in self.estimators_)

    def _labels(self, F):
        if F.ndim == 2:
            return self.classes_[np.argmax(F, axis=1)]
        return self.classes_[(F > 0).astype(int)]

    def predict(self, X):
        """The class of largest estimated probability (ties go to ``classes_[0]``).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The inputs.

        Returns
        -------
        ndarray of shape (n_samples,)
            Labels from ``classes_``.
        """
        return self._labels(self.decision_function(X))

    def staged_predict(self, X):
        """The predicted classes after each round m = 1, ..., M.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The inputs.

        Yields
        ------
        ndarray of shape (n_samples,)
            Labels from ``classes_`` after round m.
        """
        for F in self.staged_decision_function(X):
            yield self._labels(F)

    def predict_log_proba(self, X):
        """ln p(class | x), computed in the log domain: log σ(±2F) or the log-softmax of F.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Inputs.

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
            Columns in the order of ``classes_``.
        """
        F = self.decision_function(X)
        if F.ndim == 2:
            return log_softmax(F, axis=1)
        return np.column_stack([log_expit(-2.0 * F), log_expit(2.0 * F)])

    def predict_proba(self, X):
        """p(k | x): σ(2 F(x)) for two classes (inverting (14.28)), softmax(F(x)) for K > 2.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The inputs.

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
            Columns in the order of ``classes_``.
        """
        F = self.decision_function(X)
        if F.ndim == 2:
            return softmax(F, axis=1)
        p = expit(2.0 * F)
        return np.column_stack([1.0 - p, p])
