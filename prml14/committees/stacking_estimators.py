"""Stacking (Wolpert 1992; Breiman 1996): a final estimator trained on out-of-fold predictions.

The members are fitted on all the training data (``estimators_``, used at prediction time);
the final estimator is trained on the meta-features (B.40), where each row holds the outputs of
members that were fitted on the other folds and never saw that row. In-sample outputs would tell
the final estimator that an overfitting member is always right (page B.11 shows it).

With the same folds, members, ``stack_method`` and final estimator, :class:`StackingClassifier`
and :class:`StackingRegressor` predict what scikit-learn's ``Stacking*`` predict (the tests check
it). Voting and blending are in :mod:`prml14.committees.combining_estimators`.
"""

from __future__ import annotations

from numbers import Integral

import numpy as np
from sklearn.base import (
    ClassifierMixin,
    RegressorMixin,
    TransformerMixin,
    _fit_context,
    clone,
    is_classifier,
    is_regressor,
)
from sklearn.exceptions import NotFittedError
from sklearn.linear_model import LogisticRegression, RidgeCV
from sklearn.model_selection import StratifiedKFold, check_cv
from sklearn.utils import Bunch
from sklearn.utils._param_validation import HasMethods, StrOptions
from sklearn.utils.metaestimators import available_if
from sklearn.utils.validation import check_is_fitted

from .._validation import check_sample_weight
from ._combiners import STACK_METHODS, BaseCombiner
from .combining import _out_of_fold_predictions

__all__ = ["StackingClassifier", "StackingRegressor"]


def _final_has(method):
    """Make a method available only if the final estimator (fitted or not) has ``method``."""

    def check(self):
        final = getattr(self, "final_estimator_", None)
        final = self._default_final() if final is None else final
        return hasattr(final, method)

    return check


class _Stacking(TransformerMixin, BaseCombiner):
    _parameter_constraints: dict = {
        "estimators": [list],
        "final_estimator": [None, HasMethods(["fit", "predict"])],
        "cv": ["cv_object", StrOptions({"prefit"})],
        "passthrough": ["boolean"],
        "n_jobs": [None, Integral],
    }

    def _default_final(self):
        if self.final_estimator is not None:
            return self.final_estimator
        return LogisticRegression() if is_classifier(self) else RidgeCV()

    def _fit_stack(self, X, y, sample_weight):
        X, y = self._validate(X, y)
        members = self._members()
        final = self._default_final()
        if is_classifier(self) and not is_classifier(final):
            raise ValueError(f"final_estimator must be a classifier, got {final!r}")
        if is_regressor(self) and not is_regressor(final):
            raise ValueError(f"final_estimator must be a regressor, got {final!r}")
        if sample_weight is not None:
            sample_weight = check_sample_weight(sample_weight, X)
        self.stack_method_ = self._resolve_methods(members)
        if self._prefit():
            outputs = self._prefit_outputs(members, X)
        else:
            outputs = self._out_of_fold_outputs(members, X, y, sample_weight)
        self._n_feature_outs = [
            out.shape[1] - (meth == "predict_proba" and self._n_classes() == 2)
            for out, meth in zip(outputs, self.stack_method_, strict=True)
        ]
        meta = self._meta_features(outputs, X if self.passthrough else None)
        params = {} if sample_weight is None else {"sample_weight": sample_weight}
        self.final_estimator_ = clone(final).fit(meta, y, **params)
        return self

    def _prefit(self):
        return isinstance(self.cv, str) and self.cv == "prefit"

    def _prefit_outputs(self, members, X):
        """``cv="prefit"``: the members as given (not cloned, not refitted) and their outputs on
        X, which should be data they were not trained on (scikit-learn's semantics)."""
        for name, est in members:
            try:
                check_is_fitted(est)
            except NotFittedError as error:
                raise NotFittedError(
                    f"cv='prefit' needs fitted estimators; estimator {name!r} is not: {error}"
                ) from None
            if is_classifier(self) and not np.array_equal(
                np.asarray(getattr(est, "classes_", self.classes_)), self.classes_
            ):
                raise ValueError(
                    f"the prefit estimator {name!r} has classes {est.classes_!r}, y has "
                    f"{self.classes_!r}: with cv='prefit' they must be the same"
                )
        self.estimators_ = [est for _, est in members]
        self.named_estimators_ = Bunch(**dict(members))
        return [
            self._member_output(est, X, meth)
            for (_, est), meth in zip(members, self.stack_method_, strict=True)
        ]

    def _member_output(self, est, X, meth):
        """One member's output as a 2-D block; a prefit classifier's ``predict`` (labels) is
        encoded as the class index, as members fitted here predict it."""
        out = np.asarray(getattr(est, meth)(X)).reshape(X.shape[0], -1)
        if meth == "predict" and is_classifier(self) and self._prefit():
            out = self._encode(out.ravel()).reshape(-1, 1)
        return out

    def _out_of_fold_outputs(self, members, X, y, sample_weight):
        """The members fitted on all of (X, y) and their out-of-fold outputs (B.40)."""
        self._fit_members(members, X, y, sample_weight)
        # One list of folds for every member: the same rows are held out for all of them.
        cv = check_cv(self.cv, y, classifier=is_classifier(self))
        if is_classifier(self) and isinstance(cv, StratifiedKFold):
            smallest = int(np.unique(y, return_counts=True)[1].min())
            if smallest < cv.get_n_splits():
                raise ValueError(
                    f"y has a class with {smallest} sample(s), fewer than the "
                    f"{cv.get_n_splits()} folds of cv: every fold needs every class"
                )
        folds = list(cv.split(X, y))
        outputs = [
            _out_of_fold_predictions(
                est,
                X,
                y,
                folds,
                meth,
                n_classes=self._n_classes(),
                sample_weight=sample_weight,
                n_jobs=self.n_jobs,
            )
            for (_, est), meth in zip(members, self.stack_method_, strict=True)
        ]
        return outputs

    def transform(self, X):
        """The meta-features of X: the fitted members' outputs (and X itself with passthrough).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The inputs.

        Returns
        -------
        ndarray or sparse matrix of shape (n_samples, n_meta_features)
            Member outputs side by side (a binary ``predict_proba`` keeps only the second
            class's column), then the inputs if ``passthrough``.
        """
        X = self._validate_predict(X)
        outputs = [
            self._member_output(est, X, meth)
            for est, meth in zip(self.estimators_, self.stack_method_, strict=True)
        ]
        return self._meta_features(outputs, X if self.passthrough else None)

    def get_feature_names_out(self, input_features=None):
        """Names of the columns of :meth:`transform`, as scikit-learn's ``Stacking*``.

        Parameters
        ----------
        input_features : array-like of str or None, default=None
            The input names, used with ``passthrough`` (default: ``feature_names_in_`` or
            ``x0``, ``x1``, ...); checked against ``feature_names_in_`` if both exist.

        Returns
        -------
        ndarray of str objects
            ``"<class>_<name>"`` for a member giving one column, ``"<class>_<name><i>"`` for
            one giving several, then the input names with ``passthrough``.
        """
        check_is_fitted(self, "n_features_in_")
        return self._names_out(self._n_feature_outs, input_features, self.passthrough)


