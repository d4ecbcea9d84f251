"""Growing a tree from per-sample statistics: :func:`grow_tree`, the one engine that CART trees,
random forests, gradient boosting and second-order (XGBoost-style) trees grow through.

The engine is split like scikit-learn's trees: a *criterion* (:mod:`prml14.trees.criteria`)
turns the statistics of a set of samples into a weight, a value, an impurity and a split score;
a *split finder* (the exact one of :mod:`prml14.trees.exact`, or the histogram one of
:mod:`prml14.trees.histogram`) scores all cuts of all nodes of a level at once; and the builder
here checks the inputs, applies the stopping rules and records the nodes in a
:class:`~prml14.trees.structure.Tree`.
"""

from __future__ import annotations

import numbers

import numpy as np
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_scalar

from .._validation import check_array
from ._nodes import _Recorder
from .exact import SortedFeatures, _grow_exact
from .histogram import BinnedFeatures, _grow_histogram, bin_features

__all__ = ["grow_tree"]

# a split score squares sums of statistics (S²/N): node sums beyond this would overflow;
# the other statistics are summed only
_MAX_SUM = 1e154
_MAX_TOTAL = 1e300


def _check_statistics(statistics, criterion, n_samples):
    if not hasattr(criterion, "n_stats"):
        raise TypeError(
            "criterion must be a criterion object of prml14.trees (e.g. SquaredError()), "
            f"got {criterion!r}"
        )
    """The statistics as a float64 (n_stats, n_samples) C array, checked once per tree."""
    if type(statistics) is np.ndarray and statistics.dtype == np.float64 and statistics.ndim == 2:
        stats = statistics  # (a boosting round's own statistics): NaN and inf are caught below
    else:
        stats = check_array(statistics, dtype=np.float64, input_name="statistics", order="C")
    if stats.shape[0] != n_samples:
        raise ValueError(
            "X and statistics have inconsistent numbers of samples: X has "
            f"{n_samples}, statistics has {stats.shape[0]}"
        )
    if stats.shape[1] != criterion.n_stats:
        raise ValueError(
            f"statistics must have {criterion.n_stats} columns for criterion "
            f"{criterion.name!r}, got {stats.shape[1]}"
        )
    stats = np.ascontiguousarray(stats.T)
    # |a node's sum| <= n_samples * the largest |entry|: max and min need no temporary array
    largest = np.maximum(stats.max(axis=1), -stats.min(axis=1))  # NaN if there is a NaN
    if not np.all(np.isfinite(largest)):
        raise ValueError("statistics must not contain NaN or infinity")
    channels = list(criterion.score_channels)
    if np.any(largest > _MAX_TOTAL / n_samples) or np.any(
        largest[channels] > _MAX_SUM / n_samples
    ):
        raise ValueError(
            f"statistics are too large (entries up to {largest.max():.3g} for {n_samples} "
            "samples): the sums of a node would overflow in the split scores; rescale the "
            "targets, weights or gradients they come from"
        )
    w = criterion.node_weight(stats)
    if np.any(w < 0) or not w.sum() > 0:
        raise ValueError("the sample weights that statistics imply must be >= 0, with sum > 0")
    return stats


