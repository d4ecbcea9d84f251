"""Boosting, pages 14.3, 14.3.1-14.3.2 and B.1-B.6: additive models fitted stage by stage.

Core (tagged with the equations they implement) and estimators (scikit-learn API):

* ``adaboost``: AdaBoost's steps and the exponential error, (14.15)-(14.28); SAMME
* ``losses``: the error functions of 14.3.2 and the regression errors
* ``stagewise``: forward stagewise additive modelling (B.1), second-order objective
* ``real_gentle``: Real and Gentle AdaBoost's leaf values and reweighting (page B.2)
* ``logitboost``: LogitBoost's working responses, weights and steps (page B.3)
* ``gradient_boosting``: gradient boosting's losses, pseudo-residuals, line searches (B.4)
* ``stump_estimators``: DecisionStump, AdaBoost's weak learner
* ``adaboost_estimators``: AdaBoostClassifier (and SAMME) (imports adaboost, stump_estimators)
* ``real_gentle_estimators``: RealAdaBoostClassifier, GentleAdaBoostClassifier (imports
  real_gentle)
* ``logitboost_estimators``: LogitBoostClassifier (imports logitboost)
* ``gradient_boosting_estimators``: ``GradientBoosting*`` (imports gradient_boosting, stagewise)

``_tree_boosting`` holds the least-squares trees that Real/Gentle AdaBoost and LogitBoost share.
Every tree is grown by :mod:`prml14.trees`.
"""

from .adaboost import (
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
    normalise_log_weights,
    samme_classifier_weight,
    samme_scores,
    update_weights,
    weighted_error,
    weighted_misclassification,
)
from .adaboost_estimators import (
    AdaBoostClassifier,
)
from .gradient_boosting import (
    LOSS_NAMES,
    huber_delta,
    leaf_line_search,
    line_search,
    make_loss,
    pseudo_residuals,
    weighted_quantile,
)
from .gradient_boosting_estimators import (
    GradientBoostingClassifier,
    GradientBoostingRegressor,
)
from .logitboost import (
    binomial_log_likelihood_derivatives,
    logitboost_newton_step,
    logitboost_weights,
    logitboost_working_response,
    multiclass_logitboost_step,
)
from .logitboost_estimators import (
    LogitBoostClassifier,
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
    huber_loss,
    huber_loss_gradient,
    misclassification_loss,
    multinomial_log_loss,
    multinomial_log_loss_gradient,
    multinomial_log_loss_hessian,
    squared_error,
    squared_error_gradient,
    squared_error_hessian,
)
from .real_gentle import (
    exponential_loss_derivatives,
    exponential_reweight,
    gentle_newton_step,
    half_log_odds_leaf_values,
)
from .real_gentle_estimators import (
    GentleAdaBoostClassifier,
    RealAdaBoostClassifier,
)
from .stagewise import (
    l2_residuals,
    prune_by_gain,
    regularised_objective,
    second_order_objective,
    stagewise_step,
    stagewise_update,
)
from .stump_estimators import (
    DecisionStump,
    SortedColumns,
)

__all__ = [
    "weighted_misclassification",
    "weighted_error",
    "classifier_weight",
    "update_weights",
    "normalise_log_weights",
    "committee_sign",
    "exponential_error",
    "additive_model",
    "exponential_error_weights",
    "exponential_error_of_alpha",
    "exponential_error_split",
    "exponential_weight_update",
    "margin_from_mistakes",
    "exponential_weight_update_from_mistakes",
    "samme_classifier_weight",
    "samme_scores",
    "AdaBoostClassifier",
    "LOSS_NAMES",
    "make_loss",
    "weighted_quantile",
    "huber_delta",
    "pseudo_residuals",
    "line_search",
    "leaf_line_search",
    "GradientBoostingRegressor",
    "GradientBoostingClassifier",
    "binomial_log_likelihood_derivatives",
    "logitboost_working_response",
    "logitboost_weights",
    "logitboost_newton_step",
    "multiclass_logitboost_step",
    "LogitBoostClassifier",
    "exponential_loss",
    "exponential_loss_gradient",
    "exponential_loss_hessian",
    "cross_entropy_loss",
    "cross_entropy_loss_gradient",
    "cross_entropy_loss_hessian",
    "hinge_loss",
    "hinge_loss_gradient",
    "misclassification_loss",
    "squared_error",
    "squared_error_gradient",
    "squared_error_hessian",
    "absolute_error",
    "absolute_error_gradient",
    "huber_loss",
    "huber_loss_gradient",
    "multinomial_log_loss",
    "multinomial_log_loss_gradient",
    "multinomial_log_loss_hessian",
    "expected_exponential_loss",
    "exponential_risk_minimiser",
    "MARGIN_LOSSES",
    "REGRESSION_LOSSES",
    "half_log_odds_leaf_values",
    "exponential_reweight",
    "exponential_loss_derivatives",
    "gentle_newton_step",
    "RealAdaBoostClassifier",
    "GentleAdaBoostClassifier",
    "stagewise_step",
    "stagewise_update",
    "l2_residuals",
    "regularised_objective",
    "second_order_objective",
    "prune_by_gain",
    "DecisionStump",
    "SortedColumns",
]
