"""Feature importances of tree ensembles: impurity decrease (B.32) and permutation (B.33).

*Impurity importance* (mean decrease in impurity) credits every cut of every tree with the drop
in N_τ Q_τ it makes, adds the credits up per feature and normalises them per tree:
:func:`impurity_importances` for one tree, :func:`mean_decrease_in_impurity` for a forest. It
costs nothing after the fit but is measured on the training data, so it favours features with
many possible cuts (continuous or many-valued ones), even pure noise.

*Permutation importance* is the drop of a model's score when one feature's column is shuffled,
which breaks that feature's link with the target and keeps its distribution:
:func:`permutation_importance` on a held-out set (the same permutations, scores and results as
scikit-learn's ``sklearn.inspection.permutation_importance`` for the same ``random_state``) and
:func:`oob_permutation_importance` on the out-of-bag points of a fitted forest or bagging
ensemble (B.31). Features that carry the same information share it: shuffling one leaves the
other, so each looks less important than it is.
"""

from __future__ import annotations

from numbers import Integral

import numpy as np
from sklearn.base import RegressorMixin, is_classifier
from sklearn.metrics import accuracy_score, check_scoring, r2_score
from sklearn.utils import Bunch
from sklearn.utils.parallel import Parallel, delayed
from sklearn.utils.validation import (
    check_is_fitted,
    check_scalar,
)

from .._equations import implements
from .._validation import (
    check_array,
    check_magnitude,
    check_n_jobs,
    check_number,
    check_random_state,
    check_sample_weight,
    check_tree,
)
from ..trees import TREE_LEAF
from .bagging import out_of_bag_mask
from .bagging_estimators import _member_output

__all__ = [
    "impurity_importances",
    "mean_decrease_in_impurity",
    "permutation_indices",
    "permutation_importance",
    "oob_permutation_importance",
]


# --------------------------------------------------------------------------- impurity (B.32)
@implements("B.32")
def impurity_importances(tree, n_features=None, normalize=True):
    """Σ over the cuts on feature j of N_τ Q_τ − N_L Q_L − N_R Q_R, for one tree, (B.32).

    Parameters
    ----------
    tree : Tree
        A fitted tree (``estimator.tree_``); N_τ is its ``weighted_n_node_samples`` and Q_τ its
        ``impurity`` (per unit weight), so N_τ Q_τ is (14.30), (14.32) or (14.33).
    n_features : int, default=None
        D (default: one more than the largest feature the tree cuts on).
    normalize : bool, default=True
        Divide by the total decrease so that the importances sum to one (a tree without cuts
        gives zeros).

    Returns
    -------
    ndarray of shape (n_features,)
        The decrease of Σ_τ N_τ Q_τ credited to each feature.

    Raises
    ------
    TypeError
        If tree is not a fitted :class:`~prml14.trees.structure.Tree`
        (an estimator is refused: pass its ``tree_``), or n_features is not an integer.
    ValueError
        If n_features is below 1 or below the number of features the tree cuts on.
    """
    tree = check_tree(tree)
    inner = np.flatnonzero(tree.children_left != TREE_LEAF)
    features = tree.feature[inner]
    if n_features is None:
        n_features = int(features.max()) + 1 if inner.size else 1
    check_scalar(n_features, "n_features", Integral, min_val=1)
    if inner.size and features.max() >= n_features:
        raise ValueError(f"the tree cuts on feature {features.max()}, n_features={n_features}")
    cost = tree.weighted_n_node_samples * tree.impurity  # N_τ Q_τ of every node
    decrease = cost[inner] - cost[tree.children_left[inner]] - cost[tree.children_right[inner]]
    out = np.bincount(features, weights=decrease, minlength=n_features).astype(float)
    total = out.sum()
    return out / total if normalize and total > 0 else out


