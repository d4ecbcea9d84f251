"""Bagging: the bootstrap, out-of-bag masks, and BaggingRegressor / BaggingClassifier against
scikit-learn's Bagging (statistical tolerance), hand-built committees and determinism."""

import numpy as np
import pytest
from sklearn.datasets import make_classification, make_friedman1
from sklearn.ensemble import BaggingClassifier as SkBaggingClassifier
from sklearn.ensemble import BaggingRegressor as SkBaggingRegressor
from sklearn.linear_model import LinearRegression, LogisticRegression, Perceptron
from sklearn.metrics import mean_squared_error, r2_score
from sklearn.neighbors import KNeighborsRegressor
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier as SkDecisionTreeClassifier
from sklearn.tree import DecisionTreeRegressor as SkDecisionTreeRegressor
from sklearn.utils.estimator_checks import parametrize_with_checks

from prml14 import (
    BaggingClassifier,
    BaggingRegressor,
    DecisionTreeClassifier,
    DecisionTreeRegressor,
    bootstrap_indices,
    committee_prediction,
    expected_oob_fraction,
    out_of_bag_mask,
)

SAMPLE_WEIGHT_XFAIL = (
    "members are fitted on bootstrap samples with the weights passed on, so weighting a point "
    "by 2 is not the same random ensemble as repeating it (scikit-learn's own Bagging* are "
    "excluded from this check for the same reason)"
)


def _expected_failed_checks(estimator):
    return {"check_sample_weight_equivalence_on_dense_data": SAMPLE_WEIGHT_XFAIL}


@parametrize_with_checks(
    [
        BaggingRegressor(n_estimators=5, random_state=0),
        BaggingClassifier(n_estimators=5, random_state=0),
        BaggingClassifier(n_estimators=5, voting="hard", random_state=0),
    ],
    expected_failed_checks=_expected_failed_checks,
)
def test_sklearn_compatible(estimator, check):
    check(estimator)


# ----------------------------------------------------------------------------- the bootstrap
def test_bootstrap_indices_shape_range_and_determinism():
    idx = bootstrap_indices(50, 30, random_state=0)
    assert idx.shape == (30, 50) and idx.min() >= 0 and idx.max() < 50
    np.testing.assert_array_equal(idx, bootstrap_indices(50, 30, random_state=0))
    assert not np.array_equal(idx, bootstrap_indices(50, 30, random_state=1))
    assert bootstrap_indices(50, 3, max_samples=0.5, random_state=0).shape == (3, 25)
    assert bootstrap_indices(50, 3, max_samples=7, random_state=0).shape == (3, 7)


def test_out_of_bag_mask_by_brute_force():
    idx = bootstrap_indices(12, 5, random_state=3)
    mask = out_of_bag_mask(idx, 12)
    assert mask.shape == (12, 5)  # samples first
    for m in range(5):
        for n in range(12):
            assert mask[n, m] == (n not in set(idx[m]))


@pytest.mark.parametrize("N", [10, 200])
def test_oob_fraction_matches_closed_form_and_tends_to_one_over_e(N):
    mask = out_of_bag_mask(bootstrap_indices(N, 4000, random_state=N), N)
    closed = expected_oob_fraction(N)
    assert closed == pytest.approx((1 - 1 / N) ** N, rel=1e-12)
    # 4000·N Bernoulli draws: the standard error is below 0.003 for N = 10.
    assert mask.mean() == pytest.approx(closed, abs=0.01)
    assert expected_oob_fraction(10**6) == pytest.approx(np.exp(-1), rel=1e-5)
    assert expected_oob_fraction(1) == 0.0


def test_bootstrap_bad_input():
    with pytest.raises(ValueError, match="n_estimators == 0, must be >= 1"):
        bootstrap_indices(10, 0)
    with pytest.raises(TypeError, match="n_samples must be an instance of int"):
        bootstrap_indices(10.0, 2)
    with pytest.raises(ValueError, match="max_samples == 1.5, must be <= 1"):
        bootstrap_indices(10, 2, max_samples=1.5)
    with pytest.raises(ValueError, match="max_samples == 0.0, must be > 0"):
        bootstrap_indices(10, 2, max_samples=0.0)
    with pytest.raises(ValueError, match="max_samples == 11, must be <= 10"):
        bootstrap_indices(10, 2, max_samples=11)
    with pytest.raises(TypeError, match="max_samples must be an instance of float"):
        bootstrap_indices(10, 2, max_samples="all")
    with pytest.raises(ValueError, match="indices must lie in"):
        out_of_bag_mask([[0, 10]], 10)
    with pytest.raises(TypeError, match="indices must be integers"):
        out_of_bag_mask([[0.5, 1.0]], 10)
    with pytest.raises(ValueError, match="n_samples must be finite and >= 1"):
        expected_oob_fraction(np.nan)


