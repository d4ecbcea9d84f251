"""Weighted iteratively reweighted least squares (IRLS): Newton's method for logistic models.

The M-step of a mixture of logistic regressions (Section 14.5.2) maximises, for each component k,

    Q_k(w) = Σ_n γ_nk { t_n ln y_n + (1 − t_n) ln(1 − y_n) },   y_n = σ(wᵀφ_n),

a *weighted* logistic log-likelihood with the responsibilities γ_nk as weights. Its gradient is
(14.51) and its negative Hessian is (14.52). The mixtures of experts (Section 14.5.3) reuse the
same routine for their gates and logistic experts.

Sign convention (errata of (14.52)): here, as in the corrected book, **H denotes the negative
Hessian of Q**, H = −∇∇Q = Σ_n γ_n y_n(1 − y_n) φ_n φ_nᵀ, which is positive semi-definite, and
the Newton step that *increases* Q is w ← w + H⁻¹ ∇Q.

Which weights the ridge penalty ``l2`` shrinks (deliberately different in the two routines):

* :func:`weighted_logistic_irls` penalises **every** weight, the bias included. Its penalty is
  there to keep the optimum finite, and a mixture component (or logistic expert) can end up
  responsible only for points of one class; then the bias alone runs to ±∞ and only a penalty
  on the bias stops it. It also matches scikit-learn's ``LogisticRegression(C=1/l2)`` on a
  design matrix with a column of ones.
* :func:`weighted_softmax_irls` (the gates) leaves the bias row **unpenalised**. A gate's bias
  plays the part of ln π_k: its optimum is finite as long as every child keeps some
  responsibility (for a child with none, a gate tending to zero is the right answer, and the
  Newton loop stops once the possible gain is below ``tol``), and shrinking it would pull the
  gates towards equal proportions. With constant gates (basis φ = 1) the
  unpenalised update is exactly the closed form π_k = (1/N) Σ_n γ_nk of (14.38), for any
  ``l2``.
"""

from __future__ import annotations

from numbers import Integral, Real

import numpy as np
from sklearn.utils import check_scalar

from .._equations import implements
from .._numerics import expit, log_expit, log_softmax, softmax
from .._validation import as_float, check_array, check_magnitude
from ._logistic_newton import _newton_direction, logistic_newton

__all__ = [
    "q_gradient",
    "q_negative_hessian",
    "weighted_logistic_objective",
    "weighted_logistic_irls",
]


def _check_design(Phi):
    if np.ndim(Phi) != 2:
        raise ValueError(
            "Phi must be a 2-D design matrix of shape (n_samples, n_basis), "
            f"got shape {np.shape(Phi)}"
        )
    Phi = check_array(Phi, dtype=np.float64, input_name="Phi")
    check_magnitude(Phi, "Phi")  # beyond 1e150, Φw and the Hessian ΦᵀDΦ overflow
    return Phi


def _check_irls_inputs(Phi, t, weights):
    Phi = _check_design(Phi)
    n = Phi.shape[0]
    t = check_array(t, ensure_2d=False, dtype=np.float64, input_name="t")
    # the weights are called gamma in q_gradient and q_negative_hessian: name both
    weights = check_array(weights, ensure_2d=False, dtype=np.float64, input_name="weights (gamma)")
    if t.shape != (n,):
        raise ValueError(f"t must have shape (n_samples,) = ({n},), got {t.shape}")
    if weights.shape != (n,):
        raise ValueError(
            f"weights (gamma) must have shape (n_samples,) = ({n},), got {weights.shape}"
        )
    if np.any((t < 0) | (t > 1)):
        raise ValueError("t must contain targets (or soft targets) in [0, 1]")
    if np.any(weights < 0):
        raise ValueError("weights (gamma) must be non-negative")
    return Phi, t, weights


def _check_w(w, n_basis, name="w"):
    w = as_float(w, name)
    if w.shape != (n_basis,):
        raise ValueError(f"{name} must have shape (n_basis,) = ({n_basis},), got {w.shape}")
    check_magnitude(w, name)  # beyond 1e150, ‖w‖² overflows
    return w


