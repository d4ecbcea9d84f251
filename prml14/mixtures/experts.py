"""Mixtures of experts, the functional core (14.53): the densities, the E-step and the M-steps.

A mixture of experts is the conditional mixture (14.1) whose mixing coefficients are functions
of the input, the *gates* π_k(x) (a softmax of linear functions of x):

    p(t | x) = Σ_k π_k(x) p_k(t | x),                                         (14.53)

with linear-Gaussian experts p_k(t | x) = N(t | w_kᵀφ, β_k⁻¹) or logistic experts
p_k(t | x) = y_k^t (1 − y_k)^(1−t), y_k = σ(w_kᵀφ). A *hierarchical* mixture of experts (HME)
replaces the single gate by a tree of gates: the probability of a leaf (expert) is the product
of the gate probabilities on the path from the root, and (14.53) holds with these products as
the π_k(x).

EM (Jordan & Jacobs 1994), one function per step:

* E-step, :func:`expert_responsibilities`: the posterior probability γ_nk of every leaf given
  (x_n, t_n) and the current parameters, from the log-gates (:func:`hierarchical_log_gates`)
  and the experts' log-densities (:func:`gaussian_expert_log_density`,
  :func:`bernoulli_expert_log_density`);
* M-step for the experts: weighted least squares and noise precisions
  (:func:`linear_experts_m_step`) or weighted IRLS (:func:`logistic_experts_m_step`), with the
  responsibilities times the sample weights as weights;
* M-step for the gates: multinomial IRLS with *soft targets* (:func:`gate_m_step`), node by node
  and level by level in a tree (:func:`hierarchical_gates_m_step`): the targets of a node's gate
  are the posteriors of its children divided by the node's own (:func:`node_posteriors`), and
  the node's posterior is the sample weight.

The estimators built from these functions are in :mod:`prml14.mixtures.expert_estimators`.
"""

from __future__ import annotations

import numpy as np

from .._equations import implements
from .._numerics import DEAD_FRACTION, log_softmax, normalise_log
from .._validation import Axes, as_float, check_number
from .conditional_mixture import _log_mixture_density, _mixture_density
from .irls import _logistic_irls_batch, weighted_softmax_irls
from .linear import _log_densities, solve_normal_equations, weighted_normal_equations
from .logistic import logistic_component_log_probs

__all__ = [
    "mixture_of_experts_density",
    "log_mixture_of_experts_density",
    "hierarchical_log_gates",
    "expert_responsibilities",
    "gaussian_expert_log_density",
    "bernoulli_expert_log_density",
    "node_posteriors",
    "linear_experts_m_step",
    "logistic_experts_m_step",
    "gate_m_step",
    "hierarchical_gates_m_step",
]

_MAX_START = 1e150  # larger starting weights (W, V) overflow in the Newton steps' objectives


# ------------------------------------------------------------------------- argument checks
def _check_gate_coefs(gate_coefs, n_basis):
    """A tree's gates as float arrays (level d: (n_nodes_d, n_basis, B_d)), and its leaves."""
    if not isinstance(gate_coefs, (list, tuple)) or not gate_coefs:
        raise TypeError(
            f"gate_coefs must be a non-empty list of arrays, one per level, got {gate_coefs!r}"
        )
    checked, n_nodes = [], 1
    for level, V in enumerate(gate_coefs):
        V = as_float(V, f"gate_coefs[{level}]")
        if V.ndim != 3 or V.shape[:2] != (n_nodes, n_basis) or V.shape[2] == 0:
            raise ValueError(
                f"gate_coefs[{level}] must have shape (n_nodes, n_basis, branching) = "
                f"({n_nodes}, {n_basis}, B), got {V.shape}"
            )
        checked.append(V)
        n_nodes *= V.shape[2]
    return checked, n_nodes


