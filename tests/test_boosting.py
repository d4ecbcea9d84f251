import numpy as np
import pytest
from scipy.optimize import minimize_scalar
from scipy.special import logsumexp
from sklearn.ensemble import AdaBoostClassifier as SklearnAdaBoost
from sklearn.neighbors import KNeighborsClassifier
from sklearn.tree import DecisionTreeClassifier
from sklearn.utils.estimator_checks import parametrize_with_checks

from prml14 import (
    AdaBoostClassifier,
    DecisionStump,
    additive_model,
    classifier_weight,
    committee_sign,
    exponential_error,
    exponential_error_of_alpha,
    exponential_error_split,
    exponential_error_weights,
    exponential_weight_update,
    exponential_weight_update_from_mistakes,
    margin_from_mistakes,
    update_weights,
    weighted_error,
    weighted_misclassification,
)
from prml14.stumps import SortedColumns


def noisy_data(seed, n=120, d=4, float32=True):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    if float32:  # scikit-learn's trees split float32 values
        X = X.astype(np.float32).astype(np.float64)
    y = (X[:, 0] + X[:, 1] ** 2 - 1 + 0.7 * rng.normal(size=n) > 0).astype(int)
    return X, y


def members(model, X):
    """The matrix Y[n, m] = y_m(x_n) ∈ {−1, +1} of the fitted learners."""
    return np.column_stack([s.decision_function(X) for s in model.estimators_])


# --- (14.15)-(14.19): the algorithm ---------------------------------------------------------


@pytest.mark.equation("14.15", "14.16", "14.17", "14.18")
def test_core_functions_against_hand_formulas():
    rng = np.random.default_rng(0)
    w, miss = rng.exponential(size=30), rng.uniform(size=30) < 0.3
    J = sum(w_n for w_n, m_n in zip(w, miss) if m_n)
    assert np.isclose(weighted_misclassification(w, miss), J, rtol=1e-12)
    eps = weighted_error(w, miss)
    assert np.isclose(eps, J / w.sum(), rtol=1e-12)
    alpha = classifier_weight(eps)
    assert np.isclose(alpha, np.log((1 - eps) / eps), rtol=1e-12)
    new = update_weights(w, alpha, miss)
    np.testing.assert_allclose(new, np.where(miss, w * (1 - eps) / eps, w), rtol=1e-12)
    np.testing.assert_allclose(
        update_weights(np.log(w), alpha, miss, log=True), np.log(new), rtol=1e-12
    )
    # after (14.18) the last learner has weighted error exactly 1/2
    assert np.isclose(weighted_error(new, miss), 0.5, rtol=1e-12)


@pytest.mark.equation("14.17")
def test_classifier_weight_edges_and_bad_input():
    assert classifier_weight(0.5) == 0.0
    assert classifier_weight(0.0) == np.inf
    assert classifier_weight(0.1) == pytest.approx(np.log(9))
    with pytest.raises(ValueError, match="eps must be a weighted error rate in"):
        classifier_weight(1.5)


def test_core_functions_name_the_argument_instead_of_broadcasting():
    # a length-1 f_prev or y used to broadcast silently against t and w
    with pytest.raises(ValueError, match=r"f_prev must have the length of t \(2\), got 1"):
        exponential_error_weights([1.0, -1.0], [0.1])
    with pytest.raises(ValueError, match=r"y must have the length of w \(2\), got 1"):
        exponential_weight_update([1.0, 1.0], 0.5, [1.0, -1.0], [1.0])
    with pytest.raises(ValueError, match=r"miss must have the length of w \(3\), got 2"):
        weighted_error([1.0, 2.0, 3.0], [True, False])
    with pytest.raises(ValueError, match="the weights w must be non-negative"):
        weighted_error([-1.0, 2.0], [True, False])
    with pytest.raises(ValueError, match=r"f must be a 1-D array"):
        exponential_error([1.0, -1.0], [[0.1, 0.2]])
    with pytest.raises(ValueError, match="one column per entry of alphas"):
        additive_model([1.0, 2.0], np.ones((3, 4)))
    with pytest.raises(ValueError, match="one column per entry of alphas"):
        committee_sign([1.0, 2.0], np.ones(2))


