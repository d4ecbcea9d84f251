"""CART estimators with the scikit-learn API, Section 14.4: :class:`DecisionTreeRegressor`
((14.29), (14.30)) and :class:`DecisionTreeClassifier` ((14.32), (14.33)).

Both grow through :func:`~prml14.trees.growing.grow_tree` (greedy, every feature and every
threshold, or the bin edges of the histogram finder) and can then be pruned by cost complexity
(14.31).
Weights: every count N_τ is the total ``sample_weight`` of the region (the number of samples for
unit weights), so a weight of 2 is the same as duplicating a row.
"""

from __future__ import annotations

import numbers

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin, _fit_context
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from .._equations import implements
from .._validation import check_magnitude, check_sample_weight
from .criteria import AbsoluteError, Entropy, Gini, Misclassification, SquaredError
from .growing import grow_tree
from .pruning import _estimator_costs, prune_to_lambda, weakest_link_path
from .structure import TREE_LEAF

__all__ = ["DecisionTreeRegressor", "DecisionTreeClassifier"]

_CLASS_CRITERIA = {"gini": Gini, "entropy": Entropy, "misclassification": Misclassification}


class _BaseTree(BaseEstimator):
    _parameter_constraints = {
        "max_depth": [Interval(numbers.Integral, 1, None, closed="left"), None],
        "min_samples_split": [Interval(numbers.Integral, 2, None, closed="left")],
        "min_samples_leaf": [Interval(numbers.Integral, 1, None, closed="left")],
        "min_weight_fraction_leaf": [Interval(numbers.Real, 0.0, 0.5, closed="both")],
        "min_impurity_decrease": [Interval(numbers.Real, 0.0, None, closed="left")],
        "max_features": [
            Interval(numbers.Integral, 1, None, closed="left"),
            Interval(numbers.Real, 0.0, 1.0, closed="right"),
            StrOptions({"sqrt", "log2"}),
            None,
        ],
        "ccp_lambda": [Interval(numbers.Real, 0.0, None, closed="left")],
        "random_state": ["random_state"],
        "splitter": [StrOptions({"exact", "histogram"})],
        "max_bins": [Interval(numbers.Integral, 2, 65535, closed="both")],
    }

    def _n_features_split(self, D):
        mf = self.max_features
        if mf is None:
            return D
        if mf == "sqrt":
            return max(1, int(np.sqrt(D)))
        if mf == "log2":
            return max(1, int(np.log2(D)))
        if isinstance(mf, numbers.Integral):
            if mf > D:
                raise ValueError(f"max_features must be <= n_features = {D}, got {mf}")
            return int(mf)
        return max(1, int(mf * D))

    def _check_X(self, X, reset):
        return validate_data(self, X, reset=reset, dtype=np.float64, ensure_all_finite=True)

    def _grow(self, X, criterion, stats, w):
        return grow_tree(
            X,
            stats,
            criterion,
            max_depth=self.max_depth,
            min_samples_split=self.min_samples_split,
            min_samples_leaf=self.min_samples_leaf,
            min_weight_leaf=self.min_weight_fraction_leaf * w.sum(),
            min_impurity_decrease=self.min_impurity_decrease,
            max_features=self._n_features_split(X.shape[1]),
            random_state=self.random_state,
            splitter=self.splitter,
            max_bins=self.max_bins,
            check_input=False,  # fit validated X, y and sample_weight once
        )

    def _finish_fit(self, tree):
        self.full_tree_ = tree
        self.tree_ = (
            prune_to_lambda(tree, _estimator_costs(self, tree), self.ccp_lambda)
            if self.ccp_lambda > 0
            else tree
        )
        return self

    def apply(self, X):
        """Index (into ``tree_``) of the leaf that each sample reaches."""
        check_is_fitted(self)
        return self.tree_.apply(self._check_X(X, reset=False))

    def get_depth(self):
        """Depth of the fitted tree (a single leaf has depth 0)."""
        check_is_fitted(self)
        return self.tree_.max_depth

    def get_n_leaves(self):
        """Number of leaves ``|T|`` of the fitted tree."""
        check_is_fitted(self)
        return self.tree_.n_leaves

    def export_text(self, feature_names=None, decimals=3):
        """A plain-text drawing of the fitted tree, one node per line."""
        check_is_fitted(self)
        tree = self.tree_
        if feature_names is None:
            feature_names = [f"x{i}" for i in range(self.n_features_in_)]
        elif len(feature_names) != self.n_features_in_:
            raise ValueError(
                f"feature_names must have {self.n_features_in_} entries, got {len(feature_names)}"
            )

        def leaf_text(node):
            if isinstance(self, ClassifierMixin):
                return f"class: {self.classes_[np.argmax(tree.value[node])]}"
            return f"value: {tree.value[node, 0]:.{decimals}f}"

        lines, stack = [], [(0, 0)]
        while stack:
            item, depth = stack.pop()
            if isinstance(item, str):
                lines.append(item)
                continue
            indent = "|   " * depth + "|--- "
            if tree.children_left[item] == TREE_LEAF:
                lines.append(indent + leaf_text(item))
                continue
            name, thr = feature_names[tree.feature[item]], tree.threshold[item]
            # pushed in reverse: left condition, left subtree, right condition, right subtree
            stack.append((tree.children_right[item], depth + 1))
            stack.append((f"{indent}{name} >  {thr:.{decimals}f}", depth))
            stack.append((tree.children_left[item], depth + 1))
            stack.append((f"{indent}{name} <= {thr:.{decimals}f}", depth))
        if tree.node_count == 1:
            lines = ["|--- " + leaf_text(0)]
        return "\n".join(lines) + "\n"

    def cost_complexity_pruning_path(self, X, y, sample_weight=None):
        """The weakest-link pruning path of the tree grown on (X, y), equation (14.31).

        Returns
        -------
        dict with keys
            ``ccp_lambdas`` : ndarray, the breakpoints λ (PRML units: C(T) = Σ_τ N_τQ_τ + λ|T|),
            one per pruning step, starting with 0; ``costs`` : ndarray, Σ_τ N_τQ_τ of the
            subtree optimal from that λ on; ``n_leaves`` : ndarray, its number of leaves.
        """
        est = self.__class__(**{**self.get_params(), "ccp_lambda": 0.0})
        est.fit(X, y, sample_weight=sample_weight)
        path = weakest_link_path(est.tree_, _estimator_costs(est, est.tree_))
        return {"ccp_lambdas": path.lambdas, "costs": path.costs, "n_leaves": path.n_leaves}

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = False
        return tags


