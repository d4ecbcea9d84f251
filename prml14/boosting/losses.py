"""Error functions of the margin z = t·y for t ∈ {−1, +1}, and regression errors of r = y − t.

Section 14.3.2 compares the error functions that boosting, logistic regression and support
vector machines minimise by writing each as a function of the *margin* z = t y(x):

================================  =============================  ==============================
name                              value                          derivative d/dz
================================  =============================  ==============================
exponential (14.20)               exp(−z)                        −exp(−z)
rescaled cross-entropy            ln(1 + exp(−z)) / ln 2         −σ(−z) / ln 2
hinge                             max(0, 1 − z)                  −1 for z < 1, 0 for z > 1
misclassification                 1 if z < 0 else 0              0 almost everywhere
================================  =============================  ==============================

The cross-entropy is divided by ln 2 so that, like the others, it passes through (0, 1).
For regression the squared error r² and the absolute error abs(r) are functions of the
residual r = y − t; for t ∈ {−1, +1} they are (1 − z)² and abs(1 − z) because t² = 1.

Gradients and Hessians (second derivatives) are given where they exist, so that gradient
boosting can reuse these functions: ``MARGIN_LOSSES`` and ``REGRESSION_LOSSES`` map a name to
``(value, gradient, hessian)`` with ``None`` where a derivative does not exist or is zero
almost everywhere.

Finally (14.27)-(14.28): the expected exponential error at one input x, and its minimiser, half
the log-odds.
"""

from __future__ import annotations

import numpy as np

from .._equations import implements
from .._numerics import expit, log_expit, logsumexp_last
from .._validation import as_float, check_number

__all__ = [
    "exponential_loss",
    "exponential_loss_gradient",
    "exponential_loss_hessian",
    "cross_entropy_loss",
    "cross_entropy_loss_gradient",
    "cross_entropy_loss_hessian",
    "hinge_loss",
    "hinge_loss_gradient",
    "misclassification_loss",
    "squared_error",
    "squared_error_gradient",
    "squared_error_hessian",
    "absolute_error",
    "absolute_error_gradient",
    "huber_loss",
    "huber_loss_gradient",
    "multinomial_log_loss",
    "multinomial_log_loss_gradient",
    "multinomial_log_loss_hessian",
    "expected_exponential_loss",
    "exponential_risk_minimiser",
    "MARGIN_LOSSES",
    "REGRESSION_LOSSES",
]

_LN2 = np.log(2.0)


def _as_float(a, name):
    """Real numbers without NaN (±inf allowed: the losses have limits there)."""
    return as_float(a, name, allow_inf=True)


# --- margin losses --------------------------------------------------------------------------


@implements("14.20")
def exponential_loss(z):
    """The exponential error exp(−z) of one point with margin z = t f(x), the summand of (14.20).

    Parameters
    ----------
    z : array-like
        Margins t_n f(x_n).

    Returns
    -------
    ndarray
        exp(−z), elementwise.

    Raises
    ------
    ValueError
        If z holds NaN, complex numbers or strings (±inf is allowed).
    """
    z = _as_float(z, "z")
    with np.errstate(over="ignore"):  # exp(−z) beyond the largest float is +inf
        return np.exp(-z)


def exponential_loss_gradient(z):
    """d/dz exp(−z) = −exp(−z).

    Parameters
    ----------
    z : array-like
        Margins z = t y.

    Returns
    -------
    ndarray
        −exp(−z), elementwise.

    Raises
    ------
    ValueError
        If z holds NaN, complex numbers or strings (±inf is allowed).
    """
    z = _as_float(z, "z")
    with np.errstate(over="ignore"):  # exp(−z) beyond the largest float is +inf
        return -np.exp(-z)


def exponential_loss_hessian(z):
    """d²/dz² exp(−z) = exp(−z).

    Parameters
    ----------
    z : array-like
        Margins z = t y.

    Returns
    -------
    ndarray
        exp(−z), elementwise.

    Raises
    ------
    ValueError
        If z holds NaN, complex numbers or strings (±inf is allowed).
    """
    z = _as_float(z, "z")
    with np.errstate(over="ignore"):  # exp(−z) beyond the largest float is +inf
        return np.exp(-z)


