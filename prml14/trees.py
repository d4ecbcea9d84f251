"""Classification and regression trees (CART), Section 14.4: equations (14.29), (14.30), (14.32), (14.33).

A tree partitions the input space into axis-aligned regions R_τ, τ = 1, ..., ``|T|``, and predicts a
constant in each. The functional core holds the quantities the text defines:

* :func:`leaf_value` — the optimal constant in a region for the sum-of-squares error, the
  (weighted) mean of its targets, equation (14.29);
* :func:`sum_of_squares` — the residual sum of squares of a region, equation (14.30);
* :func:`cross_entropy_impurity` — equation (14.32), in nats;
* :func:`gini_impurity` — equation (14.33);
* :func:`misclassification_impurity` — the misclassification rate 1 − max_k p_τk.

The estimators :class:`DecisionTreeRegressor` and :class:`DecisionTreeClassifier` grow a tree
greedily, searching every feature and every threshold (midpoints between consecutive distinct
values; ``x <= threshold`` goes left). The growth is vectorized: each feature is sorted once, and
the tree is grown *level by level*: all nodes of one depth are split at once with cumulative sums
inside each node's contiguous segment of the sorted orders, and the orders are then stably
re-partitioned. Samples that reach a leaf leave the working arrays, so deep levels are cheap.

Weights: every count N_τ below is the total ``sample_weight`` of the region (the number of samples
for unit weights), so a weight of 2 is the same as duplicating a row.

Cost-complexity pruning (14.31) lives in :mod:`prml14.pruning`.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin, _fit_context
from sklearn.utils import check_random_state
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import _check_sample_weight, check_is_fitted, validate_data

from ._equations import implements

__all__ = [
    "leaf_value",
    "sum_of_squares",
    "cross_entropy_impurity",
    "gini_impurity",
    "misclassification_impurity",
    "Tree",
    "DecisionTreeRegressor",
    "DecisionTreeClassifier",
]

TREE_LEAF = -1
_EPSILON = np.finfo(np.float64).eps


# ---------------------------------------------------------------------------------------------
# Functional core
# ---------------------------------------------------------------------------------------------
def _weights(t, sample_weight):
    if sample_weight is None:
        return np.ones(len(t))
    w = np.asarray(sample_weight, dtype=float)
    if w.shape != t.shape:
        raise ValueError(f"sample_weight must have shape {t.shape}, got {w.shape}")
    if np.any(w < 0) or not np.all(np.isfinite(w)):
        raise ValueError("sample_weight must be finite and non-negative")
    return w


@implements("14.29")
def leaf_value(t, sample_weight=None):
    """The constant y_τ that minimises the sum-of-squares error in a region, equation (14.29).

    y_τ = Σ_n w_n t_n / Σ_n w_n over the training points in the region R_τ (the plain mean
    (1/N_τ) Σ t_n for unit weights).

    Parameters
    ----------
    t : array-like of shape (n_samples,)
        Targets of the points that fall in the region.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights (unit weights if None).

    Returns
    -------
    float
    """
    t = np.asarray(t, dtype=float)
    if t.ndim != 1 or t.size == 0:
        raise ValueError(f"t must be a non-empty 1-D array, got shape {t.shape}")
    w = _weights(t, sample_weight)
    if w.sum() <= 0:
        raise ValueError("sample_weight must have a positive sum")
    return float(np.dot(w, t) / w.sum())


@implements("14.30")
def sum_of_squares(t, sample_weight=None):
    """The residual sum of squares of a region, Q_τ(T) = Σ_n w_n (t_n − y_τ)², equation (14.30).

    Parameters
    ----------
    t : array-like of shape (n_samples,)
        Targets of the points that fall in the region.
    sample_weight : array-like of shape (n_samples,), default=None

    Returns
    -------
    float
        Q_τ, with y_τ the weighted mean (14.29).
    """
    t = np.asarray(t, dtype=float)
    w = _weights(t, sample_weight)
    return float(np.dot(w, (t - leaf_value(t, w)) ** 2))


def _xlogx(a):
    """a ln a elementwise, with 0 ln 0 = 0."""
    positive = a > 0
    return np.where(positive, a * np.log(np.where(positive, a, 1.0)), 0.0)


def _check_proportions(p):
    p = np.asarray(p, dtype=float)
    if p.ndim == 0:
        raise ValueError("p must have at least one axis (the K classes)")
    if np.any(p < 0) or not np.allclose(p.sum(axis=-1), 1.0, rtol=0, atol=1e-9):
        raise ValueError(
            "p must be non-negative and sum to one over the last axis (the K classes)"
        )
    return p


@implements("14.32")
def cross_entropy_impurity(p):
    """Cross-entropy (entropy) impurity Q_τ = −Σ_k p_τk ln p_τk, equation (14.32), in nats.

    0 ln 0 is taken as 0. scikit-learn's ``criterion="entropy"`` uses log₂: it is this value
    divided by ln 2.

    Parameters
    ----------
    p : array-like of shape (..., n_classes)
        Class proportions p_τk in the region(s); each row sums to one.

    Returns
    -------
    ndarray of shape (...)
    """
    return -_xlogx(_check_proportions(p)).sum(axis=-1)


@implements("14.33")
def gini_impurity(p):
    """Gini index Q_τ = Σ_k p_τk (1 − p_τk) = 1 − Σ_k p_τk², equation (14.33).

    Parameters
    ----------
    p : array-like of shape (..., n_classes)

    Returns
    -------
    ndarray of shape (...)
    """
    p = _check_proportions(p)
    return np.sum(p * (1.0 - p), axis=-1)


def misclassification_impurity(p):
    """Misclassification rate of a region that predicts its majority class: 1 − max_k p_τk.

    Parameters
    ----------
    p : array-like of shape (..., n_classes)

    Returns
    -------
    ndarray of shape (...)
    """
    p = _check_proportions(p)
    return 1.0 - p.max(axis=-1)


# ---------------------------------------------------------------------------------------------
# The tree structure
# ---------------------------------------------------------------------------------------------
@dataclass
class Tree:
    """A fitted binary tree stored as parallel arrays (node 0 is the root).

    Attributes
    ----------
    children_left, children_right : ndarray of int
        Child ids, ``-1`` for leaves.
    feature : ndarray of int
        Split feature (``-2`` for leaves).
    threshold : ndarray of float
        Split threshold: ``x[feature] <= threshold`` goes left (``-2`` for leaves).
    value : ndarray of shape (n_nodes, n_outputs)
        Regression: the leaf value (14.29) in column 0. Classification: the weighted class
        proportions p_τk.
    impurity : ndarray of float
        The growth criterion's impurity per unit weight: (14.30)/N_τ for regression (the
        variance of the region), (14.32) in nats, (14.33), or the misclassification rate.
    n_node_samples : ndarray of int
    weighted_n_node_samples : ndarray of float
        N_τ (the total sample weight in the node).
    depth : ndarray of int
    """

    children_left: np.ndarray
    children_right: np.ndarray
    feature: np.ndarray
    threshold: np.ndarray
    value: np.ndarray
    impurity: np.ndarray
    n_node_samples: np.ndarray
    weighted_n_node_samples: np.ndarray
    depth: np.ndarray

    @property
    def node_count(self):
        return len(self.children_left)

    @property
    def is_leaf(self):
        return self.children_left == TREE_LEAF

    @property
    def n_leaves(self):
        return int(np.count_nonzero(self.is_leaf))

    @property
    def max_depth(self):
        return int(self.depth.max())

    @property
    def parent(self):
        parent = np.full(self.node_count, -1, dtype=np.intp)
        inner = np.flatnonzero(~self.is_leaf)
        parent[self.children_left[inner]] = inner
        parent[self.children_right[inner]] = inner
        return parent

    def apply(self, X):
        """Index of the leaf reached by each row of X (vectorized, one step per level)."""
        X = np.asarray(X)
        node = np.zeros(X.shape[0], dtype=np.intp)
        active = np.flatnonzero(self.children_left[node] != TREE_LEAF)
        while active.size:
            cur = node[active]
            go_left = X[active, self.feature[cur]] <= self.threshold[cur]
            nxt = np.where(go_left, self.children_left[cur], self.children_right[cur])
            node[active] = nxt
            active = active[self.children_left[nxt] != TREE_LEAF]
        return node

    def subtree(self, keep_as_leaf):
        """The pruned tree in which the nodes flagged in ``keep_as_leaf`` become leaves.

        Nodes below a new leaf are removed and the remaining nodes renumbered in level order.
        """
        keep_as_leaf = np.asarray(keep_as_leaf, dtype=bool)
        left = np.where(keep_as_leaf, TREE_LEAF, self.children_left)
        right = np.where(keep_as_leaf, TREE_LEAF, self.children_right)
        # nodes still reachable from the root, in level order
        ids, frontier = [np.array([0])], np.array([0])
        while frontier.size:
            inner = frontier[left[frontier] != TREE_LEAF]
            frontier = np.column_stack([left[inner], right[inner]]).ravel()
            if frontier.size:
                ids.append(frontier)
        ids = np.concatenate(ids)
        new_id = np.full(self.node_count, -1, dtype=np.intp)
        new_id[ids] = np.arange(ids.size)
        new_left = np.where(left[ids] == TREE_LEAF, TREE_LEAF, new_id[np.maximum(left[ids], 0)])
        new_right = np.where(right[ids] == TREE_LEAF, TREE_LEAF, new_id[np.maximum(right[ids], 0)])
        leaf = new_left == TREE_LEAF
        return Tree(
            new_left,
            new_right,
            np.where(leaf, -2, self.feature[ids]),
            np.where(leaf, -2.0, self.threshold[ids]),
            self.value[ids],
            self.impurity[ids],
            self.n_node_samples[ids],
            self.weighted_n_node_samples[ids],
            self.depth[ids],
        )


# ---------------------------------------------------------------------------------------------
# Level-by-level growth
# ---------------------------------------------------------------------------------------------
def _node_impurity(criterion, sums, sq_sum=None):
    """Impurity per unit weight from the sufficient statistics of a set of nodes.

    ``sums`` has shape (C, n_nodes): regression C = 2 (Σw, Σwt) with ``sq_sum`` = Σwt²;
    classification C = K (Σw per class).
    """
    if criterion == "squared_error":
        W = sums[0]
        mean = sums[1] / W
        return sq_sum / W - mean * mean
    W = sums.sum(axis=0)
    p = sums / W
    if criterion == "gini":
        return 1.0 - np.sum(p * p, axis=0)
    if criterion == "entropy":
        with np.errstate(divide="ignore", invalid="ignore"):
            return -np.sum(_xlogx(p), axis=0)
    return 1.0 - p.max(axis=0)  # misclassification


def _proxy(criterion, left, right):
    """A quantity that the best split maximises, up to a per-node constant.

    For every criterion, N_L·Q_L + N_R·Q_R = const − proxy.
    """
    if criterion == "squared_error":
        with np.errstate(divide="ignore", invalid="ignore"):
            return left[1] * left[1] / left[0] + right[1] * right[1] / right[0]
    WL, WR = left.sum(axis=0), right.sum(axis=0)
    with np.errstate(divide="ignore", invalid="ignore"):
        if criterion == "gini":
            return np.sum(left * left, axis=0) / WL + np.sum(right * right, axis=0) / WR
        if criterion == "entropy":
            return (
                np.sum(_xlogx(left), axis=0)
                - _xlogx(WL)
                + np.sum(_xlogx(right), axis=0)
                - _xlogx(WR)
            )
        return left.max(axis=0) + right.max(axis=0)  # misclassification


class _Builder:
    """Grows a tree level by level; see the module docstring."""

    def __init__(
        self,
        criterion,
        max_depth,
        min_samples_split,
        min_samples_leaf,
        min_weight_leaf,
        min_impurity_decrease,
        n_features_split,
        rng,
    ):
        self.criterion = criterion
        self.max_depth = np.inf if max_depth is None else max_depth
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.min_weight_leaf = min_weight_leaf
        self.min_impurity_decrease = min_impurity_decrease
        self.n_features_split = n_features_split
        self.rng = rng

    # node storage -----------------------------------------------------------------------------
    def _add_nodes(self, sums, sq_sum, counts, depth):
        """Append nodes, decide which of them can be split, return (ids, splittable mask)."""
        n_new = counts.size
        ids = np.arange(self._n, self._n + n_new)
        self._n += n_new
        W = sums[0] if self.criterion == "squared_error" else sums.sum(axis=0)
        impurity = _node_impurity(self.criterion, sums, sq_sum)
        if self.criterion == "squared_error":
            value = (sums[1] / W)[:, None]
        else:
            value = (sums / W).T
        self._chunks.append((value, impurity, counts, W, np.full(n_new, depth)))
        splittable = (
            (depth < self.max_depth)
            & (counts >= self.min_samples_split)
            & (counts >= 2 * self.min_samples_leaf)
            & (W >= 2 * self.min_weight_leaf)
            & (impurity > _EPSILON)
        )
        return ids, splittable, impurity, W

    def build(self, X, stats, sq_stat, unit_weight=None):
        """Grow the tree.

        X: (N, D) float; stats: (C, N) per-sample statistics (regression: w, w·t; classification:
        w per class); sq_stat: (N,) w·t² (regression) or None; unit_weight: the common weight
        when all weights are equal (regression only), so that left weights are counts.
        """
        N, D = X.shape
        crit = self.criterion
        regression = crit == "squared_error"
        self._n, self._chunks = 0, []
        lefts, rights, feats, thrs, parents_of = [], [], [], [], []

        XT = np.ascontiguousarray(X.T)
        order = np.argsort(XT, axis=1).astype(np.int32)  # ties: any order (never split between)
        xs = np.take_along_axis(XT, order, axis=1)
        total = stats.sum(axis=1)[:, None]
        total_sq = None if sq_stat is None else np.array([sq_stat.sum()])
        ids, splittable, imp, W = self._add_nodes(total, total_sq, np.array([N]), 0)
        W_root = W[0]
        # channels summed along the sorted orders; with equal weights the weight channel of a
        # regression is implied by the positions
        chan = stats[1:] if (regression and unit_weight is not None) else stats
        # rows of zero weight still sit between thresholds, but a child made only of them has no
        # value (0/0): with such rows, count the positive-weight rows on each side, exactly
        w_all = stats[0] if regression else stats.sum(axis=0)
        positive = (w_all > 0).astype(np.int32) if np.any(w_all == 0) else None
        seg_node, seg_start, seg_len = ids[splittable], np.array([0]), np.array([N])
        seg_imp, seg_W = imp[splittable], W[splittable]
        depth = 0
        msl = self.min_samples_leaf
        while seg_node.size:
            n = order.shape[1]
            S = seg_node.size
            seg_id = np.repeat(np.arange(S), seg_len)
            pos = np.arange(n)
            seg_end = seg_start + seg_len
            start_of = seg_start[seg_id]
            n_left = pos - start_of + 1  # samples left of a cut just after position pos
            n_right = seg_len[seg_id] - n_left

            # running sums restarted at every segment start
            G = np.take(chan, order, axis=1)  # (C, D, n)
            seg_tot = np.add.reduceat(G, seg_start, axis=2)  # (C, D, S)
            G[:, :, seg_start[1:]] -= seg_tot[:, :, :-1]
            left = np.cumsum(G, axis=2, out=G)
            tot = seg_tot[:, 0, :]  # (C, S): the same sample set in every feature's order
            right = tot[:, None, seg_id] - left
            if regression and unit_weight is not None:
                # S_L²/N_L + S_R²/N_R, computed in place
                inv_l = 1.0 / (unit_weight * n_left)
                inv_r = np.where(n_right > 0, 1.0 / (unit_weight * np.maximum(n_right, 1)), 0.0)
                proxy = np.square(left[0], out=left[0])
                proxy *= inv_l
                r = np.square(right[0], out=right[0])
                r *= inv_r
                proxy += r
                WL = WR = None
            else:
                proxy = _proxy(crit, left, right)
                WL = left[0] if regression else left.sum(axis=0)
                WR = right[0] if regression else right.sum(axis=0)
            invalid = np.empty(
                (D, n), dtype=bool
            )  # no cut between equal values, nor at a segment end
            np.less_equal(xs[:, 1:], xs[:, :-1], out=invalid[:, :-1])
            invalid[:, seg_end - 1] = True
            if msl > 1:
                invalid |= (n_left < msl) | (n_right < msl)
            if positive is not None:
                pos_left = np.cumsum(positive[order], axis=1)
                before = pos_left[:, seg_start] - positive[order[:, seg_start]]  # (D, S)
                pos_left -= before[:, seg_id]
                pos_total = pos_left[:, seg_end - 1]  # (D, S), the same in every row
                invalid |= (pos_left == 0) | (pos_left == pos_total[:, seg_id])
            if self.min_weight_leaf > 0:
                if WL is None:
                    WL, WR = unit_weight * n_left, unit_weight * n_right
                invalid |= (WL < self.min_weight_leaf) | (WR < self.min_weight_leaf)
            np.copyto(proxy, -np.inf, where=invalid)
            seg_best = np.maximum.reduceat(proxy, seg_start, axis=1)  # (D, S)
            if self.n_features_split < D:
                # a random subset of the features at every node (for random forests), drawn among
                # the features that can cut the node: one that is constant there is passed over,
                # as scikit-learn does, instead of turning the node into a leaf
                keys = self.rng.random_sample((D, S))
                keys[seg_best == -np.inf] = 2.0  # drawn last
                chosen = keys <= np.sort(keys, axis=0)[self.n_features_split - 1]
                seg_best = np.where(chosen, seg_best, -np.inf)
            best_f = np.argmax(seg_best, axis=0)  # ties: the lowest feature index
            best_val = seg_best[best_f, np.arange(S)]
            row = best_f[seg_id]
            hit = (proxy[row, pos] == best_val[seg_id]) & np.isfinite(best_val[seg_id])
            best_pos = np.minimum.reduceat(np.where(hit, pos, n), seg_start)  # first best position
            found = best_pos < n
            # children statistics, summed locally in the chosen feature's order
            bp = np.where(found, best_pos, seg_start)
            bounds = np.column_stack([seg_start, bp + 1]).ravel()
            sample = order[row, pos]
            LR = np.add.reduceat(stats[:, sample], bounds, axis=1)
            L_sums, R_sums = LR[:, 0::2], LR[:, 1::2]
            cntL = bp - seg_start + 1
            cntR = seg_len - cntL
            if regression:
                LR_sq = np.add.reduceat(sq_stat[sample], bounds)
                L_sq, R_sq = LR_sq[0::2], LR_sq[1::2]
            else:
                L_sq = R_sq = None
            with np.errstate(divide="ignore", invalid="ignore"):
                impL = _node_impurity(crit, L_sums, L_sq)
                impR = _node_impurity(crit, R_sums, R_sq)
                WLs = L_sums[0] if regression else L_sums.sum(axis=0)
                WRs = R_sums[0] if regression else R_sums.sum(axis=0)
                improvement = (seg_W / W_root) * (
                    seg_imp - (WRs / seg_W) * impR - (WLs / seg_W) * impL
                )
            do_split = found & ~(improvement + _EPSILON < self.min_impurity_decrease)
            if not np.any(do_split):
                break
            sp = np.flatnonzero(do_split)
            k = sp.size
            # record the splits and create the children (left ids, then right ids)
            f_sp, p_sp = best_f[sp], best_pos[sp]
            a, b = xs[f_sp, p_sp], xs[f_sp, p_sp + 1]
            thr = a / 2.0 + b / 2.0
            thr = np.where((thr == b) | ~np.isfinite(thr), a, thr)
            child_sums = np.concatenate([L_sums[:, sp], R_sums[:, sp]], axis=1)
            child_sq = None if L_sq is None else np.concatenate([L_sq[sp], R_sq[sp]])
            child_cnt = np.concatenate([cntL[sp], cntR[sp]])
            cids, csplit, cimp, cW = self._add_nodes(child_sums, child_sq, child_cnt, depth + 1)
            parents_of.append(seg_node[sp])
            lefts.append(cids[:k])
            rights.append(cids[k:])
            feats.append(f_sp)
            thrs.append(thr)
            if not np.any(csplit):
                break

            # stable re-partition of every feature's order: segment s becomes (left s, right s)
            split_seg = np.zeros(S, dtype=bool)
            split_seg[sp] = True
            nL = np.where(split_seg, cntL, seg_len)  # unsplit segments: everything "left"
            goes_left = np.ones(N, dtype=bool)
            in_split = split_seg[seg_id]
            goes_left[sample[in_split]] = pos[in_split] <= best_pos[seg_id[in_split]]
            Lm = goes_left[order]  # (D, n)
            c = np.cumsum(Lm, axis=1, dtype=np.int32)
            c -= Lm  # lefts strictly before each position (over all segments)
            lefts_before_seg = np.concatenate([[0], np.cumsum(nL)[:-1]])
            a_n = (seg_start - lefts_before_seg)[seg_id]
            b_n = pos + (nL + lefts_before_seg)[seg_id]
            newpos = np.where(Lm, c + a_n, b_n - c)
            flat = (newpos + (np.arange(D) * n)[:, None]).ravel()
            new_order = np.empty(D * n, dtype=order.dtype)
            new_xs = np.empty(D * n)
            new_order[flat] = order.ravel()
            new_xs[flat] = xs.ravel()
            # keep only the children that can still be split, in a compact layout
            child_old_start = np.concatenate([seg_start[sp], seg_start[sp] + cntL[sp]])
            keep_child = np.flatnonzero(csplit)
            keep_child = keep_child[np.argsort(child_old_start[keep_child], kind="stable")]
            new_len = child_cnt[keep_child]
            keep_pos = np.zeros(n + 1, dtype=np.int32)
            np.add.at(keep_pos, child_old_start[keep_child], 1)
            np.add.at(keep_pos, child_old_start[keep_child] + new_len, -1)
            keep_mask = np.cumsum(keep_pos[:-1]) > 0
            if keep_mask.all():
                order, xs = new_order.reshape(D, n), new_xs.reshape(D, n)
            else:
                order = new_order.reshape(D, n)[:, keep_mask]
                xs = new_xs.reshape(D, n)[:, keep_mask]
            seg_node, seg_len = cids[keep_child], new_len
            seg_start = np.concatenate([[0], np.cumsum(new_len)[:-1]])
            seg_imp, seg_W = cimp[keep_child], cW[keep_child]
            depth += 1

        n_nodes = self._n
        children_left = np.full(n_nodes, TREE_LEAF, dtype=np.intp)
        children_right = np.full(n_nodes, TREE_LEAF, dtype=np.intp)
        feature = np.full(n_nodes, -2, dtype=np.intp)
        threshold = np.full(n_nodes, -2.0)
        if parents_of:
            p = np.concatenate(parents_of)
            children_left[p] = np.concatenate(lefts)
            children_right[p] = np.concatenate(rights)
            feature[p] = np.concatenate(feats)
            threshold[p] = np.concatenate(thrs)
        value, impurity, counts, W, depths = (np.concatenate(c) for c in zip(*self._chunks))
        return Tree(
            children_left,
            children_right,
            feature,
            threshold,
            value,
            impurity,
            counts.astype(np.intp),
            W,
            depths.astype(np.intp),
        )


# ---------------------------------------------------------------------------------------------
# Estimators
# ---------------------------------------------------------------------------------------------
class _BaseTree(BaseEstimator):
    _parameter_constraints = {
        "max_depth": [Interval(numbers.Integral, 1, None, closed="left"), None],
        "min_samples_split": [Interval(numbers.Integral, 2, None, closed="left")],
        "min_samples_leaf": [Interval(numbers.Integral, 1, None, closed="left")],
        "min_weight_fraction_leaf": [Interval(numbers.Real, 0.0, 0.5, closed="both")],
        "min_impurity_decrease": [Interval(numbers.Real, 0.0, None, closed="left")],
        "max_features": [
            Interval(numbers.Integral, 1, None, closed="left"),
            Interval(numbers.Real, 0.0, 1.0, closed="right"),
            StrOptions({"sqrt", "log2"}),
            None,
        ],
        "ccp_lambda": [Interval(numbers.Real, 0.0, None, closed="left")],
        "random_state": ["random_state"],
    }

    def _n_features_split(self, D):
        mf = self.max_features
        if mf is None:
            return D
        if mf == "sqrt":
            return max(1, int(np.sqrt(D)))
        if mf == "log2":
            return max(1, int(np.log2(D)))
        if isinstance(mf, numbers.Integral):
            if mf > D:
                raise ValueError(f"max_features must be <= n_features = {D}, got {mf}")
            return int(mf)
        return max(1, int(mf * D))

    def _check_X(self, X, reset):
        return validate_data(self, X, reset=reset, dtype=np.float64, ensure_all_finite=True)

    def _grow(self, X, stats, sq_stat, w, criterion):
        D = X.shape[1]
        builder = _Builder(
            criterion,
            self.max_depth,
            self.min_samples_split,
            self.min_samples_leaf,
            self.min_weight_fraction_leaf * w.sum(),
            self.min_impurity_decrease,
            self._n_features_split(D),
            check_random_state(self.random_state),
        )
        unit = None
        if criterion == "squared_error" and np.all(w == w[0]):
            unit = float(w[0])
        return builder.build(X, stats, sq_stat, unit)

    def _finish_fit(self, tree):
        from .pruning import prune_to_lambda

        self.full_tree_ = tree
        self.tree_ = (
            prune_to_lambda(tree, self._pruning_costs(tree), self.ccp_lambda)
            if self.ccp_lambda > 0
            else tree
        )
        return self

    def apply(self, X):
        """Index (into ``tree_``) of the leaf that each sample reaches."""
        check_is_fitted(self)
        return self.tree_.apply(self._check_X(X, reset=False))

    def get_depth(self):
        """Depth of the fitted tree (a single leaf has depth 0)."""
        check_is_fitted(self)
        return self.tree_.max_depth

    def get_n_leaves(self):
        """Number of leaves ``|T|`` of the fitted tree."""
        check_is_fitted(self)
        return self.tree_.n_leaves

    def export_text(self, feature_names=None, decimals=3):
        """A plain-text drawing of the fitted tree, one node per line."""
        check_is_fitted(self)
        tree = self.tree_
        if feature_names is None:
            feature_names = [f"x{i}" for i in range(self.n_features_in_)]
        elif len(feature_names) != self.n_features_in_:
            raise ValueError(
                f"feature_names must have {self.n_features_in_} entries, got {len(feature_names)}"
            )

        def leaf_text(node):
            if isinstance(self, ClassifierMixin):
                return f"class: {self.classes_[np.argmax(tree.value[node])]}"
            return f"value: {tree.value[node, 0]:.{decimals}f}"

        lines, stack = [], [(0, 0)]
        while stack:
            item, depth = stack.pop()
            if isinstance(item, str):
                lines.append(item)
                continue
            indent = "|   " * depth + "|--- "
            if tree.children_left[item] == TREE_LEAF:
                lines.append(indent + leaf_text(item))
                continue
            name, thr = feature_names[tree.feature[item]], tree.threshold[item]
            # pushed in reverse: left condition, left subtree, right condition, right subtree
            stack.append((tree.children_right[item], depth + 1))
            stack.append((f"{indent}{name} >  {thr:.{decimals}f}", depth))
            stack.append((tree.children_left[item], depth + 1))
            stack.append((f"{indent}{name} <= {thr:.{decimals}f}", depth))
        if tree.node_count == 1:
            lines = ["|--- " + leaf_text(0)]
        return "\n".join(lines) + "\n"

    def cost_complexity_pruning_path(self, X, y, sample_weight=None):
        """The weakest-link pruning path of the tree grown on (X, y), equation (14.31).

        Returns
        -------
        dict with keys
            ``ccp_lambdas`` : ndarray, the breakpoints λ (PRML units: C(T) = Σ_τ N_τQ_τ + λ|T|),
            one per pruning step, starting with 0; ``costs`` : ndarray, Σ_τ N_τQ_τ of the
            subtree optimal from that λ on; ``n_leaves`` : ndarray, its number of leaves.
        """
        from .pruning import weakest_link_path

        est = self.__class__(**{**self.get_params(), "ccp_lambda": 0.0})
        est.fit(X, y, sample_weight=sample_weight)
        path = weakest_link_path(est.tree_, est._pruning_costs(est.tree_))
        return {"ccp_lambdas": path.lambdas, "costs": path.costs, "n_leaves": path.n_leaves}

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = False
        return tags


@implements("14.29", "14.30")
class DecisionTreeRegressor(RegressorMixin, _BaseTree):
    """A CART regression tree: leaf values (14.29), sum-of-squares node cost (14.30).

    Greedy growth that searches every feature and every threshold; optional cost-complexity
    pruning (14.31) with the parameter λ in PRML's units (``ccp_lambda``; scikit-learn's
    ``ccp_alpha`` is λ/N for unit weights).

    Parameters
    ----------
    max_depth : int or None, default=None
    min_samples_split : int >= 2, default=2
    min_samples_leaf : int >= 1, default=1
    min_weight_fraction_leaf : float in [0, 0.5], default=0.0
    min_impurity_decrease : float >= 0, default=0.0
        A node is split only if (N_τ/N)(Q_τ − (N_L/N_τ)Q_L − (N_R/N_τ)Q_R) reaches this value,
        with Q the impurity per unit weight (scikit-learn's convention).
    max_features : int, float, {"sqrt", "log2"} or None, default=None
        Number of features drawn at random at every node (None: all; used by random forests),
        among the features that have a valid cut in the node.
    ccp_lambda : float >= 0, default=0.0
        Complexity parameter λ of (14.31); 0 means no pruning.
    random_state : int, RandomState or None, default=None
        Only used when ``max_features`` draws feature subsets.

    Attributes
    ----------
    tree_ : Tree
        The fitted (pruned) tree.
    full_tree_ : Tree
        The tree before pruning.
    n_features_in_ : int
    """

    _parameter_constraints = dict(_BaseTree._parameter_constraints)

    def __init__(
        self,
        *,
        max_depth=None,
        min_samples_split=2,
        min_samples_leaf=1,
        min_weight_fraction_leaf=0.0,
        min_impurity_decrease=0.0,
        max_features=None,
        ccp_lambda=0.0,
        random_state=None,
    ):
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.min_weight_fraction_leaf = min_weight_fraction_leaf
        self.min_impurity_decrease = min_impurity_decrease
        self.max_features = max_features
        self.ccp_lambda = ccp_lambda
        self.random_state = random_state

    def _pruning_costs(self, tree):
        """N_τ Q_τ of every node: its weighted residual sum of squares (14.30)."""
        return tree.weighted_n_node_samples * tree.impurity

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y, sample_weight=None):
        """Grow the tree on (X, y), then prune it with ``ccp_lambda``."""
        X, y = validate_data(self, X, y, dtype=np.float64, y_numeric=True, ensure_all_finite=True)
        y = np.asarray(y, dtype=np.float64)
        # also refuses negative weights and weights that are all zero
        w = _check_sample_weight(sample_weight, X, dtype=np.float64, ensure_non_negative=True)
        # grow on targets centred at their weighted mean: the same cuts (a shift of t changes
        # S_L²/N_L + S_R²/N_R by a constant per node) without losing the node variances to
        # cancellation in Σwt²/N_τ − y_τ² when the mean is large compared with the spread
        offset = np.dot(w, y) / w.sum()
        y = y - offset
        stats = np.vstack([w, w * y])
        tree = self._grow(X, stats, w * y * y, w, "squared_error")
        tree.value += offset
        return self._finish_fit(tree)

    def predict(self, X):
        """The leaf value (14.29) of the region each sample falls in."""
        check_is_fitted(self)
        X = self._check_X(X, reset=False)
        return self.tree_.value[self.tree_.apply(X), 0]


@implements("14.32", "14.33")
class DecisionTreeClassifier(ClassifierMixin, _BaseTree):
    """A CART classification tree grown with the cross-entropy (14.32), Gini (14.33) or
    misclassification impurity and pruned, as PRML suggests, with the misclassification rate.

    Parameters
    ----------
    criterion : {"gini", "entropy", "misclassification"}, default="gini"
        Impurity used to choose splits (entropy in nats).
    pruning_criterion : {"misclassification", "same"}, default="misclassification"
        Node cost N_τQ_τ used by cost-complexity pruning (14.31): the (weighted) number of
        misclassified training samples, or N_τ times the growth impurity (scikit-learn's choice).
    max_depth, min_samples_split, min_samples_leaf, min_weight_fraction_leaf, min_impurity_decrease, max_features, ccp_lambda, random_state
        As in :class:`DecisionTreeRegressor`.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    tree_ : Tree
        ``tree_.value`` holds the class proportions p_τk.
    full_tree_ : Tree
    n_features_in_ : int
    """

    _parameter_constraints = {
        **_BaseTree._parameter_constraints,
        "criterion": [StrOptions({"gini", "entropy", "misclassification"})],
        "pruning_criterion": [StrOptions({"misclassification", "same"})],
    }

    def __init__(
        self,
        *,
        criterion="gini",
        pruning_criterion="misclassification",
        max_depth=None,
        min_samples_split=2,
        min_samples_leaf=1,
        min_weight_fraction_leaf=0.0,
        min_impurity_decrease=0.0,
        max_features=None,
        ccp_lambda=0.0,
        random_state=None,
    ):
        self.criterion = criterion
        self.pruning_criterion = pruning_criterion
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.min_weight_fraction_leaf = min_weight_fraction_leaf
        self.min_impurity_decrease = min_impurity_decrease
        self.max_features = max_features
        self.ccp_lambda = ccp_lambda
        self.random_state = random_state

    def _pruning_costs(self, tree):
        """N_τ Q_τ of every node (weighted misclassified count, or N_τ × growth impurity)."""
        if self.pruning_criterion == "misclassification":
            return tree.weighted_n_node_samples * (1.0 - tree.value.max(axis=1))
        return tree.weighted_n_node_samples * tree.impurity

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y, sample_weight=None):
        """Grow the tree on (X, y), then prune it with ``ccp_lambda``."""
        X, y = validate_data(self, X, y, dtype=np.float64, ensure_all_finite=True)
        check_classification_targets(y)
        self.classes_, y_enc = np.unique(y, return_inverse=True)
        # also refuses negative weights and weights that are all zero
        w = _check_sample_weight(sample_weight, X, dtype=np.float64, ensure_non_negative=True)
        K = self.classes_.size
        stats = np.zeros((K, X.shape[0]))
        stats[y_enc, np.arange(X.shape[0])] = w
        tree = self._grow(X, stats, None, w, self.criterion)
        return self._finish_fit(tree)

    def predict_proba(self, X):
        """Class proportions p_τk of the region each sample falls in."""
        check_is_fitted(self)
        X = self._check_X(X, reset=False)
        return self.tree_.value[self.tree_.apply(X)]

    def predict(self, X):
        """The majority class of the region each sample falls in."""
        check_is_fitted(self)
        return self.classes_[np.argmax(self.predict_proba(X), axis=1)]
