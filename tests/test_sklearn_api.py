"""The scikit-learn API pieces users reach for first (issue 22), scikit-learn as the oracle
where the definitions coincide."""

import numpy as np
import pytest
from scipy.special import logsumexp
from sklearn import tree as sk_tree
from sklearn.datasets import make_classification
from sklearn.utils.class_weight import compute_sample_weight

from prml14 import (
    AdaBoostClassifier,
    BaggingClassifier,
    DecisionTreeClassifier,
    DecisionTreeRegressor,
    GentleAdaBoostClassifier,
    GradientBoostingClassifier,
    GradientBoostingRegressor,
    LogitBoostClassifier,
    RandomForestClassifier,
    RealAdaBoostClassifier,
)


@pytest.fixture(scope="module")
def imbalanced():
    return make_classification(300, n_features=5, weights=[0.8], random_state=0)


def test_tree_class_weight_matches_scikit_learn(imbalanced):
    X, y = imbalanced
    for cw in ["balanced", {0: 1.0, 1: 3.0}]:
        ours = DecisionTreeClassifier(class_weight=cw, max_depth=3).fit(X, y)
        theirs = sk_tree.DecisionTreeClassifier(class_weight=cw, max_depth=3).fit(X, y)
        np.testing.assert_array_equal(ours.predict(X), theirs.predict(X))
        np.testing.assert_allclose(ours.predict_proba(X), theirs.predict_proba(X), atol=1e-12)


def test_forest_class_weight_is_the_weighted_fit(imbalanced):
    X, y = imbalanced
    balanced = RandomForestClassifier(5, class_weight="balanced", random_state=0).fit(X, y)
    weighted = RandomForestClassifier(5, random_state=0).fit(
        X, y, sample_weight=compute_sample_weight("balanced", y)
    )
    np.testing.assert_array_equal(balanced.predict_proba(X), weighted.predict_proba(X))
    # balanced_subsample: each tree balances its own bootstrap sample (draws counted)
    sub = RandomForestClassifier(3, class_weight="balanced_subsample", random_state=0).fit(X, y)
    for est, rows in zip(sub.estimators_, sub.estimators_samples_, strict=True):
        u, k = np.unique(rows, return_counts=True)
        w = k * compute_sample_weight("balanced", y, indices=rows)[u]
        tree = DecisionTreeClassifier(max_features="sqrt", random_state=est.random_state)
        tree.fit(X[u], y[u], sample_weight=w)
        np.testing.assert_array_equal(tree.tree_.threshold, est.tree_.threshold)


@pytest.mark.parametrize("depth", [1, 2])
def test_tree_feature_importances_match_scikit_learn(depth):
    # shallow trees: deeper nodes of two samples tie on every feature, and scikit-learn breaks
    # such ties at random, we by the lowest feature
    X, y = make_classification(200, n_features=6, random_state=1)
    ours = DecisionTreeClassifier(max_depth=depth).fit(X, y)
    theirs = sk_tree.DecisionTreeClassifier(max_depth=depth, random_state=0).fit(X, y)
    np.testing.assert_allclose(ours.feature_importances_, theirs.feature_importances_, atol=1e-9)
    t = X[:, 0] * 2 + X[:, 1] + np.random.default_rng(0).normal(size=len(y))
    ours = DecisionTreeRegressor(max_depth=depth + 1).fit(X, t)
    theirs = sk_tree.DecisionTreeRegressor(max_depth=depth + 1).fit(X, t)
    np.testing.assert_allclose(ours.feature_importances_, theirs.feature_importances_, atol=1e-9)


def test_log_loss_is_entropy(imbalanced):
    X, y = imbalanced
    a = DecisionTreeClassifier(criterion="log_loss").fit(X, y)
    b = DecisionTreeClassifier(criterion="entropy").fit(X, y)
    np.testing.assert_array_equal(a.tree_.threshold, b.tree_.threshold)
    forest = RandomForestClassifier(3, criterion="log_loss", random_state=0).fit(X, y)
    assert forest.score(X, y) > 0.9


