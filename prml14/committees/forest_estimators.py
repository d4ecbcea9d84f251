"""Random forests (Breiman 2001): bagging (14.7) plus a random subset of features at every split.

A random forest is a bagged committee of trees,
:mod:`prml14.committees.bagging_estimators`, in which every node of every tree chooses its
cut among k features drawn at random (k = ``max_features``: √D, log₂ D, a number, a fraction,
or all D). Why that helps, (B.30), and the out-of-bag committee (B.31) are in
:mod:`prml14.committees.forests`.

The trees are prml14's own (:class:`prml14.trees.DecisionTreeRegressor` /
:class:`~prml14.trees.DecisionTreeClassifier`, grown by
:func:`~prml14.trees.growing.grow_tree`), each fitted on the distinct rows of its bootstrap
sample with the number of draws as sample weight; limits that count rows
(``min_samples_leaf``, ``min_samples_split``) therefore count distinct rows, as in
:class:`prml14.committees.bagging_estimators.BaggingRegressor` and in scikit-learn's forests.
The fitting machinery (bootstrap, seeds, joblib processes, out-of-bag averages) is bagging's:
the forests subclass :class:`~prml14.committees.bagging_estimators.BaggingRegressor` /
:class:`~prml14.committees.bagging_estimators.BaggingClassifier` and only supply the randomised
tree and the ``bootstrap`` switch. The importances (B.32), (B.33) are in
:mod:`prml14.committees.importances`.
"""

from __future__ import annotations

from numbers import Integral

import numpy as np
from sklearn.utils._param_validation import Interval, RealNotInt, StrOptions
from sklearn.utils.class_weight import compute_sample_weight
from sklearn.utils.parallel import Parallel, delayed
from sklearn.utils.validation import check_is_fitted

from .._validation import check_array
from ..trees import TREE_LEAF, DecisionTreeClassifier, DecisionTreeRegressor
from .bagging_estimators import BaggingClassifier, BaggingRegressor, _BaseBagging
from .importances import mean_decrease_in_impurity

__all__ = [
    "RandomForestRegressor",
    "RandomForestClassifier",
]


_CHUNK = 10  # trees summed per task in predict: fixed, so that n_jobs cannot change the sums


def _summed_outputs(trees, X, output):
    """Σ of ``output(tree, X)`` over ``trees`` (one task of a parallel predict)."""
    total = output(trees[0], X)
    for tree in trees[1:]:
        total += output(tree, X)
    return total


_TREE_PARAMS = (
    "max_depth",
    "min_samples_split",
    "min_samples_leaf",
    "min_weight_fraction_leaf",
    "min_impurity_decrease",
    "max_features",
)


class _ForestMixin:
    """What a forest adds to bagging: the tree parameters, ``bootstrap`` and parallel predict."""

    _parameter_constraints: dict = {
        "n_estimators": [Interval(Integral, 1, None, closed="left")],
        "bootstrap": ["boolean"],
        "max_samples": [
            None,
            Interval(Integral, 1, None, closed="left"),
            Interval(RealNotInt, 0, 1, closed="right"),
        ],
        "oob_score": ["boolean"],
        "warm_start": ["boolean"],
        "n_jobs": [None, Integral],
        "random_state": ["random_state"],
        **{k: DecisionTreeRegressor._parameter_constraints[k] for k in _TREE_PARAMS},
    }

    def _member_template(self):
        params = {k: getattr(self, k) for k in _TREE_PARAMS + self._extra_tree_params}
        return self._tree_class(**params)

    def _draw_samples(self, n_samples, rng):
        if self.bootstrap:
            return _BaseBagging._draw_samples(self, n_samples, rng)
        if self.oob_score:
            raise ValueError("oob_score=True needs bootstrap=True (no point is out of bag)")
        if self.max_samples is not None:
            raise ValueError("max_samples must be None when bootstrap=False")
        # every tree on all the rows (a read-only view, no M×N copy)
        return np.broadcast_to(np.arange(n_samples), (self.n_estimators, n_samples))

    def _draw_features(self, n_features, rng):
        return None  # every tree sees all columns; max_features is drawn at every node

    @property
    def feature_importances_(self):
        """Impurity-based importances (B.32): each tree's normalised decreases, averaged.

        Returns
        -------
        ndarray of shape (n_features,)
            Non-negative, summing to one (zeros if no tree has a split).
        """
        check_is_fitted(self)
        return mean_decrease_in_impurity(
            [est.tree_ for est in self.estimators_], self.n_features_in_
        )

    def _forest_sum(self, X, output):
        """Σ_m output(tree_m, X), in chunks of trees over ``n_jobs`` threads, in tree order."""
        trees = self.estimators_
        chunks = [trees[i : i + _CHUNK] for i in range(0, len(trees), _CHUNK)]
        partial = Parallel(n_jobs=self.n_jobs, prefer="threads")(
            delayed(_summed_outputs)(chunk, X, output) for chunk in chunks
        )
        total = partial[0]
        for p in partial[1:]:
            total += p
        return total


