"""Committees and bagging, equations (14.7)-(14.14).

A committee averages the predictions of M models, y_COM(x) = (1/M) Σ_m y_m(x) (14.7). Writing
each member as the truth plus an error, y_m(x) = h(x) + ε_m(x) (14.8), the average error of
the members E_AV (14.10) and the error of the committee E_COM (14.11) are related by
E_COM = E_AV / M when the errors have zero mean and are uncorrelated ((14.12)-(14.14)), and by
E_COM ≤ E_AV always (Jensen / Cauchy-Schwarz).

Bagging (bootstrap aggregation, Breiman 1996) makes the members differ by training each on a
bootstrap sample of the data: :class:`BaggingRegressor`, :class:`BaggingClassifier`.
"""

from __future__ import annotations

import warnings
from numbers import Integral, Real
from typing import NamedTuple

import numpy as np
from joblib import Parallel, delayed
from sklearn.base import (
    BaseEstimator,
    ClassifierMixin,
    RegressorMixin,
    _fit_context,
    clone,
    is_regressor,
)
from sklearn.metrics import accuracy_score, r2_score
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor
from sklearn.utils import check_random_state
from sklearn.utils._param_validation import HasMethods, Interval, RealNotInt, StrOptions
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import (
    _check_sample_weight,
    check_is_fitted,
    has_fit_parameter,
    validate_data,
)

from ._equations import implements
from ._validation import random_state_params

__all__ = [
    "bootstrap_indices",
    "out_of_bag_mask",
    "expected_oob_fraction",
    "committee_prediction",
    "member_errors",
    "member_expected_errors",
    "CommitteeErrors",
    "committee_errors",
    "error_moments",
    "uncorrelated_committee_error",
    "make_uncorrelated_errors",
    "BaggingRegressor",
    "BaggingClassifier",
]


# ----------------------------------------------------------------------------- bootstrap
def bootstrap_indices(n_samples, n_estimators, max_samples=None, random_state=None):
    """Indices of M bootstrap samples: each row draws ``max_samples`` points with replacement.

    Parameters
    ----------
    n_samples : int
        N, the size of the data set.
    n_estimators : int
        M, the number of bootstrap samples.
    max_samples : int or float, default=None
        Points per sample: an int in [1, N], a float in (0, 1] (a fraction of N), or None (N).
    random_state : int, RandomState or None

    Returns
    -------
    ndarray of shape (n_estimators, n_draws)
    """
    if not isinstance(n_samples, Integral) or n_samples < 1:
        raise ValueError(f"n_samples must be a positive integer, got {n_samples!r}")
    if not isinstance(n_estimators, Integral) or n_estimators < 1:
        raise ValueError(f"n_estimators must be a positive integer, got {n_estimators!r}")
    n_draws = _n_draws(n_samples, max_samples)
    rng = check_random_state(random_state)
    return rng.randint(0, n_samples, size=(n_estimators, n_draws))


def _n_draws(n_samples, max_samples):
    if max_samples is None:
        return n_samples
    if isinstance(max_samples, Integral) and not isinstance(max_samples, bool):
        if not 1 <= max_samples <= n_samples:
            raise ValueError(
                f"max_samples must be in [1, n_samples={n_samples}] when an int, got {max_samples}"
            )
        return int(max_samples)
    if isinstance(max_samples, Real) and not isinstance(max_samples, bool):
        if not 0 < max_samples <= 1:
            raise ValueError(f"max_samples must be in (0, 1] when a float, got {max_samples}")
        return max(int(max_samples * n_samples), 1)
    raise TypeError(
        f"max_samples must be an int, a float or None, got {type(max_samples).__name__}"
    )


def out_of_bag_mask(indices, n_samples):
    """Which points each bootstrap sample left out: ``mask[m, n]`` is True when n ∉ sample m.

    Parameters
    ----------
    indices : array-like of int, shape (n_estimators, n_draws) or a list of 1-D arrays
    n_samples : int

    Returns
    -------
    ndarray of bool, shape (n_estimators, n_samples)
    """
    if not isinstance(n_samples, Integral) or n_samples < 1:
        raise ValueError(f"n_samples must be a positive integer, got {n_samples!r}")
    rows = [np.asarray(i) for i in indices]
    mask = np.ones((len(rows), n_samples), dtype=bool)
    for m, idx in enumerate(rows):  # loop over members, not samples
        if idx.size and not np.issubdtype(idx.dtype, np.integer):
            raise TypeError(f"indices must be integers, got dtype {idx.dtype}")
        if idx.size and (idx.min() < 0 or idx.max() >= n_samples):
            raise ValueError(f"indices must lie in [0, n_samples={n_samples})")
        mask[m, idx] = False
    return mask


