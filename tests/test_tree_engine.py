"""The tree engine: criteria, grow_tree with per-sample statistics, the histogram finder, and
the pruning costs."""

import itertools

import numpy as np
import pytest
from sklearn.utils.estimator_checks import parametrize_with_checks

from prml14 import (
    DecisionTreeClassifier,
    DecisionTreeRegressor,
    grow_tree,
    pruning_costs,
    sum_of_squares,
)
from prml14.trees import (
    TREE_LEAF,
    Entropy,
    Gini,
    Misclassification,
    SecondOrder,
    SquaredError,
    bin_features,
    cross_entropy_impurity,
    gini_impurity,
    misclassification_impurity,
    second_order_leaf_value,
    second_order_split_gain,
    sort_features,
)
from tests.test_trees import ZERO_WEIGHT_REASON, tie_free_classification, tie_free_regression


def assert_same_tree(a, b, thresholds=True, rtol=1e-9):
    np.testing.assert_array_equal(a.children_left, b.children_left)
    np.testing.assert_array_equal(a.children_right, b.children_right)
    np.testing.assert_array_equal(a.feature, b.feature)
    np.testing.assert_array_equal(a.n_node_samples, b.n_node_samples)
    np.testing.assert_allclose(a.weighted_n_node_samples, b.weighted_n_node_samples, rtol=rtol)
    np.testing.assert_allclose(a.value, b.value, rtol=rtol, atol=1e-12)
    if thresholds:
        np.testing.assert_array_equal(a.threshold, b.threshold)


# --- criteria: the split score is the tagged impurities' N_L Q_L + N_R Q_R up to a constant ------
@pytest.mark.equation("14.32")
@pytest.mark.equation("14.33")
@pytest.mark.parametrize(
    "crit, impurity",
    [
        (Gini(3), gini_impurity),
        (Entropy(3), cross_entropy_impurity),
        (Misclassification(3), misclassification_impurity),
    ],
)
def test_class_split_score_is_minus_weighted_child_impurities(crit, impurity):
    rng = np.random.default_rng(0)
    total = rng.uniform(1, 5, size=3)
    left = total[:, None] * rng.uniform(0.01, 0.99, size=(3, 50))
    right = total[:, None] - left
    WL, WR = left.sum(axis=0), right.sum(axis=0)
    score = crit.split_score(left.copy(), right.copy(), WL, WR)
    cost = WL * impurity((left / WL).T) + WR * impurity((right / WR).T)
    np.testing.assert_allclose(score + cost, (score + cost)[0], rtol=1e-12, atol=1e-12)
    # and the node impurity is the tagged function of the node's proportions
    np.testing.assert_allclose(crit.node_impurity(left), impurity((left / WL).T))


@pytest.mark.equation("14.30")
def test_squared_error_criterion_matches_sum_of_squares():
    rng = np.random.default_rng(1)
    t, w = rng.normal(size=40), rng.uniform(0.2, 2, size=40)
    crit = SquaredError()
    sums = crit.statistics(t, w).sum(axis=0)[:, None]
    assert crit.node_weight(sums)[0] * crit.node_impurity(sums)[0] == pytest.approx(
        sum_of_squares(t, w), rel=1e-10
    )
    # split score: Σwt² − (N_L Q_L + N_R Q_R) for every cut of the sorted targets
    order = np.argsort(t)
    stats = crit.statistics(t[order], w[order])
    left = np.cumsum(stats, axis=0)[:-1].T
    right = stats.sum(axis=0)[:, None] - left
    score = crit.split_score(left[1:2].copy(), right[1:2].copy(), left[0], right[0])
    cost = [
        sum_of_squares(t[order][: i + 1], w[order][: i + 1])
        + sum_of_squares(t[order][i + 1 :], w[order][i + 1 :])
        for i in range(39)
    ]
    np.testing.assert_allclose(score + cost, np.dot(w, t * t), rtol=1e-10)


