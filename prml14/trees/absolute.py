"""The absolute-error criterion of regression trees: weighted medians as leaf values and the
node cost Σ_n w_n abs(t_n − ỹ_τ) (B.29), with an exact split search for every cut of every node.

Unlike the sum-of-squares cost (14.30), the absolute error of a region is not a function of a few
running sums, so the exact finder cannot score all cuts by cumulative sums. For the cut after
position p of a node's segment of a feature's sorted order, the left child holds the samples at
positions [start, p] and its cost is

    Σ w abs(t − m) = (S − 2 S_≤) − m (W − 2 W_≤),

with m the weighted median of the child, W and S its sums of w and w t, and W_≤, S_≤ the same sums
over its samples with t ≤ m. The children of all cuts are ranges of positions in the features'
orders, and a *wavelet matrix* over the ranks of the targets within their node gives the
weighted median of every range, with W_≤ and S_≤, in one descent of log₂ n_τ steps over the bits
of the rank (n_τ the largest node of the level), for many ranges at once. Answering a range costs
O(log n_τ), building the matrix O(n log n_τ) per feature and tree level (scikit-learn: O(n log n)
per node and feature with a Fenwick tree and a loop over samples); no Python loop over samples.

The finder scores only the cuts that may win: the least absolute error of a set never falls when
a sample joins it, so along a node's order the left cost grows and the right cost falls, and
left(g) + right(h) bounds every cut between two scored cuts g < h from below. Every 16th cut is
scored first, then only the stretches whose bound reaches the best scored cut. The near-best
cuts are scored again from their own samples, so that ties follow the finder's rule (lowest
feature, then lowest threshold) rather than the rounding of the level-wide running sums.
"""

from __future__ import annotations

import numpy as np

from .._equations import implements
from .._validation import as_float

__all__ = ["weighted_median", "absolute_deviation"]


def _check_tw(t, w):
    t = as_float(t, "t", allow_inf=True)
    w = np.ones_like(t) if w is None else as_float(w, "sample_weight")
    if t.ndim != 1 or t.shape != w.shape or t.size == 0:
        raise ValueError("t and sample_weight must be non-empty 1-D arrays of the same length")
    if np.any(w < 0) or not w.sum() > 0:
        raise ValueError("sample_weight must be non-negative with a positive sum")
    return t, w


@implements("B.29")
def weighted_median(t, sample_weight=None):
    """The weighted median ỹ_τ of t: a minimiser of Σ_n w_n abs(t_n − y), (B.29).

    The smallest sorted value at which the cumulative weight exceeds half the total; when the
    cumulative weight of a prefix equals half exactly, every y between that prefix's largest
    value and the next one minimises the cost, and the midpoint is returned (scikit-learn's
    convention).

    Parameters
    ----------
    t : array-like of shape (n_samples,)
        Targets.
    sample_weight : array-like of shape (n_samples,) or None, default=None
        Non-negative weights with a positive sum (unit weights if None).

    Returns
    -------
    float
        The weighted median.

    Raises
    ------
    ValueError
        If t or sample_weight is not a real array, they are not non-empty 1-D arrays of one length,
        t holds NaN, or sample_weight is not finite and non-negative with a positive sum.
    """
    t, w = _check_tw(t, sample_weight)
    return float(_segment_medians(t, w, np.array([0]))[0])


@implements("B.29")
def absolute_deviation(t, sample_weight=None):
    """The absolute-error cost of a region, N_τ Q_τ = Σ_n w_n abs(t_n − ỹ_τ), (B.29).

    Parameters
    ----------
    t : array-like of shape (n_samples,)
        Targets of the region's samples.
    sample_weight : array-like of shape (n_samples,) or None, default=None
        Non-negative weights with a positive sum (unit weights if None).

    Returns
    -------
    float
        The sum of weighted absolute deviations from the weighted median.

    Raises
    ------
    ValueError
        If t holds ±inf (the deviation from the median is then undefined or infinite).
    """
    t, w = _check_tw(t, sample_weight)
    if not np.all(np.isfinite(t)):
        raise ValueError("t must be finite: the absolute deviation of an infinite target is inf")
    return float(np.dot(w, np.abs(t - weighted_median(t, w))))


def _segment_medians(t, w, starts):
    """Weighted medians (scikit-learn's rule) of consecutive segments of (t, w)."""
    seg = np.repeat(np.arange(starts.size), np.diff(np.append(starts, t.size)))
    o = np.lexsort((t, seg))
    return _sorted_segment_medians(t[o], w[o], starts, seg)


