"""Gradient boosting with the scikit-learn API: :class:`GradientBoostingRegressor` and
:class:`GradientBoostingClassifier` (pages B.1, B.4 and B.5).

Every round m fits one tree per raw score (K trees for K > 2 classes, else one) through the
tree engine :func:`~prml14.trees.growing.grow_tree`, then adds it shrunk by ν (B.2):

* ``method="gradient"`` (GBDT; Friedman 2001): the tree is grown by squared
  error on the pseudo-residuals (B.14), then each leaf gets the per-leaf line search (B.16)
  of the loss (:mod:`prml14.boosting.gradient_boosting`);
* ``method="newton"`` (second-order trees; Chen & Guestrin 2016): the tree is grown with
  the :class:`~prml14.trees.criteria.SecondOrder` criterion from the gradients and Hessians,
  leaf values −G/(H + λ) (B.20), cuts whose gain is below γ pruned bottom-up (B.21), and
  ``min_child_weight`` the least Hessian sum of a child.

``splitter="histogram"`` bins the features once (:func:`~prml14.trees.histogram.bin_features`)
and grows every tree of the ensemble from the same bins. ``subsample`` < 1 grows each round's
trees (and their line searches) on a random fraction of the rows drawn without replacement
(stochastic gradient boosting). ``n_iter_no_change`` stops early as scikit-learn does, on a
held-out ``validation_fraction`` of the training data.
"""

from __future__ import annotations

import numbers
from dataclasses import replace

import numpy as np
from scipy.special import log_expit, log_softmax
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin, _fit_context
from sklearn.model_selection import train_test_split
from sklearn.utils import check_random_state
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from .._equations import implements
from .._numerics import expit
from .._validation import check_magnitude, check_sample_weight
from ..trees.cart_estimators import MAX_FEATURES_OPTIONS, _n_features_split
from ..trees.criteria import SecondOrder, SquaredError
from ..trees.exact import sort_features
from ..trees.growing import grow_tree
from ..trees.histogram import BinnedFeatures, bin_features
from ..trees.pruning import pruning_costs
from .gradient_boosting import make_loss
from .stagewise import prune_by_gain

__all__ = ["GradientBoostingRegressor", "GradientBoostingClassifier"]


