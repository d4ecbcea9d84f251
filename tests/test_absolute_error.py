import numpy as np
import pytest
from sklearn.tree import DecisionTreeRegressor as SkTree
from sklearn.utils.estimator_checks import parametrize_with_checks

from prml14 import DecisionTreeRegressor, absolute_deviation, weighted_median
from prml14.trees import AbsoluteError, grow_tree
from prml14.trees.absolute import split_costs

ZERO_WEIGHT_REASON = (
    "a zero weight is not the same as removing the row: the row still counts towards "
    "min_samples_split/min_samples_leaf and can sit between two thresholds (as in scikit-learn, "
    "which excludes this check for its trees too)"
)


def brute_median(t, w):
    """The minimisers of Σ w|t − y| are an interval [a, b] of data values; its midpoint."""
    cost = np.array([np.dot(w, np.abs(t - y)) for y in t])
    best = t[np.isclose(cost, cost.min(), rtol=1e-12, atol=1e-12)]
    return 0.5 * (best.min() + best.max()), cost.min()


@pytest.mark.equation("B.29")
@pytest.mark.parametrize("seed", range(6))
def test_weighted_median_and_deviation_brute_force(seed):
    rng = np.random.default_rng(seed)
    n = rng.integers(1, 12)
    t = rng.normal(size=n).round(1)
    w = rng.integers(1, 4, n).astype(float) if seed % 2 else np.ones(n)
    m, cost = brute_median(t, w)
    assert weighted_median(t, w) == pytest.approx(m)
    assert absolute_deviation(t, w) == pytest.approx(cost)


@pytest.mark.equation("B.29")
def test_weighted_median_conventions():
    assert weighted_median([1.0, 2.0, 3.0, 4.0]) == 2.5  # exactly half: the midpoint
    assert weighted_median([1.0, 2.0, 10.0], [1.0, 1.0, 3.0]) == 10.0
    assert weighted_median([5.0, 1.0], [0.0, 2.0]) == 1.0
    with pytest.raises(ValueError, match="sample_weight"):
        weighted_median([1.0, 2.0], [0.0, 0.0])
    # the median of targets with an infinite one is defined, their deviation is not finite
    assert weighted_median([1.0, 2.0, np.inf]) == 2.0
    with pytest.raises(ValueError, match="t must be finite"):
        absolute_deviation([1.0, 2.0, np.inf])


@pytest.mark.equation("B.29")
def test_split_costs_equal_brute_force_on_every_cut():
    rng = np.random.default_rng(0)
    N, D = 37, 3
    t = rng.normal(size=N).round(2)
    w = rng.uniform(0.2, 2.0, N)
    stats = np.vstack([w, t])
    # two node segments, each feature ordered differently inside them
    seg_start, seg_len = np.array([0, 15]), np.array([15, 22])
    seg_id = np.repeat([0, 1], seg_len)
    members = rng.permutation(N)
    order = np.stack(
        [
            np.concatenate([rng.permutation(members[:15]), rng.permutation(members[15:])])
            for _ in range(D)
        ]
    )
    left, right = split_costs(stats, order, seg_start, seg_len, seg_id)
    for d in range(D):
        for p in range(N):
            s = seg_start[seg_id[p]]
            e = s + seg_len[seg_id[p]]
            L, R = order[d, s : p + 1], order[d, p + 1 : e]
            assert left[d, p] == pytest.approx(brute_median(t[L], w[L])[1], abs=1e-9)
            want_r = brute_median(t[R], w[R])[1] if R.size else 0.0
            assert right[d, p] == pytest.approx(want_r, abs=1e-9)


def tie_free(n, d, seed):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d)).astype(np.float32).astype(float)
    t = np.sin(2 * X[:, 0]) + X[:, 1] + 0.5 * rng.standard_t(2, size=n)
    return X, t, rng.uniform(0.5, 2.0, n)


def walk_both(ours, ref):
    """Walk both trees in parallel: equal node values and impurities; where the chosen cuts
    differ, the two cuts must cost the same (a tie); returns the number of matched splits."""
    A, B = ours.tree_, ref.tree_
    stack, matched = [(0, 0)], 0
    while stack:
        i, j = stack.pop()
        assert A.value[i, 0] == pytest.approx(B.value[j, 0, 0], abs=1e-9)
        assert A.impurity[i] == pytest.approx(B.impurity[j], rel=1e-7, abs=1e-9)
        a_leaf, b_leaf = A.children_left[i] < 0, B.children_left[j] < 0
        assert a_leaf == b_leaf
        if a_leaf:
            continue
        ca, cb = (
            (A.children_left[i], A.children_right[i]),
            (B.children_left[j], B.children_right[j]),
        )
        cost_a = sum(A.weighted_n_node_samples[c] * A.impurity[c] for c in ca)
        cost_b = sum(B.weighted_n_node_samples[c] * B.impurity[c] for c in cb)
        if A.feature[i] == B.feature[j] and A.threshold[i] == pytest.approx(B.threshold[j]):
            matched += 1
            stack += list(zip(ca, cb, strict=True))
        else:
            assert cost_a == pytest.approx(cost_b, rel=1e-9, abs=1e-9)
    return matched


