"""The repository's layout rules (CONTRIBUTING.md, "Conventions"), checked by reading the code.

* Book pages and benchmarks use only public names of prml14: no ``prml14._x`` module, no
  private name imported from prml14, no ``._name`` attribute or method of a prml14 object.
* A module of the package is at most 800 lines long, unless its docstring says why in a
  sentence of at least eight words containing "over 800 lines" (e.g. "This module is over 800
  lines because ...").
* Every module of the package has ``__all__``, and every name in it exists.
* The package is laid out like the book: at most eight top-level modules, one subpackage per
  part; estimators live in modules named ``*_estimators`` and those hold no tagged core
  function; no two modules import each other, directly or through others; parts import only
  downward; every name that ``prml14`` ever exported (``tests/public_names.txt``) still
  imports from it, and each part exports the public names of its modules.

Each checker is itself tested on planted examples, so that a check that cannot fail is noticed.
"""

import ast
import importlib
import pkgutil
import re
from pathlib import Path

import jupytext
import pytest

import prml14

ROOT = Path(__file__).resolve().parents[1]
PAGES = sorted((ROOT / "book").glob("*.md"))
BENCHMARKS = sorted((ROOT / "benchmarks").glob("*.py"))
MAX_LINES = 800


# ----------------------------------------------------------------------------- private names
def _private(name):
    """A single leading underscore: ``_x`` (dunders such as ``__version__`` are public)."""
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _names_in(node):
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def _targets(node):
    """The expressions a statement binds, with the expression bound to them."""
    if isinstance(node, ast.Assign):
        return [(t, node.value) for t in node.targets]
    if isinstance(node, (ast.AnnAssign, ast.AugAssign, ast.NamedExpr)) and node.value:
        return [(node.target, node.value)]
    if isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension)):
        return [(node.target, node.iter)]
    if isinstance(node, ast.withitem) and node.optional_vars is not None:
        return [(node.optional_vars, node.context_expr)]
    return []


def private_prml14_uses(source):
    """Private prml14 names that Python ``source`` uses, as readable strings.

    Names bound by importing from prml14 are prml14 objects, and so is every name bound to an
    expression that involves one (``model = AdaBoostClassifier().fit(X, t)``, ``for stump in
    model.estimators_``); a ``._name`` attribute of an expression involving a prml14 object is
    a use of a private name, as are imports of private prml14 modules or names.
    """
    tree = ast.parse(source)
    found, tainted = [], set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "prml14":
                    tainted.add(alias.asname or "prml14")
                    if any(_private(part) for part in alias.name.split(".")):
                        found.append(f"import {alias.name}")
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "prml14":
            module_private = any(_private(part) for part in node.module.split("."))
            for alias in node.names:
                tainted.add(alias.asname or alias.name)
                if module_private or _private(alias.name):
                    found.append(f"from {node.module} import {alias.name}")
    bindings = [pair for node in ast.walk(tree) for pair in _targets(node)]
    changed = True
    while changed:  # propagate to a fixed point: names bound to prml14 objects
        changed = False
        for target, value in bindings:
            if _names_in(value) & tainted and not _names_in(target) <= tainted:
                tainted |= _names_in(target)
                changed = True
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and _private(node.attr):
            if _names_in(node.value) & tainted:
                found.append(f"{ast.unparse(node)} (line {node.lineno})")
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "getattr"
            and len(node.args) >= 2
            and isinstance(node.args[1], ast.Constant)
            and isinstance(node.args[1].value, str)
            and _private(node.args[1].value)
            and _names_in(node.args[0]) & tainted
        ):
            found.append(f"{ast.unparse(node)} (line {node.lineno})")
    return found


PRIVATE_PATH = re.compile(r"\bprml14(?:\.[A-Za-z]\w*)*\._[A-Za-z]\w*")


def page_code(path):
    """The code cells of a MyST page, joined (IPython magics and shell lines dropped)."""
    notebook = jupytext.read(path, fmt="md:myst")
    lines = [
        line
        for cell in notebook.cells
        if cell.cell_type == "code"
        for line in cell.source.splitlines()
        if not line.lstrip().startswith(("%", "!"))
    ]
    return "\n".join(lines)


def private_uses_in_page(path):
    text = path.read_text(encoding="utf-8")
    return PRIVATE_PATH.findall(text) + private_prml14_uses(page_code(path))


PLANTED_PRIVATE = """
import numpy as np
import prml14._numerics
from prml14 import AdaBoostClassifier, DecisionStump
from prml14._em import run_em
from prml14.trees import _Builder
import prml14 as p

model = AdaBoostClassifier(DecisionStump()).fit(X, y)
f = model._decision(X)
for stump in model.estimators_:
    stump._fit_sorted(columns, t, w)
table = [s._decision(X) for s in model.estimators_]
costs = p.trees.DecisionTreeRegressor()._pruning_costs(tree)
hidden = getattr(model, "_stump_table_")
"""

