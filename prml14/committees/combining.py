"""Combining trained models: the functional core of voting, blending and stacking (page B.11).

Every array is samples first. Hard votes are a ``(n_samples, n_members)`` array of encoded labels
0, ..., K − 1; member probabilities are ``(n_samples, n_members, n_classes)``; member predictions
for regression are ``(n_samples, n_members)``, like the committees of
:mod:`prml14.committees.committee`.

* :func:`weighted_vote` (B.34) and :func:`soft_vote` (B.35): the share of the (weighted)
  votes, or the weighted average probability, that each class receives;
* :func:`vote_with_reject` (B.36): the winning class, or a reject when its share falls short;
* :func:`majority_vote_accuracy` (B.37): the accuracy of a majority of M independent members
  (Condorcet's binomial sum);
* :func:`linear_blend_weights` (B.38): the non-negative (optionally summing to one) weights
  that minimise the squared error of the blend on a validation set;
* :func:`inverse_error_weights` (B.39): those weights when the members' errors are
  uncorrelated, and the error they reach;
* :func:`out_of_fold_predictions` (B.40): stacking's meta-features, each row predicted by
  members that never saw it.

The estimators built from them are in :mod:`prml14.committees.combining_estimators`.
"""

from __future__ import annotations

import warnings
from numbers import Integral

import numpy as np
from scipy.optimize import nnls
from scipy.stats import binom
from sklearn.base import clone, is_classifier
from sklearn.utils.parallel import Parallel, delayed
from sklearn.utils.validation import check_scalar

from .._equations import implements
from .._validation import (
    as_float,
    check_array,
    check_magnitude,
    check_n_jobs,
    check_number,
    check_sample_weight,
)

__all__ = [
    "weighted_vote",
    "soft_vote",
    "vote_with_reject",
    "majority_vote_accuracy",
    "linear_blend_weights",
    "inverse_error_weights",
    "out_of_fold_predictions",
]


def _check_weights(weights, n_members, name="weights"):
    """Member weights: None (all one) or finite, non-negative, not all zero, one per member."""
    if weights is None:
        return np.ones(n_members)
    w = check_array(weights, ensure_2d=False, dtype=np.float64, input_name=name)
    if w.shape != (n_members,):
        raise ValueError(
            f"{name} must have one entry per member ({n_members}), got shape {w.shape}"
        )
    if np.any(w < 0) or not np.any(w > 0):
        raise ValueError(f"{name} must be non-negative and not all zero, got {w.tolist()}")
    return w


# ----------------------------------------------------------------------------- voting
@implements("B.34")
def weighted_vote(votes, n_classes, weights=None):
    """Share of the weighted votes each class receives: V_k(x) / Σ_j V_j(x), equation (B.34).

    V_k(x) = Σ_m w_m [y_m(x) = k]: member m casts a vote of weight w_m for its predicted class.
    The hard-voting prediction is the class with the largest share (``argmax`` along axis 1,
    ties to the lowest class index, as in scikit-learn).

    Parameters
    ----------
    votes : array-like of int, shape (n_samples, n_members)
        y_m(x_n): each member's predicted class, encoded as 0, ..., n_classes − 1.
    n_classes : int
        K, the number of classes.
    weights : array-like of shape (n_members,), default=None
        w_m ≥ 0, not all zero; None gives every member one vote.

    Returns
    -------
    ndarray of shape (n_samples, n_classes)
        The vote shares; each row sums to one.

    Raises
    ------
    TypeError
        If ``votes`` is not numeric.
    ValueError
        If a vote is not an integer in [0, n_classes), or ``weights`` is invalid.
    """
    check_scalar(n_classes, "n_classes", Integral, min_val=1)
    votes = check_array(votes, dtype=None, input_name="votes")
    if votes.dtype.kind not in "biuf":
        raise TypeError(f"votes must be integer class indices, got dtype {votes.dtype}")
    if not np.issubdtype(votes.dtype, np.integer) and not np.all(np.mod(votes, 1) == 0):
        raise ValueError("votes must be integer class indices 0, ..., n_classes - 1")
    if votes.size and (votes.min() < 0 or votes.max() >= n_classes):
        raise ValueError(f"votes must lie in [0, n_classes={n_classes}), got {np.unique(votes)}")
    votes = votes.astype(np.intp, copy=False)  # in range: the cast is exact
    w = _check_weights(weights, votes.shape[1])
    n_samples = votes.shape[0]
    # One bincount over (sample, class) cells: no loop over samples.
    cells = (np.arange(n_samples)[:, None] * n_classes + votes).ravel()
    counts = np.bincount(cells, weights=np.tile(w, n_samples), minlength=n_samples * n_classes)
    return counts.reshape(n_samples, n_classes) / w.sum()


