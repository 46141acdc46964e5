"""``pytest --unsugar`` (:mod:`unsugar.pytest_plugin`) on the sample project ``projects/mini``.

Each run is pytest in a fresh interpreter on a copy of the project, with the
plugin named by ``-p`` and entry points off (the unsugar under test need not
be the installed one); ``test_the_entry_point_loads_the_plugin`` checks the
``pytest11`` entry point of pyproject.toml itself. The project's
``tests/test_desugared.py`` fails for a module whose functions still hold
loops, operators or attribute accesses: its outcomes say what was desugared.
Its ``conftest.py`` imports the package, so the hook is in place before the
first conftest.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import unsugar
from unsugar import desugar, runner
from unsugar.checker import check_source
from unsugar.pytest_plugin import default_packages, is_test_file

HERE = Path(__file__).resolve().parent
MINI = HERE / "projects" / "mini"
#: where the unsugar under test is imported from, for the runs
UNSUGAR_PATH = str(Path(unsugar.__file__).resolve().parent.parent)
PYTHON_FILES = ("test_*.py", "*_test.py")
OUTCOME = re.compile(r"^(PASSED|FAILED|ERROR|SKIPPED) (\S+)", re.M)


def copy_project(directory: Path) -> Path:
    return shutil.copytree(MINI, directory / "mini", ignore=shutil.ignore_patterns("__pycache__"))


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A copy of the sample project, for a test that changes it."""
    return copy_project(tmp_path)


@pytest.fixture(scope="module")
def shared(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the sample project that no test changes (its cache is shared too)."""
    return copy_project(tmp_path_factory.mktemp("shared"))


def run_pytest(
    project: Path, *args: str, plugin: bool = True, path: tuple[str, ...] = ()
) -> subprocess.CompletedProcess[str]:
    """``python -m pytest ARGS`` in ``project``, every outcome listed (``-rA``), with a
    cache of its own; ``path`` goes on ``PYTHONPATH``."""
    env = {**os.environ, "UNSUGAR_CACHE_DIR": str(project.parent / "cache"),
           "PYTHONDONTWRITEBYTECODE": "1", "PYTHONPATH": os.pathsep.join([*path, UNSUGAR_PATH])}
    env.pop("PYTEST_ADDOPTS", None)
    if plugin:
        env["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
        args = ("-p", "unsugar.pytest_plugin", *args)
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-rA", *args],
        cwd=project, env=env, capture_output=True, text=True, timeout=300,
    )


def outcomes(result: subprocess.CompletedProcess[str]) -> dict[str, str]:
    """Test id (the part after ``::``): outcome."""
    return {test.partition("::")[2] or test: outcome
            for outcome, test in OUTCOME.findall(result.stdout)}


def module_names(project: Path) -> list[str]:
    """The dotted names of the project's ``src/`` modules."""
    src = project / "src"
    return sorted(
        ".".join(path.relative_to(src).with_suffix("").parts).removesuffix(".__init__")
        for path in src.rglob("*.py")
    )


def desugared(names: list[str]) -> dict[str, str]:
    """The outcomes of ``test_desugared`` when exactly ``names`` are desugared."""
    return {f"test_desugared[{name}]": "PASSED" for name in names}


def unsugar_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("unsugar:")]


def line_of(path: Path, text: str) -> int:
    """The number of the line of ``path`` that holds ``text``."""
    (number,) = [n for n, line in enumerate(path.read_text().splitlines(), 1) if text in line]
    return number


# ------------------------------------------------------------------ the runs
def test_the_package_is_desugared_and_its_tests_pass(shared: Path) -> None:
    result = run_pytest(shared, "--unsugar")
    assert result.returncode == 0, result.stdout + result.stderr
    names = module_names(shared)
    got = outcomes(result)
    assert {test: got[test] for test in desugared(names)} == desugared(names)
    assert set(got.values()) == {"PASSED"} and len(got) > len(names)
    assert unsugar_lines(result.stdout) == [
        f"unsugar: desugaring mini ({len(names)} modules)",
        f"unsugar: {len(names)} modules desugared",
    ]
    header = result.stdout.split("\ncollected")[0]
    assert header.splitlines()[-1] == f"unsugar: desugaring mini ({len(names)} modules)"


