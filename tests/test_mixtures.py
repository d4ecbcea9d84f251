import itertools
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import minimize
from scipy.stats import norm
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import LinearRegression
from sklearn.utils.estimator_checks import parametrize_with_checks

from prml14 import MixtureOfLinearRegressions, MixtureOfLogisticRegressions
from prml14.mixtures import (
    complete_data_log_likelihood_linear,
    complete_data_log_likelihood_logistic,
    expected_complete_data_log_likelihood_linear,
    expected_complete_data_log_likelihood_logistic,
    linear_component_log_densities,
    m_step_linear,
    m_step_logistic,
    mixing_coefficients,
    mixture_of_linear_regressions_density,
    mixture_of_linear_regressions_log_likelihood,
    mixture_of_logistic_regressions_log_likelihood,
    mixture_of_logistic_regressions_proba,
    noise_precision,
    q_linear_precision,
    q_linear_weights,
    responsibilities_linear,
    responsibilities_logistic,
    solve_normal_equations,
    weighted_least_squares,
    weighted_normal_equations,
)
from prml14.mixtures.irls import q_gradient, q_negative_hessian


def linear_params(seed=0, n=12, k=3, m=2):
    rng = np.random.default_rng(seed)
    Phi = np.hstack([np.ones((n, 1)), rng.uniform(-1, 1, size=(n, m - 1))])
    t = rng.normal(size=n)
    pi = rng.dirichlet(np.ones(k))
    W = rng.normal(size=(k, m))
    beta = rng.uniform(0.5, 4.0)
    return Phi, t, pi, W, beta


def logistic_params(seed=0, n=12, k=3, m=3):
    rng = np.random.default_rng(seed)
    Phi = np.hstack([np.ones((n, 1)), rng.normal(size=(n, m - 1))])
    t = (rng.uniform(size=n) < 0.5).astype(float)
    return Phi, t, rng.dirichlet(np.ones(k)), rng.normal(size=(k, m))


def two_lines(n=4000, seed=0, pi1=0.3, beta=25.0):
    rng = np.random.default_rng(seed)
    x = rng.uniform(-1, 1, n)
    z = rng.uniform(size=n) < pi1
    t = np.where(z, 1.0 + 2.0 * x, -1.0 - 0.5 * x) + rng.normal(size=n) / np.sqrt(beta)
    return x[:, None], t


def two_logistic(n=3000, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 2))
    comp = rng.uniform(size=n) < 0.35
    a = np.where(comp, 1.0 + 4.0 * X[:, 0], -0.5 - 4.0 * X[:, 1])
    y = (rng.uniform(size=n) < 1 / (1 + np.exp(-a))).astype(int)
    return X, y


# ---------------------------------------------------------------- linear: the model and E-step


@pytest.mark.equation("14.34")
def test_density_is_the_pi_weighted_sum_of_gaussians_and_integrates_to_one():
    Phi, _, pi, W, beta = linear_params()
    grid = np.linspace(-30, 30, 60001)
    phi0 = np.repeat(Phi[:1], len(grid), axis=0)
    dens = mixture_of_linear_regressions_density(phi0, grid, pi, W, beta)
    assert abs(np.trapezoid(dens, grid) - 1) < 1e-8
    # beta is a PRECISION: scale = 1/sqrt(beta)
    brute = sum(pi[k] * norm.pdf(grid, Phi[0] @ W[k], 1 / np.sqrt(beta)) for k in range(len(pi)))
    np.testing.assert_allclose(dens, brute, rtol=1e-10, atol=1e-300)


@pytest.mark.equation("14.35")
def test_log_likelihood_is_sum_of_log_densities():
    Phi, t, pi, W, beta = linear_params(1)
    brute = sum(
        np.log(sum(pi[k] * norm.pdf(t[n], Phi[n] @ W[k], beta**-0.5) for k in range(len(pi))))
        for n in range(len(t))
    )
    assert mixture_of_linear_regressions_log_likelihood(Phi, t, pi, W, beta) == pytest.approx(
        brute, rel=1e-12
    )


@pytest.mark.equation("14.36", "14.35")
def test_complete_data_log_likelihood_direct_and_marginalises_to_the_likelihood():
    Phi, t, pi, W, beta = linear_params(2, n=4, k=2)
    total = []
    for labels in itertools.product(range(2), repeat=4):  # every latent assignment Z
        Z = np.eye(2)[list(labels)]
        direct = sum(
            np.log(pi[k]) + norm.logpdf(t[n], Phi[n] @ W[k], beta**-0.5)
            for n, k in enumerate(labels)
        )
        got = complete_data_log_likelihood_linear(Phi, t, Z, pi, W, beta)
        assert got == pytest.approx(direct, rel=1e-12)
        total.append(got)
    # sum over Z of p(t, Z) is p(t): (14.36) marginalises to (14.35)
    log_marginal = np.log(np.sum(np.exp(total)))
    assert log_marginal == pytest.approx(
        mixture_of_linear_regressions_log_likelihood(Phi, t, pi, W, beta), rel=1e-12
    )


@pytest.mark.equation("14.37")
def test_responsibilities_are_bayes_rule_including_pi():
    Phi, t, pi, W, beta = linear_params(3)
    joint = np.array(
        [
            [pi[k] * norm.pdf(t[n], Phi[n] @ W[k], beta**-0.5) for k in range(3)]
            for n in range(len(t))
        ]
    )
    gamma = responsibilities_linear(Phi, t, pi, W, beta)
    np.testing.assert_allclose(gamma, joint / joint.sum(axis=1, keepdims=True), rtol=1e-10)
    # leaving pi out (a known bug) gives something else
    assert not np.allclose(gamma, responsibilities_linear(Phi, t, np.ones(3) / 3, W, beta))


