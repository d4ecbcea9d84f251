"""Random forests and feature importances: a forest of one tree is our tree; the forest is the
bagging committee of hand-grown randomised trees; out-of-bag estimates (B.31) against brute
force, 1/e and held-out scores; held-out error on par with scikit-learn's RandomForest* over
seeds; the variance of a correlated average (B.30); impurity importances (B.32) by hand and
against scikit-learn's trees; permutation importances (B.33) equal to scikit-learn's."""

import os

import numpy as np
import pytest
from sklearn.datasets import make_classification, make_friedman1
from sklearn.ensemble import RandomForestClassifier as SkRandomForestClassifier
from sklearn.ensemble import RandomForestRegressor as SkRandomForestRegressor
from sklearn.exceptions import NotFittedError
from sklearn.inspection import permutation_importance as sk_permutation_importance
from sklearn.metrics import make_scorer, mean_absolute_error
from sklearn.tree import DecisionTreeClassifier as SkDecisionTreeClassifier
from sklearn.tree import DecisionTreeRegressor as SkDecisionTreeRegressor
from sklearn.utils.estimator_checks import parametrize_with_checks

from prml14 import (
    BaggingRegressor,
    DecisionTreeClassifier,
    DecisionTreeRegressor,
    RandomForestClassifier,
    RandomForestRegressor,
    bootstrap_indices,
    correlated_average_variance,
    expected_oob_fraction,
    impurity_importances,
    mean_decrease_in_impurity,
    oob_permutation_importance,
    out_of_bag_mask,
    out_of_bag_prediction,
    permutation_importance,
    permutation_indices,
)
from prml14.trees import Tree

SKLEARN_REASON = "sample_weight is not equivalent to removing/repeating samples."


def _expected_failed_checks(estimator):
    # scikit-learn's own RandomForest* are excluded from this check with this reason
    return {"check_sample_weight_equivalence_on_dense_data": SKLEARN_REASON}


@parametrize_with_checks(
    [
        RandomForestRegressor(n_estimators=5, random_state=0),
        RandomForestClassifier(n_estimators=5, random_state=0),
    ],
    expected_failed_checks=_expected_failed_checks,
)
def test_sklearn_compatible(estimator, check):
    check(estimator)


def _float32(X):
    return X.astype(np.float32).astype(np.float64)


@pytest.fixture(scope="module")
def friedman():
    X, y = make_friedman1(600, n_features=8, noise=0.5, random_state=0)
    return _float32(X), y


@pytest.fixture(scope="module")
def classes():
    X, y = make_classification(
        500, n_features=8, n_informative=4, n_classes=3, random_state=0, class_sep=1.5
    )
    return _float32(X), y


# ----------------------------------------------------------------------------- the forest
def test_a_forest_of_one_unrandomised_tree_is_our_tree(friedman, classes):
    X, y = friedman
    one = RandomForestRegressor(1, max_features=None, bootstrap=False).fit(X, y)
    tree = DecisionTreeRegressor().fit(X, y)
    np.testing.assert_array_equal(one.estimators_[0].tree_.threshold, tree.tree_.threshold)
    np.testing.assert_array_equal(one.predict(X[:200]), tree.predict(X[:200]))
    # fresh points too: the forest walks its trees with its own loop, the tree with Tree.apply
    fresh = np.random.default_rng(5).uniform(-0.1, 1.1, size=(3000, 8))
    np.testing.assert_array_equal(one.predict(fresh), tree.predict(fresh))
    Xc, yc = classes
    one = RandomForestClassifier(1, max_features=None, bootstrap=False).fit(Xc, yc)
    tree = DecisionTreeClassifier().fit(Xc, yc)
    np.testing.assert_array_equal(one.predict_proba(Xc), tree.predict_proba(Xc))
    fresh = np.random.default_rng(6).normal(scale=2.0, size=(3000, 8))
    np.testing.assert_array_equal(one.predict_proba(fresh), tree.predict_proba(fresh))
    np.testing.assert_array_equal(one.predict(Xc), tree.predict(Xc))


