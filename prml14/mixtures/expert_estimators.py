"""Mixtures of experts and hierarchical mixtures of experts: the estimators (Section 14.5.3).

Four estimators of (14.53), by the role of the experts and the shape of the gating network:

* linear-Gaussian experts (regression): :class:`MixtureOfExpertsRegressor` (one softmax gate)
  and :class:`HierarchicalMixtureOfExpertsRegressor` (a tree of softmax gates);
* logistic experts (two classes): :class:`MixtureOfExpertsClassifier` and
  :class:`HierarchicalMixtureOfExpertsClassifier`.

They share the gates and EM (``prml14.mixtures._gated_experts``, run by ``prml14._em.run_em``);
every step is a function of :mod:`prml14.mixtures.experts`.
"""

from __future__ import annotations

from sklearn.utils._param_validation import StrOptions

from .._equations import implements
from ._gated_experts import (
    BaseGatedExperts,
    LinearExpertsMixin,
    LogisticExpertsMixin,
    OneGateMixin,
    TreeOfGatesMixin,
)

__all__ = [
    "MixtureOfExpertsRegressor",
    "MixtureOfExpertsClassifier",
    "HierarchicalMixtureOfExpertsRegressor",
    "HierarchicalMixtureOfExpertsClassifier",
]

# ------------------------------------------------------------------------------ the estimators


