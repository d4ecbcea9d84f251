import itertools

import numpy as np
import pytest
from sklearn import tree as sk_tree
from sklearn.utils.estimator_checks import parametrize_with_checks

from prml14 import (
    DecisionTreeClassifier,
    DecisionTreeRegressor,
    cross_entropy_impurity,
    gini_impurity,
    leaf_value,
    misclassification_impurity,
    sum_of_squares,
)


def tie_free_regression(n=600, d=4, seed=0):
    """Distinct float32-representable inputs, continuous targets: no exact ties anywhere."""
    rng = np.random.default_rng(seed)
    X = rng.permuted(np.tile(np.arange(n, dtype=float), (d, 1)), axis=1).T / 8.0 + rng.uniform(
        size=(1, d)
    )
    X = X.astype(np.float32).astype(float)
    t = np.sin(X[:, 0] / 20) + 0.01 * X[:, 1] * np.cos(X[:, 2] / 30) + 0.3 * rng.normal(size=n)
    return X, t


def tie_free_classification(n=600, d=4, k=3, seed=1):
    X, _ = tie_free_regression(n, d, seed)
    rng = np.random.default_rng(seed)
    score = np.sin(X[:, 0] / 15) + np.cos(X[:, 1] / 25) + 0.5 * rng.normal(size=n)
    y = np.digitize(score, np.quantile(score, np.linspace(0, 1, k + 1)[1:-1]))
    w = rng.uniform(0.5, 1.5, size=n)  # continuous weights: no two splits have equal impurity
    return X, y, w


# --- the functional core ---------------------------------------------------------------------
@pytest.mark.equation("14.29")
def test_leaf_value_minimises_weighted_squares():
    rng = np.random.default_rng(0)
    t, w = rng.normal(size=30), rng.uniform(0.1, 2, size=30)
    c = leaf_value(t, w)
    grid = np.linspace(c - 1, c + 1, 2001)
    costs = ((t[None, :] - grid[:, None]) ** 2 * w).sum(axis=1)
    assert abs(grid[np.argmin(costs)] - c) <= 1e-3
    assert leaf_value(t) == pytest.approx(t.mean())


@pytest.mark.equation("14.30")
def test_sum_of_squares_closed_form_and_duplicates():
    t = np.array([1.0, 2.0, 4.0])
    assert sum_of_squares(t) == pytest.approx(((t - t.mean()) ** 2).sum())
    assert sum_of_squares(t, [1, 2, 1]) == pytest.approx(sum_of_squares([1.0, 2.0, 2.0, 4.0]))


@pytest.mark.equation("14.32")
@pytest.mark.equation("14.33")
def test_impurities_closed_forms():
    p = np.array([[1.0, 0.0], [0.5, 0.5], [0.2, 0.8]])
    np.testing.assert_allclose(
        cross_entropy_impurity(p), [0.0, np.log(2), -(0.2 * np.log(0.2) + 0.8 * np.log(0.8))]
    )
    np.testing.assert_allclose(gini_impurity(p), [0.0, 0.5, 2 * 0.2 * 0.8])
    np.testing.assert_allclose(misclassification_impurity(p), [0.0, 0.5, 0.2])
    # all three vanish for a pure node and peak at the uniform distribution
    q = np.random.default_rng(0).dirichlet(np.ones(4), size=100)
    for f in (cross_entropy_impurity, gini_impurity, misclassification_impurity):
        assert np.all(f(q) <= f(np.full(4, 0.25)) + 1e-12)


def test_core_rejects_bad_input():
    with pytest.raises(ValueError, match="p must be non-negative and sum to one"):
        gini_impurity([0.5, 0.6])
    with pytest.raises(ValueError, match="sample_weight must be finite and non-negative"):
        leaf_value([1.0, 2.0], [1.0, -1.0])
    with pytest.raises(ValueError, match="t must be a non-empty 1-D array"):
        leaf_value([])


