"""Voting, blending and stacking (prml14.committees.combining,
prml14.committees.combining_estimators, prml14.committees.stacking_estimators): brute force on
small vote tables and active sets, Condorcet by enumeration, scikit-learn's
Voting*/Stacking*/cross_val_predict as oracles, a member that exposes any in-sample prediction
reaching the final estimator, bad inputs, determinism and the scikit-learn API checks."""

import itertools
from fractions import Fraction

import numpy as np
import pytest
from scipy.special import comb
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin, clone
from sklearn.datasets import make_classification, make_regression
from sklearn.ensemble import StackingClassifier as SkStackingClassifier
from sklearn.ensemble import StackingRegressor as SkStackingRegressor
from sklearn.ensemble import VotingClassifier as SkVotingClassifier
from sklearn.ensemble import VotingRegressor as SkVotingRegressor
from sklearn.linear_model import (
    LinearRegression,
    LogisticRegression,
    Ridge,
    RidgeClassifier,
)
from sklearn.model_selection import KFold, StratifiedKFold, cross_val_predict
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.utils.estimator_checks import parametrize_with_checks

from prml14 import (
    BlendingClassifier,
    BlendingRegressor,
    DecisionTreeClassifier,
    DecisionTreeRegressor,
    StackingClassifier,
    StackingRegressor,
    VotingClassifier,
    VotingRegressor,
    committee_errors,
    inverse_error_weights,
    linear_blend_weights,
    majority_vote_accuracy,
    make_uncorrelated_errors,
    out_of_fold_predictions,
    soft_vote,
    vote_with_reject,
    weighted_vote,
)

TREES_C = [
    ("a", DecisionTreeClassifier(max_depth=3, random_state=0)),
    ("b", DecisionTreeClassifier(max_depth=2, random_state=1)),
]
TREES_R = [
    ("a", DecisionTreeRegressor(max_depth=3, random_state=0)),
    ("b", DecisionTreeRegressor(max_depth=2, random_state=1)),
]
LINEAR_C = [("lr", LogisticRegression()), ("lr_weak", LogisticRegression(C=0.1))]
LINEAR_R = [("ridge", Ridge()), ("ols", LinearRegression())]

TREE_WEIGHT_REASON = (
    "the members (prml14 trees) fail this check themselves: a zero-weight row still counts "
    "towards min_samples_leaf and can move a threshold (scikit-learn excludes its trees too)"
)
SPLIT_WEIGHT_REASON = (
    "the validation rows are drawn at random, so repeating a row changes the split: a weight "
    "of 2 is not the same random blend as a second copy"
)


def _expected_failed(estimator):
    failed = {}
    if isinstance(estimator, BlendingClassifier | BlendingRegressor):
        failed["check_sample_weight_equivalence_on_dense_data"] = SPLIT_WEIGHT_REASON
        failed["check_sample_weight_equivalence_on_sparse_data"] = SPLIT_WEIGHT_REASON
    elif isinstance(estimator, VotingClassifier | VotingRegressor) and any(
        isinstance(e, DecisionTreeClassifier | DecisionTreeRegressor)
        for _, e in estimator.estimators
    ):
        failed["check_sample_weight_equivalence_on_dense_data"] = TREE_WEIGHT_REASON
    return failed


@parametrize_with_checks(
    [
        VotingClassifier(TREES_C),
        VotingClassifier(TREES_C, voting="soft", weights=[1, 2]),
        VotingClassifier(LINEAR_C),
        VotingRegressor(TREES_R),
        VotingRegressor(LINEAR_R, weights=[2, 1]),
        BlendingClassifier(TREES_C, random_state=0),
        BlendingClassifier(TREES_C, blend=LogisticRegression(), random_state=0),
        BlendingRegressor(TREES_R, random_state=0),
        StackingClassifier(TREES_C, cv=3),
        StackingClassifier(TREES_C, cv=3, passthrough=True, stack_method="predict"),
        StackingRegressor(TREES_R, cv=3),
    ],
    expected_failed_checks=_expected_failed,
)
def test_sklearn_compatible(estimator, check):
    check(estimator)


# ----------------------------------------------------------------------------- data
@pytest.fixture(scope="module")
def three_classes():
    return make_classification(
        240, n_features=6, n_informative=4, n_classes=3, n_clusters_per_class=1,
        random_state=0,
    )  # fmt: skip


@pytest.fixture(scope="module")
def two_classes():
    return make_classification(200, n_features=5, n_informative=3, random_state=1)


