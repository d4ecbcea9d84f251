"""GradientBoostingRegressor / GradientBoostingClassifier against scikit-learn, xgboost, a
hand-written L2Boost loop, and the scikit-learn estimator checks.

Data are cast to float32 first: scikit-learn's and xgboost's trees compare float32 features,
ours float64; on float32-representable data all three see the same thresholds. Round 0 of a
classifier fits pseudo-residuals with only two distinct values, so cuts with the same counts on
each side tie exactly and the libraries may break the tie differently (rounding decides);
random sample weights, or ``min_samples_leaf=5``, keep such ties out of the comparisons.
"""

import numpy as np
import pytest
from sklearn.datasets import make_friedman1, make_hastie_10_2
from sklearn.ensemble import GradientBoostingClassifier as SkClassifier
from sklearn.ensemble import GradientBoostingRegressor as SkRegressor
from sklearn.utils.estimator_checks import parametrize_with_checks

from prml14 import (
    DecisionTreeRegressor,
    GradientBoostingClassifier,
    GradientBoostingRegressor,
)


def _friedman(n=400, seed=0, noise=1.0):
    X, y = make_friedman1(n, noise=noise, random_state=seed)
    return X.astype(np.float32).astype(float), y


def _hastie(n=400, seed=0):
    X, y = make_hastie_10_2(n, random_state=seed)
    return X.astype(np.float32).astype(float), (y > 0).astype(int)


# --- scikit-learn: the same trees and predictions ------------------------------------------


@pytest.mark.equation("B.14", "B.16", "B.2")
def test_squared_error_matches_scikit_learn():
    X, y = _friedman()
    params = dict(n_estimators=30, max_depth=3, learning_rate=0.2, min_samples_leaf=5)
    ours = GradientBoostingRegressor(**params).fit(X, y)
    ref = SkRegressor(**params, random_state=0).fit(X, y)
    # float rounding only: sums of the same residuals in another order
    for a, b in zip(ours.staged_predict(X), ref.staged_predict(X), strict=True):
        np.testing.assert_allclose(a, b, rtol=0, atol=1e-10)
    assert [t[0].n_leaves for t in ours.trees_] == [
        e.tree_.n_leaves for e in ref.estimators_[:, 0]
    ]
    np.testing.assert_allclose(ours.feature_importances_, ref.feature_importances_, atol=1e-10)
    np.testing.assert_allclose(ours.train_score_, ref.train_score_ / 2, rtol=1e-10)


@pytest.mark.equation("B.14", "B.16")
@pytest.mark.parametrize("loss", ["log_loss", "exponential"])
def test_binary_classification_matches_scikit_learn(loss):
    X, y = _hastie()
    params = dict(loss=loss, n_estimators=25, max_depth=2, min_samples_leaf=5)
    ours = GradientBoostingClassifier(**params).fit(X, y)
    ref = SkClassifier(**params, random_state=0).fit(X, y)
    np.testing.assert_allclose(
        ours.decision_function(X), ref.decision_function(X), rtol=0, atol=1e-9
    )
    np.testing.assert_allclose(ours.predict_proba(X), ref.predict_proba(X), atol=1e-10)


@pytest.mark.equation("B.14", "B.16")
@pytest.mark.parametrize("loss", ["log_loss", "exponential"])
def test_unbalanced_classes_start_from_the_weighted_log_odds(loss):
    # On exactly balanced labels (make_hastie_10_2) the initial score is 0 for either loss; with
    # about one point in five of class 1 and random weights it is the weighted log-odds
    # (log_loss) or half of it (exponential, the minimiser (14.28)), as in scikit-learn.
    X, _ = _hastie()
    rng = np.random.default_rng(1)
    y = (X[:, 0] + 0.5 * rng.normal(size=len(X)) > 0.8).astype(int)
    w = rng.uniform(0.5, 1.5, len(y))
    p = np.average(y, weights=w)
    assert 0.15 < p < 0.3
    half = 0.5 if loss == "exponential" else 1.0
    params = dict(loss=loss, n_estimators=10, max_depth=2, min_samples_leaf=5)
    ours = GradientBoostingClassifier(**params).fit(X, y, sample_weight=w)
    np.testing.assert_allclose(ours.init_raw_, [half * np.log(p / (1 - p))], rtol=1e-12)
    ref = SkClassifier(**params, random_state=0).fit(X, y, sample_weight=w)
    np.testing.assert_allclose(
        ours.decision_function(X), ref.decision_function(X), rtol=0, atol=1e-9
    )