# --- oracle: scikit-learn ----------------------------------------------------------------------
@pytest.mark.equation("14.29")
@pytest.mark.equation("14.30")
@pytest.mark.parametrize("max_depth", [1, 2, 4, 8])
@pytest.mark.parametrize("weighted", [False, True])
def test_regressor_matches_sklearn(max_depth, weighted):
    X, t = tie_free_regression()
    w = np.random.default_rng(2).uniform(0.5, 1.5, size=len(t)) if weighted else None
    ours = DecisionTreeRegressor(max_depth=max_depth).fit(X, t, sample_weight=w)
    ref = sk_tree.DecisionTreeRegressor(max_depth=max_depth, random_state=0).fit(
        X, t, sample_weight=w
    )
    np.testing.assert_allclose(ours.predict(X), ref.predict(X), rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(
        ours.tree_.impurity[ours.apply(X)], ref.tree_.impurity[ref.apply(X)], rtol=1e-7, atol=1e-12
    )
    assert ours.tree_.node_count == ref.tree_.node_count
    assert ours.get_depth() == ref.get_depth() and ours.get_n_leaves() == ref.get_n_leaves()
    if max_depth <= 4:  # deeper, small nodes can be cut equally well by several features
        np.testing.assert_allclose(np.sort(ours.tree_.threshold), np.sort(ref.tree_.threshold))


@pytest.mark.equation("14.32")
@pytest.mark.equation("14.33")
@pytest.mark.parametrize("criterion", ["gini", "entropy"])
@pytest.mark.parametrize("max_depth", [1, 3, 8])
def test_classifier_matches_sklearn(criterion, max_depth):
    X, y, w = tie_free_classification()
    ours = DecisionTreeClassifier(criterion=criterion, max_depth=max_depth).fit(
        X, y, sample_weight=w
    )
    ref = sk_tree.DecisionTreeClassifier(criterion=criterion, max_depth=max_depth, random_state=0)
    ref.fit(X, y, sample_weight=w)
    np.testing.assert_allclose(ours.predict_proba(X), ref.predict_proba(X), atol=1e-9)
    # scikit-learn's entropy is in bits, ours (14.32) in nats
    scale = np.log(2) if criterion == "entropy" else 1.0
    np.testing.assert_allclose(
        ours.tree_.impurity[ours.apply(X)], scale * ref.tree_.impurity[ref.apply(X)], atol=1e-9
    )


def test_misclassification_criterion_is_greedy_on_the_error_rate():
    X, y, w = tie_free_classification(n=200, k=2)
    stump = DecisionTreeClassifier(criterion="misclassification", max_depth=1).fit(X, y)
    # brute force: the stump that makes the fewest training errors
    best = min(
        min(
            np.sum(y[X[:, j] <= s] != np.bincount(y[X[:, j] <= s]).argmax())
            + np.sum(y[X[:, j] > s] != np.bincount(y[X[:, j] > s]).argmax())
            for s in np.unique(X[:, j])[:-1]
        )
        for j in range(X.shape[1])
    )
    assert np.sum(stump.predict(X) != y) == best


# --- brute force ---------------------------------------------------------------------------------
def brute_force_best_split(X, t):
    best = (np.inf, None, None)
    for j in range(X.shape[1]):
        values = np.unique(X[:, j])
        for a, b in itertools.pairwise(values):
            s = (a + b) / 2
            cost = sum_of_squares(t[X[:, j] <= s]) + sum_of_squares(t[X[:, j] > s])
            if cost < best[0] - 1e-12:
                best = (cost, j, s)
    return best


@pytest.mark.equation("14.30")
@pytest.mark.parametrize("seed", range(5))
def test_root_split_is_the_brute_force_best(seed):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 5, size=(12, 3)).astype(float)  # ties in the inputs on purpose
    t = rng.normal(size=12)
    cost, j, s = brute_force_best_split(X, t)
    stump = DecisionTreeRegressor(max_depth=1).fit(X, t)
    assert stump.tree_.feature[0] == j and stump.tree_.threshold[0] == pytest.approx(s)
    leaves = stump.tree_.children_left[0], stump.tree_.children_right[0]
    got = sum(stump.tree_.weighted_n_node_samples[i] * stump.tree_.impurity[i] for i in leaves)
    assert got == pytest.approx(cost)


