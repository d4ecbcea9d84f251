"""Mixtures of experts and hierarchical mixtures of experts (Section 14.5.3, equation (14.53))."""

import inspect
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.special import expit, softmax
from scipy.stats import norm
from sklearn.base import clone, is_classifier, is_regressor
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import LinearRegression, LogisticRegression, Ridge
from sklearn.metrics import accuracy_score, r2_score
from sklearn.utils.estimator_checks import parametrize_with_checks

from prml14 import make_gated_regression
from prml14.mixtures.expert_estimators import (
    HierarchicalMixtureOfExpertsClassifier,
    HierarchicalMixtureOfExpertsRegressor,
    MixtureOfExpertsClassifier,
    MixtureOfExpertsRegressor,
)
from prml14.mixtures.experts import (
    expert_responsibilities,
    gate_m_step,
    gaussian_expert_log_density,
    hierarchical_gates_m_step,
    hierarchical_log_gates,
    linear_experts_m_step,
    log_mixture_of_experts_density,
    logistic_experts_m_step,
    mixture_of_experts_density,
    node_posteriors,
)
from prml14.mixtures.irls import weighted_softmax_irls, weighted_softmax_objective


def _quiet_fit(estimator, X, y):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return estimator.fit(X, y)


def _true_moe_data(n=2000, seed=0):
    """Two linear experts with different noise *precisions* and an input-dependent softmax gate."""
    rng = np.random.default_rng(seed)
    x = rng.uniform(-1, 1, n)
    V = np.array([[0.0, 0.5], [0.0, 6.0]])  # gate of expert 1 (column 1): σ(0.5 + 6x)
    gate1 = expit(0.5 + 6.0 * x)
    W = np.array([[1.0, 2.0], [-1.0, -0.5]])  # rows: (bias, slope) of each expert
    beta = np.array([100.0, 25.0])  # precisions: standard deviations 0.1 and 0.2
    k = (rng.uniform(size=n) < gate1).astype(int)
    t = W[k, 0] + W[k, 1] * x + rng.standard_normal(n) / np.sqrt(beta[k])
    return x[:, None], t, V, W, beta