def _check_precisions(beta, axes):
    """Noise precisions: one positive finite β_k per expert (a single value is shared)."""
    beta = as_float(beta, "beta")
    if beta.size == 1 and beta.ndim <= 1:
        beta = np.full(axes.sizes["n_experts"], float(beta.item()))
    beta = axes.array(beta, "beta", ("n_experts",))
    if not np.all(beta > 0):
        raise ValueError(f"beta (the noise precisions) must be positive, got {beta}")
    return beta


def _check_start(W, name):
    """Refuse starting weights whose squares overflow in the Newton steps' objective."""
    largest = float(np.max(np.abs(W)))
    if largest > _MAX_START:
        raise ValueError(
            f"{name} has weights of magnitude up to {largest:.3g}: beyond {_MAX_START:.0e} "
            f"the Newton steps overflow; start from smaller {name} (zeros are a safe start)"
        )


def _check_sample_weight(sample_weight, axes):
    if sample_weight is None:
        return None
    return axes.array(sample_weight, "sample_weight", ("n_samples",), non_negative=True)


def _weighted(gamma, sample_weight, axes):
    """γ_nk s_n and the total sample weight Σ_n s_n (N with unit weights)."""
    s = _check_sample_weight(sample_weight, axes)
    return (gamma, float(gamma.shape[0])) if s is None else (gamma * s[:, None], float(s.sum()))


def _check_experts(Phi, t, gamma, W, sample_weight, l2):
    """The arguments of the experts' M-steps: (Phi, t, r_nk = s_n γ_nk, Σ_n s_n, W, axes)."""
    axes = Axes()
    Phi = axes.array(Phi, "Phi", ("n_samples", "n_basis"))
    t = axes.array(t, "t", ("n_samples",))
    gamma = axes.array(gamma, "gamma", ("n_samples", "n_experts"), non_negative=True)
    W = axes.array(W, "W", ("n_experts", "n_basis"))
    check_number(l2, "l2", low=0.0)
    return (Phi, t, *_weighted(gamma, sample_weight, axes), W, axes)


# ------------------------------------------------------------------------- the model (14.53)
@implements("14.53")
def mixture_of_experts_density(gates, expert_densities):
    """The mixture of experts p(t | x) = Σ_k π_k(x) p_k(t | x), equation (14.53).

    Parameters
    ----------
    gates : array-like of shape (..., n_experts)
        Gating probabilities π_k(x): non-negative, summing to one over the last axis.
    expert_densities : array-like of shape (..., n_experts)
        p_k(t | x) at the same (x, t) pairs (densities for regression, probabilities of the
        observed class for classification): finite, non-negative. The leading axes broadcast
        against those of ``gates``; the last axis is the same.

    Returns
    -------
    ndarray of shape (...)
        p(t | x) at each pair.

    Raises
    ------
    ValueError
        If the gates are not on the simplex, a density is negative or infinite, or the shapes
        disagree.
    """
    return _mixture_density(gates, expert_densities, ("gates", "expert_densities"))


@implements("14.53")
def log_mixture_of_experts_density(log_gates, log_expert_densities):
    """ln p(t | x) = ln Σ_k exp{ln π_k(x) + ln p_k(t | x)}, equation (14.53) in log space.

    Parameters
    ----------
    log_gates : array-like of shape (..., n_experts)
        ln π_k(x).
    log_expert_densities : array-like of shape (..., n_experts)
        ln p_k(t | x) at the same (x, t) pairs (−∞ allowed). The leading axes broadcast
        against those of ``log_gates``; the last axis is the same.

    Returns
    -------
    ndarray of shape (...)
        ln p(t | x) at each pair, computed with a log-sum-exp.

    Raises
    ------
    ValueError
        If the gates are not on the simplex, an argument holds NaN, or the shapes do not agree.
    """
    return _log_mixture_density(
        log_gates, log_expert_densities, ("log_gates", "log_expert_densities")
    )


