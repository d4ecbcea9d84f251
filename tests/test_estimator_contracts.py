"""Every public estimator (found by tests/fuzz_inputs.py's discovery): a pickle round trip,
``clone`` + refit and a second fit with the same ``random_state`` give bitwise identical
predictions, and the results do not depend on ``n_jobs``."""

import pickle

import numpy as np
import pytest
from fuzz_inputs import make_estimator, public_estimators
from sklearn.base import clone, is_classifier
from test_fuzz import fast_estimator

# few EM iterations (the cases are many): the fits stop before convergence by design
pytestmark = pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")

ESTIMATORS = public_estimators()
IDS = [name for name, _ in ESTIMATORS]


def _data(cls):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 3))
    if is_classifier(make_estimator(cls)):
        y = np.where(X[:, 0] - X[:, 1] + 0.5 * rng.normal(size=60) > 0, "b", "a")
    else:
        y = np.sin(2 * X[:, 0]) + X[:, 1] + 0.1 * rng.normal(size=60)
    return X, y


def _outputs(model, X):
    outs = [model.predict(X)]
    for method in ("predict_proba", "decision_function"):
        if hasattr(model, method):
            outs.append(getattr(model, method)(X))
    return outs


def _assert_identical(a, b):
    for x, y in zip(a, b, strict=True):
        np.testing.assert_array_equal(x, y)


@pytest.mark.parametrize("name, cls", ESTIMATORS, ids=IDS)
def test_pickle_round_trip(name, cls):
    X, y = _data(cls)
    model = fast_estimator(cls).fit(X, y)
    restored = pickle.loads(pickle.dumps(model))
    _assert_identical(_outputs(model, X), _outputs(restored, X))


@pytest.mark.parametrize("name, cls", ESTIMATORS, ids=IDS)
def test_clone_and_refit(name, cls):
    X, y = _data(cls)
    model = fast_estimator(cls).fit(X, y)
    _assert_identical(_outputs(model, X), _outputs(clone(model).fit(X, y), X))


@pytest.mark.parametrize("name, cls", ESTIMATORS, ids=IDS)
def test_same_random_state_is_bitwise_identical(name, cls):
    X, y = _data(cls)
    params = {"random_state": 7} if "random_state" in make_estimator(cls).get_params() else {}
    first = fast_estimator(cls, **params).fit(X, y)
    second = fast_estimator(cls, **params).fit(X, y)
    _assert_identical(_outputs(first, X), _outputs(second, X))
    for attribute in ("coef_", "weights_", "estimator_weights_", "lower_bound_"):
        if hasattr(first, attribute):
            np.testing.assert_array_equal(getattr(first, attribute), getattr(second, attribute))


WITH_JOBS = [(n, c) for n, c in ESTIMATORS if "n_jobs" in make_estimator(c).get_params()]


def test_some_estimators_have_n_jobs():
    """The n_jobs test below is not vacuous."""
    assert WITH_JOBS


@pytest.mark.parametrize("name, cls", WITH_JOBS, ids=[n for n, _ in WITH_JOBS])
def test_results_do_not_depend_on_n_jobs(name, cls):
    X, y = _data(cls)
    serial = fast_estimator(cls, n_jobs=1).fit(X, y)
    parallel = fast_estimator(cls, n_jobs=2).fit(X, y)
    _assert_identical(_outputs(serial, X), _outputs(parallel, X))