def test_the_readme_shows_a_real_run(shared: Path) -> None:
    """The README's example is the output of a run on the sample project (but for the
    versions, the directory and the time)."""
    readme = (HERE.parent / "README.md").read_text()
    block = readme.split("<!-- pytest-unsugar:begin -->\n```\n$ pytest --unsugar\n")[1]
    block = block.split("```\n<!-- pytest-unsugar:end -->")[0]
    result = run_pytest(shared, "--unsugar", "-rN")
    volatile = ("platform ", "rootdir: ", "=")
    assert [line for line in result.stdout.splitlines() if not line.startswith(volatile)] \
        == [line for line in block.splitlines() if not line.startswith(volatile)]


def test_without_the_option_the_plugin_does_nothing(shared: Path) -> None:
    result = run_pytest(shared)
    assert result.returncode == 1
    assert "unsugar" not in result.stdout + result.stderr
    got = outcomes(result)
    assert {test for test, outcome in got.items() if outcome != "PASSED"} == set(
        desugared(module_names(shared))
    )


def test_the_package_desugars_to_core() -> None:
    """What the runs import is core syntax (the hook compiles the same tree)."""
    for path in sorted((MINI / "src").rglob("*.py")):
        assert check_source(desugar(path.read_text(), filename=str(path))) == [], path


@pytest.fixture(scope="module")
def failing_run(shared: Path) -> subprocess.CompletedProcess[str]:
    """The project's failing tests (``failing/``, outside its ``testpaths``), desugared."""
    return run_pytest(shared, "failing", "--unsugar")


def test_a_failing_assert_is_explained_by_pytest(
    failing_run: subprocess.CompletedProcess[str],
) -> None:
    assert failing_run.returncode == 1
    assert outcomes(failing_run) == {"test_total": "FAILED", "test_mean_of_nothing": "FAILED"}
    assert "\nE       assert 3 == 4\n" in failing_run.stdout
    assert "\nE        +  where 3 = <function total at 0x" in failing_run.stdout
    assert "E       AssertionError" not in failing_run.stdout


def test_a_traceback_shows_the_packages_original_line(
    failing_run: subprocess.CompletedProcess[str],
) -> None:
    stats = MINI / "src" / "mini" / "stats.py"
    line = line_of(stats, 'raise ValueError("mean of no values")')
    assert '\n>           raise ValueError("mean of no values")\n' in failing_run.stdout
    assert f"\nsrc/mini/stats.py:{line}: ValueError\n" in failing_run.stdout


EXTRA = "def evens(values):\n    return [value for value in values if value % 2 == 0]\n"


@pytest.mark.parametrize(("option", "packages", "names"), [
    ("--unsugar", "extra, mini", ["extra", "mini", "mini.shapes", "mini.stats"]),
    ("--unsugar=mini", "mini", ["mini", "mini.shapes", "mini.stats"]),
    ("--unsugar=extra,mini.stats", "extra, mini.stats", ["extra", "mini.stats"]),
])
def test_the_packages_named_are_the_scope(
    project: Path, option: str, packages: str, names: list[str]
) -> None:
    """By default every top-level package and module of ``src/``; else those named."""
    (project / "src" / "extra.py").write_text(EXTRA)
    result = run_pytest(project, option)
    got = outcomes(result)
    assert {test: outcome for test, outcome in got.items() if test.startswith("test_desugared")} \
        == {f"test_desugared[{name}]": "PASSED" if name in names else "FAILED"
            for name in module_names(project)}
    assert f"unsugar: desugaring {packages} ({len(names)} modules)" in result.stdout
    assert f"unsugar: {len(names)} modules desugared" in result.stdout


DEEP = 20  # nested for loops in a generator: CPython compiles it, its output nests too deep