@pytest.mark.equation("14.15", "14.16", "14.17", "14.18")
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_rounds_match_sklearn_samme_with_gini_stumps(seed):
    X, y = noisy_data(seed)
    M = 40
    sk = SklearnAdaBoost(DecisionTreeClassifier(max_depth=1), n_estimators=M, random_state=0).fit(
        X, y
    )
    ours = AdaBoostClassifier(DecisionStump(criterion="gini"), n_estimators=M).fit(X, y)
    assert len(ours.estimators_) == len(sk.estimators_) == M
    for m, (a, b) in enumerate(zip(ours.estimators_, sk.estimators_)):
        assert (a.feature_, a.threshold_) == (b.tree_.feature[0], b.tree_.threshold[0]), (
            f"round {m + 1}"
        )
    np.testing.assert_allclose(ours.estimator_weights_, sk.estimator_weights_, rtol=0, atol=1e-12)
    np.testing.assert_allclose(ours.estimator_errors_, sk.estimator_errors_, rtol=0, atol=1e-13)
    Xtest, _ = noisy_data(seed + 100, n=500)
    np.testing.assert_array_equal(ours.predict(Xtest), sk.predict(Xtest))
    # sklearn's binary decision function is Σ α y / Σ α · 2 = 4 f / Σ α
    np.testing.assert_allclose(
        4 * ours.decision_function(Xtest) / ours.estimator_weights_.sum(),
        sk.decision_function(Xtest),
        atol=1e-12,
    )


@pytest.mark.equation("14.17", "14.18")
def test_rounds_match_sklearn_on_a_larger_data_set():
    X, y = noisy_data(21, n=1500, d=6)  # large enough for the stumps' blocked prefix sums
    sk = SklearnAdaBoost(DecisionTreeClassifier(max_depth=1), n_estimators=25, random_state=0).fit(
        X, y
    )
    ours = AdaBoostClassifier(DecisionStump(criterion="gini"), n_estimators=25).fit(X, y)
    splits = [(a.feature_, a.threshold_) for a in ours.estimators_]
    assert splits == [(b.tree_.feature[0], b.tree_.threshold[0]) for b in sk.estimators_]
    np.testing.assert_allclose(ours.estimator_weights_, sk.estimator_weights_, rtol=0, atol=1e-12)
    np.testing.assert_array_equal(ours.predict(X), sk.predict(X))


@pytest.mark.equation("14.17")
def test_any_sample_weight_estimator_matches_sklearn_round_by_round():
    X, y = noisy_data(5, n=80)
    labels = np.array(["cat", "dog"])[y]
    tree = DecisionTreeClassifier(max_depth=2, random_state=0)
    sk = SklearnAdaBoost(tree, n_estimators=15, random_state=0).fit(X, labels)
    ours = AdaBoostClassifier(tree, n_estimators=15, random_state=0).fit(X, labels)
    assert len(sk.estimators_) == len(ours.estimators_)
    np.testing.assert_allclose(ours.estimator_weights_, sk.estimator_weights_, atol=1e-12)
    np.testing.assert_array_equal(ours.predict(X), sk.predict(X))
    assert list(ours.classes_) == ["cat", "dog"]


@pytest.mark.equation("14.15")
def test_each_default_stump_minimises_the_weighted_error_of_its_round():
    X, y = noisy_data(3, n=60)
    model = AdaBoostClassifier(n_estimators=25, store_weights=True).fit(X, y)
    t = 2.0 * y - 1
    for w, stump in zip(model.sample_weights_, model.estimators_):
        J_stump = weighted_misclassification(w, stump.decision_function(X) != t)
        best = np.inf  # brute force over every feature, midpoint and polarity
        for j in range(X.shape[1]):
            v = np.unique(X[:, j])
            for theta in np.concatenate([[-np.inf], (v[1:] + v[:-1]) / 2]):
                for s in (1, -1):
                    best = min(
                        best, weighted_misclassification(w, np.where(X[:, j] > theta, s, -s) != t)
                    )
        assert J_stump == pytest.approx(best, abs=1e-12)


