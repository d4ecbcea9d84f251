"""Mixtures of linear regressions fitted by EM, equations (14.34)-(14.44) (Section 14.5.1).

The model is p(t | φ, θ) = Σ_k π_k N(t | w_kᵀφ, β⁻¹). EM alternates the responsibilities
(14.37) (:func:`responsibilities_linear`, the E-step) with :func:`m_step_linear`, which composes
π_k (14.38), the weighted normal equations (14.42) of all K components at once and the shared
noise *precision* β (14.44). Sample weights s_n multiply each point's responsibilities in the
M-step and its term of the log-likelihood.
"""

from __future__ import annotations

import numpy as np

from .._equations import implements
from .._numerics import DEAD_FRACTION, log_or_minus_inf, logsumexp_last, normalise_log
from .._validation import Axes, as_float, check_number
from ._base import (
    check_beta,
    check_coef,
    check_data,
    check_posteriors,
    check_responsibilities,
    check_weights,
    log_pi,
    variance_floor,
    weigh,
    weighted_sum,
)

__all__ = [
    "linear_component_log_densities",
    "mixture_of_linear_regressions_density",
    "mixture_of_linear_regressions_log_likelihood",
    "complete_data_log_likelihood_linear",
    "responsibilities_linear",
    "mixing_coefficients",
    "expected_complete_data_log_likelihood_linear",
    "q_linear_weights",
    "q_linear_precision",
    "weighted_normal_equations",
    "solve_normal_equations",
    "weighted_least_squares",
    "noise_precision",
    "m_step_linear",
]

_BLOCK = 16384  # rows per block in the batched normal equations (bounded temporaries)


def _check_coef(W, n_basis):
    """W of shape (K, M) whose products with Φ and their squares cannot overflow."""
    W = check_coef(W, n_basis)
    if W.size and np.max(np.abs(W)) > 1e150:
        raise ValueError(
            f"W has entries of magnitude up to {np.max(np.abs(W)):.3g}: beyond 1e150 the squared "
            "residuals (t - Phi W^T)^2 overflow; rescale Phi and t to get moderate weights"
        )
    return W


def _check_gamma(gamma, shape, name="gamma"):
    """Non-negative finite weights z_nk or γ_nk of the given shape (N, K)."""
    axes = Axes(n_samples=shape[0], n_components=shape[1])
    return axes.array(gamma, name, ("n_samples", "n_components"), non_negative=True)


def _log_densities(Phi, t, W, beta, log_prior=0.0):
    """ln π_k + ln N(t_n | w_kᵀφ_n, β⁻¹), in place in one (N, K) array (the E-step's cost)."""
    out = Phi @ W.T
    np.subtract(t[:, None], out, out=out)
    np.square(out, out=out)
    out *= -0.5 * beta
    out += 0.5 * np.log(beta / (2.0 * np.pi)) + log_prior
    return out


def _log_joint(Phi, t, pi, W, beta, check_input=True):
    if not check_input:
        return _log_densities(Phi, t, W, beta, log_or_minus_inf(pi))
    Phi, t = check_data(Phi, t)
    W = _check_coef(W, Phi.shape[1])
    return _log_densities(Phi, t, W, check_beta(beta, len(W)), log_pi(pi, W.shape[0]))


def linear_component_log_densities(Phi, t, W, beta):
    """ln N(t_n | w_kᵀφ_n, β⁻¹) for every n and k.

    Parameters
    ----------
    Phi : array-like of shape (n_samples, n_basis)
        The design matrix Φ, rows φ_nᵀ.
    t : array-like of shape (n_samples,)
        The targets.
    W : array-like of shape (n_components, n_basis)
        One weight vector per row.
    beta : float or array-like of shape (n_components,)
        Noise precision (inverse variance): shared by the components, or one per component (as
        the linear experts of :mod:`prml14.mixtures.expert_estimators` use).

    Returns
    -------
    ndarray of shape (n_samples, n_components)
        The log densities.

    Raises
    ------
    ValueError
        If Phi, t or W is misshapen, not finite or beyond 1e150, or a beta is not positive.
    """
    Phi, t = check_data(Phi, t)
    W = _check_coef(W, Phi.shape[1])
    return _log_densities(Phi, t, W, check_beta(beta, len(W)))


