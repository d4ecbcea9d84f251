"""The machinery shared by the mixtures of experts (private): gates, EM, roles, shapes.

``BaseGatedExperts`` fits a tree of softmax gates over experts by EM through
:func:`prml14._em.run_em`, each step a function of :mod:`prml14.mixtures.experts`, and predicts
with the fitted gates. A *role* supplies the experts: ``LinearExpertsMixin`` (linear-Gaussian,
regression) or ``LogisticExpertsMixin`` (logistic, two classes): their log-density, M-step, penalty
and predictions. A *shape* supplies the size of the tree: ``OneGateMixin`` (a mixture of experts)
or ``TreeOfGatesMixin`` (a hierarchical mixture). The public estimators in
:mod:`prml14.mixtures.expert_estimators` combine one of each, in the manner of scikit-learn's
``sklearn/mixture/_base.py``.
"""

from __future__ import annotations

from numbers import Integral, Real

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin, _fit_context
from sklearn.cluster import KMeans
from sklearn.utils import check_random_state
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.validation import (
    check_array,
    check_is_fitted,
    validate_data,
)

from .._em import run_em
from .._numerics import expit
from .._validation import (
    binary_targets,
    check_magnitude,
    check_sample_weight,
    fitted_binary_targets,
)
from .conditional_mixture import affine_features
from .experts import (
    bernoulli_expert_log_density,
    expert_responsibilities,
    gaussian_expert_log_density,
    hierarchical_gates_m_step,
    hierarchical_log_gates,
    linear_experts_m_step,
    log_mixture_of_experts_density,
    logistic_experts_m_step,
)

__all__ = [
    "BaseGatedExperts",
    "LinearExpertsMixin",
    "LogisticExpertsMixin",
    "OneGateMixin",
    "TreeOfGatesMixin",
]

NON_NEGATIVE = Interval(Real, 0, None, closed="left")
POSITIVE_INT = Interval(Integral, 1, None, closed="left")


