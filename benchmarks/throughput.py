"""How fast unsugar desugars the standard library, beside the floor of parsing and unparsing.

    python benchmarks/throughput.py                   # every module of Lib/ (not site-packages)
    python benchmarks/throughput.py --only json --only email
    python benchmarks/throughput.py --no-tests --limit 200 --failures

For each module: ``ast.parse`` of the input, the rewrite (``desugar_tree``),
``ast.unparse`` of the output, each timed. The floor is parse + unparse, the
least any source-to-source tool built on ``ast`` pays; unsugar's time is all
three. Files that fail to parse or to desugar are skipped and counted.
Not a test: the numbers depend on the machine.
"""

from __future__ import annotations

import argparse
import ast
import collections
import sys
import sysconfig
import time
import warnings
from pathlib import Path

from unsugar import desugar, desugar_tree
from unsugar.cli import Failure, decode

TEST_DIRS = {"test", "tests", "idle_test"}


def modules(root: Path, only: list[str], no_tests: bool) -> list[Path]:
    found = []
    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(root).parts
        if parts[0] == "site-packages" or "__pycache__" in parts:
            continue
        if no_tests and TEST_DIRS.intersection(parts[:-1]):
            continue
        if only and not any(word in "/".join(parts) for word in only):
            continue
        found.append(path)
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.partition("\n")[0])
    parser.add_argument("--root", type=Path, default=Path(sysconfig.get_paths()["stdlib"]),
                        help="the library to desugar (default: this interpreter's)")
    parser.add_argument("--only", action="append", default=[], metavar="TEXT",
                        help="only modules whose path contains TEXT (repeatable)")
    parser.add_argument("--no-tests", action="store_true", help="skip test packages")
    parser.add_argument("--limit", type=int, metavar="N", help="at most N modules")
    parser.add_argument("--failures", action="store_true", help="list every failing module")
    args = parser.parse_args(argv)

    paths = modules(args.root, args.only, args.no_tests)[: args.limit]
    desugar("x = 1\n")  # compile the runtime once, outside the measurement
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    lines = parse_s = rewrite_s = unparse_s = 0.0
    done = 0
    unparsable: list[str] = []
    failed: list[tuple[str, str]] = []
    warnings.simplefilter("ignore")
    for path in paths:
        name = str(path.relative_to(args.root))
        try:
            text = decode(path.read_bytes(), name)
            t0 = time.perf_counter()
            tree = ast.parse(text, name)
            t1 = time.perf_counter()
        except (Failure, SyntaxError, ValueError):
            unparsable.append(name)
            continue
        try:
            out = desugar_tree(tree)
            t2 = time.perf_counter()
            ast.unparse(out)
            t3 = time.perf_counter()
        except Exception as exc:  # noqa: BLE001  (counted, reported)
            failed.append((name, f"{type(exc).__name__}: {str(exc)[:100]}"))
            continue
        done += 1
        lines += text.count("\n")
        parse_s += t1 - t0
        rewrite_s += t2 - t1
        unparse_s += t3 - t2

    total, floor = parse_s + rewrite_s + unparse_s, parse_s + unparse_s
    print(f"library:  {args.root}")
    print(f"modules:  {len(paths)} found, {done} desugared, {len(unparsable)} failed to parse, "
          f"{len(failed)} failed to desugar")
    if done:
        print(f"lines:    {int(lines)}")
        print(f"unsugar:  {total:8.2f} s  {lines / total:10,.0f} lines/s"
              f"  (parse {parse_s:.2f} s, rewrite {rewrite_s:.2f} s, unparse {unparse_s:.2f} s)")
        print(f"floor:    {floor:8.2f} s  {lines / floor:10,.0f} lines/s  (ast.parse + ast.unparse)")
        print(f"ratio:    {total / floor:8.2f} x the floor")
    reasons = collections.Counter(reason.partition(":")[0] for _, reason in failed)
    if reasons:
        print("failures: " + ", ".join(f"{kind} {count}" for kind, count in reasons.most_common()))
    if args.failures:
        for name in unparsable:
            print(f"  {name}: does not parse")
        for name, reason in failed:
            print(f"  {name}: {reason}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
