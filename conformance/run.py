"""The conformance suite: CPython's own tests, run as shipped and desugared.

    python conformance/run.py [MODULE...] [--subset ci] [--json OUT]

For each module of the manifest (``conformance/manifest.toml``), or each one
named, the worker (``conformance/worker.py``) runs ``test.<module>`` twice in
fresh processes: as shipped, and with the module (and the library modules the
manifest names) imported desugared. A module FAILS when a test that passed as
shipped does not pass desugared and is not listed in the manifest's expected
failures; the command then exits 1. Expected failures that pass are reported
as stale. The per-test results go to ``conformance/results/<version>.json``
and the output of every run beside it, in ``conformance/results/<version>.logs/``.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import tomllib
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
MANIFEST = HERE / "manifest.toml"
WORKER = HERE / "worker.py"
RESULTS = HERE / "results"
VERSION = "{}.{}.{}".format(*sys.version_info[:3])
MODES = ("original", "desugared")
# Outcomes that count as passing: a test marked expectedFailure that fails passes.
GOOD = frozenset({"pass", "xfail"})
DEFAULT_TIMEOUT = 600
SUBSETS = ("ci",)
SEMANTICS = ("python", "native")
KEYS = {"ci", "desugar", "keep", "timeout", "expected_failures", "skip", "since"}


class ManifestError(ValueError):
    """The manifest is malformed."""


@dataclass(frozen=True)
class Entry:
    """One module of the manifest."""

    name: str
    ci: bool = False
    desugar: tuple[str, ...] = ()
    keep: tuple[str, ...] = ()
    timeout: float = DEFAULT_TIMEOUT
    expected_failures: dict[str, str] = field(default_factory=dict)
    skip: dict[str, str] = field(default_factory=dict)
    since: tuple[int, int] | None = None  # the first Python version that ships the module


def _strings(name: str, key: str, value: object) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise ManifestError(f"[{name}] {key} must be a list of non-empty strings")
    return tuple(value)


def parse_entry(
    name: str, table: object, rule_ids: frozenset[str] | None = None, semantics: str = "python"
) -> Entry:
    """Validate one module's table; ``rule_ids`` (if given) are the ids ``keep``
    may name; the expected failures are those of the desugared modules'
    ``semantics``."""
    if not name.startswith("test_") or not all(part.isidentifier() for part in name.split(".")):
        raise ManifestError(f"[{name}] is not the name of a test module (test_..., "
                            "or test_package.test_...)")
    if not isinstance(table, dict):
        raise ManifestError(f"{name} must be a table")
    unknown = sorted(set(table) - KEYS)
    if unknown:
        raise ManifestError(f"[{name}] unknown key(s): {', '.join(unknown)}")
    ci = table.get("ci", False)
    if not isinstance(ci, bool):
        raise ManifestError(f"[{name}] ci must be true or false")
    timeout = table.get("timeout", DEFAULT_TIMEOUT)
    if isinstance(timeout, bool) or not isinstance(timeout, int | float) or timeout <= 0:
        raise ManifestError(f"[{name}] timeout must be a positive number of seconds")
    desugar = _strings(name, "desugar", table.get("desugar", []))
    keep = _strings(name, "keep", table.get("keep", []))
    if rule_ids is not None:
        unknown = sorted(set(keep) - rule_ids)
        if unknown:
            raise ManifestError(f"[{name}] keep names unknown rule(s): {', '.join(unknown)}")
    expected = _reasons(name, "expected_failures", table.get("expected_failures", {}), semantics)
    skip = _reasons(name, "skip", table.get("skip", {}), semantics)
    since = _version(name, "since", table.get("since"))
    return Entry(name, ci, desugar, keep, float(timeout), expected, skip, since)


def _reasons(name: str, key: str, table: object, semantics: str) -> dict[str, str]:
    """A table of test ids of module ``name``, each with a reason, or with
    ``{reason = "...", until = "3.12"}`` for one that holds only on the
    Pythons before ``until`` (``since``: from ``since`` on; ``semantics =
    "python"``: only when the desugared modules have those semantics): those
    that hold on the running one."""
    if not isinstance(table, dict):
        raise ManifestError(f"[{name}.{key}] must be a table")
    reasons: dict[str, str] = {}
    for test_id, value in table.items():
        if not test_id.startswith(f"test.{name}."):
            raise ManifestError(f"[{name}.{key}] {test_id!r} is not a test of {name}")
        reason, since, until, only = value, None, None, semantics
        if isinstance(value, dict):
            if set(value) - {"reason", "since", "until", "semantics"}:
                raise ManifestError(
                    f"[{name}.{key}] {test_id!r}: only reason, since, until and semantics may be given")
            reason = value.get("reason")
            since, until = (_version(name, bound, value.get(bound)) for bound in ("since", "until"))
            only = value.get("semantics", semantics)
            if only not in SEMANTICS:
                raise ManifestError(f"[{name}.{key}] {test_id!r}: semantics must be one of {', '.join(SEMANTICS)}")
        if not isinstance(reason, str) or not reason.strip():
            raise ManifestError(f"[{name}.{key}] {test_id!r} needs a reason")
        if (since is None or sys.version_info[:2] >= since) and (until is None or sys.version_info[:2] < until) \
                and only == semantics:
            reasons[test_id] = reason
    return reasons


def _version(name: str, key: str, text: object) -> tuple[int, int] | None:
    """``"3.12"`` as ``(3, 12)`` (None stays None)."""
    if text is None:
        return None
    major, _, minor = str(text).partition(".")
    if not isinstance(text, str) or not (major.isdigit() and minor.isdigit()):
        raise ManifestError(f'[{name}] {key} must be a version string such as "3.12"')
    return int(major), int(minor)


def known_rules() -> frozenset[str]:
    from unsugar.registry import load_all

    return frozenset(load_all())


def load_manifest(
    path: Path = MANIFEST, rule_ids: frozenset[str] | None = None, semantics: str = "python"
) -> dict[str, Entry]:
    """Read and validate the manifest: module name -> entry, in file order,
    with the expected failures of ``semantics``."""
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as error:
        raise ManifestError(f"{path}: {error}") from error
    return {name: parse_entry(name, table, rule_ids, semantics) for name, table in data.items()}


@dataclass
class ModeRun:
    """What one worker process reported (or that it did not)."""

    status: str  # ok, import-error, not-desugared, crash, timeout
    tests: dict[str, str] = field(default_factory=dict)
    duration: float = 0.0
    error: str = ""
    log: str = ""
    sugar: dict[str, list[str]] = field(default_factory=dict)  # module: what check finds


@dataclass
class Report:
    """The verdict on one module."""

    name: str
    status: str  # ok, FAIL, absent
    note: str = ""
    tests: dict[str, tuple[str, str]] = field(default_factory=dict)
    regressions: list[str] = field(default_factory=list)
    tolerated: list[str] = field(default_factory=list)
    stale: list[str] = field(default_factory=list)
    runs: dict[str, ModeRun] = field(default_factory=dict)

    @property
    def failed(self) -> bool:
        return self.status == "FAIL"

    def passed(self, mode: str) -> int:
        index = MODES.index(mode)
        return sum(1 for outcomes in self.tests.values() if outcomes[index] in GOOD)


def judge(entry: Entry, original: ModeRun, desugared: ModeRun) -> Report:
    """Compare the two runs of ``entry``'s module; no processes involved."""
    report = Report(entry.name, "ok", runs={"original": original, "desugared": desugared})
    ids = sorted(set(original.tests) | set(desugared.tests))
    report.tests = {
        t: (original.tests.get(t, "missing"), desugared.tests.get(t, "missing")) for t in ids
    }
    for test_id, (before, after) in report.tests.items():
        expected = test_id in entry.expected_failures
        if expected and after in GOOD:
            report.stale.append(test_id)
        elif before in GOOD and after not in GOOD:
            (report.tolerated if expected else report.regressions).append(test_id)
    notes = [f"{mode}: {run.status}" for mode, run in report.runs.items() if run.status != "ok"]
    notes += [f"sugar left in {name}: {', '.join(found)}" for name, found in desugared.sugar.items()]
    report.note = "; ".join(notes)
    if original.status != "ok" or report.regressions or desugared.status != "ok" or desugared.sugar:
        report.status = "FAIL"
    return report