@pytest.mark.equation("14.7")
def test_forest_is_the_committee_of_hand_grown_randomised_trees(friedman):
    X, y = friedman
    M = 6
    forest = RandomForestRegressor(M, max_features="sqrt", min_samples_leaf=2, random_state=7)
    forest.fit(X, y)
    rng = np.random.RandomState(7)  # bagging's stream: the bootstrap, then the trees' seeds
    indices = bootstrap_indices(len(y), M, random_state=rng)
    seeds = rng.randint(np.iinfo(np.int32).max, size=M)
    hand = []
    for m in range(M):
        rows, counts = np.unique(indices[m], return_counts=True)
        tree = DecisionTreeRegressor(
            max_features="sqrt", min_samples_leaf=2, random_state=seeds[m]
        )
        hand.append(tree.fit(X[rows], y[rows], sample_weight=counts).predict(X))
        np.testing.assert_array_equal(forest.estimators_samples_[m], indices[m])
    np.testing.assert_allclose(forest.predict(X), np.mean(hand, axis=0), rtol=1e-13)
    # without the feature draws a forest is bagging of our trees
    bag = BaggingRegressor(n_estimators=M, random_state=7).fit(X, y)
    bagged_forest = RandomForestRegressor(M, max_features=None, random_state=7).fit(X, y)
    np.testing.assert_allclose(bagged_forest.predict(X), bag.predict(X), rtol=1e-13)


def test_feature_draws_make_different_trees_than_bagging(friedman):
    X, y = friedman
    a = RandomForestRegressor(3, max_features=2, random_state=0).fit(X, y)
    b = RandomForestRegressor(3, max_features=None, random_state=0).fit(X, y)
    assert not np.allclose(a.predict(X), b.predict(X))
    # the draw happens per node: a tree of k = 2 uses more than two features overall
    assert len(np.unique(a.estimators_[0].tree_.feature[a.estimators_[0].tree_.feature >= 0])) > 2


def test_same_random_state_same_model_and_n_jobs_does_not_matter(friedman, classes):
    X, y = friedman
    kw = dict(n_estimators=23, max_features="log2", oob_score=True, random_state=3)
    a = RandomForestRegressor(**kw, n_jobs=1).fit(X, y)
    b = RandomForestRegressor(**kw, n_jobs=2).fit(X, y)
    c = RandomForestRegressor(**kw).fit(X, y)
    for other in (b, c):
        np.testing.assert_array_equal(a.predict(X), other.predict(X))
        np.testing.assert_array_equal(a.oob_prediction_, other.oob_prediction_)
        np.testing.assert_array_equal(a.feature_importances_, other.feature_importances_)
    assert not np.array_equal(
        a.predict(X), RandomForestRegressor(**{**kw, "random_state": 4}).fit(X, y).predict(X)
    )
    Xc, yc = classes
    p1 = RandomForestClassifier(23, random_state=0, n_jobs=1).fit(Xc, yc).predict_proba(Xc)
    p2 = RandomForestClassifier(23, random_state=0, n_jobs=2).fit(Xc, yc).predict_proba(Xc)
    np.testing.assert_array_equal(p1, p2)


@pytest.mark.parametrize("backend", ["loky", "multiprocessing", "threading", "sequential"])
def test_fit_runs_in_joblibs_backends_with_identical_forests(classes, backend):
    # the fit goes through joblib.parallel_config: processes by default, any backend on demand
    import joblib

    Xc, yc = classes
    kw = dict(n_estimators=8, random_state=0, n_jobs=2)
    ref = RandomForestClassifier(**{**kw, "n_jobs": 1}).fit(Xc, yc)
    with joblib.parallel_config(backend=backend):
        forest = RandomForestClassifier(**kw).fit(Xc, yc)
    for a, b in zip(ref.estimators_, forest.estimators_, strict=True):
        np.testing.assert_array_equal(a.tree_.feature, b.tree_.feature)
        np.testing.assert_array_equal(a.tree_.threshold, b.tree_.threshold)
    np.testing.assert_array_equal(ref.predict_proba(Xc), forest.predict_proba(Xc))


