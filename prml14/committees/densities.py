"""Component densities for Section 14.1: Gaussian and Cauchy log densities, and sampling.

The building blocks that :mod:`prml14.committees.bma` combines, either per data point (a mixture,
(14.2)– (14.5)) or per data set (Bayesian model averaging, (14.6)). Gaussian components are
N(x | μ_k, Σ_k); Cauchy components (multivariate t with one degree of freedom) are the heavy-
tailed alternative the 14.1 page compares them with. Everything is in log space and vectorised
over points and components.
"""

from __future__ import annotations

from numbers import Integral

import numpy as np
from scipy.linalg import solve_triangular
from scipy.special import gammaln
from sklearn.utils import check_scalar

from .._validation import check_array, check_magnitude, check_random_state, check_simplex

__all__ = [
    "gaussian_log_densities",
    "cauchy_log_densities",
    "component_log_densities",
    "sample_mixture",
]

_FAMILIES = ("gaussian", "cauchy")


def _as_points(X, name="X"):
    if np.ndim(X) not in (1, 2):
        raise ValueError(
            f"{name} must be a 1-D or 2-D array of points (n_samples, n_features), "
            f"got ndim={np.ndim(X)}"
        )
    X = check_array(X, ensure_2d=False, dtype=np.float64, input_name=name)
    check_magnitude(X, name)  # squared distances beyond 1e300 overflow
    return X[:, None] if X.ndim == 1 else X


def _check_parameters(means, scales, n_features, scales_name, means_name="means"):
    means = check_array(means, ensure_2d=False, dtype=np.float64, input_name=means_name)
    check_magnitude(means, means_name)
    if means.ndim == 1:
        means = means[:, None]
    if means.shape[1] != n_features:
        raise ValueError(
            f"{means_name} must have shape (n_components, {n_features}) to match X, "
            f"got {np.shape(means)}"
        )
    K = means.shape[0]
    scales = check_array(
        scales, ensure_2d=False, allow_nd=True, dtype=np.float64, input_name=scales_name
    )
    if scales.ndim == 1:  # one variance (squared scale) per component: isotropic
        if scales.shape[0] != K:
            raise ValueError(
                f"{scales_name} must have one entry per component ({K}), got {scales.shape[0]}"
            )
        if np.any(scales <= 0):
            raise ValueError(f"{scales_name} must be positive and finite")
        scales = scales[:, None, None] * np.eye(n_features)
    if scales.shape != (K, n_features, n_features):
        raise ValueError(
            f"{scales_name} must have shape (n_components,) or "
            f"(n_components, {n_features}, {n_features}), got {scales.shape}"
        )
    # Cholesky reads only the lower triangle, so an asymmetric matrix would pass silently.
    if not np.allclose(scales, np.swapaxes(scales, -1, -2), rtol=1e-10, atol=0.0):
        raise ValueError(
            f"{scales_name} must be symmetric positive definite matrices (got an asymmetric one)"
        )
    try:
        chol = np.linalg.cholesky(scales)
    except np.linalg.LinAlgError:
        raise ValueError(f"{scales_name} must be symmetric positive definite matrices") from None
    return means, chol


def _mahalanobis_and_logdet(X, means, chol):
    """Squared Mahalanobis distances (N, K) and ln|Σ_k| (K,) from Cholesky factors."""
    # (x - μ_k)ᵀ Σ_k⁻¹ (x - μ_k) = |u|² with L_k u = x - μ_k: one triangular solve per component.
    maha = np.column_stack(
        [
            np.sum(solve_triangular(L, (X - mu).T, lower=True) ** 2, axis=0)
            for mu, L in zip(means, chol, strict=True)
        ]
    ).reshape(X.shape[0], len(means))
    logdet = 2.0 * np.sum(np.log(np.diagonal(chol, axis1=-2, axis2=-1)), axis=-1)
    return maha, logdet


# ----------------------------------------------------------------------------- components
def gaussian_log_densities(X, means, covariances):
    """ln N(x_n | μ_k, Σ_k) for every point and component.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features) or (n_samples,)
        The points x_n.
    means : array-like of shape (n_components, n_features) or (n_components,) for 1-D data
        The component means μ_k (locations, for a Cauchy family).
    covariances : array-like of shape (n_components, n_features, n_features) or (n_components,)
        Full covariance matrices, or one variance per component (Σ_k = σ_k² I).

    Returns
    -------
    ndarray of shape (n_samples, n_components)
        ln N(x_n | μ_k, Σ_k).

    Raises
    ------
    ValueError
        If an argument is not finite or is badly shaped, if the covariances are not positive
        definite, or if X or means have entries beyond 1e150 in magnitude (rescale them).
    """
    return _gaussian(X, means, covariances, "means", "covariances")


def _gaussian(X, means, covariances, means_name, covariances_name):
    X = _as_points(X)
    means, chol = _check_parameters(means, covariances, X.shape[1], covariances_name, means_name)
    maha, logdet = _mahalanobis_and_logdet(X, means, chol)
    D = X.shape[1]
    return -0.5 * (D * np.log(2 * np.pi) + logdet + maha)