def test_core_functions_check_pi_beta_and_shapes():
    # wrong π used to be normalised away in γ (silently wrong likelihood); β < 0 gave NaN
    Phi, t, pi, W, beta = linear_params(3)
    with pytest.raises(ValueError, match="pi must be non-negative and sum to one"):
        mixture_of_linear_regressions_log_likelihood(Phi, t, 2 * pi, W, beta)
    with pytest.raises(ValueError, match=r"pi must have one entry per component \(3\), got 1"):
        responsibilities_linear(Phi, t, [1.0], W, beta)
    with pytest.raises(ValueError, match="beta .* must be positive"):
        responsibilities_linear(Phi, t, pi, W, -beta)
    with pytest.raises(
        ValueError, match=r"W must have shape \(n_components, n_basis\) = \(K, 2\)"
    ):
        responsibilities_linear(Phi, t, pi, W[:, :1], beta)
    with pytest.raises(ValueError, match=r"t must have shape \(n_samples,\) = \(12,\)"):
        mixture_of_logistic_regressions_log_likelihood(Phi, t[:5], pi, W)
    gamma = responsibilities_linear(Phi, t, pi, W, beta)
    with pytest.raises(
        ValueError, match=r"gamma must have shape \(n_samples=12, n_components\), got \(11, 3\)"
    ):
        weighted_least_squares(Phi, t, gamma[1:])
    with pytest.raises(ValueError, match=r"gamma must have one column per row of W \(3\), got 2"):
        noise_precision(Phi, t, gamma[:, :2], W)
    with pytest.raises(ValueError, match="gamma must be non-negative"):
        mixing_coefficients(-gamma)
    with pytest.raises(ValueError, match="must share n_basis"):
        mixture_of_logistic_regressions_proba(Phi, pi, W[:, :1])


@pytest.mark.equation("14.37")
def test_responsibilities_survive_far_points_and_zero_pi():
    Phi, t, pi, W, beta = linear_params(4)
    t_far = t + 1e4
    gamma = responsibilities_linear(Phi, t_far, pi, W, beta)
    assert np.all(np.isfinite(gamma))
    np.testing.assert_allclose(gamma.sum(axis=1), 1.0)
    pi0 = np.array([0.0, 0.4, 0.6])
    gamma0, ll = responsibilities_linear(Phi, t, pi0, W, beta, return_log_likelihood=True)
    assert np.all(gamma0[:, 0] == 0.0) and np.isfinite(ll) and np.all(np.isfinite(gamma0))


# ---------------------------------------------------------------- linear: the M-step


@pytest.mark.equation("14.38")
def test_mixing_coefficients_maximise_q_on_the_simplex():
    Phi, t, pi, W, beta = linear_params(5)
    gamma = responsibilities_linear(Phi, t, pi, W, beta)
    pi_new = mixing_coefficients(gamma)
    np.testing.assert_allclose(pi_new.sum(), 1.0)
    q_best = expected_complete_data_log_likelihood_linear(Phi, t, gamma, pi_new, W, beta)
    rng = np.random.default_rng(0)
    for other in rng.dirichlet(np.ones(3), size=200):
        assert (
            expected_complete_data_log_likelihood_linear(Phi, t, gamma, other, W, beta)
            <= q_best + 1e-12
        )


@pytest.mark.equation("14.39", "14.43")
def test_partial_q_forms_differ_from_q_by_constants():
    Phi, t, pi, W, beta = linear_params(6)
    gamma = responsibilities_linear(Phi, t, pi, W, beta)
    rng = np.random.default_rng(1)
    diffs39, diffs43 = [], []
    for _ in range(5):
        W2, beta2 = rng.normal(size=W.shape), rng.uniform(0.1, 5)
        Q = expected_complete_data_log_likelihood_linear(Phi, t, gamma, pi, W2, beta2)
        diffs43.append(Q - q_linear_precision(Phi, t, gamma, W2, beta2))
        diffs39.append(Q - q_linear_weights(Phi, t, gamma, W2, beta))  # beta fixed: constant in W
        Q_beta = expected_complete_data_log_likelihood_linear(Phi, t, gamma, pi, W2, beta)
        assert Q_beta - q_linear_weights(Phi, t, gamma, W2, beta) == pytest.approx(
            expected_complete_data_log_likelihood_linear(Phi, t, gamma, pi, W, beta)
            - q_linear_weights(Phi, t, gamma, W, beta)
        )
    np.testing.assert_allclose(diffs43, diffs43[0], rtol=1e-10)
    # the constant of (14.43) is sum gamma (ln pi - 0.5 ln 2 pi)
    const = np.sum(gamma * (np.log(pi) - 0.5 * np.log(2 * np.pi)))
    assert diffs43[0] == pytest.approx(const, rel=1e-10)


@pytest.mark.equation("14.40", "14.41", "14.42")
def test_weighted_normal_equations_match_explicit_r_k_and_sklearn():
    Phi, t, pi, W, beta = linear_params(7, n=9, k=3, m=3)
    gamma = responsibilities_linear(Phi, t, pi, W, beta)
    W_new = weighted_least_squares(Phi, t, gamma)
    for k in range(3):
        R = np.diag(gamma[:, k])  # the N x N matrix of (14.41), only on tiny data in the test
        w_direct = np.linalg.solve(Phi.T @ R @ Phi, Phi.T @ R @ t)
        np.testing.assert_allclose(W_new[k], w_direct, rtol=1e-10)
        # (14.40): the gradient is the zero VECTOR
        np.testing.assert_allclose(
            Phi.T @ (gamma[:, k] * (t - Phi @ W_new[k])), np.zeros(3), atol=1e-12
        )
        ref = LinearRegression(fit_intercept=False).fit(Phi, t, sample_weight=gamma[:, k])
        np.testing.assert_allclose(W_new[k], ref.coef_, rtol=1e-8, atol=1e-10)


@pytest.mark.equation("14.44")
def test_precision_maximises_q_and_is_inverse_weighted_variance():
    Phi, t, pi, W, beta = linear_params(8)
    gamma = responsibilities_linear(Phi, t, pi, W, beta)
    W_new = weighted_least_squares(Phi, t, gamma)
    beta_new = noise_precision(Phi, t, gamma, W_new)
    resid2 = (t[:, None] - Phi @ W_new.T) ** 2
    assert 1 / beta_new == pytest.approx(np.sum(gamma * resid2) / len(t), rel=1e-12)
    best = q_linear_precision(Phi, t, gamma, W_new, beta_new)
    for b in beta_new * np.array([0.5, 0.9, 0.99, 1.01, 1.1, 2.0]):
        assert q_linear_precision(Phi, t, gamma, W_new, b) < best


@pytest.mark.equation("14.38", "14.42", "14.44")
def test_m_step_equals_brute_force_maximisation_of_q_on_tiny_data():
    Phi, t, pi, W, beta = linear_params(9, n=8, k=2, m=2)
    gamma = responsibilities_linear(Phi, t, pi, W, beta)
    W_new = weighted_least_squares(Phi, t, gamma)
    beta_new = noise_precision(Phi, t, gamma, W_new)
    pi_new = mixing_coefficients(gamma)

    def negative_q(theta):
        a = theta[:2]
        pi_ = np.exp(a) / np.exp(a).sum()  # softmax keeps pi on the simplex
        W_ = theta[2:6].reshape(2, 2)
        return -expected_complete_data_log_likelihood_linear(
            Phi, t, gamma, pi_, W_, np.exp(theta[6])
        )

    res = minimize(negative_q, np.zeros(7), method="BFGS", options={"gtol": 1e-10})
    a = res.x[:2]
    np.testing.assert_allclose(np.exp(a) / np.exp(a).sum(), pi_new, atol=1e-5)
    np.testing.assert_allclose(res.x[2:6].reshape(2, 2), W_new, atol=1e-4)
    assert np.exp(res.x[6]) == pytest.approx(beta_new, rel=1e-4)


