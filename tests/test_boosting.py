import numpy as np
import pytest
from scipy.optimize import minimize_scalar
from scipy.special import logsumexp
from sklearn.ensemble import AdaBoostClassifier as SklearnAdaBoost
from sklearn.neighbors import KNeighborsClassifier
from sklearn.tree import DecisionTreeClassifier
from sklearn.utils._param_validation import InvalidParameterError
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
    samme_classifier_weight,
    update_weights,
    weighted_error,
    weighted_misclassification,
)
from prml14.boosting.adaboost import normalise_log_weights
from prml14.boosting.stump_estimators import SortedColumns
from prml14.trees import DecisionTreeClassifier as PackageTree


def members(model, X):
    """The matrix Y[n, m] = y_m(x_n) ∈ {−1, +1} of the fitted learners."""
    return np.column_stack([s.decision_function(X) for s in model.estimators_])


# --- (14.15)-(14.19): the algorithm ---------------------------------------------------------


@pytest.mark.equation("14.15", "14.16", "14.17", "14.18")
def test_core_functions_against_hand_formulas():
    rng = np.random.default_rng(0)
    w, miss = rng.exponential(size=30), rng.uniform(size=30) < 0.3
    J = sum(w_n for w_n, m_n in zip(w, miss, strict=True) if m_n)
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
    assert classifier_weight(0.1) == pytest.approx(np.log(9))
    assert np.isfinite(classifier_weight(1e-300))
    # the limits: α = +inf at ε = 0 (a perfect learner) and −inf at ε = 1, without a warning
    assert classifier_weight(0.0) == np.inf and classifier_weight(1.0) == -np.inf
    np.testing.assert_array_equal(classifier_weight([0.2, 0.0])[1:], [np.inf])
    assert samme_classifier_weight(0.0, 3) == np.inf
    for eps in (1.5, -0.1, np.nan, [0.2, 1.1]):
        with pytest.raises(ValueError, match="eps must"):
            classifier_weight(eps)


@pytest.mark.equation("14.18", "14.22", "14.24")
def test_weight_updates_refuse_bad_alpha_and_overflow():
    w, miss = np.ones(3), np.array([True, False, False])
    for alpha in (np.nan, np.inf, "bogus"):
        with pytest.raises((ValueError, TypeError), match="alpha"):
            update_weights(w, alpha, miss)
    # exp(1e3) overflows: refused with the advice to work with logarithms, which stay finite
    with pytest.raises(ValueError, match="log=True"):
        update_weights(w, 1e3, miss)
    np.testing.assert_array_equal(update_weights(np.zeros(3), 1e3, miss, log=True), [1e3, 0, 0])
    with pytest.raises(ValueError, match="miss must hold the indicators"):
        update_weights(w, 0.5, [2.0, 0.0, 0.0])
    with pytest.raises(ValueError, match="the weights w must be non-negative"):
        exponential_weight_update([-1.0, 1.0], 0.5, [1.0, -1.0], [1.0, 1.0])
    with pytest.raises(ValueError, match="exponential error overflows"):
        exponential_error([1.0, -1.0], [1.0, 1e3])
    with pytest.raises(ValueError, match="log_w"):
        normalise_log_weights(np.array([-np.inf, -np.inf]))


def test_core_functions_name_the_argument_instead_of_broadcasting():
    # a length-1 f_prev or y used to broadcast silently against t and w
    with pytest.raises(
        ValueError,
        match=r"f_prev must have shape \(n_samples,\) with n_samples = 2, got shape \(1,\)",
    ):
        exponential_error_weights([1.0, -1.0], [0.1])
    with pytest.raises(
        ValueError, match=r"y must have shape \(n_samples,\) with n_samples = 2, got shape \(1,\)"
    ):
        exponential_weight_update([1.0, 1.0], 0.5, [1.0, -1.0], [1.0])
    with pytest.raises(
        ValueError,
        match=r"miss must have shape \(n_samples,\) with n_samples = 3, got shape \(2,\)",
    ):
        weighted_error([1.0, 2.0, 3.0], [True, False])
    with pytest.raises(ValueError, match="the weights w must be non-negative"):
        weighted_error([-1.0, 2.0], [True, False])
    with pytest.raises(ValueError, match=r"f must have shape \(n_samples,\)"):
        exponential_error([1.0, -1.0], [[0.1, 0.2]])
    with pytest.raises(ValueError, match="one column per entry of alphas"):
        additive_model(np.ones((3, 4)), [1.0, 2.0])
    with pytest.raises(ValueError, match="one column per entry of alphas"):
        committee_sign(np.ones(2), [1.0, 2.0])
    with pytest.raises(ValueError, match="Input predictions contains NaN"):
        committee_sign(np.array([[np.nan, 1.0]]), [1.0, 2.0])


