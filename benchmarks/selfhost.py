"""Self-hosting fixpoint: unsugar desugared by itself writes, byte for byte, what unsugar writes.

    python benchmarks/selfhost.py                  # the 120 modules of throughput.py --slice
    python benchmarks/selfhost.py --all            # every .py of the library, tests included
    python benchmarks/selfhost.py --only email --jobs 1

The package is desugared by itself into a temporary directory, except
``runtime/``, copied as it is: those modules are the tool's input (it
compiles them into every output). Every other file of the result must be
core (:func:`unsugar.checker.check_source`). The chosen library modules are
copied to a directory, and both tools run on it as ``python -m unsugar IN -o
OUT --jobs N``, the desugared one with ``PYTHONPATH`` pointing at it. Every
output is compared byte for byte; the files the original rejects must be
rejected by the desugared tool with the same message (standard error, line
for line), and the exit codes must agree.

Prints files, identical, different (listed, with their first differing
lines), the files rejected and whether the errors are the same, the time of
each tool (whole process) and the ratio. Exit 1 on any difference.
"""

from __future__ import annotations

import argparse
import difflib
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from throughput import STDLIB, modules  # noqa: E402

import unsugar  # noqa: E402
from unsugar import batch, desugar  # noqa: E402
from unsugar.checker import check_source  # noqa: E402

#: the package this process imports: the one desugared, and the original tool
PACKAGE = Path(unsugar.__file__).resolve().parent
#: the subpackage copied as it is (the tool's input, not part of the tool)
RUNTIME = "runtime"
#: the modules of ``--slice`` (as ``throughput.py --slice``)
SLICE = 120


# ------------------------------------------------------------ the package
def desugar_package(root: Path, package: Path = PACKAGE) -> Path:
    """Write ``package`` desugared by itself under ``root`` (which then goes on
    ``PYTHONPATH``): its ``.py`` files desugared, ``runtime/`` and any other file
    copied. Returns ``root``."""
    for source in sorted(package.rglob("*")):
        relative = source.relative_to(package)
        if source.is_dir() or "__pycache__" in relative.parts:
            continue
        target = root / package.name / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        if source.suffix == ".py" and relative.parts[0] != RUNTIME:
            text = desugar(source.read_text(encoding="utf-8"), filename=str(source))
            target.write_text(text, encoding="utf-8")
        else:
            shutil.copyfile(source, target)
    return root


def sugar_left(root: Path, name: str = PACKAGE.name) -> dict[str, list[str]]:
    """The desugared package's files (``runtime/`` apart) in which sugar is left:
    path -> the findings, as ``unsugar check`` prints them."""
    found = {}
    package = root / name
    for path in sorted(package.rglob("*.py")):
        relative = path.relative_to(package)
        if relative.parts[0] == RUNTIME:
            continue
        findings = check_source(path.read_text(encoding="utf-8"), str(path))
        if findings:
            found[str(relative)] = [finding.format(str(relative)) for finding in findings]
    return found


# ----------------------------------------------------------------- running
@dataclass
class Run:
    """One run of the command line on a directory."""

    status: int
    stdout: str
    stderr: str
    seconds: float


def run_tool(pythonpath: Path, source: str, output: str, jobs: int, cwd: Path) -> Run:
    """``python -m unsugar SOURCE -o OUTPUT --jobs JOBS`` with ``unsugar`` from ``pythonpath``."""
    env = {**os.environ, "PYTHONPATH": str(pythonpath)}
    command = [sys.executable, "-m", "unsugar", source, "-o", output, "--jobs", str(jobs), "--quiet"]
    start = time.perf_counter()
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True)
    return Run(done.returncode, done.stdout, done.stderr, time.perf_counter() - start)


def imported_from(pythonpath: Path) -> Path:
    """Where ``import unsugar`` finds the package with ``PYTHONPATH=pythonpath``."""
    done = subprocess.run(
        [sys.executable, "-c", "import unsugar; print(unsugar.__file__)"], capture_output=True,
        text=True, env={**os.environ, "PYTHONPATH": str(pythonpath)}, check=True,
    )
    return Path(done.stdout.strip()).resolve().parent


def files_under(root: Path) -> set[Path]:
    return {path.relative_to(root) for path in root.rglob("*") if path.is_file()} if root.exists() else set()


def first_differences(expected: bytes, got: bytes, lines: int = 12) -> list[str]:
    """The start of a unified diff from ``expected`` to ``got``."""
    diff = difflib.unified_diff(
        expected.decode("utf-8", "replace").splitlines(), got.decode("utf-8", "replace").splitlines(),
        "original", "desugared", n=0, lineterm="",
    )
    return [line[:200] for line in diff][:lines]


