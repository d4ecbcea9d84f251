"""Project metadata: pyproject.toml, environment.yml and CITATION.cff agree and are valid."""

import re
import tomllib
from pathlib import Path

import yaml

import prml14

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
REQUIREMENT = re.compile(r"^([A-Za-z0-9_.\-]+)\s*(.*)$")


def parse(requirement):
    name, spec = REQUIREMENT.match(requirement.strip()).groups()
    return name.lower().replace("_", "-"), spec.replace(" ", "")


def test_version_is_consistent():
    assert prml14.__version__ == PYPROJECT["project"]["version"] == "0.1.0"


def test_environment_yml_lists_the_same_packages_as_pyproject():
    project = PYPROJECT["project"]
    wanted = dict(parse(r) for r in project["dependencies"])
    for extra in ("book", "test"):
        wanted.update(parse(r) for r in project["optional-dependencies"][extra])
    environment = yaml.safe_load((ROOT / "environment.yml").read_text(encoding="utf-8"))
    conda = [d for d in environment["dependencies"] if isinstance(d, str)]
    pip = [d for d in environment["dependencies"] if isinstance(d, dict)]
    declared = dict(parse(d) for d in conda if parse(d)[0] not in ("python", "pip"))
    assert declared == wanted
    assert dict(parse(d) for d in conda)["python"] == project["requires-python"]
    assert pip == [{"pip": ["-e ."]}]
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