# ----------------------------------------------------------------------------- estimators
@pytest.fixture
def regression(five_regions):
    """200 points of the trees page's five-region data (2-D inputs, noisy constant regions)."""
    return five_regions(200, random_state=0)


@pytest.mark.equation("14.7")
def test_regressor_equals_hand_committee_on_its_bootstrap_indices(regression):
    X, y = regression
    bag = BaggingRegressor(LinearRegression(), n_estimators=6, random_state=0).fit(X, y)
    # The indices are those of bootstrap_indices with the same seed.
    rng = np.random.RandomState(0)
    np.testing.assert_array_equal(
        np.array(bag.estimators_samples_), bootstrap_indices(200, 6, random_state=rng)
    )
    hand = np.mean(
        [LinearRegression().fit(X[i], y[i]).predict(X) for i in bag.estimators_samples_], axis=0
    )
    np.testing.assert_allclose(bag.predict(X), hand, rtol=1e-10)
    assert bag.member_predictions(X).shape == (200, 6)  # samples first
    np.testing.assert_allclose(committee_prediction(bag.member_predictions(X)), hand, rtol=1e-10)


@pytest.mark.equation("14.7")
def test_members_without_sample_weight_are_fitted_on_repeated_rows(regression):
    X, y = regression
    bag = BaggingRegressor(KNeighborsRegressor(n_neighbors=3), n_estimators=4, random_state=0).fit(
        X, y
    )
    hand = np.mean(
        [
            KNeighborsRegressor(n_neighbors=3).fit(X[i], y[i]).predict(X)
            for i in bag.estimators_samples_
        ],
        axis=0,
    )
    np.testing.assert_allclose(bag.predict(X), hand, rtol=1e-12)


def test_count_weights_fit_trees_as_well_as_repeated_rows(regression):
    """Members fitted with repetition counts reach the same training error on their bootstrap
    sample as trees grown on the repeated rows (splits can differ only between exact ties)."""
    X, y = regression
    bag = BaggingRegressor(
        SkDecisionTreeRegressor(max_depth=4), n_estimators=5, random_state=0
    ).fit(X, y)
    for member, i in zip(bag.estimators_, bag.estimators_samples_, strict=True):
        hand = SkDecisionTreeRegressor(max_depth=4, random_state=member.random_state).fit(
            X[i], y[i]
        )
        assert member.tree_.node_count == hand.tree_.node_count
        sse = np.sum((member.predict(X[i]) - y[i]) ** 2)
        assert sse == pytest.approx(np.sum((hand.predict(X[i]) - y[i]) ** 2), rel=1e-10)


@pytest.mark.slow
@pytest.mark.equation("14.7")
@pytest.mark.parametrize("voting", ["soft", "hard"])
def test_classifier_equals_hand_votes(voting):
    X, y = make_classification(n_samples=150, n_classes=3, n_informative=4, random_state=0)
    names = np.array(["a", "b", "c"])
    labels = names[y]
    bag = BaggingClassifier(
        LogisticRegression(), n_estimators=5, voting=voting, random_state=1
    ).fit(X, labels)
    votes = np.zeros((150, 3))
    for i in bag.estimators_samples_:
        member = LogisticRegression().fit(X[i], y[i])
        if voting == "soft":
            votes[:, member.classes_] += member.predict_proba(X)
        else:
            votes[np.arange(150), member.predict(X)] += 1
    # Members are fitted with repetition-count weights, the hand fits on repeated rows: the
    # objectives are equal, the optimiser's path may differ in the last digits.
    np.testing.assert_allclose(bag.predict_proba(X), votes / 5, atol=1e-5)
    np.testing.assert_array_equal(bag.predict(X), names[np.argmax(votes, axis=1)])


@pytest.mark.parametrize("rare", [0, 1])
def test_classifier_handles_bootstrap_samples_missing_a_class(rare):
    # the lone point of class ``rare`` is missed by ~37% of the samples; a member that never
    # saw it must put its probabilities in the other class's column, first or last
    X = np.arange(20.0)[:, None]
    y = np.r_[np.full(19, 1 - rare), rare]
    bag = BaggingClassifier(n_estimators=20, random_state=0).fit(X, y)
    proba = bag.predict_proba(X)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    missing = sum(19 not in set(i) for i in bag.estimators_samples_)
    assert 0 < missing < 20
    assert proba[19, rare] == pytest.approx(1 - missing / 20)


