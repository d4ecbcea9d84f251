"""AdaBoost (PRML Section 14.3) and its K-class form SAMME: the estimator built from
:mod:`prml14.boosting.adaboost`.

:class:`AdaBoostClassifier` fits one weak learner per round and composes the tagged core
functions into the round, as scikit-learn's ``_weight_boosting`` does: the weighted error
(14.15)/(14.16), the classifier weight (14.17) and the weight update (14.18); it predicts with
the sign (14.19) of the additive model (14.21). Its default weak learner for two classes is
:class:`prml14.boosting.stump_estimators.DecisionStump`, fitted on columns sorted once for all
rounds. For K > 2 classes it runs SAMME (Zhu, Zou, Rosset and Hastie, 2009): the classifier weight
(B.8) and the class scores (B.9), with a depth-1 :class:`prml14.trees.DecisionTreeClassifier` as
default learner (the stump is a two-class learner: it outputs ±1), cut like the stumps from columns
sorted once (:meth:`~prml14.boosting.stump_estimators.SortedColumns.best_class_split`): the tree
the engine would grow.
"""

from __future__ import annotations

from numbers import Integral

import numpy as np
from scipy.special import log_expit, log_softmax
from sklearn.base import BaseEstimator, ClassifierMixin, _fit_context, clone
from sklearn.utils import check_random_state, get_tags
from sklearn.utils._param_validation import HasMethods, Interval
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import (
    check_is_fitted,
    has_fit_parameter,
    validate_data,
)

from .._equations import implements
from .._numerics import expit, softmax
from .._validation import binary_targets, check_sample_weight, random_state_params
from ..trees import DecisionTreeClassifier, Gini, SortedFeatures, Tree
from ..trees.exact import sort_features
from .adaboost import (
    _normalise_log_weights,
    _update_log_weights,
    _weighted_error,
    normalise_log_weights,
    samme_classifier_weight,
    samme_scores,
)
from .stump_estimators import DecisionStump, SortedColumns

__all__ = ["AdaBoostClassifier"]


#: A round with ε_m ≥ ½ − this is no better than chance. After (14.18) the previous learner has
#: weighted error exactly ½, so when no better learner exists (e.g. constant features) only
#: rounding decides on which side of ½ ε_m lands, and α_m would be a meaningless ~1e-16.
_CHANCE_TOLERANCE = 1e-12


def _fit_class_stump(learner, columns, X, y, w, n_classes):
    """Fit the default K-class learner, a depth-1 :class:`~prml14.trees.DecisionTreeClassifier`,
    from columns sorted once (``SortedColumns.best_class_split``) instead of growing it anew:
    the same cut as the engine's depth-1 tree, leaves with the class proportions of their
    points. Returns the learner and its predictions y_m(x_n) on X."""
    feature, threshold = columns.best_class_split(y, w, n_classes)
    criterion = Gini(n_classes)
    total = np.bincount(y, w, minlength=n_classes)
    if feature is None:  # no cut: one leaf
        sums, counts, go_left = total[:, None], np.array([len(y)]), None
        shape = ([-1], [-1], [-2], [-2.0], [0])
    else:
        go_left = X[:, feature] <= threshold
        left = np.bincount(y[go_left], w[go_left], minlength=n_classes)
        right = np.bincount(y[~go_left], w[~go_left], minlength=n_classes)
        sums = np.column_stack([total, left, right])
        n_left = int(np.count_nonzero(go_left))
        counts = np.array([len(y), n_left, len(y) - n_left])
        shape = ([1, -1, -1], [2, -1, -1], [feature, -2, -2], [threshold, -2.0, -2.0], [0, 1, 1])
    left_ids, right_ids, features, thresholds, depth = (np.array(a) for a in shape)
    tree = Tree(
        left_ids.astype(np.intp),
        right_ids.astype(np.intp),
        features.astype(np.intp),
        thresholds.astype(float),
        criterion.node_value(sums),
        criterion.node_impurity(sums),
        counts.astype(np.intp),
        criterion.node_weight(sums),
        depth.astype(np.intp),
    )
    learner.classes_, learner.n_features_in_ = np.arange(n_classes), X.shape[1]
    learner._finish_fit(tree, 1.0)  # the weights were not rescaled
    leaf_class = np.argmax(tree.value, axis=1)
    if go_left is None:
        return learner, np.full(len(y), leaf_class[0], dtype=float)
    return learner, np.where(go_left, leaf_class[1], leaf_class[2]).astype(float)