_STACK_FIT_DOC = """Fit the members on all of (X, y), the final estimator on out-of-fold outputs.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The inputs.
        y : array-like of shape (n_samples,)
            The targets.
        sample_weight : array-like of shape (n_samples,), default=None
            Passed to every member's ``fit`` (restricted to the training folds) and to the
            final estimator's.

        Returns
        -------
        object
            The fitted ensemble.

        Raises
        ------
        ValueError
            If X is empty, not 2-D, not numeric, complex, or holds NaN or ±inf, or has fewer
            samples than the folds of cv (a classifier: a class of y has fewer); y (a
            regressor's) holds NaN or ±inf or exceeds 1e100 in magnitude, or the final estimator
            refuses y (a single class); sample_weight is negative, NaN, all zero, beyond 1e100
            in magnitude or not one per sample; estimators is an empty list; n_jobs is 0; an
            estimator lacks the method stack_method names; cv is "prefit" and an estimator is
            not fitted (scikit-learn's NotFittedError, a ValueError); or a hyper-parameter is
            outside its declared constraints (scikit-learn's InvalidParameterError, which is
            also a TypeError).
        """


_STACK_PARAMS = """
    Parameters
    ----------
    estimators : list of (str, estimator) tuples
        The members, cloned before fitting; ``"drop"`` switches one off.
    final_estimator : estimator, default=None
        Trained on the meta-features; None means {default}.
    cv : int, cross-validation generator, iterable or "prefit", default=None
        The folds, through ``sklearn.model_selection.check_cv`` (None: 5 folds{strat});
        they are drawn once and shared by all members. ``"prefit"``: the members are already
        fitted; they are used as given (not cloned, not refitted) and the final estimator is
        trained on their outputs on the X passed to ``fit`` (as in scikit-learn), which should
        be rows the members never saw, else it learns to trust an overfitting member. A prefit
        classifier must have the ``classes_`` of y.{method}
    passthrough : bool, default=False
        Append the inputs X to the meta-features.
    n_jobs : int, default=None
        Members and folds fitted in parallel (joblib threads); results do not depend on it.
"""


