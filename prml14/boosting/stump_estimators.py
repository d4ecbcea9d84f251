"""Weighted decision stumps: the weak learners of AdaBoost (Section 14.3).

A stump looks at one feature j and one threshold θ and predicts one of two values,

    y(x) = v_left  if x_j ≤ θ,    y(x) = v_right  if x_j > θ,        v ∈ {−1, +1}.

With ``criterion="error"`` (the default) the stump minimises the weighted error (14.15),
J = Σ_n w_n I(y(x_n) ≠ t_n), *exactly* over every feature, every threshold (the midpoints
between consecutive distinct values) and both polarities (v_right = +1 or −1, v_left = −v_right),
and also considers the two constant classifiers. With ``criterion="gini"`` it chooses the split as
scikit-learn's depth-1 ``DecisionTreeClassifier`` does (largest decrease of the weighted Gini
impurity, leaves predicting their weighted majority class) so that it can serve as an oracle.

Speed. The search is vectorised over features and thresholds. Each feature is sorted *once*
(:class:`SortedColumns`); for new weights only one gather and one cumulative sum per feature are
needed: with v_n = w_n t_n and C_i the cumulative sum of v over the i smallest values,

* polarity v_right = +1 misclassifies the positives on the left and the negatives on the right:
  J⁺_i = C_i + W₋ (W₋ the total weight of the negatives);
* polarity v_right = −1 is the complement: J⁻_i = W₊ − C_i.

So the best split of each polarity is the argmin / argmax of C. AdaBoost reuses the same
:class:`SortedColumns` in every round. The cumulative sums are computed in blocks of 16 sorted
positions (15 vectorised adds, then a cumulative sum of the block totals), which is about three
times faster than ``np.cumsum`` along each column; the gini mode uses the same layout.
"""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, _fit_context
from sklearn.utils._param_validation import StrOptions
from sklearn.utils.validation import check_is_fitted, validate_data

from .._equations import implements
from .._validation import binary_targets, check_sample_weight

__all__ = ["DecisionStump", "SortedColumns"]


#: Candidates whose criterion differs by less than this times the total weight count as tied;
#: ties go to the lowest feature index, then the lowest threshold. Without it, rounding noise of
#: the cumulative sums (~1e-17) would decide between exactly tied stumps.
_TIE_TOLERANCE = 1e-13

#: scikit-learn's splitter never cuts between consecutive float32 values this close
#: (``FEATURE_THRESHOLD`` in ``sklearn/tree/_partitioner.pxd``); the gini mode follows it.
_SKLEARN_FEATURE_THRESHOLD = np.float32(1e-7)

#: Block length of the blocked prefix sums used by the error criterion (for N ≥ 64·_BLOCK).
_BLOCK = 16


