"""Trees, pages 14.4 and B.7-B.9: one engine that every binary tree-based model grows through,
CART and its pruning, and the multiway trees of ID3/C4.5.

Layout (one topic per module):

* ``impurities``: (14.29), (14.30), (14.32), (14.33); second-order leaf value and gain
* ``criteria``: SquaredError, Gini, Entropy, Misclassification, SecondOrder (imports
  impurities)
* ``structure``: Tree (parallel arrays), apply, subtree
* ``exact``: the exact split finder (features sorted once) (imports _nodes)
* ``histogram``: bin_features and the histogram split finder (imports _nodes)
* ``growing``: grow_tree: per-sample statistics -> Tree (imports exact, histogram, _nodes)
* ``pruning``: cost complexity (14.31): pruning_costs, weakest-link path (imports structure)
* ``reduced_error``: reduced-error pruning on a validation set (B.28) (imports structure)
* ``pessimistic``: C4.5's pessimistic pruning (B.41), (B.42) (imports reduced_error)
* ``absolute``: weighted medians, absolute-error costs of all cuts (B.29)
* ``c45``: ID3/C4.5 gains, gain ratio, missing values (B.22)-(B.27) (imports impurities)
* ``cart_estimators``: DecisionTreeRegressor / DecisionTreeClassifier (imports criteria,
  growing, pruning)
* ``c45_estimators``: MultiwayTree, C45Classifier (imports c45, pessimistic)
* ``plotting``: Fig 14.5 (partition) and Fig 14.6 (diagram) (imports structure)

(``_nodes`` -> ``structure``: the node bookkeeping both finders share.) The drawings are imported
from :mod:`prml14.trees.plotting` itself, so that ``import prml14`` does not load matplotlib.
"""

from .absolute import (
    absolute_deviation,
    weighted_median,
)
from .c45 import (
    entropy,
    fractional_weights,
    gain_ratio,
    information_gain,
    intrinsic_value,
    missing_value_gain,
)
from .c45_estimators import (
    C45Classifier,
    MultiwayTree,
)
from .cart_estimators import (
    DecisionTreeClassifier,
    DecisionTreeRegressor,
)
from .criteria import (
    AbsoluteError,
    Entropy,
    Gini,
    Misclassification,
    SecondOrder,
    SquaredError,
)
from .exact import (
    SortedFeatures,
    sort_features,
)
from .growing import (
    grow_tree,
)
from .histogram import (
    BinnedFeatures,
    bin_features,
)
from .impurities import (
    cross_entropy_impurity,
    gini_impurity,
    leaf_value,
    misclassification_impurity,
    second_order_leaf_value,
    second_order_split_gain,
    sum_of_squares,
)
from .pessimistic import (
    pessimistic_error_rate,
    pessimistic_node_errors,
    pessimistic_subtree,
)
from .pruning import (
    PruningPath,
    cost_complexity,
    cross_validate_ccp_lambda,
    prune_to_lambda,
    pruning_costs,
    weakest_link_path,
)
from .reduced_error import (
    reduced_error_prune,
    reduced_error_subtree,
    validation_node_errors,
)
from .structure import (
    TREE_LEAF,
    Tree,
)

__all__ = [
    "weighted_median",
    "absolute_deviation",
    "entropy",
    "information_gain",
    "intrinsic_value",
    "gain_ratio",
    "missing_value_gain",
    "fractional_weights",
    "MultiwayTree",
    "C45Classifier",
    "DecisionTreeRegressor",
    "DecisionTreeClassifier",
    "SquaredError",
    "Gini",
    "Entropy",
    "Misclassification",
    "SecondOrder",
    "AbsoluteError",
    "SortedFeatures",
    "sort_features",
    "grow_tree",
    "BinnedFeatures",
    "bin_features",
    "leaf_value",
    "sum_of_squares",
    "cross_entropy_impurity",
    "gini_impurity",
    "misclassification_impurity",
    "second_order_leaf_value",
    "second_order_split_gain",
    "pessimistic_error_rate",
    "pessimistic_node_errors",
    "pessimistic_subtree",
    "pruning_costs",
    "cost_complexity",
    "PruningPath",
    "weakest_link_path",
    "prune_to_lambda",
    "cross_validate_ccp_lambda",
    "validation_node_errors",
    "reduced_error_subtree",
    "reduced_error_prune",
    "TREE_LEAF",
    "Tree",
]
