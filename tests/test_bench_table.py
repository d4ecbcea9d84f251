"""The README's benchmark table is generated from benchmarks/results.json and up to date."""

import importlib.util
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _load_tool():
    spec = importlib.util.spec_from_file_location("bench_table", ROOT / "tools" / "bench_table.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


bench_table = _load_tool()


def test_readme_table_is_generated_from_results():
    """Stale if results.json changed without ``python tools/bench_table.py`` (make bench)."""
    results = json.loads((ROOT / "benchmarks" / "results.json").read_text())
    readme = (ROOT / "README.md").read_text()
    assert bench_table.render(readme, results) == readme, (
        "README.md's benchmark table is stale: run `python tools/bench_table.py`"
    )


@pytest.mark.parametrize("page", sorted(bench_table.PAGES), ids=lambda p: p.name)
def test_page_tables_are_generated_from_results(page):
    """The pages' tables (their benchmarks' rows) are as stale-proof as the README's."""
    results = json.loads((ROOT / "benchmarks" / "results.json").read_text())
    text = page.read_text()
    assert bench_table.render(text, results, bench_table.PAGES[page]) == text, (
        f"{page.name}'s benchmark table is stale: run `python tools/bench_table.py`"
    )
    assert "| task |" in text  # the block is not empty


def test_a_changed_result_makes_the_table_stale():
    """The check above can fail: one changed number changes the rendered README."""
    results = json.loads((ROOT / "benchmarks" / "results.json").read_text())
    readme = bench_table.render((ROOT / "README.md").read_text(), results)
    results["rows"][0]["prml14"] *= 2
    assert bench_table.render(readme, results) != readme


def test_every_benchmark_script_is_in_the_results():
    """A bench_*.py added without running make bench leaves the table incomplete."""
    results = json.loads((ROOT / "benchmarks" / "results.json").read_text())
    measured = {row["benchmark"] for row in results["rows"]}
    scripts = {p.stem.removeprefix("bench_") for p in (ROOT / "benchmarks").glob("bench_*.py")}
    assert scripts <= measured, f"not in benchmarks/results.json: {sorted(scripts - measured)}"


def test_render_needs_the_markers():
    with pytest.raises(ValueError, match="bench:start"):
        bench_table.render("no markers here", {"rows": []})