def hierarchical_log_gates(Phi_gate, gate_coefs):
    """Log leaf probabilities ln π_leaf(x) of a tree of softmax gates.

    Level d of a tree with branching B has B^d gating nodes; node j has the B children
    j·B, …, j·B + B − 1 at level d + 1. A leaf's gate is the product of the gate probabilities
    along its path, so ln π_leaf is the sum of the log-softmax outputs along the path. With one
    level this is the single softmax gate of a mixture of experts.

    Parameters
    ----------
    Phi_gate : array-like of shape (n_samples, n_basis)
        Gate basis functions (e.g. (1, x), or a column of ones for constant gates).
    gate_coefs : sequence of arrays
        Level d holds an array of shape (B^d, n_basis, B).

    Returns
    -------
    ndarray of shape (n_samples, B^depth)
        ln π_leaf(x_n); ``exp`` of each row sums to one.

    Raises
    ------
    TypeError
        If gate_coefs is not a non-empty list or tuple of arrays.
    ValueError
        If Phi_gate or a level of gate_coefs is not finite or not of the shape given above.
    """
    Phi_gate = Axes().array(Phi_gate, "Phi_gate", ("n_samples", "n_basis"))
    log_gates = np.zeros((Phi_gate.shape[0], 1))
    for V in _check_gate_coefs(gate_coefs, Phi_gate.shape[1])[0]:
        activations = np.einsum("nm,jmc->njc", Phi_gate, V)
        log_gates = (log_gates[:, :, None] + log_softmax(activations, axis=2)).reshape(
            len(Phi_gate), -1
        )
    return log_gates


# ------------------------------------------------------------------------- E-step
def expert_responsibilities(log_gates, log_expert_densities):
    """Posterior probability of each expert given (x_n, t_n): the E-step of Section 14.5.3.

    γ_nk = π_k(x_n) p_k(t_n | x_n) / Σ_j π_j(x_n) p_j(t_n | x_n), computed in log space: the
    gate is the prior, the expert the likelihood.

    Parameters
    ----------
    log_gates : array-like of shape (n_samples, n_experts)
        ln π_k(x_n).
    log_expert_densities : array-like of shape (n_samples, n_experts)
        ln p_k(t_n | x_n).

    Returns
    -------
    responsibilities : ndarray of shape (n_samples, n_experts)
        γ_nk; each row sums to one.
    log_likelihood : ndarray of shape (n_samples,)
        ln p(t_n | x_n), the log of (14.53) at each sample.

    Raises
    ------
    ValueError
        If the shapes differ, or an argument holds NaN or +inf (−∞ is allowed).
    """
    log_gates = as_float(log_gates, "log_gates", allow_inf=True)
    log_expert_densities = as_float(log_expert_densities, "log_expert_densities", allow_inf=True)
    if log_gates.ndim != 2 or log_expert_densities.shape != log_gates.shape:
        raise ValueError(
            "log_gates and log_expert_densities must both have shape (n_samples, n_experts), got "
            f"{log_gates.shape} and {log_expert_densities.shape}"
        )
    for a, name in ((log_gates, "log_gates"), (log_expert_densities, "log_expert_densities")):
        if np.any(a == np.inf):
            raise ValueError(f"{name} must not contain +inf (an infinite probability)")
    return normalise_log(log_gates + log_expert_densities)


def gaussian_expert_log_density(Phi, t, W, beta):
    """ln N(t_n | w_kᵀφ_n, β_k⁻¹) for every sample n and expert k (β is a *precision*).

    :func:`prml14.mixtures.linear.linear_component_log_densities` with one precision per expert.

    Parameters
    ----------
    Phi : ndarray of shape (n_samples, n_basis)
        Expert basis functions φ_n.
    t : ndarray of shape (n_samples,)
        Real targets.
    W : ndarray of shape (n_experts, n_basis)
        Expert weights w_k, one per row.
    beta : float or ndarray of shape (n_experts,)
        Noise precisions β_k (one shared value or one per expert): positive, finite.

    Returns
    -------
    ndarray of shape (n_samples, n_experts)
        ln p_k(t_n | x_n) (−∞ where a residual's square overflows).

    Raises
    ------
    ValueError
        If the shapes disagree, an argument is not finite, a precision is not positive, or
        Phi or t has entries beyond 1e150 in magnitude.
    """
    axes = Axes()
    Phi = axes.array(Phi, "Phi", ("n_samples", "n_basis"), max_magnitude=1e150)
    t = axes.array(np.ravel(as_float(t, "t")), "t", ("n_samples",), max_magnitude=1e150)
    W = axes.array(W, "W", ("n_experts", "n_basis"))
    beta = _check_precisions(beta, axes)
    with np.errstate(over="ignore"):  # a residual whose square overflows: ln N = −∞, the limit
        return _log_densities(Phi, t, W, beta)