@pytest.mark.equation("B.14", "B.16")
def test_multinomial_log_loss_matches_scikit_learn():
    X, y = _friedman(300)
    y3 = np.digitize(y, [12, 17])
    w = np.random.default_rng(0).uniform(0.5, 1.5, y.size)  # weights break the ties
    params = dict(n_estimators=15, max_depth=3)
    ours = GradientBoostingClassifier(**params).fit(X, y3, sample_weight=w)
    ref = SkClassifier(**params, random_state=0).fit(X, y3, sample_weight=w)
    assert len(ours.trees_[0]) == 3  # K trees per round
    np.testing.assert_allclose(
        ours.decision_function(X), ref.decision_function(X), rtol=0, atol=1e-9
    )


# --- xgboost: second-order trees ------------------------------------------------------------


@pytest.mark.equation("B.20", "B.21")
@pytest.mark.parametrize(
    ("reg_lambda", "xgb_gamma", "min_child_weight"),
    [(1.0, 0.0, 1.0), (0.0, 0.0, 0.0), (2.0, 5.0, 3.0), (1.0, 50.0, 1.0)],
)
def test_newton_mode_matches_xgboost_exact(reg_lambda, xgb_gamma, min_child_weight):
    xgb = pytest.importorskip("xgboost")
    X, y = _friedman()
    common = dict(n_estimators=30, max_depth=3, learning_rate=0.3, reg_lambda=reg_lambda)
    common["min_child_weight"] = min_child_weight
    ours = GradientBoostingRegressor(method="newton", gamma=xgb_gamma / 2, **common).fit(X, y)
    ref = xgb.XGBRegressor(
        tree_method="exact", gamma=xgb_gamma, base_score=float(y.mean()), nthread=1, **common
    ).fit(X, y)
    # xgboost adds float32 leaf values: float32 tolerance relative to the targets' scale
    np.testing.assert_allclose(ours.predict(X), ref.predict(X), rtol=0, atol=2e-6 * np.ptp(y))
    n_leaves = sum(t[0].n_leaves for t in ours.trees_)
    dumped = ref.get_booster().get_dump()
    assert n_leaves == sum(tree.count("leaf=") for tree in dumped)


@pytest.mark.equation("B.21")
def test_xgboost_min_split_loss_is_twice_our_gamma():
    xgb = pytest.importorskip("xgboost")
    X, y = _friedman()
    common = dict(n_estimators=10, max_depth=3, learning_rate=0.3, reg_lambda=1.0)
    ref = xgb.XGBRegressor(
        tree_method="exact", gamma=40.0, base_score=float(y.mean()), nthread=1, **common
    ).fit(X, y)
    leaves_ref = sum(tree.count("leaf=") for tree in ref.get_booster().get_dump())
    half = GradientBoostingRegressor(method="newton", gamma=20.0, **common).fit(X, y)
    same = GradientBoostingRegressor(method="newton", gamma=40.0, **common).fit(X, y)
    assert sum(t[0].n_leaves for t in half.trees_) == leaves_ref
    assert sum(t[0].n_leaves for t in same.trees_) < leaves_ref


@pytest.mark.equation("B.20")
def test_newton_log_loss_matches_xgboost_exact():
    xgb = pytest.importorskip("xgboost")
    X, y = _hastie()
    common = dict(n_estimators=20, max_depth=3, learning_rate=0.3, reg_lambda=1.0)
    ours = GradientBoostingClassifier(method="newton", **common).fit(X, y)
    ref = xgb.XGBClassifier(
        tree_method="exact", base_score=float(y.mean()), nthread=1, **common
    ).fit(X, y)
    np.testing.assert_allclose(ours.predict_proba(X), ref.predict_proba(X), atol=1e-6)


# --- histogram finder -----------------------------------------------------------------------


@pytest.mark.parametrize("method", ["gradient", "newton"])
def test_histogram_equals_exact_when_features_have_few_values(method):
    X, y = _friedman()
    X = np.round(X, 2)  # at most 101 distinct values per feature < max_bins
    kw = dict(n_estimators=20, method=method)
    exact = GradientBoostingRegressor(splitter="exact", **kw).fit(X, y)
    hist = GradientBoostingRegressor(splitter="histogram", **kw).fit(X, y)
    np.testing.assert_allclose(hist.predict(X), exact.predict(X), rtol=0, atol=1e-10)