@implements("14.34")
def mixture_of_linear_regressions_density(Phi, t, pi, W, beta):
    """p(t_n | φ_n, θ) = Σ_k π_k N(t_n | w_kᵀφ_n, β⁻¹), equation (14.34), at each pair (φ_n, t_n).

    Parameters
    ----------
    Phi : array-like of shape (n_samples, n_basis)
        The design matrix Φ.
    t : array-like of shape (n_samples,)
        The targets at which the density is evaluated.
    pi : array-like of shape (n_components,)
        Mixing coefficients π_k.
    W : array-like of shape (n_components, n_basis)
        Component weights w_k, one per row.
    beta : float
        Noise precision β.

    Returns
    -------
    ndarray of shape (n_samples,)
        The density at each pair.

    Raises
    ------
    ValueError
        If Phi, t or W is empty, misshapen or not finite, Phi, t or W exceeds 1e150, pi is not a
        1-D array of non-negative numbers summing to one (one per component), or beta is not
        positive and finite.
    """
    return np.exp(logsumexp_last(_log_joint(Phi, t, pi, W, beta)))


@implements("14.35")
def mixture_of_linear_regressions_log_likelihood(Phi, t, pi, W, beta, *, sample_weight=None):
    """ln p(t | θ) = Σ_n s_n ln Σ_k π_k N(t_n | w_kᵀφ_n, β⁻¹), equation (14.35), via log-sum-exp.

    Parameters
    ----------
    Phi : array-like of shape (n_samples, n_basis)
        The design matrix Φ, rows φ_nᵀ.
    t : array-like of shape (n_samples,)
        The targets.
    pi : array-like of shape (n_components,)
        Mixing coefficients π_k.
    W : array-like of shape (n_components, n_basis)
        Component weights w_k, one per row.
    beta : float
        Noise precision β (inverse variance).
    sample_weight : array-like of shape (n_samples,), default=None
        Weights s_n of the points' terms (all ones if None: the plain (14.35)).

    Returns
    -------
    float
        The (weighted) log-likelihood.

    Raises
    ------
    ValueError
        If Phi, t or W is empty, misshapen or not finite, Phi, t or W exceeds 1e150, pi is not a
        1-D array of non-negative numbers summing to one (one per component), beta is not positive
        and finite, or sample_weight is negative, not finite, all zero or beyond 1e100.
    """
    log_p = logsumexp_last(_log_joint(Phi, t, pi, W, beta))
    return weighted_sum(log_p, check_weights(sample_weight, len(log_p)))


@implements("14.36")
def complete_data_log_likelihood_linear(Phi, t, Z, pi, W, beta):
    """ln p(t, Z | θ) = Σ_n Σ_k z_nk ln{π_k N(t_n | w_kᵀφ_n, β⁻¹)}, equation (14.36).

    Parameters
    ----------
    Phi : array-like of shape (n_samples, n_basis)
        The design matrix Φ, rows φ_nᵀ.
    t : array-like of shape (n_samples,)
        The targets.
    Z : array-like of shape (n_samples, n_components)
        1-of-K indicators z_nk (soft values give the corresponding weighted sum).
    pi : array-like of shape (n_components,)
        Mixing coefficients π_k.
    W : array-like of shape (n_components, n_basis)
        Component weights w_k, one per row.
    beta : float
        Noise precision β (inverse variance).

    Returns
    -------
    float
        Terms with z_nk = 0 contribute 0 even where π_k = 0.

    Raises
    ------
    ValueError
        If Phi, t, Z or W is empty, misshapen or not finite, Phi, t or W exceeds 1e150, Z is
        negative, pi is not a 1-D array of non-negative numbers summing to one (one per component),
        or beta is not a positive finite number.
    """
    return _complete_data(Phi, t, Z, pi, W, beta, "Z")