def bernoulli_expert_log_density(Phi, t, W):
    """ln{y_nk^t_n (1 − y_nk)^(1 − t_n)} with y_nk = σ(w_kᵀφ_n), for t_n ∈ {0, 1}, stably.

    Same as :func:`prml14.mixtures.logistic.logistic_component_log_probs` (one expert per row
    of ``W``).

    Parameters
    ----------
    Phi : ndarray of shape (n_samples, n_basis)
        Expert basis functions φ_n.
    t : ndarray of shape (n_samples,)
        Targets in {0, 1}.
    W : ndarray of shape (n_experts, n_basis)
        Expert weights w_k, one per row.

    Returns
    -------
    ndarray of shape (n_samples, n_experts)
        ln p_k(t_n | x_n).

    Raises
    ------
    ValueError
        If Phi, t or W is empty or not a finite real array, or not of the shape given above, or
        Phi or t has entries beyond 1e150 in magnitude.
    """
    return logistic_component_log_probs(Phi, np.ravel(t), W)


# ------------------------------------------------------------------------- M-steps
@implements("14.42", "14.44")
def linear_experts_m_step(
    Phi,
    t,
    gamma,
    W,
    beta,
    *,
    sample_weight=None,
    precision="per_component",
    l2=0.0,
    variance_floor=0.0,
):
    """M-step of linear-Gaussian experts: weighted least squares, then the noise precisions.

    With r_nk = s_n γ_nk (responsibility times sample weight), expert k maximises its part of Q,
    Σ_n r_nk ln N(t_n | w_kᵀφ_n, β_k⁻¹) − (l2/2) Σ_{m≥1} w_km²:

    * w_k solves the weighted normal equations (14.42) plus the ridge, (Φᵀ R_k Φ + (l2/β_k) I′)
      w_k = Φᵀ R_k t (I′ leaves the bias unpenalised; R_k = diag(r_k) is never formed), all
      experts at once (:func:`prml14.mixtures.linear.weighted_normal_equations`);
    * then 1/β_k = Σ_n r_nk (t_n − w_kᵀφ_n)² / Σ_n r_nk (``precision="per_component"``), or one
      β shared by all experts, 1/β = Σ_n Σ_k r_nk (t_n − w_kᵀφ_n)² / Σ_n s_n, which is (14.44)
      (``precision="shared"``).

    An expert whose total weight Σ_n r_nk is at most ``DEAD_FRACTION`` × Σ_n s_n keeps W[k]
    and β_k. Each update maximises Q given the others (the ridge uses the current β_k), so EM
    with this step never decreases the penalised log-likelihood.

    Parameters
    ----------
    Phi : ndarray of shape (n_samples, n_basis)
        Expert basis functions φ_n (column 0: the bias).
    t : ndarray of shape (n_samples,)
        Real targets.
    gamma : ndarray of shape (n_samples, n_experts)
        Responsibilities γ_nk.
    W : ndarray of shape (n_experts, n_basis)
        Current weights (kept by dead experts).
    beta : float or ndarray of shape (n_experts,)
        Current precisions, positive (scale the ridge; kept by dead experts; a float is
        shared).
    sample_weight : ndarray of shape (n_samples,), default=None
        Weights s_n of the samples (ones if None).
    precision : {"per_component", "shared"}, default="per_component"
        One precision per expert, or one shared by all.
    l2 : float, default=0.0
        Ridge penalty on the weights other than the bias.
    variance_floor : float, default=0.0
        Lower bound on each variance 1/β_k.

    Returns
    -------
    W : ndarray of shape (n_experts, n_basis)
        The new weights.
    beta : ndarray of shape (n_experts,)
        The new precisions (all equal with ``precision="shared"``).

    Raises
    ------
    TypeError
        If l2 or variance_floor is not a real number.
    ValueError
        If the shapes do not agree, an array is not finite, gamma or sample_weight has a
        negative entry, a precision is not positive, or l2 or variance_floor is negative.
    """
    if precision not in ("per_component", "shared"):
        raise ValueError(f"precision must be 'per_component' or 'shared', got {precision!r}")
    Phi, t, R, total, W, axes = _check_experts(Phi, t, gamma, W, sample_weight, l2)
    beta = np.array(_check_precisions(beta, axes), dtype=float, copy=True)
    check_number(variance_floor, "variance_floor", low=0.0)
    W = np.array(W, dtype=float, copy=True)
    totals = R.sum(axis=0)
    alive = totals > DEAD_FRACTION * total  # an expert with no weight keeps its parameters
    ridge = np.ones(Phi.shape[1])
    ridge[0] = 0.0
    A, b = weighted_normal_equations(Phi, t, R)
    A += (l2 / beta)[:, None, None] * np.diag(ridge)
    W[alive] = solve_normal_equations(A[alive], b[alive])
    sq = R * (t[:, None] - Phi @ W.T) ** 2
    floor = max(variance_floor, 1e-300)  # keeps β finite on an exact fit
    if precision == "shared":
        beta[:] = 1.0 / max(sq.sum() / totals.sum(), floor)
    else:
        beta[alive] = 1.0 / np.maximum(sq.sum(axis=0)[alive] / totals[alive], floor)
    return W, beta


