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
