"""AdaBoostClassifier for K classes by SAMME (page B.2): it is PRML's algorithm at K = 2, and
matches scikit-learn's SAMME round by round for K > 2 where the trees coincide."""

import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.ensemble import AdaBoostClassifier as SklearnAdaBoost
from sklearn.tree import DecisionTreeClassifier as SklearnTree

from prml14 import (
    AdaBoostClassifier,
    DecisionTreeClassifier,
    additive_model,
    classifier_weight,
    samme_classifier_weight,
    samme_scores,
    update_weights,
    weighted_error,
)


def _classes(n, k, seed):
    X, y = make_classification(
        n, n_features=6, n_informative=4, n_redundant=0, n_classes=k, random_state=seed
    )
    # scikit-learn's trees compare float32 values: give both libraries the same ones
    return X.astype(np.float32).astype(np.float64), y


@pytest.mark.equation("B.8")
def test_samme_weight_is_the_chapter_weight_exactly_for_two_classes():
    eps = np.linspace(0.001, 0.999, 999)
    np.testing.assert_array_equal(samme_classifier_weight(eps, 2), classifier_weight(eps))
    np.testing.assert_allclose(samme_classifier_weight(0.5, 4), np.log(3))
    assert samme_classifier_weight(2 / 3, 3) == pytest.approx(0.0, abs=1e-15)


@pytest.mark.equation("14.17", "14.18", "B.8")
@pytest.mark.parametrize("seed", [0, 1])
def test_two_class_fit_is_prml_algorithm_round_by_round(seed, wavy_classes):
    X, y = wavy_classes(150, random_state=seed)
    model = AdaBoostClassifier(n_estimators=25, store_weights=True).fit(X, y)
    t = np.where(y == model.classes_[1], 1.0, -1.0)
    w = np.full(150, 1 / 150)
    outputs = []
    for m, stump in enumerate(model.estimators_):
        np.testing.assert_allclose(model.sample_weights_[m], w, rtol=1e-10, atol=0)
        y_m = stump.predict(X)
        outputs.append(y_m)
        miss = y_m != t
        eps = weighted_error(w, miss)
        assert model.estimator_errors_[m] == pytest.approx(eps, rel=1e-12)
        assert model.estimator_weights_[m] == classifier_weight(model.estimator_errors_[m])
        w = update_weights(w, classifier_weight(eps), miss)  # (14.18)
        w = w / w.sum()
    f = additive_model(np.column_stack(outputs), model.estimator_weights_)
    np.testing.assert_allclose(model.decision_function(X), f, atol=1e-12)
    np.testing.assert_array_equal(model.predict(X), model.classes_[(f > 0).astype(int)])


@pytest.mark.equation("B.9")
def test_scores_on_hand_values_and_their_two_class_form():
    predictions = np.array([[0, 2], [1, 1]])
    g = samme_scores(predictions, [1.0, 2.0], 3)
    np.testing.assert_allclose(g, [[0.0, -1.0, 1.0], [-1.0, 2.0, -1.0]])
    np.testing.assert_allclose(g.sum(axis=1), 0.0)
    # K = 2: g_1 = ½ Σ α y with y = 2k − 1, the additive model (14.21)
    k = np.random.default_rng(0).integers(0, 2, size=(20, 5))
    alphas = np.random.default_rng(1).uniform(size=5)
    g2 = samme_scores(k, alphas, 2)
    np.testing.assert_allclose(g2[:, 1], additive_model(2 * k - 1, alphas))
    np.testing.assert_allclose(g2[:, 0], -g2[:, 1])
    with pytest.raises(ValueError, match="class indices"):
        samme_scores([[3]], [1.0], 3)
    with pytest.raises(ValueError, match="n_classes"):
        samme_classifier_weight(0.2, 1)


@pytest.mark.equation("B.8", "B.9")
@pytest.mark.parametrize("k", [3, 4])
def test_rounds_match_sklearn_samme_where_the_trees_coincide(k):
    X, y = _classes(400, k, seed=k)
    M = 20
    ours = AdaBoostClassifier(n_estimators=M).fit(X, y)
    sk = SklearnAdaBoost(SklearnTree(max_depth=1), n_estimators=M, random_state=0).fit(X, y)
    same = [
        (a.tree_.feature[0], a.tree_.threshold[0]) == (b.tree_.feature[0], b.tree_.threshold[0])
        for a, b in zip(ours.estimators_, sk.estimators_, strict=False)
    ]
    n_same = int(np.cumprod(same).sum())  # rounds up to the first disagreement
    assert n_same == M  # on these data every round's tree coincides
    np.testing.assert_allclose(
        ours.estimator_weights_[:n_same], sk.estimator_weights_[:n_same], rtol=0, atol=1e-10
    )
    np.testing.assert_allclose(
        ours.estimator_errors_[:n_same], sk.estimator_errors_[:n_same], rtol=0, atol=1e-12
    )
    # scikit-learn's decision function is (K/(K − 1)) g / Σ α: the same argmax
    np.testing.assert_array_equal(ours.predict(X), sk.predict(X))
    np.testing.assert_allclose(
        k / (k - 1) * ours.decision_function(X) / ours.estimator_weights_.sum(),
        sk.decision_function(X),
        atol=1e-10,
    )


