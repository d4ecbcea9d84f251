"""Conditional mixtures, pages 14 and 14.5.1-14.5.3: the conditional mixture (14.1), mixtures
of linear and of logistic regressions, and mixtures of experts, all fitted by EM.

Core (tagged with the equations they implement) and estimators (scikit-learn API):

* ``conditional_mixture``: p(t | x) = Σ_k π_k(x) p(t | x, k) (14.1) and softmax gates
* ``linear``: mixtures of linear regressions, (14.34)-(14.44), M-step m_step_linear
* ``irls``: weighted IRLS: Newton's method for logistic models (14.51)-(14.52)
* ``logistic``: mixtures of logistic regressions, (14.45)-(14.52), M-step m_step_logistic
* ``experts``: mixtures of experts and their hierarchies (14.53): E- and M-steps
* ``mixture_estimators``: MixtureOfLinear/LogisticRegressions (imports linear, logistic)
* ``expert_estimators``: ``(Hierarchical)MixtureOfExperts*`` (imports experts, _gated_experts)

``_base`` holds the argument checks of the two mixtures, ``_logistic_newton`` the batched
Newton steps of IRLS, ``_gated_experts`` the gates and EM the experts' estimators share. The
mixtures use nothing from the other parts.

The two mixtures of regressions are conditional mixtures p(t | φ) = Σ_k π_k p_k(t | φ) whose
mixing coefficients π_k do not depend on the input.

EM alternates

* the **E-step**: responsibilities γ_nk = E[z_nk | t_n, θ^old], (14.37) and (14.48), computed
  in log space (a log-sum-exp over k) so that far-away points never give 0/0;
* the **M-step**: π_k = (1/N) Σ_n γ_nk, (14.38) and (14.50); then, for linear components, the
  weighted normal equations (14.42) for all K components at once with batched BLAS (einsum over
  n, never the N × N matrix R_k) and the shared noise *precision* β from (14.44); for logistic
  components, a weighted IRLS/Newton fit per component (14.51)-(14.52), see
  :mod:`prml14.mixtures.irls`.

The estimators hand these steps to the one EM driver, ``prml14._em.run_em`` (restarts, the
loop, the stopping rule per unit of sample weight, the ``ConvergenceWarning``). Sample weights
s_n multiply each point's responsibilities in the M-step and its term of the log-likelihood.

Conventions: ``Phi`` is the design matrix Φ (N × M, rows φ_nᵀ); ``W`` holds one weight vector
per component as its rows (K × M), like scikit-learn's ``coef_``; ``pi`` has shape (K,); β is
the noise **precision** (inverse variance) shared by the components.

Degenerate cases (documented handling)
--------------------------------------
* A component whose total responsibility Σ_n s_n γ_nk falls below ``1e-10 Σ_n s_n`` keeps its
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
* The noise variance 1/β is floored at 1e-10 × var(t) (1e-10 if t is constant). β is shared,
  so one component fitting its points exactly does not make the likelihood unbounded (the
  other points' residuals keep 1/β away from zero); it grows without bound only when every
  point lies exactly on some component's line (possible when N ≤ K × n_basis). The floor keeps
  that case finite.
* Logistic components on separable data: see
  :class:`~prml14.mixtures.mixture_estimators.MixtureOfLogisticRegressions` (a fixed
  penalty ``l2`` chosen by the user; with ``l2=0`` a ``ConvergenceWarning``).
"""

from .conditional_mixture import (
    affine_features,
    conditional_mixture_density,
    log_conditional_mixture_density,
    softmax_gates,
)
from .expert_estimators import (
    HierarchicalMixtureOfExpertsClassifier,
    HierarchicalMixtureOfExpertsRegressor,
    MixtureOfExpertsClassifier,
    MixtureOfExpertsRegressor,
)
from .experts import (
    bernoulli_expert_log_density,
    expert_responsibilities,
    gate_m_step,
    gaussian_expert_log_density,
    hierarchical_gates_m_step,
    hierarchical_log_gates,
    linear_experts_m_step,
    log_mixture_of_experts_density,
    logistic_experts_m_step,
    mixture_of_experts_density,
    node_posteriors,
)
from .irls import (
    q_gradient,
    q_negative_hessian,
    softmax_q_gradient,
    softmax_q_negative_hessian,
    weighted_logistic_irls,
    weighted_logistic_objective,
    weighted_softmax_irls,
    weighted_softmax_objective,
)
from .linear import (
    complete_data_log_likelihood_linear,
    expected_complete_data_log_likelihood_linear,
    linear_component_log_densities,
    m_step_linear,
    mixing_coefficients,
    mixture_of_linear_regressions_density,
    mixture_of_linear_regressions_log_likelihood,
    noise_precision,
    q_linear_precision,
    q_linear_weights,
    responsibilities_linear,
    solve_normal_equations,
    weighted_least_squares,
    weighted_normal_equations,
)
from .logistic import (
    complete_data_log_likelihood_logistic,
    expected_complete_data_log_likelihood_logistic,
    logistic_component_log_probs,
    m_step_logistic,
    mixture_of_logistic_regressions_log_likelihood,
    mixture_of_logistic_regressions_proba,
    responsibilities_logistic,
)
from .mixture_estimators import (
    MixtureOfLinearRegressions,
    MixtureOfLogisticRegressions,
)

__all__ = [
    "affine_features",
    "softmax_gates",
    "conditional_mixture_density",
    "log_conditional_mixture_density",
    "MixtureOfExpertsRegressor",
    "MixtureOfExpertsClassifier",
    "HierarchicalMixtureOfExpertsRegressor",
    "HierarchicalMixtureOfExpertsClassifier",
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
    "q_gradient",
    "q_negative_hessian",
    "weighted_logistic_objective",
    "weighted_logistic_irls",
    "weighted_softmax_irls",
    "weighted_softmax_objective",
    "softmax_q_gradient",
    "softmax_q_negative_hessian",
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
    "m_step_linear",
    "logistic_component_log_probs",
    "mixture_of_logistic_regressions_proba",
    "mixture_of_logistic_regressions_log_likelihood",
    "complete_data_log_likelihood_logistic",
    "responsibilities_logistic",
    "expected_complete_data_log_likelihood_logistic",
    "m_step_logistic",
    "MixtureOfLinearRegressions",
    "MixtureOfLogisticRegressions",
]
