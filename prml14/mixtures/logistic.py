"""Mixtures of logistic regressions fitted by EM, equations (14.45)-(14.52) (Section 14.5.2).

The model is p(t | φ, θ) = Σ_k π_k y_k^t (1 − y_k)^{1 − t} with y_k = σ(w_kᵀφ). EM alternates
the responsibilities (14.48) (:func:`responsibilities_logistic`, the E-step) with
:func:`m_step_logistic`: π_k (14.50) and, for each component, a weighted IRLS/Newton fit with
gradient (14.51) and negative Hessian (14.52)
(:func:`prml14.mixtures.irls.weighted_logistic_irls`), warm-started at the previous weights.
"""

from __future__ import annotations

import numpy as np

from .._equations import implements
from .._numerics import DEAD_FRACTION, expit, log_or_minus_inf, normalise_log, softplus
from .._validation import Axes, as_float, check_number, check_simplex
from ._base import (
    check_coef,
    check_data,
    check_responsibilities,
    check_weights,
    log_pi,
    weigh,
    weighted_sum,
)
from ._logistic_newton import _softplus_into
from .irls import _logistic_irls_batch

__all__ = [
    "logistic_component_log_probs",
    "mixture_of_logistic_regressions_proba",
    "mixture_of_logistic_regressions_log_likelihood",
    "complete_data_log_likelihood_logistic",
    "responsibilities_logistic",
    "expected_complete_data_log_likelihood_logistic",
    "m_step_logistic",
]


def _log_probs(Phi, t, W):
    a = Phi @ W.T
    return t[:, None] * a - softplus(a)  # t ln σ(a) + (1 − t) ln σ(−a) = t a − ln(1 + e^a)


def _log_joint(Phi, t, pi, W):
    Phi, t = check_data(Phi, t)
    W = check_coef(W, Phi.shape[1])
    return log_pi(pi, W.shape[0]) + _log_probs(Phi, t, W)


def _posterior(Phi, t, log_pi, W, size=8192):
    """normalise_log(ln π_k + ln p(t_n | k)) computed block by block, components first inside a
    block (reductions over K along contiguous rows; small work arrays reused, no (N, K)
    temporaries): the responsibilities (14.48) and ln p(t_n | θ).

    For labels t ∈ {0, 1} the block is computed with probabilities: p(t_n | k) = σ(±a_nk) from
    one exponential q = e^{−|a|} per entry, γ = π_k p / Σ_j π_j p and one logarithm per sample,
    instead of a softplus (an exponential and a log1p per entry) and a second exponential.
    Without AVX-512, numpy evaluates float64 exponentials and logarithms one at a time, so
    these dominate the E-step. A sample whose Σ_k π_k p(t_n | k) falls below 1e-280 (where
    the probabilities lose digits to underflow) is redone in logarithms.
    """
    gamma, log_p = np.empty((len(t), len(W))), np.empty(len(t))
    binary = bool(np.all((t == 0) | (t == 1)))
    pi = np.exp(log_pi)
    work = {}
    for start in range(0, len(t), size):
        sl = slice(start, start + size)
        Phi_b, t_b = Phi[sl], t[sl]
        if len(t_b) not in work:
            work[len(t_b)] = (np.empty((len(W), len(t_b))), np.empty((len(W), len(t_b))))
        out, scratch = work[len(t_b)]
        A = W @ Phi_b.T
        if binary:
            # p = σ(s a) with s = 2t − 1: 1/(1 + q) where s a ≥ 0, q/(1 + q) elsewhere
            np.multiply(A, 2.0 * t_b - 1.0, out=scratch)  # s a
            q = np.exp(np.negative(np.abs(scratch, out=out), out=out), out=out)
            p = np.where(scratch >= 0, 1.0, q)
            p /= np.add(q, 1.0, out=q)
            p *= pi[:, None]
            total = p.sum(axis=0)
            with np.errstate(divide="ignore", invalid="ignore"):  # 0/0: redone below
                log_p[sl] = np.log(total)
                gamma[sl] = (p / total).T
            low = np.flatnonzero(~(total >= _PROBABILITY_FLOOR))
            if low.size == 0:
                continue
            A, t_b = A[:, low], t_b[low]  # redone in logarithms below
            out, scratch = np.empty_like(A), np.empty_like(A)
            sl = start + low
        _softplus_into(A, out, scratch)
        A *= t_b  # t a − ln(1 + e^a) = t ln σ(a) + (1 − t) ln σ(−a)
        A -= out
        A += log_pi[:, None]
        m = A.max(axis=0)
        m = np.where(np.isfinite(m), m, 0.0)
        np.exp(np.subtract(A, m, out=A), out=A)
        total = A.sum(axis=0)
        gamma[sl] = (A / total).T
        with np.errstate(divide="ignore"):
            log_p[sl] = m + np.log(total)
    return gamma, log_p


