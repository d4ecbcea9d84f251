"""Bagging (bootstrap aggregation, Breiman 1996): committees (14.7) of bootstrap-trained members.

Each member is trained on a bootstrap sample of the data (N points drawn with replacement), so
the members differ and their average has a lower variance than any one of them (Section 14.2).
The bootstrap itself is :func:`prml14.committees.bagging.bootstrap_indices`; the points a sample
leaves out (about 1/e of them) give the out-of-bag estimate of the generalisation error.

:class:`BaggingRegressor` and :class:`BaggingClassifier` take any scikit-learn estimator as
member. Their default member is prml14's own CART tree
(:class:`prml14.trees.DecisionTreeRegressor`, :class:`prml14.trees.DecisionTreeClassifier`),
fully grown.
"""

from __future__ import annotations

import warnings
from numbers import Integral

import numpy as np
from joblib import effective_n_jobs
from sklearn.base import (
    BaseEstimator,
    ClassifierMixin,
    RegressorMixin,
    _fit_context,
    clone,
    is_regressor,
)
from sklearn.metrics import accuracy_score, r2_score
from sklearn.utils._param_validation import HasMethods, Interval, RealNotInt, StrOptions
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.parallel import Parallel, delayed
from sklearn.utils.validation import (
    check_is_fitted,
    has_fit_parameter,
    validate_data,
)

from .._validation import check_random_state, check_sample_weight, random_state_params
from ..trees import DecisionTreeClassifier, DecisionTreeRegressor
from .bagging import _n_draws, bootstrap_indices, out_of_bag_mask

__all__ = [
    "BaggingRegressor",
    "BaggingClassifier",
]


def _fit_member(estimator, X, y, indices, sample_weight, seed, use_counts, features=None):
    """Fit one member on the bootstrap sample ``indices`` (and the columns ``features``).

    With ``use_counts`` the member is fitted on the distinct points of the sample, each weighted
    by how often it was drawn (times its ``sample_weight``): for estimators whose sample weights
    act as repetition counts this is the same fit as on the repeated rows, on fewer rows.
    """
    # Seed every random_state of the member, nested ones included (a tree inside a Pipeline).
    estimator.set_params(**dict.fromkeys(random_state_params(estimator), seed))
    if features is not None:
        X = X[:, features]
    if use_counts:
        rows, counts = np.unique(indices, return_counts=True)
        weight = counts.astype(float) if sample_weight is None else counts * sample_weight[rows]
        estimator.fit(X[rows], y[rows], sample_weight=weight)
    else:
        estimator.fit(X[indices], y[indices])
    return estimator


def _member_output(estimator, X, *, proba=False):
    """``estimator.predict(X)`` (``predict_proba`` with ``proba``) on X the ensemble validated.

    The package's own trees are read directly: their ``predict`` would validate X again for
    every member (about 0.3 ms a call), and returns the same leaf values.
    """
    if type(estimator) is DecisionTreeRegressor:
        return estimator.tree_.value[estimator.tree_.apply(X), 0]
    if type(estimator) is DecisionTreeClassifier:
        value = estimator.tree_.value[estimator.tree_.apply(X)]
        return value if proba else estimator.classes_[np.argmax(value, axis=1)]
    return estimator.predict_proba(X) if proba else estimator.predict(X)


def _fit_members(estimators, X, y, indices, sample_weights, seeds, use_counts, features):
    """Fit a run of members one after the other (one parallel task): :func:`_fit_member` of
    each, with its own sample, weights, seed and columns."""
    return [
        _fit_member(est, X, y, idx, w, seed, use_counts, f)
        for est, idx, w, seed, f in zip(
            estimators, indices, sample_weights, seeds, features, strict=True
        )
    ]


