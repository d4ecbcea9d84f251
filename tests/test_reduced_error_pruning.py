import itertools

import numpy as np
import pytest

from prml14 import (
    C45Classifier,
    DecisionTreeClassifier,
    DecisionTreeRegressor,
    reduced_error_prune,
    reduced_error_subtree,
    validation_node_errors,
)


def classification(n, seed):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 2))
    y = (X[:, 0] * X[:, 1] > 0).astype(int)
    flip = rng.random(n) < 0.2
    return X, np.where(flip, 1 - y, y)


def all_prunings(tree, node=0):
    """Every pruned subtree below ``node`` as a set of collapsed nodes."""
    if tree.children_left[node] < 0:
        yield frozenset()
        return
    yield frozenset([node])
    left, right = tree.children_left[node], tree.children_right[node]
    for a, b in itertools.product(all_prunings(tree, left), all_prunings(tree, right)):
        yield a | b


def subtree_error(tree, collapsed, node_errors):
    """Validation error of the pruned tree: the sum over its leaves."""
    err, stack = 0.0, [0]
    while stack:
        t = stack.pop()
        if t in collapsed or tree.children_left[t] < 0:
            err += node_errors[t]
        else:
            stack += [tree.children_left[t], tree.children_right[t]]
    return err


def n_leaves(tree, collapsed):
    return tree.subtree(np.isin(np.arange(tree.node_count), list(collapsed))).n_leaves


@pytest.mark.equation("B.28")
@pytest.mark.parametrize("seed", range(4))
def test_reduced_error_pruning_equals_brute_force(seed):
    X, y = classification(80, seed)
    Xv, yv = classification(60, seed + 100)
    est = DecisionTreeClassifier(max_depth=3).fit(X, y)
    E = validation_node_errors(est.tree_, Xv, yv, loss="misclassification")
    pruned, err = reduced_error_subtree(est.tree_, E)
    options = [
        (subtree_error(est.tree_, c, E), n_leaves(est.tree_, c)) for c in all_prunings(est.tree_)
    ]
    best = min(e for e, _ in options)
    smallest = min(k for e, k in options if e == pytest.approx(best))
    assert err == pytest.approx(best)
    assert pruned.n_leaves == smallest
    # its error is indeed that of predicting with the pruned tree
    pred = np.argmax(pruned.value[pruned.apply(Xv)], axis=1)
    assert np.sum(pred != yv) == pytest.approx(err)


@pytest.mark.equation("B.28")
def test_node_errors_are_those_of_each_node_as_a_leaf():
    X, y = classification(100, 7)
    Xv, yv = classification(50, 8)
    est = DecisionTreeRegressor(max_depth=3).fit(X, y.astype(float))
    E = validation_node_errors(est.tree_, Xv, yv.astype(float), loss="squared_error")
    assert E[0] == pytest.approx(np.sum((est.tree_.value[0, 0] - yv) ** 2))
    leaves = est.apply(Xv)
    assert E[est.tree_.is_leaf].sum() == pytest.approx(np.sum((est.predict(Xv) - yv) ** 2))
    for node in np.flatnonzero(~est.tree_.is_leaf):
        kids = E[est.tree_.children_left[node]] + E[est.tree_.children_right[node]]
        assert np.isfinite(kids)
    assert leaves.shape == yv.shape


def test_validation_points_on_a_threshold_go_left_as_in_predict():
    # a point with x_j equal to a cut's threshold goes left (x_j <= threshold), as in predict:
    # every node's error is the loss over the points whose decision path passes through it
    X, y = classification(100, 7)
    est = DecisionTreeRegressor(max_depth=3).fit(X, y.astype(float))
    tree = est.tree_
    inner = np.flatnonzero(~tree.is_leaf)
    rng = np.random.default_rng(9)
    Xv = np.repeat(rng.normal(size=(4, 2)), inner.size, axis=0)
    Xv[np.arange(Xv.shape[0]), np.tile(tree.feature[inner], 4)] = np.tile(tree.threshold[inner], 4)
    yv = rng.normal(size=Xv.shape[0])
    E = validation_node_errors(tree, Xv, yv, loss="squared_error")
    through = est.decision_path(Xv).toarray().astype(bool)
    expected = [
        np.sum((tree.value[node, 0] - yv[through[:, node]]) ** 2)
        for node in range(tree.node_count)
    ]
    np.testing.assert_allclose(E, expected, rtol=1e-12, atol=0)


@pytest.mark.equation("B.28")
@pytest.mark.parametrize("seed", range(5))
def test_reduced_error_pruning_never_increases_validation_error(seed):
    X, y = classification(300, seed)
    Xv, yv = classification(150, seed + 50)
    full = DecisionTreeClassifier(random_state=0).fit(X, y)
    pruned = reduced_error_prune(full, Xv, yv)
    assert pruned.score(Xv, yv) >= full.score(Xv, yv)
    assert pruned.get_n_leaves() < full.get_n_leaves()
    assert full.tree_.node_count == full.full_tree_.node_count  # the original is untouched
    # regression, squared and absolute error
    for criterion in ("squared_error", "absolute_error"):
        reg = DecisionTreeRegressor(criterion=criterion).fit(X, X[:, 0] + y)
        pr = reduced_error_prune(reg, Xv, Xv[:, 0] + yv)
        loss = np.square if criterion == "squared_error" else np.abs
        assert (
            loss(pr.predict(Xv) - Xv[:, 0] - yv).sum()
            <= loss(reg.predict(Xv) - Xv[:, 0] - yv).sum() + 1e-9
        )


