"""prml14: the executable companion to Chapter 14 of Bishop's PRML ("Combining Models").

The package has two layers: a functional core whose names follow the book's notation, each
function tagged with the equation(s) it implements (see :mod:`prml14._equations`), and
estimators with the scikit-learn API built from that core.
"""

__version__ = "0.1.0"

from ._equations import EQUATIONS, implements, registry
from .conditional_mixture import (
    affine_features,
    conditional_mixture_density,
    log_conditional_mixture_density,
    softmax_gates,
)
from .datasets import (
    make_five_regions,
    make_gated_regression,
    make_mixture_of_linear_regressions,
    make_mixture_of_logistic_regressions,
    make_wavy_classes,
    make_xor_regression,
)
from .irls import (
    q_gradient,
    q_negative_hessian,
    weighted_logistic_irls,
    weighted_logistic_objective,
    weighted_softmax_irls,
)
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
    CommitteeErrors,
    committee_errors,
    committee_prediction,
    error_moments,
    make_uncorrelated_errors,
    member_errors,
    member_expected_errors,
    uncorrelated_committee_error,
)
from .bagging import (
    BaggingClassifier,
    BaggingRegressor,
    bootstrap_indices,
    expected_oob_fraction,
    out_of_bag_mask,
)
from .combining_core import (
    inverse_error_weights,
    linear_blend_weights,
    majority_vote_accuracy,
    out_of_fold_predictions,
    soft_vote,
    vote_with_reject,
    weighted_vote,
)
from .combining import (
    BlendingClassifier,
    BlendingRegressor,
    StackingClassifier,
    StackingRegressor,
    VotingClassifier,
    VotingRegressor,
)
from .losses import (
    MARGIN_LOSSES,
    REGRESSION_LOSSES,
    absolute_error,
    absolute_error_gradient,
    cross_entropy_loss,
    cross_entropy_loss_gradient,
    cross_entropy_loss_hessian,
    expected_exponential_loss,
    exponential_loss,
    exponential_loss_gradient,
    exponential_loss_hessian,
    exponential_risk_minimiser,
    hinge_loss,
    hinge_loss_gradient,
    misclassification_loss,
    squared_error,
    squared_error_gradient,
    squared_error_hessian,
)
from .stumps import DecisionStump
from .boosting import (
    additive_model,
    classifier_weight,
    committee_sign,
    exponential_error,
    exponential_error_of_alpha,
    exponential_error_split,
    exponential_error_weights,
    exponential_weight_update,
    exponential_weight_update_from_mistakes,
    margin_from_mistakes,
    update_weights,
    weighted_error,
    weighted_misclassification,
)
from .adaboost import AdaBoostClassifier
from .mixtures import (
    MixtureOfLinearRegressions,
    MixtureOfLogisticRegressions,
    complete_data_log_likelihood_linear,
    complete_data_log_likelihood_logistic,
    expected_complete_data_log_likelihood_linear,
    expected_complete_data_log_likelihood_logistic,
    mixing_coefficients,
    mixture_of_linear_regressions_density,
    mixture_of_linear_regressions_log_likelihood,
    mixture_of_logistic_regressions_log_likelihood,
    mixture_of_logistic_regressions_proba,
    noise_precision,
    q_linear_precision,
    q_linear_weights,
    responsibilities_linear,
    responsibilities_logistic,
    solve_normal_equations,
    weighted_least_squares,
    weighted_normal_equations,
)
from .trees import (
    DecisionTreeClassifier,
    DecisionTreeRegressor,
    cost_complexity,
    cross_entropy_impurity,
    cross_validate_ccp_lambda,
    gini_impurity,
    grow_tree,
    leaf_value,
    misclassification_impurity,
    prune_to_lambda,
    pruning_costs,
    sum_of_squares,
    weakest_link_path,
)
from .experts_core import (
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
from .experts import (
    HierarchicalMixtureOfExpertsClassifier,
    HierarchicalMixtureOfExpertsRegressor,
    MixtureOfExpertsClassifier,
    MixtureOfExpertsRegressor,
)