class _BaseBagging(BaseEstimator):
    _parameter_constraints: dict = {
        "estimator": [HasMethods(["fit", "predict"]), None],
        "n_estimators": [Interval(Integral, 1, None, closed="left")],
        "max_samples": [
            None,
            Interval(Integral, 1, None, closed="left"),
            Interval(RealNotInt, 0, 1, closed="right"),
        ],
        "max_features": [
            Interval(Integral, 1, None, closed="left"),
            Interval(RealNotInt, 0, 1, closed="right"),
        ],
        "bootstrap": ["boolean"],
        "bootstrap_features": ["boolean"],
        "oob_score": ["boolean"],
        "warm_start": ["boolean"],
        "n_jobs": [None, Integral],
        "random_state": ["random_state"],
    }

    @_fit_context(prefer_skip_nested_validation=False)
    def fit(self, X, y, sample_weight=None):
        """Fit M members on bootstrap samples of (X, y).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The training inputs (finite).
        y : array-like of shape (n_samples,)
            The targets: real values (regressor) or class labels (classifier).
        sample_weight : array-like of shape (n_samples,), default=None
            Passed on (restricted to each bootstrap sample, times the number of draws) to
            members that accept it; refused with a ``TypeError`` for members that do not.

        Returns
        -------
        object
            The fitted ensemble.

        Raises
        ------
        ValueError
            If X is empty, not 2-D, not numeric, complex, or holds NaN or ±inf; y (a regressor's)
            holds NaN or ±inf or exceeds 1e100 in magnitude; sample_weight is negative, NaN, all
            zero, beyond 1e100 in magnitude or not one per sample; n_jobs is 0; or a
            hyper-parameter is outside its declared constraints (scikit-learn's
            InvalidParameterError, which is also a TypeError).

        Notes
        -----
        With ``warm_start=True`` and a fitted ensemble, ``fit`` keeps the fitted members (the
        very same objects) and adds ``n_estimators - len(estimators_)`` new ones. The random
        draws are made for all ``n_estimators`` members, as a fit from scratch makes them, and
        the new members take the draws of their positions: their samples, seeds and feature
        subsets are those a fit of all the members at once gives them, so the same
        ``random_state`` gives the same warm-started ensemble. The old members keep the seeds
        of their own, shorter, fit; the warm-started ensemble equals a fit of all members at
        once where those seeds coincide: when neither rows nor columns are drawn
        (``bootstrap=False`` with all rows, all columns), or when the members do not use
        their seed.
        """
        warm = self.warm_start and hasattr(self, "estimators_")
        X, y = validate_data(self, X, y, y_numeric=is_regressor(self), reset=not warm)
        n_old = len(self.estimators_) if warm else 0
        if self.n_estimators < n_old:
            raise ValueError(
                f"n_estimators={self.n_estimators} must be at least the {n_old} members "
                "already fitted when warm_start=True"
            )
        old_classes = getattr(self, "classes_", None) if warm else None
        self.estimator_ = self._member_template()
        y = self._check_targets_and_estimator(y)
        if old_classes is not None and not np.array_equal(old_classes, self.classes_):
            self.classes_ = old_classes
            raise ValueError(
                "y has other classes than the fitted members; with warm_start=True the "
                f"classes must stay {old_classes.tolist()}"
            )
        if n_old == self.n_estimators:
            warnings.warn(
                "warm_start=True without a larger n_estimators fits no new member",
                UserWarning,
                stacklevel=2,
            )
            return self
        use_counts = has_fit_parameter(self.estimator_, "sample_weight")
        if sample_weight is not None:
            if not use_counts:
                raise TypeError(
                    f"sample_weight was given but the estimator {type(self.estimator_).__name__} "
                    "does not accept sample_weight in fit"
                )
            sample_weight = check_sample_weight(sample_weight, X)
        rng = check_random_state(self.random_state)
        indices = self._draw_samples(X.shape[0], rng)[n_old:]
        seeds = rng.randint(np.iinfo(np.int32).max, size=self.n_estimators)[n_old:]
        # after the seeds, and only when drawn, so that the other fits keep their stream
        features = self._draw_features(X.shape[1], rng)
        features = [None] * len(seeds) if features is None else features[n_old:]
        if sample_weight is not None:
            indices = self._redraw_weightless(indices, sample_weight, rng)
        # processes (joblib's default backend, loky): a member's many small numpy calls hold
        # the GIL; joblib.parallel_config(backend=...) picks threads, Dask or Ray instead.
        # One task per worker, each a run of consecutive members: y and the weights are sent
        # once per worker and X once in all (loky memory-maps it)
        n_tasks = min(len(seeds), effective_n_jobs(self.n_jobs))
        cuts = np.linspace(0, len(seeds), n_tasks + 1).round().astype(int)
        batches = Parallel(n_jobs=self.n_jobs)(
            delayed(_fit_members)(
                [clone(self.estimator_) for _ in range(a, b)],
                X,
                y,
                indices[a:b],
                [self._member_weight(sample_weight, y, indices[m]) for m in range(a, b)],
                seeds[a:b],
                use_counts,
                features[a:b],
            )
            for a, b in zip(cuts[:-1], cuts[1:], strict=True)
        )
        new = [member for batch in batches for member in batch]
        if not warm:
            self.estimators_, self.estimators_samples_, self.estimators_features_ = [], [], []
        self.estimators_ += new  # the old members stay the very same objects
        self.estimators_samples_ += list(indices)
        all_features = np.arange(X.shape[1])
        self.estimators_features_ += [all_features if f is None else f for f in features]
        if self.oob_score:
            self._set_oob(X, y)
        return self

    def _member_template(self):
        """The estimator that every member is a clone of (random forests: a randomised tree)."""
        return self._default_estimator() if self.estimator is None else self.estimator

    def _draw_samples(self, n_samples, rng):
        """The training rows of every member, one row of indices each: the bootstrap, or
        with ``bootstrap=False`` rows drawn without replacement (all rows: no draw)."""
        if self.bootstrap:
            return bootstrap_indices(n_samples, self.n_estimators, self.max_samples, rng)
        if self.oob_score:
            raise ValueError("oob_score=True needs bootstrap=True (no point is out of bag)")
        n_draws = _n_draws(n_samples, self.max_samples)
        if n_draws == n_samples:
            return np.broadcast_to(np.arange(n_samples), (self.n_estimators, n_samples))
        order = rng.random_sample((self.n_estimators, n_samples)).argsort(axis=1)
        return np.sort(order[:, :n_draws], axis=1)

    def _draw_features(self, n_features, rng):
        """The columns of every member, one row each (scikit-learn's ``max_features`` and
        ``bootstrap_features``), or None when every member takes all columns (no draw)."""
        mf = self.max_features
        n_draws = max(1, int(mf * n_features)) if isinstance(mf, float) else int(mf)
        if n_draws > n_features:
            raise ValueError(f"max_features must be <= n_features = {n_features}, got {mf}")
        if self.bootstrap_features:
            return rng.randint(0, n_features, size=(self.n_estimators, n_draws))
        if n_draws == n_features:
            return None
        order = rng.random_sample((self.n_estimators, n_features)).argsort(axis=1)
        return np.sort(order[:, :n_draws], axis=1)

    def _columns(self, m, X):
        """The columns of X that member m was trained on."""
        f = self.estimators_features_[m]
        if f.shape[0] == X.shape[1] and np.array_equal(f, np.arange(X.shape[1])):
            return X
        return X[:, f]

    def _member_weight(self, sample_weight, y, indices):
        """The sample weights of the member trained on ``indices`` (bagging: ``sample_weight``;
        a forest's ``class_weight="balanced_subsample"`` makes them per sample)."""
        return sample_weight

    def _redraw_weightless(self, indices, sample_weight, rng):
        """Draw again every bootstrap sample that holds only rows of zero weight.

        With weights used as a mask (most of them zero) a sample can draw none of the rows that
        count; its member would have nothing to learn from. Such a sample is drawn again (from
        the same random stream, after the members' seeds, so the other members do not change)
        until it holds a row of positive weight; ``estimators_samples_`` records the sample
        that was used. (scikit-learn fits that member on zero total weight instead.)
        """
        # a loop over the few members, not the samples
        empty = [m for m, rows in enumerate(indices) if not np.any(sample_weight[rows] > 0)]
        if not empty:
            return indices
        indices = np.array(indices)
        for m in empty:
            while not np.any(sample_weight[indices[m]] > 0):
                indices[m] = bootstrap_indices(len(sample_weight), 1, self.max_samples, rng)[0]
        return indices

    def _oob_average(self, X, member_output):
        """Average of ``member_output(estimator, X_subset)`` over each point's OOB members."""
        mask = out_of_bag_mask(self.estimators_samples_, X.shape[0])
        total, count = None, mask.sum(axis=1)
        for m, (estimator, oob) in enumerate(zip(self.estimators_, mask.T, strict=True)):
            if not oob.any():
                continue
            out = member_output(estimator, self._columns(m, X[oob]))
            if total is None:
                total = np.zeros((X.shape[0],) + out.shape[1:])
            total[oob] += out
        if total is None or np.any(count == 0):
            warnings.warn(
                "Some inputs are in every bootstrap sample, so they have no out-of-bag "
                "prediction; increase n_estimators for a reliable oob_score_",
                UserWarning,
                stacklevel=3,
            )
            if total is None:
                total = np.zeros(X.shape[0])
        with np.errstate(invalid="ignore", divide="ignore"):
            return total / count.reshape((-1,) + (1,) * (total.ndim - 1)), count > 0

    def _validate_predict(self, X):
        check_is_fitted(self)
        return validate_data(self, X, reset=False)