@pytest.mark.equation("B.29")
@pytest.mark.parametrize("weighted", [False, True])
def test_absolute_error_tree_equals_sklearn(weighted):
    X, t, w = tie_free(400, 3, seed=1)
    sw = w if weighted else None
    ours = DecisionTreeRegressor(criterion="absolute_error", max_depth=5).fit(
        X, t, sample_weight=sw
    )
    ref = SkTree(criterion="absolute_error", max_depth=5, random_state=0).fit(
        X, t, sample_weight=sw
    )
    assert walk_both(ours, ref) >= 20
    if weighted:  # no ties with continuous weights: the very same tree
        np.testing.assert_allclose(ours.predict(X), ref.predict(X))
        Xt = np.random.default_rng(5).normal(size=(300, 3))
        np.testing.assert_allclose(ours.predict(Xt), ref.predict(Xt))


@pytest.mark.equation("B.29")
def test_fully_grown_absolute_error_tree_matches_sklearn_up_to_ties():
    X, t, _ = tie_free(150, 2, seed=2)
    ours = DecisionTreeRegressor(criterion="absolute_error", min_samples_leaf=3).fit(X, t)
    ref = SkTree(criterion="absolute_error", min_samples_leaf=3, random_state=0).fit(X, t)
    # small nodes tie often (several cuts of the same absolute error): where the trees part,
    # walk_both checks that both cuts cost the same
    assert walk_both(ours, ref) >= 5


def test_absolute_error_through_the_engine_and_its_limits():
    X, t, w = tie_free(80, 2, seed=3)
    crit = AbsoluteError()
    tree = grow_tree(X, crit.statistics(t, w), crit, max_depth=2)
    est = DecisionTreeRegressor(criterion="absolute_error", max_depth=2).fit(X, t, sample_weight=w)
    np.testing.assert_array_equal(tree.feature, est.tree_.feature)
    with pytest.raises(ValueError, match="splitter='exact'"):
        grow_tree(X, crit.statistics(t, w), crit, splitter="histogram")
    with pytest.raises(ValueError, match="splitter='exact'"):
        DecisionTreeRegressor(criterion="absolute_error", splitter="histogram").fit(X, t)
    with pytest.raises(ValueError, match="criterion"):
        DecisionTreeRegressor(criterion="huber").fit(X, t)


def test_absolute_error_leaves_are_medians_and_robust():
    rng = np.random.default_rng(4)
    x = np.sort(rng.uniform(size=60))[:, None]
    t = (x[:, 0] > 0.5).astype(float)
    t[[3, 40]] = [50.0, -50.0]  # two gross outliers
    mae = DecisionTreeRegressor(criterion="absolute_error", max_depth=1).fit(x, t)
    assert mae.tree_.threshold[0] == pytest.approx(0.5, abs=0.05)
    np.testing.assert_allclose(np.sort(mae.tree_.value[1:, 0]), [0.0, 1.0])
    leaves = mae.apply(x)
    for leaf in np.unique(leaves):
        assert mae.tree_.value[leaf, 0] == pytest.approx(weighted_median(t[leaves == leaf]))


def test_absolute_error_cost_complexity_pruning_and_determinism():
    X, t, _ = tie_free(120, 2, seed=6)
    a = DecisionTreeRegressor(criterion="absolute_error", ccp_lambda=2.0).fit(X, t)
    b = DecisionTreeRegressor(criterion="absolute_error", ccp_lambda=2.0).fit(X, t)
    full = DecisionTreeRegressor(criterion="absolute_error").fit(X, t)
    assert a.get_n_leaves() < full.get_n_leaves()
    np.testing.assert_array_equal(a.tree_.threshold, b.tree_.threshold)
    path = full.cost_complexity_pruning_path(X, t)
    assert path["costs"][0] == pytest.approx(np.sum(np.abs(full.predict(X) - t)))


