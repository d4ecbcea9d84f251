"""The split criteria the tree engine (:func:`~prml14.trees.growing.grow_tree`) grows with.

Every sample carries a short vector of statistics (``criterion.statistics(...)`` builds them);
summed over a node they are the node's sufficient statistics, shape (n_stats, n_nodes), from
which the criterion gives the node weight N_τ, the leaf value, the impurity per unit weight Q_τ
(through the tagged functions of :mod:`prml14.trees.impurities`, vectorised over nodes) and,
for a cut, a split score that is largest where N_L Q_L + N_R Q_R is smallest:

===========================  ==========================  ========================================
criterion                    statistics of sample n      node impurity N_τ Q_τ
===========================  ==========================  ========================================
:class:`SquaredError`        (w, w t, w t²)              Σ w (t − y_τ)², (14.30)
:class:`Gini`                w · one-hot(t) (K columns)  N_τ Σ_k p_τk (1 − p_τk), (14.33)
:class:`Entropy`             w · one-hot(t)              −N_τ Σ_k p_τk ln p_τk, (14.32)
:class:`Misclassification`   w · one-hot(t)              N_τ (1 − max_k p_τk)
:class:`SecondOrder`         (g, h)                      −½ G²/(H + λ)   (N_τ = H)
:class:`AbsoluteError`       (w, t)                      Σ w abs(t − ỹ_τ), ỹ_τ the weighted median
===========================  ==========================  ========================================

:class:`AbsoluteError` is the one criterion whose node quantities are not sums of per-sample
statistics: it sets ``sample_based = True``, and the exact finder then asks it for the node
"sums" (W, ỹ_τ, Σ w abs(t − ỹ_τ)) of segments of samples (``segment_sums``) and for the costs of
all cuts (``segment_split_scores``, :mod:`prml14.trees.absolute`) instead of cumulative sums.

The squared error is the special case g = −w t, h = w, λ = γ = 0 of the second-order
criterion: −½ G²/H = −½ (Σ w t)²/Σ w differs from ½ × (14.30) by ½ Σ w t², a constant of the
node's samples, so both choose the same cuts.
"""

from __future__ import annotations

import numpy as np

from .absolute import segment_statistics, split_costs
from .impurities import (
    _entropy,
    _gini,
    _misclassification,
    _second_order_leaf_value,
    _sum_of_squares_from_sums,
    _xlogx,
    cross_entropy_impurity,
    gini_impurity,
    misclassification_impurity,
)

__all__ = [
    "SquaredError",
    "Gini",
    "Entropy",
    "Misclassification",
    "SecondOrder",
    "AbsoluteError",
]

_EPSILON = np.finfo(np.float64).eps
# a second-order split is made only if it lowers the objective by more than this (xgboost's
# kRtEps): cuts of a node whose gradients are proportional to its Hessians gain a rounding error
_MIN_GAIN = 1e-6


