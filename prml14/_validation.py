"""Helpers shared by the modules: binary label coding (stumps, AdaBoost, logistic mixtures,
experts), mixing weights on the simplex (bma, mixtures) and the random_state parameters of a
wrapped estimator (AdaBoost, bagging)."""

from __future__ import annotations

import re
import warnings

import numpy as np
from sklearn.utils import check_array as _sklearn_check_array
from sklearn.utils.multiclass import check_classification_targets, type_of_target

# np.exceptions is numpy >= 1.25
ComplexWarning = getattr(np, "exceptions", np).ComplexWarning

__all__ = [
    "binary_targets",
    "fitted_binary_targets",
    "random_state_params",
    "check_simplex",
    "check_array",
    "as_float",
    "check_magnitude",
    "check_sample_weight",
    "check_number",
    "check_random_state",
    "check_tree",
    "check_leaf",
    "check_n_jobs",
    "Axes",
]


def _named(error, name):
    """``error`` re-raised as the same type with ``name`` in its message if it is missing."""
    message = str(error)
    if re.search(rf"\b{re.escape(name)}\b", message):
        return error
    return type(error)(f"{name}: {message}")


def check_array(array, *, input_name, **kwargs):
    """scikit-learn's ``check_array``, whose every error names ``input_name``.

    scikit-learn names the input in some messages (NaN, inf) but not in others (complex values,
    strings, empty arrays); the core functions promise an error naming the bad argument.

    Parameters
    ----------
    array : array-like
    input_name : str
        The argument's name, for the error messages.
    **kwargs
        Passed on to :func:`sklearn.utils.check_array`.

    Returns
    -------
    ndarray
    """
    if np.iscomplexobj(array):
        raise ValueError(f"{input_name} must hold real numbers, got complex values")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", ComplexWarning)
            return _sklearn_check_array(array, input_name=input_name, **kwargs)
    except (ValueError, TypeError, ComplexWarning) as error:
        raise _named(ValueError(str(error)), input_name) from error


def as_float(a, name, *, allow_inf=False, non_negative=False):
    """``a`` as a float ndarray of any shape: real numbers, no NaN (no inf unless allowed).

    Parameters
    ----------
    a : array-like or float
    name : str
        The argument's name, for the error messages.
    allow_inf : bool, default=False
        Accept ±inf (log-densities of zero, ln 0 = −∞).
    non_negative : bool, default=False
        Refuse negative entries (weights, scales, responsibilities).

    Returns
    -------
    ndarray

    Raises
    ------
    ValueError
        Naming ``name``, if a condition fails or ``a`` is not numeric.
    """
    if np.iscomplexobj(a):
        raise ValueError(f"{name} must hold real numbers, got complex values")
    try:
        out = np.asarray(a, dtype=float)
    except (ValueError, TypeError) as error:
        raise ValueError(f"{name} must be numeric: {error}") from error
    if np.isnan(out).any() or (not allow_inf and np.isinf(out).any()):
        finite = "NaN" if allow_inf else "NaN or infinity"
        raise ValueError(f"{name} must not contain {finite}")
    if non_negative and (out < 0).any():
        raise ValueError(f"{name} must be non-negative")
    return out


def binary_targets(y):
    """Map any two class labels to t ∈ {−1, +1} (the first sorted label becomes −1).

    Parameters
    ----------
    y : ndarray of shape (n_samples,)

    Returns
    -------
    classes : ndarray of shape (2,)
        The sorted labels; ``classes[0]`` ↦ −1, ``classes[1]`` ↦ +1.
    t : ndarray of shape (n_samples,)
        The targets as floats in {−1, +1}.

    Raises
    ------
    ValueError
        If y is not a classification target with exactly two classes.
    """
    check_classification_targets(y)
    y_type = type_of_target(y, input_name="y", raise_unknown=True)
    if y_type != "binary":
        raise ValueError(
            f"Only binary classification is supported. The type of the target is {y_type}: "
            "y must contain exactly two classes."
        )
    classes, index = np.unique(y, return_inverse=True)
    if len(classes) != 2:
        raise ValueError(
            "y must contain exactly two classes (binary classification), got "
            f"{len(classes)} class(es): {classes[:5].tolist()}"
        )
    return classes, 2.0 * index.reshape(-1) - 1.0


