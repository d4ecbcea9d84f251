"""Committees, pages 14.1-14.2 and B.10-B.11: averaging models and combining trained ones.

Core (tagged with the equations they implement) and estimators (scikit-learn API):

* ``densities``: Gaussian and Cauchy component densities, sampling (page 14.1)
* ``bma``: Bayesian model averaging vs model combination, (14.2)-(14.6)
* ``committee``: the committee (14.7) and its errors, (14.8)-(14.14)
* ``bagging``: bootstrap samples and out-of-bag sets
* ``forests``: correlated averages (B.30) and the out-of-bag committee (B.31)
* ``importances``: impurity (B.32) and permutation (B.33) importances
* ``combining``: votes, blend weights and out-of-fold predictions (page B.11)
* ``bagging_estimators``: BaggingRegressor, BaggingClassifier (imports bagging)
* ``forest_estimators``: RandomForestRegressor, RandomForestClassifier (imports forests,
  importances)
* ``combining_estimators``: ``Voting*``, ``Blending*`` (imports combining, _combiners)
* ``stacking_estimators``: ``Stacking*`` (imports combining, _combiners)

``_combiners`` holds the machinery the combining estimators share. The committees use
:mod:`prml14.trees` (the default members) and :mod:`prml14.mixtures` (the mixing coefficients
of model combination); nothing in the package uses the committees.
"""

from .bagging import (
    bootstrap_indices,
    expected_oob_fraction,
    out_of_bag_mask,
)
from .bagging_estimators import (
    BaggingClassifier,
    BaggingRegressor,
)
from .bma import (
    bma_predictive_density,
    combination_responsibilities,
    fit_combination_weights,
    log_bma_marginal,
    log_joint,
    log_marginal,
    log_model_evidence,
    log_model_posterior,
    mixture_density,
    mixture_log_density,
    mixture_log_likelihood,
    model_posterior_path,
)
from .combining import (
    inverse_error_weights,
    linear_blend_weights,
    majority_vote_accuracy,
    out_of_fold_predictions,
    soft_vote,
    vote_with_reject,
    weighted_vote,
)
from .combining_estimators import (
    BlendingClassifier,
    BlendingRegressor,
    VotingClassifier,
    VotingRegressor,
)
from .committee import (
    CommitteeErrors,
    committee_errors,
    committee_prediction,
    error_moments,
    make_uncorrelated_errors,
    member_errors,
    member_expected_errors,
    uncorrelated_committee_error,
)
from .densities import (
    cauchy_log_densities,
    component_log_densities,
    gaussian_log_densities,
    sample_mixture,
)
from .forest_estimators import (
    RandomForestClassifier,
    RandomForestRegressor,
)
from .forests import (
    correlated_average_variance,
    out_of_bag_prediction,
)
from .importances import (
    impurity_importances,
    mean_decrease_in_impurity,
    oob_permutation_importance,
    permutation_importance,
    permutation_indices,
)
from .stacking_estimators import (
    StackingClassifier,
    StackingRegressor,
)

__all__ = [
    "bootstrap_indices",
    "out_of_bag_mask",
    "expected_oob_fraction",
    "BaggingRegressor",
    "BaggingClassifier",
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
    "weighted_vote",
    "soft_vote",
    "vote_with_reject",
    "majority_vote_accuracy",
    "linear_blend_weights",
    "inverse_error_weights",
    "out_of_fold_predictions",
    "VotingClassifier",
    "VotingRegressor",
    "BlendingClassifier",
    "BlendingRegressor",
    "committee_prediction",
    "member_errors",
    "member_expected_errors",
    "CommitteeErrors",
    "committee_errors",
    "error_moments",
    "uncorrelated_committee_error",
    "make_uncorrelated_errors",
    "gaussian_log_densities",
    "cauchy_log_densities",
    "component_log_densities",
    "sample_mixture",
    "RandomForestRegressor",
    "RandomForestClassifier",
    "correlated_average_variance",
    "out_of_bag_prediction",
    "impurity_importances",
    "mean_decrease_in_impurity",
    "permutation_indices",
    "permutation_importance",
    "oob_permutation_importance",
    "StackingClassifier",
    "StackingRegressor",
]
