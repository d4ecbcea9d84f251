"""Every public docstring of prml14 passes numpydoc's validation.

The public objects are the names in each public module's ``__all__`` (and the public methods
of the classes among them). Skipped checks, and why:

- ES01 (extended summary), SA01 (See Also), EX01 (Examples): the book pages are the
  extended discussion and the examples.
- SS02, SS05, PR08, RT04: a summary or a description may start with mathematics
  ("π_k(x) ...", "ln p(t | x)"), which is neither a capital letter nor a verb.
"""

import importlib
import inspect
import pkgutil

import pytest

numpydoc_validate = pytest.importorskip("numpydoc.validate")

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
