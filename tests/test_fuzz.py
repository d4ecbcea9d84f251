"""Fuzzing every public core function and every public estimator, found by discovery.

Each case calls a function (or fits an estimator) with one argument made bad or extreme: NaN,
±inf, values scaled by 1e±300, negative or zero weights, the wrong shape or length, empty
arrays, other dtypes (bool, int, float32, complex, strings), hyper-parameters at and beyond
their bounds. A case passes if it ends in finite outputs, or in a ValueError or TypeError whose
message names one of the arguments; it fails on any other exception, on a NaN output (or an
infinite one from finite inputs), and on any warning other than scikit-learn's
ConvergenceWarning. Arguments that must be non-negative (weights, responsibilities, scales)
must be refused when negative, and an array whose axis must match another argument's must be
refused when it does not.

Profiles (``HYPOTHESIS_PROFILE``, or ``make fuzz``): ``default`` in ``make test`` (about a
minute), ``fuzz`` with ten times the examples. The number of cases run is printed at the end.
"""

from __future__ import annotations

import os
import re
import warnings

import numpy as np
import pytest
from fuzz_inputs import (
    BOOLEAN,
    POSITIVE,
    SIMPLEX_ROWS,
    SIMPLEX_VECTOR,
    Context,
    param_specs,
    public_estimators,
    public_functions,
    valid_arguments,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sklearn.base import is_classifier
from sklearn.exceptions import ConvergenceWarning

settings.register_profile(
    "default",
    max_examples=25,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "fuzz", max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

CASES = {"functions": 0, "estimators": 0}
FUNCTIONS = public_functions()
ESTIMATORS = public_estimators()

ARRAY_KINDS = [
    "nan",
    "posinf",
    "neginf",
    "huge",
    "tiny",
    "negative",
    "zeros",
    "empty",
    "short",
    "extra_column",
    "extra_axis",
    "float32",
    "int",
    "bool",
    "list",
    "complex",
    "strings",
]
SCALAR_KINDS = ["nan", "inf", "-inf", "negative", "zero", "huge", "fraction", "string"]
NON_NEGATIVE = POSITIVE | SIMPLEX_ROWS | SIMPLEX_VECTOR | {"n_samples", "n_members"}


def _arrays(out):
    """Every numeric ndarray in a function's output (tuples, named tuples, dataclasses)."""
    if isinstance(out, np.ndarray):
        return [out] if out.dtype.kind in "biufc" else []
    if isinstance(out, (int, float, np.number)) and not isinstance(out, bool):
        return [np.asarray(out)]
    if isinstance(out, (tuple, list)):
        return [a for item in out for a in _arrays(item)]
    if hasattr(out, "__dataclass_fields__"):
        return [a for name in out.__dataclass_fields__ for a in _arrays(getattr(out, name))]
    return []


def _names_an_argument(message, names):
    return any(re.search(rf"\b{re.escape(name)}\b", message) for name in names)


def _call(func, kwargs):
    """Call with warnings as errors (scikit-learn's ConvergenceWarning excepted)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warnings.simplefilter("ignore", ConvergenceWarning)
        return func(**kwargs)


def _perturb_array(a, kind, rng):
    a = np.asarray(a)
    if kind == "nan":
        out = a.astype(float)
        if out.size:
            out.flat[rng.integers(out.size)] = np.nan
        return out
    if kind in ("posinf", "neginf"):
        out = a.astype(float)
        if out.size:
            out.flat[rng.integers(out.size)] = np.inf if kind == "posinf" else -np.inf
        return out
    if kind == "huge":
        return a.astype(float) * 1e300
    if kind == "tiny":
        return a.astype(float) * 1e-300
    if kind == "negative":
        return -np.abs(a.astype(float)) - 0.5
    if kind == "zeros":
        return np.zeros(a.shape)
    if kind == "empty":
        return a[:0] if a.ndim else a.reshape(1)[:0]
    if kind == "short":
        return a[:-1] if a.ndim and a.shape[0] > 1 else a.reshape(1)[:0]
    if kind == "extra_column":
        if a.ndim < 2:
            return np.concatenate([a.reshape(-1), a.reshape(-1)[:1]]) if a.size else a
        return np.concatenate([a, a[..., :1]], axis=-1)
    if kind == "extra_axis":
        return a[..., None]
    if kind == "float32":
        return a.astype(np.float32)
    if kind == "int":
        return np.round(a).astype(int) if a.dtype.kind == "f" else a.astype(int)
    if kind == "bool":
        return a.astype(bool)
    if kind == "list":
        return a.tolist()
    if kind == "complex":
        return a.astype(complex) + 1j
    if kind == "strings":
        return np.full(a.shape, "a", dtype=object)
    raise AssertionError(kind)


def _perturb_scalar(value, kind):
    return {
        "nan": np.nan,
        "inf": np.inf,
        "-inf": -np.inf,
        "negative": -1,
        "zero": 0,
        "huge": 1e300,
        "fraction": 0.5,
        "string": "bogus",
    }[kind]


def _shared_last_axis(name, specs):
    """True if the last axis of ``name`` is named in another argument's shape."""
    own = re.search(r"shape \(([^)]*)\)", specs.get(name, ""))
    if own is None:
        return False
    dims = [d.strip() for d in own.group(1).split(",") if d.strip()]
    if not dims or dims[-1] in ("...", "2", "1"):
        return False
    return any(
        re.search(rf"shape \([^)]*\b{re.escape(dims[-1])}\b", spec)
        for other, spec in specs.items()
        if other != name
    )


def check_function_case(name, func, ctx, target, kind):
    """Run one case; raise AssertionError describing the defect, if any."""
    kwargs = valid_arguments(name, func, ctx)
    specs = param_specs(func)
    names = list(kwargs) + list(specs)
    baseline_inf = False
    if target is None:
        pass
    elif isinstance(kwargs[target], np.ndarray):
        kwargs[target] = _perturb_array(kwargs[target], kind, ctx.rng)
    else:
        kwargs[target] = _perturb_scalar(kwargs[target], kind)
    try:
        out = _call(func, kwargs)
    except (ValueError, TypeError) as error:
        assert _names_an_argument(str(error), names), (
            f"{name}({target}: {kind}) raised {type(error).__name__} that names no argument: "
            f"{error}"
        )
        return
    except Exception as error:  # noqa: BLE001 - the defect under test
        raise AssertionError(
            f"{name}({target}: {kind}) raised {type(error).__name__}: {error}"
        ) from error
    arrays = _arrays(out)
    assert not any(np.isnan(a).any() for a in arrays), f"{name}({target}: {kind}) returned NaN"
    infinite_input = kind in ("posinf", "neginf", "huge", "inf", "-inf")
    log_output = "log" in name
    if not infinite_input and not log_output and not baseline_inf:
        assert all(np.isfinite(a).all() for a in arrays), (
            f"{name}({target}: {kind}) returned inf from finite inputs"
        )
    if target is None:
        return
    positive = target in NON_NEGATIVE and (target != "w" or np.ndim(kwargs["w"]) == 1)
    if kind == "negative" and positive:
        raise AssertionError(f"{name} accepted a negative {target}")
    if kind == "extra_column" and _shared_last_axis(target, specs):
        raise AssertionError(
            f"{name} accepted {target} with a last axis that does not match the other arguments"
        )
    if kind in ("complex", "strings") and target not in ("n_samples",):
        raise AssertionError(f"{name} accepted {kind} values in {target}")


def _function_case_strategy(name, func):
    return st.tuples(
        st.integers(0, 2**32 - 1),
        st.integers(1, 12),
        st.sampled_from([1, 2, 5]),
        st.sampled_from([2, 3]),
        st.integers(0, 10_000),
    )


@pytest.mark.parametrize("name, func", FUNCTIONS, ids=[n for n, _ in FUNCTIONS])
def test_every_public_function_has_valid_arguments(name, func):
    """The rules of fuzz_inputs (or its EXPLICIT table) make a valid call of every function."""
    ctx = Context(np.random.default_rng(0))
    try:
        kwargs = valid_arguments(name, func, ctx)
        out = _call(func, kwargs)
    except Exception as error:  # noqa: BLE001
        pytest.fail(
            f"the fuzz suite cannot call the public function {name}: {error!r}. Add a builder "
            "of its valid arguments to EXPLICIT in tests/fuzz_inputs.py"
        )
    assert all(np.isfinite(a).all() for a in _arrays(out) if "log" not in name)


@pytest.mark.parametrize("name, func", FUNCTIONS, ids=[n for n, _ in FUNCTIONS])
@given(data=st.data())
def test_fuzz_function(name, func, data):
    """One bad or extreme argument: finite output or a ValueError/TypeError naming it."""
    seed = data.draw(st.integers(0, 2**32 - 1), label="seed")
    ctx = Context(
        np.random.default_rng(seed),
        n_samples=data.draw(st.integers(1, 12), label="n_samples"),
        n_features=data.draw(st.sampled_from([1, 2, 5]), label="n_features"),
        n_components=data.draw(st.sampled_from([2, 3]), label="n_components"),
    )
    try:
        kwargs = valid_arguments(name, func, Context(np.random.default_rng(0)))
    except LookupError:
        pytest.skip("no arguments (test_every_public_function_has_valid_arguments fails)")
    targets = [None] + sorted(kwargs)
    target = data.draw(st.sampled_from(targets), label="argument")
    if target is None:
        kind = None
    elif isinstance(kwargs[target], np.ndarray):
        kind = data.draw(st.sampled_from(ARRAY_KINDS), label="kind")
    elif isinstance(kwargs[target], (int, float)) and not isinstance(kwargs[target], bool):
        kind = data.draw(st.sampled_from(SCALAR_KINDS), label="kind")
    else:
        target, kind = None, None
    CASES["functions"] += 1
    check_function_case(name, func, ctx, target, kind)
