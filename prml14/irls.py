"""Weighted iteratively reweighted least squares (IRLS): Newton's method for logistic models.

The M-step of a mixture of logistic regressions (Section 14.5.2) maximises, for each component k,

    Q_k(w) = Σ_n γ_nk { t_n ln y_n + (1 − t_n) ln(1 − y_n) },   y_n = σ(wᵀφ_n),

a *weighted* logistic log-likelihood with the responsibilities γ_nk as weights. Its gradient is
(14.51) and its negative Hessian is (14.52). The mixtures of experts (Section 14.5.3) reuse the
same routine for their gates and logistic experts.

Sign convention (errata of (14.52)): here, as in the corrected book, **H denotes the negative
Hessian of Q**, H = −∇∇Q = Σ_n γ_n y_n(1 − y_n) φ_n φ_nᵀ, which is positive semi-definite, and
the Newton step that *increases* Q is w ← w + H⁻¹ ∇Q.
"""

from __future__ import annotations

import numpy as np

from ._equations import implements
from ._numerics import expit, log_expit

__all__ = ["q_gradient", "q_negative_hessian", "weighted_logistic_objective", "weighted_logistic_irls"]


def _check_irls_inputs(Phi, t, weights):
    Phi = np.asarray(Phi, dtype=float)
    t = np.asarray(t, dtype=float)
    weights = np.asarray(weights, dtype=float)
    if Phi.ndim != 2:
        raise ValueError(f"Phi must be a 2-D design matrix of shape (n_samples, n_basis), got shape {Phi.shape}")
    n = Phi.shape[0]
    if t.shape != (n,):
        raise ValueError(f"t must have shape (n_samples,) = ({n},), got {t.shape}")
    if weights.shape != (n,):
        raise ValueError(f"weights (gamma) must have shape (n_samples,) = ({n},), got {weights.shape}")
    for name, a in (("Phi", Phi), ("t", t), ("weights", weights)):
        if not np.all(np.isfinite(a)):
            raise ValueError(f"{name} must contain only finite values (no NaN or inf)")
    if np.any((t < 0) | (t > 1)):
        raise ValueError("t must contain targets (or soft targets) in [0, 1]")
    if np.any(weights < 0):
        raise ValueError("weights (gamma) must be non-negative")
    return Phi, t, weights


@implements("14.51")
def q_gradient(w, Phi, t, gamma):
    """Gradient of the weighted logistic log-likelihood, ∇_w Q = Σ_n γ_n (t_n − y_n) φ_n (14.51).

    Parameters
    ----------
    w : ndarray of shape (n_basis,)
        Weights of one logistic component, y_n = σ(wᵀφ_n).
    Phi : ndarray of shape (n_samples, n_basis)
        Design matrix Φ whose rows are φ_nᵀ.
    t : ndarray of shape (n_samples,)
        Targets in {0, 1} (soft targets in [0, 1] are allowed).
    gamma : ndarray of shape (n_samples,)
        Responsibilities γ_nk of this component (any non-negative weights).

    Returns
    -------
    ndarray of shape (n_basis,)
        Φᵀ (γ ⊙ (t − y)).
    """
    Phi = np.asarray(Phi, dtype=float)
    y = expit(Phi @ np.asarray(w, dtype=float))
    return Phi.T @ (np.asarray(gamma, dtype=float) * (np.asarray(t, dtype=float) - y))


@implements("14.52")
def q_negative_hessian(w, Phi, t, gamma):
    """The *negative* Hessian of Q, H = −∇∇Q = Σ_n γ_n y_n (1 − y_n) φ_n φ_nᵀ (14.52).

    Convention: this is minus the matrix of second derivatives of the (concave) Q, hence
    positive semi-definite; the Newton step that increases Q is w ← w + H⁻¹ ∇Q (see the errata).
    Computed as (Φ ⊙ s)ᵀ Φ with s_n = γ_n y_n (1 − y_n): no N × N matrix is formed.

    Parameters
    ----------
    w : ndarray of shape (n_basis,)
    Phi : ndarray of shape (n_samples, n_basis)
    t : ndarray of shape (n_samples,)
        Unused (the Hessian of the logistic log-likelihood does not depend on t); kept so that
        gradient and Hessian share one signature.
    gamma : ndarray of shape (n_samples,)
        Responsibilities γ_nk (weights); they multiply every term.

    Returns
    -------
    ndarray of shape (n_basis, n_basis)
    """
    Phi = np.asarray(Phi, dtype=float)
    y = expit(Phi @ np.asarray(w, dtype=float))
    s = np.asarray(gamma, dtype=float) * y * (1.0 - y)
    return (Phi * s[:, None]).T @ Phi


def weighted_logistic_objective(w, Phi, t, weights, l2=0.0):
    """Σ_n weights_n {t_n ln y_n + (1 − t_n) ln(1 − y_n)} − (l2/2)‖w‖², computed stably.

    Uses ln σ(a) and ln(1 − σ(a)) = ln σ(−a) so that saturated predictions never give ln 0.

    Parameters
    ----------
    w : ndarray of shape (n_basis,)
    Phi : ndarray of shape (n_samples, n_basis)
    t : ndarray of shape (n_samples,)
    weights : ndarray of shape (n_samples,)
    l2 : float, default=0.0

    Returns
    -------
    float
    """
    a = Phi @ w
    ll = np.dot(weights, t * log_expit(a) + (1.0 - t) * log_expit(-a))
    return float(ll - 0.5 * l2 * np.dot(w, w))


