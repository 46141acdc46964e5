"""Run one module of CPython's ``test`` package once and record every outcome.

    python conformance/worker.py test_bool --mode original --out RESULT.json
    python conformance/worker.py test_fractions --mode desugared --desugar fractions \\
        --keep RULE --skip TEST_ID --semantics native --out RESULT.json

``conformance/run.py`` starts one worker per (module, mode) in a fresh
process, with its standard output and error going to a log file. The two modes
differ only in the import hook: in ``desugared`` mode ``test.test_x`` (and the
``--desugar`` modules) are imported through ``unsugar.runner.install``.

The result file is JSON::

    {"status": "ok", "error": "", "duration": 1.5,
     "loaders": {"test.test_bool": "unsugar.runner.DesugaringLoader"},
     "tests": {"test.test_bool.BoolTest.test_and": "pass", ...},
     "sugar": {}}

``sugar`` (desugared mode, no rule kept) maps each desugared module whose
output is not core to what ``unsugar check`` finds there.

``status`` is ``ok``, ``import-error`` (the module did not import; ``error``
has the traceback) or ``not-desugared`` (a module meant to be desugared was
imported as is). The modules desugared besides the test are imported afresh
in both modes (see :func:`forget`). Outcomes: ``pass``, ``fail``, ``error``, ``skip`` (also for a
``--skip`` test), ``xfail`` (an expected failure), ``xpass`` (an unexpected
success). A test with a failing subtest is recorded as failing. No result
file means a crash.
"""

from __future__ import annotations

import argparse
import faulthandler
import importlib
import json
import sys
import time
import traceback
import unittest

# When one test id is reported twice (subtests, doctests), the worse outcome wins.
SEVERITY = {"pass": 0, "skip": 1, "xfail": 2, "xpass": 3, "fail": 4, "error": 5}


