"""Mixtures of linear regressions and of logistic regressions fitted by EM (Section 14.5.1-14.5.2).

Both models are conditional mixtures p(t | φ) = Σ_k π_k p_k(t | φ) whose mixing coefficients π_k
do not depend on the input. EM alternates

* the **E-step**: responsibilities γ_nk = E[z_nk | t_n, θ^old], (14.37) and (14.48), computed
  in log space (a log-sum-exp over k) so that far-away points never give 0/0;
* the **M-step**: π_k = (1/N) Σ_n γ_nk, (14.38) and (14.50); then, for linear components, the
  weighted normal equations (14.42) for all K components at once with batched BLAS (einsum over
  n, never the N × N matrix R_k) and the shared noise *precision* β from (14.44); for logistic
  components, a weighted IRLS/Newton fit per component (14.51)-(14.52), see :mod:`prml14.irls`.

Conventions: ``Phi`` is the design matrix Φ (N × M, rows φ_nᵀ); ``W`` holds one weight vector
per component as its rows (K × M), like scikit-learn's ``coef_``; ``pi`` has shape (K,); β is
the noise **precision** (inverse variance) shared by the components.

Degenerate cases (documented handling)
--------------------------------------
* A component whose total responsibility N_k = Σ_n γ_nk falls below ``1e-10 N`` keeps its
  previous weights (its normal equations are empty); its π_k becomes N_k/N, possibly exactly 0,
  and ln π_k = −∞ is handled by the log-sum-exp, so no NaN appears. A dead component stays dead
  (parameters are never re-drawn inside the EM loop).
* A singular weighted least-squares system Φᵀ R_k Φ (collinear basis functions, fewer effective
  points than basis functions) is solved in the minimum-norm least-squares sense (the
  Moore-Penrose pseudo-inverse), which equals (14.42) whenever the matrix is invertible.
  Singularity is judged after rescaling the system to unit diagonal, so inputs measured in
  large units are handled like any other. The normal equations do square the conditioning of Φ,
  though: an input whose mean lies more than about 10⁵ standard deviations from zero loses
  accuracy, so centre such an input first.
* The noise variance 1/β is floored at 1e-10 × var(t) (1e-10 if t is constant), so that a
  component fitting its points exactly cannot drive the likelihood to +∞.
* Logistic components on separable data: see :class:`MixtureOfLogisticRegressions`.
"""

from __future__ import annotations

import numbers
import warnings

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin, _fit_context
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils import check_random_state
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.validation import check_is_fitted, validate_data

from ._equations import implements
from ._numerics import (
    DEAD_FRACTION,
    expit,
    log_or_minus_inf,
    logsumexp_last,
    normalise_log,
    softplus,
)
from ._validation import binary_targets, check_simplex, fitted_binary_targets
from .conditional_mixture import affine_features
from .irls import weighted_logistic_irls

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
    "logistic_component_log_probs",
    "mixture_of_logistic_regressions_proba",
    "mixture_of_logistic_regressions_log_likelihood",
    "complete_data_log_likelihood_logistic",
    "responsibilities_logistic",
    "expected_complete_data_log_likelihood_logistic",
    "MixtureOfLinearRegressions",
    "MixtureOfLogisticRegressions",
]

_BLOCK = 16384  # rows per block in the batched normal equations (bounded temporaries)


# ----------------------------------------------------------------------------------------------
# Mixtures of linear regressions (14.34)-(14.44)
# ----------------------------------------------------------------------------------------------


def _check_design(Phi, t):
    """Phi (N, M) and t (N,) as float arrays; ValueError naming the argument otherwise."""
    Phi, t = np.asarray(Phi, dtype=float), np.asarray(t, dtype=float)
    if Phi.ndim != 2:
        raise ValueError(
            f"Phi must be a 2-D design matrix (n_samples, n_basis), got shape {Phi.shape}"
        )
    if t.shape != (Phi.shape[0],):
        raise ValueError(f"t must have shape (n_samples,) = ({Phi.shape[0]},), got {t.shape}")
    return Phi, t


def _check_components(Phi, t, W):
    """Phi (N, M), t (N,) and W (K, M) as float arrays; ValueError naming the argument otherwise."""
    Phi, t = _check_design(Phi, t)
    W = np.asarray(W, dtype=float)
    if W.ndim != 2 or W.shape[1] != Phi.shape[1]:
        raise ValueError(
            f"W must have shape (n_components, n_basis) = (K, {Phi.shape[1]}), got {W.shape}"
        )
    return Phi, t, W