class _Criterion:
    """What the tree engine needs from a criterion (see the module docstring).

    ``weight_channel``: the statistic that is the sample's weight (None: the sum of all of
    them); ``score_channels``: the statistics the split score reads.
    """

    weight_channel = None
    score_channels = ()
    sample_based = False

    def node_weight(self, sums):
        """The weight N_τ of each node.

        Parameters
        ----------
        sums : ndarray of shape (n_stats, n_nodes)
            The statistics summed over each node.

        Returns
        -------
        ndarray of shape (n_nodes,)
            N_τ of each node.
        """
        if self.weight_channel is None:
            return sums.sum(axis=0)
        return sums[self.weight_channel]

    def empty_rows(self, stats):
        """The samples that add nothing to any node's sums (zero weight): the engine drops them
        before growing, so that they neither place thresholds nor count toward
        ``min_samples_leaf`` and ``min_samples_split`` (a weight of 0 is a removed row).

        Parameters
        ----------
        stats : ndarray of shape (n_stats, n_samples)
            The statistics of every sample.

        Returns
        -------
        ndarray of bool of shape (n_samples,)
            True for the samples whose statistics are all zero.
        """
        return ~np.any(stats, axis=0)

    def accept_split(self, decrease):
        """Whether cuts that lower Σ_τ N_τ Q_τ by ``decrease`` are made (CART: always).

        Parameters
        ----------
        decrease : ndarray
            N_τ Q_τ − N_L Q_L − N_R Q_R of each candidate.

        Returns
        -------
        ndarray of bool
            True where the cut is made.
        """
        return np.ones(np.shape(decrease), dtype=bool)

    def can_split(self, impurity, sums, counts, scale):
        """Whether nodes with this impurity per unit weight may be cut (CART: not if pure).

        Parameters
        ----------
        impurity : ndarray of shape (n_nodes,)
            Q_τ of each node.
        sums : ndarray of shape (n_stats, n_nodes)
            The statistics summed over each node.
        counts : ndarray of int of shape (n_nodes,)
            The number of samples of each node.
        scale : ndarray of shape (n_nodes,)
            The rounding scale of each node's sums: :meth:`rounding_scale`, or a larger one
            that the sums carry from the sums they were derived from.

        Returns
        -------
        ndarray of bool
            True for the nodes that may be cut.
        """
        return impurity > _EPSILON

    def rounding_scale(self, sums):
        """The magnitude that rounds the node cost N_τ Q_τ computed from the sums (0: exact).

        A node of n samples whose sums are added one sample after another carries a relative
        rounding error of at most n ε in each sum; a cut that lowers the cost by less than
        ``4 n ε`` times this scale cannot be told from no change (see :func:`_rounding_floor`).

        Parameters
        ----------
        sums : ndarray of shape (n_stats, n_nodes)
            The statistics summed over each node.

        Returns
        -------
        ndarray of shape (n_nodes,) or float
            The scale of each node (class criteria: 0, their pure nodes are exactly pure).
        """
        return 0.0


def _rounding_floor(scale, counts):
    """4 n ε × scale: the rounding error of a cost computed from sums of n samples (a sum of n
    terms added in sequence has a relative error of at most n ε; the cost is a difference of
    two such sums, one of them a square)."""
    return 4.0 * _EPSILON * counts * scale


class SquaredError(_Criterion):
    """The sum-of-squares criterion of regression trees, (14.29) and (14.30).

    Statistics of a sample: (w, w t, w t²). Leaf value Σwt/Σw (14.29); impurity per unit weight
    the weighted variance, so N_τ Q_τ is (14.30); split score S_L²/N_L + S_R²/N_R with S = Σwt
    (N_L Q_L + N_R Q_R = Σwt² − score). Targets centred at their mean first keep Σwt²
    from swamping the variances.
    """

    name = "squared_error"
    n_stats = 3
    weight_channel = 0
    score_channels = (1,)

    def statistics(self, t, sample_weight):
        """Per-sample statistics (w, w t, w t²).

        Parameters
        ----------
        t : ndarray of shape (n_samples,)
            Targets.
        sample_weight : ndarray of shape (n_samples,)
            Non-negative weights.

        Returns
        -------
        ndarray of shape (n_samples, 3)
            One row of statistics per sample.
        """
        wt = sample_weight * t
        # one statistic after another in memory, as the engine reads them
        return np.stack([sample_weight, wt, wt * t]).T

    def node_value(self, sums):
        """The leaf values (14.29), shape (n_nodes, 1).

        Parameters
        ----------
        sums : ndarray of shape (3, n_nodes)
            The statistics summed over each node.

        Returns
        -------
        ndarray of shape (n_nodes, 1)
            The value each node predicts.
        """
        return (sums[1] / sums[0])[:, None]

    def node_impurity(self, sums):
        """The weighted variance (14.30)/N_τ of each node.

        Parameters
        ----------
        sums : ndarray of shape (3, n_nodes)
            The statistics summed over each node.

        Returns
        -------
        ndarray of shape (n_nodes,)
            Q_τ of each node.
        """
        return _sum_of_squares_from_sums(*sums) / sums[0]

    def rounding_scale(self, sums):
        """Σ w t²: the cost Σwt² − (Σwt)²/N_τ is a difference of two numbers of this size.

        Parameters
        ----------
        sums : ndarray of shape (3, n_nodes)
            The statistics summed over each node.

        Returns
        -------
        ndarray of shape (n_nodes,)
            Σ w t² of each node.
        """
        return sums[2]

    def can_split(self, impurity, sums, counts, scale):
        """A node may be cut unless its targets are constant: a relative test, at any scale.

        The variance of a constant node computed from the sums, Σwt²/N_τ − y_τ², is a
        rounding error of the size of y_τ² (2.96e-16 for three targets 1.2), never exactly 0;
        an absolute threshold (scikit-learn's ε) misses it for large targets and calls a
        genuinely varying node pure for tiny ones. The node is taken as constant when its
        cost N_τ Q_τ is within the rounding floor 4 n ε Σwt² of zero — with the n and the
        Σwt² of the sums it was derived from, if larger (the histogram finder's right child
        is its parent's sums minus the left child's, with the parent's rounding).

        Parameters
        ----------
        impurity : ndarray of shape (n_nodes,)
            Q_τ of each node.
        sums : ndarray of shape (3, n_nodes)
            The statistics summed over each node.
        counts : ndarray of int of shape (n_nodes,)
            The number of samples of each node.
        scale : ndarray of shape (n_nodes,)
            The rounding scale of each node's sums: :meth:`rounding_scale`, or a larger one
            that the sums carry from the sums they were derived from.

        Returns
        -------
        ndarray of bool
            True for the nodes that may be cut.
        """
        return impurity * sums[0] > _rounding_floor(scale, counts)

    def split_score(self, left, right, n_left, n_right):
        """S_L²/N_L + S_R²/N_R for every candidate cut (may overwrite ``left`` and ``right``).

        Parameters
        ----------
        left, right : ndarray of shape (1, ...)
            Σwt on each side of every cut.
        n_left, n_right : ndarray
            N_L and N_R (broadcast with ``left[0]``).

        Returns
        -------
        ndarray
            The score of every cut: larger is better.
        """
        score = np.square(left[0], out=left[0])
        score *= 1.0 / n_left
        r = np.square(right[0], out=right[0])
        r *= 1.0 / n_right
        score += r
        return score


