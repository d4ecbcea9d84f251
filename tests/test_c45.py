import math

import numpy as np
import pytest
from sklearn.tree import DecisionTreeClassifier as SkTree
from sklearn.utils.estimator_checks import parametrize_with_checks

from prml14 import (
    C45Classifier,
    cross_entropy_impurity,
    entropy,
    fractional_weights,
    gain_ratio,
    information_gain,
    intrinsic_value,
    missing_value_gain,
)

# a small categorical data set: sky, temperature, wind -> picnic (written for these tests)
SKY = {"sunny": 0, "overcast": 1, "rainy": 2}
TEMP = {"hot": 0, "mild": 1, "cool": 2}
WIND = {"calm": 0, "windy": 1}
ROWS = [
    ("sunny", "hot", "calm", "yes"),
    ("sunny", "hot", "windy", "no"),
    ("sunny", "mild", "calm", "yes"),
    ("sunny", "cool", "windy", "no"),
    ("overcast", "hot", "calm", "yes"),
    ("overcast", "mild", "windy", "yes"),
    ("overcast", "cool", "calm", "yes"),
    ("rainy", "mild", "calm", "no"),
    ("rainy", "cool", "windy", "no"),
    ("rainy", "mild", "windy", "no"),
    ("rainy", "hot", "calm", "yes"),
    ("overcast", "mild", "calm", "yes"),
]
X_PICNIC = np.array([[SKY[s], TEMP[t], WIND[w]] for s, t, w, _ in ROWS], dtype=float)
Y_PICNIC = np.array([r[3] for r in ROWS])


def unpruned(**params):
    """The grown tree of the textbook rules: no pruning, no minimum branch size beyond 1, the
    split information over the known points, every attribute in the average gain."""
    defaults = dict(
        pruning=None, min_samples_leaf=1.0, unknown_outcome=False, many_valued_fraction=None
    )
    return C45Classifier(**{**defaults, **params})


def H(*counts):
    """Entropy in bits of class counts, by hand."""
    n = sum(counts)
    return -sum(c / n * math.log2(c / n) for c in counts if c)


# hand computation on the picnic data (7 yes, 5 no)
ENT_D = H(7, 5)
GAIN_SKY = ENT_D - (4 / 12 * H(2, 2) + 4 / 12 * H(4, 0) + 4 / 12 * H(1, 3))
GAIN_TEMP = ENT_D - (4 / 12 * H(3, 1) + 5 / 12 * H(3, 2) + 3 / 12 * H(1, 2))
GAIN_WIND = ENT_D - (7 / 12 * H(6, 1) + 5 / 12 * H(1, 4))
IV_SKY, IV_TEMP, IV_WIND = H(4, 4, 4), H(4, 5, 3), H(7, 5)


@pytest.mark.equation("B.22")
def test_entropy_bits_and_nats():
    counts = np.array([[7.0, 5.0], [3.0, 0.0], [1.0, 2.0]])
    bits = entropy(counts)
    np.testing.assert_allclose(bits, [H(7, 5), 0.0, H(1, 2)])
    p = counts / counts.sum(axis=1, keepdims=True)
    np.testing.assert_allclose(entropy(counts, base=np.e), cross_entropy_impurity(p))
    np.testing.assert_allclose(bits * np.log(2), cross_entropy_impurity(p))
    assert entropy([0.0, 0.0]) == 0.0
    with pytest.raises(ValueError, match="base"):
        entropy([1.0, 2.0], base=1.0)
    with pytest.raises(ValueError, match="class_weights"):
        entropy([1.0, -2.0])


@pytest.mark.equation("B.23")
def test_information_gain_by_hand():
    sky = [[2, 2], [4, 0], [1, 3]]  # (yes, no) per value
    assert information_gain(sky) == pytest.approx(GAIN_SKY)
    assert information_gain([[3, 1], [3, 2], [1, 2]]) == pytest.approx(GAIN_TEMP)
    assert information_gain([[6, 1], [1, 4]]) == pytest.approx(GAIN_WIND)
    assert information_gain([[6, 1], [1, 4]], base=np.e) == pytest.approx(GAIN_WIND * np.log(2))
    with pytest.raises(ValueError, match="branch_class_weights"):
        information_gain([1.0, 2.0])


