"""prml14: the executable companion to Chapter 14 of Bishop's PRML ("Combining Models").

The package has two layers: a functional core whose names follow the book's notation, each
function tagged with the equation(s) it implements (see :mod:`prml14._equations`), and
estimators with the scikit-learn API built from that core.
"""

__version__ = "0.1.0"

from ._equations import EQUATIONS, implements, registry
from .conditional_mixture import (
    conditional_mixture_density,
    log_conditional_mixture_density,
    softmax_gates,
)
from .datasets import make_gated_regression

# --- section modules: one import line per module, added as each section lands ---
from .irls import q_gradient, q_negative_hessian, weighted_logistic_irls, weighted_logistic_objective
