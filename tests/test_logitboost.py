"""LogitBoost (page B.3): the step against finite differences and against one IRLS step of
Section 14.5.2, clipping, the K-class update, held-out accuracy, determinism, estimator checks."""

import numpy as np
import pytest
from sklearn.datasets import make_classification, make_hastie_10_2
from sklearn.ensemble import AdaBoostClassifier as SklearnAdaBoost
from sklearn.ensemble import GradientBoostingClassifier
from sklearn.tree import DecisionTreeClassifier as SklearnTree
from sklearn.utils.estimator_checks import parametrize_with_checks

from prml14 import (
    LogitBoostClassifier,
    binomial_log_likelihood_derivatives,
    logitboost_newton_step,
    logitboost_weights,
    logitboost_working_response,
    multiclass_logitboost_step,
    weighted_logistic_irls,
)
from prml14.trees import sort_features


def _hastie(n, seed):
    X, y = make_hastie_10_2(n_samples=n, random_state=seed)
    return X, (y > 0).astype(float)


def _log_likelihood(t01, F):
    """Σ_n {t* ln p + (1 − t*) ln(1 − p)}, p = σ(2F), written out independently."""
    return np.sum(t01 * 2 * F - np.logaddexp(0.0, 2 * F))


@pytest.mark.equation("B.10")
def test_derivatives_equal_finite_differences_of_the_log_likelihood():
    rng = np.random.default_rng(0)
    t01, F = rng.integers(0, 2, size=30).astype(float), rng.normal(size=30)
    g, neg_h = binomial_log_likelihood_derivatives(t01, F)
    h = 1e-4
    for n in range(30):

        def ell(f, n=n):
            return _log_likelihood(t01[n], f)

        d1 = (ell(F[n] + h) - ell(F[n] - h)) / (2 * h)
        d2 = (ell(F[n] + h) - 2 * ell(F[n]) + ell(F[n] - h)) / h**2
        assert g[n] == pytest.approx(d1, rel=1e-6, abs=1e-8)
        assert neg_h[n] == pytest.approx(-d2, rel=1e-5, abs=1e-7)


@pytest.mark.equation("B.11", "B.12")
def test_each_leaf_value_is_one_newton_step_on_the_log_likelihood_of_its_leaf():
    X, t01 = _hastie(400, 1)
    model = LogitBoostClassifier(n_estimators=4, max_depth=2, z_max=np.inf).fit(X, t01)
    F, h = np.zeros(400), 1e-4
    for tree in model.estimators_:
        leaf = tree.apply(X)
        for node in np.unique(leaf):
            idx = leaf == node

            def L(c, idx=idx, F=F):
                return _log_likelihood(t01[idx], F[idx] + c)

            d1 = (L(h) - L(-h)) / (2 * h)
            d2 = (L(h) - 2 * L(0.0) + L(-h)) / h**2
            assert tree.value[node, 0] == pytest.approx(-d1 / d2, rel=1e-5)
        F = F + tree.value[leaf, 0]


@pytest.mark.equation("B.12")
def test_first_round_equals_one_irls_step_on_the_leaf_indicators():
    # Section 14.5.2's IRLS maximises Σ t ln σ(wᵀφ) + (1 − t) ln(1 − σ(wᵀφ)); with φ the one-hot
    # leaf indicators and F = 0, one Newton step from w = 0 gives w_τ = 2 c_τ (σ(2F) = σ(wᵀφ)).
    X, t01 = _hastie(300, 2)
    model = LogitBoostClassifier(n_estimators=1, max_depth=3, z_max=np.inf).fit(X, t01)
    tree = model.estimators_[0]
    leaves = np.flatnonzero(tree.is_leaf)
    Phi = (tree.apply(X)[:, None] == leaves[None, :]).astype(float)
    w, _, _ = weighted_logistic_irls(Phi, t01, np.ones(300), max_iter=1)
    np.testing.assert_allclose(tree.value[leaves, 0], w / 2, rtol=1e-10)


@pytest.mark.equation("B.11")
def test_working_response_weights_and_clipping_on_hand_values():
    p = np.array([0.8, 0.8, 0.01, 0.5])
    t01 = np.array([1.0, 0.0, 1.0, 0.0])
    np.testing.assert_allclose(
        logitboost_working_response(t01, p, z_max=np.inf), [1.25, -5.0, 100.0, -2.0]
    )
    np.testing.assert_allclose(logitboost_working_response(t01, p), [1.25, -4.0, 4.0, -2.0])
    np.testing.assert_allclose(logitboost_weights(p), [0.16, 0.16, 0.0099, 0.25])
    z, w = logitboost_working_response(t01, p, z_max=np.inf), logitboost_weights(p)
    # unclipped, w z = t* − p: the step is Σ(t* − p)/(2 Σ p(1 − p)) (B.12)
    np.testing.assert_allclose(w * z, t01 - p)
    assert logitboost_newton_step(z, w) == pytest.approx(np.sum(t01 - p) / (2 * np.sum(w)))
    assert logitboost_weights([0.0, 1.0]).min() > 0  # saturated points keep a tiny weight