def fitted_binary_targets(y, classes):
    """Code labels as t ∈ {0, 1} with the classes of a fitted model (``classes[1]`` ↦ 1).

    Parameters
    ----------
    y : array-like of shape (n_samples,)
    classes : ndarray of shape (2,)
        The fitted ``classes_``.

    Returns
    -------
    ndarray of shape (n_samples,)
        Floats in {0, 1}.

    Raises
    ------
    ValueError
        If y holds a label that is not in ``classes``.
    """
    y = np.asarray(y)
    unknown = ~np.isin(y, classes)
    if np.any(unknown):
        raise ValueError(
            f"y contains labels not seen in fit: {np.unique(y[unknown])[:5].tolist()}; "
            f"the fitted classes are {np.asarray(classes).tolist()}"
        )
    return (y == classes[1]).astype(float)


def random_state_params(estimator):
    """Names of every ``random_state`` parameter of ``estimator``, nested ones included, sorted.

    A tree inside a Pipeline has ``"tree__random_state"``; ensembles seed each of them so that one
    ``random_state`` of the ensemble fixes every member.

    Parameters
    ----------
    estimator : scikit-learn estimator

    Returns
    -------
    list of str
    """
    return sorted(
        key
        for key in estimator.get_params(deep=True)
        if key == "random_state" or key.endswith("__random_state")
    )


def check_simplex(weights, n_components=None, name="weights"):
    """Mixing weights as a float vector: non-empty, one per component, non-negative, sum one.

    Parameters
    ----------
    weights : array-like of shape (n_components,)
    n_components : int, default=None
        The required length (not checked if None).
    name : str, default="weights"
        The argument's name, for the error messages.

    Returns
    -------
    ndarray of shape (n_components,)

    Raises
    ------
    ValueError
        Naming ``name``, if a condition fails (the sum may differ from one by 1e-5: float32
        weights pass, and are used renormalised).
    """
    weights = as_float(weights, name)
    if weights.ndim != 1 or weights.size == 0:
        raise ValueError(
            f"{name} must be a non-empty 1-D array of mixing coefficients, "
            f"got shape {weights.shape}"
        )
    if n_components is not None and weights.size != n_components:
        raise ValueError(
            f"{name} must have one entry per component ({n_components}), got {weights.size}"
        )
    if (
        not np.all(np.isfinite(weights))
        or np.any(weights < 0)
        or not np.isclose(weights.sum(), 1.0, atol=1e-8)
    ):
        raise ValueError(f"{name} must be non-negative and sum to one, got {weights}")
    return weights


def check_magnitude(a, name, limit=1e150):
    """Refuse entries beyond ``limit`` in magnitude, whose squares would overflow in a fit.

    Parameters
    ----------
    a : ndarray
    name : str
        The argument's name, for the error message.
    limit : float, default=1e150
        The largest magnitude accepted.

    Raises
    ------
    ValueError
        Naming ``name``, with the advice to rescale.
    """
    a = as_float(a, name, allow_inf=True)
    largest = float(np.max(np.abs(a))) if a.size else 0.0
    if largest > limit:
        raise ValueError(
            f"{name} has entries of magnitude up to {largest:.3g}: beyond {limit:.0e} the sums "
            f"of squares in the fit overflow; rescale {name} (e.g. with "
            "sklearn.preprocessing.StandardScaler)"
        )


def check_sample_weight(sample_weight, X, *, max_magnitude=1e100, **kwargs):
    """Sample weights for a fit: scikit-learn's ``_check_sample_weight`` with non-negative
    weights, and, whatever the scikit-learn version, a refusal of all-zero weights and of
    weights whose products overflow.

    Parameters
    ----------
    sample_weight : array-like of shape (n_samples,) or None
        None gives unit weights.
    X : ndarray of shape (n_samples, n_features)
        The inputs (for the number of samples).
    max_magnitude : float or None, default=1e100
        The largest weight accepted (None: any finite weight, for fits that normalise them).
    **kwargs
        Passed on (e.g. ``dtype``).

    Returns
    -------
    ndarray of shape (n_samples,)

    Raises
    ------
    ValueError
        If a weight is negative or not finite, all are zero, or one exceeds ``max_magnitude``.
    """
    from sklearn.utils.validation import _check_sample_weight

    try:
        sample_weight = _check_sample_weight(sample_weight, X, ensure_non_negative=True, **kwargs)
    except (ValueError, TypeError) as error:  # scikit-learn's messages say "Sample weights"
        raise _named(error, "sample_weight") from error
    if sample_weight.size and not np.any(sample_weight > 0):
        raise ValueError(
            "sample_weight: Sample weights must contain at least one non-zero number."
        )
    if max_magnitude is not None:
        check_magnitude(sample_weight, "sample_weight", max_magnitude)
    return sample_weight