def test_max_features_sets_the_number_of_drawn_features(friedman):
    X, y = friedman  # D = 8
    expected = {"sqrt": 2, "log2": 3, None: 8, 5: 5, 0.5: 4, 0.01: 1}
    for value, k in expected.items():
        forest = RandomForestRegressor(2, max_features=value, random_state=0).fit(X, y)
        assert forest.estimators_[0].max_features == value
        assert forest.estimators_[0]._n_features_split(8) == k


def test_classifier_with_string_labels_and_a_class_missing_from_a_bootstrap_sample():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 3))
    y = np.array(["a"] * 58 + ["b", "c"])  # rare classes: some bootstrap samples miss them
    forest = RandomForestClassifier(15, random_state=0, oob_score=True).fit(X, y)
    assert any(len(est.classes_) < 3 for est in forest.estimators_)
    proba = forest.predict_proba(X)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    assert set(forest.predict(X)) <= {"a", "b", "c"}
    # by hand: each tree's proportions, its columns placed at the labels it saw, averaged
    X_new = np.vstack([X, rng.normal(size=(40, 3))])
    total = np.zeros((len(X_new), 3))
    for est in forest.estimators_:
        labels = forest.classes_[est.classes_.astype(int)]  # the tree learnt encoded labels
        total[:, np.searchsorted(forest.classes_, labels)] += est.predict_proba(X_new)
    np.testing.assert_allclose(forest.predict_proba(X_new), total / 15, rtol=1e-12)
    assert np.any(forest.predict_proba(X_new)[:, 2] > 0)  # class "c" gets some probability


# ----------------------------------------------------------------------------- out of bag
@pytest.mark.equation("B.31")
def test_oob_prediction_is_the_average_over_out_of_bag_trees(friedman, classes):
    X, y = friedman
    forest = RandomForestRegressor(30, max_features=3, oob_score=True, random_state=1).fit(X, y)
    mask = out_of_bag_mask(forest.estimators_samples_, len(y))
    Y = forest.member_predictions(X)
    pred, count = out_of_bag_prediction(Y, mask)
    np.testing.assert_allclose(forest.oob_prediction_, pred, rtol=1e-12)
    n = 5  # brute force for one point
    members = [m for m in range(30) if n not in set(forest.estimators_samples_[m])]
    assert count[n] == len(members)
    assert pred[n] == pytest.approx(np.mean([Y[n, m] for m in members]), rel=1e-12)
    Xc, yc = classes
    forest = RandomForestClassifier(30, oob_score=True, random_state=1).fit(Xc, yc)
    mask = out_of_bag_mask(forest.estimators_samples_, len(yc))
    P = np.stack([est.predict_proba(Xc) for est in forest.estimators_], axis=1)
    assert P.shape == (len(yc), 30, 3)  # all classes are in every bootstrap sample here
    dec, _ = out_of_bag_prediction(P, mask)
    np.testing.assert_allclose(forest.oob_decision_function_, dec, rtol=1e-12)
    assert forest.oob_score_ == pytest.approx(np.mean(forest.classes_[dec.argmax(1)] == yc))


def test_out_of_bag_fraction_is_near_one_over_e(friedman):
    X, y = friedman
    N, M = len(y), 200
    forest = RandomForestRegressor(M, max_depth=1, random_state=0).fit(X, y)
    fraction = out_of_bag_mask(forest.estimators_samples_, N).mean()
    p = expected_oob_fraction(N)
    # N·M indicators (negatively dependent within a tree, so the binomial sd is an upper bound)
    sd = np.sqrt(p * (1 - p) / (N * M))
    assert abs(fraction - p) < 4 * sd
    assert abs(p - np.exp(-1)) < 1e-3