def _log_pi(pi, n_components):
    return log_or_minus_inf(check_simplex(pi, n_components, name="pi"))


def _check_gamma(gamma, n_samples=None):
    """Responsibilities γ of shape (N, K), non-negative; ValueError naming gamma otherwise."""
    gamma = np.asarray(gamma, dtype=float)
    if gamma.ndim != 2 or (n_samples is not None and gamma.shape[0] != n_samples):
        rows = "n_samples" if n_samples is None else f"n_samples={n_samples}"
        raise ValueError(f"gamma must have shape ({rows}, n_components), got {gamma.shape}")
    if np.any(gamma < 0):
        raise ValueError("gamma must be non-negative (responsibilities)")
    return gamma


def linear_component_log_densities(Phi, t, W, beta):
    """ln N(t_n | w_kᵀφ_n, β⁻¹) for every n and k.

    Parameters
    ----------
    Phi : ndarray of shape (n_samples, n_basis)
    t : ndarray of shape (n_samples,)
    W : ndarray of shape (n_components, n_basis)
        One weight vector per row.
    beta : float or ndarray of shape (n_components,)
        Noise precision (inverse variance): shared by the components, or one per component (as
        the experts of :class:`prml14.experts.MixtureOfExperts` use).

    Returns
    -------
    ndarray of shape (n_samples, n_components)
    """
    Phi, t, W = _check_components(Phi, t, W)
    beta = np.asarray(beta, dtype=float)
    if not np.all(beta > 0):
        raise ValueError(f"beta (a precision) must be positive, got {beta}")
    resid = t[:, None] - Phi @ W.T
    return 0.5 * np.log(beta / (2.0 * np.pi)) - 0.5 * beta * resid**2


def _log_joint_linear(Phi, t, pi, W, beta):
    return _log_pi(pi, np.shape(W)[0]) + linear_component_log_densities(Phi, t, W, beta)


@implements("14.34")
def mixture_of_linear_regressions_density(Phi, t, pi, W, beta):
    """p(t_n | φ_n, θ) = Σ_k π_k N(t_n | w_kᵀφ_n, β⁻¹), equation (14.34), at each pair (φ_n, t_n).

    Parameters
    ----------
    Phi : ndarray of shape (n_samples, n_basis)
    t : ndarray of shape (n_samples,)
    pi : ndarray of shape (n_components,)
    W : ndarray of shape (n_components, n_basis)
    beta : float
        Noise precision.

    Returns
    -------
    ndarray of shape (n_samples,)
    """
    return np.exp(logsumexp_last(_log_joint_linear(Phi, t, pi, W, beta)))


@implements("14.35")
def mixture_of_linear_regressions_log_likelihood(Phi, t, pi, W, beta):
    """ln p(t | θ) = Σ_n ln Σ_k π_k N(t_n | w_kᵀφ_n, β⁻¹), equation (14.35), via log-sum-exp.

    Parameters and shapes as in :func:`mixture_of_linear_regressions_density`.

    Returns
    -------
    float
    """
    return float(np.sum(logsumexp_last(_log_joint_linear(Phi, t, pi, W, beta))))


@implements("14.36")
def complete_data_log_likelihood_linear(Phi, t, Z, pi, W, beta):
    """ln p(t, Z | θ) = Σ_n Σ_k z_nk ln{π_k N(t_n | w_kᵀφ_n, β⁻¹)}, equation (14.36).

    Parameters
    ----------
    Phi : ndarray of shape (n_samples, n_basis)
    t : ndarray of shape (n_samples,)
    Z : ndarray of shape (n_samples, n_components)
        1-of-K indicators z_nk (soft values give the corresponding weighted sum).
    pi : ndarray of shape (n_components,)
    W : ndarray of shape (n_components, n_basis)
    beta : float
        Noise precision.

    Returns
    -------
    float
        Terms with z_nk = 0 contribute 0 even where π_k = 0.
    """
    Z = np.asarray(Z, dtype=float)
    log_joint = _log_joint_linear(Phi, t, pi, W, beta)
    return float(np.sum(np.where(Z > 0, Z * log_joint, 0.0)))


def _normalise_log_joint(log_joint):
    gamma, log_norm = normalise_log(log_joint)
    return gamma, float(np.sum(log_norm))