def check_number(value, name, *, low=None, high=None, closed="both", integer=False, finite=True):
    """A real scalar argument (a tolerance, a step, a count) checked against its bounds.

    Unlike :func:`sklearn.utils.check_scalar`, NaN is refused (it passes every comparison), and
    so is ±inf unless ``finite=False``. A 0-d array counts as its scalar.

    Parameters
    ----------
    value : object
    name : str
        The argument's name, for the error messages.
    low, high : float, default=None
        The bounds (None: unbounded on that side).
    closed : {"both", "left", "right", "neither"}, default="both"
        Which bounds are included.
    integer : bool, default=False
        Require an integer (a bool is not one).
    finite : bool, default=True
        Refuse ±inf.

    Returns
    -------
    float or int

    Raises
    ------
    TypeError
        Naming ``name``, if ``value`` is not a real number (an integer if required).
    ValueError
        Naming ``name``, if it is NaN, infinite (unless allowed) or outside the bounds.
    """
    if isinstance(value, np.ndarray) and value.ndim == 0:
        value = value[()]
    kinds = (int, np.integer) if integer else (int, float, np.integer, np.floating)
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, kinds):
        expected = "an integer" if integer else "a real number"
        raise TypeError(f"{name} must be {expected}, got {value!r}")
    if np.isnan(value) or (finite and np.isinf(value)):
        expected = "a finite number" if finite else "a number, not NaN"
        raise ValueError(f"{name} must be {expected}, got {value!r}")
    low_ok = low is None or (value >= low if closed in ("both", "left") else value > low)
    high_ok = high is None or (value <= high if closed in ("both", "right") else value < high)
    if not (low_ok and high_ok):
        left = "[" if closed in ("both", "left") and low is not None else "("
        right = "]" if closed in ("both", "right") and high is not None else ")"
        low, high = "-inf" if low is None else low, "inf" if high is None else high
        raise ValueError(f"{name} must lie in {left}{low}, {high}{right}, got {value!r}")
    return int(value) if integer else float(value)


def check_random_state(seed, name="random_state"):
    """:func:`sklearn.utils.check_random_state`, whose errors name the argument.

    Parameters
    ----------
    seed : None, int or numpy.random.RandomState
    name : str, default="random_state"
        The argument's name, for the error messages.

    Returns
    -------
    numpy.random.RandomState

    Raises
    ------
    ValueError or TypeError
        Naming ``name``, if ``seed`` cannot seed a generator.
    """
    from sklearn.utils import check_random_state as _sklearn_check_random_state

    try:
        return _sklearn_check_random_state(seed)
    except (ValueError, TypeError) as error:
        raise type(error)(f"{name}: {error}") from error


def check_tree(tree, name="tree"):
    """A fitted tree (:class:`prml14.trees.Tree`, recognised by its arrays), not an estimator.

    Parameters
    ----------
    tree : object
    name : str, default="tree"
        The argument's name, for the error messages.

    Returns
    -------
    prml14.trees.Tree

    Raises
    ------
    TypeError
        Naming ``name``, if ``tree`` is not a tree; for a fitted estimator, pointing to its
        ``tree_``.
    """
    if all(hasattr(tree, a) for a in ("node_count", "value")):
        return tree
    if hasattr(tree, "tree_"):
        raise TypeError(
            f"{name} must be a prml14.trees.Tree, got the estimator {type(tree).__name__}: pass "
            "its fitted tree, estimator.tree_"
        )
    raise TypeError(f"{name} must be a prml14.trees.Tree, got {type(tree).__name__}")