@pytest.mark.equation("B.24")
@pytest.mark.equation("B.25")
def test_intrinsic_value_and_gain_ratio_by_hand():
    assert intrinsic_value([4, 4, 4]) == pytest.approx(math.log2(3))
    assert intrinsic_value([7, 5, 0]) == pytest.approx(IV_WIND)
    assert gain_ratio(GAIN_WIND, IV_WIND) == pytest.approx(GAIN_WIND / IV_WIND)
    assert gain_ratio(0.3, 0.0) == 0.0
    np.testing.assert_allclose(gain_ratio([0.2, 0.4], [1.0, 2.0]), [0.2, 0.2])
    # an identifier (one value per point) has the largest gain, and a gain ratio below wind's
    ident = np.zeros((12, 2))
    ident[np.arange(12), (Y_PICNIC == "no").astype(int)] = 1
    assert information_gain(ident) == pytest.approx(ENT_D)
    assert gain_ratio(information_gain(ident), intrinsic_value(np.ones(12))) == pytest.approx(
        ENT_D / math.log2(12)
    )
    assert ENT_D / math.log2(12) < GAIN_WIND / IV_WIND


@pytest.mark.equation("B.23")
@pytest.mark.equation("B.25")
def test_root_attribute_and_scores_equal_hand_computation():
    id3 = unpruned(criterion="information_gain", categorical_features=[0, 1, 2])
    id3.fit(X_PICNIC, Y_PICNIC)
    np.testing.assert_allclose(id3.tree_.gain[0], [GAIN_SKY, GAIN_TEMP, GAIN_WIND])
    np.testing.assert_allclose(id3.tree_.iv[0], [IV_SKY, IV_TEMP, IV_WIND])
    assert id3.tree_.feature[0] == 0  # largest gain: sky
    c45 = C45Classifier(categorical_features=[True, True, True]).fit(X_PICNIC, Y_PICNIC)
    # above-average gain: sky and wind; the larger gain ratio: wind
    mean_gain = (GAIN_SKY + GAIN_TEMP + GAIN_WIND) / 3
    assert GAIN_SKY >= mean_gain and GAIN_WIND >= mean_gain > GAIN_TEMP
    assert GAIN_WIND / IV_WIND > GAIN_SKY / IV_SKY
    assert c45.tree_.feature[0] == 2
    # second level of ID3 under sky = sunny (2 yes: calm; 2 no: windy): wind separates it
    sunny = id3.tree_.children[0][0]
    gain_wind_sunny = H(2, 2) - (2 / 4 * H(2, 0) + 2 / 4 * H(0, 2))
    gain_temp_sunny = H(2, 2) - (2 / 4 * H(1, 1) + 1 / 4 * H(1, 0) + 1 / 4 * H(0, 1))
    np.testing.assert_allclose(id3.tree_.gain[sunny, [1, 2]], [gain_temp_sunny, gain_wind_sunny])
    assert id3.tree_.feature[sunny] == 2
    assert id3.score(X_PICNIC, Y_PICNIC) == 1.0


@pytest.mark.equation("B.25")
def test_the_average_gain_filter_decides_against_a_lopsided_split():
    # 6 yes, 6 no. "rare": value 1 on two yes points only, a lopsided split whose tiny intrinsic
    # value lifts its gain ratio above that of "ident" (one value per point, gain 1 bit). C4.5
    # first keeps the attributes of at least average gain, which leaves out "rare".
    y = np.array(["yes"] * 6 + ["no"] * 6)
    rare = np.r_[1, 1, np.zeros(10)]
    X = np.c_[rare, np.arange(12)]
    gain_rare, iv_rare = 1 - 10 / 12 * H(4, 6), H(2, 10)
    gain_ident, iv_ident = 1.0, math.log2(12)
    assert gain_rare < (gain_rare + gain_ident) / 2 <= gain_ident
    assert gain_rare / iv_rare > gain_ident / iv_ident  # without the filter "rare" would win
    # the textbook rule: one-point branches allowed, no attribute left out of the average
    c45 = C45Classifier(
        categorical_features=[0, 1], min_samples_leaf=1, many_valued_fraction=None, pruning=None
    ).fit(X, y)
    np.testing.assert_allclose(c45.tree_.gain[0], [gain_rare, gain_ident])
    np.testing.assert_allclose(c45.tree_.iv[0], [iv_rare, iv_ident])
    assert c45.tree_.feature[0] == 1