@pytest.mark.equation("14.15", "14.16", "14.17", "14.18")
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_rounds_match_sklearn_samme_with_gini_stumps(seed, wavy_classes):
    X, y = wavy_classes(random_state=seed)
    M = 40
    sk = SklearnAdaBoost(DecisionTreeClassifier(max_depth=1), n_estimators=M, random_state=0).fit(
        X, y
    )
    ours = AdaBoostClassifier(DecisionStump(criterion="gini"), n_estimators=M).fit(X, y)
    assert len(ours.estimators_) == len(sk.estimators_) == M
    for m, (a, b) in enumerate(zip(ours.estimators_, sk.estimators_, strict=True)):
        assert (a.feature_, a.threshold_) == (b.tree_.feature[0], b.tree_.threshold[0]), (
            f"round {m + 1}"
        )
    np.testing.assert_allclose(ours.estimator_weights_, sk.estimator_weights_, rtol=0, atol=1e-12)
    np.testing.assert_allclose(ours.estimator_errors_, sk.estimator_errors_, rtol=0, atol=1e-13)
    Xtest, _ = wavy_classes(500, random_state=seed + 100)
    np.testing.assert_array_equal(ours.predict(Xtest), sk.predict(Xtest))
    # sklearn's binary decision function is Σ α y / Σ α · 2 = 4 f / Σ α
    np.testing.assert_allclose(
        4 * ours.decision_function(Xtest) / ours.estimator_weights_.sum(),
        sk.decision_function(Xtest),
        atol=1e-12,
    )


@pytest.mark.equation("14.17", "14.18")
def test_rounds_match_sklearn_on_a_larger_data_set(wavy_classes):
    X, y = wavy_classes(1500, random_state=21)  # large enough for the stumps' blocked prefix sums
    sk = SklearnAdaBoost(DecisionTreeClassifier(max_depth=1), n_estimators=25, random_state=0).fit(
        X, y
    )
    ours = AdaBoostClassifier(DecisionStump(criterion="gini"), n_estimators=25).fit(X, y)
    splits = [(a.feature_, a.threshold_) for a in ours.estimators_]
    assert splits == [(b.tree_.feature[0], b.tree_.threshold[0]) for b in sk.estimators_]
    np.testing.assert_allclose(ours.estimator_weights_, sk.estimator_weights_, rtol=0, atol=1e-12)
    np.testing.assert_array_equal(ours.predict(X), sk.predict(X))


@pytest.mark.equation("14.17")
def test_any_sample_weight_estimator_matches_sklearn_round_by_round(wavy_classes):
    X, y = wavy_classes(80, random_state=5)
    labels = np.array(["cat", "dog"])[(y > 0).astype(int)]
    tree = DecisionTreeClassifier(max_depth=2, random_state=0)
    sk = SklearnAdaBoost(tree, n_estimators=15, random_state=0).fit(X, labels)
    ours = AdaBoostClassifier(tree, n_estimators=15, random_state=0).fit(X, labels)
    assert len(sk.estimators_) == len(ours.estimators_)
    np.testing.assert_allclose(ours.estimator_weights_, sk.estimator_weights_, atol=1e-12)
    np.testing.assert_array_equal(ours.predict(X), sk.predict(X))
    assert list(ours.classes_) == ["cat", "dog"]