def expected_oob_fraction(n_samples):
    """(1 − 1/N)^N: the probability that a given point is missing from a bootstrap sample.

    It tends to 1/e ≈ 0.368 as N → ∞.

    Parameters
    ----------
    n_samples : int or array-like of int
        N, the size of the data set (and of the bootstrap sample).

    Returns
    -------
    float or ndarray
        The out-of-bag probability for each N.
    """
    n = np.asarray(n_samples, dtype=float)
    if not np.all(np.isfinite(n)) or np.any(n < 1):
        raise ValueError(f"n_samples must be finite and >= 1, got {n_samples!r}")
    with np.errstate(divide="ignore"):
        return np.exp(n * np.log1p(-1.0 / n))  # exactly 0 at N = 1


# ----------------------------------------------------------------------------- (14.7)-(14.14)
def _check_predictions(predictions, h=None):
    Y = np.asarray(predictions, dtype=float)
    if Y.ndim != 2 or Y.shape[0] < 1 or Y.shape[1] < 1:
        raise ValueError(f"predictions must have shape (M members, N points), got {Y.shape}")
    if not np.all(np.isfinite(Y)):
        raise ValueError("predictions must not contain NaN or infinity")
    if h is None:
        return Y
    h = np.asarray(h, dtype=float)
    if h.shape != (Y.shape[1],):
        raise ValueError(
            f"h must have shape (N,) = ({Y.shape[1]},) to match predictions, got {h.shape}"
        )
    if not np.all(np.isfinite(h)):
        raise ValueError("h must not contain NaN or infinity")
    return Y, h


@implements("14.7")
def committee_prediction(predictions, weights=None):
    """y_COM(x) = (1/M) Σ_m y_m(x), equation (14.7); optionally a weighted committee Σ_m α_m y_m(x).

    Parameters
    ----------
    predictions : array-like of shape (n_members, ...)
        y_m(x) for each member m (first axis) at each point.
    weights : array-like of shape (n_members,), default=None
        α_m; the plain average 1/M when None (see Exercise 14.5 for the weighted form).

    Returns
    -------
    ndarray of shape (...)
    """
    Y = np.asarray(predictions, dtype=float)
    if Y.ndim < 1 or Y.shape[0] < 1:
        raise ValueError("predictions must have at least one member on its first axis")
    if weights is None:
        return Y.mean(axis=0)
    weights = np.asarray(weights, dtype=float)
    if weights.shape != (Y.shape[0],):
        raise ValueError(
            f"weights must have shape (n_members,) = ({Y.shape[0]},), got {weights.shape}"
        )
    if not np.all(np.isfinite(weights)):
        raise ValueError("weights must not contain NaN or infinity")
    return np.tensordot(weights, Y, axes=1)


@implements("14.8")
def member_errors(predictions, h):
    """ε_m(x_n) = y_m(x_n) − h(x_n), equation (14.8).

    Parameters
    ----------
    predictions : array-like of shape (M, N)
    h : array-like of shape (N,)
        The true function at the same points.

    Returns
    -------
    ndarray of shape (M, N)
    """
    Y, h = _check_predictions(predictions, h)
    return Y - h


@implements("14.9")
def member_expected_errors(predictions, h):
    """E_x[{y_m(x) − h(x)}²] = E_x[ε_m(x)²] for each member, equation (14.9).

    The expectation over x is the average over the N points given.

    Parameters
    ----------
    predictions : array-like of shape (M, N)
        y_m(x_n).
    h : array-like of shape (N,)
        h(x_n).

    Returns
    -------
    ndarray of shape (M,)
    """
    return np.mean(member_errors(predictions, h) ** 2, axis=1)


class CommitteeErrors(NamedTuple):
    """The average member error E_AV (14.10) and the committee error E_COM (14.11)."""

    E_AV: float
    E_COM: float