@implements("14.37")
def responsibilities_linear(Phi, t, pi, W, beta, *, return_log_likelihood=False):
    """γ_nk = E[z_nk | t_n, θ^old] = π_k N(t_n | w_kᵀφ_n, β⁻¹) / Σ_j π_j N(t_n | w_jᵀφ_n, β⁻¹) (14.37).

    Computed in log space: γ_nk = exp(ln π_k + ln N_nk − logsumexp_j(ln π_j + ln N_nj)), so a
    point far from every line still gets responsibilities that sum to one.

    Parameters
    ----------
    Phi, t, pi, W, beta
        The data and the current parameters θ^old (see :func:`mixture_of_linear_regressions_density`).
    return_log_likelihood : bool, default=False
        Also return (14.35) at θ^old, which the log-sum-exp computes for free.

    Returns
    -------
    gamma : ndarray of shape (n_samples, n_components)
    log_likelihood : float
        Only if ``return_log_likelihood``.
    """
    gamma, ll = _normalise_log_joint(_log_joint_linear(Phi, t, pi, W, beta))
    return (gamma, ll) if return_log_likelihood else gamma


@implements("14.38", "14.50")
def mixing_coefficients(gamma):
    """π_k = (1/N) Σ_n γ_nk, equations (14.38) and (14.50).

    Parameters
    ----------
    gamma : ndarray of shape (n_samples, n_components)

    Returns
    -------
    ndarray of shape (n_components,)
    """
    return _check_gamma(gamma).mean(axis=0)


def expected_complete_data_log_likelihood_linear(Phi, t, gamma, pi, W, beta):
    """Q(θ, θ^old) = Σ_n Σ_k γ_nk {ln π_k + ln N(t_n | w_kᵀφ_n, β⁻¹)} (the unnumbered Q of 14.5.1).

    The expectation of (14.36) under the posterior of Z given t and θ^old (whose means are the
    responsibilities ``gamma``), as a function of the new parameters (pi, W, beta).

    Returns
    -------
    float
    """
    return complete_data_log_likelihood_linear(Phi, t, gamma, pi, W, beta)


@implements("14.39")
def q_linear_weights(Phi, t, gamma, W, beta):
    """The part of Q that depends on the weights: Σ_n Σ_k γ_nk {−(β/2)(t_n − w_kᵀφ_n)²} (14.39).

    Q equals this plus terms that do not depend on W. Maximising it over w_k alone is a weighted
    least-squares problem for each k.

    Returns
    -------
    float
    """
    resid = (
        np.asarray(t, dtype=float)[:, None]
        - np.asarray(Phi, dtype=float) @ np.asarray(W, dtype=float).T
    )
    return float(-0.5 * beta * np.sum(np.asarray(gamma) * resid**2))


@implements("14.43")
def q_linear_precision(Phi, t, gamma, W, beta):
    """The part of Q that depends on W and β: Σ_n Σ_k γ_nk {½ ln β − (β/2)(t_n − w_kᵀφ_n)²} (14.43).

    Q equals this plus a constant (terms in π_k and −½ ln 2π).

    Returns
    -------
    float
    """
    gamma = np.asarray(gamma, dtype=float)
    return float(0.5 * np.log(beta) * gamma.sum()) + q_linear_weights(Phi, t, gamma, W, beta)