def test_export_text_names_the_branches():
    est = C45Classifier(criterion="information_gain", categorical_features=[0, 1, 2])
    est.fit(X_PICNIC, Y_PICNIC)
    names = {0: list(SKY), 1: list(TEMP), 2: list(WIND)}
    text = est.export_text(["sky", "temp", "wind"], category_names=names)
    assert text.splitlines()[0] == "|--- sky = sunny"
    assert "|   |--- wind = calm" in text and "class: yes (weight 4.000)" in text
    with pytest.raises(ValueError, match="feature_names"):
        est.export_text(["a"])


@pytest.mark.equation("B.26")
def test_missing_value_gain_by_hand():
    # sky unknown for two points (one yes, one no): D~ has 6 yes, 4 no
    D_tilde = [[2, 1], [3, 0], [1, 3]]
    rho = 10 / 12
    by_hand = rho * (H(6, 4) - (3 / 10 * H(2, 1) + 3 / 10 * H(3, 0) + 4 / 10 * H(1, 3)))
    assert missing_value_gain(D_tilde, 2.0) == pytest.approx(by_hand)
    assert missing_value_gain(D_tilde, 0.0) == pytest.approx(information_gain(D_tilde))
    assert missing_value_gain(np.zeros((3, 2)), 5.0) == 0.0
    with pytest.raises(ValueError, match="missing_weight"):
        missing_value_gain(D_tilde, -1.0)
    with pytest.raises(TypeError, match="missing_weight"):
        missing_value_gain(D_tilde, "2")
    with pytest.raises(ValueError, match="branch_class_weights must hold real numbers"):
        missing_value_gain(np.asarray(D_tilde) + 1j, 2.0)
    with pytest.raises(ValueError, match="at least one class"):
        entropy(np.zeros(0))


@pytest.mark.equation("B.26")
def test_fitted_gains_with_missing_values_equal_hand_computation():
    X = X_PICNIC.copy()
    X[[1, 6], 0] = np.nan  # sky of a "no" (sunny) and a "yes" (overcast) removed
    X[[2], 2] = np.nan  # wind of a calm "yes"
    est = unpruned(criterion="information_gain", categorical_features=[0, 1, 2]).fit(X, Y_PICNIC)
    gain_sky = 10 / 12 * (H(6, 4) - (3 / 10 * H(2, 1) + 3 / 10 * H(3, 0) + 4 / 10 * H(1, 3)))
    gain_wind = 11 / 12 * (H(6, 5) - (6 / 11 * H(5, 1) + 5 / 11 * H(1, 4)))
    np.testing.assert_allclose(est.tree_.gain[0], [gain_sky, GAIN_TEMP, gain_wind])
    np.testing.assert_allclose(est.tree_.iv[0, [0, 2]], [H(3, 3, 4), H(6, 5)])
    # Quinlan's split information: the two unknown skies and the unknown wind as an outcome
    quinlan = C45Classifier(categorical_features=[0, 1, 2], pruning=None).fit(X, Y_PICNIC)
    np.testing.assert_allclose(quinlan.tree_.gain[0], est.tree_.gain[0])
    np.testing.assert_allclose(quinlan.tree_.iv[0], [H(2, 3, 3, 4), IV_TEMP, H(1, 6, 5)])
    np.testing.assert_allclose(
        quinlan.tree_.iv[0, [0, 2]], [1.959, 1.325], atol=5e-4
    )  # the figures of page B.8
    assert quinlan.tree_.feature[0] == 2  # wind, as with the known-only split information


@pytest.mark.equation("B.27")
def test_fractional_weights():
    fw = fractional_weights([1.0, 0.5], [3.0, 3.0, 4.0])
    np.testing.assert_allclose(fw, [[0.3, 0.3, 0.4], [0.15, 0.15, 0.2]])
    np.testing.assert_allclose(fw.sum(axis=1), [1.0, 0.5])
    with pytest.raises(ValueError, match="branch_weights"):
        fractional_weights([1.0], [0.0, 0.0])


def messy_data(n=300, seed=0, missing=0.2):
    rng = np.random.default_rng(seed)
    X = np.column_stack(
        [rng.integers(0, 3, n), rng.normal(size=n), rng.integers(0, 4, n), rng.normal(size=n)]
    ).astype(float)
    y = ((X[:, 0] == 1) ^ (X[:, 1] > 0.3)).astype(int) + (X[:, 3] > 1.2)
    X[rng.random(X.shape) < missing] = np.nan
    return X, y, rng.uniform(0.5, 2.0, n)


