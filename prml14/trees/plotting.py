"""Drawings of fitted trees: the partition of a 2-D input space (Fig 14.5) and the binary tree
(Fig 14.6).

Both drawings name things the same way, so that they can be read side by side: the leaves
(regions) are lettered A, B, C, ... from left to right in the tree, and the thresholds are
numbered θ₁, θ₂, ... in level order (root first).
"""

from __future__ import annotations

import string

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.colors import to_rgba
from matplotlib.patches import Rectangle
from sklearn.base import is_classifier
from sklearn.utils.validation import check_is_fitted

from ..plotting import COMPONENT_COLORS, ROLE_COLORS
from .structure import TREE_LEAF

__all__ = ["leaf_letters", "leaf_boxes", "plot_partition", "plot_tree_diagram"]


def _tree(model):
    check_is_fitted(model)
    return model.tree_


def _leaves_left_to_right(tree):
    out, stack = [], [0]
    while stack:
        node = stack.pop()
        if tree.children_left[node] == TREE_LEAF:
            out.append(node)
        else:
            stack.append(tree.children_right[node])
            stack.append(tree.children_left[node])
    return out


def leaf_letters(model):
    """Letters A, B, C, ... for the leaves of a fitted tree, left to right.

    Parameters
    ----------
    model : DecisionTreeRegressor or DecisionTreeClassifier
        A fitted tree.

    Returns
    -------
    dict of int to str
        Node id → label (AA, AB, ... after Z).
    """
    leaves = _leaves_left_to_right(_tree(model))
    letters = list(string.ascii_uppercase)
    letters += [a + b for a in string.ascii_uppercase for b in string.ascii_uppercase]
    return {leaf: letters[i] if i < len(letters) else str(i) for i, leaf in enumerate(leaves)}


def _threshold_names(tree):
    inner = np.flatnonzero(tree.children_left != TREE_LEAF)
    return {node: f"$\\theta_{{{i + 1}}}$" for i, node in enumerate(inner)}


def leaf_boxes(model, bounds):
    """The axis-aligned rectangle of every leaf of a tree fitted on two inputs.

    Parameters
    ----------
    model : DecisionTreeRegressor or DecisionTreeClassifier
        A tree fitted on two features.
    bounds : ((x1_min, x1_max), (x2_min, x2_max))
        The box drawn for the whole input space.

    Returns
    -------
    dict of int to ndarray of shape (2, 2)
        Leaf id → [[x1_low, x1_high], [x2_low, x2_high]].
    """
    tree = _tree(model)
    if model.n_features_in_ != 2:
        raise ValueError(
            "the tree must be fitted on 2 features to draw a partition, "
            f"got {model.n_features_in_}"
        )
    boxes, stack = {}, [(0, np.asarray(bounds, dtype=float))]
    while stack:
        node, box = stack.pop()
        if tree.children_left[node] == TREE_LEAF:
            boxes[node] = box
            continue
        j, thr = tree.feature[node], tree.threshold[node]
        left, right = box.copy(), box.copy()
        left[j, 1] = min(box[j, 1], thr)
        right[j, 0] = max(box[j, 0], thr)
        stack.append((tree.children_left[node], left))
        stack.append((tree.children_right[node], right))
    return boxes


