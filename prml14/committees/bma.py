"""Bayesian model averaging versus model combination, equations (14.2)-(14.6).

Two ways of putting several densities together look alike on paper and answer different
questions:

* A **mixture** (model combination) has one latent 1-of-K variable z *per data point*:
  p(x, z) is the joint (14.2), p(x) = Σ_z p(x, z) the marginal (14.3), for Gaussians the
  familiar mixture density (14.4), and an i.i.d. data set has likelihood (14.5), a product over
  points of sums over that point's own z_n. Different points may come from different components.
* **Bayesian model averaging** has one unknown model h for the *whole data set*:
  p(X) = Σ_h p(X | h) p(h) (14.6), a sum over models of products over points. Its posterior
  p(h | X) concentrates on a single model as N grows.

Everything is computed in log space (log-sum-exp), vectorised over points and components, so
data sets of thousands of points do not underflow.
"""

from __future__ import annotations

from numbers import Integral, Real

import numpy as np
from sklearn.utils import check_scalar

from .._em import run_em
from .._equations import implements
from .._numerics import log_or_minus_inf, logsumexp, normalise_log
from .._validation import as_float, check_array, check_simplex
from ..mixtures import mixing_coefficients
from .densities import _component

__all__ = [
    "log_joint",
    "log_marginal",
    "mixture_density",
    "mixture_log_density",
    "mixture_log_likelihood",
    "log_model_evidence",
    "log_bma_marginal",
    "log_model_posterior",
    "model_posterior_path",
    "combination_responsibilities",
    "fit_combination_weights",
    "bma_predictive_density",
]


# ----------------------------------------------------------------------------- validation
def _check_log_values(values, name):
    """Log densities or evidences: NaN and +inf are errors, −inf (a zero density) is allowed."""
    values = check_array(
        values,
        ensure_2d=False,
        allow_nd=True,
        dtype=np.float64,
        ensure_all_finite=False,
        ensure_min_samples=0,
        input_name=name,
    )
    if np.any(np.isnan(values)) or np.any(values == np.inf):
        raise ValueError(f"{name} must not contain NaN or +inf")
    return values


def _weights_and_log_densities(X, weights, means, scales, family, scales_name="scales"):
    """Checked mixing coefficients π_k and the (N, K) array ln p(x_n | k) of a mixture."""
    weights = check_simplex(weights)
    n_means = np.shape(means)[0] if np.ndim(means) else 0
    if n_means != weights.size:
        raise ValueError(
            f"means must have one row per component ({weights.size} weights), "
            f"got shape {np.shape(means)}"
        )
    return weights, _component(X, means, scales, family, scales_name)


# ----------------------------------------------------------------------------- (14.2)-(14.5)
def _check_log_densities(log_component_densities, weights, name="log_component_densities"):
    log_p = _check_log_values(log_component_densities, name)
    if log_p.ndim < 1 or log_p.shape[-1] != weights.size:
        raise ValueError(
            f"{name} must have the components on its last axis ({weights.size}, one per weight), "
            f"got shape {log_p.shape}"
        )
    return log_p


@implements("14.2")
def log_joint(weights, log_component_densities):
    """ln p(x_n, z_nk = 1) = ln π_k + ln p(x_n | k), equation (14.2) in log space.

    With the 1-of-K coding, p(x, z) = Π_k {π_k p(x | k)}^{z_k}; the entry for z with z_k = 1 is
    π_k p(x | k).

    Parameters
    ----------
    weights : array-like of shape (n_components,)
        Mixing coefficients π_k = p(z_k = 1).
    log_component_densities : array-like of shape (..., n_components)
        ln p(x_n | k), e.g. from :func:`~prml14.committees.densities.gaussian_log_densities`.

    Returns
    -------
    ndarray of shape (..., n_components)
        ln π_k + ln p(x_n | k).

    Raises
    ------
    ValueError
        If weights is not a non-empty 1-D array of non-negative numbers summing to one, or
        log_component_densities is not a real array, holds NaN or +inf, or does not have one
        entry per weight on its last axis.
    """
    weights = check_simplex(weights)
    return log_or_minus_inf(weights) + _check_log_densities(log_component_densities, weights)


