"""Issue 22's scikit-learn API pieces of the committees and boosting: ``cv="prefit"`` and
``get_feature_names_out`` on stacking and voting, ``max_features``/``bootstrap``/
``bootstrap_features`` on bagging, ``max_features`` on gradient boosting, ``warm_start``.
scikit-learn is the oracle where the definitions coincide."""

import numpy as np
import pytest
from sklearn import ensemble as ske
from sklearn.datasets import make_classification, make_regression
from sklearn.exceptions import NotFittedError
from sklearn.linear_model import LinearRegression, LogisticRegression

from prml14 import (
    DecisionTreeClassifier,
    DecisionTreeRegressor,
    StackingClassifier,
    StackingRegressor,
    VotingClassifier,
    VotingRegressor,
)


@pytest.fixture(scope="module")
def three_classes():
    X, y = make_classification(200, n_features=5, n_informative=3, n_classes=3, random_state=0)
    return X, y


def _prefit_classifiers(X, y):
    return [
        ("tree", DecisionTreeClassifier(max_depth=2).fit(X, y)),
        ("logit", LogisticRegression().fit(X, y)),
    ]


@pytest.mark.parametrize("passthrough", [False, True])
@pytest.mark.parametrize("stack_method", ["auto", "predict", "decision_function"])
def test_prefit_stacking_classifier_matches_scikit_learn(three_classes, passthrough, stack_method):
    X, y = three_classes
    members = _prefit_classifiers(X[:100], y[:100])
    if stack_method == "decision_function":
        members = members[1:]  # the tree has no decision_function
    kw = dict(cv="prefit", passthrough=passthrough, stack_method=stack_method)
    ours = StackingClassifier(members, **kw).fit(X[100:], y[100:])
    theirs = ske.StackingClassifier(members, **kw).fit(X[100:], y[100:])
    np.testing.assert_array_equal(ours.predict(X), theirs.predict(X))
    np.testing.assert_allclose(ours.predict_proba(X), theirs.predict_proba(X), atol=1e-10)
    np.testing.assert_array_equal(ours.get_feature_names_out(), theirs.get_feature_names_out())
    # the members are the very objects given, not refitted
    for (_, given), used in zip(members, ours.estimators_, strict=True):
        assert used is given
    assert ours.named_estimators_["logit"] is members[-1][1]


def test_prefit_stacking_regressor_matches_scikit_learn():
    X, y = make_regression(200, n_features=4, noise=1.0, random_state=1)
    members = [
        ("tree", DecisionTreeRegressor(max_depth=3).fit(X[:100], y[:100])),
        ("lin", LinearRegression().fit(X[:100], y[:100])),
    ]
    for passthrough in (False, True):
        ours = StackingRegressor(members, cv="prefit", passthrough=passthrough)
        theirs = ske.StackingRegressor(members, cv="prefit", passthrough=passthrough)
        ours.fit(X[100:], y[100:])
        theirs.fit(X[100:], y[100:])
        np.testing.assert_allclose(ours.predict(X), theirs.predict(X), rtol=1e-9, atol=1e-9)
        np.testing.assert_array_equal(ours.get_feature_names_out(), theirs.get_feature_names_out())


def test_prefit_refuses_unfitted_members_and_other_classes(three_classes):
    X, y = three_classes
    with pytest.raises(NotFittedError):
        StackingClassifier([("t", DecisionTreeClassifier())], cv="prefit").fit(X, y)
    member = DecisionTreeClassifier(max_depth=1).fit(X, y + 1)  # labels 1, 2, 3
    with pytest.raises(ValueError, match="classes"):
        StackingClassifier([("t", member)], cv="prefit").fit(X, y)


def test_prefit_predict_with_string_labels_is_encoded(three_classes):
    X, y = three_classes
    labels = np.array(["a", "b", "c"])[y]
    member = DecisionTreeClassifier(max_depth=2).fit(X[:100], labels[:100])
    ours = StackingClassifier([("t", member)], cv="prefit", stack_method="predict")
    ours.fit(X[100:], labels[100:])
    # the meta-feature is the class index of the member's label
    np.testing.assert_array_equal(
        ours.transform(X).ravel(), np.searchsorted(ours.classes_, member.predict(X))
    )


