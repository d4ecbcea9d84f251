import pytest

from prml14._equations import EQUATIONS


def pytest_collection_modifyitems(items):
    """Reject ``@pytest.mark.equation`` marks that do not name an equation of the chapter."""
    for item in items:
        for mark in item.iter_markers(name="equation"):
            if not mark.args or any(number not in EQUATIONS for number in mark.args):
                raise pytest.UsageError(
                    f"{item.nodeid}: equation mark needs numbers in 14.1-14.53, got {mark.args!r}"
                )