class SortedColumns:
    """The columns of X sorted once, with candidate thresholds, reused for any weights.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
        Finite inputs.

    Attributes
    ----------
    order : ndarray of shape (n_features, n_samples)
        ``order[j]`` sorts column j.
    thresholds : ndarray of shape (n_features, n_samples - 1)
        Midpoint between consecutive sorted values (computed as a/2 + b/2, like scikit-learn).
    invalid : ndarray of bool of shape (n_features, n_samples - 1) or None
        Positions between tied values, where no threshold separates the points; ``None`` when
        there are no ties at all.
    near_tie : ndarray of bool of shape (n_features, n_samples - 1)
        Positions that scikit-learn's splitter skips: the two values, cast to float32, differ
        by at most 1e-7 (its ``FEATURE_THRESHOLD``). Only the gini mode excludes them.
    """

    def __init__(self, X):
        X = np.asarray(X, dtype=np.float64)
        Xt = np.ascontiguousarray(X.T)
        self.n_samples = X.shape[0]
        self.order = np.argsort(Xt, axis=1, kind="stable")
        xs = np.take_along_axis(Xt, self.order, axis=1)
        lo, hi = xs[:, :-1], xs[:, 1:]
        thresholds = lo / 2.0 + hi / 2.0
        # as scikit-learn: a midpoint that rounds up to the upper value (or overflows) is replaced
        bad = (thresholds == hi) | ~np.isfinite(thresholds)
        thresholds[bad] = lo[bad]
        self.thresholds = thresholds
        invalid = ~(hi > lo)
        self.invalid = invalid if invalid.any() else None
        with np.errstate(
            over="ignore"
        ):  # beyond the float32 range: ±inf, no split (sklearn rejects them)
            lo32, hi32 = lo.astype(np.float32), hi.astype(np.float32)
        self.near_tie = ~(hi32 > lo32 + _SKLEARN_FEATURE_THRESHOLD)  # in float32, as sklearn
        self._t = None
        self._t_sorted = None
        self._y = None
        self._excluded = None
        self._block_layout()

    def _block_layout(self):
        """The sort order rearranged for blocked prefix sums (see :meth:`_prefix_sums`).

        Sorted position p = l·B + b of feature d goes to ``order_blocked[b, d, l]``; the positions
        beyond N − 1 (padding up to a multiple of B) point at index N, a zero weight. A prefix sum
        over this layout is B − 1 vectorised adds of contiguous (D, L) slices plus a cumulative
        sum of length L = N/B, about three times faster than ``np.cumsum`` along each sorted
        column.
        """
        n, d = self.n_samples, self.order.shape[0]
        B = _BLOCK if n >= 64 * _BLOCK else 1
        L = -(-n // B)
        self.block = B

        def blocked(values, fill, dtype):
            padded = np.full((d, L * B), fill, dtype=dtype)
            padded[:, : values.shape[1]] = values
            return np.ascontiguousarray(padded.reshape(d, L, B).transpose(2, 0, 1))

        self.order_blocked = blocked(self.order, n, self.order.dtype)
        # positions ≥ N − 1: all points on the left; the gini mode's candidates are sklearn's
        self.excluded_blocked = blocked(self.near_tie, True, bool)
        # the candidates of the error criterion: every position but those between tied values
        self.valid_blocked = None if self.invalid is None else blocked(~self.invalid, True, bool)
        # few blocks with ties (continuous data): their extremes are redone after the fast scan
        self.tie_blocks = None
        if self.valid_blocked is not None:
            has_tie = ~self.valid_blocked.all(axis=0)  # (D, L)
            if np.count_nonzero(has_tie) <= has_tie.size // 8:
                self.tie_blocks = np.nonzero(has_tie)

    def _prefix_sums(self, v):
        """P[b, d, l] = Σ_{q ≤ l·B + b} v[order[d, q]]: every sorted column's cumulative sum."""
        return self._accumulate(np.take(np.append(v, 0.0), self.order_blocked, mode="clip"))

    def _accumulate(self, P):
        """In place: turn values in the blocked layout (B, D, L) into their prefix sums."""
        for b in range(1, self.block):  # prefix within each block of B consecutive positions
            P[b] += P[b - 1]
        totals = np.cumsum(P[-1], axis=1)  # prefix over the blocks
        P[:, :, 1:] += totals[:, :-1]
        return P

    def _first_extreme_blocked(self, P, tol, maximise):
        """(feature, sorted position, value) of the first candidate within tol of the extreme."""
        rows = P.max(axis=(0, 2)) if maximise else P.min(axis=(0, 2))
        if maximise:
            target = rows.max() - tol
            j = int(np.argmax(rows >= target))
            b, blk = np.nonzero(P[:, j] >= target)
        else:
            target = rows.min() + tol
            j = int(np.argmax(rows <= target))
            b, blk = np.nonzero(P[:, j] <= target)
        positions = blk * self.block + b
        i = int(np.argmin(positions))
        return j, int(positions[i]), float(P[b[i], j, blk[i]])

    def _error_extremes(self, v):
        """The smallest and the largest prefix sum C of v over the candidate positions.

        One pass over the blocked layout, one block position b at a time: gather v at b (one
        (D, L) slice of the sort order), add it to the running within-block prefix, and keep the
        running minimum and maximum of each block; tied positions are skipped. Only the block
        sums then go through a cumulative sum: adding a block's offset is monotone, so the
        block's extreme plus its offset is the extreme of the full prefix sums there, and only
        the winning block is summed again. The values are those of :meth:`_prefix_sums`, bit
        for bit, without ever holding the (B, D, L) array.

        Returns
        -------
        ve : ndarray of shape (n_samples + 1,)
            v with the padding's zero appended.
        offsets : ndarray of shape (D, L)
            The prefix sums at the ends of the blocks.
        low, high : ndarray of shape (D, L)
            Each block's smallest and largest prefix sum over its candidate positions (±inf
            for a block without one).
        """
        order, valid = self.order_blocked, self.valid_blocked
        if self.tie_blocks is not None:
            valid = None  # the few blocks with ties are redone below
        ve = np.append(v, 0.0)
        run = np.take(ve, order[0], mode="clip")  # the within-block prefix at b (D, L)
        if valid is None:
            low, high = run.copy(), run.copy()
        else:
            low, high = np.where(valid[0], run, np.inf), np.where(valid[0], run, -np.inf)
        g = np.empty_like(run)
        for b in range(1, self.block):
            np.take(ve, order[b], out=g, mode="clip")  # no bounds checks: twice as fast
            run += g
            if valid is None:
                np.minimum(low, run, out=low)
                np.maximum(high, run, out=high)
            else:
                np.minimum(low, run, out=low, where=valid[b])
                np.maximum(high, run, out=high, where=valid[b])
        if self.tie_blocks is not None:
            d, blk = self.tie_blocks
            C = np.cumsum(ve[order[:, d, blk]], axis=0)  # (B, n_blocks): the same sums
            keep = self.valid_blocked[:, d, blk]
            low[d, blk] = np.where(keep, C, np.inf).min(axis=0)
            high[d, blk] = np.where(keep, C, -np.inf).max(axis=0)
        offsets = np.cumsum(run, axis=1)  # run holds the block totals
        low[:, 1:] += offsets[:, :-1]
        high[:, 1:] += offsets[:, :-1]
        return ve, offsets, low, high

    def _first_in_block(self, ve, offsets, extremes, tol, maximise):
        """(feature, position, value) of the first candidate within tol of the extreme, from
        the block extremes of :meth:`_error_extremes` (only the winning block is re-summed)."""
        rows = extremes.max(axis=1) if maximise else extremes.min(axis=1)
        if maximise:
            target = rows.max() - tol
            j = int(np.argmax(rows >= target))
            blk = int(np.argmax(extremes[j] >= target))
        else:
            target = rows.min() + tol
            j = int(np.argmax(rows <= target))
            blk = int(np.argmax(extremes[j] <= target))
        C = np.cumsum(ve[self.order_blocked[:, j, blk]])  # the block's prefix, as in the scan
        if blk > 0:
            C += offsets[j, blk - 1]
        if self.valid_blocked is not None:
            C[~self.valid_blocked[:, j, blk]] = -np.inf if maximise else np.inf
        b = int(np.argmax(C >= target) if maximise else np.argmax(C <= target))
        return j, blk * self.block + b, float(C[b])

    def _targets(self, t):
        """Cached for the targets t (AdaBoost passes the same t every round): the indices of the
        positive and of the negative points, and t in the blocked layout (made when the gini
        mode first asks for it)."""
        if self._t is None or not np.array_equal(self._t, t):  # O(N), a round is O(N D)
            self._t = np.array(t, dtype=float)
            self._signs = (np.flatnonzero(self._t > 0), np.flatnonzero(self._t < 0))
            self._t_sorted = None
        return self._signs

    def _sorted_targets(self, t):
        """t in the blocked layout, cached: AdaBoost passes the same t every round."""
        self._targets(t)
        if self._t_sorted is None:
            self._t_sorted = np.take(np.append(t, 0.0), self.order_blocked, mode="clip")
        return self._t_sorted

    @implements("14.15")
    def best_error_split(self, t, w):
        """The stump minimising the weighted error J = Σ_n w_n I(y(x_n) ≠ t_n), equation (14.15).

        Parameters
        ----------
        t : ndarray of shape (n_samples,)
            Targets in {−1, +1}.
        w : ndarray of shape (n_samples,)
            Non-negative weights.

        Returns
        -------
        feature : int
            The feature j split on (0 for a constant classifier).
        threshold : float
            θ; −inf for a constant classifier.
        leaf_values : tuple of two floats
            (v_left, v_right) in {−1, +1}.
        J : float
            The minimal weighted error (computed from cumulative sums).
        """
        v = w * t
        positive, negative = self._targets(t)
        w_pos = float(np.sum(w[positive]))  # the sums of w[t > 0] and w[t < 0], bit for bit
        w_neg = float(np.sum(w[negative]))
        # constant classifiers: +1 everywhere errs on the negatives, −1 on the positives
        best = (
            (0, -np.inf, (1.0, 1.0), w_neg)
            if w_neg <= w_pos
            else (0, -np.inf, (-1.0, -1.0), w_pos)
        )
        if self.n_samples < 2:
            return best
        if self.invalid is not None and self.invalid.all():  # every feature is constant
            return best
        # C[d, p]: sum of v over the p + 1 smallest values of feature d. Positions p ≥ N − 1 put
        # every point on the left, i.e. they are the constant classifiers, already in `best`.
        # Positions between tied values are no split: they are left out of both extremes.
        tol = _TIE_TOLERANCE * (w_pos + w_neg)
        ve, offsets, low, high = self._error_extremes(v)
        j_min, k_min, c_min = self._first_in_block(ve, offsets, low, tol, maximise=False)
        j_max, k_max, c_max = self._first_in_block(ve, offsets, high, tol, maximise=True)
        J_plus, J_minus = c_min + w_neg, w_pos - c_max
        if J_plus <= J_minus + tol:
            j, k, J, leaves = j_min, k_min, J_plus, (-1.0, 1.0)
        else:
            j, k, J, leaves = j_max, k_max, J_minus, (1.0, -1.0)
        if J < best[3] - tol and k < self.n_samples - 1:
            return j, float(self.thresholds[j, k]), leaves, float(max(J, 0.0))
        return best

    def best_gini_split(self, t, w):
        """The split of scikit-learn's depth-1 tree: the largest decrease of the weighted Gini.

        With W_L, W_R the weights left and right of a split and V_L, V_R the sums of w t there,
        the weighted child impurity W_L G_L + W_R G_R equals W/2 − (V_L²/W_L + V_R²/W_R)/2, so
        the best split maximises V_L²/W_L + V_R²/W_R. Each leaf predicts its weighted majority
        (−1 on a tie, like scikit-learn's argmax over the sorted classes). Like scikit-learn,
        it never splits between values whose float32 casts differ by 1e-7 or less.

        Parameters
        ----------
        t : ndarray of shape (n_samples,)
            Targets in {−1, +1}.
        w : ndarray of shape (n_samples,)
            Non-negative weights.

        Returns
        -------
        feature, threshold, leaf_values, J
            As :meth:`best_error_split`; J is the weighted error of the chosen stump.
        """
        W, V = float(np.sum(w)), float(np.sum(w * t))
        majority = 1.0 if V > 0 else -1.0
        constant = (0, -np.inf, (majority, majority), 0.5 * (W - abs(V)))
        w_pos, w_neg = 0.5 * (W + V), 0.5 * (W - V)
        if self.n_samples < 2 or min(w_pos, w_neg) <= 0:  # one sample or a pure node: a leaf
            return constant
        ws = np.take(np.append(w, 0.0), self.order_blocked, mode="clip")  # see _block_layout
        vs = ws * self._sorted_targets(t)
        WL = self._accumulate(ws)
        VL = self._accumulate(vs)
        # score = VL²/WL + VR²/WR, in place; positions ≥ N − 1 (nothing on the right) and
        # positions between (near-)tied values are excluded
        with np.errstate(divide="ignore", invalid="ignore"):
            WR = W - WL
            VR = V - VL
            score = np.square(VL)
            score /= WL
            # WR and VR come from subtractions: when the right side's weight is below their
            # rounding noise, WR can be 0 or negative and |VR| > WR, and VR²/WR would be huge.
            # Enforce the exact bounds WR > 0 and |VR| ≤ WR: such a right term is then at most
            # the noise, as small as the true one.
            np.maximum(WR, np.finfo(float).tiny, out=WR)
            np.clip(VR, -WR, WR, out=VR)
            np.square(VR, out=VR)
            VR /= WR
            score += VR
        score[self.excluded_blocked] = -np.inf
        if not np.all(w > 0):  # an empty side of zero weight: 0/0
            np.nan_to_num(score, copy=False, nan=-np.inf)
        j, k, best_score = self._first_extreme_blocked(score, _TIE_TOLERANCE * W, maximise=True)
        if not np.isfinite(best_score):
            return constant
        vl = VL[k % self.block, j, k // self.block]
        vr = V - vl
        leaves = (1.0 if vl > 0 else -1.0, 1.0 if vr > 0 else -1.0)
        # weighted error: in each leaf the minority weight (W_leaf − |V_leaf|)/2
        J = 0.5 * (W - abs(vl) - abs(vr))
        return j, float(self.thresholds[j, k]), leaves, float(J)

    def best_class_split(self, y, w, n_classes):
        """The depth-1 Gini split of K classes, as the tree engine's depth-1 tree finds it.

        Maximises Σ_k L_k²/W_L + Σ_k R_k²/W_R (L_k, R_k the weights of class k left and right
        of the cut, W_L, W_R their sums), the split score of
        :class:`prml14.trees.Gini`, over every feature and every position between distinct
        values; ties go to the lowest feature, then the lowest threshold, as in the engine.
        One gather of w per call; the class columns are that gather times cached masks, then
        blocked prefix sums.

        Parameters
        ----------
        y : ndarray of int of shape (n_samples,)
            Class indices 0, ..., K − 1.
        w : ndarray of shape (n_samples,)
            Positive weights.
        n_classes : int
            K.

        Returns
        -------
        feature : int or None
            The feature j split on; None when no cut exists (every feature constant).
        threshold : float
            θ: x_j ≤ θ goes left (nan without a cut).
        """
        if self.n_samples < 2 or (self.invalid is not None and self.invalid.all()):
            return None, np.nan
        masks = self._class_masks(y, n_classes)
        ws = np.take(np.append(w, 0.0), self.order_blocked, mode="clip")
        total = np.bincount(y, w, minlength=n_classes)
        # in place, in four buffers: score = Σ_k L_k², right = Σ_k (T_k − L_k)²
        score, right = np.zeros_like(ws), np.zeros_like(ws)
        L, R = np.empty_like(ws), np.empty_like(ws)
        for k, mask in enumerate(masks):
            self._accumulate(np.multiply(ws, mask, out=L))  # L_k at every cut
            right += np.square(np.subtract(total[k], L, out=R), out=R)
            score += np.square(L, out=L)
        WL = self._accumulate(ws)  # the weight left of every cut
        with np.errstate(divide="ignore", invalid="ignore"):
            score /= WL
            right /= np.subtract(total.sum(), WL, out=WL)
        score += right
        score[self.excluded_positions] = -np.inf
        j, k, best = self._first_extreme_blocked(score, 0.0, maximise=True)
        if not best > -np.inf:
            return None, np.nan
        return j, float(self.thresholds[j, k])

    @property
    def excluded_positions(self):
        """Positions that are no cut, blocked: between tied values, and from N − 1 on."""
        if self._excluded is None:
            invalid = np.zeros((self.order.shape[0], self.n_samples - 1), dtype=bool)
            if self.invalid is not None:
                invalid = self.invalid
            B, (d, L) = self.block, self.order_blocked.shape[1:]
            padded = np.ones((d, L * B), dtype=bool)
            padded[:, : self.n_samples - 1] = invalid
            self._excluded = np.ascontiguousarray(padded.reshape(d, L, B).transpose(2, 0, 1))
        return self._excluded

    def _class_masks(self, y, n_classes):
        """The indicators I(y_n = k) in the blocked layout, cached for the same y."""
        if self._y is None or not np.array_equal(self._y, y):
            self._y = np.array(y)
            ys = np.take(np.append(y, -1), self.order_blocked, mode="clip")
            self._masks = [ys == k for k in range(n_classes)]
        return self._masks


class DecisionStump(ClassifierMixin, BaseEstimator):
    """A one-split decision tree trained on weighted data: AdaBoost's default weak learner.

    Parameters
    ----------
    criterion : {"error", "gini"}, default="error"
        ``"error"`` minimises the weighted misclassification error (14.15) exactly over all
        features, thresholds and polarities; ``"gini"`` splits as scikit-learn's
        ``DecisionTreeClassifier(max_depth=1)`` does, never between values that differ by at
        most 1e-7 in float32 (for use as an oracle on float32-representable inputs with positive
        weights; points of zero weight are dropped here but not by scikit-learn).

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
        The two labels; ``classes_[0]`` is coded −1 and ``classes_[1]`` +1.
    feature_ : int
        The feature j split on.
    threshold_ : float
        θ: points with x_j ≤ θ go left; −inf for a constant stump.
    leaf_values_ : ndarray of shape (2,)
        (v_left, v_right) in {−1, +1}. With ``criterion="error"`` a non-constant stump has
        v_left = −v_right and v_right is its *polarity*.
    error_ : float
        The weighted training error ε of (14.16) (J of (14.15) divided by Σ_n w_n).
    n_features_in_ : int

    Notes
    -----
    Inputs must be finite. Ties in the criterion (up to a relative 1e-13 of the total weight, to
    ignore rounding noise) are broken in this order: with ``criterion="error"`` a constant stump
    before any split and polarity v_right = +1 before −1; then, in both modes, the lowest feature
    index and the lowest threshold.
    """

    _parameter_constraints = {"criterion": [StrOptions({"error", "gini"})]}

    def __init__(self, criterion="error"):
        self.criterion = criterion

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y, sample_weight=None):
        """Find the best stump for (X, y) with the given sample weights.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Finite inputs.
        y : array-like of shape (n_samples,)
            Two class labels.
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative weights w_n (uniform if None). Points of zero weight are ignored.

        Returns
        -------
        DecisionStump
            The fitted stump.

        Raises
        ------
        ValueError
            If X is empty, not 2-D, not numeric, complex, or holds NaN or ±inf; y does not have
            exactly two classes; sample_weight is negative, NaN, all zero or not one per sample; or
            a hyper-parameter is outside its declared constraints (scikit-learn's
            InvalidParameterError, which is also a TypeError).
        """
        X, y = validate_data(self, X, y, dtype=np.float64)
        classes, t = binary_targets(y)
        w = check_sample_weight(sample_weight, X, dtype=np.float64, max_magnitude=None)
        self.classes_ = classes
        # check_sample_weight rejects all-zero weights; points of zero weight are dropped so that
        # they do not move the midpoint thresholds
        keep = w > 0
        if not keep.all():
            X, t, w = X[keep], t[keep], w[keep]
        w = w / w.max()  # the split and ε do not depend on the scale; huge weights would overflow
        return self._fit_sorted(SortedColumns(X), t, w)

    def _fit_sorted(self, columns, t, w):
        """Fit on presorted columns and targets t in {−1, +1} (used by AdaBoost every round)."""
        search = columns.best_error_split if self.criterion == "error" else columns.best_gini_split
        feature, threshold, leaves, J = search(t, w)
        self.feature_ = int(feature)
        self.threshold_ = float(threshold)
        self.leaf_values_ = np.array(leaves, dtype=float)
        self.error_ = J / float(
            np.sum(w)
        )  # the sum is positive: check_sample_weight rejects all zeros
        return self

    def decision_function(self, X):
        """The stump's output y(x) ∈ {−1, +1} (+1 means ``classes_[1]``).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The inputs.

        Returns
        -------
        ndarray of shape (n_samples,)
            y(x) ∈ {−1, +1} at each input.
        """
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, reset=False)
        return self._decision(X)

    def _decision(self, X):
        return np.where(
            X[:, self.feature_] > self.threshold_, self.leaf_values_[1], self.leaf_values_[0]
        )

    def predict(self, X):
        """The predicted class labels.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The inputs.

        Returns
        -------
        ndarray of shape (n_samples,)
            The predicted labels, from ``classes_``.
        """
        positive = self.decision_function(X) > 0
        return self.classes_[positive.astype(int)]

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        return tags
