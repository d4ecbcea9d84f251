"""AdaBoost in the form of PRML Section 14.3, and its exponential-error view (14.15)-(14.26).

The functional core follows the book's notation: t_n ∈ {−1, +1}, weights w_n^{(m)}, the
indicator I_n = I(y_m(x_n) ≠ t_n) of the points the m-th learner misclassifies (``miss``),
ε_m the weighted error, α_m the classifier weight.

* (14.15) :func:`weighted_misclassification`: J_m = Σ_n w_n I_n
* (14.16) :func:`weighted_error`: ε_m = Σ_n w_n I_n / Σ_n w_n
* (14.17) :func:`classifier_weight`: α_m = ln{(1 − ε_m)/ε_m}
* (14.18) :func:`update_weights`: w_n ← w_n exp(α_m I_n)
* (14.19) :func:`committee_sign`: Y_M(x) = sign(Σ_m α_m y_m(x))
* (14.20) :func:`exponential_error`: E = Σ_n exp(−t_n f(x_n))
* (14.21) :func:`additive_model`: f_m(x) = ½ Σ_{l≤m} α_l y_l(x)
* (14.22) :func:`exponential_error_weights`: w_n^{(m)} = exp(−t_n f_{m−1}(x_n)), and
  :func:`exponential_error_of_alpha`: E(α) = Σ_n w_n exp(−½ t_n α y_m(x_n))
* (14.23) :func:`exponential_error_split`:
  E(α) = (e^{α/2} − e^{−α/2}) Σ_n w_n I_n + e^{−α/2} Σ_n w_n
* (14.24) :func:`exponential_weight_update`: w_n ← w_n exp(−½ t_n α_m y_m(x_n))
* (14.25) :func:`margin_from_mistakes`: t_n y_m(x_n) = 1 − 2 I_n
* (14.26) :func:`exponential_weight_update_from_mistakes`: w_n ← w_n e^{−α_m/2} exp(α_m I_n)

Beyond the chapter, K classes by SAMME (Zhu, Zou, Rosset and Hastie, 2009):

* (B.8) :func:`samme_classifier_weight`: α_m = ln{(1 − ε_m)/ε_m} + ln(K − 1)
* (B.9) :func:`samme_scores`: g_k(x) = Σ_m α_m {I(y_m(x) = k) − 1/K}

:class:`~prml14.boosting.adaboost_estimators.AdaBoostClassifier` composes (14.15)-(14.18) into one
boosting round (after scikit-learn's ``_weight_boosting``) and predicts with (14.19)/(14.21); it
lives in
:mod:`prml14.boosting.adaboost_estimators`.
"""

from __future__ import annotations

import numpy as np

from .._equations import implements
from .._validation import Axes, as_float, check_array, check_number

__all__ = [
    "weighted_misclassification",
    "weighted_error",
    "classifier_weight",
    "update_weights",
    "normalise_log_weights",
    "committee_sign",
    "exponential_error",
    "additive_model",
    "exponential_error_weights",
    "exponential_error_of_alpha",
    "exponential_error_split",
    "exponential_weight_update",
    "margin_from_mistakes",
    "exponential_weight_update_from_mistakes",
    "samme_classifier_weight",
    "samme_scores",
]


def _per_sample(**arrays):
    """The arrays as 1-D floats of one common length n_samples (ValueError naming the one that
    is not)."""
    axes = Axes()
    return [axes.array(a, name, ("n_samples",), allow_empty=True) for name, a in arrays.items()]


def _mistakes(w, miss, *, log=False):
    """Per-sample weights (non-negative unless ``log``: then ln w) and indicators I_n ∈ {0, 1}."""
    w, miss = _per_sample(w=w, miss=miss)
    if not log and np.any(w < 0):
        raise ValueError("the weights w must be non-negative")
    if np.any((miss != 0) & (miss != 1)):
        raise ValueError("miss must hold the indicators I_n ∈ {0, 1} (booleans)")
    return w, miss


def _check_alpha(alpha):
    """α_m: a finite real number."""
    return check_number(alpha, "alpha")


def _finite(out, message):
    """``out`` if every entry is finite; else a ValueError (an exponential overflowed)."""
    if not np.all(np.isfinite(out)):
        raise ValueError(message)
    return out


