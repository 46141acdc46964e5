"""How fast desugared code runs: pyperformance's programs, original against desugared.

    pip install -e '.[bench]'              # pyperformance, for its programs
    python benchmarks/runtime.py           # every program below
    python benchmarks/runtime.py nbody go  # chosen ones
    python benchmarks/runtime.py --timeout 600 --scale 3

Each program (``run_benchmark.py`` of pyperformance's benchmark, with its data)
is copied twice into a scratch directory, one copy desugared; both run in
this interpreter, one after the other, with ``benchmarks/pyperf_stub``
standing in for ``pyperf``: the benchmark's function runs a number of loops
(the program's, times ``--scale``) in the process and reports its time, so
neither the desugaring nor the imports are timed. Prints each program's
seconds per loop, the slowdown and the geometric mean of the slowdowns; a
desugared run that exceeds ``--timeout`` counts at least ``timeout /
original``. Not a test: the numbers depend on the machine.
"""

from __future__ import annotations

import argparse
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from unsugar import desugar

STUB = Path(__file__).resolve().parent / "pyperf_stub"

#: The programs: their arguments and loops per run, so that a run of the
#: original takes a tenth of a second or so.
PROGRAMS: dict[str, tuple[list[str], int]] = {
    "chaos": ([], 1),
    "comprehensions": ([], 500),
    "coroutines": ([], 1),
    "deepcopy": ([], 100),
    "deltablue": ([], 10),
    "fannkuch": ([], 1),
    "float": ([], 1),
    "generators": ([], 1),
    "go": ([], 1),
    "hexiom": ([], 5),
    "meteor_contest": ([], 1),
    "nbody": (["--iterations", "2000"], 5),
    "nqueens": ([], 1),
    "pidigits": (["--digits", "1000"], 1),
    "pyflate": ([], 1),
    "raytrace": (["--width", "40", "--height", "40"], 1),
    "richards": ([], 1),
    "richards_super": ([], 1),
    "scimark": ([], 1),
    "spectral_norm": ([], 1),
    "unpack_sequence": ([], 2000),
}


def programs_dir() -> Path:
    try:
        import pyperformance
    except ImportError:
        sys.exit("benchmarks/runtime.py needs pyperformance: pip install -e '.[bench]'")
    return Path(pyperformance.__file__).parent / "data-files" / "benchmarks"


def prepare(name: str, source: Path, scratch: Path) -> tuple[Path, Path]:
    """The original and the desugared copy of program ``name``."""
    original, desugared = scratch / name / "original", scratch / name / "desugared"
    ignore = shutil.ignore_patterns("__pycache__")
    shutil.copytree(source / f"bm_{name}", original, ignore=ignore)
    shutil.copytree(source / f"bm_{name}", desugared, ignore=ignore)
    for path in desugared.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        path.write_text(desugar(text, filename=str(path)), encoding="utf-8")
    return original / "run_benchmark.py", desugared / "run_benchmark.py"


def run(script: Path, args: list[str], loops: int, timeout: float) -> float | None:
    """Seconds per loop of the program's benchmark (summed over its parts), or
    None after ``timeout`` seconds."""
    env = dict(os.environ, PYTHONPATH=str(STUB), UNSUGAR_BENCH_LOOPS=str(loops))
    try:
        done = subprocess.run([sys.executable, str(script), *args], env=env, cwd=script.parent,
                              capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None
    if done.returncode != 0:
        raise RuntimeError(f"{script} failed:\n{done.stderr[-2000:]}")
    times = [float(line.split()[-1]) for line in done.stdout.splitlines() if line.startswith("BENCH ")]
    if not times:
        raise RuntimeError(f"{script} reported no time:\n{done.stdout[-2000:]}")
    return sum(times)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.partition("\n")[0])
    parser.add_argument("programs", nargs="*", metavar="PROGRAM",
                        help=f"among: {', '.join(PROGRAMS)} (default: all)")
    parser.add_argument("--scale", type=int, default=1,
                        help="multiply each program's loops per run (default 1)")
    parser.add_argument("--timeout", type=float, default=300,
                        help="seconds a desugared run may take (default 300)")
    args = parser.parse_args(argv)
    chosen = args.programs or list(PROGRAMS)
    unknown = [name for name in chosen if name not in PROGRAMS]
    if unknown:
        parser.error(f"unknown program(s): {', '.join(unknown)}")
    source = programs_dir()
    print(f"Python {sys.version.split()[0]}, seconds per loop")
    print(f"{'program':<18}{'original s':>12}{'desugared s':>14}{'slowdown':>11}")
    slowdowns = []
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as scratch:
        for name in chosen:
            original, desugared = prepare(name, source, Path(scratch))
            program_args, loops = PROGRAMS[name]
            loops *= args.scale
            before = run(original, program_args, loops, args.timeout)
            assert before is not None, f"{name}: the original took over {args.timeout} s"
            after = run(desugared, program_args, loops, args.timeout)
            if after is None:
                slowdown = args.timeout / loops / before
                shown = f">{args.timeout / loops:.4f}", f">{slowdown:.1f}x"
            else:
                slowdown = after / before
                shown = f"{after:.4f}", f"{slowdown:.1f}x"
            slowdowns.append(slowdown)
            print(f"{name:<18}{before:>12.4f}{shown[0]:>14}{shown[1]:>11}", flush=True)
    mean = math.exp(sum(map(math.log, slowdowns)) / len(slowdowns))
    print(f"{'geometric mean':<44}{mean:>11.1f}x")
    print(f"({len(slowdowns)} programs in {time.perf_counter() - start:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
