import numpy as np
import pytest
from sklearn.linear_model import LogisticRegression

from prml14.mixtures import m_step_logistic
from prml14.mixtures.experts import logistic_experts_m_step
from prml14.mixtures.irls import (
    q_gradient,
    q_negative_hessian,
    weighted_logistic_irls,
    weighted_logistic_objective,
)


def _problem(seed=0, n=60, m=3):
    rng = np.random.default_rng(seed)
    Phi = np.hstack([np.ones((n, 1)), rng.normal(size=(n, m - 1))])
    w_true = rng.normal(size=m)
    t = (rng.uniform(size=n) < 1 / (1 + np.exp(-Phi @ w_true))).astype(float)
    gamma = rng.uniform(0.05, 1.0, size=n)
    return Phi, t, gamma, rng.normal(size=m)


def _q(w, Phi, t, gamma):
    # Q restricted to one component's weights, written directly with logs (the oracle)
    y = 1 / (1 + np.exp(-Phi @ w))
    return np.sum(gamma * (t * np.log(y) + (1 - t) * np.log(1 - y)))


@pytest.mark.equation("14.51")
def test_gradient_matches_central_finite_differences():
    Phi, t, gamma, w = _problem()
    h = 1e-6
    fd = np.array(
        [
            (_q(w + h * e, Phi, t, gamma) - _q(w - h * e, Phi, t, gamma)) / (2 * h)
            for e in np.eye(len(w))
        ]
    )
    np.testing.assert_allclose(q_gradient(w, Phi, t, gamma), fd, rtol=1e-6, atol=1e-7)


@pytest.mark.equation("14.52")
def test_negative_hessian_matches_finite_differences_of_the_gradient():
    Phi, t, gamma, w = _problem(1)
    h = 1e-6
    fd = np.array(
        [
            (q_gradient(w + h * e, Phi, t, gamma) - q_gradient(w - h * e, Phi, t, gamma)) / (2 * h)
            for e in np.eye(len(w))
        ]
    )
    H = q_negative_hessian(w, Phi, t, gamma)
    # the code returns MINUS the Hessian of Q (positive definite)
    np.testing.assert_allclose(H, -fd, rtol=1e-6, atol=1e-7)
    assert np.all(np.linalg.eigvalsh(H) > 0)


@pytest.mark.equation("14.52")
def test_hessian_carries_the_responsibilities():
    Phi, t, gamma, w = _problem(2)
    H = q_negative_hessian(w, Phi, t, gamma)
    H_unweighted = q_negative_hessian(w, Phi, t, np.ones_like(gamma))
    assert not np.allclose(H, H_unweighted)
    # linear in gamma, and explicitly the sum of gamma_n y_n (1 - y_n) phi_n phi_n^T
    np.testing.assert_allclose(q_negative_hessian(w, Phi, t, 2 * gamma), 2 * H)
    y = 1 / (1 + np.exp(-Phi @ w))
    brute = sum(g * yn * (1 - yn) * np.outer(p, p) for g, yn, p in zip(gamma, y, Phi, strict=True))
    np.testing.assert_allclose(H, brute, rtol=1e-12)
    # a point with zero responsibility contributes nothing
    g0 = gamma.copy()
    g0[0] = 0.0
    np.testing.assert_allclose(
        q_negative_hessian(w, Phi, t, g0),
        q_negative_hessian(w, Phi[1:], t[1:], gamma[1:]),
        rtol=1e-12,
    )


@pytest.mark.equation("14.51", "14.52")
@pytest.mark.parametrize("C", [0.1, 1.0, 100.0])
def test_irls_matches_sklearn_weighted_logistic_regression(C):
    Phi, t, gamma, _ = _problem(3, n=200, m=4)
    w, n_iter, converged = weighted_logistic_irls(Phi, t, gamma, l2=1.0 / C)
    assert converged and n_iter < 30
    ref = LogisticRegression(C=C, fit_intercept=False, tol=1e-12, max_iter=10_000)
    ref.fit(Phi, t, sample_weight=gamma)
    np.testing.assert_allclose(w, ref.coef_.ravel(), rtol=1e-5, atol=1e-6)
    # stationarity: penalised gradient is zero
    np.testing.assert_allclose(q_gradient(w, Phi, t, gamma) - w / C, 0.0, atol=1e-8)


@pytest.mark.equation("14.51")
def test_unpenalised_optimum_is_stationary_and_objective_never_decreases():
    Phi, t, gamma, w0 = _problem(4, n=150)
    objs = [weighted_logistic_objective(w0 * 5, Phi, t, gamma)]
    w = w0 * 5
    for _ in range(12):  # one Newton step at a time: each must not decrease the objective
        w, _, _ = weighted_logistic_irls(Phi, t, gamma, w, max_iter=1)
        objs.append(weighted_logistic_objective(w, Phi, t, gamma))
    assert np.all(np.diff(objs) >= -1e-12)
    np.testing.assert_allclose(q_gradient(w, Phi, t, gamma), 0.0, atol=1e-8)


