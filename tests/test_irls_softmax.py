"""Multinomial IRLS with soft targets (the gate M-step of the mixtures of experts, 14.5.3)."""

import numpy as np
import pytest
from scipy.special import softmax
from sklearn.linear_model import LogisticRegression

from prml14.mixtures.irls import (
    softmax_q_gradient,
    softmax_q_negative_hessian,
    weighted_softmax_irls,
    weighted_softmax_objective,
)


def _problem(seed=0, n=120, d=2, k=3):
    rng = np.random.default_rng(seed)
    labels = rng.integers(0, k, n)
    X = rng.normal(size=(n, d)) + 0.7 * labels[:, None]
    Phi = np.hstack([np.ones((n, 1)), X])
    T = rng.dirichlet(np.ones(k), size=n)
    weights = rng.uniform(0.1, 2.0, n)
    W = rng.normal(size=(d + 1, k))
    W[:, 0] = 0.0
    return Phi, T, weights, W, labels, X


@pytest.mark.parametrize("l2", [0.0, 0.7])
def test_gradient_matches_finite_differences(l2):
    Phi, T, weights, W, *_ = _problem()
    grad = softmax_q_gradient(Phi, T, W, weights, l2=l2)
    eps = 1e-6
    numeric = np.zeros_like(grad)
    for m in range(W.shape[0]):
        for k in range(1, W.shape[1]):
            step = np.zeros_like(W)
            step[m, k] = eps
            numeric[m, k - 1] = (
                weighted_softmax_objective(Phi, T, W + step, weights, l2=l2)
                - weighted_softmax_objective(Phi, T, W - step, weights, l2=l2)
            ) / (2 * eps)
    np.testing.assert_allclose(grad, numeric, rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("l2", [0.0, 0.7])
def test_negative_hessian_matches_finite_differences_of_gradient(l2):
    Phi, T, weights, W, *_ = _problem(1)
    H = softmax_q_negative_hessian(Phi, W, weights, l2=l2)
    m, n_free = W.shape[0], W.shape[1] - 1
    eps = 1e-6
    numeric = np.zeros_like(H)
    for k in range(n_free):
        for i in range(m):
            step = np.zeros_like(W)
            step[i, k + 1] = eps
            diff = softmax_q_gradient(Phi, T, W + step, weights, l2=l2) - softmax_q_gradient(
                Phi, T, W - step, weights, l2=l2
            )
            numeric[:, k * m + i] = -(diff.T.ravel()) / (2 * eps)
    np.testing.assert_allclose(H, numeric, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(H, H.T)
    assert np.linalg.eigvalsh(H).min() > -1e-10  # positive semi-definite: the objective is concave


def test_hessian_is_the_full_block_matrix_not_block_diagonal():
    Phi, T, weights, W, *_ = _problem(2, k=4)
    H = softmax_q_negative_hessian(Phi, W, weights)
    m = Phi.shape[1]
    off_diagonal_block = H[:m, m : 2 * m]
    assert np.abs(off_diagonal_block).max() > 1e-3  # classes are coupled through the softmax


def test_agrees_with_sklearn_multinomial_on_hard_labels_with_sample_weight():
    Phi, _, weights, _, labels, X = _problem(3, n=300)
    T = np.eye(3)[labels]
    W, n_iter, converged = weighted_softmax_irls(Phi, T, weights, tol=1e-12)
    assert converged and n_iter < 30
    reference = LogisticRegression(C=np.inf, tol=1e-12, max_iter=10_000).fit(
        X, labels, sample_weight=weights
    )
    np.testing.assert_allclose(softmax(Phi @ W, axis=1), reference.predict_proba(X), atol=1e-6)
    # sklearn's symmetric parametrisation differs from ours by one vector per column
    coef = np.vstack([reference.intercept_, reference.coef_.T])
    np.testing.assert_allclose(W, coef - coef[:, [0]], atol=1e-4)


def test_soft_targets_stationarity_and_equivalence_to_replicated_hard_labels():
    # Soft targets T_nk are equivalent to K copies of x_n with hard labels k and weights r_n T_nk.
    Phi, T, weights, *_ = _problem(4, n=80)
    W_soft, _, converged = weighted_softmax_irls(Phi, T, weights, tol=1e-13)
    assert converged
    np.testing.assert_allclose(softmax_q_gradient(Phi, T, W_soft, weights), 0.0, atol=1e-5)
    n, k = T.shape
    Phi_rep = np.repeat(Phi, k, axis=0)
    T_rep = np.tile(np.eye(k), (n, 1))
    w_rep = (weights[:, None] * T).ravel()
    W_rep, _, _ = weighted_softmax_irls(Phi_rep, T_rep, w_rep, tol=1e-13)
    np.testing.assert_allclose(W_soft, W_rep, atol=1e-8)


def test_objective_never_decreases_and_w_init_is_shifted_to_reference_class():
    Phi, T, weights, W, *_ = _problem(5)
    start = W + 3.0  # same probabilities, column 0 not zero
    values = [weighted_softmax_objective(Phi, T, start, weights)]
    current = start
    for _ in range(6):
        current, _, _ = weighted_softmax_irls(Phi, T, weights, current, max_iter=1)
        values.append(weighted_softmax_objective(Phi, T, current, weights))
    assert np.all(np.diff(values) >= -1e-12)
    np.testing.assert_array_equal(current[:, 0], 0.0)
    W0, n_iter, _ = weighted_softmax_irls(Phi, T, weights, start, max_iter=0)
    assert n_iter == 0
    np.testing.assert_allclose(softmax(Phi @ W0, axis=1), softmax(Phi @ start, axis=1), atol=1e-12)


def test_l2_keeps_separable_problem_finite_and_bias_is_unpenalised():
    Phi = np.column_stack([np.ones(6), [-3.0, -2, -1, 1, 2, 3]])
    T = np.eye(2)[[0, 0, 0, 1, 1, 1]]
    # separable: the unpenalised supremum is at infinity; Newton walks out until the possible
    # gain is below tol, with large weights
    W_free, _, _ = weighted_softmax_irls(Phi, T, max_iter=50)
    assert abs(W_free[1, 1]) > 5.0
    assert weighted_softmax_objective(Phi, T, W_free) > -1e-6
    W, _, converged = weighted_softmax_irls(Phi, T, l2=1.0, tol=1e-14)
    assert converged and np.all(np.isfinite(W)) and abs(W[1, 1]) < 2.0
    # unpenalised bias: the stationarity condition for the bias still holds exactly
    grad = softmax_q_gradient(Phi, T, W, l2=1.0)
    np.testing.assert_allclose(grad, 0.0, atol=1e-6)
    np.testing.assert_allclose(softmax(Phi @ W, axis=1)[:, 1].sum(), 3.0, atol=1e-6)


def test_zero_weight_samples_are_ignored():
    Phi, T, weights, *_ = _problem(6, n=60)
    weights[:20] = 0.0
    W_all, *_ = weighted_softmax_irls(Phi, T, weights, tol=1e-12)
    W_sub, *_ = weighted_softmax_irls(Phi[20:], T[20:], weights[20:], tol=1e-12)
    # Each run stops once its Newton decrement ½gᵀH⁻¹g is <= tol·Σw, i.e. within
    # √(2·tol·Σw/λ_min(H)) of the optimum; the sums' rounding (the zero rows change their
    # BLAS order) can move that stop by a step, so the two may differ by twice that distance.
    lam_min = np.linalg.eigvalsh(softmax_q_negative_hessian(Phi, W_all, weights))[0]
    reach = np.sqrt(2 * 1e-12 * weights.sum() / lam_min)
    np.testing.assert_allclose(W_all, W_sub, rtol=0, atol=2 * reach)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(Phi=np.zeros(5), T=np.full((5, 2), 0.5)), "Phi must be a 2-D"),
        (dict(Phi=np.zeros((5, 2)), T=np.full((4, 2), 0.5)), "T must have shape"),
        (dict(Phi=np.zeros((5, 2)), T=np.ones((5, 1))), "T must have shape"),
        (dict(Phi=np.zeros((5, 2)), T=np.full((5, 2), 0.7)), "rows summing to one"),
        (dict(Phi=np.full((5, 2), np.nan), T=np.full((5, 2), 0.5)), "Input Phi contains NaN"),
        (
            dict(Phi=np.zeros((5, 2)), T=np.full((5, 2), 0.5), weights=-np.ones(5)),
            "weights must be",
        ),
        (
            dict(Phi=np.zeros((5, 2)), T=np.full((5, 2), 0.5), W_init=np.zeros((3, 2))),
            "W_init must have shape",
        ),
        (dict(Phi=np.zeros((5, 2)), T=np.full((5, 2), 0.5), l2=-1.0), "l2 == -1.0, must be >= 0"),
        (
            dict(Phi=np.zeros((5, 2)), T=np.full((5, 2), 0.5), max_iter=-1),
            "max_iter == -1, must be >= 0",
        ),
        (dict(Phi=np.zeros((5, 2)), T=np.full((5, 2), 0.5), tol=0.0), "tol == 0.0, must be > 0"),
    ],
)
def test_bad_input(kwargs, message):
    with pytest.raises(ValueError, match=message):
        weighted_softmax_irls(**kwargs)