class _BaseGradientBoosting(BaseEstimator):
    _parameter_constraints = {
        "learning_rate": [Interval(numbers.Real, 0.0, 1e100, closed="right")],
        "n_estimators": [Interval(numbers.Integral, 1, None, closed="left")],
        "max_depth": [Interval(numbers.Integral, 1, None, closed="left"), None],
        "min_samples_leaf": [Interval(numbers.Integral, 1, None, closed="left")],
        "subsample": [Interval(numbers.Real, 0.0, 1.0, closed="right")],
        "method": [StrOptions({"gradient", "newton"})],
        "reg_lambda": [Interval(numbers.Real, 0.0, None, closed="left")],
        "gamma": [Interval(numbers.Real, 0.0, None, closed="left")],
        "min_child_weight": [Interval(numbers.Real, 0.0, None, closed="left")],
        "splitter": [StrOptions({"exact", "histogram"})],
        "max_bins": [Interval(numbers.Integral, 2, 65535, closed="both")],
        "validation_fraction": [Interval(numbers.Real, 0.0, 1.0, closed="neither")],
        "n_iter_no_change": [Interval(numbers.Integral, 1, None, closed="left"), None],
        "tol": [Interval(numbers.Real, 0.0, None, closed="left")],
        "max_features": MAX_FEATURES_OPTIONS,
        "random_state": ["random_state"],
        "warm_start": ["boolean"],
    }

    def _warm(self):
        """A warm-started fit: ``warm_start`` and trees to continue from."""
        return self.warm_start and hasattr(self, "trees_")

    def _check_X(self, X, reset):
        return validate_data(self, X, reset=reset, dtype=np.float64, ensure_all_finite=True)

    def _replay(self, Xfit, X, F, rng, n_sub):
        """Warm start: add the fitted rounds to F and make their random draws again, in the
        order of :meth:`_fit_boosting`, so the new rounds continue the same random stream."""
        N = X.shape[0]
        for trees in self.trees_:
            if n_sub < N:
                rng.choice(N, n_sub, replace=False)
            if self._n_split_features is not None:
                rng.randint(2**31 - 1)
            for k, tree in enumerate(trees):
                F[:, k] += self.learning_rate * tree.value[_apply(tree, Xfit, X), 0]

    def _grow(self, X, X_raw, t, F, w, loss, feature_seed=None):
        """One round: a tree per raw score, on the rows of X (binned or sorted features,
        already subsampled; ``X_raw`` the same rows' raw features)."""
        g = loss.gradient(t, F, w)
        newton = self.method == "newton"
        h = loss.hessian(t, F, w) if newton else None
        trees, leaves = [], []
        for k in range(g.shape[1]):
            if newton:
                criterion = SecondOrder(self.reg_lambda, 0.0)
                stats = criterion.statistics(w * g[:, k], w * h[:, k])
                min_weight = self.min_child_weight
            else:
                criterion = SquaredError()
                stats = criterion.statistics(-g[:, k], w)
                min_weight = 0.0
            # the histogram finder records the leaf of every row as it grows the tree
            recorded = self.splitter == "histogram"
            grown = grow_tree(
                X,
                stats,
                criterion,
                max_depth=self.max_depth,
                min_samples_leaf=self.min_samples_leaf,
                min_weight_leaf=min_weight,
                splitter=self.splitter,
                max_bins=self.max_bins,
                return_leaves=recorded,
                max_features=self._n_split_features,
                random_state=feature_seed,
            )
            tree, leaf = grown if recorded else (grown, None)
            if newton:
                pruned = prune_by_gain(tree, self.gamma)
                leaf = leaf if pruned is tree else None
                tree = pruned
            if leaf is None:
                leaf = _apply(tree, X, X_raw)
            if not newton:  # GBDT: the per-leaf line search (B.16) replaces the leaf means
                gamma = loss.leaf_values(t, F, leaf, tree.node_count, w, k)
                value = np.where(tree.is_leaf, gamma, tree.value[:, 0])
                tree = replace(tree, value=value[:, None])
            trees.append(tree)
            leaves.append(leaf)
        return trees, leaves

    def _fit_boosting(self, X, t, sample_weight, loss, stratify):
        # non-negative, not all zero, none beyond 1e100 (the squared residuals are weighted)
        w_all = check_sample_weight(sample_weight, X, dtype=np.float64)
        if self.method == "newton" and not loss.has_hessian:
            raise ValueError(f"method='newton' needs a loss with a Hessian, not {loss.name!r}")
        rng = check_random_state(self.random_state)
        seed = rng.randint(np.iinfo(np.int32).max)
        early = self.n_iter_no_change is not None
        warm = self._warm()
        n_old = len(self.trees_) if warm else 0
        if warm and early:
            raise ValueError("warm_start=True cannot be combined with n_iter_no_change")
        if self.n_estimators < n_old:
            raise ValueError(
                f"n_estimators={self.n_estimators} must be at least the {n_old} rounds "
                "already fitted when warm_start=True"
            )
        if early:
            X, X_val, t, t_val, w_all, w_val = train_test_split(
                X,
                t,
                w_all,
                test_size=self.validation_fraction,
                random_state=seed,
                stratify=stratify,
            )
        if stratify is not None:
            # scikit-learn's rule: a class with no weight to learn from is refused (its log-odds
            # would run to -inf and its probability to a rounding error)
            class_weight = np.bincount(t.astype(int), weights=w_all, minlength=self.classes_.size)
            if np.any(class_weight == 0):
                missing = self.classes_[class_weight == 0].tolist()
                raise ValueError(
                    f"sample_weight gives the classes {missing} a total weight of zero"
                    + (" in the training part of the early-stopping split" if early else "")
                    + ": drop them from y or give them weight"
                )
        N, D = X.shape
        # bin or sort the features once for the whole ensemble
        if self.splitter == "histogram":
            Xfit = bin_features(X, self.max_bins)
        else:
            Xfit = sort_features(X)
        if not warm:
            self.init_raw_ = loss.init_raw(t, w_all)
        F = np.tile(self.init_raw_, (N, 1))
        if early:
            F_val = np.tile(self.init_raw_, (X_val.shape[0], 1))
            history = np.full(self.n_iter_no_change, np.inf)
            self.validation_score_ = []
        n_sub = max(1, int(round(self.subsample * N)))
        # features drawn at every node (as the forests' trees do); None: all, and no draw
        self._n_split_features = (
            None if self.max_features is None else _n_features_split(self.max_features, D)
        )
        if warm:
            self._replay(Xfit, X, F, rng, n_sub)
            self.train_score_ = list(self.train_score_)
        else:
            self.trees_, self.train_score_ = [], []
        for m in range(n_old, self.n_estimators):
            if n_sub < N:
                rows = np.sort(rng.choice(N, n_sub, replace=False))
                X_m = _take_rows(Xfit, rows)
            else:
                rows, X_m = slice(None), Xfit
            # drawn only with max_features, so that the other fits keep their random stream
            feature_seed = None if self._n_split_features is None else rng.randint(2**31 - 1)
            trees, leaves = self._grow(
                X_m, X[rows], t[rows], F[rows], w_all[rows], loss, feature_seed
            )
            for k, tree in enumerate(trees):
                leaf = _apply(tree, Xfit, X) if n_sub < N else leaves[k]
                # ν f_m(x_n): the shrunk value of each leaf, gathered (the same products)
                F[:, k] += np.take(self.learning_rate * tree.value[:, 0], leaf)
            if not np.max(np.abs(F)) <= 1e150:  # the losses' squares would overflow next
                raise ValueError(
                    f"the boosted scores exceed 1e150 in magnitude after {m + 1} rounds: "
                    f"learning_rate={self.learning_rate!r} is too large (the updates diverge)"
                )
            self.trees_.append(trees)
            self.train_score_.append(loss(t[rows], F[rows], w_all[rows]))
            if early:
                for k, tree in enumerate(trees):
                    F_val[:, k] += self.learning_rate * tree.value[tree.apply(X_val), 0]
                val = loss(t_val, F_val, w_val)
                self.validation_score_.append(val)
                if np.any(val + self.tol < history):
                    history[m % self.n_iter_no_change] = val
                else:
                    break
        self.n_estimators_ = len(self.trees_)
        self.n_trees_per_iteration_ = loss.n_outputs
        self.train_score_ = np.array(self.train_score_)
        if early:
            self.validation_score_ = np.array(self.validation_score_)
        self._loss = loss
        return self

    def _staged_raw(self, X, copy=True):
        """The raw scores after each round (X is checked at once, not when iterating)."""
        check_is_fitted(self)
        return self._iter_raw(self._check_X(X, reset=False), copy)

    def _iter_raw(self, X, copy):
        F = np.tile(self.init_raw_, (X.shape[0], 1))
        for trees in self.trees_:
            for k, tree in enumerate(trees):
                F[:, k] += self.learning_rate * tree.value[tree.apply(X), 0]
            yield F.copy() if copy else F

    def _raw_predict(self, X):
        *_, F = self._staged_raw(X, copy=False)
        return F

    def apply(self, X):
        """The leaf (a node id of its tree) each sample reaches in every tree, as scikit-learn's.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Inputs.

        Returns
        -------
        ndarray of int of shape (n_samples, n_estimators, n_outputs)
            Entry (n, m, k): the leaf of sample n in the tree of round m for raw score k (one
            score for regression and two classes, K for K classes).
        """
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, reset=False)
        return np.stack(
            [np.column_stack([tree.apply(X) for tree in trees]) for trees in self.trees_], axis=1
        )

    @property
    def feature_importances_(self):
        """The impurity decrease each feature brings, summed over all trees, normalised.

        For a tree grown on pseudo-residuals the decrease of a cut is the fall of the weighted
        squared error (scikit-learn's definition); for a second-order tree it is the gain
        ½ [G_L²/(H_L + λ) + G_R²/(H_R + λ) − G²/(H + λ)]. Each tree's decreases are divided by
        its root weight; all zeros if no tree has a cut.
        """
        check_is_fitted(self)
        imp = np.zeros(self.n_features_in_)
        for trees in self.trees_:
            for tree in trees:
                inner = np.flatnonzero(~tree.is_leaf)
                if inner.size == 0:
                    continue
                c = pruning_costs(tree)
                dec = c[inner] - c[tree.children_left[inner]] - c[tree.children_right[inner]]
                root = tree.weighted_n_node_samples[0]
                imp += np.bincount(tree.feature[inner], weights=dec, minlength=imp.size) / root
        total = imp.sum()
        return imp / total if total > 0 else imp

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = False
        return tags