class BaggingRegressor(RegressorMixin, _BaseBagging):
    """Bootstrap aggregation for regression: the committee (14.7) of bootstrap-trained members.

    Each of the ``n_estimators`` members is a clone of ``estimator`` fitted on a bootstrap sample
    (drawn with replacement) of the training set; the prediction is the plain average of the
    members' predictions, y_COM(x) = (1/M) Σ_m y_m(x).

    A member whose ``fit`` accepts ``sample_weight`` is fitted on the distinct points of its
    bootstrap sample, each weighted by the number of times it was drawn; for estimators whose
    weights act as repetition counts (trees, linear models) this is the same fit as on the
    repeated rows, and faster. Limits that count rows rather than weight, such as a tree's
    ``min_samples_leaf`` or ``min_samples_split``, then count distinct points (scikit-learn's
    bagging makes the same substitution). Other members are fitted on the repeated rows.

    Parameters
    ----------
    estimator : object, default=None
        The base regressor. None means prml14's own :class:`prml14.trees.DecisionTreeRegressor`
        with its defaults (fully grown: low bias, high variance, what bagging averages away).
    n_estimators : int, default=10
        M, the number of members.
    max_samples : int or float, default=None
        Points per bootstrap sample: an int in [1, N], a float in (0, 1] (fraction of N), or
        None (N).
    max_features : int or float, default=1.0
        Columns per member, drawn once for the member (scikit-learn's bagging, the random
        subspace method): an int in [1, D] or a float in (0, 1] (a fraction of D, at least 1).
    bootstrap : bool, default=True
        Draw each member's rows with replacement; False draws ``max_samples`` rows without
        replacement (all rows when it is None), and then no point is out of bag.
    bootstrap_features : bool, default=False
        Draw each member's columns with replacement.
    oob_score : bool, default=False
        Estimate the generalisation R² from out-of-bag predictions.
    warm_start : bool, default=False
        A new ``fit`` keeps the fitted members and adds new ones up to ``n_estimators``
        (see :meth:`fit` for what the result equals).
    n_jobs : int, default=None
        Members fitted in parallel by joblib: in processes (loky) unless
        ``joblib.parallel_config`` names another backend; None means 1. Results do not depend
        on it, nor on the backend.
    random_state : int, RandomState or None, default=None
        Seeds the bootstrap samples and each member's own ``random_state``.

    Attributes
    ----------
    estimator_ : estimator
        The base estimator that was cloned.
    estimators_ : list of estimators
        The M fitted members.
    estimators_samples_ : list of ndarray of int
        The bootstrap indices each member was trained on.
    estimators_features_ : list of ndarray of int
        The columns each member was trained on.
    n_features_in_ : int
        The number of input features.
    oob_prediction_ : ndarray of shape (n_samples,)
        Average prediction of the members for which each point was out of bag (NaN if none).
    oob_score_ : float
        R² of ``oob_prediction_`` on the points that have one.
    """

    def __init__(
        self,
        estimator=None,
        n_estimators=10,
        *,
        max_samples=None,
        max_features=1.0,
        bootstrap=True,
        bootstrap_features=False,
        oob_score=False,
        warm_start=False,
        n_jobs=None,
        random_state=None,
    ):
        self.estimator = estimator
        self.n_estimators = n_estimators
        self.max_samples = max_samples
        self.max_features = max_features
        self.bootstrap = bootstrap
        self.bootstrap_features = bootstrap_features
        self.warm_start = warm_start
        self.oob_score = oob_score
        self.n_jobs = n_jobs
        self.random_state = random_state

    fit = _BaseBagging.fit  # listed on this class's API page too (autodoc skips inherited methods)

    def _default_estimator(self):
        return DecisionTreeRegressor()  # prml14's tree (see the class docstring)

    def _check_targets_and_estimator(self, y):
        return y

    def _set_oob(self, X, y):
        pred, has = self._oob_average(X, _member_output)
        self.oob_prediction_ = np.where(has, pred, np.nan)
        self.oob_score_ = float(r2_score(y[has], pred[has])) if has.sum() > 1 else np.nan

    def member_predictions(self, X):
        """The predictions y_m(x) of every member, samples first.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The inputs.

        Returns
        -------
        ndarray of shape (n_samples, n_estimators)
            Column m holds member m's predictions;
            :func:`~prml14.committees.committee.committee_prediction` of it is
            :meth:`predict`.
        """
        X = self._validate_predict(X)
        return np.column_stack(
            [_member_output(est, self._columns(m, X)) for m, est in enumerate(self.estimators_)]
        )

    def predict(self, X):
        """The committee prediction (14.7): the average of the members' predictions.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The inputs.

        Returns
        -------
        ndarray of shape (n_samples,)
            y_COM(x) at each input.
        """
        X = self._validate_predict(X)
        total = np.zeros(X.shape[0])
        for m, est in enumerate(self.estimators_):  # running sum: never an M×N array
            total += _member_output(est, self._columns(m, X))
        return total / len(self.estimators_)