@implements("14.51", "14.52")
def logistic_experts_m_step(Phi, t, gamma, W, *, sample_weight=None, l2=0.0, max_iter=10):
    """M-step of logistic experts: weighted IRLS for each expert, weights r_nk = s_n γ_nk.

    Expert k maximises Σ_n r_nk {t_n ln y_nk + (1 − t_n) ln(1 − y_nk)} − (l2/2)‖w_k‖² by
    Newton steps with the gradient (14.51) and negative Hessian (14.52)
    (:func:`prml14.mixtures.irls.weighted_logistic_irls`, started from the current W[k], at most
    ``max_iter`` steps, each never decreasing the objective: a generalised M-step). An expert
    whose total weight is at most ``DEAD_FRACTION`` × Σ_n s_n keeps W[k].

    Parameters
    ----------
    Phi : ndarray of shape (n_samples, n_basis)
        Expert basis functions φ_n.
    t : ndarray of shape (n_samples,)
        Targets in {0, 1}.
    gamma : ndarray of shape (n_samples, n_experts)
        Responsibilities γ_nk.
    W : ndarray of shape (n_experts, n_basis)
        Current weights: the starting point of each Newton loop.
    sample_weight : ndarray of shape (n_samples,), default=None
        Weights s_n of the samples (ones if None).
    l2 : float, default=0.0
        Ridge penalty on every weight, the bias included.
    max_iter : int, default=10
        Newton steps per expert.

    Returns
    -------
    ndarray of shape (n_experts, n_basis)
        The new weights.

    Raises
    ------
    TypeError
        If l2 is not a real number or max_iter not an integer.
    ValueError
        If the shapes do not agree, an array is not finite, gamma or sample_weight has a
        negative entry, l2 is negative, W has entries beyond 1e150 in magnitude, or max_iter
        is below 1.
    """
    Phi, t, R, total, W, _ = _check_experts(Phi, t, gamma, W, sample_weight, l2)
    _check_start(W, "W")
    W = np.array(W, dtype=float, copy=True)
    alive = np.flatnonzero(R.sum(axis=0) > DEAD_FRACTION * total)  # the others keep W[k]
    if len(alive):  # the Newton steps of all the live experts together
        W[alive] = _logistic_irls_batch(
            Phi, t, R[:, alive], W[alive], l2=l2, max_iter=max_iter, check_input=True
        )[0]
    return W