@implements("14.10", "14.11")
def committee_errors(predictions, h):
    """E_AV (14.10) and E_COM (14.11) from member predictions and the true function values.

    E_AV = (1/M) Σ_m E_x[ε_m(x)²] and E_COM = E_x[{(1/M) Σ_m ε_m(x)}²], each expectation an
    average over the N points.

    Parameters
    ----------
    predictions : array-like of shape (M, N)
        y_m(x_n).
    h : array-like of shape (N,)
        h(x_n).

    Returns
    -------
    CommitteeErrors
        A named tuple ``(E_AV, E_COM)``; E_COM ≤ E_AV always.
    """
    eps = member_errors(predictions, h)
    E_AV = float(np.mean(eps**2))
    E_COM = float(np.mean(np.mean(eps, axis=0) ** 2))
    return CommitteeErrors(E_AV, E_COM)


@implements("14.12", "14.13")
def error_moments(predictions, h):
    """The moments that (14.12) and (14.13) assume away: E_x[ε_m] and E_x[ε_m ε_l].

    Parameters
    ----------
    predictions : array-like of shape (M, N)
    h : array-like of shape (N,)

    Returns
    -------
    mean : ndarray of shape (M,)
        E_x[ε_m(x)]; zero under (14.12).
    second_moment : ndarray of shape (M, M)
        C_ml = E_x[ε_m(x) ε_l(x)]; diagonal under (14.13). E_AV = tr(C)/M and
        E_COM = Σ_ml C_ml / M².
    """
    eps = member_errors(predictions, h)
    return eps.mean(axis=1), eps @ eps.T / eps.shape[1]


@implements("14.14")
def uncorrelated_committee_error(E_AV, n_members):
    """E_COM = E_AV / M, equation (14.14): valid when (14.12) and (14.13) hold.

    Parameters
    ----------
    E_AV : float or array-like
        The average member error (14.10).
    n_members : int
        M.

    Returns
    -------
    float or ndarray
    """
    if not isinstance(n_members, Integral) or n_members < 1:
        raise ValueError(f"n_members must be a positive integer, got {n_members!r}")
    return np.asarray(E_AV, dtype=float) / n_members


def make_uncorrelated_errors(n_members, n_points, scales=None, random_state=None):
    """Error vectors that satisfy (14.12) and (14.13) exactly over a finite sample of N points.

    Random columns are centred (zero sample mean) and orthogonalised by a QR factorisation, so
    (1/N) Σ_n ε_m(x_n) = 0 and (1/N) Σ_n ε_m(x_n) ε_l(x_n) = 0 for m ≠ l to rounding error.

    Parameters
    ----------
    n_members : int
        M; needs M ≤ N − 1.
    n_points : int
        N.
    scales : array-like of shape (M,), default=None
        Root mean square of each member's error; all ones when None.
    random_state : int, RandomState or None

    Returns
    -------
    ndarray of shape (M, N)
    """
    if (
        not isinstance(n_members, Integral)
        or not isinstance(n_points, Integral)
        or not 1 <= n_members < n_points
    ):
        raise ValueError(
            f"need integers 1 <= n_members < n_points, got {n_members!r}, {n_points!r}"
        )
    rng = check_random_state(random_state)
    A = rng.standard_normal((n_points, n_members))
    A -= A.mean(axis=0)
    Q, _ = np.linalg.qr(A)  # columns orthonormal and orthogonal to the ones vector
    scales = np.ones(n_members) if scales is None else np.asarray(scales, dtype=float)
    if scales.shape != (n_members,):
        raise ValueError(
            f"scales must have shape (n_members,) = ({n_members},), got {scales.shape}"
        )
    return (Q * np.sqrt(n_points) * scales).T


# ----------------------------------------------------------------------------- estimators
def _fit_member(estimator, X, y, indices, sample_weight, seed, use_counts):
    """Fit one member on the bootstrap sample ``indices``.

    With ``use_counts`` the member is fitted on the distinct points of the sample, each weighted
    by how often it was drawn (times its ``sample_weight``): for estimators whose sample weights
    act as repetition counts this is the same fit as on the repeated rows, on fewer rows.
    """
    # Seed every random_state of the member, nested ones included (a tree inside a Pipeline).
    estimator.set_params(**dict.fromkeys(random_state_params(estimator), seed))
    if use_counts:
        rows, counts = np.unique(indices, return_counts=True)
        weight = counts.astype(float) if sample_weight is None else counts * sample_weight[rows]
        estimator.fit(X[rows], y[rows], sample_weight=weight)
    else:
        estimator.fit(X[indices], y[indices])
    return estimator