@implements("B.35")
def soft_vote(probabilities, weights=None):
    """Weighted average of the members' class probabilities, equation (B.35).

    p̄_k(x) = Σ_m w_m p_mk(x) / Σ_m w_m; the soft-voting prediction is argmax_k p̄_k(x).

    Parameters
    ----------
    probabilities : array-like of shape (n_samples, n_members, n_classes)
        p_mk(x_n), each member's class probabilities.
    weights : array-like of shape (n_members,), default=None
        w_m ≥ 0, not all zero; None weighs the members equally.

    Returns
    -------
    ndarray of shape (n_samples, n_classes)
        p̄_k(x_n).

    Raises
    ------
    ValueError
        If ``probabilities`` is not a finite 3-D array or has negative entries, or ``weights``
        is not one finite non-negative entry per member, not all zero.
    """
    P = check_array(probabilities, allow_nd=True, dtype=np.float64, input_name="probabilities")
    if P.ndim != 3:
        raise ValueError(
            f"probabilities must have shape (n_samples, n_members, n_classes), got {P.shape}"
        )
    if np.any(P < 0):
        raise ValueError("probabilities must be non-negative")
    w = _check_weights(weights, P.shape[1])
    return np.einsum("nmk,m->nk", P, w / w.sum())


@implements("B.36")
def vote_with_reject(shares, min_agreement=None):
    """The class with the largest share, or −1 (reject) when that share is below the threshold.

    Equation (B.36): ŷ(x) = argmax_k s_k(x) if max_k s_k(x) ≥ τ, and reject otherwise, where
    s_k is a vote share (B.34) or an averaged probability (B.35) and τ = ``min_agreement``.
    With τ > 1/2 at most one class can qualify: a majority vote with a reject option. Ties for
    the largest share go to the lowest class index.

    Parameters
    ----------
    shares : array-like of shape (n_samples, n_classes)
        s_k(x_n), non-negative, each row summing to one.
    min_agreement : float in (0, 1], default=None
        τ. None never rejects (plain plurality voting). The comparison allows a relative
        rounding slack of 1e-12, so that a share of exactly 3/5 passes τ = 0.6.

    Returns
    -------
    ndarray of int, shape (n_samples,)
        The winning class index, or −1 where the vote is rejected.

    Raises
    ------
    TypeError
        If min_agreement is not a real number.
    ValueError
        If shares is empty or not a finite real (n_samples, n_classes) array, or min_agreement
        is not in (0, 1].
    """
    S = check_array(shares, dtype=np.float64, input_name="shares")
    winner = np.argmax(S, axis=1)
    if min_agreement is None:
        return winner
    check_number(min_agreement, "min_agreement", low=0.0, high=1.0, closed="right")
    top = S[np.arange(S.shape[0]), winner]
    return np.where(top >= min_agreement * (1 - 1e-12), winner, -1)