class BaseGatedExperts(BaseEstimator):
    """EM for a tree of softmax gates over experts; a role and a shape below fill in the rest."""

    _parameter_constraints: dict = {
        "gating": [StrOptions({"softmax", "constant"})],
        "max_iter": [POSITIVE_INT],
        "tol": [NON_NEGATIVE],
        "n_init": [POSITIVE_INT],
        "init": [StrOptions({"kmeans", "random"}), "array-like"],
        "gate_l2": [NON_NEGATIVE],
        "expert_l2": [NON_NEGATIVE],
        "inner_max_iter": [POSITIVE_INT],
        "random_state": ["random_state"],
    }

    def _gate_basis(self, X):
        return affine_features(X) if self.gating == "softmax" else np.ones((X.shape[0], 1))

    def _penalty(self, params):
        """The ridge penalties: the objective EM maximises is the log-likelihood minus this."""
        gates = params["gate_coefs"]
        gate = sum(np.sum(V[:, 1:, 1:] ** 2) for V in gates) if self.gating == "softmax" else 0.0
        return 0.5 * self.gate_l2 * gate + 0.5 * self.expert_l2 * self._expert_penalty(params)

    def _initial_responsibilities(self, X, t, sample_weight, rng):
        branching, depth = self._tree()
        n, n_leaves = X.shape[0], branching**depth
        if not isinstance(self.init, str):
            R = check_array(self.init, input_name="init")
            if R.shape != (n, n_leaves) or np.any(R < 0) or not np.all(R.sum(axis=1) > 0):
                raise ValueError(
                    "init must be 'kmeans', 'random' or responsibilities: non-negative, of shape "
                    f"(n_samples, n_experts) = ({n}, {n_leaves}), no row of zeros; got shape "
                    f"{R.shape}"
                )
            return R / R.sum(axis=1, keepdims=True)
        if self.init == "random":
            return rng.dirichlet(np.ones(n_leaves), size=n)
        Z = self._clustering_features(X, t)
        mean = np.average(Z, axis=0, weights=sample_weight)
        scale = np.sqrt(np.average((Z - mean) ** 2, axis=0, weights=sample_weight))
        Z = (Z - mean) / np.where(scale > 0, scale, 1.0)
        # Top-down k-means: split the data into `branching` clusters, then split each cluster
        # again, level by level, so that sibling leaves start on neighbouring data (a gate can
        # only separate its children from each other, not interleave them).
        weights = np.ones(n) if sample_weight is None else sample_weight
        labels = np.zeros(n, dtype=int)
        for _ in range(depth):
            new_labels = labels * branching + rng.randint(branching, size=n)
            for node in np.unique(labels):  # loop over tree nodes, not samples
                members = np.flatnonzero(labels == node)
                if np.count_nonzero(weights[members]) >= branching:
                    km = KMeans(branching, n_init=1, random_state=rng.randint(2**31 - 1))
                    km.fit(Z[members], sample_weight=weights[members])
                    new_labels[members] = node * branching + km.labels_
            labels = new_labels
        R = np.full((n, n_leaves), 1e-3)
        R[np.arange(n), labels] = 1.0
        return R / R.sum(axis=1, keepdims=True)

    def _m_step(self, R, params, Phi, Phi_gate, t, sample_weight, fixed):
        experts = self._m_step_experts(Phi, t, R, params, sample_weight, fixed)
        gate_coefs = hierarchical_gates_m_step(
            Phi_gate,
            R,
            params["gate_coefs"],
            sample_weight=sample_weight,
            l2=self.gate_l2,
            max_iter=self.inner_max_iter,
        )
        return {"gate_coefs": gate_coefs, **experts}

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y, sample_weight=None):
        """Fit by EM: the gates and the experts, from ``n_init`` starts.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Inputs.
        y : array-like of shape (n_samples,)
            Real targets (regressors) or two class labels (classifiers).
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative weights s_n: each multiplies its point's term of the log-likelihood
            and its responsibilities in both M-steps (an integer weight counts the point that
            many times; a zero weight removes it). Ones if None.

        Returns
        -------
        self
            The fitted estimator.

        Raises
        ------
        ValueError
            If X is empty, not 2-D, not numeric, complex, or holds NaN or ±inf, has fewer than two
            samples or entries beyond 1e150 in magnitude; y (a classifier's) does not have exactly
            two classes, or (a regressor's) holds NaN or ±inf or exceeds 1e150 in magnitude;
            sample_weight is negative, NaN, all zero, beyond 1e100 in magnitude or not one per
            sample; init is an array that is not 2-D; or a hyper-parameter is outside its declared
            constraints (scikit-learn's InvalidParameterError, which is also a TypeError).
        """
        X, y = validate_data(self, X, y, ensure_min_samples=2, y_numeric=self._y_numeric)
        check_magnitude(X, "X")
        if self._y_numeric:
            check_magnitude(y, "y")
        t = self._encode_targets(y)
        branching, depth = self._tree()
        if branching**depth > X.shape[0]:
            raise ValueError(
                f"{self._size_name}={branching**depth} experts must be <= n_samples="
                f"{X.shape[0]}; each expert needs at least one data point"
            )
        sw = None
        if sample_weight is not None:
            sw = check_sample_weight(sample_weight, X)
        Phi, Phi_gate = affine_features(X), self._gate_basis(X)
        fixed = self._fixed_settings(t, sw)
        gates = [np.zeros((branching**d, Phi_gate.shape[1], branching)) for d in range(depth)]
        start = {"gate_coefs": gates, **self._zero_experts(branching**depth, Phi.shape[1], fixed)}

        def m_step(R, params):
            return self._m_step(R, params, Phi, Phi_gate, t, sw, fixed)

        def initialise(rng):  # an M-step on the initial responsibilities
            return m_step(self._initial_responsibilities(X, t, sw, rng), start)

        def e_step(params):
            log_gates = hierarchical_log_gates(Phi_gate, params["gate_coefs"])
            R, log_lik = expert_responsibilities(log_gates, self._log_experts(Phi, t, params))
            return R, float(log_lik.sum() if sw is None else log_lik @ sw)

        result = run_em(
            initialise,
            e_step,
            m_step,
            n_init=self.n_init if isinstance(self.init, str) else 1,
            max_iter=self.max_iter,
            tol=self.tol,
            random_state=check_random_state(self.random_state),
            total_weight=float(X.shape[0]) if sw is None else float(sw.sum()),
            penalty=self._penalty,
            name=type(self).__name__,
        )
        for name, value in result.params.items():
            setattr(self, f"{name}_", value)
        if self._single_gate:
            self.gate_coef_ = self.gate_coefs_[0][0]
        self.responsibilities_ = result.responsibilities
        self.log_likelihood_history_ = result.log_likelihood_history
        self.objective_history_ = result.objective_history
        self.lower_bound_ = result.lower_bound
        self.n_iter_ = result.n_iter
        self.converged_ = result.converged
        return self

    # -- prediction ---------------------------------------------------------------------------

    def _check_X(self, X):
        check_is_fitted(self)
        return validate_data(self, X, reset=False)

    def predict_gates(self, X):
        """Gating probabilities π_k(x) of every expert (leaf); rows sum to one.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Inputs.

        Returns
        -------
        ndarray of shape (n_samples, n_experts)
            π_k(x_n), the product of the gate probabilities along the path to leaf k.
        """
        X = self._check_X(X)
        return np.exp(hierarchical_log_gates(self._gate_basis(X), self.gate_coefs_))

    def _log_density(self, X, y):
        X = self._check_X(X)
        t = self._scoring_targets(y)
        if t.shape != (X.shape[0],):
            raise ValueError(f"y must have shape (n_samples,) = ({X.shape[0]},), got {t.shape}")
        if not np.all(np.isfinite(t)):
            raise ValueError("y must contain only finite values (no NaN or inf)")
        log_gates = hierarchical_log_gates(self._gate_basis(X), self.gate_coefs_)
        fitted = {name: getattr(self, f"{name}_") for name in self._expert_params}
        return log_gates, self._log_experts(affine_features(X), t, fitted)

    def predict_density(self, X, y):
        """p(t | x) of equation (14.53) at each pair (x_n, t_n).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Inputs.
        y : array-like of shape (n_samples,)
            Targets (regressors) or class labels (classifiers).

        Returns
        -------
        ndarray of shape (n_samples,)
            The density at t_n (regressors) or the probability of the label y_n (classifiers).
        """
        return np.exp(log_mixture_of_experts_density(*self._log_density(X, y)))

    def log_likelihood(self, X, y):
        """Σ_n ln p(t_n | x_n) under (14.53), without the penalties and the sample weights.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Inputs.
        y : array-like of shape (n_samples,)
            Targets (regressors) or class labels (classifiers).

        Returns
        -------
        float
            The log-likelihood of the data.
        """
        return float(np.sum(log_mixture_of_experts_density(*self._log_density(X, y))))

    def responsibilities(self, X, y):
        """Posterior probability of each expert given (x_n, t_n): the E-step.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Inputs.
        y : array-like of shape (n_samples,)
            Targets (regressors) or class labels (classifiers).

        Returns
        -------
        ndarray of shape (n_samples, n_experts)
            γ_nk ∝ π_k(x_n) p_k(t_n | x_n); rows sum to one.
        """
        return expert_responsibilities(*self._log_density(X, y))[0]

    def _mixed_experts(self, X):
        """Σ_k π_k(x) times each expert's prediction: the mean, or P(classes_[1] | x)."""
        return np.sum(self.predict_gates(X) * self.predict_experts(X), axis=1)


