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

:class:`~prml14.adaboost.AdaBoostClassifier` composes (14.15)-(14.18) into one boosting round
(after scikit-learn's ``_weight_boosting``) and predicts with (14.19)/(14.21); it lives in
:mod:`prml14.adaboost`.
"""

from __future__ import annotations

import numpy as np

from ._equations import implements
from ._validation import as_float, check_array
from .losses import exponential_loss

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
    """The arrays as 1-D floats of one common length; ValueError naming the argument otherwise."""
    out, first = [], None
    for name, a in arrays.items():
        a = as_float(a, name)
        if a.ndim != 1:
            raise ValueError(
                f"{name} must be a 1-D array of shape (n_samples,), got shape {a.shape}"
            )
        if first is None:
            first = (name, a.shape[0])
        elif a.shape[0] != first[1]:
            raise ValueError(
                f"{name} must have the length of {first[0]} ({first[1]}), got {a.shape[0]}"
            )
        out.append(a)
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
    """
    w, miss = _per_sample(w=w, miss=miss)
    if np.any(w < 0):
        raise ValueError("the weights w must be non-negative")
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
    """
    total = float(np.sum(w))
    if not total > 0:
        raise ValueError(f"the weights w must have a positive sum, got {total}")
    return weighted_misclassification(w, miss) / total


@implements("14.17")
def classifier_weight(eps):
    """α_m = ln{(1 − ε_m)/ε_m}, the weight of the m-th classifier in the committee (14.17).

    Positive for ε_m < ½, zero at ½, +inf at ε_m = 0.

    Parameters
    ----------
    eps : float or array-like
        Weighted error(s) in [0, 1].

    Returns
    -------
    float or ndarray
        α_m for each ε_m.
    """
    eps = as_float(eps, "eps")
    if np.any(~((eps >= 0) & (eps <= 1))):
        raise ValueError("eps must be a weighted error rate in [0, 1]")
    with np.errstate(divide="ignore"):
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
    """
    w, miss = _per_sample(w=w, miss=miss)
    step = alpha * miss
    return w + step if log else w * np.exp(step)


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
    """
    log_w = log_w - np.max(log_w)
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
    """
    t, f = _per_sample(t=t, f=f)
    return float(np.sum(exponential_loss(t * f)))


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
    """
    t, f_prev = _per_sample(t=t, f_prev=f_prev)
    return exponential_loss(t * f_prev)


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
    """
    alpha = as_float(alpha, "alpha")
    w, t, y = _per_sample(w=w, t=t, y=y)
    out = np.sum(np.exp(-0.5 * alpha[..., None] * (t * y)) * w, axis=-1)
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
    """
    alpha = as_float(alpha, "alpha")
    J = weighted_misclassification(w, miss)
    out = (np.exp(alpha / 2) - np.exp(-alpha / 2)) * J + np.exp(-alpha / 2) * float(np.sum(w))
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
    """
    w, t, y = _per_sample(w=w, t=t, y=y)
    return w * np.exp(-0.5 * alpha * t * y)


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
    """
    return np.exp(-alpha / 2) * update_weights(w, alpha, miss)


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
    """
    if not (isinstance(n_classes, (int, np.integer)) and n_classes >= 2):
        raise ValueError(f"n_classes must be an integer >= 2, got {n_classes!r}")
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
    """
    Y, alphas = _per_member(predictions, alphas)
    if not (isinstance(n_classes, (int, np.integer)) and n_classes >= 2):
        raise ValueError(f"n_classes must be an integer >= 2, got {n_classes!r}")
    if np.any((Y != np.round(Y)) | (Y < 0) | (Y >= n_classes)):
        raise ValueError(f"predictions must be class indices in 0, ..., {n_classes - 1}")
    k = np.arange(n_classes)
    votes = np.stack([(Y == j) @ alphas for j in k], axis=1)
    return votes - alphas.sum() / n_classes