def absent(entry: Entry) -> Report:
    return Report(entry.name, "absent", note=f"(no such module on Python {VERSION})")


def is_present(name: str) -> bool:
    """Whether ``test.<name>`` (a module or a package) exists on this interpreter."""
    try:
        return importlib.util.find_spec(f"test.{name}") is not None
    except ModuleNotFoundError:  # no test package at all
        return False


def run_mode(
    entry: Entry, mode: str, logs: Path, timeout: float | None = None, semantics: str = "python"
) -> ModeRun:
    """Run the worker for one mode in a fresh process and a scratch directory."""
    limit = timeout or entry.timeout
    log_path = logs / f"{entry.name}.{mode}.log"
    scratch = Path(tempfile.mkdtemp(prefix=f"unsugar-{entry.name}-{mode}-"))
    out = scratch / "result.json"
    command = [sys.executable, str(WORKER), entry.name, "--mode", mode, "--out", str(out)]
    command += ["--timeout", str(limit), "--semantics", semantics]
    for name in entry.desugar:
        command += ["--desugar", name]
    for rule in entry.keep:
        command += ["--keep", rule]
    for test_id in entry.skip:
        command += ["--skip", test_id]
    work = scratch / "cwd"
    work.mkdir()
    start = time.perf_counter()
    try:
        with open(log_path, "wb") as log:
            process = subprocess.Popen(
                command,
                cwd=work,
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
            )
            try:
                code = process.wait(timeout=limit)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
                took = time.perf_counter() - start
                return ModeRun("timeout", {}, took, f"killed after {limit:g} s", str(log_path))
        if not out.exists():
            took = time.perf_counter() - start
            return ModeRun("crash", {}, took, f"exit code {code}, no result", str(log_path))
        record = json.loads(out.read_text(encoding="utf-8"))
        return ModeRun(
            record["status"], record["tests"], record["duration"], record["error"], str(log_path),
            record.get("sugar", {}),
        )
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def logs_for(out: Path) -> Path:
    """The directory of the logs of a run whose results go to ``out``."""
    return out.with_name(f"{out.stem}.logs")