@pytest.fixture(scope="module")
def regression():
    return make_regression(200, n_features=5, noise=10.0, random_state=2)


def _classifiers():
    return [
        ("tree", DecisionTreeClassifier(max_depth=3, random_state=0)),
        ("lr", LogisticRegression(max_iter=1000)),
        ("nb", GaussianNB()),
    ]


def _regressors():
    return [
        ("tree", DecisionTreeRegressor(max_depth=4, random_state=0)),
        ("ridge", Ridge(alpha=3.0)),
        ("ols", LinearRegression()),
    ]


# ----------------------------------------------------------------------------- (B.34)-(B.36)
@pytest.mark.equation("B.34")
def test_weighted_vote_counts_by_brute_force():
    rng = np.random.default_rng(0)
    votes = rng.integers(0, 4, size=(30, 5))
    w = rng.uniform(0.1, 2.0, 5)
    shares = weighted_vote(votes, 4, w)
    for n in range(30):
        for k in range(4):
            assert shares[n, k] == pytest.approx(w[votes[n] == k].sum() / w.sum(), abs=1e-14)
    np.testing.assert_allclose(shares.sum(axis=1), 1.0)
    # unweighted: plain counts / M
    np.testing.assert_allclose(
        weighted_vote(votes, 4) * 5, [np.bincount(v, minlength=4) for v in votes]
    )


@pytest.mark.equation("B.35")
def test_soft_vote_is_the_weighted_average_of_probabilities():
    rng = np.random.default_rng(1)
    P = rng.dirichlet(np.ones(3), size=(20, 4))  # (n_samples, n_members, n_classes)
    w = np.array([1.0, 0.0, 2.0, 0.5])
    np.testing.assert_allclose(soft_vote(P, w), np.average(P, axis=1, weights=w), rtol=1e-14)
    np.testing.assert_allclose(soft_vote(P), P.mean(axis=1), rtol=1e-14)


@pytest.mark.equation("B.36")
@pytest.mark.parametrize("weights", [(1, 1, 1, 1), (3, 1, 1, 2), (1, 2, 0, 4)])
def test_reject_rule_by_brute_force_on_every_small_vote_table(weights):
    K, M = 3, 4
    thresholds = [
        Fraction(1, 4),
        Fraction(1, 3),
        Fraction(1, 2),
        Fraction(3, 5),
        Fraction(3, 4),
        1,
    ]
    tables = np.array(list(itertools.product(range(K), repeat=M)))  # all 81 vote tables
    shares = weighted_vote(tables, K, weights)
    for tau in thresholds:
        got = vote_with_reject(shares, float(tau))
        for votes, decision in zip(tables, got, strict=True):
            exact = [
                sum(Fraction(w) for w, v in zip(weights, votes, strict=True) if v == k)
                for k in range(K)
            ]
            exact = [s / sum(Fraction(w) for w in weights) for s in exact]
            top = max(exact)
            expected = exact.index(top) if top >= tau else -1  # ties: lowest class index
            assert decision == expected, (votes, tau)
    np.testing.assert_array_equal(vote_with_reject(shares), np.argmax(shares, axis=1))


@pytest.mark.equation("B.36")
def test_majority_with_reject_never_accepts_two_classes_above_one_half():
    rng = np.random.default_rng(2)
    S = rng.dirichlet(np.ones(4), size=500)
    index = vote_with_reject(S, 0.5 + 1e-9)
    accepted = index >= 0
    assert np.all(S[accepted, index[accepted]] > 0.5)
    assert np.all(S[~accepted].max(axis=1) <= 0.5 + 1e-9)


# ----------------------------------------------------------------------------- (B.37)
@pytest.mark.equation("B.37")
@pytest.mark.parametrize("M", [1, 2, 3, 4, 5, 8, 9])
def test_majority_accuracy_by_enumerating_every_outcome(M):
    for p in (0.0, 0.3, 0.5, 0.6, 0.9, 1.0):
        exact = 0.0
        for right in itertools.product((0, 1), repeat=M):
            k = sum(right)
            if 2 * k > M:
                exact += p**k * (1 - p) ** (M - k)
        assert majority_vote_accuracy(p, M) == pytest.approx(exact, abs=1e-14)


@pytest.mark.equation("B.37")
def test_condorcet_step_identity_and_monotonicity():
    p = np.linspace(0.0, 1.0, 41)
    for r in range(0, 8):
        M = 2 * r + 1
        step = majority_vote_accuracy(p, M + 2) - majority_vote_accuracy(p, M)
        closed = comb(M, r) * (p * (1 - p)) ** (r + 1) * (2 * p - 1)
        np.testing.assert_allclose(step, closed, atol=1e-14)
    better = p > 0.5
    for M in (3, 5, 11):
        assert np.all(majority_vote_accuracy(p[better & (p < 1)], M) > p[better & (p < 1)])
    assert majority_vote_accuracy(0.6, 1001) > 0.999