def plot_partition(
    model,
    X=None,
    y=None,
    *,
    ax=None,
    bounds=None,
    label_regions=True,
    label_thresholds=True,
    fill=True,
    feature_names=("$x_1$", "$x_2$"),
):
    """Draw the regions of a tree fitted on two inputs (the counterpart of PRML's Fig 14.5).

    Parameters
    ----------
    model : DecisionTreeRegressor or DecisionTreeClassifier
        A tree fitted on two features.
    X, y : arrays, optional
        Points to scatter on top (classes coloured with the book's palette; regression targets
        with the colour map).
    ax : matplotlib Axes, optional
        Where to draw (default: the current Axes).
    bounds : ((x1_min, x1_max), (x2_min, x2_max)), optional
        Defaults to the range of X (or of the thresholds) with a small margin.
    label_regions, label_thresholds : bool
        Write the leaf letters in the regions and θ_i next to the cuts.
    fill : bool
        Shade each region by its prediction (class colour, or value on the colour map).
    feature_names : pair of str
        Axis labels.

    Returns
    -------
    matplotlib Axes
        The Axes drawn on.
    """
    tree = _tree(model)
    if ax is None:
        ax = plt.gca()
    if bounds is None:
        if X is not None:
            X_ = np.asarray(X, dtype=float)
            low, high = X_.min(axis=0), X_.max(axis=0)
        else:
            thr = [tree.threshold[tree.feature == j] for j in range(2)]
            low = np.array([t.min() if t.size else 0.0 for t in thr])
            high = np.array([t.max() if t.size else 1.0 for t in thr])
        pad = 0.05 * np.maximum(high - low, 1e-12)
        bounds = np.column_stack([low - pad, high + pad])
    bounds = np.asarray(bounds, dtype=float)
    boxes = leaf_boxes(model, bounds)
    letters = leaf_letters(model)
    classifier = is_classifier(model)
    if not classifier:
        values = tree.value[list(boxes), 0]
        vmin, vmax = values.min(), values.max()
        cmap = plt.get_cmap()
    for leaf, box in boxes.items():
        if fill:
            if classifier:
                k = int(np.argmax(tree.value[leaf]))
                color = _class_color(k, len(model.classes_))
                face = to_rgba(color, 0.18)
            else:
                face = to_rgba(cmap((tree.value[leaf, 0] - vmin) / max(vmax - vmin, 1e-12)), 0.35)
            ax.add_patch(
                Rectangle(
                    box[:, 0], *(box[:, 1] - box[:, 0]), facecolor=face, edgecolor="none", zorder=0
                )
            )
        if label_regions:
            ax.text(
                *box.mean(axis=1),
                letters[leaf],
                ha="center",
                va="center",
                fontsize=13,
                color=ROLE_COLORS["combined"],
                zorder=4,
            )
    # the cuts: each inner node splits its own box
    names = _threshold_names(tree)
    stack = [(0, bounds)]
    while stack:
        node, box = stack.pop()
        if tree.children_left[node] == TREE_LEAF:
            continue
        j, thr = tree.feature[node], tree.threshold[node]
        if j == 0:
            ax.plot([thr, thr], box[1], color=ROLE_COLORS["combined"], lw=1.4, zorder=3)
            where = (thr, box[1, 1])
        else:
            ax.plot(box[0], [thr, thr], color=ROLE_COLORS["combined"], lw=1.4, zorder=3)
            where = (box[0, 0], thr)
        if label_thresholds:
            # inside the parent's box: below the top end of a vertical cut, above the left end
            # of a horizontal one (outside, a label would collide with the title or the margin)
            ax.annotate(
                names[node],
                where,
                textcoords="offset points",
                xytext=(3, -3) if j == 0 else (3, 3),
                ha="left",
                va="top" if j == 0 else "bottom",
                fontsize=11,
                color=ROLE_COLORS["highlight"],
                zorder=4,
            )
        left, right = box.copy(), box.copy()
        left[j, 1], right[j, 0] = thr, thr
        stack += [(tree.children_left[node], left), (tree.children_right[node], right)]
    if X is not None:
        X_ = np.asarray(X, dtype=float)
        if y is None:
            ax.scatter(X_[:, 0], X_[:, 1], s=8, color=ROLE_COLORS["data"], zorder=2)
        elif classifier:
            enc = np.searchsorted(model.classes_, np.asarray(y))
            colors = [_class_color(k, len(model.classes_)) for k in enc]
            ax.scatter(X_[:, 0], X_[:, 1], s=8, c=colors, zorder=2)
        else:
            ax.scatter(X_[:, 0], X_[:, 1], s=8, c=np.asarray(y), zorder=2)
    ax.set(xlim=bounds[0], ylim=bounds[1], xlabel=feature_names[0], ylabel=feature_names[1])
    ax.grid(False)
    return ax