# ------------------------------------------------------------------------------ the two roles


class LinearExpertsMixin(RegressorMixin):
    """Linear-Gaussian experts N(t | w_kᵀφ, β_k⁻¹): a regressor (R² score, regressor tags)."""

    _y_numeric = True
    _expert_params = ("coef", "precision")
    # Floor on each expert's variance 1/β_k, relative to the variance of the targets: with a
    # precision per expert the likelihood is unbounded (an expert through a few points).
    _VARIANCE_FLOOR = 1e-6

    def _encode_targets(self, y):
        return np.asarray(y, dtype=float)

    def _scoring_targets(self, y):
        return np.asarray(y, dtype=float)

    def _clustering_features(self, X, t):
        return np.column_stack([X, t])

    def _fixed_settings(self, t, sample_weight):
        """The (weighted) variance of the targets and the floor on the experts' variances."""
        mean = np.average(t, weights=sample_weight)
        var_t = float(np.average((t - mean) ** 2, weights=sample_weight))
        return {"var_t": var_t, "variance_floor": self._VARIANCE_FLOOR * max(var_t, 1e-12)}

    def _zero_experts(self, n_experts, n_basis, fixed):
        beta = 1.0 / max(fixed["var_t"], fixed["variance_floor"])
        return {"coef": np.zeros((n_experts, n_basis)), "precision": np.full(n_experts, beta)}

    def _log_experts(self, Phi, t, params):
        return gaussian_expert_log_density(Phi, t, params["coef"], params["precision"])

    def _m_step_experts(self, Phi, t, R, params, sample_weight, fixed):
        W, beta = linear_experts_m_step(
            Phi,
            t,
            R,
            params["coef"],
            params["precision"],
            sample_weight=sample_weight,
            precision=self.precision,
            l2=self.expert_l2,
            variance_floor=fixed["variance_floor"],
        )
        return {"coef": W, "precision": beta}

    def _expert_penalty(self, params):
        return np.sum(params["coef"][:, 1:] ** 2)  # the biases are not penalised

    def predict_experts(self, X):
        """Each expert's mean w_kᵀφ(x).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Inputs.

        Returns
        -------
        ndarray of shape (n_samples, n_experts)
            The experts' predictions.
        """
        return affine_features(self._check_X(X)) @ self.coef_.T

    def predict(self, X):
        """The conditional mean E[t | x] = Σ_k π_k(x) w_kᵀφ(x).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Inputs.

        Returns
        -------
        ndarray of shape (n_samples,)
            The predictions.
        """
        return self._mixed_experts(X)