def test_singular_weighted_least_squares_gives_the_minimum_norm_solution():
    Phi, t, pi, W, beta = linear_params(10, n=10, k=2, m=2)
    Phi2 = np.hstack([Phi, Phi[:, [1]]])  # duplicated column: Phi^T R_k Phi is singular
    gamma = responsibilities_linear(Phi, t, pi, W, beta)
    W2 = weighted_least_squares(Phi2, t, gamma)
    assert np.all(np.isfinite(W2))
    for k in range(2):
        sw = np.sqrt(gamma[:, k])
        ref = np.linalg.lstsq(Phi2 * sw[:, None], t * sw, rcond=None)[0]
        np.testing.assert_allclose(W2[k], ref, atol=1e-8)


def test_dead_component_keeps_its_weights_and_produces_no_nan():
    Phi, t, pi, W, beta = linear_params(11, k=3)
    gamma = responsibilities_linear(Phi, t, pi, W, beta)
    gamma[:, 2] = 0.0
    gamma /= gamma.sum(axis=1, keepdims=True)
    W_new = weighted_least_squares(Phi, t, gamma, W_old=W)
    np.testing.assert_array_equal(W_new[2], W[2])
    pi_new = mixing_coefficients(gamma)
    beta_new = noise_precision(Phi, t, gamma, W_new)
    g2, ll = responsibilities_linear(Phi, t, pi_new, W_new, beta_new, return_log_likelihood=True)
    assert np.all(np.isfinite(g2)) and np.isfinite(ll) and np.all(g2[:, 2] == 0)
    # the estimator with as many components as points: no NaN, finite precision
    X = np.linspace(0, 1, 5)[:, None]
    m = MixtureOfLinearRegressions(5, random_state=0, max_iter=50)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        m.fit(X, np.array([0.0, 1.0, 0.0, 1.0, 0.5]))
    for a in (m.weights_, m.coef_, m.precision_, m.responsibilities_, m.log_likelihood_history_):
        assert np.all(np.isfinite(a))


# ---------------------------------------------------------------- linear: the estimator