@pytest.mark.parametrize("n_classes", [2, 3])
def test_stacking_feature_names_match_scikit_learn(n_classes):
    X, y = make_classification(
        120, n_features=4, n_informative=3, n_redundant=0, n_classes=n_classes, random_state=2
    )
    members = [("tree", DecisionTreeClassifier(max_depth=2)), ("logit", LogisticRegression())]
    for passthrough in (False, True):
        ours = StackingClassifier(members, cv=3, passthrough=passthrough).fit(X, y)
        theirs = ske.StackingClassifier(members, cv=3, passthrough=passthrough).fit(X, y)
        names = ours.get_feature_names_out()
        np.testing.assert_array_equal(names, theirs.get_feature_names_out())
        assert len(names) == ours.transform(X).shape[1]


def test_stacking_feature_names_use_input_names():
    X, y = make_regression(60, n_features=3, random_state=3)
    members = [("tree", DecisionTreeRegressor(max_depth=2)), ("drop_me", "drop")]
    ours = StackingRegressor(members, cv=3, passthrough=True).fit(X, y)
    theirs = ske.StackingRegressor(members, cv=3, passthrough=True).fit(X, y)
    for given in (None, ["u", "v", "w"]):
        np.testing.assert_array_equal(
            ours.get_feature_names_out(given), theirs.get_feature_names_out(given)
        )
    assert list(ours.get_feature_names_out(["u", "v", "w"])) == [
        "stackingregressor_tree",
        "u",
        "v",
        "w",
    ]
    with pytest.raises(ValueError):
        ours.get_feature_names_out(["a", "b"])  # not one name per input


@pytest.mark.parametrize("voting", ["hard", "soft"])
def test_voting_classifier_feature_names_match_scikit_learn(three_classes, voting):
    X, y = three_classes
    members = [
        ("tree", DecisionTreeClassifier(max_depth=2)),
        ("off", "drop"),
        ("logit", LogisticRegression()),
    ]
    ours = VotingClassifier(members, voting=voting).fit(X, y)
    theirs = ske.VotingClassifier(members, voting=voting).fit(X, y)
    np.testing.assert_array_equal(ours.get_feature_names_out(), theirs.get_feature_names_out())
    assert len(ours.get_feature_names_out()) == ours.transform(X).shape[1]


def test_voting_regressor_feature_names_match_scikit_learn():
    X, y = make_regression(80, n_features=3, random_state=4)
    members = [("tree", DecisionTreeRegressor(max_depth=2)), ("lin", LinearRegression())]
    ours = VotingRegressor(members).fit(X, y)
    theirs = ske.VotingRegressor(members).fit(X, y)
    np.testing.assert_array_equal(ours.get_feature_names_out(), theirs.get_feature_names_out())
    with pytest.raises(NotFittedError):
        VotingRegressor(members).get_feature_names_out()


def test_gradient_boosting_max_features_draws_per_node():
    from prml14 import GradientBoostingRegressor

    X, y = make_regression(300, n_features=6, random_state=0)
    kw = dict(n_estimators=20, max_depth=1, random_state=0)
    full = GradientBoostingRegressor(**kw).fit(X, y)
    # all D features drawn: the same cuts as no draw (ties go to the lowest feature)
    all_d = GradientBoostingRegressor(max_features=6, **kw).fit(X, y)
    np.testing.assert_array_equal(full.predict(X), all_d.predict(X))
    one = GradientBoostingRegressor(max_features=1, **kw).fit(X, y)
    again = GradientBoostingRegressor(max_features=1, **kw).fit(X, y)
    np.testing.assert_array_equal(one.predict(X), again.predict(X))
    # one feature per stump, drawn at random: the stumps use features the full fit never picks
    picked_full = {int(t[0].feature[0]) for t in full.trees_}
    picked_one = {int(t[0].feature[0]) for t in one.trees_}
    assert len(picked_one) > len(picked_full)
    assert picked_one - picked_full