class RecordingResult(unittest.TextTestResult):
    """A text result that also keeps the outcome of every test id."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        self.outcomes: dict[str, str] = {}

    def record(self, test: unittest.TestCase, outcome: str) -> None:
        key = test.id()
        previous = self.outcomes.get(key)
        if previous is None or SEVERITY[outcome] >= SEVERITY[previous]:
            self.outcomes[key] = outcome

    def addSuccess(self, test):
        super().addSuccess(test)
        self.record(test, "pass")

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self.record(test, "fail")

    def addError(self, test, err):
        super().addError(test, err)
        self.record(test, "error")

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        # A skipped subtest is all unittest reports of its parent, unless another fails.
        self.record(getattr(test, "test_case", test), "skip")

    def addExpectedFailure(self, test, err):
        super().addExpectedFailure(test, err)
        self.record(test, "xfail")

    def addUnexpectedSuccess(self, test):
        super().addUnexpectedSuccess(test)
        self.record(test, "xpass")

    def addSubTest(self, test, subtest, err):
        super().addSubTest(test, subtest, err)
        if err is not None:
            failed = issubclass(err[0], test.failureException)
            self.record(test, "fail" if failed else "error")


def without(suite: unittest.TestSuite, skip: set[str], removed: set[str]) -> unittest.TestSuite:
    """``suite`` without the tests whose ids are in ``skip``; their ids go to ``removed``."""
    kept = type(suite)()
    for test in suite:
        if isinstance(test, unittest.TestSuite):
            kept.addTest(without(test, skip, removed))
        elif test.id() in skip:
            removed.add(test.id())
        else:
            kept.addTest(test)
    return kept


def loader_name(module: object) -> str:
    loader = getattr(module, "__loader__", None)
    return f"{type(loader).__module__}.{type(loader).__qualname__}"


def run(
    module: str, mode: str, desugar: list[str], keep: list[str], skip: list[str] = (),
    semantics: str = "python",
) -> dict[str, object]:
    """Import ``test.<module>`` (desugared if asked), run its tests but ``skip``, the record."""
    name = f"test.{module}"
    desugared = [name, *desugar]
    record: dict[str, object] = {
        "status": "ok",
        "error": "",
        "duration": 0.0,
        "loaders": {},
        "tests": {},
    }
    start = time.perf_counter()
    try:
        if mode == "desugared":
            from unsugar.runner import Options, compile_source, install

            # The tool loads all of itself (and its own copy, dataclasses, ...) first,
            # so that what it imports is not taken for the modules under test.
            compile_source(b"pass\n", "<warm-up>",
                           Options(tuple(keep), cache=False, semantics=semantics))
        forget(desugar)
        if mode == "desugared":
            install(include=desugared, keep=keep, semantics=semantics)
        # As regrtest does: import, then load_tests of a module or package is honoured.
        imported = importlib.import_module(name)
        removed: set[str] = set()
        suite = unittest.defaultTestLoader.loadTestsFromModule(imported)
        suite = without(suite, set(skip), removed)
        for extra in desugar:
            importlib.import_module(extra)
    except BaseException:
        record["status"] = "import-error"
        record["error"] = traceback.format_exc()
        record["duration"] = time.perf_counter() - start
        return record
    # (a module a package makes and registers itself, typing.io on 3.11, was not
    # imported; nor one it registers under a second name: collections.abc is
    # _collections_abc on 3.13; a namespace package, test.test_warnings.data,
    # has no code to desugar)
    loaders = {m: loader_name(module) for m, module in sys.modules.items()
               if _within(m, desugared) and getattr(getattr(module, "__spec__", None), "name", m) == m
               and getattr(module, "__spec__", None) is not None and not _namespace_package(module)}
    record["loaders"] = loaders
    if mode == "desugared":
        plain = [m for m, kind in loaders.items() if not kind.startswith("unsugar.")]
        if plain:
            record["status"] = "not-desugared"
            record["error"] = f"imported without the hook: {', '.join(plain)}"
    runner = unittest.TextTestRunner(stream=sys.stderr, verbosity=2, resultclass=RecordingResult)
    result = runner.run(suite)
    record["tests"] = {**dict.fromkeys(sorted(removed), "skip"), **result.outcomes}
    record["duration"] = time.perf_counter() - start
    if mode == "desugared" and not keep:
        record["sugar"] = sugar_left(
            [m for m, kind in loaders.items() if kind.startswith("unsugar.")])
    return record


def _namespace_package(module: object) -> bool:
    """A package of directories without ``__init__.py`` (PEP 420): no file, no code."""
    spec = module.__spec__  # type: ignore[attr-defined]
    return spec.origin is None and spec.submodule_search_locations is not None


def sugar_left(modules: list[str]) -> dict[str, list[str]]:
    """What ``unsugar check`` finds in the output of each of ``modules`` (desugared
    again from its file: the import hook may have taken its code from the cache)."""
    import ast

    from unsugar.checker import find_sugar
    from unsugar.pipeline import desugar_tree

    sugar: dict[str, list[str]] = {}
    for name in modules:
        path = sys.modules[name].__file__
        with open(path, "rb") as source:
            found = list(find_sugar(desugar_tree(ast.parse(source.read(), path))))
        left = sorted(f"{f.line}:{f.col + 1}: {f.rule}" for f in found)
        if left:
            sugar[name] = left[:5] + ([f"... {len(left)} in all"] if len(left) > 5 else [])
    return sugar


def _within(name: str, packages: list[str]) -> bool:
    """Whether module ``name`` is one of ``packages`` or inside one."""
    return any(name == package or name.startswith(package + ".") for package in packages)


def forget(packages: list[str]) -> None:
    """Drop ``packages`` (and what is inside them) from ``sys.modules``, in both
    modes, so that the test imports them afresh (as ``import_fresh_module``
    does): ``unittest`` or ``test.support`` may have imported them already."""
    for name in list(sys.modules):
        if _within(name, packages):
            del sys.modules[name]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("module", help="a module of the test package, e.g. test_bool")
    parser.add_argument("--mode", choices=["original", "desugared"], required=True)
    parser.add_argument("--out", required=True, help="where to write the JSON record")
    parser.add_argument("--desugar", action="append", default=[], help="also desugar MODULE")
    parser.add_argument("--keep", action="append", default=[], help="keep RULE")
    parser.add_argument("--skip", action="append", default=[], help="do not run test ID")
    parser.add_argument("--timeout", type=float, default=0, help="dump tracebacks before this")
    parser.add_argument("--semantics", choices=["python", "native"], default="python",
                        help="the semantics the desugared modules are desugared with")
    args = parser.parse_args(argv)
    faulthandler.enable()
    if args.timeout > 10:
        # The parent kills the run at the timeout; leave the stacks in the log first.
        faulthandler.dump_traceback_later(args.timeout - 5, exit=False)
    record = run(args.module, args.mode, args.desugar, args.keep, args.skip, args.semantics)
    faulthandler.cancel_dump_traceback_later()
    sys.stdout.flush()
    sys.stderr.flush()
    with open(args.out, "w", encoding="utf-8") as out:
        json.dump(record, out, indent=1, sort_keys=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
