"""Voting and blending: estimators that combine trained models (page B.11).

They take ``estimators=[(name, estimator), ...]`` like scikit-learn's ``Voting*`` and
``Stacking*``: members are cloned before fitting, a member can be switched off with
``set_params(name="drop")``, and nested parameters are reached as ``name__param`` (so the
ensembles drop into pipelines and grid searches). Classifier members are fitted on the encoded
labels 0, ..., K − 1 (``classes_[k]`` is label k).

* :class:`VotingClassifier` / :class:`VotingRegressor`: members fitted on all the data; a
  (weighted) hard vote (B.34), a soft vote (B.35) or an average, optionally with a reject
  option (B.36);
* :class:`BlendingClassifier` / :class:`BlendingRegressor`: members fitted on a training part,
  combined uniformly, by non-negative weights fitted on a validation part (B.38), or by a
  model trained on the members' validation outputs.

Stacking (B.40) is in :mod:`prml14.committees.stacking_estimators`.

The functional core (the tagged equations) is :mod:`prml14.committees.combining`.
"""

from __future__ import annotations

from numbers import Integral, Real

import numpy as np
from sklearn.base import (
    ClassifierMixin,
    RegressorMixin,
    TransformerMixin,
    _fit_context,
)
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.metaestimators import available_if
from sklearn.utils.validation import check_is_fitted

from ._combiners import (
    STACK_METHODS,
    BaseCombiner,
    BlendingBase,
    kept_weights,
    labels_with_reject,
    require_proba,
)
from .combining import _member_outputs, soft_vote, vote_with_reject, weighted_vote

__all__ = [
    "VotingClassifier",
    "VotingRegressor",
    "BlendingClassifier",
    "BlendingRegressor",
]


# ============================================================================= voting
class VotingRegressor(RegressorMixin, TransformerMixin, BaseCombiner):
    """Average of the members' predictions, optionally weighted: ŷ(x) = Σ_m w_m y_m(x) / Σ_m w_m.

    With equal weights this is the committee (14.7) of different kinds of models.

    Parameters
    ----------
    estimators : list of (str, estimator) tuples
        The members (regressors), cloned before fitting; ``"drop"`` switches one off.
    weights : array-like of shape (n_estimators,), default=None
        w_m ≥ 0, not all zero, one per entry of ``estimators``; None weighs them equally.
    n_jobs : int, default=None
        Members fitted in parallel (joblib threads); results do not depend on it.

    Attributes
    ----------
    estimators_ : list of estimators
        The fitted members that are not dropped.
    named_estimators_ : Bunch
        The fitted members by name.
    weights_ : ndarray of shape (n_members,)
        The weights of the fitted members, normalised to sum to one.
    n_features_in_ : int
        The number of input features.
    """

    _member_kind = "regressor"
    _parameter_constraints: dict = {
        "estimators": [list],
        "weights": ["array-like", None],
        "n_jobs": [None, Integral],
    }

    def __init__(self, estimators, *, weights=None, n_jobs=None):
        self.estimators = estimators
        self.weights = weights
        self.n_jobs = n_jobs

    @_fit_context(prefer_skip_nested_validation=False)
    def fit(self, X, y, sample_weight=None):
        """Fit every member on (X, y).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The inputs.
        y : array-like of shape (n_samples,)
            The targets.
        sample_weight : array-like of shape (n_samples,), default=None
            Passed to every member's ``fit`` (each must accept it).

        Returns
        -------
        object
            The fitted ensemble.

        Raises
        ------
        ValueError
            If X is empty, not 2-D, not numeric, complex, or holds NaN or ±inf; y holds NaN or ±inf
            or exceeds 1e100 in magnitude; sample_weight is negative, NaN, all zero, beyond 1e100
            in magnitude or not one per sample; estimators is an empty list; n_jobs is 0; weights
            is not one finite non-negative number per estimator, not all zero; or a hyper-parameter
            is outside its declared constraints (scikit-learn's InvalidParameterError, which is
            also a TypeError).
        """
        X, y = self._validate(X, y)
        members = self._members()
        self.weights_ = kept_weights(self.weights, self.estimators)
        self._fit_members(members, X, y, sample_weight)
        return self

    def transform(self, X):
        """The members' predictions, samples first.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The inputs.

        Returns
        -------
        ndarray of shape (n_samples, n_members)
            Column m holds member m's predictions.
        """
        X = self._validate_predict(X)
        return np.column_stack([est.predict(X) for est in self.estimators_])

    def predict(self, X):
        """The weighted average of the members' predictions.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The inputs.

        Returns
        -------
        ndarray of shape (n_samples,)
            Σ_m w_m y_m(x) with the normalised ``weights_``.
        """
        return self.transform(X) @ self.weights_

    def get_feature_names_out(self, input_features=None):
        """Names of the columns of :meth:`transform`, as scikit-learn's ``VotingRegressor``.

        Parameters
        ----------
        input_features : array-like of str or None, default=None
            Not used (checked against ``feature_names_in_`` if given).

        Returns
        -------
        ndarray of str objects
            ``"votingregressor_<name>"`` for every member that is not dropped.
        """
        check_is_fitted(self, "n_features_in_")
        return self._names_out([1] * len(self.estimators_), input_features)


