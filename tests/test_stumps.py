import numpy as np
import pytest
from sklearn.tree import DecisionTreeClassifier
from sklearn.utils.estimator_checks import parametrize_with_checks

from prml14 import DecisionStump
from prml14._validation import binary_targets
from prml14.boosting.stump_estimators import SortedColumns


def brute_force_min_error(X, t, w):
    """Smallest weighted error over constants and every (feature, midpoint, polarity), by loops."""
    best = min(w[t != 1].sum(), w[t != -1].sum())  # the two constant classifiers
    for j in range(X.shape[1]):
        values = np.unique(X[:, j])
        for theta in (values[:-1] + values[1:]) / 2:
            for s in (1.0, -1.0):
                pred = np.where(X[:, j] > theta, s, -s)
                best = min(best, w[pred != t].sum())
    return best


def random_case(rng, ties):
    n, d = rng.integers(1, 12), rng.integers(1, 4)
    X = rng.integers(0, 4, size=(n, d)).astype(float) if ties else rng.normal(size=(n, d))
    t = rng.choice([-1.0, 1.0], size=n)
    w = rng.exponential(size=n)
    if rng.uniform() < 0.2:
        w[rng.integers(n)] = 0.0
    return X, t, w


@pytest.mark.equation("14.15")
@pytest.mark.parametrize("ties", [False, True])
def test_error_stump_equals_brute_force_search(ties):
    rng = np.random.default_rng(4 + ties)
    for _ in range(300):
        X, t, w = random_case(rng, ties)
        expected = brute_force_min_error(X, t, w)
        feature, threshold, leaves, J = SortedColumns(X).best_error_split(t, w)
        pred = np.where(X[:, feature] > threshold, leaves[1], leaves[0])
        np.testing.assert_allclose(J, expected, atol=1e-12)
        np.testing.assert_allclose(w[pred != t].sum(), expected, atol=1e-12)


@pytest.mark.equation("14.15")
def test_estimator_reports_normalised_error_and_predicts_labels():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 3))
    y = np.where(X[:, 2] > 0.3, "yes", "no")
    y[:3] = np.where(y[:3] == "yes", "no", "yes")  # three label-noise points
    w = rng.uniform(0.5, 2.0, size=40)
    stump = DecisionStump().fit(X, y, sample_weight=w)
    assert stump.feature_ == 2
    assert list(stump.classes_) == ["no", "yes"]
    wrong = stump.predict(X) != y
    np.testing.assert_allclose(stump.error_, w[wrong].sum() / w.sum(), rtol=1e-12)
    np.testing.assert_allclose(
        stump.error_, brute_force_min_error(X, binary_targets(y)[1], w) / w.sum()
    )
    assert set(stump.decision_function(X)) <= {-1.0, 1.0}


def test_sorted_columns_are_reused_across_weights():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(30, 3))
    t = rng.choice([-1.0, 1.0], size=30)
    columns = SortedColumns(X)
    for _ in range(20):
        w = rng.exponential(size=30)
        assert np.isclose(
            columns.best_error_split(t, w)[3], brute_force_min_error(X, t, w), atol=1e-12
        )


def gini_split_score(X, t, w, feature, threshold):
    """Σ over the two leaves of V²/W (V = Σ w t, W = Σ w): larger means lower weighted Gini."""
    score = 0.0
    for leaf in (X[:, feature] <= threshold, X[:, feature] > threshold):
        if w[leaf].sum() > 0:
            score += (w[leaf] * t[leaf]).sum() ** 2 / w[leaf].sum()
    return score