@pytest.mark.equation("B.37")
def test_condorcet_matches_a_simulation_of_independent_members():
    rng = np.random.default_rng(3)
    correct = rng.random((200_000, 7)) < 0.65  # 7 independent members, each right w.p. 0.65
    simulated = np.mean(correct.sum(axis=1) >= 4)
    # standard error sqrt(P(1-P)/200000) < 0.0012
    assert simulated == pytest.approx(majority_vote_accuracy(0.65, 7), abs=0.005)


def test_voting_arguments_of_the_wrong_type_or_nan_are_refused():
    """A count that is not an integer is a TypeError; a NaN threshold is refused (check_scalar
    lets NaN through, and every vote would then be rejected)."""
    with pytest.raises(TypeError, match="n_members"):
        majority_vote_accuracy(0.6, 2.5)
    with pytest.raises(ValueError, match="n_members"):
        majority_vote_accuracy(0.6, 0)
    with pytest.raises(ValueError, match="min_agreement"):
        vote_with_reject([[0.6, 0.4]], float("nan"))
    assert vote_with_reject([[0.6, 0.4]], 0.6).tolist() == [0]


# ----------------------------------------------------------------------------- (B.38)
def _brute_force_nnls(A, b, sum_to_one=False):
    """Minimum over every support S of the (equality-constrained) least squares on S."""
    best, best_w = np.inf, None
    M = A.shape[1]
    for size in range(1, M + 1):
        for S in itertools.combinations(range(M), size):
            S = list(S)
            if sum_to_one:  # KKT system of min ||A_S w - b||^2 s.t. 1'w = 1
                G = A[:, S].T @ A[:, S]
                kkt = np.block(
                    [[2 * G, np.ones((size, 1))], [np.ones((1, size)), np.zeros((1, 1))]]
                )
                rhs = np.r_[2 * A[:, S].T @ b, 1.0]
                wS = np.linalg.lstsq(kkt, rhs, rcond=None)[0][:size]
            else:
                wS = np.linalg.lstsq(A[:, S], b, rcond=None)[0]
            if np.any(wS < -1e-12):
                continue
            w = np.zeros(M)
            w[S] = np.clip(wS, 0, None)
            loss = np.sum((A @ w - b) ** 2)
            if loss < best:
                best, best_w = loss, w
    if not sum_to_one and np.sum(b**2) <= best:
        best, best_w = np.sum(b**2), np.zeros(M)
    return best_w, best


@pytest.mark.equation("B.38")
@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("sum_to_one", [False, True])
def test_linear_blend_weights_equal_brute_force_over_supports(seed, sum_to_one):
    rng = np.random.default_rng(seed)
    t = rng.normal(size=40)
    # members: noisy, biased, anti-correlated, scaled versions of the target
    Y = np.column_stack(
        [t + rng.normal(0, s, 40) for s in (0.3, 0.6, 1.0)] + [-t + rng.normal(size=40), 2 * t]
    )
    w = linear_blend_weights(Y, t, sum_to_one=sum_to_one)
    w_bf, loss_bf = _brute_force_nnls(Y, t, sum_to_one)
    assert np.all(w >= 0)
    if sum_to_one:
        assert w.sum() == pytest.approx(1.0, abs=1e-12)
    assert np.sum((Y @ w - t) ** 2) == pytest.approx(loss_bf, rel=1e-9, abs=1e-12)
    np.testing.assert_allclose(w, w_bf, atol=1e-7)


@pytest.mark.equation("B.38")
def test_linear_blend_weights_satisfy_kkt_and_match_positive_least_squares():
    rng = np.random.default_rng(7)
    t = rng.normal(size=60)
    Y = np.column_stack([t + rng.normal(0, s, 60) for s in (0.2, 0.5, 2.0)] + [-t])
    w = linear_blend_weights(Y, t)
    g = Y.T @ (Y @ w - t)  # half the gradient of the squared error
    assert np.all(g[w > 0] == pytest.approx(0, abs=1e-9)) and np.all(g[w == 0] >= -1e-9)
    sk = LinearRegression(positive=True, fit_intercept=False).fit(Y, t).coef_
    np.testing.assert_allclose(w, sk, atol=1e-8)
    # sample weights act as repetition counts
    counts = rng.integers(1, 4, size=60)
    np.testing.assert_allclose(
        linear_blend_weights(Y, t, sample_weight=counts),
        linear_blend_weights(np.repeat(Y, counts, 0), np.repeat(t, counts)),
        atol=1e-9,
    )