def cauchy_log_densities(X, locations, scales):
    """ln Cauchy(x_n | μ_k, Σ_k): the multivariate Cauchy (Student t with one degree of freedom).

    ``p(x) = Γ((1+D)/2) / (Γ(1/2) π^{D/2} det(Σ)^{1/2}) · (1 + (x-μ)ᵀΣ⁻¹(x-μ))^{-(1+D)/2}``.
    In one dimension with ``scales = γ²`` this is the usual Cauchy density with scale γ.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features) or (n_samples,)
        The points x_n.
    locations : array-like of shape (n_components, n_features) or (n_components,)
        The component locations μ_k.
    scales : array-like of shape (n_components, n_features, n_features) or (n_components,)
        Scale matrices Σ_k, or one squared scale per component (Σ_k = γ_k² I).

    Returns
    -------
    ndarray of shape (n_samples, n_components)
        ln Cauchy(x_n | μ_k, Σ_k).

    Raises
    ------
    ValueError
        If an argument is not finite or is badly shaped, if the scales are not positive
        definite, or if X or locations have entries beyond 1e150 in magnitude (rescale them).
    """
    return _cauchy(X, locations, scales, "locations")


def _cauchy(X, locations, scales, locations_name):
    X = _as_points(X)
    locations, chol = _check_parameters(locations, scales, X.shape[1], "scales", locations_name)
    maha, logdet = _mahalanobis_and_logdet(X, locations, chol)
    D = X.shape[1]
    log_norm = gammaln((1 + D) / 2) - gammaln(0.5) - 0.5 * D * np.log(np.pi) - 0.5 * logdet
    return log_norm - 0.5 * (1 + D) * np.log1p(maha)


def component_log_densities(X, means, scales, family="gaussian"):
    """ln p(x_n | k) for a Gaussian or a Cauchy family of components.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features) or (n_samples,)
        The points x_n.
    means : array-like of shape (n_components, n_features) or (n_components,)
        Means (Gaussian) or locations (Cauchy).
    scales : array-like of shape (n_components, n_features, n_features) or (n_components,)
        Covariances (Gaussian) or scale matrices (Cauchy); see :func:`gaussian_log_densities`
        and :func:`cauchy_log_densities`.
    family : {"gaussian", "cauchy"}
        The family of the components.

    Returns
    -------
    ndarray of shape (n_samples, n_components)
        ln p(x_n | k).

    Raises
    ------
    ValueError
        If an argument is not finite or is badly shaped, if the scales are not positive
        definite, or if X or means have entries beyond 1e150 in magnitude (rescale them).
    """
    return _component(X, means, scales, family)


def _component(X, means, scales, family, scales_name="scales"):
    """:func:`component_log_densities`, whose errors name ``scales`` as the caller calls it."""
    if family == "gaussian":
        return _gaussian(X, means, scales, "means", scales_name)
    if family == "cauchy":
        return _cauchy(X, means, scales, "means")
    raise ValueError(f"family must be one of {_FAMILIES}, got {family!r}")


def sample_mixture(n_samples, weights, means, scales, family="gaussian", random_state=None):
    """Draw i.i.d. points from a Gaussian or Cauchy mixture (ancestral sampling: z, then x).

    Parameters
    ----------
    n_samples : int
        The number of points to draw.
    weights : array-like of shape (n_components,)
        Mixing coefficients π_k: non-negative, summing to one.
    means : array-like of shape (n_components, n_features) or (n_components,)
        The component means μ_k (locations, for a Cauchy family).
    scales : array-like of shape (n_components, n_features, n_features) or (n_components,)
        Covariances (Gaussian) or scale matrices (Cauchy); one number per component means Σ_k =
        s_k I.
    family : {"gaussian", "cauchy"}
        The family of the components.
    random_state : int, RandomState or None
        Seeds the draws.

    Returns
    -------
    X : ndarray of shape (n_samples, n_features)
        The points.
    z : ndarray of shape (n_samples,)
        The component that generated each point.

    Raises
    ------
    TypeError
        If ``n_samples`` is not an integer.
    ValueError
        If ``n_samples`` is below 1, ``family`` is unknown, ``random_state`` cannot seed a
        generator, ``weights`` is not on the simplex, ``means`` is not finite or has not one
        row per weight, or ``scales`` is not positive (definite), finite and of a matching
        shape.
    """
    check_scalar(n_samples, "n_samples", Integral, min_val=1)
    if family not in _FAMILIES:
        raise ValueError(f"family must be one of {_FAMILIES}, got {family!r}")
    rng = check_random_state(random_state)
    weights = check_simplex(weights)
    means_arr = check_array(means, ensure_2d=False, dtype=np.float64, input_name="means")
    D = 1 if means_arr.ndim == 1 else means_arr.shape[1]
    means_arr, chol = _check_parameters(means_arr, scales, D, "scales")
    if means_arr.shape[0] != weights.size:
        raise ValueError(
            f"means must have one row per component ({weights.size}), got {means_arr.shape[0]}"
        )
    # (renormalised: check_simplex allows a sum off by 1e-5, numpy's choice by 1.5e-8 only)
    z = rng.choice(weights.size, size=n_samples, p=weights / weights.sum())
    u = rng.standard_normal((n_samples, D))
    if family == "cauchy":  # t with one degree of freedom: normal / sqrt(chi²_1)
        u = u / np.abs(rng.standard_normal((n_samples, 1)))
    X = means_arr[z] + np.einsum("nij,nj->ni", chol[z], u)
    return X, z