def _complete_data(Phi, t, Z, pi, W, beta, name):
    log_joint = _log_joint(Phi, t, pi, W, beta)
    Z = _check_gamma(Z, log_joint.shape, name)
    return float(np.sum(np.where(Z > 0, Z * log_joint, 0.0)))


@implements("14.37")
def responsibilities_linear(
    Phi, t, pi, W, beta, *, sample_weight=None, return_log_likelihood=False, check_input=True
):
    """γ_nk = π_k N(t_n | w_kᵀφ_n, β⁻¹) / Σ_j π_j N(t_n | w_jᵀφ_n, β⁻¹), equation (14.37).

    The E-step: γ_nk = E[z_nk | t_n, θ^old], computed in log space,
    γ_nk = exp(ln π_k + ln N_nk − logsumexp_j(ln π_j + ln N_nj)), so a point far from every line
    still gets responsibilities that sum to one.

    Parameters
    ----------
    Phi : array-like of shape (n_samples, n_basis)
        The design matrix Φ, rows φ_nᵀ.
    t : array-like of shape (n_samples,)
        The targets.
    pi : array-like of shape (n_components,)
        Mixing coefficients π_k.
    W : array-like of shape (n_components, n_basis)
        Component weights w_k, one per row.
    beta : float
        Noise precision β (inverse variance).
    sample_weight : array-like of shape (n_samples,), default=None
        Weights of the points' terms in the returned log-likelihood (γ does not depend on
        them).
    return_log_likelihood : bool, default=False
        Also return (14.35) at θ^old, which the log-sum-exp computes for free.
    check_input : bool, default=True
        Validate the arguments. ``False`` skips the checks (and their fixed cost) for arguments
        already validated, as the estimators' EM loops do after ``fit`` has checked the data.

    Returns
    -------
    gamma : ndarray of shape (n_samples, n_components)
        The responsibilities; each row sums to one.
    log_likelihood : float
        Only if ``return_log_likelihood``.

    Raises
    ------
    ValueError
        If Phi, t or W is empty, misshapen or not finite, Phi, t or W exceeds 1e150, pi is not a
        1-D array of non-negative numbers summing to one (one per component), beta is not positive
        and finite, or sample_weight is negative, not finite, all zero or beyond 1e100.
    """
    gamma, log_p = normalise_log(_log_joint(Phi, t, pi, W, beta, check_input))
    if check_input:  # checked even when unused, so that bad weights never pass silently
        sample_weight = check_weights(sample_weight, len(log_p))
    if not return_log_likelihood:
        return gamma
    return gamma, weighted_sum(log_p, sample_weight)


@implements("14.38", "14.50")
def mixing_coefficients(gamma, sample_weight=None):
    """π_k = Σ_n s_n γ_nk / Σ_n s_n, equations (14.38) and (14.50) (s_n = 1: the mean of γ).

    Parameters
    ----------
    gamma : array-like of shape (n_samples, n_components)
        The responsibilities.
    sample_weight : array-like of shape (n_samples,), default=None
        The points' weights s_n (all ones if None).

    Returns
    -------
    ndarray of shape (n_components,)
        The mixing coefficients.

    Raises
    ------
    ValueError
        If gamma is empty, misshapen, not finite or negative, or sample_weight is negative, not
        finite, all zero or beyond 1e100.
    """
    gamma = check_responsibilities(gamma)
    sample_weight = check_weights(sample_weight, gamma.shape[0])
    if sample_weight is None:
        return gamma.mean(axis=0)
    return sample_weight @ gamma / sample_weight.sum()