@pytest.mark.equation("14.19", "14.21")
def test_prediction_is_the_sign_of_the_additive_model():
    X, y = noisy_data(4, float32=False)
    model = AdaBoostClassifier(n_estimators=30).fit(X, y)
    Y = members(model, X)
    f = additive_model(model.estimator_weights_, Y)
    np.testing.assert_allclose(model.decision_function(X), f, atol=1e-12)
    np.testing.assert_allclose(f, 0.5 * (Y @ model.estimator_weights_))
    sign = committee_sign(model.estimator_weights_, Y)
    np.testing.assert_array_equal(model.predict(X), model.classes_[(sign > 0).astype(int)])
    staged = list(model.staged_decision_function(X))
    assert len(staged) == 30
    np.testing.assert_allclose(staged[-1], f, atol=1e-12)
    np.testing.assert_allclose(
        staged[2], additive_model(model.estimator_weights_[:3], Y[:, :3]), atol=1e-12
    )
    np.testing.assert_array_equal(list(model.staged_predict(X))[-1], model.predict(X))
    proba = model.predict_proba(X)
    np.testing.assert_allclose(proba[:, 1], 1 / (1 + np.exp(-2 * f)), rtol=1e-12)


# --- (14.20)-(14.26): the exponential error view -------------------------------------------


@pytest.mark.equation("14.20", "14.21", "14.22", "14.24")
def test_adaboost_weights_are_exponential_error_weights():
    X, y = noisy_data(6, float32=False)
    t = 2.0 * y - 1
    model = AdaBoostClassifier(n_estimators=20, store_weights=True).fit(X, y)
    Y = members(model, X)
    for m in range(1, 20):
        f_prev = additive_model(model.estimator_weights_[:m], Y[:, :m])
        w = exponential_error_weights(t, f_prev)  # w_n^{(m)} = exp(−t_n f_{m−1}(x_n))
        np.testing.assert_allclose(model.sample_weights_[m], w / w.sum(), rtol=1e-9)
        # (14.22): E(f_m) = Σ w_n exp(−½ t_n α_m y_m) and (14.24) gives the next weights
        alpha = model.estimator_weights_[m]
        f_m = f_prev + 0.5 * alpha * Y[:, m]
        assert exponential_error(t, f_m) == pytest.approx(
            exponential_error_of_alpha(alpha, w, t, Y[:, m]), rel=1e-12
        )
        np.testing.assert_allclose(
            exponential_weight_update(w, alpha, t, Y[:, m]), np.exp(-t * f_m), rtol=1e-12
        )


@pytest.mark.equation("14.20")
def test_training_exponential_error_is_product_of_round_factors():
    X, y = noisy_data(7)
    t = 2.0 * y - 1
    model = AdaBoostClassifier(n_estimators=25).fit(X, y)
    eps = model.estimator_errors_
    expected = len(y) * np.prod(2 * np.sqrt(eps * (1 - eps)))
    assert exponential_error(t, model.decision_function(X)) == pytest.approx(expected, rel=1e-10)
    staged = [exponential_error(t, f) for f in model.staged_decision_function(X)]
    assert np.all(np.diff(staged) < 0)  # every round lowers (14.20)


@pytest.mark.equation("14.22", "14.23", "14.25")
def test_split_form_equals_exponential_error_on_random_inputs():
    rng = np.random.default_rng(8)
    for _ in range(20):
        n = rng.integers(1, 40)
        t, y = rng.choice([-1.0, 1.0], size=(2, n))
        w = rng.exponential(size=n)
        miss = y != t
        np.testing.assert_array_equal(margin_from_mistakes(miss), t * y)  # (14.25)
        alphas = rng.normal(scale=3, size=7)
        np.testing.assert_allclose(
            exponential_error_split(alphas, w, miss),
            exponential_error_of_alpha(alphas, w, t, y),
            rtol=1e-12,
        )


@pytest.mark.equation("14.17", "14.23")
def test_line_search_on_exponential_error_gives_classifier_weight():
    rng = np.random.default_rng(9)
    for _ in range(20):
        w = rng.exponential(size=50)
        miss = rng.uniform(size=50) < rng.uniform(0.05, 0.45)
        eps = weighted_error(w, miss)
        if not 0 < eps < 0.5:
            continue
        found = minimize_scalar(
            lambda a: exponential_error_split(a, w, miss), bracket=(0, 1), tol=1e-12
        ).x
        assert found == pytest.approx(classifier_weight(eps), abs=1e-6)


