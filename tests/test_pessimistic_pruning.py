"""C4.5's pessimistic pruning: U_CF(E, N) (B.41) and the bottom-up rule (B.42).

Oracles: the binomial tail summed term by term and inverted by bisection; the closed form
1 − CF^{1/N} at E = 0; Quinlan's worked figures recomputed from first principles; the normal
(Wilson) upper limit for large N; brute force over every pruned subtree of a small tree.
"""

import itertools
import math

import numpy as np
import pytest
from scipy.special import betainc
from scipy.stats import norm

from prml14 import (
    C45Classifier,
    DecisionTreeClassifier,
    pessimistic_error_rate,
    pessimistic_node_errors,
    pessimistic_subtree,
)


def binomial_tail(E, N, p):
    """P(X <= E | N, p) summed term by term (integer E, N)."""
    return sum(math.comb(N, k) * p**k * (1 - p) ** (N - k) for k in range(E + 1))


def upper_limit_by_bisection(E, N, cf):
    """The p with P(X <= E | N, p) = cf: the tail falls from 1 to 0 as p runs over [0, 1]."""
    lo, hi = 0.0, 1.0
    for _ in range(60):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if binomial_tail(E, N, mid) > cf else (lo, mid)
    return (lo + hi) / 2


@pytest.mark.equation("B.41")
def test_upper_limit_equals_the_binomial_tail_by_brute_force():
    for cf in (0.05, 0.25, 0.5, 0.9):
        for N in (1, 2, 5, 16, 40):
            for E in range(N):
                expected = upper_limit_by_bisection(E, N, cf)
                assert pessimistic_error_rate(E, N, cf) == pytest.approx(expected, abs=1e-12)


@pytest.mark.equation("B.41")
def test_closed_form_at_zero_errors_and_quinlans_figures():
    N = np.arange(1, 50)
    np.testing.assert_allclose(pessimistic_error_rate(0, N), 1 - 0.25 ** (1 / N), rtol=1e-14)
    # the figures of Quinlan's worked example (C4.5, ch. 4), at CF = 25 %
    assert round(pessimistic_error_rate(0, 6), 3) == 0.206
    assert round(pessimistic_error_rate(0, 9), 3) == 0.143
    assert pessimistic_error_rate(0, 1) == pytest.approx(0.75)
    # U(1, 16): the exact limit is 0.160; Quinlan prints 0.157, his program's normal
    # approximation (Wilson's limit with a continuity correction, z = 0.69)
    assert round(pessimistic_error_rate(1, 16), 3) == 0.160
    z2 = (0.84 + (0.25 - 0.84) * (0.25 - 0.20) / (0.40 - 0.20)) ** 2
    e, n = 1.5, 16
    wilson = (e + z2 / 2 + math.sqrt(z2 * (e * (1 - e / n) + z2 / 4))) / (n + z2)
    assert round(wilson, 3) == 0.157


@pytest.mark.equation("B.41")
def test_fractional_counts_interpolate_the_binomial_tail():
    cf = 0.25
    E = np.linspace(0.0, 4.0, 41)
    for N in (5.0, 7.3, 12.0):
        U = pessimistic_error_rate(E[E < N], N, cf)
        # the extended tail I_{1-U}(N - E, E + 1) equals CF at U
        inside = E[E < N]
        np.testing.assert_allclose(betainc(N - inside, inside + 1, 1 - U), cf, rtol=1e-10)
        assert np.all(np.diff(U) > 0)  # more errors, a larger limit
    # between integers the limit lies between the integers' limits (the brute-force values)
    lo, mid, hi = pessimistic_error_rate([2.0, 2.4, 3.0], 10.0, cf)
    assert upper_limit_by_bisection(2, 10, cf) == pytest.approx(lo, abs=1e-12)
    assert lo < mid < hi
    # more cases with the same error rate: a tighter limit
    assert pessimistic_error_rate(1.2, 12.0) > pessimistic_error_rate(2.4, 24.0)
    # E >= N, an empty leaf included: every rate is consistent, U = 1 (zero errors charged)
    assert pessimistic_error_rate(3.0, 3.0) == 1.0 and pessimistic_error_rate(0.0, 0.0) == 1.0