def _class_color(k, n_classes):
    if n_classes == 2:
        return ROLE_COLORS["negative"] if k == 0 else ROLE_COLORS["positive"]
    return COMPONENT_COLORS[k % len(COMPONENT_COLORS)]


def _tint(color, strength):
    """``color`` at ``strength`` over white, opaque: the branch lines stay behind the box."""
    rgb = np.array(to_rgba(color)[:3])
    return (*(strength * rgb + (1.0 - strength)), 1.0)


def plot_tree_diagram(model, *, ax=None, feature_names=None, show_thresholds="names", decimals=2):
    """Draw a fitted tree as a binary tree (the counterpart of PRML's Fig 14.6).

    Inner nodes show their test ``x_j > θ_i``; the left branch is "no" (x_j ≤ θ_i), the right
    "yes". Leaves carry the same letters as :func:`plot_partition`.

    Parameters
    ----------
    model : DecisionTreeRegressor or DecisionTreeClassifier
        A fitted tree.
    ax : matplotlib Axes, optional
        Where to draw (default: the current Axes).
    feature_names : list of str, optional
        Defaults to x_1, x_2, ...
    show_thresholds : {"names", "values"}
        Write θ_i or the numerical thresholds.
    decimals : int
        Decimals of the printed thresholds and values.

    Returns
    -------
    matplotlib Axes
        The Axes drawn on.
    """
    tree = _tree(model)
    if show_thresholds not in ("names", "values"):
        raise ValueError(f"show_thresholds must be 'names' or 'values', got {show_thresholds!r}")
    if ax is None:
        ax = plt.gca()
    if feature_names is None:
        feature_names = [f"$x_{{{j + 1}}}$" for j in range(model.n_features_in_)]
    leaves = _leaves_left_to_right(tree)
    letters = leaf_letters(model)
    names = _threshold_names(tree)
    # x: leaves evenly spaced, inner nodes midway between their children; y: minus the depth
    x = np.zeros(tree.node_count)
    x[leaves] = np.arange(len(leaves))
    for node in np.flatnonzero(tree.children_left != TREE_LEAF)[::-1]:  # children before parents
        x[node] = 0.5 * (x[tree.children_left[node]] + x[tree.children_right[node]])
    y = -tree.depth.astype(float)
    for node in np.flatnonzero(tree.children_left != TREE_LEAF):
        for child, label in ((tree.children_left[node], "no"), (tree.children_right[node], "yes")):
            ax.plot([x[node], x[child]], [y[node], y[child]], color="#555555", lw=1.0, zorder=1)
            ax.text(
                0.5 * (x[node] + x[child]),
                0.5 * (y[node] + y[child]),
                label,
                fontsize=10,
                ha="center",
                va="center",
                color="#555555",
                backgroundcolor="white",
                zorder=2,
            )
        thr = names[node] if show_thresholds == "names" else f"{tree.threshold[node]:.{decimals}f}"
        ax.text(
            x[node],
            y[node],
            f"{feature_names[tree.feature[node]]} > {thr}",
            ha="center",
            va="center",
            fontsize=11,
            zorder=3,
            bbox=dict(
                boxstyle="round,pad=0.3", facecolor="white", edgecolor=ROLE_COLORS["combined"]
            ),
        )
    for leaf in leaves:
        if is_classifier(model):
            face = _tint(_class_color(int(np.argmax(tree.value[leaf])), len(model.classes_)), 0.25)
        else:
            face = _tint(ROLE_COLORS["member"], 0.35)
        ax.text(
            x[leaf],
            y[leaf],
            letters[leaf],
            ha="center",
            va="center",
            fontsize=12,
            zorder=3,
            bbox=dict(
                boxstyle="square,pad=0.35", facecolor=face, edgecolor=ROLE_COLORS["combined"]
            ),
        )
    ax.set_xlim(-0.7, max(len(leaves) - 0.3, 0.7))
    ax.set_ylim(y.min() - 0.5, 0.5)
    ax.set_axis_off()
    return ax