class VotingClassifier(ClassifierMixin, TransformerMixin, BaseCombiner):
    """Hard (B.34) or soft (B.35) voting, weighted, with an optional reject option (B.36).

    Hard voting gives each member a vote of weight w_m for the class it predicts; soft voting
    averages the members' class probabilities with weights w_m. The prediction is the class
    with the largest share; with ``min_agreement`` = τ it is ``reject_label`` whenever that
    share is below τ (τ > 1/2: a majority vote that refuses to guess without a majority).

    Parameters
    ----------
    estimators : list of (str, estimator) tuples
        The members (classifiers), cloned before fitting; ``"drop"`` switches one off.
    voting : {"hard", "soft"}, default="hard"
        Count votes (hard) or average probabilities (soft: every member needs predict_proba).
    weights : array-like of shape (n_estimators,), default=None
        w_m ≥ 0, not all zero, one per entry of ``estimators``; None weighs them equally.
    min_agreement : float in (0, 1], default=None
        τ, the share of the votes (hard) or the averaged probability (soft) the winning class
        needs; below it the prediction is ``reject_label``. None never rejects.
    reject_label : object, default=-1
        The label predicted for a rejected input; it must not be one of the classes.
    n_jobs : int, default=None
        Members fitted in parallel (joblib threads); results do not depend on it.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        The class labels, sorted.
    estimators_ : list of estimators
        The fitted members that are not dropped (fitted on the encoded labels).
    named_estimators_ : Bunch
        The fitted members by name.
    weights_ : ndarray of shape (n_members,)
        The weights of the fitted members, normalised to sum to one.
    n_features_in_ : int
        The number of input features.
    """

    _member_kind = "classifier"
    _parameter_constraints: dict = {
        **VotingRegressor._parameter_constraints,
        "voting": [StrOptions({"hard", "soft"})],
        "min_agreement": [None, Interval(Real, 0, 1, closed="right")],
        "reject_label": "no_validation",
    }

    def __init__(
        self,
        estimators,
        *,
        voting="hard",
        weights=None,
        min_agreement=None,
        reject_label=-1,
        n_jobs=None,
    ):
        self.estimators = estimators
        self.voting = voting
        self.weights = weights
        self.min_agreement = min_agreement
        self.reject_label = reject_label
        self.n_jobs = n_jobs

    @_fit_context(prefer_skip_nested_validation=False)
    def fit(self, X, y, sample_weight=None):
        """Fit every member on (X, y).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The inputs.
        y : array-like of shape (n_samples,)
            The class labels.
        sample_weight : array-like of shape (n_samples,), default=None
            Passed to every member's ``fit`` (each must accept it).

        Returns
        -------
        object
            The fitted ensemble.

        Raises
        ------
        ValueError
            If X is empty, not 2-D, not numeric, complex, or holds NaN or ±inf; sample_weight is
            negative, NaN, all zero, beyond 1e100 in magnitude or not one per sample; estimators is
            an empty list; n_jobs is 0; weights is not one finite non-negative number per
            estimator, not all zero; or a hyper-parameter is outside its declared constraints
            (scikit-learn's InvalidParameterError, which is also a TypeError).
        """
        X, y = self._validate(X, y)
        members = self._members()
        if self.voting == "soft":
            require_proba(members, "voting='soft'")
        self.weights_ = kept_weights(self.weights, self.estimators)
        if self.min_agreement is not None and np.isin(self.reject_label, self.classes_):
            raise ValueError(f"reject_label={self.reject_label!r} is one of the classes")
        self._fit_members(members, X, y, sample_weight)
        return self

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.transformer_tags.preserves_dtype = []  # hard votes are class indices
        return tags

    def _probabilities(self, X):
        K = len(self.classes_)
        return np.stack([_member_outputs(e, X, "predict_proba", K) for e in self.estimators_], 1)

    def _votes(self, X):
        return np.column_stack([e.predict(X) for e in self.estimators_]).astype(np.intp)

    def transform(self, X):
        """The members' outputs: class probabilities (soft) or encoded votes (hard).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The inputs.

        Returns
        -------
        ndarray of shape (n_samples, n_members * n_classes) or (n_samples, n_members)
            Soft: member m's probabilities in columns m K to (m + 1) K − 1; hard: column m holds
            member m's predicted class index.
        """
        X = self._validate_predict(X)
        if self.voting == "soft":
            P = self._probabilities(X)
            return P.reshape(P.shape[0], -1)
        return self._votes(X)

    def get_feature_names_out(self, input_features=None):
        """Names of the columns of :meth:`transform`, as scikit-learn's ``VotingClassifier``.

        Parameters
        ----------
        input_features : array-like of str or None, default=None
            Not used (checked against ``feature_names_in_`` if given).

        Returns
        -------
        ndarray of str objects
            Hard voting: ``"votingclassifier_<name>"`` per member; soft voting:
            ``"votingclassifier_<name><k>"`` for k = 0, ..., K − 1 per member.
        """
        check_is_fitted(self, "n_features_in_")
        width = len(self.classes_) if self.voting == "soft" else 1
        return self._names_out([width] * len(self.estimators_), input_features)

    def _shares(self, X):
        X = self._validate_predict(X)
        if self.voting == "soft":
            return soft_vote(self._probabilities(X), self.weights_)
        return weighted_vote(self._votes(X), len(self.classes_), self.weights_)

    @available_if(lambda self: self.voting == "soft")
    def predict_log_proba(self, X):
        """ln of :meth:`predict_proba` (−inf where a probability is 0).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The inputs.

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
            The log class probabilities, in the order of ``classes_``.
        """
        with np.errstate(divide="ignore"):
            return np.log(self.predict_proba(X))

    @available_if(lambda self: self.voting == "soft")
    def predict_proba(self, X):
        """The weighted average of the members' class probabilities (B.35); soft voting only.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The inputs.

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
            p̄_k(x), columns in the order of ``classes_``.
        """
        return self._shares(X)

    def predict(self, X):
        """The class with the largest share of the votes, or ``reject_label`` (B.36).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The inputs.

        Returns
        -------
        ndarray of shape (n_samples,)
            Labels from ``classes_``, or ``reject_label`` where the winning share is below
            ``min_agreement``.
        """
        index = vote_with_reject(self._shares(X), self.min_agreement)
        return labels_with_reject(self.classes_, index, self.reject_label)