def _tree_walker(tree):
    """The arrays of :func:`_walk`: leaves point to themselves (threshold +inf: every sample
    "goes left" into the leaf again), node τ's left child at 2τ, its right child at 2τ + 1."""
    leaf = tree.children_left == TREE_LEAF
    ids = np.arange(tree.node_count)
    feature = np.where(leaf, 0, tree.feature)
    threshold = np.where(leaf, np.inf, tree.threshold)
    children = np.column_stack(
        [np.where(leaf, ids, tree.children_left), np.where(leaf, ids, tree.children_right)]
    ).ravel()
    return leaf, feature, threshold, children


def _walk(walker, Xf, cur, base, column=None, values=None):
    """The leaves that rows starting at nodes ``cur`` reach; a row's features are read from the
    flat buffer Xf at offset ``base`` (+ feature), except feature ``column``, read from
    ``values`` (one per row). Four levels are walked between two compactions of the rows still
    moving."""
    leaf, feature, threshold, children = walker
    node = np.empty(cur.size, dtype=np.intp)
    active = np.arange(cur.size)
    while active.size:
        for _ in range(4):
            f = feature[cur]
            x = Xf[base + f] if column is None else np.where(f == column, values, Xf[base + f])
            cur = children[2 * cur + (x > threshold[cur])]
        node[active] = cur
        moving = ~leaf[cur]
        active, cur, base = active[moving], cur[moving], base[moving]
        values = None if column is None else values[moving]
    return node


def _leaf_ids(tree, X):
    """``tree.apply(X)`` for C-ordered float64 X, faster for the deep trees of a forest."""
    N, D = X.shape
    return _walk(_tree_walker(tree), X.ravel(), np.zeros(N, dtype=np.intp), np.arange(N) * D)


def _leaves_and_first_cuts(walker, cut, Xf, N, D):
    """Every row's leaf, and ``first[n, j]``: the first node of row n's path that cuts on
    feature j (−1 if none). ``cut`` is the tree's feature with D at the leaves (their column of
    ``first`` absorbs the leaves' self-loops)."""
    leaf, feature, threshold, children = walker
    first = np.full(N * (D + 1), -1, dtype=np.intp)
    node = np.empty(N, dtype=np.intp)
    active, cur, base = np.arange(N), np.zeros(N, np.intp), np.arange(N) * D
    rec = np.arange(N) * (D + 1)
    while active.size:
        for _ in range(4):
            key = rec + cut[cur]
            new = first[key] < 0
            first[key[new]] = cur[new]
            cur = children[2 * cur + (Xf[base + feature[cur]] > threshold[cur])]
        node[active] = cur
        moving = ~leaf[cur]
        active, cur, base, rec = active[moving], cur[moving], base[moving], rec[moving]
    return node, first.reshape(N, D + 1)[:, :D]


