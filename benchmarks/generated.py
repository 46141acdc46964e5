"""Generated programs through every check: the long run of ``tests/test_generated.py``.

    python benchmarks/generated.py                       # 20,000 programs, every core
    python benchmarks/generated.py --count 500 --jobs 2 --seed 7 --save failures/

Programs come from ``hypothesmith``: from the grammar (``from_grammar()``) and
from libcst's syntax tree (``from_node()``, about a fifth as fast), in the
proportion ``--node-share``. The work is cut into chunks of ``--chunk``
programs; each chunk is one hypothesis run (generation phase only, no
database; it starts from small programs, so larger chunks draw fewer
duplicates) with its own seed derived from ``--seed``, in a worker process,
and every program it draws goes through ``generated_checks.check`` at once
(run and compared too for ``--run-share`` of them, chosen by hash: the runs
are two interpreter starts per program, most of the time). Programs drawn
twice are counted once.

Prints the count of programs that reach each stage (tried, compiled by
CPython or refused by both CPython's compiler and unsugar, desugared, outputs compiled, core, identical on re-desugaring, run
and compared, agreed) and every failure; ``--save DIR`` writes each failing
program to ``DIR/<stage>-<hash>.py`` with the failure as a comment.
"""

from __future__ import annotations

import argparse
import collections
import functools
import hashlib
import itertools
import multiprocessing
import os
import sys
import time
import warnings
from pathlib import Path

from hypothesis.strategies import SearchStrategy

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import generated_checks  # noqa: E402

ROWS = (
    ("tried", "programs tried"),
    ("compiled", "compiled by CPython"),
    ("refused", "refused by CPython, and by unsugar"),
    ("desugared", "desugared"),
    ("output_compiles", "outputs compiled"),
    ("core", "core"),
    ("idempotent", "identical on re-desugaring"),
    ("ran", "run and compared"),
    ("agreed", "agreed"),
)
# (then "not run: CPython runs no such file": generated_checks.NOT_A_FILE)


@functools.cache
def strategy(kind: str) -> SearchStrategy[str]:
    """The hypothesmith strategy ``kind`` (built once per process: the grammar's
    parser takes seconds)."""
    import hypothesmith

    return hypothesmith.from_grammar() if kind == "grammar" else hypothesmith.from_node()


def chosen(source: str, share: float) -> bool:
    """Whether ``source`` is in the ``share`` of programs that are run (by its hash,
    so the same program is chosen in every run)."""
    return int(hashlib.sha1(source.encode()).hexdigest()[:8], 16) < share * 16**8