def cross_entropy_loss(z):
    """Rescaled cross-entropy ln(1 + exp(−z)) / ln 2 (logistic regression with t ∈ {−1, +1}).

    Computed as −ln σ(z) / ln 2, stable for large abs(z).

    Parameters
    ----------
    z : array-like
        Margins t y.

    Returns
    -------
    ndarray
        ln(1 + exp(−z)) / ln 2, elementwise.

    Raises
    ------
    ValueError
        If z holds NaN, complex numbers or strings (±inf is allowed).
    """
    return -log_expit(_as_float(z, "z")) / _LN2


def cross_entropy_loss_gradient(z):
    """d/dz of :func:`cross_entropy_loss`: −σ(−z) / ln 2.

    Parameters
    ----------
    z : array-like
        Margins z = t y.

    Returns
    -------
    ndarray
        −σ(−z) / ln 2, elementwise.

    Raises
    ------
    ValueError
        If z holds NaN, complex numbers or strings (±inf is allowed).
    """
    return -expit(-_as_float(z, "z")) / _LN2


def cross_entropy_loss_hessian(z):
    """d²/dz² of :func:`cross_entropy_loss`: σ(z) σ(−z) / ln 2.

    Parameters
    ----------
    z : array-like
        Margins z = t y.

    Returns
    -------
    ndarray
        σ(z) σ(−z) / ln 2, elementwise.

    Raises
    ------
    ValueError
        If z holds NaN, complex numbers or strings (±inf is allowed).
    """
    z = _as_float(z, "z")
    return expit(z) * expit(-z) / _LN2


def hinge_loss(z):
    """The hinge error max(0, 1 − z) of support vector machines.

    Parameters
    ----------
    z : array-like
        Margins z = t y.

    Returns
    -------
    ndarray
        max(0, 1 − z), elementwise.

    Raises
    ------
    ValueError
        If z holds NaN, complex numbers or strings (±inf is allowed).
    """
    return np.maximum(0.0, 1.0 - _as_float(z, "z"))


def hinge_loss_gradient(z):
    """A subgradient of the hinge error: −1 for z < 1 and 0 for z ≥ 1 (the kink takes 0).

    Parameters
    ----------
    z : array-like
        Margins z = t y.

    Returns
    -------
    ndarray
        −1 where z < 1, else 0.

    Raises
    ------
    ValueError
        If z holds NaN, complex numbers or strings (±inf is allowed).
    """
    return np.where(_as_float(z, "z") < 1.0, -1.0, 0.0)


def misclassification_loss(z):
    """The misclassification error: 1 for z < 0 (wrong side), 0 for z ≥ 0.

    Its derivative is zero wherever it exists, which is why it cannot be minimised by gradient
    methods and smooth upper bounds such as :func:`exponential_loss` are used instead.

    Parameters
    ----------
    z : array-like
        Margins z = t y.

    Returns
    -------
    ndarray
        1 where z < 0, else 0.

    Raises
    ------
    ValueError
        If z holds NaN, complex numbers or strings (±inf is allowed).
    """
    return np.where(_as_float(z, "z") < 0.0, 1.0, 0.0)


# --- regression errors of the residual r = y − t -------------------------------------------


def squared_error(r):
    """The squared error r² of the residual r = y − t (for t ∈ {−1, +1}: (1 − t y)²).

    Parameters
    ----------
    r : array-like
        Residuals r = y − t.

    Returns
    -------
    ndarray
        r², elementwise.

    Raises
    ------
    ValueError
        If r holds NaN, complex numbers or strings (±inf is allowed).
    """
    r = _as_float(r, "r")
    with np.errstate(over="ignore"):  # r² beyond the largest float is +inf
        return np.square(r)


def squared_error_gradient(r):
    """d/dr r² = 2r.

    Parameters
    ----------
    r : array-like
        Residuals r = y − t.

    Returns
    -------
    ndarray
        2r, elementwise.

    Raises
    ------
    ValueError
        If r holds NaN, complex numbers or strings (±inf is allowed).
    """
    return 2.0 * _as_float(r, "r")