def _per_member(predictions, alphas):
    """Finite member outputs (n_samples, n_members) and one finite weight per member."""
    Y = check_array(predictions, ensure_2d=False, dtype=np.float64, input_name="predictions")
    alphas = check_array(alphas, ensure_2d=False, dtype=np.float64, input_name="alphas")
    if alphas.ndim != 1 or Y.ndim != 2 or Y.shape[1] != alphas.shape[0]:
        raise ValueError(
            "predictions must have shape (n_samples, n_members) with one column per entry of "
            f"alphas; got predictions of shape {Y.shape} and alphas of shape {alphas.shape}"
        )
    return Y, alphas


# --- the AdaBoost algorithm, (14.15)-(14.19) ----------------------------------------------


@implements("14.15")
def weighted_misclassification(w, miss):
    """J_m = Σ_n w_n^{(m)} I(y_m(x_n) ≠ t_n), the weighted error function (14.15).

    Parameters
    ----------
    w : array-like of shape (n_samples,)
        Non-negative weights w_n^{(m)}.
    miss : array-like of bool of shape (n_samples,)
        I(y_m(x_n) ≠ t_n).

    Returns
    -------
    float
        J_m, the total weight of the misclassified points.

    Raises
    ------
    ValueError
        Naming the argument, if w and miss are not finite 1-D arrays of one length, w has a
        negative entry, or miss an entry other than 0 and 1.
    """
    w, miss = _mistakes(w, miss)
    # an elementwise product, not np.dot: BLAS threads are slower than this O(N) sum
    return float(np.sum(w * miss))


@implements("14.16")
def weighted_error(w, miss):
    """ε_m = Σ_n w_n I_n / Σ_n w_n, the weighted error rate (14.16), a number in [0, 1].

    Parameters
    ----------
    w : array-like of shape (n_samples,)
        Non-negative weights w_n^{(m)} with a positive sum.
    miss : array-like of bool of shape (n_samples,)
        I_n = I(y_m(x_n) ≠ t_n).

    Returns
    -------
    float
        ε_m, the weighted fraction of misclassified points.

    Raises
    ------
    ValueError
        As :func:`weighted_misclassification`, and if the weights sum to zero.
    """
    w, miss = _mistakes(w, miss)
    total = float(np.sum(w))
    if not total > 0:
        raise ValueError(f"w must have a positive sum, got {total}")
    return _weighted_error(w, miss, total)


def _weighted_error(w, miss, total):
    """(14.16) without checks, for arguments already validated (AdaBoost's rounds)."""
    return float(np.sum(w * miss)) / total


@implements("14.17")
def classifier_weight(eps):
    """α_m = ln{(1 − ε_m)/ε_m}, the weight of the m-th classifier in the committee (14.17).

    Positive for ε_m < ½, zero at ½; +inf at ε_m = 0 (a perfect learner, where AdaBoost
    stops) and −inf at ε_m = 1, the limits of the formula.

    Parameters
    ----------
    eps : float or array-like
        Weighted error(s) in [0, 1].

    Returns
    -------
    float or ndarray
        α_m for each ε_m.

    Raises
    ------
    ValueError
        If an ε_m is NaN or outside [0, 1].
    """
    eps = as_float(eps, "eps")
    if np.any(~((eps >= 0) & (eps <= 1))):
        raise ValueError("eps must be a weighted error rate in [0, 1]")
    with np.errstate(divide="ignore"):  # ln 0 = −inf: the limits at ε = 0 and 1
        alpha = np.log1p(-eps) - np.log(eps)
    return alpha[()] if alpha.ndim == 0 else alpha


@implements("14.18")
def update_weights(w, alpha, miss, *, log=False):
    """w_n^{(m+1)} = w_n^{(m)} exp{α_m I(y_m(x_n) ≠ t_n)}, equation (14.18).

    Parameters
    ----------
    w : array-like of shape (n_samples,)
        The weights w^{(m)} (or ln w^{(m)} when ``log=True``).
    alpha : float
        α_m.
    miss : array-like of bool of shape (n_samples,)
        I_n = I(y_m(x_n) ≠ t_n).
    log : bool, default=False
        Work with logarithms: return ln w^{(m)} + α_m I_n. AdaBoostClassifier does this so that
        no weight ever underflows to an unrecoverable zero.

    Returns
    -------
    ndarray of shape (n_samples,)
        w^{(m+1)} (or its logarithm), not normalised.

    Raises
    ------
    TypeError
        If alpha is not a real number.
    ValueError
        Naming the argument, if w (negative unless ``log``) or miss is invalid as in
        :func:`weighted_misclassification`, α_m is not finite, or w exp(α_m) overflows (then
        use ``log=True``).
    """
    alpha = _check_alpha(alpha)
    w, miss = _mistakes(w, miss, log=log)
    if log:
        return _update_log_weights(w, alpha, miss)
    step = alpha * miss
    with np.errstate(over="ignore", invalid="ignore"):
        out = w * np.exp(step)
    return _finite(out, f"w exp(alpha I_n) overflows for alpha = {alpha:.4g}: use log=True")