def test_second_order_leaf_value_minimises_the_objective():
    rng = np.random.default_rng(2)
    g, h, lam = rng.normal(size=20), rng.uniform(0.1, 1, size=20), 0.7
    v = second_order_leaf_value(g.sum(), h.sum(), lam)
    grid = np.linspace(v - 1, v + 1, 20001)
    objective = g.sum() * grid + 0.5 * (h.sum() + lam) * grid**2
    assert grid[np.argmin(objective)] == pytest.approx(v, abs=1e-4)
    assert objective.min() == pytest.approx(-0.5 * g.sum() ** 2 / (h.sum() + lam), abs=1e-8)


# --- grow_tree with per-sample statistics ------------------------------------------------------
@pytest.mark.parametrize("name, Crit", [("gini", Gini), ("entropy", Entropy)])
def test_grow_tree_with_class_statistics_equals_the_classifier(name, Crit):
    X, y, w = tie_free_classification()
    crit = Crit(3)
    tree = grow_tree(X, crit.statistics(y, w), crit, max_depth=6, min_samples_leaf=3)
    model = DecisionTreeClassifier(criterion=name, max_depth=6, min_samples_leaf=3)
    model.fit(X, y, sample_weight=w)
    assert_same_tree(tree, model.tree_)
    np.testing.assert_allclose(tree.impurity, model.tree_.impurity)


@pytest.mark.equation("14.29")
@pytest.mark.equation("14.30")
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("params", [{"max_depth": 5}, {"min_samples_leaf": 8}])
def test_second_order_from_squared_error_reproduces_the_regression_tree(weighted, params):
    # g = −w t, h = w, λ = 0: leaf value Σwt/Σw and split score (Σwt)²/Σw, the squared error's
    X, t = tie_free_regression(n=400)
    t = t - t.mean()
    w = np.random.default_rng(3).uniform(0.5, 1.5, size=len(t)) if weighted else np.ones(len(t))
    crit = SecondOrder()
    tree = grow_tree(X, crit.statistics(-w * t, w), crit, **params)
    ref = grow_tree(X, SquaredError().statistics(t, w), SquaredError(), **params)
    assert_same_tree(tree, ref)
    model = DecisionTreeRegressor(**params).fit(X, t, sample_weight=w)
    np.testing.assert_allclose(tree.value[tree.apply(X), 0], model.predict(X), atol=1e-12)


def brute_force_second_order(X, g, h, lam, gamma, min_child_weight):
    best = (-np.inf, None, None)
    for j in range(X.shape[1]):
        values = np.unique(X[:, j])
        for a, b in itertools.pairwise(values):
            s = (a + b) / 2
            L = X[:, j] <= s
            if h[L].sum() < min_child_weight or h[~L].sum() < min_child_weight:
                continue
            gain = second_order_split_gain(
                g[L].sum(), h[L].sum(), g[~L].sum(), h[~L].sum(), lam, gamma
            )
            if gain > best[0] + 1e-12:
                best = (gain, j, s)
    return best


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize(
    "lam, gamma, mcw", [(0.0, 0.0, 0.0), (1.0, 0.0, 0.0), (2.0, 0.3, 0.0), (0.5, 0.0, 2.0)]
)
def test_second_order_root_split_is_the_brute_force_best(seed, lam, gamma, mcw):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 6, size=(15, 3)).astype(float)  # ties in the inputs on purpose
    g, h = rng.normal(size=15), rng.uniform(0.2, 1.0, size=15)
    gain, j, s = brute_force_second_order(X, g, h, lam, gamma, mcw)
    crit = SecondOrder(reg_lambda=lam, gamma=gamma)
    stump = grow_tree(X, crit.statistics(g, h), crit, max_depth=1, min_weight_leaf=mcw)
    if gain <= 1e-6:
        assert stump.node_count == 1
        return
    assert stump.feature[0] == j and stump.threshold[0] == pytest.approx(s)
    L = X[:, j] <= s
    np.testing.assert_allclose(
        stump.value[1:, 0],
        [-g[L].sum() / (h[L].sum() + lam), -g[~L].sum() / (h[~L].sum() + lam)],
    )
    # the recorded node costs −½G²/(H+λ) give the gain back (pruning costs of the leaves)
    cost = pruning_costs(stump)
    assert cost[0] - cost[1] - cost[2] - gamma == pytest.approx(gain)