def check_leaf(leaf, n_samples, n_leaves=None):
    """Leaf ids: non-negative integers, one per sample, below ``n_leaves`` if it is given.

    Parameters
    ----------
    leaf : array-like of int of shape (n_samples,)
    n_samples : int
        The required length.
    n_leaves : int, default=None
        The number of leaf ids (``leaf.max() + 1`` if None).

    Returns
    -------
    leaf : ndarray of int of shape (n_samples,)
    n_leaves : int

    Raises
    ------
    ValueError or TypeError
        Naming ``leaf`` or ``n_leaves``, if a condition fails.
    """
    leaf = np.asarray(leaf)
    if leaf.dtype.kind not in "iu" or leaf.shape != (n_samples,) or leaf.size == 0:
        raise ValueError(
            f"leaf must be a non-empty array of integer leaf ids of shape (n_samples,) = "
            f"({n_samples},), got dtype {leaf.dtype} and shape {leaf.shape}"
        )
    if leaf.min() < 0:
        raise ValueError("leaf must hold non-negative leaf ids")
    if n_leaves is None:
        return leaf, int(leaf.max()) + 1
    n_leaves = check_number(n_leaves, "n_leaves", low=int(leaf.max()) + 1, integer=True)
    return leaf, n_leaves


def check_n_jobs(n_jobs):
    """joblib's ``n_jobs``: None or a non-zero integer (-1: every core).

    Parameters
    ----------
    n_jobs : int or None

    Returns
    -------
    int or None

    Raises
    ------
    TypeError or ValueError
        Naming ``n_jobs``, if it is not None or a non-zero integer.
    """
    if n_jobs is None:
        return None
    n_jobs = check_number(n_jobs, "n_jobs", integer=True)
    if n_jobs == 0:
        raise ValueError("n_jobs must be None or a non-zero integer (-1: every core), got 0")
    return n_jobs


class Axes:
    """The sizes of the named axes that a function's arguments share, checked argument by argument.

    The first argument to use an axis name (``"n_samples"``, ``"n_components"``, ...) fixes its
    size; every later one must agree, or a ValueError names the argument, the axis and both sizes.

    Parameters
    ----------
    **sizes : int
        Axis sizes known in advance.

    Examples
    --------
    >>> axes = Axes()
    >>> X = axes.array([[1.0, 2.0], [3.0, 4.0]], "X", ("n_samples", "n_features"))
    >>> w = axes.array([0.5, 0.5], "w", ("n_samples",), non_negative=True)
    >>> axes.sizes
    {'n_samples': 2, 'n_features': 2}
    """

    def __init__(self, **sizes):
        self.sizes = dict(sizes)

    def array(
        self,
        a,
        name,
        shape,
        *,
        allow_inf=False,
        non_negative=False,
        allow_empty=False,
        max_magnitude=None,
    ):
        """``a`` as a float ndarray whose axes agree with ``shape``.

        Parameters
        ----------
        a : array-like
        name : str
            The argument's name, for the error messages.
        shape : tuple of str or int
            One entry per axis: an axis name (its size is shared) or a fixed size.
        allow_inf, non_negative : bool, default=False
            As in :func:`as_float`.
        allow_empty : bool, default=False
            Accept an array with no entries.
        max_magnitude : float, default=None
            Refuse larger entries (:func:`check_magnitude`).

        Returns
        -------
        ndarray

        Raises
        ------
        ValueError
            Naming ``name``, if a condition fails.
        """
        a = as_float(a, name, allow_inf=allow_inf, non_negative=non_negative)
        described = str(tuple(shape)).replace("'", "")
        if a.ndim != len(shape):
            raise ValueError(f"{name} must have shape {described}, got shape {a.shape}")
        for axis, size in zip(shape, a.shape, strict=True):
            expected = axis if isinstance(axis, int) else self.sizes.setdefault(axis, size)
            if size != expected:
                raise ValueError(
                    f"{name} must have shape {described} with {axis} = {expected}, "
                    f"got shape {a.shape}"
                )
        if a.size == 0 and not allow_empty:
            raise ValueError(f"{name} must not be empty, got shape {a.shape}")
        if max_magnitude is not None:
            check_magnitude(a, name, max_magnitude)
        return a