@pytest.mark.slow
@pytest.mark.equation("B.31")
def test_oob_score_tracks_the_held_out_score():
    gaps = []
    for seed in range(4):
        X, y = make_friedman1(1400, noise=1.0, random_state=seed)
        forest = RandomForestRegressor(60, max_features=0.5, oob_score=True, random_state=seed)
        forest.fit(X[:400], y[:400])
        gaps.append(forest.oob_score_ - forest.score(X[400:], y[400:]))
    # R² around 0.8: the gap's spread over seeds is about 0.02; its mean must be near zero
    assert abs(np.mean(gaps)) < 0.03 and max(np.abs(gaps)) < 0.06


@pytest.mark.slow
def test_held_out_error_on_par_with_scikit_learn_over_seeds():
    ours_mse, sk_mse, ours_acc, sk_acc = [], [], [], []
    for seed in range(5):
        X, y = make_friedman1(1300, noise=1.0, random_state=seed)
        kw = dict(n_estimators=50, max_features=0.5, min_samples_leaf=2, random_state=seed)
        for model, out in ((RandomForestRegressor, ours_mse), (SkRandomForestRegressor, sk_mse)):
            pred = model(**kw).fit(X[:300], y[:300]).predict(X[300:])
            out.append(np.mean((pred - y[300:]) ** 2))
        Xc, yc = make_classification(
            1300, n_features=10, n_informative=5, flip_y=0.05, random_state=seed
        )
        kw = dict(n_estimators=50, random_state=seed)
        for model, out in ((RandomForestClassifier, ours_acc), (SkRandomForestClassifier, sk_acc)):
            out.append(model(**kw).fit(Xc[:300], yc[:300]).score(Xc[300:], yc[300:]))
    # Same algorithm, different random numbers. Per seed the two test MSEs (about 5.5) differ
    # by up to about 6 % and the accuracies (about 0.85) by up to 0.015; averaged over 5 seeds
    # the standard error of the difference is about 1.3 % and 0.005, so 5 % and 0.02 are about
    # four standard errors.
    assert abs(np.mean(ours_mse) / np.mean(sk_mse) - 1) < 0.05, (ours_mse, sk_mse)
    assert abs(np.mean(ours_acc) - np.mean(sk_acc)) < 0.02, (ours_acc, sk_acc)


# ----------------------------------------------------------------------------- (B.30)
@pytest.mark.equation("B.30")
def test_variance_of_a_correlated_average_closed_form_and_monte_carlo():
    M, sigma2, rho = 7, 2.0, 0.3
    assert correlated_average_variance(sigma2, 0.0, M) == pytest.approx(sigma2 / M)  # (14.14)
    assert correlated_average_variance(sigma2, 1.0, M) == pytest.approx(sigma2)
    C = sigma2 * ((1 - rho) * np.eye(M) + rho)  # equicorrelated covariance
    # exact: Var[mean] = 1ᵀC1 / M²
    assert correlated_average_variance(sigma2, rho, M) == pytest.approx(C.sum() / M**2)
    draws = np.random.default_rng(0).multivariate_normal(np.zeros(M), C, size=200_000)
    var = draws.mean(axis=1).var()
    # the sample variance of 2e5 normal draws has relative sd sqrt(2/2e5) = 0.3 %
    assert var == pytest.approx(correlated_average_variance(sigma2, rho, M), rel=0.015)
    np.testing.assert_allclose(
        correlated_average_variance(np.array([1.0, 2.0]), np.array([0.0, 0.5]), 4),
        [0.25, 2.0 * (0.5 + 0.5 / 4)],
    )


def test_correlated_average_variance_bad_input():
    with pytest.raises(ValueError, match="correlation must lie in"):
        correlated_average_variance(1.0, -0.6, 3)  # below -1/(M - 1) = -0.5
    with pytest.raises(ValueError, match="correlation must lie in"):
        correlated_average_variance(1.0, 1.5, 3)
    with pytest.raises(ValueError, match="variance must be finite and >= 0"):
        correlated_average_variance(-1.0, 0.5, 3)
    with pytest.raises(ValueError, match="n_members == 0, must be >= 1"):
        correlated_average_variance(1.0, 0.5, 0)


