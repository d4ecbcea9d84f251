"""Mixtures of experts and hierarchical mixtures of experts (Section 14.5.3, equation (14.53)).

A mixture of experts is the conditional mixture (14.1) whose mixing coefficients are functions
of the input, the *gates* π_k(x) (a softmax of linear functions of x):

    p(t | x) = Σ_k π_k(x) p_k(t | x),                                         (14.53)

with linear-Gaussian experts p_k(t | x) = N(t | w_kᵀφ, β_k⁻¹) or logistic experts
p_k(t | x) = y_k^t (1 − y_k)^(1−t), y_k = σ(w_kᵀφ). A *hierarchical* mixture of experts (HME)
replaces the single gate by a tree of gates: the probability of a leaf (expert) is the product
of the gate probabilities on the path from the root, and (14.53) holds with these products as
the π_k(x).

EM (Jordan & Jacobs 1994): the E-step computes the posterior probability of every leaf given
(x_n, t_n) and the current parameters; the M-step fits each expert by weighted least squares or
weighted IRLS (weights: the leaf posteriors) and each gate by multinomial IRLS with *soft
targets*: the posterior probabilities of its children divided by that of the gate's node, with
the node's posterior as sample weight (:func:`prml14.irls.weighted_softmax_irls`).
"""

from __future__ import annotations

import warnings
from numbers import Integral, Real

import numpy as np
from sklearn.base import BaseEstimator, _fit_context
from sklearn.cluster import KMeans
from sklearn.exceptions import ConvergenceWarning
from sklearn.metrics import accuracy_score, r2_score
from sklearn.utils import ClassifierTags, RegressorTags, check_random_state
from sklearn.utils._available_if import available_if
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.validation import check_is_fitted, validate_data

from ._equations import implements
from ._numerics import DEAD_FRACTION, expit, log_softmax, normalise_log
from ._validation import binary_targets, fitted_binary_targets
from .conditional_mixture import (
    affine_features,
    conditional_mixture_density,
    log_conditional_mixture_density,
)
from .irls import weighted_logistic_irls, weighted_softmax_irls
from .mixtures import (
    linear_component_log_densities,
    logistic_component_log_probs,
    solve_normal_equations,
    weighted_normal_equations,
)

__all__ = [
    "mixture_of_experts_density",
    "log_mixture_of_experts_density",
    "hierarchical_log_gates",
    "expert_responsibilities",
    "gaussian_expert_log_density",
    "bernoulli_expert_log_density",
    "MixtureOfExperts",
    "HierarchicalMixtureOfExperts",
]


# ----------------------------------------------------------------------------- functional core


@implements("14.53")
def mixture_of_experts_density(gates, expert_densities):
    """The mixture of experts p(t | x) = Σ_k π_k(x) p_k(t | x), equation (14.53).

    Parameters
    ----------
    gates : array-like of shape (..., n_experts)
        Gating probabilities π_k(x): non-negative, summing to one over the last axis.
    expert_densities : array-like of shape (..., n_experts)
        p_k(t | x) at the same (x, t) pairs (densities for regression, probabilities of the
        observed class for classification).

    Returns
    -------
    ndarray of shape (...)
    """
    return conditional_mixture_density(gates, expert_densities)