@implements("B.32")
def mean_decrease_in_impurity(trees, n_features):
    """A forest's impurity importances: the mean of its trees' normalised (B.32).

    Trees without a cut are left out of the mean (as scikit-learn does); the result is
    renormalised to sum to one.

    Parameters
    ----------
    trees : list of Tree
        The fitted trees (``[est.tree_ for est in forest.estimators_]``).
    n_features : int
        D.

    Returns
    -------
    ndarray of shape (n_features,)
        Non-negative importances that sum to one (zeros if no tree has a cut).

    Raises
    ------
    TypeError
        If ``n_features`` is not an integer.
    ValueError
        If ``n_features`` < 1 or a tree cuts on a feature beyond it.
    """
    n_features = check_number(n_features, "n_features", low=1, integer=True)
    if not isinstance(trees, (list, tuple)):
        raise TypeError(f"trees must be a list of fitted trees, got {type(trees).__name__}")
    trees = [check_tree(t, f"trees[{i}]") for i, t in enumerate(trees)]
    per_tree = [impurity_importances(t, n_features) for t in trees if t.node_count > 1]
    if not per_tree:
        return np.zeros(n_features)
    mean = np.mean(per_tree, axis=0)
    return mean / mean.sum() if mean.sum() > 0 else mean


# ------------------------------------------------------------------------ permutation (B.33)
def permutation_indices(n_samples, n_repeats=5, random_state=None):
    """The K row permutations π_1, ..., π_K that :func:`permutation_importance` applies.

    They are the permutations that scikit-learn's ``permutation_importance`` applies to every
    feature for the same ``random_state``: one seed is drawn, and from it K successive in-place
    shuffles of the row indices, which scikit-learn composes (its column after shuffle r is its
    column after shuffle r − 1, reindexed).

    Parameters
    ----------
    n_samples : int
        N, the number of rows.
    n_repeats : int, default=5
        K.
    random_state : int, RandomState or None, default=None
        Seeds the permutations.

    Returns
    -------
    ndarray of int of shape (n_repeats, n_samples)
        Row r is π_r: repeat r replaces ``X[:, j]`` by ``X[π_r, j]``.

    Raises
    ------
    TypeError
        If ``n_samples`` or ``n_repeats`` is not an integer.
    ValueError
        If ``n_samples`` or ``n_repeats`` is below 1, or ``random_state`` cannot seed a
        generator.
    """
    check_scalar(n_samples, "n_samples", Integral, min_val=1)
    check_scalar(n_repeats, "n_repeats", Integral, min_val=1)
    seed = check_random_state(random_state).randint(np.iinfo(np.int32).max + 1)
    rng = np.random.RandomState(seed)
    shuffled, composed = np.arange(n_samples), np.arange(n_samples)
    out = np.empty((n_repeats, n_samples), dtype=np.intp)
    for k in range(n_repeats):
        rng.shuffle(shuffled)
        composed = composed[shuffled]
        out[k] = composed
    return out


def _check_permutations(permutations, n_samples):
    P = check_array(permutations, dtype=None, input_name="permutations")
    if not np.issubdtype(P.dtype, np.integer):
        raise TypeError(f"permutations must be integers, got dtype {P.dtype}")
    if P.shape[1] != n_samples or not np.all(np.sort(P, axis=1) == np.arange(n_samples)):
        raise ValueError(
            f"permutations must hold permutations of 0, ..., {n_samples - 1} in its rows"
        )
    return P


def _check_X_y(X, y, classify):
    """X (n_samples, n_features) and y (one entry per row): finite numbers for a regressor,
    labels of any type for a classifier."""
    X = check_array(X, input_name="X")
    if classify:
        y = np.asarray(y)
    else:
        y = check_array(y, ensure_2d=False, input_name="y")
        check_magnitude(y, "y")
    if y.ndim == 0 or y.shape[0] != X.shape[0]:
        raise ValueError(
            "X and y have inconsistent numbers of samples: X has "
            f"{X.shape[0]}, y has {y.shape[0] if y.ndim else 'none (a scalar)'}"
        )
    return X, y


def _importances_bunch(baseline, scores):
    importances = baseline - scores  # (n_features, n_repeats)
    return Bunch(
        importances_mean=importances.mean(axis=1),
        importances_std=importances.std(axis=1),
        importances=importances,
        baseline_score=baseline,
    )


def _scores_of_feature(score, X, j, permutations):
    """score(X with column j replaced by X[π_r, j]) for every r (on a private copy of X)."""
    Xp = X.copy()
    out = np.empty(len(permutations))
    for k, perm in enumerate(permutations):
        Xp[:, j] = X[perm, j]
        out[k] = score(Xp)
    return out