def test_gamma_prunes_and_min_child_weight_holds_in_every_leaf():
    X, t = tie_free_regression(n=300)
    rng = np.random.default_rng(4)
    g, h = -(t - t.mean()), rng.uniform(0.1, 1.0, size=len(t))
    plain = grow_tree(X, np.c_[g, h], SecondOrder(), max_depth=6)
    pruned = grow_tree(X, np.c_[g, h], SecondOrder(gamma=2.0), max_depth=6)
    assert pruned.n_leaves < plain.n_leaves
    inner = np.flatnonzero(pruned.children_left != TREE_LEAF)
    cost = pruning_costs(pruned)
    gains = cost[inner] - cost[pruned.children_left[inner]] - cost[pruned.children_right[inner]]
    assert np.all(gains > 2.0)
    tree = grow_tree(X, np.c_[g, h], SecondOrder(), min_weight_leaf=5.0)
    leaves = tree.children_left == TREE_LEAF
    assert np.all(tree.weighted_n_node_samples[leaves] >= 5.0)
    np.testing.assert_allclose(
        tree.weighted_n_node_samples[leaves],
        np.bincount(tree.apply(X), weights=h, minlength=tree.node_count)[leaves],
    )


def test_grow_tree_rejects_bad_input():
    X, t = tie_free_regression(n=30)
    stats = SquaredError().statistics(t, np.ones(30))
    with pytest.raises(ValueError, match="statistics must have 2 columns"):
        grow_tree(X, stats, SecondOrder())
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        grow_tree(X[:-1], stats, SquaredError())
    with pytest.raises(ValueError, match="must be >= 0"):
        grow_tree(X, np.c_[t, -np.ones(30)], SecondOrder())
    with pytest.raises(ValueError, match="splitter must be"):
        grow_tree(X, stats, SquaredError(), splitter="best")
    with pytest.raises(ValueError, match="max_features == 5, must be <= 4"):
        grow_tree(X, stats, SquaredError(), max_features=5)
    with pytest.raises(ValueError, match="max_bins must be an integer"):
        grow_tree(X, stats, SquaredError(), splitter="histogram", max_bins=1)
    with pytest.raises(ValueError, match="reg_lambda must be"):
        SecondOrder(reg_lambda=-1.0)
    with pytest.raises(ValueError, match="statistics are too large"):
        grow_tree(X, stats * 1e300, SquaredError())


def test_the_estimators_skip_the_checks_they_already_made():
    # check_input=False (what the estimators pass) grows the very same tree
    X, t = tie_free_regression(n=60)
    stats = SquaredError().statistics(t, np.ones(60))
    checked = grow_tree(X, stats, SquaredError(), max_depth=3)
    unchecked = grow_tree(X, stats, SquaredError(), max_depth=3, check_input=False)
    np.testing.assert_array_equal(checked.threshold, unchecked.threshold)
    np.testing.assert_array_equal(checked.value, unchecked.value)


def test_second_order_refusals():
    # a leaf of zero Hessian has no finite optimum unless reg_lambda > 0
    with pytest.raises(ValueError, match="H \\+ reg_lambda must be positive"):
        second_order_leaf_value([1.0], [0.0])
    assert second_order_leaf_value([1.0], [0.0], reg_lambda=2.0) == pytest.approx(-0.5)
    with pytest.raises(ValueError, match="H must be non-negative"):
        second_order_leaf_value([1.0], [-1.0], reg_lambda=2.0)
    with pytest.raises(ValueError, match="G and H must broadcast"):
        second_order_leaf_value(np.ones(3), np.ones(2))
    with pytest.raises(ValueError, match="G_left"):
        second_order_split_gain(1e300, 1.0, 1.0, 1.0)
    with pytest.raises(ValueError, match="H_right"):
        second_order_split_gain(1.0, 1.0, 1.0, 0.0)


# --- the histogram finder ------------------------------------------------------------------------
def test_bin_features_codes_and_edges():
    rng = np.random.default_rng(5)
    X = np.c_[rng.integers(0, 7, 500), rng.normal(size=500)]
    binned = bin_features(X, max_bins=32)
    assert binned.codes.dtype == np.uint8 and binned.codes.max() < 32
    np.testing.assert_allclose(binned.edges[0], np.arange(6) + 0.5)  # one bin per value
    for j, e in enumerate(binned.edges):
        c = binned.codes[:, j].astype(int)
        lower = np.r_[-np.inf, e][c]
        upper = np.r_[e, np.inf][c]
        assert np.all((lower < X[:, j]) & (X[:, j] <= upper))
    # quantile bins hold about the same number of samples each
    assert np.bincount(binned.codes[:, 1]).max() <= 2 * 500 / 32
    assert bin_features(X, max_bins=300).codes.dtype == np.uint16