def test_default_members_are_prml14_trees_fitted_on_count_weights(regression):
    """The default member is prml14's own tree; fitted on the distinct points with their
    bootstrap counts as weights, it is the tree grown on the repeated rows."""
    X, y = regression
    bag = BaggingRegressor(n_estimators=4, random_state=0).fit(X, y)
    assert type(bag.estimator_) is DecisionTreeRegressor
    for member, i in zip(bag.estimators_, bag.estimators_samples_, strict=True):
        assert type(member) is DecisionTreeRegressor
        hand = DecisionTreeRegressor().fit(X[i], y[i])
        np.testing.assert_allclose(member.predict(X[i]), y[i])  # fully grown: interpolates
        assert member.get_n_leaves() == hand.get_n_leaves() == len(np.unique(i))
    clf = BaggingClassifier(n_estimators=3, random_state=0).fit(X, y > np.median(y))
    assert type(clf.estimator_) is DecisionTreeClassifier
    assert all(type(member) is DecisionTreeClassifier for member in clf.estimators_)


@pytest.mark.slow
def test_regressor_within_a_few_percent_of_sklearn():
    """Held-out MSE averaged over 5 seeds; tolerance: 10% relative (observed ~1-3%).

    Ours with its default member (prml14's tree) against scikit-learn's Bagging of its own."""
    ours, theirs = [], []
    for seed in range(5):
        X, y = make_friedman1(n_samples=1200, noise=1.0, random_state=seed)
        Xtr, ytr, Xte, yte = X[:300], y[:300], X[300:], y[300:]
        ours.append(
            mean_squared_error(
                yte,
                BaggingRegressor(n_estimators=25, random_state=seed).fit(Xtr, ytr).predict(Xte),
            )
        )
        sk = SkBaggingRegressor(SkDecisionTreeRegressor(), n_estimators=25, random_state=seed).fit(
            Xtr, ytr
        )
        theirs.append(mean_squared_error(yte, sk.predict(Xte)))
    assert np.mean(ours) == pytest.approx(np.mean(theirs), rel=0.10)


@pytest.mark.slow
def test_classifier_within_a_few_percent_of_sklearn():
    """Held-out accuracy averaged over 5 seeds; tolerance: 0.03 absolute."""
    ours, theirs = [], []
    for seed in range(5):
        X, y = make_classification(
            n_samples=1200, n_features=10, n_informative=5, flip_y=0.05, random_state=seed
        )
        Xtr, ytr, Xte, yte = X[:300], y[:300], X[300:], y[300:]
        ours.append(
            BaggingClassifier(n_estimators=25, random_state=seed).fit(Xtr, ytr).score(Xte, yte)
        )
        sk = SkBaggingClassifier(
            SkDecisionTreeClassifier(), n_estimators=25, random_state=seed
        ).fit(Xtr, ytr)
        theirs.append(sk.score(Xte, yte))
    assert np.mean(ours) == pytest.approx(np.mean(theirs), abs=0.03)


def test_bagging_reduces_the_error_of_a_single_deep_tree():
    X, y = make_friedman1(n_samples=200, noise=1.0, random_state=0)  # a smooth truth in 10-D
    Xte, yte = make_friedman1(n_samples=1000, noise=1.0, random_state=1)
    single = mean_squared_error(yte, DecisionTreeRegressor().fit(X, y).predict(Xte))
    bagged = mean_squared_error(
        yte, BaggingRegressor(n_estimators=30, random_state=0).fit(X, y).predict(Xte)
    )
    assert bagged < 0.8 * single


def test_oob_prediction_is_the_average_over_out_of_bag_members(regression):
    X, y = regression
    bag = BaggingRegressor(
        LinearRegression(), n_estimators=15, oob_score=True, random_state=0
    ).fit(X, y)
    mask = out_of_bag_mask(bag.estimators_samples_, len(X))
    preds = bag.member_predictions(X)
    hand = np.where(mask, preds, 0).sum(axis=1) / mask.sum(axis=1)
    np.testing.assert_allclose(bag.oob_prediction_, hand, rtol=1e-10)
    assert bag.oob_score_ == pytest.approx(r2_score(y, hand))