@pytest.mark.equation("14.18", "14.24", "14.26")
def test_three_weight_updates_agree_after_normalisation():
    rng = np.random.default_rng(10)
    t, y = rng.choice([-1.0, 1.0], size=(2, 40))
    w, alpha, miss = rng.exponential(size=40), 0.8, y != t
    u18 = update_weights(w, alpha, miss)
    u24 = exponential_weight_update(w, alpha, t, y)
    u26 = exponential_weight_update_from_mistakes(w, alpha, miss)
    np.testing.assert_allclose(u24, u26, rtol=1e-12)  # (14.26) is (14.24) rewritten with (14.25)
    np.testing.assert_allclose(u26, np.exp(-alpha / 2) * u18, rtol=1e-12)
    np.testing.assert_allclose(u18 / u18.sum(), u24 / u24.sum(), rtol=1e-12)


# --- degenerate rounds, long runs, determinism, bad input ----------------------------------


def test_perfect_first_learner_stops_with_unit_weight():
    X = np.arange(10.0)[:, None]
    y = (X[:, 0] > 4).astype(int)
    model = AdaBoostClassifier(n_estimators=10).fit(X, y)
    assert model.stop_reason_ == "perfect"
    np.testing.assert_array_equal(model.estimator_weights_, [1.0])
    np.testing.assert_array_equal(model.estimator_errors_, [0.0])
    np.testing.assert_array_equal(model.predict(X), y)


def test_perfect_round_after_imperfect_ones():
    class Scripted(DecisionStump):
        """Round 1 errs on one point; round 2 is perfect (it ignores the weights' ordering)."""

        def fit(self, X, y, sample_weight=None):
            super().fit(X, y, sample_weight)
            if sample_weight[0] == sample_weight[1]:  # first round: uniform weights
                self._wrong = 0
            else:
                self._wrong = None
            return self

        def predict(self, X):
            out = np.where(X[:, 0] > 1.5, 1.0, -1.0)
            if self._wrong is not None:
                out[0] = -out[0]
            return out

    X = np.arange(4.0)[:, None]
    y = np.array([-1.0, -1.0, 1.0, 1.0])
    model = AdaBoostClassifier(Scripted(), n_estimators=5).fit(X, y)
    assert model.stop_reason_ == "perfect"
    np.testing.assert_allclose(model.estimator_errors_, [0.25, 0.0])
    np.testing.assert_allclose(model.estimator_weights_, [np.log(3), 1 + np.log(3)])
    np.testing.assert_array_equal(model.predict(X), y)


def test_first_learner_no_better_than_chance_raises():
    X = np.array([[0.0], [0.0], [1.0], [1.0]])
    y = np.array([0, 1, 0, 1])  # every stump has weighted error 1/2
    with pytest.raises(ValueError, match="no better than chance"):
        AdaBoostClassifier().fit(X, y)


def test_chance_up_to_rounding_stops():
    # constant features: after round 1, (14.18) leaves the only available stump at ε = ½ up to
    # rounding (0.4999999999999999); a round with α ≈ 1e-16 is chance, not a new member
    X, y = np.zeros((6, 2)), np.array([0, 0, 0, 1, 1, 0])
    model = AdaBoostClassifier(n_estimators=20).fit(X, y)
    assert model.stop_reason_ == "no better than chance"
    np.testing.assert_allclose(model.estimator_weights_, [np.log(2)])


def test_later_learner_no_better_than_chance_stops_and_is_discarded():
    class Scripted(DecisionStump):
        """Round 1 errs on one point; round 2 gets every point wrong (ε = 1)."""

        def fit(self, X, y, sample_weight=None):
            self._first = sample_weight[0] == sample_weight[1]
            return super().fit(X, y, sample_weight)

        def predict(self, X):
            out = np.where(X[:, 0] > 1.5, 1.0, -1.0)
            if self._first:
                out[0] = -out[0]
                return out
            return -out

    X = np.arange(4.0)[:, None]
    y = np.array([-1.0, -1.0, 1.0, 1.0])
    model = AdaBoostClassifier(Scripted(), n_estimators=5, store_weights=True).fit(X, y)
    assert model.stop_reason_ == "no better than chance"
    assert (
        len(model.estimators_) == len(model.estimator_weights_) == len(model.sample_weights_) == 1
    )
    np.testing.assert_allclose(model.estimator_errors_, [0.25])