@pytest.mark.equation("B.27")
def test_fractional_weights_sum_to_the_parent_at_every_node():
    X, y, w = messy_data()
    est = C45Classifier(categorical_features=[0, 2]).fit(X, y, sample_weight=w)
    tree = est.tree_
    assert tree.weighted_n_node_samples[0] == pytest.approx(w.sum())
    inner = np.flatnonzero(~tree.is_leaf)
    assert inner.size > 5
    for node in inner:
        kids = tree.children[node]
        assert tree.weighted_n_node_samples[kids].sum() == pytest.approx(
            tree.weighted_n_node_samples[node]
        )
        assert tree.branch_fraction[node].sum() == pytest.approx(1.0)


@pytest.mark.equation("B.27")
def test_prediction_with_missing_values_sums_over_branches():
    X, _, w = messy_data(seed=1)
    x0 = np.nan_to_num(X[:, 0], nan=0.0)
    y = np.where(np.nan_to_num(X[:, 1]) > 1.0, (x0 + 1) % 3, x0)  # mostly the category of x0
    est = C45Classifier(categorical_features=[0, 2]).fit(X, y, sample_weight=w)
    tree = est.tree_
    j = tree.feature[0]
    Xq, _, _ = messy_data(n=40, seed=2, missing=0.1)
    Xq[:, j] = np.nan
    P = est.predict_proba(Xq)
    np.testing.assert_allclose(P.sum(axis=1), 1.0)
    assert est.is_categorical_[j]
    # the root's attribute is not tested again below it: fill in each of its values instead
    filled = [np.where(np.arange(4) == j, c, Xq) for c in est.categories_[j]]
    explicit = sum(
        r * est.predict_proba(Xv) for r, Xv in zip(tree.branch_fraction[0], filled, strict=True)
    )
    np.testing.assert_allclose(P, explicit)


@pytest.mark.equation("B.27")
def test_prediction_with_missing_values_explicit_two_level_sum():
    X = X_PICNIC.copy()
    est = unpruned(criterion="information_gain", categorical_features=[0, 1, 2])
    est.fit(X, Y_PICNIC)
    tree = est.tree_
    x = np.array([[np.nan, 0.0, np.nan]])  # sky and wind unknown
    L = est.leaf_weights(x)[0]
    # by hand: sky unknown -> every branch with r = 4/12; below, temp = hot (code 0) is known
    # and wind is unknown
    expected = np.zeros(tree.node_count)
    for v, child in enumerate(tree.children[0]):
        r = tree.branch_fraction[0][v]
        if tree.is_leaf[child]:
            expected[child] += r
            continue
        kids = tree.children[child]
        assert tree.is_leaf[kids].all()
        if tree.feature[child] == 1:  # temp known: one branch, all of the weight
            expected[kids[0]] += r
        else:  # wind unknown: both branches
            expected[kids] += r * tree.branch_fraction[child]
    assert tree.feature[0] == 0 and set(tree.feature[tree.children[0]]) == {-2, 1, 2}
    np.testing.assert_allclose(L, expected)
    np.testing.assert_allclose(est.predict_proba(x)[0], expected @ tree.value)


def test_id3_on_continuous_features_equals_sklearn_entropy_tree():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(300, 3)).astype(np.float32).astype(float)
    y = (X[:, 0] + 0.5 * X[:, 1] ** 2 + 0.3 * rng.normal(size=300) > 0.4).astype(int)
    ours = unpruned(criterion="information_gain", max_depth=3).fit(X, y)
    ref = SkTree(criterion="entropy", max_depth=3, random_state=0).fit(X, y)
    # the same cuts in the same (depth-first) order; each of ours is the largest training
    # value not above scikit-learn's midpoint, a value that occurs in the data
    inner = np.flatnonzero(~ours.tree_.is_leaf)
    ref_inner = np.flatnonzero(ref.tree_.children_left >= 0)
    assert inner.size == ref_inner.size == 6
    np.testing.assert_array_equal(ours.tree_.feature[inner], ref.tree_.feature[ref_inner])
    for node, ref_node in zip(inner, ref_inner, strict=True):
        col = X[:, ours.tree_.feature[node]]
        assert ours.tree_.threshold[node] == col[col <= ref.tree_.threshold[ref_node]].max()
    # hence the same partition of the training data and the same predictions on it
    np.testing.assert_allclose(ours.predict_proba(X), ref.predict_proba(X))