@pytest.mark.slow
def test_histogram_held_out_error_within_two_percent_of_exact():
    errors = []
    for seed in range(3):
        X, y = _friedman(1000, seed)
        Xt, yt = _friedman(2000, seed + 100)
        row = []
        for splitter, bins in [("exact", 255), ("histogram", 255), ("histogram", 32)]:
            est = GradientBoostingRegressor(n_estimators=50, splitter=splitter, max_bins=bins)
            est.fit(X, y)
            row.append(np.mean((est.predict(Xt) - yt) ** 2))
        errors.append(row)
    exact, h255, h32 = np.mean(errors, axis=0)
    assert abs(h255 - exact) < 0.02 * exact
    assert abs(h32 - exact) < 0.05 * exact


# --- L2Boost ----------------------------------------------------------------------------------


@pytest.mark.equation("B.2", "B.3")
def test_l2boost_equals_a_hand_written_residual_fitting_loop():
    X, y = _friedman(200)
    nu, M = 0.3, 15
    F = np.full(y.size, y.mean())
    for _ in range(M):
        tree = DecisionTreeRegressor(max_depth=2).fit(X, y - F)  # fit the residuals (B.3)
        F = F + nu * tree.predict(X)  # shrink and add (B.2)
    est = GradientBoostingRegressor(n_estimators=M, learning_rate=nu, max_depth=2).fit(X, y)
    np.testing.assert_allclose(est.predict(X), F, rtol=0, atol=1e-10)


# --- held-out errors against scikit-learn and xgboost -----------------------------------------


@pytest.mark.slow
def test_held_out_errors_match_the_references_on_average():
    xgb = pytest.importorskip("xgboost")
    ours_r, sk_r, xg_r, ours_c, sk_c, xg_c = ([] for _ in range(6))
    M = dict(n_estimators=50)
    for seed in range(3):
        X, y = _friedman(600, seed)
        Xt, yt = _friedman(2000, seed + 100)
        ours_r.append(np.mean((GradientBoostingRegressor(**M).fit(X, y).predict(Xt) - yt) ** 2))
        sk_r.append(np.mean((SkRegressor(**M).fit(X, y).predict(Xt) - yt) ** 2))
        newton = GradientBoostingRegressor(method="newton", splitter="histogram", **M).fit(X, y)
        ours_r.append(np.mean((newton.predict(Xt) - yt) ** 2))
        xg = xgb.XGBRegressor(n_estimators=50, max_depth=3, learning_rate=0.1, nthread=1)
        xg_r.append(np.mean((xg.fit(X, y).predict(Xt) - yt) ** 2))
        X, y = _hastie(600, seed)
        Xt, yt = _hastie(2000, seed + 100)
        ours_c.append(np.mean(GradientBoostingClassifier(**M).fit(X, y).predict(Xt) != yt))
        sk_c.append(np.mean(SkClassifier(**M).fit(X, y).predict(Xt) != yt))
        newton = GradientBoostingClassifier(method="newton", splitter="histogram", **M).fit(X, y)
        ours_c.append(np.mean(newton.predict(Xt) != yt))
        xg = xgb.XGBClassifier(n_estimators=50, max_depth=3, learning_rate=0.1, nthread=1)
        xg_c.append(np.mean(xg.fit(X, y).predict(Xt) != yt))
    gradient_r, newton_r = np.mean(ours_r[0::2]), np.mean(ours_r[1::2])
    assert abs(gradient_r - np.mean(sk_r)) < 0.02 * np.mean(sk_r)  # the same algorithm
    assert abs(newton_r - np.mean(xg_r)) < 0.10 * np.mean(xg_r)  # bins and base score differ
    gradient_c, newton_c = np.mean(ours_c[0::2]), np.mean(ours_c[1::2])
    assert abs(gradient_c - np.mean(sk_c)) < 0.01  # error rates, absolute
    assert abs(newton_c - np.mean(xg_c)) < 0.03


# --- the estimator's behaviour ----------------------------------------------------------------