@implements("14.3")
def log_marginal(weights, log_component_densities):
    """ln p(x_n) = ln Σ_z p(x_n, z), equation (14.3), by log-sum-exp over the components.

    Parameters
    ----------
    weights : array-like of shape (n_components,)
        Mixing coefficients π_k: non-negative, summing to one.
    log_component_densities : array-like of shape (..., n_components)
        ln p(x_n | k), the components on the last axis.

    Returns
    -------
    ndarray of shape (...)
        ln p(x_n), one value per point.

    Raises
    ------
    ValueError
        If weights is not a non-empty 1-D array of non-negative numbers summing to one, or
        log_component_densities is not a real array, holds NaN or +inf, or does not have one
        entry per weight on its last axis.
    """
    return logsumexp(log_joint(weights, log_component_densities), axis=-1)


@implements("14.4")
def mixture_log_density(X, weights, means, scales, family="gaussian"):
    """ln p(x) = ln Σ_k π_k p(x | μ_k, Σ_k) for a Gaussian (14.4) or Cauchy mixture.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features) or (n_samples,)
        The points x_n.
    weights : array-like of shape (n_components,)
        Mixing coefficients π_k: non-negative, summing to one.
    means : array-like of shape (n_components, n_features) or (n_components,)
        The component means μ_k (locations, for a Cauchy family).
    scales : array-like of shape (n_components, n_features, n_features) or (n_components,)
        Covariances (Gaussian) or scale matrices (Cauchy).
    family : {"gaussian", "cauchy"}
        The family of the components.

    Returns
    -------
    ndarray of shape (n_samples,)
        ln p(x_n) at each point.

    Raises
    ------
    ValueError
        If weights is not a non-empty 1-D array of non-negative numbers summing to one; X, means
        or scales is empty, not a finite real array or not of the shape given above; X or means
        has entries beyond 1e150 in magnitude; a scale is not positive; or family is not
        "gaussian" or "cauchy".
    """
    return log_marginal(*_weights_and_log_densities(X, weights, means, scales, family))


@implements("14.4")
def mixture_density(X, weights, means, covariances):
    """The Gaussian mixture p(x) = Σ_k π_k N(x | μ_k, Σ_k), equation (14.4).

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features) or (n_samples,)
        The points x_n.
    weights : array-like of shape (n_components,)
        Mixing coefficients π_k: non-negative, summing to one.
    means : array-like of shape (n_components, n_features) or (n_components,)
        The component means μ_k (locations, for a Cauchy family).
    covariances : array-like of shape (n_components, n_features, n_features) or (n_components,)
        Full covariance matrices Σ_k, or one variance per component (Σ_k = σ_k² I).

    Returns
    -------
    ndarray of shape (n_samples,)
        p(x_n) at each point.

    Raises
    ------
    ValueError
        If weights is not a non-empty 1-D array of non-negative numbers summing to one; X, means
        or covariances is empty, not a finite real array or not of the shape given above; X or
        means has entries beyond 1e150 in magnitude; or a covariance is not positive.
    """
    weights, log_p = _weights_and_log_densities(
        X, weights, means, covariances, "gaussian", "covariances"
    )
    return np.exp(log_marginal(weights, log_p))


@implements("14.5")
def mixture_log_likelihood(weights, log_component_densities):
    """ln p(X) = Σ_n ln Σ_{z_n} p(x_n, z_n), equation (14.5): one latent z_n per point.

    Parameters
    ----------
    weights : array-like of shape (n_components,)
        Mixing coefficients π_k: non-negative, summing to one.
    log_component_densities : array-like of shape (n_samples, n_components)
        ln p(x_n | k), the components on the last axis.

    Returns
    -------
    float
        ln p(X), the sum over points of ln p(x_n).

    Raises
    ------
    ValueError
        If weights is not a non-empty 1-D array of non-negative numbers summing to one, or
        log_component_densities is not a real (n_samples, n_components) array with one column
        per weight, or holds NaN or +inf.
    """
    log_p = as_float(log_component_densities, "log_component_densities", allow_inf=True)
    if log_p.ndim != 2:
        raise ValueError(
            f"log_component_densities must have shape (n_samples, n_components), got {log_p.shape}"
        )
    return float(np.sum(log_marginal(weights, log_p)))


# ----------------------------------------------------------------------------- (14.6)
def log_model_evidence(X, weights, means, scales, family="gaussian"):
    """ln p(X | h) of one candidate mixture model h: equation (14.5) evaluated for model h.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features) or (n_samples,)
        As in :func:`mixture_log_density`.
    weights : array-like of shape (n_components,)
        As in :func:`mixture_log_density`.
    means : array-like of shape (n_components, n_features) or (n_components,)
        As in :func:`mixture_log_density`.
    scales : array-like of shape (n_components, n_features, n_features) or (n_components,)
        As in :func:`mixture_log_density`.
    family : {"gaussian", "cauchy"}, default="gaussian"
        As in :func:`mixture_log_density`.

    Returns
    -------
    float
        ln p(X | h).

    Raises
    ------
    ValueError
        As :func:`mixture_log_density`: if an argument is invalid as described there.
    """
    return mixture_log_likelihood(*_weights_and_log_densities(X, weights, means, scales, family))