@pytest.mark.equation("B.38")
def test_linear_blend_of_probabilities_stays_on_the_simplex():
    rng = np.random.default_rng(8)
    labels = rng.integers(0, 3, 50)
    T = np.eye(3)[labels]
    good = 0.7 * T + 0.1
    P = np.stack([good, rng.dirichlet(np.ones(3), 50), np.roll(T, 1, axis=1)], axis=1)
    w = linear_blend_weights(P, T, sum_to_one=True)
    assert np.all(w >= 0) and w.sum() == pytest.approx(1.0)
    flat = P.transpose(0, 2, 1).reshape(-1, 3)
    _, loss = _brute_force_nnls(flat, T.ravel(), sum_to_one=True)
    assert np.sum((flat @ w - T.ravel()) ** 2) == pytest.approx(loss, rel=1e-9)
    assert w[0] > 0.9  # the informative member dominates


@pytest.mark.equation("B.39")
def test_inverse_error_weights_are_the_optimum_for_uncorrelated_errors():
    h = np.sin(np.linspace(0, 6, 300))
    scales = np.array([0.2, 0.5, 0.9, 1.4])
    eps = make_uncorrelated_errors(300, 4, scales=scales, random_state=0)
    Y = h[:, None] + eps
    E = np.mean(eps**2, axis=0)
    w_closed, error = inverse_error_weights(E)
    w_fit = linear_blend_weights(Y, h, sum_to_one=True)
    np.testing.assert_allclose(w_fit, w_closed, atol=1e-8)
    assert np.mean((Y @ w_closed - h) ** 2) == pytest.approx(error, rel=1e-10)
    E_AV, E_COM = committee_errors(Y, h)
    assert error <= E_COM * (1 + 1e-12) and E_COM == pytest.approx(E_AV / 4, rel=1e-10)
    # equal errors: uniform weights and E_AV / M exactly (14.14)
    w_eq, err_eq = inverse_error_weights(np.full(5, 0.3))
    np.testing.assert_allclose(w_eq, 0.2)
    assert err_eq == pytest.approx(0.3 / 5)


# ----------------------------------------------------------------------------- (B.40)
@pytest.mark.equation("B.40")
@pytest.mark.parametrize("method", ["predict", "predict_proba", "decision_function"])
def test_out_of_fold_predictions_equal_cross_val_predict(three_classes, method):
    X, y = three_classes
    folds = list(StratifiedKFold(4, shuffle=True, random_state=0).split(X, y))
    member = LogisticRegression(max_iter=1000)
    Z = out_of_fold_predictions(member, X, y, folds, method, n_classes=3)
    sk = cross_val_predict(member, X, y, cv=folds, method=method)
    np.testing.assert_allclose(Z, sk.reshape(len(y), -1), rtol=1e-12)
    # brute force: each fold's rows predicted by a member fitted on the other folds
    train, test = folds[2]
    hand = getattr(clone(member).fit(X[train], y[train]), method)(X[test])
    np.testing.assert_allclose(Z[test], hand.reshape(len(test), -1), rtol=1e-12)


@pytest.mark.equation("B.40")
def test_out_of_fold_predictions_refuse_folds_that_are_not_a_partition(regression):
    X, y = regression
    folds = list(KFold(4).split(X))
    with pytest.raises(ValueError, match="partition"):
        out_of_fold_predictions(Ridge(), X, y, folds[:3])
    leaky = [(np.arange(len(y)), test) for _, test in folds]
    with pytest.raises(ValueError, match="overlap"):
        out_of_fold_predictions(Ridge(), X, y, leaky)