def test_reduced_error_prune_bad_inputs():
    X, y = classification(60, 0)
    est = DecisionTreeClassifier(max_depth=2).fit(X, y)
    with pytest.raises(ValueError, match="not trained on"):
        reduced_error_prune(est, X, y + 5)
    with pytest.raises(ValueError, match="features"):
        reduced_error_prune(est, X[:, :1], y)
    with pytest.raises(ValueError, match="loss"):
        validation_node_errors(est.tree_, X, y, loss="hinge")
    with pytest.raises(ValueError, match="node_errors"):
        reduced_error_subtree(est.tree_, np.zeros(2))
    with pytest.raises(ValueError, match="node_errors must not contain NaN"):
        reduced_error_subtree(est.tree_, np.full(est.tree_.node_count, np.nan))
    with pytest.raises(ValueError, match="X_val and y_val have inconsistent numbers of samples"):
        reduced_error_prune(est, X, y[:-1])
    reg = DecisionTreeRegressor(max_depth=2).fit(X, X[:, 0])
    with pytest.raises(ValueError, match="y_val must not contain NaN"):
        reduced_error_prune(reg, X, np.where(np.arange(len(y)) == 3, np.nan, X[:, 0]))
    with pytest.raises(ValueError, match="y has entries of magnitude"):
        validation_node_errors(reg.tree_, X, X[:, 0] * 1e300, loss="squared_error")
    unit = reduced_error_prune(est, X, y)
    weighted = reduced_error_prune(est, X, y, sample_weight=np.full(len(y), 3.0))
    np.testing.assert_array_equal(unit.tree_.feature, weighted.tree_.feature)


def multiway_prunings(tree, node=0):
    """Every pruned subtree of a C4.5 tree below ``node`` (sets of collapsed nodes)."""
    if tree.is_leaf[node]:
        yield frozenset()
        return
    yield frozenset([node])
    for parts in itertools.product(
        *(list(multiway_prunings(tree, c)) for c in tree.children[node])
    ):
        yield frozenset().union(*parts)


def c45_data(n, seed, missing=0.0):
    rng = np.random.default_rng(seed)
    X = np.column_stack([rng.integers(0, 3, n), rng.integers(0, 2, n), rng.normal(size=n)])
    y = ((X[:, 0] == 1) ^ (X[:, 2] > 0)).astype(int)
    y = np.where(rng.random(n) < 0.15, 1 - y, y)
    X = X.astype(float)
    X[rng.random(X.shape) < missing] = np.nan
    return X, y


@pytest.mark.equation("B.28")
@pytest.mark.parametrize("seed", range(3))
def test_reduced_error_pruning_of_a_c45_tree_equals_brute_force(seed):
    X, y = c45_data(120, seed, missing=0.1)
    Xv, yv = c45_data(80, seed + 10, missing=0.1)
    est = C45Classifier(categorical_features=[0, 1], max_depth=3).fit(X, y)
    tree = est.tree_
    E = est.validation_node_errors(Xv, yv)
    pruned, err = reduced_error_subtree(tree, E)

    def error_of(collapsed):
        total, stack = 0.0, [0]
        while stack:
            t = stack.pop()
            if t in collapsed or tree.is_leaf[t]:
                total += E[t]
            else:
                stack.extend(tree.children[t].tolist())
        return total

    options = []
    for c in multiway_prunings(tree):
        mask = np.isin(np.arange(tree.node_count), list(c))
        options.append((error_of(c), tree.subtree(mask).n_leaves))
    best = min(e for e, _ in options)
    assert err == pytest.approx(best)
    assert pruned.n_leaves == min(k for e, k in options if e == pytest.approx(best))
    # E_V of the root is the validation weight its majority class misclassifies
    majority = est.classes_[np.argmax(tree.value[0])]
    assert E[0] == pytest.approx(np.sum(yv != majority))


@pytest.mark.equation("B.28")
def test_reduced_error_prune_c45_never_increases_validation_error():
    X, y = c45_data(400, 0, missing=0.1)
    Xv, yv = c45_data(200, 1)  # no missing values: E_V is the misclassification count
    full = C45Classifier(categorical_features=[0, 1]).fit(X, y)
    pruned = reduced_error_prune(full, Xv, yv)
    assert pruned.tree_.n_leaves < full.tree_.n_leaves
    assert pruned.score(Xv, yv) >= full.score(Xv, yv)
    E = full.validation_node_errors(Xv, yv)
    assert E[full.tree_.is_leaf].sum() == pytest.approx(np.sum(full.predict(Xv) != yv))
    # the pruned tree keeps predicting with fractions where values are missing
    Xq, _ = c45_data(50, 2, missing=0.3)
    np.testing.assert_allclose(pruned.predict_proba(Xq).sum(axis=1), 1.0)
    with pytest.raises(ValueError, match="training classes"):
        full.validation_node_errors(Xv, yv + 7)