def test_quantile_bins_hold_equal_shares_of_distinct_values():
    # 32 bins of 20 values each: 31 edges, each bin holding 20 ± 1 of the 640 sorted values (the
    # midpoint quantiles k/32 fall between the 20k-th and (20k + 1)-th values); an independent
    # count, not the binning's own quantile call
    rng = np.random.default_rng(11)
    x = rng.permutation(rng.standard_normal(640))
    binned = bin_features(x[:, None], max_bins=32)
    (edges,) = binned.edges
    assert edges.size == 31 and np.all(np.diff(edges) > 0)
    per_bin = np.bincount(binned.codes[:, 0], minlength=32)
    assert per_bin.size == 32 and np.all(np.abs(per_bin - 20) <= 1)
    # the codes are the bins of the edges: x in (edges[b - 1], edges[b]]
    np.testing.assert_array_equal(binned.codes[:, 0], np.searchsorted(edges, x, side="left"))


@pytest.mark.parametrize("crit_name", ["squared_error", "second_order"])
def test_binned_features_apply_agrees_with_tree_apply(crit_name):
    # BinnedFeatures.apply walks the bin codes, Tree.apply the raw values: the same leaves, for
    # quantile bins (many values) and one bin per value (few values)
    rng = np.random.default_rng(12)
    X = np.c_[rng.normal(size=600), rng.integers(0, 5, 600), rng.uniform(size=600)]
    t = np.sin(3 * X[:, 0]) + X[:, 1] * (X[:, 2] > 0.5) + 0.1 * rng.normal(size=600)
    if crit_name == "squared_error":
        crit, stats = SquaredError(), SquaredError().statistics(t - t.mean(), np.ones(600))
    else:
        crit, stats = SecondOrder(reg_lambda=1.0), np.c_[-(t - t.mean()), np.ones(600)]
    for max_bins in (8, 64):
        binned = bin_features(X, max_bins=max_bins)
        tree = grow_tree(binned, stats, crit, max_depth=6, splitter="histogram")
        assert tree.node_count > 31
        np.testing.assert_array_equal(binned.apply(tree), tree.apply(X))


def few_values(n=500, d=4, seed=6):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 40, size=(n, d)) / 4.0 + rng.uniform(size=d)  # 40 distinct per feature
    t = np.sin(X[:, 0]) + 0.2 * X[:, 1] + 0.3 * rng.normal(size=n)
    return X, t


@pytest.mark.parametrize("crit_name", ["squared_error", "gini", "second_order"])
@pytest.mark.parametrize("params", [{"max_depth": 4}, {"min_samples_leaf": 5, "max_features": 2}])
def test_histogram_finder_grows_the_exact_tree_when_values_fit_in_bins(crit_name, params):
    X, t = few_values()
    w = np.random.default_rng(7).uniform(0.5, 1.5, size=len(t))
    w[::5] = 0.0  # zero-weight rows as well
    if crit_name == "squared_error":
        crit, stats = SquaredError(), SquaredError().statistics(t - t.mean(), w)
    elif crit_name == "gini":
        crit = Gini(3)
        stats = crit.statistics(np.digitize(t, np.quantile(t, [0.3, 0.7])), w)
    else:
        crit, stats = SecondOrder(reg_lambda=1.0), np.c_[-(t - t.mean()), 0.5 + w]
    exact = grow_tree(X, stats, crit, random_state=0, **params)
    hist = grow_tree(X, stats, crit, random_state=0, splitter="histogram", max_bins=40, **params)
    assert_same_tree(hist, exact, thresholds=False)
    # the same partition of the rows grown on (zero-weight rows are removed rows: they may
    # fall on either side of thresholds that differ)
    grown = np.any(stats != 0, axis=1)
    np.testing.assert_array_equal(hist.apply(X[grown]), exact.apply(X[grown]))