@pytest.mark.equation("B.40")
@pytest.mark.parametrize(
    "stack_method, passthrough, n_classes",
    [
        pytest.param("auto", False, 3, marks=pytest.mark.slow),
        ("predict_proba", True, 2),
        ("predict", True, 3),
        pytest.param("decision_function", False, 3, marks=pytest.mark.slow),
        ("decision_function", True, 2),
    ],
)
def test_stacking_classifier_equals_scikit_learn(stack_method, passthrough, n_classes):
    X, y = make_classification(
        150, n_features=5, n_informative=3, n_classes=n_classes, n_clusters_per_class=1,
        random_state=n_classes,
    )  # fmt: skip
    members = _classifiers()
    if stack_method == "decision_function":
        members = [("lr", LogisticRegression(max_iter=1000)), ("ridge", RidgeClassifier())]
    cv = StratifiedKFold(5, shuffle=True, random_state=3)
    kwargs = dict(cv=cv, stack_method=stack_method, passthrough=passthrough)
    ours = StackingClassifier(members, LogisticRegression(C=0.5), **kwargs).fit(X, y)
    theirs = SkStackingClassifier(members, LogisticRegression(C=0.5), **kwargs).fit(X, y)
    X_new = X + 0.1
    np.testing.assert_allclose(ours.transform(X_new), theirs.transform(X_new), rtol=1e-12)
    np.testing.assert_allclose(
        ours.predict_proba(X_new), theirs.predict_proba(X_new), rtol=1e-10, atol=1e-12
    )
    np.testing.assert_array_equal(ours.predict(X_new), theirs.predict(X_new))
    np.testing.assert_allclose(
        ours.final_estimator_.coef_, theirs.final_estimator_.coef_, rtol=1e-8, atol=1e-10
    )
    assert ours.stack_method_ == theirs.stack_method_


@pytest.mark.equation("B.40")
@pytest.mark.parametrize("passthrough", [False, True])
def test_stacking_regressor_equals_scikit_learn(regression, passthrough):
    X, y = regression
    cv = KFold(4, shuffle=True, random_state=1)
    sw = np.random.default_rng(0).uniform(0.5, 2, len(y))
    for final in (None, LinearRegression(positive=True, fit_intercept=False)):
        kw = dict(final_estimator=final, cv=cv, passthrough=passthrough)
        ours = StackingRegressor(_regressors(), **kw).fit(X, y, sample_weight=sw)
        theirs = SkStackingRegressor(_regressors(), **kw).fit(X, y, sample_weight=sw)
        np.testing.assert_allclose(ours.predict(X - 0.3), theirs.predict(X - 0.3), rtol=1e-10)
        np.testing.assert_allclose(ours.transform(X), theirs.transform(X), rtol=1e-12)


@pytest.mark.equation("B.40")
def test_stacking_with_string_labels_and_default_folds():
    X, y = make_classification(120, n_features=4, n_informative=3, n_redundant=0, random_state=4)
    labels = np.array(["no", "yes"])[y]
    ours = StackingClassifier(_classifiers()).fit(X, labels)
    theirs = SkStackingClassifier(_classifiers()).fit(X, labels)
    np.testing.assert_array_equal(ours.classes_, ["no", "yes"])
    np.testing.assert_array_equal(ours.predict(X), theirs.predict(X))
    np.testing.assert_allclose(ours.decision_function(X), theirs.decision_function(X), rtol=1e-10)


# ----------------------------------------------------------------------------- leakage
class _RowRecorder(BaseEstimator):
    """Fits on rows identified by their first column; predicts a sentinel 1000 for any row it
    was fitted on (an in-sample prediction) and 0 for the others."""

    def fit(self, X, y):
        self.train_ids_ = np.asarray(X)[:, 0].copy()
        self.n_features_in_ = np.asarray(X).shape[1]
        self.classes_ = np.unique(y)
        return self

    def predict(self, X):
        return np.where(np.isin(np.asarray(X)[:, 0], self.train_ids_), 1000.0, 0.0)


class RecorderRegressor(RegressorMixin, _RowRecorder):
    pass


class RecorderClassifier(ClassifierMixin, _RowRecorder):
    def predict_proba(self, X):
        seen = self.predict(X)[:, None] / 1000.0
        return np.hstack([seen, 1 - seen, np.zeros((len(X), len(self.classes_) - 2))])


class MetaRecorderRegressor(RegressorMixin, BaseEstimator):
    """Final estimator that keeps the meta-features it was trained on."""

    def fit(self, X, y, sample_weight=None):
        self.X_seen_ = np.asarray(X).copy()
        return self

    def predict(self, X):
        return np.zeros(len(X))


class MetaRecorderClassifier(ClassifierMixin, MetaRecorderRegressor):
    def fit(self, X, y, sample_weight=None):
        self.classes_ = np.unique(y)
        return super().fit(X, y)


def _with_ids(X):
    return np.column_stack([np.arange(len(X), dtype=float), X])