@pytest.mark.equation("14.15")
def test_each_default_stump_minimises_the_weighted_error_of_its_round(wavy_classes):
    X, y = wavy_classes(60, random_state=3)
    model = AdaBoostClassifier(n_estimators=25, store_weights=True).fit(X, y)
    t = y.astype(float)
    for w, stump in zip(model.sample_weights_, model.estimators_, strict=True):
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
def test_prediction_is_the_sign_of_the_additive_model(wavy_classes):
    X, y = wavy_classes(random_state=4, float32=False)
    model = AdaBoostClassifier(n_estimators=30).fit(X, y)
    Y = members(model, X)
    f = additive_model(Y, model.estimator_weights_)
    np.testing.assert_allclose(model.decision_function(X), f, atol=1e-12)
    np.testing.assert_allclose(f, 0.5 * (Y @ model.estimator_weights_))
    sign = committee_sign(Y, model.estimator_weights_)
    np.testing.assert_array_equal(model.predict(X), model.classes_[(sign > 0).astype(int)])
    staged = list(model.staged_decision_function(X))
    assert len(staged) == 30
    np.testing.assert_allclose(staged[-1], f, atol=1e-12)
    np.testing.assert_allclose(
        staged[2], additive_model(Y[:, :3], model.estimator_weights_[:3]), atol=1e-12
    )
    np.testing.assert_array_equal(list(model.staged_predict(X))[-1], model.predict(X))
    proba = model.predict_proba(X)
    np.testing.assert_allclose(proba[:, 1], 1 / (1 + np.exp(-2 * f)), rtol=1e-12)


# --- (14.20)-(14.26): the exponential error view -------------------------------------------


