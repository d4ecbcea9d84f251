import itertools

import numpy as np
import pytest
from sklearn import tree as sk_tree
from sklearn.model_selection import KFold, StratifiedKFold

from prml14 import (
    DecisionTreeClassifier,
    DecisionTreeRegressor,
    cost_complexity,
    cross_validate_ccp_lambda,
    prune_to_lambda,
    weakest_link_path,
)
from prml14.trees import TREE_LEAF, pruning_costs
from tests.test_trees import tie_free_classification, tie_free_regression


def leaf_sse(model, X, t):
    """Σ_τ Q_τ computed directly from the leaves a tree assigns the training points to."""
    leaves = model.apply(X)
    return sum(((t[leaves == j] - t[leaves == j].mean()) ** 2).sum() for j in np.unique(leaves))


@pytest.mark.equation("14.31")
def test_cost_complexity_definition():
    with pytest.raises(ValueError, match="leaf_costs must be non-negative"):
        cost_complexity([1.0, -2.0], 0.25)
    with pytest.raises(TypeError, match="lam"):
        cost_complexity([1.0, 2.0], "0.25")
    assert cost_complexity([1.0, 2.0, 0.5], 0.25) == pytest.approx(3.5 + 0.75)
    for lam in (-1.0, np.inf):
        with pytest.raises(ValueError, match="lam must"):
            cost_complexity([1.0], lam)
    with pytest.raises(ValueError, match="leaf_costs must be a non-empty 1-D array"):
        cost_complexity([], 1.0)


