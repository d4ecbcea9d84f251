import numpy as np
import pytest
from scipy.stats import norm

from prml14 import (
    affine_features,
    conditional_mixture_density,
    log_conditional_mixture_density,
    softmax_gates,
)


@pytest.fixture
def gated_gaussians():
    rng = np.random.default_rng(3)
    x = rng.uniform(-2, 2, size=(25, 2))
    V = rng.normal(size=(3, 4))
    means = rng.normal(size=4) + x @ rng.normal(size=(2, 4))
    scales = rng.uniform(0.2, 1.0, size=4)
    return x, V, means, scales


@pytest.mark.equation("14.1")
def test_density_integrates_to_one_for_every_input(gated_gaussians):
    x, V, means, scales = gated_gaussians
    t = np.linspace(-15, 15, 20001)
    density = conditional_mixture_density(
        softmax_gates(x, V), norm.pdf(t[:, None, None], means, scales)
    )
    np.testing.assert_allclose(np.trapezoid(density, t, axis=0), 1.0, atol=1e-8)


@pytest.mark.equation("14.1")
def test_equals_sum_rule_over_joint_computed_by_hand(gated_gaussians):
    x, V, means, scales = gated_gaussians
    t = 0.3
    logits = np.hstack([np.ones((len(x), 1)), x]) @ V
    prior = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    joint = [
        [prior[n, k] * norm.pdf(t, means[n, k], scales[k]) for k in range(4)]
        for n in range(len(x))
    ]
    expected = np.sum(joint, axis=1)
    got = conditional_mixture_density(softmax_gates(x, V), norm.pdf(t, means, scales))
    np.testing.assert_allclose(got, expected, rtol=1e-12)


@pytest.mark.equation("14.1")
def test_log_form_matches_and_survives_underflow(gated_gaussians):
    x, V, means, scales = gated_gaussians
    t = 0.5
    log_gates = softmax_gates(x, V, log=True)
    log_comp = norm.logpdf(t, means, scales)
    np.testing.assert_allclose(
        np.exp(log_conditional_mixture_density(log_gates, log_comp)),
        conditional_mixture_density(np.exp(log_gates), np.exp(log_comp)),
        rtol=1e-12,
    )
    far = log_conditional_mixture_density(log_gates, norm.logpdf(1e4, means, scales))
    assert np.all(np.isfinite(far)) and np.all(far < -1e6)


def test_softmax_gates_are_stable_for_huge_logits():
    gates = softmax_gates(np.array([[1e4], [-1e4]]), np.array([[0.0, 0.0], [1.0, -1.0]]))
    np.testing.assert_allclose(gates, [[1.0, 0.0], [0.0, 1.0]])


def test_bad_gates_and_shapes_are_rejected():
    with pytest.raises(ValueError, match="gates must be non-negative and sum to one"):
        conditional_mixture_density([[0.5, 0.6]], [[1.0, 1.0]])
    with pytest.raises(ValueError, match="component_densities must be non-negative"):
        conditional_mixture_density([[0.5, 0.5]], [[1.0, -1.0]])
    with pytest.raises(ValueError, match=r"V must have shape \(n_features \+ 1, n_components\)"):
        softmax_gates(np.zeros((3, 2)), np.zeros((2, 2)))


def test_shapes_must_agree_on_the_components():
    gates = np.full((1, 3), 1 / 3)
    # (1, 3, 1) would broadcast against (1, 3) to (1, 3, 3): one density per component is
    # required on the last axis of both arguments
    for densities in (np.ones((1, 3, 1)), np.ones((1, 4))):
        with pytest.raises(ValueError, match="gates and component_densities must have shape"):
            conditional_mixture_density(gates, densities)
    with pytest.raises(ValueError, match="log_gates and log_component_densities must broadcast"):
        log_conditional_mixture_density(np.log(np.full((4, 3), 1 / 3)), np.zeros((3, 3)))
    # the leading axes broadcast: one set of densities for every row of gates
    np.testing.assert_allclose(conditional_mixture_density(np.eye(3), [1.0, 2.0, 3.0]), [1, 2, 3])
    with pytest.raises(ValueError, match=r"X must have shape \(n_samples, n_features\)"):
        affine_features(np.ones((2, 2, 1)))