# -------------------------------------------------------------------- main
def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.partition("\n")[0])
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--slice", action="store_true",
                       help=f"the first {SLICE} modules of the library, no tests (the default)")
    which.add_argument("--all", action="store_true",
                       help="every .py file of the library, the test packages included")
    parser.add_argument("--root", type=Path, default=STDLIB,
                        help="the library (default: this interpreter's)")
    parser.add_argument("--only", action="append", default=[], metavar="TEXT",
                        help="only modules whose path contains TEXT (repeatable)")
    parser.add_argument("--limit", type=int, metavar="N",
                        help=f"at most N modules (default: {SLICE}; with --all, no limit)")
    parser.add_argument("-j", "--jobs", type=int, default=batch.default_workers(), metavar="N",
                        help="--jobs of both tools (default: the number of cores)")
    parser.add_argument("--workdir", type=Path, metavar="DIR",
                        help="work in DIR and keep it (the desugared package, inputs, outputs)")
    args = parser.parse_args(argv)
    if args.jobs < 1:
        parser.error("--jobs must be at least 1")

    limit = args.limit if args.limit is not None else None if args.all else SLICE
    paths = modules(args.root, args.only, no_tests=not args.all)[:limit]
    if args.workdir is not None:
        args.workdir.mkdir(parents=True, exist_ok=True)
        return compare(args, paths, args.workdir.resolve())
    with tempfile.TemporaryDirectory(prefix="selfhost-") as scratch:
        return compare(args, paths, Path(scratch))


def compare(args: argparse.Namespace, paths: list[Path], scratch: Path) -> int:
    for name in ("unsugar-desugared", "in", "out-original", "out-desugared"):
        shutil.rmtree(scratch / name, ignore_errors=True)
    # the tool, desugared by itself
    start = time.perf_counter()
    desugared = desugar_package(scratch / "unsugar-desugared")
    took = time.perf_counter() - start
    package = [path.relative_to(desugared / PACKAGE.name)
               for path in (desugared / PACKAGE.name).rglob("*.py")]
    copied = sum(path.parts[0] == RUNTIME for path in package)
    print(f"package:    {PACKAGE}")
    print(f"            {len(package) - copied} modules desugared by itself in {took:.1f} s, "
          f"{copied} in {RUNTIME}/ copied")
    sugary = sugar_left(desugared)
    if sugary:
        print(f"NOT CORE:   {len(sugary)} files")
        for path, findings in sugary.items():
            print(f"  {path}: {len(findings)} findings, first: {findings[0]}")
        return 1
    print("            every file core (runtime/ apart)")
    where = imported_from(desugared)
    if where != (desugared / PACKAGE.name).resolve():
        print(f"ERROR:      PYTHONPATH={desugared} imports unsugar from {where}")
        return 1

    # the inputs, copied (the names in error messages are then short and the same for both)
    inputs = scratch / "in"
    lines = 0
    for path in paths:
        target = inputs / path.relative_to(args.root)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, target)
        lines += path.read_bytes().count(b"\n")
    kind = "all" if args.all else "no tests"
    if args.only:
        kind += ", only " + " or ".join(args.only)
    print(f"library:    {args.root} ({kind}: {len(paths)} files, {lines:,} lines)")
    if not paths:
        print("nothing to compare")
        return 1

    runs = {}
    for label, pythonpath in (("original", PACKAGE.parent), ("desugared", desugared)):
        runs[label] = run_tool(pythonpath, "in", f"out-{label}", args.jobs, scratch)
    original, selfhosted = runs["original"], runs["desugared"]

    # the outputs, byte for byte
    out_a, out_b = scratch / "out-original", scratch / "out-desugared"
    written_a, written_b = files_under(out_a), files_under(out_b)
    identical, different, rejected = 0, {}, []
    for relative in sorted(files_under(inputs) | written_a | written_b):
        a, b = relative in written_a, relative in written_b
        if not a and not b:
            rejected.append(relative)
        elif a != b:
            different[relative] = [f"written by the {'original' if a else 'desugared'} tool only"]
        elif (data_a := (out_a / relative).read_bytes()) == (data_b := (out_b / relative).read_bytes()):
            identical += 1
        else:
            different[relative] = first_differences(data_a, data_b)
    errors_a, errors_b = original.stderr.splitlines(), selfhosted.stderr.splitlines()
    same_errors = errors_a == errors_b and original.stdout == selfhosted.stdout
    same_status = original.status == selfhosted.status

    print(f"files:      {len(files_under(inputs))}")
    print(f"identical:  {identical}")
    print(f"different:  {len(different)}")
    for relative, diff in different.items():
        print(f"  {relative}")
        for line in diff:
            print(f"      {line}")
    print(f"rejected:   {len(rejected)} by both; standard error "
          f"{'identical' if same_errors else 'DIFFERS'} ({len(errors_a)} lines)")
    for line in errors_a[:20]:
        print(f"  {line[:200]}")
    if len(errors_a) > 20:
        print(f"  ... {len(errors_a) - 20} more")
    if not same_errors:
        for line in difflib.unified_diff(errors_a, errors_b, "original", "desugared", n=0,
                                         lineterm=""):
            print(f"  | {line[:200]}")
        if original.stdout != selfhosted.stdout:
            print("  standard output differs")
    print(f"exit code:  original {original.status}, desugared {selfhosted.status}"
          + ("" if same_status else "  DIFFER"))
    print(f"time (--jobs {args.jobs}, whole process):")
    for label, run in runs.items():
        print(f"  {label:<10} {run.seconds:8.1f} s  {lines / run.seconds:10,.0f} lines/s")
    print(f"  ratio      {selfhosted.seconds / original.seconds:8.2f} x")
    ok = not different and same_errors and same_status
    print("fixpoint:   " + ("yes, byte-identical" if ok else "NO"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