@pytest.mark.equation("B.40")
def test_no_in_sample_prediction_reaches_the_final_estimator(regression, three_classes):
    X, y = regression
    X = _with_ids(X)
    stack = StackingRegressor([("rec", RecorderRegressor())], MetaRecorderRegressor(), cv=5)
    seen = stack.fit(X, y).final_estimator_.X_seen_
    assert seen.shape == (len(y), 1) and not np.any(seen == 1000.0)
    # the check can fail: in-sample predictions are flagged
    assert np.all(RecorderRegressor().fit(X, y).predict(X) == 1000.0)

    Xc, yc = three_classes
    Xc = _with_ids(Xc)
    for method in ("predict", "predict_proba"):
        stack = StackingClassifier(
            [("rec", RecorderClassifier())], MetaRecorderClassifier(), stack_method=method
        )
        seen = stack.fit(Xc, yc).final_estimator_.X_seen_
        # column 0 is the sentinel (predict) or P(class 0) = 1 for a row the member saw
        assert np.all(seen[:, 0] == 0.0)
    in_sample = RecorderClassifier().fit(Xc, yc).predict_proba(Xc)
    assert np.all(in_sample[:, 0] == 1.0)


@pytest.mark.equation("B.40")
def test_no_in_sample_prediction_reaches_the_blend(regression):
    X, y = regression
    X = _with_ids(X)
    blend = BlendingRegressor(
        [("rec", RecorderRegressor())], blend=MetaRecorderRegressor(), random_state=0
    )
    seen = blend.fit(X, y).final_estimator_.X_seen_
    assert len(seen) == 50 and not np.any(seen == 1000.0)
    # with linear weights the validation predictions are all 0, so the fitted weight is 0
    assert (
        BlendingRegressor([("rec", RecorderRegressor())], random_state=0).fit(X, y).weights_[0]
        == 0
    )


# ----------------------------------------------------------------------------- voting
@pytest.mark.equation("B.34", "B.35")
@pytest.mark.parametrize("voting", ["hard", "soft"])
@pytest.mark.parametrize("weights", [None, [1, 2, 0.5]])
def test_voting_classifier_equals_scikit_learn(three_classes, voting, weights):
    X, y = three_classes
    ours = VotingClassifier(_classifiers(), voting=voting, weights=weights).fit(X, y)
    theirs = SkVotingClassifier(_classifiers(), voting=voting, weights=weights).fit(X, y)
    X_new = X * 1.1
    if voting == "soft":
        P = ours.predict_proba(X_new)
        np.testing.assert_allclose(P, theirs.predict_proba(X_new), rtol=1e-12)
        top2 = np.sort(P, axis=1)[:, -2:]
        clear = top2[:, 1] - top2[:, 0] > 1e-9  # exact ties may be broken by rounding
        assert clear.mean() > 0.9
    else:
        clear = np.ones(len(y), dtype=bool)
        assert not hasattr(ours, "predict_proba")
    np.testing.assert_array_equal(ours.predict(X_new)[clear], theirs.predict(X_new)[clear])
    np.testing.assert_allclose(ours.transform(X_new), theirs.transform(X_new))


@pytest.mark.equation("B.34")
def test_voting_regressor_equals_scikit_learn(regression):
    X, y = regression
    for weights in (None, [3, 1, 1]):
        ours = VotingRegressor(_regressors(), weights=weights).fit(X, y)
        theirs = SkVotingRegressor(_regressors(), weights=weights).fit(X, y)
        np.testing.assert_allclose(ours.predict(X), theirs.predict(X), rtol=1e-12)
        np.testing.assert_allclose(ours.transform(X), theirs.transform(X))


@pytest.mark.equation("B.36")
def test_voting_with_reject_option(three_classes):
    X, y = three_classes
    labels = np.array(["ant", "bee", "cat"])[y]
    plain = VotingClassifier(_classifiers(), voting="soft").fit(X, labels)
    strict = clone(plain).set_params(min_agreement=0.9, reject_label="?").fit(X, labels)
    P = strict.predict_proba(X)
    pred = strict.predict(X)
    rejected = pred == "?"
    assert 0 < rejected.mean() < 1
    np.testing.assert_array_equal(rejected, P.max(axis=1) < 0.9)
    np.testing.assert_array_equal(pred[~rejected], plain.predict(X)[~rejected])
    hard = VotingClassifier(_classifiers(), min_agreement=1.0).fit(X, y)
    unanimous = (hard.transform(X) == hard.transform(X)[:, :1]).all(axis=1)
    np.testing.assert_array_equal(hard.predict(X) == -1, ~unanimous)
    with pytest.raises(ValueError, match="reject_label"):
        VotingClassifier(_classifiers(), min_agreement=0.6, reject_label=1).fit(X, y)


