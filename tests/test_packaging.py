"""Project metadata: pyproject.toml, environment.yml and CITATION.cff agree and are valid; the
private scikit-learn names the package relies on still exist, within a declared version range."""

import ast
import importlib
import re
import tomllib
from pathlib import Path

import pytest
import sklearn
import yaml
from packaging.requirements import Requirement
from packaging.version import Version

import prml14

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "prml14"
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
REQUIREMENT = re.compile(r"^([A-Za-z0-9_.\-]+)\s*(.*)$")


def parse(requirement):
    name, spec = REQUIREMENT.match(requirement.strip()).groups()
    return name.lower().replace("_", "-"), spec.replace(" ", "")


def test_version_is_consistent():
    assert prml14.__version__ == PYPROJECT["project"]["version"] == "0.1.0"


# packages environment.yml takes from pip because conda-forge names them differently
PIP_ONLY = {"xgboost-cpu"}  # conda-forge: py-xgboost-cpu


def test_environment_yml_lists_the_same_packages_as_pyproject():
    """Each requirement once, with the same bounds: from conda-forge, or from pip for the
    packages in PIP_ONLY (and prml14 itself, editable, last)."""
    project = PYPROJECT["project"]
    wanted = dict(parse(r) for r in project["dependencies"])
    for extra in ("book", "test"):
        wanted.update(parse(r) for r in project["optional-dependencies"][extra])
    environment = yaml.safe_load((ROOT / "environment.yml").read_text(encoding="utf-8"))
    conda = [d for d in environment["dependencies"] if isinstance(d, str)]
    pip = [d for d in environment["dependencies"] if isinstance(d, dict)]
    declared = dict(parse(d) for d in conda if parse(d)[0] not in ("python", "pip"))
    assert len(pip) == 1 and pip[0]["pip"][-1] == "-e ."
    from_pip = dict(parse(d) for d in pip[0]["pip"][:-1])
    assert set(from_pip) == PIP_ONLY
    assert not set(declared) & set(from_pip)
    assert {**declared, **from_pip} == wanted
    assert dict(parse(d) for d in conda)["python"] == project["requires-python"]
    assert "conda-forge" in environment["channels"]


def test_citation_cff_is_valid_and_cites_bishop():
    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))
    assert cff["cff-version"] == "1.2.0"
    for key in ("message", "title", "authors", "version", "type", "license"):
        assert cff[key], key
    assert cff["type"] in ("software", "dataset")
    assert str(cff["version"]) == prml14.__version__
    assert all("name" in a or "family-names" in a for a in cff["authors"])
    bishop = [
        r
        for r in cff["references"]
        if any(a.get("family-names") == "Bishop" for a in r["authors"])
    ]
    assert len(bishop) == 1 and bishop[0]["type"] == "book" and bishop[0]["year"] == 2006
    assert bishop[0]["title"] == "Pattern Recognition and Machine Learning"


def test_ci_calls_the_readme_test_command():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "make test" in readme and "make book" in readme
    assert "make test" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")


# The private scikit-learn names the package uses because scikit-learn has no public spelling of
# them (CONTRIBUTING.md, "Conventions"). Each must still import; pyproject.toml bounds the
# scikit-learn version from above by the first minor release not yet tested with them. A new
# private name must be added here (and a public one used instead wherever it exists).
PRIVATE_SKLEARN = {
    "sklearn.base._fit_context",  # parameter validation around fit
    "sklearn.utils._param_validation.HasMethods",
    "sklearn.utils._param_validation.Interval",
    "sklearn.utils._param_validation.RealNotInt",
    "sklearn.utils._param_validation.StrOptions",
    "sklearn.utils._param_validation.validate_params",
    "sklearn.utils.validation._check_sample_weight",
}


def _is_private(dotted):
    return any(part.startswith("_") for part in dotted.split("."))


def private_sklearn_names(source):
    """Dotted private scikit-learn names that ``source`` imports or reaches as attributes."""
    names = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "sklearn":
            names.update(
                f"{node.module}.{alias.name}"
                for alias in node.names
                if _is_private(f"{node.module}.{alias.name}")
            )
        elif isinstance(node, ast.Import):
            names.update(
                alias.name
                for alias in node.names
                if alias.name.split(".")[0] == "sklearn" and _is_private(alias.name)
            )
        elif isinstance(node, ast.Attribute):
            chain = [node.attr]
            value = node.value
            while isinstance(value, ast.Attribute):
                chain.append(value.attr)
                value = value.value
            if isinstance(value, ast.Name) and value.id == "sklearn":
                dotted = ".".join(["sklearn", *reversed(chain)])
                if _is_private(dotted):
                    names.add(dotted)
    return names


def test_private_sklearn_scanner_finds_every_spelling():
    planted = (
        "from sklearn.utils._param_validation import Interval\n"
        "from sklearn.utils.validation import _check_sample_weight, check_array\n"
        "import sklearn.tree._tree\n"
        "import sklearn\n"
        "f = sklearn.utils._testing.assert_allclose\n"
        "from sklearn.base import clone\n"
    )
    assert private_sklearn_names(planted) == {
        "sklearn.utils._param_validation.Interval",
        "sklearn.utils.validation._check_sample_weight",
        "sklearn.tree._tree",
        "sklearn.utils._testing.assert_allclose",
        "sklearn.utils._testing",
    }


def test_the_package_uses_exactly_the_declared_private_sklearn_names():
    used = set()
    for path in sorted(PACKAGE.rglob("*.py")):
        used |= private_sklearn_names(path.read_text(encoding="utf-8"))
    assert used - PRIVATE_SKLEARN == set(), "undeclared private scikit-learn names"
    assert PRIVATE_SKLEARN - used == set(), "declared but no longer used: remove them"


@pytest.mark.parametrize("dotted", sorted(PRIVATE_SKLEARN))
def test_each_private_sklearn_name_still_imports(dotted):
    module, _, name = dotted.rpartition(".")
    assert hasattr(importlib.import_module(module), name), dotted


def test_installed_scikit_learn_lies_within_the_declared_bounds():
    (requirement,) = [
        Requirement(r)
        for r in PYPROJECT["project"]["dependencies"]
        if Requirement(r).name == "scikit-learn"
    ]
    operators = {spec.operator for spec in requirement.specifier}
    assert ">=" in operators and "<" in operators, "scikit-learn needs a lower and an upper bound"
    assert requirement.specifier.contains(Version(sklearn.__version__), prereleases=True), (
        f"scikit-learn {sklearn.__version__} is outside {requirement.specifier}"
    )


def test_every_subpackage_is_installed():
    from setuptools import find_packages

    include = PYPROJECT["tool"]["setuptools"]["packages"]["find"]["include"]
    found = set(find_packages(where=str(ROOT), include=include))
    on_disk = {
        ".".join(path.parent.relative_to(ROOT).parts)
        for path in (ROOT / "prml14").rglob("__init__.py")
    }
    assert on_disk and on_disk <= found, sorted(on_disk - found)
