"""The shared machinery of :mod:`prml14.committees.combining_estimators` and
:mod:`prml14.committees.stacking_estimators`: named members (``get_params``/``set_params`` like
scikit-learn's heterogeneous ensembles), their checks and
fitting, label encoding, member outputs and meta-features."""

from __future__ import annotations

from numbers import Integral, Real

import numpy as np
from scipy import sparse
from sklearn.base import BaseEstimator, clone, is_classifier, is_regressor
from sklearn.model_selection import train_test_split
from sklearn.utils import Bunch, get_tags
from sklearn.utils._param_validation import HasMethods, Interval, StrOptions
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.parallel import Parallel, delayed
from sklearn.utils.validation import (
    check_is_fitted,
    has_fit_parameter,
    validate_data,
)

from .._validation import check_sample_weight
from .combining import _member_outputs, linear_blend_weights

__all__ = [
    "BaseCombiner",
    "BlendingBase",
    "STACK_METHODS",
    "X_CHECKS",
    "fit_one",
    "kept_weights",
    "labels_with_reject",
    "require_proba",
]

STACK_METHODS = ("predict_proba", "decision_function", "predict")
X_CHECKS = {"accept_sparse": ["csr", "csc"], "dtype": None, "ensure_all_finite": False}


def fit_one(estimator, X, y, sample_weight):
    if sample_weight is None:
        return estimator.fit(X, y)
    return estimator.fit(X, y, sample_weight=sample_weight)