def squared_error_hessian(r):
    """d²/dr² r² = 2.

    Parameters
    ----------
    r : array-like
        Residuals r = y − t.

    Returns
    -------
    ndarray
        2 everywhere, of the shape of ``r``.

    Raises
    ------
    ValueError
        If r holds NaN, complex numbers or strings (±inf is allowed).
    """
    return np.full_like(_as_float(r, "r"), 2.0)


def absolute_error(r):
    """The absolute error abs(r) of the residual r = y − t; it grows only linearly.

    Parameters
    ----------
    r : array-like
        Residuals r = y − t.

    Returns
    -------
    ndarray
        abs(r), elementwise.

    Raises
    ------
    ValueError
        If r holds NaN, complex numbers or strings (±inf is allowed).
    """
    return np.abs(_as_float(r, "r"))


def absolute_error_gradient(r):
    """A subgradient of abs(r): sign(r) (0 at r = 0).

    Parameters
    ----------
    r : array-like
        Residuals r = y − t.

    Returns
    -------
    ndarray
        sign(r), elementwise.

    Raises
    ------
    ValueError
        If r holds NaN, complex numbers or strings (±inf is allowed).
    """
    return np.sign(_as_float(r, "r"))


def _check_delta(delta):
    return check_number(delta, "delta", low=0.0, closed="neither")


def huber_loss(r, delta):
    """Huber's loss of the residual r: ½ r² for abs(r) <= δ, δ (abs(r) − ½ δ) beyond.

    Quadratic near zero like the squared error, linear in the tails like the absolute error;
    its derivative is continuous.

    Parameters
    ----------
    r : array-like
        Residuals r = y − t.
    delta : float > 0
        Where the quadratic part ends.

    Returns
    -------
    ndarray
        The loss, elementwise.

    Raises
    ------
    TypeError
        If ``delta`` is not a real number.
    ValueError
        If ``r`` holds NaN or ``delta`` is not a finite number > 0.
    """
    r, delta = _as_float(r, "r"), _check_delta(delta)
    a = np.abs(r)
    # Both branches are evaluated: a product beyond the largest float is ±inf (never NaN).
    with np.errstate(over="ignore"):
        return np.where(a <= delta, 0.5 * r * r, delta * (a - 0.5 * delta))


def huber_loss_gradient(r, delta):
    """d/dr of Huber's loss: r clipped to [−δ, δ].

    Parameters
    ----------
    r : array-like
        Residuals r = y − t.
    delta : float > 0
        Where the quadratic part ends.

    Returns
    -------
    ndarray
        clip(r, −δ, δ), elementwise.

    Raises
    ------
    TypeError
        If delta is not a real number.
    ValueError
        If r holds NaN, complex numbers or strings, or delta is not a finite number > 0.
    """
    delta = _check_delta(delta)
    return np.clip(_as_float(r, "r"), -delta, delta)


def _check_one_hot(T, F):
    T, F = as_float(T, "T", non_negative=True), as_float(F, "F")
    if T.ndim != 2 or T.shape != F.shape:
        raise ValueError(
            f"T and F must be 2-D arrays of the same shape (n_samples, n_classes), got "
            f"{T.shape} and {F.shape}"
        )
    return T, F


def multinomial_log_loss(T, F):
    """The multinomial log-loss −Σ_k t_k ln p_k of each sample, p = softmax(F).

    Parameters
    ----------
    T : array-like of shape (n_samples, n_classes)
        One-hot targets (rows of non-negative numbers summing to one also work).
    F : array-like of shape (n_samples, n_classes)
        Raw scores f_k(x_n).

    Returns
    -------
    ndarray of shape (n_samples,)
        The loss of every sample.

    Raises
    ------
    ValueError
        If T is negative, T or F is not finite, or their shapes differ.
    """
    T, F = _check_one_hot(T, F)
    return logsumexp_last(F) - np.sum(T * F, axis=1)


def _softmax(F):
    E = np.exp(F - F.max(axis=1, keepdims=True))
    return E / E.sum(axis=1, keepdims=True)


