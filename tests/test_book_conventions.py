"""The book's machine-checked conventions: equation targets and tags, the registry, the TOC.

Two series of equations: the chapter's (14.1)-(14.53), targets ``(eq-14-NN)=``, and the beyond
part's (B.1), (B.2), ..., targets ``(eq-b-NN)=``, numbered in the order of the table of contents.
"""

import importlib
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from prml14._equations import equation_key, implements, is_equation_number, registry

ROOT = Path(__file__).resolve().parents[1]
PAGES = {p.stem: p.read_text(encoding="utf-8") for p in sorted((ROOT / "book").glob("*.md"))}

TARGET = re.compile(r"^\(eq-((?:14|b)-\d+)\)=\s*$", re.M)
ANY_EQ_TARGET = re.compile(r"^\((eq-[^)]*)\)=\s*$", re.M)
DISPLAY_AFTER_TARGET = re.compile(
    r"^\(eq-((?:14|b)-\d+)\)=\s*\n\$\$\n(.*?)\n\$\$\s*$", re.M | re.S
)
TAG = re.compile(r"\\tag\{([^}]*)\}")
REFERENCE = re.compile(r"\]\((eq-[^)]*)\)")


def number_of(target):
    """``eq-14-17`` -> ``14.17``; ``eq-b-3`` -> ``B.3``."""
    return target.removeprefix("eq-").replace("-", ".").replace("b.", "B.")


def toc_files():
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))
    return [toc["root"]] + [c["file"] for part in toc["parts"] for c in part["chapters"]]


def targets():
    return [
        (name, match.group(1))
        for name, text in PAGES.items()
        for match in ANY_EQ_TARGET.finditer(text)
    ]


def test_every_equation_target_names_an_equation():
    bad = [(page, t) for page, t in targets() if not is_equation_number(number_of(t))]
    assert not bad, f"targets outside (14.1)-(14.53) and (B.1), (B.2), ...: {bad}"


def test_beyond_equations_are_numbered_in_reading_order():
    """(B.1), (B.2), ... without gaps and increasing within every page. A number once published
    is kept (readers cite it), so an equation added later to an earlier page takes the next
    free number rather than renumbering the pages after it."""
    per_page = [
        [
            int(number_of(match.group(1))[2:])
            for match in TARGET.finditer(PAGES.get(name.removeprefix("book/"), ""))
            if match.group(1).startswith("b-")
        ]
        for name in toc_files()
    ]
    beyond = [n for page in per_page for n in page]
    assert sorted(beyond) == list(range(1, len(beyond) + 1)), beyond
    for page in per_page:
        assert page == sorted(page), page


def test_no_equation_target_is_duplicated():
    seen = {}
    for page, target in targets():
        seen.setdefault(target, []).append(page)
    duplicated = {t: pages for t, pages in seen.items() if len(pages) > 1}
    assert not duplicated, f"equation targets defined more than once: {duplicated}"


def test_each_target_opens_a_display_tagged_with_its_own_number():
    for page, text in PAGES.items():
        displays = {m.start(): m for m in DISPLAY_AFTER_TARGET.finditer(text)}
        for match in TARGET.finditer(text):
            display = displays.get(match.start())
            assert display, f"{page}: ({match.group(1)}) must be followed directly by a $$ display"
            number = number_of(f"eq-{match.group(1)}")
            assert TAG.findall(display.group(2)) == [number], (
                f"{page}: the display after ({match.group(1)}) must carry exactly "
                f"\\tag{{{number}}}"
            )


def test_every_tag_is_an_equation_and_has_a_target():
    tagged = [(page, tag) for page, text in PAGES.items() for tag in TAG.findall(text)]
    assert all(is_equation_number(tag) for _, tag in tagged), f"unknown tags: {tagged}"
    targeted = {number_of(t) for _, t in targets()}
    untargeted = [(page, tag) for page, tag in tagged if tag not in targeted]
    assert not untargeted, f"tags without an (eq-14-NN)= target: {untargeted}"
    assert len(tagged) == len(targeted), "a \\tag appears more than once"


def test_no_math_label_is_used_for_equations():
    offenders = [page for page, text in PAGES.items() if re.search(r":label:\s*eq-", text)]
    assert not offenders, f"use the (eq-14-NN)= / (eq-b-NN)= form, not :label: ({offenders})"


def test_every_equation_reference_resolves():
    defined = {t for _, t in targets()}
    dangling = [
        (page, ref)
        for page, text in PAGES.items()
        for ref in REFERENCE.findall(text)
        if ref not in defined
    ]
    assert not dangling, f"references to undefined equation targets: {dangling}"


def test_every_registry_entry_points_at_a_derived_equation_and_a_real_object():
    derived = {number_of(t) for _, t in targets()}
    for number, names in registry().items():
        assert number in derived, (
            f"({number}) is implemented by {names} but derived nowhere in book/"
        )
        for name in names:
            assert number in _object_named(name).__equations__


def _object_named(name):
    """The object a dotted name such as ``prml14.trees.pruning.cost_complexity`` names: the
    longest importable prefix is the module, the rest are attributes."""
    parts = name.split(".")
    for k in range(len(parts) - 1, 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:k]))
        except ImportError:
            continue
        for part in parts[k:]:
            obj = getattr(obj, part)
        return obj
    raise ImportError(name)


def test_implements_rejects_numbers_outside_both_series():
    for bad in ("14.54", "14.0", "B.0", "B.01", "B", "b.3", "C.1"):
        with pytest.raises(ValueError, match="14.1-14.53 or B.1"):
            implements(bad)
    with pytest.raises(TypeError, match="string"):
        implements(14.1)
    with pytest.raises(ValueError, match="at least one"):
        implements()


def test_toc_lists_exactly_the_pages_that_exist():
    listed = toc_files()
    missing = [f for f in listed if not (ROOT / f"{f}.md").exists()]
    assert not missing, f"_toc.yml lists pages that do not exist: {missing}"
    unlisted = sorted(set(f"book/{name}" for name in PAGES) - set(listed))
    assert not unlisted, f"pages missing from _toc.yml: {unlisted}"
    assert len(listed) == len(set(listed)), "a page is listed twice in _toc.yml"


@pytest.mark.slow
def test_generated_pages_are_up_to_date():
    result = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "equation_index.py"), "--check"],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_equation_key_orders_the_chapter_before_the_beyond_part():
    numbers = ["B.10", "14.2", "B.2", "14.10"]
    assert sorted(numbers, key=equation_key) == ["14.2", "14.10", "B.2", "B.10"]
