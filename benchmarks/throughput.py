"""How fast unsugar desugars, against the floor of parsing and unparsing the input.

    python benchmarks/throughput.py                       # the whole library of this interpreter
    python benchmarks/throughput.py --slice               # 120 modules, no tests (what CI can afford)
    python benchmarks/throughput.py --only json --sections phases,files

The floor is ``ast.parse`` + ``ast.unparse`` of each *input*, in the same
run: the least any source-to-source tool built on ``ast`` pays. Both are timed
with the garbage collector paused, as unsugar runs. Sections:

- ``phases``: unsugar's time per phase (parse, lowering, control, linking,
  writing), lines/s, the ratio to the floor, the peak memory of the process;
- ``files``: the largest and the most literal-heavy modules, and a 2 MB string
  literal, each desugared in a fresh process (time and peak memory);
- ``linearity``: 1, 10 and 100 copies of one module in one file;
- ``jobs``: the command line on the modules copied to a directory, ``--jobs 1``
  against ``--jobs 2`` (same bytes, checked);
- ``startup``: ``unsugar run`` of a program of about 10,000 lines whose modules are
  cached, against plain ``python``.

Not a test: the numbers depend on the machine.
"""

from __future__ import annotations

import argparse
import ast
import collections
import filecmp
import resource
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time
import warnings
from pathlib import Path

from unsugar import desugar
from unsugar.cli import Failure, decode
from unsugar.pipeline import Compilation, check_compiles, collector_paused, rewriting_text, written

STDLIB = Path(sysconfig.get_paths()["stdlib"])
TEST_DIRS = {"test", "tests", "idle_test"}
PHASES = ("parse", "lowering", "control", "linking", "writing")
SECTIONS = ("phases", "files", "linearity", "jobs", "startup")
#: the modules the startup program copies (about 10,000 lines with their imports of each other)
STARTUP_MODULES = ("textwrap", "fractions", "argparse", "gettext", "string", "shlex", "difflib",
                   "pprint", "dataclasses", "csv", "heapq", "bisect", "calendar", "configparser")


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


def peak_mb() -> float:
    """The peak resident memory of this process so far, in MB."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


# ------------------------------------------------------------------ phases
def phases(sources: dict[str, str]) -> dict[str, float]:
    """Time each phase over ``sources`` (name -> text), and the floor; print them."""
    took = dict.fromkeys(PHASES, 0.0)
    floor = lines = 0.0
    failed: list[tuple[str, str]] = []
    for name, text in sources.items():
        with collector_paused():  # as unsugar pauses it: the floor may do the same
            t0 = time.perf_counter()
            ast.unparse(ast.parse(text, name))
            floor += time.perf_counter() - t0
        try:
            with rewriting_text():  # as ``desugar`` runs
                t0 = time.perf_counter()
                tree = ast.parse(text, name)
                scopes = check_compiles(tree, name).scopes  # CPython's compile-time errors: part of parsing
                t1 = time.perf_counter()
                compilation = Compilation(tree, source=text, scopes=scopes)  # the names the input spells: part of lowering
                del scopes  # (the lowering lets them go)
                compilation.lower()
                t2 = time.perf_counter()
                compilation.control()
                t3 = time.perf_counter()
                compilation.link()
                t4 = time.perf_counter()
                written(compilation, text)  # as ``desugar`` writes: the tree freed as written
                del tree, compilation  # freeing the trees is part of the job, as in the floor
                t5 = time.perf_counter()
        except Exception as exc:  # noqa: BLE001  (counted, reported)
            failed.append((name, f"{type(exc).__name__}: {str(exc)[:100]}"))
            continue
        lines += text.count("\n")
        for phase, spent in zip(PHASES, (t1 - t0, t2 - t1, t3 - t2, t4 - t3, t5 - t4), strict=True):
            took[phase] += spent
    total = sum(took.values())
    print(f"lines:    {int(lines)} in {len(sources) - len(failed)} modules")
    if total:
        split = ", ".join(f"{phase} {took[phase]:.2f} s" for phase in PHASES)
        print(f"unsugar:  {total:8.2f} s  {lines / total:10,.0f} lines/s  ({split})")
        print(f"floor:    {floor:8.2f} s  {lines / floor:10,.0f} lines/s  (ast.parse + ast.unparse of the input)")
        print(f"ratio:    {total / floor:8.2f} x the floor")
    print(f"memory:   {peak_mb():8.0f} MB peak (the whole process)")
    reasons = collections.Counter(reason.partition(":")[0] for _, reason in failed)
    if reasons:
        print("failures: " + ", ".join(f"{kind} {count}" for kind, count in reasons.most_common()))
        for name, reason in failed:
            print(f"  {name}: {reason}")
    return {"total": total, "floor": floor, "lines": lines}


# ------------------------------------------------------------------- files
_ONE_FILE = """
import resource, sys, time
from unsugar import desugar
from unsugar.cli import decode
desugar("x = 1\\n")
text = decode(open(sys.argv[1], "rb").read(), sys.argv[1])
start = time.perf_counter()
desugar(text, filename=sys.argv[1])
took = time.perf_counter() - start
try:  # the peak of this process's own memory (ru_maxrss may count the parent's, before exec)
    status = open("/proc/self/status").read()
    peak = int(status.split("VmHWM:")[1].split()[0]) / 1024
