"""Committees, equations (14.7)-(14.14).

A committee averages the predictions of M models, y_COM(x) = (1/M) Σ_m y_m(x) (14.7). Writing
each member as the truth plus an error, y_m(x) = h(x) + ε_m(x) (14.8), the average error of
the members E_AV (14.10) and the error of the committee E_COM (14.11) are related by
E_COM = E_AV / M when the errors have zero mean and are uncorrelated ((14.12)-(14.14)), and by
E_COM ≤ E_AV always (Jensen / Cauchy-Schwarz).

Member predictions are samples first: an array of shape (n_samples, n_members) whose column m
holds y_m(x_n) at the N points, as for every per-sample array of the package. Bagging, the
committee of bootstrap-trained members, is in :mod:`prml14.committees`.
"""

from __future__ import annotations

from numbers import Integral
from typing import NamedTuple

import numpy as np
from sklearn.utils.validation import check_scalar

from .._equations import implements
from .._validation import as_float, check_array, check_magnitude, check_random_state

__all__ = [
    "committee_prediction",
    "member_errors",
    "member_expected_errors",
    "CommitteeErrors",
    "committee_errors",
    "error_moments",
    "uncorrelated_committee_error",
    "make_uncorrelated_errors",
]


# ----------------------------------------------------------------------------- (14.7)-(14.14)
def _check_predictions(predictions, h=None):
    """Member predictions (n_samples, n_members) and, if given, h (n_samples,), finite floats."""
    Y = check_array(predictions, ensure_2d=False, dtype=np.float64, input_name="predictions")
    if Y.ndim != 2:
        raise ValueError(f"predictions must have shape (n_samples, n_members), got {Y.shape}")
    if h is None:
        return Y
    h = check_array(h, ensure_2d=False, dtype=np.float64, input_name="h")
    if h.shape != (Y.shape[0],):
        raise ValueError(
            f"h must have shape (n_samples,) = ({Y.shape[0]},) to match predictions, got {h.shape}"
        )
    return Y, h


def _squarable_errors(predictions, h):
    """ε = Y − h of inputs of magnitude at most 1e150 (their squares are finite)."""
    Y, h = _check_predictions(predictions, h)
    check_magnitude(Y, "predictions")
    check_magnitude(h, "h")
    return Y - h[:, None]


@implements("14.7")
def committee_prediction(predictions, alphas=None):
    """y_COM(x) = (1/M) Σ_m y_m(x), equation (14.7), or a weighted committee Σ_m α_m y_m(x).

    Parameters
    ----------
    predictions : array-like of shape (n_samples, n_members)
        y_m(x_n): column m holds member m's predictions at the N points.
    alphas : array-like of shape (n_members,), default=None
        The members' weights α_m; the plain average 1/M when None (see Exercise 14.5 for the
        weighted form).

    Returns
    -------
    ndarray of shape (n_samples,)
        y_COM(x_n).

    Raises
    ------
    ValueError
        If predictions or alphas is empty or not a finite real array, or alphas does not have
        one entry per member (column of predictions).
    """
    Y = _check_predictions(predictions)
    if alphas is None:
        return Y.mean(axis=1)
    alphas = check_array(alphas, ensure_2d=False, dtype=np.float64, input_name="alphas")
    if alphas.shape != (Y.shape[1],):
        raise ValueError(
            f"alphas must have shape (n_members,) = ({Y.shape[1]},), got {alphas.shape}"
        )
    return Y @ alphas


@implements("14.8")
def member_errors(predictions, h):
    """ε_m(x_n) = y_m(x_n) − h(x_n), equation (14.8).

    Parameters
    ----------
    predictions : array-like of shape (n_samples, n_members)
        y_m(x_n).
    h : array-like of shape (n_samples,)
        The true function at the same points.

    Returns
    -------
    ndarray of shape (n_samples, n_members)
        ε_m(x_n).

    Raises
    ------
    ValueError
        If predictions or h is empty or not a finite real array, or h does not have one entry
        per sample (row of predictions).
    """
    Y, h = _check_predictions(predictions, h)
    return Y - h[:, None]


@implements("14.9")
def member_expected_errors(predictions, h):
    """E_x[{y_m(x) − h(x)}²] = E_x[ε_m(x)²] for each member, equation (14.9).

    The expectation over x is the average over the N points given.

    Parameters
    ----------
    predictions : array-like of shape (n_samples, n_members)
        y_m(x_n).
    h : array-like of shape (n_samples,)
        h(x_n).

    Returns
    -------
    ndarray of shape (n_members,)
        The expected squared error of each member.

    Raises
    ------
    ValueError
        If ``predictions`` or ``h`` has entries beyond 1e150 in magnitude (their squares
        overflow: rescale them).
    """
    return np.mean(_squarable_errors(predictions, h) ** 2, axis=0)