# ----------------------------------------------------------------------------- (B.32)
@pytest.mark.equation("B.32")
def test_impurity_importances_by_hand_on_a_tiny_tree():
    # root (x0 <= 0.5): targets {0, 0, 4, 4} -> left {0, 0} (pure), right {4, 4} -> no;
    # make the right child split on x1 instead: targets 2, 6 there
    X = np.array([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]])
    t = np.array([0.0, 0.0, 2.0, 6.0])
    tree = DecisionTreeRegressor().fit(X, t).tree_
    assert list(tree.feature[tree.feature >= 0]) == [0, 1]
    # N_τ Q_τ (14.30): root Σ(t - 2)² = 4 + 4 + 0 + 16 = 24; left 0; right (2-4)² + (6-4)² = 8
    # decreases: root 24 - 0 - 8 = 16 (feature 0), right child 8 - 0 - 0 = 8 (feature 1)
    np.testing.assert_allclose(impurity_importances(tree, 2, normalize=False), [16.0, 8.0])
    np.testing.assert_allclose(impurity_importances(tree, 2), [2 / 3, 1 / 3])
    leaf = DecisionTreeRegressor().fit(X, np.ones(4)).tree_
    np.testing.assert_array_equal(impurity_importances(leaf, 2), [0.0, 0.0])


@pytest.mark.equation("B.32")
def test_impurity_importances_equal_scikit_learns_trees(friedman, classes):
    # shallow trees: deeper nodes hold cuts that tie between features, which scikit-learn
    # breaks at random and we break towards the lowest feature index
    X, y = friedman
    ours = DecisionTreeRegressor(max_depth=4).fit(X, y)
    sk = SkDecisionTreeRegressor(max_depth=4, random_state=0).fit(X, y)
    fresh = np.random.default_rng(1).uniform(size=(1000, 8))
    np.testing.assert_allclose(ours.predict(fresh), sk.predict(fresh))  # the same tree
    np.testing.assert_allclose(impurity_importances(ours.tree_, 8), sk.feature_importances_)
    Xc, yc = classes
    w = np.random.default_rng(0).integers(1, 4, size=len(yc)).astype(float)  # like counts
    ours = DecisionTreeClassifier(max_depth=3).fit(Xc, yc, sample_weight=w)
    sk = SkDecisionTreeClassifier(max_depth=3, random_state=0).fit(Xc, yc, sample_weight=w)
    np.testing.assert_allclose(ours.predict_proba(fresh), sk.predict_proba(fresh))
    np.testing.assert_allclose(impurity_importances(ours.tree_, 8), sk.feature_importances_)


@pytest.mark.equation("B.32")
def test_forest_importances_are_the_mean_of_normalised_tree_importances(friedman):
    X, y = friedman
    forest = RandomForestRegressor(10, max_features=3, max_depth=4, random_state=0).fit(X, y)
    imp = forest.feature_importances_
    assert imp.sum() == pytest.approx(1.0) and np.all(imp >= 0)
    per_tree = [impurity_importances(est.tree_, 8) for est in forest.estimators_]
    np.testing.assert_allclose(imp, np.mean(per_tree, axis=0), rtol=1e-12)
    np.testing.assert_allclose(
        mean_decrease_in_impurity([e.tree_ for e in forest.estimators_], 8), imp
    )
    # Friedman #1 uses x0..x4 only: the noise features x5..x7 get little
    assert imp[5:].sum() < 0.1
    stump = DecisionTreeRegressor().fit(X, np.ones(len(y))).tree_
    np.testing.assert_array_equal(mean_decrease_in_impurity([stump], 8), np.zeros(8))