class StackingRegressor(RegressorMixin, _Stacking):
    __doc__ = (
        """Stacked regression: a final regressor trained on the members' out-of-fold predictions.

    Breiman's stacked regressions use a non-negative linear final estimator, e.g.
    ``LinearRegression(positive=True, fit_intercept=False)`` (the weights of (B.38) fitted on
    out-of-fold predictions).
"""
        + _STACK_PARAMS.format(default="``RidgeCV()``", strat="", method="")
        + """
    Attributes
    ----------
    estimators_ : list of estimators
        The members fitted on all the data (used by ``predict``).
    named_estimators_ : Bunch
        The fitted members by name.
    final_estimator_ : estimator
        The final estimator, fitted on the out-of-fold meta-features (B.40).
    stack_method_ : list of str
        The method giving each member's output (``"predict"``).
    n_features_in_ : int
        The number of input features.
    """
    )

    def __init__(
        self, estimators, final_estimator=None, *, cv=None, passthrough=False, n_jobs=None
    ):
        self.estimators = estimators
        self.final_estimator = final_estimator
        self.cv = cv
        self.passthrough = passthrough
        self.n_jobs = n_jobs

    @_fit_context(prefer_skip_nested_validation=False)
    def fit(self, X, y, sample_weight=None):
        return self._fit_stack(X, y, sample_weight)

    fit.__doc__ = _STACK_FIT_DOC

    def predict(self, X):
        """The final estimator's prediction from the members' predictions.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The inputs.

        Returns
        -------
        ndarray of shape (n_samples,)
            The predictions.
        """
        meta = self.transform(X)
        return self.final_estimator_.predict(meta)


class StackingClassifier(ClassifierMixin, _Stacking):
    __doc__ = (
        """Stacked classification: a final classifier trained on the members' out-of-fold outputs.
"""
        + _STACK_PARAMS.format(
            default="``LogisticRegression()``",
            strat=", stratified",
            method="""
    stack_method : {"auto", "predict_proba", "decision_function", "predict"}, default="auto"
        The members' output used as meta-features ("auto": the first of these a member
        has; ``"predict"`` gives the encoded class index).""",
        )
        + """
    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        The class labels, sorted.
    estimators_ : list of estimators
        The members fitted on all the data (on the encoded labels), used by ``predict``.
    named_estimators_ : Bunch
        The fitted members by name.
    final_estimator_ : estimator
        The final estimator, fitted on the out-of-fold meta-features (B.40).
    stack_method_ : list of str
        The method giving each member's output.
    n_features_in_ : int
        The number of input features.
    """
    )

    _parameter_constraints: dict = {
        **_Stacking._parameter_constraints,
        "stack_method": [StrOptions({"auto", *STACK_METHODS})],
    }

    def __init__(
        self,
        estimators,
        final_estimator=None,
        *,
        cv=None,
        stack_method="auto",
        passthrough=False,
        n_jobs=None,
    ):
        self.estimators = estimators
        self.final_estimator = final_estimator
        self.cv = cv
        self.stack_method = stack_method
        self.passthrough = passthrough
        self.n_jobs = n_jobs

    @_fit_context(prefer_skip_nested_validation=False)
    def fit(self, X, y, sample_weight=None):
        return self._fit_stack(X, y, sample_weight)

    fit.__doc__ = _STACK_FIT_DOC

    def predict(self, X):
        """The final estimator's class from the members' outputs.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The inputs.

        Returns
        -------
        ndarray of shape (n_samples,)
            Labels from ``classes_``.
        """
        meta = self.transform(X)
        index = np.asarray(self.final_estimator_.predict(meta), dtype=np.intp)
        return self.classes_[index]

    @available_if(_final_has("predict_proba"))
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

    @available_if(_final_has("predict_proba"))
    def predict_proba(self, X):
        """The final estimator's class probabilities.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The inputs.

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
            Columns in the order of ``classes_``.
        """
        meta = self.transform(X)
        return self.final_estimator_.predict_proba(meta)

    @available_if(_final_has("decision_function"))
    def decision_function(self, X):
        """The final estimator's decision function.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The inputs.

        Returns
        -------
        ndarray of shape (n_samples,) or (n_samples, n_classes)
            As the final estimator returns it.
        """
        meta = self.transform(X)
        return self.final_estimator_.decision_function(meta)