def run_modules(
    entries: list[Entry],
    logs: Path,
    jobs: int = 2,
    timeout: float | None = None,
    progress: Callable[[Report], None] | None = None,
    semantics: str = "python",
) -> list[Report]:
    """Run both modes of every present module, ``jobs`` processes at a time; logs in ``logs``."""
    logs.mkdir(parents=True, exist_ok=True)
    present = [e for e in entries if is_present(e.name)]
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        # Both modes of a module side by side, modules in manifest order.
        futures = {
            (e.name, mode): pool.submit(run_mode, e, mode, logs, timeout, semantics)
            for e in present
            for mode in MODES
        }
        reports = []
        for entry in entries:
            if entry not in present:
                report = absent(entry)
            else:
                runs = [futures[entry.name, mode].result() for mode in MODES]
                report = judge(entry, *runs)
            if progress:
                progress(report)
            reports.append(report)
    return reports


def format_table(reports: list[Report]) -> str:
    """The summary table with a totals line."""
    head = ("module", "tests", "passed", "desugared", "regressions", "expected", "stale", "result")
    rows = []
    totals = [0] * 6
    for r in reports:
        counts = [
            len(r.tests),
            r.passed("original"),
            r.passed("desugared"),
            len(r.regressions),
            len(r.tolerated),
            len(r.stale),
        ]
        if r.status != "absent":
            totals = [a + b for a, b in zip(totals, counts, strict=True)]
            cells = [str(c) for c in counts]
        else:
            cells = ["-"] * 6
        rows.append((r.name, *cells, f"{r.status} {r.note}".strip()))
    failed = sum(r.failed for r in reports)
    rows.append(("TOTAL", *map(str, totals), f"{failed} failed" if failed else "ok"))
    widths = [max(len(row[i]) for row in [head, *rows]) for i in range(len(head))]

    def line(row: tuple[str, ...]) -> str:
        cells = [row[0].ljust(widths[0])]
        cells += [c.rjust(w) for c, w in zip(row[1:-1], widths[1:-1], strict=True)]
        return "  ".join([*cells, row[-1]]).rstrip()

    rule = "  ".join("-" * w for w in widths)
    return "\n".join([line(head), rule, *map(line, rows[:-1]), rule, line(rows[-1])])