def test_a_continuous_attribute_is_reused_down_a_path():
    x = np.arange(40.0)[:, None] / 40
    y = (np.floor(x[:, 0] * 4) % 2).astype(int)  # 0, 1, 0, 1 on four intervals
    est = C45Classifier().fit(x, y)
    assert est.score(x, y) == 1.0
    assert np.count_nonzero(est.tree_.feature == 0) == 3


def test_unseen_category_raises_or_is_missing():
    est = C45Classifier(categorical_features=[0, 1, 2]).fit(X_PICNIC, Y_PICNIC)
    Xq = X_PICNIC[:3].copy()
    Xq[1, 0] = 7.0
    with pytest.raises(ValueError, match="never seen in training in feature 0"):
        est.predict(Xq)
    lenient = C45Classifier(categorical_features=[0, 1, 2], handle_unknown="missing")
    lenient.fit(X_PICNIC, Y_PICNIC)
    Xn = Xq.copy()
    Xn[1, 0] = np.nan
    np.testing.assert_array_equal(lenient.predict_proba(Xq), lenient.predict_proba(Xn))


def test_bad_inputs():
    X = X_PICNIC.copy()
    X[:, 1] = np.nan
    with pytest.raises(ValueError, match=r"no observed value in feature\(s\) \[1\]"):
        C45Classifier(categorical_features=[0, 1, 2]).fit(X, Y_PICNIC)
    with pytest.raises(ValueError, match="categorical_features"):
        C45Classifier(categorical_features=[True, False]).fit(X_PICNIC, Y_PICNIC)
    with pytest.raises(ValueError, match="categorical_features"):
        C45Classifier(categorical_features=[5]).fit(X_PICNIC, Y_PICNIC)
    with pytest.raises(ValueError, match="criterion"):
        C45Classifier(criterion="gini").fit(X_PICNIC, Y_PICNIC)


def test_deterministic_and_weights_equal_duplicates():
    X, y, w = messy_data(seed=4)
    a = C45Classifier(categorical_features=[0, 2]).fit(X, y)
    b = C45Classifier(categorical_features=[0, 2]).fit(X, y)
    np.testing.assert_array_equal(a.tree_.feature, b.tree_.feature)
    np.testing.assert_array_equal(a.tree_.value, b.tree_.value)
    k = np.random.default_rng(0).integers(1, 3, y.size)
    c = C45Classifier(categorical_features=[0, 2]).fit(X, y, sample_weight=k)
    d = C45Classifier(categorical_features=[0, 2]).fit(np.repeat(X, k, 0), np.repeat(y, k))
    np.testing.assert_array_equal(c.tree_.feature, d.tree_.feature)
    np.testing.assert_allclose(c.predict_proba(X), d.predict_proba(X))


def test_min_samples_leaf_excludes_an_identifier():
    ident = np.column_stack([X_PICNIC, np.arange(12.0)])
    est = unpruned(criterion="information_gain", categorical_features=[0, 1, 2, 3])
    assert est.fit(ident, Y_PICNIC).tree_.feature[0] == 3  # ID3 takes the identifier
    est.set_params(min_samples_leaf=2)
    assert est.fit(ident, Y_PICNIC).tree_.feature[0] != 3


def test_min_samples_leaf_needs_two_branches_of_that_weight():
    # "rare" sends 2 points one way and 10 the other: with min_samples_leaf=3 only one branch
    # has the weight, so the split is invalid and the root stays a leaf
    X = np.r_[1, 1, np.zeros(10)][:, None]
    y = np.r_[1, 1, 1, 1, 1, 1, np.zeros(6)]
    est = C45Classifier(categorical_features=[0], min_samples_leaf=2).fit(X, y)
    assert est.tree_.node_count == 3
    assert est.set_params(min_samples_leaf=3).fit(X, y).tree_.node_count == 1