class BaggingClassifier(ClassifierMixin, _BaseBagging):
    """Bootstrap aggregation for classification, by probability (soft) or majority (hard) vote.

    Members are clones of ``estimator`` fitted on bootstrap samples (as repetition-count
    weights when the estimator accepts ``sample_weight``, see :class:`BaggingRegressor`). With
    ``voting="soft"`` the committee (14.7) averages the members' class probabilities and
    predicts the most probable class; with ``voting="hard"`` each member casts one vote and the
    class with most votes wins (ties go to the class that comes first in ``classes_``).

    Parameters
    ----------
    estimator : object, default=None
        The base classifier. None means prml14's own :class:`prml14.trees.DecisionTreeClassifier`
        with its defaults (fully grown). Soft voting needs ``predict_proba``.
    n_estimators : int, default=10
        M, the number of members.
    max_samples : int or float, default=None
        Points per bootstrap sample, as in :class:`BaggingRegressor`.
    max_features : int or float, default=1.0
        Columns per member, drawn once for the member (scikit-learn's bagging, the random
        subspace method): an int in [1, D] or a float in (0, 1] (a fraction of D, at least 1).
    bootstrap : bool, default=True
        Draw each member's rows with replacement; False draws ``max_samples`` rows without
        replacement (all rows when it is None), and then no point is out of bag.
    bootstrap_features : bool, default=False
        Draw each member's columns with replacement.
    voting : {"soft", "hard"}, default="soft"
        Average the members' class probabilities (soft) or count one vote per member (hard).
    oob_score : bool, default=False
        Estimate the generalisation accuracy from out-of-bag votes.
    warm_start : bool, default=False
        A new ``fit`` keeps the fitted members and adds new ones up to ``n_estimators``
        (see :meth:`fit` for what the result equals).
    n_jobs : int, default=None
        Members fitted in parallel by joblib: in processes (loky) unless
        ``joblib.parallel_config`` names another backend; None means 1. Results do not depend
        on it, nor on the backend.
    random_state : int, RandomState or None, default=None
        Seeds the bootstrap samples and each member's own ``random_state``.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        The class labels, sorted.
    estimator_ : estimator
        The base estimator that was cloned.
    estimators_ : list of estimators
        The fitted members. They are trained on the encoded labels 0, ..., n_classes − 1
        (``classes_[k]`` is label k).
    estimators_samples_ : list of ndarray of int
        The bootstrap indices each member was trained on.
    estimators_features_ : list of ndarray of int
        The columns each member was trained on.
    n_features_in_ : int
        The number of input features.
    oob_decision_function_ : ndarray of shape (n_samples, n_classes)
        Out-of-bag class probabilities (soft) or vote fractions (hard); NaN if a point has none.
    oob_score_ : float
        Accuracy of the out-of-bag predictions on the points that have one.
    """

    _parameter_constraints: dict = {
        **_BaseBagging._parameter_constraints,
        "voting": [StrOptions({"soft", "hard"})],
    }

    def __init__(
        self,
        estimator=None,
        n_estimators=10,
        *,
        max_samples=None,
        max_features=1.0,
        bootstrap=True,
        bootstrap_features=False,
        voting="soft",
        oob_score=False,
        warm_start=False,
        n_jobs=None,
        random_state=None,
    ):
        self.estimator = estimator
        self.n_estimators = n_estimators
        self.max_samples = max_samples
        self.max_features = max_features
        self.bootstrap = bootstrap
        self.bootstrap_features = bootstrap_features
        self.warm_start = warm_start
        self.voting = voting
        self.oob_score = oob_score
        self.n_jobs = n_jobs
        self.random_state = random_state

    fit = _BaseBagging.fit  # listed on this class's API page too (autodoc skips inherited methods)

    def _default_estimator(self):
        return DecisionTreeClassifier()  # prml14's tree (see the class docstring)

    def _check_targets_and_estimator(self, y):
        """Encode the labels as 0, ..., K − 1 (``classes_``); soft voting needs predict_proba."""
        check_classification_targets(y)
        if self.voting == "soft" and not hasattr(self.estimator_, "predict_proba"):
            raise TypeError(
                "voting='soft' needs an estimator with predict_proba; "
                f"{type(self.estimator_).__name__} has none (use voting='hard')"
            )
        self.classes_, y_encoded = np.unique(y, return_inverse=True)
        return y_encoded

    def _member_votes(self, estimator, X):
        """One member's (n_samples, n_classes) contribution: probabilities or a one-hot vote."""
        out = np.zeros((X.shape[0], len(self.classes_)))
        if self.voting == "soft":
            # A bootstrap sample may miss classes: place the member's columns at its own labels.
            out[:, estimator.classes_.astype(int)] = _member_output(estimator, X, proba=True)
        else:
            out[np.arange(X.shape[0]), np.asarray(_member_output(estimator, X), dtype=int)] = 1.0
        return out

    def _set_oob(self, X, y):
        dec, has = self._oob_average(X, self._member_votes)
        self.oob_decision_function_ = np.where(has[:, None], dec, np.nan)
        self.oob_score_ = (
            float(accuracy_score(y[has], np.argmax(dec[has], axis=1))) if has.any() else np.nan
        )

    def predict_log_proba(self, X):
        """ln of :meth:`predict_proba` (−inf where a probability is 0).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The inputs.

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
            The log class probabilities, in the order of ``classes_``.
        """
        with np.errstate(divide="ignore"):
            return np.log(self.predict_proba(X))

    def predict_proba(self, X):
        """Committee class probabilities: (14.7) of probabilities (soft) or of votes (hard).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The inputs.

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
            Columns in the order of ``classes_``; each row sums to one.
        """
        X = self._validate_predict(X)
        total = np.zeros((X.shape[0], len(self.classes_)))
        for m, est in enumerate(self.estimators_):
            total += self._member_votes(est, self._columns(m, X))
        return total / len(self.estimators_)

    def predict(self, X):
        """The class with the largest committee probability (soft) or most votes (hard).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The inputs.

        Returns
        -------
        ndarray of shape (n_samples,)
            The predicted labels, from ``classes_``.
        """
        proba = self.predict_proba(X)
        return self.classes_[np.argmax(proba, axis=1)]