def _grows_from_sorted(learner):
    """Whether ``learner`` is a :class:`~prml14.trees.DecisionTreeClassifier` that AdaBoost may
    grow from features sorted once (:meth:`_fit_checked`): the same tree as its ``fit``."""
    return (
        type(learner) is DecisionTreeClassifier
        and learner.class_weight is None
        and learner.splitter == "exact"
    )


def _fresh_learner(template, rng):
    """``_reseed(clone(template), rng)`` for a :class:`DecisionStump` (no parameter is random)
    or a template that :func:`_grows_from_sorted`: the same parameters and seed, without
    clone's introspection of every parameter (a tenth of a stump round's time)."""
    if type(template) is DecisionStump:
        return DecisionStump(criterion=template.criterion)
    seed = rng.randint(np.iinfo(np.int32).max)
    return DecisionTreeClassifier(**{**template.get_params(deep=False), "random_state": seed})


def _reseed(estimator, rng):
    """Give every ``random_state`` parameter of ``estimator`` its own seed drawn from ``rng``."""
    seeds = {key: rng.randint(np.iinfo(np.int32).max) for key in random_state_params(estimator)}
    if seeds:
        estimator.set_params(**seeds)
    return estimator


@implements("14.15", "14.16", "14.17", "14.18", "14.19", "14.21", "B.8", "B.9")
class AdaBoostClassifier(ClassifierMixin, BaseEstimator):
    """AdaBoost as in PRML Section 14.3 for two classes, and SAMME for K > 2 classes.

    Round m fits the weak learner to the weights w^{(m)} (minimising (14.15)), computes ε_m
    (14.16) and α_m (14.17), and re-weights the data with (14.18). The committee predicts with
    the sign (14.19) of f_M(x) = ½ Σ_m α_m y_m(x) (14.21).

    With K > 2 classes the round is SAMME's: the same ε_m and weight update (14.18), the weight
    α_m = ln{(1 − ε_m)/ε_m} + ln(K − 1) (B.8), and the prediction argmax_k g_k(x) of the class
    scores g_k(x) = Σ_m α_m {I(y_m(x) = k) − 1/K} (B.9). For K = 2 the added ln(K − 1) is 0,
    and two-class fits are exactly PRML's algorithm.

    Parameters
    ----------
    estimator : classifier or None, default=None
        The weak learner; its ``fit`` must accept ``sample_weight``. ``None`` means
        :class:`~prml14.DecisionStump` for two classes (fitted on columns sorted once for all
        rounds) and a depth-1 :class:`~prml14.trees.DecisionTreeClassifier` (Gini) for K > 2.
        It is trained on the targets coded as t ∈ {−1.0, +1.0} for two classes, and as the
        class indices 0, ..., K − 1 for K > 2. A :class:`~prml14.trees.DecisionTreeClassifier`
        (without ``class_weight``, exact splitter) is grown every round from X sorted once:
        the tree its ``fit`` would grow, without sorting and validating X again.
    n_estimators : int, default=50
        The maximal number of rounds M.
    random_state : int, RandomState instance or None, default=None
        Seeds the ``random_state`` parameters of the weak learners (one seed per round).
    store_weights : bool, default=False
        Keep the normalised weights w^{(m)} of every round in ``sample_weights_``.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        For two classes ``classes_[0]`` is coded t = −1, ``classes_[1]`` is t = +1.
    estimators_ : list of fitted learners, one per completed round.
    estimator_weights_ : ndarray of shape (n_rounds,)
        α_m. (Unlike scikit-learn, the arrays hold only the rounds actually run.)
    estimator_errors_ : ndarray of shape (n_rounds,)
        ε_m.
    stop_reason_ : str
        ``"n_estimators"``, ``"perfect"`` (ε_m = 0) or ``"no better than chance"``
        (ε_m ≥ 1 − 1/K, i.e. ε_m ≥ ½ for two classes).
    sample_weights_ : ndarray of shape (n_rounds, n_samples)
        Only with ``store_weights=True``: w^{(m)}, normalised to sum to one.
    n_features_in_ : int

    Notes
    -----
    Degenerate rounds:

    * ε_m = 0 (the learner classifies every training point correctly): (14.17) gives α_m = ∞,
      i.e. the committee becomes that learner. We keep the learner, use the finite weight
      α_m = 1 + Σ_{l<m} α_l — large enough that sign(Σ_l α_l y_l) equals y_m everywhere, the
      limit α_m → ∞ — and stop (in round 1 this is α_1 = 1, as scikit-learn uses).
    * ε_m ≥ 1 − 1/K (½ for two classes): the learner is no better than chance, α_m ≤ 0. The
      learner is discarded and boosting stops; in round 1 a ``ValueError`` is raised because
      there is no committee. ε_m within 1e-12 of the bound counts as chance too: it equals it up
      to rounding (α_m ≈ 1e-16), which happens when no learner beats the previous one under its
      re-weighted data.

    The weights are kept as logarithms and renormalised every round, so thousands of rounds
    neither overflow nor underflow. Ties f_M(x) = 0 are predicted as ``classes_[0]`` (for
    K > 2, ties of the scores go to the first class). ``predict_proba`` returns σ(2 f_M(x)), the
    inverse of (14.28), and for K > 2 softmax(g(x)), which is the same formula at K = 2.
    """

    _parameter_constraints = {
        "estimator": [HasMethods(["fit", "predict"]), None],
        "n_estimators": [Interval(Integral, 1, None, closed="left")],
        "random_state": ["random_state"],
        "store_weights": ["boolean"],
    }

    def __init__(self, estimator=None, n_estimators=50, *, random_state=None, store_weights=False):
        self.estimator = estimator
        self.n_estimators = n_estimators
        self.random_state = random_state
        self.store_weights = store_weights

    def _learner_template(self, n_classes=2):
        if self.estimator is None:
            return DecisionStump() if n_classes == 2 else DecisionTreeClassifier(max_depth=1)
        if not has_fit_parameter(self.estimator, "sample_weight"):
            raise ValueError(
                "estimator must accept sample_weight in fit; "
                f"{type(self.estimator).__name__}.fit does not"
            )
        return self.estimator

    @_fit_context(prefer_skip_nested_validation=False)
    def fit(self, X, y, sample_weight=None):
        """Run up to ``n_estimators`` boosting rounds on (X, y).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Finite inputs.
        y : array-like of shape (n_samples,)
            Exactly two class labels.
        sample_weight : array-like of shape (n_samples,), default=None
            Initial weights w^{(1)} (uniform 1/N if None); normalised to sum to one. Points of
            zero weight are left out (``sample_weights_`` then has columns for the others only).

        Returns
        -------
        AdaBoostClassifier
            The fitted committee.

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
        classes, y_index = np.unique(y, return_inverse=True)
        n_classes = classes.size
        if n_classes < 2:
            raise ValueError(
                f"y must contain at least two classes, got {n_classes} class: {classes.tolist()}"
            )
        if n_classes == 2:
            template = self._learner_template()
            self.classes_, t = binary_targets(y)
        else:  # SAMME: the weak learners are trained on the class indices
            template = self._learner_template(n_classes)
            self.classes_, t = classes, y_index.reshape(-1).astype(np.intp)
        w = check_sample_weight(
            sample_weight, X, dtype=np.float64, max_magnitude=None
        )  # not all 0
        # points of zero weight never count in (14.15) and (14.18) keeps them at zero: drop them,
        # so that they do not move the stumps' midpoint thresholds either
        keep = w > 0
        if not keep.all():
            X, t, w = X[keep], t[keep], w[keep]
        w, log_w = normalise_log_weights(np.log(w))
        rng = check_random_state(self.random_state)
        stumps = type(template) is DecisionStump and n_classes == 2
        # the default K-class learner, a depth-1 tree, is cut from the same sorted columns
        class_stumps = self.estimator is None and n_classes > 2
        if stumps or _grows_from_sorted(template):  # their fit is bypassed: check as it would
            template._validate_params()
        columns = SortedColumns(X) if stumps or class_stumps else None
        if columns is not None:  # the stumps read one column per round: contiguous columns
            X = np.asfortranarray(X)
        elif _grows_from_sorted(template):  # the package's tree: sort X once for all rounds
            columns = sort_features(X)

        learners, alphas, errors, history = [], [], [], []
        self.stop_reason_ = "n_estimators"
        for m in range(self.n_estimators):
            if self.store_weights:
                history.append(w)
            learner, alpha, eps, log_w = self._boost(
                X, t, w, log_w, template, columns, rng, sum(alphas), n_classes
            )
            if learner is None:  # ε_m ≥ 1 − 1/K
                if m == 0:
                    raise ValueError(
                        "the first weak learner is no better than chance (weighted error "
                        f"{eps:.3g} >= {1 - 1 / n_classes:.3g}); AdaBoost cannot build a "
                        "committee. Use a stronger estimator."
                    )
                self.stop_reason_ = "no better than chance"
                if self.store_weights:
                    history.pop()
                break
            learners.append(learner)
            alphas.append(alpha)
            errors.append(eps)
            if eps == 0:
                self.stop_reason_ = "perfect"
                break
            w, log_w = _normalise_log_weights(log_w, np.max(log_w))  # log_w is finite

        self.estimators_ = learners
        self.estimator_weights_ = np.array(alphas)
        self.estimator_errors_ = np.array(errors)
        if self.store_weights:
            self.sample_weights_ = np.array(history)
        elif hasattr(
            self, "sample_weights_"
        ):  # from an earlier fit: it would describe another model
            del self.sample_weights_
        self._stump_table_ = self._tabulate_stumps() if stumps else None
        return self

    def _boost(self, X, t, w, log_w, template, columns, rng, alpha_sum, n_classes):
        """One round: fit y_m to w^{(m)}, then (14.16), (14.17) (or (B.8)) and (14.18).

        Parameters
        ----------
        X : ndarray of shape (n_samples, n_features)
        t : ndarray of shape (n_samples,)
            Targets in {−1, +1} (two classes) or class indices (K > 2).
        w, log_w : ndarray of shape (n_samples,)
            w^{(m)}, normalised to sum to one, and its logarithm.
        template : classifier
            The unfitted weak learner; cloned, re-seeded from ``rng`` and fitted.
        columns : SortedColumns, SortedFeatures or None
            X sorted once: columns for :class:`DecisionStump` learners and the default K-class
            depth-1 trees, features for a :class:`~prml14.trees.DecisionTreeClassifier` learner
            (None for any other learner).
        rng : RandomState
        alpha_sum : float
            Σ_{l<m} α_l, for the weight of a perfect learner.
        n_classes : int
            K.

        Returns
        -------
        learner : fitted learner, or None when ε_m ≥ 1 − 1/K up to rounding (boosting stops)
        alpha : float
            α_m (14.17), for K > 2 (B.8); 1 + Σ_{l<m} α_l when ε_m = 0.
        eps : float
            ε_m (14.16).
        log_w : ndarray
            ln w^{(m+1)} before normalisation (14.18).
        """
        if type(template) is DecisionStump or _grows_from_sorted(template):
            learner = _fresh_learner(template, rng)
        else:
            learner = _reseed(clone(template), rng)
        if isinstance(columns, SortedFeatures):  # fit validated X, t and w once
            classes, t_index = np.unique(t, return_inverse=True)
            learner._fit_checked(columns, classes, t_index, w)
            learner.n_features_in_ = X.shape[1]
            y_m = classes[np.argmax(learner.tree_.value[learner.tree_.apply(X)], axis=1)]
            y_m = y_m.astype(float)
        elif columns is not None and n_classes > 2:
            learner, y_m = _fit_class_stump(learner, columns, X, t, w, n_classes)
        elif columns is not None:
            learner.classes_, learner.n_features_in_ = np.array([-1.0, 1.0]), X.shape[1]
            learner._fit_sorted(columns, t, w)
            y_m = learner._decision(X)
        else:
            learner.fit(X, t, sample_weight=w)
            y_m = np.asarray(learner.predict(X), dtype=float)
        miss = y_m != t
        eps = _weighted_error(w, miss, float(np.sum(w)))  # (14.16), from (14.15), unchecked
        if eps >= 1.0 - 1.0 / n_classes - _CHANCE_TOLERANCE:
            return None, None, eps, log_w
        if eps == 0:
            return learner, 1.0 + alpha_sum, eps, log_w
        # (14.17) plus ln(K − 1), which is 0.0 exactly for K = 2: (B.8)
        alpha = float(samme_classifier_weight(eps, n_classes))
        return learner, alpha, eps, _update_log_weights(log_w, alpha, miss)  # (14.18)

    # --- prediction -----------------------------------------------------------------------

    def _tabulate_stumps(self):
        """Per feature: sorted thresholds and cumulative jumps of f, for O(N D log M) predict."""
        feature = np.array([s.feature_ for s in self.estimators_])
        threshold = np.array([s.threshold_ for s in self.estimators_])
        leaves = np.array([s.leaf_values_ for s in self.estimators_]).reshape(-1, 2)
        half_alpha = 0.5 * self.estimator_weights_
        base = float(np.dot(half_alpha, leaves[:, 0]))
        jump = half_alpha * (leaves[:, 1] - leaves[:, 0])  # added where x_j > θ_m
        table = {}
        for j in np.unique(feature):
            idx = np.flatnonzero(feature == j)
            idx = idx[np.argsort(threshold[idx], kind="stable")]
            table[int(j)] = (threshold[idx], np.concatenate([[0.0], np.cumsum(jump[idx])]))
        return base, table

    def _member_classes(self, X):
        """The class indices y_m(x) of every member, shape (n_samples, n_rounds) (K > 2)."""
        return np.column_stack(
            [np.asarray(learner.predict(X)).astype(np.intp) for learner in self.estimators_]
        )

    def _decision(self, X):
        if self.classes_.size > 2:  # (B.9)
            K = self.classes_.size
            return samme_scores(self._member_classes(X), self.estimator_weights_, K)
        if self._stump_table_ is not None:
            base, table = self._stump_table_
            f = np.full(X.shape[0], base)
            for j, (thresholds, cum_jump) in table.items():
                f += cum_jump[np.searchsorted(thresholds, X[:, j], side="left")]
            return f
        f = np.zeros(X.shape[0])
        for alpha, learner in zip(self.estimator_weights_, self.estimators_, strict=True):
            f += 0.5 * alpha * np.asarray(learner.predict(X), dtype=float)
        return f

    def _check_X(self, X):
        check_is_fitted(self)
        return validate_data(self, X, dtype=np.float64, reset=False)

    def decision_function(self, X):
        """f_M(x) = ½ Σ_m α_m y_m(x), the additive model (14.21); positive means ``classes_[1]``.

        Two classes: computed without an (n_samples, n_rounds) array: stumps are tabulated per
        feature and looked up with a binary search; other learners are accumulated one at a
        time. K > 2 classes: the SAMME scores g_k(x) (B.9), one column per class.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The inputs.

        Returns
        -------
        ndarray of shape (n_samples,) or (n_samples, n_classes)
            f_M(x) at each input (two classes), or g_k(x) (K > 2).
        """
        return self._decision(self._check_X(X))

    def staged_decision_function(self, X):
        """f_m(x) for m = 1, ..., M (14.21), one array per round.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The inputs.

        Yields
        ------
        ndarray of shape (n_samples,) or (n_samples, n_classes)
            f_m(x) at each input, for m = 1, ..., M in turn (for K > 2 the scores (B.9)).
        """
        X = self._check_X(X)
        if self.classes_.size > 2:
            K = self.classes_.size
            g = np.zeros((X.shape[0], K))
            for alpha, learner in zip(self.estimator_weights_, self.estimators_, strict=True):
                y_m = np.asarray(learner.predict(X)).astype(np.intp)
                g = g + samme_scores(y_m[:, None], [alpha], K)
                yield g
            return
        f = np.zeros(X.shape[0])
        for alpha, learner in zip(self.estimator_weights_, self.estimators_, strict=True):
            y_m = learner._decision(X) if self._stump_table_ is not None else learner.predict(X)
            f = f + 0.5 * alpha * np.asarray(y_m, dtype=float)
            yield f

    def predict(self, X):
        """The committee's class, the sign (14.19) of f_M (ties go to ``classes_[0]``).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The inputs.

        Returns
        -------
        ndarray of shape (n_samples,)
            The predicted labels, from ``classes_``.
        """
        f = self.decision_function(X)
        if f.ndim == 2:
            return self.classes_[np.argmax(f, axis=1)]
        return self.classes_[(f > 0).astype(int)]

    def staged_predict(self, X):
        """The committee's classes after each round m = 1, ..., M.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The inputs.

        Yields
        ------
        ndarray of shape (n_samples,)
            The predicted labels after round m, for m = 1, ..., M in turn.
        """
        for f in self.staged_decision_function(X):
            if f.ndim == 2:
                yield self.classes_[np.argmax(f, axis=1)]
            else:
                yield self.classes_[(f > 0).astype(int)]

    @property
    def feature_importances_(self):
        """The members' ``feature_importances_`` averaged with the weights α_m (as scikit-learn).

        Returns
        -------
        ndarray of shape (n_features,)
            Non-negative, summing to one.

        Raises
        ------
        AttributeError
            If a member has no ``feature_importances_`` (nor ``feature_`` like a stump).
        """
        check_is_fitted(self)
        total = np.zeros(self.n_features_in_)
        for alpha, est in zip(self.estimator_weights_, self.estimators_, strict=True):
            if hasattr(est, "feature_importances_"):
                total += alpha * est.feature_importances_
            else:  # a decision stump: all of its decrease is on its one feature
                total[est.feature_] += alpha
        return total / total.sum()

    def predict_log_proba(self, X):
        """ln p(class | x), computed in the log domain.

        log σ(±2 f_M(x)) for two classes, the log-softmax of the SAMME scores for K > 2.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The inputs.

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
            Columns in the order of ``classes_``.
        """
        return self._log_proba(self.decision_function(X))

    @staticmethod
    def _log_proba(f):
        if f.ndim == 2:
            return log_softmax(f, axis=1)
        return np.column_stack([log_expit(-2.0 * f), log_expit(2.0 * f)])

    def staged_predict_proba(self, X):
        """The class probabilities after each round m = 1, ..., M.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The inputs.

        Yields
        ------
        ndarray of shape (n_samples, n_classes)
            ``predict_proba`` of the committee of the first m rounds.
        """
        for f in self.staged_decision_function(X):
            yield self._proba(f)

    def predict_proba(self, X):
        """p(t = +1 | x) = σ(2 f_M(x)), inverting (14.28) (Friedman, Hastie and Tibshirani, 2000).

        For K > 2 classes, softmax(g(x)) of the scores (B.9); at K = 2 this is σ(2 f_M(x)).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The inputs.

        Returns
        -------
        ndarray of shape (n_samples, 2)
            Columns in the order of ``classes_``.
        """
        return self._proba(self.decision_function(X))

    @staticmethod
    def _proba(f):
        if f.ndim == 2:
            return softmax(f, axis=1)
        p = expit(2.0 * f)
        return np.column_stack([1.0 - p, p])

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        # K > 2 classes need a K-class weak learner (the default one is); a duck-typed member
        # (fit with sample_weight, predict, classes_, but no ClassifierMixin) has no classifier
        # tags: it is taken at its word, as scikit-learn's AdaBoost takes it
        member_tags = None if self.estimator is None else get_tags(self.estimator).classifier_tags
        tags.classifier_tags.multi_class = member_tags is None or member_tags.multi_class
        return tags