def deep_module() -> str:
    lines = ["def walk(grid):"]
    lines += ["    " * (k + 1) + f"for i{k} in grid:" for k in range(DEEP)]
    lines += ["    " * (DEEP + 1) + "if i0:", "    " * (DEEP + 2) + "yield i0"]
    return "\n".join(lines) + "\n"


def test_the_deep_module_cannot_be_desugared(tmp_path: Path) -> None:
    """The premise of the next test: a module CPython compiles and unsugar cannot."""
    compile(deep_module(), "deep.py", "exec")
    with pytest.raises(ImportError, match="too many statically nested blocks"):
        runner.compile_source(deep_module().encode(), str(tmp_path / "deep.py"),
                              runner.Options(cache=False))


@pytest.mark.parametrize(("test_file", "status", "outcome"), [
    ("from mini import deep\n\n\ndef test_deep():\n    assert deep\n", 2, {}),
    # an import error the tests handle still fails the run
    ("try:\n    from mini import deep\nexcept ImportError:\n    deep = None\n\n\n"
     "def test_deep():\n    assert deep is None\n", 1, {"test_deep": "PASSED"}),
])
def test_a_module_that_cannot_be_desugared_is_an_error(
    project: Path, test_file: str, status: int, outcome: dict[str, str]
) -> None:
    (project / "src" / "mini" / "deep.py").write_text(deep_module())
    (project / "tests" / "test_deep.py").write_text(test_file)
    result = run_pytest(project, "tests/test_deep.py", "--unsugar")
    assert result.returncode == status
    assert outcomes(result) == outcome or outcomes(result) == {"tests/test_deep.py": "ERROR"}
    assert (f"unsugar: error: cannot desugar src/mini/deep.py: SyntaxError: too many "
            f"statically nested blocks (line {DEEP + 1})") in result.stdout


LOOSE = """\
import importlib.util
import sys
from pathlib import Path

FILE = Path(__file__).resolve().parent.parent / "src" / "mini" / "loose.py"


def test_loose():
    spec = importlib.util.spec_from_file_location("mini.loose", FILE)
    sys.modules["mini.loose"] = module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.loose() == 1
"""


def test_a_module_imported_around_the_hook_is_an_error(project: Path) -> None:
    """A module in scope imported without the hook (here from its file) fails the run."""
    (project / "src" / "mini" / "loose.py").write_text("def loose():\n    return 1\n")
    (project / "tests" / "test_loose.py").write_text(LOOSE)
    result = run_pytest(project, "tests/test_loose.py", "--unsugar")
    assert result.returncode == 1
    assert outcomes(result) == {"test_loose": "PASSED"}
    assert "unsugar: error: src/mini/loose.py (mini.loose) was imported without being " \
        "desugared" in result.stdout


ALIAS = """
import importlib, importlib.machinery, sys, types

import mini.shapes


class AliasLoader:
    \"\"\"As ``toolz``'s ``tlz`` does: a module of its own, the names of another copied in.\"\"\"

    def create_module(self, spec):
        return types.ModuleType(spec.name)

    def exec_module(self, module):
        module.__dict__.update({**vars(mini.shapes), **vars(module)})  # its own loader kept
        module.__file__ = mini.shapes.__file__


def test_alias():
    spec = importlib.machinery.ModuleSpec("mini.alias", AliasLoader())
    sys.modules["mini.alias"] = module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.__file__.endswith("shapes.py") and module.Square is mini.shapes.Square
"""


#: registers a module of another package under a name in the package, as
#: ``requests.packages`` registers ``urllib3`` as ``requests.packages.urllib3``
REGISTERED = """
import json
import sys

import mini.shapes


def test_registered():
    sys.modules["mini.vendored_json"] = json
    assert sys.modules["mini.vendored_json"].dumps([1]) == "[1]"
"""


@pytest.mark.parametrize(("name", "source"), [("alias", ALIAS), ("registered", REGISTERED)])
def test_a_module_that_ran_no_file_in_scope_is_not_an_error(project: Path, name: str, source: str) -> None:
    """A module another loader made, naming a file in scope but running none of
    it (``alias``), or one registered under a second name (``registered``)."""
    (project / "tests" / f"test_{name}.py").write_text(source)
    result = run_pytest(project, f"tests/test_{name}.py", "--unsugar")
    assert result.returncode == 0, result.stdout
    assert outcomes(result) == {f"test_{name}": "PASSED"}
    assert "without being desugared" not in result.stdout


