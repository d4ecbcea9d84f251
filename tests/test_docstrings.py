"""Every public docstring of prml14 passes numpydoc's validation, and the "Raises" section of
every public function and estimator ``fit`` names each ValueError and TypeError it raises.

The public objects are the names in each public module's ``__all__`` (and the public methods
of the classes among them). Skipped checks of numpydoc's validation, and why:

- ES01 (extended summary), SA01 (See Also), EX01 (Examples): the book pages are the
  extended discussion and the examples.
- SS02, SS05, PR08, RT04: a summary or a description may start with mathematics
  ("π_k(x) ...", "ln p(t | x)"), which is neither a capital letter nor a verb.

The Raises check reuses the fuzz suite's machinery (tests/test_fuzz.py, tests/fuzz_inputs.py):
for every public function it makes every argument hostile in every way the fuzz suite knows,
deterministically (fixed seeds, n_samples 1 and 7), and records the ValueError and TypeError
each call raises; for every public estimator it does the same with ``fit`` and every case of
the fuzz suite's estimator walk (bad X, y and sample_weight, each hyper-parameter at and beyond
its declared constraints). A raised exception is documented when the Raises section names its
class or a base class that is a ValueError or a TypeError (scikit-learn's
InvalidParameterError, a subclass of both, is documented as ValueError).
"""

import functools
import importlib
import inspect
import pkgutil
import re
import warnings

import numpy as np
import pytest

numpydoc_validate = pytest.importorskip("numpydoc.validate")
FunctionDoc = pytest.importorskip("numpydoc.docscrape").FunctionDoc

import test_fuzz  # noqa: E402  (the fuzz suite's discovery and hostile values)

import prml14  # noqa: E402

SKIPPED_CHECKS = {"ES01", "SA01", "EX01", "SS02", "SS05", "PR08", "RT04"}


def public_objects():
    """Dotted names of every public function, class and public method of the package."""
    names = []
    for info in pkgutil.walk_packages(prml14.__path__, prefix="prml14."):
        if any(part.startswith("_") for part in info.name.split(".")):
            continue
        module = importlib.import_module(info.name)
        for name in getattr(module, "__all__", []):
            obj = getattr(module, name)
            if getattr(obj, "__module__", None) != module.__name__:
                continue  # re-exported: validated where it is defined
            if not (inspect.isfunction(obj) or inspect.isclass(obj)):
                continue
            names.append(f"{module.__name__}.{name}")
            if inspect.isclass(obj):
                names.extend(
                    f"{module.__name__}.{name}.{member}"
                    for member, value in vars(obj).items()
                    if not member.startswith("_")
                    and (inspect.isfunction(value) or isinstance(value, property))
                )
    return sorted(set(names))


@pytest.mark.parametrize("name", public_objects())
def test_public_docstring_is_valid_numpydoc(name):
    result = numpydoc_validate.validate(name)
    errors = [
        f"{code}: {message}" for code, message in result["errors"] if code not in SKIPPED_CHECKS
    ]
    assert not errors, f"{name}:\n" + "\n".join(errors)


# ------------------------------------------------------------------- Raises sections
WALK_SEEDS = (1,)
WALK_SAMPLE_SIZES = (1, 7)


def _raised_by(name, func):
    """{(exception class, argument): (hostile kind, message)}: the ValueErrors and TypeErrors
    that ``func`` raises when one argument is made hostile, every argument in every way of
    the fuzz suite's strategies, with fixed seeds."""
    raised = {}
    kinds_of = test_fuzz._argument_kinds(name, func)
    for target, hostile_kinds in test_fuzz.function_strategies(name, func).items():
        for hostile in hostile_kinds or ():
            for seed in WALK_SEEDS:
                for n_samples in WALK_SAMPLE_SIZES:
                    ctx = test_fuzz.Context(np.random.default_rng(seed), n_samples=n_samples)
                    kwargs = test_fuzz.valid_arguments(name, func, ctx)
                    if target not in kwargs:  # an optional argument: start from a valid value
                        kwargs[target] = test_fuzz.function_arguments(name, func, ctx)[target][1]
                    kwargs[target] = test_fuzz._perturb(
                        kwargs[target], kinds_of[target], hostile, ctx.rng
                    )
                    try:
                        with warnings.catch_warnings():
                            warnings.simplefilter("ignore")
                            func(**kwargs)
                    except (ValueError, TypeError) as error:
                        raised.setdefault((type(error), target), (hostile, str(error)))
                    except Exception:  # other exceptions are test_fuzz's concern
                        pass
    return raised