class _ClassCriterion(_Criterion):
    """Class-count criteria: a sample's statistics are its weight in its class's column."""

    def __init__(self, n_classes):
        self.n_classes = n_classes

    @property
    def n_stats(self):
        """The number of statistics per sample, K."""
        return self.n_classes

    @property
    def score_channels(self):
        """All K class columns."""
        return tuple(range(self.n_classes))

    def statistics(self, y, sample_weight):
        """Per-sample statistics w_n · one-hot(y_n).

        Parameters
        ----------
        y : ndarray of int of shape (n_samples,)
            Class indices 0, ..., K − 1.
        sample_weight : ndarray of shape (n_samples,)
            Non-negative weights.

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
            One row of statistics per sample.
        """
        stats = np.zeros((len(y), self.n_classes))
        stats[np.arange(len(y)), y] = sample_weight
        return stats

    def node_value(self, sums):
        """The class proportions p_τk of each node.

        Parameters
        ----------
        sums : ndarray of shape (n_classes, n_nodes)
            The statistics summed over each node.

        Returns
        -------
        ndarray of shape (n_nodes, n_classes)
            The value each node predicts.
        """
        return (sums / sums.sum(axis=0)).T

    def node_impurity(self, sums):
        """The impurity of each node's class proportions.

        Parameters
        ----------
        sums : ndarray of shape (n_classes, n_nodes)
            The statistics summed over each node.

        Returns
        -------
        ndarray of shape (n_nodes,)
            Q_τ of each node.
        """
        return self._impurity(self.node_value(sums))  # (proportions by construction)


class Gini(_ClassCriterion):
    """The Gini criterion (14.33): split score Σ_k L_k²/N_L + Σ_k R_k²/N_R.

    N_L Q_L = N_L − Σ_k L_k²/N_L with L_k the class weights on the left.

    Parameters
    ----------
    n_classes : int
        The number of classes K.
    """

    name = "gini"
    impurity = staticmethod(gini_impurity)
    _impurity = staticmethod(_gini)

    def split_score(self, left, right, n_left, n_right):
        """Σ_k L_k²/N_L + Σ_k R_k²/N_R for every candidate cut (may overwrite ``left``, ``right``).

        Parameters
        ----------
        left, right : ndarray of shape (n_classes, ...)
            Class weights on each side of every cut.
        n_left, n_right : ndarray
            N_L and N_R.

        Returns
        -------
        ndarray
            The score of every cut: larger is better.
        """
        score = np.sum(np.square(left, out=left), axis=0)
        score /= n_left
        r = np.sum(np.square(right, out=right), axis=0)
        r /= n_right
        score += r
        return score