def node_posteriors(gamma, branching, level):
    """Posteriors of the gating nodes of one level of a tree, and of their children.

    A node's posterior is the sum of the posteriors of the leaves below it: with leaves
    numbered so that node j of level d owns the contiguous block of B^(depth−d) leaves starting
    at j·B^(depth−d), h_nj = Σ_{leaves of j} γ_n,leaf.

    Parameters
    ----------
    gamma : ndarray of shape (n_samples, branching**depth)
        Leaf posteriors (possibly multiplied by sample weights).
    branching : int
        Children per gating node, B.
    level : int
        The level d of the nodes (0 for the root).

    Returns
    -------
    node : ndarray of shape (n_samples, branching**level)
        h_nj for every node j of the level.
    child : ndarray of shape (n_samples, branching**level, branching)
        The posterior of child c of node j.

    Raises
    ------
    TypeError
        If branching or level is not an integer.
    ValueError
        If gamma is empty, negative or not finite, or has no multiple of
        branching**(level + 1) columns, branching is below 1, or level is negative.
    """
    gamma = Axes().array(gamma, "gamma", ("n_samples", "n_leaves"), non_negative=True)
    branching = check_number(branching, "branching", low=1, integer=True)
    level = check_number(level, "level", low=0, integer=True)
    n, n_leaves = gamma.shape
    size, depth = 1, 0  # size: branching**(level + 1), without computing a huge power
    while branching > 1 and depth <= level and size <= n_leaves:
        size, depth = size * branching, depth + 1
    if n_leaves % size or size > n_leaves:
        raise ValueError(
            f"gamma must have a multiple of branching**(level + 1) = {branching}**{level + 1} "
            f"columns (the leaves below the children), got {n_leaves}"
        )
    node = gamma.reshape(n, branching**level, -1).sum(axis=2)
    return node, gamma.reshape(n, branching**level, branching, -1).sum(axis=3)


def gate_m_step(Phi_gate, T, V, *, sample_weight=None, l2=0.0, max_iter=10):
    """M-step of one softmax gate: multinomial IRLS with soft targets.

    Maximises Σ_n r_n Σ_c T_nc ln π_c(x_n) − (l2/2) Σ_{m≥1, c≥1} V_mc², the gate's part of Q
    (T: the responsibilities of the gate's children given the gate is used; r_n: the sample
    weights, times the posterior of the gate's node in a tree), by at most ``max_iter``
    Newton steps from V (:func:`prml14.mixtures.irls.weighted_softmax_irls`; each step never
    decreases the objective). Column 0 is the reference child (fixed at zero); the biases are not
    penalised. With a single child there is nothing to fit and V is returned.

    Parameters
    ----------
    Phi_gate : ndarray of shape (n_samples, n_basis)
        Gate basis functions (e.g. (1, x)).
    T : ndarray of shape (n_samples, n_children)
        Soft targets, rows summing to one.
    V : ndarray of shape (n_basis, n_children)
        Current gate parameters, the starting point.
    sample_weight : ndarray of shape (n_samples,), default=None
        Weights r_n (ones if None).
    l2 : float, default=0.0
        Ridge penalty on the gate weights other than the biases.
    max_iter : int, default=10
        Newton steps.

    Returns
    -------
    ndarray of shape (n_basis, n_children)
        The new gate parameters (column 0 zero).

    Raises
    ------
    TypeError
        If l2 is not a real number or max_iter not an integer.
    ValueError
        If an array has the wrong shape, is not finite, T or sample_weight has a negative
        entry, V has entries beyond 1e150 in magnitude, l2 is negative, or max_iter is
        negative.
    """
    axes = Axes()
    Phi_gate = axes.array(Phi_gate, "Phi_gate", ("n_samples", "n_basis"), max_magnitude=1e150)
    T = axes.array(T, "T", ("n_samples", "n_children"), non_negative=True)
    V = axes.array(V, "V", ("n_basis", "n_children"))
    _check_start(V, "V")
    sample_weight = _check_sample_weight(sample_weight, axes)
    check_number(l2, "l2", low=0.0)
    if np.shape(T)[1] == 1:
        return np.array(V, dtype=float, copy=True)
    return weighted_softmax_irls(
        Phi_gate, T, sample_weight, V, l2=l2, max_iter=max_iter, tol=1e-10
    )[0]