# ----------------------------------------------------------------------------- blending
@pytest.mark.equation("B.38")
def test_blending_regressor_with_an_explicit_validation_set(regression):
    X, y = regression
    X_tr, y_tr, X_val, y_val = X[:140], y[:140], X[140:], y[140:]
    blend = BlendingRegressor(_regressors()).fit(X_tr, y_tr, X_val=X_val, y_val=y_val)
    members = [clone(e).fit(X_tr, y_tr) for _, e in _regressors()]
    Y_val = np.column_stack([m.predict(X_val) for m in members])
    np.testing.assert_allclose(blend.weights_, linear_blend_weights(Y_val, y_val), atol=1e-12)
    Y = np.column_stack([m.predict(X) for m in members])
    np.testing.assert_allclose(blend.predict(X), Y @ blend.weights_, rtol=1e-12)
    uniform = clone(blend).set_params(blend="uniform").fit(X_tr, y_tr, X_val=X_val, y_val=y_val)
    np.testing.assert_allclose(uniform.predict(X), Y.mean(axis=1), rtol=1e-12)
    learned = clone(blend).set_params(blend=Ridge()).fit(X_tr, y_tr, X_val=X_val, y_val=y_val)
    np.testing.assert_allclose(
        learned.predict(X), Ridge().fit(Y_val, y_val).predict(Y), rtol=1e-10
    )
    # the blend's validation error is the smallest over non-negative weights: below uniform's
    err = [np.mean((b.predict(X_val) - y_val) ** 2) for b in (blend, uniform)]
    assert err[0] <= err[1]


@pytest.mark.equation("B.38")
def test_blending_classifier_holdout_split_is_stratified_and_seeded(three_classes):
    X, y = three_classes
    a = BlendingClassifier(_classifiers(), validation_fraction=0.3, random_state=5).fit(X, y)
    b = BlendingClassifier(_classifiers(), validation_fraction=0.3, random_state=5).fit(X, y)
    c = BlendingClassifier(_classifiers(), validation_fraction=0.3, random_state=6).fit(X, y)
    np.testing.assert_array_equal(a.weights_, b.weights_)
    np.testing.assert_array_equal(a.predict_proba(X), b.predict_proba(X))
    assert not np.array_equal(a.weights_, c.weights_)
    assert np.all(a.weights_ >= 0) and a.weights_.sum() == pytest.approx(1.0)
    np.testing.assert_allclose(a.predict_proba(X).sum(axis=1), 1.0)
    n_train = len(y) - int(np.ceil(0.3 * len(y)))
    assert a.named_estimators_["nb"].class_count_.sum() == n_train
    np.testing.assert_allclose(a.named_estimators_["nb"].class_count_, n_train / 3, atol=1)


# ----------------------------------------------------------------------------- API
def test_named_members_in_pipelines_and_drop(three_classes):
    X, y = three_classes
    vote = VotingClassifier(_classifiers(), voting="soft", weights=[1, 1, 5])
    assert vote.get_params()["tree__max_depth"] == 3
    vote.set_params(tree__max_depth=1, nb="drop")
    assert vote.estimators[0][1].max_depth == 1 and vote.estimators[2][1] == "drop"
    pipe = make_pipeline(StandardScaler(), vote).fit(X, y)
    fitted = pipe[-1]
    assert list(fitted.named_estimators_) == ["tree", "lr"]
    np.testing.assert_allclose(fitted.weights_, [0.5, 0.5])  # the dropped member's weight goes
    assert fitted.named_estimators_["tree"].get_depth() == 1
    assert _classifiers()[0][1].max_depth == 3  # members are cloned, never modified


@pytest.mark.slow
def test_results_do_not_depend_on_n_jobs(three_classes, regression):
    X, y = three_classes
    cv = StratifiedKFold(3, shuffle=True, random_state=0)
    one = StackingClassifier(_classifiers(), cv=cv, n_jobs=1).fit(X, y)
    two = StackingClassifier(_classifiers(), cv=cv, n_jobs=2).fit(X, y)
    np.testing.assert_array_equal(one.predict_proba(X), two.predict_proba(X))
    Xr, yr = regression
    b1 = BlendingRegressor(_regressors(), n_jobs=1, random_state=0).fit(Xr, yr)
    b2 = BlendingRegressor(_regressors(), n_jobs=2, random_state=0).fit(Xr, yr)
    np.testing.assert_array_equal(b1.predict(Xr), b2.predict(Xr))