# ============================================================================= blending
_BLEND_FIT_DOC = """Fit the members on a training part and the blend on a validation part.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The inputs. Without ``X_val``, a ``validation_fraction`` of the rows is split off.
        y : array-like of shape (n_samples,)
            The targets.
        sample_weight : array-like of shape (n_samples,), default=None
            Weights of the rows of X: passed to the members' ``fit`` (restricted to the
            training part) and, without ``X_val``, used in fitting the blend.
        X_val : array-like of shape (n_val, n_features), default=None
            An explicit validation set: the members are then fitted on all of (X, y).
        y_val : array-like of shape (n_val,), default=None
            Its targets.
        sample_weight_val : array-like of shape (n_val,), default=None
            Its weights, used in fitting the blend.

        Returns
        -------
        object
            The fitted ensemble.

        Raises
        ------
        ValueError
            If X is empty, not 2-D, not numeric, complex, or holds NaN or ±inf, or has fewer
            than two samples (none would be left to validate on); y (a regressor's) holds NaN
            or ±inf or exceeds 1e100 in magnitude; sample_weight is negative, NaN, all zero,
            beyond 1e100 in magnitude or not one per sample; estimators is an empty list;
            n_jobs is 0; or a hyper-parameter is outside its declared constraints
            (scikit-learn's InvalidParameterError, which is also a TypeError).
        """