class Entropy(_ClassCriterion):
    """The cross-entropy criterion (14.32), in nats.

    N_L Q_L = N_L ln N_L − Σ_k L_k ln L_k, so the split score is
    Σ_k L_k ln L_k − N_L ln N_L + (the same on the right).

    Parameters
    ----------
    n_classes : int
        The number of classes K.
    """

    name = "entropy"
    impurity = staticmethod(cross_entropy_impurity)
    _impurity = staticmethod(_entropy)

    def split_score(self, left, right, n_left, n_right):
        """−(N_L Q_L + N_R Q_R) for every candidate cut.

        Parameters
        ----------
        left, right : ndarray of shape (n_classes, ...)
            Class weights on each side of every cut.
        n_left, n_right : ndarray
            N_L and N_R.

        Returns
        -------
        ndarray
            The score of every cut: larger is better.
        """
        return (
            np.sum(_xlogx(left), axis=0)
            - _xlogx(n_left)
            + np.sum(_xlogx(right), axis=0)
            - _xlogx(n_right)
        )


class Misclassification(_ClassCriterion):
    """The misclassification criterion: split score max_k L_k + max_k R_k.

    N_L Q_L = N_L − max_k L_k, the weight misclassified by the majority class on the left.

    Parameters
    ----------
    n_classes : int
        The number of classes K.
    """

    name = "misclassification"
    impurity = staticmethod(misclassification_impurity)
    _impurity = staticmethod(_misclassification)

    def split_score(self, left, right, n_left, n_right):
        """max_k L_k + max_k R_k for every candidate cut.

        Parameters
        ----------
        left, right : ndarray of shape (n_classes, ...)
            Class weights on each side of every cut.
        n_left, n_right : ndarray
            N_L and N_R (unused).

        Returns
        -------
        ndarray
            The score of every cut: larger is better.
        """
        return left.max(axis=0) + right.max(axis=0)