@pytest.mark.equation("B.27")
def test_a_missing_value_at_prediction_weighs_the_branches_by_their_training_shares():
    # C4.5's root is wind (calm 7, windy 5 of 12): a point whose wind is missing gets
    # 7/12 of its prediction as calm plus 5/12 of it as windy
    c45 = C45Classifier(categorical_features=[0, 1, 2]).fit(X_PICNIC, Y_PICNIC)
    assert c45.tree_.feature[0] == 2
    rows = np.array([[s, t, np.nan] for s in range(3) for t in range(3)])
    calm, windy = rows.copy(), rows.copy()
    calm[:, 2], windy[:, 2] = WIND["calm"], WIND["windy"]
    p_calm, p_windy = c45.predict_proba(calm), c45.predict_proba(windy)
    assert not np.allclose(p_calm, p_windy)
    np.testing.assert_allclose(c45.predict_proba(rows), 7 / 12 * p_calm + 5 / 12 * p_windy)


@parametrize_with_checks([C45Classifier(), C45Classifier(criterion="information_gain")])
def test_sklearn_compatible(estimator, check):
    check(estimator)


def test_defaults_follow_quinlans_program():
    params = C45Classifier().get_params()
    assert params["min_samples_leaf"] == 2  # -m 2
    assert params["pruning"] == "pessimistic" and params["confidence_factor"] == 0.25
    assert params["unknown_outcome"] is True and params["many_valued_fraction"] == 0.3


def zero_gain_data():
    """40 points, 20 per class. a: four values of 10, (8, 2), (8, 2), (2, 8), (2, 8): gain
    1 - Ent(0.2) = 0.278, IV 2. b: a pure branch of 8 positives: gain 0.237, IV Ent(0.2).
    c: two values of 10 positives and 10 negatives each: gain exactly 0, a valid split."""
    pos, neg = np.arange(20), np.arange(20, 40)
    a, b, c = np.zeros(40), np.zeros(40), np.zeros(40)
    a[pos] = np.repeat([0, 1, 2, 3], [8, 8, 2, 2])
    a[neg] = np.repeat([0, 1, 2, 3], [2, 2, 8, 8])
    b[pos[:8]] = 1
    c[pos[10:]] = c[neg[10:]] = 1
    return np.column_stack([a, b, c]), (np.arange(40) < 20).astype(int)


@pytest.mark.equation("B.25")
def test_the_average_gain_counts_attributes_of_zero_gain():
    X, y = zero_gain_data()
    est = C45Classifier(categorical_features=[0, 1, 2], pruning=None).fit(X, y)
    gain, iv = est.tree_.gain[0], est.tree_.iv[0]
    np.testing.assert_allclose(gain, [1 - H(8, 2), 1 - 32 / 40 * H(12, 20), 0.0], atol=1e-15)
    np.testing.assert_allclose(iv, [2.0, H(8, 32), 1.0])
    # average over the three valid splits: 0.171 <= gain(b), and b has the larger ratio
    assert gain[1] >= gain.mean() and gain[1] / iv[1] > gain[0] / iv[0]
    assert est.tree_.feature[0] == 1
    # leaving the zero gain out of the average (here: without the attribute) would exclude b
    without_c = C45Classifier(categorical_features=[0, 1], pruning=None).fit(X[:, :2], y)
    assert gain[1] < gain[:2].mean() and without_c.tree_.feature[0] == 0


@pytest.mark.equation("B.25")
def test_many_valued_attributes_are_left_out_of_the_average():
    ident = np.column_stack([X_PICNIC, np.arange(12.0)])  # 12 values >= 0.3 * 12
    est = unpruned(categorical_features=[0, 1, 2, 3])
    # the textbook rule: the identifier alone reaches the average gain (0.4413)
    assert est.fit(ident, Y_PICNIC).tree_.feature[0] == 3
    np.testing.assert_allclose(est.tree_.gain[0].mean(), 0.4413, atol=5e-5)
    # Quinlan's program: the average of the other three (0.2618), then wind's ratio wins
    est.set_params(many_valued_fraction=0.3)
    assert est.fit(ident, Y_PICNIC).tree_.feature[0] == 2
    # every attribute many-valued: the average counts them all again
    all_many = unpruned(categorical_features=[0], many_valued_fraction=0.25)
    X_two = np.column_stack([X_PICNIC[:, 0], np.arange(12.0)])
    assert all_many.set_params(categorical_features=[0, 1]).fit(X_two, Y_PICNIC).tree_.feature[0]


