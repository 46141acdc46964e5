"""What running a module body as a def over its namespace costs (rule ``module``).

For each module, three versions are imported, each in a fresh interpreter:
the original, the output, and the output with ``--keep module`` (the module
body left at module level, the layout before the rule). The time is the
``import`` statement alone, measured inside the interpreter: the first
import (compiling the output) and the median of the later ones (from
``__pycache__``). Then a module whose top level is a loop, run the same way.

    python benchmarks/module_namespace.py [--runs 7] [MODULE ...]

MODULE names a module of the standard library (default: the largest ones,
``_pydecimal`` and ``pydoc_data.topics``, and ``tarfile``).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from unsugar import desugar

LOOPS = """\
total = 0
for i in range(300000):
    total += i
items = []
for i in range(100000):
    if i % 3:
        items.append(i)
"""

PROBE = (
    "import sys, time; assert {name!r} not in sys.modules; "
    "t = time.perf_counter(); import {name}; print(time.perf_counter() - t)"
)
#: bytecode is written, so that later imports are cached ones
ENVIRONMENT = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}


def versions(source: str, filename: str) -> dict[str, str]:
    started = time.perf_counter()
    out = {"original": source, "output": desugar(source, filename=filename)}
    out["output, --keep module"] = desugar(source, filename=filename, keep=("module",))
    print(f"  desugared twice in {time.perf_counter() - started:.1f} s", file=sys.stderr)
    return out


def install(root: Path, name: str, text: str) -> None:
    """Write module ``name`` (maybe dotted) under ``root``, packages empty."""
    parts = name.split(".")
    folder = root.joinpath(*parts[:-1])
    folder.mkdir(parents=True, exist_ok=True)
    for depth in range(1, len(parts)):
        root.joinpath(*parts[:depth], "__init__.py").touch()
    (folder / f"{parts[-1]}.py").write_text(text, encoding="utf-8")


def import_time(root: Path, name: str) -> float:
    done = subprocess.run([sys.executable, "-c", PROBE.format(name=name)], cwd=root,
                          capture_output=True, text=True, check=True, env=ENVIRONMENT)
    return float(done.stdout)


def measure(name: str, source: str, filename: str, runs: int) -> None:
    """The versions are imported in turn, run after run, so that a drift of the
    machine's speed hits them alike; the ratios are taken run by run."""
    print(f"{name} ({source.count(chr(10))} lines)")
    with tempfile.TemporaryDirectory() as folder:
        roots = {}
        for index, (label, text) in enumerate(versions(source, filename).items()):
            roots[label] = Path(folder) / str(index)
            install(roots[label], name, text)
        first = {label: import_time(root, name) for label, root in roots.items()}
        times: dict[str, list[float]] = {label: [] for label in roots}
        for _ in range(runs):
            for label, root in roots.items():
                times[label].append(import_time(root, name))
    base = times["original"]
    for label, cached in times.items():
        ratio = statistics.median(t / b for t, b in zip(cached, base, strict=False))
        print(f"  {label:<24} first import {first[label] * 1000:9.1f} ms   "
              f"cached {statistics.median(cached) * 1000:9.1f} ms   {ratio:6.2f}x the original")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("modules", nargs="*", default=["_pydecimal", "pydoc_data.topics", "tarfile"])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    print(f"Python {sys.version.split()[0]}, {args.runs} cached imports each (median)")
    for name in args.modules:
        spec = importlib.util.find_spec(name)
        assert spec is not None and spec.origin, name
        measure(name, Path(spec.origin).read_text(encoding="utf-8"), spec.origin, args.runs)
    measure("module_loops", LOOPS, "module_loops.py", args.runs)


if __name__ == "__main__":
    main()
