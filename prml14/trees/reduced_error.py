"""Reduced-error pruning (Quinlan 1987) of a grown tree on a validation set (book page B.9).

Every node t of the grown tree, if it were a leaf, would make the validation error E_V(t): the
total (weighted) loss of the validation points that reach it, predicted by t's training value
(the misclassified weight for classification, the squared or absolute error for regression).
Going bottom-up, t is collapsed into a leaf whenever

    E_V(t) ≤ Σ_{leaves τ of the pruned branch below t} E_V(τ),                 (B.28)

the subtree's error being that of its children after their own pruning. One bottom-up pass
gives the smallest subtree among those of least validation error (Esposito, Malerba and
Semeraro 1997): the error of a branch is the sum of its children's, so the best branch below t
is built from the best branches below its children, and collapsing on ties keeps it smallest.
Nodes that no validation point reaches have E_V = 0 and are collapsed. Errors within a relative
1e-9 of each other count as equal (sums of fractional weights are inexact).
"""

from __future__ import annotations

import copy

import numpy as np
from sklearn.base import is_classifier
from sklearn.utils.validation import check_is_fitted

from .._equations import implements
from .._validation import (
    as_float,
    check_array,
    check_magnitude,
    check_sample_weight,
    check_tree,
)
from .structure import TREE_LEAF

__all__ = ["validation_node_errors", "reduced_error_subtree", "reduced_error_prune"]

_LOSSES = ("misclassification", "squared_error", "absolute_error")
# errors that differ by a rounding error tie (fractional weights make sums inexact); ties collapse
_TIE = 1e-9


def validation_node_errors(tree, X, y, *, loss, sample_weight=None):
    """E_V(t) of every node of ``tree``: the validation error if t were a leaf.

    Parameters
    ----------
    tree : prml14.trees.Tree
        A fitted tree.
    X : array-like of shape (n_samples, n_features)
        Validation inputs.
    y : array-like of shape (n_samples,)
        Validation targets: class indices (columns of ``tree.value``) for
        ``loss="misclassification"``, real values otherwise.
    loss : {"misclassification", "squared_error", "absolute_error"}
        The loss of one point given the node's value (its majority class, or
        ``tree.value[t, 0]``).
    sample_weight : array-like of shape (n_samples,) or None, default=None
        Weights of the validation points (unit weights if None).

    Returns
    -------
    ndarray of shape (n_nodes,)
        E_V(t) of every node.

    Raises
    ------
    TypeError
        If ``tree`` is not a fitted :class:`~prml14.trees.structure.Tree`
        (an estimator is refused: pass its ``tree_``).
    ValueError
        Naming the argument, if ``loss`` is not one of the three; X is not a finite 2-D array;
        y is not 1-D, is not finite or exceeds 1e100 in magnitude (real targets), or is not
        class indices 0..n_classes-1 (misclassification); X and y have inconsistent numbers of
        samples; or ``sample_weight`` is negative, not finite, all zero or beyond 1e100.
    """
    tree = check_tree(tree)
    if loss not in _LOSSES:
        raise ValueError(f"loss must be one of {_LOSSES}, got {loss!r}")
    X, y = _check_validation_data(X, y, loss != "misclassification", "X", "y")
    w = check_sample_weight(sample_weight, X, dtype=np.float64)
    if loss == "misclassification" and (
        not np.issubdtype(y.dtype, np.integer) or np.any((y < 0) | (y >= tree.value.shape[1]))
    ):
        raise ValueError("y must hold class indices 0..n_classes-1 for misclassification")
    return _node_errors(tree, X, y, loss, w)


def _check_validation_data(X, y, regression, x_name, y_name):
    """Finite 2-D inputs and 1-D targets of the same length (real targets for regression,
    within 1e100 in magnitude like the training targets, so that squared errors stay finite)."""
    X = check_array(X, dtype=np.float64, input_name=x_name)
    if regression:
        y = as_float(y, y_name)
        check_magnitude(y, y_name, 1e100)
    else:
        y = np.asarray(y)
        if np.iscomplexobj(y):
            raise ValueError(f"{y_name} must hold class labels, got complex values")
    if y.ndim != 1:
        raise ValueError(f"{y_name} must be a 1-D array of targets, got shape {y.shape}")
    if y.shape[0] != X.shape[0]:
        raise ValueError(
            f"{x_name} and {y_name} have inconsistent numbers of samples: {x_name} has "
            f"{X.shape[0]}, {y_name} has {y.shape[0]}"
        )
    return X, y


def _node_errors(tree, X, y, loss, w):
    """E_V(t) of every node, for validated data (class indices y for misclassification)."""
    if loss == "misclassification":
        pred = np.argmax(tree.value, axis=1)
    else:
        y = y.astype(np.float64)
        pred = tree.value[:, 0]

    def point_loss(node, t):
        if loss == "misclassification":
            return (pred[node] != t).astype(float)
        d = pred[node] - t
        return d * d if loss == "squared_error" else np.abs(d)

    errors = np.zeros(tree.node_count)
    node = np.zeros(X.shape[0], dtype=np.intp)
    active = np.arange(X.shape[0])
    while active.size:  # one step per level: every point adds its loss at every node it visits
        cur = node[active]
        errors += np.bincount(cur, w[active] * point_loss(cur, y[active]), tree.node_count)
        inner = tree.children_left[cur] != TREE_LEAF
        active, cur = active[inner], cur[inner]
        go_left = X[active, tree.feature[cur]] <= tree.threshold[cur]
        node[active] = np.where(go_left, tree.children_left[cur], tree.children_right[cur])
    return errors


