"""The conformance suite (conformance/): manifest, verdicts, and real runs.

The manifest and verdict tests use fabricated results. The CI subset runs the
real worker on the manifest's ``ci = true`` modules, as shipped and desugared.
The full run is marked slow (``pytest -m slow``).
"""

from __future__ import annotations

import importlib.util
import sys
import unittest
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _load(name: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / "conformance" / f"{name[12:]}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


conformance = _load("conformance_run")
worker = _load("conformance_worker")
Entry, ModeRun, ManifestError = conformance.Entry, conformance.ModeRun, conformance.ManifestError

REQUIRED = """test_grammar test_augassign test_binop test_bool test_compare test_contains
test_opcodes test_raise test_unary test_unpack test_unpack_ex test_with test_exceptions
test_scope test_global test_named_expressions test_fstring test_keywordonlyarg
test_decorators test_class test_super test_dictcomps test_listcomps test_setcomps
test_genexps test_generators test_yield_from test_coroutines test_patma test_except_star
test_fractions test_statistics test_argparse test_ipaddress test_dataclasses test_tomllib
test_calendar test_pprint test_graphlib test_copy""".split()
MANIFEST = conformance.load_manifest(rule_ids=conformance.known_rules())


# -- the manifest ---------------------------------------------------------------------


def test_manifest_lists_the_required_modules():
    assert set(REQUIRED) <= set(MANIFEST)
    assert MANIFEST["test_fractions"].desugar == ("fractions",)
    assert MANIFEST["test_statistics"].desugar == ("statistics",)
    assert MANIFEST["test_tomllib"].desugar == ("tomllib",)  # a package
    assert [e.name for e in conformance.select(MANIFEST, [], "ci")]


def test_manifest_entry_defaults():
    entry = conformance.parse_entry("test_bool", {})
    assert entry == Entry("test_bool", False, (), (), conformance.DEFAULT_TIMEOUT, {})


def test_manifest_full_entry():
    table = {
        "ci": True,
        "desugar": ["fractions"],
        "keep": ["add"],
        "timeout": 30,
        "expected_failures": {"test.test_x.C.test_m": "not built yet"},
        "skip": {"test.test_x.C.test_slow": "too slow desugared"},
    }
    entry = conformance.parse_entry("test_x", table, frozenset({"add"}))
    assert entry.ci and entry.desugar == ("fractions",) and entry.keep == ("add",)
    assert entry.timeout == 30 and entry.expected_failures == {
        "test.test_x.C.test_m": "not built yet"
    }
    assert entry.skip == {"test.test_x.C.test_slow": "too slow desugared"}


@pytest.mark.parametrize(
    "name, table, message",
    [
        ("bool", {}, "is not the name of a test module"),
        ("test_x", {"cI": True}, "unknown key(s): cI"),
        ("test_x", {"ci": "yes"}, "ci must be true or false"),
        ("test_x", {"timeout": 0}, "timeout must be a positive number"),
        ("test_x", {"timeout": True}, "timeout must be a positive number"),
        ("test_x", {"desugar": "fractions"}, "desugar must be a list of non-empty strings"),
        ("test_x", {"keep": [""]}, "keep must be a list of non-empty strings"),
        ("test_x", {"keep": ["no-such-rule"]}, "keep names unknown rule(s): no-such-rule"),
        ("test_x", {"expected_failures": []}, "must be a table"),
        ("test_x", {"expected_failures": {"test.test_y.C.t": "r"}}, "is not a test of test_x"),
        ("test_x", {"expected_failures": {"test.test_x.C.t": " "}}, "needs a reason"),
        ("test_x", {"skip": {"test.test_x.C.t": 1}}, "[test_x.skip] 'test.test_x.C.t' needs a"),
        ("test_x", {"skip": {"test_x.C.t": "slow"}}, "is not a test of test_x"),
        ("test_x", {"since": 3.12}, 'since must be a version string such as "3.12"'),
        ("test_x", {"since": "3"}, 'since must be a version string such as "3.12"'),
    ],
)
def test_manifest_rejects(name, table, message):
    with pytest.raises(ManifestError) as info:
        conformance.parse_entry(name, table, frozenset({"add"}))
    assert message in str(info.value)


def test_manifest_since():
    assert conformance.parse_entry("test_x", {"since": "3.12"}).since == (3, 12)


def test_manifest_expected_failure_until_or_since_a_version():
    """An expected failure with ``until`` holds only on the Pythons before it;
    with ``since``, only on it and those after."""
    table = {"expected_failures": {
        "test.test_x.C.test_old": {"reason": "deviation, older Pythons", "until": "3.12"},
        "test.test_x.C.test_new": {"reason": "deviation, newer Pythons", "since": "3.12"},
        "test.test_x.C.test_mid": {"reason": "deviation, one Python", "since": "3.12", "until": "3.13"},
        "test.test_x.C.test_all": "deviation",
    }}
    expected = conformance.parse_entry("test_x", table).expected_failures
    assert ("test.test_x.C.test_old" in expected) == (sys.version_info < (3, 12))
    assert ("test.test_x.C.test_new" in expected) == (sys.version_info >= (3, 12))
    assert ("test.test_x.C.test_mid" in expected) == (sys.version_info[:2] == (3, 12))
    assert expected["test.test_x.C.test_all"] == "deviation"
    for bad, message in [({"reason": "r", "until": 3.12}, "until must be a version string"),
                         ({"reason": "r", "since": "3"}, "since must be a version string"),
                         ({"reason": "r", "after": "3.12"}, "only reason, since, until and semantics"),
                         ({"reason": "r", "semantics": "exact"}, "semantics must be one of python, native"),
                         ({"until": "3.12"}, "needs a reason")]:
        with pytest.raises(ManifestError, match=message):
            conformance.parse_entry("test_x", {"expected_failures": {"test.test_x.C.t": bad}})


def test_manifest_expected_failure_of_one_semantics():
    """An expected failure with ``semantics = "python"`` holds only when the
    modules are desugared with python semantics (a helper's frame that the
    native operators do not add)."""
    table = {"expected_failures": {
        "test.test_x.C.test_frames": {"reason": "deviation: a helper's frame", "semantics": "python"},
        "test.test_x.C.test_all": "deviation",
    }}
    python = conformance.parse_entry("test_x", table).expected_failures
    native = conformance.parse_entry("test_x", table, semantics="native").expected_failures
    assert set(python) == {"test.test_x.C.test_frames", "test.test_x.C.test_all"}
    assert set(native) == {"test.test_x.C.test_all"}


def test_manifest_file_errors(tmp_path):
    bad = tmp_path / "manifest.toml"
    bad.write_text("[test_x\n")
    with pytest.raises(ManifestError, match="manifest.toml"):
        conformance.load_manifest(bad)
    bad.write_text("test_x = 1\n")
    with pytest.raises(ManifestError, match="test_x must be a table"):
        conformance.load_manifest(bad)
    assert conformance.main([f"--manifest={bad}"]) == 2


def test_logs_go_beside_the_results():
    assert conformance.logs_for(Path("r/3.11.7.json")) == Path("r/3.11.7.logs")


def test_select():
    manifest = {
        "test_a": Entry("test_a", ci=True),
        "test_b": Entry("test_b"),
    }
    assert [e.name for e in conformance.select(manifest, [], None)] == ["test_a", "test_b"]
    assert [e.name for e in conformance.select(manifest, [], "ci")] == ["test_a"]
    named = conformance.select(manifest, ["test_b", "test_zz"], None)
    assert named == [Entry("test_b"), Entry("test_zz")]


# -- verdicts on fabricated results ---------------------------------------------------

A, B, C = "test.test_x.T.test_a", "test.test_x.T.test_b", "test.test_x.T.test_c"


def ok(**tests: str) -> ModeRun:
    return ModeRun("ok", {f"test.test_x.T.{k}": v for k, v in tests.items()})


def test_same_results_pass():
    report = conformance.judge(
        Entry("test_x"),
        ok(test_a="pass", test_b="skip", test_c="fail"),
        ok(test_a="pass", test_b="skip", test_c="error"),
    )
    assert report.status == "ok" and not report.failed
    assert report.regressions == report.tolerated == report.stale == []
    assert (report.passed("original"), report.passed("desugared")) == (1, 1)


@pytest.mark.parametrize("after", ["fail", "error", "skip", "xpass", "missing"])
def test_regression_is_detected(after):
    desugared = ok(test_a="pass") if after == "missing" else ok(test_a="pass", test_b=after)
    report = conformance.judge(Entry("test_x"), ok(test_a="pass", test_b="pass"), desugared)
    assert report.failed
    assert report.regressions == [B]
    assert report.tests[B] == ("pass", after)
    details = conformance.format_details([report])
    if after == "missing":
        assert "test_x: 1 test(s) passed as shipped but did not run" in details
    else:
        assert f"REGRESSION {B}: pass -> {after}" in details


def test_sugar_left_in_an_output_fails_the_module():
    desugared = ok(test_a="pass")
    desugared.sugar = {"test.test_x": ["3:5: async-def"]}
    report = conformance.judge(Entry("test_x"), ok(test_a="pass"), desugared)
    assert report.failed and report.regressions == []
    assert report.note == "sugar left in test.test_x: 3:5: async-def"


def test_worker_reports_sugar_left_in_outputs(tmp_path, monkeypatch):
    (tmp_path / "sugary.py").write_text("async def f():\n    await g()\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    import sugary  # noqa: F401  (imported plainly: only its file is read again)

    assert worker.sugar_left(["sugary"]) == {}
    import unsugar.pipeline

    monkeypatch.setattr(unsugar.pipeline, "desugar_tree", lambda tree: tree)  # a rule that did nothing
    assert worker.sugar_left(["sugary"]) == {"sugary": ["1:1: async-def", "2:5: await"]}


def test_expected_failure_of_unittest_counts_as_passing():
    report = conformance.judge(Entry("test_x"), ok(test_a="xfail"), ok(test_a="xpass"))
    assert report.regressions == [A]
    report = conformance.judge(Entry("test_x"), ok(test_a="xfail"), ok(test_a="xfail"))
    assert not report.failed


def test_expected_failure_is_tolerated():
    entry = Entry("test_x", expected_failures={B: "not built yet"})
    report = conformance.judge(
        entry, ok(test_a="pass", test_b="pass"), ok(test_a="pass", test_b="fail")
    )
    assert report.status == "ok"
    assert report.regressions == [] and report.tolerated == [B]
    table = conformance.format_table([report])
    assert table.splitlines()[2].split() == ["test_x", "2", "2", "1", "0", "1", "0", "ok"]


def test_stale_expected_failure_is_reported_without_failing():
    entry = Entry("test_x", expected_failures={A: "not built yet", C: "gone on this version"})
    report = conformance.judge(entry, ok(test_a="pass"), ok(test_a="pass"))
    assert report.status == "ok"
    assert report.stale == [A]
    assert f"stale expected failure {A}" in conformance.format_details([report])


def test_desugared_run_failure_fails_every_passing_test():
    crash = ModeRun("crash", error="exit code -11, no result")
    report = conformance.judge(Entry("test_x"), ok(test_a="pass", test_b="skip"), crash)
    assert report.failed and report.regressions == [A]
    assert report.note == "desugared: crash"
    details = conformance.format_details([report])
    assert "test_x (desugared): crash: exit code -11" in details
    assert "1 test(s) passed as shipped but did not run" in details


def test_desugared_import_error_fails_even_without_tests():
    broken = ModeRun("import-error", error="Traceback...\nTypeError: boom\n")
    report = conformance.judge(Entry("test_x"), ok(), broken)
    assert report.failed
    assert "TypeError: boom" in conformance.format_details([report])


def test_original_run_failure_fails():
    report = conformance.judge(Entry("test_x"), ModeRun("timeout"), ok(test_a="pass"))
    assert report.failed and report.note == "original: timeout"


def test_table_totals_and_absent_modules():
    one = conformance.judge(
        Entry("test_x"), ok(test_a="pass", test_b="pass"), ok(test_a="pass", test_b="fail")
    )
    two = conformance.absent(Entry("test_y"))
    lines = conformance.format_table([one, two]).splitlines()
    assert lines[0].split() == [
        "module",
        "tests",
        "passed",
        "desugared",
        "regressions",
        "expected",
        "stale",
        "result",
    ]
    assert lines[3].split()[:7] == ["test_y", "-", "-", "-", "-", "-", "-"]
    assert "absent" in lines[3]
    assert lines[-1].split() == ["TOTAL", "2", "2", "1", "1", "0", "0", "1", "failed"]
    data = conformance.to_json([one, two])
    assert data["modules"]["test_x"]["tests"][B] == {"original": "pass", "desugared": "fail"}
    assert data["modules"]["test_x"]["regressions"] == [B]
    assert data["modules"]["test_y"]["status"] == "absent"


# -- the worker's recording result ----------------------------------------------------


class Sample(unittest.TestCase):
    __test__ = False  # run by the test below, not collected by pytest

    def test_pass(self):
        pass

    def test_fail(self):
        self.assertEqual(1, 2)

    def test_error(self):
        raise KeyError

    def test_skip(self):
        self.skipTest("no")

    @unittest.expectedFailure
    def test_xfail(self):
        self.fail()

    @unittest.expectedFailure
    def test_xpass(self):
        pass

    def test_subtests(self):
        for i in range(3):
            with self.subTest(i=i):
                self.assertNotEqual(i, 1)

    def test_skipped_subtest(self):
        with self.subTest(i=0):
            self.skipTest("no")


def test_worker_records_every_outcome(tmp_path):
    suite = unittest.defaultTestLoader.loadTestsFromTestCase(Sample)
    with open(tmp_path / "log", "w") as stream:
        result = unittest.TextTestRunner(stream=stream, resultclass=worker.RecordingResult).run(
            suite
        )
    prefix = f"{__name__}.Sample."
    assert {k.removeprefix(prefix): v for k, v in result.outcomes.items()} == {
        "test_pass": "pass",
        "test_fail": "fail",
        "test_error": "error",
        "test_skip": "skip",
        "test_xfail": "xfail",
        "test_xpass": "xpass",
        "test_subtests": "fail",
        "test_skipped_subtest": "skip",
    }


def test_worker_skips_tests():
    suite = unittest.TestSuite([unittest.defaultTestLoader.loadTestsFromTestCase(Sample)])
    skip = {f"{__name__}.Sample.test_fail", f"{__name__}.Sample.test_error"}
    removed = set()
    kept = worker.without(suite, {*skip, "test.test_x.T.test_gone"}, removed)
    assert removed == skip
    kept = {test.id().rsplit(".", 1)[1] for test in kept._tests[0]}
    assert kept == {
        "test_pass",
        "test_skip",
        "test_xfail",
        "test_xpass",
        "test_subtests",
        "test_skipped_subtest",
    }


def test_worker_desugared_modules_include_packages():
    assert worker._within("tomllib._parser", ["copy", "tomllib"])
    assert worker._within("tomllib", ["tomllib"])
    assert not worker._within("tomllibx", ["tomllib"])


# -- real runs ------------------------------------------------------------------------


@pytest.mark.parametrize("name", [e.name for e in conformance.select(MANIFEST, [], "ci")])
def test_ci_subset(name, tmp_path):
    entry = MANIFEST[name]
    if entry.since is not None and sys.version_info < entry.since:
        pytest.skip(f"{name} is new in Python {'.'.join(map(str, entry.since))}")
    [report] = conformance.run_modules([entry], tmp_path)
    assert report.status != "absent", f"{name} is in the CI subset but absent"
    assert not report.failed, conformance.format_details([report])
    assert report.passed("desugared") > 0


def test_a_run_that_times_out_fails_the_module(tmp_path):
    [report] = conformance.run_modules([Entry("test_bool", timeout=0.01)], tmp_path)
    assert report.failed and report.note == "original: timeout; desugared: timeout"
    assert (tmp_path / "test_bool.desugared.log").exists()


def test_a_missing_module_is_absent(tmp_path):
    [report] = conformance.run_modules([Entry("test_no_such_module")], tmp_path)
    assert report.status == "absent" and not report.failed and not report.runs


@pytest.mark.slow
def test_full_run(tmp_path):
    assert conformance.main(["--json", str(tmp_path / "results.json")]) == 0