@implements("B.33")
def permutation_importance(
    estimator,
    X,
    y,
    *,
    scoring=None,
    n_repeats=5,
    random_state=None,
    sample_weight=None,
    n_jobs=None,
    permutations=None,
):
    """I_j = s − (1/K) Σ_r s_jr: the drop of the score when feature j is permuted, (B.33).

    s is the score of the fitted ``estimator`` on (X, y) and s_jr its score after the column
    ``X[:, j]`` is replaced by ``X[π_r, j]``. On a held-out set this measures how much the
    model's *generalisation* relies on feature j. With the same ``random_state`` (and no
    ``permutations``) the permutations, scores and results are those of scikit-learn's
    ``sklearn.inspection.permutation_importance``. For a prml14
    :class:`~prml14.committees.forest_estimators.RandomForestRegressor` scored by R²
    (``scoring=None``) the trees' leaves on X are reused: a row is walked again only from the first
    node of its path that cuts on feature j (the same predictions and scores, about half the time).

    Parameters
    ----------
    estimator : fitted estimator
        The model; it is not refitted.
    X : array-like of shape (n_samples, n_features)
        Inputs (numeric).
    y : array-like of shape (n_samples,)
        Targets.
    scoring : str, callable or None, default=None
        A scikit-learn scorer (greater is better); None uses ``estimator.score``.
    n_repeats : int, default=5
        K, the permutations per feature.
    random_state : int, RandomState or None, default=None
        Seeds the permutations (:func:`permutation_indices`).
    sample_weight : array-like of shape (n_samples,), default=None
        Passed to the scorer.
    n_jobs : int, default=None
        Features evaluated in parallel by joblib threads; the results do not depend on it.
    permutations : array-like of int of shape (n_repeats, n_samples), default=None
        Explicit permutations π_r (the same for every feature); overrides ``n_repeats`` and
        ``random_state``.

    Returns
    -------
    Bunch
        ``importances`` (n_features, n_repeats): s − s_jr; ``importances_mean`` and
        ``importances_std`` over the repeats; ``baseline_score``: s.

    Raises
    ------
    ValueError
        If y has not one entry per row of X or, for a regressor, is not finite or exceeds
        1e150 in magnitude (rescale it); if ``random_state`` is not a valid seed,
        ``sample_weight`` is misshapen, negative or not finite, or ``scoring`` is not a
        scorer's name, a callable or None (scikit-learn's InvalidParameterError).
    TypeError
        If ``estimator`` has no ``predict`` method or ``n_jobs`` is not None or an integer.
    """
    if not callable(getattr(estimator, "predict", None)):
        raise TypeError(f"estimator must be a fitted estimator, got {estimator!r}")
    n_jobs = check_n_jobs(n_jobs)
    X, y = _check_X_y(X, y, is_classifier(estimator))
    if sample_weight is not None:
        sample_weight = check_sample_weight(sample_weight, X, max_magnitude=None)
    if permutations is None:
        permutations = permutation_indices(X.shape[0], n_repeats, random_state)
    permutations = _check_permutations(permutations, X.shape[0])
    scorer = check_scoring(estimator, scoring=scoring)
    kwargs = {} if sample_weight is None else {"sample_weight": sample_weight}
    if scoring is None and _is_plain_forest_regressor(estimator):
        # the same predictions, sums and R² as estimator.score, with the trees' leaves reused
        base, permuted = estimator._permuted_predictions(X, permutations, n_jobs)
        scores = [[r2_score(y, p, **kwargs) for p in row] for row in permuted]
        return _importances_bunch(r2_score(y, base, **kwargs), np.array(scores))

    def score(Xs):
        return scorer(estimator, Xs, y, **kwargs)

    baseline = score(X)
    scores = Parallel(n_jobs=n_jobs, prefer="threads")(
        delayed(_scores_of_feature)(score, X, j, permutations) for j in range(X.shape[1])
    )
    return _importances_bunch(baseline, np.array(scores))