PLANTED_PUBLIC = """
import numpy as np
from prml14 import AdaBoostClassifier

model = AdaBoostClassifier().fit(X, y)
f = model.decision_function(X)
n = model.__class__.__name__
rng = np.random.default_rng(0)
state = rng._bit_generator  # private, but not prml14's
"""


def test_private_name_checker_finds_every_planted_use():
    found = private_prml14_uses(PLANTED_PRIVATE)
    for expected in [
        "import prml14._numerics",
        "from prml14._em import run_em",
        "from prml14.trees import _Builder",
        "model._decision",
        "stump._fit_sorted",
        "s._decision",
        "p.trees.DecisionTreeRegressor()._pruning_costs",
        "getattr(model, '_stump_table_')",
    ]:
        assert any(use.startswith(expected) for use in found), (expected, found)
    assert private_prml14_uses(PLANTED_PUBLIC) == []


def test_private_name_checker_reads_pages(tmp_path):
    page = tmp_path / "page.md"
    page.write_text(
        "---\njupytext:\n  text_representation:\n    format_name: myst\n---\n\n"
        "The registry is {mod}`prml14._equations`.\n\n"
        "```{code-cell} ipython3\n%matplotlib inline\nfrom prml14 import DecisionStump\n"
        "stump = DecisionStump().fit(X, y)\nstump._decision(X)\n```\n",
        encoding="utf-8",
    )
    found = private_uses_in_page(page)
    assert "prml14._equations" in found
    assert any(use.startswith("stump._decision") for use in found), found


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_book_pages_use_only_public_names(page):
    assert private_uses_in_page(page) == []


@pytest.mark.parametrize("script", BENCHMARKS, ids=lambda p: p.name)
def test_benchmarks_use_only_public_names(script):
    source = script.read_text(encoding="utf-8")
    assert PRIVATE_PATH.findall(source) + private_prml14_uses(source) == []


# ----------------------------------------------------------------------------- module length
LONG_MODULE_REASON = re.compile(r"[^.]*\bover 800 lines\b[^.]*(?:\.|$)", re.IGNORECASE)


def length_problem(source, name):
    """None if the module is short enough or its docstring says why it is not; else a message."""
    n_lines = len(source.splitlines())
    if n_lines <= MAX_LINES:
        return None
    docstring = ast.get_docstring(ast.parse(source)) or ""
    reasons = [s for s in LONG_MODULE_REASON.findall(docstring) if len(s.split()) >= 8]
    if reasons:
        return None
    return (
        f"{name} has {n_lines} lines: split it, or say why in its docstring "
        '(a sentence with "over 800 lines" and the reason)'
    )


def test_length_checker_on_planted_modules():
    body = "x = 1\n" * MAX_LINES
    assert length_problem('"""Short."""\nx = 1\n', "short") is None
    assert length_problem('"""A long module."""\n' + body, "long") is not None
    assert (
        length_problem('"""A long module. It is over 800 lines."""\n' + body, "bare") is not None
    )
    reason = (
        '"""A long module.\n\nIt is over 800 lines because the builder and its split finders '
        'share one set of arrays.\n"""\n'
    )
    assert length_problem(reason + body, "reasoned") is None


MODULE_PATHS = sorted((ROOT / "prml14").rglob("*.py"))


@pytest.mark.parametrize("path", MODULE_PATHS, ids=lambda p: str(p.relative_to(ROOT)))
def test_modules_are_short_or_say_why(path):
    problem = length_problem(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))
    assert problem is None, problem


# ----------------------------------------------------------------------------- __all__
def all_problems(module):
    """What is wrong with ``module.__all__``: missing, not strings, repeated, or dangling."""
    names = getattr(module, "__all__", None)
    if names is None:
        return [f"{module.__name__} has no __all__"]
    problems = [f"{module.__name__}.__all__ holds {n!r}" for n in names if not isinstance(n, str)]
    problems += [
        f"{module.__name__}.__all__ lists {n} twice" for n in set(names) if names.count(n) > 1
    ]
    problems += [
        f"{module.__name__}.__all__ lists {n}, which does not exist"
        for n in names
        if isinstance(n, str) and not hasattr(module, n)
    ]
    return problems


def test_all_checker_on_planted_modules():
    import types

    good = types.ModuleType("good")
    good.f, good.__all__ = (lambda: None), ["f"]
    assert all_problems(good) == []
    assert all_problems(types.ModuleType("none")) == ["none has no __all__"]
    bad = types.ModuleType("bad")
    bad.f, bad.__all__ = (lambda: None), ["f", "f", "gone"]
    assert sorted(all_problems(bad)) == [
        "bad.__all__ lists f twice",
        "bad.__all__ lists gone, which does not exist",
    ]


MODULES = ["prml14"] + [
    info.name for info in pkgutil.walk_packages(prml14.__path__, prefix="prml14.")
]


@pytest.mark.parametrize("name", MODULES)
def test_every_module_has_a_valid_all(name):
    assert all_problems(importlib.import_module(name)) == []


# ----------------------------------------------------------------------------- layout
PARTS = ("committees", "boosting", "trees", "mixtures")  # one subpackage per part of the book
MAX_TOP_LEVEL_MODULES = 8  # __init__ included