#: runs ``mini/shapes.py`` again as ``mini.alias.shapes``, as toolz's ``tlz``
#: package does (its modules take the ``__path__`` of toolz's)
TWICE = """
import importlib
import sys
import types

import mini.shapes


def test_twice():
    alias = types.ModuleType("mini.alias")
    alias.__path__ = list(mini.__path__)
    sys.modules["mini.alias"] = alias
    again = importlib.import_module("mini.alias.shapes")
    assert again.Square is not mini.shapes.Square
"""


def test_a_file_run_under_two_names_is_counted_once(project: Path) -> None:
    (project / "tests" / "test_twice.py").write_text(TWICE)
    result = run_pytest(project, "tests/test_twice.py", "--unsugar")
    assert result.returncode == 0, result.stdout
    assert "unsugar: 4 modules desugared (from 3 files)" in result.stdout, result.stdout


def test_a_package_imported_before_the_hook_is_an_error(shared: Path) -> None:
    result = run_pytest(shared, "-p", "mini", "--unsugar", path=(str(shared / "src"),))
    assert result.returncode == 4
    assert "ERROR: unsugar: mini, mini.shapes, mini.stats imported before --unsugar could " \
        "desugar them (by a plugin, or by a warning category that the filterwarnings setting " \
        "names?)" in result.stderr


def test_a_package_pytest_imports_itself_is_named_with_the_way_around() -> None:
    """pytest imports pygments as it starts: only a desugared copy can be tested."""
    from unsugar.pytest_plugin import imported_early

    message = imported_early(["pygments", "pygments.lexer"])
    assert message.startswith("unsugar: pygments, pygments.lexer imported before --unsugar could desugar them")
    assert message.endswith("; pytest imports pygments itself, before any plugin: desugar it with the "
                            "command line (unsugar PACKAGE -o OUT) and run the tests on that copy")
    assert "pytest imports" not in imported_early(["mini"])


def test_a_package_pytest_would_rewrite_is_desugared(project: Path) -> None:
    """A conftest marks the package for assertion rewriting: it is desugared all the same."""
    conftest = project / "tests" / "conftest.py"
    conftest.write_text('import pytest\n\npytest.register_assert_rewrite("mini")\n'
                        + conftest.read_text())
    result = run_pytest(project, "--unsugar")
    assert result.returncode == 0, result.stdout
    assert set(outcomes(result).values()) == {"PASSED"}


def test_keep_and_semantics(shared: Path) -> None:
    kept = run_pytest(shared, "--unsugar-keep", "for", "--unsugar")
    assert "unsugar: desugaring mini (3 modules; keeping for)" in kept.stdout
    assert outcomes(kept)["test_desugared[mini.stats]"] == "FAILED"
    assert "assert {'FOR_ITER'} == set()" in kept.stdout  # its for loops kept, nothing else
    native = run_pytest(shared, "--unsugar-semantics=native", "--unsugar")
    assert native.returncode == 0, native.stdout
    assert "unsugar: desugaring mini (3 modules; native semantics)" in native.stdout


def test_tool_unsugar_exclude_leaves_files_as_they_are(project: Path) -> None:
    """A module whose file ``[tool.unsugar] exclude`` names is imported as it
    is, neither counted nor reported as imported without being desugared."""
    pyproject = project / "pyproject.toml"
    pyproject.write_text(pyproject.read_text() + '[tool.unsugar]\nexclude = ["src/mini/st*.py"]\n')
    result = run_pytest(project, "--unsugar")
    assert "unsugar: desugaring mini (2 modules)" in result.stdout, result.stdout
    assert outcomes(result)["test_desugared[mini.stats]"] == "FAILED"  # left as it is
    assert outcomes(result)["test_desugared[mini.shapes]"] == "PASSED"
    assert "without being desugared" not in result.stdout
    assert result.returncode == 1  # the one failure: mini.stats's own test