def test_ten_thousand_rounds_neither_overflow_nor_underflow():
    X, y = noisy_data(11, n=50, d=2)
    model = AdaBoostClassifier(n_estimators=10_000, store_weights=True).fit(X, y)
    assert len(model.estimators_) == 10_000
    w = model.sample_weights_
    assert np.all(np.isfinite(w)) and np.allclose(w.sum(axis=1), 1.0)
    assert np.all(np.isfinite(model.estimator_weights_)) and np.all(model.estimator_weights_ > 0)
    assert np.all(np.isfinite(model.decision_function(X)))
    # the weights are still exp(−t f_{m−1}) normalised (14.22), though exp(−t f) itself overflows
    t = 2.0 * y - 1
    for m, f in enumerate(model.staged_decision_function(X), start=1):
        if m in (100, 5_000, 9_999):
            log_w = -t * f
            np.testing.assert_allclose(
                w[m], np.exp(log_w - logsumexp(log_w)), rtol=1e-6, atol=1e-300
            )
    assert np.abs(f).max() > 710  # exp(|f|) overflows float64


def test_same_random_state_same_model():
    X, y = noisy_data(12)
    tree = DecisionTreeClassifier(max_depth=1, max_features=1)
    a = AdaBoostClassifier(tree, n_estimators=15, random_state=3).fit(X, y)
    b = AdaBoostClassifier(tree, n_estimators=15, random_state=3).fit(X, y)
    np.testing.assert_array_equal(a.estimator_weights_, b.estimator_weights_)
    np.testing.assert_array_equal(a.decision_function(X), b.decision_function(X))
    c = AdaBoostClassifier(n_estimators=15).fit(X, y)
    d = AdaBoostClassifier(n_estimators=15).fit(X, y)
    np.testing.assert_array_equal(c.decision_function(X), d.decision_function(X))


def test_refit_without_store_weights_forgets_the_old_history():
    X, y = noisy_data(17, n=40)
    model = AdaBoostClassifier(n_estimators=5, store_weights=True).fit(X, y)
    assert model.sample_weights_.shape == (5, 40)
    model.set_params(store_weights=False).fit(X[:30], y[:30])
    assert not hasattr(model, "sample_weights_")


def test_tabulated_stump_prediction_equals_sum_over_stumps():
    X, y = noisy_data(13, float32=False)
    model = AdaBoostClassifier(n_estimators=60).fit(X, y)
    # points on both sides of every threshold, and points exactly on one (x_j = θ goes left)
    at_threshold = X[:60].copy()
    for row, stump in zip(at_threshold, model.estimators_):
        row[stump.feature_] = stump.threshold_
    Xtest = np.vstack([noisy_data(14, n=300)[0], X, at_threshold])
    Y = members(model, Xtest)
    np.testing.assert_allclose(
        model.decision_function(Xtest), additive_model(model.estimator_weights_, Y), atol=1e-11
    )


def test_sorted_columns_are_built_once_per_fit(monkeypatch):
    calls = []
    original = SortedColumns.__init__

    def counting(self, X):
        calls.append(1)
        original(self, X)

    monkeypatch.setattr(SortedColumns, "__init__", counting)
    AdaBoostClassifier(n_estimators=20).fit(*noisy_data(15))
    assert len(calls) == 1


def test_bad_input_is_rejected():
    X, y = noisy_data(16, n=20)
    with pytest.raises(ValueError, match="exactly two classes"):
        AdaBoostClassifier().fit(X, np.arange(20) % 3)
    bad = X.copy()
    bad[0, 0] = np.nan
    with pytest.raises(ValueError, match="Input X contains NaN"):
        AdaBoostClassifier().fit(bad, y)
    bad[0, 0] = np.inf
    with pytest.raises(ValueError, match="Input X contains infinity"):
        AdaBoostClassifier().fit(bad, y)
    with pytest.raises(ValueError, match="n_estimators"):
        AdaBoostClassifier(n_estimators=0).fit(X, y)
    with pytest.raises(ValueError, match="estimator must accept sample_weight"):
        AdaBoostClassifier(KNeighborsClassifier()).fit(X, y)
    with pytest.raises(ValueError, match="(?i)sample weights must contain at least one non-zero"):
        AdaBoostClassifier().fit(X, y, sample_weight=np.zeros(20))


@parametrize_with_checks(
    [
        AdaBoostClassifier(n_estimators=5),
        AdaBoostClassifier(DecisionStump(criterion="gini"), n_estimators=5),
    ]
)
def test_sklearn_compatible(estimator, check):
    check(estimator)