class LogisticExpertsMixin(ClassifierMixin):
    """Logistic experts y_k^t (1 − y_k)^(1−t), y_k = σ(w_kᵀφ): a binary classifier."""

    _y_numeric = False
    _expert_params = ("coef",)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        return tags

    def _encode_targets(self, y):
        self.classes_, t = binary_targets(y)
        return 0.5 * (t + 1.0)  # {−1, +1} -> {0, 1}

    def _scoring_targets(self, y):
        return fitted_binary_targets(y, self.classes_)

    def _clustering_features(self, X, t):
        # The inputs only: with the class label among the coordinates k-means splits by class,
        # and an expert that starts with one class cannot learn a boundary.
        return X

    def _fixed_settings(self, t, sample_weight):
        return {}

    def _zero_experts(self, n_experts, n_basis, fixed):
        return {"coef": np.zeros((n_experts, n_basis))}

    def _log_experts(self, Phi, t, params):
        return bernoulli_expert_log_density(Phi, t, params["coef"])

    def _m_step_experts(self, Phi, t, R, params, sample_weight, fixed):
        W = logistic_experts_m_step(
            Phi,
            t,
            R,
            params["coef"],
            sample_weight=sample_weight,
            l2=self.expert_l2,
            max_iter=self.inner_max_iter,
        )
        return {"coef": W}

    def _expert_penalty(self, params):
        return np.sum(params["coef"] ** 2)  # the biases too, as in weighted_logistic_irls

    def predict_experts(self, X):
        """Each expert's probability of ``classes_[1]``, σ(w_kᵀφ(x)).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Inputs.

        Returns
        -------
        ndarray of shape (n_samples, n_experts)
            The experts' predictions.
        """
        return expit(affine_features(self._check_X(X)) @ self.coef_.T)

    def predict_proba(self, X):
        """Class probabilities [P(classes_[0] | x), P(classes_[1] | x)].

        P(classes_[1] | x) = Σ_k π_k(x) σ(w_kᵀφ(x)), equation (14.53) with Bernoulli experts.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Inputs.

        Returns
        -------
        ndarray of shape (n_samples, 2)
            Rows sum to one.
        """
        p1 = np.clip(self._mixed_experts(X), 0.0, 1.0)  # gates may sum to 1 + 2⁻⁵²
        return np.column_stack([1.0 - p1, p1])

    def predict(self, X):
        """The more probable class.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Inputs.

        Returns
        -------
        ndarray of shape (n_samples,)
            Labels from ``classes_``.
        """
        p1 = self._mixed_experts(X)
        return self.classes_[(p1 > 0.5).astype(int)]


# ------------------------------------------------------------------------------ the two shapes


class OneGateMixin:
    """A single softmax gate over ``n_components`` experts."""

    _size_name = "n_components"
    _single_gate = True  # also stores the gate as gate_coef_
    _shape_constraints: dict = {"n_components": [POSITIVE_INT]}

    def _tree(self):
        return self.n_components, 1


class TreeOfGatesMixin:
    """``n_levels`` levels of gates with ``branching`` children each."""

    _size_name = "branching**n_levels"
    _single_gate = False
    _shape_constraints: dict = {
        "branching": [Interval(Integral, 2, None, closed="left")],
        "n_levels": [POSITIVE_INT],
    }

    def _tree(self):
        return self.branching, self.n_levels
