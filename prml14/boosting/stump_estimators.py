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
        self._block_layout()

    def _block_layout(self):
        """The sort order rearranged for blocked prefix sums (see :meth:`_prefix_sums`).

        Sorted position p = l·B + b of feature d goes to ``order_blocked[d, b, l]``; the positions
        beyond N − 1 (padding up to a multiple of B) point at index N, a zero weight. A prefix sum
        over this layout is B − 1 vectorised adds plus a cumulative sum of length N/B, about three
        times faster than ``np.cumsum`` along each sorted column.
        """
        n, d = self.n_samples, self.order.shape[0]
        B = _BLOCK if n >= 64 * _BLOCK else 1
        L = -(-n // B)
        padded = np.full((d, L * B), n, dtype=self.order.dtype)
        padded[:, :n] = self.order
        self.block = B
        self.order_blocked = np.ascontiguousarray(padded.reshape(d, L, B).transpose(0, 2, 1))
        excluded = np.ones((d, L * B), dtype=bool)  # positions ≥ N − 1: all points on the left
        excluded[:, : n - 1] = self.near_tie  # the gini mode's candidates are sklearn's
        self.excluded_blocked = np.ascontiguousarray(excluded.reshape(d, L, B).transpose(0, 2, 1))
        if self.invalid is None:
            self.invalid_blocked = None
        else:
            inv = np.zeros((d, L * B), dtype=bool)
            inv[:, : n - 1] = self.invalid
            self.invalid_blocked = np.ascontiguousarray(inv.reshape(d, L, B).transpose(0, 2, 1))

    def _prefix_sums(self, v):
        """P[d, b, l] = Σ_{q ≤ l·B + b} v[order[d, q]]: every sorted column's cumulative sum."""
        return self._accumulate(np.append(v, 0.0)[self.order_blocked])

    def _accumulate(self, P):
        """In place: turn values in the blocked layout (D, B, L) into their prefix sums."""
        B = self.block
        for b in range(1, B):  # prefix within each block of B consecutive sorted positions
            P[:, b] += P[:, b - 1]
        totals = np.cumsum(P[:, B - 1], axis=1)  # prefix over the blocks
        P[:, :, 1:] += totals[:, None, :-1]
        return P

    def _first_extreme_blocked(self, P, tol, maximise):
        """(feature, sorted position, value) of the first candidate within tol of the extreme."""
        flat = P.reshape(P.shape[0], -1)
        rows = flat.max(axis=1) if maximise else flat.min(axis=1)
        if maximise:
            target = rows.max() - tol
            j = int(np.argmax(rows >= target))
            b, blk = np.nonzero(P[j] >= target)
        else:
            target = rows.min() + tol
            j = int(np.argmax(rows <= target))
            b, blk = np.nonzero(P[j] <= target)
        positions = blk * self.block + b
        i = int(np.argmin(positions))
        return j, int(positions[i]), float(P[j, b[i], blk[i]])

    def _sorted_targets(self, t):
        """t in the blocked layout, cached: AdaBoost passes the same t every round."""
        if self._t is None or not np.array_equal(self._t, t):  # O(N), the gather is O(N D)
            self._t, self._t_sorted = (
                np.array(t, dtype=float),
                np.append(t, 0.0)[self.order_blocked],
            )
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
        w_pos = float(np.sum(w[t > 0]))
        w_neg = float(np.sum(w[t < 0]))
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
        # Positions between tied values are no split: in place, +inf hides them from the
        # minimum, then −inf from the maximum (their values are not needed otherwise).
        C = self._prefix_sums(v)
        tol = _TIE_TOLERANCE * (w_pos + w_neg)
        if self.invalid_blocked is not None:
            np.copyto(C, np.inf, where=self.invalid_blocked)
        j_min, k_min, c_min = self._first_extreme_blocked(C, tol, maximise=False)
        if self.invalid_blocked is not None:
            np.copyto(C, -np.inf, where=self.invalid_blocked)
        j_max, k_max, c_max = self._first_extreme_blocked(C, tol, maximise=True)
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
        ws = np.append(w, 0.0)[self.order_blocked]  # blocked layout, see _block_layout
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
        vl = VL[j, k % self.block, k // self.block]
        vr = V - vl
        leaves = (1.0 if vl > 0 else -1.0, 1.0 if vr > 0 else -1.0)
        # weighted error: in each leaf the minority weight (W_leaf − |V_leaf|)/2
        J = 0.5 * (W - abs(vl) - abs(vr))
        return j, float(self.thresholds[j, k]), leaves, float(J)


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
