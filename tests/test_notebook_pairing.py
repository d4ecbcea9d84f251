"""Each book page's .md (the source) and its paired .ipynb (with outputs) must agree."""

from pathlib import Path

import jupytext
import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
PAIRED = sorted(
    p
    for p in (ROOT / "book").glob("*.md")
    if "formats: md:myst,ipynb" in p.read_text(encoding="utf-8")
)


def cells(notebook):
    return [(cell.cell_type, cell.source.strip()) for cell in notebook.cells]


def test_notebook_pages_exist():
    assert PAIRED, "no paired notebook page found in book/"


@pytest.mark.parametrize("page", PAIRED, ids=lambda p: p.name)
def test_ipynb_matches_its_markdown_source(page):
    ipynb = page.with_suffix(".ipynb")
    assert ipynb.exists(), f"{ipynb.name} is missing: run `make notebooks`"
    assert cells(jupytext.read(page)) == cells(nbformat.read(ipynb, as_version=4)), (
        f"{ipynb.name} is out of sync with {page.name}: run `make notebooks`"
    )


@pytest.mark.parametrize("page", PAIRED, ids=lambda p: p.name)
def test_ipynb_is_stored_executed(page):
    notebook = nbformat.read(page.with_suffix(".ipynb"), as_version=4)
    code = [cell for cell in notebook.cells if cell.cell_type == "code"]
    counts = [cell.execution_count for cell in code]
    assert None not in counts, f"{page.stem}.ipynb has unexecuted cells: run `make notebooks`"
    assert counts == list(range(1, len(code) + 1)), (
        f"{page.stem}.ipynb was not executed top to bottom"
    )


def test_every_ipynb_has_a_markdown_source():
    orphans = [
        p.name for p in (ROOT / "book").glob("*.ipynb") if p.with_suffix(".md") not in PAIRED
    ]
    assert not orphans, f"notebooks without a paired .md source: {orphans}"