class BlendingRegressor(RegressorMixin, BlendingBase):
    """Members fitted on a training part, blended on a validation part.

    ``blend="uniform"`` averages the members (the committee (14.7)); ``"linear"`` uses the
    non-negative weights that minimise the squared error on the validation part (B.38), as
    in Breiman's stacked regressions; an estimator (a regressor) is fitted to the members'
    validation predictions and predicts from the members' predictions (learned blending). The
    members are not refitted on the validation part: the blend was fitted for them as they are.

    Parameters
    ----------
    estimators : list of (str, estimator) tuples
        The members (regressors), cloned before fitting; ``"drop"`` switches one off.
    blend : {"uniform", "linear"} or estimator, default="linear"
        How to combine the members' predictions.
    validation_fraction : float in (0, 1), default=0.25
        The share of the rows held out to fit the blend when ``fit`` gets no ``X_val``.
    n_jobs : int, default=None
        Members fitted in parallel (joblib threads); results do not depend on it.
    random_state : int, RandomState or None, default=None
        Seeds the split (the members keep their own ``random_state``).

    Attributes
    ----------
    estimators_ : list of estimators
        The fitted members that are not dropped.
    named_estimators_ : Bunch
        The fitted members by name.
    weights_ : ndarray of shape (n_members,)
        The blend weights ("uniform", "linear"): 1/M, or ŵ ≥ 0 of (B.38), not normalised.
    final_estimator_ : estimator
        The fitted blend, when ``blend`` is an estimator.
    stack_method_ : list of str
        The method that gives each member's output (``"predict"``).
    n_features_in_ : int
        The number of input features.
    """

    _plain_method = "predict"

    def __init__(
        self,
        estimators,
        *,
        blend="linear",
        validation_fraction=0.25,
        n_jobs=None,
        random_state=None,
    ):
        self.estimators = estimators
        self.blend = blend
        self.validation_fraction = validation_fraction
        self.n_jobs = n_jobs
        self.random_state = random_state

    @_fit_context(prefer_skip_nested_validation=False)
    def fit(self, X, y, sample_weight=None, *, X_val=None, y_val=None, sample_weight_val=None):
        return self._fit_blend(X, y, sample_weight, X_val, y_val, sample_weight_val)

    fit.__doc__ = _BLEND_FIT_DOC

    def predict(self, X):
        """The blended prediction: Σ_m w_m y_m(x), or the learned blend of the y_m(x).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The inputs.

        Returns
        -------
        ndarray of shape (n_samples,)
            The predictions.
        """
        X = self._validate_predict(X)
        outputs = self._outputs(X)
        if isinstance(self.blend, str):
            return np.hstack(outputs) @ self.weights_
        return self.final_estimator_.predict(self._meta_features(outputs))