@pytest.mark.equation("14.29")
def test_leaves_hold_the_mean_of_their_targets():
    X, t = tie_free_regression(n=200)
    model = DecisionTreeRegressor(max_depth=5, min_samples_leaf=3).fit(X, t)
    leaves = model.apply(X)
    for leaf in np.unique(leaves):
        assert model.tree_.value[leaf, 0] == pytest.approx(leaf_value(t[leaves == leaf]))
        assert np.sum(leaves == leaf) >= 3


# --- weights, stopping rules, determinism -------------------------------------------------------
@pytest.mark.parametrize("Est", [DecisionTreeRegressor, DecisionTreeClassifier])
def test_weight_two_equals_duplicated_row(Est):
    X, t = tie_free_regression(n=120)
    y = t if Est is DecisionTreeRegressor else (t > np.median(t)).astype(int)
    w = np.ones(len(y))
    w[::7] = 2
    dup = np.concatenate([np.arange(len(y)), np.arange(0, len(y), 7)])
    a = Est(max_depth=6).fit(X, y, sample_weight=w)
    b = Est(max_depth=6).fit(X[dup], y[dup])
    # the same partition of the training set (deep, tiny nodes can be cut by several features
    # equally well, one putting a part on the left and another on the right, and the two fits
    # add their statistics in a different order: compare the leaves as a set)
    assert a.tree_.node_count == b.tree_.node_count
    np.testing.assert_array_equal(a.tree_.feature[:7], b.tree_.feature[:7])
    np.testing.assert_allclose(a.tree_.threshold[:7], b.tree_.threshold[:7])
    np.testing.assert_allclose(
        a.tree_.weighted_n_node_samples[:7], b.tree_.weighted_n_node_samples[:7]
    )
    leaf_weights = [
        np.sort(m.tree_.weighted_n_node_samples[m.tree_.children_left < 0]) for m in (a, b)
    ]
    np.testing.assert_allclose(*leaf_weights)
    if Est is DecisionTreeRegressor:
        np.testing.assert_allclose(a.predict(X), b.predict(X), atol=1e-12)
    else:
        np.testing.assert_allclose(a.predict_proba(X), b.predict_proba(X), atol=1e-12)


@pytest.mark.parametrize(
    "params",
    [
        {"min_samples_leaf": 10},
        {"min_samples_split": 50},
        {"min_impurity_decrease": 0.01},
        {"min_weight_fraction_leaf": 0.03},
        {"max_depth": 6, "min_samples_leaf": 4, "min_weight_fraction_leaf": 0.01},
    ],
)
def test_stopping_rules_match_sklearn(params):
    X, t = tie_free_regression(n=300)
    w = np.random.default_rng(5).uniform(0.5, 1.5, size=len(t))
    ours = DecisionTreeRegressor(**params).fit(X, t, sample_weight=w)
    ref = sk_tree.DecisionTreeRegressor(**params, random_state=0).fit(X, t, sample_weight=w)
    assert ours.get_n_leaves() == ref.get_n_leaves()
    np.testing.assert_allclose(ours.predict(X), ref.predict(X), rtol=1e-9, atol=1e-12)
    # and each rule holds in our tree
    tree, leaves = ours.tree_, np.flatnonzero(ours.tree_.children_left < 0)
    inner = np.flatnonzero(tree.children_left >= 0)
    assert np.all(tree.n_node_samples[leaves] >= params.get("min_samples_leaf", 1))
    assert np.all(tree.n_node_samples[inner] >= params.get("min_samples_split", 2))
    assert np.all(
        tree.weighted_n_node_samples[leaves] >= params.get("min_weight_fraction_leaf", 0) * w.sum()
    )
    left, right = tree.children_left[inner], tree.children_right[inner]
    decrease = (
        tree.weighted_n_node_samples[inner] * tree.impurity[inner]
        - tree.weighted_n_node_samples[left] * tree.impurity[left]
        - tree.weighted_n_node_samples[right] * tree.impurity[right]
    ) / w.sum()
    assert np.all(decrease >= params.get("min_impurity_decrease", 0) - 1e-12)