def _apply(tree, X, X_raw=None):
    """Leaf ids of the rows of X (BinnedFeatures, or the raw features ``X_raw``)."""
    if isinstance(X, BinnedFeatures):
        return X.apply(tree)
    return tree.apply(X_raw if X_raw is not None else X)


def _take_rows(X, rows):
    if isinstance(X, BinnedFeatures):
        return BinnedFeatures(X.codes[rows], X.edges)
    return X.take(rows)  # SortedFeatures


_DOC_PARAMS = """
    learning_rate : float > 0, default=0.1
        The shrinkage ν of (B.2). One so large that the updates diverge (scores beyond 1e150
        in magnitude) ends the fit with a ValueError.
    n_estimators : int >= 1, default=100
        The number of boosting rounds M.
    max_depth : int >= 1 or None, default=3
        The depth of every tree.
    min_samples_leaf : int >= 1, default=1
        The fewest samples a leaf may have.
    subsample : float in (0, 1], default=1.0
        The fraction of the rows each round grows its trees on (drawn without replacement):
        below 1, stochastic gradient boosting.
    method : {"gradient", "newton"}, default="gradient"
        ``"gradient"``: trees grown by squared error on the pseudo-residuals (B.14), then the
        per-leaf line search (B.16). ``"newton"``: second-order trees, (B.19)-(B.21).
    reg_lambda : float >= 0, default=1.0
        λ, the L2 penalty on the leaf values (``method="newton"`` only).
    gamma : float >= 0, default=0.0
        γ, the cost of a leaf: cuts with a smaller gain (B.21) are pruned bottom-up
        (``method="newton"`` only; xgboost's ``min_split_loss`` is 2γ).
    min_child_weight : float >= 0, default=1.0
        The least Hessian sum H of a child (``method="newton"`` only).
    splitter : {"exact", "histogram"}, default="exact"
        Every threshold between distinct values, or the edges of ``max_bins`` bins per
        feature, binned once for the whole ensemble.
    max_bins : int in [2, 65535], default=255
        Bins per feature of the histogram finder.
    validation_fraction : float in (0, 1), default=0.1
        The share of the training data held out for early stopping.
    n_iter_no_change : int >= 1 or None, default=None
        Stop when the held-out loss has not fallen by more than ``tol`` below any of its last
        ``n_iter_no_change`` values (None: no early stopping).
    tol : float >= 0, default=1e-4
        See ``n_iter_no_change``.
    max_features : int, float, {"sqrt", "log2"} or None, default=None
        The features each cut is chosen among, drawn at every node as in the random forests'
        trees (an int, a fraction of the D features, √D or log₂D); None: all D, and no draw
        (the fit then consumes the random stream as without this parameter).
    random_state : int, RandomState or None, default=None
        Draws the subsamples, the validation split and the features of ``max_features``.
    warm_start : bool, default=False
        A new ``fit`` keeps the fitted trees (the same objects) and adds rounds up to
        ``n_estimators``, continuing from their raw scores f_m on X; their random draws are
        made again, so with the same data, ``random_state`` and other parameters the
        warm-started model is the model fitted at once. Not with ``n_iter_no_change``."""