# ------------------------------------------------------------------ bagging's columns and rows
@pytest.mark.parametrize(
    "params",
    [
        dict(max_features=0.5),
        dict(max_features=3, bootstrap_features=True),
        dict(bootstrap=False, max_samples=0.6, max_features=2),
    ],
)
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_bagging_members_see_their_rows_and_columns(params, seed):
    from sklearn.tree import DecisionTreeRegressor as SkTree

    from prml14 import BaggingRegressor

    X, y = make_regression(120, n_features=6, noise=1.0, random_state=5)
    model = BaggingRegressor(
        DecisionTreeRegressor(max_depth=2), n_estimators=6, random_state=seed, **params
    ).fit(X, y)
    n_cols = 3 if params.get("max_features") == 0.5 else params["max_features"]
    total = np.zeros(len(y))
    for rows, cols in zip(model.estimators_samples_, model.estimators_features_, strict=True):
        assert cols.shape == (n_cols,)
        if not params.get("bootstrap_features"):
            assert np.unique(cols).size == n_cols  # without replacement
        if params.get("bootstrap") is False:
            assert rows.size == 72 and np.unique(rows).size == 72
        # the oracle: scikit-learn's tree on the same repeated rows and the same columns
        # (shallow: in small nodes equal-gain cuts tie, and scikit-learn breaks ties at random)
        total += SkTree(max_depth=2).fit(X[rows][:, cols], y[rows]).predict(X[:, cols])
    np.testing.assert_allclose(model.predict(X), total / 6, rtol=1e-9, atol=1e-9)


def test_bagging_feature_draws_differ_and_oob_uses_them():
    from prml14 import BaggingClassifier

    X, y = make_classification(150, n_features=8, random_state=6)
    model = BaggingClassifier(
        DecisionTreeClassifier(max_depth=2),
        30,
        max_features=0.25,
        oob_score=True,
        random_state=1,
    ).fit(X, y)
    subsets = {tuple(f) for f in model.estimators_features_}
    assert len(subsets) > 10
    # the out-of-bag decision function by brute force: each member on its own columns
    total, count = np.zeros((150, 2)), np.zeros(150)
    for est, rows, cols in zip(
        model.estimators_, model.estimators_samples_, model.estimators_features_, strict=True
    ):
        oob = ~np.isin(np.arange(150), rows)
        total[oob] += est.predict_proba(X[oob][:, cols])
        count[oob] += 1
    np.testing.assert_allclose(model.oob_decision_function_, total / count[:, None])
    with pytest.raises(ValueError, match="bootstrap"):
        BaggingClassifier(bootstrap=False, oob_score=True).fit(X, y)
    with pytest.raises(ValueError, match="max_features"):
        BaggingClassifier(max_features=9).fit(X, y)


def test_bagging_defaults_keep_todays_results():
    from prml14 import BaggingRegressor

    X, y = make_regression(80, n_features=4, random_state=7)
    plain = BaggingRegressor(n_estimators=5, random_state=3).fit(X, y)
    spelled = BaggingRegressor(
        n_estimators=5,
        random_state=3,
        max_features=4,
        bootstrap=True,
        bootstrap_features=False,
    ).fit(X, y)
    np.testing.assert_array_equal(plain.predict(X), spelled.predict(X))
    for cols in plain.estimators_features_:
        np.testing.assert_array_equal(cols, np.arange(4))


# ------------------------------------------------------------------ warm start
def _warm(cls, X, y, first, second, **kw):
    model = cls(n_estimators=first, warm_start=True, random_state=0, **kw).fit(X, y)
    old = list(model.estimators_)
    old_samples = [np.array(s) for s in model.estimators_samples_]
    model.set_params(n_estimators=second).fit(X, y)
    assert len(model.estimators_) == second
    for a, b in zip(old, model.estimators_, strict=False):
        assert a is b  # the very same fitted members, not refitted
    for a, b in zip(old_samples, model.estimators_samples_, strict=False):
        np.testing.assert_array_equal(a, b)
    return model


