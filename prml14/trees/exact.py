"""The exact split finder: every feature, every threshold between consecutive distinct values.

The growth is vectorised and goes *level by level*: each feature is sorted once; all nodes of
one depth are scored at once with running sums inside each node's contiguous segment of the
sorted orders (one cumulative sum per statistic and feature); the best cuts are made and the
orders are stably re-partitioned, so that every child is again a contiguous segment. Samples
that reach a leaf leave the working arrays, so deep levels are cheap. Thresholds are midpoints
between consecutive distinct values; ``x <= threshold`` goes left. With ``max_features`` = k < D
the k features of every node are drawn first and the D orders are not kept: each level sorts
only the drawn features of each node, all (feature, node) pairs in one sort of integer keys
(pair, rank in the presorted order), so a level costs O(k n log n) rather than O(D n); the
ranks order equal values as the presorted orders do, so the trees are the same.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._validation import check_array
from ._nodes import _decide, _draw_before, _midpoints, _near_best

__all__ = ["SortedFeatures", "sort_features"]


@dataclass
class SortedFeatures:
    """Features sorted once, for the exact split finder (sort once, grow many trees).

    Parameters
    ----------
    order : ndarray of shape (n_features, n_samples), int32
        The samples in increasing order of each feature.
    xs : ndarray of shape (n_features, n_samples)
        The sorted values, ``xs[j] = X[order[j], j]``.
    """

    order: np.ndarray
    xs: np.ndarray

    @property
    def shape(self):
        """(n_samples, n_features)."""
        return self.order.shape[::-1]

    def take(self, rows):
        """The sorted features of the samples ``rows`` (increasing indices), renumbered 0, 1, ...

        Parameters
        ----------
        rows : ndarray of int of shape (n_rows,)
            Increasing sample indices.

        Returns
        -------
        SortedFeatures
            The same orders restricted to ``rows`` (no new sort).
        """
        D, N = self.order.shape
        new_index = np.full(N, -1, dtype=np.int32)
        new_index[rows] = np.arange(len(rows), dtype=np.int32)
        keep = new_index[self.order] >= 0
        order = new_index[self.order[keep]].reshape(D, len(rows))
        return SortedFeatures(order, self.xs[keep].reshape(D, len(rows)))

    def unsorted(self):
        """The features in their original order, X itself.

        Returns
        -------
        ndarray of shape (n_samples, n_features)
            ``X[order[j], j] = xs[j]``.
        """
        D, N = self.order.shape
        X = np.empty((N, D))
        X[self.order, np.arange(D)[:, None]] = self.xs
        return X


def sort_features(X):
    """Sort every feature of X once, for growing many trees with the exact finder.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        Finite inputs.

    Returns
    -------
    SortedFeatures
        The sorting orders and the sorted values; growing a tree from them gives the same tree
        as growing it from X (ties between equal values may be ordered differently, and a tree
        never cuts between equal values).

    Raises
    ------
    ValueError
        If X is empty or not a finite real 2-D array.
    """
    X = check_array(X, dtype=np.float64, input_name="X")
    XT = np.ascontiguousarray(X.T)
    order = np.argsort(XT, axis=1).astype(np.int32)
    return SortedFeatures(order, np.take_along_axis(XT, order, axis=1))


def _sorts_drawn_features(criterion, n_features_split, n_features):
    """Whether the level loop sorts the k drawn features of each node (:func:`_grow_drawn`)
    rather than keeping all D presorted orders partitioned: when k < D, for the criteria that
    score cuts from running sums (a sample-based criterion reads the partitioned orders)."""
    return n_features_split < n_features and not getattr(criterion, "sample_based", False)


def _grow_exact(X, stats, recorder, unit_weight, min_impurity_decrease, n_features_split, rng):
    """Grow a tree on X (N, D) from the statistics ``stats`` (n_stats, N) into ``recorder``.

    ``unit_weight``: the common weight of all samples when the criterion's weight channel is
    constant (the weights of a side are then implied by its number of samples), else None.
    """
    crit = recorder.criterion
    N, D = X.shape
    msl, mwl = recorder.min_samples_leaf, recorder.min_weight_leaf
    if isinstance(X, SortedFeatures):  # sorted once for many trees
        order, xs = X.order, X.xs
    else:
        XT = np.ascontiguousarray(X.T)
        order = np.argsort(XT, axis=1).astype(np.int32)  # ties: any order (never split between)
        xs = np.take_along_axis(XT, order, axis=1)
    # a sample-based criterion computes node sums and cut scores from the samples themselves
    sample_based = getattr(crit, "sample_based", False)
    root = (
        crit.segment_sums(stats, np.arange(N), np.array([0]))
        if sample_based
        else stats.sum(axis=1)[:, None]
    )
    ids, splittable, imp, W = recorder.add_nodes(root, np.array([N]), 0)
    W_root = W[0]
    # the statistics summed along the sorted orders: those the split score reads, then the
    # weight (implied by the positions when all weights are equal)
    score_ch, wc = list(crit.score_channels), crit.weight_channel
    n_score = len(score_ch)
    scan = score_ch if (wc is None or unit_weight is not None) else score_ch + [wc]
    chan = stats[scan]
    # statistics that are integers times 2^-10 (class counts of integer weights, such as a
    # bootstrap's draw counts, divided by the power of two the estimators scale weights by)
    # are summed exactly: their running sums carry no rounding residue from node to node
    fine = chan * 1024.0
    exact_sums = np.array_equal(fine, np.rint(fine)) and np.abs(fine).sum() < 2.0**53
    # rows of zero weight still sit between thresholds, but a child made only of them has no
    # value (0/0): with such rows, count the positive-weight rows on each side, exactly
    w_all = crit.node_weight(stats)
    positive = (w_all > 0).astype(np.int32) if np.any(w_all <= 0) else None
    seg_node, seg_start, seg_len = ids[splittable], np.array([0]), np.array([N])
    seg_imp, seg_W = imp[splittable], W[splittable]
    if _sorts_drawn_features(crit, n_features_split, D):
        _grow_drawn(
            order,
            xs,
            stats,
            chan,
            recorder,
            (seg_node, seg_imp, seg_W, W_root),
            (n_score, unit_weight, wc, exact_sums, positive),
            min_impurity_decrease,
            n_features_split,
            rng,
        )
        return
    depth = 0
    while seg_node.size:
        n = order.shape[1]
        S = seg_node.size
        seg_id = np.repeat(np.arange(S), seg_len)
        pos = np.arange(n)
        seg_end = seg_start + seg_len

        drawn = None
        if n_features_split < D:  # (sample-based criteria) draw k features per node
            drawn = _draw_before(xs[:, seg_end - 1] > xs[:, seg_start], n_features_split, rng)
        best_f, best_pos = _best_cuts(
            drawn,
            order,
            xs,
            chan,
            crit,
            seg_start,
            seg_len,
            seg_imp * seg_W,
            n_score,
            unit_weight,
            wc,
            exact_sums,
            positive,
            msl,
            mwl,
            stats,
            sample_based,
        )
        row = best_f[seg_id]
        found = best_pos < n
        # children statistics, summed locally in the chosen feature's order
        bp = np.where(found, best_pos, seg_start)
        bounds = np.column_stack([seg_start, bp + 1]).ravel()
        sample = order[row, pos]
        if sample_based:
            LR = crit.segment_sums(stats, sample, bounds)
        else:
            LR = np.add.reduceat(stats[:, sample], bounds, axis=1)
        L_sums, R_sums = LR[:, 0::2], LR[:, 1::2]
        cntL = bp - seg_start + 1
        cntR = seg_len - cntL
        do_split = _decide(
            crit, L_sums, R_sums, seg_imp, seg_W, W_root, found, min_impurity_decrease, seg_len
        )
        if not np.any(do_split):
            break
        sp = np.flatnonzero(do_split)
        # record the splits and create the children (left ids, then right ids)
        f_sp, p_sp = best_f[sp], best_pos[sp]
        cids, csplit, cimp, cW = recorder.add_children(
            seg_node[sp],
            f_sp,
            _midpoints(xs[f_sp, p_sp], xs[f_sp, p_sp + 1]),
            np.concatenate([L_sums[:, sp], R_sums[:, sp]], axis=1),
            np.concatenate([cntL[sp], cntR[sp]]),
            depth + 1,
        )
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
        child_cnt = np.concatenate([cntL[sp], cntR[sp]])
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
            # (np.compress keeps the rows C-contiguous; [:, mask] would return an F-ordered copy)
            order = np.compress(keep_mask, new_order.reshape(D, n), axis=1)
            xs = np.compress(keep_mask, new_xs.reshape(D, n), axis=1)
        seg_node, seg_len = cids[keep_child], new_len
        seg_start = np.concatenate([[0], np.cumsum(new_len)[:-1]])
        seg_imp, seg_W = cimp[keep_child], cW[keep_child]
        depth += 1


def _best_cuts(
    drawn,
    order,
    xs,
    chan,
    crit,
    seg_start,
    seg_len,
    node_cost,
    n_score,
    unit_weight,
    wc,
    exact_sums,
    positive,
    msl,
    mwl,
    stats,
    sample_based,
):
    """The best feature and cut position of every node of a level, all features scored.

    ``drawn`` (n_features, n_nodes): the features a node may cut on (None: all). Returns
    ``best_f`` and ``best_pos`` (the last position left of the cut; n_positions: no valid cut)
    of every node; ties (scores within rounding of the best) go to the lowest feature, then
    the lowest cut.
    """
    D, n = order.shape
    S = seg_start.size
    seg_id = np.repeat(np.arange(S), seg_len)
    pos = np.arange(n)
    seg_end = seg_start + seg_len
    n_left = pos - seg_start[seg_id] + 1  # samples left of a cut just after position pos
    n_right = seg_len[seg_id] - n_left
    # running sums restarted at every segment start
    G = np.take(chan, order, axis=1)  # (C, D, n)
    seg_tot = np.add.reduceat(G, seg_start, axis=2)  # (C, D, S)
    first = None if exact_sums else G[:, :, seg_start]  # (C, D, S): segments' first terms
    G[:, :, seg_start[1:]] -= seg_tot[:, :, :-1]
    left = np.cumsum(G, axis=2, out=G)
    if first is not None and S > 1:
        # the restart leaves at each segment start a rounding residue of all the segments
        # before it (ε × the level's running sums), different in every feature's order:
        # remove it, so that a node's sums carry only their own rounding and equal cuts
        # score equally up to that (see _near_best)
        left -= (left[:, :, seg_start] - first)[:, :, seg_id]
    tot = seg_tot[:, 0, :]  # (C, S): the same sample set in every feature's order
    right = tot[:, None, seg_id] - left
    if unit_weight is not None:
        WL, WR = unit_weight * n_left, unit_weight * n_right
    elif wc is not None:
        WL, WR = left[n_score], right[n_score]
    else:
        WL, WR = left.sum(axis=0), right.sum(axis=0)
    if not sample_based:
        with np.errstate(divide="ignore", invalid="ignore"):
            proxy = crit.split_score(left[:n_score], right[:n_score], WL, WR)  # (D, n)
    # no cut between equal values, nor at a segment end
    invalid = np.empty((D, n), dtype=bool)
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
    if mwl > 0:
        invalid |= (WL < mwl) | (WR < mwl)
    if sample_based:  # the criterion need not score cuts that cannot be chosen
        skip = invalid if drawn is None else invalid | ~drawn[:, seg_id]
        proxy = crit.segment_split_scores(stats, order, seg_start, seg_len, seg_id, skip=skip)
    np.copyto(proxy, -np.inf, where=invalid)
    seg_best = np.maximum.reduceat(proxy, seg_start, axis=1)  # (D, S)
    if drawn is not None:
        seg_best[~drawn] = -np.inf
    tie = _near_best(seg_best.max(axis=0), node_cost, seg_len)
    best_f = np.argmax(seg_best >= tie, axis=0)
    hit = proxy[best_f[seg_id], pos] >= tie[seg_id]
    return best_f, np.minimum.reduceat(np.where(hit, pos, n), seg_start)


def _grow_drawn(
    order, xs, stats, chan, recorder, root, sums, min_impurity_decrease, n_features_split, rng
):
    """The level loop of :func:`_grow_exact` when k < D features are drawn per node.

    The presorted orders of all D features are not carried from level to level. The samples
    of each node are kept (in no particular order), and at every level only the k drawn
    features of each node are sorted: one sort of the keys (pair, rank of the value in the
    presorted order), for all drawn (feature, node) pairs of the level at once. The rank
    breaks ties between equal values as the presorted order does, so every pair's samples
    come out in the order that re-partitioning the presorted orders gives them: the same
    running sums, cuts and trees, at O(k n log n) instead of O(D n) per level.
    """
    crit = recorder.criterion
    msl, mwl = recorder.min_samples_leaf, recorder.min_weight_leaf
    seg_node, seg_imp, seg_W, W_root = root
    n_score, unit_weight, wc, exact_sums, positive = sums
    D, N = order.shape
    # rank[s, j]: the position of sample s in feature j's presorted order
    rank = np.empty((N, D), dtype=order.dtype)
    rank[order, np.arange(D)[:, None]] = np.arange(N, dtype=order.dtype)
    order_flat, xs_flat = order.ravel(), xs.ravel()
    samples = np.arange(N)  # the samples of the nodes to split, node after node
    seg_start, seg_len = np.array([0]), np.array([N])
    depth = 0
    while seg_node.size:
        S = seg_node.size
        pf, ps, o, x, plen = _draw_and_sort(
            samples, seg_start, seg_len, rank, order_flat, xs_flat, n_features_split, rng
        )
        if pf.size == 0:
            break
        pstart = np.concatenate([[0], np.cumsum(plen)[:-1]])
        n_left = np.arange(1, o.size + 1) - np.repeat(pstart, plen)
        best_pair, best_off = _best_drawn_cuts(
            o,
            x,
            pf,
            ps,
            pstart,
            plen,
            n_left,
            chan,
            crit,
            S,
            D,
            seg_imp * seg_W,
            seg_len,
            n_score,
            unit_weight,
            wc,
            exact_sums,
            positive,
            msl,
            mwl,
        )
        fs = np.flatnonzero(best_pair >= 0)  # the nodes with a valid cut
        if fs.size == 0:
            break
        bp, cntL = best_pair[fs], best_off[fs] + 1
        # the chosen pairs' samples, node after node: each node's left then right child
        sel_len = plen[bp]
        sel_start = np.concatenate([[0], np.cumsum(sel_len)[:-1]])
        sel = np.repeat(pstart[bp] - sel_start, sel_len) + np.arange(sel_len.sum())
        o_sel = np.take(o, sel)
        bounds = np.column_stack([sel_start, sel_start + cntL]).ravel()
        LR = np.add.reduceat(np.take(stats, o_sel, axis=1), bounds, axis=1)
        L_sums, R_sums = LR[:, 0::2], LR[:, 1::2]
        cntR = sel_len - cntL
        do_split, imp_l, imp_r, w_l, w_r = _decide(
            crit,
            L_sums,
            R_sums,
            seg_imp[fs],
            seg_W[fs],
            W_root,
            np.ones(fs.size, dtype=bool),
            min_impurity_decrease,
            sel_len,
            children=True,
        )
        if not np.any(do_split):
            break
        sp = np.flatnonzero(do_split)
        cut = pstart[bp[sp]] + cntL[sp] - 1  # the last sample left of each cut
        cids, csplit, cimp, cW = recorder.add_children(
            seg_node[fs[sp]],
            pf[bp[sp]],
            _midpoints(x[cut], x[cut + 1]),
            np.concatenate([L_sums[:, sp], R_sums[:, sp]], axis=1),
            np.concatenate([cntL[sp], cntR[sp]]),
            depth + 1,
            impurity=np.concatenate([imp_l[sp], imp_r[sp]]),
            W=np.concatenate([w_l[sp], w_r[sp]]),
        )
        if not np.any(csplit):
            break
        # keep the children that can still be split, in the order (left s, right s) of s
        child_start = np.concatenate([sel_start[sp], sel_start[sp] + cntL[sp]])
        child_cnt = np.concatenate([cntL[sp], cntR[sp]])
        keep = np.flatnonzero(csplit)
        keep = keep[np.argsort(child_start[keep], kind="stable")]
        new_len = child_cnt[keep]
        new_start = np.concatenate([[0], np.cumsum(new_len)[:-1]])
        take = np.repeat(child_start[keep] - new_start, new_len) + np.arange(new_len.sum())
        samples = np.take(o_sel, take)
        seg_node, seg_start, seg_len = cids[keep], new_start, new_len
        seg_imp, seg_W = cimp[keep], cW[keep]
        depth += 1


def _draw_and_sort(samples, seg_start, seg_len, rank, order_flat, xs_flat, k, rng):
    """Draw k features per node, as :func:`~prml14.trees._nodes._draw_before` does, and sort
    each node's samples by each drawn feature.

    The features are drawn in the order of ``rng.random_sample((D, S))`` (the keys of
    ``_draw_before``), and a drawn feature found constant in its node is replaced by the next
    one in that order: the k features with the smallest keys among those not constant in the
    node, without checking all D features of every node. Constancy shows after the sort (the
    first and last sorted values are equal). Returns the drawn pairs (features ``pf``, nodes
    ``ps``), their samples ``o`` and values ``x`` in increasing order, pair after pair, and
    each pair's number of samples; a constant pair stays in the run (it has no valid cut).
    """
    D = rank.shape[1]
    S = seg_len.size
    keys = rng.random_sample((D, S))
    cand = np.argsort(keys.T, axis=1)  # (S, D): each node's features in the order drawn
    need, nxt = np.full(S, k), np.zeros(S, dtype=np.intp)
    active = np.arange(S)
    runs = []
    while active.size:
        cnt = np.minimum(need[active], D - nxt[active])
        ps = np.repeat(active, cnt)
        first = np.concatenate([[0], np.cumsum(cnt)[:-1]])
        pf = cand[ps, np.arange(ps.size) - np.repeat(first - nxt[active], cnt)]
        o, x, plen = _sorted_pairs(pf, ps, samples, seg_start, seg_len, rank, order_flat, xs_flat)
        runs.append((pf, ps, o, x, plen))
        end = np.cumsum(plen)
        constant = x[end - 1] == x[end - plen]
        nxt[active] += cnt
        need = np.bincount(ps[constant], minlength=S)  # replacements still to draw
        active = active[(need[active] > 0) & (nxt[active] < D)]
    if len(runs) == 1:
        return runs[0]
    return tuple(np.concatenate(r) for r in zip(*runs, strict=True))


def _sorted_pairs(pf, ps, samples, seg_start, seg_len, rank, order_flat, xs_flat):
    """The samples and values of node ``ps[p]`` in increasing order of feature ``pf[p]``, for
    every pair p, pair after pair: one sort of the keys (p, rank of the value in the
    presorted order); the rank breaks ties between equal values as the presorted order does."""
    N, D = rank.shape
    plen = seg_len[ps]
    start = np.concatenate([[0], np.cumsum(plen)[:-1]])
    place = np.repeat(seg_start[ps] - start, plen) + np.arange(plen.sum())
    member = np.take(samples, place).astype(np.intp, copy=False)
    dtype = np.int32 if pf.size * N < 2**31 else np.int64  # (a faster sort)
    key = np.repeat(np.arange(0, pf.size * N, N, dtype=dtype), plen)
    member *= D
    member += np.repeat(pf, plen)
    key += np.take(rank, member)
    key.sort()
    flat = key.astype(np.intp)
    flat += np.repeat((pf - np.arange(pf.size)) * N, plen)  # pf N + rank
    return np.take(order_flat, flat), np.take(xs_flat, flat), plen


def _best_drawn_cuts(
    o,
    x,
    pf,
    ps,
    pstart,
    plen,
    n_left,
    chan,
    crit,
    S,
    D,
    node_cost,
    seg_len,
    n_score,
    unit_weight,
    wc,
    exact_sums,
    positive,
    msl,
    mwl,
):
    """The best cut of every node among its drawn features, as :func:`_best_cuts` finds it.

    The drawn (feature ``pf``, node ``ps``) pairs lie one after the other in one flat run:
    ``o`` the samples and ``x`` the values of each pair in increasing order (pair p from
    ``pstart[p]``, ``plen[p]`` samples; ``n_left`` gives each position's 1-based place in its
    pair). Returns the chosen pair of every node (−1: no valid cut) and the
    place (0-based) of the last sample left of its cut; ties (scores within rounding of the
    best) go to the lowest feature, then the lowest cut.
    """
    n_right = np.repeat(plen, plen) - n_left if unit_weight is not None or msl > 1 else None
    G = np.take(chan, o, axis=1)  # (C, m)
    ptot = np.add.reduceat(G, pstart, axis=1)  # (C, P)
    first = None if exact_sums else G[:, pstart]
    G[:, pstart[1:]] -= ptot[:, :-1]
    left = np.cumsum(G, axis=1, out=G)
    if first is not None and pf.size > 1:  # the restart residue, as in _best_cuts
        left -= np.repeat(left[:, pstart] - first, plen, axis=1)
    right = np.repeat(ptot, plen, axis=1)
    right -= left
    if unit_weight is not None:
        WL, WR = unit_weight * n_left, unit_weight * n_right
    elif wc is not None:
        WL, WR = left[n_score], right[n_score]
    else:
        WL, WR = left.sum(axis=0), right.sum(axis=0)
    with np.errstate(divide="ignore", invalid="ignore"):
        proxy = crit.split_score(left[:n_score], right[:n_score], WL, WR)  # (m,)
    # no cut between equal values, nor at a pair's end
    invalid = np.empty(x.size, dtype=bool)
    np.less_equal(x[1:], x[:-1], out=invalid[:-1])
    invalid[pstart + plen - 1] = True
    if msl > 1:
        invalid |= (n_left < msl) | (n_right < msl)
    if positive is not None:
        p = positive[o]
        pos_left = np.cumsum(p)
        pos_left -= np.repeat(pos_left[pstart] - p[pstart], plen)
        invalid |= (pos_left == 0) | (pos_left == np.repeat(pos_left[pstart + plen - 1], plen))
    if mwl > 0:
        invalid |= (WL < mwl) | (WR < mwl)
    np.copyto(proxy, -np.inf, where=invalid)
    seg_best = np.full((D, S), -np.inf)
    seg_best[pf, ps] = np.maximum.reduceat(proxy, pstart)
    top = seg_best.max(axis=0)
    tie = _near_best(top, node_cost, seg_len)
    best_f = np.argmax(seg_best >= tie, axis=0)
    chosen = np.flatnonzero((pf == best_f[ps]) & np.isfinite(top[ps]))  # one pair per node
    best_pair, best_place = np.full(S, -1), np.zeros(S, dtype=np.intp)
    if chosen.size == 0:
        return best_pair, best_place
    # the first cut of each chosen pair that ties with the best
    clen = plen[chosen]
    cstart = np.concatenate([[0], np.cumsum(clen)[:-1]])
    at = np.repeat(pstart[chosen] - cstart, clen) + np.arange(clen.sum())
    hit = np.take(proxy, at) >= np.repeat(tie[ps[chosen]], clen)
    first_hit = np.minimum.reduceat(np.where(hit, at, x.size), cstart)
    best_pair[ps[chosen]] = chosen
    best_place[ps[chosen]] = first_hit - pstart[chosen]
    return best_pair, best_place
