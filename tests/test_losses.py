import warnings

import numpy as np
import pytest
from scipy.optimize import minimize_scalar

from prml14 import (
    MARGIN_LOSSES,
    REGRESSION_LOSSES,
    cross_entropy_loss,
    expected_exponential_loss,
    exponential_loss,
    exponential_risk_minimiser,
    hinge_loss,
    hinge_loss_gradient,
    huber_loss,
    misclassification_loss,
    multinomial_log_loss,
    squared_error,
)

Z = np.linspace(-3, 3, 61) + 0.013  # avoid the kinks at 0 and 1


@pytest.mark.equation("14.20")
def test_margin_losses_closed_forms():
    np.testing.assert_allclose(exponential_loss(Z), np.exp(-Z))
    np.testing.assert_allclose(
        cross_entropy_loss(Z), np.log(1 + np.exp(-Z)) / np.log(2), rtol=1e-12
    )
    np.testing.assert_allclose(hinge_loss(Z), np.maximum(0, 1 - Z))
    np.testing.assert_array_equal(misclassification_loss(Z), (Z < 0).astype(float))


def test_all_margin_losses_pass_through_0_1_and_bound_misclassification():
    for name, (loss, _, _) in MARGIN_LOSSES.items():
        if name != "misclassification":  # the step is 1 for z < 0 and 0 from z = 0 on
            np.testing.assert_allclose(loss(0.0), 1.0, err_msg=name)
            assert np.all(loss(Z) >= misclassification_loss(Z)), name
    np.testing.assert_array_equal(misclassification_loss([-1e-9, 0.0]), [1.0, 0.0])


def test_cross_entropy_is_stable_for_large_margins():
    np.testing.assert_allclose(
        cross_entropy_loss([-800.0, 800.0]), [800 / np.log(2), 0.0], atol=1e-300
    )
    assert np.all(np.isfinite(cross_entropy_loss([-1e5, 1e5])))


@pytest.mark.parametrize(
    "losses", [MARGIN_LOSSES, REGRESSION_LOSSES], ids=["margin", "regression"]
)
def test_gradients_and_hessians_match_finite_differences(losses):
    h = 1e-6
    for name, (value, gradient, hessian) in losses.items():
        if gradient is not None:
            fd = (value(Z + h) - value(Z - h)) / (2 * h)
            np.testing.assert_allclose(gradient(Z), fd, rtol=1e-6, atol=1e-7, err_msg=name)
        if hessian is not None:
            fd = (gradient(Z + h) - gradient(Z - h)) / (2 * h)
            np.testing.assert_allclose(hessian(Z), fd, rtol=1e-6, atol=1e-7, err_msg=name)


def test_regression_errors_in_terms_of_margin():
    squared, absolute = REGRESSION_LOSSES["squared"][0], REGRESSION_LOSSES["absolute"][0]
    for t in (-1.0, 1.0):
        y = Z * t  # margin z = t y
        np.testing.assert_allclose(squared(y - t), (1 - Z) ** 2, rtol=1e-12)
        np.testing.assert_allclose(absolute(y - t), np.abs(1 - Z), rtol=1e-12)


@pytest.mark.equation("14.27")
def test_expected_exponential_loss_is_the_average_over_t():
    rng = np.random.default_rng(0)
    p, y = rng.uniform(size=50), rng.normal(size=50)
    # Monte Carlo over t given x, then the closed form
    t = np.where(rng.uniform(size=(200_000, 1)) < p, 1.0, -1.0)
    mc = np.exp(-t * y).mean(axis=0)
    np.testing.assert_allclose(expected_exponential_loss(y, p), mc, rtol=0.03)
    np.testing.assert_allclose(
        expected_exponential_loss(y, p), p * np.exp(-y) + (1 - p) * np.exp(y)
    )


@pytest.mark.equation("14.27", "14.28")
def test_minimiser_of_expected_exponential_loss_is_half_log_odds():
    for p in np.linspace(0.02, 0.98, 25):
        numeric = minimize_scalar(
            lambda y, p=p: expected_exponential_loss(y, p), bracket=(-1, 1), tol=1e-12
        ).x
        np.testing.assert_allclose(numeric, exponential_risk_minimiser(p), atol=1e-6)
        np.testing.assert_allclose(
            exponential_risk_minimiser(p), 0.5 * np.log(p / (1 - p)), rtol=1e-12
        )


@pytest.mark.equation("14.28")
def test_half_log_odds_edge_values():
    np.testing.assert_array_equal(
        exponential_risk_minimiser([0.0, 0.5, 1.0]), [-np.inf, 0.0, np.inf]
    )


def test_bad_input_is_rejected():
    with pytest.raises(ValueError, match="p must hold probabilities"):
        expected_exponential_loss(0.0, 1.5)
    with pytest.raises(ValueError, match="p must hold probabilities"):
        exponential_risk_minimiser(-0.1)
    with pytest.raises(ValueError, match="z must not contain NaN"):
        exponential_loss([np.nan])


def test_extreme_values_give_inf_without_warnings_and_bad_arguments_are_named():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert exponential_loss(-1e300) == np.inf
        assert squared_error(1e300) == np.inf
        assert expected_exponential_loss(1e300, 0.5) == np.inf
        # a term of weight zero is zero, not 0 · inf = NaN
        assert expected_exponential_loss(-1e300, 0.0) == 0.0
        np.testing.assert_array_equal(huber_loss([1e300, 0.5], 1e300), [np.inf, 0.125])
    with pytest.raises(ValueError, match="y and p must broadcast"):
        expected_exponential_loss(np.zeros(3), np.full(2, 0.5))
    with pytest.raises(TypeError, match="delta"):
        huber_loss(0.5, "bogus")
    with pytest.raises(ValueError, match="T must be non-negative"):
        multinomial_log_loss([[-1.0, 2.0]], [[0.0, 1.0]])
    with pytest.raises(ValueError, match="F must not contain NaN or infinity"):
        multinomial_log_loss([[0.0, 1.0]], [[np.inf, 1.0]])


def test_hinge_subgradient_at_the_kink_is_the_right_derivative():
    # documented: −1 for z < 1 and 0 from z = 1 on; both are subgradients at the kink, but the
    # convention decides which points a gradient booster still pushes
    np.testing.assert_array_equal(hinge_loss_gradient([1.0 - 1e-12, 1.0, 1.0 + 1e-12]), [-1, 0, 0])