def test_gini_stump_matches_sklearn_depth_one_tree():
    rng = np.random.default_rng(2)
    ties = 0
    for _ in range(60):
        n = rng.integers(5, 80)
        X = rng.normal(size=(n, 4)).astype(np.float32).astype(float)  # sklearn splits float32
        y = rng.permutation(np.arange(n) % 2)  # both classes in every draw: none is skipped
        w = rng.exponential(size=n)
        ours = DecisionStump(criterion="gini").fit(X, y, sample_weight=w)
        tree = DecisionTreeClassifier(max_depth=1, random_state=0).fit(X, y, sample_weight=w)
        if (ours.feature_, ours.threshold_) != (tree.tree_.feature[0], tree.tree_.threshold[0]):
            # allowed only for an exact tie between features (sklearn visits them in random order)
            t = 2.0 * y - 1
            a = gini_split_score(X, t, w, ours.feature_, ours.threshold_)
            b = gini_split_score(X, t, w, tree.tree_.feature[0], tree.tree_.threshold[0])
            np.testing.assert_allclose(a, b, rtol=1e-12)
            ties += 1
            continue
        np.testing.assert_array_equal(ours.predict(X), tree.predict(X))
    assert ties <= 3


def test_constant_features_and_pure_nodes_give_constant_stumps():
    X = np.ones((6, 2))
    y = np.array([0, 1, 1, 1, 0, 1])
    for criterion in ("error", "gini"):
        stump = DecisionStump(criterion=criterion).fit(X, y)
        assert stump.threshold_ == -np.inf
        np.testing.assert_array_equal(stump.predict(X), np.ones(6, dtype=int))
    stump = DecisionStump().fit(np.arange(4.0)[:, None], [0, 1, 1, 1], sample_weight=[0, 1, 1, 1])
    assert stump.error_ == 0.0


def test_bad_input_is_rejected():
    X = np.zeros((4, 2))
    with pytest.raises(ValueError, match="exactly two classes"):
        DecisionStump().fit(X, [0, 1, 2, 1])
    with pytest.raises(ValueError, match="NaN"):
        DecisionStump().fit(np.array([[np.nan], [1.0]]), [0, 1])
    with pytest.raises(ValueError, match="criterion"):
        DecisionStump(criterion="entropy").fit(X, [0, 1, 0, 1])
    with pytest.raises(ValueError, match="(?i)negative.*sample_weight"):
        DecisionStump().fit(X, [0, 1, 0, 1], sample_weight=[1, -1, 1, 1])
    with pytest.raises(ValueError, match="(?i)sample weights must contain at least one non-zero"):
        DecisionStump().fit(X, [0, 1, 0, 1], sample_weight=np.zeros(4))


@parametrize_with_checks([DecisionStump(), DecisionStump(criterion="gini")])
def test_sklearn_compatible(estimator, check):
    check(estimator)


def reference_min_error(X, t, w):
    """Smallest weighted error by one plain cumulative sum per feature (no blocking, no reuse)."""
    best = min(w[t < 0].sum(), w[t > 0].sum())
    for j in range(X.shape[1]):
        order = np.argsort(X[:, j])
        x, C = X[order, j], np.cumsum((w * t)[order])
        valid = x[1:] > x[:-1]
        if valid.any():
            best = min(
                best, C[:-1][valid].min() + w[t < 0].sum(), w[t > 0].sum() - C[:-1][valid].max()
            )
    return best


@pytest.mark.equation("14.15")
@pytest.mark.parametrize("ties", [False, True])
def test_blocked_prefix_sums_on_large_inputs(ties):
    rng = np.random.default_rng(7 + ties)
    n = 3001  # not a multiple of the block length: exercises the padding
    X = rng.integers(0, 50, size=(n, 3)).astype(float) if ties else rng.normal(size=(n, 3))
    t = np.where(
        X[:, 0] + X[:, 1] + rng.normal(scale=2.0, size=n) > X[:, :2].sum(axis=1).mean(), 1.0, -1.0
    )
    columns = SortedColumns(X)
    assert columns.block > 1
    for _ in range(5):
        w = rng.exponential(size=n)
        feature, threshold, leaves, J = columns.best_error_split(t, w)
        pred = np.where(X[:, feature] > threshold, leaves[1], leaves[0])
        expected = reference_min_error(X, t, w)
        np.testing.assert_allclose(J, expected, rtol=1e-12)
        np.testing.assert_allclose(w[pred != t].sum(), expected, rtol=1e-12)
    # a pure node and a single informative point: the constant classifier and the extreme split
    np.testing.assert_allclose(columns.best_error_split(np.ones(n), np.ones(n))[3], 0.0)