def test_grown_out_tree_interpolates_distinct_inputs():
    X, t = tie_free_regression(n=300)
    full = DecisionTreeRegressor().fit(X, t)
    assert full.get_n_leaves() == len(t)
    np.testing.assert_allclose(full.predict(X), t)


@pytest.mark.parametrize("Est", [DecisionTreeRegressor, DecisionTreeClassifier])
def test_zero_weights_match_sklearn(Est):
    # rows of zero weight must not stop the search (they once made every score of their node NaN)
    # nor end up alone in a leaf (a 0/0 value); the training fit on the other rows is defined
    X, t = tie_free_regression()
    y = t if Est is DecisionTreeRegressor else np.digitize(t, np.quantile(t, [0.3, 0.7]))
    w = np.random.default_rng(3).uniform(0.5, 1.5, size=len(t))
    w[::3] = 0.0
    w[np.argmin(X[:, 0])] = w[np.argmax(X[:, 1])] = 0.0  # at the ends of the sorted orders
    pos = w > 0
    for depth in (1, 3, 6):
        ours = Est(max_depth=depth).fit(X, y, sample_weight=w)
        ref = getattr(sk_tree, Est.__name__)(max_depth=depth, random_state=0).fit(
            X, y, sample_weight=w
        )
        assert np.all(ours.tree_.weighted_n_node_samples > 0) and np.all(
            np.isfinite(ours.tree_.value)
        )
        if Est is DecisionTreeRegressor:
            np.testing.assert_allclose(
                ours.predict(X[pos]), ref.predict(X[pos]), rtol=1e-9, atol=1e-12
            )
        else:
            np.testing.assert_allclose(
                ours.predict_proba(X[pos]), ref.predict_proba(X[pos]), atol=1e-9
            )


def test_large_target_offset_does_not_change_the_tree():
    # Σwt²/N_τ − y_τ² loses the node variance to cancellation when the mean of t dwarfs its spread;
    # the regressor grows on centred targets (scikit-learn's own tree stops at the root here)
    X, t = tie_free_regression(n=300)
    plain = DecisionTreeRegressor(max_depth=4).fit(X, t)
    shifted = DecisionTreeRegressor(max_depth=4).fit(X, t + 1e8)
    np.testing.assert_array_equal(shifted.tree_.feature, plain.tree_.feature)
    np.testing.assert_array_equal(shifted.tree_.threshold, plain.tree_.threshold)
    np.testing.assert_allclose(shifted.tree_.impurity, plain.tree_.impurity, rtol=1e-6)
    np.testing.assert_allclose(shifted.predict(X) - 1e8, plain.predict(X), atol=1e-6)


def test_max_features_is_reproducible_with_random_state():
    X, t = tie_free_regression(n=300, d=6)
    a = DecisionTreeRegressor(max_features=2, random_state=3).fit(X, t)
    b = DecisionTreeRegressor(max_features=2, random_state=3).fit(X, t)
    c = DecisionTreeRegressor(max_features=2, random_state=4).fit(X, t)
    np.testing.assert_array_equal(a.tree_.feature, b.tree_.feature)
    np.testing.assert_array_equal(a.predict(X), b.predict(X))
    assert not np.array_equal(a.tree_.feature, c.tree_.feature)


@pytest.mark.parametrize("Est", [DecisionTreeRegressor, DecisionTreeClassifier])
def test_max_features_passes_over_features_constant_in_the_node(Est):
    # a constant column, and a binary one that is constant below its own cut: drawing one of them
    # once made the node a leaf, and the trees stopped after a handful of leaves
    rng = np.random.default_rng(0)
    X = np.c_[rng.uniform(size=200), np.zeros(200), rng.integers(0, 2, 200)]
    t = X[:, 0] + X[:, 2] + 0.1 * rng.normal(size=200)
    y = t if Est is DecisionTreeRegressor else np.arange(200) % 4
    for seed in range(5):
        model = Est(max_features=1, random_state=seed).fit(X, y)
        np.testing.assert_allclose(model.predict(X), y)  # grown to purity, like scikit-learn's
        assert set(model.tree_.feature[model.tree_.feature >= 0]) <= {0, 2}