@pytest.mark.parametrize("loss", ["squared_error", "absolute_error", "huber"])
def test_integer_weights_are_repetitions(loss):
    X, y = _friedman(120)
    w = np.random.default_rng(0).integers(1, 4, 120)
    kw = dict(loss=loss, n_estimators=10, max_depth=2)
    weighted = GradientBoostingRegressor(**kw).fit(X, y, sample_weight=w.astype(float))
    repeated = GradientBoostingRegressor(**kw).fit(np.repeat(X, w, 0), np.repeat(y, w))
    np.testing.assert_allclose(weighted.predict(X), repeated.predict(X), atol=1e-10)


def test_staged_outputs_end_at_the_final_ones():
    X, y = _hastie(200)
    est = GradientBoostingClassifier(n_estimators=7).fit(X, y)
    stages = list(est.staged_predict_proba(X))
    assert len(stages) == 7
    np.testing.assert_array_equal(stages[-1], est.predict_proba(X))
    np.testing.assert_allclose(stages[3].sum(axis=1), 1.0)
    np.testing.assert_array_equal(list(est.staged_predict(X))[-1], est.predict(X))
    reg = GradientBoostingRegressor(n_estimators=5).fit(*_friedman(100))
    np.testing.assert_array_equal(list(reg.staged_predict(X[:, :10]))[-1], reg.predict(X))


@pytest.mark.parametrize("tol", [1e-3, 0.05])
def test_early_stopping_follows_scikit_learns_rule(tol):
    X, y = _friedman(400, noise=3.0)
    est = GradientBoostingRegressor(
        n_estimators=500, learning_rate=0.3, n_iter_no_change=5, tol=tol, random_state=0
    ).fit(X, y)
    scores = est.validation_score_
    n = est.n_estimators_
    assert n < 500 and len(scores) == n == len(est.trees_)
    # the last score did not beat any of the 5 before it by more than tol; the earlier ones did
    # (tol = 0.05 is of the size of the scores' steps, so it decides when to stop)
    assert not np.any(scores[-1] + tol < scores[-6:-1])
    assert all(np.any(scores[i] + tol < scores[i - 5 : i]) for i in range(5, n - 1))


def test_same_random_state_same_model_and_subsampling_changes_it():
    X, y = _friedman(300)
    kw = dict(n_estimators=10, subsample=0.5)
    a = GradientBoostingRegressor(random_state=3, **kw).fit(X, y).predict(X)
    b = GradientBoostingRegressor(random_state=3, **kw).fit(X, y).predict(X)
    c = GradientBoostingRegressor(random_state=4, **kw).fit(X, y).predict(X)
    np.testing.assert_array_equal(a, b)
    assert not np.allclose(a, c)


def test_feature_importances_find_the_informative_features():
    X, y = _friedman(500)  # features 5-9 are noise
    for method in ["gradient", "newton"]:
        imp = GradientBoostingRegressor(method=method).fit(X, y).feature_importances_
        assert imp.sum() == pytest.approx(1.0)
        assert imp[:5].sum() > 0.9


def test_bad_input_gives_clear_errors():
    X, y = _friedman(50)
    with pytest.raises(ValueError, match="loss"):
        GradientBoostingRegressor(loss="hinge").fit(X, y)
    with pytest.raises(ValueError, match="newton"):
        GradientBoostingRegressor(loss="absolute_error", method="newton").fit(X, y)
    with pytest.raises(ValueError, match="sample_weight"):
        GradientBoostingRegressor().fit(X, y, sample_weight=-np.ones(50))
    with pytest.raises(ValueError, match="NaN"):
        GradientBoostingRegressor().fit(np.where(X > 0.9, np.nan, X), y)
    with pytest.raises(ValueError, match="2 classes"):
        GradientBoostingClassifier().fit(X, np.zeros(50))
    with pytest.raises(ValueError, match="two classes"):
        GradientBoostingClassifier(loss="exponential").fit(X, np.arange(50) % 3)
    with pytest.raises(ValueError, match="learning_rate"):
        GradientBoostingRegressor(learning_rate=0.0).fit(X, y)


def test_a_constant_target_gives_single_leaf_trees():
    X = np.random.default_rng(0).normal(size=(30, 2))
    est = GradientBoostingRegressor(n_estimators=3).fit(X, np.full(30, 2.5))
    assert all(t[0].node_count == 1 for t in est.trees_)
    np.testing.assert_allclose(est.predict(X), 2.5)
    np.testing.assert_array_equal(est.feature_importances_, [0.0, 0.0])