def _update_log_weights(log_w, alpha, miss):
    """(14.18) in logarithms, ln w + α_m I_n, without checks (AdaBoost's rounds)."""
    return log_w + alpha * miss


def normalise_log_weights(log_w):
    """Weights that sum to one from their logarithms (shifted by the maximum first).

    Parameters
    ----------
    log_w : ndarray of shape (n_samples,)
        ln w_n, finite for at least one n.

    Returns
    -------
    w : ndarray
        exp(log_w) / Σ exp(log_w).
    log_w : ndarray
        ln of that, finite wherever the input was.

    Raises
    ------
    ValueError
        If log_w is empty, holds NaN or +inf, or no entry is finite (every weight zero).
    """
    log_w = as_float(log_w, "log_w", allow_inf=True)
    top = np.max(log_w) if log_w.size else -np.inf
    if top == np.inf or top == -np.inf:
        raise ValueError(
            "log_w must be non-empty, below +inf and finite for at least one n (a weight > 0)"
        )
    return _normalise_log_weights(log_w, top)


def _normalise_log_weights(log_w, top):
    """:func:`normalise_log_weights` without checks: ``top`` is the finite max of log_w."""
    log_w = log_w - top
    w = np.exp(log_w)
    total = w.sum()
    return w / total, log_w - np.log(total)


@implements("14.19")
def committee_sign(predictions, alphas):
    """Y_M(x) = sign(Σ_m α_m y_m(x)), the committee's prediction (14.19).

    Parameters
    ----------
    predictions : array-like of shape (n_samples, n_members)
        The members' outputs y_m(x_n) ∈ {−1, +1}, samples first.
    alphas : array-like of shape (n_members,)
        The classifier weights α_m (14.17).

    Returns
    -------
    ndarray of shape (n_samples,)
        −1, +1 (or 0 on an exact tie).

    Raises
    ------
    ValueError
        If predictions or alphas is empty or not a finite real array, or predictions is not of
        shape (n_samples, n_members) with one column per entry of alphas.
    """
    Y, alphas = _per_member(predictions, alphas)
    return np.sign(Y @ alphas)


# --- the exponential-error view, (14.20)-(14.26) ------------------------------------------


@implements("14.20")
def exponential_error(t, f):
    """E = Σ_n exp{−t_n f(x_n)}, the exponential error (14.20) of outputs f at targets t ∈ {±1}.

    Parameters
    ----------
    t : array-like of shape (n_samples,)
        Targets t_n ∈ {−1, +1}.
    f : array-like of shape (n_samples,)
        Model outputs f(x_n).

    Returns
    -------
    float
        E.

    Raises
    ------
    ValueError
        Naming the argument, if t and f are not finite 1-D arrays of one length, or if E
        overflows (a margin t_n f(x_n) below about −709: rescale f).
    """
    t, f = _per_sample(t=t, f=f)
    with np.errstate(over="ignore"):
        E = np.sum(np.exp(-(t * f)))
    return float(_finite(E, "the exponential error overflows: a margin t f is below -709"))


@implements("14.21")
def additive_model(predictions, alphas):
    """f_m(x) = ½ Σ_{l=1}^m α_l y_l(x), the additive model (14.21).

    Parameters
    ----------
    predictions : array-like of shape (n_samples, m)
        The outputs y_l(x_n) of the first m learners, samples first.
    alphas : array-like of shape (m,)
        Their classifier weights α_l.

    Returns
    -------
    ndarray of shape (n_samples,)
        f_m(x_n).

    Raises
    ------
    ValueError
        If predictions or alphas is empty or not a finite real array, or predictions is not of
        shape (n_samples, n_members) with one column per entry of alphas.
    """
    Y, alphas = _per_member(predictions, alphas)
    return 0.5 * (Y @ alphas)


@implements("14.22")
def exponential_error_weights(t, f_prev):
    """w_n^{(m)} = exp{−t_n f_{m−1}(x_n)}: the constants in front of (14.22).

    Parameters
    ----------
    t : array-like of shape (n_samples,)
        Targets t_n ∈ {−1, +1}.
    f_prev : array-like of shape (n_samples,)
        The previous additive model f_{m−1}(x_n) (14.21).

    Returns
    -------
    ndarray of shape (n_samples,)
        w_n^{(m)}.

    Raises
    ------
    ValueError
        Naming the argument, if t and f_prev are not finite 1-D arrays of one length, or if a
        weight overflows (a margin t_n f_prev(x_n) below about −709: rescale f_prev).
    """
    t, f_prev = _per_sample(t=t, f_prev=f_prev)
    with np.errstate(over="ignore"):
        w = np.exp(-(t * f_prev))
    return _finite(w, "the weights overflow: a margin t f_prev is below -709")


