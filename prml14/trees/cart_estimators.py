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
from sklearn.utils.class_weight import compute_sample_weight
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from .._equations import implements
from .._validation import check_magnitude, check_sample_weight
from .criteria import AbsoluteError, Entropy, Gini, Misclassification, SquaredError
from .growing import grow_tree
from .pruning import _estimator_costs, prune_to_lambda, weakest_link_path
from .structure import TREE_LEAF

__all__ = ["DecisionTreeRegressor", "DecisionTreeClassifier"]

# "log_loss" is scikit-learn's name for the entropy criterion
_CLASS_CRITERIA = {
    "gini": Gini,
    "entropy": Entropy,
    "log_loss": Entropy,
    "misclassification": Misclassification,
}


def _scaled_weights(w):
    """``w`` divided by the power of two 2^k just below its largest entry, and 2^k.

    The division is exact, so the tree grown is the one the weights themselves give; it keeps
    the split scores of very small or very large weights (1e-300 in every row of a forest's
    bootstrap) clear of underflow and overflow: a fit does not depend on the scale of the
    weights. The node weights are multiplied back by 2^k after growing.
    """
    scale = 2.0 ** np.floor(np.log2(w.max()))
    return w / scale, scale


# the max_features options of every tree estimator (and of the ensembles that pass it on)
MAX_FEATURES_OPTIONS = [
    Interval(numbers.Integral, 1, None, closed="left"),
    Interval(numbers.Real, 0.0, 1.0, closed="right"),
    StrOptions({"sqrt", "log2"}),
    None,
]


def _n_features_split(max_features, D):
    """The number of features drawn at every node: ``max_features`` as an int, a fraction of
    the D features, "sqrt", "log2" or None (all), as scikit-learn reads it."""
    mf = max_features
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