@pytest.mark.equation("14.35", "14.37", "14.38", "14.42", "14.44")
def test_recovers_generating_parameters_with_unequal_pi_and_precision_beta():
    X, t = two_lines(n=4000, pi1=0.3, beta=25.0)
    m = MixtureOfLinearRegressions(2, n_init=3, random_state=0).fit(X, t)
    order = np.argsort(-m.coef_[:, 1])  # the steeper line first
    np.testing.assert_allclose(m.weights_[order], [0.3, 0.7], atol=0.03)
    np.testing.assert_allclose(m.coef_[order], [[1.0, 2.0], [-1.0, -0.5]], atol=0.05)
    assert m.precision_ == pytest.approx(25.0, rel=0.08)  # a precision, not sigma or sigma^2
    assert m.converged_


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), k=st.integers(1, 4), n=st.integers(20, 120))
@pytest.mark.equation("14.35")
def test_em_log_likelihood_never_decreases_linear(seed, k, n):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 2))
    t = np.where(rng.uniform(size=n) < 0.5, X @ [1.0, -1.0], 2 + X[:, 0]) + 0.3 * rng.normal(
        size=n
    )
    m = MixtureOfLinearRegressions(k, max_iter=40, tol=0.0, random_state=seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        m.fit(X, t)
    h = m.log_likelihood_history_
    assert np.all(np.diff(h) >= -1e-8 * np.maximum(1.0, np.abs(h[1:])))
    assert m.log_likelihood(X, t) == pytest.approx(h[-1])


def test_linear_methods_density_predict_sample():
    X, t = two_lines(n=600, seed=1)
    m = MixtureOfLinearRegressions(2, random_state=0).fit(X, t)
    dens = m.predict_density(X, t)
    assert np.sum(np.log(dens)) == pytest.approx(m.log_likelihood(X, t))
    means = m.component_means(X)
    np.testing.assert_allclose(m.predict(X), means @ m.weights_)
    ts, labels = m.sample(np.zeros((20000, 1)), random_state=0)
    np.testing.assert_allclose(np.bincount(labels) / 20000, m.weights_, atol=0.015)
    resid = ts - m.coef_[labels, 0]
    assert np.var(resid) == pytest.approx(1 / m.precision_, rel=0.05)


def test_same_random_state_gives_identical_fits():
    X, t = two_lines(n=500, seed=2)
    a = MixtureOfLinearRegressions(3, n_init=2, random_state=7).fit(X, t)
    b = MixtureOfLinearRegressions(3, n_init=2, random_state=7).fit(X, t)
    np.testing.assert_array_equal(a.coef_, b.coef_)
    np.testing.assert_array_equal(a.log_likelihood_history_, b.log_likelihood_history_)
    Xc, yc = two_logistic(n=400)
    c = MixtureOfLogisticRegressions(2, random_state=3).fit(Xc, yc)
    d = MixtureOfLogisticRegressions(2, random_state=3).fit(Xc, yc)
    np.testing.assert_array_equal(c.coef_, d.coef_)


def test_convergence_warning_at_max_iter():
    X, t = two_lines(n=500, seed=3)
    with pytest.warns(ConvergenceWarning, match="max_iter=2"):
        m = MixtureOfLinearRegressions(2, max_iter=2, tol=0.0, random_state=0).fit(X, t)
    assert not m.converged_ and m.n_iter_ == 2
    Xc, yc = two_logistic(n=300)
    with pytest.warns(ConvergenceWarning, match="max_iter=1"):
        MixtureOfLogisticRegressions(2, max_iter=1, tol=0.0, random_state=0).fit(Xc, yc)


def test_bad_input_is_rejected():
    X, t = two_lines(n=30)
    with pytest.raises(ValueError, match="n_components"):
        MixtureOfLinearRegressions(0).fit(X, t)
    with pytest.raises(ValueError, match="n_components=31 must be <= n_samples=30"):
        MixtureOfLinearRegressions(31).fit(X, t)
    Xn = X.copy()
    Xn[0, 0] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        MixtureOfLinearRegressions(2).fit(Xn, t)
    with pytest.raises(ValueError, match="inf"):
        MixtureOfLinearRegressions(2).fit(X, np.where(t > 0, np.inf, t))
    with pytest.raises(ValueError, match="Only binary classification is supported"):
        MixtureOfLogisticRegressions(2).fit(X, np.arange(30) % 3)
    with pytest.raises(ValueError, match="Unknown label type"):
        MixtureOfLogisticRegressions(2).fit(X, t)


# ---------------------------------------------------------------- logistic


@pytest.mark.equation("14.45", "14.46")
def test_logistic_mixture_probabilities_and_likelihood_brute_force():
    Phi, t, pi, W = logistic_params(0)
    sig = lambda a: 1 / (1 + np.exp(-a))  # noqa: E731
    p1 = np.array([sum(pi[k] * sig(Phi[n] @ W[k]) for k in range(3)) for n in range(len(t))])
    np.testing.assert_allclose(mixture_of_logistic_regressions_proba(Phi, pi, W), p1, rtol=1e-12)
    brute = np.sum(np.log(np.where(t == 1, p1, 1 - p1)))
    assert mixture_of_logistic_regressions_log_likelihood(Phi, t, pi, W) == pytest.approx(
        brute, rel=1e-12
    )


@pytest.mark.equation("14.47", "14.46")
def test_logistic_complete_data_likelihood_direct_and_marginal():
    Phi, t, pi, W = logistic_params(1, n=4, k=2)
    sig = lambda a: 1 / (1 + np.exp(-a))  # noqa: E731
    total = []
    for labels in itertools.product(range(2), repeat=4):
        Z = np.eye(2)[list(labels)]
        direct = np.log(
            np.prod(
                [
                    pi[k] * sig(Phi[n] @ W[k]) ** t[n] * (1 - sig(Phi[n] @ W[k])) ** (1 - t[n])
                    for n, k in enumerate(labels)
                ]
            )
        )
        got = complete_data_log_likelihood_logistic(Phi, t, Z, pi, W)
        assert got == pytest.approx(direct, rel=1e-12)
        total.append(got)
    assert np.log(np.sum(np.exp(total))) == pytest.approx(
        mixture_of_logistic_regressions_log_likelihood(Phi, t, pi, W)
    )


@pytest.mark.equation("14.48")
def test_logistic_responsibilities_bayes_rule_including_pi():
    Phi, t, pi, W = logistic_params(2)
    y = 1 / (1 + np.exp(-Phi @ W.T))
    joint = pi * np.where(t[:, None] == 1, y, 1 - y)
    gamma = responsibilities_logistic(Phi, t, pi, W)
    np.testing.assert_allclose(gamma, joint / joint.sum(axis=1, keepdims=True), rtol=1e-10)
    assert not np.allclose(gamma, responsibilities_logistic(Phi, t, np.ones(3) / 3, W))
    # saturated logits: no NaN
    g = responsibilities_logistic(Phi, t, pi, 1e4 * W)
    assert np.all(np.isfinite(g))


@pytest.mark.equation("14.49", "14.51", "14.52")
def test_gradient_and_hessian_are_derivatives_of_the_mixture_q():
    Phi, t, pi, W = logistic_params(3, n=30)
    gamma = responsibilities_logistic(Phi, t, pi, W)
    W_eval = W + 0.3
    h = 1e-5
    for k in range(3):

        def q(wk, k=k):
            W2 = W_eval.copy()
            W2[k] = wk
            return expected_complete_data_log_likelihood_logistic(Phi, t, gamma, pi, W2)

        E = np.eye(3)
        fd = np.array([(q(W_eval[k] + h * e) - q(W_eval[k] - h * e)) / (2 * h) for e in E])
        np.testing.assert_allclose(
            q_gradient(W_eval[k], Phi, t, gamma[:, k]), fd, rtol=1e-6, atol=1e-8
        )
        h2 = 1e-4  # larger step for second differences (round-off ~ eps |Q| / h2^2)
        fd2 = np.array(
            [
                [
                    (
                        q(W_eval[k] + h2 * a + h2 * b)
                        - q(W_eval[k] + h2 * a - h2 * b)
                        - q(W_eval[k] - h2 * a + h2 * b)
                        + q(W_eval[k] - h2 * a - h2 * b)
                    )
                    / (4 * h2 * h2)
                    for b in E
                ]
                for a in E
            ]
        )
        np.testing.assert_allclose(
            q_negative_hessian(W_eval[k], Phi, t, gamma[:, k]), -fd2, rtol=1e-4, atol=1e-5
        )


@pytest.mark.equation("14.49", "14.50")
def test_logistic_m_step_brute_force():
    Phi, t, pi, W = logistic_params(4, n=40, k=2)
    gamma = responsibilities_logistic(Phi, t, pi, W)
    pi_new, W_new = m_step_logistic(Phi, t, gamma, W)
    np.testing.assert_allclose(pi_new, gamma.mean(axis=0))
    for k in range(2):

        def negative_q(wk, k=k):
            W2 = W_new.copy()
            W2[k] = wk
            return -expected_complete_data_log_likelihood_logistic(Phi, t, gamma, pi_new, W2)

        res = minimize(negative_q, np.zeros(3), method="BFGS", options={"gtol": 1e-9})
        np.testing.assert_allclose(W_new[k], res.x, atol=1e-4)


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10_000), k=st.integers(1, 3))
@pytest.mark.equation("14.46")
def test_em_log_likelihood_never_decreases_logistic(seed, k):
    X, y = two_logistic(n=150, seed=seed)
    m = MixtureOfLogisticRegressions(k, max_iter=25, tol=0.0, random_state=seed, l2=1e-8)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        m.fit(X, y)
    h = m.log_likelihood_history_
    assert np.all(np.diff(h) >= -1e-7 * np.maximum(1.0, np.abs(h[1:])))


def test_logistic_mixture_recovers_parameters_and_beats_single_model():
    X, y = two_logistic(n=6000, seed=5)
    m = MixtureOfLogisticRegressions(2, n_init=3, random_state=0).fit(X, y)
    order = np.argsort(-m.coef_[:, 1])  # the component rising with x1 first
    np.testing.assert_allclose(m.weights_[order], [0.35, 0.65], atol=0.05)
    np.testing.assert_allclose(m.coef_[order], [[1.0, 4.0, 0.0], [-0.5, 0.0, -4.0]], atol=0.6)
    single = MixtureOfLogisticRegressions(1, random_state=0).fit(X, y)
    assert m.log_likelihood(X, y) > single.log_likelihood(X, y) + 100
    proba = m.predict_proba(X)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    assert set(m.predict(X)) <= set(m.classes_)