class BlendingClassifier(ClassifierMixin, BlendingBase):
    """Members fitted on a training part, blended on a validation part.

    ``blend="uniform"`` averages the members' class probabilities; ``"linear"`` weighs them by
    the weights on the simplex (w ≥ 0, Σ w = 1) that minimise the squared error of the blended
    probabilities against the one-hot classes on the validation part (B.38), so the blend is
    again a probability vector; an estimator (a classifier) is fitted to the members'
    validation outputs (``stack_method``) and predicts from them (learned blending). The
    members are not refitted on the validation part.

    Parameters
    ----------
    estimators : list of (str, estimator) tuples
        The members (classifiers; "uniform" and "linear" need predict_proba), cloned before
        fitting; ``"drop"`` switches one off.
    blend : {"uniform", "linear"} or estimator, default="linear"
        How to combine the members.
    validation_fraction : float in (0, 1), default=0.25
        The share of the rows held out to fit the blend when ``fit`` gets no ``X_val``; the
        split is stratified by class when every class has two points and both parts can hold
        every class.
    stack_method : {"auto", "predict_proba", "decision_function", "predict"}, default="auto"
        The members' output a learned blend sees ("auto": the first of these the member has).
    n_jobs : int, default=None
        Members fitted in parallel (joblib threads); results do not depend on it.
    random_state : int, RandomState or None, default=None
        Seeds the split (the members keep their own ``random_state``).

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        The class labels, sorted.
    estimators_ : list of estimators
        The fitted members that are not dropped (fitted on the encoded labels).
    named_estimators_ : Bunch
        The fitted members by name.
    weights_ : ndarray of shape (n_members,)
        The blend weights ("uniform", "linear"), on the simplex.
    final_estimator_ : estimator
        The fitted blend, when ``blend`` is an estimator.
    stack_method_ : list of str
        The method that gives each member's output.
    n_features_in_ : int
        The number of input features.
    """

    _plain_method = "predict_proba"
    _parameter_constraints: dict = {
        **BlendingBase._parameter_constraints,
        "stack_method": [StrOptions({"auto", *STACK_METHODS})],
    }

    def __init__(
        self,
        estimators,
        *,
        blend="linear",
        validation_fraction=0.25,
        stack_method="auto",
        n_jobs=None,
        random_state=None,
    ):
        self.estimators = estimators
        self.blend = blend
        self.validation_fraction = validation_fraction
        self.stack_method = stack_method
        self.n_jobs = n_jobs
        self.random_state = random_state

    @_fit_context(prefer_skip_nested_validation=False)
    def fit(self, X, y, sample_weight=None, *, X_val=None, y_val=None, sample_weight_val=None):
        return self._fit_blend(X, y, sample_weight, X_val, y_val, sample_weight_val)

    fit.__doc__ = _BLEND_FIT_DOC

    def predict_log_proba(self, X):
        """ln of :meth:`predict_proba` (−inf where a probability is 0).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The inputs.

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
            The log class probabilities, in the order of ``classes_``.
        """
        with np.errstate(divide="ignore"):
            return np.log(self.predict_proba(X))

    def predict_proba(self, X):
        """Blended class probabilities: Σ_m w_m p_m(x), or the learned blend's.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The inputs.

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
            Columns in the order of ``classes_``.
        """
        X = self._validate_predict(X)
        outputs = self._outputs(X)
        if isinstance(self.blend, str):
            return soft_vote(np.stack(outputs, axis=1), self.weights_)
        meta = self._meta_features(outputs)
        return _member_outputs(self.final_estimator_, meta, "predict_proba", len(self.classes_))

    def predict(self, X):
        """The class with the largest blended probability (or the learned blend's class).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The inputs.

        Returns
        -------
        ndarray of shape (n_samples,)
            Labels from ``classes_``.
        """
        if isinstance(self.blend, str):
            proba = self.predict_proba(X)
            return self.classes_[np.argmax(proba, axis=1)]
        X = self._validate_predict(X)
        meta = self._meta_features(self._outputs(X))
        return self.classes_[np.asarray(self.final_estimator_.predict(meta), dtype=np.intp)]