def expected_complete_data_log_likelihood_linear(Phi, t, gamma, pi, W, beta):
    """Q(θ, θ^old) = Σ_n Σ_k γ_nk {ln π_k + ln N(t_n | w_kᵀφ_n, β⁻¹)}, the Q of Section 14.5.1.

    The expectation of (14.36) under the posterior of Z given t and θ^old (whose means are the
    responsibilities ``gamma``), as a function of the new parameters (pi, W, beta).

    Parameters
    ----------
    Phi : array-like of shape (n_samples, n_basis)
        The design matrix Φ, rows φ_nᵀ.
    t : array-like of shape (n_samples,)
        The targets.
    gamma : array-like of shape (n_samples, n_components)
        The responsibilities at θ^old (times the sample weights, for a weighted Q).
    pi : array-like of shape (n_components,)
        Mixing coefficients π_k.
    W : array-like of shape (n_components, n_basis)
        Component weights w_k, one per row.
    beta : float
        Noise precision β (inverse variance).

    Returns
    -------
    float
        Q.

    Raises
    ------
    ValueError
        If Phi, t, gamma or W is empty, misshapen or not finite, Phi, t or W exceeds 1e150, gamma
        is negative, pi is not a 1-D array of non-negative numbers summing to one (one per
        component), or beta is not a positive finite number.
    """
    return _complete_data(Phi, t, gamma, pi, W, beta, "gamma")


@implements("14.39")
def q_linear_weights(Phi, t, gamma, W, beta):
    """The part of Q that depends on the weights: Σ_n Σ_k γ_nk {−(β/2)(t_n − w_kᵀφ_n)²} (14.39).

    Q equals this plus terms that do not depend on W. Maximising it over w_k alone is a weighted
    least-squares problem for each k.

    Parameters
    ----------
    Phi : array-like of shape (n_samples, n_basis)
        The design matrix Φ, rows φ_nᵀ.
    t : array-like of shape (n_samples,)
        The targets.
    gamma : array-like of shape (n_samples, n_components)
        The responsibilities γ_nk.
    W : array-like of shape (n_components, n_basis)
        The weights.
    beta : float
        The noise precision.

    Returns
    -------
    float
        The W-dependent part of Q.

    Raises
    ------
    ValueError
        If Phi, t, gamma or W is misshapen or not finite, Phi, t or W exceeds 1e150, gamma is
        negative, or beta is not a positive scalar.
    """
    return _q_weights(*_check_q(Phi, t, gamma, W, beta))


def _check_q(Phi, t, gamma, W, beta):
    Phi, t = check_data(Phi, t)
    W = _check_coef(W, Phi.shape[1])
    return Phi, t, _check_gamma(gamma, (len(t), len(W))), W, check_beta(beta)


def _q_weights(Phi, t, gamma, W, beta):
    resid = t[:, None] - Phi @ W.T
    return float(-0.5 * beta * np.sum(gamma * resid**2))


@implements("14.43")
def q_linear_precision(Phi, t, gamma, W, beta):
    """The part of Q in W and β: Σ_n Σ_k γ_nk {½ ln β − (β/2)(t_n − w_kᵀφ_n)²} (14.43).

    Q equals this plus a constant (terms in π_k and −½ ln 2π).

    Parameters
    ----------
    Phi : array-like of shape (n_samples, n_basis)
        The design matrix Φ, rows φ_nᵀ.
    t : array-like of shape (n_samples,)
        The targets.
    gamma : array-like of shape (n_samples, n_components)
        The responsibilities γ_nk.
    W : array-like of shape (n_components, n_basis)
        Component weights w_k, one per row.
    beta : float
        Noise precision β (inverse variance).

    Returns
    -------
    float
        The (W, β)-dependent part of Q.

    Raises
    ------
    ValueError
        As :func:`q_linear_weights` (beta must be a positive scalar).
    """
    Phi, t, gamma, W, beta = _check_q(Phi, t, gamma, W, beta)
    return float(0.5 * np.log(beta) * gamma.sum()) + _q_weights(Phi, t, gamma, W, beta)