@implements("14.53")
def log_mixture_of_experts_density(log_gates, log_expert_densities):
    """ln p(t | x) = ln Σ_k exp{ln π_k(x) + ln p_k(t | x)}, equation (14.53) in log space.

    Parameters
    ----------
    log_gates : array-like of shape (..., n_experts)
    log_expert_densities : array-like of shape (..., n_experts)

    Returns
    -------
    ndarray of shape (...)
    """
    return log_conditional_mixture_density(log_gates, log_expert_densities)


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
    """
    Phi_gate = np.asarray(Phi_gate, dtype=float)
    log_gates = np.zeros((Phi_gate.shape[0], 1))
    for level, V in enumerate(gate_coefs):
        V = np.asarray(V, dtype=float)
        if V.ndim != 3 or V.shape[0] != log_gates.shape[1] or V.shape[1] != Phi_gate.shape[1]:
            raise ValueError(
                f"gate_coefs[{level}] must have shape (n_nodes, n_basis, branching) = "
                f"({log_gates.shape[1]}, {Phi_gate.shape[1]}, B), got {V.shape}"
            )
        activations = np.einsum("nm,jmc->njc", Phi_gate, V)
        log_gates = (log_gates[:, :, None] + log_softmax(activations, axis=2)).reshape(
            len(Phi_gate), -1
        )
    return log_gates


def expert_responsibilities(log_gates, log_expert_densities):
    """Posterior probability of each expert given (x_n, t_n): the E-step of Section 14.5.3.

    γ_nk = π_k(x_n) p_k(t_n | x_n) / Σ_j π_j(x_n) p_j(t_n | x_n), computed in log space.

    Parameters
    ----------
    log_gates : array-like of shape (n_samples, n_experts)
        ln π_k(x_n).
    log_expert_densities : array-like of shape (n_samples, n_experts)
        ln p_k(t_n | x_n).

    Returns
    -------
    responsibilities : ndarray of shape (n_samples, n_experts)
    log_likelihood : ndarray of shape (n_samples,)
        ln p(t_n | x_n), the log of (14.53) at each sample.
    """
    log_gates = np.asarray(log_gates, dtype=float)
    log_expert_densities = np.asarray(log_expert_densities, dtype=float)
    if log_gates.ndim != 2 or log_expert_densities.shape != log_gates.shape:
        raise ValueError(
            "log_gates and log_expert_densities must both have shape (n_samples, n_experts), got "
            f"{log_gates.shape} and {log_expert_densities.shape}"
        )
    return normalise_log(log_gates + log_expert_densities)


def gaussian_expert_log_density(Phi, t, coef, precision):
    """ln N(t_n | w_kᵀφ_n, β_k⁻¹) for every sample n and expert k (β is a *precision*).

    :func:`prml14.mixtures.linear_component_log_densities` with one precision per expert.

    Parameters
    ----------
    Phi : ndarray of shape (n_samples, n_basis)
    t : ndarray of shape (n_samples,) or (n_samples, 1)
    coef : ndarray of shape (n_experts, n_basis)
    precision : float or ndarray of shape (n_experts,)

    Returns
    -------
    ndarray of shape (n_samples, n_experts)
    """
    precision = np.broadcast_to(np.asarray(precision, dtype=float), (coef.shape[0],))
    return linear_component_log_densities(Phi, np.ravel(t), coef, precision)


def bernoulli_expert_log_density(Phi, t, coef):
    """ln{y_nk^t_n (1 − y_nk)^(1 − t_n)} with y_nk = σ(w_kᵀφ_n), for t_n ∈ {0, 1}, computed stably.

    Same as :func:`prml14.mixtures.logistic_component_log_probs` (one expert per row of ``coef``).

    Returns
    -------
    ndarray of shape (n_samples, n_experts)
    """
    return logistic_component_log_probs(Phi, np.ravel(t), coef)


# ----------------------------------------------------------------------------- estimators


def _is_logistic(estimator):
    return estimator.expert == "logistic"


class _GatedExperts(BaseEstimator):
    """EM for a tree of softmax gates over linear or logistic experts (shared by both classes)."""

    _parameter_constraints: dict = {
        "expert": [StrOptions({"linear", "logistic"})],
        "precision": [StrOptions({"per_expert", "shared"})],
        "gating": [StrOptions({"softmax", "constant"})],
        "max_iter": [Interval(Integral, 1, None, closed="left")],
        "tol": [Interval(Real, 0, None, closed="left")],
        "n_init": [Interval(Integral, 1, None, closed="left")],
        "init": [StrOptions({"kmeans", "random"})],
        "gate_l2": [Interval(Real, 0, None, closed="left")],
        "expert_l2": [Interval(Real, 0, None, closed="left")],
        "inner_max_iter": [Interval(Integral, 1, None, closed="left")],
        "random_state": ["random_state"],
    }

    # Floor on each expert's variance 1/β_k, relative to the variance of the targets: with a
    # precision per expert the likelihood is unbounded (an expert through a few points).
    _VARIANCE_FLOOR = 1e-6

    def _tree(self):  # (branching, depth); overridden
        raise NotImplementedError

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        if self.expert == "logistic":
            tags.estimator_type = "classifier"
            tags.classifier_tags = ClassifierTags(multi_class=False)
            tags.regressor_tags = None
        else:
            tags.estimator_type = "regressor"
            tags.regressor_tags = RegressorTags()
            tags.classifier_tags = None
        return tags

    # -- data ------------------------------------------------------------------------------

    def _gate_basis(self, X):
        return affine_features(X) if self.gating == "softmax" else np.ones((X.shape[0], 1))

    def _encode_targets(self, y):
        if self.expert == "linear":
            return np.asarray(y, dtype=float)
        self.classes_, t = binary_targets(y)
        return 0.5 * (t + 1.0)  # {−1, +1} -> {0, 1}

    def _targets_for_scoring(self, y):
        if self.expert == "linear":
            return np.asarray(y, dtype=float)
        return fitted_binary_targets(y, self.classes_)

    # -- model pieces -----------------------------------------------------------------------

    def _log_expert_densities(self, Phi, t, coef, precision):
        if self.expert == "linear":
            return gaussian_expert_log_density(Phi, t, coef, precision)
        return bernoulli_expert_log_density(Phi, t, coef)

    def _penalty(self, gate_coefs, coef):
        gate = (
            sum(np.sum(V[:, 1:, 1:] ** 2) for V in gate_coefs) if self.gating == "softmax" else 0.0
        )
        expert = np.sum(coef[:, 1:] ** 2) if self.expert == "linear" else np.sum(coef**2)
        return 0.5 * self.gate_l2 * gate + 0.5 * self.expert_l2 * expert

    def _e_step(self, Phi, Phi_gate, t, params):
        gate_coefs, coef, precision = params
        log_gates = hierarchical_log_gates(Phi_gate, gate_coefs)
        R, log_lik = expert_responsibilities(
            log_gates, self._log_expert_densities(Phi, t, coef, precision)
        )
        return R, float(log_lik.sum())

    def _m_step_experts(self, Phi, t, R, coef, precision, variance_floor):
        m = Phi.shape[1]
        coef, precision = coef.copy(), np.array(precision, dtype=float, copy=True)
        totals = R.sum(axis=0)
        alive = totals > DEAD_FRACTION * len(
            t
        )  # an expert with no responsibility keeps its parameters
        if self.expert == "linear":
            # Weighted normal equations for all experts at once (batched, never diag(γ_k), N×N),
            # plus the ridge scaled by 1/β_k so that each step maximises the penalised Q.
            ridge = np.ones(m)
            ridge[0] = 0.0
            A, b = weighted_normal_equations(Phi, t, R)
            A += (self.expert_l2 / precision)[:, None, None] * np.diag(ridge)
            coef[alive] = solve_normal_equations(A[alive], b[alive])
            sq = R * (t[:, None] - Phi @ coef.T) ** 2
            if self.precision == "shared":
                variance = max(sq.sum() / R.sum(), variance_floor)
                precision[:] = 1.0 / variance
            else:
                variance = np.maximum(sq.sum(axis=0)[alive] / totals[alive], variance_floor)
                precision[alive] = 1.0 / variance
        else:
            for k in np.flatnonzero(alive):  # loop over experts, not samples
                coef[k] = weighted_logistic_irls(
                    Phi, t, R[:, k], coef[k], l2=self.expert_l2, max_iter=self.inner_max_iter
                )[0]
        return coef, precision

    def _m_step_gates(self, Phi_gate, R, gate_coefs):
        branching, depth = self._tree()
        n, new_coefs = R.shape[0], []
        for level, V in enumerate(gate_coefs):
            # posterior of each node at this level and of each of its children
            node = R.reshape(n, branching**level, -1).sum(axis=2)
            child = R.reshape(n, branching**level, branching, -1).sum(axis=3)
            V_new = V.copy()
            for j in range(branching**level):  # loop over gating nodes, not samples
                weights = node[:, j]
                if weights.sum() <= DEAD_FRACTION * n:
                    continue  # nobody reaches this node: keep its gate
                safe = np.where(weights > 0, weights, 1.0)[:, None]
                T = np.where(weights[:, None] > 0, child[:, j, :] / safe, 1.0 / branching)
                T /= T.sum(axis=1, keepdims=True)
                V_new[j] = weighted_softmax_irls(
                    Phi_gate,
                    T,
                    weights,
                    V[j],
                    l2=self.gate_l2,
                    max_iter=self.inner_max_iter,
                    tol=1e-10,
                )[0]
            new_coefs.append(V_new)
        return new_coefs

    def _initial_responsibilities(self, X, t, rng):
        n, n_leaves = len(t), self._tree()[0] ** self._tree()[1]
        if self.init == "random":
            return rng.dirichlet(np.ones(n_leaves), size=n)
        # Logistic experts: cluster the inputs only. With a class label among the coordinates
        # k-means splits by class, and an expert that starts with one class cannot learn a boundary.
        Z = X if self.expert == "logistic" else np.column_stack([X, t])
        scale = Z.std(axis=0)
        Z = (Z - Z.mean(axis=0)) / np.where(scale > 0, scale, 1.0)
        # Top-down k-means: split the data into `branching` clusters, then split each cluster
        # again, level by level, so that sibling leaves start on neighbouring data (a gate can
        # only separate its children from each other, not interleave them).
        branching, depth = self._tree()
        labels = np.zeros(n, dtype=int)
        for _ in range(depth):
            new_labels = labels * branching + rng.randint(branching, size=n)
            for node in np.unique(labels):  # loop over tree nodes, not samples
                members = np.flatnonzero(labels == node)
                if len(members) >= branching:
                    km = KMeans(branching, n_init=1, random_state=rng.randint(2**31 - 1)).fit(
                        Z[members]
                    )
                    new_labels[members] = node * branching + km.labels_
            labels = new_labels
        R = np.full((n, n_leaves), 1e-3)
        R[np.arange(n), labels] = 1.0
        return R / R.sum(axis=1, keepdims=True)

    def _initial_params(self, Phi, Phi_gate, t, R, variance_floor):
        branching, depth = self._tree()
        n_leaves, m = R.shape[1], Phi.shape[1]
        gate_coefs = [np.zeros((branching**d, Phi_gate.shape[1], branching)) for d in range(depth)]
        coef = np.zeros((n_leaves, m))
        precision = np.full(n_leaves, 1.0 / max(np.var(t), variance_floor))
        coef, precision = self._m_step_experts(Phi, t, R, coef, precision, variance_floor)
        gate_coefs = self._m_step_gates(Phi_gate, R, gate_coefs)
        return gate_coefs, coef, precision

    def _run_em(self, X, Phi, Phi_gate, t, rng, variance_floor):
        R0 = self._initial_responsibilities(X, t, rng)
        params = self._initial_params(Phi, Phi_gate, t, R0, variance_floor)
        R, log_lik = self._e_step(Phi, Phi_gate, t, params)
        lik_history = [log_lik]
        obj_history = [log_lik - self._penalty(params[0], params[1])]
        converged, n_iter = False, 0
        for n_iter in range(1, self.max_iter + 1):
            gate_coefs, coef, precision = params
            coef, precision = self._m_step_experts(Phi, t, R, coef, precision, variance_floor)
            gate_coefs = self._m_step_gates(Phi_gate, R, gate_coefs)
            params = (gate_coefs, coef, precision)
            R, log_lik = self._e_step(Phi, Phi_gate, t, params)
            lik_history.append(log_lik)
            obj_history.append(log_lik - self._penalty(gate_coefs, coef))
            if abs(obj_history[-1] - obj_history[-2]) <= self.tol * len(t):
                converged = True
                break
        return params, R, np.array(lik_history), np.array(obj_history), n_iter, converged

    def _fit(self, X, y):
        X, y = validate_data(self, X, y, y_numeric=self.expert == "linear", ensure_min_samples=2)
        t = self._encode_targets(y)
        branching, depth = self._tree()
        n_leaves = branching**depth
        if n_leaves > X.shape[0]:
            size = (
                "n_components"
                if depth == 1 and isinstance(self, MixtureOfExperts)
                else "branching**n_levels"
            )
            raise ValueError(
                f"{size}={n_leaves} experts must be <= n_samples={X.shape[0]}; each expert needs at "
                "least one data point"
            )
        Phi, Phi_gate = affine_features(X), self._gate_basis(X)
        variance_floor = self._VARIANCE_FLOOR * max(float(np.var(t)), 1e-12)
        rng = check_random_state(self.random_state)
        best = None
        for _ in range(self.n_init):
            run = self._run_em(X, Phi, Phi_gate, t, rng, variance_floor)
            if best is None or run[3][-1] > best[3][-1]:
                best = run
        params, R, lik_history, obj_history, n_iter, converged = best
        if not converged:
            warnings.warn(
                f"EM did not converge in max_iter={self.max_iter} iterations (change of the "
                f"objective per sample above tol={self.tol}); increase max_iter or tol.",
                ConvergenceWarning,
                stacklevel=4,  # _fit <- fit <- sklearn's _fit_context wrapper <- the caller
            )
        self.gate_coefs_, self.coef_, precision = params
        # drop what an earlier fit with the other kind of expert left: it would describe another model
        stale = "classes_" if self.expert == "linear" else "precision_"
        if hasattr(self, stale):
            delattr(self, stale)
        if self.expert == "linear":
            self.precision_ = precision
        self.responsibilities_ = R
        self.log_likelihood_history_ = lik_history
        self.objective_history_ = obj_history
        self.n_iter_ = n_iter
        self.converged_ = converged
        return self

    # -- prediction -------------------------------------------------------------------------

    def _check_X(self, X):
        check_is_fitted(self)
        return validate_data(self, X, reset=False)

    def predict_gates(self, X):
        """Gating probabilities π_k(x) of every expert (leaf); rows sum to one.

        Returns
        -------
        ndarray of shape (n_samples, n_experts)
        """
        X = self._check_X(X)
        return np.exp(hierarchical_log_gates(self._gate_basis(X), self.gate_coefs_))

    def predict_experts(self, X):
        """Each expert's own prediction: its mean w_kᵀφ (linear) or P(class 1) = σ(w_kᵀφ) (logistic).

        Returns
        -------
        ndarray of shape (n_samples, n_experts)
        """
        X = self._check_X(X)
        a = affine_features(X) @ self.coef_.T
        return a if self.expert == "linear" else expit(a)

    def _log_density(self, X, y):
        X = self._check_X(X)
        t = self._targets_for_scoring(y)
        if t.shape != (X.shape[0],):
            raise ValueError(f"y must have shape (n_samples,) = ({X.shape[0]},), got {t.shape}")
        if not np.all(np.isfinite(t)):
            raise ValueError("y must contain only finite values (no NaN or inf)")
        log_gates = hierarchical_log_gates(self._gate_basis(X), self.gate_coefs_)
        precision = getattr(self, "precision_", None)
        return log_gates, self._log_expert_densities(affine_features(X), t, self.coef_, precision)

    def predict_density(self, X, y):
        """p(t | x) of equation (14.53) at each pair (x_n, t_n).

        For logistic experts this is the probability of the observed class.

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        log_gates, log_dens = self._log_density(X, y)
        return np.exp(log_mixture_of_experts_density(log_gates, log_dens))

    def log_likelihood(self, X, y):
        """Σ_n ln p(t_n | x_n) under (14.53) (not penalised).

        Returns
        -------
        float
        """
        log_gates, log_dens = self._log_density(X, y)
        return float(np.sum(log_mixture_of_experts_density(log_gates, log_dens)))

    def responsibilities(self, X, y):
        """Posterior probability of each expert given (x_n, t_n) (the E-step).

        Returns
        -------
        ndarray of shape (n_samples, n_experts)
        """
        return expert_responsibilities(*self._log_density(X, y))[0]

    def predict(self, X):
        """Linear experts: the conditional mean Σ_k π_k(x) w_kᵀφ. Logistic: the most probable class."""
        gates, experts = self.predict_gates(X), self.predict_experts(X)
        mixed = np.sum(gates * experts, axis=1)
        if self.expert == "linear":
            return mixed
        return self.classes_[(mixed > 0.5).astype(int)]

    @available_if(_is_logistic)
    def predict_proba(self, X):
        """Class probabilities [P(classes_[0] | x), P(classes_[1] | x)] (logistic experts only).

        P(classes_[1] | x) = Σ_k π_k(x) σ(w_kᵀφ), equation (14.53) with Bernoulli experts.
        """
        p1 = np.sum(self.predict_gates(X) * self.predict_experts(X), axis=1)
        p1 = np.clip(p1, 0.0, 1.0)  # gates summing to 1 + 2⁻⁵² would give 1 − p1 < 0
        return np.column_stack([1.0 - p1, p1])

    def score(self, X, y):
        """R² of :meth:`predict` (linear experts) or accuracy (logistic experts), as in scikit-learn.

        Use :meth:`log_likelihood` for the fit of the whole predictive density.
        """
        if self.expert == "linear":
            return r2_score(y, self.predict(X))
        return accuracy_score(y, self.predict(X))