@implements("B.28")
def reduced_error_subtree(tree, node_errors):
    """Prune bottom-up, collapsing t whenever E_V(t) ≤ the error of its pruned branch, (B.28).

    Parameters
    ----------
    tree : prml14.trees.Tree or prml14.trees.c45_estimators.MultiwayTree
        A fitted tree (binary, or multiway from
        :class:`~prml14.trees.c45_estimators.C45Classifier`).
    node_errors : array-like of shape (n_nodes,)
        E_V(t) of every node (:func:`validation_node_errors`, or
        :meth:`~prml14.trees.c45_estimators.C45Classifier.validation_node_errors`).

    Returns
    -------
    tree : prml14.trees.Tree
        The smallest subtree of least validation error.
    error : float
        Its validation error.

    Raises
    ------
    TypeError
        If tree is not a fitted :class:`~prml14.trees.structure.Tree`
        (an estimator is refused: pass its ``tree_``).
    ValueError
        If node_errors is not a finite real array of shape (tree.node_count,).
    """
    tree = check_tree(tree)
    E = as_float(node_errors, "node_errors")
    if E.shape != (tree.node_count,):
        raise ValueError(f"node_errors must have shape ({tree.node_count},), got {E.shape}")
    if hasattr(tree, "branch_fraction"):  # a multiway C4.5 tree: children after parents
        branch = E.copy()
        collapse = np.zeros(tree.node_count, dtype=bool)
        for t in range(tree.node_count - 1, -1, -1):
            if tree.children[t].size:
                below = branch[tree.children[t]].sum()
                collapse[t] = E[t] <= below + _TIE * max(1.0, abs(below))
                branch[t] = E[t] if collapse[t] else below
        return tree.subtree(collapse), float(branch[0])
    left, right = tree.children_left, tree.children_right
    inner = left != TREE_LEAF
    branch = E.copy()  # error of the pruned branch below every node
    collapse = np.zeros(tree.node_count, dtype=bool)
    for d in range(tree.max_depth - 1, -1, -1):  # bottom-up, one level at a time
        nodes = np.flatnonzero(inner & (tree.depth == d))
        below = branch[left[nodes]] + branch[right[nodes]]
        collapse[nodes] = E[nodes] <= below + _TIE * np.maximum(1.0, np.abs(below))
        branch[nodes] = np.where(collapse[nodes], E[nodes], below)
    return tree.subtree(collapse), float(branch[0])


def reduced_error_prune(estimator, X_val, y_val, sample_weight=None):
    """A copy of a fitted prml14 tree estimator with its tree pruned by reduced error (B.28).

    Classifiers are pruned by the misclassified validation weight; regressors by the squared
    error, or the absolute error if they grew with ``criterion="absolute_error"``. A
    :class:`~prml14.trees.c45_estimators.C45Classifier` is pruned by the weight its nodes' majority
    classes misclassify, validation points with missing values counting with their fractions.

    Parameters
    ----------
    estimator : DecisionTreeClassifier, DecisionTreeRegressor or C45Classifier
        A fitted tree estimator of prml14 (its ``tree_`` is pruned).
    X_val : array-like of shape (n_samples, n_features)
        The validation inputs (not used to grow the tree).
    y_val : array-like of shape (n_samples,)
        The validation targets.
    sample_weight : array-like of shape (n_samples,) or None, default=None
        Weights of the validation points.

    Returns
    -------
    estimator
        A deep copy whose ``tree_`` is the pruned tree (``full_tree_`` is kept).

    Raises
    ------
    TypeError
        If ``estimator`` is not an estimator instance.
    ValueError
        scikit-learn's ``NotFittedError`` (a ValueError) if ``estimator`` is not fitted; naming
        the argument, if ``X_val`` is not a finite 2-D array with the estimator's number
        of features (C4.5 accepts NaN); ``y_val`` is not 1-D, holds labels the classifier was
        not trained on or, for a regressor, is not finite or exceeds 1e100 in magnitude;
        ``X_val`` and ``y_val`` have inconsistent numbers of samples; or ``sample_weight`` is
        negative, not finite, all zero or beyond 1e100.
    """
    check_is_fitted(estimator, "tree_")
    if hasattr(estimator.tree_, "branch_fraction"):  # C4.5: NaN allowed, fractional routes
        errors = estimator.validation_node_errors(X_val, y_val, sample_weight)
        pruned = copy.deepcopy(estimator)
        pruned.tree_, _ = reduced_error_subtree(estimator.tree_, errors)
        return pruned
    X_val, y_val = _check_validation_data(
        X_val, y_val, not is_classifier(estimator), "X_val", "y_val"
    )
    if X_val.shape[1] != estimator.n_features_in_:
        raise ValueError(
            f"X_val has {X_val.shape[1]} features, the estimator expects "
            f"{estimator.n_features_in_}"
        )
    w = check_sample_weight(sample_weight, X_val, dtype=np.float64)
    if is_classifier(estimator):
        idx = np.searchsorted(estimator.classes_, y_val)
        idx = np.minimum(idx, estimator.classes_.size - 1)
        if np.any(estimator.classes_[idx] != y_val):
            raise ValueError("y_val holds labels the estimator was not trained on")
        y_val, loss = idx, "misclassification"
    else:
        abs_err = getattr(estimator, "criterion", "squared_error") == "absolute_error"
        loss = "absolute_error" if abs_err else "squared_error"
    errors = _node_errors(estimator.tree_, X_val, y_val, loss, w)
    pruned = copy.deepcopy(estimator)
    pruned.tree_, _ = reduced_error_subtree(estimator.tree_, errors)
    return pruned
