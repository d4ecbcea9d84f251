"""Conventions the estimators share (prml14._validation): labels, messages, signatures, seeds."""

import inspect
import numbers

import numpy as np
import pytest

from prml14 import (
    AdaBoostClassifier,
    BaggingClassifier,
    BaggingRegressor,
    DecisionStump,
    HierarchicalMixtureOfExpertsClassifier,
    HierarchicalMixtureOfExpertsRegressor,
    MixtureOfExpertsClassifier,
    MixtureOfExpertsRegressor,
    MixtureOfLinearRegressions,
    MixtureOfLogisticRegressions,
)
from prml14._validation import binary_targets, fitted_binary_targets

BINARY = [
    DecisionStump(),
    MixtureOfLogisticRegressions(2, random_state=0, l2=1e-2),
    MixtureOfExpertsClassifier(2, random_state=0),
]


def test_binary_targets_codes_the_sorted_labels():
    classes, t = binary_targets(np.array(["b", "a", "b"]))
    assert classes.tolist() == ["a", "b"]
    np.testing.assert_array_equal(t, [1.0, -1.0, 1.0])


def test_fitted_binary_targets_names_the_unknown_label():
    np.testing.assert_array_equal(
        fitted_binary_targets([3, 7, 7], np.array([3, 7])), [0.0, 1.0, 1.0]
    )
    with pytest.raises(
        ValueError,
        match=r"y contains labels not seen in fit: \[5\]; the fitted classes are \[3, 7\]",
    ):
        fitted_binary_targets([3, 5], np.array([3, 7]))


@pytest.mark.parametrize("model", BINARY, ids=lambda m: type(m).__name__)
def test_binary_classifiers_agree_on_labels(model, wavy_classes):
    X, t = wavy_classes(40, random_state=0, float32=False)
    y = np.where(t > 0, "yes", "no")
    model.fit(X, y)
    assert model.classes_.tolist() == ["no", "yes"]
    with pytest.raises(
        ValueError,
        match="Only binary classification is supported. The type of the target is multiclass",
    ):
        model.fit(X, np.arange(40) % 3)
    with pytest.raises(ValueError, match=r"exactly two classes .*got 1 class"):
        model.fit(X, np.zeros(40, dtype=int))


# Every (class, method) pair that must exist: a rename fails here instead of being skipped.
DENSITY_METHODS = [
    (MixtureOfLinearRegressions, "predict_density"),
    (MixtureOfLinearRegressions, "log_likelihood"),
    (MixtureOfLogisticRegressions, "log_likelihood"),
    (MixtureOfExpertsRegressor, "predict_density"),
    (MixtureOfExpertsRegressor, "log_likelihood"),
    (MixtureOfExpertsClassifier, "predict_density"),
    (MixtureOfExpertsClassifier, "log_likelihood"),
    (HierarchicalMixtureOfExpertsRegressor, "predict_density"),
    (HierarchicalMixtureOfExpertsRegressor, "log_likelihood"),
    (HierarchicalMixtureOfExpertsClassifier, "predict_density"),
    (HierarchicalMixtureOfExpertsClassifier, "log_likelihood"),
]


@pytest.mark.parametrize("cls, method", DENSITY_METHODS, ids=lambda v: getattr(v, "__name__", v))
def test_density_methods_take_X_and_y_everywhere(cls, method):
    assert list(inspect.signature(getattr(cls, method)).parameters) == ["self", "X", "y"]


@pytest.mark.parametrize(
    "model",
    [
        DecisionStump(),
        AdaBoostClassifier(n_estimators=5, store_weights=True),
        BaggingRegressor(n_estimators=25, oob_score=True, random_state=0),
        BaggingClassifier(n_estimators=25, oob_score=True, random_state=0),
    ],
    ids=lambda m: type(m).__name__,
)
def test_fitted_attributes_end_with_an_underscore(model, wavy_classes):
    X, t = wavy_classes(60, random_state=1)
    before = set(vars(model))
    model.fit(X, t)
    added = set(vars(model)) - before
    assert added, "fit stored nothing"
    assert all(name.endswith("_") for name in added), sorted(added)


def test_random_state_params_finds_nested_ones_and_ensembles_seed_them():
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    from sklearn.tree import DecisionTreeClassifier

    from prml14._validation import random_state_params

    pipe = make_pipeline(StandardScaler(), DecisionTreeClassifier(max_depth=1))
    assert random_state_params(pipe) == ["decisiontreeclassifier__random_state"]
    assert random_state_params(StandardScaler()) == []
    rng = np.random.RandomState(0)
    X, y = rng.normal(size=(60, 3)), np.arange(60) % 2
    tree = DecisionTreeClassifier(max_depth=2, max_features=1)
    boost = AdaBoostClassifier(tree, n_estimators=3, random_state=0).fit(X, y)
    bag = BaggingClassifier(pipe, n_estimators=3, random_state=0).fit(X, y)
    assert all(isinstance(m.random_state, numbers.Integral) for m in boost.estimators_)
    assert all(
        isinstance(m.get_params()["decisiontreeclassifier__random_state"], numbers.Integral)
        for m in bag.estimators_
    )
    assert (
        tree.random_state is None
        and pipe.get_params()["decisiontreeclassifier__random_state"] is None
    )


def test_too_many_components_name_the_parameter():
    X, y = np.arange(6.0)[:, None], np.arange(6.0)
    labels = np.arange(6) % 2
    for model, target, message in [
        (MixtureOfLinearRegressions(7), y, "n_components=7 must be <= n_samples=6"),
        (MixtureOfLogisticRegressions(7), labels, "n_components=7 must be <= n_samples=6"),
        (MixtureOfExpertsRegressor(7), y, "n_components=7 experts must be <= n_samples=6"),
        (
            MixtureOfExpertsClassifier(7),
            labels,
            "n_components=7 experts must be <= n_samples=6",
        ),
        (
            HierarchicalMixtureOfExpertsRegressor(2, 3),
            y,
            r"branching\*\*n_levels=8 experts must be <= n_samples=6",
        ),
        (
            HierarchicalMixtureOfExpertsClassifier(2, 3),
            labels,
            r"branching\*\*n_levels=8 experts must be <= n_samples=6",
        ),
    ]:
        with pytest.raises(ValueError, match=message):
            model.fit(X, target)


def test_convergence_warnings_point_at_the_caller():
    from sklearn.exceptions import ConvergenceWarning

    from prml14.committees.bma import fit_combination_weights

    rng = np.random.RandomState(0)
    X = rng.normal(size=(100, 1))
    t = X[:, 0] + rng.normal(size=100)
    calls = [
        lambda: MixtureOfLinearRegressions(2, max_iter=1, random_state=0).fit(X, t),
        lambda: MixtureOfExpertsRegressor(2, max_iter=1, random_state=0).fit(X, t),
        lambda: HierarchicalMixtureOfExpertsRegressor(2, 1, max_iter=1, random_state=0).fit(X, t),
        # separable labels: the IRLS M-step warns before EM does
        lambda: MixtureOfLogisticRegressions(2, random_state=0).fit(X, (X[:, 0] > 0).astype(int)),
        lambda: fit_combination_weights(np.log(rng.uniform(size=(50, 3))), max_iter=1),
    ]
    for call in calls:
        with pytest.warns(ConvergenceWarning) as record:
            call()
        assert record[0].filename == __file__, record[0].filename