class _BaseBagging(BaseEstimator):
    _parameter_constraints: dict = {
        "estimator": [HasMethods(["fit", "predict"]), None],
        "n_estimators": [Interval(Integral, 1, None, closed="left")],
        "max_samples": [
            None,
            Interval(Integral, 1, None, closed="left"),
            Interval(RealNotInt, 0, 1, closed="right"),
        ],
        "oob_score": ["boolean"],
        "n_jobs": [None, Integral],
        "random_state": ["random_state"],
    }

    @_fit_context(prefer_skip_nested_validation=False)
    def fit(self, X, y, sample_weight=None):
        """Fit M members on bootstrap samples of (X, y).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
        sample_weight : array-like of shape (n_samples,), default=None
            Passed on (restricted to each bootstrap sample) to members that accept it.

        Returns
        -------
        self
        """
        X, y = validate_data(self, X, y, y_numeric=is_regressor(self))
        self.estimator_ = self._default_estimator() if self.estimator is None else self.estimator
        y = self._check_targets_and_estimator(y)
        use_counts = has_fit_parameter(self.estimator_, "sample_weight")
        if sample_weight is not None:
            if not use_counts:
                raise TypeError(
                    f"sample_weight was given but the estimator {type(self.estimator_).__name__} "
                    "does not accept sample_weight in fit"
                )
            sample_weight = _check_sample_weight(sample_weight, X)
        rng = check_random_state(self.random_state)
        indices = bootstrap_indices(X.shape[0], self.n_estimators, self.max_samples, rng)
        seeds = rng.randint(np.iinfo(np.int32).max, size=self.n_estimators)
        self.estimators_ = Parallel(n_jobs=self.n_jobs, prefer="threads")(
            delayed(_fit_member)(
                clone(self.estimator_), X, y, indices[m], sample_weight, seeds[m], use_counts
            )
            for m in range(self.n_estimators)
        )
        self.estimators_samples_ = list(indices)
        if self.oob_score:
            self._set_oob(X, y)
        return self

    def _oob_average(self, X, member_output):
        """Average of ``member_output(estimator, X_subset)`` over the members each point is OOB for."""
        mask = out_of_bag_mask(self.estimators_samples_, X.shape[0])
        total, count = None, mask.sum(axis=0)
        for estimator, oob in zip(self.estimators_, mask):
            if not oob.any():
                continue
            out = member_output(estimator, X[oob])
            if total is None:
                total = np.zeros((X.shape[0],) + out.shape[1:])
            total[oob] += out
        if total is None or np.any(count == 0):
            warnings.warn(
                "Some inputs are in every bootstrap sample, so they have no out-of-bag prediction; "
                "increase n_estimators for a reliable oob_score_",
                UserWarning,
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
        The base regressor; a ``DecisionTreeRegressor()`` (fully grown, high variance) when None.
    n_estimators : int, default=10
        M, the number of members.
    max_samples : int or float, default=None
        Points per bootstrap sample: an int in [1, N], a float in (0, 1] (fraction of N), or None (N).
    oob_score : bool, default=False
        Estimate the generalisation R² from out-of-bag predictions.
    n_jobs : int, default=None
        Members fitted in parallel by joblib (threads); None means 1. Results do not depend on it.
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
    n_features_in_ : int
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
        oob_score=False,
        n_jobs=None,
        random_state=None,
    ):
        self.estimator = estimator
        self.n_estimators = n_estimators
        self.max_samples = max_samples
        self.oob_score = oob_score
        self.n_jobs = n_jobs
        self.random_state = random_state

    fit = _BaseBagging.fit  # listed on this class's API page too (autodoc skips inherited methods)

    def _default_estimator(self):
        return DecisionTreeRegressor()

    def _check_targets_and_estimator(self, y):
        return y

    def _set_oob(self, X, y):
        pred, has = self._oob_average(X, lambda est, Xs: est.predict(Xs))
        self.oob_prediction_ = np.where(has, pred, np.nan)
        self.oob_score_ = float(r2_score(y[has], pred[has])) if has.sum() > 1 else np.nan

    def member_predictions(self, X):
        """y_m(x) of every member: an array of shape (n_estimators, n_samples)."""
        X = self._validate_predict(X)
        return np.stack([est.predict(X) for est in self.estimators_])

    def predict(self, X):
        """The committee prediction (14.7): the average of the members' predictions.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        X = self._validate_predict(X)
        total = np.zeros(X.shape[0])
        for est in self.estimators_:  # running sum: never an M×N array
            total += est.predict(X)
        return total / len(self.estimators_)


class BaggingClassifier(ClassifierMixin, _BaseBagging):
    """Bootstrap aggregation for classification, by probability (soft) or majority (hard) vote.

    Members are clones of ``estimator`` fitted on bootstrap samples (as repetition-count weights
    when the estimator accepts ``sample_weight``, see :class:`BaggingRegressor`). With ``voting="soft"`` the
    committee (14.7) averages the members' class probabilities and predicts the most probable
    class; with ``voting="hard"`` each member casts one vote and the class with most votes wins
    (ties go to the class that comes first in ``classes_``).

    Parameters
    ----------
    estimator : object, default=None
        The base classifier; a ``DecisionTreeClassifier()`` when None. Soft voting needs
        ``predict_proba``.
    n_estimators : int, default=10
    max_samples : int or float, default=None
        As in :class:`BaggingRegressor`.
    voting : {"soft", "hard"}, default="soft"
    oob_score : bool, default=False
        Estimate the generalisation accuracy from out-of-bag votes.
    n_jobs : int, default=None
    random_state : int, RandomState or None, default=None

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    estimator_ : estimator
    estimators_ : list of estimators
        The fitted members. They are trained on the encoded labels 0, ..., n_classes − 1
        (``classes_[k]`` is label k).
    estimators_samples_ : list of ndarray of int
    n_features_in_ : int
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
        voting="soft",
        oob_score=False,
        n_jobs=None,
        random_state=None,
    ):
        self.estimator = estimator
        self.n_estimators = n_estimators
        self.max_samples = max_samples
        self.voting = voting
        self.oob_score = oob_score
        self.n_jobs = n_jobs
        self.random_state = random_state

    fit = _BaseBagging.fit  # listed on this class's API page too (autodoc skips inherited methods)

    def _default_estimator(self):
        return DecisionTreeClassifier()

    def _check_targets_and_estimator(self, y):
        """Encode the labels as 0, ..., n_classes − 1 (``classes_``); soft voting needs predict_proba."""
        check_classification_targets(y)
        if self.voting == "soft" and not hasattr(self.estimator_, "predict_proba"):
            raise TypeError(
                f"voting='soft' needs an estimator with predict_proba; {type(self.estimator_).__name__} "
                "has none (use voting='hard')"
            )
        self.classes_, y_encoded = np.unique(y, return_inverse=True)
        return y_encoded

    def _member_votes(self, estimator, X):
        """One member's (n_samples, n_classes) contribution: probabilities or a one-hot vote."""
        out = np.zeros((X.shape[0], len(self.classes_)))
        if self.voting == "soft":
            # A bootstrap sample may miss classes: place the member's columns at its own labels.
            out[:, estimator.classes_.astype(int)] = estimator.predict_proba(X)
        else:
            out[np.arange(X.shape[0]), np.asarray(estimator.predict(X), dtype=int)] = 1.0
        return out

    def _set_oob(self, X, y):
        dec, has = self._oob_average(X, self._member_votes)
        self.oob_decision_function_ = np.where(has[:, None], dec, np.nan)
        self.oob_score_ = (
            float(accuracy_score(y[has], np.argmax(dec[has], axis=1))) if has.any() else np.nan
        )

    def predict_proba(self, X):
        """Committee class probabilities: (14.7) applied to probabilities (soft) or vote fractions (hard).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
        """
        X = self._validate_predict(X)
        total = np.zeros((X.shape[0], len(self.classes_)))
        for est in self.estimators_:
            total += self._member_votes(est, X)
        return total / len(self.estimators_)

    def predict(self, X):
        """The class with the largest committee probability (soft) or most votes (hard).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        proba = self.predict_proba(X)
        return self.classes_[np.argmax(proba, axis=1)]
