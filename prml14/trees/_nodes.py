"""Node bookkeeping shared by the split finders: recording nodes level by level, drawing feature
subsets, and deciding which best cuts are made."""

from __future__ import annotations

import numpy as np

from .criteria import _rounding_floor
from .structure import TREE_LEAF, Tree

__all__ = []

_EPSILON = np.finfo(np.float64).eps


class _Recorder:
    """Appends the nodes of a tree level by level and turns them into a :class:`Tree`."""

    def __init__(self, criterion, max_depth, min_samples_split, min_samples_leaf, min_weight_leaf):
        self.criterion = criterion
        self.max_depth = np.inf if max_depth is None else max_depth
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.min_weight_leaf = min_weight_leaf
        self._n = 0
        self._nodes = []  # per level: value, impurity, counts, weights, depth
        self._splits = []  # per level: parents, left ids, right ids, features, thresholds
        self.leaf = None  # the leaf of every training sample, if the split finder records it
        self._leaf_sums = None  # (leaf ids, their sums) that replace the recorded ones
        # per node: the scale and the number of samples of the rounding its sums carry
        self._rounding_scale = np.empty(0)
        self._rounding_count = np.empty(0, dtype=np.intp)

    def add_nodes(self, sums, counts, depth, inherited=None, impurity=None, W=None):
        """Append nodes with the summed statistics ``sums`` (n_stats, m) and sample ``counts``.

        ``inherited``: (scale, count) of the rounding the sums carry beyond their own, if they
        were derived from other sums (a child's sums taken as its parent's minus its sibling's
        carry the parent's rounding, which is relative to the parent's scale and count).
        ``impurity`` and ``W``: the nodes' impurities and weights, if already computed from
        ``sums``. Returns their ids, which of them may be split, their impurities and their
        weights.
        """
        crit = self.criterion
        scale = np.broadcast_to(crit.rounding_scale(sums), counts.shape).astype(float)
        n_round = counts
        if inherited is not None:
            scale = np.maximum(scale, inherited[0])
            n_round = np.maximum(counts, inherited[1])
        self._rounding_scale = np.concatenate([self._rounding_scale, scale])
        self._rounding_count = np.concatenate([self._rounding_count, n_round])
        ids = np.arange(self._n, self._n + counts.size)
        self._n += counts.size
        if W is None:
            W = crit.node_weight(sums)
        if impurity is None:
            impurity = crit.node_impurity(sums)
        self._nodes.append(
            (crit.node_value(sums), impurity, counts, W, np.full(counts.size, depth))
        )
        splittable = (
            (depth < self.max_depth)
            & (counts >= self.min_samples_split)
            & (counts >= 2 * self.min_samples_leaf)
            & (W >= 2 * self.min_weight_leaf)
            & crit.can_split(impurity, sums, n_round, scale)
        )
        return ids, splittable, impurity, W

    def rounding(self, ids):
        """(scale, count) of the rounding that the sums of the nodes ``ids`` carry."""
        return self._rounding_scale[ids], self._rounding_count[ids]

    def add_children(
        self,
        parents,
        features,
        thresholds,
        sums_lr,
        counts_lr,
        depth,
        derived=False,
        impurity=None,
        W=None,
    ):
        """Record the cuts of ``parents`` and append their children (all left ids, then right).

        ``derived``: the children's sums were computed from their parents' (the histogram
        finder's sibling by subtraction), so they carry the parents' rounding; ``impurity``
        and ``W`` as in :meth:`add_nodes`."""
        k = parents.size
        inherited = None
        if derived:
            inherited = tuple(np.tile(a, 2) for a in self.rounding(parents))
        ids, splittable, impurity, W = self.add_nodes(
            sums_lr, counts_lr, depth, inherited, impurity, W
        )
        self._splits.append((parents, ids[:k], ids[k:], features, thresholds))
        return ids, splittable, impurity, W

    def resum_leaves(self, leaf, stats):
        """Recompute the leaves' values, impurities and weights from the statistics ``stats``
        (n_stats, n_samples) of their samples (``leaf``: the leaf of every sample), added in
        the samples' order, as a split finder that sums the rows of each child does."""
        sums = np.zeros((stats.shape[0], self._n))
        for total, s in zip(sums, stats, strict=True):
            np.add.at(total, leaf, s)
        is_leaf = np.ones(self._n, dtype=bool)
        for parents, *_ in self._splits:
            is_leaf[parents] = False
        ids = np.flatnonzero(is_leaf)
        self._leaf_sums = (ids, sums[:, ids])

    def tree(self):
        """The recorded nodes as a :class:`Tree`."""
        n = self._n
        left = np.full(n, TREE_LEAF, dtype=np.intp)
        right = np.full(n, TREE_LEAF, dtype=np.intp)
        feature = np.full(n, -2, dtype=np.intp)
        threshold = np.full(n, -2.0)
        if self._splits:
            p, lo, hi, f, thr = (np.concatenate(c) for c in zip(*self._splits, strict=True))
            left[p], right[p], feature[p], threshold[p] = lo, hi, f, thr
        value, impurity, counts, W, depth = (
            np.concatenate(c) for c in zip(*self._nodes, strict=True)
        )
        if self._leaf_sums is not None:
            crit, (ids, sums) = self.criterion, self._leaf_sums
            value[ids], impurity[ids], W[ids] = (
                crit.node_value(sums),
                crit.node_impurity(sums),
                crit.node_weight(sums),
            )
        return Tree(
            left,
            right,
            feature,
            threshold,
            value,
            impurity,
            counts.astype(np.intp),
            W,
            depth.astype(np.intp),
        )