@pytest.fixture(scope="module")
def raised_by():
    """The walk of :func:`_raised_by`, run once per function and module."""
    return functools.cache(_raised_by)


def documented_exceptions(func):
    """The class names that the Raises section of ``func``'s docstring lists."""
    names = set()
    for entry in FunctionDoc(func)["Raises"]:
        # "ValueError", "sklearn.exceptions.NotFittedError", "ValueError or TypeError"
        names.update(
            word.rsplit(".", 1)[-1] for word in re.findall(r"[A-Za-z_][\w.]*", entry.type)
        )
    return names


def undocumented(raised, documented):
    """The (exception class, argument, kind, message) of ``raised`` that ``documented`` (class
    names) does not cover: neither the class nor a base that is a ValueError or a TypeError."""
    missing = []
    for (error, argument), (kind, message) in sorted(
        raised.items(), key=lambda item: (item[0][0].__name__, item[0][1])
    ):
        covering = {c.__name__ for c in error.__mro__ if issubclass(c, (ValueError, TypeError))}
        if not covering & documented:
            missing.append((error, argument, kind, message))
    return missing


@pytest.mark.parametrize(
    "name, func", test_fuzz.FUNCTIONS, ids=[n for n, _ in test_fuzz.FUNCTIONS]
)
def test_raises_section_names_what_the_function_raises(name, func, raised_by):
    """Each ValueError and TypeError that a hostile argument provokes is named in Raises."""
    missing = undocumented(raised_by(name, func), documented_exceptions(func))
    assert not missing, (
        f"{func.__module__}.{name}: the Raises section does not name\n"
        + "\n".join(
            f"  {error.__name__} raised for {argument} ({kind}): {message[:120]}"
            for error, argument, kind, message in missing
        )
    )


def _raised_by_fit(cls):
    """{(exception class, part): (case, message)}: the ValueErrors and TypeErrors that
    ``cls.fit`` raises on every case of the fuzz suite (bad X, y, sample_weight, and every
    hyper-parameter at and beyond its declared constraints), with a fixed seed."""
    raised = {}
    for part, kind in test_fuzz._estimator_cases(cls):
        rng = np.random.default_rng(0)
        X, y = test_fuzz._data(cls, kind, rng)
        params, fit_kwargs = {}, {}
        if part == "X":
            X = test_fuzz._perturb_X(X, kind, rng)
            y = y[: len(X)]
        elif part == "y":
            y = test_fuzz._perturb_y(y, kind)
        elif part == "sample_weight":
            fit_kwargs["sample_weight"] = test_fuzz._perturb_weight(len(y), kind)
        else:
            params = dict([kind])
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                test_fuzz.fast_estimator(cls, **params).fit(X, y, **fit_kwargs)
        except (ValueError, TypeError) as error:
            key = (type(error), kind[0] if part == "param" else part)
            raised.setdefault(key, (test_fuzz._case_id(part, kind), str(error)))
        except Exception:  # other exceptions are test_fuzz's concern
            pass
    return raised


@pytest.fixture(scope="module")
def raised_by_fit():
    """The walk of :func:`_raised_by_fit`, run once per estimator and module."""
    return functools.cache(_raised_by_fit)


@pytest.mark.parametrize(
    "name, cls", test_fuzz.ESTIMATORS, ids=[n for n, _ in test_fuzz.ESTIMATORS]
)
def test_fit_raises_section_names_what_fit_raises(name, cls, raised_by_fit):
    """Each ValueError and TypeError that the fuzz suite's cases provoke in ``fit`` is named in
    the Raises section of its docstring."""
    missing = undocumented(raised_by_fit(cls), documented_exceptions(cls.fit))
    assert not missing, f"{name}.fit: the Raises section does not name\n" + "\n".join(
        f"  {error.__name__} raised for {part} ({case}): {message[:120]}"
        for error, part, case, message in missing
    )


def test_undocumented_finds_a_missing_entry():
    """The check itself: a ValueError is covered by "ValueError" only, scikit-learn's
    InvalidParameterError (a ValueError and a TypeError) by either, neither by Exception."""
    from sklearn.utils._param_validation import InvalidParameterError

    raised = {
        (ValueError, "x"): ("nan", "x must not contain NaN"),
        (InvalidParameterError, "n"): ("string", "The 'n' parameter must be an int"),
    }
    assert undocumented(raised, {"ValueError"}) == []
    assert [r[:2] for r in undocumented(raised, {"TypeError"})] == [(ValueError, "x")]
    assert len(undocumented(raised, {"Warning", "Exception"})) == 2