def test_a_cut_is_reported_as_a_training_value():
    # category 0: x in {0, 10}, class = x > 5; categories 1 and 2 (pure) hold the value 3
    x = np.array([0.0, 0.0, 10.0, 10.0] + [3.0] * 12)
    cat = np.repeat([0.0, 1.0, 2.0], [4, 6, 6])
    y = np.repeat([0, 1, 0, 1, 0], [2, 2, 6, 6, 0])
    est = C45Classifier(categorical_features=[0], pruning=None).fit(np.column_stack([cat, x]), y)
    node = est.tree_.children[0][0]
    assert est.tree_.feature[node] == 1
    # the midpoint of the cut is 5; the largest training value not above it is 3 (category 1)
    assert est.tree_.threshold[node] == 3.0
    assert est.score(np.column_stack([cat, x]), y) == 1.0
    # which is what a new point of category 0 is tested against: x = 4 goes right
    assert est.predict([[0.0, 4.0]])[0] == 1
    # every threshold of a grown tree occurs in the data
    X, yy, _ = messy_data(seed=5)
    tree = C45Classifier(categorical_features=[0, 2]).fit(X, yy).tree_
    cont = (tree.feature >= 0) & np.isfinite(tree.threshold)
    assert cont.sum() > 2
    for j, thr in zip(tree.feature[cont], tree.threshold[cont], strict=True):
        assert thr in X[:, j]


def node_by_node(est, X, y, w):
    """C4.5/ID3 grown node by node from the tagged functions (B.23)-(B.27), every cut of a
    continuous attribute tried one by one (brute force): the slow reference of the level-wise
    grower. Returns the unpruned tree's nodes depth-first, branch 0 first, as tuples
    (feature, threshold, weight, class proportions, children)."""
    p = est.get_params()
    classes, yk = np.unique(y, return_inverse=True)
    K, (N, D) = classes.size, X.shape
    cat = np.zeros(D, dtype=bool)
    cat[list(p["categorical_features"] or [])] = True
    values = [np.unique(X[~np.isnan(X[:, j]), j]) for j in range(D)]
    many = cat & (np.array([v.size for v in values]) >= (p["many_valued_fraction"] or 2) * N)
    in_average = ~many if not many.all() else np.ones(D, dtype=bool)
    msl, tiny = p["min_samples_leaf"] * (1 - 1e-9), 1e-12
    nodes = []

    def split_table(x, yy, ww, j):
        """The best (table, threshold) of attribute j on the known points, or None."""
        if cat[j]:
            b = np.searchsorted(values[j], x)
            t = np.bincount(b * K + yy, ww, values[j].size * K).reshape(-1, K)
            return (t, np.nan) if np.count_nonzero(t.sum(axis=1) >= msl) >= 2 else None
        best = None
        u = np.unique(x)
        for a, b in zip(u[:-1], u[1:], strict=True):
            t = np.bincount((x > a) * K + yy, ww, 2 * K).reshape(2, K)
            if t.sum(axis=1).min() >= msl:
                g = information_gain(t)
                if best is None or g > best[0] + tiny:
                    v = values[j][values[j] <= a / 2 + b / 2].max()
                    best = (g, t, a if v >= b else v)
        return None if best is None else best[1:]

    def grow(idx, wn, depth, parent_value):
        counts = np.bincount(yk[idx], wn, K)
        W = counts.sum()
        node = [-2, np.nan, W, counts / W if W > 0 else parent_value, []]
        nodes.append(node)
        if W <= 0 or depth >= (p["max_depth"] or np.inf) or W < p["min_samples_split"]:
            return
        if entropy(counts) <= tiny:
            return
        gains, ivs, splits = np.full(D, np.nan), np.full(D, np.nan), [None] * D
        for j in range(D):
            known = ~np.isnan(X[idx, j])
            s = (
                split_table(X[idx[known], j], yk[idx[known]], wn[known], j)
                if known.any()
                else None
            )
            if s is not None:
                M = max(W - wn[known].sum(), 0.0)
                Nv = s[0].sum(axis=1)
                gains[j] = missing_value_gain(s[0], M)
                ivs[j] = intrinsic_value(np.append(Nv, M) if p["unknown_outcome"] else Nv)
                splits[j] = (Nv, s[1])
        valid = ~np.isnan(gains)
        ok = valid & (np.nan_to_num(gains) > tiny)
        if p["criterion"] == "gain_ratio":
            avg = gains[valid & in_average].mean() if (valid & in_average).any() else 0.0
            ok &= (np.nan_to_num(gains) >= avg - tiny) & (np.nan_to_num(ivs) > tiny)
        if not ok.any():
            return
        ratio = p["criterion"] == "gain_ratio"
        j = int(
            np.flatnonzero(ok)[np.argmax(gain_ratio(gains[ok], ivs[ok]) if ratio else gains[ok])]
        )
        (Nv, thr), x = splits[j], X[idx, j]
        node[:2] = j, thr
        miss = np.isnan(x)
        branch = np.searchsorted(values[j], x) if cat[j] else (x > thr).astype(int)
        share = fractional_weights(wn[miss], Nv)  # (B.27)
        for v in range(Nv.size):
            node[4].append(len(nodes))
            sel, pos = ~miss & (branch == v), share[:, v] > 0
            grow(
                np.r_[idx[sel], idx[miss][pos]], np.r_[wn[sel], share[pos, v]], depth + 1, node[3]
            )

    grow(np.arange(N), np.ones(N) if w is None else np.asarray(w, float), 0, None)
    return nodes