def test_oob_score_tracks_held_out_score():
    X, y = make_friedman1(n_samples=1400, noise=1.0, random_state=3)
    bag = BaggingRegressor(n_estimators=40, oob_score=True, random_state=0).fit(X[:400], y[:400])
    assert bag.oob_score_ == pytest.approx(bag.score(X[400:], y[400:]), abs=0.06)
    Xc, yc = make_classification(n_samples=1400, n_features=8, random_state=3)
    clf = BaggingClassifier(n_estimators=40, oob_score=True, random_state=0).fit(
        Xc[:400], yc[:400]
    )
    assert clf.oob_decision_function_.shape == (400, 2)
    np.testing.assert_allclose(clf.oob_decision_function_.sum(axis=1), 1.0)
    assert clf.oob_score_ == pytest.approx(clf.score(Xc[400:], yc[400:]), abs=0.06)


def test_oob_warns_when_a_point_is_never_out_of_bag(regression):
    X, y = regression
    with pytest.warns(UserWarning, match="no out-of-bag prediction"):
        bag = BaggingRegressor(n_estimators=2, oob_score=True, random_state=0).fit(X, y)
    assert np.isnan(bag.oob_prediction_).any() and np.isfinite(bag.oob_score_)


@pytest.mark.parametrize("n_jobs, runs", [(None, [7]), (2, [4, 3]), (3, [2, 3, 2])])
def test_one_task_per_worker_each_a_run_of_consecutive_members(monkeypatch, n_jobs, runs):
    # the members are sent to the workers in n_jobs runs (fewer, larger tasks), and the
    # ensemble keeps their order
    import joblib

    import prml14.committees.bagging_estimators as bagging

    seen = []

    def spy(estimators, X, y, indices, *args):
        seen.append([row[0] for row in indices])
        return fit_members(estimators, X, y, indices, *args)

    fit_members = bagging._fit_members
    monkeypatch.setattr(bagging, "_fit_members", spy)
    X, y = make_friedman1(n_samples=40, random_state=0)
    with joblib.parallel_config(backend="threading"):
        bag = BaggingRegressor(n_estimators=7, n_jobs=n_jobs, random_state=0).fit(X, y)
    assert sorted(len(run) for run in seen) == sorted(runs)
    first = [s[0] for s in bag.estimators_samples_]
    assert sorted(seen) == sorted(
        first[a : a + n] for a, n in zip(np.cumsum([0] + runs[:-1]), runs, strict=True)
    )


@pytest.mark.parametrize("Est", [BaggingRegressor, BaggingClassifier])
def test_same_random_state_gives_identical_ensembles_whatever_n_jobs(Est):
    X, y = make_classification(n_samples=120, random_state=0)
    a = Est(n_estimators=6, random_state=42).fit(X, y)
    b = Est(n_estimators=6, random_state=42, n_jobs=2).fit(X, y)
    c = Est(n_estimators=6, random_state=43).fit(X, y)
    for i, j in zip(a.estimators_samples_, b.estimators_samples_, strict=True):
        np.testing.assert_array_equal(i, j)
    np.testing.assert_array_equal(a.predict(X[:50] + 0.01), b.predict(X[:50] + 0.01))
    assert [e.random_state for e in a.estimators_] == [e.random_state for e in b.estimators_]
    assert not all(
        np.array_equal(i, j)
        for i, j in zip(a.estimators_samples_, c.estimators_samples_, strict=True)
    )


def test_max_samples_sets_the_bootstrap_size(regression):
    X, y = regression
    assert {
        len(i)
        for i in BaggingRegressor(n_estimators=3, max_samples=0.25).fit(X, y).estimators_samples_
    } == {50}
    assert {
        len(i)
        for i in BaggingRegressor(n_estimators=3, max_samples=17).fit(X, y).estimators_samples_
    } == {17}


def test_sample_weight_is_passed_to_the_members(regression):
    X, y = regression
    w = np.r_[np.full(100, 10.0), np.full(100, 1e-6)]
    bag = BaggingRegressor(LinearRegression(), n_estimators=4, random_state=0).fit(
        X, y, sample_weight=w
    )
    hand = np.mean(
        [
            LinearRegression().fit(X[i], y[i], sample_weight=w[i]).predict(X)
            for i in bag.estimators_samples_
        ],
        axis=0,
    )
    np.testing.assert_allclose(bag.predict(X), hand, rtol=1e-8)


@pytest.mark.parametrize(
    "params, match",
    [
        ({"n_estimators": 0}, "n_estimators"),
        ({"max_samples": 1.5}, "max_samples"),
        ({"max_samples": 0.0}, "max_samples"),
        ({"max_samples": 0}, "max_samples"),
        ({"max_samples": 10_000}, "max_samples == 10000, must be <= 200"),
        ({"estimator": "tree"}, "estimator"),
    ],
)
def test_bad_hyper_parameters(regression, params, match):
    X, y = regression
    with pytest.raises(ValueError, match=match):
        BaggingRegressor(**params).fit(X, y)


