"""The registry that ties PRML's equation numbers to the code implementing them.

Every function or class of the functional core carries the number(s) of the equation(s) it
computes::

    @implements("14.17")
    def classifier_weight(eps): ...

The book's Equation Index page is generated from :func:`registry` (equation -> book section ->
function -> tests), and the test suite checks that every entry points at an equation the book
derives.
"""

from __future__ import annotations

import re

__all__ = ["EQUATIONS", "implements", "registry"]

#: The chapter's numbered equations, in order: ``("14.1", ..., "14.53")``.
EQUATIONS = tuple(f"14.{i}" for i in range(1, 54))

_NUMBER = re.compile(r"14\.(\d+)")
_REGISTRY: dict[str, list[str]] = {}


def _check_number(number):
    if not isinstance(number, str):
        raise TypeError(f"equation number must be a string such as '14.17', got {number!r}")
    if number not in EQUATIONS:
        raise ValueError(f"equation number must be one of 14.1-14.53, got {number!r}")
    return number


def implements(*numbers):
    """Tag a function or class with the PRML equation(s) it implements.

    Parameters
    ----------
    *numbers : str
        Equation numbers such as ``"14.17"``, each in 14.1-14.53.

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
        Maps each implemented equation number, in the chapter's order, to the fully qualified
        names of the functions and classes that implement it.
    """
    import prml14  # noqa: F401  (importing the package registers every module's tags)

    return {n: tuple(_REGISTRY[n]) for n in EQUATIONS if n in _REGISTRY}