@implements("14.53")
class MixtureOfExperts(_GatedExperts):
    """Mixture of experts p(t | x) = Σ_k π_k(x) p_k(t | x) fitted by EM, equation (14.53).

    The gates are a softmax of linear functions of x, π_k(x) = softmax(Vᵀ(1, x))_k, with expert 0
    as reference (its column of V is zero). Each EM iteration: E-step, responsibilities
    γ_nk ∝ π_k(x_n) p_k(t_n | x_n); M-step, each expert by weighted least squares (linear) or
    weighted IRLS (logistic) with weights γ_nk (n = 1, …, N), then the gates by multinomial IRLS with the
    responsibilities as soft targets (Jordan & Jacobs 1994). The inner Newton loops are capped at
    ``inner_max_iter`` steps and never decrease their objective, so this is a generalised EM:
    the (penalised) log-likelihood never decreases.

    Parameters
    ----------
    n_components : int, default=2
        Number of experts K.
    expert : {"linear", "logistic"}, default="linear"
        Linear-Gaussian experts N(t | w_kᵀφ, β_k⁻¹) (regression) or logistic experts
        (binary classification; any two labels).
    precision : {"per_expert", "shared"}, default="per_expert"
        Linear experts: one noise precision β_k per expert, or one β shared by all (as in the
        mixture of linear regressions (14.44)). Variances are floored at 1e-6 × var(t), which
        keeps the likelihood bounded when an expert fits a handful of points exactly.
    gating : {"softmax", "constant"}, default="softmax"
        ``"constant"`` gates ignore x (a plain mixture with mixing coefficients π_k, as in
        Section 14.5.1); useful for comparison.
    max_iter : int, default=200
        Maximum number of EM iterations.
    tol : float, default=1e-6
        EM stops when the penalised log-likelihood changes by at most ``tol`` per sample.
    n_init : int, default=1
        Number of initialisations; the run with the highest final objective is kept.
    init : {"kmeans", "random"}, default="kmeans"
        Initial responsibilities: k-means on the standardised pairs (x, t) for linear experts,
        on the standardised inputs x alone for logistic experts (clustering on the class label
        would give each expert a single class) (hard, slightly smoothed; for a hierarchy,
        top-down: each node's data split again by k-means, so that sibling leaves start on
        neighbouring data) or Dirichlet(1) draws.
    gate_l2 : float, default=1e-4
        Ridge penalty on the gate weights (not the biases). Keeps them finite when the
        responsibilities separate the inputs perfectly.
    expert_l2 : float, default=1e-6
        Ridge penalty on expert weights (linear: not the bias; logistic: all, as in
        :func:`prml14.irls.weighted_logistic_irls`).
    inner_max_iter : int, default=10
        Newton steps per M-step for the gates and logistic experts.
    random_state : int, RandomState instance or None, default=None

    Attributes
    ----------
    gate_coef_ : ndarray of shape (n_basis_gate, n_components)
        V (column 0 is zero); n_basis_gate is n_features + 1 (or 1 with constant gates).
    gate_coefs_ : list of one ndarray of shape (1, n_basis_gate, n_components)
        The same, in the layout of :class:`HierarchicalMixtureOfExperts`.
    coef_ : ndarray of shape (n_components, n_features + 1)
        Expert weights w_k (column 0: bias).
    precision_ : ndarray of shape (n_components,)
        β_k (linear experts only; all equal with ``precision="shared"``).
    classes_ : ndarray of shape (2,)
        Labels (logistic experts only); classes_[1] is coded t = 1.
    responsibilities_ : ndarray of shape (n_samples, n_components)
        γ_nk at the end of training.
    log_likelihood_history_ : ndarray of length ``n_iter_ + 1``
        ln p(t | X) after the initial M-step and after each EM iteration.
    objective_history_ : ndarray of length ``n_iter_ + 1``
        The same minus the ridge penalties: the quantity EM never decreases.
    n_iter_ : int
    converged_ : bool
    n_features_in_ : int
    """

    _parameter_constraints: dict = {
        **_GatedExperts._parameter_constraints,
        "n_components": [Interval(Integral, 1, None, closed="left")],
    }

    def __init__(
        self,
        n_components=2,
        *,
        expert="linear",
        precision="per_expert",
        gating="softmax",
        max_iter=200,
        tol=1e-6,
        n_init=1,
        init="kmeans",
        gate_l2=1e-4,
        expert_l2=1e-6,
        inner_max_iter=10,
        random_state=None,
    ):
        self.n_components = n_components
        self.expert = expert
        self.precision = precision
        self.gating = gating
        self.max_iter = max_iter
        self.tol = tol
        self.n_init = n_init
        self.init = init
        self.gate_l2 = gate_l2
        self.expert_l2 = expert_l2
        self.inner_max_iter = inner_max_iter
        self.random_state = random_state

    def _tree(self):
        return self.n_components, 1

    def _m_step_gates(self, Phi_gate, R, gate_coefs):
        if self.n_components == 1:
            return gate_coefs
        return super()._m_step_gates(Phi_gate, R, gate_coefs)

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        """Fit by EM.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
            Real targets (linear experts) or two class labels (logistic experts).

        Returns
        -------
        self
        """
        self._fit(X, y)
        self.gate_coef_ = self.gate_coefs_[0][0]
        return self