def _permuted_tree_sums(trees, X, P):
    """Σ over ``trees`` of their values on X (row 0) and on X with column j permuted by P[k]
    (row 1 + jK + k). A row whose path never cuts on j keeps its leaf; the others are walked
    again from the first node that cuts on j (the path above it does not read column j)."""
    (N, D), K = X.shape, len(P)
    Xf, total = X.ravel(), None
    for est in trees:
        tree = est.tree_
        walker = _tree_walker(tree)
        leaves, first = _leaves_and_first_cuts(
            walker, np.where(walker[0], D, tree.feature), Xf, N, D
        )
        values = np.empty((1 + D * K, N))
        values[:] = tree.value[leaves, 0]
        for j in range(D):
            rows = np.flatnonzero(first[:, j] >= 0)
            if rows.size:
                start, base = np.tile(first[rows, j], K), np.tile(rows * D, K)
                node = _walk(walker, Xf, start, base, j, X[P[:, rows], j].ravel())
                values[1 + j * K : 1 + (j + 1) * K, rows] = tree.value[node, 0].reshape(K, -1)
        if total is None:
            total = values
        else:
            total += values
    return total


def _tree_values(est, X):
    """A regression tree's predictions on validated X (no re-validation per tree)."""
    return est.tree_.value[_leaf_ids(est.tree_, X), 0]


