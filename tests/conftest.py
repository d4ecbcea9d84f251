"""Shared test set-up: the equation marks, and data fixtures built from :mod:`prml14.datasets`.

The fixtures are factories (call them with a seed and a size) so that a test can draw several
independent data sets from the same generator the book's pages use.
"""

import numpy as np
import pytest

from prml14._equations import is_equation_number
from prml14.datasets import make_five_regions, make_wavy_classes


def pytest_collection_modifyitems(items):
    """Reject ``@pytest.mark.equation`` marks that do not name an equation (14.k or B.k)."""
    for item in items:
        for mark in item.iter_markers(name="equation"):
            if not mark.args or not all(is_equation_number(number) for number in mark.args):
                raise pytest.UsageError(
                    f"{item.nodeid}: equation mark needs numbers in 14.1-14.53 or B.1, B.2, "
                    f"..., got {mark.args!r}"
                )


def _float32_representable(X):
    """X rounded to float32 and back: scikit-learn's trees split float32 values, so its oracles
    see exactly the inputs ours see."""
    return X.astype(np.float32).astype(np.float64)


@pytest.fixture(scope="session")
def wavy_classes():
    """``make(n_samples=120, random_state=0, float32=True)`` -> (X, t): the boosting page's two
    classes (labels t ∈ {−1, +1}, 2-D inputs), by default rounded to float32 values."""

    def make(n_samples=120, random_state=0, float32=True):
        X, t = make_wavy_classes(n_samples, noise=0.3, random_state=random_state)
        return (_float32_representable(X) if float32 else X), t

    return make


@pytest.fixture(scope="session")
def five_regions():
    """``make(n_samples=400, random_state=0)`` -> (X, t): the trees page's piecewise-constant
    regression data (2-D inputs, five regions, Gaussian noise)."""

    def make(n_samples=400, random_state=0):
        X, t, _ = make_five_regions(n_samples, random_state=random_state)
        return X, t

    return make


def pytest_terminal_summary(terminalreporter):
    """Print the number of cases the fuzz suite ran (tests/test_fuzz.py), if it ran."""
    import sys

    fuzz = sys.modules.get("test_fuzz")
    if fuzz is not None and any(fuzz.CASES.values()):
        counts = ", ".join(f"{n} {what}" for what, n in fuzz.CASES.items())
        terminalreporter.write_line(f"fuzz cases run: {counts}")