# ----------------------------------------------------------------------------- (B.33)
@pytest.mark.equation("B.33")
@pytest.mark.parametrize("n_jobs", [None, 2])
def test_permutation_importance_equals_scikit_learns(friedman, classes, n_jobs):
    X, y = friedman
    forest = RandomForestRegressor(15, max_features=3, random_state=0).fit(X[:300], y[:300])
    Xt, yt = X[300:], y[300:]
    ours = permutation_importance(forest, Xt, yt, n_repeats=4, random_state=11, n_jobs=n_jobs)
    sk = sk_permutation_importance(forest, Xt, yt, n_repeats=4, random_state=11)
    np.testing.assert_array_equal(ours.importances, sk.importances)
    np.testing.assert_array_equal(ours.importances_mean, sk.importances_mean)
    np.testing.assert_array_equal(ours.importances_std, sk.importances_std)
    # a scorer and weights
    mae = make_scorer(mean_absolute_error, greater_is_better=False)
    w = np.linspace(0.5, 2.0, len(yt))
    ours = permutation_importance(forest, Xt, yt, scoring=mae, sample_weight=w, random_state=2)
    sk = sk_permutation_importance(forest, Xt, yt, scoring=mae, sample_weight=w, random_state=2)
    np.testing.assert_array_equal(ours.importances, sk.importances)
    Xc, yc = classes
    clf = RandomForestClassifier(15, random_state=0).fit(Xc[:300], yc[:300])
    ours = permutation_importance(clf, Xc[300:], yc[300:], scoring="neg_log_loss", random_state=5)
    sk = sk_permutation_importance(clf, Xc[300:], yc[300:], scoring="neg_log_loss", random_state=5)
    np.testing.assert_array_equal(ours.importances, sk.importances)


@pytest.mark.equation("B.33")
def test_permutation_importance_with_explicit_permutations_by_brute_force(friedman):
    X, y = friedman
    model = DecisionTreeRegressor(max_depth=5).fit(X[:300], y[:300])
    Xt, yt = X[300:400], y[300:400]
    rng = np.random.default_rng(0)
    perms = np.array([rng.permutation(100) for _ in range(3)])
    result = permutation_importance(model, Xt, yt, permutations=perms)
    base = model.score(Xt, yt)
    for j in range(8):
        for k in range(3):
            Xp = Xt.copy()
            Xp[:, j] = Xt[perms[k], j]
            assert result.importances[j, k] == pytest.approx(base - model.score(Xp, yt), abs=1e-14)
    assert result.baseline_score == base
    P = permutation_indices(100, 4, random_state=0)
    assert P.shape == (4, 100)
    np.testing.assert_array_equal(np.sort(P, axis=1), np.tile(np.arange(100), (4, 1)))


@pytest.mark.equation("B.31", "B.33")
def test_oob_permutation_importance_by_brute_force(friedman):
    X, y = friedman
    X, y = X[:200], y[:200]
    forest = RandomForestRegressor(25, max_features=3, oob_score=True, random_state=0).fit(X, y)
    result = oob_permutation_importance(forest, X, y, n_repeats=2, random_state=4)
    assert result.baseline_score == pytest.approx(forest.oob_score_, rel=1e-12)
    mask = out_of_bag_mask(forest.estimators_samples_, 200)
    perms = permutation_indices(200, 2, random_state=4)
    j, k = 3, 1
    Xp = X.copy()
    Xp[:, j] = X[perms[k], j]
    pred, count = out_of_bag_prediction(forest.member_predictions(Xp), mask)
    has = count > 0
    r2 = 1 - np.sum((y[has] - pred[has]) ** 2) / np.sum((y[has] - y[has].mean()) ** 2)
    assert result.importances[j, k] == pytest.approx(forest.oob_score_ - r2, rel=1e-10)
    # x3 is informative (10 x3 in Friedman #1), x6 is noise
    assert result.importances_mean[3] > 0.1 > abs(result.importances_mean[6])


def test_oob_permutation_importance_for_classifiers(classes):
    X, y = classes
    labels = np.array(["p", "q", "r"])[y]
    forest = RandomForestClassifier(25, oob_score=True, random_state=0).fit(X, labels)
    result = oob_permutation_importance(forest, X, labels, n_repeats=2, random_state=0, n_jobs=2)
    assert result.baseline_score == pytest.approx(forest.oob_score_)
    assert result.importances.shape == (8, 2)
    assert result.importances_mean.max() > 0.05


