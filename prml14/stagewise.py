"""Forward stagewise additive modelling and the second-order objective: the core of pages B.1
and B.5.

Forward stagewise additive modelling (page B.1) builds f_M(x) = f_0 + ν Σ_m β_m b_m(x) one term
at a time, never revisiting earlier terms:

* (B.1) :func:`stagewise_step`: (β_m, b_m) = argmin_{β, b} Σ_n w_n L(t_n, f_{m−1}(x_n) +
  β b(x_n)) over a set of candidate base learners, with the line search over β;
* (B.2) :func:`stagewise_update`: f_m = f_{m−1} + ν β_m b_m, with the shrinkage ν ∈ (0, 1];
* (B.3) :func:`l2_residuals`: for the squared error the greedy step fits the residuals
  t_n − f_{m−1}(x_n) by least squares (L2Boost).

Second-order trees (page B.5) minimise a regularised objective:

* (B.18) :func:`regularised_objective`: Σ_n L(t_n, f(x_n)) + Σ_m (γ T_m + ½ λ Σ_j v_mj²);
* (B.19) :func:`second_order_objective`: the objective of one new tree after the second-order
  Taylor expansion, grouped by leaf: Σ_j [G_j v_j + ½ (H_j + λ) v_j²] + γ T;
* (B.20), (B.21): the optimal leaf value −G/(H + λ) and the split gain are the tree engine's
  :func:`~prml14.trees.impurities.second_order_leaf_value` and
  :func:`~prml14.trees.impurities.second_order_split_gain`; :func:`prune_by_gain` applies γ
  after growing, bottom-up, as xgboost does.
"""

from __future__ import annotations

import numpy as np

from ._equations import implements
from ._validation import as_float
from .boosting_losses import line_search
from .trees.pruning import pruning_costs

__all__ = [
    "stagewise_step",
    "stagewise_update",
    "l2_residuals",
    "regularised_objective",
    "second_order_objective",
    "prune_by_gain",
]


@implements("B.1")
def stagewise_step(loss, t, F, candidates, sample_weight=None):
    """The greedy step (B.1): the candidate and the coefficient β that lower the loss most.

    Each candidate b (a column of ``candidates``) gets its own line search
    β_b = argmin_β Σ_n w_n L(t_n, F_n + β b(x_n)); the step keeps the best pair.

    Parameters
    ----------
    loss : loss object
        A one-output loss of :func:`~prml14.boosting_losses.make_loss`.
    t : array-like of shape (n_samples,)
        Targets.
    F : array-like of shape (n_samples,)
        The current model f_{m−1}(x_n).
    candidates : array-like of shape (n_samples, n_candidates)
        The outputs b(x_n) of every candidate base learner.
    sample_weight : array-like of shape (n_samples,) or None, default=None
        Weights.

    Returns
    -------
    index : int
        The column of the chosen base learner.
    beta : float
        Its coefficient β_m.
    """
    t, F = as_float(t, "t", allow_inf=True), as_float(F, "F", allow_inf=True)
    B = as_float(candidates, "candidates", allow_inf=True)
    if B.ndim != 2 or B.shape[0] != t.size:
        raise ValueError(f"candidates must have shape (n_samples, n_candidates), got {B.shape}")
    w = (
        np.ones(t.size)
        if sample_weight is None
        else as_float(sample_weight, "sample_weight", allow_inf=True)
    )
    betas = np.array([line_search(loss, t, F, B[:, j], w) for j in range(B.shape[1])])
    losses = [loss(t, (F + b * B[:, j])[:, None], w) for j, b in enumerate(betas)]
    j = int(np.argmin(losses))
    return j, float(betas[j])


@implements("B.2")
def stagewise_update(F, step, learning_rate=1.0):
    """f_m = f_{m−1} + ν β_m b_m (B.2): add the new term, shrunk by ν.

    Parameters
    ----------
    F : array-like
        f_{m−1} at the points.
    step : array-like
        β_m b_m at the points (broadcast with ``F``).
    learning_rate : float in (0, 1], default=1.0
        The shrinkage ν.

    Returns
    -------
    ndarray
        f_m at the points.
    """
    if not 0 < learning_rate <= 1:
        raise ValueError(f"learning_rate must be in (0, 1], got {learning_rate!r}")
    return as_float(F, "F", allow_inf=True) + learning_rate * as_float(
        step, "step", allow_inf=True
    )


