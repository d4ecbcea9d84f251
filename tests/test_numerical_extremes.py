"""Numerical extremes the package promises to survive (README / issue 13), beside the ones the
topic test files already cover: AdaBoost for 10⁴ rounds (test_boosting), IRLS on separable data
(test_irls, test_irls_softmax), a mixture component that loses every point (test_mixtures), far
points in the E-step (test_mixtures). Here: trees on 10⁶ identical values and EM fitted to
components a million units apart."""

import numpy as np
import pytest

from prml14 import (
    DecisionTreeClassifier,
    DecisionTreeRegressor,
    MixtureOfLinearRegressions,
    mixture_log_density,
)


def test_tree_on_a_million_identical_values_is_one_leaf_with_the_mean():
    n = 10**6
    X = np.full((n, 1), 3.25)
    t = np.random.default_rng(0).normal(size=n)
    tree = DecisionTreeRegressor().fit(X, t)
    assert tree.tree_.node_count == 1  # no threshold separates identical values
    np.testing.assert_allclose(tree.predict(X[:5]), t.mean(), rtol=1e-12)


def test_classification_tree_on_a_million_identical_values_predicts_the_majority():
    n = 10**6
    X = np.zeros((n, 2))
    y = (np.arange(n) % 3 == 0).astype(int)  # one third ones
    tree = DecisionTreeClassifier().fit(X, y)
    assert tree.tree_.node_count == 1
    np.testing.assert_allclose(tree.predict_proba(X[:1]), [[2 / 3, 1 / 3]], atol=1e-6)


def _two_far_lines(n=400):
    rng = np.random.default_rng(0)
    x = rng.uniform(-1, 1, size=n)
    far = np.arange(n) % 2 == 0
    t = np.where(far, 1e6 + 2.0 * x, -3.0 * x) + 0.01 * rng.normal(size=n)
    return x[:, None], t, far


def _assert_recovers_the_lines(model):
    assert np.all(np.isfinite(model.coef_)) and np.isfinite(model.lower_bound_)
    order = np.argsort(model.coef_[:, 0])  # intercepts: 0 then 1e6
    np.testing.assert_allclose(model.coef_[order, 0], [0.0, 1e6], atol=0.05)
    np.testing.assert_allclose(model.coef_[order, 1], [-3.0, 2.0], atol=0.05)
    np.testing.assert_allclose(model.weights_, [0.5, 0.5], atol=1e-6)


def test_em_stays_exact_with_components_a_million_units_apart():
    """Started from slightly perturbed true responsibilities, EM converges to the two lines
    without overflow or loss of precision (residuals of 1e6 against a noise of 0.01)."""
    X, t, far = _two_far_lines()
    init = np.column_stack([far, ~far]).astype(float) * 0.9 + 0.05
    model = MixtureOfLinearRegressions(2, init=init, random_state=0).fit(X, t)
    _assert_recovers_the_lines(model)


def test_random_starts_can_stop_at_the_one_least_squares_line():
    """The documented limit of ``init="random"``: every component starts near the one
    least-squares line (intercept ≈ 5e5, halfway between the lines), where the log-likelihood
    is nearly flat, and EM stops there."""
    X, t, _ = _two_far_lines()
    model = MixtureOfLinearRegressions(2, random_state=0, n_init=3).fit(X, t)
    assert np.all(np.abs(model.coef_[:, 0] - 5e5) < 5e4)


@pytest.mark.parametrize("seed", range(5))
def test_kmeans_start_separates_components_a_million_units_apart(seed):
    X, t, _ = _two_far_lines()
    model = MixtureOfLinearRegressions(2, init="kmeans", random_state=seed).fit(X, t)
    _assert_recovers_the_lines(model)


def test_kmeans_start_ignores_points_of_zero_weight():
    """Zero-weight outliers change neither the scaling nor the clusters of the k-means start:
    without the weights they would take a cluster of their own."""
    X, t, _ = _two_far_lines()
    X_out = np.vstack([X, np.full((20, 1), 50.0)])
    t_out = np.concatenate([t, np.full(20, -1e8)])
    weight = np.concatenate([np.ones(len(t)), np.zeros(20)])
    model = MixtureOfLinearRegressions(2, init="kmeans", random_state=0)
    _assert_recovers_the_lines(model.fit(X_out, t_out, sample_weight=weight))


@pytest.mark.parametrize("distance", [1e3, 1e6, 1e150])
def test_mixture_log_density_between_far_components_is_finite(distance):
    x = np.array([0.0, distance / 2, distance])
    log_p = mixture_log_density(x, [0.5, 0.5], [0.0, distance], [1.0, 1.0])
    assert np.all(np.isfinite(log_p))
    # at each centre the density is half a unit Gaussian's peak
    np.testing.assert_allclose(log_p[[0, 2]], np.log(0.5) - 0.5 * np.log(2 * np.pi))