class SecondOrder(_Criterion):
    """The second-order (gradient/Hessian, XGBoost-style) criterion.

    Statistics of a sample: (g_n, h_n), the first and second derivatives of its loss at the
    current prediction. A node's weight is H = Σh (``min_weight_leaf`` of the engine is
    XGBoost's ``min_child_weight``), its value −G/(H + λ)
    (:func:`~prml14.trees.impurities.second_order_leaf_value`) and its impurity per unit weight
    −½ G²/((H + λ) H), so that N_τ Q_τ = −½ G²/(H + λ) is the minimum of the objective in the
    leaf; pruning (14.31) with these costs and λ_prune = γ is the regularised objective
    Σ_τ (−½ G_τ²/(H_τ + λ)) + γ|T|. A cut is made only if its gain
    (:func:`~prml14.trees.impurities.second_order_split_gain`) exceeds 1e-6 (xgboost's
    threshold; γ is applied while growing, whereas xgboost applies it afterwards by pruning
    cuts bottom-up).

    Parameters
    ----------
    reg_lambda : float >= 0, default=0.0
        The L2 penalty λ on the leaf values.
    gamma : float >= 0, default=0.0
        The cost γ of one more leaf.
    """

    name = "second_order"
    n_stats = 2
    weight_channel = 1
    score_channels = (0,)

    def __init__(self, reg_lambda=0.0, gamma=0.0):
        if not (np.isfinite(reg_lambda) and reg_lambda >= 0):
            raise ValueError(f"reg_lambda must be a finite number >= 0, got {reg_lambda!r}")
        if not (np.isfinite(gamma) and gamma >= 0):
            raise ValueError(f"gamma must be a finite number >= 0, got {gamma!r}")
        self.reg_lambda = float(reg_lambda)
        self.gamma = float(gamma)

    def statistics(self, gradient, hessian):
        """Per-sample statistics (g_n, h_n).

        Parameters
        ----------
        gradient, hessian : ndarray of shape (n_samples,)
            First and (non-negative) second derivatives of each sample's loss.

        Returns
        -------
        ndarray of shape (n_samples, 2)
            One row of statistics per sample.
        """
        return np.stack([gradient, hessian]).T  # (the engine reads them statistic-major)

    def node_value(self, sums):
        """The leaf values −G/(H + λ), shape (n_nodes, 1).

        Parameters
        ----------
        sums : ndarray of shape (2, n_nodes)
            (G, H) of each node.

        Returns
        -------
        ndarray of shape (n_nodes, 1)
            The value each node predicts.
        """
        return _second_order_leaf_value(sums[0], sums[1], self.reg_lambda)[:, None]

    def node_impurity(self, sums):
        """−½ G²/((H + λ) H): the leaf's minimum objective per unit Hessian weight.

        Parameters
        ----------
        sums : ndarray of shape (2, n_nodes)
            (G, H) of each node.

        Returns
        -------
        ndarray of shape (n_nodes,)
            Q_τ of each node.
        """
        G, H = sums
        return 0.5 * G * _second_order_leaf_value(G, H, self.reg_lambda) / H

    def split_score(self, left, right, n_left, n_right):
        """G_L²/(H_L + λ) + G_R²/(H_R + λ) for every candidate cut (may overwrite the inputs).

        Parameters
        ----------
        left, right : ndarray of shape (1, ...)
            Σg on each side of every cut.
        n_left, n_right : ndarray
            H_L and H_R.

        Returns
        -------
        ndarray
            The score of every cut: larger is better.
        """
        score = np.square(left[0], out=left[0])
        score /= n_left + self.reg_lambda
        r = np.square(right[0], out=right[0])
        r /= n_right + self.reg_lambda
        score += r
        return score

    def accept_split(self, decrease):
        """Make a cut only if its gain, ``decrease`` − γ, exceeds 1e-6.

        Parameters
        ----------
        decrease : ndarray
            ½ [G_L²/(H_L + λ) + G_R²/(H_R + λ) − G²/(H + λ)] of each candidate.

        Returns
        -------
        ndarray of bool
            True where the cut is made.
        """
        return decrease - self.gamma > _MIN_GAIN

    def rounding_scale(self, sums):
        """G²/(H + λ), the size of the numbers whose difference is the gain.

        A node whose gradients are proportional to its Hessians (a constant residual) gains
        only rounding, however large the residual.

        Parameters
        ----------
        sums : ndarray of shape (2, n_nodes)
            (G, H) of each node.

        Returns
        -------
        ndarray of shape (n_nodes,)
            G²/(H + λ) of each node.
        """
        G, H = sums
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.nan_to_num(G * G / (H + self.reg_lambda), nan=0.0, posinf=0.0)

    def can_split(self, impurity, sums, counts, scale):
        """Every node may be cut; :meth:`accept_split` decides.

        Parameters
        ----------
        impurity : ndarray of shape (n_nodes,)
            Q_τ of each node.
        sums : ndarray of shape (2, n_nodes)
            (G, H) of each node (unused).
        counts : ndarray of int of shape (n_nodes,)
            The number of samples of each node (unused).
        scale : ndarray of shape (n_nodes,)
            The rounding scale of each node's sums (unused).

        Returns
        -------
        ndarray of bool
            True for the nodes that may be cut.
        """
        return np.ones(np.shape(impurity), dtype=bool)