def test_separable_data_warn_at_the_caller_and_keep_the_penalty_fixed():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(200, 2))
    y = np.where(X[:, 0] + X[:, 1] > 0, "yes", "no")
    with pytest.warns(ConvergenceWarning, match="linearly separable.*Set l2 > 0") as record:
        m = MixtureOfLogisticRegressions(2, random_state=0, max_iter=50).fit(X, y)
    assert all(w.filename == __file__ for w in record)
    assert not hasattr(m, "l2_")  # no penalty switched on in the middle of EM
    np.testing.assert_array_equal(m.objective_history_, m.log_likelihood_history_)
    assert np.all(np.isfinite(m.coef_)) and np.all(np.isfinite(m.log_likelihood_history_))
    assert np.abs(m.coef_).max() > 100  # the weights run away: maximum likelihood is at infinity
    assert m.score(X, y) > 0.97
    # with l2 chosen by the user there is no warning and the weights stay moderate
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        penalised = MixtureOfLogisticRegressions(2, random_state=0, l2=0.1).fit(X, y)
    assert np.abs(penalised.coef_).max() < 50


# ---------------------------------------------------------------- scikit-learn API


def expected_failed_checks(estimator):
    if isinstance(estimator, MixtureOfLogisticRegressions):
        return {
            "check_sample_weight_equivalence_on_dense_data": (
                "the random initial responsibilities are drawn row by row, so a repeated row "
                "starts from its own draw and EM can stop at another local maximum; from the "
                "same starting responsibilities weights equal repeated rows "
                "(test_integer_weights_equal_repeated_rows_in_a_full_fit)"
            )
        }
    return {}


@parametrize_with_checks(
    [
        # the checks' small random data sets converge slowly: a looser tol keeps them warning-free
        MixtureOfLinearRegressions(max_iter=1000, tol=1e-4, random_state=0),
        MixtureOfLogisticRegressions(max_iter=1000, tol=1e-4, l2=1e-2, random_state=0),
    ],
    expected_failed_checks=expected_failed_checks,
)
def test_sklearn_compatible(estimator, check):
    check(estimator)


def test_user_features_and_hard_random_init():
    X, t = two_lines(n=1500, seed=4)
    a = MixtureOfLinearRegressions(2, n_init=3, random_state=0).fit(X, t)
    Phi = np.hstack([np.ones((len(X), 1)), X])
    b = MixtureOfLinearRegressions(2, n_init=3, fit_intercept=False, random_state=0).fit(Phi, t)
    np.testing.assert_allclose(a.coef_, b.coef_, rtol=1e-8, atol=1e-10)  # φ = (1, x) either way
    c = MixtureOfLinearRegressions(2, n_init=3, init="random_hard", random_state=0).fit(X, t)
    order_a, order_c = np.argsort(a.coef_[:, 1]), np.argsort(c.coef_[:, 1])
    np.testing.assert_allclose(c.coef_[order_c], a.coef_[order_a], atol=1e-3)
    assert c.log_likelihood(X, t) == pytest.approx(a.log_likelihood(X, t), rel=1e-5)


def test_logistic_dead_component_keeps_weights_without_nan():
    Phi, t, pi, W = logistic_params(6, n=40, k=3)
    gamma = responsibilities_logistic(Phi, t, pi, W)
    gamma[:, 1] = 0.0
    gamma /= gamma.sum(axis=1, keepdims=True)
    pi_new, W_new = m_step_logistic(Phi, t, gamma, W)
    assert pi_new[1] == 0.0
    np.testing.assert_array_equal(W_new[1], W[1])
    g2, ll = responsibilities_logistic(Phi, t, pi_new, W_new, return_log_likelihood=True)
    assert np.all(np.isfinite(g2)) and np.isfinite(ll) and np.all(g2[:, 1] == 0)


# ---------------------------------------------------------------- review regressions


@pytest.mark.equation("14.42")
def test_badly_scaled_or_offset_inputs_are_not_mistaken_for_singular_systems():
    # Singularity used to be judged on the raw Φᵀ R_k Φ (condition number < 1e12): an input in
    # millions, or around 1000, made the pseudo-inverse drop the intercept.
    Phi, t, pi, W, beta = linear_params(12, n=40, k=2, m=2)
    gamma = responsibilities_linear(Phi, t, pi, W, beta)
    Phi_big = Phi * [1.0, 1e8]
    W_big = weighted_least_squares(Phi_big, t, gamma)
    for k in range(2):
        sw = np.sqrt(gamma[:, k])
        ref = np.linalg.lstsq(Phi_big * sw[:, None], t * sw, rcond=None)[0]
        np.testing.assert_allclose(W_big[k], ref, rtol=1e-8)
    # φ = (1, x): the fitted mixture is the same model for a rescaled or shifted input
    X, t = two_lines(n=600, seed=6)
    ll = MixtureOfLinearRegressions(2, random_state=0).fit(X, t).log_likelihood(X, t)
    for X_other in (1e6 * X, X + 1e3):
        other = MixtureOfLinearRegressions(2, random_state=0).fit(X_other, t)
        assert other.log_likelihood(X_other, t) == pytest.approx(ll, rel=1e-6)


def test_em_draws_random_numbers_only_at_initialisation():
    # Parameters are never re-drawn inside the EM loop: the random stream is consumed by the
    # n_init initialisations only, whatever the number of EM iterations.
    X, t = two_lines(n=300, seed=7)
    states = []
    for max_iter in (1, 40):
        rng = np.random.RandomState(0)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            MixtureOfLinearRegressions(
                3, n_init=2, max_iter=max_iter, tol=0.0, random_state=rng
            ).fit(X, t)
        states.append(rng.get_state()[1])
    expected = np.random.RandomState(0)
    for _ in range(2):
        expected.dirichlet(np.ones(3), size=len(t))
    np.testing.assert_array_equal(states[0], states[1])
    np.testing.assert_array_equal(states[0], expected.get_state()[1])


def test_logistic_log_likelihood_validates_y():
    Xc, yc = two_logistic(n=200)
    m = MixtureOfLogisticRegressions(2, random_state=0, l2=1e-2).fit(Xc, yc)
    assert m.log_likelihood(Xc, yc) == pytest.approx(m.log_likelihood_history_[-1])
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        m.log_likelihood(Xc, yc[:10])
    with pytest.raises(ValueError, match="fitted classes"):
        m.log_likelihood(Xc, yc + 5)


# ---------------------------------------------------------------- the public M-steps