def chunk(task: tuple[str, int, int, float, float]) -> tuple[int, list[dict]]:
    """Draw ``count`` programs from strategy ``kind`` with ``seed`` and check each;
    the number of draws and a row per distinct program."""
    kind, seed, count, run_share, timeout = task
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import seed as fix_seed

    results: list[dict] = []
    seen: set[str] = set()
    draws = 0

    @fix_seed(seed)
    @settings(max_examples=count, database=None, phases=[Phase.generate], deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(strategy(kind))
    def draw(source: str) -> None:
        nonlocal draws
        draws += 1
        if source in seen:
            return
        seen.add(source)
        try:
            run = chosen(source, run_share)
            verdict = generated_checks.check(source, run=run, timeout=timeout)
        except Exception as exc:  # noqa: BLE001  (a bug of the checks themselves)
            results.append({"source": source, "kind": kind, "stage": "check",
                            "failure": f"{type(exc).__name__}: {exc}"})
            return
        row = {stage: getattr(verdict, stage) for stage in generated_checks.STAGES}
        row.update(source=source, kind=kind, stage=verdict.stage, failure=verdict.failure,
                   not_a_file="not_run" in verdict.details)
        results.append(row)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        draw()
    return draws, results


def tasks(count: int, chunk_size: int, node_share: float, seed: int, run_share: float,
          timeout: float) -> list[tuple[str, int, int, float, float]]:
    """The chunks: ``count`` programs, ``node_share`` of them from ``from_node``."""
    node = round(count * node_share)
    todo = []
    for kind, total in (("node", node), ("grammar", count - node)):
        for number, start in enumerate(range(0, total, chunk_size)):
            todo.append((kind, seed * 100_003 + number * 2 + (kind == "node"),
                         min(chunk_size, total - start), run_share, timeout))
    # the slow from_node chunks first, then alternating, so a stopped run has both
    grammar = [t for t in todo if t[0] == "grammar"]
    node = [t for t in todo if t[0] == "node"]
    return [t for pair in itertools.zip_longest(node, grammar) for t in pair if t]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--count", type=int, default=20_000, help="programs to draw")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--chunk", type=int, default=500, help="programs per hypothesis run")
    parser.add_argument("--node-share", type=float, default=0.05,
                        help="share drawn with from_node (the rest from_grammar)")
    parser.add_argument("--timeout", type=float, default=5.0, help="seconds per run")
    parser.add_argument("--run-share", type=float, default=1.0,
                        help="share of the programs that are run and compared (chosen by hash)")
    parser.add_argument("--save", type=Path, help="write failing programs here")
    parser.add_argument("--minutes", type=float, default=0.0,
                        help="stop after this long (chunks still running are dropped)")
    args = parser.parse_args(argv)

    start = time.monotonic()
    todo = tasks(args.count, args.chunk, args.node_share, args.seed, args.run_share,
                 args.timeout)
    counts: collections.Counter[str] = collections.Counter()
    by_kind: collections.Counter[str] = collections.Counter()
    failures: list[dict] = []
    seen: set[str] = set()
    drawn = done = 0
    stopped = ""
    with multiprocessing.Pool(args.jobs) as pool:
        try:
            finished = pool.imap_unordered(chunk, todo)
            for done, (draws, results) in enumerate(finished, 1):  # noqa: B007
                drawn += draws
                for row in results:
                    if row["source"] in seen:
                        continue
                    seen.add(row["source"])
                    counts["tried"] += 1
                    by_kind[row["kind"]] += 1
                    for stage in generated_checks.STAGES:
                        if row.get(stage):
                            counts[stage] += 1
                    if row.get("agreed") is not None:
                        counts["ran"] += 1
                    if row.get("not_a_file"):
                        counts["not_a_file"] += 1
                    if row["stage"]:
                        failures.append(row)
                        print(f"FAILED {row['stage']}: {row['failure']}\n{row['source']!r}",
                              file=sys.stderr, flush=True)
                print(f"[{done}/{len(todo)}] {counts['tried']} programs, {len(failures)} failures, "
                      f"{time.monotonic() - start:.0f} s", file=sys.stderr, flush=True)
                if args.minutes and time.monotonic() - start > 60 * args.minutes:
                    stopped = f"stopped after {args.minutes:g} minutes"
                    break
        except KeyboardInterrupt:
            stopped = "interrupted"
        pool.terminate()

    elapsed = time.monotonic() - start
    print(f"seed {args.seed}: {drawn} drawn, {counts['tried']} distinct "
          f"({by_kind['grammar']} from_grammar, {by_kind['node']} from_node), "
          f"{args.jobs} jobs, {elapsed:.0f} s, {done} of {len(todo)} chunks"
          + (f" ({stopped})" if stopped else ""))
    width = max(len(label) for _, label in ROWS)
    for key, label in ROWS:
        print(f"  {label:<{width}}  {counts[key]:>6}")
    print(f"  {'not run: CPython runs no such file':<{width}}  {counts['not_a_file']:>6}")
    print(f"  {'failures':<{width}}  {len(failures):>6}")
    for row in failures:
        print(f"\n{row['stage']} ({row['kind']}): {row['failure']}\n--- program:\n{row['source']}")
    if args.save and failures:
        args.save.mkdir(parents=True, exist_ok=True)
        for row in failures:
            digest = hashlib.sha1(row["source"].encode()).hexdigest()[:10]
            comment = "".join(f"# {line}\n" for line in row["failure"].splitlines())
            Path(args.save, f"{row['stage']}-{digest}.py").write_text(comment + row["source"])
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
