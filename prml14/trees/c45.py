"""The split criteria of ID3 and C4.5 (Quinlan 1986, 1993) and C4.5's treatment of missing
values: the functional core of :class:`prml14.trees.c45_estimators.C45Classifier`.

Notation (book pages B.7 and B.8). A node holds a weighted set D of points with class weights
N_k (Σ_k N_k = N); an attribute a with V outcomes splits it into D^1, ..., D^V with weights
N^v. With p_k = N_k/N:

* entropy in bits, Ent(D) = −Σ_k p_k log₂ p_k = Q(D)/ln 2 with Q the cross-entropy
  impurity (14.32) in nats (:func:`entropy`, (B.22));
* information gain, Gain(D, a) = Ent(D) − Σ_v (N^v/N) Ent(D^v) (:func:`information_gain`,
  (B.23));
* intrinsic value, IV(a) = −Σ_v (N^v/N) log₂(N^v/N) (:func:`intrinsic_value`, (B.24)), and the
  gain ratio Gain(D, a)/IV(a) (:func:`gain_ratio`, (B.25));
* with missing values: D̃ ⊆ D the points whose value of a is known, ρ = (weight of D̃)/(weight
  of D), Gain(D, a) = ρ · Gain(D̃, a) (:func:`missing_value_gain`, (B.26)); a point whose value
  is missing goes down every branch v with its weight times r̃_v = Ñ^v/Ñ
  (:func:`fractional_weights`, (B.27)).

Every function takes *weights* (class weights per branch), so the same code serves unit
weights, ``sample_weight`` and the fractional weights of missing values. The private functions
are the same formulas for many tables at once, as the level-wise grower of
:class:`~prml14.trees.c45_estimators.C45Classifier` needs them: (B.26) over a stack of tables,
and the best cut of every (node, attribute) segment of a level (``_best_cuts``).
"""

from __future__ import annotations

import numpy as np
from scipy.special import xlogy

from .._equations import implements
from .._validation import as_float, check_number
from .impurities import cross_entropy_impurity

__all__ = [
    "entropy",
    "information_gain",
    "intrinsic_value",
    "gain_ratio",
    "missing_value_gain",
    "fractional_weights",
]


def _weights(a, name, ndim):
    a = as_float(a, name, non_negative=True)  # finite reals: no complex values, no strings
    if a.ndim != ndim:
        raise ValueError(f"{name} must be a {ndim}-D array, got shape {a.shape}")
    return a


def _proportions(counts):
    """Rows of ``counts`` divided by their sums (rows of zero weight: zeros)."""
    total = counts.sum(axis=-1, keepdims=True)
    return np.divide(counts, total, out=np.zeros_like(counts), where=total > 0)


def _entropy_bits(counts):
    """Ent in bits of every row of ``counts`` (unchecked; rows of zero weight: 0), for the
    estimator's loops over nodes and cuts."""
    p = _proportions(counts)
    return -xlogy(p, p).sum(axis=-1) / np.log(2.0) + 0.0


def _table_gains(tables, missing):
    """ρ · Gain(D̃, a) of (B.26) in bits of a stack of split tables, unchecked: ``tables`` of
    shape (..., V, K) (the (V, K) class weights of D̃ of every split), ``missing`` of shape
    (...) (the weight M whose value is missing); 0 where no value is known."""
    N_v = tables.sum(axis=-1)
    known = N_v.sum(axis=-1)
    share = np.divide(N_v, known[..., None], out=np.zeros_like(N_v), where=known[..., None] > 0)
    # a stack of dot products (np.dot's rounding: exactly equal gains of different attributes
    # are told apart as by a node-by-node np.dot, so ties fall as they always did)
    weighted = np.matmul(share[..., None, :], _entropy_bits(tables)[..., :, None])[..., 0, 0]
    gain = _entropy_bits(tables.sum(axis=-2)) - weighted
    rho = np.divide(known, known + missing, out=np.zeros_like(known), where=known > 0)
    return rho * gain


def _entropy_columns(counts):
    """Ent in bits of every column of ``counts`` (classes along axis 0), unchecked: the sums
    over the classes are then sums of K rows, the fast layout for many short tables."""
    total = counts.sum(axis=0)
    p = np.divide(counts, total, out=np.zeros_like(counts), where=total > 0)
    return -xlogy(p, p).sum(axis=0) / np.log(2.0) + 0.0