#: Below this, Σ_k π_k p(t_n | k) is redone in logarithms (underflow would cost digits).
_PROBABILITY_FLOOR = 1e-280


def logistic_component_log_probs(Phi, t, W):
    """ln{y_nk^{t_n} (1 − y_nk)^{1 − t_n}} with y_nk = σ(w_kᵀφ_n), stably (log σ, never ln 0).

    Parameters
    ----------
    Phi : array-like of shape (n_samples, n_basis)
        The design matrix Φ.
    t : array-like of shape (n_samples,)
        Targets in {0, 1}.
    W : array-like of shape (n_components, n_basis)
        Component weights, one per row.

    Returns
    -------
    ndarray of shape (n_samples, n_components)
        The log probabilities.

    Raises
    ------
    ValueError
        If Phi, t or W is empty, misshapen or not finite, or Phi or t exceeds 1e150.
    """
    Phi, t = check_data(Phi, t)
    return _log_probs(Phi, t, check_coef(W, Phi.shape[1]))


@implements("14.45")
def mixture_of_logistic_regressions_proba(Phi, pi, W):
    """p(t = 1 | φ_n, θ) = Σ_k π_k y_nk with y_nk = σ(w_kᵀφ_n), equation (14.45) at t = 1.

    (At t = 0 the mixture gives Σ_k π_k (1 − y_nk) = 1 − this value.)

    Parameters
    ----------
    Phi : array-like of shape (n_samples, n_basis)
        The design matrix Φ.
    pi : array-like of shape (n_components,)
        Mixing coefficients π_k.
    W : array-like of shape (n_components, n_basis)
        Component weights, one per row.

    Returns
    -------
    ndarray of shape (n_samples,)
        The probabilities of class t = 1.

    Raises
    ------
    ValueError
        If Phi or W is not a finite real array or they do not share n_basis, or pi is not a 1-D
        array of non-negative numbers summing to one (one per component).
    """
    Phi, W = as_float(Phi, "Phi"), as_float(W, "W")
    if Phi.ndim != 2 or W.ndim != 2 or W.shape[1] != Phi.shape[1]:
        raise ValueError(
            "Phi (n_samples, n_basis) and W (n_components, n_basis) must share n_basis, "
            f"got {Phi.shape} and {W.shape}"
        )
    return expit(Phi @ W.T) @ check_simplex(pi, W.shape[0], name="pi")


@implements("14.46")
def mixture_of_logistic_regressions_log_likelihood(Phi, t, pi, W, *, sample_weight=None):
    """ln p(t | θ) = Σ_n s_n ln Σ_k π_k y_nk^{t_n} (1 − y_nk)^{1 − t_n}, the log of (14.46).

    Parameters
    ----------
    Phi : array-like of shape (n_samples, n_basis)
        The design matrix Φ, rows φ_nᵀ.
    t : array-like of shape (n_samples,)
        The targets in {0, 1}.
    pi : array-like of shape (n_components,)
        Mixing coefficients π_k.
    W : array-like of shape (n_components, n_basis)
        Component weights w_k, one per row.
    sample_weight : array-like of shape (n_samples,), default=None
        Weights s_n of the points' terms (all ones if None: the plain log of (14.46)).

    Returns
    -------
    float
        The (weighted) log-likelihood.

    Raises
    ------
    ValueError
        If Phi, t or W is empty, misshapen or not finite, Phi or t exceeds 1e150, pi is not a 1-D
        array of non-negative numbers summing to one (one per component), or sample_weight is
        negative, not finite, all zero or beyond 1e100.
    """
    _, log_p = normalise_log(_log_joint(Phi, t, pi, W))
    return weighted_sum(log_p, check_weights(sample_weight, len(log_p)))