def test_histogram_regressor_is_close_to_exact_with_many_values():
    # 2000 distinct values per feature in 64 bins: thresholds move to bin edges; the held-out
    # error stays within 5 % of the exact tree's
    X, t = tie_free_regression(n=2000, seed=8)
    X_test, t_test = tie_free_regression(n=2000, seed=9)
    exact = DecisionTreeRegressor(max_depth=5).fit(X, t)
    hist = DecisionTreeRegressor(max_depth=5, splitter="histogram", max_bins=64).fit(X, t)
    mse_exact = np.mean((exact.predict(X_test) - t_test) ** 2)
    mse_hist = np.mean((hist.predict(X_test) - t_test) ** 2)
    assert abs(mse_hist - mse_exact) <= 0.05 * mse_exact
    assert hist.get_n_leaves() == exact.get_n_leaves()
    # and every threshold is a bin edge
    edges = bin_features(X, max_bins=64).edges
    inner = hist.tree_.feature >= 0
    for f, thr in zip(hist.tree_.feature[inner], hist.tree_.threshold[inner], strict=True):
        assert thr in edges[f]


def test_pre_binned_features_give_the_same_tree():
    X, t = few_values()
    stats = SquaredError().statistics(t - t.mean(), np.ones(len(t)))
    binned = bin_features(X, max_bins=16)
    a = grow_tree(binned, stats, SquaredError(), max_depth=5, splitter="histogram")
    b = grow_tree(X, stats, SquaredError(), max_depth=5, splitter="histogram", max_bins=16)
    assert_same_tree(a, b)
    with pytest.raises(ValueError, match="X is binned"):
        grow_tree(binned, stats, SquaredError())


@parametrize_with_checks(
    [
        DecisionTreeRegressor(splitter="histogram"),
        DecisionTreeClassifier(splitter="histogram", max_bins=16),
    ],
    expected_failed_checks=lambda est: {
        "check_sample_weight_equivalence_on_dense_data": ZERO_WEIGHT_REASON
    },
)
def test_histogram_estimators_are_sklearn_compatible(estimator, check):
    check(estimator)


# --- pruning costs ------------------------------------------------------------------------------
@pytest.mark.equation("14.30")
@pytest.mark.equation("14.31")
def test_pruning_costs_by_hand():
    X = np.array([[0.0], [1.0], [2.0], [3.0]])
    reg = DecisionTreeRegressor(max_depth=1).fit(X, [0.0, 1.0, 4.0, 5.0])
    # root: mean 2.5, Σ(t − 2.5)² = 6.25 + 2.25 + 2.25 + 6.25; children {0, 1} and {4, 5}: ½ each
    np.testing.assert_allclose(pruning_costs(reg.tree_), [17.0, 0.5, 0.5])
    Xc = np.array([[0.0], [1.0], [2.0], [3.0], [4.0]])
    clf = DecisionTreeClassifier(max_depth=1).fit(
        Xc, [0, 0, 1, 1, 1], sample_weight=[1, 2, 1, 1, 3]
    )
    # root: weights 3 (class 0) and 5 (class 1): 3 misclassified; both children pure
    np.testing.assert_allclose(pruning_costs(clf.tree_, "misclassification"), [3.0, 0.0, 0.0])
    # Gini: N_τ (1 − Σ p²) = 8 (1 − (3/8)² − (5/8)²) = 2·3·5/8 at the root
    np.testing.assert_allclose(pruning_costs(clf.tree_), [30 / 8, 0.0, 0.0])
    with pytest.raises(ValueError, match="cost must be"):
        pruning_costs(clf.tree_, "gini")


@pytest.mark.parametrize("max_cells", [2**22, 2000, 1])
def test_histogram_finder_without_room_for_every_histogram(monkeypatch, max_cells):
    # with little room, the nodes of a level are scanned in blocks and their histograms summed
    # from their rows instead of subtracted from their parents': the same fully grown tree
    import prml14.trees.histogram as histogram

    monkeypatch.setattr(histogram, "_MAX_CELLS", max_cells)
    X, _ = few_values(n=300)
    # integer targets: every sum is exact, so even tied cuts are broken the same way
    t = np.random.default_rng(10).integers(0, 8, size=300).astype(float)
    stats = SquaredError().statistics(t, np.ones(len(t)))
    exact = grow_tree(X, stats, SquaredError())
    hist = grow_tree(X, stats, SquaredError(), splitter="histogram", max_bins=40)
    assert exact.node_count > 200
    assert_same_tree(hist, exact, thresholds=False)