def _segment_cumsum(a, starts, lengths, short=64):
    """Cumulative sums along axis 1 of ``a`` (classes along axis 0) restarted at every segment
    (columns ``starts[s]`` to ``starts[s] + lengths[s] - 1``), unchecked.

    Each segment is summed from its own first column, exactly as ``np.cumsum`` of the segment
    alone: a running total over all segments minus its value at a segment's start would carry
    the rounding of all earlier segments (of order 1e-16 times the level's whole weight) into
    every small node, enough to turn a zero gain into a positive one. Segments longer than
    ``short`` are summed one ``np.cumsum`` each (at most n/short calls); the short ones are
    padded with zeros to the next power of two of their length and summed as the rows of one
    block per length class (at most twice their size)."""
    out = np.empty_like(a)
    long = lengths > short
    for start, length in zip(starts[long].tolist(), lengths[long].tolist(), strict=True):
        part = slice(start, start + length)
        np.cumsum(a[:, part], axis=1, out=out[:, part])
    starts, lengths = starts[~long], lengths[~long]
    length_class = np.ceil(np.log2(np.maximum(lengths, 1))).astype(np.intp)
    for c in np.unique(length_class):
        sel = length_class == c
        offsets = np.arange(1 << int(c))
        inside = offsets[None, :] < lengths[sel, None]
        cols = (starts[sel, None] + offsets[None, :])[inside]
        block = np.zeros((a.shape[0], *inside.shape))
        block[:, inside] = a[:, cols]
        out[:, cols] = np.cumsum(block, axis=2)[:, inside]
    return out


def _first_best_cuts(segment, lo, hi, L, T, min_leaf):
    """Among candidate cuts (sorted by ``segment``, then by value), the cut of largest
    information gain (B.23) of every segment that leaves at least ``min_leaf`` weight on each
    side: the first one among equal gains (the smallest values on the left), as ``np.argmax``
    picks it. ``lo``/``hi``: the ranks of the values either side of the cut; ``L``/``T`` of
    shape (n_classes, n_cuts): the class weights left of the cut and in the whole segment."""
    if segment.size == 0:
        return segment, lo, hi, np.zeros((0, 2, L.shape[0]))
    R = T - L
    WL, WR, W = L.sum(axis=0), R.sum(axis=0), T.sum(axis=0)
    first = np.flatnonzero(np.r_[True, segment[1:] != segment[:-1]])
    size = np.diff(np.r_[first, segment.size])
    parent = np.repeat(_entropy_columns(T[:, first]), size)  # Ent(D̃) once per segment
    gains = parent - (WL / W) * _entropy_columns(L) - (WR / W) * _entropy_columns(R)
    gains[(WL < min_leaf) | (WR < min_leaf)] = -np.inf
    best = np.repeat(np.maximum.reduceat(gains, first), size)
    at_best = np.flatnonzero((gains == best) & (best > -np.inf))
    first_of_segment = np.ones(at_best.size, dtype=bool)
    first_of_segment[1:] = segment[at_best[1:]] != segment[at_best[:-1]]
    win = at_best[first_of_segment]
    return segment[win], lo[win], hi[win], np.stack([L[:, win].T, R[:, win].T], axis=1)


