"""Discovery and argument generation for the fuzz suite (tests/test_fuzz.py): every public
function and estimator, and a valid value and a kind for every argument of every function
(:func:`function_arguments`; optional arguments whose default is None get one from their
documented type or from :data:`OPTIONAL`).

Everything public is found by walking the package: the estimators are the public classes with a
``fit`` method, the core functions every function in a public module's ``__all__``. A valid call
of each function is built from its numpydoc "Parameters" section (the shape of each array, with
the dimension names of the conventions: ``n_samples``, ``n_features``, ``n_basis``,
``n_components``, ...) and from the meaning of the parameter's name (``gamma`` is a matrix of
responsibilities, ``pi`` mixing coefficients, ``miss`` booleans, ``t`` targets in {−1, +1}, ...).
Functions that these rules cannot call are listed in :data:`EXPLICIT` with a builder of their
arguments; a new public function that neither the rules nor the table can call makes the suite
fail with a message saying to add it to the table, so coverage cannot shrink silently.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
from dataclasses import dataclass

import numpy as np
from numpydoc.docscrape import FunctionDoc

import prml14

__all__ = [
    "Context",
    "EXPLICIT",
    "NOT_FUZZED",
    "public_modules",
    "public_functions",
    "public_estimators",
    "make_estimator",
    "valid_arguments",
    "param_specs",
    "OPTIONAL",
    "argument_kind",
    "function_arguments",
    "options",
]

# Public names that are not functions of data (decorators, registry look-ups): why each is
# skipped is part of the table so that a reviewer sees it.
NOT_FUZZED = {
    "implements": "a decorator that tags functions with equation numbers",
    "registry": "the equation registry (no data arguments)",
    "warn_at_caller": "issues a warning by design",
}


def public_modules():
    """Every importable module of prml14 whose name has no leading underscore, with __all__."""
    modules = [prml14]
    for info in pkgutil.walk_packages(prml14.__path__, prefix="prml14."):
        if any(part.startswith("_") for part in info.name.split(".")):
            continue
        module = importlib.import_module(info.name)
        if hasattr(module, "__all__"):
            modules.append(module)
    return modules


def _public_objects():
    seen = {}
    for module in public_modules():
        for name in module.__all__:
            obj = getattr(module, name, None)
            if obj is not None and id(obj) not in seen:
                seen[id(obj)] = (name, obj)
    return sorted(seen.values(), key=lambda item: item[0])


def public_functions():
    """(name, function) for every function in a public module's __all__ (plotting excepted:
    it draws, it does not compute)."""
    return [
        (name, obj)
        for name, obj in _public_objects()
        if inspect.isfunction(obj)
        and name not in NOT_FUZZED
        and not obj.__module__.endswith("plotting")
    ]


def public_estimators():
    """(name, class) for every public class with a ``fit`` method."""
    return [
        (name, obj)
        for name, obj in _public_objects()
        if inspect.isclass(obj) and callable(getattr(obj, "fit", None))
    ]


def _members(cls):
    """Two small prml14 trees: the members of a voting, blending or stacking committee."""
    from sklearn.base import ClassifierMixin

    from prml14 import DecisionTreeClassifier, DecisionTreeRegressor

    tree = DecisionTreeClassifier if issubclass(cls, ClassifierMixin) else DecisionTreeRegressor
    return [
        ("stump", tree(max_depth=1, random_state=0)),
        ("tree", tree(max_depth=3, random_state=0)),
    ]


# constructor arguments without a default (the combiners' members)
REQUIRED_PARAMS = {
    name: _members
    for name in (
        "VotingClassifier",
        "VotingRegressor",
        "BlendingClassifier",
        "BlendingRegressor",
        "StackingClassifier",
        "StackingRegressor",
    )
}


def make_estimator(cls, **params):
    """``cls(**params)``, with the constructor arguments that have no default filled in."""
    required = REQUIRED_PARAMS.get(cls.__name__)
    if required is not None and "estimators" not in params:
        params = {"estimators": required(cls), **params}
    return cls(**params)


@dataclass
class Context:
    """The sizes one generated call shares between its arguments."""

    rng: np.random.Generator
    n_samples: int = 8
    n_features: int = 2
    n_components: int = 3
    n_members: int = 3

    @property
    def dims(self):
        n, d, k, m = self.n_samples, self.n_features, self.n_components, self.n_members
        return {
            "n_samples": n,
            "n": n,
            "N": n,
            "n_features": d,
            "d": d,
            "n_basis": d + 1,
            "n_basis_gate": d + 1,
            "n_features + 1": d + 1,
            "n_components": k,
            "n_experts": k,
            "n_models": k,
            "n_classes": k,
            "n_children": k,
            "K": k,
            "n_members": m,
            "m": m,
            "n_estimators": m,
            "n_rounds": m,
            "n_stats": 2,
            "n_leaves": m,
            "2": 2,
            "1": 1,
            "...": n,
        }


# Parameter names by meaning (the conventions of CONTRIBUTING.md).
SIMPLEX_ROWS = {"gamma", "responsibilities", "gates", "Z", "T", "p", "probabilities"}
SIMPLEX_VECTOR = {"pi", "prior", "weights", "init"}
LOG_SIMPLEX = {"log_gates", "log_posterior"}
POSITIVE = {
    "H",
    "sample_weight",
    "weights",
    "w",
    "scales",
    "covariances",
    "beta",
    "precision",
    "noise",
    "component_densities",
    "expert_densities",
    "model_predictive_densities",
    "leaf_costs",
}
BOOLEAN = {"miss"}
SIGNS = {"t", "y", "h", "predictions", "f", "f_prev", "z"}


def param_specs(func):
    """{name: (type string, description)} from the numpydoc Parameters section."""
    try:
        doc = FunctionDoc(func)
    except Exception:
        return {}
    specs = {}
    for param in doc["Parameters"]:
        for name in param.name.split(","):
            specs[name.strip()] = param.type
    return specs


_SHAPE = re.compile(r"shape \(([^)]*)\)")


def _shape(type_string, ctx):
    """The shape named by ``of shape (a, b)`` in the type string, or None."""
    match = _SHAPE.search(type_string)
    if match is None:
        return None
    dims = []
    for part in match.group(1).split(","):
        part = part.strip()
        if not part:
            continue
        if part not in ctx.dims:
            return None
        dims.append(ctx.dims[part])
    return tuple(dims)


def _simplex(ctx, shape):
    a = ctx.rng.uniform(0.1, 1.0, size=shape)
    return a / a.sum(axis=-1, keepdims=True)


def _array(name, shape, ctx, func_name):
    rng = ctx.rng
    if name in BOOLEAN:
        out = rng.random(shape) < 0.3
        out.flat[0] = True
        return out
    if name in LOG_SIMPLEX:
        return np.log(_simplex(ctx, shape))
    if name == "p" and len(shape) == 1:
        return rng.uniform(0.05, 0.95, size=shape)
    if name in SIMPLEX_ROWS and len(shape) >= 1:
        return _simplex(ctx, shape)
    if name in SIMPLEX_VECTOR and len(shape) == 1 and shape[0] != ctx.n_samples:
        return _simplex(ctx, shape)
    if name in POSITIVE and (name != "w" or shape == (ctx.n_samples,)):
        return rng.uniform(0.5, 2.0, size=shape)
    if name in SIGNS:
        if any(word in func_name for word in ("logistic", "bernoulli", "q_")):
            return (rng.random(shape) < 0.5).astype(float)
        return rng.choice([-1.0, 1.0], size=shape)
    if name.startswith("log_"):
        return rng.normal(-1.0, 0.5, size=shape)
    return rng.normal(size=shape)


def _scalar(name, type_string, default, ctx):
    if default is not inspect.Parameter.empty and default is not None:
        return default
    if name == "random_state":
        return 0
    options = re.findall(r"\{([^}]*)\}", type_string)
    if options:
        return options[0].split(",")[0].strip().strip("\"'")
    if type_string.startswith("int"):
        return 3
    if type_string.startswith("float"):
        return 0.3
    if type_string.startswith("bool"):
        return False
    raise LookupError(type_string)


def valid_arguments(name, func, ctx):
    """Keyword arguments of a valid call of ``func``: from :data:`EXPLICIT`, else derived.

    Raises
    ------
    LookupError
        If an argument can be neither derived nor found in the table.
    """
    if name in EXPLICIT:
        return EXPLICIT[name](ctx)
    specs = param_specs(func)
    kwargs = {}
    for param in inspect.signature(func).parameters.values():
        if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
            continue
        if param.default is not inspect.Parameter.empty:
            continue  # optional: the default is valid
        type_string = specs.get(param.name)
        if type_string is None:
            raise LookupError(f"parameter {param.name!r} is not documented")
        shape = _shape(type_string, ctx)
        if shape is not None:
            kwargs[param.name] = _array(param.name, shape, ctx, name)
        elif "array" in type_string or "ndarray" in type_string:
            kwargs[param.name] = _array(param.name, (ctx.n_samples,), ctx, name)
        else:
            kwargs[param.name] = _scalar(param.name, type_string, param.default, ctx)
    return kwargs


# --- the explicit table: functions whose valid arguments the rules above cannot derive ------


def _fitted_tree(ctx):
    from prml14 import DecisionTreeRegressor

    X = ctx.rng.normal(size=(ctx.n_samples, ctx.n_features))
    t = ctx.rng.normal(size=ctx.n_samples)
    return DecisionTreeRegressor(random_state=0).fit(X, t).tree_


def _tree_and_costs(ctx):
    from prml14 import pruning_costs

    tree = _fitted_tree(ctx)
    return {"tree": tree, "node_costs": pruning_costs(tree)}


def _mixture_1d(ctx, scale_name):
    k = ctx.n_components
    return {
        "X": ctx.rng.normal(size=ctx.n_samples),
        "weights": _simplex(ctx, (k,)),
        "means": ctx.rng.normal(size=k),
        scale_name: ctx.rng.uniform(0.5, 2.0, size=k),
    }


def _densities(ctx, location_name, scale_name):
    k, d = ctx.n_components, ctx.n_features
    return {
        "X": ctx.rng.normal(size=(ctx.n_samples, d)),
        location_name: ctx.rng.normal(size=(k, d)),
        scale_name: ctx.rng.uniform(0.5, 2.0, size=k),
    }


def _grow_tree(ctx):
    from prml14.trees import SquaredError

    t = ctx.rng.normal(size=ctx.n_samples)
    w = np.ones(ctx.n_samples)
    return {
        "X": ctx.rng.normal(size=(ctx.n_samples, ctx.n_features)),
        "statistics": np.column_stack([w, w * t, w * t**2]),
        "criterion": SquaredError(),
    }


def _cross_validate_ccp_lambda(ctx):
    from prml14 import DecisionTreeRegressor

    n = max(ctx.n_samples, 10)
    return {
        "estimator": DecisionTreeRegressor(random_state=0),
        "X": ctx.rng.normal(size=(n, ctx.n_features)),
        "y": ctx.rng.normal(size=n),
        "cv": 2,
        "n_lambdas": 3,
        "random_state": 0,
    }


def _gate_m_step(ctx):
    k, b = ctx.n_components, ctx.n_features + 1
    return {
        "Phi_gate": ctx.rng.normal(size=(ctx.n_samples, b)),
        "T": _simplex(ctx, (ctx.n_samples, k)),
        "V": ctx.rng.normal(size=(b, k)),
    }


def _hierarchical(ctx, with_gamma):
    b = ctx.n_features + 1
    coefs = [ctx.rng.normal(size=(1, b, 2)), ctx.rng.normal(size=(2, b, 2))]
    out = {"Phi_gate": ctx.rng.normal(size=(ctx.n_samples, b)), "gate_coefs": coefs}
    if with_gamma:
        out["gamma"] = _simplex(ctx, (ctx.n_samples, 4))
    return out


def _weighted_softmax(ctx):
    k, b = ctx.n_components, ctx.n_features + 1
    return {
        "Phi": ctx.rng.normal(size=(ctx.n_samples, b)),
        "T": _simplex(ctx, (ctx.n_samples, k)),
        "W": ctx.rng.normal(size=(b, k)),
    }


def _solve_normal_equations(ctx):
    k, b = ctx.n_components, ctx.n_features + 1
    M = ctx.rng.normal(size=(k, b + 2, b))
    return {"A": M.transpose(0, 2, 1) @ M, "b": ctx.rng.normal(size=(k, b))}


def _second_order_gain(ctx):
    g = ctx.rng.normal(size=4)
    h = ctx.rng.uniform(0.5, 2.0, size=4)
    return {"G_left": g[0], "H_left": h[0], "G_right": g[1], "H_right": h[1]}


EXPLICIT = {
    "mixture_density": lambda ctx: _mixture_1d(ctx, "covariances"),
    "mixture_log_density": lambda ctx: _mixture_1d(ctx, "scales"),
    "log_model_evidence": lambda ctx: _mixture_1d(ctx, "scales"),
    "sample_mixture": lambda ctx: {
        **{k: v for k, v in _mixture_1d(ctx, "scales").items() if k != "X"},
        "n_samples": ctx.n_samples,
        "random_state": 0,
    },
    "gaussian_log_densities": lambda ctx: _densities(ctx, "means", "covariances"),
    "cauchy_log_densities": lambda ctx: _densities(ctx, "locations", "scales"),
    "component_log_densities": lambda ctx: _densities(ctx, "means", "scales"),
    "weakest_link_path": _tree_and_costs,
    "prune_to_lambda": lambda ctx: {**_tree_and_costs(ctx), "lam": 0.1},
    "pruning_costs": lambda ctx: {"tree": _fitted_tree(ctx)},
    "grow_tree": _grow_tree,
    "cross_validate_ccp_lambda": _cross_validate_ccp_lambda,
    "gate_m_step": _gate_m_step,
    "hierarchical_gates_m_step": lambda ctx: _hierarchical(ctx, with_gamma=True),
    "hierarchical_log_gates": lambda ctx: _hierarchical(ctx, with_gamma=False),
    "weighted_softmax_objective": _weighted_softmax,
    "softmax_q_gradient": _weighted_softmax,
    "softmax_q_negative_hessian": lambda ctx: {
        k: v for k, v in _weighted_softmax(ctx).items() if k != "T"
    },
    "solve_normal_equations": _solve_normal_equations,
    "second_order_split_gain": _second_order_gain,
    "node_posteriors": lambda ctx: {
        "gamma": _simplex(ctx, (ctx.n_samples, 4)),
        "branching": 2,
        "level": 1,
    },
    "out_of_bag_mask": lambda ctx: {
        "indices": ctx.rng.integers(0, ctx.n_samples, size=(ctx.n_members, ctx.n_samples)),
        "n_samples": ctx.n_samples,
    },
    "bootstrap_indices": lambda ctx: {
        "n_samples": ctx.n_samples,
        "n_estimators": ctx.n_members,
        "random_state": 0,
    },
    "make_uncorrelated_errors": lambda ctx: {
        "n_samples": ctx.n_samples,
        "n_members": ctx.n_members,
        "random_state": 0,
    },
    "uncorrelated_committee_error": lambda ctx: {"E_AV": 0.3, "n_members": ctx.n_members},
    "classifier_weight": lambda ctx: {"eps": ctx.rng.uniform(0.05, 0.95)},
    "expected_oob_fraction": lambda ctx: {"n_samples": ctx.n_samples},
    "weighted_softmax_irls": lambda ctx: {
        k: v for k, v in _weighted_softmax(ctx).items() if k != "W"
    },
    "second_order_leaf_value": lambda ctx: {
        "G": ctx.rng.normal(size=ctx.n_samples),
        "H": ctx.rng.uniform(0.5, 2.0, size=ctx.n_samples),
    },
    "bin_features": lambda ctx: {"X": ctx.rng.normal(size=(ctx.n_samples, ctx.n_features))},
}


# --- beyond the chapter: boosting losses, stagewise, C4.5, forests, importances, combining ---


def _regression_data(ctx, min_samples=1):
    n = max(ctx.n_samples, min_samples)
    X = ctx.rng.normal(size=(n, ctx.n_features))
    return X, X[:, 0] + 0.1 * ctx.rng.normal(size=n)


def _loss_call(ctx, **extra):
    from prml14.boosting.gradient_boosting import make_loss

    return {
        "loss": make_loss("squared_error"),
        "t": ctx.rng.normal(size=ctx.n_samples),
        "F": ctx.rng.normal(size=ctx.n_samples),
        **extra,
    }


def _leaf_line_search(ctx):
    n_nodes = 3
    leaf = ctx.rng.integers(1, n_nodes, size=ctx.n_samples)
    return _loss_call(ctx, leaf=leaf, n_nodes=n_nodes)


def _class_weights(ctx, shape):
    return ctx.rng.uniform(0.5, 3.0, size=shape)


def _fitted_forest(ctx):
    from prml14 import RandomForestRegressor

    X, t = _regression_data(ctx, min_samples=10)  # some points out of bag
    model = RandomForestRegressor(n_estimators=3, max_depth=2, random_state=0).fit(X, t)
    return model, X, t


def _fitted_regressor(ctx, min_samples=1):
    from prml14 import DecisionTreeRegressor

    X, t = _regression_data(ctx, min_samples)
    return DecisionTreeRegressor(max_depth=2, random_state=0).fit(X, t), X, t


def _permutation_importance(ctx):
    model, X, t = _fitted_regressor(ctx, min_samples=2)  # R² needs two points
    return {"estimator": model, "X": X, "y": t, "n_repeats": 2, "random_state": 0}


def _oob_permutation_importance(ctx):
    model, X, t = _fitted_forest(ctx)
    return {"ensemble": model, "X": X, "y": t, "n_repeats": 2, "random_state": 0}


def _out_of_fold(ctx):
    from sklearn.linear_model import LinearRegression

    X, t = _regression_data(ctx, min_samples=2)  # two disjoint folds
    idx = np.arange(len(t))
    folds = [(idx[idx % 2 == 0], idx[idx % 2 == 1]), (idx[idx % 2 == 1], idx[idx % 2 == 0])]
    return {"estimator": LinearRegression(), "X": X, "y": t, "folds": folds}


def _reduced_error_prune(ctx):
    model, X, t = _fitted_regressor(ctx)
    return {"estimator": model, "X_val": X, "y_val": t}


def _validation_node_errors(ctx):
    model, X, t = _fitted_regressor(ctx)
    return {"tree": model.tree_, "X": X, "y": t, "loss": "squared_error"}


def _reduced_error_subtree(ctx):
    tree = _fitted_tree(ctx)
    return {"tree": tree, "node_errors": ctx.rng.uniform(0.0, 2.0, size=tree.node_count)}


def _fitted_classification_tree(ctx):
    from prml14 import DecisionTreeClassifier

    X = ctx.rng.normal(size=(ctx.n_samples, ctx.n_features))
    y = np.arange(ctx.n_samples) % 2
    return DecisionTreeClassifier(random_state=0).fit(X, y).tree_


def _class_indices(ctx, n_classes, shape):
    return ctx.rng.integers(0, n_classes, size=shape)


EXPLICIT.update(
    {
        "pseudo_residuals": _loss_call,
        "line_search": lambda ctx: _loss_call(ctx, h=ctx.rng.normal(size=ctx.n_samples)),
        "leaf_line_search": _leaf_line_search,
        "stagewise_step": lambda ctx: _loss_call(
            ctx, candidates=ctx.rng.normal(size=(ctx.n_samples, 3))
        ),
        "prune_by_gain": lambda ctx: {"tree": _fitted_tree(ctx), "gamma": 0.1},
        "impurity_importances": lambda ctx: {"tree": _fitted_tree(ctx)},
        "mean_decrease_in_impurity": lambda ctx: {
            "trees": [_fitted_tree(ctx), _fitted_tree(ctx)],
            "n_features": ctx.n_features,
        },
        "permutation_importance": _permutation_importance,
        "oob_permutation_importance": _oob_permutation_importance,
        "out_of_fold_predictions": _out_of_fold,
        "reduced_error_prune": _reduced_error_prune,
        "reduced_error_subtree": _reduced_error_subtree,
        "pessimistic_error_rate": lambda ctx: {
            "n_errors": ctx.rng.uniform(0.0, 3.0, size=ctx.n_samples),
            "n_samples": ctx.rng.uniform(3.0, 9.0, size=ctx.n_samples),
        },
        "pessimistic_node_errors": lambda ctx: {"tree": _fitted_classification_tree(ctx)},
        "pessimistic_subtree": lambda ctx: {"tree": _fitted_classification_tree(ctx)},
        "validation_node_errors": _validation_node_errors,
        "entropy": lambda ctx: {"class_weights": _class_weights(ctx, (ctx.n_components,))},
        "intrinsic_value": lambda ctx: {"branch_weights": _class_weights(ctx, (3,))},
        "information_gain": lambda ctx: {
            "branch_class_weights": _class_weights(ctx, (3, ctx.n_components))
        },
        "missing_value_gain": lambda ctx: {
            "branch_class_weights": _class_weights(ctx, (3, ctx.n_components)),
            "missing_weight": 1.5,
        },
        "fractional_weights": lambda ctx: {
            "missing_weights": _class_weights(ctx, (ctx.n_samples,)),
            "branch_weights": _class_weights(ctx, (3,)),
        },
        "gain_ratio": lambda ctx: {"gain": 0.3, "iv": 1.2},
        "half_log_odds_leaf_values": lambda ctx: {
            "w_pos": _class_weights(ctx, (4,)),
            "w_neg": _class_weights(ctx, (4,)),
        },
        "inverse_error_weights": lambda ctx: {
            "expected_errors": ctx.rng.uniform(0.1, 1.0, size=ctx.n_members)
        },
        "majority_vote_accuracy": lambda ctx: {"p": 0.7, "n_members": ctx.n_members},
        "correlated_average_variance": lambda ctx: {
            "variance": 1.3,
            "correlation": 0.4,
            "n_members": ctx.n_members,
        },
        "weighted_vote": lambda ctx: {
            "votes": _class_indices(ctx, ctx.n_components, (ctx.n_samples, ctx.n_members)),
            "n_classes": ctx.n_components,
            "weights": ctx.rng.uniform(0.5, 2.0, size=ctx.n_members),
        },
        "samme_scores": lambda ctx: {
            "predictions": _class_indices(ctx, ctx.n_components, (ctx.n_samples, ctx.n_members)),
            "alphas": ctx.rng.uniform(0.1, 1.0, size=ctx.n_members),
            "n_classes": ctx.n_components,
        },
        "samme_classifier_weight": lambda ctx: {
            "eps": ctx.rng.uniform(0.05, 0.5),
            "n_classes": ctx.n_components,
        },
    }
)


# --- every argument: a valid value and the kind of argument it is -----------------------------
#
# The fuzz suite perturbs one argument of a call at a time. Every parameter of every public
# function's signature, optional ones included, needs a valid value to start from (its default,
# the rules above, or OPTIONAL below for an optional argument whose default is None) and a kind,
# which decides the hostile values it gets (tests/test_fuzz.py, STRATEGIES). An argument with no
# valid value or no kind has no strategy: test_every_argument_has_a_fuzz_strategy fails.

# Optional arguments whose default is None and whose documented type the rules cannot build.
OPTIONAL = {
    ("weighted_softmax_irls", "W_init"): lambda ctx: ctx.rng.normal(
        size=(ctx.n_features + 1, ctx.n_components)
    ),
    ("permutation_importance", "scoring"): lambda ctx: "r2",
    # one weight per row of their X, which has max(n_samples, 2) rows
    ("permutation_importance", "sample_weight"): lambda ctx: np.ones(max(ctx.n_samples, 2)),
    ("out_of_fold_predictions", "sample_weight"): lambda ctx: np.ones(max(ctx.n_samples, 2)),
    # two permutations of the max(n_samples, 2) rows of _permutation_importance's X
    ("permutation_importance", "permutations"): lambda ctx: np.stack(
        [ctx.rng.permutation(max(ctx.n_samples, 2)) for _ in range(2)]
    ),
}


def _is_tree(value):
    from prml14.trees import Tree

    return isinstance(value, Tree)


def argument_kind(name, value):
    """The kind of a (valid) argument value, or None if the suite has no strategy for it."""
    if name == "random_state":
        return "seed"
    if isinstance(value, (bool, np.bool_)):
        return "flag"
    if isinstance(value, np.ndarray):
        return "array"
    if isinstance(value, (int, float, np.integer, np.floating)):
        return "number"
    if isinstance(value, str):
        return "option"
    if _is_tree(value):
        return "tree"
    if callable(getattr(value, "fit", None)):
        return "estimator"
    if isinstance(value, (list, tuple)):
        return "sequence"
    if value is not None:
        return "object"
    return None


def _optional_value(name, func_name, param, spec, ctx):
    """A valid value for an optional argument whose default is None."""
    if (func_name, name) in OPTIONAL:
        return OPTIONAL[func_name, name](ctx)
    if name == "random_state":
        return 0
    shape = _shape(spec, ctx)
    if shape is not None and "of int" in spec:  # indices (e.g. leaf ids): 0 and 1
        return ctx.rng.integers(0, 2, size=shape)
    if shape is not None:
        return _array(name, shape, ctx, func_name)
    try:
        return _scalar(name, spec, inspect.Parameter.empty, ctx)
    except LookupError:
        return None


def function_arguments(name, func, ctx):
    """{parameter: (kind, valid value)} for every parameter of ``func``'s signature.

    The kind is None for a parameter the suite has no strategy for.
    """
    valid = valid_arguments(name, func, ctx)
    specs = param_specs(func)
    out = {}
    for param in inspect.signature(func).parameters.values():
        if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
            continue
        if param.name in valid:
            value = valid[param.name]
        elif param.default is not None:
            value = param.default
        else:
            value = _optional_value(param.name, name, param, specs.get(param.name, ""), ctx)
        out[param.name] = (argument_kind(param.name, value), value)
    return out


def options(spec):
    """The options ``{"a", "b"}`` a numpydoc type string lists (strings only)."""
    found = re.findall(r"\{([^}]*)\}", spec or "")
    if not found:
        return []
    values = [v.strip() for v in found[0].split(",")]
    return [v.strip("\"'") for v in values if v[:1] in "\"'"]