@pytest.mark.equation("14.20", "14.21", "14.22", "14.24")
def test_adaboost_weights_are_exponential_error_weights(wavy_classes):
    X, y = wavy_classes(random_state=6, float32=False)
    t = y.astype(float)
    model = AdaBoostClassifier(n_estimators=20, store_weights=True).fit(X, y)
    Y = members(model, X)
    for m in range(1, 20):
        f_prev = additive_model(Y[:, :m], model.estimator_weights_[:m])
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
def test_training_exponential_error_is_product_of_round_factors(wavy_classes):
    X, y = wavy_classes(random_state=7)
    t = y.astype(float)
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
    # weights in [0.5, 1] and 1 to 15 mistakes of 50: 0 < ε ≤ 15 / (15 + 35 · 0.5) < ½ for
    # every draw, so no draw can be skipped
    for n_wrong in range(1, 16):
        w = rng.uniform(0.5, 1.0, size=50)
        miss = np.arange(50) < n_wrong
        eps = weighted_error(w, miss)
        assert 0 < eps < 0.5
        found = minimize_scalar(
            lambda a, w=w, miss=miss: exponential_error_split(a, w, miss),
            bracket=(0, 1),
            tol=1e-12,
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


@pytest.mark.slow
def test_ten_thousand_rounds_neither_overflow_nor_underflow(wavy_classes):
    X, y = wavy_classes(50, random_state=11)
    model = AdaBoostClassifier(n_estimators=10_000, store_weights=True).fit(X, y)
    assert len(model.estimators_) == 10_000
    w = model.sample_weights_
    assert np.all(np.isfinite(w)) and np.allclose(w.sum(axis=1), 1.0)
    assert np.all(np.isfinite(model.estimator_weights_)) and np.all(model.estimator_weights_ > 0)
    assert np.all(np.isfinite(model.decision_function(X)))
    # the weights are still exp(−t f_{m−1}) normalised (14.22), though exp(−t f) itself overflows
    t = y.astype(float)
    for m, f in enumerate(model.staged_decision_function(X), start=1):
        if m in (100, 5_000, 9_999):
            log_w = -t * f
            np.testing.assert_allclose(
                w[m], np.exp(log_w - logsumexp(log_w)), rtol=1e-6, atol=1e-300
            )
    assert np.abs(f).max() > 710  # exp(|f|) overflows float64


class _TreeFittedAnew(PackageTree):
    """The package's tree under another type: AdaBoost fits it through ``fit`` every round."""


@pytest.mark.parametrize("n_classes", [2, 3])
@pytest.mark.parametrize("params", [{"max_depth": 2}, {"max_depth": 3, "max_features": 2}])
def test_a_package_tree_grown_from_sorted_features_is_the_tree_fit_grows(
    wavy_classes, n_classes, params
):
    # AdaBoost sorts X once and grows the package's tree from it every round: the same trees,
    # weights and predictions as calling the learner's fit (with its validation) every round
    X, y = wavy_classes(120, random_state=8)
    if n_classes == 3:
        y = np.where(X[:, 0] > 0.5, 2, (y > 0).astype(int))
    w = np.random.default_rng(1).uniform(0.5, 2.0, size=len(y))
    fast, plain = (
        AdaBoostClassifier(tree(**params), n_estimators=12, random_state=7).fit(
            X, y, sample_weight=w
        )
        for tree in (PackageTree, _TreeFittedAnew)
    )
    np.testing.assert_array_equal(fast.estimator_weights_, plain.estimator_weights_)
    np.testing.assert_array_equal(fast.estimator_errors_, plain.estimator_errors_)
    for a, b in zip(fast.estimators_, plain.estimators_, strict=True):
        np.testing.assert_array_equal(a.tree_.threshold, b.tree_.threshold)
        np.testing.assert_array_equal(a.tree_.value, b.tree_.value)
        np.testing.assert_array_equal(a.predict(X), b.predict(X))
    np.testing.assert_array_equal(fast.decision_function(X), plain.decision_function(X))


@pytest.mark.parametrize(
    "learner, bad",
    [
        (PackageTree(criterion="foo"), "criterion"),
        (PackageTree(max_depth=0), "max_depth"),
        (DecisionStump(criterion="foo"), "criterion"),
    ],
)
def test_a_learner_with_invalid_parameters_is_refused_as_its_fit_refuses_it(
    wavy_classes, learner, bad
):
    # AdaBoost grows the package's trees and stumps without calling their fit: it checks
    # their parameters as fit would (an unknown stump criterion used to mean Gini)
    X, y = wavy_classes(40, random_state=2)
    with pytest.raises(InvalidParameterError, match=f"'{bad}' parameter"):
        AdaBoostClassifier(learner, n_estimators=3).fit(X, y)


def test_same_random_state_same_model(wavy_classes):
    X, y = wavy_classes(random_state=12)
    tree = DecisionTreeClassifier(max_depth=1, max_features=1)
    a = AdaBoostClassifier(tree, n_estimators=15, random_state=3).fit(X, y)
    b = AdaBoostClassifier(tree, n_estimators=15, random_state=3).fit(X, y)
    np.testing.assert_array_equal(a.estimator_weights_, b.estimator_weights_)
    np.testing.assert_array_equal(a.decision_function(X), b.decision_function(X))
    # the seed matters: another random_state draws other features for the random trees
    c = AdaBoostClassifier(tree, n_estimators=15, random_state=4).fit(X, y)
    assert not np.array_equal(a.decision_function(X), c.decision_function(X))
    # the default stump has no randomness: unseeded fits agree with each other and with a seed
    d = AdaBoostClassifier(n_estimators=15).fit(X, y)
    e = AdaBoostClassifier(n_estimators=15, random_state=3).fit(X, y)
    np.testing.assert_array_equal(d.decision_function(X), e.decision_function(X))


def test_refit_without_store_weights_forgets_the_old_history(wavy_classes):
    X, y = wavy_classes(40, random_state=17)
    model = AdaBoostClassifier(n_estimators=5, store_weights=True).fit(X, y)
    assert model.sample_weights_.shape == (5, 40)
    model.set_params(store_weights=False).fit(X[:30], y[:30])
    assert not hasattr(model, "sample_weights_")


def test_tabulated_stump_prediction_equals_sum_over_stumps(wavy_classes):
    X, y = wavy_classes(random_state=13, float32=False)
    model = AdaBoostClassifier(n_estimators=60).fit(X, y)
    # points on both sides of every threshold, and points exactly on one (x_j = θ goes left)
    at_threshold = X[:60].copy()
    for row, stump in zip(at_threshold, model.estimators_, strict=True):
        row[stump.feature_] = stump.threshold_
    Xtest = np.vstack([wavy_classes(300, random_state=14)[0], X, at_threshold])
    Y = members(model, Xtest)
    np.testing.assert_allclose(
        model.decision_function(Xtest), additive_model(Y, model.estimator_weights_), atol=1e-11
    )


def test_sorted_columns_are_built_once_per_fit(monkeypatch, wavy_classes):
    calls = []
    original = SortedColumns.__init__

    def counting(self, X):
        calls.append(1)
        original(self, X)

    monkeypatch.setattr(SortedColumns, "__init__", counting)
    AdaBoostClassifier(n_estimators=20).fit(*wavy_classes(random_state=15))
    assert len(calls) == 1


def test_bad_input_is_rejected(wavy_classes):
    X, y = wavy_classes(20, random_state=16)
    with pytest.raises(ValueError, match="at least two classes, got 1 class"):
        AdaBoostClassifier().fit(X, np.zeros(20))
    with pytest.raises(ValueError, match="Unknown label type"):
        AdaBoostClassifier().fit(X, np.linspace(0, 1, 20))
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
