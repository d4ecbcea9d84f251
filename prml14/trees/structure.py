"""The fitted tree as parallel arrays: :class:`Tree`, with ``apply`` and ``subtree``.

Node 0 is the root; the nodes are numbered level by level. Leaves have ``children_left ==
children_right == TREE_LEAF`` (-1).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.sparse import csr_matrix

__all__ = ["TREE_LEAF", "Tree"]

TREE_LEAF = -1


@dataclass
class Tree:
    """A fitted binary tree stored as parallel arrays (node 0 is the root).

    Parameters
    ----------
    children_left, children_right : ndarray of int
        Child ids, ``-1`` for leaves.
    feature : ndarray of int
        Split feature (``-2`` for leaves).
    threshold : ndarray of float
        Split threshold: ``x[feature] <= threshold`` goes left (``-2`` for leaves).
    value : ndarray of shape (n_nodes, n_outputs)
        Regression: the leaf value (14.29) in column 0. Classification: the weighted class
        proportions p_τk. Second-order trees: −G/(H + λ) in column 0.
    impurity : ndarray of float
        The growth criterion's impurity per unit weight: (14.30)/N_τ for regression (the
        variance of the region), (14.32) in nats, (14.33), the misclassification rate, or
        −½ G²/((H + λ) H) for second-order trees.
    n_node_samples : ndarray of int
        The number of training samples in the node.
    weighted_n_node_samples : ndarray of float
        N_τ (the total sample weight in the node; H for second-order trees).
    depth : ndarray of int
        The depth of the node (the root: 0).
    """

    children_left: np.ndarray
    children_right: np.ndarray
    feature: np.ndarray
    threshold: np.ndarray
    value: np.ndarray
    impurity: np.ndarray
    n_node_samples: np.ndarray
    weighted_n_node_samples: np.ndarray
    depth: np.ndarray

    @property
    def node_count(self):
        """The number of nodes."""
        return len(self.children_left)

    @property
    def is_leaf(self):
        """A mask of the leaves."""
        return self.children_left == TREE_LEAF

    @property
    def n_leaves(self):
        """The number of leaves ``|T|``."""
        return int(np.count_nonzero(self.is_leaf))

    @property
    def max_depth(self):
        """The depth of the deepest leaf."""
        return int(self.depth.max())

    @property
    def parent(self):
        """The parent of every node (-1 for the root)."""
        parent = np.full(self.node_count, -1, dtype=np.intp)
        inner = np.flatnonzero(~self.is_leaf)
        parent[self.children_left[inner]] = inner
        parent[self.children_right[inner]] = inner
        return parent

    def apply(self, X):
        """Index of the leaf reached by each row of X (vectorized, one step per level).

        Parameters
        ----------
        X : ndarray of shape (n_samples, n_features)
            Inputs.

        Returns
        -------
        ndarray of int of shape (n_samples,)
            The node id of each sample's leaf.
        """
        X = np.asarray(X)
        node = np.zeros(X.shape[0], dtype=np.intp)
        active = np.flatnonzero(self.children_left[node] != TREE_LEAF)
        while active.size:
            cur = node[active]
            go_left = X[active, self.feature[cur]] <= self.threshold[cur]
            nxt = np.where(go_left, self.children_left[cur], self.children_right[cur])
            node[active] = nxt
            active = active[self.children_left[nxt] != TREE_LEAF]
        return node

    def decision_path(self, X):
        """The nodes each row of X passes through, as scikit-learn's ``decision_path``.

        Parameters
        ----------
        X : ndarray of shape (n_samples, n_features)
            Inputs.

        Returns
        -------
        scipy.sparse.csr_matrix of shape (n_samples, node_count)
            Entry (n, τ) is 1 when row n passes through node τ (its leaf and every ancestor).
        """
        node = self.apply(X)
        parent = self.parent
        rows, cols = [], []
        row = np.arange(node.size)
        while row.size:  # one step up per level: every row at once
            rows.append(row)
            cols.append(node)
            node = parent[node]
            up = node >= 0
            row, node = row[up], node[up]
        rows, cols = np.concatenate(rows), np.concatenate(cols)
        return csr_matrix(
            (np.ones(rows.size, dtype=np.intp), (rows, cols)),
            shape=(len(X), self.node_count),
        )

    def feature_decreases(self, n_features):
        """Σ over the cuts on feature j of N_τ Q_τ − N_L Q_L − N_R Q_R.

        The importances (B.32) before normalisation.

        Parameters
        ----------
        n_features : int
            D.

        Returns
        -------
        ndarray of shape (n_features,)
            The decrease of Σ_τ N_τ Q_τ credited to each feature.
        """
        inner = np.flatnonzero(~self.is_leaf)
        cost = self.weighted_n_node_samples * self.impurity
        decrease = cost[inner] - cost[self.children_left[inner]] - cost[self.children_right[inner]]
        return np.bincount(self.feature[inner], weights=decrease, minlength=n_features).astype(
            float
        )

    def subtree(self, keep_as_leaf):
        """The pruned tree in which the nodes flagged in ``keep_as_leaf`` become leaves.

        Nodes below a new leaf are removed and the remaining nodes renumbered in level order.

        Parameters
        ----------
        keep_as_leaf : array-like of bool of shape (n_nodes,)
            The nodes to collapse into leaves.

        Returns
        -------
        Tree
            The pruned tree.
        """
        keep_as_leaf = np.asarray(keep_as_leaf, dtype=bool)
        left = np.where(keep_as_leaf, TREE_LEAF, self.children_left)
        right = np.where(keep_as_leaf, TREE_LEAF, self.children_right)
        # nodes still reachable from the root, in level order
        ids, frontier = [np.array([0])], np.array([0])
        while frontier.size:
            inner = frontier[left[frontier] != TREE_LEAF]
            frontier = np.column_stack([left[inner], right[inner]]).ravel()
            if frontier.size:
                ids.append(frontier)
        ids = np.concatenate(ids)
        new_id = np.full(self.node_count, -1, dtype=np.intp)
        new_id[ids] = np.arange(ids.size)
        new_left = np.where(left[ids] == TREE_LEAF, TREE_LEAF, new_id[np.maximum(left[ids], 0)])
        new_right = np.where(right[ids] == TREE_LEAF, TREE_LEAF, new_id[np.maximum(right[ids], 0)])
        leaf = new_left == TREE_LEAF
        return Tree(
            new_left,
            new_right,
            np.where(leaf, -2, self.feature[ids]),
            np.where(leaf, -2.0, self.threshold[ids]),
            self.value[ids],
            self.impurity[ids],
            self.n_node_samples[ids],
            self.weighted_n_node_samples[ids],
            self.depth[ids],
        )