def test_soft_targets_are_accepted():
    Phi, _, gamma, _ = _problem(5)
    t_soft = np.linspace(0.05, 0.95, len(gamma))
    w, _, converged = weighted_logistic_irls(Phi, t_soft, gamma)
    assert converged
    np.testing.assert_allclose(q_gradient(w, Phi, t_soft, gamma), 0.0, atol=1e-8)


def test_separable_data_stay_finite_with_l2_and_do_not_converge_without():
    rng = np.random.default_rng(6)
    x = rng.normal(size=80)
    Phi = np.column_stack([np.ones_like(x), x])
    t = (x > 0).astype(float)
    w, _, converged = weighted_logistic_irls(Phi, t, np.ones_like(x), l2=1e-2)
    assert converged and np.all(np.isfinite(w))
    np.testing.assert_allclose(q_gradient(w, Phi, t, np.ones_like(x)) - 1e-2 * w, 0.0, atol=1e-8)
    w0, n_iter, converged0 = weighted_logistic_irls(Phi, t, np.ones_like(x), l2=0.0, max_iter=25)
    assert not converged0 and n_iter == 25
    assert np.all(np.isfinite(w0)) and abs(w0[1]) > abs(w[1])


def test_singular_hessian_collinear_basis_is_handled():
    Phi, t, gamma, _ = _problem(7)
    Phi2 = np.hstack([Phi, Phi[:, [1]]])  # duplicated column: H is singular
    w, _, _ = weighted_logistic_irls(Phi2, t, gamma, max_iter=50)
    assert np.all(np.isfinite(w))
    # the fitted probabilities equal those of the non-duplicated problem
    w_ref, _, _ = weighted_logistic_irls(Phi, t, gamma)
    np.testing.assert_allclose(Phi2 @ w, Phi @ w_ref, atol=1e-5)


def test_zero_weights_give_zero_step():
    Phi, t, _, w0 = _problem(8)
    w, n_iter, converged = weighted_logistic_irls(Phi, t, np.zeros(len(t)), w0)
    np.testing.assert_array_equal(w, w0)
    assert converged and n_iter == 1


def test_bad_inputs_are_rejected():
    Phi, t, gamma, _ = _problem(9)
    with pytest.raises(ValueError, match="t must contain targets"):
        weighted_logistic_irls(Phi, t + 1, gamma)
    with pytest.raises(ValueError, match="weights .* non-negative"):
        weighted_logistic_irls(Phi, t, -gamma)
    with pytest.raises(ValueError, match="Input Phi contains NaN"):
        weighted_logistic_irls(np.where(Phi == Phi[0, 1], np.nan, Phi), t, gamma)
    with pytest.raises(ValueError, match="t must have shape"):
        weighted_logistic_irls(Phi, t[:-1], gamma)
    with pytest.raises(ValueError, match="l2 == -1.0, must be >= 0"):
        weighted_logistic_irls(Phi, t, gamma, l2=-1.0)
    # the gradient, Hessian and objective check the same arguments (they broadcast before)
    w = np.zeros(Phi.shape[1])
    for f in (q_gradient, q_negative_hessian, weighted_logistic_objective):
        with pytest.raises(
            ValueError, match=r"weights \(gamma\) must have shape \(n_samples,\) = \(60,\)"
        ):
            f(w, Phi, t, gamma[:1])
        with pytest.raises(ValueError, match=r"w must have shape \(n_basis,\) = \(3,\)"):
            f(w[:2], Phi, t, gamma)


@pytest.mark.equation("14.51", "14.52")
def test_one_irls_step_is_the_newton_step_with_the_gamma_weighted_hessian():
    # The fixed point of IRLS only needs a right gradient; the *path* proves the Hessian used
    # inside the loop carries γ_n: one step must be w + H⁻¹ ∇Q with H = (14.52).
    Phi, t, gamma, _ = _problem(10, n=120)
    w_opt, _, _ = weighted_logistic_irls(Phi, t, gamma)
    w0 = w_opt + np.array([0.3, -0.2, 0.1])  # close enough for the full step to be accepted
    g, H = q_gradient(w0, Phi, t, gamma), q_negative_hessian(w0, Phi, t, gamma)
    newton = w0 + np.linalg.solve(H, g)
    assert weighted_logistic_objective(newton, Phi, t, gamma) > weighted_logistic_objective(
        w0, Phi, t, gamma
    )
    w1, n_iter, _ = weighted_logistic_irls(Phi, t, gamma, w0, max_iter=1)
    assert n_iter == 1
    # one solve, no halving: the sums' rounding n·ε times cond(H) ≈ 2.3, about 6e-14
    np.testing.assert_allclose(w1, newton, rtol=1e-12, atol=1e-14)
    # the bug "γ missing from the Hessian" takes a different step
    unweighted = w0 + np.linalg.solve(q_negative_hessian(w0, Phi, t, np.ones_like(gamma)), g)
    assert np.max(np.abs(w1 - unweighted)) > 1e-2


