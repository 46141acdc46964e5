"""Instructions unsugar executes against the floor, counted rather than timed.

    python benchmarks/instructions.py              # every 8th module of the 120-module slice
    python benchmarks/instructions.py --step 1     # the whole slice (about 10 minutes)
    python benchmarks/instructions.py --only json

Times on a shared machine move by a fifth from run to run, so a change that
saves 1% cannot be seen in them. Counted instructions repeat exactly from
the second run of the same code on (the first may write caches): the
counted process runs with a fixed hash seed (with a random one, the order
of sets, and so the work done over them, moved the counts by up to 0.5%).
This script runs itself under valgrind's callgrind, which counts every
instruction the interpreter executes: the modules are desugared once
to warm the caches, then again phase by phase, each module's floor
(``ast.parse`` + ``ast.unparse`` of the input, as in ``throughput.py``)
beside them. Between two regions it calls ``operator.call`` (which unsugar
never calls), where callgrind dumps its counts (``--dump-before``): each
dump is one region.

Counts are not time: the floor's parsing is C code, which runs more
instructions per cycle than the interpreter runs Python, and cache misses
weigh more in unsugar's larger trees, so its time ratio is higher than its
instruction ratio. Use this to compare two versions of the code,
``throughput.py`` for the time a user sees.
"""

from __future__ import annotations

import argparse
import ast
import json
import operator
import os
import shutil
import subprocess
import sys
import tempfile
import warnings
from pathlib import Path

from throughput import PHASES, STDLIB, modules

from unsugar.cli import decode
from unsugar.pipeline import Compilation, check_compiles, collector_paused, rewriting_text, written

REGIONS = ("floor", *PHASES)


def child(paths: list[Path], labels_file: Path) -> None:
    """Desugar ``paths`` once to warm up, then again with a mark between regions;
    write the regions' labels in the order of callgrind's dumps."""
    warnings.simplefilter("ignore")
    sources = [decode(path.read_bytes(), str(path)) for path in paths]
    labels = ["start"]

    def mark(label: str) -> None:
        operator.call(int)  # callgrind dumps here (the counts since the last mark)
        labels.append(label)

    for passes in ("warm", "measured"):
        for text in sources:
            mark(passes)
            with collector_paused():
                ast.unparse(ast.parse(text))
            mark("floor")
            with rewriting_text():
                tree = ast.parse(text)
                scopes = check_compiles(tree, "<module>").scopes
                mark("parse")
                compilation = Compilation(tree, source=text, scopes=scopes)
                del scopes  # (the lowering lets them go)
                compilation.lower()
                mark("lowering")
                compilation.control()
                mark("control")
                compilation.link()
                mark("linking")
                written(compilation, text)
                del tree, compilation
                mark("writing")
    labels_file.write_text(json.dumps(labels))


def counts(out: Path, labels: list[str]) -> dict[str, int]:
    """The instructions of each region of the measured pass, from callgrind's dumps
    (``out.N`` holds the counts up to the ``N``-th mark, since the one before)."""
    totals = dict.fromkeys(REGIONS, 0)
    measured = False
    for number, label in enumerate(labels[1:], start=1):
        if label in ("warm", "measured"):
            measured = label == "measured"
            continue
        if measured:
            dump = Path(f"{out}.{number}").read_text()
            totals[label] += int(dump.split("\ntotals: ")[1].split()[0])
    return totals


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.partition("\n")[0])
    parser.add_argument("--step", type=int, default=8, help="every STEP-th module of the slice (default 8)")
    parser.add_argument("--only", action="append", default=[], metavar="TEXT",
                        help="only modules whose path contains TEXT (repeatable; the slice's order)")
    parser.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    paths = modules(STDLIB, args.only, no_tests=True)[:120][:: args.step]
    if args.child is not None:
        child(paths, args.child)
        return
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is not installed (callgrind counts the instructions)")
    with tempfile.TemporaryDirectory() as work:
        out, labels = Path(work, "callgrind.out"), Path(work, "labels.json")
        subprocess.run(
            ["valgrind", "--tool=callgrind", "--dump-before=_operator_call", "--dump-instr=no",
             f"--callgrind-out-file={out}", sys.executable, __file__, "--child", str(labels),
             "--step", str(args.step), *(f"--only={text}" for text in args.only)],
            check=True, stderr=subprocess.DEVNULL,
            env={**os.environ, "PYTHONHASHSEED": "0"},  # the same sets' order in every run
        )
        totals = counts(out, json.loads(labels.read_text()))
    lines = sum(path.read_text(encoding="utf-8", errors="replace").count("\n") for path in paths)
    unsugar = sum(totals[phase] for phase in PHASES)
    which = "the slice" if not args.only else "modules named " + " or ".join(args.only)
    if args.step > 1:
        which = f"one in {args.step} of {which}"
    print(f"modules:  {len(paths)} ({which}), {lines:,} lines")
    print(f"floor:    {totals['floor']:15,} instructions (ast.parse + ast.unparse of the input)")
    print(f"unsugar:  {unsugar:15,} instructions, {unsugar / totals['floor']:.2f}x the floor")
    for phase in PHASES:
        print(f"  {phase:9} {totals[phase]:15,}  {totals[phase] / unsugar:6.1%}")


if __name__ == "__main__":
    main()