_DOC_ATTRS = """
    trees_ : list of list of prml14.trees.Tree
        The trees of every round (one per raw score); their leaf values are unshrunk.
    init_raw_ : ndarray of shape (n_outputs,)
        The constant f_0 minimising the loss, one per raw score.
    n_estimators_ : int
        The number of rounds fitted (fewer than ``n_estimators`` after early stopping).
    n_trees_per_iteration_ : int
        The number of raw scores (K for K > 2 classes, else 1).
    train_score_ : ndarray of shape (n_rounds,)
        The weighted mean loss on the rows of each round after that round (one entry per
        round fitted).
    validation_score_ : ndarray of shape (n_rounds,)
        The held-out loss after each round (with early stopping only).
    n_features_in_ : int
        The number of features seen in ``fit``."""


@implements("B.2", "B.14", "B.16")
class GradientBoostingRegressor(RegressorMixin, _BaseGradientBoosting):
    __doc__ = f"""Gradient boosting for regression: GBDT or second-order trees.

    Parameters
    ----------
    loss : {{"squared_error", "absolute_error", "huber"}}, default="squared_error"
        ½ (t − f)², abs(t − f) (leaf medians) or Huber's loss (B.17).
    alpha : float in (0, 1), default=0.9
        Huber's δ is the α-quantile of abs(t − f), re-estimated every round.
    {_DOC_PARAMS}

    Attributes
    ----------
    {_DOC_ATTRS}
    """

    _parameter_constraints = {
        **_BaseGradientBoosting._parameter_constraints,
        "loss": [StrOptions({"squared_error", "absolute_error", "huber"})],
        "alpha": [Interval(numbers.Real, 0.0, 1.0, closed="neither")],
    }

    def __init__(
        self,
        loss="squared_error",
        *,
        alpha=0.9,
        learning_rate=0.1,
        n_estimators=100,
        max_depth=3,
        min_samples_leaf=1,
        subsample=1.0,
        method="gradient",
        reg_lambda=1.0,
        gamma=0.0,
        min_child_weight=1.0,
        splitter="exact",
        max_bins=255,
        validation_fraction=0.1,
        n_iter_no_change=None,
        tol=1e-4,
        max_features=None,
        random_state=None,
        warm_start=False,
    ):
        self.loss = loss
        self.learning_rate = learning_rate
        self.n_estimators = n_estimators
        self.max_depth = max_depth
        self.min_samples_leaf = min_samples_leaf
        self.subsample = subsample
        self.method = method
        self.reg_lambda = reg_lambda
        self.gamma = gamma
        self.min_child_weight = min_child_weight
        self.splitter = splitter
        self.max_bins = max_bins
        self.validation_fraction = validation_fraction
        self.n_iter_no_change = n_iter_no_change
        self.tol = tol
        self.alpha = alpha
        self.max_features = max_features
        self.random_state = random_state
        self.warm_start = warm_start

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y, sample_weight=None):
        """Fit the additive model round by round.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Finite inputs.
        y : array-like of shape (n_samples,)
            Targets.
        sample_weight : array-like of shape (n_samples,) or None, default=None
            Non-negative weights.

        Returns
        -------
        GradientBoostingRegressor
            The fitted model.

        Raises
        ------
        ValueError
            If X is empty, not 2-D, not numeric, complex, or holds NaN or ±inf; y holds NaN or ±inf
            or exceeds 1e100 in magnitude; sample_weight is negative, NaN, all zero, beyond 1e100
            in magnitude or not one per sample; the boosted scores exceed 1e150 in magnitude
            (learning_rate too large); or a hyper-parameter is outside its declared constraints
            (scikit-learn's InvalidParameterError, which is also a TypeError).
        """
        X, y = validate_data(self, X, y, dtype=np.float64, y_numeric=True, reset=not self._warm())
        check_magnitude(y, "y", 1e100)  # with weights up to 1e100, w·y² stays finite
        loss = make_loss(self.loss, alpha=self.alpha)
        return self._fit_boosting(X, y.astype(float), sample_weight, loss, None)

    def predict(self, X):
        """f_M(x) = f_0 + ν Σ_m h_m(x).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Inputs.

        Returns
        -------
        ndarray of shape (n_samples,)
            The predictions.
        """
        return self._raw_predict(X)[:, 0]

    def staged_predict(self, X):
        """The predictions after each round.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Inputs.

        Yields
        ------
        ndarray of shape (n_samples,)
            f_m(x) for m = 1, ..., ``n_estimators_``.
        """
        for F in self._staged_raw(X):
            yield F[:, 0]


