"""What the two mixtures' core functions share: argument checks and sample-weight helpers."""

from __future__ import annotations

import numpy as np

from .._numerics import log_or_minus_inf
from .._validation import (
    as_float,
    check_array,
    check_magnitude,
    check_sample_weight,
    check_simplex,
)

__all__ = []


def _check_2d(a, name, shape_text):
    """A finite 2-D float array (check_array), with an error naming ``name`` if it is not 2-D."""
    if np.ndim(a) != 2:
        raise ValueError(f"{name} must be a 2-D array {shape_text}, got shape {np.shape(a)}")
    return check_array(a, dtype=np.float64, input_name=name)


def check_data(Phi, t):
    """The design matrix Φ (N, M) and the targets t (N,) as finite float arrays."""
    Phi = _check_2d(Phi, "Phi", "(n_samples, n_basis)")
    t = check_array(t, ensure_2d=False, dtype=np.float64, input_name="t")
    if t.shape != (Phi.shape[0],):
        raise ValueError(f"t must have shape (n_samples,) = ({Phi.shape[0]},), got {t.shape}")
    check_magnitude(Phi, "Phi")  # squares beyond 1e300 overflow in the densities and solvers
    check_magnitude(t, "t")
    return Phi, t


def check_coef(W, n_basis):
    """One weight vector per row: W of shape (K, M)."""
    W = as_float(W, "W")
    if W.ndim != 2 or W.shape[1] != n_basis:
        raise ValueError(
            f"W must have shape (n_components, n_basis) = (K, {n_basis}), got {W.shape}"
        )
    return check_array(W, input_name="W")


def check_responsibilities(gamma, n_samples=None, n_components=None):
    """Responsibilities γ of shape (N, K): finite and non-negative."""
    rows = "n_samples" if n_samples is None else f"n_samples={n_samples}"
    gamma = _check_2d(gamma, "gamma", f"({rows}, n_components)")
    if n_samples is not None and gamma.shape[0] != n_samples:
        raise ValueError(f"gamma must have shape ({rows}, n_components), got {gamma.shape}")
    if n_components is not None and gamma.shape[1] != n_components:
        raise ValueError(
            f"gamma must have one column per row of W ({n_components}), got {gamma.shape[1]}"
        )
    if np.any(gamma < 0):
        raise ValueError("gamma must be non-negative (responsibilities)")
    return gamma


def check_beta(beta, n_components=None):
    """β > 0 finite: a float, or (if ``n_components`` is given) one per component."""
    beta = as_float(beta, "beta")
    if beta.shape not in ((), (n_components,)):
        each = "" if n_components is None else f" or one per component, shape ({n_components},)"
        raise ValueError(f"beta must be a float{each}, got shape {beta.shape}")
    if not np.all(beta > 0):
        raise ValueError(f"beta (a precision) must be positive and finite, got {beta}")
    return beta


def check_posteriors(gamma, n_samples):
    """Responsibilities (N, K) whose rows sum to one: the posterior probabilities of the E-step
    (the M-step's π = Σ_n s_n γ_nk / Σ_n s_n is then on the simplex)."""
    gamma = check_responsibilities(gamma, n_samples)
    if not np.allclose(gamma.sum(axis=1), 1.0, rtol=0.0, atol=1e-6):
        raise ValueError(
            "gamma must hold responsibilities, each row summing to one over the components "
            f"(got row sums from {gamma.sum(axis=1).min():.3g} to {gamma.sum(axis=1).max():.3g})"
        )
    return gamma


def check_weights(sample_weight, n_samples):
    """None (every point counts once) or non-negative finite weights of shape (N,)."""
    if sample_weight is None:
        return None
    return check_sample_weight(sample_weight, np.empty((n_samples, 0)))


def weigh(gamma, sample_weight):
    """s_n γ_nk: the responsibilities as the M-step counts them."""
    return gamma if sample_weight is None else gamma * sample_weight[:, None]


def log_pi(pi, n_components):
    """ln π_k of checked mixing coefficients (ln 0 = −∞)."""
    return log_or_minus_inf(check_simplex(pi, n_components, name="pi"))


def weighted_sum(values, sample_weight):
    """Σ_n s_n values_n (the plain sum without weights)."""
    return float(np.sum(values) if sample_weight is None else np.dot(sample_weight, values))


def variance_floor(t, sample_weight=None):
    """The default floor on 1/β: 1e-10 × the (weighted) variance of t (1e-10 if t is constant)."""
    mean = np.average(t, weights=sample_weight)
    var_t = float(np.average((t - mean) ** 2, weights=sample_weight))
    return 1e-10 * (var_t if var_t > 0 else 1.0)