def test_bad_inputs_give_clear_errors(three_classes, regression):
    X, y = three_classes
    Xr, yr = regression
    with pytest.raises(ValueError, match="should be a classifier"):
        VotingClassifier([("r", Ridge())]).fit(X, y)
    with pytest.raises(ValueError, match="should be a regressor"):
        VotingRegressor([("c", LogisticRegression())]).fit(Xr, yr)
    with pytest.raises(ValueError, match="one entry per estimator"):
        VotingClassifier(_classifiers(), weights=[1, 2]).fit(X, y)
    with pytest.raises(ValueError, match="non-negative"):
        VotingClassifier(_classifiers(), weights=[1, -1, 1]).fit(X, y)
    with pytest.raises(ValueError, match="not all zero"):
        VotingRegressor(_regressors(), weights=[0, 0, 0]).fit(Xr, yr)
    with pytest.raises(ValueError, match="stack_method"):
        StackingClassifier(_classifiers(), stack_method="predict_log_proba").fit(X, y)
    with pytest.raises(ValueError, match="does not implement decision_function"):
        StackingClassifier(_classifiers(), stack_method="decision_function").fit(X, y)
    with pytest.raises(TypeError, match="needs predict_proba.*'ridge'"):
        VotingClassifier([("ridge", RidgeClassifier())], voting="soft").fit(X, y)
    with pytest.raises(TypeError, match="needs predict_proba"):
        BlendingClassifier([("ridge", RidgeClassifier())]).fit(X, y)
    with pytest.raises(ValueError, match="non-empty list"):
        StackingRegressor([]).fit(Xr, yr)
    with pytest.raises(ValueError, match="unique"):
        VotingRegressor([("a", Ridge()), ("a", LinearRegression())]).fit(Xr, yr)
    with pytest.raises(ValueError, match="all estimators are dropped"):
        VotingRegressor([("a", "drop")]).fit(Xr, yr)
    with pytest.raises(ValueError, match="final_estimator must be a classifier"):
        StackingClassifier(_classifiers(), final_estimator=Ridge()).fit(X, y)
    with pytest.raises(ValueError, match="blend"):
        BlendingRegressor(_regressors(), blend="median").fit(Xr, yr)
    with pytest.raises(ValueError, match="need X_val"):
        BlendingRegressor(_regressors()).fit(Xr, yr, y_val=yr)
    with pytest.raises(ValueError, match="labels not in y"):
        BlendingClassifier(_classifiers()).fit(X, y, X_val=X[:10], y_val=np.full(10, 7))
    with pytest.raises(TypeError, match="does not accept sample_weight"):
        VotingClassifier([("p", make_pipeline(StandardScaler(), GaussianNB()))]).fit(
            X, y, sample_weight=np.ones(len(y))
        )
    with pytest.raises(ValueError, match="min_agreement"):
        VotingClassifier(_classifiers(), min_agreement=1.5).fit(X, y)
    with pytest.raises(ValueError, match="min_agreement"):
        vote_with_reject(np.full((2, 2), 0.5), 0.0)
    with pytest.raises(ValueError, match="votes must lie"):
        weighted_vote([[0, 3]], 3)
    with pytest.raises(ValueError, match="p must lie"):
        majority_vote_accuracy(1.2, 3)
    with pytest.raises(ValueError, match="targets must have shape"):
        linear_blend_weights(np.ones((5, 2)), np.ones(4))
    with pytest.raises(ValueError, match="positive"):
        inverse_error_weights([1.0, 0.0])


def test_core_functions_name_the_bad_argument():
    with pytest.raises(ValueError, match="votes must lie in"):
        weighted_vote(np.full((2, 3), 1e300), 2)
    with pytest.raises(TypeError, match="votes must be integer class indices"):
        weighted_vote(np.full((2, 3), "a", dtype=object), 2)
    with pytest.raises(ValueError, match="probabilities must be non-negative"):
        soft_vote(-np.ones((2, 3, 2)))
    X, y = np.arange(8.0).reshape(4, 2), np.arange(4.0)
    folds = [(np.array([0, 1]), np.array([2, 3])), (np.array([2, 3]), np.array([0, 1]))]
    with pytest.raises(ValueError, match="inconsistent numbers of samples: X has 4, y has 3"):
        out_of_fold_predictions(LinearRegression(), X, y[:3], folds)
    with pytest.raises(ValueError, match="rescale y"):
        out_of_fold_predictions(LinearRegression(), X, y * 1e300, folds)
    with pytest.raises(ValueError, match="X"):
        out_of_fold_predictions(LinearRegression(), X[..., None], y, folds)