@pytest.mark.slow
def test_held_out_accuracy_within_two_points_of_sklearn_samme():
    ours, theirs = [], []
    for seed in range(3):
        X, y = _classes(1500, 3, seed=10 + seed)
        Xtr, ytr, Xte, yte = X[:700], y[:700], X[700:], y[700:]
        ours.append(AdaBoostClassifier(n_estimators=60).fit(Xtr, ytr).score(Xte, yte))
        sk = SklearnAdaBoost(SklearnTree(max_depth=1), n_estimators=60, random_state=0)
        theirs.append(sk.fit(Xtr, ytr).score(Xte, yte))
    assert abs(np.mean(ours) - np.mean(theirs)) <= 0.02


def test_multiclass_outputs_fit_together():
    X, y = _classes(300, 3, seed=20)
    labels = np.array(["a", "b", "c"])[y]
    model = AdaBoostClassifier(DecisionTreeClassifier(max_depth=2), n_estimators=8).fit(X, labels)
    g = model.decision_function(X)
    assert g.shape == (300, 3)
    np.testing.assert_allclose(g.sum(axis=1), 0.0, atol=1e-12)
    staged = list(model.staged_decision_function(X))
    assert len(staged) == len(model.estimators_)
    np.testing.assert_allclose(staged[-1], g, atol=1e-12)
    np.testing.assert_array_equal(list(model.staged_predict(X))[-1], model.predict(X))
    proba = model.predict_proba(X)
    np.testing.assert_allclose(proba, np.exp(g) / np.exp(g).sum(axis=1, keepdims=True))
    assert set(model.predict(X)) <= {"a", "b", "c"}
    again = AdaBoostClassifier(DecisionTreeClassifier(max_depth=2), n_estimators=8).fit(X, labels)
    np.testing.assert_array_equal(again.decision_function(X), g)


def test_learner_no_better_than_guessing_among_k_classes_stops():
    X, y = _classes(90, 3, seed=21)
    X = np.zeros_like(X)  # a tree without a cut predicts one class: error 2/3 = 1 − 1/K
    y = np.repeat([0, 1, 2], 30)
    with pytest.raises(ValueError, match=r"no better than chance .* >= 0\.667"):
        AdaBoostClassifier(n_estimators=3).fit(X, y)


def test_binary_only_learner_is_tagged():
    from sklearn.utils import get_tags

    from prml14 import DecisionStump

    assert get_tags(AdaBoostClassifier()).classifier_tags.multi_class
    assert not get_tags(AdaBoostClassifier(DecisionStump())).classifier_tags.multi_class


@pytest.mark.equation("B.8", "B.9")
@pytest.mark.parametrize("k, ties", [(3, False), (3, True), (4, False)])
def test_default_learner_cut_from_sorted_columns_is_the_engine_depth_one_tree(k, ties):
    """The default K-class learner is cut from columns sorted once; it is the depth-1 tree the
    engine grows (passed explicitly): same cuts, α, leaves and scores in every round."""
    X, y = _classes(3000, k, seed=30 + k)  # more than 1024 points: the blocked prefix sums
    if ties:
        X = np.round(X, 1)
    ours = AdaBoostClassifier(n_estimators=25).fit(X, y)
    engine = AdaBoostClassifier(DecisionTreeClassifier(max_depth=1), n_estimators=25).fit(X, y)
    assert len(ours.estimators_) == len(engine.estimators_) == 25
    for a, b in zip(ours.estimators_, engine.estimators_, strict=True):
        assert isinstance(a, DecisionTreeClassifier)
        assert (a.tree_.feature[0], a.tree_.threshold[0]) == (
            b.tree_.feature[0],
            b.tree_.threshold[0],
        )
        np.testing.assert_allclose(a.tree_.value, b.tree_.value, rtol=1e-12)
        np.testing.assert_array_equal(a.tree_.n_node_samples, b.tree_.n_node_samples)
    np.testing.assert_array_equal(ours.estimator_weights_, engine.estimator_weights_)
    np.testing.assert_array_equal(ours.predict(X), engine.predict(X))
    np.testing.assert_allclose(ours.decision_function(X), engine.decision_function(X), atol=1e-12)
