"""The first cell of every notebook installs prml14 where it is missing (Colab), and only there.

The cell is hidden from the book (``remove-cell``), reads ``PRML14_SOURCE`` (a local checkout,
a fork) and defaults to the repository address of ``_config.yml``. Executing it in a kernel
that already has prml14 must not call pip.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted(p for p in (ROOT / "book").glob("*.ipynb") if p.with_suffix(".md").exists())


def first_code_cell(notebook):
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    return next(c for c in cells if c["cell_type"] == "code")


def repository_url():
    config = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
    return config["repository"]["url"]


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda p: p.stem)
def test_first_cell_installs_prml14_when_missing(notebook):
    cell = first_code_cell(notebook)
    source = "".join(cell["source"])
    assert "remove-cell" in cell["metadata"].get("tags", [])
    assert 'importlib.util.find_spec("prml14") is None' in source
    assert f'"git+{repository_url()}"' in source
    assert 'os.environ.get("PRML14_SOURCE"' in source


def test_install_cell_does_nothing_where_prml14_is_installed(tmp_path):
    source = "".join(first_code_cell(NOTEBOOKS[0])["source"])
    # pip replaced by a command that fails: the cell must not reach it
    script = source.replace('[sys.executable, "-m", "pip"', '["false"')
    assert script != source
    subprocess.run([sys.executable, "-c", script], check=True, cwd=tmp_path)
    missing = script.replace('find_spec("prml14")', 'find_spec("prml14_not_installed")')
    failed = subprocess.run([sys.executable, "-c", missing], cwd=tmp_path, capture_output=True)
    assert failed.returncode != 0  # where the package is missing it does try to install