@pytest.mark.equation("B.11", "B.12")
def test_clipping_bounds_every_leaf_value_by_half_z_max():
    X, t01 = _hastie(300, 3)
    model = LogitBoostClassifier(n_estimators=30, max_depth=3, z_max=2.0).fit(X, t01)
    values = np.concatenate([t.value[t.is_leaf, 0] for t in model.estimators_])
    assert np.all(np.abs(values) <= 1.0 + 1e-12)


@pytest.mark.equation("B.13")
def test_multiclass_update_reduces_to_the_two_class_step_and_sums_to_zero():
    f1 = np.random.default_rng(4).normal(size=10)
    np.testing.assert_allclose(
        multiclass_logitboost_step(np.column_stack([f1, -f1])), np.column_stack([f1, -f1]) / 2
    )
    f = np.random.default_rng(5).normal(size=(10, 4))
    step = multiclass_logitboost_step(f)
    np.testing.assert_allclose(step.sum(axis=1), 0.0, atol=1e-12)
    np.testing.assert_allclose(step, 0.75 * (f - f.mean(axis=1, keepdims=True)))


@pytest.mark.equation("B.13")
@pytest.mark.parametrize("K", [3, 4, 5])
def test_multiclass_factor_makes_the_diagonal_step_the_exact_newton_step(K):
    # at p_k = 1/K the negative Hessian diag(p) − ppᵀ acts as 1/K on the subspace ΣF = 0;
    # its pseudo-inverse gives the exact Newton step of a leaf, an oracle independent of the
    # (K − 1)/K of (B.13), which a factor of 1 or ½ would miss for K > 2
    labels = np.random.default_rng(K).integers(0, K, 30)
    T, P = np.eye(K)[labels], np.full((30, K), 1.0 / K)
    H = 30 * (np.diag(P[0]) - np.outer(P[0], P[0]))
    exact = np.linalg.pinv(H) @ (T - P).sum(axis=0)
    diagonal = np.array(
        [
            2
            * logitboost_newton_step(
                logitboost_working_response(T[:, k], P[:, k], z_max=np.inf),
                logitboost_weights(P[:, k]),
            )
            for k in range(K)
        ]
    )
    np.testing.assert_allclose(
        multiclass_logitboost_step(diagonal[None, :])[0], exact, rtol=0, atol=1e-12
    )
    assert not np.allclose(0.5 * (diagonal - diagonal.mean()), exact)


@pytest.mark.equation("B.11", "B.13")
def test_first_multiclass_round_by_hand():
    X, y = make_classification(200, n_features=6, n_informative=4, n_classes=3, random_state=6)
    model = LogitBoostClassifier(n_estimators=1, max_depth=2, z_max=np.inf).fit(X, y)
    trees = model.estimators_[0]
    fits = []
    for k, tree in enumerate(trees):
        # p_k = 1/3 at F = 0: z = 3 for class k, −3/2 otherwise; equal weights 2/9
        z = np.where(y == k, 3.0, -1.5)
        leaf = tree.apply(X)
        means = {node: z[leaf == node].mean() for node in np.unique(leaf)}
        fits.append(np.array([means[node] for node in leaf]))
    expected = (2 / 3) * (np.column_stack(fits) - np.mean(fits, axis=0)[:, None])
    np.testing.assert_allclose(model.decision_function(X), expected, atol=1e-12)
    np.testing.assert_allclose(model.predict_proba(X).sum(axis=1), 1.0)


@pytest.mark.slow
def test_held_out_error_on_hastie_matches_or_beats_sklearn_adaboost():
    # with stumps, LogitBoost beats discrete AdaBoost on this additive problem (Friedman et al.
    # 2000); averaged over 3 seeds: at least scikit-learn's AdaBoost (SAMME, stumps) minus 0.01
    ours, theirs = [], []
    for seed in range(3):
        X, t01 = _hastie(3000, seed)
        Xtr, ytr, Xte, yte = X[:1000], t01[:1000], X[1000:], t01[1000:]
        ours.append(LogitBoostClassifier(100).fit(Xtr, ytr).score(Xte, yte))
        sk = SklearnAdaBoost(SklearnTree(max_depth=1), n_estimators=100, random_state=0)
        theirs.append(sk.fit(Xtr, ytr).score(Xte, yte))
    assert np.mean(ours) >= np.mean(theirs) - 0.01
    assert np.mean(ours) > 0.85