@pytest.mark.equation("B.41")
def test_agrees_with_the_normal_approximation_for_large_n():
    cf = 0.25
    z = norm.ppf(1 - cf)
    for N, f in ((10_000, 0.1), (50_000, 0.3), (200_000, 0.02)):
        E = f * N
        exact = pessimistic_error_rate(E, N, cf)
        # Wilson's upper limit with a continuity correction of 1/2
        e = E + 0.5
        wilson = (e + z**2 / 2 + z * math.sqrt(e * (1 - e / N) + z**2 / 4)) / (N + z**2)
        sd = math.sqrt(f * (1 - f) / N)
        assert abs(exact - wilson) < 0.02 * sd  # the normal limit errs by O(1/N)
        assert exact > f
    # for small N they differ by far more than rounding
    e, N = 1.5, 16
    wilson = (e + z**2 / 2 + z * math.sqrt(e * (1 - e / N) + z**2 / 4)) / (N + z**2)
    assert abs(pessimistic_error_rate(1, 16) - wilson) > 1e-3


@pytest.mark.equation("B.41")
def test_a_smaller_confidence_factor_is_more_pessimistic():
    cfs = np.array([0.001, 0.01, 0.1, 0.25, 0.5, 0.9, 0.999])
    U = np.array([pessimistic_error_rate(2.0, 20.0, cf) for cf in cfs])
    assert np.all(np.diff(U) < 0)
    assert U[3] > 2 / 20 > U[-2]  # above the observed rate at 25 %, below it at 90 %


def test_bad_arguments_are_named():
    with pytest.raises(ValueError, match="n_errors"):
        pessimistic_error_rate(-1.0, 5.0)
    with pytest.raises(ValueError, match="n_samples"):
        pessimistic_error_rate(1.0, np.nan)
    for cf in (0.0, 1.0, -0.5, np.nan):
        with pytest.raises(ValueError, match="confidence_factor"):
            pessimistic_error_rate(1.0, 5.0, cf)
    with pytest.raises(TypeError, match="confidence_factor"):
        pessimistic_error_rate(1.0, 5.0, "0.25")
    with pytest.raises(ValueError, match="broadcast"):
        pessimistic_error_rate([1.0, 2.0], [5.0, 6.0, 7.0])


# Quinlan's worked example: a node of 16 cases (one error) whose three branches hold 6 and 9
# cases of its class and 1 case of another (written here as category codes 0, 1, 2)
X_16 = np.repeat([0.0, 1.0, 2.0], [6, 9, 1])[:, None]
Y_16 = np.repeat(["a", "a", "b"], [6, 9, 1])


@pytest.mark.equation("B.42")
def test_quinlans_worked_example_is_pruned_to_a_leaf():
    grown = C45Classifier(categorical_features=[0], pruning=None).fit(X_16, Y_16)
    assert grown.tree_.n_leaves == 3 and grown.score(X_16, Y_16) == 1.0
    predicted = pessimistic_node_errors(grown.tree_)
    leaves = grown.tree_.children[0]
    by_hand_leaves = 6 * (1 - 0.25 ** (1 / 6)) + 9 * (1 - 0.25 ** (1 / 9)) + 1 * 0.75
    np.testing.assert_allclose(predicted[leaves].sum(), by_hand_leaves)
    np.testing.assert_allclose(predicted[0], 16 * upper_limit_by_bisection(1, 16, 0.25))
    assert round(by_hand_leaves, 2) == 3.27 and round(predicted[0], 2) == 2.55
    pruned = C45Classifier(categorical_features=[0]).fit(X_16, Y_16)
    assert pruned.tree_.n_leaves == 1
    assert np.all(pruned.predict(X_16) == "a")
    # with ten times the cases the split pays for itself: 160 U(10, 160) > 60 U(0, 60) + ...
    k = np.full(16, 10.0)
    heavy = C45Classifier(categorical_features=[0]).fit(X_16, Y_16, sample_weight=k)
    assert heavy.tree_.n_leaves == 3


def noisy(n, seed, missing=0.0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 3))
    y = (X[:, 0] + 0.5 * X[:, 1] > 0).astype(int)
    y = np.where(rng.random(n) < 0.2, 1 - y, y)  # 20 % label noise
    X[rng.random(X.shape) < missing] = np.nan
    return X, y


def every_pruning(tree, node=0):
    """Every pruned subtree below node, as the set of nodes that become leaves."""
    if tree.is_leaf[node]:
        yield frozenset()
        return
    yield frozenset([node])
    for parts in itertools.product(*(every_pruning(tree, c) for c in tree.children[node])):
        yield frozenset().union(*parts)