def test_decision_path_holds_the_leaf_and_its_ancestors(imbalanced):
    X, y = imbalanced
    ours = DecisionTreeClassifier(max_depth=4).fit(X, y)
    path = ours.decision_path(X)
    leaf = ours.apply(X)
    assert np.all(path[np.arange(len(X)), leaf] == 1)
    np.testing.assert_array_equal(np.asarray(path.sum(axis=1)).ravel(), ours.tree_.depth[leaf] + 1)
    theirs = sk_tree.DecisionTreeClassifier(max_depth=4).fit(X, y)  # the same tree
    np.testing.assert_array_equal(path.sum(axis=1), theirs.decision_path(X).sum(axis=1))


PROBABILISTIC = [
    lambda: DecisionTreeClassifier(max_depth=3),
    lambda: RandomForestClassifier(5, random_state=0),
    lambda: BaggingClassifier(n_estimators=5, random_state=0),
    lambda: AdaBoostClassifier(n_estimators=20),
    lambda: GradientBoostingClassifier(n_estimators=20),
    lambda: RealAdaBoostClassifier(n_estimators=10),
    lambda: GentleAdaBoostClassifier(n_estimators=10),
    lambda: LogitBoostClassifier(n_estimators=10),
]


@pytest.mark.parametrize("make", PROBABILISTIC)
@pytest.mark.parametrize("n_classes", [2, 3])
def test_predict_log_proba_is_the_log_of_predict_proba(make, n_classes):
    X, y = make_classification(
        150, n_features=5, n_informative=3, n_classes=n_classes, random_state=0
    )
    est = make()
    binary = (RealAdaBoostClassifier, GentleAdaBoostClassifier, LogitBoostClassifier)
    if n_classes > 2 and isinstance(est, binary):
        pytest.skip("a two-class booster")
    est.fit(X, y)
    log_p = est.predict_log_proba(X)
    with np.errstate(divide="ignore"):
        np.testing.assert_allclose(log_p, np.log(est.predict_proba(X)), rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(logsumexp(log_p, axis=1), 0.0, atol=1e-9)


def test_log_proba_stays_finite_where_the_probability_underflows():
    X, y = make_classification(100, n_features=4, class_sep=5.0, random_state=0)
    est = GradientBoostingClassifier(n_estimators=200, learning_rate=1.0, max_depth=3)
    est.fit(X, y)
    assert np.any(est.predict_proba(X) == 0.0) or np.any(est.predict_proba(X) == 1.0)
    assert np.all(np.isfinite(est.predict_log_proba(X)))


def test_adaboost_staged_predict_proba_and_importances(imbalanced):
    X, y = imbalanced
    est = AdaBoostClassifier(DecisionTreeClassifier(max_depth=2), n_estimators=6).fit(X, y)
    stages = list(est.staged_predict_proba(X))
    assert len(stages) == len(est.estimators_)
    np.testing.assert_allclose(stages[-1], est.predict_proba(X), rtol=1e-12)
    # the α-weighted average of the members' importances (scikit-learn's definition)
    alpha = est.estimator_weights_
    members = zip(alpha, est.estimators_, strict=True)
    expected = sum(a * m.feature_importances_ for a, m in members)
    np.testing.assert_allclose(est.feature_importances_, expected / alpha.sum())
    stumps = AdaBoostClassifier(n_estimators=6).fit(X, y)  # default stump learner
    assert np.isclose(stumps.feature_importances_.sum(), 1.0)
    assert np.all(stumps.feature_importances_[[m.feature_ for m in stumps.estimators_]] > 0)


@pytest.mark.parametrize("n_classes", [2, 3])
def test_gradient_boosting_apply_gives_the_leaves_of_every_tree(n_classes):
    X, y = make_classification(
        120, n_features=5, n_informative=3, n_classes=n_classes, random_state=0
    )
    est = GradientBoostingClassifier(n_estimators=4, max_depth=2).fit(X, y)
    leaves = est.apply(X)
    K = 1 if n_classes == 2 else n_classes
    assert leaves.shape == (len(X), 4, K)
    for m, trees in enumerate(est.trees_):
        for k, tree in enumerate(trees):
            np.testing.assert_array_equal(leaves[:, m, k], tree.apply(X))
            assert np.all(tree.is_leaf[leaves[:, m, k]])
    reg = GradientBoostingRegressor(n_estimators=3).fit(X, X[:, 0])
    assert reg.apply(X).shape == (len(X), 3, 1)
