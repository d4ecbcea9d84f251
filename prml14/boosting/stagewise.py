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

from .._equations import implements
from .._validation import Axes, as_float, check_magnitude, check_number, check_tree
from ..trees.pruning import pruning_costs
from .gradient_boosting import _check_loss_call, _line_search

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
        A one-output loss of :func:`~prml14.boosting.gradient_boosting.make_loss`.
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

    Raises
    ------
    TypeError
        If loss is not a loss object of ``make_loss``.
    ValueError
        Naming the argument, as :func:`~prml14.boosting.gradient_boosting.line_search` does, and if
        ``candidates`` is not a finite (n_samples, n_candidates) array with a column or more.
    """
    t, F, w = _check_loss_call(loss, t, F, sample_weight, one_output=True, magnitude=1e150)
    F = F[:, 0]
    B = Axes(n_samples=t.size).array(candidates, "candidates", ("n_samples", "n_candidates"))
    if not w.sum() > 0:
        raise ValueError(f"sample_weight must have a positive sum, got {w.sum()}")
    betas = np.array([_line_search(loss, t, F, B[:, j], w) for j in range(B.shape[1])])
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

    Raises
    ------
    TypeError
        If learning_rate is not a real number.
    ValueError
        Naming the argument, if ``step`` does not broadcast to the shape of ``F``, an array
        holds NaN, or ``learning_rate`` is outside (0, 1].
    """
    learning_rate = check_number(learning_rate, "learning_rate", low=0.0, high=1.0, closed="right")
    F, step = as_float(F, "F", allow_inf=True), as_float(step, "step", allow_inf=True)
    try:
        shape = np.broadcast_shapes(F.shape, step.shape)
    except ValueError:
        shape = None
    if shape != F.shape:
        raise ValueError(
            f"step must broadcast to the shape of F, got step of shape {step.shape} and F of "
            f"shape {F.shape}"
        )
    return F + learning_rate * step


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

    Raises
    ------
    ValueError
        If t or F is not a real array, holds NaN, or their shapes differ.
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

    Raises
    ------
    ValueError
        Naming the argument, if ``loss_sum`` is NaN, a leaf value is not finite or beyond 1e150
        in magnitude (its square would overflow), or λ or γ is negative.
    TypeError
        If ``loss_sum``, λ or γ is not a real number, or ``leaf_values`` is not a list.
    """
    loss_sum = check_number(loss_sum, "loss_sum")
    reg_lambda = check_number(reg_lambda, "reg_lambda", low=0.0)
    gamma = check_number(gamma, "gamma", low=0.0)
    if isinstance(leaf_values, (str, bytes)) or not np.iterable(leaf_values):
        raise TypeError(f"leaf_values must be a list of arrays, got {leaf_values!r}")
    values = [as_float(v, "leaf_values") for v in leaf_values]
    for v in values:
        check_magnitude(v, "leaf_values")
    penalty = sum(
        gamma * np.size(v) + 0.5 * reg_lambda * float(np.sum(np.square(v))) for v in values
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

    Raises
    ------
    TypeError
        If reg_lambda or gamma is not a real number.
    ValueError
        Naming the argument, if G, H and v are not finite 1-D arrays of one non-zero length, H
        has a negative entry, v one beyond 1e150 in magnitude, or λ or γ is negative.
    """
    axes = Axes()
    G = axes.array(G, "G", ("T",))
    H = axes.array(H, "H", ("T",), non_negative=True)
    v = axes.array(v, "v", ("T",), max_magnitude=1e150)
    reg_lambda = check_number(reg_lambda, "reg_lambda", low=0.0)
    gamma = check_number(gamma, "gamma", low=0.0)
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

    Raises
    ------
    ValueError
        If γ is negative or NaN.
    TypeError
        If γ is not a real number.
    """
    gamma = check_number(gamma, "gamma", low=0.0)
    tree = check_tree(tree)
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
