"""How fast desugared code runs: pyperformance's programs, original against desugared.

    pip install -e '.[bench]'              # pyperformance, for its programs
    python benchmarks/runtime.py           # every program below
    python benchmarks/runtime.py nbody go  # chosen ones
    python benchmarks/runtime.py --timeout 600 --scale 3
    python benchmarks/runtime.py --semantics native

Each program (``run_benchmark.py`` of pyperformance's benchmark, with its data)
is copied into a scratch directory as shipped and desugared once per
semantics mode (``python`` and ``native``, or the one ``--semantics``
names); all run in this interpreter, one after the other, with ``benchmarks/pyperf_stub``
standing in for ``pyperf``: the benchmark's function runs a number of loops
(the program's, times ``--scale``) in the process and reports its time, so
neither the desugaring nor the imports are timed. Prints each program's
seconds per loop, the slowdowns and the geometric mean of each mode's; a
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
from unsugar.options import SEMANTICS

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


def prepare(name: str, source: Path, scratch: Path, semantics: str | None) -> Path:
    """The copy of program ``name`` as shipped (``semantics`` None), or desugared."""
    copy = scratch / name / (semantics or "original")
    shutil.copytree(source / f"bm_{name}", copy, ignore=shutil.ignore_patterns("__pycache__"))
    if semantics is not None:
        for path in copy.rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            path.write_text(desugar(text, filename=str(path), semantics=semantics), encoding="utf-8")
    return copy / "run_benchmark.py"


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
    parser.add_argument("--semantics", choices=SEMANTICS, action="append",
                        help="the mode(s) to desugar with (default: each)")
    args = parser.parse_args(argv)
    chosen = args.programs or list(PROGRAMS)
    unknown = [name for name in chosen if name not in PROGRAMS]
    if unknown:
        parser.error(f"unknown program(s): {', '.join(unknown)}")
    modes = args.semantics or list(SEMANTICS)
    source = programs_dir()
    print(f"Python {sys.version.split()[0]}, seconds per loop; slowdown per semantics mode")
    print(f"{'program':<18}{'original s':>12}" + "".join(f"{mode + ' s':>12}{'slowdown':>10}"
                                                       for mode in modes))
    slowdowns: dict[str, list[float]] = {mode: [] for mode in modes}
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as scratch:
        for name in chosen:
            program_args, loops = PROGRAMS[name]
            loops *= args.scale
            original = prepare(name, source, Path(scratch), None)
            before = run(original, program_args, loops, args.timeout)
            assert before is not None, f"{name}: the original took over {args.timeout} s"
            line = f"{name:<18}{before:>12.4f}"
            for mode in modes:
                after = run(prepare(name, source, Path(scratch), mode), program_args, loops,
                            args.timeout)
                if after is None:
                    slowdown = args.timeout / loops / before
                    line += f"{'>' + format(args.timeout / loops, '.4f'):>12}{f'>{slowdown:.1f}x':>10}"
                else:
                    slowdown = after / before
                    line += f"{after:>12.4f}{f'{slowdown:.1f}x':>10}"
                slowdowns[mode].append(slowdown)
            print(line, flush=True)
    means = [math.exp(sum(map(math.log, found)) / len(found)) for found in slowdowns.values()]
    print(f"{'geometric mean':<30}" + "".join(f"{f'{mean:.1f}x':>22}" for mean in means))
    print(f"({len(chosen)} programs in {time.perf_counter() - start:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