def _newton_direction(H, g):
    """Solve H d = g by Cholesky; if H is not (numerically) positive definite add a growing jitter."""
    m = H.shape[0]
    scale = max(np.trace(H) / m, 1.0)
    jitter = 0.0
    for _ in range(20):
        try:
            L = np.linalg.cholesky(H + jitter * np.eye(m))
        except np.linalg.LinAlgError:
            jitter = 1e-10 * scale if jitter == 0.0 else 10.0 * jitter
            continue
        z = np.linalg.solve(L, g)  # triangular systems are small (n_basis × n_basis)
        return np.linalg.solve(L.T, z), jitter
    # Should not happen: the jitter has reached 1e9 × scale. Fall back to a gradient step.
    return g / (jitter or 1.0), jitter


def weighted_logistic_irls(Phi, t, weights, w_init=None, *, l2=0.0, max_iter=100, tol=1e-8):
    """Maximise a weighted (optionally L2-penalised) logistic log-likelihood by Newton/IRLS.

    Maximises

        L(w) = Σ_n weights_n {t_n ln y_n + (1 − t_n) ln(1 − y_n)} − (l2/2) ‖w‖²,  y_n = σ(wᵀφ_n),

    with Newton steps w ← w + H⁻¹ g, where g = (14.51) − l2 w and H = (14.52) + l2 I is the
    *negative* Hessian of L. With weights = γ_·k this is the M-step (14.49)–(14.52) of one
    component of a mixture of logistic regressions.

    Safeguards
    ----------
    * **Step halving**: if a full Newton step does not increase L, the step is halved (up to 30
      times), so L never decreases from one iterate to the next.
    * **Hessian not positive definite**: with l2 = 0 the matrix H is only positive
      *semi*-definite (all weights zero, collinear basis functions, saturated predictions on
      separable data). If its Cholesky factorisation fails, a jitter ε I is added, starting at
      1e-10 × max(trace(H)/M, 1) and growing tenfold until it succeeds. A positive ``l2`` makes
      H positive definite and the optimum finite even for separable data; with ``l2 = 0`` on
      separable data the weights grow without bound and the routine reports
      ``converged=False`` (the caller decides whether to warn or regularise).

    Parameters
    ----------
    Phi : array-like of shape (n_samples, n_basis)
        Design matrix (include a column of ones for a bias).
    t : array-like of shape (n_samples,)
        Targets in [0, 1]: hard labels {0, 1} or soft targets (e.g. responsibilities).
    weights : array-like of shape (n_samples,)
        Non-negative weights (the responsibilities γ_nk).
    w_init : array-like of shape (n_basis,), default=None
        Starting point (zeros if None).
    l2 : float, default=0.0
        Ridge penalty (l2/2)‖w‖² (the bias is penalised too). scikit-learn's
        ``LogisticRegression(C=C)`` with ``sample_weight=weights`` corresponds to ``l2 = 1/C``.
    max_iter : int, default=100
        Maximum number of Newton steps.
    tol : float, default=1e-8
        Converged when the largest change of a weight is below tol × (1 + max|w|), or when the
        objective can no longer be increased at machine precision.

    Returns
    -------
    w : ndarray of shape (n_basis,)
    n_iter : int
        Newton steps taken.
    converged : bool
    """
    Phi, t, weights = _check_irls_inputs(Phi, t, weights)
    m = Phi.shape[1]
    if l2 < 0:
        raise ValueError(f"l2 must be non-negative, got {l2}")
    if max_iter < 1:
        raise ValueError(f"max_iter must be a positive integer, got {max_iter}")
    w = np.zeros(m) if w_init is None else np.array(w_init, dtype=float, copy=True)
    if w.shape != (m,):
        raise ValueError(f"w_init must have shape (n_basis,) = ({m},), got {w.shape}")
    obj = weighted_logistic_objective(w, Phi, t, weights, l2)
    converged = False
    n_iter = 0
    for n_iter in range(1, max_iter + 1):
        g = q_gradient(w, Phi, t, weights) - l2 * w
        H = q_negative_hessian(w, Phi, t, weights) + l2 * np.eye(m)
        step, _ = _newton_direction(H, g)
        if not np.all(np.isfinite(step)):
            break
        alpha, improved = 1.0, False
        for _ in range(31):
            w_new = w + alpha * step
            obj_new = weighted_logistic_objective(w_new, Phi, t, weights, l2)
            if obj_new >= obj:
                improved = True
                break
            alpha *= 0.5
        if not improved:
            # No step increases L at machine precision: we are at the optimum (or stuck).
            converged = bool(np.max(np.abs(g), initial=0.0) <= 1e-6 * max(1.0, weights.sum()))
            break
        delta = np.max(np.abs(w_new - w), initial=0.0)
        w, obj = w_new, obj_new
        if delta <= tol * (1.0 + np.max(np.abs(w), initial=0.0)):
            converged = True
            break
    return w, n_iter, converged
