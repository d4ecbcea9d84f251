"""Cost-complexity pruning of CART trees, equation (14.31).

For a subtree T of the fully grown tree T₀ (obtained by collapsing internal nodes into leaves)
the cost is::

    C(T) = Σ_{τ=1}^{|T|} Q_τ(T) + λ|T|,

where Q_τ is the cost of leaf τ **summed over its training points**: the residual sum of squares
(14.30) for regression, and N_τ times an impurity rate for classification (N_τ times the
misclassification rate, i.e. the number of misclassified training points, by default). With
weights, N_τ is the total weight in the leaf. scikit-learn divides every cost by the total
weight N, so its ``ccp_alpha`` equals λ/N.

Weakest-link pruning (Breiman et al., 1984): for an internal node t with branch T_t, let::

    g(t) = (Q(t) − Σ_{leaves τ of T_t} Q_τ) / (|T_t| − 1)

is the λ at which collapsing t stops costing more than keeping its branch. Repeatedly collapsing
the node of smallest g gives a nested sequence of subtrees, each optimal for C(T) on an interval
of λ. :func:`weakest_link_path` keeps the g values in a heap. Collapsing a node never lowers the
g of its ancestors (their g stays ≥ the current λ), so stale heap entries are refreshed lazily
when they surface instead of rescanning the tree after every prune.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass

import numpy as np
from sklearn.base import clone, is_classifier
from sklearn.model_selection import KFold, StratifiedKFold

from .._equations import implements
from .._validation import as_float, check_array, check_number, check_random_state, check_tree

__all__ = [
    "pruning_costs",
    "cost_complexity",
    "PruningPath",
    "weakest_link_path",
    "prune_to_lambda",
    "cross_validate_ccp_lambda",
]


def _check_lambda(lam):
    """λ of (14.31): a finite real number >= 0 (TypeError for a string)."""
    return check_number(lam, "lam", low=0.0)


@implements("14.31")
def cost_complexity(leaf_costs, lam):
    """The pruning criterion C(T) = Σ_τ Q_τ(T) + λ·``|T|``, equation (14.31).

    Parameters
    ----------
    leaf_costs : array-like of shape (n_leaves,)
        Q_τ ≥ 0 of every leaf of T, summed over the leaf's training points (see the module
        docstring).
    lam : float >= 0
        The complexity parameter λ.

    Returns
    -------
    float
        C(T).

    Raises
    ------
    TypeError
        If ``lam`` is not a real number.
    ValueError
        If ``leaf_costs`` is empty, not 1-D, negative or not finite, or ``lam`` is negative or
        not finite.
    """
    leaf_costs = as_float(leaf_costs, "leaf_costs", non_negative=True)
    if leaf_costs.ndim != 1 or leaf_costs.size == 0:
        raise ValueError(f"leaf_costs must be a non-empty 1-D array, got shape {leaf_costs.shape}")
    lam = _check_lambda(lam)
    return float(leaf_costs.sum() + lam * leaf_costs.size)


@implements("14.30", "14.31")
def pruning_costs(tree, cost="impurity"):
    """The cost N_τ Q_τ of every node of a tree as if it were a leaf: the terms of (14.31).

    Parameters
    ----------
    tree : prml14.trees.Tree
        A fitted tree.
    cost : {"impurity", "misclassification"}, default="impurity"
        ``"impurity"``: N_τ times the impurity the tree grew with (the residual sum of squares
        (14.30) of a regression tree; N_τ times (14.32) or (14.33) for a classification tree;
        −½ G²/(H + λ) for a second-order tree). ``"misclassification"``: the weight of the
        training points the node's majority class misclassifies, N_τ (1 − max_k p_τk)
        (classification trees only).

    Returns
    -------
    ndarray of shape (n_nodes,)
        N_τ Q_τ of every node.

    Raises
    ------
    TypeError
        If ``tree`` is not a :class:`~prml14.trees.Tree` (a fitted estimator's ``tree_``).
    ValueError
        If ``cost`` is not one of the options.
    """
    tree = check_tree(tree)
    if cost == "impurity":
        return tree.weighted_n_node_samples * tree.impurity
    if cost == "misclassification":
        return tree.weighted_n_node_samples * (1.0 - tree.value.max(axis=1))
    raise ValueError(f"cost must be 'impurity' or 'misclassification', got {cost!r}")


def _estimator_costs(estimator, tree):
    """The node costs a fitted tree estimator prunes with (its ``pruning_criterion``)."""
    if getattr(estimator, "pruning_criterion", "same") == "misclassification":
        return pruning_costs(tree, "misclassification")
    return pruning_costs(tree)


@dataclass
class PruningPath:
    """The weakest-link pruning path of a tree.

    Parameters
    ----------
    lambdas : ndarray of shape (n_steps + 1,)
        0 followed by the g value of every collapse, in order (non-decreasing, never negative:
        a g a rounding error below 0 is recorded as 0).
    costs : ndarray of shape (n_steps + 1,)
        Σ_τ Q_τ of the subtree after each collapse (the first entry: the full tree).
    n_leaves : ndarray of shape (n_steps + 1,)
        ``|T|`` after each collapse.
    collapsed : ndarray of shape (n_steps,)
        The node collapsed at each step.
    """

    lambdas: np.ndarray
    costs: np.ndarray
    n_leaves: np.ndarray
    collapsed: np.ndarray


def _branch_stats(tree, node_costs):
    """Σ Q over the leaves below every node and the number of those leaves (bottom-up by level)."""
    left, right = tree.children_left, tree.children_right
    inner = left >= 0
    R_branch = np.where(inner, 0.0, node_costs).astype(float)
    n_leaves = (~inner).astype(np.int64)
    for d in range(tree.max_depth - 1, -1, -1):
        nodes = np.flatnonzero(inner & (tree.depth == d))
        R_branch[nodes] = R_branch[left[nodes]] + R_branch[right[nodes]]
        n_leaves[nodes] = n_leaves[left[nodes]] + n_leaves[right[nodes]]
    return R_branch, n_leaves


@implements("14.31")
def weakest_link_path(tree, node_costs, max_lambda=np.inf):
    """All the subtrees of weakest-link pruning and the λ breakpoints between them (14.31).

    Parameters
    ----------
    tree : prml14.trees.Tree
        The fully grown tree.
    node_costs : ndarray of shape (n_nodes,)
        Q of every node as if it were a leaf (summed over its training points).
    max_lambda : float >= 0, default=inf
        Stop before the first collapse whose g exceeds this value.

    Returns
    -------
    PruningPath
        The breakpoints, the costs and sizes of the subtrees, and the collapsed nodes.

    Raises
    ------
    TypeError
        If ``tree`` is not a :class:`~prml14.trees.Tree` (a fitted estimator's ``tree_``), or
        ``max_lambda`` is not a real number.
    ValueError
        If ``node_costs`` is not a finite array of shape (n_nodes,), or ``max_lambda`` is NaN or
        negative.
    """
    tree = check_tree(tree)
    check_number(max_lambda, "max_lambda", low=0.0, finite=False)
    node_costs = as_float(node_costs, "node_costs")
    if node_costs.shape != (tree.node_count,):
        raise ValueError(
            f"node_costs must have shape ({tree.node_count},), got {node_costs.shape}"
        )
    R_branch_arr, n_leaves_arr = _branch_stats(tree, node_costs)
    parent = tree.parent.tolist()
    left = tree.children_left.tolist()
    right = tree.children_right.tolist()
    R = node_costs.tolist()
    Rb = R_branch_arr.tolist()
    nl = n_leaves_arr.tolist()
    inner = np.flatnonzero(tree.children_left >= 0)
    g0 = (node_costs[inner] - R_branch_arr[inner]) / (n_leaves_arr[inner] - 1)
    heap = list(zip(g0.tolist(), inner.tolist(), strict=True))
    heapq.heapify(heap)
    alive = [True] * tree.node_count  # still in the subtree and still internal
    for i in np.flatnonzero(tree.children_left < 0).tolist():
        alive[i] = False
    lambdas, costs, leaves, collapsed = [0.0], [Rb[0]], [nl[0]], []
    heappop = heapq.heappop
    while heap:
        g, t = heap[0]
        if not alive[t]:
            heappop(heap)
            continue
        current = (R[t] - Rb[t]) / (nl[t] - 1)
        if current != g:  # the key went up since it was pushed: refresh it
            heapq.heapreplace(heap, (current, t))
            continue
        if g > max_lambda:
            break
        heappop(heap)
        # collapse t: its inner descendants leave the subtree
        stack = [left[t], right[t]]
        while stack:
            u = stack.pop()
            if alive[u]:
                alive[u] = False
                stack.append(left[u])
                stack.append(right[u])
        alive[t] = False
        d_leaves = nl[t] - 1
        d_cost = R[t] - Rb[t]
        Rb[t], nl[t] = R[t], 1
        a = parent[t]
        while a >= 0:
            nl[a] -= d_leaves
            Rb[a] += d_cost
            a = parent[a]
        lambdas.append(max(g, 0.0))  # g < 0 only by rounding: collapsing never lowers Σ_τ Q_τ
        costs.append(Rb[0])
        leaves.append(nl[0])
        collapsed.append(t)
    return PruningPath(
        np.array(lambdas),
        np.array(costs),
        np.array(leaves, dtype=np.int64),
        np.array(collapsed, dtype=np.intp),
    )


def prune_to_lambda(tree, node_costs, lam):
    """The subtree that minimises C(T) = Σ_τ Q_τ + λ·``|T|`` (14.31): collapse while g ≤ λ.

    Parameters
    ----------
    tree : prml14.trees.Tree
        The fully grown tree.
    node_costs : ndarray of shape (n_nodes,)
        N_τ Q_τ of every node as if it were a leaf (:func:`pruning_costs`).
    lam : float >= 0
        The complexity parameter λ.

    Returns
    -------
    prml14.trees.Tree
        The pruned tree.

    Raises
    ------
    TypeError
        If ``tree`` is not a :class:`~prml14.trees.Tree` (a fitted estimator's ``tree_``), or
        ``lam`` is not a real number.
    ValueError
        If ``lam`` is negative or not finite, or ``node_costs`` is not a finite array of shape
        (n_nodes,).
    """
    _check_lambda(lam)
    path = weakest_link_path(tree, node_costs, max_lambda=lam)
    keep_as_leaf = np.zeros(tree.node_count, dtype=bool)
    keep_as_leaf[path.collapsed] = True
    return tree.subtree(keep_as_leaf)


def _subtree_error(estimator, tree, X, y):
    leaves = tree.apply(X)
    if is_classifier(estimator):
        pred = estimator.classes_[np.argmax(tree.value[leaves], axis=1)]
        return float(np.mean(pred != y))
    return float(np.mean((tree.value[leaves, 0] - y) ** 2))


def _check_cv_data(X, y, classifier):
    """Finite 2-D X and 1-D y of the same length (real y for a regressor)."""
    X = check_array(X, dtype=np.float64, input_name="X")
    if not classifier:
        y = as_float(y, "y")
    elif np.iscomplexobj(y):
        raise ValueError("y must hold class labels, got complex values")
    y = np.asarray(y)
    if y.ndim != 1:
        raise ValueError(f"y must be a 1-D array of targets, got shape {y.shape}")
    if y.shape[0] != X.shape[0]:
        raise ValueError(
            f"X and y have inconsistent numbers of samples: X has {X.shape[0]}, y has {y.shape[0]}"
        )
    return X, y


def cross_validate_ccp_lambda(estimator, X, y, *, cv=5, n_lambdas=40, random_state=None):
    """Choose λ of (14.31) by K-fold cross-validation.

    The candidates are geometric means of consecutive breakpoints of the pruning path on all the
    data (a representative λ for every subtree on the path), thinned to at most ``n_lambdas``.
    In every fold the tree is grown once on the training part; its subtrees for all candidates
    come from one weakest-link path and are scored on the held-out part (mean squared error for
    regression, misclassification rate for classification).

    Parameters
    ----------
    estimator : DecisionTreeRegressor or DecisionTreeClassifier
        Unfitted; its ``ccp_lambda`` is ignored.
    X : array-like of shape (n_samples, n_features)
        Inputs.
    y : array-like of shape (n_samples,)
        Targets.
    cv : int >= 2, default=5
        The number of folds.
    n_lambdas : int >= 1, default=40
        The largest number of candidate λ.
    random_state : int or None
        Shuffles the folds.

    Returns
    -------
    dict
        ``lambdas`` (candidates), ``cv_error`` and ``cv_std`` (mean and standard deviation over
        folds), ``best_lambda`` (smallest mean error) and ``one_se_lambda`` (largest λ within one
        standard error of the best: the simpler tree).

    Raises
    ------
    TypeError
        If ``estimator`` is not a tree estimator with a ``ccp_lambda`` parameter.
    ValueError
        If ``cv`` is not an integer >= 2 or ``n_lambdas`` not a positive integer; if X is not a
        finite 2-D array, y is not 1-D (or, for a regressor, not finite), X and y have
        inconsistent numbers of samples, or ``random_state`` is not a valid seed.
    """
    if not hasattr(estimator, "get_params") or "ccp_lambda" not in estimator.get_params():
        raise TypeError(
            "estimator must be a DecisionTreeRegressor or DecisionTreeClassifier (an estimator "
            f"with a ccp_lambda parameter), got {type(estimator).__name__}"
        )
    if not isinstance(cv, (int, np.integer)) or cv < 2:
        raise ValueError(f"cv must be an integer >= 2, got {cv!r}")
    if not isinstance(n_lambdas, (int, np.integer)) or n_lambdas < 1:
        raise ValueError(f"n_lambdas must be a positive integer, got {n_lambdas!r}")
    X, y = _check_cv_data(X, y, is_classifier(estimator))
    check_random_state(random_state)
    base = clone(estimator).set_params(ccp_lambda=0.0)
    full = clone(base).fit(X, y)
    path = weakest_link_path(full.tree_, _estimator_costs(full, full.tree_))
    bps = np.unique(path.lambdas)
    mids = np.sqrt(bps[:-1] * bps[1:]) if bps.size > 1 else np.array([])
    candidates = np.unique(np.concatenate([[0.0], mids, [bps[-1]]]))
    if candidates.size > n_lambdas:
        candidates = candidates[
            np.unique(np.linspace(0, candidates.size - 1, n_lambdas).round().astype(int))
        ]
    splitter = (StratifiedKFold if is_classifier(estimator) else KFold)(
        n_splits=cv, shuffle=random_state is not None, random_state=random_state
    )
    errors = np.empty((cv, candidates.size))
    for f, (tr, te) in enumerate(splitter.split(X, y)):
        model = clone(base).fit(X[tr], y[tr])
        fold_path = weakest_link_path(model.tree_, _estimator_costs(model, model.tree_))
        # candidates are increasing: collapse the prefix of the path with g <= λ
        n_steps = np.searchsorted(fold_path.lambdas[1:], candidates, side="right")
        for c, steps in enumerate(n_steps):
            keep = np.zeros(model.tree_.node_count, dtype=bool)
            keep[fold_path.collapsed[:steps]] = True
            errors[f, c] = _subtree_error(model, model.tree_.subtree(keep), X[te], y[te])
    mean, std = errors.mean(axis=0), errors.std(axis=0, ddof=1)
    best = int(np.argmin(mean))
    within = np.flatnonzero(mean <= mean[best] + std[best] / np.sqrt(cv))
    return {
        "lambdas": candidates,
        "cv_error": mean,
        "cv_std": std,
        "best_lambda": float(candidates[best]),
        "one_se_lambda": float(candidates[within.max()]),
    }