@pytest.mark.equation("B.42")
def test_pruned_tree_has_the_least_predicted_errors_by_brute_force():
    for seed in range(3):
        X, y = noisy(80, seed, missing=0.15)
        grown = C45Classifier(pruning=None, max_depth=3).fit(X, y)
        tree = grown.tree_
        cost = pessimistic_node_errors(tree)
        candidates = []
        for collapsed in every_pruning(tree):
            sub = tree.subtree(np.isin(np.arange(tree.node_count), list(collapsed)))
            candidates.append((pessimistic_node_errors(sub)[sub.is_leaf].sum(), sub.n_leaves))
        assert len(candidates) > 3
        best = min(c for c, _ in candidates)
        fewest = min(k for c, k in candidates if c <= best * (1 + 1e-9))
        pruned, predicted = pessimistic_subtree(tree)
        assert predicted == pytest.approx(best, rel=1e-9)
        assert pruned.n_leaves == fewest
        assert predicted <= cost[tree.is_leaf].sum() * (1 + 1e-12)


@pytest.mark.equation("B.42")
def test_pruning_never_adds_leaves_and_cf_orders_the_size():
    for seed in range(4):
        X, y = noisy(400, seed, missing=0.1)
        grown = C45Classifier(pruning=None).fit(X, y)
        sizes = {
            cf: pessimistic_subtree(grown.tree_, cf)[0].n_leaves for cf in (0.001, 0.25, 0.999)
        }
        assert sizes[0.001] <= sizes[0.25] <= sizes[0.999] <= grown.tree_.n_leaves
        assert sizes[0.001] < sizes[0.999]


@pytest.mark.equation("B.42")
def test_pruning_with_fractional_weights_by_hand():
    X, y = noisy(300, 7, missing=0.3)
    w = np.random.default_rng(0).uniform(0.5, 2.0, size=300)
    grown = C45Classifier(pruning=None).fit(X, y, sample_weight=w)
    tree = grown.tree_
    N = tree.weighted_n_node_samples
    assert np.any(np.abs(N - np.round(N)) > 1e-3)  # fractional node weights
    E = N * (1 - tree.value.max(axis=1))
    t = int(np.flatnonzero(~tree.is_leaf)[-1])
    # the predicted errors of a node of fractional weight, from the beta tail
    U = pessimistic_node_errors(tree)[t] / N[t]
    assert betainc(E[t] + 1, N[t] - E[t], U) == pytest.approx(0.75, rel=1e-9)
    pruned = C45Classifier().fit(X, y, sample_weight=w)
    assert pruned.tree_.n_leaves < tree.n_leaves
    # the estimator's pruned tree is pessimistic_subtree of its grown tree
    again, _ = pessimistic_subtree(tree)
    np.testing.assert_array_equal(again.feature, pruned.tree_.feature)
    np.testing.assert_allclose(again.weighted_n_node_samples, pruned.tree_.weighted_n_node_samples)
    # integer weights are duplicated cases, for the pruning too
    k = np.random.default_rng(1).integers(1, 3, size=300)
    a = C45Classifier().fit(X, y, sample_weight=k)
    b = C45Classifier().fit(np.repeat(X, k, axis=0), np.repeat(y, k))
    np.testing.assert_array_equal(a.tree_.feature, b.tree_.feature)
    np.testing.assert_allclose(a.predict_proba(X), b.predict_proba(X))


@pytest.mark.equation("B.42")
def test_binary_cart_trees_are_pruned_by_the_same_rule():
    X, y = noisy(300, 3)
    cart = DecisionTreeClassifier(criterion="entropy", random_state=0).fit(X, y)
    tree = cart.tree_
    pruned, predicted = pessimistic_subtree(tree, 0.25)
    assert 1 < pruned.n_leaves < tree.n_leaves
    # by hand on the pruned tree: every kept inner node's leaf costs more than its branch
    cost = pessimistic_node_errors(pruned)
    assert predicted == pytest.approx(cost[pruned.is_leaf].sum())
    left, right = pruned.children_left, pruned.children_right
    branch = cost.copy()
    for t in range(pruned.node_count - 1, -1, -1):
        if left[t] >= 0:
            branch[t] = branch[left[t]] + branch[right[t]]
            assert cost[t] > branch[t]