def hierarchical_gates_m_step(
    Phi_gate, gamma, gate_coefs, *, sample_weight=None, l2=0.0, max_iter=10
):
    """M-step of a tree of softmax gates, level by level and node by node.

    Because ln π_leaf is the sum of the log gate probabilities along the leaf's path, the gates'
    part of Q separates into one term per gating node j:
    Σ_n h_nj Σ_c (h_n,jc / h_nj) ln π_c|j(x_n), a soft-target multinomial logistic regression
    (:func:`gate_m_step`) with targets h_n,jc / h_nj and sample weights h_nj, the node
    posteriors of :func:`node_posteriors` computed from r_n,leaf = s_n γ_n,leaf. A node whose
    total weight is at most ``DEAD_FRACTION`` × Σ_n s_n keeps its gate. With one level this is
    the gate M-step of a mixture of experts (targets γ_nk, weights s_n).

    Parameters
    ----------
    Phi_gate : ndarray of shape (n_samples, n_basis)
        Gate basis functions.
    gamma : ndarray of shape (n_samples, branching**depth)
        Leaf responsibilities.
    gate_coefs : list of ndarray
        Current gates; level d has shape (branching**d, n_basis, branching).
    sample_weight : ndarray of shape (n_samples,), default=None
        Weights s_n of the samples (ones if None).
    l2 : float, default=0.0
        Ridge penalty on the gate weights other than the biases.
    max_iter : int, default=10
        Newton steps per gate.

    Returns
    -------
    list of ndarray
        The new gates, in the layout of ``gate_coefs``.

    Raises
    ------
    TypeError
        If gate_coefs is not a non-empty list or tuple of arrays, ``l2`` is not a real number or
        ``max_iter`` not an integer.
    ValueError
        If an array is not finite or misshapen, gamma or sample_weight is negative, Phi_gate or
        a gate exceeds 1e150 in magnitude, or ``l2`` < 0.
    """
    axes = Axes()
    Phi_gate = axes.array(Phi_gate, "Phi_gate", ("n_samples", "n_basis"), max_magnitude=1e150)
    gate_coefs, axes.sizes["n_leaves"] = _check_gate_coefs(gate_coefs, Phi_gate.shape[1])
    gamma = axes.array(gamma, "gamma", ("n_samples", "n_leaves"), non_negative=True)
    check_number(l2, "l2", low=0.0)
    R, total = _weighted(gamma, sample_weight, axes)
    new_coefs = []
    for level, V in enumerate(gate_coefs):
        node, child = node_posteriors(R, V.shape[2], level)
        V_new = np.array(V, dtype=float, copy=True)
        for j in range(V.shape[0]):  # loop over gating nodes, not samples
            weights = node[:, j]
            if weights.sum() <= DEAD_FRACTION * total:
                continue  # nobody reaches this node: keep its gate
            safe = np.where(weights > 0, weights, 1.0)[:, None]
            T = np.where(weights[:, None] > 0, child[:, j, :] / safe, 1.0 / V.shape[2])
            T /= T.sum(axis=1, keepdims=True)
            V_new[j] = gate_m_step(
                Phi_gate, T, V[j], sample_weight=weights, l2=l2, max_iter=max_iter
            )
        new_coefs.append(V_new)
    return new_coefs