def _sorted_segment_medians(ts, ws, starts, seg):
    """Weighted medians of consecutive segments of (ts, ws), each sorted by ts; ``seg`` is the
    segment of every position."""
    n = ts.size
    cum = np.cumsum(ws)
    before = np.concatenate([[0.0], cum])[starts]  # weight before each segment
    total = np.add.reduceat(ws, starts)
    rel = cum - before[seg]  # inclusive cumulative weight within the segment
    half = 0.5 * total[seg]
    pos = np.arange(n)
    hi = np.minimum.reduceat(np.where(rel > half, pos, n), starts)  # first cum > half
    lo = np.minimum.reduceat(np.where(rel >= half, pos, n), starts)  # first cum >= half
    hi = np.minimum(hi, np.append(starts[1:], n) - 1)
    lo = np.minimum(lo, hi)
    exact = rel[lo] == half[lo]
    return np.where(exact & (lo < hi), 0.5 * (ts[lo] + ts[hi]), ts[hi])


def segment_statistics(stats, samples, starts):
    """(W, median, Σ w abs(t − median)) of the segments of ``samples`` beginning at ``starts``.

    ``stats`` is (2, N): the weights and the targets of all samples.
    """
    w, t = stats[0, samples], stats[1, samples]
    m = _segment_medians(t, w, starts)
    seg = np.repeat(np.arange(starts.size), np.diff(np.append(starts, samples.size)))
    W = np.add.reduceat(w, starts)
    ad = np.add.reduceat(w * np.abs(t - m[seg]), starts)
    return np.vstack([W, m, ad])


# queries are answered in blocks of this many ranges: the ~20 arrays of a block's descent stay
# in the CPU cache (about twice as fast as one pass over all ranges of a level)
_BLOCK = 16384


class _WaveletMatrix:
    """A wavelet matrix over a sequence of ranks, with running sums of w t (and of w).

    Level by level, from the highest bit of the rank down, the sequence is stably partitioned by
    that bit (zeros first); a range [a, e) of positions maps to the zeros' range [c0[a], c0[e])
    and the ones' range of the next level through the prefix counts c0 of zeros, so a weighted
    quantile of any range is found by one descent of ``n_bits`` steps (many ranges at once),
    collecting on the way the sums of w and w t of the elements below the quantile (the zeros'
    sums, read from the next level's running sums, whenever the descent takes the ones). With
    ``w=None`` every weight is 1: the weights below are then counts, summed exactly in integers.
    """

    def __init__(self, rank, t, w, n_bits):
        M = rank.size
        wt = t if w is None else w * t
        self.cs = np.zeros(M + 1)
        np.cumsum(wt, out=self.cs[1:])
        self.cw = None
        if w is not None:
            self.cw = np.zeros(M + 1)
            np.cumsum(w, out=self.cw[1:])
        self.levels = []
        for b in range(n_bits - 1, -1, -1):
            zero = (rank & (1 << b)) == 0
            c0 = np.zeros(M + 1, dtype=np.intp)
            np.cumsum(zero, out=c0[1:])
            # stable partition: the zeros, then the ones
            perm = np.concatenate([np.flatnonzero(zero), np.flatnonzero(~zero)])
            if b:
                rank = np.take(rank, perm)
            wt = np.take(wt, perm)
            # the next level's running sums: its zeros' range of [a, e) is [c0[a], c0[e])
            cs0 = np.zeros(M + 1)
            np.cumsum(wt, out=cs0[1:])
            cw0 = None
            if w is not None:
                t, w = np.take(t, perm), np.take(w, perm)
                cw0 = np.zeros(M + 1)
                np.cumsum(w, out=cw0[1:])
            self.levels.append((c0, int(c0[-1]), cs0, cw0))
        # the last level: every range of the first one ordered by rank
        self.t, self.wt, self.w = (wt if w is None else t), wt, w

    def _descend(self, ae, half):
        """For ranges [a, e) (``ae`` = (a, e) of shape (2, n), overwritten): the element of the
        smallest rank whose cumulative weight exceeds ``half`` (its t, w t and w; 0 if the range
        is empty), and the sums of w and w t over the range's elements of smaller rank."""
        unit = self.w is None
        target = half.copy()  # half minus the weight below the current range
        S_below = np.zeros(half.size)
        for c0, n_zero, cs0, cw0 in self.levels:
            c = np.take(c0, ae)
            if unit:
                W0 = c[1] - c[0]
            else:
                cw = np.take(cw0, c)
                W0 = cw[1] - cw[0]
            high = W0 <= target  # the quantile is among the ones of this bit
            W0 *= high
            target -= W0
            cs = np.take(cs0, c)
            S0 = cs[1] - cs[0]
            S0 *= high
            S_below += S0
            # a -> c0[a] among the zeros, n_zero + a - c0[a] among the ones (branch-free)
            ae += n_zero
            ae -= c
            ae -= c
            ae *= high
            ae += c
        # the range now holds the quantile's element alone (or nothing if it was empty)
        a, e = ae
        last = np.minimum(a, self.wt.size - 1)
        held = e > a
        t_q, wt_q = np.take(self.t, last) * held, np.take(self.wt, last) * held
        w_q = held.astype(target.dtype) if unit else np.take(self.w, last) * held
        return t_q, wt_q, w_q, half - target, S_below

    def costs(self, a, e):
        """Σ w abs(t − m) over each range [a, e) of positions, m the range's weighted median
        (0 for an empty range)."""
        out = np.empty(a.size)
        for i in range(0, a.size, _BLOCK):
            ae = np.stack([a[i : i + _BLOCK], e[i : i + _BLOCK]])
            cs = np.take(self.cs, ae)
            S = cs[1] - cs[0]
            if self.cw is None:
                W = ae[1] - ae[0]
                half = W // 2  # a count exceeds W / 2 exactly when it exceeds W // 2
            else:
                cw = np.take(self.cw, ae)
                W = cw[1] - cw[0]
                half = 0.5 * W
            m, wt_q, w_q, W_below, S_below = self._descend(ae, half)
            # W_≤ = W_below + w_q, S_≤ = S_below + (w t)_q: cost = (S − 2 S_≤) − m (W − 2 W_≤)
            W_below += w_q
            W -= 2 * W_below
            S_below += wt_q
            S -= 2.0 * S_below
            S -= m * W
            np.maximum(S, 0.0, out=out[i : i + _BLOCK])
        return out