def dense_error_split(columns, v, tol):
    """The error search of the previous release: every prefix sum in one (B, D, L) array, tied
    positions masked in place, then the first extreme within the tie tolerance."""
    C = columns._prefix_sums(v)
    invalid = None if columns.valid_blocked is None else ~columns.valid_blocked
    if invalid is not None:
        np.copyto(C, np.inf, where=invalid)
    low = columns._first_extreme_blocked(C, tol, maximise=False)
    if invalid is not None:
        np.copyto(C, -np.inf, where=invalid)
    return low, columns._first_extreme_blocked(C, tol, maximise=True)


@pytest.mark.equation("14.15")
@pytest.mark.parametrize(
    "n, kind", [(3001, "continuous"), (3001, "few ties"), (3001, "integers"), (700, "few ties")]
)
def test_one_pass_scan_gives_the_dense_prefix_sums_bit_for_bit(n, kind):
    """The error criterion's scan (one gather per block position, running extremes, tie blocks
    redone) finds the same extremes, positions and values as the dense prefix sums."""
    rng = np.random.default_rng(n)
    X = rng.normal(size=(n, 4))
    if kind == "few ties":
        X[rng.integers(n, size=40), rng.integers(4, size=40)] = 0.5  # tie blocks redone
    elif kind == "integers":
        X = np.round(X * 3)  # ties in most blocks: masked inside the scan
    columns = SortedColumns(X)
    assert (columns.tie_blocks is None) == (kind != "few ties")
    assert (columns.valid_blocked is None) == (kind == "continuous")
    t = np.where(X[:, 0] - X[:, 2] + rng.normal(size=n) > 0, 1.0, -1.0)
    for _ in range(4):
        w = rng.exponential(size=n)
        w /= w.sum()
        ve, offsets, low, high = columns._error_extremes(w * t)
        tol = 1e-13 * float(np.sum(w))
        ours = (
            columns._first_in_block(ve, offsets, low, tol, maximise=False),
            columns._first_in_block(ve, offsets, high, tol, maximise=True),
        )
        assert ours == dense_error_split(columns, w * t, tol)
        # every block's extremes, not only the winning ones
        C = columns._prefix_sums(w * t)
        valid = True if columns.valid_blocked is None else columns.valid_blocked
        np.testing.assert_array_equal(low, np.min(C, axis=0, where=valid, initial=np.inf))
        np.testing.assert_array_equal(high, np.max(C, axis=0, where=valid, initial=-np.inf))


def test_gini_stump_matches_sklearn_on_large_inputs():
    rng = np.random.default_rng(11)
    n = 2500  # large enough for the blocked prefix sums
    X = rng.normal(size=(n, 5)).astype(np.float32).astype(float)
    y = (X[:, 1] - 0.5 * X[:, 3] + rng.normal(size=n) > 0).astype(int)
    assert SortedColumns(X).block > 1
    for _ in range(5):
        w = rng.exponential(size=n)
        ours = DecisionStump(criterion="gini").fit(X, y, sample_weight=w)
        tree = DecisionTreeClassifier(max_depth=1, random_state=0).fit(X, y, sample_weight=w)
        assert (ours.feature_, ours.threshold_) == (tree.tree_.feature[0], tree.tree_.threshold[0])
        np.testing.assert_array_equal(ours.predict(X), tree.predict(X))