@implements("14.29", "14.30")
class DecisionTreeRegressor(RegressorMixin, _BaseTree):
    """A CART regression tree: leaf values (14.29), sum-of-squares node cost (14.30).

    Greedy growth that searches every feature and every threshold; optional cost-complexity
    pruning (14.31) with the parameter λ in PRML's units (``ccp_lambda``; scikit-learn's
    ``ccp_alpha`` is λ/N for unit weights).

    Parameters
    ----------
    criterion : {"squared_error", "absolute_error"}, default="squared_error"
        The node cost: the sum of squares (14.30) with mean leaves (14.29), or the sum of
        absolute deviations (B.29) with weighted-median leaves
        (:class:`~prml14.trees.criteria.AbsoluteError`; exact splitter only; its node impurity
        is the mean absolute deviation, which cost-complexity pruning then uses).
    max_depth : int or None, default=None
        The largest depth of a leaf (None: grow until the leaves are pure).
    min_samples_split : int >= 2, default=2
        A node with fewer samples is not split.
    min_samples_leaf : int >= 1, default=1
        The fewest samples a leaf may have.
    min_weight_fraction_leaf : float in [0, 0.5], default=0.0
        The least fraction of the total sample weight a leaf may have.
    min_impurity_decrease : float >= 0, default=0.0
        A node is split only if (N_τ/N)(Q_τ − (N_L/N_τ)Q_L − (N_R/N_τ)Q_R) reaches this value,
        with Q the impurity per unit weight (scikit-learn's convention).
    max_features : int, float, {"sqrt", "log2"} or None, default=None
        Number of features drawn at random at every node (None: all; used by random forests),
        among the features that have a valid cut in the node.
    ccp_lambda : float >= 0, default=0.0
        Complexity parameter λ of (14.31); 0 means no pruning.
    random_state : int, RandomState or None, default=None
        Only used when ``max_features`` draws feature subsets.
    splitter : {"exact", "histogram"}, default="exact"
        The split finder of :func:`~prml14.trees.growing.grow_tree`: every threshold between
        distinct values, or the edges of at most ``max_bins`` quantile bins per feature.
    max_bins : int in [2, 65535], default=255
        Bins per feature of the histogram finder.

    Attributes
    ----------
    tree_ : Tree
        The fitted (pruned) tree.
    full_tree_ : Tree
        The tree before pruning.
    n_features_in_ : int
        The number of input features.
    """

    _parameter_constraints = {
        **_BaseTree._parameter_constraints,
        "criterion": [StrOptions({"squared_error", "absolute_error"})],
    }

    def __init__(
        self,
        *,
        criterion="squared_error",
        max_depth=None,
        min_samples_split=2,
        min_samples_leaf=1,
        min_weight_fraction_leaf=0.0,
        min_impurity_decrease=0.0,
        max_features=None,
        ccp_lambda=0.0,
        random_state=None,
        splitter="exact",
        max_bins=255,
    ):
        self.criterion = criterion
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.min_weight_fraction_leaf = min_weight_fraction_leaf
        self.min_impurity_decrease = min_impurity_decrease
        self.max_features = max_features
        self.ccp_lambda = ccp_lambda
        self.random_state = random_state
        self.splitter = splitter
        self.max_bins = max_bins

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y, sample_weight=None):
        """Grow the tree on (X, y), then prune it with ``ccp_lambda``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Finite inputs.
        y : array-like of shape (n_samples,)
            Targets.
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative weights (unit weights if None).

        Returns
        -------
        self
            The fitted estimator.
        """
        X, y = validate_data(self, X, y, dtype=np.float64, y_numeric=True, ensure_all_finite=True)
        y = np.asarray(y, dtype=np.float64)
        # also refuses negative weights and weights that are all zero
        w = check_sample_weight(sample_weight, X, dtype=np.float64)
        check_magnitude(w, "sample_weight", 1e100)
        check_magnitude(y, "y", 1e100)
        if self.criterion == "absolute_error":
            if self.splitter != "exact":
                raise ValueError("criterion='absolute_error' needs splitter='exact'")
            criterion = AbsoluteError()
            return self._finish_fit(self._grow(X, criterion, criterion.statistics(y, w), w))
        # grow on targets centred at their weighted mean: the same cuts (a shift of t changes
        # S_L²/N_L + S_R²/N_R by a constant per node) without losing the node variances to
        # cancellation in Σwt²/N_τ − y_τ² when the mean is large compared with the spread
        offset = np.dot(w, y) / w.sum()
        y = y - offset
        criterion = SquaredError()
        tree = self._grow(X, criterion, criterion.statistics(y, w), w)
        tree.value += offset
        return self._finish_fit(tree)

    def predict(self, X):
        """The leaf value (14.29) of the region each sample falls in.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Inputs.

        Returns
        -------
        ndarray of shape (n_samples,)
            The predictions.
        """
        check_is_fitted(self)
        X = self._check_X(X, reset=False)
        return self.tree_.value[self.tree_.apply(X), 0]