@implements("14.47")
def complete_data_log_likelihood_logistic(Phi, t, Z, pi, W):
    """ln p(t, Z | θ) = Σ_n Σ_k z_nk ln{π_k y_nk^{t_n} (1 − y_nk)^{1 − t_n}}, the log of (14.47).

    Parameters
    ----------
    Phi : array-like of shape (n_samples, n_basis)
        The design matrix Φ, rows φ_nᵀ.
    t : array-like of shape (n_samples,)
        The targets in {0, 1}.
    Z : array-like of shape (n_samples, n_components)
        1-of-K indicators z_nk (soft values give the corresponding weighted sum).
    pi : array-like of shape (n_components,)
        Mixing coefficients π_k.
    W : array-like of shape (n_components, n_basis)
        Component weights w_k, one per row.

    Returns
    -------
    float
        Terms with z_nk = 0 contribute 0 even where π_k = 0.

    Raises
    ------
    ValueError
        If Z is negative somewhere or its shape is not (n_samples, n_components).
    """
    return _complete_data(Phi, t, Z, pi, W, "Z")


def _complete_data(Phi, t, Z, pi, W, name):
    """Σ_n Σ_k Z_nk ln{π_k p(t_n | k)}, with Z (called ``name``) checked against Phi and W."""
    Phi, t = check_data(Phi, t)
    W = check_coef(W, Phi.shape[1])
    axes = Axes(n_samples=len(t), n_components=len(W))
    Z = axes.array(Z, name, ("n_samples", "n_components"), non_negative=True)
    log_joint = log_pi(pi, W.shape[0]) + _log_probs(Phi, t, W)
    return float(np.sum(np.where(Z > 0, Z * log_joint, 0.0)))


@implements("14.48")
def responsibilities_logistic(
    Phi, t, pi, W, *, sample_weight=None, return_log_likelihood=False, check_input=True
):
    """γ_nk = π_k y_nk^{t_n}(1 − y_nk)^{1−t_n} / Σ_j π_j y_nj^{t_n}(1 − y_nj)^{1−t_n}, (14.48).

    The E-step, γ_nk = E[z_nk | t_n, θ^old], computed in log space with a log-sum-exp over the
    components.

    Parameters
    ----------
    Phi : array-like of shape (n_samples, n_basis)
        The design matrix Φ, rows φ_nᵀ.
    t : array-like of shape (n_samples,)
        The targets in {0, 1}.
    pi : array-like of shape (n_components,)
        Mixing coefficients π_k.
    W : array-like of shape (n_components, n_basis)
        Component weights w_k, one per row.
    sample_weight : array-like of shape (n_samples,), default=None
        Weights of the points' terms in the returned log-likelihood (γ does not depend on
        them).
    return_log_likelihood : bool, default=False
        Also return the log of (14.46) at θ^old.
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
        If Phi, t or W is empty, misshapen or not finite, Phi or t exceeds 1e150, pi is not a 1-D
        array of non-negative numbers summing to one (one per component), or sample_weight is
        negative, not finite, all zero or beyond 1e100.
    """
    if check_input:
        Phi, t = check_data(Phi, t)
        W = check_coef(W, Phi.shape[1])
        gamma, log_p = _posterior(Phi, t, log_pi(pi, W.shape[0]), W)
    else:
        gamma, log_p = _posterior(Phi, t, log_or_minus_inf(pi), W)
    if check_input:  # checked even when unused, so that bad weights never pass silently
        sample_weight = check_weights(sample_weight, len(log_p))
    if not return_log_likelihood:
        return gamma
    return gamma, weighted_sum(log_p, sample_weight)


@implements("14.49")
def expected_complete_data_log_likelihood_logistic(Phi, t, gamma, pi, W):
    """Q(θ, θ^old) = Σ_n Σ_k γ_nk {ln π_k + t_n ln y_nk + (1 − t_n) ln(1 − y_nk)}, (14.49).

    Parameters
    ----------
    Phi : array-like of shape (n_samples, n_basis)
        The design matrix Φ, rows φ_nᵀ.
    t : array-like of shape (n_samples,)
        The targets in {0, 1}.
    gamma : array-like of shape (n_samples, n_components)
        The responsibilities at θ^old (times the sample weights, for a weighted Q).
    pi : array-like of shape (n_components,)
        Mixing coefficients π_k.
    W : array-like of shape (n_components, n_basis)
        Component weights w_k, one per row.

    Returns
    -------
    float
        Q.

    Raises
    ------
    ValueError
        If Phi, t, gamma or W is empty, misshapen or not finite, Phi or t exceeds 1e150, gamma is
        negative, or pi is not a 1-D array of non-negative numbers summing to one (one per
        component).
    """
    return _complete_data(Phi, t, gamma, pi, W, "gamma")