def _binary_moe_data(n=3000, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.uniform(-2, 2, size=(n, 2))
    gate = expit(4.0 * X[:, 0])
    p1 = (1 - gate) * expit(3.0 * X[:, 1]) + gate * expit(-3.0 * X[:, 1] + 1.0)
    y = np.where(rng.uniform(size=n) < p1, "yes", "no")
    return X, y, p1


# ------------------------------------------------------------------ scikit-learn conventions


# scikit-learn's own words for its randomised estimators (AdaBoost, Bagging, BisectingKMeans):
# EM starts from responsibilities drawn per row (k-means or Dirichlet), so repeated rows start it
# elsewhere. From the same start, weights do equal repeated or dropped rows:
# test_sample_weights_equal_repeated_or_dropped_rows below.
SAMPLE_WEIGHT_XFAIL = "sample_weight is not equivalent to removing/repeating samples."


# EM on the tiny, separable data sets of the common checks can stop at max_iter (the logistic
# experts' weights grow slowly); the ConvergenceWarning is then correct behaviour, not a failure.
@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
@parametrize_with_checks(
    [
        MixtureOfExpertsRegressor(random_state=0),
        MixtureOfExpertsClassifier(max_iter=50, random_state=0),
        HierarchicalMixtureOfExpertsRegressor(max_iter=50, random_state=0),
        HierarchicalMixtureOfExpertsClassifier(max_iter=30, random_state=0),
    ],
    expected_failed_checks=lambda estimator: {
        "check_sample_weight_equivalence_on_dense_data": SAMPLE_WEIGHT_XFAIL
    },
)
def test_sklearn_compatible(estimator, check):
    check(estimator)


# ------------------------------------------------------------------ (14.53) itself


@pytest.mark.equation("14.53")
def test_density_is_sum_of_gated_gaussians_with_beta_as_precision():
    X, t, *_ = _true_moe_data(400)
    model = MixtureOfExpertsRegressor(2, random_state=0).fit(X, t)
    gates = model.predict_gates(X)
    means = model.coef_[:, 0] + X * model.coef_[:, 1]
    by_hand = np.sum(gates * norm.pdf(t[:, None], means, 1.0 / np.sqrt(model.precision_)), axis=1)
    np.testing.assert_allclose(model.predict_density(X, t), by_hand, rtol=1e-10)
    np.testing.assert_allclose(model.log_likelihood(X, t), np.log(by_hand).sum(), rtol=1e-10)
    np.testing.assert_allclose(
        model.log_likelihood_history_[-1], np.log(by_hand).sum(), rtol=1e-10
    )


@pytest.mark.equation("14.53")
@pytest.mark.parametrize(
    "model", [MixtureOfExpertsClassifier(3), HierarchicalMixtureOfExpertsClassifier(3, 2)]
)
def test_gates_sum_to_one_and_class_probabilities_sum_to_one(model):
    X, t, *_ = _true_moe_data(300)
    y = np.where(t > 0, "up", "down")
    model = _quiet_fit(clone(model).set_params(random_state=1, max_iter=30), X, y)
    x_new = np.linspace(-3, 3, 13)[:, None]
    gates = model.predict_gates(x_new)
    assert gates.shape == (13, model.coef_.shape[0]) and np.all(gates >= 0)
    np.testing.assert_allclose(gates.sum(axis=1), 1.0, atol=1e-12)
    # p(t | x) summed over the two labels is one, and equals predict_proba
    both = [model.predict_density(x_new, np.full(13, label)) for label in model.classes_]
    np.testing.assert_allclose(np.sum(both, axis=0), 1.0, atol=1e-12)
    np.testing.assert_allclose(np.column_stack(both), model.predict_proba(x_new), rtol=1e-12)


@pytest.mark.equation("14.53")
@pytest.mark.parametrize(
    "model", [MixtureOfExpertsRegressor(3), HierarchicalMixtureOfExpertsRegressor(3, 2)]
)
def test_gates_sum_to_one_and_density_integrates_to_one(model):
    X, t, *_ = _true_moe_data(300)
    model = _quiet_fit(clone(model).set_params(random_state=1, max_iter=30), X, t)
    x_new = np.linspace(-3, 3, 13)[:, None]
    gates = model.predict_gates(x_new)
    assert gates.shape == (13, model.coef_.shape[0]) and np.all(gates >= 0)
    np.testing.assert_allclose(gates.sum(axis=1), 1.0, atol=1e-12)
    grid = np.linspace(-8, 8, 8001)
    density = np.stack(
        [model.predict_density(np.full((len(grid), 1), x), grid) for x in x_new[:, 0]]
    )
    np.testing.assert_allclose(np.trapezoid(density, grid, axis=1), 1.0, atol=1e-6)
    # predict is the conditional mean ∫ t p(t|x) dt
    np.testing.assert_allclose(
        np.trapezoid(grid * density, grid, axis=1), model.predict(x_new), atol=1e-6
    )


@pytest.mark.equation("14.53")
def test_logistic_experts_probabilities_sum_to_one_and_match_hand_computation():
    X, y, _ = _binary_moe_data(500)
    model = _quiet_fit(MixtureOfExpertsClassifier(2, random_state=0), X, y)
    proba = model.predict_proba(X)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    np.testing.assert_allclose(
        model.predict_density(X, np.full(500, "yes")), proba[:, 1], rtol=1e-12
    )
    np.testing.assert_allclose(
        model.predict_density(X, np.full(500, "no")), proba[:, 0], rtol=1e-12
    )
    gates = softmax(np.column_stack([np.ones(500), X]) @ model.gate_coef_, axis=1)
    experts = expit(np.column_stack([np.ones(500), X]) @ model.coef_.T)
    np.testing.assert_allclose(proba[:, 1], np.sum(gates * experts, axis=1), rtol=1e-12)
    assert set(model.predict(X)) <= {"no", "yes"}


def test_logistic_experts_probabilities_stay_in_unit_interval_far_from_the_data():
    # far from the data the experts saturate (σ = 1) and the gates may sum to 1 + 2⁻⁵²:
    # unclipped, P(classes_[0] | x) = 1 − p1 came out as −2.2e-16
    rng = np.random.RandomState(0)
    X = rng.normal(size=(200, 2))
    model = _quiet_fit(MixtureOfExpertsClassifier(3, random_state=0), X, (X[:, 0] > 0).astype(int))
    proba = model.predict_proba(50.0 * rng.normal(size=(20000, 2)))
    assert proba.min() >= 0.0 and proba.max() <= 1.0


@pytest.mark.parametrize("shape", ["one gate", "tree"])
def test_each_role_has_its_own_attributes_methods_and_tags(shape):
    X, t, *_ = _true_moe_data(120, seed=2)
    y = (t > np.median(t)).astype(int)
    if shape == "one gate":
        reg, clf = MixtureOfExpertsRegressor(2), MixtureOfExpertsClassifier(2)
    else:
        reg = HierarchicalMixtureOfExpertsRegressor(2, 2)
        clf = HierarchicalMixtureOfExpertsClassifier(2, 2)
    reg = _quiet_fit(reg.set_params(random_state=0, max_iter=5), X, t)
    clf = _quiet_fit(clf.set_params(random_state=0, max_iter=5), X, y)
    assert is_regressor(reg) and not is_classifier(reg)
    assert is_classifier(clf) and not is_regressor(clf)
    assert reg.precision_.shape == (reg.coef_.shape[0],) and not hasattr(reg, "classes_")
    assert clf.classes_.tolist() == [0, 1] and not hasattr(clf, "precision_")
    assert not hasattr(reg, "predict_proba") and hasattr(clf, "predict_proba")
    assert "precision" in reg.get_params() and "precision" not in clf.get_params()
    # score: R² for the regressor, accuracy for the classifier (scikit-learn's mixins)
    assert reg.score(X, t) == pytest.approx(r2_score(t, reg.predict(X)))
    assert clf.score(X, y) == pytest.approx(accuracy_score(y, clf.predict(X)))


def test_expert_responsibilities_refuse_mismatched_shapes():
    # a single column of log densities used to broadcast against the gates silently
    with pytest.raises(
        ValueError,
        match=r"must both have shape \(n_samples, n_experts\), got \(3, 2\) and \(3, 1\)",
    ):
        expert_responsibilities(np.log(np.full((3, 2), 0.5)), np.zeros((3, 1)))


def test_core_functions_refuse_bad_arguments_naming_them():
    rng = np.random.default_rng(1)
    Phi = np.column_stack([np.ones(6), rng.normal(size=6)])
    t, R, W = rng.normal(size=6), rng.dirichlet(np.ones(2), size=6), np.zeros((2, 2))
    with pytest.raises(ValueError, match="beta .* must be positive"):
        linear_experts_m_step(Phi, t, R, W, np.array([1.0, 0.0]))
    with pytest.raises(ValueError, match=r"W must have shape \(n_experts, n_basis\)"):
        linear_experts_m_step(Phi, t, R, np.zeros((2, 3)), 1.0)
    with pytest.raises(ValueError, match="gamma must be non-negative"):
        logistic_experts_m_step(Phi, (t > 0).astype(float), R - 0.6, W)
    with pytest.raises(ValueError, match="sample_weight must be non-negative"):
        gate_m_step(Phi, R, np.zeros((2, 2)), sample_weight=-np.ones(6))
    with pytest.raises(ValueError, match="V has weights of magnitude up to 1e"):
        gate_m_step(Phi, R, np.full((2, 2), 1e300))
    with pytest.raises(ValueError, match=r"log_gates must not contain \+inf"):
        expert_responsibilities(np.array([[np.inf, 0.0]]), np.zeros((1, 2)))
    with pytest.raises(ValueError, match="expert_densities must be non-negative"):
        mixture_of_experts_density(R, -np.ones((6, 2)))
    with pytest.raises(ValueError, match="gamma must have a multiple of branching"):
        node_posteriors(np.full((3, 6), 1 / 6), 2, 1)
    with pytest.raises(ValueError, match="gamma must have a multiple of branching"):
        node_posteriors(np.full((3, 4), 1 / 4), 2, 10**9)  # refused without computing 2**1e9
    with pytest.raises(TypeError, match="level must be an integer"):
        node_posteriors(np.full((3, 4), 1 / 4), 2, 0.5)


def test_m_steps_leave_their_arguments_unchanged():
    rng = np.random.default_rng(2)
    Phi = np.column_stack([np.ones(8), rng.normal(size=8)])
    t, R = rng.normal(size=8), rng.dirichlet(np.ones(2), size=8)
    W, beta = rng.normal(size=(2, 2)), np.array([1.0, 2.0])
    linear_experts_m_step(Phi, t, R, W, beta, l2=1.0)
    np.testing.assert_array_equal(beta, [1.0, 2.0])
    shared = linear_experts_m_step(Phi, t, R, W, 2.0)[1]  # a float: one precision shared
    np.testing.assert_array_equal(shared, linear_experts_m_step(Phi, t, R, W, [2.0, 2.0])[1])


def test_gaussian_expert_log_density_of_an_overflowing_residual_is_minus_infinity():
    Phi, t = np.ones((2, 1)), np.zeros(2)
    log_p = gaussian_expert_log_density(Phi, t, np.array([[1e300], [0.0]]), 1.0)
    assert np.all(log_p[:, 0] == -np.inf)
    np.testing.assert_allclose(log_p[:, 1], norm.logpdf(0.0))


@pytest.mark.equation("14.53")
def test_core_density_functions_agree_in_linear_and_log_space():
    rng = np.random.default_rng(0)
    gates = rng.dirichlet(np.ones(4), size=10)
    dens = rng.uniform(0.01, 2, size=(10, 4))
    np.testing.assert_allclose(
        mixture_of_experts_density(gates, dens), np.sum(gates * dens, axis=1)
    )
    np.testing.assert_allclose(
        np.exp(log_mixture_of_experts_density(np.log(gates), np.log(dens))),
        np.sum(gates * dens, axis=1),
    )
    with pytest.raises(ValueError, match="gates must be non-negative and sum to one"):
        mixture_of_experts_density(gates * 2, dens)


# ------------------------------------------------------------------ EM


@pytest.mark.equation("14.53")
@settings(max_examples=16, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    kind=st.sampled_from(
        ["moe-linear", "moe-shared", "moe-logistic", "hme-linear", "hme-logistic"]
    ),
    weighted=st.booleans(),
)
def test_em_objective_never_decreases(seed, kind, weighted):
    rng = np.random.default_rng(seed)
    n = 60
    if kind.endswith("logistic"):
        X, y, _ = _binary_moe_data(n, seed)
    else:
        X, y = make_gated_regression(n, noise=rng.uniform(0.05, 0.5), random_state=seed)
    common = dict(max_iter=25, init=["kmeans", "random"][seed % 2], random_state=seed)
    n_components = int(rng.integers(2, 4))
    model = {
        "moe-linear": lambda: MixtureOfExpertsRegressor(n_components, **common),
        "moe-shared": lambda: MixtureOfExpertsRegressor(
            n_components, precision="shared", **common
        ),
        "moe-logistic": lambda: MixtureOfExpertsClassifier(n_components, **common),
        "hme-linear": lambda: HierarchicalMixtureOfExpertsRegressor(2, 2, **common),
        "hme-logistic": lambda: HierarchicalMixtureOfExpertsClassifier(2, 2, **common),
    }[kind]()
    # weights spread over two orders of magnitude, a few of them zero
    sample_weight = rng.uniform(0.1, 10, n) * (rng.uniform(size=n) > 0.1) if weighted else None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        model.fit(X, y, sample_weight=sample_weight)
    history = model.objective_history_
    assert np.all(np.isfinite(history))
    assert np.all(np.diff(history) >= -1e-8 * np.abs(history[:-1]).clip(1.0))
    assert model.lower_bound_ == history[-1]


@pytest.mark.equation("14.53")
def test_unpenalised_log_likelihood_never_decreases():
    X, t = make_gated_regression(200, random_state=3)
    model = _quiet_fit(
        MixtureOfExpertsRegressor(3, gate_l2=0.0, expert_l2=0.0, max_iter=60, random_state=0), X, t
    )
    np.testing.assert_array_equal(model.log_likelihood_history_, model.objective_history_)
    assert np.all(np.diff(model.log_likelihood_history_) >= -1e-9)


@pytest.mark.equation("14.53")
def test_recovers_generating_gates_experts_and_precisions():
    X, t, V, W, beta = _true_moe_data(3000, seed=1)
    model = MixtureOfExpertsRegressor(2, n_init=2, random_state=0).fit(X, t)
    order = np.argsort(-model.coef_[:, 1])  # the rising line first, as in W
    np.testing.assert_allclose(model.coef_[order], W, atol=0.06)
    np.testing.assert_allclose(model.precision_[order], beta, rtol=0.15)  # β is a precision
    gates = model.predict_gates(X)[:, order]
    np.testing.assert_allclose(
        gates, softmax(np.column_stack([np.ones(len(X)), X]) @ V, axis=1), atol=0.08
    )
    assert model.converged_


def test_logistic_mixture_of_experts_recovers_class_probabilities():
    X, y, p1 = _binary_moe_data(4000, seed=2)
    model = _quiet_fit(MixtureOfExpertsClassifier(2, n_init=2, random_state=0), X, y)
    assert np.mean(np.abs(model.predict_proba(X)[:, 1] - p1)) < 0.04
    assert model.classes_.tolist() == ["no", "yes"]


@pytest.mark.equation("14.42", "14.44")
@pytest.mark.parametrize("weighted", [False, True])
def test_linear_m_step_is_weighted_least_squares_and_weighted_variance(weighted):
    rng = np.random.default_rng(4)
    X, t = make_gated_regression(150, random_state=4)
    Phi = np.column_stack([np.ones(150), X])
    R = rng.dirichlet(np.ones(3), size=150)
    s = rng.uniform(0, 3, 150) if weighted else np.ones(150)
    sample_weight = s if weighted else None
    W0, beta0 = np.zeros((3, 2)), np.ones(3)
    coef, precision = linear_experts_m_step(Phi, t, R, W0, beta0, sample_weight=sample_weight)
    for k in range(3):
        ref = LinearRegression().fit(X, t, sample_weight=s * R[:, k])
        np.testing.assert_allclose(coef[k], [ref.intercept_, ref.coef_[0]], rtol=1e-8)
        residual = t - ref.predict(X)
        np.testing.assert_allclose(
            1 / precision[k], np.average(residual**2, weights=s * R[:, k]), rtol=1e-8
        )
    _, precision_shared = linear_experts_m_step(
        Phi, t, R, W0, beta0, sample_weight=sample_weight, precision="shared"
    )
    # (14.44) with the sample weights: the pooled residual variance per unit weight
    pooled = np.sum(s[:, None] * R * (t[:, None] - Phi @ coef.T) ** 2) / s.sum()
    np.testing.assert_allclose(1 / precision_shared, pooled, rtol=1e-8)


def test_linear_m_step_ridge_maximises_the_penalised_expert_part_of_q():
    # w_k maximises Σ_n γ_nk ln N(t_n | w_kᵀφ_n, β_k⁻¹) − (l2/2)‖w_k[1:]‖² at the current β_k
    rng = np.random.default_rng(5)
    Phi = np.column_stack([np.ones(80), rng.normal(size=(80, 2))])
    t = Phi @ [0.5, 1.0, -2.0] + 0.3 * rng.normal(size=80)
    R = rng.dirichlet(np.ones(2), size=80)
    beta, l2 = np.array([4.0, 0.5]), 3.0
    W, _ = linear_experts_m_step(Phi, t, R, np.zeros((2, 3)), beta, l2=l2)
    for k in range(2):
        ref = Ridge(alpha=l2 / beta[k]).fit(Phi[:, 1:], t, sample_weight=R[:, k])
        np.testing.assert_allclose(W[k], [ref.intercept_, *ref.coef_], rtol=1e-8)


@pytest.mark.equation("14.51", "14.52")
def test_logistic_m_step_is_weighted_logistic_regression():
    rng = np.random.default_rng(6)
    X = rng.normal(size=(200, 2))
    t = (rng.uniform(size=200) < expit(X @ [1.5, -1.0])).astype(float)
    Phi = np.column_stack([np.ones(200), X])
    R = rng.dirichlet(np.ones(2), size=200)
    s = rng.uniform(0, 2, 200)
    W = logistic_experts_m_step(Phi, t, R, np.zeros((2, 3)), sample_weight=s, max_iter=100)
    for k in range(2):
        # l2 = 0: scikit-learn's unpenalised logistic regression with weights s_n γ_nk
        ref = LogisticRegression(C=np.inf, tol=1e-10, max_iter=1000)
        ref.fit(X, t, sample_weight=s * R[:, k])
        np.testing.assert_allclose(W[k], [ref.intercept_[0], *ref.coef_[0]], rtol=1e-5)


def test_gate_m_step_maximises_the_gate_part_of_q():
    X, t = make_gated_regression(200, random_state=5)
    model = MixtureOfExpertsRegressor(
        2, gate_l2=0.0, inner_max_iter=50, max_iter=1, tol=0.0, random_state=0
    )
    with pytest.warns(ConvergenceWarning):
        model.fit(X, t)
    Phi = np.column_stack([np.ones(200), X])
    R = model.responsibilities_
    V = hierarchical_gates_m_step(Phi, R, model.gate_coefs_, max_iter=50)[0][0]
    np.testing.assert_allclose(V, gate_m_step(Phi, R, model.gate_coef_, max_iter=50), rtol=1e-10)
    V_ref, _, _ = weighted_softmax_irls(Phi, R, tol=1e-12)
    np.testing.assert_allclose(V, V_ref, rtol=1e-3)
    best = weighted_softmax_objective(Phi, R, V)
    assert best >= weighted_softmax_objective(Phi, R, V_ref) - 1e-8 * len(R)
    for scale in (0.9, 1.1):
        assert weighted_softmax_objective(Phi, R, V * scale) <= best


def test_input_dependent_gates_remove_mass_where_there_is_no_data():
    X, t = make_gated_regression(600, random_state=6)
    X_test, t_test = make_gated_regression(600, random_state=7)
    experts = MixtureOfExpertsRegressor(2, random_state=0).fit(X, t)
    plain = MixtureOfExpertsRegressor(2, gating="constant", random_state=0).fit(X, t)
    np.testing.assert_allclose(
        plain.predict_gates(np.array([[-1.0], [1.0]])), plain.predict_gates(np.array([[0.0]] * 2))
    )
    # at x = -0.5 almost every point is on the rising line (true gate σ(-4) ≈ 0.018); the
    # falling line t = -1 - 0.5x is nearly empty there, 5 noise deviations below the rising one
    x0 = np.array([[-0.5]])
    t_empty = np.array([-0.75])
    assert experts.predict_density(x0, t_empty)[0] < 0.1 * plain.predict_density(x0, t_empty)[0]
    assert experts.log_likelihood(X_test, t_test) > plain.log_likelihood(X_test, t_test) + 50


# ------------------------------------------------------------------ hierarchy, Exercise 14.17


@pytest.mark.parametrize(
    "moe, hme",
    [
        (MixtureOfExpertsRegressor(3), HierarchicalMixtureOfExpertsRegressor(3, 1)),
        (MixtureOfExpertsClassifier(3), HierarchicalMixtureOfExpertsClassifier(3, 1)),
    ],
    ids=["regressor", "classifier"],
)
def test_one_level_hme_is_the_mixture_of_experts(moe, hme):
    X, t = make_gated_regression(200, random_state=8)
    if is_classifier(moe):
        t = (t > 0).astype(int)
    moe = _quiet_fit(moe.set_params(random_state=0, max_iter=40), X, t)
    hme = _quiet_fit(hme.set_params(random_state=0, max_iter=40), X, t)
    np.testing.assert_array_equal(moe.coef_, hme.coef_)
    np.testing.assert_array_equal(moe.gate_coef_, hme.gate_coefs_[0][0])
    np.testing.assert_array_equal(moe.objective_history_, hme.objective_history_)


def test_hme_leaf_gates_are_products_along_paths():
    rng = np.random.default_rng(9)
    Phi = np.column_stack([np.ones(7), rng.normal(size=(7, 2))])
    gate_coefs = [rng.normal(size=(1, 3, 2)), rng.normal(size=(2, 3, 2))]
    leaves = np.exp(hierarchical_log_gates(Phi, gate_coefs))
    top = softmax(Phi @ gate_coefs[0][0], axis=1)
    for j in range(2):
        below = softmax(Phi @ gate_coefs[1][j], axis=1)
        np.testing.assert_allclose(leaves[:, 2 * j : 2 * j + 2], top[:, [j]] * below, rtol=1e-12)
    with pytest.raises(ValueError, match=r"gate_coefs\[1\] must have shape"):
        hierarchical_log_gates(Phi, [gate_coefs[0], gate_coefs[1][:1]])


def _best_one_level_kl(Phi, leaf_gates):
    """Smallest mean KL(hme gates ‖ one-level gates) over one-level linear softmax gates."""
    V, _, _ = weighted_softmax_irls(Phi, leaf_gates, tol=1e-14, max_iter=200)
    entropy_term = np.sum(leaf_gates * np.log(leaf_gates))
    return (entropy_term - weighted_softmax_objective(Phi, leaf_gates, V)) / len(Phi)


def test_exercise_14_17_constant_gates_collapse_to_one_level():
    rng = np.random.default_rng(10)
    ones = np.ones((50, 1))
    gate_coefs = [rng.normal(size=(1, 1, 2)), rng.normal(size=(2, 1, 3))]
    leaves = np.exp(hierarchical_log_gates(ones, gate_coefs))
    top = softmax(gate_coefs[0][0, 0])
    products = np.concatenate([top[j] * softmax(gate_coefs[1][j, 0]) for j in range(2)])
    np.testing.assert_allclose(leaves, np.tile(products, (50, 1)), rtol=1e-12)
    # the one-level mixture with π = products is the same model, exactly
    x = np.linspace(-1, 1, 50)[:, None]
    assert _best_one_level_kl(np.column_stack([ones, x]), leaves) < 1e-10


def test_exercise_14_17_input_dependent_gates_do_not_collapse_in_general():
    x = np.linspace(-3, 3, 400)[:, None]
    Phi = np.column_stack([np.ones(400), x])
    # top gate σ(x); below it two gates σ(2 + 4x) and σ(-2 + 4x) with different biases
    gate_coefs = [
        np.array([[[0.0, 0.0], [0.0, 1.0]]]),
        np.array([[[0.0, 2.0], [0.0, 4.0]], [[0.0, -2.0], [0.0, 4.0]]]),
    ]
    leaves = np.exp(hierarchical_log_gates(Phi, gate_coefs))
    assert _best_one_level_kl(Phi, leaves) > 1e-2
    # special cases do collapse: mirror-image lower gates share the normaliser of the top gate
    mirrored = [gate_coefs[0], np.array([[[0.0, 1.0], [0.0, -4.0]], [[0.0, -1.0], [0.0, 4.0]]])]
    assert _best_one_level_kl(Phi, np.exp(hierarchical_log_gates(Phi, mirrored))) < 1e-10


def test_node_posteriors_sum_the_leaves_below_each_node():
    # branching 2, depth 3: 8 leaves; level 1 has nodes 0, 1 owning leaves 0-3 and 4-7
    gamma = np.random.default_rng(0).dirichlet(np.ones(8), size=5)
    node, child = node_posteriors(gamma, 2, 1)
    np.testing.assert_allclose(node, np.c_[gamma[:, :4].sum(1), gamma[:, 4:].sum(1)])
    np.testing.assert_allclose(child[:, 1, 0], gamma[:, 4] + gamma[:, 5])
    node2, child2 = node_posteriors(gamma, 2, 2)
    np.testing.assert_allclose(node2[:, 3], gamma[:, 6] + gamma[:, 7])
    np.testing.assert_allclose(child2[:, 3], gamma[:, 6:8])
    root, _ = node_posteriors(gamma, 2, 0)
    np.testing.assert_allclose(root[:, 0], 1.0)


def test_hierarchical_gate_m_step_splits_q_into_one_soft_target_regression_per_node():
    rng = np.random.default_rng(1)
    n = 300
    Phi = np.column_stack([np.ones(n), rng.normal(size=n)])
    gamma = rng.dirichlet(np.ones(4), size=n)  # leaves of a 2 x 2 tree
    s = rng.uniform(0, 2, n)
    start = [np.zeros((1, 2, 2)), np.zeros((2, 2, 2))]
    new = hierarchical_gates_m_step(Phi, gamma, start, sample_weight=s, l2=0.0, max_iter=100)
    # each node by hand: targets = its children's share of its posterior, weights = s × posterior
    root_T = np.c_[gamma[:, :2].sum(1), gamma[:, 2:].sum(1)]
    np.testing.assert_allclose(
        new[0][0], weighted_softmax_irls(Phi, root_T, s, tol=1e-12)[0], atol=1e-6
    )
    for j in range(2):
        h = gamma[:, 2 * j : 2 * j + 2]
        V = weighted_softmax_irls(Phi, h / h.sum(1, keepdims=True), s * h.sum(1), tol=1e-12)[0]
        np.testing.assert_allclose(new[1][j], V, atol=1e-6)

    # the gate part of Q, Σ_n s_n Σ_leaf γ ln π_leaf(x_n), is the sum of the node objectives,
    # so maximising each node maximises it: perturbing any gate lowers it
    def q_gates(coefs):
        return np.sum(s[:, None] * gamma * hierarchical_log_gates(Phi, coefs))

    nodes = weighted_softmax_objective(Phi, root_T, new[0][0], s) + sum(
        weighted_softmax_objective(
            Phi,
            gamma[:, 2 * j : 2 * j + 2] / gamma[:, 2 * j : 2 * j + 2].sum(1, keepdims=True),
            new[1][j],
            s * gamma[:, 2 * j : 2 * j + 2].sum(1),
        )
        for j in range(2)
    )
    np.testing.assert_allclose(q_gates(new), nodes, rtol=1e-10)
    for level, j in [(0, 0), (1, 0), (1, 1)]:
        for delta in (-0.05, 0.05):
            moved = [V.copy() for V in new]
            moved[level][j][:, 1] += delta
            assert q_gates(moved) < q_gates(new)


def test_fitted_hme_with_constant_gates_equals_one_level_mixture():
    X, t = make_gated_regression(200, random_state=11)
    hme = _quiet_fit(
        HierarchicalMixtureOfExpertsRegressor(
            2, 2, gating="constant", random_state=0, max_iter=30
        ),
        X,
        t,
    )
    pi = hme.predict_gates(X[:1])[0]
    means = hme.coef_[:, 0] + X * hme.coef_[:, 1]
    one_level = np.sum(pi * norm.pdf(t[:, None], means, 1 / np.sqrt(hme.precision_)), axis=1)
    np.testing.assert_allclose(hme.predict_density(X, t), one_level, rtol=1e-10)
    np.testing.assert_allclose(hme.predict_gates(X), np.tile(pi, (200, 1)), rtol=1e-12)


# ------------------------------------------------------------------ robustness, API


ALL_FOUR = [
    MixtureOfExpertsRegressor(3),
    MixtureOfExpertsClassifier(3),
    HierarchicalMixtureOfExpertsRegressor(2, 2),
    HierarchicalMixtureOfExpertsClassifier(2, 2),
]


def _data_for(estimator, n, seed):
    X, t = make_gated_regression(n, random_state=seed)
    return X, (t > 0.5).astype(int) if is_classifier(estimator) else t


@pytest.mark.parametrize("estimator", ALL_FOUR, ids=lambda e: type(e).__name__)
@pytest.mark.parametrize("init", ["kmeans", "random"])
def test_same_random_state_same_fit_and_n_init_keeps_best(estimator, init):
    X, t = _data_for(estimator, 150, seed=12)
    model = clone(estimator).set_params(init=init, random_state=5, max_iter=40)
    a, b = _quiet_fit(clone(model), X, t), _quiet_fit(clone(model), X, t)
    np.testing.assert_array_equal(a.coef_, b.coef_)
    np.testing.assert_array_equal(a.objective_history_, b.objective_history_)
    np.testing.assert_array_equal(a.responsibilities_, b.responsibilities_)
    # another seed starts elsewhere (the test above could not fail if the seed were ignored)
    c = _quiet_fit(clone(model).set_params(random_state=6), X, t)
    assert not np.array_equal(a.objective_history_, c.objective_history_)
    many = _quiet_fit(clone(model).set_params(n_init=4), X, t)
    assert many.lower_bound_ >= a.lower_bound_ - 1e-9


@pytest.mark.parametrize("estimator", ALL_FOUR, ids=lambda e: type(e).__name__)
def test_convergence_warning_at_max_iter_points_at_the_callers_line(estimator):
    X, t = _data_for(estimator, 100, seed=13)
    model = clone(estimator).set_params(max_iter=2, tol=0.0, random_state=0)
    with pytest.warns(ConvergenceWarning, match="max_iter=2") as record:
        line = inspect.currentframe().f_lineno + 1
        model.fit(X, t)
    assert (record[0].filename, record[0].lineno) == (__file__, line)
    assert type(estimator).__name__ in str(record[0].message)
    assert not model.converged_ and model.n_iter_ == 2 and len(model.log_likelihood_history_) == 3


def test_too_many_experts_for_the_data_give_finite_parameters():
    rng = np.random.default_rng(14)
    X = rng.uniform(-1, 1, (8, 1))
    t = 2 * X[:, 0] + 0.1 * rng.standard_normal(8)
    model = _quiet_fit(
        HierarchicalMixtureOfExpertsRegressor(2, 3, random_state=0, max_iter=20), X, t
    )
    for value in (
        model.coef_,
        model.precision_,
        model.responsibilities_,
        model.objective_history_,
    ):
        assert np.all(np.isfinite(value))
    # variances are floored: no expert collapses onto a single point with infinite precision
    assert np.all(1 / model.precision_ >= 1e-6 * np.var(t) * (1 - 1e-12))
    y = (t > np.median(t)).astype(int)
    clf = _quiet_fit(
        HierarchicalMixtureOfExpertsClassifier(2, 3, random_state=0, max_iter=20), X, y
    )
    for value in (clf.coef_, clf.responsibilities_, clf.objective_history_):
        assert np.all(np.isfinite(value))


@pytest.mark.parametrize(
    "estimator, X, y, error, message",
    [
        (
            MixtureOfExpertsRegressor(5),
            np.zeros((4, 1)),
            np.arange(4.0),
            ValueError,
            "n_components=5 experts must be <= n_samples=4",
        ),
        (
            MixtureOfExpertsRegressor(0),
            np.zeros((4, 1)),
            np.arange(4.0),
            ValueError,
            "n_components",
        ),
        (
            HierarchicalMixtureOfExpertsRegressor(branching=1),
            np.zeros((4, 1)),
            np.arange(4.0),
            ValueError,
            "branching",
        ),
        (
            MixtureOfExpertsRegressor(precision="per_expert"),
            np.zeros((4, 1)),
            np.arange(4.0),
            ValueError,
            "'precision' parameter .* must be a str among",
        ),
        (
            HierarchicalMixtureOfExpertsClassifier(init="means"),
            np.zeros((4, 1)),
            np.arange(4) % 2,
            ValueError,
            "'init' parameter",
        ),
        (
            MixtureOfExpertsRegressor(2, init=np.ones((3, 2))),
            np.zeros((4, 1)),
            np.arange(4.0),
            ValueError,
            r"init must be .* of shape \(n_samples, n_experts\) = \(4, 2\).*got shape \(3, 2\)",
        ),
        (
            MixtureOfExpertsRegressor(2, init=np.array([[1.0, 0.0], [0.0, 0.0], [1, 1], [1, 1]])),
            np.zeros((4, 1)),
            np.arange(4.0),
            ValueError,
            "no row of zeros",
        ),
        (
            MixtureOfExpertsRegressor(),
            np.array([[0.0], [np.nan], [1.0]]),
            np.arange(3.0),
            ValueError,
            "NaN",
        ),
        (
            MixtureOfExpertsRegressor(),
            np.zeros((3, 1)),
            np.array([0.0, np.inf, 1.0]),
            ValueError,
            "infinity",
        ),
        (
            MixtureOfExpertsClassifier(),
            np.zeros((6, 1)),
            np.arange(6) % 3,
            ValueError,
            "Only binary",
        ),
        (
            MixtureOfExpertsClassifier(),
            np.zeros((4, 1)),
            np.array([0.1, 0.2, 0.3, 0.4]),
            ValueError,
            "Unknown label type",
        ),
    ],
)
def test_bad_input(estimator, X, y, error, message):
    with pytest.raises(error, match=message):
        estimator.fit(X, y)


@pytest.mark.parametrize("estimator", ALL_FOUR, ids=lambda e: type(e).__name__)
def test_bad_sample_weight_is_refused(estimator):
    X, t = _data_for(estimator, 20, seed=0)
    with pytest.raises(ValueError, match="Negative values in data passed to `sample_weight`"):
        estimator.fit(X, t, sample_weight=np.r_[-1.0, np.ones(19)])
    with pytest.raises(ValueError, match=r"sample_weight.shape == \(3,\), expected \(20,\)"):
        estimator.fit(X, t, sample_weight=np.ones(3))
    with pytest.raises(
        ValueError, match="Sample weights must contain at least one non-zero number"
    ):
        estimator.fit(X, t, sample_weight=np.zeros(20))


def test_bad_input_after_fit():
    X, t = make_gated_regression(50, random_state=15)
    model = MixtureOfExpertsRegressor(2, random_state=0).fit(X, t)
    with pytest.raises(ValueError, match="y must have shape"):
        model.predict_density(X, t[:10])
    with pytest.raises(ValueError, match="features"):
        model.predict(np.zeros((3, 2)))
    assert not hasattr(model, "predict_proba")
    Xc, yc, _ = _binary_moe_data(60)
    clf = _quiet_fit(MixtureOfExpertsClassifier(2, random_state=0), Xc, yc)
    with pytest.raises(ValueError, match="labels not seen in fit"):
        clf.log_likelihood(Xc[:2], np.array(["yes", "maybe"]))


def _linear_mixture_information(Phi, t, theta):
    """−∇²ln p(t | θ) of (14.35) by central differences, θ = (π_1, w_1, w_2, ln β), K = 2."""
    from prml14.mixtures import mixture_of_linear_regressions_log_likelihood

    def log_lik(th):
        W = th[1:-1].reshape(2, -1)
        return mixture_of_linear_regressions_log_likelihood(
            Phi, t, [th[0], 1 - th[0]], W, np.exp(th[-1])
        )

    E = np.diag(1e-4 * np.maximum(1.0, np.abs(theta)))
    H = np.array(
        [
            [
                log_lik(theta + a + b)
                - log_lik(theta + a - b)
                - log_lik(theta - a + b)
                + log_lik(theta - a - b)
                for b in E
            ]
            for a in E
        ]
    )
    return -H / (4 * np.outer(np.diag(E), np.diag(E)))


@pytest.mark.equation("14.53")
def test_constant_gates_and_shared_precision_reproduce_the_mixture_of_linear_regressions():
    # Section 14.5.1's model (14.34) is the special case φ_gate = 1, one β: an independent
    # implementation (prml14.mixtures, closed-form π_k) must reach the same maximum.
    from test_mixtures import em_tail

    from prml14.mixtures import MixtureOfLinearRegressions

    X, t = make_gated_regression(400, random_state=3)
    reference = MixtureOfLinearRegressions(
        2, tol=1e-12, max_iter=2000, n_init=3, random_state=0
    ).fit(X, t)
    ours = MixtureOfExpertsRegressor(
        2,
        gating="constant",
        precision="shared",
        gate_l2=0.0,
        expert_l2=0.0,
        tol=1e-12,
        max_iter=2000,
        random_state=0,
    ).fit(X, t)
    order = np.argsort(ours.coef_[:, 1])
    ref_order = np.argsort(reference.coef_[:, 1])
    Phi, n = np.column_stack([np.ones(len(X)), X]), len(t)
    theta_ref = np.concatenate(
        [reference.weights_[ref_order][:1], reference.coef_[ref_order].ravel()]
        + [np.log([reference.precision_])]
    )
    pi = ours.predict_gates(X[:1])[0][order]
    theta = np.concatenate(
        [pi[:1], ours.coef_[order].ravel(), np.log(np.ravel(ours.precision_)[:1])]
    )
    # How far each fit may stop from the common maximum θ*. (a) EM's geometric tail: within
    # ½ δᵀIδ <= tail (+ the objective's rounding), so |δ_i| <= √(2·gap·(I⁻¹)_ii). (b) Our gate
    # M-step is a Newton loop that stops once its decrement is <= 1e-10·N: with a constant gate
    # that leaves |γ̄_1 − π_1| <= d = √(2e-10·π_1(1 − π_1)) (γ̄ = mean responsibility), i.e. a
    # gradient ∂ln p/∂π_1 = N(γ̄_1 − π_1)/(π_1(1 − π_1)) that moves the stop by I⁻¹ times it.
    cov = np.linalg.inv(_linear_mixture_information(Phi, t, theta_ref))
    rounding = n * np.finfo(float).eps * abs(reference.log_likelihood(X, t))
    gaps = [
        em_tail(h)[1] + rounding
        for h in (reference.log_likelihood_history_, ours.objective_history_)
    ]
    spread = sum(np.sqrt(2 * gap * np.diag(cov)) for gap in gaps)
    d = np.sqrt(2e-10 * pi[0] * (1 - pi[0]))
    assert abs(ours.responsibilities_[:, order[0]].mean() - pi[0]) <= d
    gate_shift = np.abs(cov[:, 0]) * n * d / (pi[0] * (1 - pi[0]))
    # twice the first-order bound (the information comes from finite differences)
    bound = 2 * (spread + gate_shift)
    assert np.all(np.abs(theta - theta_ref) <= bound), (theta - theta_ref, bound)
    gap = 0.5 * cov[0, 0] * (n * d / (pi[0] * (1 - pi[0]))) ** 2 + sum(gaps)
    assert abs(ours.log_likelihood(X, t) - reference.log_likelihood(X, t)) <= 2 * gap
    # and the bound is tight enough to matter: (π_1 ± 1e-4) or β(1 ± 1e-4) would fail it
    assert np.all(bound[[0, -1]] < 1e-4)


# ------------------------------------------------------------------ sample weights


def _weights_as_repetitions(estimator, weights, seed):
    """Fit with integer weights and on the rows repeated as often, from the same start."""
    X, t = _data_for(estimator, len(weights), seed)
    rng = np.random.default_rng(seed)
    n_experts = (
        3 if isinstance(estimator, MixtureOfExpertsRegressor | MixtureOfExpertsClassifier) else 4
    )
    R0 = rng.dirichlet(np.ones(n_experts), size=len(weights))
    model = clone(estimator).set_params(max_iter=15, tol=0.0, random_state=0)
    weighted = _quiet_fit_weighted(clone(model).set_params(init=R0), X, t, weights)
    repeated = _quiet_fit(
        clone(model).set_params(init=np.repeat(R0, weights, axis=0)),
        np.repeat(X, weights, axis=0),
        np.repeat(t, weights),
    )
    plain = _quiet_fit(clone(model).set_params(init=R0), X, t)
    return weighted, repeated, plain


def _quiet_fit_weighted(estimator, X, y, sample_weight):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return estimator.fit(X, y, sample_weight=sample_weight)


def _fitted(model):
    values = [model.coef_, *model.gate_coefs_, model.objective_history_]
    return values + ([model.precision_] if hasattr(model, "precision_") else [])


@pytest.mark.equation("14.53")
@pytest.mark.parametrize("estimator", ALL_FOUR, ids=lambda e: type(e).__name__)
@pytest.mark.parametrize("kind", ["integer weights repeat rows", "zero weights drop rows"])
def test_sample_weights_equal_repeated_or_dropped_rows(estimator, kind):
    rng = np.random.default_rng(7)
    weights = rng.integers(0, 4, 60) if kind.startswith("integer") else rng.integers(0, 2, 60)
    weighted, repeated, plain = _weights_as_repetitions(estimator, weights, seed=7)
    # equal up to rounding (and the inner Newton loops' stopping tests, which rounding can flip)
    for a, b in zip(_fitted(weighted), _fitted(repeated), strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(
        np.repeat(weighted.responsibilities_, weights, axis=0),
        repeated.responsibilities_,
        rtol=1e-5,
        atol=1e-7,
    )
    # the weights matter: without them EM goes elsewhere from the same start
    assert not np.allclose(plain.coef_, weighted.coef_, rtol=1e-3)


def test_unit_sample_weights_change_nothing_and_scaling_them_scales_the_log_likelihood():
    X, t = make_gated_regression(120, random_state=17)
    model = MixtureOfExpertsRegressor(2, random_state=0)
    plain = clone(model).fit(X, t)
    ones = clone(model).fit(X, t, sample_weight=np.ones(120))
    # Σ_n 1·ln p_n is summed as a dot product (BLAS, any order): two sums of the n terms differ
    # by at most 2·n·ε·Σ_n abs(ln p_n) (taken at the fit; doubled for the earlier iterates). The
    # M-steps multiply by exactly 1.0: the coefficients agree to the rounding of the solves
    # whenever both runs stop at the same iteration.
    rounding = 2 * len(t) * np.finfo(float).eps * np.abs(np.log(plain.predict_density(X, t))).sum()
    np.testing.assert_allclose(
        plain.objective_history_, ones.objective_history_, rtol=0, atol=2 * rounding
    )
    assert plain.n_iter_ == ones.n_iter_
    np.testing.assert_allclose(plain.coef_, ones.coef_, rtol=1e-12)
    # weights 2: every log-likelihood term doubles (the penalties do not)
    twice = (
        clone(model)
        .set_params(gate_l2=0.0, expert_l2=0.0)
        .fit(X, t, sample_weight=np.full(120, 2.0))
    )
    once = clone(model).set_params(gate_l2=0.0, expert_l2=0.0).fit(X, t)
    np.testing.assert_allclose(twice.log_likelihood_history_, 2 * once.log_likelihood_history_)
    np.testing.assert_allclose(twice.coef_, once.coef_, rtol=1e-9)


# ------------------------------------------------------------------ review regressions


@pytest.mark.equation("14.53")
@pytest.mark.parametrize("role", ["regressor", "classifier"])
def test_e_step_uses_the_input_dependent_gates(role):
    # γ_nk ∝ π_k(x_n) p_k(t_n | x_n): the gate is the prior; leaving it out gives other numbers
    X, t, *_ = _true_moe_data(300, seed=3)
    Phi = np.column_stack([np.ones(len(X)), X])
    if role == "regressor":
        model = MixtureOfExpertsRegressor(2, random_state=0).fit(X, t)
        experts = norm.pdf(t[:, None], Phi @ model.coef_.T, 1 / np.sqrt(model.precision_))
    else:
        t = (t > 0).astype(int)
        model = _quiet_fit(MixtureOfExpertsClassifier(2, random_state=0), X, t)
        y1 = expit(Phi @ model.coef_.T)
        experts = np.where(t[:, None] == 1, y1, 1 - y1)  # Bernoulli experts
    gates = softmax(Phi @ model.gate_coef_, axis=1)
    joint = gates * experts
    np.testing.assert_allclose(
        model.responsibilities(X, t),
        joint / joint.sum(axis=1, keepdims=True),
        rtol=1e-9,
        atol=1e-300 if role == "regressor" else 1e-12,  # 1 − σ(a) loses digits as σ(a) → 1
    )
    np.testing.assert_allclose(
        model.responsibilities_, joint / joint.sum(axis=1, keepdims=True), atol=1e-3
    )
    without_gates = experts / experts.sum(axis=1, keepdims=True)
    assert np.max(np.abs(model.responsibilities(X, t) - without_gates)) > 0.1


def test_badly_scaled_inputs_give_the_same_fit():
    # The expert M-step used to add a jitter proportional to the trace of Φᵀ R_k Φ, which for
    # an input in millions swamped the intercept.
    X, t, *_ = _true_moe_data(400, seed=4)
    reference = MixtureOfExpertsRegressor(2, random_state=0).fit(X, t)
    scaled = MixtureOfExpertsRegressor(2, random_state=0).fit(1e6 * X, t)
    assert scaled.log_likelihood(1e6 * X, t) == pytest.approx(
        reference.log_likelihood(X, t), rel=1e-4
    )
    np.testing.assert_allclose(scaled.coef_[:, 0], reference.coef_[:, 0], atol=1e-3)


@pytest.mark.parametrize("estimator", ALL_FOUR, ids=lambda e: type(e).__name__)
def test_em_draws_random_numbers_only_at_initialisation(estimator):
    X, t = _data_for(estimator, 150, seed=16)
    states = []
    for max_iter in (1, 30):
        rng = np.random.RandomState(0)
        model = clone(estimator).set_params(n_init=2, max_iter=max_iter, tol=0.0, random_state=rng)
        _quiet_fit(model, X, t)
        states.append(rng.get_state()[1])
    np.testing.assert_array_equal(states[0], states[1])


def test_kmeans_start_of_logistic_experts_clusters_inputs_not_labels():
    # Regime switch at x1 = 0: a vertical boundary on the left, a horizontal one on the right.
    # Clustering (x, t) used to split the data by class and EM stalled at ln L ≈ -229.
    rng = np.random.default_rng(3)
    X = rng.uniform(-2, 2, size=(600, 2))
    p1 = np.where(X[:, 0] < 0, expit(4 * (X[:, 0] + 1)), expit(4 * X[:, 1]))
    y = (rng.uniform(size=600) < p1).astype(int)
    model = _quiet_fit(MixtureOfExpertsClassifier(2, random_state=0), X, y)
    assert model.log_likelihood(X, y) > -200
    assert np.mean(np.abs(model.predict_proba(X)[:, 1] - p1)) < 0.05