@parametrize_with_checks(
    [DecisionTreeRegressor(criterion="absolute_error")],
    expected_failed_checks=lambda est: {
        "check_sample_weight_equivalence_on_dense_data": ZERO_WEIGHT_REASON
    },
)
def test_sklearn_compatible(estimator, check):
    check(estimator)


def exact_cost(t, w):
    """min_y Σ w abs(t − y) of integer t and w, in integers (the minimum is at a data value)."""
    t, w = t.astype(np.int64), w.astype(np.int64)
    return int((w * np.abs(t[None, :] - t[:, None])).sum(axis=1).min())


@pytest.mark.equation("B.29")
@pytest.mark.parametrize("seed", range(4))
def test_skipped_cuts_cannot_be_best(seed):
    """With ``skip``, a cut left unscored (+inf) costs more than the node's best, by brute force;
    every scored cut has its brute-force cost."""
    rng = np.random.default_rng(seed)
    N, D = 90, 2
    t = rng.normal(size=N).round(1)
    w = rng.uniform(0.5, 2.0, N) if seed % 2 else np.ones(N)
    stats = np.vstack([w, t])
    seg_start, seg_len = np.array([0, 50]), np.array([50, 40])
    seg_id = np.repeat([0, 1], seg_len)
    members = rng.permutation(N)
    # feature 0 orders each node nearly by t (a good cut exists), feature 1 at random
    near_t = [np.argsort(t[m] + rng.normal(0, 0.3, m.size)) for m in (members[:50], members[50:])]
    order = np.stack(
        [
            np.concatenate([members[:50][near_t[0]], members[50:][near_t[1]]]),
            np.concatenate([rng.permutation(members[:50]), rng.permutation(members[50:])]),
        ]
    )
    skip = np.zeros((D, N), dtype=bool)
    skip[:, seg_start + seg_len - 1] = True  # no cut at a segment end
    skip[1, rng.choice(N, 10)] = True
    left, right = split_costs(stats, order, seg_start, seg_len, seg_id, skip=skip)
    brute = np.empty((D, N))
    for d in range(D):
        for p in range(N):
            s = seg_start[seg_id[p]]
            e = s + seg_len[seg_id[p]]
            L, R = order[d, s : p + 1], order[d, p + 1 : e]
            cost_r = brute_median(t[R], w[R])[1] if R.size else 0.0
            brute[d, p] = brute_median(t[L], w[L])[1] + cost_r
    total = left + right
    scored = np.isfinite(total)
    np.testing.assert_allclose(total[scored], brute[scored], rtol=1e-12, atol=1e-12)
    for s in range(2):
        cols = seg_id == s
        best = brute[:, cols][~skip[:, cols]].min()
        unscored = ~scored[:, cols] & ~skip[:, cols]
        assert np.all(brute[:, cols][unscored] > best + 1e-9)
        assert unscored.sum() > 0  # the bounds did skip cuts
    assert np.all(scored[~skip].sum() < (~skip).sum())


@pytest.mark.equation("B.29")
@pytest.mark.parametrize("seed", [1, 5])
def test_exact_ties_go_to_the_lowest_feature_then_threshold(seed):
    """Every internal node's cut has the least exact cost of all valid cuts, and is the lowest
    feature, then the lowest threshold, among the cuts of that exact cost. Targets k/10 and
    integer weights: costs are exact multiples of 1/10 (many exact ties, no near ones), which
    floating point rounds. Without scoring the near-best cuts again from their own samples,
    the rounding of the level-wide running sums breaks such ties in both seeds."""
    rng = np.random.default_rng(seed)
    N, D = 150, 3
    X = rng.normal(size=(N, D)).round(1)
    k = rng.integers(-30, 31, N)
    w = rng.integers(1, 4, N).astype(float)
    est = DecisionTreeRegressor(criterion="absolute_error", max_depth=5)
    est.fit(X, k * 0.1, sample_weight=w)
    tree, path = est.tree_, est.decision_path(X).toarray().astype(bool)
    for node in np.flatnonzero(tree.children_left >= 0):
        rows = np.flatnonzero(path[:, node])
        cuts = []
        for d in range(D):
            values = np.unique(X[rows, d])
            for lo, hi in zip(values[:-1], values[1:], strict=True):
                L, R = rows[X[rows, d] <= lo], rows[X[rows, d] > lo]
                cost = exact_cost(k[L], w[L]) + exact_cost(k[R], w[R])
                cuts.append((cost, d, (lo + hi) / 2))
        best = min(c[0] for c in cuts)
        want = min((d, thr) for c, d, thr in cuts if c == best)
        assert (tree.feature[node], tree.threshold[node]) == pytest.approx(want)