@implements("14.53")
class MixtureOfExpertsRegressor(LinearExpertsMixin, OneGateMixin, BaseGatedExperts):
    """Mixture of linear-Gaussian experts p(t | x) = Σ_k π_k(x) N(t | w_kᵀφ, β_k⁻¹), by EM.

    Equation (14.53) with the softmax gates π_k(x) = softmax(Vᵀφ)_k, φ = (1, x), expert 0 the
    reference (its column of V is zero). Each EM iteration is an M-step, the experts by
    weighted least squares and their precisions
    (:func:`~prml14.mixtures.experts.linear_experts_m_step`) and the gate by multinomial IRLS with
    the responsibilities as soft targets (:func:`~prml14.mixtures.experts.gate_m_step`), then an
    E-step, γ_nk ∝ π_k(x_n) p_k(t_n | x_n)
    (:func:`~prml14.mixtures.experts.expert_responsibilities`). The gate's Newton loop is capped at
    ``inner_max_iter`` steps and never decreases its objective, so this is a generalised EM:
    the penalised log-likelihood never decreases (Jordan & Jacobs 1994).

    Parameters
    ----------
    n_components : int, default=2
        Number of experts K.
    precision : {"per_component", "shared"}, default="per_component"
        One noise precision β_k per expert, or one β shared by all (as in the mixture of
        linear regressions, (14.44)). Variances are floored at 1e-6 × var(t), which keeps the
        likelihood bounded when an expert fits a handful of points exactly.
    gating : {"softmax", "constant"}, default="softmax"
        ``"constant"`` gates ignore x: a plain mixture with mixing coefficients π_k, as in
        Section 14.5.1.
    max_iter : int, default=200
        Maximum number of EM iterations per start.
    tol : float, default=1e-6
        EM stops when the penalised log-likelihood per unit of sample weight changes by at
        most ``tol``.
    n_init : int, default=1
        Number of starts; the one with the highest final objective is kept.
    init : {"kmeans", "random"} or array-like, default="kmeans"
        The initial responsibilities: k-means on the standardised pairs (x, t) (hard, slightly
        smoothed; in a tree, top-down: each node's data split again, so that sibling leaves
        start on neighbouring data), Dirichlet(1) draws, or given responsibilities of shape
        (n_samples, n_experts) (then a single start, whatever ``n_init``).
    gate_l2 : float, default=1e-4
        Ridge penalty on the gate weights (not the biases). Keeps them finite when the
        responsibilities separate the inputs perfectly.
    expert_l2 : float, default=1e-6
        Ridge penalty on the expert weights (not the biases).
    inner_max_iter : int, default=10
        Newton steps per M-step for the gates (and for logistic experts).
    random_state : int, RandomState instance or None, default=None
        Seeds the starts; EM itself draws nothing.

    Attributes
    ----------
    gate_coef_ : ndarray of shape (n_basis_gate, n_components)
        V (column 0 is zero); n_basis_gate is n_features + 1, or 1 with constant gates.
    gate_coefs_ : list of one ndarray of shape (1, n_basis_gate, n_components)
        The same, in the layout of :class:`HierarchicalMixtureOfExpertsRegressor`.
    coef_ : ndarray of shape (n_components, n_features + 1)
        Expert weights w_k (column 0: the bias).
    precision_ : ndarray of shape (n_components,)
        β_k (all equal with ``precision="shared"``).
    responsibilities_ : ndarray of shape (n_samples, n_components)
        γ_nk after the last iteration.
    log_likelihood_history_ : ndarray of shape (n_iter + 1,)
        Σ_n s_n ln p(t_n | x_n) after the first M-step and after each EM iteration.
    objective_history_ : ndarray of shape (n_iter + 1,)
        The same minus the ridge penalties: the quantity EM never decreases.
    lower_bound_ : float
        The final objective, ``objective_history_[-1]``.
    n_iter_ : int
        EM iterations run by the best start.
    converged_ : bool
        Whether that start met ``tol`` within ``max_iter`` iterations.
    n_features_in_ : int
        Number of features seen in fit.
    """

    _parameter_constraints: dict = {
        **BaseGatedExperts._parameter_constraints,
        **OneGateMixin._shape_constraints,
        "precision": [StrOptions({"per_component", "shared"})],
    }

    def __init__(
        self,
        n_components=2,
        *,
        precision="per_component",
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


@implements("14.53")
class MixtureOfExpertsClassifier(LogisticExpertsMixin, OneGateMixin, BaseGatedExperts):
    """Mixture of logistic experts P(t = 1 | x) = Σ_k π_k(x) σ(w_kᵀφ), fitted by EM.

    The classifier of (14.53) for any two class labels: the gates and EM of
    :class:`MixtureOfExpertsRegressor`, with each expert a logistic regression fitted by
    weighted IRLS (:func:`~prml14.mixtures.experts.logistic_experts_m_step`).

    Parameters
    ----------
    n_components : int, default=2
        Number of experts K.
    gating : {"softmax", "constant"}, default="softmax"
        As in :class:`MixtureOfExpertsRegressor`.
    max_iter : int, default=200
        As in :class:`MixtureOfExpertsRegressor`.
    tol : float, default=1e-6
        As in :class:`MixtureOfExpertsRegressor`.
    n_init : int, default=1
        As in :class:`MixtureOfExpertsRegressor`.
    init : {"kmeans", "random"} or array-like, default="kmeans"
        As in :class:`MixtureOfExpertsRegressor`, except that k-means clusters the standardised
        inputs x alone (clustering on the class label would hand each expert a single class).
    gate_l2 : float, default=1e-4
        As in :class:`MixtureOfExpertsRegressor`.
    expert_l2 : float, default=1e-6
        Ridge penalty on all expert weights, the biases included (an expert responsible for
        one class only would otherwise send its bias to infinity).
    inner_max_iter : int, default=10
        Newton steps per M-step for the gates and for each expert.
    random_state : int, RandomState instance or None, default=None
        As in :class:`MixtureOfExpertsRegressor`.

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
        The labels; ``classes_[1]`` is coded t = 1.
    gate_coef_, gate_coefs_, coef_ : ndarray, list of ndarray, ndarray
        As in :class:`MixtureOfExpertsRegressor`.
    responsibilities_, log_likelihood_history_, objective_history_ : ndarray
        As in :class:`MixtureOfExpertsRegressor`.
    lower_bound_, n_iter_, converged_, n_features_in_ : float, int, bool, int
        As in :class:`MixtureOfExpertsRegressor`.
    """

    _parameter_constraints: dict = {
        **BaseGatedExperts._parameter_constraints,
        **OneGateMixin._shape_constraints,
    }

    def __init__(
        self,
        n_components=2,
        *,
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
        self.gating = gating
        self.max_iter = max_iter
        self.tol = tol
        self.n_init = n_init
        self.init = init
        self.gate_l2 = gate_l2
        self.expert_l2 = expert_l2
        self.inner_max_iter = inner_max_iter
        self.random_state = random_state


@implements("14.53")
class HierarchicalMixtureOfExpertsRegressor(
    LinearExpertsMixin, TreeOfGatesMixin, BaseGatedExperts
):
    """Hierarchical mixture of linear-Gaussian experts: a tree of softmax gates, fitted by EM.

    A tree with ``n_levels`` levels of gates and ``branching`` children per gate has
    branching**n_levels experts at its leaves. The gate of a leaf is the product of the gate
    probabilities along its path, π_leaf(x) = Π_levels π_child|node(x), and the predictive
    distribution is (14.53) with these products (Jordan & Jacobs 1994). EM: the E-step gives
    each leaf's posterior h_leaf, and a node's posterior h_node is the sum over the leaves below
    it; the M-step fits the experts as in :class:`MixtureOfExpertsRegressor` and each gate by
    multinomial IRLS with soft targets h_child / h_node and sample weights h_node
    (:func:`~prml14.mixtures.experts.hierarchical_gates_m_step`), which maximises the gate's part
    of Q. With one level this is exactly :class:`MixtureOfExpertsRegressor`.

    Parameters
    ----------
    branching : int, default=2
        Children per gating node (>= 2).
    n_levels : int, default=2
        Levels of gates (>= 1).
    precision : {"per_component", "shared"}, default="per_component"
        As in :class:`MixtureOfExpertsRegressor`.
    gating : {"softmax", "constant"}, default="softmax"
        As in :class:`MixtureOfExpertsRegressor`.
    max_iter : int, default=200
        As in :class:`MixtureOfExpertsRegressor`.
    tol : float, default=1e-6
        As in :class:`MixtureOfExpertsRegressor`.
    n_init : int, default=1
        As in :class:`MixtureOfExpertsRegressor`.
    init : {"kmeans", "random"} or array-like, default="kmeans"
        As in :class:`MixtureOfExpertsRegressor` (k-means splits the data top-down).
    gate_l2 : float, default=1e-4
        As in :class:`MixtureOfExpertsRegressor`.
    expert_l2 : float, default=1e-6
        As in :class:`MixtureOfExpertsRegressor`.
    inner_max_iter : int, default=10
        As in :class:`MixtureOfExpertsRegressor`.
    random_state : int, RandomState instance or None, default=None
        As in :class:`MixtureOfExpertsRegressor`.

    Attributes
    ----------
    gate_coefs_ : list of ndarray
        Level d has shape (branching**d, n_basis_gate, branching); node j's children are the
        nodes j·branching + c of the next level (or the leaves).
    coef_ : ndarray of shape (branching**n_levels, n_features + 1)
        Expert weights w_k (column 0: the bias).
    precision_ : ndarray of shape (branching**n_levels,)
        β_k.
    responsibilities_, log_likelihood_history_, objective_history_ : ndarray
        As in :class:`MixtureOfExpertsRegressor` (the responsibilities are the leaves').
    lower_bound_, n_iter_, converged_, n_features_in_ : float, int, bool, int
        As in :class:`MixtureOfExpertsRegressor`.
    """

    _parameter_constraints: dict = {
        **BaseGatedExperts._parameter_constraints,
        **TreeOfGatesMixin._shape_constraints,
        "precision": [StrOptions({"per_component", "shared"})],
    }

    def __init__(
        self,
        branching=2,
        n_levels=2,
        *,
        precision="per_component",
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


@implements("14.53")
class HierarchicalMixtureOfExpertsClassifier(
    LogisticExpertsMixin, TreeOfGatesMixin, BaseGatedExperts
):
    """Hierarchical mixture of logistic experts: a tree of softmax gates, fitted by EM.

    The classifier counterpart of :class:`HierarchicalMixtureOfExpertsRegressor` (same tree of
    gates, same EM), with logistic experts as in :class:`MixtureOfExpertsClassifier`; any two
    class labels. With one level this is exactly :class:`MixtureOfExpertsClassifier`.

    Parameters
    ----------
    branching : int, default=2
        Children per gating node (>= 2).
    n_levels : int, default=2
        Levels of gates (>= 1).
    gating : {"softmax", "constant"}, default="softmax"
        As in :class:`MixtureOfExpertsRegressor`.
    max_iter : int, default=200
        As in :class:`MixtureOfExpertsRegressor`.
    tol : float, default=1e-6
        As in :class:`MixtureOfExpertsRegressor`.
    n_init : int, default=1
        As in :class:`MixtureOfExpertsRegressor`.
    init : {"kmeans", "random"} or array-like, default="kmeans"
        As in :class:`MixtureOfExpertsClassifier` (k-means on the inputs, top-down).
    gate_l2 : float, default=1e-4
        As in :class:`MixtureOfExpertsRegressor`.
    expert_l2 : float, default=1e-6
        As in :class:`MixtureOfExpertsClassifier` (the biases are penalised too).
    inner_max_iter : int, default=10
        As in :class:`MixtureOfExpertsClassifier`.
    random_state : int, RandomState instance or None, default=None
        As in :class:`MixtureOfExpertsRegressor`.

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
        The labels; ``classes_[1]`` is coded t = 1.
    gate_coefs_, coef_ : list of ndarray, ndarray
        As in :class:`HierarchicalMixtureOfExpertsRegressor`.
    responsibilities_, log_likelihood_history_, objective_history_ : ndarray
        As in :class:`MixtureOfExpertsRegressor` (the responsibilities are the leaves').
    lower_bound_, n_iter_, converged_, n_features_in_ : float, int, bool, int
        As in :class:`MixtureOfExpertsRegressor`.
    """

    _parameter_constraints: dict = {
        **BaseGatedExperts._parameter_constraints,
        **TreeOfGatesMixin._shape_constraints,
    }

    def __init__(
        self,
        branching=2,
        n_levels=2,
        *,
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
        self.gating = gating
        self.max_iter = max_iter
        self.tol = tol
        self.n_init = n_init
        self.init = init
        self.gate_l2 = gate_l2
        self.expert_l2 = expert_l2
        self.inner_max_iter = inner_max_iter
        self.random_state = random_state