def weighted_normal_equations(Phi, t, gamma):
    """Φᵀ R_k Φ and Φᵀ R_k t for every component k, with R_k = diag(γ_1k, ..., γ_Nk) never formed.

    Computed with ``einsum`` (batched BLAS) over blocks of 16384 rows, so that the temporaries
    stay at 16384 × K × M whatever N is (a loop over blocks, not over samples).

    Returns
    -------
    A : ndarray of shape (n_components, n_basis, n_basis)
        Σ_n γ_nk φ_n φ_nᵀ.
    b : ndarray of shape (n_components, n_basis)
        Σ_n γ_nk t_n φ_n.
    """
    Phi, t = _check_design(Phi, t)
    gamma = _check_gamma(gamma, Phi.shape[0])
    K, M = gamma.shape[1], Phi.shape[1]
    A, b = np.zeros((K, M, M)), np.zeros((K, M))
    for start in range(0, len(t), _BLOCK):
        rows = slice(start, start + _BLOCK)
        G_Phi = gamma[rows, :, None] * Phi[rows, None, :]  # γ_nk φ_n: the rows of R_k Φ, (n, K, M)
        A += np.einsum("nkm,nl->kml", G_Phi, Phi[rows], optimize=True)  # Φᵀ R_k Φ for all k
        b += np.einsum("nkm,n->km", G_Phi, t[rows], optimize=True)  # Φᵀ R_k t for all k
    return A, b


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
    b : ndarray of shape (n_components, n_basis)

    Returns
    -------
    ndarray of shape (n_components, n_basis)
    """
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


@implements("14.40", "14.41", "14.42")
def weighted_least_squares(Phi, t, gamma, W_old=None):
    """w_k = (Φᵀ R_k Φ)⁻¹ Φᵀ R_k t for every k at once, equation (14.42).

    R_k = diag(γ_1k, ..., γ_Nk) is never formed: Φᵀ R_k Φ = Σ_n γ_nk φ_n φ_nᵀ and
    Φᵀ R_k t = Σ_n γ_nk t_n φ_n are computed for all K components at once
    (:func:`weighted_normal_equations`). The solution makes the gradient (14.40)/(14.41) the
    zero vector.

    Degenerate cases: a singular Φᵀ R_k Φ is solved in the minimum-norm least-squares sense
    (:func:`solve_normal_equations`; singularity is judged after rescaling the system to unit
    diagonal, so badly scaled inputs are not mistaken for collinear ones); a component with
    Σ_n γ_nk <= 1e-10 N keeps ``W_old[k]`` (or zeros if ``W_old`` is None).

    Parameters
    ----------
    Phi : ndarray of shape (n_samples, n_basis)
    t : ndarray of shape (n_samples,)
    gamma : ndarray of shape (n_samples, n_components)
    W_old : ndarray of shape (n_components, n_basis), default=None

    Returns
    -------
    W : ndarray of shape (n_components, n_basis)
    """
    Phi = np.asarray(Phi, dtype=float)
    t = np.asarray(t, dtype=float)
    gamma = np.asarray(gamma, dtype=float)
    W = solve_normal_equations(*weighted_normal_equations(Phi, t, gamma))  # checks the arguments
    dead = gamma.sum(axis=0) <= DEAD_FRACTION * len(t)
    if np.any(dead):
        W[dead] = 0.0 if W_old is None else np.asarray(W_old, dtype=float)[dead]
    return W


@implements("14.44")
def noise_precision(Phi, t, gamma, W, *, floor=None):
    """The shared precision β from 1/β = (1/N) Σ_n Σ_k γ_nk (t_n − w_kᵀφ_n)², equation (14.44).

    Parameters
    ----------
    Phi, t, gamma, W
        See :func:`weighted_least_squares`.
    floor : float, default=None
        Lower bound on the variance 1/β; default 1e-10 × var(t) (1e-10 if t is constant).

    Returns
    -------
    float
        β, a *precision* (inverse variance), not a variance or a standard deviation.
    """
    Phi, t, W = _check_components(Phi, t, W)
    gamma = _check_gamma(gamma, Phi.shape[0])
    if gamma.shape[1] != W.shape[0]:
        raise ValueError(
            f"gamma must have one column per row of W ({W.shape[0]}), got {gamma.shape[1]}"
        )
    resid = t[:, None] - Phi @ W.T
    variance = float(np.sum(gamma * resid**2) / len(t))
    return 1.0 / max(variance, _variance_floor(t) if floor is None else floor)


def _variance_floor(t):
    """The default floor on 1/β: 1e-10 × var(t), or 1e-10 if t is constant."""
    var_t = float(np.var(t))
    return 1e-10 * (var_t if var_t > 0 else 1.0)


# ----------------------------------------------------------------------------------------------
# Mixtures of logistic regressions (14.45)-(14.52)
# ----------------------------------------------------------------------------------------------


def logistic_component_log_probs(Phi, t, W):
    """ln{y_nk^{t_n} (1 − y_nk)^{1 − t_n}} with y_nk = σ(w_kᵀφ_n), stably (log σ, never ln 0).

    Parameters
    ----------
    Phi : ndarray of shape (n_samples, n_basis)
    t : ndarray of shape (n_samples,)
        Targets in {0, 1}.
    W : ndarray of shape (n_components, n_basis)

    Returns
    -------
    ndarray of shape (n_samples, n_components)
    """
    Phi, t, W = _check_components(Phi, t, W)
    a = Phi @ W.T
    t = t[:, None]
    # t ln σ(a) + (1 − t) ln σ(−a) = t a − ln(1 + e^a)
    return t * a - softplus(a)


def _log_joint_logistic(Phi, t, pi, W):
    return _log_pi(pi, np.shape(W)[0]) + logistic_component_log_probs(Phi, t, W)


@implements("14.45")
def mixture_of_logistic_regressions_proba(Phi, pi, W):
    """p(t = 1 | φ_n, θ) = Σ_k π_k y_nk with y_nk = σ(w_kᵀφ_n), equation (14.45) at t = 1.

    (At t = 0 the mixture gives Σ_k π_k (1 − y_nk) = 1 − this value.)

    Parameters
    ----------
    Phi : ndarray of shape (n_samples, n_basis)
    pi : ndarray of shape (n_components,)
    W : ndarray of shape (n_components, n_basis)

    Returns
    -------
    ndarray of shape (n_samples,)
    """
    Phi, W = np.asarray(Phi, dtype=float), np.asarray(W, dtype=float)
    if Phi.ndim != 2 or W.ndim != 2 or W.shape[1] != Phi.shape[1]:
        raise ValueError(
            f"Phi (n_samples, n_basis) and W (n_components, n_basis) must share n_basis, got {Phi.shape} and {W.shape}"
        )
    return expit(Phi @ W.T) @ check_simplex(pi, W.shape[0], name="pi")


@implements("14.46")
def mixture_of_logistic_regressions_log_likelihood(Phi, t, pi, W):
    """ln p(t | θ) = Σ_n ln Σ_k π_k y_nk^{t_n} (1 − y_nk)^{1 − t_n}, the log of (14.46).

    Returns
    -------
    float
    """
    return float(np.sum(logsumexp_last(_log_joint_logistic(Phi, t, pi, W))))


@implements("14.47")
def complete_data_log_likelihood_logistic(Phi, t, Z, pi, W):
    """ln p(t, Z | θ) = Σ_n Σ_k z_nk ln{π_k y_nk^{t_n} (1 − y_nk)^{1 − t_n}}, the log of (14.47).

    Returns
    -------
    float
    """
    Z = np.asarray(Z, dtype=float)
    log_joint = _log_joint_logistic(Phi, t, pi, W)
    return float(np.sum(np.where(Z > 0, Z * log_joint, 0.0)))


@implements("14.48")
def responsibilities_logistic(Phi, t, pi, W, *, return_log_likelihood=False):
    """γ_nk = E[z_nk | t_n, θ^old] = π_k y_nk^{t_n}(1 − y_nk)^{1−t_n} / Σ_j (same for j), (14.48).

    Computed in log space with a log-sum-exp over the components.

    Returns
    -------
    gamma : ndarray of shape (n_samples, n_components)
    log_likelihood : float
        The log of (14.46) at θ^old, only if ``return_log_likelihood``.
    """
    gamma, ll = _normalise_log_joint(_log_joint_logistic(Phi, t, pi, W))
    return (gamma, ll) if return_log_likelihood else gamma


@implements("14.49")
def expected_complete_data_log_likelihood_logistic(Phi, t, gamma, pi, W):
    """Q(θ, θ^old) = Σ_n Σ_k γ_nk {ln π_k + t_n ln y_nk + (1 − t_n) ln(1 − y_nk)}, equation (14.49).

    Returns
    -------
    float
    """
    return complete_data_log_likelihood_logistic(Phi, t, gamma, pi, W)


# ----------------------------------------------------------------------------------------------
# Estimators
# ----------------------------------------------------------------------------------------------


class _MixtureEMMixin:
    """Shared parameter handling and EM driver."""

    _common_constraints = {
        "n_components": [Interval(numbers.Integral, 1, None, closed="left")],
        "max_iter": [Interval(numbers.Integral, 1, None, closed="left")],
        "tol": [Interval(numbers.Real, 0, None, closed="left")],
        "n_init": [Interval(numbers.Integral, 1, None, closed="left")],
        "init": [StrOptions({"random", "random_hard"})],
        "fit_intercept": ["boolean"],
        "random_state": ["random_state"],
    }

    def _design(self, X):
        return affine_features(X) if self.fit_intercept else np.asarray(X, dtype=float)

    def _check_n_components(self, n_samples):
        if self.n_components > n_samples:
            raise ValueError(
                f"n_components={self.n_components} must be <= n_samples={n_samples}; "
                "each component needs at least one data point"
            )

    def _initial_responsibilities(self, n, rng):
        K = self.n_components
        if self.init == "random":
            return rng.dirichlet(np.ones(K), size=n)
        labels = rng.randint(K, size=n)
        return np.eye(K)[labels]

    def _run_em(self, Phi, t, rng):
        """Best of n_init EM runs; returns the parameters and the trace of the winner."""
        best = None
        for _ in range(self.n_init):
            gamma = self._initial_responsibilities(len(t), rng)
            params = self._m_step(Phi, t, gamma, None)
            gamma, ll = self._e_step(Phi, t, params)
            history = [ll]
            converged = False
            n_iter = 0
            for n_iter in range(1, self.max_iter + 1):
                params = self._m_step(Phi, t, gamma, params)
                gamma, ll_new = self._e_step(Phi, t, params)
                history.append(ll_new)
                if abs(ll_new - ll) <= self.tol * len(t):
                    converged = True
                    break
                ll = ll_new
            if best is None or history[-1] > best[2][-1]:
                best = (params, gamma, history, n_iter, converged)
        params, gamma, history, n_iter, converged = best
        if not converged:
            warnings.warn(
                f"EM did not converge in max_iter={self.max_iter} iterations (change of the mean "
                f"log-likelihood still above tol={self.tol}); increase max_iter or tol.",
                ConvergenceWarning,
                stacklevel=4,  # _run_em <- fit <- sklearn's _fit_context wrapper <- the caller
            )
        self.responsibilities_ = gamma
        self.log_likelihood_history_ = np.asarray(history)
        self.n_iter_ = n_iter
        self.converged_ = converged
        return params


class MixtureOfLinearRegressions(_MixtureEMMixin, RegressorMixin, BaseEstimator):
    """Mixture of K linear regressions with a shared noise precision, fitted by EM (Section 14.5.1).

    The model (14.34) is p(t | φ, θ) = Σ_k π_k N(t | w_kᵀφ, β⁻¹) with constant mixing
    coefficients π_k and basis φ = (1, x) (or the columns of X if ``fit_intercept=False``).
    EM alternates responsibilities (14.37) with π_k (14.38), the weighted normal equations
    (14.42) for all components at once and the precision β (14.44).

    Parameters
    ----------
    n_components : int, default=2
        K, the number of linear components; must not exceed the number of samples.
    max_iter : int, default=200
        Maximum number of EM iterations (M-step + E-step) per initialisation.
    tol : float, default=1e-6
        Stop when the log-likelihood (14.35) changes by less than ``tol × N``.
    n_init : int, default=1
        Number of initialisations; the run with the highest log-likelihood is kept.
    init : {"random", "random_hard"}, default="random"
        Initial responsibilities: Dirichlet(1, ..., 1) rows, or a random hard assignment. The
        first M-step turns them into parameters. Random draws happen only here, never inside EM.
    fit_intercept : bool, default=True
        If True the basis is φ(x) = (1, x); otherwise X is used as Φ unchanged (user features).
    random_state : int, RandomState instance or None, default=None

    Attributes
    ----------
    weights_ : ndarray of shape (n_components,)
        Mixing coefficients π_k.
    coef_ : ndarray of shape (n_components, n_basis)
        Row k is w_k (with the intercept first if ``fit_intercept``).
    precision_ : float
        The noise precision β (inverse variance).
    responsibilities_ : ndarray of shape (n_samples, n_components)
        γ_nk of the training data at the fitted parameters.
    log_likelihood_history_ : ndarray of shape (``n_iter_`` + 1,)
        (14.35) after the initial M-step and after every EM iteration; never decreases.
    n_iter_ : int
    converged_ : bool
    n_features_in_ : int
    """

    _parameter_constraints = dict(_MixtureEMMixin._common_constraints)

    def __init__(
        self,
        n_components=2,
        *,
        max_iter=200,
        tol=1e-6,
        n_init=1,
        init="random",
        fit_intercept=True,
        random_state=None,
    ):
        self.n_components = n_components
        self.max_iter = max_iter
        self.tol = tol
        self.n_init = n_init
        self.init = init
        self.fit_intercept = fit_intercept
        self.random_state = random_state

    def _m_step(self, Phi, t, gamma, params):
        W_old = None if params is None else params[1]
        pi = mixing_coefficients(gamma)
        W = weighted_least_squares(Phi, t, gamma, W_old)
        beta = noise_precision(Phi, t, gamma, W, floor=self._var_floor)
        return pi, W, beta

    def _e_step(self, Phi, t, params):
        return responsibilities_linear(Phi, t, *params, return_log_likelihood=True)

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        """Fit the mixture by EM.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
            Real targets t.

        Returns
        -------
        self
        """
        X, t = validate_data(self, X, y, y_numeric=True)
        self._check_n_components(X.shape[0])
        self._var_floor = _variance_floor(t)  # computed once, not in every M-step
        rng = check_random_state(self.random_state)
        pi, W, beta = self._run_em(self._design(X), t.astype(float), rng)
        self.weights_, self.coef_, self.precision_ = pi, W, beta
        return self

    def _validated(self, X, t=None):
        check_is_fitted(self)
        if t is None:
            return self._design(validate_data(self, X, reset=False)), None
        X, t = validate_data(self, X, t, reset=False, y_numeric=True)
        return self._design(X), t.astype(float)

    def component_means(self, X):
        """w_kᵀφ(x) for each component: array of shape (n_samples, n_components)."""
        Phi, _ = self._validated(X)
        return Phi @ self.coef_.T

    def predict(self, X):
        """The conditional mean E[t | x] = Σ_k π_k w_kᵀφ(x) (Exercise 14.15).

        For multimodal targets this average can fall where there is no data at all.
        """
        return self.component_means(X) @ self.weights_

    def predict_density(self, X, y):
        """p(t_n | x_n), equation (14.34), at each pair (x_n, t_n = y_n); shape (n_samples,)."""
        Phi, t = self._validated(X, y)
        return mixture_of_linear_regressions_density(
            Phi, t, self.weights_, self.coef_, self.precision_
        )

    def log_likelihood(self, X, y):
        """ln p(t | X, θ), equation (14.35), summed over the pairs (t = y)."""
        Phi, t = self._validated(X, y)
        return mixture_of_linear_regressions_log_likelihood(
            Phi, t, self.weights_, self.coef_, self.precision_
        )

    def sample(self, X, random_state=None):
        """Draw t_n ~ p(t | x_n): first k ~ π, then t ~ N(w_kᵀφ(x_n), β⁻¹).

        Returns
        -------
        t : ndarray of shape (n_samples,)
        labels : ndarray of shape (n_samples,)
            The component k of each draw.
        """
        means = self.component_means(X)
        rng = check_random_state(random_state)
        labels = rng.choice(
            self.n_components, size=len(means), p=self.weights_ / self.weights_.sum()
        )
        noise = rng.standard_normal(len(means)) / np.sqrt(self.precision_)
        return means[np.arange(len(means)), labels] + noise, labels


class MixtureOfLogisticRegressions(_MixtureEMMixin, ClassifierMixin, BaseEstimator):
    """Mixture of K logistic regressions for binary targets, fitted by EM (Section 14.5.2).

    The model (14.45) is p(t | φ, θ) = Σ_k π_k y_k^t (1 − y_k)^{1 − t}, y_k = σ(w_kᵀφ). EM
    alternates responsibilities (14.48) with π_k (14.50) and, for each component, a weighted
    IRLS fit (Newton steps with gradient (14.51) and negative Hessian (14.52)), warm-started at
    the previous weights.

    Separable data. If the data a component is responsible for are linearly separable, the
    maximum-likelihood weights are infinite and the Hessian (14.52) tends to a singular matrix.
    With ``l2=0`` the estimator detects this (an IRLS M-step that does not converge), emits a
    ``ConvergenceWarning`` and continues with the ridge penalty ``l2=1e-3`` (attribute
    ``l2_``). Set ``l2 > 0`` to choose the penalty yourself: EM then maximises the penalised
    likelihood.

    Parameters
    ----------
    n_components : int, default=2
    max_iter : int, default=200
        Maximum number of EM iterations per initialisation.
    tol : float, default=1e-6
        Stop when the log-likelihood changes by less than ``tol × N``.
    n_init : int, default=1
    init : {"random", "random_hard"}, default="random"
    l2 : float, default=0.0
        Ridge penalty (l2/2)‖w_k‖² added to each component's M-step objective.
    fit_intercept : bool, default=True
    random_state : int, RandomState instance or None, default=None

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
        The two labels; ``classes_[1]`` is coded t = 1.
    weights_ : ndarray of shape (n_components,)
    coef_ : ndarray of shape (n_components, n_basis)
    l2_ : float
        The penalty actually used (``l2``, or 1e-3 after separation was detected).
    responsibilities_ : ndarray of shape (n_samples, n_components)
    log_likelihood_history_ : ndarray
        The log of (14.46) after the initial M-step and after every EM iteration.
    n_iter_ : int
    converged_ : bool
    n_features_in_ : int
    """

    _parameter_constraints = {
        **_MixtureEMMixin._common_constraints,
        "l2": [Interval(numbers.Real, 0, None, closed="left")],
    }
    _SEPARATION_L2 = 1e-3
    _IRLS_MAX_ITER = 50

    def __init__(
        self,
        n_components=2,
        *,
        max_iter=200,
        tol=1e-6,
        n_init=1,
        init="random",
        l2=0.0,
        fit_intercept=True,
        random_state=None,
    ):
        self.n_components = n_components
        self.max_iter = max_iter
        self.tol = tol
        self.n_init = n_init
        self.init = init
        self.l2 = l2
        self.fit_intercept = fit_intercept
        self.random_state = random_state

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        return tags

    def _m_step(self, Phi, t, gamma, params):
        K, M = gamma.shape[1], Phi.shape[1]
        W = np.zeros((K, M)) if params is None else params[1].copy()
        pi = mixing_coefficients(gamma)
        dead = gamma.sum(axis=0) <= DEAD_FRACTION * len(t)
        for k in np.flatnonzero(~dead):  # a loop over components, not samples
            w, _, converged = weighted_logistic_irls(
                Phi, t, gamma[:, k], W[k], l2=self.l2_, max_iter=self._IRLS_MAX_ITER
            )
            if not converged and self.l2_ == 0.0:
                warnings.warn(
                    f"The IRLS M-step of component {k} did not converge: the data it is responsible "
                    "for look linearly separable, so the Hessian (14.52) is (nearly) singular and the "
                    f"weights diverge. Continuing with the ridge penalty l2={self._SEPARATION_L2}; "
                    "set l2 > 0 to choose it.",
                    ConvergenceWarning,
                    stacklevel=5,  # _m_step <- _run_em <- fit <- _fit_context wrapper <- the caller
                )
                self.l2_ = self._SEPARATION_L2
                w, _, _ = weighted_logistic_irls(
                    Phi, t, gamma[:, k], W[k], l2=self.l2_, max_iter=self._IRLS_MAX_ITER
                )
            W[k] = w
        return pi, W

    def _e_step(self, Phi, t, params):
        return responsibilities_logistic(Phi, t, *params, return_log_likelihood=True)

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        """Fit the mixture by EM.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
            Binary labels (exactly two distinct values).

        Returns
        -------
        self
        """
        X, y = validate_data(self, X, y)
        self.classes_, t = binary_targets(y)
        t = 0.5 * (t + 1.0)  # {−1, +1} -> {0, 1}
        self._check_n_components(X.shape[0])
        self.l2_ = float(self.l2)
        rng = check_random_state(self.random_state)
        self.weights_, self.coef_ = self._run_em(self._design(X), t, rng)
        return self

    def _design_checked(self, X):
        check_is_fitted(self)
        return self._design(validate_data(self, X, reset=False))

    def predict_proba(self, X):
        """Class probabilities from (14.45): column 1 is Σ_k π_k σ(w_kᵀφ(x)).

        Returns
        -------
        ndarray of shape (n_samples, 2)
        """
        p1 = mixture_of_logistic_regressions_proba(
            self._design_checked(X), self.weights_, self.coef_
        )
        p1 = np.clip(p1, 0.0, 1.0)
        return np.column_stack([1.0 - p1, p1])

    def predict_log_proba(self, X):
        """Logarithm of :meth:`predict_proba`."""
        return log_or_minus_inf(self.predict_proba(X))

    def predict(self, X):
        """The label with the larger probability (14.45)."""
        proba = self.predict_proba(X)
        return self.classes_[(proba[:, 1] > 0.5).astype(int)]

    def log_likelihood(self, X, y):
        """The log of (14.46) for labels y (coded by ``classes_``)."""
        check_is_fitted(self)
        X, y = validate_data(self, X, y, reset=False)  # y: 1-D, one label per row of X
        Phi = self._design(X)
        t = fitted_binary_targets(y, self.classes_)
        return mixture_of_logistic_regressions_log_likelihood(Phi, t, self.weights_, self.coef_)