@implements("B.3")
def l2_residuals(t, F):
    """The residuals t_n − f_{m−1}(x_n) that L2Boost fits by least squares (B.3).

    They are the negative gradient of ½ (t − f)², so L2Boost is gradient boosting with the
    squared error.

    Parameters
    ----------
    t : array-like of shape (n_samples,)
        Targets.
    F : array-like of shape (n_samples,)
        The current model at the points.

    Returns
    -------
    ndarray of shape (n_samples,)
        t − F.
    """
    t, F = as_float(t, "t", allow_inf=True), as_float(F, "F", allow_inf=True)
    if t.shape != F.shape:
        raise ValueError(f"t and F must have the same shape, got {t.shape} and {F.shape}")
    return t - F


@implements("B.18")
def regularised_objective(loss_sum, leaf_values, reg_lambda=0.0, gamma=0.0):
    """Σ_n L(t_n, f(x_n)) + Σ_m Ω(f_m), Ω = γ T + ½ λ Σ_j v_j² (B.18).

    Parameters
    ----------
    loss_sum : float
        The summed loss of the ensemble on the training data.
    leaf_values : list of array-like
        The leaf values v_mj of every tree (T_m of them).
    reg_lambda : float >= 0, default=0.0
        λ.
    gamma : float >= 0, default=0.0
        γ, the cost of a leaf.

    Returns
    -------
    float
        The regularised objective.
    """
    penalty = sum(
        gamma * np.size(v) + 0.5 * reg_lambda * float(np.sum(np.square(v))) for v in leaf_values
    )
    return float(loss_sum) + penalty


@implements("B.19")
def second_order_objective(G, H, v, reg_lambda=0.0, gamma=0.0):
    """The second-order objective of one new tree, Σ_j [G_j v_j + ½ (H_j + λ) v_j²] + γ T (B.19).

    Parameters
    ----------
    G, H : array-like of shape (T,)
        Sums of the gradients and Hessians of the loss in each leaf.
    v : array-like of shape (T,)
        The leaf values.
    reg_lambda : float >= 0, default=0.0
        λ.
    gamma : float >= 0, default=0.0
        γ.

    Returns
    -------
    float
        The objective (up to the constant Σ_n L(t_n, f_{m−1}(x_n))).
    """
    G, H, v = (
        as_float(G, "G", allow_inf=True),
        as_float(H, "H", allow_inf=True),
        as_float(v, "v", allow_inf=True),
    )
    return float(np.sum(G * v + 0.5 * (H + reg_lambda) * v * v) + gamma * v.size)


@implements("B.21")
def prune_by_gain(tree, gamma):
    """Remove, bottom-up, every cut of a second-order tree whose gain is below γ (B.21).

    A cut whose two children are leaves is undone when ½ [G_L²/(H_L + λ) + G_R²/(H_R + λ) −
    G²/(H + λ)] < γ; undoing cuts can expose their parents, which are tested in turn. This is
    how xgboost applies γ (its ``min_split_loss``, which it compares with twice this gain).

    Parameters
    ----------
    tree : prml14.trees.Tree
        A tree grown with :class:`~prml14.trees.criteria.SecondOrder`.
    gamma : float >= 0
        γ.

    Returns
    -------
    prml14.trees.Tree
        The pruned tree (``tree`` itself when nothing is pruned).
    """
    if gamma <= 0 or tree.node_count == 1:
        return tree
    cost = pruning_costs(tree)  # −½ G²/(H + λ) of every node
    left, right = tree.children_left.copy(), tree.children_right.copy()
    inner = np.flatnonzero(left >= 0)
    gain = np.full(tree.node_count, np.inf)
    gain[inner] = cost[inner] - cost[left[inner]] - cost[right[inner]]
    collapse = np.zeros(tree.node_count, dtype=bool)
    for d in range(tree.max_depth - 1, -1, -1):  # deepest cuts first
        at = inner[tree.depth[inner] == d]
        both_leaves = (left[left[at]] < 0) & (left[right[at]] < 0)
        undo = at[both_leaves & (gain[at] < gamma)]
        collapse[undo] = True
        left[undo] = right[undo] = -1
    return tree.subtree(collapse) if collapse.any() else tree