@pytest.mark.equation("14.38", "14.42", "14.44")
def test_m_step_linear_composes_pi_weights_and_precision():
    Phi, t, pi, W, beta = linear_params(13, n=30, k=3)
    gamma = responsibilities_linear(Phi, t, pi, W, beta)
    pi_new, W_new, beta_new = m_step_linear(Phi, t, gamma, W)
    np.testing.assert_allclose(pi_new, mixing_coefficients(gamma), rtol=1e-12)
    np.testing.assert_allclose(W_new, weighted_least_squares(Phi, t, gamma, W), rtol=1e-12)
    assert beta_new == pytest.approx(noise_precision(Phi, t, gamma, W_new), rel=1e-12)


def irls_resolution(Phi, t, r, w, l2):
    """How far from the optimum an IRLS fit may stop: the distance below which the objective
    cannot tell two points apart.

    L(w) is a sum of n terms, so it is known to within about n·eps·S (S = Σ_n abs(term_n)).
    A Newton step d gains ½ dᵀHd; once that gain is below the rounding of L, no step (nor its
    halves) is seen to increase L and IRLS stops where it stands (its documented stall rule), up
    to abs(d) <= sqrt(2 n eps S / λ_min(H)) from the optimum. Two fits of the same objective
    summed in another order (weighted rows against repeated ones) may stop anywhere within this
    distance; below it their difference is rounding, which depends on the BLAS kernel.
    """
    a = Phi @ w
    S = np.sum(np.abs(r * (t * a - np.logaddexp(0.0, a)))) + 0.5 * l2 * (w @ w)
    H = q_negative_hessian(w, Phi, t, r) + l2 * np.eye(w.size)
    return np.sqrt(2 * len(t) * np.finfo(float).eps * S / np.linalg.eigvalsh(H)[0])


def em_tail(objective_history):
    """EM's distance to convergence from its last steps: the rate r of linear convergence (the
    objective's increments shrink by r² per step) and the remaining gain Δ r²/(1 − r²), Δ the
    last increment (a geometric tail)."""
    d = np.diff(objective_history)[-2:]
    r2 = min(d[1] / d[0], 0.99) if d[0] > 0 else 0.0
    return np.sqrt(r2), d[1] * r2 / (1 - r2)


def weighted_and_repeated(seed, n=25):
    rng = np.random.default_rng(seed)
    weights = rng.integers(0, 4, size=n)
    weights[0] = 0  # at least one zero weight: the row is dropped
    weights[1] = 3
    return weights, np.repeat(np.arange(n), weights)


@pytest.mark.equation("14.38", "14.42", "14.44", "14.50")
def test_m_steps_with_integer_weights_equal_repeated_rows():
    weights, rows = weighted_and_repeated(0)
    Phi, t, pi, W, beta = linear_params(14, n=25, k=3)
    gamma = responsibilities_linear(Phi, t, pi, W, beta)
    weighted = m_step_linear(Phi, t, gamma, W, sample_weight=weights)
    repeated = m_step_linear(Phi[rows], t[rows], gamma[rows], W)
    # one solve each, no iteration: the sums' rounding (n·ε) times cond(Φᵀ R_k Φ) <= 13 here,
    # about 1e-13; rtol 1e-10 leaves room for any summation order
    for a, b in zip(weighted, repeated, strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-10)
    unweighted = m_step_linear(Phi, t, gamma, W)
    assert not np.allclose(weighted[1], unweighted[1])  # the weights do change the M-step
    Phi, t, pi, W = logistic_params(15, n=25, k=2)
    gamma = responsibilities_logistic(Phi, t, pi, W)
    weighted = m_step_logistic(Phi, t, gamma, W, sample_weight=weights, l2=0.1)
    repeated = m_step_logistic(Phi[rows], t[rows], gamma[rows], W, l2=0.1)
    np.testing.assert_allclose(weighted[0], repeated[0], rtol=1e-12)  # π: sums of the same terms
    # each IRLS fit stops within its resolution of the same optimum (about 2e-7 here)
    for k in range(2):
        resolution = irls_resolution(Phi[rows], t[rows], gamma[rows, k], weighted[1][k], 0.1)
        np.testing.assert_allclose(weighted[1][k], repeated[1][k], rtol=0, atol=2 * resolution)
    assert not np.allclose(weighted[1], m_step_logistic(Phi, t, gamma, W, l2=0.1)[1])