@implements("14.50", "14.51", "14.52")
def m_step_logistic(
    Phi,
    t,
    gamma,
    W_old=None,
    *,
    sample_weight=None,
    l2=0.0,
    max_newton_steps=50,
    return_n_iter=False,
    check_input=True,
):
    """The M-step of a mixture of logistic regressions: π (14.50), then IRLS for each w_k.

    π_k = Σ_n s_n γ_nk / Σ_n s_n (14.50); then each w_k maximises
    Σ_n s_n γ_nk {t_n ln y_nk + (1 − t_n) ln(1 − y_nk)} − (l2/2)‖w_k‖² by Newton/IRLS steps
    with gradient (14.51) and negative Hessian (14.52)
    (:func:`prml14.mixtures.irls.weighted_logistic_irls`, warm-started at ``W_old``). The steps
    never decrease this objective, so even an IRLS fit stopped after ``max_newton_steps`` is a
    generalised M-step: EM's objective (the log-likelihood minus the fixed penalty) never
    decreases. A component with Σ_n s_n γ_nk <= 1e-10 Σ_n s_n keeps ``W_old[k]`` (zeros if None).
    The Newton steps of the live components are computed together (one pass over the samples per
    step, one batched solve); each component's iterates are those of ``weighted_logistic_irls`` run
    on it alone.

    Parameters
    ----------
    Phi : array-like of shape (n_samples, n_basis)
        The design matrix Φ.
    t : array-like of shape (n_samples,)
        Targets in {0, 1}.
    gamma : array-like of shape (n_samples, n_components)
        The responsibilities of the E-step (14.48).
    W_old : array-like of shape (n_components, n_basis), default=None
        The previous weights: the starting points of the IRLS fits.
    sample_weight : array-like of shape (n_samples,), default=None
        The points' weights s_n (all ones if None).
    l2 : float, default=0.0
        The ridge penalty (l2/2)‖w_k‖² of every component (bias included). With ``l2=0`` the
        weights of a component whose points are linearly separable grow without bound and
        its IRLS fit does not converge.
    max_newton_steps : int, default=50
        Most Newton steps per component.
    return_n_iter : bool, default=False
        Also return the Newton steps taken and the convergence of each IRLS fit.
    check_input : bool, default=True
        Validate the arguments. ``False`` skips the checks (and their fixed cost) for arguments
        already validated, as the estimators' EM loops do after ``fit`` has checked the data.

    Returns
    -------
    pi : ndarray of shape (n_components,)
        The mixing coefficients.
    W : ndarray of shape (n_components, n_basis)
        The component weights.
    n_iter : ndarray of shape (n_components,)
        Newton steps of each component (0 for a component without points); only if
        ``return_n_iter``.
    converged : ndarray of shape (n_components,)
        Whether each IRLS fit converged (True for a component without points); only if
        ``return_n_iter``.

    Raises
    ------
    ValueError
        If the responsibilities (times the sample weights) sum to zero: no point counts; with
        ``check_input``, if an array is misshapen or not finite (``W_old`` also beyond 1e150)
        or ``max_newton_steps`` is below 1.
    TypeError
        With ``check_input``, if ``max_newton_steps`` is not an integer.
    """
    if check_input:
        Phi, t = check_data(Phi, t)
        sample_weight = check_weights(sample_weight, len(t))
        gamma = check_responsibilities(gamma, len(t))
        check_number(max_newton_steps, "max_newton_steps", low=1, integer=True)
        if W_old is not None:
            axes = Axes(n_components=gamma.shape[1], n_basis=Phi.shape[1])
            shape = ("n_components", "n_basis")
            W_old = axes.array(W_old, "W_old", shape, max_magnitude=1e150)
    R = weigh(gamma, sample_weight)
    K, M = R.shape[1], Phi.shape[1]
    W = np.zeros((K, M)) if W_old is None else np.array(W_old, dtype=float)
    if W.shape[0] != K:
        raise ValueError(f"W_old must have one row per column of gamma ({K}), got {W.shape[0]}")
    N_k = np.ascontiguousarray(R.T).sum(axis=1)  # faster than R.sum(axis=0)
    total = float(N_k.sum())
    if not total > 0:
        raise ValueError("gamma (times sample_weight) must have a positive sum: no point counts")
    n_iter, converged = np.zeros(K, dtype=int), np.ones(K, dtype=bool)
    alive = np.flatnonzero(N_k > DEAD_FRACTION * total)
    if len(alive):  # the Newton steps of all the live components together
        R = R if len(alive) == K else R[:, alive]
        W[alive], n_iter[alive], converged[alive] = _logistic_irls_batch(
            Phi, t, R, W[alive], l2=l2, max_iter=max_newton_steps, check_input=check_input
        )
    pi = N_k / total
    return (pi, W, n_iter, converged) if return_n_iter else (pi, W)