def _check_prior(prior, n_models):
    if prior is None:
        return np.full(n_models, -np.log(n_models))
    prior = check_simplex(prior, n_models, name="prior")
    return log_or_minus_inf(prior)


def _check_evidences(log_evidences):
    log_evidences = _check_log_values(log_evidences, "log_evidences")
    if log_evidences.ndim < 1 or log_evidences.shape[-1] == 0:
        raise ValueError("log_evidences must have the H candidate models on its last axis")
    return log_evidences


def _check_point_densities(log_point_densities):
    log_p = _check_log_values(log_point_densities, "log_point_densities")
    if log_p.ndim != 2 or log_p.shape[1] == 0:
        raise ValueError(
            f"log_point_densities must have shape (n_samples, n_models), got {log_p.shape}"
        )
    return log_p


@implements("14.6")
def log_bma_marginal(log_evidences, prior=None):
    """ln p(X) = ln Σ_h p(X | h) p(h), equation (14.6), by log-sum-exp over the models.

    Parameters
    ----------
    log_evidences : array-like of shape (..., n_models)
        ln p(X | h) for each candidate model.
    prior : array-like of shape (n_models,), default=None
        p(h); uniform when None.

    Returns
    -------
    ndarray of shape (...)
        ln p(X) of the model average.

    Raises
    ------
    ValueError
        If log_evidences is not a real array or holds NaN or +inf, or prior is not a 1-D array of
        non-negative numbers summing to one with one entry per model.
    """
    log_evidences = _check_evidences(log_evidences)
    return logsumexp(log_evidences + _check_prior(prior, log_evidences.shape[-1]), axis=-1)


@implements("14.6")
def log_model_posterior(log_evidences, prior=None):
    """ln p(h | X) = ln p(X | h) + ln p(h) − ln p(X), with p(X) from (14.6).

    Parameters
    ----------
    log_evidences : array-like of shape (..., n_models)
        ln p(X | h) for each candidate model h, on the last axis.
    prior : array-like of shape (n_models,), default=None
        p(h); uniform when None.

    Returns
    -------
    ndarray of shape (..., n_models)
        Log posterior probabilities; ``exp`` of each row sums to one.

    Raises
    ------
    ValueError
        If log_evidences is not a real array or holds NaN or +inf, or prior is not a 1-D array of
        non-negative numbers summing to one with one entry per model.
    """
    log_evidences = _check_evidences(log_evidences)
    joint = log_evidences + _check_prior(prior, log_evidences.shape[-1])
    if np.any(np.all(joint == -np.inf, axis=-1)):
        raise ValueError(
            "log_evidences: p(X | h) p(h) is zero for every model h, so p(h | X) is undefined"
        )
    return joint - logsumexp(joint, axis=-1, keepdims=True)


def model_posterior_path(log_point_densities, prior=None):
    """ln p(h | x_1, ..., x_n) for n = 1, ..., N: the BMA posterior as the data arrive.

    ln p(x_1..x_n | h) is a cumulative sum of per-point log densities (i.i.d. data, (14.5));
    (14.6) then normalises over h. No product of densities is ever formed, so thousands of points
    do not underflow.

    Parameters
    ----------
    log_point_densities : array-like of shape (n_samples, n_models)
        ln p(x_n | h): column h is model h's log density at each point.
    prior : array-like of shape (n_models,), default=None
        The prior p(h) over the models; uniform when None.

    Returns
    -------
    ndarray of shape (n_samples, n_models)
        Row n − 1 holds ln p(h | x_1, ..., x_n) (−inf for a model whose prior is 0).

    Raises
    ------
    ValueError
        If log_point_densities is not a real (n_samples, n_models) array or holds NaN or +inf,
        or prior is not a 1-D array of non-negative numbers summing to one, one entry per model.
    """
    return log_model_posterior(
        np.cumsum(_check_point_densities(log_point_densities), axis=0), prior
    )