@implements("B.2", "B.14", "B.16")
class GradientBoostingClassifier(ClassifierMixin, _BaseGradientBoosting):
    __doc__ = f"""Gradient boosting for classification: binary or K classes (K trees a round).

    Parameters
    ----------
    loss : {{"log_loss", "exponential"}}, default="log_loss"
        The binomial or multinomial log-loss, or the exponential loss of AdaBoost (14.20)
        (two classes only; the raw score is then half the log-odds).
    {_DOC_PARAMS}

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        The class labels.
    {_DOC_ATTRS}
    """

    _parameter_constraints = {
        **_BaseGradientBoosting._parameter_constraints,
        "loss": [StrOptions({"log_loss", "exponential"})],
    }

    def __init__(
        self,
        loss="log_loss",
        *,
        learning_rate=0.1,
        n_estimators=100,
        max_depth=3,
        min_samples_leaf=1,
        subsample=1.0,
        method="gradient",
        reg_lambda=1.0,
        gamma=0.0,
        min_child_weight=1.0,
        splitter="exact",
        max_bins=255,
        validation_fraction=0.1,
        n_iter_no_change=None,
        tol=1e-4,
        max_features=None,
        random_state=None,
        warm_start=False,
    ):
        self.loss = loss
        self.learning_rate = learning_rate
        self.n_estimators = n_estimators
        self.max_depth = max_depth
        self.min_samples_leaf = min_samples_leaf
        self.subsample = subsample
        self.method = method
        self.reg_lambda = reg_lambda
        self.gamma = gamma
        self.min_child_weight = min_child_weight
        self.splitter = splitter
        self.max_bins = max_bins
        self.validation_fraction = validation_fraction
        self.n_iter_no_change = n_iter_no_change
        self.tol = tol
        self.max_features = max_features
        self.random_state = random_state
        self.warm_start = warm_start

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y, sample_weight=None):
        """Fit the additive model round by round.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Finite inputs.
        y : array-like of shape (n_samples,)
            Class labels (at least two classes).
        sample_weight : array-like of shape (n_samples,) or None, default=None
            Non-negative weights.

        Returns
        -------
        GradientBoostingClassifier
            The fitted model.

        Raises
        ------
        ValueError
            If a class of y has a total weight of zero (in the training part of the
            early-stopping split, with ``n_iter_no_change``): its raw score would run to −inf
            and its probability to a rounding error, so it is refused, as scikit-learn does.
            Also if X is empty, not 2-D, not numeric, complex, or holds NaN or ±inf; y has
            fewer than two classes; sample_weight is negative, NaN, all zero, beyond 1e100 in
            magnitude or not one per sample; or a hyper-parameter is outside its declared
            constraints (scikit-learn's InvalidParameterError, which is also a TypeError).
        """
        X, y = validate_data(self, X, y, dtype=np.float64, reset=not self._warm())
        check_classification_targets(y)
        classes, t = np.unique(y, return_inverse=True)
        if self._warm() and not np.array_equal(classes, self.classes_):
            raise ValueError(
                "y has other classes than the fitted trees; with warm_start=True the classes "
                f"must stay {self.classes_.tolist()}"
            )
        self.classes_ = classes
        K = self.classes_.size
        if K < 2:
            raise ValueError(f"y needs samples of at least 2 classes, got {K} class")
        loss = make_loss(self.loss, n_classes=K)
        return self._fit_boosting(X, t.astype(float), sample_weight, loss, t)

    def decision_function(self, X):
        """The raw scores f_M(x): log-odds, half log-odds (exponential) or K class scores.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Inputs.

        Returns
        -------
        ndarray of shape (n_samples,) or (n_samples, n_classes)
            The raw scores.
        """
        F = self._raw_predict(X)
        return F[:, 0] if F.shape[1] == 1 else F

    def staged_decision_function(self, X):
        """The raw scores after each round.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Inputs.

        Yields
        ------
        ndarray of shape (n_samples,) or (n_samples, n_classes)
            The raw scores after round m.
        """
        for F in self._staged_raw(X):
            yield F[:, 0] if F.shape[1] == 1 else F

    def _proba(self, F):
        if F.shape[1] > 1:
            E = np.exp(F - F.max(axis=1, keepdims=True))
            return E / E.sum(axis=1, keepdims=True)
        p = expit(2 * F[:, 0] if self.loss == "exponential" else F[:, 0])
        return np.column_stack([1 - p, p])

    def _log_proba(self, F):
        if F.shape[1] > 1:
            return log_softmax(F, axis=1)
        z = 2 * F[:, 0] if self.loss == "exponential" else F[:, 0]
        return np.column_stack([log_expit(-z), log_expit(z)])

    def predict_log_proba(self, X):
        """The log class probabilities, computed in the log domain (log-softmax, log σ).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Inputs.

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
            ln p(class | x), finite where the probability underflows to 0.
        """
        return self._log_proba(self._raw_predict(X))

    def predict_proba(self, X):
        """Class probabilities: σ(f), σ(2f) (exponential loss) or softmax(f).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Inputs.

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
            The probabilities, in the order of ``classes_``.
        """
        return self._proba(self._raw_predict(X))

    def staged_predict_proba(self, X):
        """Class probabilities after each round.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Inputs.

        Yields
        ------
        ndarray of shape (n_samples, n_classes)
            The probabilities after round m.
        """
        for F in self._staged_raw(X):
            yield self._proba(F)

    def predict(self, X):
        """The most probable class.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Inputs.

        Returns
        -------
        ndarray of shape (n_samples,)
            Predicted labels.
        """
        check_is_fitted(self)
        return self.classes_[np.argmax(self.predict_proba(X), axis=1)]

    def staged_predict(self, X):
        """The predicted classes after each round.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Inputs.

        Yields
        ------
        ndarray of shape (n_samples,)
            Predicted labels after round m.
        """
        check_is_fitted(self)
        for F in self._staged_raw(X):
            yield self.classes_[np.argmax(self._proba(F), axis=1)]