@pytest.mark.parametrize("name", ["BaggingRegressor", "RandomForestRegressor"])
def test_warm_start_adds_members_deterministically(name):
    import prml14

    cls = getattr(prml14, name)
    X, y = make_regression(100, n_features=5, random_state=8)
    kw = {"max_features": 0.6}
    one = _warm(cls, X, y, 3, 7, **kw)
    two = _warm(cls, X, y, 3, 7, **kw)
    np.testing.assert_array_equal(one.predict(X), two.predict(X))
    # the new members get the draws a fit of all seven at once gives them
    at_once = cls(n_estimators=7, random_state=0, **kw).fit(X, y)
    for m in range(3, 7):
        np.testing.assert_array_equal(one.estimators_samples_[m], at_once.estimators_samples_[m])
        np.testing.assert_array_equal(
            one.estimators_[m].predict(
                X if name != "BaggingRegressor" else X[:, one.estimators_features_[m]]
            ),
            at_once.estimators_[m].predict(
                X if name != "BaggingRegressor" else X[:, at_once.estimators_features_[m]]
            ),
        )
    with pytest.warns(UserWarning, match="no new member"):
        one.fit(X, y)
    with pytest.raises(ValueError, match="n_estimators"):
        one.set_params(n_estimators=2).fit(X, y)


def test_warm_start_without_bootstrap_is_the_forest_fitted_at_once():
    from prml14 import RandomForestClassifier

    X, y = make_classification(120, n_features=6, random_state=9)
    kw = dict(bootstrap=False, max_features=2)
    warm = _warm(RandomForestClassifier, X, y, 4, 9, **kw)
    at_once = RandomForestClassifier(n_estimators=9, random_state=0, **kw).fit(X, y)
    np.testing.assert_array_equal(warm.predict_proba(X), at_once.predict_proba(X))
    with pytest.raises(ValueError, match="classes"):
        warm.set_params(n_estimators=10).fit(X, (y + 1) % 3 + (y == 0))


@pytest.mark.parametrize(
    "params",
    [
        dict(),
        dict(subsample=0.7, max_features=2),
        dict(splitter="histogram", subsample=0.5),
        dict(method="newton", max_features=0.6),
    ],
)
def test_gradient_boosting_warm_start_is_the_fit_at_once(params):
    from prml14 import GradientBoostingRegressor

    X, y = make_regression(200, n_features=5, noise=5.0, random_state=0)
    warm = GradientBoostingRegressor(n_estimators=5, warm_start=True, random_state=0, **params)
    warm.fit(X, y)
    old = list(warm.trees_)
    warm.set_params(n_estimators=12).fit(X, y)
    assert warm.n_estimators_ == 12
    for a, b in zip(old, warm.trees_, strict=False):
        assert a is b  # the fitted rounds are kept, not refitted
    at_once = GradientBoostingRegressor(n_estimators=12, random_state=0, **params).fit(X, y)
    # the same operations in the same order: equal to the last bit
    np.testing.assert_array_equal(warm.predict(X), at_once.predict(X))
    np.testing.assert_array_equal(warm.train_score_, at_once.train_score_)


def test_gradient_boosting_warm_start_refusals():
    from prml14 import GradientBoostingClassifier

    X, y = make_classification(120, n_features=4, random_state=1)
    model = GradientBoostingClassifier(n_estimators=3, warm_start=True).fit(X, y)
    with pytest.raises(ValueError, match="n_estimators"):
        model.set_params(n_estimators=2).fit(X, y)
    with pytest.raises(ValueError, match="classes"):
        model.set_params(n_estimators=5).fit(X, y + 1)
    with pytest.raises(ValueError, match="n_iter_no_change"):
        model.set_params(n_iter_no_change=2).fit(X, y)
