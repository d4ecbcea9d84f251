"""``make bench``: every benchmark, single-threaded, into benchmarks/results.json and one table.

Convention (CONTRIBUTING.md, "Benchmarks"): every ``benchmarks/bench_*.py`` defines
``benchmark(quick=False)`` returning a list of rows made by ``_timing.row`` (task, size, prml14
median seconds, reference median seconds, goal as a minimum speed-up) or ``_timing.scaling_row``
(fit times at N, 2N, 4N, 8N, the measured growth exponent beside the expected one). The runner
finds the scripts by name, so a new ``bench_x.py`` joins the table without editing this file.

The thread counts are fixed to one before numpy is imported (environment variables, then
threadpoolctl), so that prml14 and the reference libraries run side by side on one core.

Usage::

    python benchmarks/run.py            # the full run (under 10 minutes on 2 cores)
    python benchmarks/run.py --quick    # small sizes, a smoke run
"""

import os

for _variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_variable] = "1"

import argparse  # noqa: E402
import importlib  # noqa: E402
import json  # noqa: E402
import platform  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402
import sklearn  # noqa: E402
from threadpoolctl import threadpool_limits  # noqa: E402

HERE = Path(__file__).resolve().parent


def goal_text(row):
    goal = row["goal"]
    if goal is None:
        return "", None
    if "min_speedup" in goal:
        if row["reference"] is None:
            return "", None
        ratio = row["reference"] / row["prml14"]
        return f"≥ {goal['min_speedup']:.3g}×", ratio >= goal["min_speedup"]
    expected, tol = goal["exponent"], goal["tolerance"]
    return f"N^{expected:g} ± {tol:g}", abs(row["exponent"] - expected) <= tol


COLUMNS = {
    "benchmark": ("benchmark", "---"),
    "task": ("task", "---"),
    "size": ("size", "---"),
    "prml14": ("prml14 median (s)", "---:"),
    "reference": ("reference median (s)", "---:"),
    "ratio": ("ratio", "---:"),
    "goal": ("goal", "---"),
    "met": ("met", ":---:"),
    "note": ("notes", "---"),
}


def _cells(row):
    goal, met = goal_text(row)
    if "exponent" in row:
        ratio = f"N^{row['exponent']:.2f}"
    elif row["reference"] is not None:
        ratio = f"{row['reference'] / row['prml14']:.2f}×"
    else:
        ratio = ""
    return {
        **row,
        "prml14": f"{row['prml14']:.4g}",
        "reference": "" if row["reference"] is None else f"{row['reference']:.4g}",
        "ratio": ratio,
        "goal": goal,
        "met": "" if met is None else "yes" if met else "no",
    }


def markdown(results, columns=tuple(COLUMNS)):
    """The rows of ``results`` as a Markdown table of ``columns`` (keys of COLUMNS)."""
    lines = [
        "| " + " | ".join(COLUMNS[c][0] for c in columns) + " |",
        "|" + "|".join(COLUMNS[c][1] for c in columns) + "|",
    ]
    for row in results["rows"]:
        cells = _cells(row)
        lines.append("| " + " | ".join(str(cells[c]) for c in columns) + " |")
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes: a smoke run")
    parser.add_argument(
        "--only",
        help="run only benchmarks/bench_ONLY.py (comma-separated topics for several); their rows "
        "replace theirs in the existing results, the other scripts' rows are kept",
    )
    args = parser.parse_args(argv)
    sys.path.insert(0, str(HERE))
    scripts = sorted(HERE.glob("bench_*.py"))
    all_scripts = [s.stem.removeprefix("bench_") for s in scripts]
    if args.only:
        only = set(args.only.split(","))
        scripts = [s for s in scripts if s.stem.removeprefix("bench_") in only]
    rows = []
    start = time.perf_counter()
    with threadpool_limits(1):
        for script in scripts:
            module = importlib.import_module(script.stem)
            if not callable(getattr(module, "benchmark", None)):
                raise SystemExit(
                    f"{script.name} defines no benchmark(quick=False) returning rows: see "
                    "CONTRIBUTING.md, Benchmarks"
                )
            print(f"== {script.name}", flush=True)
            for row in module.benchmark(quick=args.quick):
                rows.append({"benchmark": script.stem.removeprefix("bench_"), **row})
                print(f"   {row['task']} ({row['size']}): {row['prml14']:.4g} s", flush=True)
    results = {
        "date": time.strftime("%Y-%m-%d"),
        "quick": args.quick,
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, Python "
        f"{platform.python_version()}, numpy {np.__version__}, scikit-learn {sklearn.__version__}",
        "threads": 1,
        "total_seconds": round(time.perf_counter() - start, 1),
        "rows": rows,
    }
    name = "results-quick" if args.quick else "results"
    previous = HERE / f"{name}.json"
    if args.only and previous.exists():  # merge: keep the rows of the scripts not re-run
        old = json.loads(previous.read_text())
        ran = {s.stem.removeprefix("bench_") for s in scripts}
        kept = [r for r in old["rows"] if r["benchmark"] not in ran]
        order = {topic: i for i, topic in enumerate(all_scripts)}
        results["rows"] = sorted(kept + rows, key=lambda r: order.get(r["benchmark"], -1))
        results["total_seconds"] = round(old["total_seconds"] + results["total_seconds"], 1)
        results["merged"] = sorted(ran)
        rows = results["rows"]
    (HERE / f"{name}.json").write_text(json.dumps(results, indent=1) + "\n")
    table = markdown(results)
    (HERE / f"{name}.md").write_text(table + "\n")
    print(table)
    print(f"\n{len(rows)} rows in {results['total_seconds']} s -> benchmarks/{name}.json")


if __name__ == "__main__":
    main()