def format_details(reports: list[Report]) -> str:
    """Regressions, run failures and stale expected failures, one per line."""
    out = []
    for r in reports:
        for mode, run in r.runs.items():
            if run.status != "ok":
                first = run.error.strip().splitlines()[-1:] or [""]
                out.append(f"{r.name} ({mode}): {run.status}: {first[0]} (log: {run.log})")
        missing = [t for t in r.regressions if r.tests[t][1] == "missing"]
        if missing:
            out.append(f"{r.name}: {len(missing)} test(s) passed as shipped but did not run")
        out += [
            f"REGRESSION {t}: {r.tests[t][0]} -> {r.tests[t][1]}"
            for t in r.regressions
            if t not in missing
        ]
        out += [f"stale expected failure {t}: passes desugared" for t in r.stale]
    return "\n".join(out)


def to_json(reports: list[Report]) -> dict[str, object]:
    modules = {}
    for r in reports:
        modules[r.name] = {
            "status": r.status,
            "note": r.note,
            "runs": {
                m: {
                    "status": run.status,
                    "duration": round(run.duration, 3),
                    "error": run.error,
                    "log": run.log,
                }
                for m, run in r.runs.items()
            },
            "tests": {t: {"original": a, "desugared": b} for t, (a, b) in r.tests.items()},
            "regressions": r.regressions,
            "expected_failures": r.tolerated,
            "stale": r.stale,
        }
    return {"python": sys.version, "version": VERSION, "modules": modules}


def select(manifest: dict[str, Entry], names: list[str], subset: str | None) -> list[Entry]:
    """The entries to run: the named modules (manifest or defaults), else all or a subset."""
    if names:
        entries = [manifest.get(n) or parse_entry(n, {}) for n in names]
    else:
        entries = list(manifest.values())
    if subset == "ci":
        entries = [e for e in entries if e.ci]
    return entries


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Run CPython's own test modules as shipped and desugared; compare."
    )
    parser.add_argument("modules", nargs="*", metavar="MODULE", help="e.g. test_bool")
    parser.add_argument("--subset", choices=SUBSETS, help="only the manifest's ci modules")
    parser.add_argument(
        "--json",
        type=Path,
        metavar="OUT",
        help=f"per-test results (default conformance/results/{VERSION}.json)",
    )
    parser.add_argument("--manifest", type=Path, default=MANIFEST)
    parser.add_argument("--jobs", type=int, default=2, help="processes at a time (default 2)")
    parser.add_argument("--timeout", type=float, help="seconds per run, overriding the manifest")
    parser.add_argument("--semantics", choices=SEMANTICS, default="python",
                        help="how the desugared modules are desugared (default python)")
    args = parser.parse_args(argv)
    try:
        manifest = load_manifest(args.manifest, known_rules(), args.semantics)
        entries = select(manifest, args.modules, args.subset)
    except ManifestError as error:
        print(f"conformance: {error}", file=sys.stderr)
        return 2
    start = time.perf_counter()

    def progress(report: Report) -> None:
        took = " ".join(f"{m} {run.duration:.1f} s" for m, run in report.runs.items())
        print(f"{report.name}: {report.status} {report.note} {took}".rstrip(), flush=True)

    out = args.json or RESULTS / f"{VERSION}.json"
    reports = run_modules(entries, logs_for(out), args.jobs, args.timeout, progress=progress,
                          semantics=args.semantics)
    print()
    print(format_table(reports))
    details = format_details(reports)
    if details:
        print()
        print(details)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(to_json(reports), indent=1) + "\n", encoding="utf-8")
    print(
        f"\nPython {VERSION}, {time.perf_counter() - start:.0f} s; results in {out}, logs in {logs_for(out)}"
    )
    return 1 if any(r.failed for r in reports) else 0


if __name__ == "__main__":
    sys.exit(main())