class RandomForestRegressor(_ForestMixin, BaggingRegressor):
    """A random forest for regression: the average (14.7) of M randomised regression trees.

    Each tree is grown (by default to pure leaves) by the squared-error criterion (14.30) on a
    bootstrap sample, choosing every cut among ``max_features`` features drawn at random; the
    forest predicts the average of the trees. With ``max_features=None`` it is bagging of CART
    trees (:class:`prml14.committees.bagging_estimators.BaggingRegressor`), and with
    ``bootstrap=False`` as well a forest of one tree is
    :class:`prml14.trees.DecisionTreeRegressor`.

    Parameters
    ----------
    n_estimators : int, default=100
        M, the number of trees.
    max_depth : int or None, default=None
        The largest depth of a leaf (None: grow until the leaves are pure).
    min_samples_split : int >= 2, default=2
        A node with fewer distinct training rows is not split.
    min_samples_leaf : int >= 1, default=1
        The fewest distinct training rows a leaf may have.
    min_weight_fraction_leaf : float in [0, 0.5], default=0.0
        The least fraction of a tree's total weight (bootstrap counts × sample weights) a leaf
        may have.
    min_impurity_decrease : float >= 0, default=0.0
        As in :class:`prml14.trees.DecisionTreeRegressor`.
    max_features : {"sqrt", "log2"}, int, float or None, default=1.0
        k, the features drawn at random at every node: "sqrt" (⌊√D⌋), "log2" (⌊log₂ D⌋), an
        int, a fraction of D (at least one) or None (all D: bagged trees). They are drawn among
        the features that can cut the node (a feature constant in the node is passed over).
    bootstrap : bool, default=True
        Grow each tree on a bootstrap sample; False grows every tree on all rows (the trees
        then differ only through the feature draws).
    max_samples : int, float or None, default=None
        Rows per bootstrap sample: an int, a fraction of N or None (N). Only with bootstrap.
    oob_score : bool, default=False
        Compute the out-of-bag predictions (B.31) and their score (needs bootstrap).
    warm_start : bool, default=False
        A new ``fit`` keeps the fitted trees (the same objects) and grows new ones up to
        ``n_estimators``; the new trees get the bootstrap samples and seeds a fit of all the
        trees at once gives them (see
        :meth:`~prml14.committees.bagging_estimators.BaggingRegressor.fit`). Without bootstrap the
        warm-started forest is the forest fitted at once.
    n_jobs : int, default=None
        Trees fitted in parallel by joblib processes (loky) and evaluated by threads, unless
        ``joblib.parallel_config`` names another backend; None means 1. The results depend
        neither on it nor on the backend.
    random_state : int, RandomState or None, default=None
        Seeds the bootstrap samples and each tree's feature draws.

    Attributes
    ----------
    estimator_ : DecisionTreeRegressor
        The unfitted tree that every member is a clone of.
    estimators_ : list of DecisionTreeRegressor
        The M fitted trees.
    estimators_samples_ : list of ndarray of int
        The bootstrap indices of every tree (all rows when ``bootstrap=False``).
    estimators_features_ : list of ndarray of int
        Bagging's columns per member: all of them for every tree (a forest draws
        ``max_features`` at every node instead).
    feature_importances_ : ndarray of shape (n_features,)
        The impurity-based importances (B.32).
    n_features_in_ : int
        The number of input features.
    oob_prediction_ : ndarray of shape (n_samples,)
        The out-of-bag committee prediction (B.31) of every training point (NaN if none).
    oob_score_ : float
        R² of ``oob_prediction_`` on the points that have one.
    """

    _tree_class = DecisionTreeRegressor
    _extra_tree_params = ()

    def __init__(
        self,
        n_estimators=100,
        *,
        max_depth=None,
        min_samples_split=2,
        min_samples_leaf=1,
        min_weight_fraction_leaf=0.0,
        min_impurity_decrease=0.0,
        max_features=1.0,
        bootstrap=True,
        max_samples=None,
        oob_score=False,
        warm_start=False,
        n_jobs=None,
        random_state=None,
    ):
        self.n_estimators = n_estimators
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.min_weight_fraction_leaf = min_weight_fraction_leaf
        self.min_impurity_decrease = min_impurity_decrease
        self.max_features = max_features
        self.bootstrap = bootstrap
        self.max_samples = max_samples
        self.oob_score = oob_score
        self.warm_start = warm_start
        self.n_jobs = n_jobs
        self.random_state = random_state

    def fit(self, X, y, sample_weight=None):
        """Grow M randomised trees on bootstrap samples of (X, y).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Finite inputs.
        y : array-like of shape (n_samples,)
            Real targets.
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative weights, multiplied by the bootstrap counts of every tree.

        Returns
        -------
        RandomForestRegressor
            The fitted forest.

        Raises
        ------
        ValueError
            If X is empty, not 2-D, not numeric, complex, or holds NaN or ±inf; y holds NaN or ±inf
            or exceeds 1e100 in magnitude; sample_weight is negative, NaN, all zero, beyond 1e100
            in magnitude or not one per sample; n_jobs is 0; or a hyper-parameter is outside its
            declared constraints (scikit-learn's InvalidParameterError, which is also a TypeError).
        """
        return BaggingRegressor.fit(self, X, y, sample_weight)

    def predict(self, X):
        """The forest's prediction: the average of the trees' leaf values (14.7).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Inputs.

        Returns
        -------
        ndarray of shape (n_samples,)
            The predictions.
        """
        X = check_array(self._validate_predict(X), dtype=np.float64, order="C", input_name="X")
        return self._forest_sum(X, _tree_values) / len(self.estimators_)

    _permuted_predict = predict  # the predict that _permuted_predictions reproduces

    def _permuted_predictions(self, X, permutations, n_jobs=None):
        """:meth:`predict` on X and on every copy of X with one column permuted, bit for bit.

        Returns (baseline of shape (N,), permuted of shape (D, K, N)): ``permuted[j, k]`` is the
        prediction with ``X[:, j]`` replaced by ``X[permutations[k], j]``. The trees are summed
        in the chunks and order of :meth:`predict`, so every sum is the same.
        """
        X = check_array(self._validate_predict(X), dtype=np.float64, order="C", input_name="X")
        trees, P = self.estimators_, np.asarray(permutations)
        chunks = [trees[i : i + _CHUNK] for i in range(0, len(trees), _CHUNK)]
        parts = Parallel(n_jobs=n_jobs, prefer="threads", return_as="generator")(
            delayed(_permuted_tree_sums)(chunk, X, P) for chunk in chunks
        )
        total = next(parts)
        for part in parts:
            total += part
        total /= len(trees)
        return total[0], total[1:].reshape(X.shape[1], len(P), X.shape[0])