def _normal_equations(Phi, t, R):
    K, M = R.shape[1], Phi.shape[1]
    A, b = np.zeros((K, M, M)), np.zeros((K, M))
    for start in range(0, len(t), _BLOCK):
        rows = slice(start, start + _BLOCK)
        R_Phi = R[rows, :, None] * Phi[rows, None, :]  # the rows of R_k Φ, (n, K, M)
        A += np.einsum("nkm,nl->kml", R_Phi, Phi[rows], optimize=True)  # Φᵀ R_k Φ for all k
        b += np.einsum("nkm,n->km", R_Phi, t[rows], optimize=True)  # Φᵀ R_k t for all k
    return A, b


def weighted_normal_equations(Phi, t, gamma):
    """Φᵀ R_k Φ and Φᵀ R_k t for every component k, with R_k = diag(γ_1k, ..., γ_Nk) never formed.

    Computed with ``einsum`` (batched BLAS) over blocks of 16384 rows, so that the temporaries
    stay at 16384 × K × M whatever N is (a loop over blocks, not over samples).

    Parameters
    ----------
    Phi : array-like of shape (n_samples, n_basis)
        The design matrix Φ.
    t : array-like of shape (n_samples,)
        The targets.
    gamma : array-like of shape (n_samples, n_components)
        The diagonals of the R_k (responsibilities, times sample weights if any).

    Returns
    -------
    A : ndarray of shape (n_components, n_basis, n_basis)
        Σ_n γ_nk φ_n φ_nᵀ.
    b : ndarray of shape (n_components, n_basis)
        Σ_n γ_nk t_n φ_n.

    Raises
    ------
    ValueError
        If Phi, t or gamma is empty, misshapen or not finite, Phi or t exceeds 1e150, or gamma is
        negative.
    """
    Phi, t = check_data(Phi, t)
    return _normal_equations(Phi, t, check_responsibilities(gamma, Phi.shape[0]))


def solve_normal_equations(A, b):
    """Solve the K symmetric positive semi-definite systems A_k w_k = b_k, robustly.

    Each system is first rescaled to unit diagonal (A_k → D A_k D, D = diag(A_k)^(-1/2)), so
    that the test for singularity does not depend on the units of the basis functions (an input
    measured in millions, or far from zero, is not a singular system). Systems whose rescaled
    condition number is below 1e12 are solved exactly; the others get the minimum-norm solution
    of the rescaled system (pseudo-inverse, relative cut-off 1e-12), which for duplicated basis
    functions is the ordinary minimum-norm least-squares solution.

    Parameters
    ----------
    A : ndarray of shape (n_components, n_basis, n_basis)
        The matrices Φᵀ R_k Φ.
    b : ndarray of shape (n_components, n_basis)
        The right-hand sides Φᵀ R_k t.

    Returns
    -------
    ndarray of shape (n_components, n_basis)
        The solutions w_k, one per row.

    Raises
    ------
    ValueError
        If A or b is not finite or their shapes disagree.
    """
    axes = Axes()
    A = axes.array(A, "A", ("n_components", "n_basis", "n_basis"), allow_empty=True)
    return _solve(A, axes.array(b, "b", ("n_components", "n_basis"), allow_empty=True))


def _solve(A, b):
    diagonal = np.einsum("kmm->km", A)
    d = 1.0 / np.sqrt(np.where(diagonal > 0, diagonal, 1.0))
    A_scaled, b_scaled = A * d[:, :, None] * d[:, None, :], b * d
    ok = np.linalg.cond(A_scaled) < 1e12
    u = np.empty_like(b)
    if np.any(ok):
        u[ok] = np.linalg.solve(A_scaled[ok], b_scaled[ok][:, :, None])[:, :, 0]
    if not np.all(ok):
        u[~ok] = (
            np.linalg.pinv(A_scaled[~ok], rcond=1e-12, hermitian=True) @ b_scaled[~ok][:, :, None]
        )[:, :, 0]
    return u * d