def test_tool_unsugar_settings_under_the_command_line(project: Path) -> None:
    """``[tool.unsugar]`` gives the packages (``include``), ``keep``,
    ``semantics`` and ``runtime``; the command line overrides it."""
    pyproject = project / "pyproject.toml"
    pyproject.write_text(pyproject.read_text() + (
        '[tool.unsugar]\ninclude = ["mini.stats"]\nkeep = ["for"]\nsemantics = "native"\n'
        'runtime = "import"\n'
    ))
    configured = run_pytest(project, "--unsugar")
    assert "unsugar: desugaring mini.stats (1 module; native semantics; keeping for; " \
        "runtime import)" in configured.stdout
    assert outcomes(configured)["test_desugared[mini.stats]"] == "FAILED"  # its loops kept
    assert outcomes(configured)["test_desugared[mini.shapes]"] == "FAILED"  # not in scope
    given = run_pytest(project, "--unsugar=mini", "--unsugar-keep=if", "--unsugar-semantics=python")
    assert "unsugar: desugaring mini (3 modules; keeping if; runtime import)" in given.stdout
    assert outcomes(given)["test_desugared[mini.stats]"] == "PASSED"
    pyproject.write_text(pyproject.read_text() + "jobs = 0\n")
    broken = run_pytest(project, "--unsugar")
    assert broken.returncode == 4
    assert "unsugar: pyproject.toml: [tool.unsugar] jobs: expected a positive integer, got 0" \
        in broken.stderr


def test_the_cache_is_used(project: Path) -> None:
    run_pytest(project, "--unsugar")
    cached = {path: path.stat().st_mtime_ns for path in (project.parent / "cache").glob("*.code")}
    assert len(cached) == len(module_names(project))
    assert run_pytest(project, "--unsugar").returncode == 0
    assert {path: path.stat().st_mtime_ns
            for path in (project.parent / "cache").glob("*.code")} == cached


@pytest.mark.parametrize(("args", "message"), [
    (("--unsugar", "tests/test_mini.py"),
     "--unsugar=tests/test_mini.py: tests/test_mini.py is not a package name"),
    (("--unsugar", "tests"), "tests holds no module to desugar"),
    # (paramiko's python_files is ``*``)
    (("--unsugar=mini", "-o", "python_files=*"),
     "every module of mini is a test file by pytest's python_files (*), which are never desugared"),
    (("--unsugar=nosuch",), "cannot find nosuch: not importable, nor in "),
    (("--unsugar-keep=for,nosuch", "--unsugar"), "--unsugar-keep: unknown rule(s): nosuch"),
])
def test_usage_errors(shared: Path, args: tuple[str, ...], message: str) -> None:
    result = run_pytest(shared, *args)
    assert result.returncode == 4
    assert f"ERROR: unsugar: {message}" in result.stderr


def test_a_directory_of_tests_with_helpers_is_not_taken_for_the_packages(project: Path) -> None:
    """``pytest --unsugar tests`` reads ``tests`` as the packages: where it holds
    helper modules beside the tests, that is an error too, not a run that
    desugars the helpers and tests nothing of the project's."""
    (project / "tests" / "__init__.py").write_text("")
    (project / "tests" / "helpers.py").write_text("VALUE = 1\n")
    result = run_pytest(project, "--unsugar", "tests")
    assert result.returncode == 4
    assert "ERROR: unsugar: tests is a directory of tests: its helpers would be desugared" in result.stderr


FORGETFUL = """
import dis
import importlib
import sys

from test_desugared import SUGAR, codes


def test_modules_imported_by_a_nested_run_are_forgotten_after_it():
    before = set(sys.modules)
    importlib.import_module("mini.extra")  # the first module not in the cache: the compiler is imported
    for name in set(sys.modules) - before:  # pytester's nested runs put sys.modules back so
        del sys.modules[name]
    extra = importlib.import_module("mini.extra2")
    assert extra.total([1, 2]) == 3
    assert {op.opname for code in codes(extra) for op in dis.get_instructions(code)} & SUGAR == set()
"""


