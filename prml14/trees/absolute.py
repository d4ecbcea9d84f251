"""The absolute-error criterion of regression trees: weighted medians as leaf values and the
node cost Σ_n w_n |t_n − ỹ_τ| (B.902), with an exact split search for every cut of every node.

Unlike the sum-of-squares cost (14.30), the absolute error of a region is not a function of a few
running sums, so the exact finder cannot score all cuts by cumulative sums. For the cut after
position p of a node's segment of a feature's sorted order, the left child holds the samples at
positions [start, p] and its cost is

    Σ w |t − m| = (S − 2 S_≤) − m (W − 2 W_≤),

with m the weighted median of the child, W and S its sums of w and w t, and W_≤, S_≤ the same sums
over its samples with t ≤ m. All of these are *dominance sums*: sums over the positions of a
range whose target rank is at most q. A merge-sort tree over the positions (at level l, blocks of
2^l consecutive positions, each sorted by target rank, with cumulative sums of w and w t) answers
a batch of such queries with one ``searchsorted`` per level, and the median of every range is
found by a bisection over the rank, all cuts of all nodes and features at once. The cost is
O(n log² n) per feature and tree level (scikit-learn: O(n log n) per node and feature with a
Fenwick tree and a loop over samples), with no Python loop over samples.
"""

from __future__ import annotations

import numpy as np

from .._equations import implements

__all__ = ["weighted_median", "absolute_deviation"]


def _check_tw(t, w):
    t = np.asarray(t, dtype=float)
    w = np.ones_like(t) if w is None else np.asarray(w, dtype=float)
    if t.ndim != 1 or t.shape != w.shape or t.size == 0:
        raise ValueError("t and sample_weight must be non-empty 1-D arrays of the same length")
    if np.any(w < 0) or not w.sum() > 0:
        raise ValueError("sample_weight must be non-negative with a positive sum")
    return t, w


@implements("B.902")
def weighted_median(t, sample_weight=None):
    """The weighted median ỹ_τ of t: a minimiser of Σ_n w_n |t_n − y|, (B.902).

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
    """
    t, w = _check_tw(t, sample_weight)
    return float(_segment_medians(t, w, np.array([0]))[0])


@implements("B.902")
def absolute_deviation(t, sample_weight=None):
    """The absolute-error cost of a region, N_τ Q_τ = Σ_n w_n |t_n − ỹ_τ|, (B.902).

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
    """
    t, w = _check_tw(t, sample_weight)
    return float(np.dot(w, np.abs(t - weighted_median(t, w))))


def _segment_medians(t, w, starts):
    """Weighted medians (scikit-learn's rule) of consecutive segments of (t, w)."""
    n = t.size
    seg = np.repeat(np.arange(starts.size), np.diff(np.append(starts, n)))
    o = np.lexsort((t, seg))
    ts, ws = t[o], w[o]
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
    """(W, median, Σ w |t − median|) of the segments of ``samples`` beginning at ``starts``.

    ``stats`` is (2, N): the weights and the targets of all samples.
    """
    w, t = stats[0, samples], stats[1, samples]
    m = _segment_medians(t, w, starts)
    seg = np.repeat(np.arange(starts.size), np.diff(np.append(starts, samples.size)))
    W = np.add.reduceat(w, starts)
    ad = np.add.reduceat(w * np.abs(t - m[seg]), starts)
    return np.vstack([W, m, ad])


class _DominanceSums:
    """Σ w and Σ w t over positions [0, p) of each row of ``order`` with target rank <= q."""

    def __init__(self, order, rank, w, wt):
        D, n = order.shape
        self.D, self.n = D, n
        self.N = int(rank.max()) + 1
        r = rank[order]  # (D, n)
        p = np.arange(n)
        d = np.arange(D)[:, None]
        self.levels = []
        L = max(1, int(np.ceil(np.log2(max(n, 2)))))
        for lev in range(L + 1):
            nb = (n >> lev) + 1
            key = ((d * nb + (p >> lev)) * self.N + r).ravel()
            o = np.argsort(key, kind="stable")
            flat = order.ravel()[o]
            cw = np.concatenate([[0.0], np.cumsum(w[flat])])
            cs = np.concatenate([[0.0], np.cumsum(wt[flat])])
            self.levels.append((lev, nb, key[o], cw, cs))

    def __call__(self, d, p, q):
        """The sums for flat query arrays (feature d, prefix end p, rank bound q)."""
        sw = np.zeros(p.shape)
        ss = np.zeros(p.shape)
        for lev, nb, keys, cw, cs in self.levels:
            has = ((p >> lev) & 1) == 1
            if not np.any(has):
                continue
            dd, pp, qq = d[has], p[has], q[has]
            b = (pp >> lev) - 1
            start = dd * self.n + (b << lev)
            i = np.searchsorted(keys, (dd * nb + b) * self.N + qq, side="right")
            sw[has] += cw[i] - cw[start]
            ss[has] += cs[i] - cs[start]
        return sw, ss


def split_costs(stats, order, seg_start, seg_len, seg_id):
    """Σ w |t − median| of the left and right child of every cut (D, n), exact.

    The cut at position p of a segment puts positions [start, p] left and (p, end) right.
    """
    w, t = stats[0], stats[1]
    N = t.size
    rank = np.empty(N, dtype=np.int64)
    by_t = np.argsort(t, kind="stable")
    rank[by_t] = np.arange(N)
    t_sorted = t[by_t]
    D, n = order.shape
    dom = _DominanceSums(order, rank, w, w * t)
    cw = np.concatenate([np.zeros((D, 1)), np.cumsum(w[order], axis=1)], axis=1)
    cs = np.concatenate([np.zeros((D, 1)), np.cumsum((w * t)[order], axis=1)], axis=1)
    pos = np.arange(n)
    d = np.repeat(np.arange(D), n)
    a_left = np.tile(seg_start[seg_id], D)
    cut = np.tile(pos + 1, D)
    e_right = np.tile((seg_start + seg_len)[seg_id], D)
    rows = np.repeat(np.arange(D), n)
    costs = []
    for a, e in ((a_left, cut), (cut, e_right)):
        W = cw[rows, e] - cw[rows, a]
        S = cs[rows, e] - cs[rows, a]
        half = 0.5 * W
        lo = np.zeros(a.size, dtype=np.int64)
        hi = np.full(a.size, N - 1, dtype=np.int64)
        while True:
            active = lo < hi
            if not np.any(active):
                break
            mid = (lo + hi) >> 1
            w_e, _ = dom(d[active], e[active], mid[active])
            w_a, _ = dom(d[active], a[active], mid[active])
            ok = np.zeros(a.size, dtype=bool)
            ok[active] = (w_e - w_a) > half[active]
            hi = np.where(active & ok, mid, hi)
            lo = np.where(active & ~ok, mid + 1, lo)
        m = t_sorted[lo]
        w_e, s_e = dom(d, e, lo)
        w_a, s_a = dom(d, a, lo)
        W_le, S_le = w_e - w_a, s_e - s_a
        cost = (S - 2.0 * S_le) - m * (W - 2.0 * W_le)
        costs.append(np.maximum(cost, 0.0).reshape(D, n))
    return costs