@pytest.mark.parametrize("max_cells", [2**22, 1])
@pytest.mark.parametrize("params", [{"max_depth": 3}, {"min_samples_leaf": 20}, {}])
def test_grow_tree_returns_the_leaf_of_every_training_sample(monkeypatch, max_cells, params):
    # the histogram finder records the leaves as it grows (blocked levels too); the exact finder
    # applies the tree, to raw and to sorted features: each agrees with Tree.apply
    import prml14.trees.histogram as histogram

    monkeypatch.setattr(histogram, "_MAX_CELLS", max_cells)
    X, t = few_values(n=400)
    X[::7, 2] = X[0, 2]  # ties
    stats = SquaredError().statistics(t - t.mean(), np.ones(len(t)))
    for features, splitter in [
        (X, "histogram"),
        (bin_features(X, max_bins=16), "histogram"),
        (X, "exact"),
        (sort_features(X), "exact"),
    ]:
        tree, leaves = grow_tree(
            features, stats, SquaredError(), splitter=splitter, return_leaves=True, **params
        )
        assert tree.node_count > 3
        np.testing.assert_array_equal(leaves, tree.apply(X))
        assert np.all(tree.is_leaf[leaves])
        assert_same_tree(tree, grow_tree(features, stats, SquaredError(), splitter=splitter,
                                         **params))  # fmt: skip


def test_sorted_features_unsorted_is_x():
    X, _ = few_values(n=50)
    np.testing.assert_array_equal(sort_features(X).unsorted(), X)


def _identical_trees(a, b):
    for name in (
        "children_left",
        "children_right",
        "feature",
        "threshold",
        "value",
        "impurity",
        "n_node_samples",
        "weighted_n_node_samples",
    ):
        np.testing.assert_array_equal(getattr(a, name), getattr(b, name), err_msg=name)


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("weights", ["unit", "counts", "real"])
@pytest.mark.parametrize(
    "criterion, params",
    [
        (Gini(3), {}),
        (Gini(3), {"min_samples_leaf": 3, "max_features": 1}),
        (Entropy(3), {"min_weight_leaf": 4.0}),
        (SquaredError(), {}),
        (SquaredError(), {"min_samples_leaf": 2, "max_features": 4}),
        (SecondOrder(1.0, 0.0), {"min_weight_leaf": 2.0}),
    ],
)
def test_sorting_the_drawn_features_per_node_grows_the_tree_of_partitioned_orders(
    monkeypatch, seed, weights, criterion, params
):
    # oracle: all D presorted orders re-partitioned at every level, every feature scored and
    # the undrawn ones masked out (the loop that sample-based criteria still use); both draw
    # from the same keys, so the trees must be identical, bit for bit
    import prml14.trees.exact as exact

    rng = np.random.default_rng(seed)
    N, D = 300, 7
    X = rng.integers(0, 12, size=(N, D)) / 4.0  # ties inside the nodes, constant features
    X[: N // 2, 3] = 1.0  # a feature constant in many nodes
    t = (X[:, 0] + X[:, 1] * X[:, 2] + rng.normal(size=N)) > 3
    t = t.astype(int) + (X[:, 4] > 2)
    w = {
        "unit": np.ones(N),
        "counts": rng.integers(1, 5, size=N) / 4.0,  # a bootstrap's counts, scaled
        "real": rng.uniform(0.1, 2.0, size=N),
    }[weights]
    if isinstance(criterion, SecondOrder):
        stats = criterion.statistics(-(t - 1.0) * w, w)
    else:
        stats = criterion.statistics(t * 1.0 if isinstance(criterion, SquaredError) else t, w)
    kwargs = {"max_features": 2, "random_state": seed, **params}
    tree = grow_tree(X, stats, criterion, **kwargs)
    monkeypatch.setattr(exact, "_sorts_drawn_features", lambda *args: False)
    _identical_trees(tree, grow_tree(X, stats, criterion, **kwargs))
    assert tree.node_count > 20