@implements("B.37")
def majority_vote_accuracy(p, n_members):
    """Probability that a majority of M independent members is right (Condorcet), (B.37).

    P_M(p) = Σ_{k > M/2} C(M, k) p^k (1 − p)^(M − k): each of M members is right with probability
    p independently of the others, and the committee is right when more than half of them are.
    For even M a tie (k = M/2) counts as wrong.

    Parameters
    ----------
    p : float or array-like
        The accuracy of each member, in [0, 1].
    n_members : int or array-like of int
        M ≥ 1.

    Returns
    -------
    float or ndarray
        P_M(p), broadcast over ``p`` and ``n_members``.

    Raises
    ------
    TypeError
        If n_members is not an integer (or an array of integers).
    ValueError
        If p is not a number in [0, 1], or an entry of n_members is < 1.
    """
    p = as_float(p, "p", allow_inf=True)
    M = np.asarray(n_members)
    if not np.all(np.isfinite(p)) or np.any((p < 0) | (p > 1)):
        raise ValueError(f"p must lie in [0, 1], got {p}")
    if not np.issubdtype(M.dtype, np.integer):
        raise TypeError(f"n_members must be integers, got {n_members!r}")
    if np.any(M < 1):
        raise ValueError(f"n_members must be integers >= 1, got {n_members!r}")
    # P(more than M/2 of M Bernoulli(p) successes) = the binomial upper tail beyond ⌊M/2⌋,
    # computed through the incomplete beta function (no overflowing binomial coefficients).
    total = np.asarray(binom.sf(M // 2, M, p), dtype=float)
    return total if total.ndim else float(total)


# ----------------------------------------------------------------------------- blending
def _design(predictions, targets, sample_weight):
    """Flatten (n_samples, n_members[, n_outputs]) to the least-squares system A w ≈ b."""
    Y = check_array(predictions, allow_nd=True, dtype=np.float64, input_name="predictions")
    if Y.ndim not in (2, 3):
        raise ValueError(
            "predictions must have shape (n_samples, n_members) or "
            f"(n_samples, n_members, n_outputs), got {Y.shape}"
        )
    t = check_array(targets, ensure_2d=False, dtype=np.float64, input_name="targets")
    expected = (Y.shape[0],) if Y.ndim == 2 else (Y.shape[0], Y.shape[2])
    if t.shape != expected:
        raise ValueError(f"targets must have shape {expected} to match predictions, got {t.shape}")
    n_outputs = 1 if Y.ndim == 2 else Y.shape[2]
    A = Y.reshape(Y.shape[0], Y.shape[1], n_outputs).transpose(0, 2, 1).reshape(-1, Y.shape[1])
    b = t.reshape(-1)
    if sample_weight is not None:
        sw = check_array(
            sample_weight, ensure_2d=False, dtype=np.float64, input_name="sample_weight"
        )
        if sw.shape != (Y.shape[0],) or np.any(sw < 0):
            raise ValueError(f"sample_weight must be {Y.shape[0]} non-negative numbers")
        root = np.repeat(np.sqrt(sw), n_outputs)
        A, b = A * root[:, None], b * root
    return A, b


@implements("B.38")
def linear_blend_weights(predictions, targets, *, sum_to_one=False, sample_weight=None):
    """Non-negative blend weights minimising the squared error on a validation set, (B.38).

    ŵ = argmin Σ_n w_n Σ_k (Σ_m w_m y_mk(x_n) − t_nk)² over w ≥ 0, and with ``sum_to_one``
    also Σ_m w_m = 1 (blending class probabilities keeps a probability vector). Without the
    sum constraint this is non-negative least squares (Lawson–Hanson, ``scipy.optimize.nnls``).
    With it, the residual is (A − b 1ᵀ) w =: B w, and the problem min_{w ∈ simplex} ‖B w‖² is
    solved exactly by one NNLS problem: u = argmin_{u ≥ 0} ‖B u‖² + γ² (1ᵀu − 1)², w = u / 1ᵀu
    (the page derives why; γ > 0 only scales the problem).

    Parameters
    ----------
    predictions : array-like of shape (n_samples, n_members) or (n_samples, n_members, n_outputs)
        y_m(x_n) on the validation set (member probabilities for classification).
    targets : array-like of shape (n_samples,) or (n_samples, n_outputs)
        t_n (one-hot class indicators for classification).
    sum_to_one : bool, default=False
        Constrain the weights to the probability simplex.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights of the validation points.

    Returns
    -------
    ndarray of shape (n_members,)
        ŵ, non-negative (and summing to one with ``sum_to_one``). When the minimiser is not
        unique (e.g. two identical members) one of the minimisers is returned.

    Raises
    ------
    ValueError
        If predictions, targets or sample_weight is empty or not a finite real array, predictions
        has not 2 or 3 axes, targets does not match its shape, or sample_weight is negative or of
        another length.
    """
    A, b = _design(predictions, targets, sample_weight)
    if not sum_to_one:
        return nnls(A, b)[0]
    B = A - b[:, None]
    gamma = max(np.linalg.norm(B) / np.sqrt(B.shape[1]), 1.0)
    u = nnls(np.vstack([B, np.full(B.shape[1], gamma)]), np.r_[np.zeros(B.shape[0]), gamma])[0]
    return u / u.sum()


@implements("B.39")
def inverse_error_weights(expected_errors):
    """The best simplex weights for members with uncorrelated errors, and their error (B.39).

    If E[ε_m ε_l] = 0 for m ≠ l (14.13), the error of Σ_m w_m y_m with Σ_m w_m = 1 is
    Σ_m w_m² E_m, minimised by w_m = (1/E_m) / Σ_l (1/E_l), with error 1 / Σ_m (1/E_m) (at most
    E_AV / M of (14.14), with equality when all E_m are equal).

    Parameters
    ----------
    expected_errors : array-like of shape (n_members,)
        E_m = E_x[ε_m(x)²] > 0, each member's expected squared error (14.9).

    Returns
    -------
    weights : ndarray of shape (n_members,)
        w_m ∝ 1/E_m, summing to one.
    error : float
        1 / Σ_m (1/E_m), the error of the weighted committee.

    Raises
    ------
    ValueError
        If expected_errors is not a non-empty 1-D array of finite positive numbers.
    """
    E = check_array(
        expected_errors, ensure_2d=False, dtype=np.float64, input_name="expected_errors"
    )
    if E.ndim != 1 or E.size == 0 or np.any(E <= 0):
        raise ValueError(
            f"expected_errors must be a non-empty vector of positive numbers, got {E}"
        )
    inverse = 1.0 / E
    return inverse / inverse.sum(), float(1.0 / inverse.sum())


# ----------------------------------------------------------------------------- stacking
def _member_outputs(estimator, X, method, n_classes=None):
    """``estimator.method(X)`` as a 2-D array, class columns aligned to 0, ..., n_classes − 1.

    A member fitted on data that missed some classes has fewer probability columns; they are
    placed at its ``classes_`` (encoded labels) and the missing ones filled with 0 for
    ``predict_proba`` and the smallest float for ``decision_function`` (scikit-learn's choice).

    Parameters
    ----------
    estimator : fitted estimator
    X : array-like of shape (n_samples, n_features)
    method : str
        ``"predict"``, ``"predict_proba"`` or ``"decision_function"``.
    n_classes : int, default=None
        K, for classifiers fitted on encoded labels; None leaves the output as it is.

    Returns
    -------
    ndarray of shape (n_samples, n_outputs)
    """
    out = np.asarray(getattr(estimator, method)(X))
    if out.ndim == 1:
        return out.reshape(-1, 1)
    if n_classes is None or method == "predict" or out.shape[1] == n_classes:
        return out
    classes = np.asarray(estimator.classes_).astype(np.intp)
    if method == "decision_function" and len(classes) <= 2:
        raise ValueError(
            f"a fold's training part holds {len(classes)} of the {n_classes} classes: "
            "decision_function cannot be aligned; use stratified folds"
        )
    fill = 0.0 if method == "predict_proba" else np.finfo(out.dtype).min
    full = np.full((out.shape[0], n_classes), fill, dtype=out.dtype)
    full[:, classes] = out
    return full


def _fit_predict_fold(estimator, X, y, train, test, method, n_classes, sample_weight):
    params = {} if sample_weight is None else {"sample_weight": sample_weight[train]}
    estimator.fit(X[train], y[train], **params)
    if n_classes is not None and len(np.unique(y[train])) != n_classes:
        warnings.warn(
            f"a training fold holds {len(np.unique(y[train]))} of the {n_classes} classes; "
            "its members' outputs for the missing classes are filled in (use stratified folds)",
            RuntimeWarning,
            stacklevel=2,
        )
    return _member_outputs(estimator, X[test], method, n_classes)


@implements("B.40")
def out_of_fold_predictions(
    estimator, X, y, folds, method="predict", *, n_classes=None, sample_weight=None, n_jobs=None
):
    """Stacking's meta-features: each row predicted by a member fitted without it, (B.40).

    z_n = y^(−κ(n))(x_n): for every fold k, a clone of ``estimator`` is fitted on the other folds
    and predicts the rows of fold k. The folds must partition the rows (each row in exactly one
    test fold), so that no row's prediction comes from a member that saw it.

    Parameters
    ----------
    estimator : estimator
        The member (cloned, never modified).
    X : ndarray or sparse matrix of shape (n_samples, n_features)
        The inputs (rows are indexed by the folds).
    y : ndarray of shape (n_samples,)
        The targets (encoded labels 0, ..., K − 1 for classifiers).
    folds : iterable of (train, test) index arrays
        For example ``list(KFold(5).split(X))``.
    method : str, default="predict"
        The member's output: ``"predict"``, ``"predict_proba"`` or ``"decision_function"``.
    n_classes : int, default=None
        K, for classifiers fitted on encoded labels 0, ..., K − 1 (aligns class columns).
    sample_weight : ndarray of shape (n_samples,), default=None
        Passed to each fit, restricted to the fold's training rows.
    n_jobs : int, default=None
        Folds fitted in parallel (joblib threads); the result does not depend on it.

    Returns
    -------
    ndarray of shape (n_samples, n_outputs)
        Row n holds the out-of-fold output for x_n.

    Raises
    ------
    ValueError
        If X is not numeric, a numeric y is not finite or has entries beyond 1e150 in magnitude
        (rescale it), X and y have inconsistent numbers of samples, the folds do not
        partition the rows, ``method`` is not one of the three, ``n_classes`` is given for a
        regressor or is not a positive integer, or ``sample_weight`` is misshapen, negative or
        not finite.
    TypeError
        If ``estimator`` has no ``fit`` method or ``folds`` is not an iterable of pairs.
    """
    if not callable(getattr(estimator, "fit", None)):
        raise TypeError(f"estimator must be an estimator with fit, got {estimator!r}")
    X = check_array(
        X, accept_sparse=["csr", "csc"], ensure_all_finite=False, allow_nd=False, input_name="X"
    )
    labels = is_classifier(estimator)  # a classifier's labels may be strings
    y = check_array(y, ensure_2d=False, dtype=None if labels else "numeric", input_name="y")
    if y.shape[0] != X.shape[0]:
        raise ValueError(
            f"X and y have inconsistent numbers of samples: X has {X.shape[0]}, y has {y.shape[0]}"
        )
    if y.dtype.kind in "biuf":
        check_magnitude(y, "y")
    if method not in ("predict", "predict_proba", "decision_function"):
        raise ValueError(
            f"method must be 'predict', 'predict_proba' or 'decision_function', got {method!r}"
        )
    if n_classes is not None:
        if not labels:
            raise ValueError("n_classes applies to classifiers only: leave it None")
        n_classes = check_number(n_classes, "n_classes", low=1, integer=True)
    if sample_weight is not None:
        sample_weight = check_sample_weight(sample_weight, X, max_magnitude=None)
    try:
        folds = [(np.asarray(train), np.asarray(test)) for train, test in folds]
    except (TypeError, ValueError) as error:
        raise TypeError(
            f"folds must be an iterable of (train, test) index arrays, got {folds!r}"
        ) from error
    return _out_of_fold_predictions(
        estimator,
        X,
        y,
        folds,
        method,
        n_classes=n_classes,
        sample_weight=sample_weight,
        n_jobs=check_n_jobs(n_jobs),
    )


def _out_of_fold_predictions(
    estimator, X, y, folds, method="predict", *, n_classes=None, sample_weight=None, n_jobs=None
):
    """:func:`out_of_fold_predictions` of validated X and y (the stacking estimators)."""
    folds = [(np.asarray(train), np.asarray(test)) for train, test in folds]
    n_samples = X.shape[0]
    tests = np.concatenate([test for _, test in folds]) if folds else np.array([], int)
    if tests.shape != (n_samples,) or not np.array_equal(np.sort(tests), np.arange(n_samples)):
        raise ValueError("folds must partition the samples: each row in exactly one test fold")
    for train, test in folds:
        if np.intersect1d(train, test).size:
            raise ValueError("a fold's training rows and test rows overlap: that would leak")
    outputs = Parallel(n_jobs=n_jobs, prefer="threads")(
        delayed(_fit_predict_fold)(
            clone(estimator), X, y, train, test, method, n_classes, sample_weight
        )
        for train, test in folds
    )
    Z = np.empty((n_samples, outputs[0].shape[1]), dtype=np.result_type(*outputs))
    for (_, test), out in zip(folds, outputs, strict=True):
        Z[test] = out
    return Z