SAMPLE_WEIGHT_XFAIL = (
    "sample_weight is not equivalent to removing/repeating samples."  # scikit-learn's reason
)


@parametrize_with_checks(
    [
        GradientBoostingRegressor(n_estimators=10, learning_rate=0.5),
        GradientBoostingClassifier(n_estimators=10),
        GradientBoostingRegressor(
            n_estimators=5,
            learning_rate=0.5,
            method="newton",
            splitter="histogram",
            subsample=0.7,
            random_state=0,
        ),
        GradientBoostingClassifier(n_estimators=5, method="newton", splitter="histogram"),
    ],
    expected_failed_checks=lambda est: {
        "check_sample_weight_equivalence_on_dense_data": SAMPLE_WEIGHT_XFAIL
    },
)
def test_sklearn_compatible(estimator, check):
    check(estimator)


def test_histogram_training_scores_agree_with_predict():
    """The fit updates its training scores by applying the trees to the bin codes; predict
    applies them to the raw features. Both must reach the same leaves."""
    X, y = _friedman(500)
    est = GradientBoostingRegressor(splitter="histogram", max_bins=16, n_estimators=15)
    est.fit(X, y)
    assert est.train_score_[-1] == pytest.approx(0.5 * np.mean((est.predict(X) - y) ** 2))
    t = y > 14
    clf = GradientBoostingClassifier(splitter="histogram", max_bins=16, n_estimators=10)
    p = clf.fit(X, t).predict_proba(X)[:, 1]
    expected = -np.mean(np.where(t, np.log(p), np.log1p(-p)))
    assert clf.train_score_[-1] == pytest.approx(expected)


def test_gamma_pruned_histogram_trees_update_the_training_scores_from_the_bins():
    """A tree that γ-pruning changed is applied to the bin codes (BinnedFeatures.apply) to update
    the training scores; predict walks the raw features: the last training loss agrees."""
    X, y = _friedman(500)
    est = GradientBoostingRegressor(
        method="newton", gamma=30.0, splitter="histogram", max_bins=16, n_estimators=10
    ).fit(X, y)
    unpruned = GradientBoostingRegressor(
        method="newton", splitter="histogram", max_bins=16, n_estimators=10
    ).fit(X, y)
    n_leaves = [t[0].n_leaves for t in est.trees_]
    assert sum(n_leaves) < sum(t[0].n_leaves for t in unpruned.trees_)  # γ did prune
    assert min(n_leaves) > 1
    assert est.train_score_[-1] == pytest.approx(0.5 * np.mean((est.predict(X) - y) ** 2))


def test_subsample_draws_rows_without_replacement():
    """With one bin per value, distinct targets and fully grown trees, every leaf of a round's
    tree holds one row: ``round(subsample · N)`` leaves of one sample each means as many
    distinct rows (a draw with replacement repeats rows: fewer leaves, some of two samples)."""
    X, y = _friedman(200)
    assert np.unique(y).size == 200
    est = GradientBoostingRegressor(
        subsample=0.6, max_depth=None, splitter="histogram", max_bins=256, n_estimators=5,
        random_state=0,
    ).fit(X, y)  # fmt: skip
    for (tree,) in est.trees_:
        assert tree.n_leaves == 120
        np.testing.assert_array_equal(tree.n_node_samples[tree.is_leaf], 1)


def test_features_sorted_once_grow_the_same_trees():
    """The exact finder from features sorted once (also restricted to a subsample) grows the
    same tree as from the raw features."""
    from prml14.trees import SquaredError, grow_tree, sort_features

    X, y = _friedman(300)
    crit = SquaredError()
    stats = crit.statistics(y - y.mean(), np.ones(300))
    rows = np.sort(np.random.default_rng(0).choice(300, 200, replace=False))
    for sorted_X, raw, st in [
        (sort_features(X), X, stats),
        (sort_features(X).take(rows), X[rows], stats[rows]),
    ]:
        a = grow_tree(sorted_X, st, crit, max_depth=4)
        b = grow_tree(raw, st, crit, max_depth=4)
        for name in ("feature", "threshold", "value", "impurity", "n_node_samples"):
            np.testing.assert_array_equal(getattr(a, name), getattr(b, name))
    with pytest.raises(ValueError, match="sorted"):
        grow_tree(sort_features(X), stats, crit, splitter="histogram")