def test_bias_is_penalised_so_a_one_class_component_stays_finite():
    # A component responsible only for points of one class: the bias alone diverges. Without a
    # penalty IRLS reports non-convergence; the penalty on every weight (bias included) gives
    # the finite optimum, the same as scikit-learn's LogisticRegression(C=1/l2) on Φ.
    rng = np.random.default_rng(11)
    Phi = np.column_stack([np.ones(30), rng.normal(size=30)])
    t, gamma = np.ones(30), rng.uniform(0.2, 1.0, 30)
    _, _, converged = weighted_logistic_irls(Phi, t, gamma, max_iter=60)
    assert not converged
    w, _, converged = weighted_logistic_irls(Phi, t, gamma, l2=1e-2)
    assert converged and 0 < w[0] < 20
    np.testing.assert_allclose(q_gradient(w, Phi, t, gamma) - 1e-2 * w, 0.0, atol=1e-8)


def _batch_problem(n=20_000, seed=3):
    """Four components over more samples than one block of the batched solver: a dead one (no
    responsibility), and one whose weighted points are linearly separable."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 2))
    Phi = np.hstack([np.ones((n, 1)), X])
    t = (rng.uniform(size=n) < 1 / (1 + np.exp(-(0.5 + X[:, 0] - X[:, 1])))).astype(float)
    corner = X[:, 0] > 1.0
    t[corner] = (X[corner, 1] > 0).astype(float)  # separable where component 2 is responsible
    gamma = rng.dirichlet(np.ones(4), size=n)
    gamma[:, 1] = 0.0
    gamma[:, 2] = np.where(corner, gamma[:, 2], 0.0)
    return Phi, t, gamma, rng.uniform(0.5, 2.0, size=n), 0.1 * rng.normal(size=(4, 3))


@pytest.mark.equation("14.51", "14.52")
@pytest.mark.parametrize("l2", [0.0, 0.1])
def test_m_step_solves_its_components_together_as_if_one_at_a_time(l2):
    Phi, t, gamma, weights, W_old = _batch_problem()
    kwargs = {"sample_weight": weights, "l2": l2, "max_newton_steps": 30, "return_n_iter": True}
    _, W, n_iter, converged = m_step_logistic(Phi, t, gamma, W_old, **kwargs)
    for k in (0, 2, 3):
        w, n, c = weighted_logistic_irls(
            Phi, t, weights * gamma[:, k], W_old[k], l2=l2, max_iter=30
        )
        # weighted_logistic_irls runs the same engine on one column: the same arithmetic for
        # each column (equal to the last bit here under five OpenBLAS kernels); 1e-12 leaves
        # room for the products' blocking. A stop can only move if a Newton decrement lies
        # within rounding of tol, which the n_iter check would report.
        np.testing.assert_allclose(W[k], w, rtol=1e-12, atol=1e-12)
        assert (n_iter[k], converged[k]) == (n, c)
    assert np.array_equal(W[1], W_old[1]) and n_iter[1] == 0 and converged[1]  # dead: kept
    assert converged[2] == (l2 > 0)  # separable: no finite optimum without the penalty
    assert converged[[0, 3]].all()


@pytest.mark.equation("14.51", "14.52")
def test_logistic_experts_m_step_equals_one_irls_per_expert():
    Phi, t, gamma, weights, W_old = _batch_problem(n=9000, seed=4)
    W = logistic_experts_m_step(Phi, t, gamma, W_old, sample_weight=weights, l2=0.01, max_iter=4)
    for k in (0, 2, 3):
        w, _, _ = weighted_logistic_irls(
            Phi, t, weights * gamma[:, k], W_old[k], l2=0.01, max_iter=4
        )
        np.testing.assert_allclose(W[k], w, rtol=1e-12, atol=1e-12)
    np.testing.assert_array_equal(W[1], W_old[1])


def test_irls_keeps_the_objective_non_decreasing_step_by_step():
    # the batched engine halves each component's step on its own: one Newton step at a time
    # from a poor start never lowers the penalised objective
    Phi, t, gamma, weights, W_old = _batch_problem(n=9000, seed=5)
    r = weights * gamma[:, 0]
    w = 5.0 * np.ones(3)
    previous = weighted_logistic_objective(w, Phi, t, r, l2=1e-3)
    for _ in range(8):
        w, _, _ = weighted_logistic_irls(Phi, t, r, w, l2=1e-3, max_iter=1)
        current = weighted_logistic_objective(w, Phi, t, r, l2=1e-3)
        assert current >= previous - 1e-12 * abs(previous)
        previous = current


def test_refusals_name_the_argument():
    Phi, t, gamma, w = _problem(2)
    with pytest.raises(ValueError, match=r"\bgamma\b"):
        q_gradient(w, Phi, t, np.where(gamma > 0.5, np.nan, gamma))
    with pytest.raises(ValueError, match="rescale Phi"):
        weighted_logistic_irls(Phi * 1e200, t, gamma)
    with pytest.raises(ValueError, match="rescale w"):
        weighted_logistic_objective(w * 1e200, Phi, t, gamma)
