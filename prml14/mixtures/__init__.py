"""Mixtures of linear and of logistic regressions fitted by EM (Sections 14.5.1-14.5.2).

Both models are conditional mixtures p(t | φ) = Σ_k π_k p_k(t | φ) whose mixing coefficients π_k
do not depend on the input. The package has one module per model for the tagged core functions
and one for the estimators:

* :mod:`prml14.mixtures.linear`: the core of (14.34)-(14.44), with the M-step
  :func:`~prml14.mixtures.linear.m_step_linear`;
* :mod:`prml14.mixtures.logistic`: the core of (14.45)-(14.52), with the M-step
  :func:`~prml14.mixtures.logistic.m_step_logistic`;
* :mod:`prml14.mixtures.estimators`:
  :class:`~prml14.mixtures.estimators.MixtureOfLinearRegressions` and
  :class:`~prml14.mixtures.estimators.MixtureOfLogisticRegressions`, built from them.

EM alternates

* the **E-step**: responsibilities γ_nk = E[z_nk | t_n, θ^old], (14.37) and (14.48), computed
  in log space (a log-sum-exp over k) so that far-away points never give 0/0;
* the **M-step**: π_k = (1/N) Σ_n γ_nk, (14.38) and (14.50); then, for linear components, the
  weighted normal equations (14.42) for all K components at once with batched BLAS (einsum over
  n, never the N × N matrix R_k) and the shared noise *precision* β from (14.44); for logistic
  components, a weighted IRLS/Newton fit per component (14.51)-(14.52), see :mod:`prml14.irls`.

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
  :class:`~prml14.mixtures.estimators.MixtureOfLogisticRegressions` (a fixed
  penalty ``l2`` chosen by the user; with ``l2=0`` a ``ConvergenceWarning``).
"""

from .estimators import MixtureOfLinearRegressions, MixtureOfLogisticRegressions
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

__all__ = [
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
