"""ID3 and C4.5 decision trees with multiway categorical splits and C4.5's missing values:
:class:`C45Classifier` and the fitted :class:`MultiwayTree` (book pages B.7 and B.8).

Why a separate estimator rather than more options of
:class:`prml14.trees.DecisionTreeClassifier`: the shared engine
(:func:`prml14.trees.growing.grow_tree`) grows *binary* trees level by level, every node a
contiguous segment of presorted feature orders, with one threshold per node and each sample in
exactly one node of a level. C4.5 breaks all three: a categorical attribute splits a node into
as many branches as it has values, and a point whose value is missing goes down *every* branch
with a fractional weight, so that a sample sits in several nodes of one level and node weights
are no longer sums over a partition. Bending the engine to that would slow and complicate every
CART tree, forest and booster grown through it; C4.5 also chooses attributes by a rule (the
gain ratio among attributes of above-average gain) that compares scores *across* attributes
rather than cut by cut. Here the tree has its own grower, level by level like the engine but
on (sample, node, weight) entries, so that a point whose value was missing sits in several
nodes of a level with its fractional weights (B.27). All nodes of a level are scored at once:
the continuous attributes of all nodes by one table of class weights per (node, attribute,
value) (one ``bincount``; or, for attributes with many distinct values, one stable sort and
sums per (node, attribute) segment), their best cuts, gains (B.26) and split information
(B.24) by segment reductions, the average-gain rule per node by row reductions. What stays a
loop: the levels, the categorical attributes (each vectorised over the nodes; their tables
differ in width) and, in the sort, the few segments longer than 64 values. The tree is then
renumbered depth-first, branch 0 first, as a node-by-node recursion would number it; a test
checks it against such a recursion written from the tagged functions of
:mod:`prml14.trees.c45`. ID3 is the option ``criterion="information_gain"``.

Choices (documented, tested): a categorical value never seen in training raises a ValueError at
prediction (``handle_unknown="error"``) or is treated as missing (``"missing"``); a feature with
no observed value in the training data raises a ValueError; a branch that receives no training
weight becomes a leaf predicting its parent's class proportions. The defaults follow Quinlan's
program (release 8): at least two branches with ``min_samples_leaf=2`` (``-m 2``); the average
gain over every attribute with a valid split (zero gain included), leaving out categorical
attributes with at least 0.3·N values unless all are (``many_valued_fraction=0.3``); the split
information (B.24) with the points of unknown value as one more outcome
(``unknown_outcome=True``); a continuous cut reported as the largest training value not above
the midpoint of the best cut; pessimistic pruning at CF = 25 % (:mod:`prml14.trees.pessimistic`,
``pruning="pessimistic"``), without subtree raising. Not reproduced: release 8's penalty of
log₂(n − 1)/N on the gain of a continuous cut, its minimum size of a cut's branches that grows
with the node (up to 25 cases), the grouping of categorical values (``-s``), subtree raising,
and the collapse of a branch that makes no fewer training errors than its root as a leaf.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, _fit_context
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import _check_sample_weight, check_is_fitted, validate_data

from .._validation import check_sample_weight
from .c45 import _best_cuts, _entropy_bits, _table_gains, gain_ratio
from .pessimistic import pessimistic_subtree

__all__ = ["MultiwayTree", "C45Classifier"]

_TINY = 1e-12


@dataclass
class MultiwayTree:
    """A fitted C4.5/ID3 tree stored as parallel arrays (node 0 is the root).

    Parameters
    ----------
    feature : ndarray of int of shape (n_nodes,)
        The attribute tested at each node (-2 for leaves).
    threshold : ndarray of float of shape (n_nodes,)
        The cut of a continuous attribute (branch 0: ``x <= threshold``, branch 1: above);
        NaN for categorical nodes and leaves.
    children : list of ndarray of int
        The children of each node in branch order (empty for leaves). For a categorical node,
        branch v is the v-th value in ``categories_[feature]`` of the estimator.
    branch_fraction : list of ndarray of float
        r̃_v of every branch (B.27): its share of the training weight whose value was known;
        a point whose value is missing goes down branch v with its weight times r̃_v.
    value : ndarray of shape (n_nodes, n_classes)
        The weighted class proportions of the training points in each node.
    weighted_n_node_samples : ndarray of shape (n_nodes,)
        The training weight in each node (fractional weights included).
    depth : ndarray of int of shape (n_nodes,)
        The depth of each node.
    gain : ndarray of shape (n_nodes, n_features)
        Gain(D, a) of every attribute at every inner node, ρ · Gain(D̃, a) (B.26) (NaN where
        the attribute had no valid split, and for leaves).
    iv : ndarray of shape (n_nodes, n_features)
        The split information (B.24) of the same splits (with the missing weight as one more
        outcome when the estimator's ``unknown_outcome`` is True).
    """

    feature: np.ndarray
    threshold: np.ndarray
    children: list
    branch_fraction: list
    value: np.ndarray
    weighted_n_node_samples: np.ndarray
    depth: np.ndarray
    gain: np.ndarray
    iv: np.ndarray

    @property
    def node_count(self):
        """The number of nodes."""
        return len(self.feature)

    @property
    def is_leaf(self):
        """A mask of the leaves."""
        return self.feature < 0

    @property
    def n_leaves(self):
        """The number of leaves."""
        return int(np.count_nonzero(self.is_leaf))

    @property
    def max_depth(self):
        """The depth of the deepest leaf."""
        return int(self.depth.max())

    def subtree(self, keep_as_leaf):
        """The pruned tree in which the nodes flagged in ``keep_as_leaf`` become leaves.

        Parameters
        ----------
        keep_as_leaf : array-like of bool of shape (n_nodes,)
            The nodes to collapse into leaves.

        Returns
        -------
        MultiwayTree
            The pruned tree, its nodes renumbered in the same depth-first order.
        """
        collapse = np.asarray(keep_as_leaf, dtype=bool) | self.is_leaf
        keep, stack = [], [0]
        while stack:  # depth-first, branch 0 first: the order the tree was grown in
            t = stack.pop()
            keep.append(t)
            if not collapse[t]:
                stack.extend(self.children[t][::-1].tolist())
        keep = np.array(keep)
        new_id = np.full(self.node_count, -1, dtype=np.intp)
        new_id[keep] = np.arange(keep.size)
        leaf = collapse[keep]
        nan_rows = np.full((keep.size, self.gain.shape[1]), np.nan)
        return MultiwayTree(
            feature=np.where(leaf, -2, self.feature[keep]),
            threshold=np.where(leaf, np.nan, self.threshold[keep]),
            children=[
                np.empty(0, np.intp) if lf else new_id[self.children[t]]
                for t, lf in zip(keep, leaf, strict=True)
            ],
            branch_fraction=[
                np.empty(0) if lf else self.branch_fraction[t]
                for t, lf in zip(keep, leaf, strict=True)
            ],
            value=self.value[keep],
            weighted_n_node_samples=self.weighted_n_node_samples[keep],
            depth=self.depth[keep],
            gain=np.where(leaf[:, None], nan_rows, self.gain[keep]),
            iv=np.where(leaf[:, None], nan_rows, self.iv[keep]),
        )


def _depth_first(levels, children, D):
    """The tree of the breadth-first ``levels`` renumbered depth-first, branch 0 first (the
    order of the node-by-node recursion, which children-after-parents code relies on)."""
    cat = [np.concatenate(a) for a in zip(*(lv[:6] for lv in levels), strict=True)]
    value, weight, feature, threshold, gain, iv = cat
    fractions = [f for lv in levels for f in lv[6]]
    depth = np.concatenate([np.full(lv[0].shape[0], lv[7]) for lv in levels])
    order, stack = [], [0]
    while stack:
        t = stack.pop()
        order.append(t)
        stack.extend(children[t][::-1].tolist())
    order = np.asarray(order)
    new_id = np.empty_like(order)
    new_id[order] = np.arange(order.size)
    return MultiwayTree(
        feature=feature[order].astype(np.intp),
        threshold=threshold[order],
        children=[new_id[children[t]].astype(np.intp) for t in order],
        branch_fraction=[fractions[t] for t in order],
        value=value[order],
        weighted_n_node_samples=weight[order],
        depth=depth[order].astype(np.intp),
        gain=gain[order],
        iv=iv[order],
    )


class C45Classifier(ClassifierMixin, BaseEstimator):
    """A C4.5 (or ID3) decision tree with C4.5's fractional weights and pessimistic pruning.

    Categorical attributes get multiway splits, continuous ones binary cuts. At every node each
    attribute a is scored by Gain(D, a) = ρ · Gain(D̃, a) (B.26), the information gain (B.23)
    of the points whose value of a is known times their share ρ of the weight. ID3
    (``criterion="information_gain"``) splits on the attribute of largest gain; C4.5
    (``"gain_ratio"``) takes, among the attributes whose gain is at least the average gain, the
    one of largest gain ratio (B.25). The average runs over every attribute with a valid split,
    zero gains included, but without the categorical attributes that have at least
    ``many_valued_fraction`` · N values (N: the number of training rows), unless every
    attribute is one of them: Quinlan's program. A categorical attribute makes one branch per
    value seen in training; a continuous one is cut in two at its cut of largest gain, and may
    be cut again further down; the threshold kept is the largest training value of the
    attribute not above the midpoint of that cut (C4.5 reports a value that occurs in the
    data), which splits the training points exactly as the midpoint does. A point whose value
    of the chosen attribute is missing goes down every branch v with its weight times r̃_v
    (B.27); at prediction such a point's class probabilities are the r̃-weighted sum of the
    branches' predictions. The grown tree is then pruned by C4.5's pessimistic rule (B.42):
    bottom-up, a branch becomes a leaf when the leaf's predicted errors N · U_CF(E, N) (B.41)
    do not exceed those of the branch's leaves (no subtree raising).

    Parameters
    ----------
    criterion : {"gain_ratio", "information_gain"}, default="gain_ratio"
        C4.5's heuristic or ID3's largest information gain.
    categorical_features : array-like of int or of bool, or None, default=None
        The categorical columns of X (indices, or a mask of length n_features); None: all
        columns are continuous. Their values are category codes (any floats; NaN: missing).
    max_depth : int >= 1 or None, default=None
        The largest depth of a leaf.
    min_samples_split : float >= 0, default=2.0
        A node whose training weight is below this value is not split.
    min_samples_leaf : float > 0, default=2.0
        A split is valid only if at least two of its branches (both, for a continuous cut)
        receive this much weight of known values (C4.5's ``-m 2``).
    handle_unknown : {"error", "missing"}, default="error"
        A categorical value never seen in training raises a ValueError at prediction, or is
        treated as missing.
    unknown_outcome : bool, default=True
        Compute the split information (B.24) of the gain ratio with the weight of the points
        whose value is missing as one more outcome, −Σ_v (N^v/N) log₂(N^v/N) − (M/N) log₂(M/N)
        (Quinlan's program); False: over the known points only, −Σ_v r̃_v log₂ r̃_v. Without
        missing values the two agree.
    many_valued_fraction : float in (0, 1] or None, default=0.3
        Categorical attributes with at least this fraction of N values do not count in the
        average gain of C4.5's rule (unless every attribute does); None: every attribute with
        a valid split counts (the textbook rule). Ignored by ID3.
    pruning : {"pessimistic"} or None, default="pessimistic"
        C4.5's pessimistic pruning (B.42) of the grown tree, or None for the unpruned tree.
    confidence_factor : float in (0, 1), default=0.25
        CF of (B.41) (C4.5's ``-c 25``); smaller values prune more. Sample weights count as
        numbers of cases.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        The class labels.
    tree_ : MultiwayTree
        The fitted (pruned) tree.
    categories_ : list of ndarray or None
        For each column, the sorted categories seen in training (None for continuous columns).
    is_categorical_ : ndarray of bool of shape (n_features,)
        Which columns are categorical.
    n_features_in_ : int
        The number of input features.
    """

    _parameter_constraints = {
        "criterion": [StrOptions({"gain_ratio", "information_gain"})],
        "categorical_features": ["array-like", None],
        "max_depth": [Interval(numbers.Integral, 1, None, closed="left"), None],
        "min_samples_split": [Interval(numbers.Real, 0.0, None, closed="left")],
        "min_samples_leaf": [Interval(numbers.Real, 0.0, None, closed="neither")],
        "handle_unknown": [StrOptions({"error", "missing"})],
        "unknown_outcome": ["boolean"],
        "many_valued_fraction": [Interval(numbers.Real, 0.0, 1.0, closed="right"), None],
        "pruning": [StrOptions({"pessimistic"}), None],
        "confidence_factor": [Interval(numbers.Real, 0.0, 1.0, closed="neither")],
    }

    def __init__(
        self,
        *,
        criterion="gain_ratio",
        categorical_features=None,
        max_depth=None,
        min_samples_split=2.0,
        min_samples_leaf=2.0,
        handle_unknown="error",
        unknown_outcome=True,
        many_valued_fraction=0.3,
        pruning="pessimistic",
        confidence_factor=0.25,
    ):
        self.criterion = criterion
        self.categorical_features = categorical_features
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.handle_unknown = handle_unknown
        self.unknown_outcome = unknown_outcome
        self.many_valued_fraction = many_valued_fraction
        self.pruning = pruning
        self.confidence_factor = confidence_factor

    def _categorical_mask(self, D):
        cf = self.categorical_features
        mask = np.zeros(D, dtype=bool)
        if cf is None:
            return mask
        cf = np.asarray(cf)
        if cf.dtype == bool:
            if cf.shape != (D,):
                raise ValueError(
                    f"categorical_features as a mask must have length n_features = {D}, "
                    f"got shape {cf.shape}"
                )
            return cf.copy()
        if cf.ndim != 1 or (cf.size and not np.issubdtype(cf.dtype, np.integer)):
            raise ValueError("categorical_features must be None, a boolean mask or indices")
        if np.any((cf < 0) | (cf >= D)):
            raise ValueError(f"categorical_features indices must be in [0, {D}), got {cf}")
        mask[cf.astype(np.intp)] = True  # an empty list arrives as an empty float array
        return mask

    def _codes(self, X):
        """Category codes of the categorical columns (-1: missing; -2: unseen)."""
        codes = np.full(X.shape, -1, dtype=np.intp)
        for j in np.flatnonzero(self.is_categorical_):
            x, cats = X[:, j], self.categories_[j]
            known = ~np.isnan(x)
            pos = np.minimum(np.searchsorted(cats, x[known]), cats.size - 1)
            c = np.where(cats[pos] == x[known], pos, -2)
            codes[known, j] = c
        return codes

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y, sample_weight=None):
        """Grow the tree on (X, y); NaN in X marks a missing value.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Inputs (categorical columns hold category codes); NaN: missing.
        y : array-like of shape (n_samples,)
            Class labels.
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative weights (unit weights if None); rows of zero weight are ignored.

        Returns
        -------
        self
            The fitted estimator.

        Raises
        ------
        ValueError
            If X is empty, not 2-D, not numeric, complex, or holds ±inf (NaN is a missing value);
            sample_weight is negative, NaN, all zero, beyond 1e100 in magnitude or not one per
            sample; categorical_features is not None, a boolean mask or feature indices; or a
            hyper-parameter is outside its declared constraints (scikit-learn's
            InvalidParameterError, which is also a TypeError).
        """
        X, y = validate_data(
            self, X, y, dtype=np.float64, order="C", ensure_all_finite="allow-nan"
        )
        check_classification_targets(y)
        w = check_sample_weight(sample_weight, X, dtype=np.float64)
        keep = w > 0
        X, y, w = X[keep], np.asarray(y)[keep], w[keep]
        self.classes_, y_enc = np.unique(y, return_inverse=True)
        N, D = X.shape
        all_missing = np.flatnonzero(np.isnan(X).all(axis=0))
        if all_missing.size:
            raise ValueError(
                f"X has no observed value in feature(s) {all_missing.tolist()}: every value "
                "is missing (NaN); drop these columns"
            )
        self.is_categorical_ = self._categorical_mask(D)
        self.categories_ = [
            np.unique(X[~np.isnan(X[:, j]), j]) if self.is_categorical_[j] else None
            for j in range(D)
        ]
        values = [
            None if c else np.unique(X[~np.isnan(X[:, j]), j])
            for j, c in enumerate(self.is_categorical_)
        ]
        tree = self._grow(X, self._codes(X), y_enc, w, values)
        if self.pruning == "pessimistic":
            tree, _ = pessimistic_subtree(tree, self.confidence_factor)  # (B.42)
        self.tree_ = tree
        return self

    def _score_level(self, codes, ranks, n_values, values, values_flat, y, entries, n_nodes, K):
        """Gain (B.26), IV (B.24) and the split of every attribute at every node of a level.

        ``entries`` = (sample, node, weight) of the points of the nodes to split (a point whose
        value was missing higher up sits in several nodes, with fractional weights). The
        continuous attributes of all nodes are scored together: one stable sort of every known
        value by (attribute, node, value), the class weights cumulated per (attribute, node)
        segment, the best cut of every segment by segment reductions (:func:`_best_cuts`). The
        categorical attributes are a loop over attributes (each vectorised over the nodes): a
        table of class weights per (node, value), whose width differs between attributes.
        """
        s, nd, w = entries
        D = self.is_categorical_.size
        # compared with a relative tolerance: rounding in fractional weights must not decide
        msl = self.min_samples_leaf * (1.0 - 1e-9)
        W = np.bincount(nd, w, n_nodes)
        Wk = np.zeros((n_nodes, D))  # the weight of known values per node and attribute
        missing = np.zeros((n_nodes, D))
        gains, ivs = np.full((n_nodes, D), np.nan), np.full((n_nodes, D), np.nan)
        branch_weights = [None] * D  # per attribute: (n_nodes, V) weights of known values
        threshold = np.full((n_nodes, D), np.nan)

        def record(nodes, j, tables):
            Nv = tables.sum(axis=-1)
            M = missing[nodes, j]
            gains[nodes, j] = _table_gains(tables, M)  # (B.26): ρ · Gain(D̃, a)
            # (B.24), with the missing weight as one more outcome if unknown_outcome
            ivs[nodes, j] = _entropy_bits(np.column_stack([Nv, M]) if self.unknown_outcome else Nv)
            return Nv

        cont = np.flatnonzero(~self.is_categorical_)
        if cont.size:
            F = cont.size
            segs, lo, hi, tables, known = _best_cuts(
                nd, np.take(ranks, s, axis=1), y[s], w, n_nodes, n_values, K, msl
            )
            Wk[:, cont] = known
            missing[:, cont] = np.maximum(W[:, None] - known, 0.0)
            nodes, f = np.divmod(segs, F)
            flat, start = values_flat
            a, b = flat[start[f] + lo], flat[start[f] + hi]
            # C4.5 reports the largest training value not above the midpoint: it lies in
            # [a, midpoint], so it splits the node's points as the midpoint does
            mid = a / 2.0 + b / 2.0
            below = np.empty(f.size, dtype=np.intp)
            for ff in np.unique(f):
                sel = f == ff
                below[sel] = np.searchsorted(values[cont[ff]], mid[sel], side="right") - 1
            thr = flat[start[f] + below]
            threshold[nodes, cont[f]] = np.where(thr >= b, a, thr)
            cut_weights = np.zeros((n_nodes, D, 2))
            cut_weights[nodes, cont[f]] = record(nodes, cont[f], tables)
            for j in cont:
                branch_weights[j] = cut_weights[:, j]
        for j in np.flatnonzero(self.is_categorical_):
            V = self.categories_[j].size
            c = codes[s, j]
            k = c >= 0
            # blocks of nodes keep the (nodes, values, classes) table within 2**22 entries
            step = max(1, (1 << 22) // (V * K))
            for first in range(0, n_nodes, step):
                inb = k & (nd >= first) & (nd < first + step)
                n_b = min(step, n_nodes - first)
                key = ((nd[inb] - first) * V + c[inb]) * K + y[s[inb]]
                table = np.bincount(key, w[inb], n_b * V * K).reshape(n_b, V, K)
                block = slice(first, first + n_b)
                Wk[block, j] = table.sum(axis=(1, 2))
                missing[block, j] = np.maximum(W[block] - Wk[block, j], 0.0)
                valid = (np.count_nonzero(table.sum(axis=2) >= msl, axis=1) >= 2) & (
                    Wk[block, j] > 0
                )
                if branch_weights[j] is None:
                    branch_weights[j] = np.zeros((n_nodes, V))
                nodes = first + np.flatnonzero(valid)
                branch_weights[j][nodes] = record(nodes, j, table[valid])
        return gains, ivs, branch_weights, threshold

    def _choose(self, gains, ivs, in_average):
        """The attribute each node of a level splits on (-1: none), from its gains and IVs."""
        valid = ~np.isnan(gains)
        cand = valid & (np.where(valid, gains, 0.0) > _TINY)
        if self.criterion == "information_gain":
            good = cand
            score = np.where(cand, gains, -np.inf)
        else:
            # C4.5: the largest gain ratio among the attributes of at least average gain, the
            # average over every valid split (zero gains too) but the many-valued attributes
            counted = valid & in_average
            n = counted.sum(axis=1)
            total = np.where(counted, gains, 0.0).sum(axis=1)
            average = np.divide(total, n, out=np.zeros_like(total), where=n > 0)
            good = cand & (gains >= average[:, None] - _TINY) & (ivs > _TINY)
            score = np.where(
                good, gain_ratio(np.where(good, gains, 0.0), np.where(good, ivs, 1.0)), -np.inf
            )
        return np.where(good.any(axis=1), np.argmax(score, axis=1), -1)

    def _grow(self, X, codes, y, w, values):
        """Grow the tree level by level; return it numbered depth-first, branch 0 first.

        A level is a set of entries (sample, node, weight): every node's points, in the order
        in which the node-by-node recursion would hold them (a child: its parent's points of
        known value that take the branch, then its parent's points of missing value). Scoring
        is vectorised over the nodes of the level (:meth:`_score_level`); what stays a loop is
        the loop over levels, over the categorical attributes and over the length classes of
        the segmented sums. Routing a point of missing value down every branch with its
        fractional weight (B.27) is vectorised too: each such point is repeated once per branch
        of its node.
        """
        K, (N, D) = self.classes_.size, X.shape
        in_average = np.ones(D, dtype=bool)  # Quinlan: many-valued attributes are left out
        if self.many_valued_fraction is not None:
            n_values = np.array([c.size if c is not None else 0 for c in self.categories_])
            many = self.is_categorical_ & (n_values >= self.many_valued_fraction * N)
            if not many.all():
                in_average = ~many
        max_depth = np.inf if self.max_depth is None else self.max_depth
        cont = np.flatnonzero(~self.is_categorical_)
        n_values = max((values[j].size for j in cont), default=0)
        # rank of every continuous value among the attribute's training values; n_values: NaN
        small = np.int16 if n_values < 1 << 15 else np.int32 if n_values < 1 << 31 else np.intp
        ranks = np.full((cont.size, N), n_values, dtype=small)  # small: fewer bytes to gather
        sizes = np.array([values[j].size for j in cont], dtype=np.intp)
        values_flat = (
            np.concatenate([values[j] for j in cont]) if cont.size else None,
            np.cumsum(sizes) - sizes,
        )
        for f, j in enumerate(cont):
            known = ~np.isnan(X[:, j])
            ranks[f, known] = np.searchsorted(values[j], X[known, j])
        levels = []  # per level: value, weight, feature, threshold, gain, iv, fractions
        children = []  # per node (breadth-first): its children's breadth-first ids
        s, nd, wt = np.arange(N), np.zeros(N, dtype=np.intp), w
        n_nodes, parent_value, depth, first_id = 1, None, 0, 0
        while n_nodes:
            counts = np.bincount(nd * K + y[s], wt, n_nodes * K).reshape(n_nodes, K)
            W = counts.sum(axis=1)
            value = np.divide(counts, W[:, None], out=np.zeros_like(counts), where=W[:, None] > 0)
            if parent_value is not None:
                value[W <= 0] = parent_value[W <= 0]
            grow = (W > 0) & (depth < max_depth) & (W >= self.min_samples_split)
            grow[grow] = _entropy_bits(counts[grow]) > _TINY
            gains, ivs = np.full((n_nodes, D), np.nan), np.full((n_nodes, D), np.nan)
            feature, threshold = np.full(n_nodes, -2), np.full(n_nodes, np.nan)
            fractions = [np.empty(0)] * n_nodes
            n_branches = np.zeros(n_nodes, dtype=np.intp)
            act = np.flatnonzero(grow)
            if act.size:
                local = np.full(n_nodes, -1)
                local[act] = np.arange(act.size)
                keep = grow[nd]
                entries = (s[keep], local[nd[keep]], wt[keep])
                g, iv, Nv, thr = self._score_level(
                    codes, ranks, n_values, values, values_flat, y, entries, act.size, K
                )
                gains[act], ivs[act] = g, iv
                j = self._choose(g, iv, in_average)
                for t in np.flatnonzero(j >= 0):
                    b = Nv[j[t]][t]
                    node = act[t]
                    feature[node], threshold[node] = j[t], thr[t, j[t]]
                    fractions[node] = b / b.sum()  # r̃_v of (B.27)
                    n_branches[node] = b.size
            levels.append((value, W, feature, threshold, gains, ivs, fractions, depth))
            child_start = np.cumsum(n_branches) - n_branches
            next_first = first_id + n_nodes
            children.extend(
                next_first + child_start[t] + np.arange(n_branches[t]) for t in range(n_nodes)
            )
            s, nd, wt = self._route(
                X, codes, (s, nd, wt), feature, threshold, fractions, n_branches, child_start
            )
            parent_value = np.repeat(value, n_branches, axis=0)
            first_id, n_nodes, depth = next_first, int(n_branches.sum()), depth + 1
        return _depth_first(levels, children, D)

    def _route(self, X, codes, entries, feature, threshold, fractions, n_branches, start):
        """The entries of the next level: every point of a split node goes to the child of its
        branch; a point whose value is missing goes to every child v with its weight times
        r̃_v (B.27) (kept where that is positive). Ordered by child, then as the node-by-node
        recursion orders a child's points: known values first, each group in the parent's
        order."""
        s, nd, wt = entries
        split = feature[nd] >= 0
        if not split.all():
            s, nd, wt = s[split], nd[split], wt[split]
        flat = s * X.shape[1] + feature[nd]  # X is C-contiguous
        x = X.ravel()[flat]
        miss = np.isnan(x)
        branch = (x > threshold[nd]).astype(np.intp)
        if self.is_categorical_.any():
            cat = self.is_categorical_[feature[nd]]
            branch[cat] = codes.ravel()[flat[cat]]
        k = ~miss
        child_k = start[nd[k]] + branch[k]
        m = np.flatnonzero(miss)
        reps = n_branches[nd[m]]
        m = np.repeat(m, reps)
        v = np.arange(m.size) - np.repeat(np.cumsum(reps) - reps, reps)
        frac = np.concatenate(fractions)[start[nd[m]] + v] if m.size else np.empty(0)
        fw = wt[m] * frac
        pos = fw > 0
        child = np.concatenate([child_k, start[nd[m[pos]]] + v[pos]])
        key = 2 * child + np.repeat([0, 1], [child_k.size, child.size - child_k.size])
        small = key.size and key.max() < 1 << 16  # numpy's radix sort for 16-bit keys
        order = np.argsort(key.astype(np.uint16) if small else key, kind="stable")
        return (
            np.concatenate([s[k], s[m[pos]]])[order],
            child[order],
            np.concatenate([wt[k], fw[pos]])[order],
        )

    def _check_predict_X(self, X):
        check_is_fitted(self)
        X = validate_data(self, X, reset=False, dtype=np.float64, ensure_all_finite="allow-nan")
        codes = self._codes(X)
        unseen = codes == -2
        if np.any(unseen):
            if self.handle_unknown == "error":
                j = int(np.flatnonzero(unseen.any(axis=0))[0])
                bad = np.unique(X[unseen[:, j], j])
                raise ValueError(
                    f"X holds categories never seen in training in feature {j}: "
                    f"{bad.tolist()} (seen: {self.categories_[j].tolist()}); pass "
                    "handle_unknown='missing' to treat them as missing values"
                )
            X = X.copy()
            X[unseen] = np.nan
            codes[unseen] = -1
        return X, codes

    def leaf_weights(self, X):
        """The weight with which each sample reaches each leaf.

        Where a sample's value of a node's attribute is missing, it goes down every branch v
        with its weight times r̃_v (B.27).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Inputs; NaN: missing.

        Returns
        -------
        ndarray of shape (n_samples, n_nodes)
            Entry (n, τ): the weight of sample n in leaf τ (0 for inner nodes); rows sum to 1.
        """
        X, codes = self._check_predict_X(X)
        tree = self.tree_
        out = np.zeros((X.shape[0], tree.node_count))
        stack = [(0, np.arange(X.shape[0]), np.ones(X.shape[0]))]
        while stack:
            node, idx, wt = stack.pop()
            if idx.size == 0:
                continue
            j = tree.feature[node]
            if j < 0:
                out[idx, node] = wt
                continue
            x = X[idx, j]
            missing = np.isnan(x)
            if self.is_categorical_[j]:
                branch = codes[idx, j]
            else:
                branch = (x > tree.threshold[node]).astype(np.intp)
            for v, child in enumerate(tree.children[node]):
                sel = ~missing & (branch == v)
                r = tree.branch_fraction[node][v]
                stack.append(
                    (
                        child,
                        np.concatenate([idx[sel], idx[missing]]),
                        np.concatenate([wt[sel], wt[missing] * r]),
                    )
                )
        return out

    def validation_node_errors(self, X, y, sample_weight=None):
        """E_V(t) of every node: the validation weight its majority class would misclassify.

        A validation point reaches a node with the product of the fractions r̃ of the branches
        it took where its value was missing (1 if none was): that weight counts in E_V(t) when
        the point's class is not the node's majority class (the majority of its *training*
        points). With no missing values it is the number of misclassified points, the cost
        reduced-error pruning (B.28) minimises. With missing values, summed over the leaves of a
        subtree it is the expected number of errors if every point went down one branch at
        random with the probabilities r̃, not the errors of the tree's predictions (which blend
        the leaves a point reaches).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Validation inputs; NaN: missing.
        y : array-like of shape (n_samples,)
            Validation labels (classes seen in training).
        sample_weight : array-like of shape (n_samples,) or None, default=None
            Weights of the validation points.

        Returns
        -------
        ndarray of shape (n_nodes,)
            E_V(t) of every node.
        """
        reach = self.leaf_weights(X)
        y = np.asarray(y)
        idx = np.minimum(np.searchsorted(self.classes_, y), self.classes_.size - 1)
        if y.shape != (reach.shape[0],) or np.any(self.classes_[idx] != y):
            raise ValueError("y must hold one label per row of X, among the training classes")
        w = _check_sample_weight(sample_weight, reach, dtype=np.float64, ensure_non_negative=True)
        tree = self.tree_
        for t in range(tree.node_count - 1, -1, -1):  # children have larger ids than parents
            if tree.children[t].size:
                reach[:, t] = reach[:, tree.children[t]].sum(axis=1)
        wrong = np.argmax(tree.value, axis=1)[None, :] != idx[:, None]
        return (w[:, None] * reach * wrong).sum(axis=0)

    def predict_proba(self, X):
        """Class probabilities: the leaf proportions, weighted by :meth:`leaf_weights`.

        Where a value is missing they are summed over the branches with the fractions r̃_v.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Inputs; NaN: missing.

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
            The class probabilities, in the order of ``classes_``.
        """
        return self.leaf_weights(X) @ self.tree_.value

    def predict(self, X):
        """The class of largest probability.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Inputs; NaN: missing.

        Returns
        -------
        ndarray of shape (n_samples,)
            The predicted labels.
        """
        proba = self.predict_proba(X)
        return self.classes_[np.argmax(proba, axis=1)]

    def export_text(self, feature_names=None, category_names=None, decimals=3):
        """A plain-text drawing of the fitted tree, one node per line.

        Parameters
        ----------
        feature_names : list of str or None, default=None
            Names of the columns (default x0, x1, ...).
        category_names : dict or None, default=None
            For a categorical column j, ``category_names[j]`` lists the names of
            ``categories_[j]`` in order (default: the codes).
        decimals : int, default=3
            Digits of thresholds and weights.

        Returns
        -------
        str
            The drawing.
        """
        check_is_fitted(self)
        tree, D = self.tree_, self.n_features_in_
        names = feature_names if feature_names is not None else [f"x{i}" for i in range(D)]
        if len(names) != D:
            raise ValueError(f"feature_names must have {D} entries, got {len(names)}")
        category_names = category_names or {}
        lines, stack = [], [(0, 0, None)]
        while stack:
            node, d, label = stack.pop()
            if label is not None:
                lines.append("|   " * (d - 1) + "|--- " + label)
            if tree.feature[node] < 0:
                k = int(np.argmax(tree.value[node]))
                lines.append(
                    "|   " * d + f"|--- class: {self.classes_[k]} "
                    f"(weight {tree.weighted_n_node_samples[node]:.{decimals}f})"
                )
                continue
            j = tree.feature[node]
            if self.is_categorical_[j]:
                cats = category_names.get(j, self.categories_[j])
                labels = [f"{names[j]} = {c}" for c in cats]
            else:
                t = tree.threshold[node]
                labels = [f"{names[j]} <= {t:.{decimals}f}", f"{names[j]} >  {t:.{decimals}f}"]
            for child, lab in reversed(list(zip(tree.children[node], labels, strict=True))):
                stack.append((child, d + 1, lab))
        return "\n".join(lines) + "\n"

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True
        return tags