# the cuts of a node scored first, for the bounds: every _STRIDE-th one and the node's last
_STRIDE = 16
_EPS = np.finfo(np.float64).eps
# at most this many samples (or 4 per working position and feature) are scored again per level
_RESCORE_LIMIT = 1 << 20


def split_costs(stats, order, seg_start, seg_len, seg_id, skip=None):
    """Σ w abs(t − median) of the left and right child of every cut (D, n), exact.

    The cut at position p of a segment puts positions [start, p] left and (p, end) right. The
    targets are ranked within their node (so log₂ of the largest node's size bits suffice), the
    D sequences are laid one after the other, and the children of the cuts are ranges of one
    wavelet matrix over those ranks.

    With ``skip`` (D, n) bool, the cuts that cannot be chosen, only the cuts that may be among
    the best of their node are scored (the others get +inf). Adding a sample never lowers the
    least absolute error of a set, so the left cost grows and the right cost falls along a
    segment: between two scored cuts g < h, every cut costs at least left(g) + right(h). Every
    ``_STRIDE``-th cut is scored first; a stretch whose bound exceeds the best scored cut of
    the node (by more than rounding) is skipped, the others are scored in full. The cuts that
    then tie with the best within the rounding of the level-wide running sums are scored again
    from their own samples (in a fixed order), so that equal cuts score equally up to the
    rounding of their node alone and ties go by the finder's rule, not by rounding.
    """
    w, t = stats[0], stats[1]
    D, n = order.shape
    members = order[0]  # every working sample once, segment after segment
    by_t = np.lexsort((t[members], seg_id))  # (node, t): the node's samples stay in its segment
    rank = np.empty(t.size, dtype=np.int32)
    rank[members[by_t]] = np.arange(n, dtype=np.int32) - seg_start[seg_id].astype(np.int32)
    n_bits = max(1, int(seg_len.max() - 1).bit_length())
    flat = order.ravel()  # the D sequences one after the other
    rank = rank[flat]
    if n_bits <= 15:
        rank = rank.astype(np.int16)
    w_m = w[members]
    unit = bool(np.all(w_m == w_m[0]))  # equal weights: count, and scale the costs at the end
    wm = _WaveletMatrix(rank, t[flat], None if unit else w[flat], n_bits)
    offset = (np.arange(D, dtype=np.intp) * n)[:, None]
    start = (offset + seg_start[seg_id]).ravel()
    end = (offset + (seg_start + seg_len)[seg_id]).ravel()
    cut = (offset + np.arange(1, n + 1, dtype=np.intp)).ravel()
    scale = w_m[0] if unit else 1.0

    def score(idx, left, right):
        left[idx] = wm.costs(start[idx], cut[idx]) * scale
        right[idx] = wm.costs(cut[idx], end[idx]) * scale

    left, right = np.full(D * n, np.inf), np.full(D * n, np.inf)
    if skip is None:
        score(slice(None), left, right)
        return left.reshape(D, n), right.reshape(D, n)
    rel = np.arange(n) - seg_start[seg_id]  # position within the segment
    last = (seg_len - 1)[seg_id]
    grid = (rel % _STRIDE == 0) | (rel == last)
    g = np.flatnonzero(grid)  # per feature: the first cut of every stretch, and the last
    gi = (np.arange(D)[:, None] * n + g).ravel()
    score(gi, left, right)
    # the rounding of the level-wide running sums (a bound: n_bits + 3 differences of running
    # sums of M terms, each off by at most M ε Σ|terms|)
    M = flat.size
    wf = w[flat]
    size = np.dot(wf, np.abs(t[flat]))
    if not unit:  # m (W − 2 W_≤) with rounded weight sums (counts are exact)
        size += np.abs(t[members]).max() * wf.sum()
    err = 4.0 * (n_bits + 3) * M * _EPS * size
    node_cost = left[(seg_start + seg_len - 1)]  # the whole node left of its last position

    def best(total):
        """The least cost of a cut that can be chosen, per node, and the margin around it that
        rounding and the finder's tie tolerance leave, at every position (D, n)."""
        total = np.where(skip, np.inf, total.reshape(D, n))
        top = np.minimum.reduceat(total, seg_start, axis=1).min(axis=0)
        tol = 4.0 * _EPS * seg_len * (np.where(np.isfinite(top), top, 0.0) + node_cost)
        return total, (top + 4.0 * err + 2.0 * tol)[seg_id]

    _, reach = best(left + right)
    # a stretch from a scored cut to the next one: every cut inside costs at least
    # left(first) + right(next), and is scored only if that reaches the best of the node
    lo, hi = gi.reshape(D, -1)[:, :-1], gi.reshape(D, -1)[:, 1:]
    open_ = np.zeros((D, g.size), dtype=bool)
    open_[:, :-1] = left[lo] + right[hi] <= reach[g[:-1]]
    todo = open_[:, np.cumsum(grid) - 1] & ~grid & ~skip  # every position in its stretch
    score(np.flatnonzero(todo), left, right)
    total, reach = best(left + right)
    near = np.isfinite(total) & (total <= reach)  # (D, n)
    # a node with a single near-best cut has no tie to break
    n_near = np.add.reduceat(near.sum(axis=0), seg_start)
    near = np.flatnonzero(near & (n_near > 1)[seg_id])
    # (the cost is the size of the near cuts' nodes: with very many exact ties in large nodes,
    # they keep the level-wide rounding)
    if seg_len[seg_id[near % n]].sum() <= max(4 * M, _RESCORE_LIMIT):
        _rescore_locally(stats, flat, start[near], cut[near], end[near], left, right, near)
    return left.reshape(D, n), right.reshape(D, n)


def _rescore_locally(stats, flat, start, cut, end, left, right, idx):
    """Score the cuts ``idx`` again from their children's own samples, each child's samples
    in the order of (t, index) (equal children then score bit for bit equally)."""
    if idx.size == 0:
        return
    w, t = stats[0], stats[1]
    a = np.concatenate([start, cut])
    e = np.concatenate([cut, end])
    size = e - a
    first = np.concatenate([[0], np.cumsum(size)[:-1]])
    pos = np.repeat(a - first, size) + np.arange(size.sum())
    child = np.repeat(np.arange(a.size), size)
    samples = flat[pos]
    samples = samples[np.lexsort((samples, t[samples], child))]
    ts, ws = t[samples], w[samples]
    keep = size > 0
    starts = first[keep]
    seg = np.repeat(np.arange(starts.size), size[keep])
    m = _sorted_segment_medians(ts, ws, starts, seg)
    costs = np.zeros(a.size)
    costs[keep] = np.add.reduceat(ws * np.abs(ts - m[seg]), starts)
    left[idx], right[idx] = costs[: idx.size], costs[idx.size :]