class RandomForestClassifier(_ForestMixin, BaggingClassifier):
    """A random forest for classification: the average of M randomised trees' probabilities.

    Each tree is grown (by default to pure leaves) by the Gini (14.33) or cross-entropy (14.32)
    criterion on a bootstrap sample, choosing every cut among ``max_features`` features drawn at
    random; the forest averages the trees' class proportions (soft voting, as scikit-learn's
    forests do) and predicts the most probable class.

    Parameters
    ----------
    n_estimators : int, default=100
        M, the number of trees.
    criterion : {"gini", "entropy", "log_loss", "misclassification"}, default="gini"
        The impurity the trees grow by ("log_loss": scikit-learn's name for "entropy").
    max_depth : int or None, default=None
        The largest depth of a leaf (None: grow until the leaves are pure).
    min_samples_split : int >= 2, default=2
        A node with fewer distinct training rows is not split.
    min_samples_leaf : int >= 1, default=1
        The fewest distinct training rows a leaf may have.
    min_weight_fraction_leaf : float in [0, 0.5], default=0.0
        The least fraction of a tree's total weight (bootstrap counts × sample weights) a leaf
        may have.
    min_impurity_decrease : float >= 0, default=0.0
        As in :class:`prml14.trees.DecisionTreeRegressor`.
    max_features : {"sqrt", "log2"}, int, float or None, default="sqrt"
        k, the features drawn at random at every node: "sqrt" (⌊√D⌋), "log2" (⌊log₂ D⌋), an
        int, a fraction of D (at least one) or None (all D: bagged trees). They are drawn among
        the features that can cut the node (a feature constant in the node is passed over).
    bootstrap : bool, default=True
        Grow each tree on a bootstrap sample; False grows every tree on all rows (the trees
        then differ only through the feature draws).
    max_samples : int, float or None, default=None
        Rows per bootstrap sample: an int, a fraction of N or None (N). Only with bootstrap.
    oob_score : bool, default=False
        Compute the out-of-bag predictions (B.31) and their score (needs bootstrap).
    warm_start : bool, default=False
        A new ``fit`` keeps the fitted trees (the same objects) and grows new ones up to
        ``n_estimators``; the new trees get the bootstrap samples and seeds a fit of all the
        trees at once gives them (see
        :meth:`~prml14.committees.bagging_estimators.BaggingRegressor.fit`). Without bootstrap the
        warm-started forest is the forest fitted at once.
    n_jobs : int, default=None
        Trees fitted in parallel by joblib processes (loky) and evaluated by threads, unless
        ``joblib.parallel_config`` names another backend; None means 1. The results depend
        neither on it nor on the backend.
    random_state : int, RandomState or None, default=None
        Seeds the bootstrap samples and each tree's feature draws.
    class_weight : dict, "balanced", "balanced_subsample" or None, default=None
        Class weights multiplied into ``sample_weight`` as in scikit-learn: {label: weight},
        "balanced" (N / (K N_k) from the whole training set) or "balanced_subsample" (the same
        from each tree's bootstrap sample, draws counted).

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        The class labels, sorted.
    estimator_ : DecisionTreeClassifier
        The unfitted tree that every member is a clone of.
    estimators_ : list of DecisionTreeClassifier
        The M fitted trees, trained on the encoded labels 0, ..., K − 1.
    estimators_samples_ : list of ndarray of int
        The bootstrap indices of every tree (all rows when ``bootstrap=False``).
    estimators_features_ : list of ndarray of int
        Bagging's columns per member: all of them for every tree (a forest draws
        ``max_features`` at every node instead).
    feature_importances_ : ndarray of shape (n_features,)
        The impurity-based importances (B.32).
    n_features_in_ : int
        The number of input features.
    oob_decision_function_ : ndarray of shape (n_samples, n_classes)
        The out-of-bag committee's class probabilities (B.31) (NaN where a point has none).
    oob_score_ : float
        Accuracy of the out-of-bag predictions on the points that have one.
    """

    _parameter_constraints: dict = {
        **_ForestMixin._parameter_constraints,
        "criterion": [StrOptions({"gini", "entropy", "log_loss", "misclassification"})],
        "class_weight": [dict, StrOptions({"balanced", "balanced_subsample"}), None],
    }
    _tree_class = DecisionTreeClassifier
    _extra_tree_params = ("criterion",)
    voting = "soft"  # a forest averages the trees' probabilities (not a parameter)

    def __init__(
        self,
        n_estimators=100,
        *,
        criterion="gini",
        max_depth=None,
        min_samples_split=2,
        min_samples_leaf=1,
        min_weight_fraction_leaf=0.0,
        min_impurity_decrease=0.0,
        max_features="sqrt",
        bootstrap=True,
        max_samples=None,
        oob_score=False,
        warm_start=False,
        n_jobs=None,
        random_state=None,
        class_weight=None,
    ):
        self.class_weight = class_weight
        self.n_estimators = n_estimators
        self.criterion = criterion
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.min_weight_fraction_leaf = min_weight_fraction_leaf
        self.min_impurity_decrease = min_impurity_decrease
        self.max_features = max_features
        self.bootstrap = bootstrap
        self.max_samples = max_samples
        self.oob_score = oob_score
        self.warm_start = warm_start
        self.n_jobs = n_jobs
        self.random_state = random_state

    def fit(self, X, y, sample_weight=None):
        """Grow M randomised trees on bootstrap samples of (X, y).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Finite inputs.
        y : array-like of shape (n_samples,)
            Class labels.
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative weights, multiplied by the bootstrap counts of every tree.

        Returns
        -------
        RandomForestClassifier
            The fitted forest.

        Raises
        ------
        ValueError
            If X is empty, not 2-D, not numeric, complex, or holds NaN or ±inf; sample_weight is
            negative, NaN, all zero, beyond 1e100 in magnitude or not one per sample; n_jobs is 0;
            or a hyper-parameter is outside its declared constraints (scikit-learn's
            InvalidParameterError, which is also a TypeError).
        """
        if self.class_weight not in (None, "balanced_subsample"):
            weight = compute_sample_weight(self.class_weight, np.ravel(y))
            sample_weight = (
                weight if sample_weight is None else weight * np.asarray(sample_weight, float)
            )
        return BaggingClassifier.fit(self, X, y, sample_weight)

    def _member_weight(self, sample_weight, y, indices):
        """With ``class_weight="balanced_subsample"``, the balanced class weights of each
        bootstrap sample (its own class counts, draws counted) times ``sample_weight``."""
        if self.class_weight != "balanced_subsample":
            return sample_weight
        balanced = compute_sample_weight("balanced", y, indices=indices)
        return balanced if sample_weight is None else balanced * sample_weight

    def _tree_proba(self, est, X):
        """One tree's class proportions, placed in the forest's K columns."""
        proba = est.tree_.value[_leaf_ids(est.tree_, X)]
        if proba.shape[1] == len(self.classes_):
            return proba  # a fresh array (fancy indexing copies)
        out = np.zeros((X.shape[0], len(self.classes_)))
        out[:, est.classes_.astype(int)] = proba  # a bootstrap sample may miss classes
        return out

    def predict_proba(self, X):
        """The average of the trees' class proportions p_τk at the leaves the inputs reach.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Inputs.

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
            Columns in the order of ``classes_``; each row sums to one.
        """
        X = check_array(self._validate_predict(X), dtype=np.float64, order="C", input_name="X")
        return self._forest_sum(X, self._tree_proba) / len(self.estimators_)