def multinomial_log_loss_gradient(T, F):
    """∂/∂f_k of the multinomial log-loss: p_k − t_k.

    Parameters
    ----------
    T : array-like of shape (n_samples, n_classes)
        One-hot targets.
    F : array-like of shape (n_samples, n_classes)
        Raw scores.

    Returns
    -------
    ndarray of shape (n_samples, n_classes)
        p − T.

    Raises
    ------
    ValueError
        If T or F is not a finite real array, T is negative, or their shapes differ.
    """
    T, F = _check_one_hot(T, F)
    return _softmax(F) - T


def multinomial_log_loss_hessian(T, F):
    """The diagonal ∂²/∂f_k² of the multinomial log-loss: p_k (1 − p_k).

    The full Hessian of a sample is diag(p) − p pᵀ; boosting with one tree per class uses its
    diagonal.

    Parameters
    ----------
    T : array-like of shape (n_samples, n_classes)
        One-hot targets (the Hessian does not depend on them).
    F : array-like of shape (n_samples, n_classes)
        Raw scores.

    Returns
    -------
    ndarray of shape (n_samples, n_classes)
        p (1 − p).

    Raises
    ------
    ValueError
        If T or F is not a finite real array, T is negative, or their shapes differ.
    """
    T, F = _check_one_hot(T, F)
    P = _softmax(F)
    return P * (1.0 - P)


#: name -> (value, gradient, hessian) of z = t·y; ``None`` where no useful derivative exists.
MARGIN_LOSSES = {
    "exponential": (exponential_loss, exponential_loss_gradient, exponential_loss_hessian),
    "cross_entropy": (cross_entropy_loss, cross_entropy_loss_gradient, cross_entropy_loss_hessian),
    "hinge": (hinge_loss, hinge_loss_gradient, None),
    "misclassification": (misclassification_loss, None, None),
}

#: name -> (value, gradient, hessian) of the residual r = y − t.
REGRESSION_LOSSES = {
    "squared": (squared_error, squared_error_gradient, squared_error_hessian),
    "absolute": (absolute_error, absolute_error_gradient, None),
}


# --- (14.27)-(14.28): the population minimiser --------------------------------------------


def _check_probability(p):
    p = _as_float(p, "p")
    if np.any((p < 0) | (p > 1)):
        raise ValueError("p must hold probabilities p(t = 1 | x) in [0, 1]")
    return p


@implements("14.27")
def expected_exponential_loss(y, p):
    """The expected exponential error at one input, the integrand of (14.27) divided by p(x).

    E_t[exp(−t y) | x] = p(t = 1 | x) e^{−y} + p(t = −1 | x) e^{y}.

    Parameters
    ----------
    y : array-like
        Value(s) of the model output y(x).
    p : array-like
        p(t = 1 | x); broadcast against ``y``.

    Returns
    -------
    ndarray
        The expected exponential error, broadcast over ``y`` and ``p`` (+inf where it exceeds
        the largest float).

    Raises
    ------
    ValueError
        If p is not in [0, 1], y holds NaN, or the shapes of y and p do not broadcast.
    """
    p = _check_probability(p)
    y = _as_float(y, "y")
    try:
        np.broadcast_shapes(y.shape, p.shape)
    except ValueError:
        raise ValueError(
            f"y and p must broadcast together, got shapes {y.shape} and {p.shape}"
        ) from None
    # exp(±y) beyond the largest float is +inf; a term whose weight p or 1 − p is 0 is 0
    # (not 0 · inf): the discarded products are the only place where NaN can appear.
    with np.errstate(over="ignore", invalid="ignore"):
        up = np.where(p > 0, p * np.exp(-y), 0.0)
        down = np.where(p < 1, (1.0 - p) * np.exp(y), 0.0)
    return up + down


@implements("14.28")
def exponential_risk_minimiser(p):
    """The y(x) minimising the expected exponential error: half the log-odds, equation (14.28).

    y*(x) = ½ ln{ p(t = 1 | x) / p(t = −1 | x) }; ±inf where p is 1 or 0.

    Parameters
    ----------
    p : array-like
        p(t = 1 | x) in [0, 1].

    Returns
    -------
    ndarray
        y*(x) for each p.

    Raises
    ------
    ValueError
        If p is not a real array or holds NaN or values outside [0, 1].
    """
    p = _check_probability(p)
    with np.errstate(divide="ignore"):
        return 0.5 * (np.log(p) - np.log1p(-p))