@implements("14.22")
def exponential_error_of_alpha(alpha, w, t, y):
    """E(α_m) = Σ_n w_n exp{−½ t_n α_m y_m(x_n)}, the error (14.22) as a function of α_m.

    Parameters
    ----------
    alpha : float or ndarray
        α_m (an array evaluates a grid of values).
    w : array-like of shape (n_samples,)
        w_n^{(m)}.
    t : array-like of shape (n_samples,)
        Targets t_n ∈ {−1, +1}.
    y : array-like of shape (n_samples,)
        The m-th learner's outputs y_m(x_n) ∈ {−1, +1}.

    Returns
    -------
    float or ndarray
        E(α_m), of the shape of ``alpha``.

    Raises
    ------
    ValueError
        Naming the argument, if α_m is not finite, w, t and y are not finite 1-D arrays of one
        length, w has a negative entry, or E overflows (−½ α_m t_n y_n above about 709).
    """
    alpha = as_float(alpha, "alpha")
    w, t, y = _per_sample(w=w, t=t, y=y)
    if np.any(w < 0):
        raise ValueError("the weights w must be non-negative")
    with np.errstate(over="ignore", invalid="ignore"):
        out = np.sum(np.exp(-0.5 * alpha[..., None] * (t * y)) * w, axis=-1)
    _finite(out, "E(alpha) overflows: -alpha t y / 2 is above 709 for some n")
    return out[()] if out.ndim == 0 else out


@implements("14.23")
def exponential_error_split(alpha, w, miss):
    """E(α_m) = (e^{α/2} − e^{−α/2}) Σ_n w_n I_n + e^{−α/2} Σ_n w_n, equation (14.23).

    Parameters
    ----------
    alpha : float or ndarray
        α_m (an array evaluates a grid of values).
    w : array-like of shape (n_samples,)
        w_n^{(m)}.
    miss : array-like of bool of shape (n_samples,)
        I_n = I(y_m(x_n) ≠ t_n).

    Returns
    -------
    float or ndarray
        E(α_m), of the shape of ``alpha``.

    Raises
    ------
    ValueError
        Naming the argument, if α_m is not finite, w or miss is invalid as in
        :func:`weighted_misclassification`, or E overflows (abs(α_m) above about 1400).
    """
    alpha = as_float(alpha, "alpha")
    w, miss = _mistakes(w, miss)
    J = float(np.sum(w * miss))
    with np.errstate(over="ignore", invalid="ignore"):
        out = (np.exp(alpha / 2) - np.exp(-alpha / 2)) * J + np.exp(-alpha / 2) * float(np.sum(w))
    _finite(out, "E(alpha) overflows: abs(alpha) / 2 is above 709")
    return out[()] if out.ndim == 0 else out


@implements("14.24")
def exponential_weight_update(w, alpha, t, y):
    """w_n^{(m+1)} = w_n^{(m)} exp{−½ t_n α_m y_m(x_n)}, equation (14.24).

    Parameters
    ----------
    w : array-like of shape (n_samples,)
        w_n^{(m)}.
    alpha : float
        α_m.
    t : array-like of shape (n_samples,)
        Targets t_n ∈ {−1, +1}.
    y : array-like of shape (n_samples,)
        The m-th learner's outputs y_m(x_n) ∈ {−1, +1}.

    Returns
    -------
    ndarray of shape (n_samples,)
        w_n^{(m+1)}, not normalised.

    Raises
    ------
    TypeError
        If alpha is not a real number.
    ValueError
        Naming the argument, if α_m is not finite, w, t and y are not finite 1-D arrays of one
        length, w has a negative entry, or a weight overflows.
    """
    alpha = _check_alpha(alpha)
    w, t, y = _per_sample(w=w, t=t, y=y)
    if np.any(w < 0):
        raise ValueError("the weights w must be non-negative")
    with np.errstate(over="ignore", invalid="ignore"):
        out = w * np.exp(-0.5 * alpha * t * y)
    return _finite(out, "the weights overflow: -alpha t y / 2 is above 709 for some n")