def combination_responsibilities(log_point_densities, weights):
    """p(h | x_n) under *model combination*: each point has its own latent choice of model.

    The models are treated as the components of one mixture with coefficients ``weights``,
    so these are the responsibilities of (14.2)-(14.3) applied to whole models.

    Parameters
    ----------
    log_point_densities : array-like of shape (n_samples, n_models)
        ln p(x_n | h): column h is model h's log density at each point.
    weights : array-like of shape (n_models,)
        Mixing coefficients π_k: non-negative, summing to one.

    Returns
    -------
    ndarray of shape (n_samples, n_models)
        Each row sums to one.

    Raises
    ------
    ValueError
        If ``log_point_densities`` is not a 2-D array with a column or more, or holds NaN or
        +inf (−inf, a zero density, is allowed); if ``weights`` is not non-negative, summing to
        one, with one entry per column.
    """
    log_p = _check_point_densities(log_point_densities)
    weights = check_simplex(weights)
    log_p = _check_log_densities(log_p, weights, "log_point_densities")
    return normalise_log(log_or_minus_inf(weights) + log_p)[0]


def fit_combination_weights(log_point_densities, *, max_iter=500, tol=1e-10, init=None):
    """Maximum-likelihood mixing coefficients of a combination of fixed models (EM).

    The models are the fixed components of one mixture: the E-step is
    :func:`combination_responsibilities`, p(h | x_n), and the M-step the mean responsibility
    (:func:`~prml14.mixtures.linear.mixing_coefficients`, the (14.38) of this mixture). They
    run on the package's one EM driver, so the log-likelihood (14.5) of the combination never
    decreases.

    Parameters
    ----------
    log_point_densities : array-like of shape (n_samples, n_models)
        ln p(x_n | h): column h is model h's log density at each point.
    max_iter : int, default=500
        Most EM iterations.
    tol : float, default=1e-10
        Stop when the log-likelihood per point changes by at most this.
    init : array-like of shape (n_models,), default=None
        Starting weights; uniform when None.

    Returns
    -------
    weights : ndarray of shape (n_models,)
        The fitted mixing coefficients.
    log_likelihoods : ndarray of shape (n_iter + 1,)
        The log-likelihood (14.5) at the starting weights and after every iteration; the last
        entry belongs to the returned weights.

    Raises
    ------
    TypeError
        If max_iter is not an integer or tol not a real number.
    ValueError
        If log_point_densities is not a real (n_samples, n_models) array with a row or more, or
        holds NaN or +inf; max_iter is below 1; tol is negative; or init is not a 1-D array of
        non-negative numbers summing to one, one entry per model.

    Warns
    -----
    ConvergenceWarning
        If ``max_iter`` iterations did not reach ``tol`` (attributed to the caller's line).
    """
    log_p = _check_point_densities(log_point_densities)
    if log_p.shape[0] == 0:
        raise ValueError("log_point_densities must have at least one row (point)")
    if np.any(np.all(log_p == -np.inf, axis=1)):
        raise ValueError(
            "log_point_densities: some point has zero density under every model (a row of -inf)"
        )
    check_scalar(max_iter, "max_iter", Integral, min_val=1)
    check_scalar(tol, "tol", Real, min_val=0)
    H = log_p.shape[1]
    start = np.full(H, 1.0 / H) if init is None else check_simplex(init, H, name="init")

    def e_step(weights):
        responsibilities, log_norm = normalise_log(log_joint(weights, log_p))
        return responsibilities, float(log_norm.sum())

    result = run_em(
        lambda random_state: start,
        e_step,
        lambda responsibilities, weights: mixing_coefficients(responsibilities),
        n_init=1,
        max_iter=max_iter,
        tol=tol,
        random_state=None,
        total_weight=log_p.shape[0],
        name="fit_combination_weights",
    )
    return result.params, result.log_likelihood_history


def bma_predictive_density(model_predictive_densities, log_posterior):
    """p(x | X) = Σ_h p(x | X, h) p(h | X): the BMA predictive density (also for p(t | x, X, T)).

    Parameters
    ----------
    model_predictive_densities : array-like of shape (..., n_models)
        Each model's own predictive density at the query points.
    log_posterior : array-like of shape (n_models,)
        ln p(h | X), e.g. from :func:`log_model_posterior`.

    Returns
    -------
    ndarray of shape (...)
        The BMA predictive density at each query point.

    Raises
    ------
    ValueError
        If model_predictive_densities is not a finite non-negative real array with one entry per
        model on its last axis, or exp(log_posterior) is not a 1-D array of non-negative numbers
        summing to one.
    """
    dens = as_float(model_predictive_densities, "model_predictive_densities")
    post = np.exp(as_float(log_posterior, "log_posterior", allow_inf=True))
    check_simplex(post, dens.shape[-1], name="exp(log_posterior)")
    if np.any(dens < 0):
        raise ValueError("model_predictive_densities must be non-negative")
    return dens @ post