def _draw_before(nonconstant, n_features_split, rng):
    """Draw ``n_features_split`` features per node before any cut is scored.

    ``nonconstant`` (n_features, n_nodes) says which features take more than one value in each
    node. The features are drawn among those, as scikit-learn does (a feature constant in the
    node is passed over instead of turning the node into a leaf); a drawn feature whose cuts
    all break ``min_samples_leaf`` or ``min_weight_leaf`` still uses up its draw. Returns the
    (n_features, n_nodes) mask of the drawn features.
    """
    D, S = nonconstant.shape
    keys = rng.random_sample((D, S))
    keys[~nonconstant] = 2.0  # drawn last, and never kept
    return (keys <= np.sort(keys, axis=0)[n_features_split - 1]) & nonconstant


def _decide(
    criterion,
    L_sums,
    R_sums,
    seg_imp,
    seg_W,
    W_root,
    found,
    min_impurity_decrease,
    counts,
    children=False,
    inherited=None,
):
    """Which found cuts are made: the weighted impurity decrease
    (N_τ/N)(Q_τ − (N_L/N_τ) Q_L − (N_R/N_τ) Q_R) must reach ``min_impurity_decrease``
    (scikit-learn's rule), the decrease of N_τ Q_τ must exceed the rounding floor of the
    node's sums (``criterion.rounding_scale``; ``counts``: the samples of each node; or the
    ``inherited`` (scale, count) of the nodes, if larger: see :meth:`_Recorder.add_nodes`) and
    the criterion must accept the decrease. With ``children`` (and every cut found), also the
    impurities and weights of the left and the right children."""
    do_split = found.copy()
    f = np.flatnonzero(found)
    imp_l = imp_r = w_l = w_r = None
    if f.size:
        L, R = L_sums[:, f], R_sums[:, f]
        imp_l, imp_r = criterion.node_impurity(L), criterion.node_impurity(R)
        w_l, w_r = criterion.node_weight(L), criterion.node_weight(R)
        W = seg_W[f]
        improvement = (W / W_root) * (seg_imp[f] - (w_r / W) * imp_r - (w_l / W) * imp_l)
        decrease = improvement * W_root
        scale, n_round = criterion.rounding_scale(L + R), counts[f]
        if inherited is not None:
            scale = np.maximum(scale, inherited[0][f])
            n_round = np.maximum(n_round, inherited[1][f])
        floor = _rounding_floor(scale, n_round)
        do_split[f] = (
            ~(improvement + _EPSILON < min_impurity_decrease)
            & ((floor == 0) | (decrease > floor))
            & criterion.accept_split(decrease)
        )
    return (do_split, imp_l, imp_r, w_l, w_r) if children else do_split


def _near_best(top, node_cost, counts):
    """The least split score that ties with the best one, ``top``, of each node.

    Scores of cuts that are equal in exact arithmetic (common with ±1 targets, or with one row
    and its copies) differ in their last bits depending on the order in which the sums were
    added: a weight of 2 and two copies of a row add the same numbers in another order. Cuts
    within the rounding floor 4 n ε (|best score| + |N_τ Q_τ|) of the best one count as ties,
    which the finders break by a fixed rule: the lowest feature, then the lowest threshold.

    Parameters
    ----------
    top : ndarray of shape (n_nodes,)
        The best split score of each node (−inf: no valid cut).
    node_cost : ndarray of shape (n_nodes,)
        N_τ Q_τ of each node.
    counts : ndarray of shape (n_nodes,)
        The number of samples of each node.

    Returns
    -------
    ndarray of shape (n_nodes,)
        ``top`` minus the tolerance (+inf where ``top`` is −inf: no cut ties).
    """
    finite = np.isfinite(top)
    safe = np.where(finite, top, 0.0)
    return np.where(
        finite, safe - _rounding_floor(np.abs(safe) + np.abs(node_cost), counts), np.inf
    )


def _midpoints(a, b):
    """Thresholds halfway between a and b (a when rounding would put the midpoint on b)."""
    thr = a / 2.0 + b / 2.0
    return np.where((thr == b) | ~np.isfinite(thr), a, thr)
