"""The histogram (binned) split finder.

Each feature is binned once (:func:`bin_features`) into at most ``max_bins`` bins: between
consecutive distinct values when there are at most ``max_bins`` of them, otherwise at quantiles
of the data. A tree then grows level by level from per-node histograms: for all the nodes of a
level at once, the bin codes of every feature at the level's samples are gathered in one
``np.take`` (the codes are stored feature-major as uint8), and the statistics are summed per
(node, bin) cell feature by feature, two statistics at once as the real and imaginary parts of
complex weights (the memory is statistics × nodes × features × bins plus features × samples
bytes, never samples × features per node); the bins are swept with a cumulative sum, and a cut
after bin b sends ``x <= edge_b`` left. Every cell adds its samples in their order, so the
histograms do not depend on how the work is grouped. The sums of the chosen cut's children are
read from the same cumulative sums (the statistics the split score does not read, such as Σwt²,
are summed from the samples); once the tree is grown, the leaves' sums are added again from
their samples in the samples' order, so that the leaf values do not depend on the histograms'
order of summation. Of the two children of a cut only the smaller one is summed from its
samples; the other histogram is the parent's minus it. At most ``_MAX_CELLS`` histogram cells
are held at once: a level with more nodes is scanned in blocks, each summed from its own
samples. The grower records the leaf of every training sample, so boosting need not apply the
tree to its own training data. The finder suits shallow trees (boosting); deep trees have many
small nodes whose histograms are mostly empty, and the exact finder grows them faster.

When no feature has more than ``max_bins`` distinct values the histogram finder makes the same
cuts as the exact finder (:mod:`prml14.trees.exact`): the same features, the same partition of
the training samples and the same tree; only the thresholds can differ, since an edge is fixed
by the whole data set, not by the node's own values (both lie between the same two consecutive
training values of the node), and the node sums can differ in their last bits (they are added
in another order).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from .._validation import check_array
from ._nodes import _decide, _draw_before, _midpoints, _near_best

__all__ = ["BinnedFeatures", "bin_features"]

# the most histogram cells (statistics × nodes × features × bins) held at once
_MAX_CELLS = 2**22


@dataclass
class BinnedFeatures:
    """Features binned once, for the histogram split finder.

    Parameters
    ----------
    codes : ndarray of shape (n_samples, n_features), uint8 or uint16
        The bin of every value: ``codes[n, j] = b`` when ``edges[j][b-1] < X[n, j] <=
        edges[j][b]``.
    edges : list of ndarray
        The increasing bin edges of every feature (one fewer than its number of bins).
    """

    codes: np.ndarray
    edges: list

    @property
    def n_bins(self):
        """The largest number of bins of a feature."""
        return max(e.size for e in self.edges) + 1

    @cached_property
    def _codes_t(self):
        """The codes feature by feature, (n_features, n_samples) (computed once)."""
        return np.ascontiguousarray(self.codes.T)

    def apply(self, tree):
        """The leaf of every row, from the bin codes: ``Tree.apply`` for a histogram tree.

        A threshold of such a tree is a bin edge, so x <= edge_b exactly when code <= b; one
        gather of the codes per level.

        Parameters
        ----------
        tree : prml14.trees.Tree
            A tree grown on these bins (its thresholds are bin edges).

        Returns
        -------
        ndarray of shape (n_samples,)
            The node id of the leaf each row falls in.
        """
        inner = np.flatnonzero(~tree.is_leaf)
        cut_bin = np.zeros(tree.node_count, dtype=np.intp)
        for node in inner:  # a loop over the few cuts of a tree
            cut_bin[node] = np.searchsorted(self.edges[tree.feature[node]], tree.threshold[node])
        N = self.codes.shape[0]
        flat = self._codes_t.ravel()  # feature-major: value (n, j) at j·N + n
        # leaves point to themselves, so every row can take max_depth steps
        ids = np.arange(tree.node_count)
        leaf = tree.is_leaf
        child = np.column_stack(
            [np.where(leaf, ids, tree.children_left), np.where(leaf, ids, tree.children_right)]
        ).ravel()  # child[2·node + (go right)]
        offset = np.where(leaf, 0, tree.feature) * N  # where the node's feature starts in flat
        node = np.zeros(N, dtype=np.intp)
        base = np.arange(N)
        for _ in range(tree.max_depth):
            go_right = flat[offset[node] + base] > cut_bin[node]
            node = child[2 * node + go_right]
        return node

    @cached_property
    def _root_counts(self):
        """The number of samples in every feature × bin cell, (n_features, n_bins)."""
        B = self.n_bins
        return np.stack([np.bincount(c, minlength=B) for c in self._codes_t]).astype(float)


def bin_features(X, max_bins=255):
    """Bin every feature of X into at most ``max_bins`` bins.

    A feature with at most ``max_bins`` distinct values gets one bin per value, the edges
    halfway between consecutive values (the exact finder's thresholds); otherwise the edges are
    ``max_bins`` − 1 quantiles of its values (repeated ones merged).

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        Finite inputs.
    max_bins : int in [2, 65535], default=255
        The largest number of bins per feature.

    Returns
    -------
    BinnedFeatures
        The bin codes and the bin edges of every feature.

    Raises
    ------
    ValueError
        If X is empty or not a finite real 2-D array, or max_bins is not an integer in [2, 65535].
    """
    X = check_array(X, dtype=np.float64, input_name="X")
    if not (isinstance(max_bins, (int, np.integer)) and 2 <= max_bins <= 65535):
        raise ValueError(f"max_bins must be an integer in [2, 65535], got {max_bins!r}")
    dtype = np.uint8 if max_bins <= 256 else np.uint16
    codes = np.empty(X.shape, dtype=dtype)
    edges = []
    for j in range(X.shape[1]):  # one sort per feature
        # the distinct values, the quantiles and the codes from the sorted column: a binary
        # search for increasing values is several times faster than for values in any order
        order = np.argsort(X[:, j])
        xs = X[order, j]
        distinct = np.empty(xs.size, dtype=bool)
        distinct[0] = True
        np.not_equal(xs[1:], xs[:-1], out=distinct[1:])
        values = xs[distinct]
        if values.size <= max_bins:
            e = _midpoints(values[:-1], values[1:])
        else:
            q = np.quantile(xs, np.linspace(0, 1, max_bins + 1)[1:-1], method="midpoint")
            e = np.unique(q)
        codes[order, j] = np.searchsorted(e, xs, side="left")
        edges.append(e)
    return BinnedFeatures(codes, edges)


def _histograms(binned, weights, rows, node, n_nodes):
    """Per-node histograms (n_weights, n_nodes, n_features × n_bins) of ``weights`` over rows.

    ``weights``: per-row arrays aligned with ``rows`` (None: all the rows), None standing for
    ones (the counts); ``node``: the node of every row, in 0, ..., n_nodes − 1 (None: one
    node). The codes of all the features at the rows are gathered at once (feature-major
    uint8, one ``np.take``); then, feature by feature, the weights are summed per (node, bin)
    cell, two at a time as the real and imaginary parts of complex numbers (``np.add.at``:
    complex addition adds the parts separately, and each cell adds its rows in their order, as
    ``np.bincount`` does); a lone one goes through ``np.bincount``.
    """
    codes_t = binned._codes_t
    B = binned.n_bins
    D = codes_t.shape[0]
    NB = n_nodes * B
    sub = codes_t if rows is None else np.take(codes_t, rows, axis=1)  # (D, n)
    n = sub.shape[1]
    groups = []  # (accumulator (D, NB), weights)
    for k in range(0, len(weights), 2):
        pair = weights[k : k + 2]
        if len(pair) == 2:
            w = np.empty(n, dtype=np.complex128)
            w.real = 1.0 if pair[0] is None else pair[0]
            w.imag = 1.0 if pair[1] is None else pair[1]
            groups.append((np.zeros((D, NB), dtype=np.complex128), w))
        else:
            groups.append((np.empty((D, NB)), pair[0]))
    if node is not None:
        base = node * B
        key = np.empty(n, dtype=np.intp)
    for j in range(D):
        kj = sub[j] if node is None else np.add(sub[j], base, out=key)
        for acc, w in groups:
            if acc.dtype == np.complex128:
                np.add.at(acc[j], kj, w)
            else:
                acc[j] = np.bincount(kj, weights=w, minlength=NB)
    out = np.empty((len(weights), n_nodes, D, B))
    parts = []
    for acc, _ in groups:
        parts.extend((acc.real, acc.imag) if acc.dtype == np.complex128 else (acc,))
    for o, part in enumerate(parts):
        out[o] = part.reshape(D, n_nodes, B).transpose(1, 0, 2)
    return out.reshape(len(weights), n_nodes, D * B)


def _set_leaves(leaf, rows, nodes):
    """``leaf[rows] = nodes`` (``rows`` None: all the rows)."""
    if rows is None:
        leaf[...] = nodes
    else:
        leaf[rows] = nodes


def _grow_histogram(binned, stats, recorder, unit_weight, min_impurity_decrease, n_feat, rng):
    """Grow a tree on binned features from ``stats`` (n_stats, N) into ``recorder``; the leaf of
    every row goes to ``recorder.leaf``.

    Level by level, the rows still in splittable nodes (``rows``, in increasing order) carry
    their node (``local``) and, aligned with them, the statistics the level needs (``carried``:
    the scanned channels, the positive-weight indicator, the channels summed from the rows),
    so that a level takes no per-row statistics from the full arrays; they are compressed only
    when some rows reach a leaf.
    """
    crit = recorder.criterion
    codes_t = binned._codes_t
    D, N = codes_t.shape
    codes_flat = codes_t.ravel()  # feature-major: value (n, j) at j·N + n
    B = binned.n_bins
    cells = D * B
    thresholds = np.full((D, max(B - 1, 1)), np.nan)
    for j, e in enumerate(binned.edges):
        thresholds[j, : e.size] = e
    msl, mwl = max(recorder.min_samples_leaf, 1), recorder.min_weight_leaf
    score_ch, wc = list(crit.score_channels), crit.weight_channel
    n_score = len(score_ch)
    scan_ch = score_ch if (wc is None or unit_weight is not None) else score_ch + [wc]
    chan = [stats[c] for c in scan_ch]
    cnt_ch = len(scan_ch)  # the channel of the counts
    # equal weights are positive (grow_tree: non-negative with a positive sum)
    w_all = crit.node_weight(stats)
    positive = None
    if not (unit_weight is not None and unit_weight > 0) and np.any(w_all <= 0):
        positive = (w_all > 0).astype(float)

    # the children's sums of a cut: the scanned channels from the histogram (exact for
    # integer class counts; for real-valued statistics up to the order of summation), the
    # weight from the counts when it is the same for every sample, the others from the rows
    n_stats = stats.shape[0]
    from_hist = wc is not None or all(np.array_equal(c, np.rint(c)) for c in chan)
    hist_ch = scan_ch if from_hist else []
    implied_w = unit_weight is not None
    row_ch = [c for c in range(n_stats) if c not in hist_ch and not (implied_w and c == wc)]
    leaf = np.zeros(N, dtype=np.intp)  # the leaf of every row
    recorder.leaf = leaf
    ids, splittable, imp, W = recorder.add_nodes(stats.sum(axis=1)[:, None], np.array([N]), 0)
    W_root = W[0]
    if not splittable[0]:
        return
    n_chan = len(scan_ch) + 1 + (positive is not None)
    spread_needed = n_feat < D

    def scan(h, node_cost):
        """Best bin (the first of the ties, :func:`_near_best`), its score, and the channels'
        sums left of it and in the node, for every node and feature of ``h`` (``node_cost``:
        N_τ Q_τ of its nodes)."""
        left = np.cumsum(h, axis=3)
        right = left[:, :, :1, -1:] - left  # the node's total minus the left sums
        cnt_l, cnt_r = left[cnt_ch], right[cnt_ch]
        if unit_weight is not None:
            WL, WR = unit_weight * cnt_l, unit_weight * cnt_r
        elif wc is not None:
            WL, WR = left[n_score], right[n_score]
        else:
            WL, WR = left[:n_score].sum(axis=0), right[:n_score].sum(axis=0)
        with np.errstate(divide="ignore", invalid="ignore"):  # (it may overwrite its inputs)
            score = crit.split_score(left[:n_score].copy(), right[:n_score], WL, WR)
        # a cut right after a non-empty bin, with enough samples (and weight) on each side
        # (with msl = 1, no samples on the left means an empty bin)
        invalid = (h[cnt_ch] == 0) | (cnt_r < msl)
        if msl > 1:
            invalid |= cnt_l < msl
        if positive is not None:
            invalid |= (left[cnt_ch + 1] == 0) | (right[cnt_ch + 1] == 0)
        if mwl > 0:
            invalid |= (WL < mwl) | (WR < mwl)
        np.copyto(score, -np.inf, where=invalid)
        best = score.max(axis=2)  # (S, D)
        S_, D_ = best.shape
        tie = _near_best(  # per node and feature: the features are drawn afterwards
            best.ravel(), np.repeat(node_cost, D_), np.repeat(left[cnt_ch, :, 0, -1], D_)
        ).reshape(S_, D_)
        bb = np.argmax(score >= tie[:, :, None], axis=2)  # (S, D)
        sums = np.take_along_axis(left, bb[None, :, :, None], axis=3)[..., 0]  # (C, S, D)
        spread = (np.count_nonzero(h[cnt_ch], axis=2) >= 2).T if spread_needed else None
        return bb, best.T, sums, left[:, :, 0, -1], spread

    # per-row arrays aligned with ``rows``: the scanned channels, the positive indicator, the
    # channels summed from the rows; None: all N rows (the root)
    rows = None
    local = None  # the node (slot of the level) of every row of ``rows``
    carried = chan + ([positive] if positive is not None else []) + [stats[c] for c in row_ch]
    n_hist = len(carried) - len(row_ch)  # the carried arrays the histograms sum
    # (the counts of all the rows: computed once per ``binned``)
    h0 = _histograms(binned, carried[:n_hist], None, None, 1)
    hist = np.concatenate([h0[:cnt_ch], binned._root_counts.reshape(1, 1, cells), h0[cnt_ch:]])
    seg_node, seg_imp, seg_W = ids[:1], imp[:1], W[:1]
    depth = 0
    while seg_node.size:
        S = seg_node.size
        # the nodes' best bin and score per feature, a block of nodes at a time
        block = max(1, _MAX_CELLS // (n_chan * cells))
        best_bin = np.empty((S, D), dtype=np.intp)
        seg_best = np.empty((D, S))
        left_sums = np.empty((n_chan, S, D))  # the channels' sums left of each best bin
        node_sums = np.empty((n_chan, S))
        nonconstant = np.empty((D, S), dtype=bool) if spread_needed else None
        for lo in range(0, S, block):
            hi = min(S, lo + block)
            if hist is not None:
                h = hist[:, lo:hi]
            else:  # too many nodes to keep their histograms: sum these nodes' rows
                sel = np.flatnonzero((local >= lo) & (local < hi))
                h = _histograms(
                    binned,
                    _with_counts([np.take(c, sel) for c in carried[:n_hist]], cnt_ch),
                    sel if rows is None else np.take(rows, sel),
                    np.take(local, sel) - lo,
                    hi - lo,
                )
            (
                best_bin[lo:hi],
                seg_best[:, lo:hi],
                left_sums[:, lo:hi],
                node_sums[:, lo:hi],
                spread,
            ) = scan(h.reshape(n_chan, hi - lo, D, B), (seg_imp * seg_W)[lo:hi])
            if spread_needed:
                nonconstant[:, lo:hi] = spread
        if spread_needed:  # k features drawn per node among those not constant there
            seg_best[~_draw_before(nonconstant, n_feat, rng)] = -np.inf
        top = seg_best.max(axis=0)
        found = np.isfinite(top)
        # ties: the lowest feature index
        best_f = np.argmax(seg_best >= _near_best(top, seg_imp * seg_W, node_sums[cnt_ch]), axis=0)
        best_b = best_bin[np.arange(S), best_f]
        # the children's sums: from the chosen feature's histogram for the scanned channels
        # (and the counts), from the rows for the others
        h_left = left_sums[:, np.arange(S), best_f]  # (C, S)
        h_right = node_sums - h_left
        cntL = np.rint(h_left[cnt_ch]).astype(np.intp)
        cntR = np.rint(h_right[cnt_ch]).astype(np.intp)
        L_sums, R_sums = np.empty((n_stats, S)), np.empty((n_stats, S))
        L_sums[hist_ch], R_sums[hist_ch] = h_left[: len(hist_ch)], h_right[: len(hist_ch)]
        if implied_w:
            L_sums[wc], R_sums[wc] = unit_weight * cntL, unit_weight * cntR
        # the child of every row: 2 s (left) or 2 s + 1 (right) of its node s
        if local is None:  # the root
            child = (codes_t[best_f[0]] > best_b[0]).astype(np.intp)
        else:
            at = np.take(best_f * N, local)
            # where the row's value of its node's feature is in codes_flat
            at += np.arange(N) if rows is None else rows
            go = np.take(codes_flat, at) > np.take(best_b.astype(codes_t.dtype), local)
            del at  # (one sample-sized array fewer at the peak of memory)
            child = np.add(local, local)
            child += go
            del go
        for c, vals in zip(row_ch, carried[n_hist:], strict=True):
            LR = np.bincount(child, weights=vals, minlength=2 * S)
            L_sums[c], R_sums[c] = LR[0::2], LR[1::2]
        do_split = _decide(
            crit,
            L_sums,
            R_sums,
            seg_imp,
            seg_W,
            W_root,
            found,
            min_impurity_decrease,
            cntL + cntR,
            inherited=recorder.rounding(seg_node),
        )
        if not np.any(do_split):
            _set_leaves(leaf, rows, seg_node[0] if local is None else np.take(seg_node, local))
            break
        sp = np.flatnonzero(do_split)
        k = sp.size
        cids, csplit, cimp, cW = recorder.add_children(
            seg_node[sp],
            best_f[sp],
            thresholds[best_f[sp], best_b[sp]],
            np.concatenate([L_sums[:, sp], R_sums[:, sp]], axis=1),
            np.concatenate([cntL[sp], cntR[sp]]),
            depth + 1,
            derived=True,  # (right = the node's sums minus left: the parent's rounding)
        )
        # the node id every row is in after this level (a row of an uncut node stays there)
        node_of = np.repeat(seg_node, 2)
        node_of[2 * sp], node_of[2 * sp + 1] = cids[:k], cids[k:]
        if not np.any(csplit):
            _set_leaves(leaf, rows, np.take(node_of, child))
            break
        # the next level's nodes: the children that can be split, in the order (left s, right s)
        lsplit, rsplit = csplit[:k], csplit[k:]
        pair = np.flatnonzero(lsplit | rsplit)  # splits (indices into sp) with an active child
        active = np.column_stack([lsplit[pair], rsplit[pair]]).ravel()
        kids = np.column_stack([2 * sp[pair], 2 * sp[pair] + 1]).ravel()[active]
        parents = sp[pair]
        if hist is not None and kids.size * n_chan * cells <= _MAX_CELLS:
            # the smaller child of each cut with an active child summed from its rows, the
            # other one as the parent's histogram minus it
            small = 2 * parents + (cntR[parents] < cntL[parents])
            pair_of = np.full(2 * S, -1, dtype=np.intp)
            pair_of[small] = np.arange(parents.size)
            sel = np.flatnonzero(np.take(pair_of >= 0, child))  # the rows of the smaller ones
            node = None
            if parents.size > 1:
                node = np.take(pair_of, np.take(child, sel))
            hist_small = _histograms(
                binned,
                _with_counts([np.take(c, sel) for c in carried[:n_hist]], cnt_ch),
                sel if rows is None else np.take(rows, sel),
                node,
                parents.size,
            )
            del sel, node
            hist_large = hist[:, parents] - hist_small
            pair_of_kid = np.repeat(np.arange(parents.size), 2)[active]
            is_small = np.zeros(2 * S, dtype=bool)
            is_small[small] = True
            is_small = is_small[kids]
            hist = np.empty((n_chan, kids.size, cells))
            hist[:, is_small] = hist_small[:, pair_of_kid[is_small]]
            hist[:, ~is_small] = hist_large[:, pair_of_kid[~is_small]]
        else:
            hist = None
        if kids.size == 2 * S:  # every node cut, every child active: slots are child ids
            local = child
        else:  # the rows of the other children are in leaves
            slot_of = np.full(2 * S, -1, dtype=np.intp)  # new slot of every child (2s: left)
            slot_of[kids] = np.arange(kids.size)
            slot = np.take(slot_of, child)
            done = np.flatnonzero(slot < 0)
            leaf[done if rows is None else np.take(rows, done)] = np.take(
                node_of, np.take(child, done)
            )
            keep = np.flatnonzero(slot >= 0)
            rows = keep if rows is None else np.take(rows, keep)
            local = np.take(slot, keep)
            carried = [np.take(c, keep) for c in carried]
        del child
        interleaved = np.column_stack([np.arange(k), np.arange(k) + k]).ravel()
        kid = interleaved[np.column_stack([lsplit, rsplit]).ravel()]
        seg_node, seg_imp, seg_W = cids[kid], cimp[kid], cW[kid]
        depth += 1
    # the leaves' sums again from their rows, added in the rows' order: the leaf values are then
    # those of summing each child's rows (the sums above come from the histograms, added in
    # another order), one pass over the rows per statistic
    recorder.resum_leaves(leaf, stats)


def _with_counts(weights, cnt_ch):
    """The weights of a histogram with the counts (None: ones) in their channel ``cnt_ch``."""
    return weights[:cnt_ch] + [None] + weights[cnt_ch:]