class CommitteeErrors(NamedTuple):
    """The average member error E_AV (14.10) and the committee error E_COM (14.11).

    Parameters
    ----------
    E_AV : float
        (1/M) Σ_m E_x[ε_m(x)²].
    E_COM : float
        E_x[{(1/M) Σ_m ε_m(x)}²].
    """

    E_AV: float
    E_COM: float


@implements("14.10", "14.11")
def committee_errors(predictions, h):
    """E_AV (14.10) and E_COM (14.11) from member predictions and the true function values.

    E_AV = (1/M) Σ_m E_x[ε_m(x)²] and E_COM = E_x[{(1/M) Σ_m ε_m(x)}²], each expectation an
    average over the N points.

    Parameters
    ----------
    predictions : array-like of shape (n_samples, n_members)
        y_m(x_n).
    h : array-like of shape (n_samples,)
        h(x_n).

    Returns
    -------
    CommitteeErrors
        A named tuple ``(E_AV, E_COM)``; E_COM ≤ E_AV always.

    Raises
    ------
    ValueError
        If ``predictions`` or ``h`` has entries beyond 1e150 in magnitude (rescale them).
    """
    eps = _squarable_errors(predictions, h)
    E_AV = float(np.mean(eps**2))
    E_COM = float(np.mean(np.mean(eps, axis=1) ** 2))
    return CommitteeErrors(E_AV, E_COM)


@implements("14.12", "14.13")
def error_moments(predictions, h):
    """The moments that (14.12) and (14.13) assume away: E_x[ε_m] and E_x[ε_m ε_l].

    Parameters
    ----------
    predictions : array-like of shape (n_samples, n_members)
        y_m(x_n).
    h : array-like of shape (n_samples,)
        h(x_n).

    Returns
    -------
    mean : ndarray of shape (n_members,)
        E_x[ε_m(x)]; zero under (14.12).
    second_moment : ndarray of shape (n_members, n_members)
        C_ml = E_x[ε_m(x) ε_l(x)]; diagonal under (14.13). E_AV = tr(C)/M and
        E_COM = Σ_ml C_ml / M².

    Raises
    ------
    ValueError
        If ``predictions`` or ``h`` has entries beyond 1e150 in magnitude (rescale them).
    """
    eps = _squarable_errors(predictions, h)
    return eps.mean(axis=0), eps.T @ eps / eps.shape[0]


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
        The committee error E_COM that (14.14) predicts.

    Raises
    ------
    TypeError
        If n_members is not an integer.
    ValueError
        If E_AV is not a finite number, or n_members is below 1.
    """
    check_scalar(n_members, "n_members", Integral, min_val=1)
    return as_float(E_AV, "E_AV") / n_members


def make_uncorrelated_errors(n_samples, n_members, *, scales=None, random_state=None):
    """Error vectors that satisfy (14.12) and (14.13) exactly over a finite sample of N points.

    Random columns are centred (zero sample mean) and orthogonalised by a QR factorisation, so
    (1/N) Σ_n ε_m(x_n) = 0 and (1/N) Σ_n ε_m(x_n) ε_l(x_n) = 0 for m ≠ l to rounding error.

    Parameters
    ----------
    n_samples : int
        N, the number of points.
    n_members : int
        M; needs M ≤ N − 1.
    scales : array-like of shape (n_members,), default=None
        Root mean square of each member's error; all ones when None.
    random_state : int, RandomState or None, default=None
        Seeds the random columns.

    Returns
    -------
    ndarray of shape (n_samples, n_members)
        ε_m(x_n), samples first like the member predictions.

    Raises
    ------
    TypeError
        If n_samples or n_members is not an integer.
    ValueError
        If n_samples < 2, n_members is not in [1, n_samples − 1], or scales is negative, not
        finite or not of shape (n_members,).
    """
    check_scalar(n_samples, "n_samples", Integral, min_val=2)
    check_scalar(n_members, "n_members", Integral, min_val=1, max_val=n_samples - 1)
    rng = check_random_state(random_state)
    A = rng.standard_normal((n_samples, n_members))
    A -= A.mean(axis=0)
    Q, _ = np.linalg.qr(A)  # columns orthonormal and orthogonal to the ones vector
    scales = (
        np.ones(n_members) if scales is None else as_float(scales, "scales", non_negative=True)
    )
    if scales.shape != (n_members,):
        raise ValueError(
            f"scales must have shape (n_members,) = ({n_members},), got {scales.shape}"
        )
    return Q * np.sqrt(n_samples) * scales