def test_bad_data(regression):
    X, y = regression
    bad = X.copy()
    bad[3, 1] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        BaggingRegressor().fit(bad, y)
    with pytest.raises(ValueError, match="infinity|NaN"):
        BaggingRegressor().fit(X, np.r_[y[:-1], np.inf])
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        BaggingRegressor().fit(X, y[:-1])
    with pytest.raises(ValueError, match="sample_weight"):
        BaggingRegressor().fit(X, y, sample_weight=np.ones(5))
    with pytest.raises(TypeError, match="does not accept sample_weight"):
        BaggingRegressor(KNeighborsRegressor()).fit(X, y, sample_weight=np.ones(len(y)))
    with pytest.raises(TypeError, match="voting='soft' needs an estimator with predict_proba"):
        BaggingClassifier(Perceptron()).fit(X, y > y.mean())
    with pytest.raises(ValueError, match="voting"):
        BaggingClassifier(voting="majority").fit(X, y > y.mean())
    fitted = BaggingRegressor(n_estimators=2).fit(X, y)
    with pytest.raises(ValueError, match="features"):
        fitted.predict(X[:, :1])


def test_nested_random_states_are_seeded(regression):
    """A random member inside a Pipeline used to keep random_state=None: two fits differed."""
    X, y = regression
    member = make_pipeline(StandardScaler(), SkDecisionTreeRegressor(max_features=1))
    a = BaggingRegressor(member, n_estimators=5, random_state=0).fit(X, y)
    b = BaggingRegressor(member, n_estimators=5, random_state=0).fit(X, y)
    np.testing.assert_array_equal(a.predict(X), b.predict(X))
    seeds = [est.get_params()["decisiontreeregressor__random_state"] for est in a.estimators_]
    assert all(isinstance(s, (int, np.integer)) for s in seeds) and len(set(seeds)) == 5
    assert (
        member.get_params()["decisiontreeregressor__random_state"] is None
    )  # the template is untouched


@pytest.mark.parametrize("voting", ["soft", "hard"])
def test_classifier_oob_decision_function_by_hand(voting):
    X, y = make_classification(
        n_samples=120, n_features=5, n_classes=3, n_informative=3, random_state=2
    )
    clf = BaggingClassifier(n_estimators=25, voting=voting, oob_score=True, random_state=0).fit(
        X, y
    )
    mask = out_of_bag_mask(clf.estimators_samples_, len(X))
    total = np.zeros((len(X), 3))
    for est, oob in zip(clf.estimators_, mask.T, strict=True):
        if voting == "soft":
            proba = np.zeros((oob.sum(), 3))
            proba[:, est.classes_.astype(int)] = est.predict_proba(X[oob])
            total[oob] += proba
        else:
            total[np.flatnonzero(oob), est.predict(X[oob]).astype(int)] += 1
    hand = total / mask.sum(axis=1)[:, None]
    np.testing.assert_allclose(clf.oob_decision_function_, hand, rtol=1e-12)
    assert clf.oob_score_ == pytest.approx(np.mean(np.argmax(hand, axis=1) == y))


def test_bootstrap_functions_name_the_bad_argument():
    with pytest.raises(ValueError, match="random_state"):
        bootstrap_indices(5, 2, random_state=-1)
    with pytest.raises(TypeError, match="n_samples"):
        expected_oob_fraction("bogus")


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64])
def test_the_members_outputs_read_from_the_trees_are_their_predictions(dtype):
    # the ensembles read the package's trees directly (no validation of X per member): the
    # same values as the members' predict and predict_proba, for the X dtypes fit accepts
    from prml14.committees.bagging_estimators import _member_output

    X, t = make_friedman1(120, noise=1.0, random_state=3)
    X = (X * 10).astype(dtype)
    regressor = BaggingRegressor(n_estimators=4, random_state=0).fit(X, t)
    labels = np.array(["a", "b", "c"])[np.digitize(t, np.quantile(t, [1 / 3, 2 / 3]))]
    classifier = BaggingClassifier(n_estimators=4, random_state=0).fit(X, labels)
    for est in regressor.estimators_:
        np.testing.assert_array_equal(_member_output(est, X), est.predict(X))
    for est in classifier.estimators_:
        np.testing.assert_array_equal(_member_output(est, X), est.predict(X))
        np.testing.assert_array_equal(_member_output(est, X, proba=True), est.predict_proba(X))