def test_one_step_is_the_full_block_newton_step():
    Phi, T, weights, _, *_ = _problem(7)
    W_opt, _, _ = weighted_softmax_irls(Phi, T, weights, tol=1e-12)
    W0 = W_opt.copy()
    W0[:, 1:] += 0.15 * np.random.default_rng(7).normal(size=(Phi.shape[1], T.shape[1] - 1))
    g = softmax_q_gradient(Phi, T, W0, weights).T.ravel()
    H = softmax_q_negative_hessian(Phi, W0, weights)
    expected = W0.copy()
    expected[:, 1:] += np.linalg.solve(H, g).reshape(T.shape[1] - 1, Phi.shape[1]).T
    W1, n_iter, _ = weighted_softmax_irls(Phi, T, weights, W0, max_iter=1)
    assert n_iter == 1
    np.testing.assert_allclose(W1, expected, rtol=1e-10, atol=1e-12)
    # the sample weights are in the Hessian: dropping them gives another step
    H_unweighted = softmax_q_negative_hessian(Phi, W0)
    other = W0[:, 1:] + np.linalg.solve(H_unweighted, g).reshape(T.shape[1] - 1, Phi.shape[1]).T
    assert np.max(np.abs(W1[:, 1:] - other)) > 1e-2


@pytest.mark.parametrize("l2", [0.0, 10.0])
def test_constant_gates_give_the_mean_soft_targets_whatever_the_penalty(l2):
    # The bias is unpenalised: with basis φ = 1 the gate M-step is the closed form (14.38),
    # π_k = Σ_n r_n T_nk / Σ_n r_n, for any l2 (a penalised bias would shrink π towards 1/K).
    _, T, weights, *_ = _problem(8)
    ones = np.ones((len(T), 1))
    W, _, converged = weighted_softmax_irls(ones, T, weights, l2=l2, tol=1e-14)
    assert converged
    # IRLS stops at a Newton decrement <= tol·Σw: within √(2·tol·Σw/λ_min(H)) of the optimum,
    # and the softmax moves less than its argument (its Jacobian has norm <= 1/2)
    lam_min = np.linalg.eigvalsh(softmax_q_negative_hessian(ones, W, weights, l2=l2))[0]
    reach = np.sqrt(2 * 1e-14 * weights.sum() / lam_min)
    np.testing.assert_allclose(softmax(W[0]), weights @ T / weights.sum(), rtol=0, atol=reach)