class BaseCombiner(BaseEstimator):
    """Named members (get/set_params like scikit-learn's heterogeneous ensembles), their
    validation and fitting, label encoding and the members' outputs."""

    # ------------------------------------------------------------------ parameters
    def get_params(self, deep=True):
        """Parameters, and with ``deep`` each member by name and its own ``name__param``."""
        params = super().get_params(deep=deep)
        if deep and isinstance(getattr(self, "estimators", None), list):
            for item in self.estimators:
                if isinstance(item, tuple) and len(item) == 2:
                    name, est = item
                    params[name] = est
                    if hasattr(est, "get_params"):
                        for key, value in est.get_params(deep=True).items():
                            params[f"{name}__{key}"] = value
        return params

    def set_params(self, **params):
        """Set parameters; a member's name replaces that member (``"drop"`` switches it off)."""
        if "estimators" in params:
            self.estimators = params.pop("estimators")
        items = self.estimators if isinstance(self.estimators, list) else []
        names = [i[0] for i in items if isinstance(i, tuple) and len(i) == 2]
        for name in [key for key in params if key in names]:
            self.estimators = [(n, params[name] if n == name else e) for n, e in self.estimators]
            del params[name]
        return super().set_params(**params)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        try:  # the members decide whether NaN and sparse inputs are accepted
            members = [e for _, e in self.estimators if not (isinstance(e, str) and e == "drop")]
            tags.input_tags.allow_nan = all(get_tags(e).input_tags.allow_nan for e in members)
            tags.input_tags.sparse = all(get_tags(e).input_tags.sparse for e in members)
        except (TypeError, ValueError, AttributeError):
            pass  # an invalid estimators list: fit raises the error
        return tags

    # ------------------------------------------------------------------ members
    def _members(self):
        """The (name, estimator) pairs that are not dropped, after checking the list."""
        if not isinstance(self.estimators, list) or not self.estimators:
            raise ValueError(
                "estimators must be a non-empty list of (name, estimator) tuples, "
                f"got {self.estimators!r}"
            )
        if not all(isinstance(i, tuple) and len(i) == 2 for i in self.estimators):
            raise ValueError("each item of estimators must be a (name, estimator) tuple")
        names = [name for name, _ in self.estimators]
        bad = [n for n in names if not isinstance(n, str) or "__" in n or n in self._param_names]
        if bad or len(set(names)) != len(names):
            raise ValueError(
                "estimator names must be unique strings without '__' that are not parameter "
                f"names of {type(self).__name__}; got {names}"
            )
        kept = [(n, e) for n, e in self.estimators if not (isinstance(e, str) and e == "drop")]
        if not kept:
            raise ValueError("all estimators are dropped: at least one is required")
        for name, est in kept:
            if not (hasattr(est, "fit") and hasattr(est, "predict")):
                raise TypeError(f"estimator {name!r} must have fit and predict, got {est!r}")
            if self._member_kind == "classifier" and not is_classifier(est):
                raise ValueError(f"estimator {name!r} should be a classifier, got {est!r}")
            if self._member_kind == "regressor" and not is_regressor(est):
                raise ValueError(f"estimator {name!r} should be a regressor, got {est!r}")
        return kept

    @property
    def _param_names(self):
        return set(self._get_param_names())

    _member_kind = None  # "classifier" / "regressor": what every member must be

    def _fit_members(self, members, X, y, sample_weight):
        if sample_weight is not None:
            for name, est in members:
                if not has_fit_parameter(est, "sample_weight"):
                    raise TypeError(
                        f"sample_weight was given but estimator {name!r} "
                        f"({type(est).__name__}) does not accept sample_weight in fit"
                    )
        fitted = Parallel(n_jobs=self.n_jobs, prefer="threads")(
            delayed(fit_one)(clone(est), X, y, sample_weight) for _, est in members
        )
        self.estimators_ = fitted
        self.named_estimators_ = Bunch(**dict(zip([n for n, _ in members], fitted, strict=True)))
        return fitted

    def _validate(self, X, y, reset=True):
        classifier = is_classifier(self)
        X, y = validate_data(self, X, y, reset=reset, y_numeric=not classifier, **X_CHECKS)
        if classifier:
            check_classification_targets(y)
            if reset:
                self.classes_, y = np.unique(y, return_inverse=True)
            else:
                y = self._encode(y)
        return X, y

    def _encode(self, y):
        unknown = ~np.isin(y, self.classes_)
        if np.any(unknown):
            raise ValueError(f"y_val holds labels not in y: {np.unique(y[unknown])[:5]}")
        return np.searchsorted(self.classes_, y)

    def _validate_predict(self, X):
        check_is_fitted(self)
        return validate_data(self, X, reset=False, **X_CHECKS)

    def _names_out(self, widths, input_features=None, passthrough=False):
        """scikit-learn's output names: ``<class>_<member>`` for a member giving one column,
        ``<class>_<member><i>`` for one giving several, then the inputs' with passthrough."""
        check_is_fitted(self, "n_features_in_")
        input_features = self._input_names(input_features)
        prefix = type(self).__name__.lower()
        names = [n for n, e in self.estimators if not (isinstance(e, str) and e == "drop")]
        out = []
        for name, width in zip(names, widths, strict=True):
            out += (
                [f"{prefix}_{name}"]
                if width == 1
                else [f"{prefix}_{name}{i}" for i in range(width)]
            )
        if passthrough:
            out += list(input_features)
        return np.asarray(out, dtype=object)

    def _input_names(self, input_features):
        """scikit-learn's rule for the input names: given ones must be one per input and match
        ``feature_names_in_``; else ``feature_names_in_``, else ``x0``, ``x1``, ..."""
        known = getattr(self, "feature_names_in_", None)
        if input_features is None:
            if known is not None:
                return list(known)
            return [f"x{i}" for i in range(self.n_features_in_)]
        input_features = np.asarray(input_features, dtype=object)
        if input_features.shape != (self.n_features_in_,):
            raise ValueError(
                f"input_features should have length equal to the {self.n_features_in_} "
                f"features of X, got {input_features.shape[0] if input_features.ndim else 0}"
            )
        if known is not None and not np.array_equal(input_features, known):
            raise ValueError("input_features is not equal to feature_names_in_")
        return list(input_features)

    def _n_classes(self):
        return len(self.classes_) if is_classifier(self) else None

    def _meta_features(self, outputs, X=None):
        """Concatenate member outputs (binary probabilities lose their redundant first column,
        as in scikit-learn) and, with passthrough, the inputs."""
        blocks = [
            out[:, 1:] if meth == "predict_proba" and len(self.classes_) == 2 else out
            for out, meth in zip(outputs, self.stack_method_, strict=True)
        ]
        if X is not None:
            if sparse.issparse(X):
                return sparse.hstack([*blocks, X], format=X.format)
            blocks.append(np.asarray(X))
        return np.hstack(blocks)

    def _resolve_methods(self, members):
        if not is_classifier(self):
            return ["predict"] * len(members)
        wanted = STACK_METHODS if self.stack_method == "auto" else (self.stack_method,)
        methods = []
        for name, est in members:
            found = [m for m in wanted if hasattr(est, m)]
            if not found:
                raise ValueError(f"estimator {name!r} does not implement {self.stack_method}")
            methods.append(found[0])
        return methods


def kept_weights(weights, estimators):
    """The weights of the members that are not dropped, normalised; checked."""
    kept = np.array([not (isinstance(e, str) and e == "drop") for _, e in estimators])
    if weights is None:
        return np.full(kept.sum(), 1.0 / kept.sum())
    w = np.asarray(weights, dtype=float)
    if w.shape != (len(estimators),):
        raise ValueError(
            f"weights must have one entry per estimator ({len(estimators)}), got shape {w.shape}"
        )
    if not np.all(np.isfinite(w)) or np.any(w < 0) or not np.any(w[kept] > 0):
        raise ValueError(
            f"weights must be finite, non-negative and not all zero, got {w.tolist()}"
        )
    return w[kept] / w[kept].sum()