class AbsoluteError(_Criterion):
    """The absolute-error criterion of regression trees, (B.29): weighted-median leaves.

    Statistics of a sample: (w, t). A node's "sums" are (N_τ, ỹ_τ, Σ w abs(t − ỹ_τ)), with ỹ_τ the
    weighted median (:func:`~prml14.trees.absolute.weighted_median`); its impurity per unit
    weight is the mean absolute deviation, and the split score of a cut is
    −(Σ_L w abs(t − ỹ_L) + Σ_R w abs(t − ỹ_R)), computed exactly for every cut that may win by
    the split search of :mod:`prml14.trees.absolute` (exact finder only).
    """

    name = "absolute_error"
    n_stats = 2
    weight_channel = 0
    score_channels = ()
    sample_based = True

    def statistics(self, t, sample_weight):
        """Per-sample statistics (w, t).

        Parameters
        ----------
        t : ndarray of shape (n_samples,)
            Targets.
        sample_weight : ndarray of shape (n_samples,)
            Non-negative weights.

        Returns
        -------
        ndarray of shape (n_samples, 2)
            One row of statistics per sample.
        """
        return np.column_stack([sample_weight, t])

    def empty_rows(self, stats):
        """The samples of zero weight (their target adds nothing to a weighted median).

        Parameters
        ----------
        stats : ndarray of shape (2, n_samples)
            The weights and targets of all samples.

        Returns
        -------
        ndarray of bool of shape (n_samples,)
            True for the samples of zero weight.
        """
        return stats[0] == 0

    def segment_sums(self, stats, samples, starts):
        """(N_τ, ỹ_τ, Σ w abs(t − ỹ_τ)) of consecutive segments of ``samples``.

        Parameters
        ----------
        stats : ndarray of shape (2, n_samples)
            The weights and targets of all samples.
        samples : ndarray of int
            Sample indices, segment after segment.
        starts : ndarray of int
            The first position of every segment in ``samples``.

        Returns
        -------
        ndarray of shape (3, n_segments)
            The node "sums" the other methods read.
        """
        return segment_statistics(stats, samples, starts)

    def segment_split_scores(self, stats, order, seg_start, seg_len, seg_id, skip=None):
        """−(cost of the left child + cost of the right child) of every cut, shape (D, n).

        Parameters
        ----------
        stats : ndarray of shape (2, n_samples)
            The weights and targets of all samples.
        order : ndarray of int of shape (n_features, n)
            Every feature's order of the working samples, node segment after node segment.
        seg_start, seg_len : ndarray of int of shape (n_segments,)
            Where each node's segment starts and its length.
        seg_id : ndarray of int of shape (n,)
            The segment of every position.
        skip : ndarray of bool of shape (n_features, n) or None, default=None
            Cuts that cannot be chosen: with it, only the cuts that may be among the best of
            their node are scored exactly, the others get −inf (None: score every cut).

        Returns
        -------
        ndarray of shape (n_features, n)
            The score of the cut after every position: larger is better.
        """
        left, right = split_costs(stats, order, seg_start, seg_len, seg_id, skip=skip)
        return -(left + right)

    def node_value(self, sums):
        """The weighted medians ỹ_τ, shape (n_nodes, 1).

        Parameters
        ----------
        sums : ndarray of shape (3, n_nodes)
            (N_τ, ỹ_τ, Σ w abs(t − ỹ_τ)) of each node.

        Returns
        -------
        ndarray of shape (n_nodes, 1)
            ỹ_τ.
        """
        return sums[1][:, None]

    def node_impurity(self, sums):
        """The mean absolute deviation Σ w abs(t − ỹ_τ) / N_τ of each node.

        Parameters
        ----------
        sums : ndarray of shape (3, n_nodes)
            (N_τ, ỹ_τ, Σ w abs(t − ỹ_τ)) of each node.

        Returns
        -------
        ndarray of shape (n_nodes,)
            Q_τ of each node.
        """
        return sums[2] / sums[0]

    def can_split(self, impurity, sums, counts, scale):
        """A node may be cut unless its targets are constant, at any scale of t.

        The absolute deviations of a constant node are each exactly 0, so their sum is exactly
        0: no threshold is needed.

        Parameters
        ----------
        impurity : ndarray of shape (n_nodes,)
            Q_τ of each node.
        sums : ndarray of shape (3, n_nodes)
            (N_τ, ỹ_τ, Σ w abs(t − ỹ_τ)) of each node (unused).
        counts : ndarray of int of shape (n_nodes,)
            The number of samples of each node (unused).
        scale : ndarray of shape (n_nodes,)
            The rounding scale of each node's sums (unused).

        Returns
        -------
        ndarray of bool
            True for the nodes that may be cut.
        """
        return impurity > 0
