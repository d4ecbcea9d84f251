"""Print pip constraints pinning every runtime dependency to its oldest declared version.

``numpy>=2.0`` in pyproject.toml becomes ``numpy==2.0.*`` (the oldest release series, with its
bug fixes): ``make test-min`` installs prml14 with these constraints into .venv-min and runs the
unit tests, so that the minimums pyproject.toml and environment.yml declare are tested.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def constraints(pyproject=ROOT / "pyproject.toml"):
    """One ``name==X.Y.*`` line per runtime dependency with a ``>=X.Y`` bound."""
    project = tomllib.loads(Path(pyproject).read_text())["project"]
    lines = []
    for requirement in project["dependencies"]:
        match = re.match(r"([A-Za-z0-9_.-]+)\s*.*?>=\s*([0-9]+(?:\.[0-9]+)*)", requirement)
        if match is None:
            raise ValueError(f"no minimum version in {requirement!r}: declare one with >=")
        lines.append(f"{match.group(1)}=={match.group(2)}.*")
    return lines


if __name__ == "__main__":
    print("\n".join(constraints()))