def require_proba(members, why):
    for name, est in members:
        if not hasattr(est, "predict_proba"):
            raise TypeError(
                f"{why} needs predict_proba, but estimator {name!r} "
                f"({type(est).__name__}) has none"
            )


def labels_with_reject(classes, index, reject_label):
    """``classes[index]``, with ``reject_label`` where the index is −1."""
    rejected = index < 0
    if not rejected.any():
        return classes[index]
    try:
        dtype = np.result_type(classes.dtype, np.asarray(reject_label).dtype)
    except TypeError:
        dtype = object
    out = classes[np.where(rejected, 0, index)].astype(dtype)
    out[rejected] = reject_label
    return out


class BlendingBase(BaseCombiner):
    """What the two blending estimators share: the split, the members and the blend."""

    _parameter_constraints: dict = {
        "estimators": [list],
        "blend": [StrOptions({"uniform", "linear"}), HasMethods(["fit", "predict"])],
        "validation_fraction": [Interval(Real, 0, 1, closed="neither")],
        "n_jobs": [None, Integral],
        "random_state": ["random_state"],
    }

    def _split(self, y):
        """Training and validation row indices (stratified by class where possible)."""
        n = y.shape[0]
        if n < 2:
            raise ValueError(
                f"blending needs at least 2 samples to split off a validation part, got {n} sample"
            )
        stratify = None
        if is_classifier(self):
            n_val = int(np.ceil(self.validation_fraction * n))
            K = len(self.classes_)
            if np.bincount(y).min() >= 2 and min(n_val, n - n_val) >= K:
                stratify = y
        return train_test_split(
            np.arange(n),
            test_size=self.validation_fraction,
            stratify=stratify,
            random_state=self.random_state,
        )

    def _fit_blend(self, X, y, sample_weight, X_val, y_val, sample_weight_val):
        X, y = self._validate(X, y)
        members = self._members()
        learned = not isinstance(self.blend, str)
        if learned:
            if is_classifier(self) and not is_classifier(self.blend):
                raise ValueError(
                    f"blend must be 'uniform', 'linear' or a classifier: {self.blend!r}"
                )
            if is_regressor(self) and not is_regressor(self.blend):
                raise ValueError(
                    f"blend must be 'uniform', 'linear' or a regressor: {self.blend!r}"
                )
        elif is_classifier(self):
            require_proba(members, f"blend={self.blend!r}")
        if sample_weight is not None:
            sample_weight = check_sample_weight(sample_weight, X)
        if X_val is None:
            if y_val is not None or sample_weight_val is not None:
                raise ValueError("y_val and sample_weight_val need X_val")
            train, val = self._split(y)
            X_val, y_val, X, y = X[val], y[val], X[train], y[train]
            if sample_weight is not None:
                sample_weight, sample_weight_val = sample_weight[train], sample_weight[val]
        else:
            if y_val is None:
                raise ValueError("X_val was given without y_val")
            X_val, y_val = self._validate(X_val, y_val, reset=False)
            if sample_weight_val is not None:
                sample_weight_val = check_sample_weight(sample_weight_val, X_val)
        self._fit_members(members, X, y, sample_weight)
        self.stack_method_ = (
            self._resolve_methods(members) if learned else [self._plain_method] * len(members)
        )
        outputs = self._outputs(X_val)
        if learned:
            params = {} if sample_weight_val is None else {"sample_weight": sample_weight_val}
            self.final_estimator_ = clone(self.blend).fit(
                self._meta_features(outputs), y_val, **params
            )
        elif self.blend == "uniform":
            self.weights_ = np.full(len(members), 1.0 / len(members))
        elif is_classifier(self):
            targets = np.eye(len(self.classes_))[y_val]  # one-hot t_nk
            self.weights_ = linear_blend_weights(
                np.stack(outputs, axis=1),
                targets,
                sum_to_one=True,
                sample_weight=sample_weight_val,
            )
        else:
            self.weights_ = linear_blend_weights(
                np.hstack(outputs), y_val, sample_weight=sample_weight_val
            )
        return self

    def _outputs(self, X):
        return [
            _member_outputs(est, X, meth, self._n_classes())
            for est, meth in zip(self.estimators_, self.stack_method_, strict=True)
        ]