def _best_cuts(node, rank, y, w, n_nodes, n_values, n_classes, min_leaf):
    """The cut of largest information gain of every continuous attribute at every node of a
    level: the cut search of C4.5 for all (node, attribute) pairs at once, unchecked.

    Point i of the level sits in node ``node[i]`` with class ``y[i]`` and weight ``w[i]``;
    ``rank[f, i]`` is the rank of its value of attribute f among that attribute's training
    values (``n_values``: missing). A (node, attribute) pair is a segment ``node * F + f``; a
    cut lies between two neighbouring values present in a segment. Where a table of (class,
    segment, value) has at most four entries per point and attribute (few distinct values, as
    in data with ties), the class weights are summed into that table by one ``bincount`` and
    cumulated along the values; otherwise the known values are sorted by (segment, rank) and
    their class weights cumulated per segment (:func:`_segment_cumsum`). Either way every
    segment's sums start from zero at its first value.

    Returns
    -------
    segments : ndarray of int
        The segments that have a valid cut (increasing).
    lo, hi : ndarray of int
        The ranks of the values either side of each segment's best cut.
    tables : ndarray of shape (n_segments_with_a_cut, 2, n_classes)
        The class weights left and right of the best cut.
    known : ndarray of shape (n_nodes, F)
        The weight of the points whose value is known, per node and attribute.
    """
    F, V, K = rank.shape[0], n_values, n_classes
    S = n_nodes * F
    if S * V <= 4 * rank.size:
        # the flat index of (class, segment, value) in the table, point by point (attribute
        # by attribute: loops over the points, the long axis)
        key = rank + (np.arange(F, dtype=np.intp) * (V + 1))[:, None]
        key += (y * S + node * F) * (V + 1)
        hist = np.bincount(key.ravel(), np.tile(w, F), K * S * (V + 1)).reshape(K, S, V + 1)
        cum = np.cumsum(hist[:, :, :V], axis=2)
        present = hist[:, :, :V].sum(axis=0) > 0
        at = np.where(present, np.arange(V), V)  # the next present value after each value:
        nxt = np.minimum.accumulate(at[:, :0:-1], axis=1)[:, ::-1]
        nxt = np.concatenate([nxt, np.full((S, 1), V)], axis=1)
        seg, lo = np.nonzero(present & (nxt < V))
        T = cum[:, :, -1]
        cuts = _first_best_cuts(seg, lo, nxt[seg, lo], cum[:, seg, lo], T[:, seg], min_leaf)
        return (*cuts, T.sum(axis=0).reshape(n_nodes, F))
    known = rank < V
    segment = np.arange(F)[:, None] + node * F
    segment, rank = segment[known], rank[known]  # within a segment: the points' order
    y, w = np.tile(y, F)[known.ravel()], np.tile(w, F)[known.ravel()]
    order = _stable_order(segment, rank)
    segment, rank, y, w = segment[order], rank[order], y[order], w[order]
    n = segment.size
    onehot = np.zeros((K, n))
    onehot[y, np.arange(n)] = w
    starts = np.flatnonzero(np.r_[True, segment[1:] != segment[:-1]])
    lengths = np.diff(np.r_[starts, n])
    left = _segment_cumsum(onehot, starts, lengths)
    total_at = np.repeat(starts + lengths - 1, lengths)  # the segment's last column
    cut = np.flatnonzero((segment[1:] == segment[:-1]) & (rank[1:] > rank[:-1]))
    cuts = _first_best_cuts(
        segment[cut], rank[cut], rank[cut + 1], left[:, cut], left[:, total_at[cut]], min_leaf
    )
    return (*cuts, np.bincount(segment, w, S).reshape(n_nodes, F))


def _stable_order(major, minor):
    """The permutation that sorts by (major, minor), ties kept in their order: two stable
    sorts, least significant key first (numpy's radix sort when a key fits in 16 bits)."""

    def small(a):
        return a.astype(np.uint16) if a.size and a.max() < 1 << 16 else a

    first = np.argsort(small(minor), kind="stable")
    return first[np.argsort(small(major[first]), kind="stable")]


@implements("B.22")
def entropy(class_weights, base=2.0):
    """The entropy Ent(D) = −Σ_k p_k log_b p_k of the class proportions, (B.22).

    It is the cross-entropy impurity (14.32) (in nats, computed by
    :func:`prml14.trees.impurities.cross_entropy_impurity`) divided by ln b: bits for b = 2
    (ID3 and C4.5), nats for b = e. A set of zero weight has entropy 0.

    Parameters
    ----------
    class_weights : array-like of shape (..., n_classes)
        The weight of each class in each set (counts for unit weights).
    base : float > 1, default=2.0
        The base b of the logarithm.

    Returns
    -------
    ndarray of shape (...)
        Ent of each set.

    Raises
    ------
    TypeError
        If base is not a real number.
    ValueError
        If class_weights is not a finite non-negative real array with a non-empty last axis, or
        base is not a finite number > 1.
    """
    counts = as_float(class_weights, "class_weights", allow_inf=True)
    if counts.ndim == 0 or np.any(counts < 0) or not np.all(np.isfinite(counts)):
        raise ValueError("class_weights must be an array of finite non-negative weights")
    if counts.shape[-1] == 0:
        raise ValueError("class_weights must have at least one class (a non-empty last axis)")
    check_number(base, "base", low=1.0, closed="neither")
    p = _proportions(counts)
    empty = counts.sum(axis=-1) == 0
    p[empty] = np.eye(counts.shape[-1])[0]  # a pure stand-in: entropy 0
    return cross_entropy_impurity(p) / np.log(base) + 0.0  # + 0.0: no -0.0 for pure sets


@implements("B.23")
def information_gain(branch_class_weights, base=2.0):
    """Gain(D, a) = Ent(D) − Σ_v (N^v/N) Ent(D^v), (B.23).

    Parameters
    ----------
    branch_class_weights : array-like of shape (n_branches, n_classes)
        Row v: the class weights of D^v. Their column sums are the class weights of D.
    base : float > 1, default=2.0
        The base of the logarithm (2: bits).

    Returns
    -------
    float
        The information gain of the split.

    Raises
    ------
    TypeError
        If base is not a real number.
    ValueError
        If branch_class_weights is not a finite non-negative real 2-D array with a positive total,
        or base is not a finite number > 1.
    """
    counts = _weights(branch_class_weights, "branch_class_weights", 2)
    N_v = counts.sum(axis=1)
    N = N_v.sum()
    if not N > 0:
        raise ValueError("branch_class_weights must have a positive total weight")
    return float(entropy(counts.sum(axis=0), base) - np.dot(N_v / N, entropy(counts, base)))


