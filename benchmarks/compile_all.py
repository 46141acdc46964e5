"""Whether unsugar's output compiles wherever its input does, over the whole standard library.

    python benchmarks/compile_all.py                    # every .py of this interpreter's library
    python benchmarks/compile_all.py --filter email --jobs 4
    python benchmarks/compile_all.py --limit 200 --json results.json

For every ``.py`` file under the directory of ``os.__file__`` (tests, idlelib
and lib2to3 included, ``site-packages`` left out) that CPython compiles, the
file is desugared and its output compiled. Prints the counts, every failure
(desugar crashes apart from output that does not compile), the outputs in
which ``unsugar check`` finds sugar (by rule), and the deepest static block
depth (:mod:`unsugar.depth`) of the inputs and of the outputs.
Each file runs in a worker process with a time limit; a worker that dies (a
crash of CPython's compiler) is reported for its file and replaced.
"""

from __future__ import annotations

import argparse
import ast
import collections
import importlib.util
import json
import multiprocessing
import os
import re
import sys
import time
import warnings
from multiprocessing.connection import wait
from pathlib import Path

from unsugar import desugar
from unsugar.checker import find_sugar
from unsugar.depth import MAX_BLOCKS, static_block_depth

ROOT = Path(os.__file__).parent
OK, NOT_INPUT, DESUGAR, OUTPUT, TIMEOUT, CRASH = (
    "ok", "input does not compile", "desugar crash", "output does not compile", "timeout",
    "compiler crash")


def library(root: Path = ROOT, only: str = "") -> list[Path]:
    """The ``.py`` files under ``root``, sorted, without ``site-packages``."""
    found = []
    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(root).parts
        if parts[0] == "site-packages" or "__pycache__" in parts:
            continue
        if only in str(path.relative_to(root)):
            found.append(path)
    return found


def depth_of(tree: ast.AST) -> tuple[int, int]:
    """Static block depth of ``tree`` and the line where it is reached."""
    depth, node = static_block_depth(tree)
    return depth, getattr(node, "lineno", 0)


def check(path: Path) -> dict:
    """Compile ``path``, desugar it, compile the output; what happened at each step."""
    result: dict = {"path": str(path), "status": OK}
    try:
        source = importlib.util.decode_source(path.read_bytes())
        compile(source, str(path), "exec", dont_inherit=True)
    except (SyntaxError, ValueError, UnicodeError) as exc:
        return {**result, "status": NOT_INPUT, "error": describe(exc)}
    result["in_depth"], result["in_line"] = depth_of(ast.parse(source))
    try:
        output = desugar(source, filename=str(path))
    except Exception as exc:  # noqa: BLE001  (every crash is reported)
        return {**result, "status": DESUGAR, "error": describe(exc)}
    tree = ast.parse(output)
    result["out_depth"], result["out_line"] = depth_of(tree)
    sugar = sorted({finding.rule for finding in find_sugar(tree)})
    if sugar:
        result["sugar"] = sugar
    try:
        compile(output, str(path), "exec", dont_inherit=True)
    except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
        return {**result, "status": OUTPUT, "error": describe(exc)}
    return result


def describe(exc: BaseException) -> str:
    """``ExceptionType: message`` on one line."""
    text = exc.msg if isinstance(exc, SyntaxError) else str(exc)
    where = f" (line {exc.lineno})" if isinstance(exc, SyntaxError) and exc.lineno else ""
    return f"{type(exc).__name__}: {' '.join(text.split())[:300]}{where}"


def worker(conn) -> None:
    """Check the paths sent on ``conn``, one at a time, until ``None``."""
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    warnings.simplefilter("ignore")
    while (path := conn.recv()) is not None:
        conn.send(check(Path(path)))