def _check_settings(l2, max_iter=1, tol=1.0, *, min_iter=1, zero_tol=True):
    """The ridge penalty l2 >= 0, max_iter >= min_iter, tol >= 0 (> 0 unless ``zero_tol``),
    all finite: scikit-learn's ``check_scalar``, which lets NaN through, then NaN and ±inf."""
    check_scalar(l2, "l2", Real, min_val=0, max_val=np.inf, include_boundaries="left")
    check_scalar(max_iter, "max_iter", Integral, min_val=min_iter)
    bounds = "left" if zero_tol else "neither"
    check_scalar(tol, "tol", Real, min_val=0, max_val=np.inf, include_boundaries=bounds)
    for name, value in (("l2", l2), ("tol", tol)):
        if not np.isfinite(value):
            raise ValueError(f"{name} must be a finite number, got {value!r}")


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

    Raises
    ------
    ValueError
        If an argument has the wrong shape, NaN or infinite entries, gamma has a negative
        entry, t has targets outside [0, 1], or Phi or w has entries beyond 1e150 in magnitude.
    """
    Phi, t, gamma = _check_irls_inputs(Phi, t, gamma)
    y = expit(Phi @ _check_w(w, Phi.shape[1]))
    return Phi.T @ (gamma * (t - y))


@implements("14.52")
def q_negative_hessian(w, Phi, t, gamma):
    """The *negative* Hessian of Q, H = −∇∇Q = Σ_n γ_n y_n (1 − y_n) φ_n φ_nᵀ (14.52).

    Convention: this is minus the matrix of second derivatives of the (concave) Q, hence
    positive semi-definite; the Newton step that increases Q is w ← w + H⁻¹ ∇Q (see the errata).
    Computed as (Φ ⊙ s)ᵀ Φ with s_n = γ_n y_n (1 − y_n): no N × N matrix is formed.

    Parameters
    ----------
    w : ndarray of shape (n_basis,)
        The weights of one logistic model, y_n = σ(wᵀφ_n).
    Phi : ndarray of shape (n_samples, n_basis)
        The design matrix Φ, rows φ_nᵀ (a column of ones for a bias).
    t : ndarray of shape (n_samples,)
        Only checked (the Hessian of the logistic log-likelihood does not depend on t); kept so
        that gradient and Hessian share one signature.
    gamma : ndarray of shape (n_samples,)
        Responsibilities γ_nk (weights); they multiply every term.

    Returns
    -------
    ndarray of shape (n_basis, n_basis)
        Σ_n γ_n y_n (1 − y_n) φ_n φ_nᵀ.

    Raises
    ------
    ValueError
        If an argument has the wrong shape, NaN or infinite entries, gamma has a negative
        entry, t has targets outside [0, 1], or Phi or w has entries beyond 1e150 in magnitude.
    """
    Phi, t, gamma = _check_irls_inputs(Phi, t, gamma)
    y = expit(Phi @ _check_w(w, Phi.shape[1]))
    s = gamma * y * (1.0 - y)
    return (Phi * s[:, None]).T @ Phi


def weighted_logistic_objective(w, Phi, t, weights, l2=0.0):
    """Σ_n weights_n {t_n ln y_n + (1 − t_n) ln(1 − y_n)} − (l2/2)‖w‖², computed stably.

    Uses ln σ(a) and ln(1 − σ(a)) = ln σ(−a) so that saturated predictions never give ln 0.

    Parameters
    ----------
    w : ndarray of shape (n_basis,)
        The weights of one logistic model, y_n = σ(wᵀφ_n).
    Phi : ndarray of shape (n_samples, n_basis)
        The design matrix Φ, rows φ_nᵀ (a column of ones for a bias).
    t : ndarray of shape (n_samples,)
        Targets in {0, 1} (soft targets in [0, 1] are allowed).
    weights : ndarray of shape (n_samples,)
        Non-negative sample weights (the responsibilities γ_nk; ones if None where allowed).
    l2 : float, default=0.0
        The ridge penalty.

    Returns
    -------
    float
        The penalised weighted log-likelihood.

    Raises
    ------
    ValueError
        If an argument has the wrong shape, NaN or infinite entries, weights has a negative
        entry, t has targets outside [0, 1], Phi or w has entries beyond 1e150 in magnitude, or
        l2 is negative, infinite or NaN.
    TypeError
        If l2 is not a real number.
    """
    Phi, t, weights = _check_irls_inputs(Phi, t, weights)
    w = _check_w(w, Phi.shape[1])
    _check_settings(l2)
    a = Phi @ w
    ll = np.dot(weights, t * log_expit(a) + (1.0 - t) * log_expit(-a))
    return float(ll - 0.5 * l2 * np.dot(w, w))


def weighted_logistic_irls(
    Phi, t, weights, w_init=None, *, l2=0.0, max_iter=100, tol=1e-8, check_input=True
):
    """Maximise a weighted (optionally L2-penalised) logistic log-likelihood by Newton/IRLS.

    Maximises

        L(w) = Σ_n weights_n {t_n ln y_n + (1 − t_n) ln(1 − y_n)} − (l2/2) ‖w‖²,  y_n = σ(wᵀφ_n),

    with Newton steps w ← w + H⁻¹ g, where g = (14.51) − l2 w and H = (14.52) + l2 I is the
    *negative* Hessian of L. With weights γ_nk (n = 1..N, k fixed) this is the M-step
    (14.49)–(14.52) of one component of a mixture of logistic regressions.

    Safeguards:

    * **Step halving**: if a full Newton step does not increase L, the step is halved (up to 30
      times), so L never decreases from one iterate to the next.
    * **Hessian not positive definite**: with l2 = 0 the matrix H is only positive
      *semi*-definite (all weights zero, collinear basis functions, saturated predictions on
      separable data). If its Cholesky factorisation fails, a jitter ε I is added, starting at
      1e-10 × max(trace(H)/M, 1) and growing tenfold until it succeeds. A positive ``l2`` makes
      H positive definite and the optimum finite even for separable data; with ``l2 = 0`` on
      separable data the weights grow without bound and the routine reports
      ``converged=False`` (the caller decides whether to warn or regularise). Separation is also
      reported (``converged=False``) when the iterates stall with all weighted predictions
      saturated, Σ_n weights_n y_n(1 − y_n) <= 1e-8 Σ_n weights_n.

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
        objective can no longer be increased at machine precision and the Newton step is below
        sqrt(tol) × (1 + max|w|).
    check_input : bool, default=True
        Validate the arguments. ``False`` skips the checks for arguments already validated
        (float arrays of matching shapes), as the mixtures' M-steps do.

    Returns
    -------
    w : ndarray of shape (n_basis,)
        The weights reached.
    n_iter : int
        Newton steps taken.
    converged : bool
        Whether the stopping rule was met (False on separable data with ``l2 = 0``).

    Raises
    ------
    ValueError
        If an argument has the wrong shape, NaN or infinite entries, negative weights, targets
        outside [0, 1], or entries of Phi or w_init beyond 1e150 in magnitude (rescale Phi); if
        ``l2`` or ``tol`` is negative or ``max_iter`` below 1 (NaN refused).
    TypeError
        If ``l2``, ``tol`` or ``max_iter`` is not a real number (an integer for ``max_iter``).
    """
    if check_input:
        Phi, t, weights = _check_irls_inputs(Phi, t, weights)
        _check_settings(l2, max_iter, tol)
        if w_init is not None:
            w_init = _check_w(w_init, Phi.shape[1], "w_init")
    m = Phi.shape[1]
    w = np.zeros(m) if w_init is None else np.array(w_init, dtype=float, copy=True)
    if w.shape != (m,):
        raise ValueError(f"w_init must have shape (n_basis,) = ({m},), got {w.shape}")
    W, n_iter, converged = _logistic_irls_batch(
        Phi, t, weights[:, None], w[None], l2=l2, max_iter=max_iter, tol=tol
    )
    return W[0], int(n_iter[0]), bool(converged[0])


def _logistic_irls_batch(Phi, t, R, W, *, l2=0.0, max_iter=100, tol=1e-8, check_input=False):
    """:func:`weighted_logistic_irls` for the K columns of R at once (starts W[k]); returns W,
    n_iter and converged, one per component (``prml14.mixtures._logistic_newton.logistic_newton``).
    ``check_input`` runs the checks of :func:`weighted_logistic_irls` on every column of R."""
    if check_input:
        R = check_array(R, dtype=np.float64, input_name="weights (gamma)")
        for r in R.T:
            Phi, t, _ = _check_irls_inputs(Phi, t, r)
        _check_settings(l2, max_iter, tol)
    return logistic_newton(Phi, t, R, W, l2=l2, max_iter=max_iter, tol=tol)


# --- Softmax (multinomial) IRLS with soft targets: the gate M-step of the mixtures of experts ---
#
# Objective, for soft targets T (rows sum to one), sample weights r and y_n = softmax(Wᵀφ_n):
#
#     L(W) = Σ_n r_n Σ_k T_nk ln y_nk − (l2/2) Σ_{m≥1, k≥1} W_mk²,
#
# with column 0 of W (the reference class) fixed at zero and the bias row m = 0 unpenalised
# (shrinking the gate biases would pull every gate towards equal mixing proportions).

__all__ += [
    "weighted_softmax_objective",
    "softmax_q_gradient",
    "softmax_q_negative_hessian",
    "weighted_softmax_irls",
]


def _check_softmax_problem(Phi, T, weights, W, W_name="W"):
    Phi = _check_design(Phi)
    T = check_array(T, dtype=np.float64, input_name="T")
    if T.shape[0] != Phi.shape[0] or T.shape[1] < 2:
        raise ValueError(
            f"T must have shape (n_samples, n_classes) = ({Phi.shape[0]}, K) with K >= 2, "
            f"got {T.shape}"
        )
    if np.any(T < 0) or not np.allclose(T.sum(axis=1), 1.0, rtol=0, atol=1e-6):
        raise ValueError("T must be non-negative with rows summing to one (soft targets)")
    if weights is None:
        weights = np.ones(Phi.shape[0])
    else:
        weights = check_array(weights, ensure_2d=False, dtype=np.float64, input_name="weights")
        if weights.shape != (Phi.shape[0],) or np.any(weights < 0):
            raise ValueError(
                "weights must be finite and non-negative with shape (n_samples,) = "
                f"({Phi.shape[0]},)"
            )
    W = np.zeros((Phi.shape[1], T.shape[1])) if W is None else as_float(W, W_name)
    if W.shape != (Phi.shape[1], T.shape[1]):
        raise ValueError(
            f"{W_name} must have shape (n_basis, n_classes) = "
            f"{(Phi.shape[1], T.shape[1])}, got {W.shape}"
        )
    check_magnitude(W, W_name)  # beyond 1e150, the penalty's squares overflow
    return Phi, T, weights, W - W[:, [0]]


def _penalty_mask(n_basis, n_free):
    mask = np.ones((n_basis, n_free))
    mask[0] = 0.0
    return mask


def _softmax_penalty(W, l2):
    return 0.5 * l2 * np.sum((_penalty_mask(W.shape[0], W.shape[1] - 1) * W[:, 1:]) ** 2)


def _softmax_objective(Phi, T, W, weights, l2):
    log_y = log_softmax(Phi @ W, axis=1)
    return float(np.sum(weights[:, None] * T * log_y) - _softmax_penalty(W, l2))


def _softmax_gradient(Phi, T, W, weights, l2, Y=None):
    Y = softmax(Phi @ W, axis=1) if Y is None else Y
    grad = Phi.T @ (weights[:, None] * (T - Y))[:, 1:]
    return grad - l2 * _penalty_mask(*grad.shape) * W[:, 1:]


def _softmax_negative_hessian(Phi, W, weights, l2, Y=None):
    Y = (softmax(Phi @ W, axis=1) if Y is None else Y)[:, 1:]
    n_free, m = Y.shape[1], Phi.shape[1]
    H, PhiT = np.empty((n_free * m, n_free * m)), np.ascontiguousarray(Phi.T)
    for k in range(n_free):  # (K−1)K/2 blocks ΦᵀDΦ, each with an M×N temporary
        for j in range(k, n_free):
            s = weights * Y[:, k] * (float(k == j) - Y[:, j])
            block = (PhiT * s) @ Phi
            H[k * m : (k + 1) * m, j * m : (j + 1) * m] = block
            H[j * m : (j + 1) * m, k * m : (k + 1) * m] = block.T
    return H + np.diag(l2 * _penalty_mask(m, n_free).T.ravel())


def weighted_softmax_objective(Phi, T, W, weights=None, *, l2=0.0):
    """L(W) = Σ_n r_n Σ_k T_nk ln y_nk − (l2/2) Σ_{m≥1,k≥1} W_mk², y_n = softmax(Wᵀφ_n).

    With the responsibilities as soft targets T this is the part of the expected complete-data
    log-likelihood Q of a mixture of experts that depends on the gates (Section 14.5.3). Column 0
    of W is the reference class: W is first shifted so that it is zero (the probabilities are
    unchanged); the bias row is not penalised.

    Parameters
    ----------
    Phi : array-like of shape (n_samples, n_basis)
        The design matrix Φ, rows φ_nᵀ (a column of ones for a bias).
    T : array-like of shape (n_samples, n_classes)
        Non-negative soft targets, rows summing to one.
    W : array-like of shape (n_basis, n_classes)
        Parameters, one column per class; column 0 is the reference class.
    weights : array-like of shape (n_samples,), default=None
        Non-negative sample weights r_n (ones if None).
    l2 : float, default=0.0
        The ridge penalty.

    Returns
    -------
    float
        L(W).

    Raises
    ------
    ValueError
        If an argument has the wrong shape, NaN or infinite entries, weights has a negative
        entry, a row of T is negative or does not sum to one, Phi or W has entries beyond 1e150
        in magnitude, or l2 is negative, infinite or NaN.
    TypeError
        If l2 is not a real number.
    """
    Phi, T, weights, W = _check_softmax_problem(Phi, T, weights, W)
    _check_settings(l2)
    return _softmax_objective(Phi, T, W, weights, l2)


def softmax_q_gradient(Phi, T, W, weights=None, *, l2=0.0):
    """Gradient of :func:`weighted_softmax_objective` with respect to the free columns W[:, 1:].

    Column k ≥ 1 is Φᵀ (r ⊙ (T_k − y_k)) − l2 w_k (bias unpenalised): because each row of T
    sums to one, ∂/∂a_k Σ_j T_j ln y_j = T_k − y_k Σ_j T_j = T_k − y_k, exactly as for hard labels.

    Parameters
    ----------
    Phi : array-like of shape (n_samples, n_basis)
        The basis functions; the first column is the (unpenalised) bias.
    T : array-like of shape (n_samples, n_classes)
        Non-negative soft targets, rows summing to one.
    W : array-like of shape (n_basis, n_classes)
        Parameters, one column per class; column 0 is the reference class.
    weights : array-like of shape (n_samples,), default=None
        Non-negative sample weights r_n (ones if None).
    l2 : float, default=0.0
        The ridge penalty on the non-bias entries of the free columns.

    Returns
    -------
    ndarray of shape (n_basis, n_classes - 1)
        The gradient, one column per free class.

    Raises
    ------
    ValueError
        If an argument has the wrong shape, NaN or infinite entries, weights has a negative
        entry, a row of T is negative or does not sum to one, Phi or W has entries beyond 1e150
        in magnitude, or l2 is negative, infinite or NaN.
    TypeError
        If l2 is not a real number.
    """
    Phi, T, weights, W = _check_softmax_problem(Phi, T, weights, W)
    _check_settings(l2)
    return _softmax_gradient(Phi, T, W, weights, l2)


def softmax_q_negative_hessian(Phi, W, weights=None, *, l2=0.0):
    """Negative Hessian of :func:`weighted_softmax_objective` in the free columns W[:, 1:].

    Block (k, j) (k, j ≥ 1, each M×M) is Φᵀ diag(r_n y_nk (δ_kj − y_nj)) Φ, plus l2 on the
    non-bias diagonal. Blocks are laid out class by class, matching
    ``softmax_q_gradient(...).T.ravel()``; the matrix is (K−1)M × (K−1)M, positive semi-definite,
    and independent of the targets. It is assembled from (K−1)K/2 products ΦᵀDΦ: no N×N matrix,
    no N×K×M×M temporary.

    Parameters
    ----------
    Phi : array-like of shape (n_samples, n_basis)
        The design matrix Φ, rows φ_nᵀ (a column of ones for a bias).
    W : array-like of shape (n_basis, n_classes)
        Parameters, one column per class; column 0 is the reference class.
    weights : array-like of shape (n_samples,), default=None
        Non-negative sample weights (the responsibilities γ_nk; ones if None where allowed).
    l2 : float, default=0.0
        The ridge penalty.

    Returns
    -------
    ndarray of shape ((n_classes - 1) * n_basis, (n_classes - 1) * n_basis)
        The negative Hessian, (K − 1) × (K − 1) blocks of size M × M.

    Raises
    ------
    ValueError
        If an argument has the wrong shape, NaN or infinite entries, weights has a negative
        entry, Phi or W has entries beyond 1e150 in magnitude, or l2 is negative, infinite or
        NaN.
    TypeError
        If l2 is not a real number.
    """
    W = as_float(W, "W")
    if W.ndim != 2 or W.shape[1] < 2:
        raise ValueError(
            f"W must have shape (n_basis, n_classes) with n_classes >= 2, got {W.shape}"
        )
    uniform = np.full((np.shape(Phi)[0], W.shape[1]), 1.0 / W.shape[1])
    Phi, _, weights, W = _check_softmax_problem(Phi, uniform, weights, W)
    _check_settings(l2)
    return _softmax_negative_hessian(Phi, W, weights, l2)


def weighted_softmax_irls(Phi, T, weights=None, W_init=None, *, l2=0.0, max_iter=100, tol=1e-8):
    """Maximise :func:`weighted_softmax_objective` by Newton's method (multinomial IRLS).

    The gate M-step of a mixture of experts (Jordan & Jacobs 1994): T holds the
    responsibilities (soft targets), ``weights`` optional sample weights (in a hierarchical
    mixture, the posterior probability of the parent node). Class 0 is the reference class: its
    column of W is fixed at zero, which removes the softmax's invariance to adding one vector to
    every column (``W_init`` is shifted accordingly; its probabilities do not change). Each step
    solves the full (K−1)M × (K−1)M Newton system of :func:`softmax_q_negative_hessian` (Cholesky,
    with the jitter of :func:`weighted_logistic_irls` when it is singular), then halves the step
    until the objective does not decrease. The objective therefore never decreases from
    ``W_init``, which is what a generalised EM step needs even with a small ``max_iter``.

    Parameters
    ----------
    Phi : array-like of shape (n_samples, n_basis)
        Basis functions; the first column is the (unpenalised) bias.
    T : array-like of shape (n_samples, n_classes)
        Non-negative soft targets, rows summing to one (one-hot rows for hard labels).
    weights : array-like of shape (n_samples,), default=None
        Non-negative sample weights r_n (ones if None).
    W_init : array-like of shape (n_basis, n_classes), default=None
        Starting point (zeros if None).
    l2 : float, default=0.0
        Ridge penalty on the non-bias entries of the free columns.
    max_iter : int, default=100
        Maximum number of Newton steps (0 returns the shifted ``W_init``).
    tol : float, default=1e-8
        Converged when half the Newton decrement, gᵀH⁻¹g / 2 (the predicted gain of the next
        step), is at most ``tol × max(1, Σ_n r_n)``, or when no step size increases the
        objective. On separable hard labels with ``l2 = 0`` the supremum lies at infinity: the
        iterates walk out until the possible gain falls below this threshold and return large
        weights (use a positive ``l2`` for a finite optimum).

    Returns
    -------
    W : ndarray of shape (n_basis, n_classes)
        Parameters with column 0 equal to zero.
    n_iter : int
        Newton steps taken.
    converged : bool
        Whether the stopping rule was met (False on separable data with ``l2 = 0``).

    Raises
    ------
    ValueError
        If an argument has the wrong shape, NaN or infinite entries, weights has a negative
        entry, a row of T is negative or does not sum to one, Phi or W_init has entries beyond
        1e150 in magnitude; if l2 is negative, tol not positive (NaN and inf refused for both),
        or max_iter negative.
    TypeError
        If l2 or tol is not a real number, or max_iter not an integer.
    """
    Phi, T, weights, W = _check_softmax_problem(Phi, T, weights, W_init, "W_init")
    _check_settings(l2, max_iter, tol, min_iter=0, zero_tol=False)
    m, n_free = Phi.shape[1], T.shape[1] - 1
    threshold = tol * max(1.0, float(weights.sum()))
    WT = weights[:, None] * T

    def objective_at(W):  # _softmax_objective, and ln y for the next step's y (one softmax)
        log_y = log_softmax(Phi @ W, axis=1)
        return float(np.vdot(WT, log_y) - _softmax_penalty(W, l2)), log_y

    objective, log_y = objective_at(W)
    for n_iter in range(int(max_iter) + 1):
        Y = np.exp(log_y)
        g = _softmax_gradient(Phi, T, W, weights, l2, Y).T.ravel()
        d = _newton_direction(_softmax_negative_hessian(Phi, W, weights, l2, Y), g)
        if not np.all(np.isfinite(d)):
            return W, n_iter, False
        if 0.5 * float(g @ d) <= threshold:
            return W, n_iter, True
        if n_iter == max_iter:
            return W, n_iter, False
        step = np.zeros_like(W)
        step[:, 1:] = d.reshape(n_free, m).T
        for _ in range(40):  # step halving: accept only a non-decreasing objective
            candidate = W + step
            new_objective, new_log_y = objective_at(candidate)
            if new_objective >= objective:
                break
            step *= 0.5
        else:
            return W, n_iter, True  # no step increases the objective: numerically at the optimum
        W, objective, log_y = candidate, new_objective, new_log_y
    return W, int(max_iter), False  # pragma: no cover  (the loop always returns)