@pytest.mark.equation("14.31")
@pytest.mark.parametrize("max_depth", [None, 6])
def test_regression_path_equals_sklearn(max_depth):
    X, t = tie_free_regression(n=500)
    N = len(t)
    ours = DecisionTreeRegressor(max_depth=max_depth)
    path = ours.cost_complexity_pruning_path(X, t)
    ref = sk_tree.DecisionTreeRegressor(
        max_depth=max_depth, random_state=0
    ).cost_complexity_pruning_path(X, t)
    assert len(path["ccp_lambdas"]) == len(ref.ccp_alphas)
    np.testing.assert_allclose(path["ccp_lambdas"] / N, ref.ccp_alphas, rtol=1e-8, atol=1e-14)
    np.testing.assert_allclose(path["costs"] / N, ref.impurities, rtol=1e-8, atol=1e-14)
    # the same subtrees: between consecutive breakpoints the pruned fits agree
    lam = path["ccp_lambdas"]
    mids = np.unique(np.sqrt(lam[1:-1] * lam[2:]))[:: max(1, len(lam) // 15)]
    for m in mids:
        a = DecisionTreeRegressor(max_depth=max_depth, ccp_lambda=m).fit(X, t)
        b = sk_tree.DecisionTreeRegressor(
            max_depth=max_depth, ccp_alpha=m / N, random_state=0
        ).fit(X, t)
        assert a.get_n_leaves() == b.get_n_leaves()
        np.testing.assert_allclose(a.predict(X), b.predict(X), atol=1e-12)


@pytest.mark.equation("14.31")
def test_classification_path_with_growth_impurity_equals_sklearn():
    X, y, w = tie_free_classification(n=300)
    ours = DecisionTreeClassifier(max_depth=4, pruning_criterion="same")
    path = ours.cost_complexity_pruning_path(X, y, sample_weight=w)
    ref = sk_tree.DecisionTreeClassifier(max_depth=4, random_state=0).cost_complexity_pruning_path(
        X, y, sample_weight=w
    )
    np.testing.assert_allclose(
        path["ccp_lambdas"] / w.sum(), ref.ccp_alphas, rtol=1e-8, atol=1e-14
    )
    np.testing.assert_allclose(path["costs"] / w.sum(), ref.impurities, rtol=1e-8, atol=1e-14)


def all_prunings(tree):
    """Every pruned subtree of a small tree, as masks of the nodes collapsed into leaves."""
    inner = np.flatnonzero(tree.children_left != TREE_LEAF)
    for r in range(len(inner) + 1):
        for chosen in itertools.combinations(inner, r):
            mask = np.zeros(tree.node_count, dtype=bool)
            mask[list(chosen)] = True
            yield mask


@pytest.mark.equation("14.31")
def test_pruned_tree_minimises_cost_complexity_brute_force():
    X, t = tie_free_regression(n=60, d=3, seed=4)
    model = DecisionTreeRegressor(max_depth=3).fit(X, t)
    tree = model.tree_
    costs = pruning_costs(tree)
    for lam in [0.0, 0.5, 2.0, 5.0, 20.0, 1e3]:
        best = min(
            cost_complexity(pruning_costs(sub)[sub.children_left == TREE_LEAF], lam)
            for sub in (tree.subtree(m) for m in all_prunings(tree))
        )
        pruned = prune_to_lambda(tree, costs, lam)
        got = cost_complexity(pruning_costs(pruned)[pruned.children_left == TREE_LEAF], lam)
        assert got == pytest.approx(best, rel=1e-12)


@pytest.mark.equation("14.30")
@pytest.mark.equation("14.31")
def test_path_costs_are_the_leaf_sums_of_squares():
    X, t = tie_free_regression(n=200)
    model = DecisionTreeRegressor().fit(X, t)
    path = weakest_link_path(model.tree_, pruning_costs(model.tree_))
    assert np.all(np.diff(path.lambdas) >= -1e-12) and np.all(np.diff(path.n_leaves) < 0)
    for step in [0, 5, 50, len(path.collapsed) // 2, len(path.collapsed)]:
        lam = path.lambdas[step] * (1 + 1e-9)
        pruned = DecisionTreeRegressor(ccp_lambda=lam).fit(X, t)
        last = np.flatnonzero(path.lambdas <= lam)[-1]  # every collapse with g <= λ is done
        assert pruned.get_n_leaves() == path.n_leaves[last]
        assert leaf_sse(pruned, X, t) == pytest.approx(path.costs[last], rel=1e-9)


@pytest.mark.parametrize("pruning_criterion", ["misclassification", "same"])
def test_breakpoints_are_never_negative(pruning_criterion):
    # tied inputs: many splits change no majority vote, so g = 0 up to rounding (once -2e-16,
    # which ccp_lambda then refused)
    rng = np.random.default_rng(1)
    X = rng.integers(0, 4, size=(300, 3)).astype(float)
    y = rng.integers(0, 3, size=300)
    est = DecisionTreeClassifier(pruning_criterion=pruning_criterion)
    path = est.cost_complexity_pruning_path(X, y)
    assert path["ccp_lambdas"].min() >= 0 and np.all(np.diff(path["ccp_lambdas"]) >= 0)
    for lam in path["ccp_lambdas"][:5]:
        est.set_params(ccp_lambda=lam).fit(X, y)


def test_classifier_prunes_with_misclassification_by_default():
    X, y, _ = tie_free_classification(n=300, k=2)
    full = DecisionTreeClassifier(criterion="entropy", max_depth=4).fit(X, y)
    pruned = DecisionTreeClassifier(criterion="entropy", max_depth=4, ccp_lambda=1e-9).fit(X, y)
    # a split that changes no majority vote has g = 0 under the misclassification cost
    assert pruned.get_n_leaves() < full.get_n_leaves()
    assert np.mean(pruned.predict(X) != y) == pytest.approx(np.mean(full.predict(X) != y))


def test_cross_validation_helper():
    rng = np.random.default_rng(0)
    X = rng.uniform(size=(300, 2))
    t = np.where(X[:, 0] > 0.5, 1.0, 0.0) + 0.3 * rng.normal(size=300)
    res = cross_validate_ccp_lambda(DecisionTreeRegressor(), X, t, cv=5, random_state=0)
    assert res["lambdas"].shape == res["cv_error"].shape == res["cv_std"].shape
    assert (
        res["cv_error"][np.searchsorted(res["lambdas"], res["best_lambda"])]
        == res["cv_error"].min()
    )
    assert res["one_se_lambda"] >= res["best_lambda"]
    model = DecisionTreeRegressor(ccp_lambda=res["best_lambda"]).fit(X, t)
    assert model.get_n_leaves() < DecisionTreeRegressor().fit(X, t).get_n_leaves()
    again = cross_validate_ccp_lambda(DecisionTreeRegressor(), X, t, cv=5, random_state=0)
    np.testing.assert_array_equal(again["cv_error"], res["cv_error"])
    # oracle: refit a pruned tree in every fold for a few candidates and score it directly
    folds = list(KFold(5, shuffle=True, random_state=0).split(X))
    for c in range(0, len(res["lambdas"]), 7):
        errors = [
            np.mean(
                (
                    DecisionTreeRegressor(ccp_lambda=res["lambdas"][c])
                    .fit(X[tr], t[tr])
                    .predict(X[te])
                    - t[te]
                )
                ** 2
            )
            for tr, te in folds
        ]
        assert res["cv_error"][c] == pytest.approx(np.mean(errors), rel=1e-12)
        assert res["cv_std"][c] == pytest.approx(np.std(errors, ddof=1), rel=1e-9)
    with pytest.raises(ValueError, match="cv must be an integer >= 2"):
        cross_validate_ccp_lambda(DecisionTreeRegressor(), X, t, cv=1)


@pytest.mark.equation("14.31")
def test_one_standard_error_rule_takes_the_largest_lambda_within_one_standard_error():
    # Breiman et al.'s rule: the simplest tree (largest λ) whose mean CV error is within one
    # standard error, s/√cv, of the smallest mean
    rng = np.random.default_rng(0)
    X = rng.uniform(size=(200, 2))
    t = np.where(X[:, 0] > 0.5, 1.0, 0.0) + X[:, 1] + 0.5 * rng.normal(size=200)
    estimator = DecisionTreeRegressor(max_depth=6)
    res = cross_validate_ccp_lambda(estimator, X, t, cv=5, random_state=0)
    mean, std, lambdas = res["cv_error"], res["cv_std"], res["lambdas"]
    best = np.argmin(mean)
    assert res["best_lambda"] == lambdas[best]
    assert res["one_se_lambda"] == lambdas[mean <= mean[best] + std[best] / np.sqrt(5)].max()
    # the data tell the rule from its look-alikes: one standard deviation instead of one
    # standard error, or the smallest λ within the band, would pick another λ
    assert res["one_se_lambda"] != lambdas[mean <= mean[best] + std[best]].max()
    assert res["one_se_lambda"] != lambdas[mean <= mean[best] + std[best] / np.sqrt(5)].min()


def test_cross_validation_helper_for_classifiers_refits_each_fold():
    X, y, _ = tie_free_classification(n=300, k=2)
    est = DecisionTreeClassifier(criterion="entropy", max_depth=6)
    res = cross_validate_ccp_lambda(est, X, y, cv=4, n_lambdas=8, random_state=1)
    assert res["lambdas"].size <= 8 and res["lambdas"][0] == 0.0
    folds = list(StratifiedKFold(4, shuffle=True, random_state=1).split(X, y))
    for lam, cv_error in zip(res["lambdas"], res["cv_error"], strict=True):
        errors = [
            np.mean(est.set_params(ccp_lambda=lam).fit(X[tr], y[tr]).predict(X[te]) != y[te])
            for tr, te in folds
        ]
        assert cv_error == pytest.approx(np.mean(errors), rel=1e-12)


def test_cross_validation_helper_checks_its_data_first():
    X, t = tie_free_regression(n=40)
    with pytest.raises(ValueError, match="X and y have inconsistent numbers of samples"):
        cross_validate_ccp_lambda(DecisionTreeRegressor(), X, t[:-1], cv=2)
    with pytest.raises(ValueError, match="y must be a 1-D array"):
        cross_validate_ccp_lambda(DecisionTreeRegressor(), X, t[:, None], cv=2)
    with pytest.raises(ValueError, match="random_state"):
        cross_validate_ccp_lambda(DecisionTreeRegressor(), X, t, cv=2, random_state=-1)