def run_all(paths: list[Path], jobs: int, timeout: float) -> list[dict]:
    """:func:`check` every path in ``jobs`` processes; a dead or late worker fails its file."""
    context = multiprocessing.get_context("fork")
    todo, results = list(reversed(paths)), []
    busy: dict = {}  # connection -> (process, path, start)
    show = sys.stderr.isatty()

    def start() -> None:
        ours, theirs = context.Pipe()
        process = context.Process(target=worker, args=(theirs,), daemon=True)
        process.start()
        theirs.close()
        give(ours, process)

    def give(conn, process) -> None:
        if todo:
            path = todo.pop()
            conn.send(str(path))
            busy[conn] = (process, path, time.monotonic())
        else:
            conn.send(None)
            process.join()

    for _ in range(min(jobs, len(paths))):
        start()
    while busy:
        ready = wait([*busy, *(process.sentinel for process, _, _ in busy.values())], timeout=1)
        now = time.monotonic()
        for conn, (process, path, began) in list(busy.items()):
            if conn in ready and conn.poll():
                del busy[conn]
                results.append(conn.recv())
                give(conn, process)
            elif process.sentinel in ready or now - began > timeout:
                del busy[conn]
                late = process.is_alive()
                if late:
                    process.kill()
                process.join()
                status, error = ((TIMEOUT, f"TimeoutError: over {timeout:g} s") if late else
                                 (CRASH, f"Crash: worker died with exit code {process.exitcode}"))
                results.append({"path": str(path), "status": status, "error": error})
                conn.close()
                if todo:
                    start()
        if show:
            print(f"\r{len(results)}/{len(paths)}", end="", file=sys.stderr, flush=True)
    if show:
        print(file=sys.stderr)
    return sorted(results, key=lambda result: result["path"])


def cause(error: str) -> str:
    """``error`` without its line number and names: what failures share."""
    return re.sub(r" \(line \d+\)$", "", re.sub(r"'[^']*'", "'...'", error))


def deepest(results: list[dict], key: str) -> tuple[int, str]:
    """The greatest ``key`` depth and where it is (``path:line``)."""
    found = [r for r in results if key + "_depth" in r]
    if not found:
        return 0, "-"
    best = max(found, key=lambda r: r[key + "_depth"])
    return best[key + "_depth"], f"{best['path']}:{best[key + '_line']}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.partition("\n")[0])
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, metavar="N")
    parser.add_argument("--limit", type=int, metavar="N", help="at most N files")
    parser.add_argument("--filter", default="", metavar="SUBSTRING",
                        help="only files whose path (under the library) contains SUBSTRING")
    parser.add_argument("--timeout", type=float, default=600, metavar="SECONDS",
                        help="per file (default 600)")
    parser.add_argument("--json", type=Path, metavar="FILE", help="write every result to FILE")
    args = parser.parse_args(argv)

    paths = library(ROOT, args.filter)[: args.limit]
    desugar("x = 1\n")  # compile the runtime once, before the workers fork
    began = time.monotonic()
    results = run_all(paths, max(args.jobs, 1), args.timeout)
    elapsed = time.monotonic() - began
    for result in results:
        result["path"] = str(Path(result["path"]).relative_to(ROOT))
    counts = collections.Counter(result["status"] for result in results)
    compiled = len(results) - counts[NOT_INPUT]
    desugared = compiled - counts[DESUGAR] - counts[TIMEOUT] - counts[CRASH]
    version = ".".join(map(str, sys.version_info[:3]))

    print(f"python {version}, library {ROOT}, {elapsed:.0f} s with {args.jobs} jobs")
    print(f"files seen:               {len(results)}")
    print(f"compiled by CPython:      {compiled}")
    print(f"desugared:                {desugared}")
    print(f"output compiled:          {counts[OK]}")
    print(f"failures:                 {compiled - counts[OK]}  ("
          + ", ".join(f"{status} {counts[status]}"
                      for status in (DESUGAR, OUTPUT, TIMEOUT, CRASH)) + ")")
    sugary = collections.Counter(rule for result in results for rule in result.get("sugar", ()))
    print(f"outputs with sugar left:  {sum('sugar' in result for result in results)}"
          + (f"  ({', '.join(f'{rule} in {n}' for rule, n in sugary.most_common())})"
             if sugary else ""))
    for label, key in (("input", "in"), ("output", "out")):
        depth, where = deepest(results, key)
        over = sum(result.get(key + "_depth", 0) > MAX_BLOCKS for result in results)
        print(f"deepest {label + ':':8}         {depth} at {where}"
              f"  ({over} files over CO_MAXBLOCKS = {MAX_BLOCKS})")
    for status in (DESUGAR, TIMEOUT, CRASH, OUTPUT):
        failed = [result for result in results if result["status"] == status]
        if failed:
            print(f"\n{status} ({len(failed)}):")
            for error, number in collections.Counter(cause(r["error"]) for r in failed).most_common():
                print(f"  {number:5}  {error}")
            for result in failed:
                print(f"  {result['path']}: {result['error']}")
    if args.json:
        args.json.write_text(json.dumps({"python": version, "root": str(ROOT), "results": results},
                                        indent=1))
    return 0 if compiled == counts[OK] else 1


if __name__ == "__main__":
    sys.exit(main())