def test_gini_stump_skips_near_ties_like_sklearn():
    # scikit-learn's splitter treats consecutive float32 values closer than 1e-7 as tied and
    # never splits between them; the gini mode must do the same to serve as its oracle
    rng = np.random.default_rng(3)
    for _ in range(60):
        n = 40
        X = rng.normal(size=(n, 2))
        X[1::2, 0] = X[0::2, 0] + rng.uniform(1e-9, 5e-8, size=n // 2) * rng.choice(
            [-1, 1], size=n // 2
        )
        X = X.astype(np.float32).astype(float)
        y = rng.integers(0, 2, size=n)
        y[1::2] = 1 - y[0::2]  # the best cut would separate the near-tied pairs
        w = rng.exponential(size=n)
        ours = DecisionStump(criterion="gini").fit(X, y, sample_weight=w)
        tree = DecisionTreeClassifier(max_depth=1, random_state=0).fit(X, y, sample_weight=w)
        assert (ours.feature_, ours.threshold_) == (tree.tree_.feature[0], tree.tree_.threshold[0])


def test_error_stump_still_splits_near_ties():
    # the exact minimiser of (14.15) may cut between values 1e-9 apart
    X = np.array([[0.0], [1e-9], [1.0], [1.0 + 1e-9]])
    y = np.array([0, 1, 0, 1])
    stump = DecisionStump().fit(X, y, sample_weight=[1.0, 3.0, 1.0, 1.0])
    assert stump.threshold_ == 0.5e-9
    assert stump.error_ == pytest.approx(1 / 6)


@pytest.mark.parametrize("criterion", ["error", "gini"])
def test_huge_sample_weights_do_not_overflow(criterion):
    X, y = np.arange(6.0)[:, None], np.array([0, 1, 0, 1, 1, 0])
    big = DecisionStump(criterion=criterion).fit(X, y, sample_weight=np.full(6, 1e308))
    unit = DecisionStump(criterion=criterion).fit(X, y)
    assert (big.feature_, big.threshold_, big.error_) == (
        unit.feature_,
        unit.threshold_,
        unit.error_,
    )


def test_values_beyond_float32_range():
    X = np.array([[1e308], [-1e308], [1e308], [-1.7e308]])
    y = np.array([0, 1, 0, 1])
    stump = DecisionStump().fit(X, y)  # no overflow warning from the float32 near-tie test
    assert stump.threshold_ == 0.0 and stump.error_ == 0.0
    np.testing.assert_array_equal(stump.predict(X), y)


def test_sorted_columns_see_targets_changed_in_place():
    rng = np.random.default_rng(12)
    X = rng.normal(size=(50, 3))
    t = np.where(X[:, 0] > 0, 1.0, -1.0)
    w = np.ones(50)
    columns = SortedColumns(X)
    assert columns.best_gini_split(t, w)[0] == 0
    t[:] = np.where(X[:, 2] > 0.3, 1.0, -1.0)  # same array object, new targets
    feature, threshold, leaves, J = columns.best_gini_split(t, w)
    assert (feature, J) == (2, 0.0)


def test_gini_stump_with_weights_below_rounding_on_one_side():
    # Long AdaBoost runs give some points weights far below the rounding error of the total.
    # The right side's sums come from subtractions (W − W_L, V − V_L); their noise must not
    # look like a pure right leaf (V_R²/W_R with W_R = 0 gave inf or nan: a constant stump or
    # a crash). The chosen split must score as well as a direct search over all splits.
    rng = np.random.default_rng(0)
    for _ in range(40):
        n = int(rng.integers(5, 300))
        X = rng.normal(size=(n, 2))
        t = rng.choice([-1.0, 1.0], size=n)
        w = rng.exponential(size=n)
        top = np.argsort(X[:, 0])[-int(rng.integers(1, 4)) :]
        w[top] = 1e-25 * rng.uniform(size=len(top))
        feature, threshold, leaves, J = SortedColumns(X).best_gini_split(t, w)
        assert np.isfinite(threshold)
        best = max(
            gini_split_score(X, t, w, j, theta)
            for j in range(2)
            for theta in (np.sort(X[:, j])[1:] + np.sort(X[:, j])[:-1]) / 2
        )
        np.testing.assert_allclose(gini_split_score(X, t, w, feature, threshold), best, rtol=1e-12)