def ties_data(n=160, seed=0, missing=0.0):
    """Continuous values with ties (rounded to 0.1), and weights in [0.5, 2]."""
    rng = np.random.default_rng(seed)
    X = np.round(rng.normal(size=(n, 3)), 1)
    y = (X[:, 0] + X[:, 1] * X[:, 2] + 0.5 * rng.normal(size=n) > 0).astype(int)
    X[rng.random(X.shape) < missing] = np.nan
    return X, y, rng.uniform(0.5, 2.0, n)


# Every case has weights drawn from a continuous law: with unit weights two cuts can have
# mathematically equal gains (mirror-image class tables), and then rounding picks one, in
# the reference and the grower alike but not necessarily the same one.
GROWER_CASES = {
    "ties": (lambda s: ties_data(seed=s), {}),
    "ties, 20 % missing": (lambda s: ties_data(seed=s, missing=0.2), {}),
    "ID3, 20 % missing": (
        lambda s: ties_data(seed=s, missing=0.2),
        dict(criterion="information_gain"),
    ),
    "categorical, missing, weights": (
        lambda s: messy_data(n=150, seed=s),
        dict(categorical_features=[0, 2]),
    ),
    "textbook rules": (
        lambda s: messy_data(n=150, seed=s),
        dict(
            categorical_features=[0, 2],
            min_samples_leaf=1.0,
            unknown_outcome=False,
            many_valued_fraction=None,
        ),
    ),
}


@pytest.mark.equation("B.26")
@pytest.mark.equation("B.27")
@pytest.mark.parametrize("case", GROWER_CASES)
@pytest.mark.parametrize("seed", [0, 1])
def test_the_level_wise_grower_equals_a_node_by_node_reference(case, seed):
    make, params = GROWER_CASES[case]
    X, y, w = make(seed)
    est = C45Classifier(pruning=None, **params).fit(X, y, sample_weight=w)
    ref, tree = node_by_node(est, X, y, w), est.tree_
    assert tree.node_count == len(ref) > 10
    np.testing.assert_array_equal(tree.feature, [r[0] for r in ref])
    np.testing.assert_array_equal(tree.threshold, [r[1] for r in ref])  # exactly
    for kids, r in zip(tree.children, ref, strict=True):
        np.testing.assert_array_equal(kids, r[4])
    np.testing.assert_allclose(tree.weighted_n_node_samples, [r[2] for r in ref], rtol=1e-12)
    np.testing.assert_allclose(tree.value, [r[3] for r in ref], rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize("short", [0, 3, 64])
def test_segment_sums_restart_exactly_at_every_segment(short):
    from prml14.trees.c45 import _segment_cumsum

    rng = np.random.default_rng(0)
    lengths = rng.integers(1, 20, size=40)
    starts = np.cumsum(lengths) - lengths
    a = rng.uniform(0.5, 2.0, size=(3, lengths.sum())) * 1e3 ** rng.integers(0, 3, size=40).repeat(
        lengths
    )
    out = _segment_cumsum(a, starts, lengths, short=short)
    for s, n in zip(starts, lengths, strict=True):  # bit for bit, as np.cumsum of the segment
        np.testing.assert_array_equal(out[:, s : s + n], np.cumsum(a[:, s : s + n], axis=1))