def _check_w_old(W_old, n_components, n_basis):
    """None, or the previous weights W_old of shape (K, M), finite and at most 1e150."""
    if W_old is None:
        return None
    axes = Axes(n_components=n_components, n_basis=n_basis)
    return axes.array(W_old, "W_old", ("n_components", "n_basis"), max_magnitude=1e150)


def _check_floor(floor, t, sample_weight):
    """The floor on the variance 1/β: the default of :func:`variance_floor`, or a finite > 0."""
    if floor is None:
        return variance_floor(t, sample_weight)
    return check_number(floor, "floor", low=0.0, closed="right")


def _least_squares(Phi, t, R, W_old, total_weight):
    W = _solve(*_normal_equations(Phi, t, R))
    dead = R.sum(axis=0) <= DEAD_FRACTION * total_weight
    if np.any(dead):
        W[dead] = 0.0 if W_old is None else as_float(W_old, "W_old")[dead]
    return W


@implements("14.40", "14.41", "14.42")
def weighted_least_squares(Phi, t, gamma, W_old=None, *, sample_weight=None):
    """w_k = (Φᵀ R_k Φ)⁻¹ Φᵀ R_k t for every k at once, equation (14.42).

    R_k = diag(s_1 γ_1k, ..., s_N γ_Nk) is never formed: Φᵀ R_k Φ and Φᵀ R_k t are computed
    for all K components at once (:func:`weighted_normal_equations`). The solution makes the
    gradient (14.40)/(14.41) the zero vector.

    Degenerate cases: a singular Φᵀ R_k Φ is solved in the minimum-norm least-squares sense
    (:func:`solve_normal_equations`; singularity is judged after rescaling the system to unit
    diagonal, so badly scaled inputs are not mistaken for collinear ones); a component with
    Σ_n s_n γ_nk <= 1e-10 Σ_n s_n keeps ``W_old[k]`` (or zeros if ``W_old`` is None).

    Parameters
    ----------
    Phi : array-like of shape (n_samples, n_basis)
        The design matrix Φ.
    t : array-like of shape (n_samples,)
        The targets.
    gamma : array-like of shape (n_samples, n_components)
        The responsibilities (any non-negative weights: (14.42) does not need rows summing to
        one).
    W_old : array-like of shape (n_components, n_basis), default=None
        The previous weights, kept by components that have lost every point.
    sample_weight : array-like of shape (n_samples,), default=None
        The points' weights s_n (all ones if None).

    Returns
    -------
    ndarray of shape (n_components, n_basis)
        The new weights W.

    Raises
    ------
    ValueError
        If Phi, t or gamma is misshapen or not finite, Phi or t exceeds 1e150, gamma is
        negative, W_old is not a finite (n_components, n_basis) array within 1e150, or
        sample_weight is negative, not finite, all zero or beyond 1e100.
    """
    Phi, t = check_data(Phi, t)
    sample_weight = check_weights(sample_weight, len(t))
    R = weigh(check_responsibilities(gamma, len(t)), sample_weight)
    W_old = _check_w_old(W_old, R.shape[1], Phi.shape[1])
    total = len(t) if sample_weight is None else sample_weight.sum()
    return _least_squares(Phi, t, R, W_old, total)


def _precision(Phi, t, R, W, total_weight, floor):
    resid = t[:, None] - Phi @ W.T
    variance = float(np.sum(R * resid**2) / total_weight)
    return 1.0 / max(variance, floor)