def _is_plain_forest_regressor(estimator):
    """A prml14 forest regressor whose predict and score are the library's own.

    The forest names the ``predict`` that its ``_permuted_predictions`` reproduces bit for bit
    (``_permuted_predict``); a subclass that overrides ``predict`` or ``score`` is scored the
    general way.
    """
    cls = type(estimator)
    return (
        getattr(cls, "_permuted_predict", None) is not None
        and cls.predict is cls._permuted_predict
        and cls.score is RegressorMixin.score
    )


def _oob_score(ensemble, X, y, mask):
    """The ensemble's out-of-bag committee (B.31) on X, scored like ``oob_score_``."""
    classify = is_classifier(ensemble)
    total = None
    for m, (est, oob) in enumerate(zip(ensemble.estimators_, mask.T, strict=True)):
        if not oob.any():
            continue
        Xs = ensemble._columns(m, X[oob])  # a bagging member's own columns
        out = ensemble._member_votes(est, Xs) if classify else _member_output(est, Xs)
        if total is None:
            total = np.zeros((X.shape[0],) + out.shape[1:])
        total[oob] += out
    has = mask.any(axis=1)
    if classify:
        return float(accuracy_score(y[has], np.argmax(total[has], axis=1)))
    return float(r2_score(y[has], total[has] / mask.sum(axis=1)[has]))


@implements("B.33")
def oob_permutation_importance(ensemble, X, y, *, n_repeats=5, random_state=None, n_jobs=None):
    """Permutation importance (B.33) on the out-of-bag points of a fitted forest.

    The score s is the out-of-bag score of the ensemble (B.31) on its own training data: R²
    for regression, accuracy for classification, as in ``oob_score_``; s_jr is the same score
    when every tree predicts its out-of-bag points with column j replaced by ``X[π_r, j]``
    (one permutation π_r of all N rows, drawn as in :func:`permutation_indices`). No held-out
    data are needed: each point is judged only by trees that did not train on it.

    Parameters
    ----------
    ensemble : fitted RandomForest*, BaggingRegressor or BaggingClassifier
        A prml14 bootstrap ensemble (it has ``estimators_samples_``).
    X : array-like of shape (n_samples, n_features)
        The training inputs the ensemble was fitted on.
    y : array-like of shape (n_samples,)
        The training targets.
    n_repeats : int, default=5
        K, the permutations per feature.
    random_state : int, RandomState or None, default=None
        Seeds the permutations.
    n_jobs : int, default=None
        Features evaluated in parallel by joblib threads; the results do not depend on it.

    Returns
    -------
    Bunch
        As :func:`permutation_importance`; ``baseline_score`` equals ``oob_score_``.

    Raises
    ------
    ValueError
        As :func:`permutation_importance`; also if X has the wrong number of features, y holds
        unknown labels, or no point is out of bag.
    TypeError
        If ``ensemble`` has no ``predict`` method or ``n_jobs`` is not None or an integer.
    """
    if not callable(getattr(ensemble, "predict", None)):
        raise TypeError(f"ensemble must be a fitted bagging or forest estimator, got {ensemble!r}")
    check_is_fitted(ensemble, "estimators_samples_")
    n_jobs = check_n_jobs(n_jobs)
    X, y = _check_X_y(X, y, is_classifier(ensemble))
    if X.shape[1] != ensemble.n_features_in_:
        raise ValueError(
            f"X has {X.shape[1]} features, the ensemble was fitted on {ensemble.n_features_in_}"
        )
    if is_classifier(ensemble):
        unknown = ~np.isin(y, ensemble.classes_)
        if unknown.any():
            raise ValueError(f"y holds labels not seen in fit: {np.unique(y[unknown])[:5]}")
        y = np.searchsorted(ensemble.classes_, y)  # the members' encoded labels
    mask = out_of_bag_mask(ensemble.estimators_samples_, X.shape[0])
    if not mask.any():
        raise ValueError("no point is out of bag (bootstrap=False?): nothing to score")
    permutations = permutation_indices(X.shape[0], n_repeats, random_state)

    def score(Xs):
        return _oob_score(ensemble, Xs, y, mask)

    baseline = score(X)
    scores = Parallel(n_jobs=n_jobs, prefer="threads")(
        delayed(_scores_of_feature)(score, X, j, permutations) for j in range(X.shape[1])
    )
    return _importances_bunch(baseline, np.array(scores))
