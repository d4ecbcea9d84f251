"""The absolute-error criterion of regression trees: weighted medians as leaf values and the
node cost Σ_n w_n abs(t_n − ỹ_τ) (B.29), with an exact split search for every cut of every node.

Unlike the sum-of-squares cost (14.30), the absolute error of a region is not a function of a few
running sums, so the exact finder cannot score all cuts by cumulative sums. For the cut after
position p of a node's segment of a feature's sorted order, the left child holds the samples at
positions [start, p] and its cost is

    Σ w abs(t − m) = (S − 2 S_≤) − m (W − 2 W_≤),

with m the weighted median of the child, W and S its sums of w and w t, and W_≤, S_≤ the same sums
over its samples with t ≤ m. The children of all cuts are ranges of positions in the features'
orders, and a *wavelet matrix* over the target ranks of those orders gives the weighted median
of every range, with W_≤ and S_≤, in one descent of log₂ N steps over the bits of the rank, all
cuts of all nodes and features at once. The cost is O(n log N) per feature and tree level
(scikit-learn: O(n log n) per node and feature with a Fenwick tree and a loop over samples),
with no Python loop over samples.
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
    """(W, median, Σ w abs(t − median)) of the segments of ``samples`` beginning at ``starts``.

    ``stats`` is (2, N): the weights and the targets of all samples.
    """
    w, t = stats[0, samples], stats[1, samples]
    m = _segment_medians(t, w, starts)
    seg = np.repeat(np.arange(starts.size), np.diff(np.append(starts, samples.size)))
    W = np.add.reduceat(w, starts)
    ad = np.add.reduceat(w * np.abs(t - m[seg]), starts)
    return np.vstack([W, m, ad])


class _WaveletMatrix:
    """A wavelet matrix over a sequence of target ranks, with prefix sums of w and w t.

    Level by level, from the highest bit of the rank down, the sequence is stably partitioned by
    that bit (zeros first); a range [a, e) of positions maps to the zeros' and the ones' ranges
    of the next level through prefix counts, so a weighted quantile of any range is found by
    one descent of ``n_bits`` steps (all ranges at once), collecting on the way the sums of w
    and w t of the elements below the quantile.
    """

    def __init__(self, rank, w, wt, n_bits):
        self.n_bits = n_bits
        self.levels = []
        pos = np.arange(rank.size)
        for b in range(n_bits - 1, -1, -1):
            zero = ((rank >> b) & 1) == 0
            c0 = np.concatenate([[0], np.cumsum(zero)])
            cw0 = np.concatenate([[0.0], np.cumsum(np.where(zero, w, 0.0))])
            cs0 = np.concatenate([[0.0], np.cumsum(np.where(zero, wt, 0.0))])
            n_zero = int(c0[-1])
            self.levels.append((b, c0, n_zero, cw0, cs0))
            new = np.where(zero, c0[:-1], n_zero + pos - c0[:-1])  # stable partition
            for arr in (rank, w, wt):
                arr[new] = arr.copy()
        self.cw = np.concatenate([[0.0], np.cumsum(w)])
        self.cs = np.concatenate([[0.0], np.cumsum(wt)])

    def median(self, a, e, half):
        """For ranges [a, e): the smallest rank q whose cumulative weight exceeds ``half``, and
        the sums of w and w t over the range's elements of rank <= q."""
        q = np.zeros(a.size, dtype=np.int64)
        W_below = np.zeros(a.size)
        S_below = np.zeros(a.size)
        target = half.copy()
        for b, c0, n_zero, cw0, cs0 in self.levels:
            a0, e0 = c0[a], c0[e]
            W0, S0 = cw0[e] - cw0[a], cs0[e] - cs0[a]
            low = W0 > target  # the quantile is among the zeros of this bit
            a = np.where(low, a0, n_zero + a - a0)
            e = np.where(low, e0, n_zero + e - e0)
            target = np.where(low, target, target - W0)
            W_below += np.where(low, 0.0, W0)
            S_below += np.where(low, 0.0, S0)
            q |= (~low).astype(np.int64) << b
        # the range now holds the element of rank q (none if the range was empty)
        return q, W_below + self.cw[e] - self.cw[a], S_below + self.cs[e] - self.cs[a]


def split_costs(stats, order, seg_start, seg_len, seg_id):
    """Σ w abs(t − median) of the left and right child of every cut (D, n), exact.

    The cut at position p of a segment puts positions [start, p] left and (p, end) right.
    """
    w, t = stats[0], stats[1]
    N = t.size
    rank = np.empty(N, dtype=np.int64)
    by_t = np.argsort(t, kind="stable")
    rank[by_t] = np.arange(N)
    t_sorted = t[by_t]
    D, n = order.shape
    flat = order.ravel()  # the D sequences one after the other
    n_bits = max(1, int(N - 1).bit_length())
    wm = _WaveletMatrix(rank[flat], w[flat], (w * t)[flat], n_bits)
    cw = np.concatenate([[0.0], np.cumsum(w[flat])])
    cs = np.concatenate([[0.0], np.cumsum((w * t)[flat])])
    offset = np.repeat(np.arange(D) * n, n)
    pos = np.tile(np.arange(n), D)
    seg = np.tile(seg_id, D)
    start, end, cut = (
        offset + seg_start[seg],
        offset + (seg_start + seg_len)[seg],
        offset + pos + 1,
    )
    costs = []
    for a, e in ((start, cut), (cut, end)):
        W, S = cw[e] - cw[a], cs[e] - cs[a]
        q, W_le, S_le = wm.median(a, e, 0.5 * W)
        m = t_sorted[np.minimum(q, N - 1)]
        cost = (S - 2.0 * S_le) - m * (W - 2.0 * W_le)
        costs.append(np.maximum(cost, 0.0).reshape(D, n))
    return costs