def test_the_compiler_survives_a_test_that_forgets_the_modules_it_imported(project: Path) -> None:
    """pytester's nested runs take the modules they imported out of ``sys.modules``
    again: the compiler, imported there on the first module the cache lacks,
    must still desugar the next one whole (not with a registry of no rules)."""
    assert run_pytest(project, "--unsugar").returncode == 0  # every module of mini cached
    extra = "from __future__ import annotations\n\ndef total(values: list[int]) -> int:\n" \
        "    result = 0\n    for value in values:\n        result += value\n    return result\n"
    (project / "src" / "mini" / "extra.py").write_text(extra)
    (project / "src" / "mini" / "extra2.py").write_text(extra)
    (project / "tests" / "test_forgetful.py").write_text(FORGETFUL)
    result = run_pytest(project, "tests/test_forgetful.py", "--unsugar")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "1 passed" in result.stdout


def test_the_entry_point_loads_the_plugin(shared: Path, tmp_path: Path) -> None:
    """pyproject.toml's ``pytest11`` entry point, installed (as a distribution's
    metadata on the path), loads the plugin: no ``-p`` needed."""
    points = tomllib.loads((HERE.parent / "pyproject.toml").read_text())["project"][
        "entry-points"]["pytest11"]
    assert points == {"unsugar": "unsugar.pytest_plugin"}
    info = tmp_path / "site" / "unsugar_plugin_check-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: unsugar-plugin-check\n"
                                   "Version: 1.0\n")
    (info / "entry_points.txt").write_text(
        "[pytest11]\n" + "".join(f"{name} = {value}\n" for name, value in points.items())
    )
    result = run_pytest(shared, "--unsugar", plugin=False, path=(str(info.parent),))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "unsugar: desugaring mini (3 modules)" in result.stdout
    plain = run_pytest(shared, "-k", "not desugared", plugin=False, path=(str(info.parent),))
    assert plain.returncode == 0 and unsugar_lines(plain.stdout) == []


# ------------------------------------------------------------- in-process
def test_default_packages_of_a_src_layout(tmp_path: Path) -> None:
    src = tmp_path / "src"
    for package in ("beta", "alpha", "tests", "no_init", ".hidden", "alpha.egg-info"):
        (src / package).mkdir(parents=True)
    for init in ("beta", "alpha", "tests", ".hidden"):
        (src / init / "__init__.py").write_text("")
    for module in ("single.py", "conftest.py", "test_single.py", "single_test.py", "not-a-name.py"):
        (src / module).write_text("")
    (tmp_path / "rootpkg").mkdir()
    (tmp_path / "rootpkg" / "__init__.py").write_text("")
    assert default_packages(tmp_path, PYTHON_FILES) == ("alpha", "beta", "single")


def test_default_packages_of_a_flat_layout(tmp_path: Path) -> None:
    for package in ("mypkg", "docs", "tests", "build", "examples", "scripts"):
        (tmp_path / package).mkdir()
        (tmp_path / package / "__init__.py").write_text("")
    (tmp_path / "setup.py").write_text("")
    (tmp_path / "tool.py").write_text("")
    assert default_packages(tmp_path, PYTHON_FILES) == ("mypkg", "scripts")
    assert default_packages(tmp_path / "docs", PYTHON_FILES) == ()


@pytest.mark.parametrize(("path", "test_file"), [
    ("/p/src/pkg/conftest.py", True),
    ("/p/src/pkg/test_core.py", True),
    ("/p/src/pkg/core_test.py", True),
    ("/p/src/pkg/core.py", False),
    ("/p/src/pkg/testing.py", False),
])
def test_test_files_are_pytests(path: str, test_file: bool) -> None:
    assert is_test_file(path, PYTHON_FILES) is test_file
    assert is_test_file(path, ["check_*.py"]) is (test_file and path.endswith("conftest.py"))
    assert is_test_file(path, ["pkg/core*.py"]) is (
        test_file and path.endswith("conftest.py") or "/core" in path
    )