def test_the_package_is_laid_out_like_the_book():
    top = list(pkgutil.iter_modules(prml14.__path__))
    modules = sorted(info.name for info in top if not info.ispkg)
    assert len(modules) + 1 <= MAX_TOP_LEVEL_MODULES, modules
    assert sorted(info.name for info in top if info.ispkg) == sorted(PARTS)


def package_imports(root):
    """{module: modules it imports} for the package in folder ``root``, read from the code.

    Every ``import`` and ``from ... import`` counts, inside functions too; ``from .x import y``
    is an edge to ``x.y`` if that is a module, else to ``x`` (a package's ``__init__``). The
    implicit import of a module's parent package is not an edge.
    """
    root = Path(root)
    names = {}
    for path in root.rglob("*.py"):
        parts = list(path.relative_to(root.parent).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        names[".".join(parts[:-1] if is_package else parts)] = (path, is_package)
    graph = {}
    for name, (path, is_package) in names.items():
        package = name if is_package else name.rpartition(".")[0]
        edges = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                target = node.module or ""
                if node.level:
                    base = package.split(".")[: len(package.split(".")) - node.level + 1]
                    target = ".".join(base + ([node.module] if node.module else []))
                for alias in node.names:
                    if f"{target}.{alias.name}" in names:
                        edges.add(f"{target}.{alias.name}")
                    elif target in names:
                        edges.add(target)
            elif isinstance(node, ast.Import):
                edges |= {alias.name for alias in node.names if alias.name in names}
        graph[name] = edges - {name}
    return graph


def import_cycles(graph):
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index, low, stack, on_stack, cycles = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = set()
            while not component or w != v:
                w = stack.pop()
                on_stack.discard(w)
                component.add(w)
            if len(component) > 1:
                cycles.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return cycles


def test_cycle_finder_on_planted_packages(tmp_path):
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("from .a import f\n")
    (pkg / "a.py").write_text("from .b import g\n")
    (pkg / "b.py").write_text("def g():\n    from .sub.c import h\n")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "sub" / "c.py").write_text("from .. import a\n")
    assert import_cycles(package_imports(pkg)) == [["pkg.a", "pkg.b", "pkg.sub.c"]]
    (pkg / "sub" / "c.py").write_text("import numpy\n")
    assert import_cycles(package_imports(pkg)) == []


PACKAGE_IMPORTS = package_imports(ROOT / "prml14")


def test_no_two_modules_import_each_other():
    assert import_cycles(PACKAGE_IMPORTS) == []


def test_parts_import_only_downward():
    """Committees may use trees and mixtures, boosting may use trees; trees and mixtures use
    no other part, and nothing uses the committees."""
    allowed = {"committees": {"trees", "mixtures"}, "boosting": {"trees"}}

    def part(name):
        parts = name.split(".")
        return parts[1] if len(parts) > 1 and parts[1] in PARTS else None

    crossing = [
        (a, b)
        for a, targets in PACKAGE_IMPORTS.items()
        for b in targets
        if part(a) and part(b) and part(a) != part(b) and part(b) not in allowed.get(part(a), ())
    ]
    assert crossing == []


PART_MODULES = [
    name
    for name in MODULES
    if name.split(".")[1:2] != ["plotting"]
    and name.count(".") == 2
    and not any(part.startswith("_") for part in name.split("."))
]


@pytest.mark.parametrize("name", PART_MODULES)
def test_estimators_live_in_estimator_modules_and_the_core_elsewhere(name):
    from sklearn.base import BaseEstimator

    module = importlib.import_module(name)
    own = {n: obj for n, obj in vars(module).items() if getattr(obj, "__module__", None) == name}
    estimators = [
        n for n, obj in own.items() if isinstance(obj, type) and issubclass(obj, BaseEstimator)
    ]
    tagged = [
        n for n, obj in own.items() if not isinstance(obj, type) and hasattr(obj, "__equations__")
    ]
    if name.endswith("_estimators"):
        assert tagged == [], f"{name} holds the tagged core functions {tagged}"
    else:
        assert [n for n in estimators if not n.startswith("_")] == [], (
            f"{name} defines estimators {estimators}: they belong in a *_estimators module"
        )


def test_every_name_prml14_exported_still_imports():
    names = (ROOT / "tests" / "public_names.txt").read_text(encoding="utf-8").split()
    assert [n for n in names if n not in prml14.__all__ or not hasattr(prml14, n)] == []


@pytest.mark.parametrize("part", PARTS)
def test_each_part_exports_the_public_names_of_its_modules(part):
    package = importlib.import_module(f"prml14.{part}")
    for info in pkgutil.iter_modules(package.__path__):
        if info.name.startswith("_") or info.name == "plotting":  # plotting loads matplotlib
            continue
        module = importlib.import_module(f"prml14.{part}.{info.name}")
        missing = [n for n in module.__all__ if n not in package.__all__]
        assert missing == [], f"prml14.{part} does not export {missing} of {module.__name__}"
