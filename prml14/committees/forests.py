"""Random forests, the functional core: the variance of a correlated average (B.30) and the
out-of-bag committee (B.31).

The variance of an average of M members with pairwise correlation ρ and variance σ² is
ρσ² + (1 − ρ)σ²/M, :func:`correlated_average_variance` (B.30): drawing features at random makes
the trees less alike, and lowering ρ lowers the part of the variance that averaging cannot
remove. The points a tree's bootstrap sample leaves out give every point an out-of-bag
committee, :func:`out_of_bag_prediction` (B.31), and with it a validation error that costs no
held-out data. The estimators are in :mod:`prml14.committees.forest_estimators`.
"""

from __future__ import annotations

from numbers import Integral

import numpy as np
from sklearn.utils.validation import check_scalar

from .._equations import implements
from .._validation import as_float, check_array

__all__ = [
    "correlated_average_variance",
    "out_of_bag_prediction",
]


@implements("B.30")
def correlated_average_variance(variance, correlation, n_members):
    """ρσ² + (1 − ρ)σ²/M: the variance of the average of M equally correlated members, (B.30).

    Parameters
    ----------
    variance : float or array-like
        σ², the variance of one member's prediction.
    correlation : float or array-like
        ρ, the correlation between the predictions of two different members, in
        [−1/(M − 1), 1] (a smaller ρ is not a valid correlation of M variables).
    n_members : int
        M ≥ 1.

    Returns
    -------
    float or ndarray
        Var[(1/M) Σ_m y_m]; σ²/M for ρ = 0 (14.14) and σ² for ρ = 1.

    Raises
    ------
    TypeError
        If n_members is not an integer.
    ValueError
        If variance is not a finite number >= 0, correlation is NaN or outside
        [−1/(M − 1), 1], or n_members is below 1.
    """
    check_scalar(n_members, "n_members", Integral, min_val=1)
    s2 = as_float(variance, "variance", allow_inf=True)
    rho = as_float(correlation, "correlation", allow_inf=True)
    if not np.all(np.isfinite(s2)) or np.any(s2 < 0):
        raise ValueError(f"variance must be finite and >= 0, got {variance!r}")
    low = -1.0 / (n_members - 1) if n_members > 1 else -1.0
    if not np.all(np.isfinite(rho)) or np.any(rho > 1) or np.any(rho < low - 1e-12):
        raise ValueError(
            f"correlation must lie in [-1/(M - 1), 1] = [{low:.4g}, 1] for M = {n_members}, "
            f"got {correlation!r}"
        )
    out = rho * s2 + (1.0 - rho) * s2 / n_members
    return float(out) if out.ndim == 0 else out


@implements("B.31")
def out_of_bag_prediction(predictions, oob_mask):
    """ȳ⁻(x_n) = Σ_m [n ∉ S_m] y_m(x_n) / Σ_m [n ∉ S_m], the out-of-bag committee, (B.31).

    Parameters
    ----------
    predictions : array-like of shape (n_samples, n_members) or (n_samples, n_members, n_out)
        y_m(x_n), samples first (class probabilities in a third axis).
    oob_mask : array-like of bool of shape (n_samples, n_members)
        ``oob_mask[n, m]`` is True when point n is not in member m's bootstrap sample S_m
        (:func:`prml14.committees.bagging.out_of_bag_mask`).

    Returns
    -------
    prediction : ndarray of shape (n_samples,) or (n_samples, n_out)
        The average over each point's out-of-bag members; NaN where it has none.
    n_members : ndarray of int of shape (n_samples,)
        The number of out-of-bag members of each point (about M/e).

    Raises
    ------
    TypeError
        If ``oob_mask`` is not boolean or numeric.
    ValueError
        If the shapes disagree.
    """
    Y = check_array(predictions, ensure_2d=False, allow_nd=True, input_name="predictions")
    if np.asarray(oob_mask).dtype.kind not in "biuf":
        raise TypeError(f"oob_mask must hold booleans, got dtype {np.asarray(oob_mask).dtype}")
    mask = check_array(oob_mask, dtype=bool, input_name="oob_mask")
    if Y.ndim not in (2, 3) or Y.shape[:2] != mask.shape:
        raise ValueError(
            f"predictions must have shape (n_samples, n_members[, n_out]) matching oob_mask "
            f"{mask.shape}, got {Y.shape}"
        )
    count = mask.sum(axis=1)
    weights = mask.reshape(mask.shape + (1,) * (Y.ndim - 2))
    total = np.sum(np.where(weights, Y, 0.0), axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return total / count.reshape((-1,) + (1,) * (Y.ndim - 2)), count