@implements("14.25")
def margin_from_mistakes(miss):
    """t_n y_m(x_n) = 1 − 2 I(y_m(x_n) ≠ t_n) for outputs and targets in {−1, +1}, (14.25).

    Parameters
    ----------
    miss : array-like of bool
        I(y_m(x_n) ≠ t_n).

    Returns
    -------
    ndarray of float
        The margins t_n y_m(x_n) ∈ {−1, +1}.

    Raises
    ------
    ValueError
        If miss is not a real array or holds NaN or ±inf.
    """
    return 1.0 - 2.0 * as_float(miss, "miss")


@implements("14.26")
def exponential_weight_update_from_mistakes(w, alpha, miss):
    """w_n^{(m+1)} = w_n^{(m)} exp(−α_m/2) exp{α_m I_n}, equation (14.26).

    The factor exp(−α_m/2) is common to all n, so after normalisation this is (14.18).

    Parameters
    ----------
    w : array-like of shape (n_samples,)
        w_n^{(m)}.
    alpha : float
        α_m.
    miss : array-like of bool of shape (n_samples,)
        I_n = I(y_m(x_n) ≠ t_n).

    Returns
    -------
    ndarray of shape (n_samples,)
        w_n^{(m+1)}, not normalised.

    Raises
    ------
    TypeError
        If alpha is not a real number.
    ValueError
        Naming the argument, if w or miss is invalid as in :func:`weighted_misclassification`,
        α_m is not finite, or a new weight overflows.
    """
    alpha = _check_alpha(alpha)
    w, miss = _mistakes(w, miss, log=False)
    with np.errstate(over="ignore", invalid="ignore"):
        out = w * np.exp(alpha * (miss - 0.5))  # one exponential: exp(±α/2)
    return _finite(out, f"w exp(alpha (I_n - 1/2)) overflows for alpha = {alpha:.4g}")


# --- K classes: SAMME, (B.8)-(B.9) ----------------------------------------------------


@implements("B.8")
def samme_classifier_weight(eps, n_classes):
    """α_m = ln{(1 − ε_m)/ε_m} + ln(K − 1), the SAMME classifier weight (B.8).

    For K = 2 the extra term is ln 1 = 0 exactly, and this is (14.17). A learner helps as long as
    ε_m < 1 − 1/K (better than guessing among K classes), where α_m > 0.

    Parameters
    ----------
    eps : float or array-like
        Weighted error(s) ε_m in [0, 1].
    n_classes : int
        The number of classes K >= 2.

    Returns
    -------
    float or ndarray
        α_m for each ε_m.

    Raises
    ------
    TypeError
        If n_classes is not an integer.
    ValueError
        If an ε_m (eps) is not a number in [0, 1], or n_classes < 2.
    """
    check_number(n_classes, "n_classes", low=2, integer=True)
    return classifier_weight(eps) + np.log(n_classes - 1.0)


@implements("B.9")
def samme_scores(predictions, alphas, n_classes):
    """g_k(x) = Σ_m α_m {I(y_m(x) = k) − 1/K}, the class scores of SAMME (B.9).

    The scores sum to zero over k; the committee predicts argmax_k g_k(x), and softmax(g(x))
    estimates p(k | x), the inverse of the population minimiser of the multi-class exponential
    loss. For K = 2 with classes coded as t = 2k − 1, g_1 = −g_0 = ½ Σ_m α_m y_m(x), the additive
    model (14.21).

    Parameters
    ----------
    predictions : array-like of int of shape (n_samples, n_members)
        The members' predicted class indices y_m(x_n) ∈ {0, ..., K − 1}.
    alphas : array-like of shape (n_members,)
        The classifier weights α_m (B.8).
    n_classes : int
        K.

    Returns
    -------
    ndarray of shape (n_samples, n_classes)
        g_k(x_n).

    Raises
    ------
    TypeError
        If n_classes is not an integer.
    ValueError
        If predictions or alphas is empty or not a finite real array, predictions is not of
        shape (n_samples, n_members) with one column per entry of alphas or holds other than
        class indices 0, ..., K − 1, or n_classes < 2.
    """
    Y, alphas = _per_member(predictions, alphas)
    check_number(n_classes, "n_classes", low=2, integer=True)
    if np.any((Y != np.round(Y)) | (Y < 0) | (Y >= n_classes)):
        raise ValueError(f"predictions must be class indices in 0, ..., {n_classes - 1}")
    k = np.arange(n_classes)
    votes = np.stack([(Y == j) @ alphas for j in k], axis=1)
    return votes - alphas.sum() / n_classes