def test_export_text_and_inspection():
    X = np.array([[0.0], [1.0], [2.0], [3.0]])
    m = DecisionTreeRegressor(max_depth=1).fit(X, [0.0, 0.0, 1.0, 1.0])
    assert m.export_text(feature_names=["x"]) == (
        "|--- x <= 1.500\n|   |--- value: 0.000\n|--- x >  1.500\n|   |--- value: 1.000\n"
    )
    assert m.get_depth() == 1 and m.get_n_leaves() == 2
    np.testing.assert_array_equal(m.apply(X), [1, 1, 2, 2])
    with pytest.raises(ValueError, match="feature_names must have 1 entries"):
        m.export_text(feature_names=["a", "b"])


@pytest.mark.parametrize(
    "X, y, w, match",
    [
        ([[np.nan], [1.0]], [0.0, 1.0], None, "NaN"),
        ([[np.inf], [1.0]], [0.0, 1.0], None, "infinity"),
        ([[0.0], [1.0]], [0.0, 1.0, 2.0], None, "inconsistent numbers of samples"),
        (
            [[0.0], [1.0]],
            [0.0, 1.0],
            [1.0, -1.0],
            "Negative values in data passed to `sample_weight`",
        ),
        ([[0.0], [1.0]], [0.0, 1.0], [1.0], r"sample_weight.shape == \(1,\)"),
    ],
)
def test_bad_input(X, y, w, match):
    with pytest.raises(ValueError, match=match):
        DecisionTreeRegressor().fit(np.array(X), np.array(y), sample_weight=w)


def test_bad_hyper_parameters():
    X, t = tie_free_regression(n=20)
    with pytest.raises(ValueError, match="min_samples_leaf"):
        DecisionTreeRegressor(min_samples_leaf=0).fit(X, t)
    with pytest.raises(ValueError, match="criterion"):
        DecisionTreeClassifier(criterion="information").fit(X, t > 0)
    with pytest.raises(ValueError, match="max_features must be <= n_features"):
        DecisionTreeRegressor(max_features=10).fit(X, t)
    with pytest.raises(
        ValueError, match="Sample weights must contain at least one non-zero number"
    ):
        DecisionTreeRegressor().fit(X, t, sample_weight=np.zeros(len(t)))


ZERO_WEIGHT_REASON = (
    "a zero weight is not the same as removing the row: the row still counts towards "
    "min_samples_split/min_samples_leaf and can sit between two thresholds (as in scikit-learn, "
    "which excludes this check for its trees too)"
)


@parametrize_with_checks(
    [DecisionTreeRegressor(), DecisionTreeClassifier()],
    expected_failed_checks=lambda est: {
        "check_sample_weight_equivalence_on_dense_data": ZERO_WEIGHT_REASON
    },
)
def test_sklearn_compatible(estimator, check):
    check(estimator)


def test_leaf_boxes_tile_the_square_and_contain_their_points():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from prml14.datasets import make_five_regions
    from prml14.trees.plotting import leaf_boxes, leaf_letters, plot_partition, plot_tree_diagram

    X, t, _ = make_five_regions(n_samples=300, random_state=0)
    model = DecisionTreeRegressor(max_depth=4).fit(X, t)
    boxes = leaf_boxes(model, [[0, 1], [0, 1]])
    assert set(boxes) == set(np.flatnonzero(model.tree_.children_left < 0))
    assert sum(np.prod(b[:, 1] - b[:, 0]) for b in boxes.values()) == pytest.approx(1.0)
    for x, leaf in zip(X, model.apply(X), strict=True):
        assert np.all((boxes[leaf][:, 0] <= x) & (x <= boxes[leaf][:, 1]))
    assert sorted(leaf_letters(model).values())[:3] == ["A", "B", "C"]
    fig, (a, b) = plt.subplots(1, 2)
    plot_partition(model, X, t, ax=a)
    plot_tree_diagram(model, ax=b, show_thresholds="values")
    plt.close(fig)
    with pytest.raises(ValueError, match="fitted on 2 features"):
        leaf_boxes(DecisionTreeRegressor(max_depth=1).fit(np.c_[X, X], t), [[0, 1]] * 2)
