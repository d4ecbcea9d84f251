"""prml14: the executable companion to Chapter 14 of Bishop's PRML ("Combining Models").

The package has two layers: a functional core whose names follow the book's notation, each
function tagged with the equation(s) it implements (see :mod:`prml14._equations`), and
estimators with the scikit-learn API built from that core.
"""

__version__ = "0.1.0"

from ._equations import EQUATIONS, implements, registry
from .conditional_mixture import (
    conditional_mixture_density,
    log_conditional_mixture_density,
    softmax_gates,
)
from .datasets import make_gated_regression

# --- section modules: one import line per module, added as each section lands ---
from .irls import q_gradient, q_negative_hessian, weighted_logistic_irls, weighted_logistic_objective
from .bma import (
    bma_predictive_density,
    cauchy_log_densities,
    combination_responsibilities,
    component_log_densities,
    fit_combination_weights,
    gaussian_log_densities,
    log_bma_marginal,
    log_joint,
    log_marginal,
    log_model_evidence,
    log_model_posterior,
    mixture_density,
    mixture_log_density,
    mixture_log_likelihood,
    model_posterior_path,
    sample_mixture,
)
from .committees import (
    BaggingClassifier,
    BaggingRegressor,
    CommitteeErrors,
    bootstrap_indices,
    committee_errors,
    committee_prediction,
    error_moments,
    expected_oob_fraction,
    make_uncorrelated_errors,
    member_errors,
    member_expected_errors,
    out_of_bag_mask,
    uncorrelated_committee_error,
)