def test_importances_bad_input(friedman):
    X, y = friedman
    forest = RandomForestRegressor(3, random_state=0).fit(X, y)
    with pytest.raises(ValueError, match="permutations must hold permutations"):
        permutation_importance(forest, X[:10], y[:10], permutations=[[0] * 10])
    with pytest.raises(TypeError, match="permutations must be integers"):
        permutation_importance(forest, X[:3], y[:3], permutations=[[0.0, 1.0, 2.0]])
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        permutation_importance(forest, X[:10], y[:9])
    with pytest.raises(ValueError, match="n_repeats == 0, must be >= 1"):
        permutation_importance(forest, X[:10], y[:10], n_repeats=0)
    with pytest.raises(ValueError, match="X has 7 features"):
        oob_permutation_importance(forest, X[:, :7], y)
    no_oob = RandomForestRegressor(3, bootstrap=False, random_state=0).fit(X, y)
    with pytest.raises(ValueError, match="no point is out of bag"):
        oob_permutation_importance(no_oob, X, y)
    clf = RandomForestClassifier(3, random_state=0).fit(X, y > y.mean())
    with pytest.raises(ValueError, match="labels not seen in fit"):
        oob_permutation_importance(clf, X, np.full(len(y), 2))
    with pytest.raises(ValueError, match="matching oob_mask"):
        out_of_bag_prediction(np.zeros((5, 3)), np.ones((5, 4), dtype=bool))
    with pytest.raises(ValueError, match="cuts on feature"):
        impurity_importances(forest.estimators_[0].tree_, 1)
    assert isinstance(forest.estimators_[0].tree_, Tree)


# ----------------------------------------------------------------------------- bad input
def test_forest_bad_input(friedman):
    X, y = friedman
    with pytest.raises(ValueError, match="oob_score=True needs bootstrap=True"):
        RandomForestRegressor(3, bootstrap=False, oob_score=True).fit(X, y)
    with pytest.raises(ValueError, match="max_samples must be None when bootstrap=False"):
        RandomForestRegressor(3, bootstrap=False, max_samples=0.5).fit(X, y)
    with pytest.raises(ValueError, match="max_features must be <= n_features = 8"):
        RandomForestRegressor(3, max_features=9).fit(X, y)
    with pytest.raises(ValueError, match="'max_features' parameter"):
        RandomForestRegressor(3, max_features="half").fit(X, y)
    with pytest.raises(ValueError, match="'n_estimators' parameter"):
        RandomForestClassifier(0).fit(X, y > 0)
    with pytest.raises(ValueError, match="'criterion' parameter"):
        RandomForestClassifier(2, criterion="squared_error").fit(X, y > 0)
    bad = X.copy()
    bad[0, 0] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        RandomForestRegressor(2).fit(bad, y)
    with pytest.raises(ValueError, match="Unknown label type"):
        RandomForestClassifier(2).fit(X, y)
    with pytest.warns(UserWarning, match="no out-of-bag prediction"):
        RandomForestRegressor(2, oob_score=True, random_state=0).fit(X[:50], y[:50])
    with pytest.raises(NotFittedError):
        RandomForestRegressor(2).feature_importances_  # noqa: B018
    half = RandomForestRegressor(4, max_samples=0.5, random_state=0).fit(X, y)
    assert all(len(s) == 300 for s in half.estimators_samples_)


@pytest.mark.parametrize("n_jobs", [None, 2])
def test_permutation_importance_reuses_leaves_bit_for_bit(friedman, n_jobs):
    """The forest path (leaves reused, only rows whose path cuts on j walked again) gives what
    scikit-learn gets through predict: with weights, constant trees, one feature, 23 trees."""
    X, y = friedman
    w = np.linspace(0.5, 2.0, 100)
    cases = [
        (RandomForestRegressor(23, max_features=3, random_state=1).fit(X[:200], y[:200]), X),
        (RandomForestRegressor(3, random_state=0).fit(X[:200], np.ones(200)), X),
        (
            RandomForestRegressor(12, max_depth=3, random_state=0).fit(X[:200, :1], y[:200]),
            X[:, :1],
        ),
    ]
    for forest, data in cases:
        Xt, yt = data[300:400], y[300:400]
        ours = permutation_importance(
            forest, Xt, yt, n_repeats=3, random_state=7, sample_weight=w, n_jobs=n_jobs
        )
        sk = sk_permutation_importance(
            forest, Xt, yt, n_repeats=3, random_state=7, sample_weight=w
        )
        np.testing.assert_array_equal(ours.importances, sk.importances)
        assert ours.baseline_score == forest.score(Xt, yt, sample_weight=w)