@pytest.mark.parametrize("kind", ["linear", "logistic"])
def test_integer_weights_equal_repeated_rows_in_a_full_fit(kind):
    weights, rows = weighted_and_repeated(1, n=300)
    if kind == "linear":
        X, y = two_lines(n=300, seed=8)
        cls, kwargs = MixtureOfLinearRegressions, {}
    else:
        X, y = two_logistic(n=300, seed=8)
        cls, kwargs = MixtureOfLogisticRegressions, {"l2": 1e-2}
    gamma0 = np.random.default_rng(2).dirichlet(np.ones(2), size=len(y))  # the same start
    weighted = cls(2, init=gamma0, tol=1e-10, **kwargs).fit(X, y, sample_weight=weights)
    repeated = cls(2, init=gamma0[rows], tol=1e-10, **kwargs).fit(X[rows], y[rows])
    # Both runs iterate the same EM map, up to rounding (the linear M-step's solve) or up to the
    # IRLS resolution δ (the logistic M-step); EM contracts at its rate r, so the per-step
    # differences add up to at most 2δ/(1 − r) in the parameters. Each run stops within the
    # geometric tail of its increments from the same maximum of the objective.
    Phi = np.hstack([np.ones((len(X), 1)), X])[rows]
    history = getattr(weighted, "objective_history_", weighted.log_likelihood_history_)
    rate, tail = em_tail(history)
    gamma = weighted.responsibilities_[rows]
    if kind == "linear":  # a solve of Φᵀ R_k Φ: condition number × rounding of its sums
        cond = max(np.linalg.cond(Phi.T @ (gamma[:, [k]] * Phi)) for k in range(2))
        delta = cond * len(rows) * np.finfo(float).eps * np.max(np.abs(weighted.coef_))
    else:
        delta = max(
            irls_resolution(Phi, y[rows], gamma[:, k], weighted.coef_[k], kwargs["l2"])
            for k in range(2)
        )
    step = 2 * delta / (1 - rate)
    np.testing.assert_allclose(weighted.coef_, repeated.coef_, rtol=0, atol=step)
    # |∂γ_nk/∂a_nj| <= 1 and |Δa_nk| <= ‖φ_n‖₁ |Δw|: π = mean of γ moves at most that much
    step_pi = np.max(np.abs(Phi).sum(axis=1)) * step
    np.testing.assert_allclose(weighted.weights_, repeated.weights_, rtol=0, atol=step_pi)
    assert abs(weighted.lower_bound_ - repeated.lower_bound_) <= 2 * tail + 1e-12 * abs(
        weighted.lower_bound_
    )
    # the stop can move by one step when an increment lies within rounding of tol·Σs
    assert abs(weighted.n_iter_ - repeated.n_iter_) <= 1
    # zero weight = dropping the row: the kept rows' responsibilities agree
    kept = weights > 0
    dropped = cls(2, init=gamma0[kept], tol=1e-10, **kwargs).fit(
        X[kept], y[kept], sample_weight=weights[kept]
    )
    np.testing.assert_allclose(dropped.coef_, weighted.coef_, rtol=0, atol=step)
    np.testing.assert_allclose(
        dropped.responsibilities_, weighted.responsibilities_[kept], rtol=0, atol=step_pi
    )
    # and the weights matter: an unweighted fit from the same start differs
    plain = cls(2, init=gamma0, tol=1e-10, **kwargs).fit(X, y)
    assert not np.allclose(plain.coef_, weighted.coef_, rtol=1e-3)


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10_000), k=st.integers(1, 3), l2=st.sampled_from([0.0, 1e-2, 1.0]))
@pytest.mark.equation("14.46")
def test_em_objective_never_decreases_with_sample_weights_and_a_fixed_penalty(seed, k, l2):
    X, y = two_logistic(n=120, seed=seed)
    weights = np.random.default_rng(seed).uniform(0, 3, size=len(y))
    m = MixtureOfLogisticRegressions(k, max_iter=25, tol=0.0, random_state=seed, l2=l2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        m.fit(X, y, sample_weight=weights)
    h = m.objective_history_
    assert np.all(np.diff(h) >= -1e-7 * np.maximum(1.0, np.abs(h[1:])))
    penalty = 0.5 * l2 * np.sum(m.coef_**2)
    assert h[-1] == pytest.approx(m.log_likelihood_history_[-1] - penalty, rel=1e-12, abs=1e-12)
    assert m.lower_bound_ == h[-1]
    Phi = np.hstack([np.ones((len(X), 1)), X])
    ll = mixture_of_logistic_regressions_log_likelihood(
        Phi, y, m.weights_, m.coef_, sample_weight=weights
    )
    assert ll == pytest.approx(m.log_likelihood_history_[-1])
    Xl, t = two_lines(n=120, seed=seed)
    lin = MixtureOfLinearRegressions(k, max_iter=25, tol=0.0, random_state=seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        lin.fit(Xl, t, sample_weight=weights)
    h = lin.log_likelihood_history_
    assert np.all(np.diff(h) >= -1e-8 * np.maximum(1.0, np.abs(h[1:])))
    ll = mixture_of_linear_regressions_log_likelihood(
        np.hstack([np.ones((len(Xl), 1)), Xl]),
        t,
        lin.weights_,
        lin.coef_,
        lin.precision_,
        sample_weight=weights,
    )
    assert ll == pytest.approx(h[-1])


def test_convergence_warning_is_attributed_to_the_caller():
    X, t = two_lines(n=200, seed=9)
    with pytest.warns(ConvergenceWarning, match="MixtureOfLinearRegressions did not") as record:
        MixtureOfLinearRegressions(2, max_iter=1, tol=0.0, random_state=0).fit(X, t)
    assert [w.filename for w in record] == [__file__]
    Xc, yc = two_logistic(n=200)
    with pytest.warns(ConvergenceWarning, match="MixtureOfLogisticRegressions did not") as record:
        MixtureOfLogisticRegressions(2, max_iter=1, tol=0.0, l2=1.0, random_state=0).fit(Xc, yc)
    assert [w.filename for w in record] == [__file__]


def test_init_array_is_checked_and_gives_a_deterministic_start():
    X, t = two_lines(n=100, seed=10)
    gamma0 = np.random.default_rng(0).dirichlet(np.ones(2), size=100)
    a = MixtureOfLinearRegressions(2, init=gamma0, random_state=1).fit(X, t)
    b = MixtureOfLinearRegressions(2, init=gamma0, random_state=2).fit(X, t)
    np.testing.assert_array_equal(a.coef_, b.coef_)  # random_state plays no part
    # the start is one M-step on gamma0; one EM iteration is an E-step and an M-step more
    Phi = np.hstack([np.ones((100, 1)), X])
    first = m_step_linear(Phi, t, gamma0)
    second = m_step_linear(Phi, t, responsibilities_linear(Phi, t, *first), first[1])
    with pytest.warns(ConvergenceWarning):
        c = MixtureOfLinearRegressions(2, init=gamma0, max_iter=1, tol=0.0).fit(X, t)
    np.testing.assert_allclose(c.coef_, second[1], rtol=1e-12)
    assert c.precision_ == pytest.approx(second[2], rel=1e-12)
    with pytest.raises(ValueError, match=r"init must have shape \(n_samples, n_components\)"):
        MixtureOfLinearRegressions(3, init=gamma0).fit(X, t)
    with pytest.raises(ValueError, match="gamma must have shape"):
        MixtureOfLinearRegressions(2, init=gamma0[:50]).fit(X, t)
    with pytest.raises(ValueError, match="use n_init=1"):
        MixtureOfLinearRegressions(2, init=gamma0, n_init=2).fit(X, t)


def test_sample_weight_is_checked():
    X, t = two_lines(n=30)
    with pytest.raises(ValueError, match="Negative values in data passed to `sample_weight`"):
        MixtureOfLinearRegressions(2).fit(X, t, sample_weight=-np.ones(30))
    with pytest.raises(ValueError, match="Sample weights must contain at least one non-zero"):
        MixtureOfLinearRegressions(2).fit(X, t, sample_weight=np.zeros(30))
    with pytest.raises(ValueError, match="sample_weight.shape"):
        MixtureOfLogisticRegressions(2).fit(X, t > 0, sample_weight=np.ones(29))


def test_check_input_false_skips_only_the_checks():
    Phi, t, pi, W, beta = linear_params(16, n=30, k=3)
    for check_input in (True, False):
        gamma, ll = responsibilities_linear(
            Phi, t, pi, W, beta, return_log_likelihood=True, check_input=check_input
        )
        step = m_step_linear(Phi, t, gamma, W, check_input=check_input)
        if check_input:
            expected = gamma, ll, step
    np.testing.assert_array_equal(gamma, expected[0])
    assert ll == expected[1]
    for a, b in zip(step, expected[2], strict=True):
        np.testing.assert_array_equal(a, b)
    Phi, t, pi, W = logistic_params(17, n=30, k=2)
    gamma = responsibilities_logistic(Phi, t, pi, W)
    np.testing.assert_array_equal(
        responsibilities_logistic(Phi, t, pi, W, check_input=False), gamma
    )
    for a, b in zip(
        m_step_logistic(Phi, t, gamma, W, l2=0.1, check_input=False),
        m_step_logistic(Phi, t, gamma, W, l2=0.1),
        strict=True,
    ):
        np.testing.assert_array_equal(a, b)
    with pytest.raises(ValueError, match="pi must be non-negative and sum to one"):
        responsibilities_logistic(Phi, t, 2 * pi, W)  # the checks are on by default


def test_linear_core_functions_refuse_mismatched_or_overflowing_arguments():
    """Mismatched shapes used to end in numpy broadcasting errors naming no argument, negative
    responsibilities were accepted by the Q functions and W ~ 1e300 overflowed."""
    Phi, t, pi, W, beta = linear_params(3)
    gamma = responsibilities_linear(Phi, t, pi, W, beta)
    with pytest.raises(ValueError, match=r"beta must be a float or one per component, shape \(3,"):
        linear_component_log_densities(Phi, t, W, np.ones(2))
    with pytest.raises(ValueError, match="W has entries of magnitude up to 1e\\+300.*rescale"):
        responsibilities_linear(Phi, t, pi, W * 1e300, beta)
    with pytest.raises(ValueError, match=r"gamma must have shape .* n_components = 3"):
        q_linear_weights(Phi, t, gamma[:, :2], W, beta)
    with pytest.raises(ValueError, match="gamma must be non-negative"):
        expected_complete_data_log_likelihood_linear(Phi, t, -gamma, pi, W, beta)
    with pytest.raises(ValueError, match="beta .* must be positive"):
        q_linear_precision(Phi, t, gamma, W, 0.0)
    # the M-step's π is only on the simplex if each row of γ sums to one
    with pytest.raises(ValueError, match="gamma must hold responsibilities, each row summing"):
        m_step_linear(Phi, t, np.hstack([gamma, gamma[:, :1]]))
    # (14.42) alone needs only non-negative weights: scaling γ leaves every w_k unchanged
    np.testing.assert_allclose(
        weighted_least_squares(Phi, t, 2 * gamma), weighted_least_squares(Phi, t, gamma)
    )
    A, b = weighted_normal_equations(Phi, t, gamma)
    with pytest.raises(ValueError, match=r"b must have shape \(n_components, n_basis\)"):
        solve_normal_equations(A, b[:2])
    with pytest.raises(ValueError, match="A must not contain NaN"):
        solve_normal_equations(np.where(A > 0, np.nan, A), b)
    np.testing.assert_array_equal(solve_normal_equations(A[:0], b[:0]), b[:0])


@pytest.mark.equation("14.48")
def test_responsibilities_logistic_over_many_blocks_match_the_direct_formula():
    # the E-step runs in blocks of samples; compare with ln π_k + ln p(t_n | k) normalised
    Phi, t, pi, W = logistic_params(6, n=20_000, k=3)
    pi = np.array([0.5, 0.0, 0.5])  # ln 0 = −inf: that component gets no responsibility
    gamma, log_lik = responsibilities_logistic(Phi, t, pi, W, return_log_likelihood=True)
    a = Phi @ W.T
    with np.errstate(divide="ignore"):
        log_joint = np.log(pi) + t[:, None] * a - np.logaddexp(0.0, a)
    log_p = np.logaddexp.reduce(log_joint, axis=1)
    np.testing.assert_allclose(gamma, np.exp(log_joint - log_p[:, None]), rtol=1e-12, atol=1e-15)
    assert log_lik == pytest.approx(log_p.sum(), rel=1e-12)


@pytest.mark.equation("14.46")
def test_em_log_likelihood_never_decreases_logistic_many_blocks_weighted():
    # more samples than one block of the batched Newton solver, sample weights, no penalty
    X, y = two_logistic(n=20_000, seed=11)
    weights = np.random.default_rng(11).uniform(0, 2, size=len(y))
    m = MixtureOfLogisticRegressions(3, max_iter=12, tol=0.0, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        m.fit(X, y, sample_weight=weights)
    h = m.log_likelihood_history_
    assert np.all(np.diff(h) >= -1e-10 * np.abs(h[1:]))


def test_logistic_core_refusals_name_the_argument():
    Phi, t, pi, W = logistic_params(7)
    gamma = responsibilities_logistic(Phi, t, pi, W)
    with pytest.raises(ValueError, match="Z must be non-negative"):
        complete_data_log_likelihood_logistic(Phi, t, -gamma, pi, W)
    with pytest.raises(ValueError, match=r"gamma must have shape"):
        expected_complete_data_log_likelihood_logistic(Phi, t, gamma[:, :2], pi, W)
    with pytest.raises(ValueError, match="gamma .* must have a positive sum"):
        m_step_logistic(Phi, t, np.zeros_like(gamma))


@pytest.mark.equation("14.48")
@pytest.mark.parametrize("scale", [1.0, 40.0, 3000.0])
def test_logistic_responsibilities_in_probabilities_match_log_space(scale):
    """The E-step works with σ(±a) and falls back to logarithms where Σ_k π_k p underflows
    (scale 3000: margins beyond 700); both agree with the log-sum-exp of ln π + t a − ln(1 + e^a).
    """
    from prml14.mixtures import responsibilities_logistic

    rng = np.random.default_rng(int(scale))
    n = 9000  # more than one block of 8192 samples
    Phi = np.column_stack([np.ones(n), rng.normal(size=(n, 2))])
    t = (rng.uniform(size=n) < 0.5).astype(float)
    W, pi = rng.normal(size=(3, 3)) * scale, np.array([0.5, 0.3, 0.2])
    A = Phi @ W.T
    log_joint = np.log(pi) + t[:, None] * A - np.logaddexp(0.0, A)
    top = log_joint.max(axis=1, keepdims=True)
    log_p = top[:, 0] + np.log(np.exp(log_joint - top).sum(axis=1))
    gamma, log_lik = responsibilities_logistic(Phi, t, pi, W, return_log_likelihood=True)
    np.testing.assert_allclose(gamma, np.exp(log_joint - log_p[:, None]), rtol=1e-9, atol=1e-13)
    np.testing.assert_allclose(log_lik, log_p.sum(), rtol=1e-12)