except (OSError, IndexError):
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(took, peak)
"""


def one_file(path: Path, label: str) -> None:
    """Desugar ``path`` in a fresh process: its time and the process's peak memory."""
    done = subprocess.run([sys.executable, "-c", _ONE_FILE, str(path)], capture_output=True,
                          text=True, timeout=600)
    if done.returncode:
        print(f"  {label}: failed: {done.stderr.strip().splitlines()[-1]}")
        return
    took, peak = map(float, done.stdout.split())
    size = path.stat().st_size
    print(f"  {label:<44} {size / 1e6:6.2f} MB  {took:7.2f} s  {peak:6.0f} MB peak")


def literal_bytes(text: str) -> int:
    """The characters of ``text`` in str and bytes constants."""
    return sum(len(node.value) for node in ast.walk(ast.parse(text))
               if isinstance(node, ast.Constant) and isinstance(node.value, str | bytes))


def files(sources: dict[str, str], root: Path, scratch: Path) -> None:
    print("files (each in a fresh process; the peak includes the interpreter):")
    largest = root / max(sources, key=lambda name: len(sources[name]))
    heavy = root / max(sources, key=lambda name: literal_bytes(sources[name]))
    one_file(largest, f"largest: {largest.relative_to(root)}")
    one_file(heavy, f"most literal text: {heavy.relative_to(root)}")
    big = scratch / "literal_2mb.py"
    big.write_text(f"text = {'a 2 MB string literal, é ☃ ' * 80_000!r}\nprint(len(text))\n",
                   encoding="utf-8")
    one_file(big, "a 2 MB string literal")


# --------------------------------------------------------------- linearity
def linearity(path: Path) -> None:
    """1, 10 and 100 copies of ``path`` in one module, then one function of 30,
    300 and 3,000 copies of a block: time per line should stay flat."""
    text = path.read_text(encoding="utf-8")
    print(f"linearity ({path.name}, copies in one module):")
    for copies in (1, 10, 100):
        source = text * copies
        start = time.perf_counter()
        desugar(source)
        took = time.perf_counter() - start
        lines = source.count("\n")
        print(f"  {copies:>4} x  {lines:8} lines  {took:8.2f} s  {lines / took:10,.0f} lines/s")
    print("linearity (one function, its statements repeated):")
    for copies in (30, 300, 3000):
        source = "def f(a, b):\n" + _FUNCTION_BLOCK * copies
        start = time.perf_counter()
        desugar(source)
        took = time.perf_counter() - start
        lines = source.count("\n")
        print(f"  {copies:>4} x  {lines:8} lines  {took:8.2f} s  {lines / took:10,.0f} lines/s")


#: statements of every kind whose flow the function's level keeps (a block
#: revisited for each of them must not make a long function quadratic)
_FUNCTION_BLOCK = """\
    if a:
        b = a
    for i in b:
        if i:
            break
    try:
        a = b.c
    except KeyError:
        pass
    with a:
        b = [i for i in a]
"""


# -------------------------------------------------------------------- jobs
def jobs(paths: list[Path], root: Path, scratch: Path) -> None:
    """The command line over the modules copied to one directory, one job against two."""
    source = scratch / "src"
    for path in paths:
        target = source / path.relative_to(root)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, target)
    print(f"jobs (unsugar DIR -o OUT, {len(paths)} modules, whole process):")
    took = {}
    for count in (1, 2):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "unsugar", str(source), "-o", str(scratch / f"out{count}"),
                        "--jobs", str(count), "--quiet"], capture_output=True, timeout=3600)
        took[count] = time.perf_counter() - start
        print(f"  --jobs {count}: {took[count]:8.2f} s")
    same = not _differences(filecmp.dircmp(scratch / "out1", scratch / "out2"))
    print(f"  speedup: {took[1] / took[2]:.2f}x; outputs {'identical' if same else 'DIFFER'}")