def test_core_functions_refuse_bad_arguments_by_name():
    with pytest.raises(TypeError, match="oob_mask must hold booleans"):
        out_of_bag_prediction(np.zeros((2, 3)), np.full((2, 3), "a", dtype=object))
    # no point out of bag: NaN everywhere, as documented (no member can predict it)
    prediction, count = out_of_bag_prediction(np.zeros((2, 3)), np.zeros((2, 3), dtype=bool))
    assert np.isnan(prediction).all() and np.all(count == 0)
    with pytest.raises(TypeError, match="n_features"):
        mean_decrease_in_impurity([], 2.5)
    X, y = np.arange(12.0).reshape(6, 2), np.arange(6.0)
    tree = DecisionTreeRegressor(max_depth=1).fit(X, y)
    with pytest.raises(ValueError, match="random_state"):
        permutation_importance(tree, X, y, random_state=-1)
    with pytest.raises(ValueError, match="rescale y"):
        permutation_importance(tree, X, y * 1e300)
    with pytest.raises(ValueError, match="X and y have inconsistent numbers of samples"):
        permutation_importance(tree, X, y[:-1])


def test_sqrt_forest_matches_scikit_learns_accuracy_over_seeds():
    # the features are drawn before scoring, in another order than scikit-learn's: the forests
    # differ, so compare held-out accuracy over ten seeds (paired by data set)
    diffs = []
    for seed in range(10):
        X, y = make_classification(1500, 20, n_informative=6, random_state=seed)
        fit = (X[:1000], y[:1000])
        ours = RandomForestClassifier(30, random_state=seed).fit(*fit).score(X[1000:], y[1000:])
        sk = SkRandomForestClassifier(30, random_state=seed).fit(*fit).score(X[1000:], y[1000:])
        diffs.append(ours - sk)
    diffs = np.array(diffs)
    assert abs(diffs.mean()) <= 3 * diffs.std(ddof=1) / np.sqrt(len(diffs)) + 1e-3


@pytest.mark.skipif(  # digests of today's numpy (see test_gradient_boosting_histograms.py)
    bool(os.environ.get("PRML14_MIN_VERSIONS")), reason="digests of today's numpy"
)
@pytest.mark.parametrize(
    "max_features, classifier_digest, regressor_digest",
    [
        ("sqrt", "89b0bdcb09b25ec7", "1992be480ab275c1"),
        (1.0, "2339b3875d81de0d", "b1966bb94f822cc5"),
    ],
)
def test_fixed_seed_forests_keep_their_trees(max_features, classifier_digest, regressor_digest):
    # the structure (children, features, thresholds) of fixed-seed forests, recorded before the
    # per-node sort of the drawn features replaced the partitioned orders: a speed-up must not
    # change a tree; a change of the draws on purpose re-records these digests (and the pages)
    import hashlib

    X, t = make_friedman1(n_samples=300, n_features=9, noise=1.0, random_state=0)
    X = np.round(X, 2)  # ties
    y = (t > np.median(t)).astype(int) + (t > np.quantile(t, 0.8))

    def digest(forest):
        h = hashlib.sha256()
        for est in forest.estimators_:
            tr = est.tree_
            for a in (tr.children_left, tr.children_right, tr.feature, tr.threshold):
                h.update(np.ascontiguousarray(a, dtype=np.float64).tobytes())
        return h.hexdigest()[:16]

    kw = {"max_features": max_features, "random_state": 0}
    assert digest(RandomForestClassifier(6, **kw).fit(X, y)) == classifier_digest
    assert digest(RandomForestRegressor(6, **kw).fit(X, t)) == regressor_digest
