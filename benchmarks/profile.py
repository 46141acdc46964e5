"""Where a desugared program spends its time: a profile, grouped.

    python benchmarks/profile.py                      # a few programs, python semantics
    python benchmarks/profile.py nbody --semantics native --top 15

Each pyperformance program (see ``benchmarks/runtime.py``) is desugared and
run once under ``cProfile``; its own time (``tottime``) is summed by what ran:
the program's own code, the runtime's helpers (the definitions above the
user's code in the output), the C functions it calls (``getattr``, the
``_operator`` functions, ``next`` ...) and other modules. The profiler slows
small calls most, so the shares tell where to look, not the speed.
"""

from __future__ import annotations

import argparse
import os
import pstats
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from runtime import PROGRAMS, STUB, prepare, programs_dir  # noqa: E402

from unsugar.options import SEMANTICS  # noqa: E402

DEFAULT = ("nbody", "raytrace", "coroutines", "generators", "hexiom", "unpack_sequence")


def profile(script: Path, args: list[str], loops: int) -> pstats.Stats:
    out = script.with_suffix(".prof")
    env = dict(os.environ, PYTHONPATH=str(STUB), UNSUGAR_BENCH_LOOPS=str(loops))
    subprocess.run([sys.executable, "-m", "cProfile", "-o", str(out), str(script), *args],
                   env=env, cwd=script.parent, check=True, capture_output=True)
    return pstats.Stats(str(out))


def user_code_start(script: Path) -> int:
    """The line of the output where the user's code begins (``def _us_body``)."""
    for number, line in enumerate(script.read_text(encoding="utf-8").splitlines(), 1):
        if line.lstrip().startswith("def _us_body("):
            return number
    return 0


def grouped(stats: pstats.Stats, script: Path) -> tuple[Counter[str], Counter[str]]:
    """Seconds by group, and by runtime helper."""
    start = user_code_start(script)
    groups: Counter[str] = Counter()
    helpers: Counter[str] = Counter()
    for (filename, line, name), (_, _, tottime, _, _) in stats.stats.items():  # type: ignore[attr-defined]
        if filename == str(script):
            if line < start:
                groups["runtime helpers"] += tottime
                helpers[name] += tottime
            else:
                groups["the program's own code"] += tottime
        elif filename == "~":
            kind = "getattr/setattr" if name.endswith(("getattr>", "setattr>")) else \
                "_operator functions" if "_operator." in name else "other C calls"
            groups[kind] += tottime
        else:
            groups["other modules"] += tottime
    return groups, helpers


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.partition("\n")[0])
    parser.add_argument("programs", nargs="*", metavar="PROGRAM", help=f"default: {', '.join(DEFAULT)}")
    parser.add_argument("--semantics", choices=SEMANTICS, default="python")
    parser.add_argument("--top", type=int, default=8, help="runtime helpers listed (default 8)")
    args = parser.parse_args(argv)
    chosen = args.programs or list(DEFAULT)
    unknown = [name for name in chosen if name not in PROGRAMS]
    if unknown:
        parser.error(f"unknown program(s): {', '.join(unknown)}")
    source = programs_dir()
    with tempfile.TemporaryDirectory() as scratch:
        for name in chosen:
            program_args, loops = PROGRAMS[name]
            script = prepare(name, source, Path(scratch), args.semantics)
            groups, helpers = grouped(profile(script, program_args, loops), script)
            total = sum(groups.values()) or 1.0
            print(f"{name} ({args.semantics} semantics): {total:.2f} s profiled")
            for group, seconds in groups.most_common():
                print(f"  {seconds / total:6.1%}  {group}")
            for helper, seconds in helpers.most_common(args.top):
                print(f"          {seconds / total:6.1%}  {helper}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