@implements("B.24")
def intrinsic_value(branch_weights, base=2.0):
    """IV(a) = −Σ_v (N^v/N) log₂(N^v/N), (B.24): the entropy of the split itself.

    Branches of zero weight add nothing (0 log 0 = 0).

    Parameters
    ----------
    branch_weights : array-like of shape (n_branches,)
        The weight N^v of every branch.
    base : float > 1, default=2.0
        The base of the logarithm (2: bits).

    Returns
    -------
    float
        The intrinsic value of the split.

    Raises
    ------
    TypeError
        If base is not a real number.
    ValueError
        If branch_weights is not a finite non-negative real 1-D array with a positive total, or
        base is not a finite number > 1.
    """
    w = _weights(branch_weights, "branch_weights", 1)
    if not w.sum() > 0:
        raise ValueError("branch_weights must have a positive total weight")
    return float(entropy(w, base))


@implements("B.25")
def gain_ratio(gain, iv):
    """The gain ratio Gain(D, a)/IV(a), (B.25); 0 where IV(a) = 0 (a split with one branch).

    Parameters
    ----------
    gain : float or ndarray
        Information gains (B.23) (or their missing-value form (B.26)).
    iv : float or ndarray
        Intrinsic values (B.24) of the same splits.

    Returns
    -------
    float or ndarray
        The gain ratios.

    Raises
    ------
    ValueError
        If gain or iv is not a real number (or array) or holds NaN, or iv is negative.
    """
    gain, iv = as_float(gain, "gain", allow_inf=True), as_float(iv, "iv", allow_inf=True)
    if np.any(iv < 0):
        raise ValueError("iv must be non-negative")
    out = np.divide(gain, iv, out=np.zeros(np.broadcast(gain, iv).shape), where=iv > 0)
    return out if out.ndim else float(out)


@implements("B.26")
def missing_value_gain(branch_class_weights, missing_weight, base=2.0):
    """C4.5's gain with missing values, Gain(D, a) = ρ · Gain(D̃, a), (B.26).

    D̃ holds the points whose value of a is known, ρ = Ñ/(Ñ + M) its share of the weight, with M
    the weight of the points whose value is missing.

    Parameters
    ----------
    branch_class_weights : array-like of shape (n_branches, n_classes)
        The class weights of D̃^v, the points of D̃ with the v-th value of a.
    missing_weight : float >= 0
        M, the total weight of the points of D whose value of a is missing.
    base : float > 1, default=2.0
        The base of the logarithm (2: bits).

    Returns
    -------
    float
        ρ · Gain(D̃, a); 0 if no value is known.

    Raises
    ------
    TypeError
        If ``missing_weight`` is not a real number.
    ValueError
        If ``branch_class_weights`` is not a 2-D array of finite non-negative weights,
        ``missing_weight`` is negative or not finite, or (some value being known) base ≤ 1.
    """
    counts = _weights(branch_class_weights, "branch_class_weights", 2)
    missing_weight = check_number(missing_weight, "missing_weight", low=0.0)
    if not np.isfinite(missing_weight):
        raise ValueError(f"missing_weight must be finite and >= 0, got {missing_weight!r}")
    known = counts.sum()
    if known == 0:
        return 0.0
    rho = known / (known + missing_weight)
    return float(rho * information_gain(counts, base))


@implements("B.27")
def fractional_weights(missing_weights, branch_weights):
    """The weights w · r̃_v with which points of missing value go down branch v, (B.27).

    r̃_v = Ñ^v/Ñ is the share of branch v in the weight of the points whose value is known, so
    every point's fractional weights sum to its weight.

    Parameters
    ----------
    missing_weights : array-like of shape (n_missing,)
        The weights w of the points whose value is missing.
    branch_weights : array-like of shape (n_branches,)
        Ñ^v, the weight of the known points of every branch (positive sum).

    Returns
    -------
    ndarray of shape (n_missing, n_branches)
        w_n · r̃_v.

    Raises
    ------
    ValueError
        If missing_weights or branch_weights is not a finite non-negative real 1-D array, or
        branch_weights has no positive total.
    """
    w = _weights(missing_weights, "missing_weights", 1)
    b = _weights(branch_weights, "branch_weights", 1)
    if not b.sum() > 0:
        raise ValueError("branch_weights must have a positive total weight")
    return w[:, None] * (b / b.sum())[None, :]
