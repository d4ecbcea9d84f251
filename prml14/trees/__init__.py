"""Classification and regression trees, Section 14.4: one engine that every tree-based model
grows through.

Layout (one topic per module; arrows: "imports")::

    impurities   (14.29), (14.30), (14.32), (14.33); second-order leaf value and gain
    criteria     -> impurities      SquaredError, Gini, Entropy, Misclassification, SecondOrder
    structure                       Tree (parallel arrays), apply, subtree
    exact        -> _nodes          the exact split finder (features sorted once)
    histogram    -> _nodes          bin_features and the histogram split finder
    growing      -> exact, histogram, _nodes    grow_tree: per-sample statistics -> Tree
    pruning      -> structure       cost complexity (14.31): pruning_costs, weakest-link path
    reduced_error -> structure      reduced-error pruning on a validation set (B.28)
    absolute                        weighted medians, absolute-error costs of all cuts (B.29)
    estimators   -> criteria, growing, pruning  DecisionTreeRegressor / DecisionTreeClassifier
    plotting     -> structure       Fig 14.5 (partition) and Fig 14.6 (diagram)

(``_nodes`` -> ``structure``: the node bookkeeping both finders share.) The drawings are imported
from :mod:`prml14.trees.plotting` itself, so that ``import prml14`` does not load matplotlib.
"""

from .absolute import absolute_deviation, weighted_median
from .criteria import (
    AbsoluteError,
    Entropy,
    Gini,
    Misclassification,
    SecondOrder,
    SquaredError,
)
from .estimators import DecisionTreeClassifier, DecisionTreeRegressor
from .exact import SortedFeatures, sort_features
from .growing import grow_tree
from .histogram import BinnedFeatures, bin_features
from .impurities import (
    cross_entropy_impurity,
    gini_impurity,
    leaf_value,
    misclassification_impurity,
    second_order_leaf_value,
    second_order_split_gain,
    sum_of_squares,
)
from .pruning import (
    PruningPath,
    cost_complexity,
    cross_validate_ccp_lambda,
    prune_to_lambda,
    pruning_costs,
    weakest_link_path,
)
from .reduced_error import reduced_error_prune, reduced_error_subtree, validation_node_errors
from .structure import TREE_LEAF, Tree

__all__ = [
    "leaf_value",
    "sum_of_squares",
    "cross_entropy_impurity",
    "gini_impurity",
    "misclassification_impurity",
    "second_order_leaf_value",
    "second_order_split_gain",
    "SquaredError",
    "Gini",
    "Entropy",
    "Misclassification",
    "SecondOrder",
    "TREE_LEAF",
    "Tree",
    "grow_tree",
    "BinnedFeatures",
    "bin_features",
    "SortedFeatures",
    "sort_features",
    "DecisionTreeRegressor",
    "DecisionTreeClassifier",
    "pruning_costs",
    "cost_complexity",
    "PruningPath",
    "weakest_link_path",
    "prune_to_lambda",
    "cross_validate_ccp_lambda",
    "AbsoluteError",
    "weighted_median",
    "absolute_deviation",
    "validation_node_errors",
    "reduced_error_subtree",
    "reduced_error_prune",
]