@pytest.mark.slow
def test_multiclass_held_out_accuracy_near_sklearn_gradient_boosting():
    # LogitBoost and multinomial gradient boosting fit the same model (K trees per round);
    # averaged over 2 seeds the held-out accuracies agree within 0.05
    ours, theirs = [], []
    for seed in range(2):
        X, y = make_classification(
            900, n_features=8, n_informative=5, n_classes=3, random_state=seed
        )
        Xtr, ytr, Xte, yte = X[:600], y[:600], X[600:], y[600:]
        ours.append(LogitBoostClassifier(40, max_depth=2).fit(Xtr, ytr).score(Xte, yte))
        gb = GradientBoostingClassifier(n_estimators=40, max_depth=2, random_state=0)
        theirs.append(gb.fit(Xtr, ytr).score(Xte, yte))
    assert abs(np.mean(ours) - np.mean(theirs)) < 0.05


def test_staged_outputs_determinism_and_weights():
    X, t01 = _hastie(150, 7)
    model = LogitBoostClassifier(6, max_depth=2, max_features=4, random_state=1).fit(X, t01)
    staged = list(model.staged_decision_function(X))
    np.testing.assert_allclose(staged[-1], model.decision_function(X))
    np.testing.assert_allclose(model.predict_proba(X)[:, 1], 1 / (1 + np.exp(-2 * staged[-1])))
    again = LogitBoostClassifier(6, max_depth=2, max_features=4, random_state=1).fit(X, t01)
    np.testing.assert_array_equal(again.decision_function(X), model.decision_function(X))
    s = np.r_[np.full(20, 2.0), np.ones(130)]
    a = LogitBoostClassifier(5, max_depth=2).fit(np.r_[X, X[:20]], np.r_[t01, t01[:20]])
    b = LogitBoostClassifier(5, max_depth=2).fit(X, t01, sample_weight=s)
    np.testing.assert_allclose(a.decision_function(X), b.decision_function(X), atol=1e-10)


def test_bad_input_is_rejected():
    X, t01 = _hastie(40, 8)
    with pytest.raises(ValueError, match="at least two classes"):
        LogitBoostClassifier().fit(X, np.zeros(40))
    with pytest.raises(ValueError, match="z_max"):
        LogitBoostClassifier(z_max=0.0).fit(X, t01)
    with pytest.raises(ValueError, match="Unknown label type"):
        LogitBoostClassifier().fit(X, np.linspace(0, 1, 40))
    with pytest.raises(ValueError, match="p must hold probabilities"):
        logitboost_weights([1.5])
    with pytest.raises(ValueError, match="f must have shape"):
        multiclass_logitboost_step(np.ones(3))
    with pytest.raises(ValueError, match="z and w"):
        logitboost_newton_step([1.0], [1.0, 2.0])
    with pytest.raises(ValueError, match="w must not contain"):
        logitboost_newton_step([1.0, -1.0], [1.0, np.inf])
    with pytest.raises(ValueError, match="f must not contain"):
        multiclass_logitboost_step(np.array([[1.0, np.inf], [0.0, 1.0]]))


SAMPLE_WEIGHT_XFAIL = "sample_weight is not equivalent to removing/repeating samples."


@parametrize_with_checks(
    [LogitBoostClassifier(n_estimators=5)],
    # scikit-learn's words for AdaBoost; the cause here is exact ties between stumps that
    # separate the check's 15 points in 30 dimensions (see test_real_gentle.py)
    expected_failed_checks=lambda estimator: {
        "check_sample_weight_equivalence_on_dense_data": SAMPLE_WEIGHT_XFAIL
    },
)
def test_sklearn_compatible(estimator, check):
    check(estimator)


@pytest.mark.equation("B.12", "B.13")
def test_the_k_class_rule_at_k_two_is_the_two_class_rule():
    # run the K-class loop on two classes (one-hot targets): the trees of the two classes are
    # mirror images and (B.13) halves them, which is the two-class step (B.12)
    X, t01 = _hastie(200, 9)
    binary = LogitBoostClassifier(6, max_depth=2).fit(X, t01)
    Y = np.column_stack([1 - t01, t01])
    s = np.full(200, 1 / 200)
    params = {"max_depth": 2, "min_samples_leaf": 1, "max_features": None}
    rounds = binary._fit_multiclass(X, sort_features(X), Y, s, params, np.random.RandomState(0))
    F = sum(binary._round_output(trees, X) for trees in rounds)
    np.testing.assert_allclose(F[:, 1], binary.decision_function(X), atol=1e-10)
    np.testing.assert_allclose(F[:, 0], -F[:, 1], atol=1e-10)