@implements("14.53")
class HierarchicalMixtureOfExperts(_GatedExperts):
    """Hierarchical mixture of experts: a tree of softmax gates over linear or logistic experts.

    A tree with ``n_levels`` levels of gates and ``branching`` children per gate has
    branching**n_levels experts at its leaves. The gate of a leaf is the product of the gate
    probabilities along its path, π_leaf(x) = Π_levels π_{child | node}(x), and the predictive
    distribution is (14.53) with these products (Jordan & Jacobs 1994). EM: the E-step gives each
    leaf's posterior h_leaf; a node's posterior h_node is the sum over the leaves below it. The
    M-step fits experts as in :class:`MixtureOfExperts` and each gate by multinomial IRLS with
    soft targets h_child / h_node and sample weights h_node, which maximises
    Σ_n Σ_child h_child ln π_{child|node}(x_n), the gate's part of Q. With one level this is
    exactly :class:`MixtureOfExperts`.

    Parameters
    ----------
    branching : int, default=2
        Children per gating node (≥ 2).
    n_levels : int, default=2
        Levels of gates (≥ 1).
    expert, precision, gating, max_iter, tol, n_init, init, gate_l2, expert_l2, inner_max_iter, random_state
        As in :class:`MixtureOfExperts`.

    Attributes
    ----------
    gate_coefs_ : list of ndarray
        Level d: shape (branching**d, n_basis_gate, branching); node j's children are the nodes
        j·branching + c of the next level (or leaves).
    coef_ : ndarray of shape (n_experts, n_features + 1)
    precision_, classes_, responsibilities_, log_likelihood_history_, objective_history_, n_iter_, converged_, n_features_in_
        As in :class:`MixtureOfExperts` (responsibilities are those of the leaves).
    """

    _parameter_constraints: dict = {
        **_GatedExperts._parameter_constraints,
        "branching": [Interval(Integral, 2, None, closed="left")],
        "n_levels": [Interval(Integral, 1, None, closed="left")],
    }

    def __init__(
        self,
        branching=2,
        n_levels=2,
        *,
        expert="linear",
        precision="per_expert",
        gating="softmax",
        max_iter=200,
        tol=1e-6,
        n_init=1,
        init="kmeans",
        gate_l2=1e-4,
        expert_l2=1e-6,
        inner_max_iter=10,
        random_state=None,
    ):
        self.branching = branching
        self.n_levels = n_levels
        self.expert = expert
        self.precision = precision
        self.gating = gating
        self.max_iter = max_iter
        self.tol = tol
        self.n_init = n_init
        self.init = init
        self.gate_l2 = gate_l2
        self.expert_l2 = expert_l2
        self.inner_max_iter = inner_max_iter
        self.random_state = random_state

    def _tree(self):
        return self.branching, self.n_levels

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        """Fit by EM over the tree of gates.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)

        Returns
        -------
        self
        """
        return self._fit(X, y)