@implements("14.44")
def noise_precision(Phi, t, gamma, W, *, sample_weight=None, floor=None):
    """The shared precision β from 1/β = Σ_n s_n Σ_k γ_nk (t_n − w_kᵀφ_n)² / Σ_n s_n (14.44).

    With unit weights s_n this is (14.44), 1/β = (1/N) Σ_n Σ_k γ_nk (t_n − w_kᵀφ_n)².

    Parameters
    ----------
    Phi : array-like of shape (n_samples, n_basis)
        The design matrix Φ, rows φ_nᵀ.
    t : array-like of shape (n_samples,)
        The targets.
    gamma : array-like of shape (n_samples, n_components)
        The responsibilities γ_nk.
    W : array-like of shape (n_components, n_basis)
        Component weights w_k, one per row.
    sample_weight : array-like of shape (n_samples,), default=None
        The points' weights s_n (all ones if None).
    floor : float > 0, default=None
        Lower bound on the variance 1/β; default 1e-10 × var(t) (1e-10 if t is constant). It
        keeps β finite when the components fit every point exactly.

    Returns
    -------
    float
        β, a *precision* (inverse variance), not a variance or a standard deviation.

    Raises
    ------
    ValueError
        If an array is misshapen or not finite, or ``floor`` is not a finite number > 0.
    TypeError
        If ``floor`` is not a real number.
    """
    Phi, t = check_data(Phi, t)
    W = _check_coef(W, Phi.shape[1])
    sample_weight = check_weights(sample_weight, len(t))
    R = weigh(check_responsibilities(gamma, len(t), W.shape[0]), sample_weight)
    total = len(t) if sample_weight is None else sample_weight.sum()
    return _precision(Phi, t, R, W, total, _check_floor(floor, t, sample_weight))


@implements("14.38", "14.42", "14.44")
def m_step_linear(Phi, t, gamma, W_old=None, *, sample_weight=None, floor=None, check_input=True):
    """The M-step of a mixture of linear regressions: π (14.38), W (14.42), then β (14.44).

    It maximises Q(θ, θ^old), the expected complete-data log-likelihood with the points' terms
    weighted by s_n γ_nk: first π_k = Σ_n s_n γ_nk / Σ_n s_n (:func:`mixing_coefficients`), then
    the K weighted normal equations (:func:`weighted_least_squares`), then the precision at the
    new weights (:func:`noise_precision`). The arguments are checked once.

    Parameters
    ----------
    Phi : array-like of shape (n_samples, n_basis)
        The design matrix Φ.
    t : array-like of shape (n_samples,)
        The targets.
    gamma : array-like of shape (n_samples, n_components)
        The responsibilities of the E-step (14.37); each row must sum to one.
    W_old : array-like of shape (n_components, n_basis), default=None
        The previous weights, kept by components that have lost every point.
    sample_weight : array-like of shape (n_samples,), default=None
        The points' weights s_n (all ones if None).
    floor : float > 0, default=None
        Lower bound on the variance 1/β (see :func:`noise_precision`).
    check_input : bool, default=True
        Validate the arguments. ``False`` skips the checks (and their fixed cost) for arguments
        already validated, as the estimators' EM loops do after ``fit`` has checked the data.

    Returns
    -------
    pi : ndarray of shape (n_components,)
        The mixing coefficients.
    W : ndarray of shape (n_components, n_basis)
        The component weights.
    beta : float
        The noise precision.

    Raises
    ------
    TypeError
        With ``check_input``: if ``floor`` is not a real number.
    ValueError
        With ``check_input``: as :func:`weighted_least_squares`, if a row of gamma does not
        sum to one, or if ``floor`` is not a finite number > 0.
    """
    if check_input:
        Phi, t = check_data(Phi, t)
        sample_weight = check_weights(sample_weight, len(t))
        gamma = check_posteriors(gamma, len(t))
        W_old = _check_w_old(W_old, gamma.shape[1], Phi.shape[1])
        floor = _check_floor(floor, t, sample_weight)
    R = weigh(gamma, sample_weight)
    total = float(len(t) if sample_weight is None else sample_weight.sum())
    W = _least_squares(Phi, t, R, W_old, total)
    floor = variance_floor(t, sample_weight) if floor is None else floor
    return R.sum(axis=0) / total, W, _precision(Phi, t, R, W, total, floor)