class _BaseTree(BaseEstimator):
    _parameter_constraints = {
        "max_depth": [Interval(numbers.Integral, 1, None, closed="left"), None],
        "min_samples_split": [Interval(numbers.Integral, 2, None, closed="left")],
        "min_samples_leaf": [Interval(numbers.Integral, 1, None, closed="left")],
        "min_weight_fraction_leaf": [Interval(numbers.Real, 0.0, 0.5, closed="both")],
        "min_impurity_decrease": [Interval(numbers.Real, 0.0, None, closed="left")],
        "max_features": MAX_FEATURES_OPTIONS,
        "ccp_lambda": [Interval(numbers.Real, 0.0, None, closed="left")],
        "random_state": ["random_state"],
        "splitter": [StrOptions({"exact", "histogram"})],
        "max_bins": [Interval(numbers.Integral, 2, 65535, closed="both")],
    }

    def _n_features_split(self, D):
        return _n_features_split(self.max_features, D)

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

    def _finish_fit(self, tree, weight_scale):
        tree.weighted_n_node_samples *= weight_scale
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

    def decision_path(self, X):
        """The nodes (of ``tree_``) each sample passes through, as scikit-learn's.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Inputs.

        Returns
        -------
        scipy.sparse.csr_matrix of shape (n_samples, n_nodes)
            Entry (n, τ) is 1 when sample n passes through node τ.
        """
        check_is_fitted(self)
        return self.tree_.decision_path(self._check_X(X, reset=False))

    @property
    def feature_importances_(self):
        """The impurity decreases N_τ Q_τ − N_L Q_L − N_R Q_R of the cuts on each feature,
        normalised to sum to one (scikit-learn's definition; (B.32) for one tree).

        Returns
        -------
        ndarray of shape (n_features,)
            Non-negative, summing to one (zeros for a tree without a cut).
        """
        check_is_fitted(self)
        out = self.tree_.feature_decreases(self.n_features_in_)
        total = out.sum()
        return out / total if total > 0 else out

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
            ``ccp_lambdas`` : ndarray, the breakpoints λ (PRML units: ``C(T) = Σ_τ N_τQ_τ +
            λ|T|``), one per pruning step, starting with 0; ``costs`` : ndarray, Σ_τ N_τQ_τ of the
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
        Complexity parameter λ of (14.31); 0 means no pruning. Named apart from scikit-learn's
        ``ccp_alpha`` on purpose: λ multiplies ``|T|`` in ``C(T) = Σ_τ N_τ Q_τ + λ|T|`` with N_τ
        Q_τ summed over samples, α in scikit-learn's per-sample cost, so
        ``ccp_lambda = N * ccp_alpha`` with N the total sample weight (the number of samples
        for unit weights).
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

    Notes
    -----
    There is no ``max_leaf_nodes``: scikit-learn grows such trees best-first, one node at a
    time in order of gain, whereas the engine grows every node of a level at once (vectorised
    over the level); a best-first grower would be a second, per-node engine, and would slow
    or complicate the level-wise path that every tree estimator shares. ``max_depth``,
    ``min_samples_leaf`` and cost-complexity pruning (``ccp_lambda``) bound the size instead.
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

        Raises
        ------
        ValueError
            If X is empty, not 2-D, not numeric, complex, or holds NaN or ±inf; y holds NaN or ±inf
            or exceeds 1e100 in magnitude; sample_weight is negative, NaN, all zero, beyond 1e100
            in magnitude or not one per sample; or a hyper-parameter is outside its declared
            constraints (scikit-learn's InvalidParameterError, which is also a TypeError).
        """
        X, y = validate_data(self, X, y, dtype=np.float64, y_numeric=True, ensure_all_finite=True)
        y = np.asarray(y, dtype=np.float64)
        # also refuses negative weights and weights that are all zero
        w = check_sample_weight(sample_weight, X, dtype=np.float64)
        check_magnitude(w, "sample_weight", 1e100)
        check_magnitude(y, "y", 1e100)
        w, scale = _scaled_weights(w)
        if self.criterion == "absolute_error":
            if self.splitter != "exact":
                raise ValueError("criterion='absolute_error' needs splitter='exact'")
            criterion = AbsoluteError()
            tree = self._grow(X, criterion, criterion.statistics(y, w), w)
            return self._finish_fit(tree, scale)
        # grow on targets centred at their weighted mean: the same cuts (a shift of t changes
        # S_L²/N_L + S_R²/N_R by a constant per node) without losing the node variances to
        # cancellation in Σwt²/N_τ − y_τ² when the mean is large compared with the spread
        # (a sum, not np.dot: BLAS rounds differently by CPU and thread count, and the offset
        # reaches every leaf value)
        offset = np.sum(w * y) / w.sum()
        y = y - offset
        criterion = SquaredError()
        tree = self._grow(X, criterion, criterion.statistics(y, w), w)
        tree.value += offset
        return self._finish_fit(tree, scale)

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
    criterion : {"gini", "entropy", "log_loss", "misclassification"}, default="gini"
        Impurity used to choose splits (entropy in nats; "log_loss" is scikit-learn's name for
        it).
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
    class_weight : dict, "balanced" or None, default=None
        Weights of the classes, multiplied into ``sample_weight``: {label: weight}, or
        "balanced" for N / (K N_k) with N_k the number of samples of class k (scikit-learn's
        rule).

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
        "criterion": [StrOptions({"gini", "entropy", "log_loss", "misclassification"})],
        "pruning_criterion": [StrOptions({"misclassification", "same"})],
        "class_weight": [dict, StrOptions({"balanced"}), None],
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
        class_weight=None,
    ):
        self.class_weight = class_weight
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

        Raises
        ------
        ValueError
            If X is empty, not 2-D, not numeric, complex, or holds NaN or ±inf; sample_weight is
            negative, NaN, all zero, beyond 1e100 in magnitude or not one per sample; or a
            hyper-parameter is outside its declared constraints (scikit-learn's
            InvalidParameterError, which is also a TypeError).
        """
        X, y = validate_data(self, X, y, dtype=np.float64, ensure_all_finite=True)
        check_classification_targets(y)
        classes, y_enc = np.unique(y, return_inverse=True)
        # also refuses negative weights and weights that are all zero
        w = check_sample_weight(sample_weight, X, dtype=np.float64)
        if self.class_weight is not None:
            w = w * compute_sample_weight(self.class_weight, y)
            if not w.sum() > 0:
                raise ValueError("class_weight and sample_weight leave no sample with weight")
        check_magnitude(w, "sample_weight", 1e100)
        return self._fit_checked(X, classes, y_enc.reshape(-1), w)

    def _fit_checked(self, X, classes, y_enc, w):
        """:meth:`fit` on validated data: X (or its :class:`~prml14.trees.SortedFeatures`),
        the class labels, y as indices into them and the weights (class weights applied).
        Boosting fits one tree per round on the same data through it, sorted once."""
        self.classes_ = classes
        w, scale = _scaled_weights(w)
        criterion = _CLASS_CRITERIA[self.criterion](classes.size)
        tree = self._grow(X, criterion, criterion.statistics(y_enc, w), w)
        return self._finish_fit(tree, scale)

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

    def predict_log_proba(self, X):
        """ln p_τk of the region each sample falls in (−inf for a class absent from the leaf).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Inputs.

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
            The log class probabilities, in the order of ``classes_``.
        """
        with np.errstate(divide="ignore"):
            return np.log(self.predict_proba(X))

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