def grow_tree(
    X,
    statistics,
    criterion,
    *,
    max_depth=None,
    min_samples_split=2,
    min_samples_leaf=1,
    min_weight_leaf=0.0,
    min_impurity_decrease=0.0,
    max_features=None,
    random_state=None,
    splitter="exact",
    max_bins=255,
    check_input=True,
    return_leaves=False,
):
    """Grow a binary tree greedily, level by level, from per-sample statistics.

    Every node is cut at the feature and threshold with the best split score of ``criterion``
    (``x <= threshold`` goes left); a node becomes a leaf when a stopping rule says so or no cut
    is valid or accepted.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features), BinnedFeatures or SortedFeatures
        Finite inputs; with ``splitter="histogram"`` also features binned by
        :func:`~prml14.trees.histogram.bin_features` (bin once, grow many trees), with
        ``splitter="exact"`` also features sorted by :func:`~prml14.trees.exact.sort_features`
        (sort once, grow many trees).
    statistics : array-like of shape (n_samples, n_stats)
        The statistics of every sample, as made by ``criterion.statistics(...)``:
        (w, w t, w t²) for :class:`~prml14.trees.criteria.SquaredError`, w · one-hot(t) for the
        class criteria, (g, h) for :class:`~prml14.trees.criteria.SecondOrder`. The sample
        weights they imply must be non-negative with a positive sum.
    criterion : criterion object
        One of :mod:`prml14.trees.criteria`.
    max_depth : int >= 1 or None, default=None
        The largest depth of a leaf (None: unlimited).
    min_samples_split : int >= 2, default=2
        A node with fewer samples is not cut.
    min_samples_leaf : int >= 1, default=1
        The fewest samples a child may have.
    min_weight_leaf : float >= 0, default=0.0
        The least weight N_τ a child may have (for
        :class:`~prml14.trees.criteria.SecondOrder`, the sum of Hessians: XGBoost's
        ``min_child_weight``).
    min_impurity_decrease : float >= 0, default=0.0
        A node is cut only if (N_τ/N)(Q_τ − (N_L/N_τ) Q_L − (N_R/N_τ) Q_R) reaches this value.
    max_features : int >= 1 or None, default=None
        The number of features drawn at random at every node, among those not constant there,
        before any cut is scored (None: all of them). A drawn feature whose cuts all break
        ``min_samples_leaf`` or ``min_weight_leaf`` uses up its draw, as in scikit-learn.
    random_state : int, RandomState or None, default=None
        Draws the features when ``max_features`` is smaller than the number of features.
    splitter : {"exact", "histogram"}, default="exact"
        Every threshold between distinct values, or the edges of at most ``max_bins`` bins.
    max_bins : int in [2, 65535], default=255
        The bins per feature of the histogram finder (ignored for pre-binned X).
    check_input : bool, default=True
        Check X and ``statistics``. The estimators, which validate their data in ``fit`` and
        make the statistics themselves, pass False: X must then be a finite float64 array
        (or binned or sorted features) and ``statistics`` a float64 array of the right shape.
    return_leaves : bool, default=False
        Also return the leaf of every training sample (the histogram finder records them as it
        grows; otherwise the tree is applied to X).

    Returns
    -------
    tree : Tree
        Node values, impurities (per unit weight) and weights as the criterion defines them.
    leaves : ndarray of int of shape (n_samples,)
        The node id of the leaf every sample of X falls in (only if ``return_leaves``).

    Raises
    ------
    TypeError
        If ``criterion`` is not a criterion object of prml14.trees, or a stopping rule is not
        a number of its type (an integer for the counts and ``max_depth``).
    ValueError
        If X and ``statistics`` do not have one row per sample, or if n_samples times the
        largest statistic that a split score squares exceeds 1e154 (the squares of the node
        sums could overflow): rescale the targets, weights or gradients. Also if X is not a
        finite real array, ``statistics`` does not have the criterion's columns, a stopping
        rule is below its bound (``max_depth``, ``min_samples_leaf``, ``max_features`` >= 1,
        ``min_samples_split`` >= 2, the weights and decrease >= 0), ``splitter`` is not
        "exact" or "histogram", or ``random_state`` is not a valid seed.
    """
    if splitter not in ("exact", "histogram"):
        raise ValueError(f"splitter must be 'exact' or 'histogram', got {splitter!r}")
    if getattr(criterion, "sample_based", False) and splitter != "exact":
        raise ValueError(f"criterion {criterion.name!r} needs splitter='exact'")
    if isinstance(X, BinnedFeatures):
        if splitter != "histogram":
            raise ValueError("X is binned: use splitter='histogram'")
        binned, (N, D) = X, X.codes.shape
    elif isinstance(X, SortedFeatures):
        if splitter != "exact":
            raise ValueError("X is sorted: use splitter='exact'")
        N, D = X.shape
    elif check_input:
        X = check_array(X, dtype=np.float64, input_name="X")
    if isinstance(X, np.ndarray):
        N, D = X.shape
    if check_input:
        stats = _check_statistics(statistics, criterion, N)
    else:
        stats = np.ascontiguousarray(statistics.T)
    if max_depth is not None:
        check_scalar(max_depth, "max_depth", numbers.Integral, min_val=1)
    check_scalar(min_samples_split, "min_samples_split", numbers.Integral, min_val=2)
    check_scalar(min_samples_leaf, "min_samples_leaf", numbers.Integral, min_val=1)
    check_scalar(min_weight_leaf, "min_weight_leaf", numbers.Real, min_val=0.0)
    check_scalar(min_impurity_decrease, "min_impurity_decrease", numbers.Real, min_val=0.0)
    if max_features is None:
        max_features = D
    check_scalar(max_features, "max_features", numbers.Integral, min_val=1, max_val=D)

    # rows of zero weight are removed rows: they neither place thresholds nor count as samples
    full_X = None
    empty = criterion.empty_rows(stats)
    if empty.any():
        rows = np.flatnonzero(~empty)
        full_X = X
        if isinstance(X, BinnedFeatures):
            binned = BinnedFeatures(X.codes[rows], X.edges)
        elif isinstance(X, SortedFeatures):
            X = X.take(rows)
        else:
            X = X[rows]
        stats = np.ascontiguousarray(stats[:, rows])
    if isinstance(X, np.ndarray):  # binned after the drop: the edges of the rows that count
        binned = bin_features(X, max_bins) if splitter == "histogram" else None

    recorder = _Recorder(
        criterion, max_depth, min_samples_split, min_samples_leaf, min_weight_leaf
    )
    wc = criterion.weight_channel
    # equal weights: the weight of a side is implied by its number of samples
    unit = float(stats[wc, 0]) if wc is not None and np.all(stats[wc] == stats[wc, 0]) else None
    grow = _grow_histogram if splitter == "histogram" else _grow_exact
    grow(
        binned if splitter == "histogram" else X,
        stats,
        recorder,
        unit,
        min_impurity_decrease,
        max_features,
        check_random_state(random_state),
    )
    tree = recorder.tree()
    if not return_leaves:
        return tree
    leaves = recorder.leaf
    if full_X is not None:  # the leaves of all rows, the dropped ones included
        leaves, X = None, full_X
    if isinstance(X, BinnedFeatures):
        if leaves is None:
            leaves = X.apply(tree)
    elif leaves is None:  # the exact finder: apply the tree to the (unsorted) features
        if isinstance(X, SortedFeatures):
            X = X.unsorted()
        leaves = tree.apply(X)
    return tree, leaves