@implements("14.32", "14.33")
class DecisionTreeClassifier(ClassifierMixin, _BaseTree):
    """A CART classification tree: Gini (14.33) or cross-entropy (14.32) growth.

    Grown with the cross-entropy (14.32), Gini (14.33) or misclassification impurity and pruned,
    as PRML suggests, with the misclassification rate.

    Parameters
    ----------
    criterion : {"gini", "entropy", "misclassification"}, default="gini"
        Impurity used to choose splits (entropy in nats).
    pruning_criterion : {"misclassification", "same"}, default="misclassification"
        Node cost N_τQ_τ used by cost-complexity pruning (14.31): the (weighted) number of
        misclassified training samples, or N_τ times the growth impurity (scikit-learn's choice).
    max_depth : int or None, default=None
        As in :class:`DecisionTreeRegressor`.
    min_samples_split : int >= 2, default=2
        As in :class:`DecisionTreeRegressor`.
    min_samples_leaf : int >= 1, default=1
        As in :class:`DecisionTreeRegressor`.
    min_weight_fraction_leaf : float in [0, 0.5], default=0.0
        As in :class:`DecisionTreeRegressor`.
    min_impurity_decrease : float >= 0, default=0.0
        As in :class:`DecisionTreeRegressor`.
    max_features : int, float, {"sqrt", "log2"} or None, default=None
        As in :class:`DecisionTreeRegressor`.
    ccp_lambda : float >= 0, default=0.0
        As in :class:`DecisionTreeRegressor`.
    random_state : int, RandomState or None, default=None
        As in :class:`DecisionTreeRegressor`.
    splitter : {"exact", "histogram"}, default="exact"
        As in :class:`DecisionTreeRegressor`.
    max_bins : int in [2, 65535], default=255
        As in :class:`DecisionTreeRegressor`.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    tree_ : Tree
        ``tree_.value`` holds the class proportions p_τk.
    full_tree_ : Tree
    n_features_in_ : int
    """

    _parameter_constraints = {
        **_BaseTree._parameter_constraints,
        "criterion": [StrOptions({"gini", "entropy", "misclassification"})],
        "pruning_criterion": [StrOptions({"misclassification", "same"})],
    }

    def __init__(
        self,
        *,
        criterion="gini",
        pruning_criterion="misclassification",
        max_depth=None,
        min_samples_split=2,
        min_samples_leaf=1,
        min_weight_fraction_leaf=0.0,
        min_impurity_decrease=0.0,
        max_features=None,
        ccp_lambda=0.0,
        random_state=None,
        splitter="exact",
        max_bins=255,
    ):
        self.criterion = criterion
        self.pruning_criterion = pruning_criterion
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.min_weight_fraction_leaf = min_weight_fraction_leaf
        self.min_impurity_decrease = min_impurity_decrease
        self.max_features = max_features
        self.ccp_lambda = ccp_lambda
        self.random_state = random_state
        self.splitter = splitter
        self.max_bins = max_bins

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y, sample_weight=None):
        """Grow the tree on (X, y), then prune it with ``ccp_lambda``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Finite inputs.
        y : array-like of shape (n_samples,)
            Targets.
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative weights (unit weights if None).

        Returns
        -------
        self
            The fitted estimator.
        """
        X, y = validate_data(self, X, y, dtype=np.float64, ensure_all_finite=True)
        check_classification_targets(y)
        self.classes_, y_enc = np.unique(y, return_inverse=True)
        # also refuses negative weights and weights that are all zero
        w = check_sample_weight(sample_weight, X, dtype=np.float64)
        check_magnitude(w, "sample_weight", 1e100)
        criterion = _CLASS_CRITERIA[self.criterion](self.classes_.size)
        tree = self._grow(X, criterion, criterion.statistics(y_enc, w), w)
        return self._finish_fit(tree)

    def predict_proba(self, X):
        """Class proportions p_τk of the region each sample falls in.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Inputs.

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
            The class probabilities, in the order of ``classes_``.
        """
        check_is_fitted(self)
        X = self._check_X(X, reset=False)
        return self.tree_.value[self.tree_.apply(X)]

    def predict(self, X):
        """The majority class of the region each sample falls in.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Inputs.

        Returns
        -------
        ndarray of shape (n_samples,)
            The predicted labels.
        """
        check_is_fitted(self)
        return self.classes_[np.argmax(self.predict_proba(X), axis=1)]
