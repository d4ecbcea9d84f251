"""The registry that ties PRML's equation numbers to the code implementing them.

Every function or class of the functional core carries the number(s) of the equation(s) it
computes::

    @implements("14.17")
    def classifier_weight(eps): ...

Two series of numbers exist: the chapter's own, ``"14.1"`` to ``"14.53"`` (PRML's numbers), and
the equations of the book's part "Beyond the chapter", ``"B.1"``, ``"B.2"``, ... (one series across
its pages, numbered in the order of the table of contents).

The book's Equation Index page is generated from :func:`registry` (equation -> book section ->
function -> tests), and the test suite checks that every entry points at an equation the book
derives.
"""

from __future__ import annotations

import re

__all__ = ["EQUATIONS", "equation_key", "is_equation_number", "implements", "registry"]

#: The chapter's numbered equations, in order: ``("14.1", ..., "14.53")``.
EQUATIONS = tuple(f"14.{i}" for i in range(1, 54))

_BEYOND = re.compile(r"B\.([1-9]\d*)")
_REGISTRY: dict[str, list[str]] = {}


def is_equation_number(number):
    """Whether ``number`` names an equation: one of the chapter's or of the beyond part.

    Parameters
    ----------
    number : object
        A candidate such as ``"14.17"`` or ``"B.3"``.

    Returns
    -------
    bool
        True for ``"14.1"`` to ``"14.53"`` and for ``"B.k"`` with k a positive integer.
    """
    return isinstance(number, str) and (number in EQUATIONS or bool(_BEYOND.fullmatch(number)))


def equation_key(number):
    """A sort key that puts the chapter's equations first, then the beyond part, each in order.

    Parameters
    ----------
    number : str
        An equation number such as ``"14.17"`` or ``"B.3"``.

    Returns
    -------
    tuple of int
        ``(0, k)`` for ``"14.k"`` and ``(1, k)`` for ``"B.k"``.
    """
    series, k = number.split(".")
    return (0 if series == "14" else 1, int(k))


def _check_number(number):
    if not isinstance(number, str):
        raise TypeError(f"equation number must be a string such as '14.17', got {number!r}")
    if not is_equation_number(number):
        raise ValueError(
            f"equation number must be one of 14.1-14.53 or B.1, B.2, ..., got {number!r}"
        )
    return number


def implements(*numbers):
    """Tag a function or class with the PRML equation(s) it implements.

    Parameters
    ----------
    *numbers : str
        Equation numbers such as ``"14.17"`` (14.1-14.53) or ``"B.3"`` (the beyond part).

    Returns
    -------
    decorator : callable
        Registers ``module.qualname`` under each number, records the numbers in the object's
        ``__equations__`` attribute and returns the object unchanged.
    """
    if not numbers:
        raise ValueError("implements() needs at least one equation number, e.g. '14.17'")
    numbers = tuple(_check_number(n) for n in numbers)

    def decorator(obj):
        name = f"{obj.__module__}.{obj.__qualname__}"
        for number in numbers:
            names = _REGISTRY.setdefault(number, [])
            if name not in names:
                names.append(name)
        obj.__equations__ = numbers
        return obj

    return decorator


def registry():
    """The equations implemented so far.

    Returns
    -------
    dict of str to tuple of str
        Maps each implemented equation number (the chapter's in order, then B.1, B.2, ...) to
        the fully qualified names of the functions and classes that implement it. Importing
        ``prml14`` (which importing this module does first) registers every module's tags.
    """
    return {n: tuple(_REGISTRY[n]) for n in sorted(_REGISTRY, key=equation_key)}