def _differences(cmp: filecmp.dircmp) -> list[str]:
    _, mismatch, errors = filecmp.cmpfiles(cmp.left, cmp.right, cmp.common_files, shallow=False)
    found = [*cmp.left_only, *cmp.right_only, *mismatch, *errors]
    for sub in cmp.subdirs.values():
        found += _differences(sub)
    return found


# ----------------------------------------------------------------- startup
def startup(root: Path, scratch: Path) -> None:
    """``unsugar run`` of a cached program of about 10,000 lines against ``python``."""
    app = scratch / "app"
    package = app / "app"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    lines = 0
    for name in STARTUP_MODULES:
        text = (root / f"{name}.py").read_text(encoding="utf-8")
        (package / f"my_{name}.py").write_text(text, encoding="utf-8")
        lines += text.count("\n")
    (app / "main.py").write_text("".join(f"import app.my_{name}\n" for name in STARTUP_MODULES))
    commands = {"python": [sys.executable, "main.py"],
                "unsugar run": [sys.executable, "-m", "unsugar", "run", "main.py"]}
    for command in commands.values():  # fill both caches (__pycache__ and unsugar's)
        subprocess.run(command, cwd=app, check=True, capture_output=True, timeout=600)
    best = {}
    for label, command in commands.items():
        runs = []
        for _ in range(5):
            start = time.perf_counter()
            subprocess.run(command, cwd=app, check=True, capture_output=True, timeout=600)
            runs.append(time.perf_counter() - start)
        best[label] = min(runs)
    print(f"startup (a program of {lines} lines in {len(STARTUP_MODULES)} modules, cached; best of 5):")
    for label, took in best.items():
        print(f"  {label:<12} {took:6.3f} s")
    print(f"  ratio: {best['unsugar run'] / best['python']:.2f}x")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.partition("\n")[0])
    parser.add_argument("--root", type=Path, default=STDLIB,
                        help="the library to desugar (default: this interpreter's)")
    parser.add_argument("--only", action="append", default=[], metavar="TEXT",
                        help="only modules whose path contains TEXT (repeatable)")
    parser.add_argument("--no-tests", action="store_true", help="skip test packages")
    parser.add_argument("--limit", type=int, metavar="N", help="at most N modules")
    parser.add_argument("--slice", action="store_true",
                        help="the first 120 modules, no tests (--no-tests --limit 120)")
    parser.add_argument("--sections", default=",".join(SECTIONS),
                        help=f"what to measure, comma-separated (default: {','.join(SECTIONS)})")
    args = parser.parse_args(argv)
    if args.slice:
        args.no_tests, args.limit = True, 120
    sections = set(args.sections.split(","))
    if sections - set(SECTIONS):
        parser.error(f"unknown sections: {', '.join(sorted(sections - set(SECTIONS)))}")

    paths = modules(args.root, args.only, args.no_tests)[: args.limit]
    sources: dict[str, str] = {}
    unparsable: list[str] = []
    warnings.simplefilter("ignore")
    for path in paths:
        name = str(path.relative_to(args.root))
        try:
            text = decode(path.read_bytes(), name)
            ast.parse(text, name)
        except (Failure, SyntaxError, ValueError):
            unparsable.append(name)
            continue
        sources[name] = text
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    desugar("x = 1\n")  # compile the runtime once, outside the measurement
    print(f"library:  {args.root}")
    print(f"modules:  {len(paths)} found, {len(unparsable)} failed to parse")
    for name in unparsable:
        print(f"  {name}: does not parse")
    parsed = [args.root / name for name in sources]
    with tempfile.TemporaryDirectory() as scratch:
        if "phases" in sections:
            phases(sources)
        if "files" in sections and sources:
            files(sources, args.root, Path(scratch))
        if "linearity" in sections:
            linearity(STDLIB / "textwrap.py")
        if "jobs" in sections and parsed:
            jobs(parsed, args.root, Path(scratch))
        if "startup" in sections:
            startup(STDLIB, Path(scratch))
    return 0


if __name__ == "__main__":
    sys.exit(main())
