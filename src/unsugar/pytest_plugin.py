"""``pytest --unsugar``: run a project's tests against its desugared packages.

Registered as the ``pytest11`` entry point ``unsugar``; nothing happens
unless ``--unsugar`` is given. Then, before the first ``conftest.py`` is
loaded, the import hook of :mod:`unsugar.runner` is installed for the
project's packages: those named (``--unsugar=PKG,...``), by default the
top-level packages of ``<rootdir>/src`` (and its modules), else of the
rootdir (:func:`default_packages`). Test files and ``conftest.py`` are never
desugared: they stay pytest's, so its assertion rewriting still explains a
failing ``assert``. The compiled code is cached as ``unsugar run`` caches it,
and it keeps the original positions, so tracebacks show the package's own
lines.

The header names what is desugared (``unsugar: desugaring mini (3 modules)``:
the files in scope) and the summary how many modules were (and from how many
files, when a file ran under two names). A module that could not be desugared,
or a module in scope that was imported without being desugared, is an error
naming its file, and the run fails; a package already imported before the
hook (by a plugin) is a usage error.
"""

from __future__ import annotations

import fnmatch
import keyword
import os
import re
import sys
import types
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from importlib.machinery import ModuleSpec, SourceFileLoader
from pathlib import Path
from typing import Any, cast

import pytest
from _pytest.assertion.rewrite import AssertionRewritingHook

from unsugar import runner
from unsugar.config import ConfigError, Settings, load_settings
from unsugar.options import SEMANTICS, UnknownRuleError, check_keep, comma_list

#: top-level directories of a project that are not its packages
NOT_PACKAGES = frozenset({
    "test", "tests", "testing", "doc", "docs", "example", "examples", "benchmark", "benchmarks",
    "build", "dist",
})


def pytest_addoption(parser: pytest.Parser) -> None:
    """``--unsugar[=PKG,...]``, ``--unsugar-keep RULE,...`` and ``--unsugar-semantics``."""
    group = parser.getgroup("unsugar", "desugaring the project's packages (unsugar)")
    group.addoption(
        "--unsugar", nargs="?", const="", default=None, metavar="PKG,...",
        help="run the tests against the desugared packages: those named (write "
        "--unsugar=PKG,...), by default the top-level packages of src/, else of the rootdir",
    )
    group.addoption("--unsugar-keep", action="append", default=[], metavar="RULE,...",
                    help="keep the sugar of these rules (see 'unsugar rules')")
    group.addoption("--unsugar-semantics", choices=SEMANTICS, default=None,
                    help="python: the runtime's helpers (default); native: the interpreter's "
                    "own operators")


@pytest.hookimpl(tryfirst=True)
def pytest_load_initial_conftests(early_config: pytest.Config) -> None:
    """With ``--unsugar``, install the hook before the first conftest imports the package."""
    plan = make_plan(early_config)
    if plan is not None:
        early_config.pluginmanager.register(Desugaring(early_config, plan), "unsugar-desugaring")


# ------------------------------------------------------------------ the plan
@dataclass(frozen=True)
class Plan:
    """What ``--unsugar`` desugars (dotted names, less the files ``[tool.unsugar]
    exclude`` names: ``settings``), and how."""

    packages: tuple[str, ...]
    keep: tuple[str, ...] = ()
    semantics: str = "python"
    runtime: str = "inline"
    settings: Settings = Settings()

    def excludes(self, file: str | os.PathLike[str]) -> bool:
        """Whether the settings exclude module file ``file``."""
        return self.settings.excludes_import(file)


def make_plan(config: pytest.Config) -> Plan | None:
    """The packages and options of ``--unsugar``, or None when it is not given.

    Read from the options pytest has parsed before the first conftest, over
    the ``[tool.unsugar]`` settings found from the rootdir (``include``,
    ``keep``, ``semantics``, ``runtime``, ``exclude``); raises :class:`pytest.UsageError`
    for an unknown rule, a value that is not a package name, a project
    without a package, or settings that cannot be used.
    """
    args = config.known_args_namespace
    if args.unsugar is None:
        return None
    keep = comma_list(args.unsugar_keep)
    try:
        check_keep(keep)
    except UnknownRuleError as exc:
        raise pytest.UsageError(f"unsugar: --unsugar-keep: {exc}; see 'unsugar rules'") from None
    try:
        settings = load_settings([config.rootpath]).override(
            keep=keep or None, semantics=args.unsugar_semantics,
        )
    except ConfigError as exc:
        raise pytest.UsageError(f"unsugar: {exc}") from None
    packages = comma_list([args.unsugar])
    wrong = [name for name in packages if not is_module_name(name)]
    if wrong:
        raise pytest.UsageError(
            f"unsugar: --unsugar={args.unsugar}: {', '.join(wrong)} is not a package name "
            "(write --unsugar=PKG,..., or the test paths before --unsugar)"
        )
    if not packages:
        packages = settings.include or default_packages(config.rootpath, config.getini("python_files"))
    if not packages:
        raise pytest.UsageError(
            f"unsugar: no package found in {project_base(config.rootpath)}; "
            "name them: --unsugar=PKG,..."
        )
    return Plan(packages, settings.keep, settings.semantics, settings.runtime, settings)


def is_module_name(text: str) -> bool:
    """Whether ``text`` is a dotted module name (``pkg``, ``pkg.sub``)."""
    return all(part.isidentifier() and not keyword.iskeyword(part) for part in text.split("."))


def project_base(root: Path) -> Path:
    """Where the project's packages are: ``root/src`` if it is a directory, else ``root``."""
    return root / "src" if (root / "src").is_dir() else root


def default_packages(root: Path, test_files: Sequence[str]) -> tuple[str, ...]:
    """The project's own top-level packages (directories with an ``__init__.py``) in
    :func:`project_base`, and under ``src/`` its top-level modules too; never test files,
    ``conftest.py``, nor the directories of :data:`NOT_PACKAGES`."""
    base = project_base(root)
    names = []
    for entry in sorted(base.iterdir()):
        if entry.is_dir():
            if (
                is_module_name(entry.name) and entry.name not in NOT_PACKAGES
                and (entry / "__init__.py").is_file()
            ):
                names.append(entry.name)
        elif (
            base != root and entry.suffix == ".py" and is_module_name(entry.stem)
            and not is_test_file(str(entry), test_files)
        ):
            names.append(entry.stem)
    return tuple(names)


def is_test_file(path: str, test_files: Sequence[str]) -> bool:
    """Whether pytest takes the file ``path`` for a ``conftest.py`` or a test module (one of
    the ``python_files`` patterns, matched as pytest matches them)."""
    name = os.path.basename(path)
    if name == "conftest.py":
        return True
    for pattern in test_files:
        if os.sep not in pattern and "/" not in pattern:
            if fnmatch.fnmatch(name, pattern):
                return True
        elif fnmatch.fnmatch(path, pattern if os.path.isabs(pattern) else f"*{os.sep}{pattern}"):
            return True
    return False


def module_files(name: str, base: Path, test_files: Sequence[str]) -> list[Path] | None:
    """The ``.py`` files of module or package ``name`` (test files left out): where the
    import system finds it now (nothing is imported), else under ``base``; None if neither
    has it."""
    spec = find_spec(name)
    if spec is not None and spec.submodule_search_locations:
        roots = [Path(location) for location in spec.submodule_search_locations]
    elif spec is not None:
        origin = spec.origin or ""
        return [Path(origin)] if origin.endswith(".py") else []
    elif base.joinpath(*name.split(".")).is_dir():
        roots = [base.joinpath(*name.split("."))]
    elif base.joinpath(*name.split(".")).with_suffix(".py").is_file():
        return [base.joinpath(*name.split(".")).with_suffix(".py")]
    else:
        return None
    files = []
    for root in roots:
        for directory, dirs, names in os.walk(root):
            dirs[:] = sorted(d for d in dirs if is_module_name(d))
            files.extend(
                Path(directory, file) for file in sorted(names)
                if file.endswith(".py") and not is_test_file(os.path.join(directory, file), test_files)
            )
    return files


def find_spec(name: str) -> ModuleSpec | None:
    """The spec the meta path finders (not unsugar's) give module ``name``, a package after
    a package, without importing any."""
    spec = None
    path = None
    parts = name.split(".")
    for index in range(len(parts)):
        if index and not path:
            return None
        fullname = ".".join(parts[:index + 1])
        spec = next((
            found for finder in sys.meta_path
            if not isinstance(finder, runner.DesugaringFinder) and hasattr(finder, "find_spec")
            and (found := finder.find_spec(fullname, path)) is not None
        ), None)
        if spec is None:
            return None
        path = spec.submodule_search_locations
    return spec


def _within(name: str, packages: Iterable[str]) -> bool:
    return any(name == package or name.startswith(package + ".") for package in packages)


# ------------------------------------------------------------------ the hook
class PytestFinder(runner.DesugaringFinder):
    """The import hook of ``pytest --unsugar``.

    It never takes a test file or a ``conftest.py`` (they stay pytest's, with its
    assertion rewriting), but takes the package's other modules even where pytest
    would rewrite them (a module marked with ``register_assert_rewrite``, a package
    that is itself a pytest plugin); it records what it desugared and what failed.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.test_files: tuple[str, ...] = ()  # pytest's ``python_files``
        self.desugared: dict[str, str] = {}  # module name: file
        self.failures: dict[str, str] = {}  # file: why it was not desugared

    def in_scope(self, fullname: str, origin: str) -> bool:
        return not is_test_file(origin, self.test_files) and super().in_scope(fullname, origin)

    def find_spec(
        self, fullname: str, path: Sequence[str] | None = None,
        target: types.ModuleType | None = None,
    ) -> ModuleSpec | None:
        spec = super().find_spec(fullname, path, target)
        if spec is not None:
            spec.loader = RecordingLoader(fullname, str(spec.origin), self)
        return spec

    def _other_spec(
        self, fullname: str, path: Sequence[str] | None, target: types.ModuleType | None
    ) -> ModuleSpec | None:
        spec = super()._other_spec(fullname, path, target)
        if (
            spec is not None and isinstance(spec.loader, AssertionRewritingHook)
            and spec.origin and not is_test_file(spec.origin, self.test_files)
        ):
            spec.loader = SourceFileLoader(fullname, spec.origin)
        return spec


class RecordingLoader(runner.DesugaringLoader):
    """A desugaring loader that tells its finder what it desugared and what it could not."""

    def __init__(self, fullname: str, path: str, finder: PytestFinder) -> None:
        super().__init__(fullname, path, finder.options)
        self.finder = finder

    def get_code(self, fullname: str) -> types.CodeType:
        __tracebackhide__ = True  # (pytest leaves this frame out of tracebacks)
        try:
            code = super().get_code(fullname)
        except Exception as exc:
            self.finder.failures[self.path] = _reason(exc)
            if isinstance(exc.__cause__ or exc, SyntaxError):  # CPython's message says it all:
                exc.with_traceback(None)  # no frames of unsugar's compiler
                if exc.__cause__ is not None:
                    exc.__cause__.with_traceback(None)
            raise
        self.finder.desugared[fullname] = self.path
        return code


def imported_early(imported: list[str]) -> str:
    """The error for the modules in scope ``imported`` before the hook: a
    plugin's doing, or pytest's own, for a package pytest requires (it imports
    pygments at start), which only a desugared copy can test."""
    message = (f"unsugar: {', '.join(imported)} imported before --unsugar could desugar "
               f"{'it' if len(imported) == 1 else 'them'} (by a plugin, or by a warning category that "
               "the filterwarnings setting names?): the tests would run plain code")
    own = sorted({name.partition(".")[0] for name in imported} & _pytest_requirements())
    if own:
        message += (f"; pytest imports {', '.join(own)} itself, before any plugin: desugar "
                    f"{'it' if len(own) == 1 else 'them'} with the command line "
                    "(unsugar PACKAGE -o OUT) and run the tests on that copy")
    return message


def _pytest_requirements() -> set[str]:
    """The import names of what pytest requires (its distribution's ``Requires-Dist``)."""
    from importlib.metadata import PackageNotFoundError, requires

    try:
        requirements = requires("pytest") or []
    except PackageNotFoundError:
        return set()
    names = (requirement.split(";")[0].strip() for requirement in requirements if "extra ==" not in requirement)
    return {re.match(r"[A-Za-z0-9_.-]*", name).group().lower().replace("-", "_") for name in names}


def _reason(exc: Exception) -> str:
    """Why a module was not desugared, in one line (for unsugar's own failure, an
    :class:`ImportError`, what caused it)."""
    error = exc.__cause__ if isinstance(exc, ImportError) and exc.__cause__ else exc
    if isinstance(error, SyntaxError):
        return f"SyntaxError: {error.msg} (line {error.lineno})"
    return f"{type(error).__name__}: {error}"


# ------------------------------------------------------------------- the run
class Desugaring:
    """One ``pytest --unsugar`` run: registered as a plugin only then."""

    def __init__(self, config: pytest.Config, plan: Plan) -> None:
        imported = sorted(name for name in sys.modules if _within(name, plan.packages))
        if imported:
            raise pytest.UsageError(imported_early(imported))
        runner.load_compiler()  # (pytester's nested runs forget what they import)
        self.plan = plan
        self.root = config.rootpath
        self.test_files = tuple(config.getini("python_files"))
        self.finder = cast(PytestFinder, runner.install(
            plan.packages, keep=plan.keep, semantics=plan.semantics, runtime=plan.runtime,
            finder_type=PytestFinder, excluded_file=plan.excludes if plan.settings.exclude else None,
        ))
        self.finder.test_files = self.test_files
        self.modules = 0
        self.errors: list[str] = []

    def pytest_configure(self) -> None:
        """Count the modules in scope (now that the conftests have set ``sys.path``)."""
        base = project_base(self.root)
        files: set[Path] = set()
        for name in self.plan.packages:
            found = module_files(name, base, self.test_files)
            if found is None:
                raise pytest.UsageError(f"unsugar: cannot find {name}: not importable, "
                                        f"nor in {base}")
            if not found and name not in NOT_PACKAGES and module_files(name, base, ()):
                raise pytest.UsageError(
                    f"unsugar: every module of {name} is a test file by pytest's python_files "
                    f"({' '.join(self.test_files)}), which are never desugared: narrow it "
                    "(-o python_files=...)")
            if not found:
                raise pytest.UsageError(
                    f"unsugar: {name} holds no module to desugar (to test a directory, "
                    "write it before --unsugar, or write --unsugar=PKG)"
                )
            if name in NOT_PACKAGES and any(is_test_file(str(path), self.test_files)
                                            for folder in {file.parent for file in found}
                                            for path in folder.glob("*.py")):
                raise pytest.UsageError(
                    f"unsugar: {name} is a directory of tests: its helpers would be desugared, "
                    "not the project's packages (to test a directory, write it before --unsugar, "
                    "or write --unsugar=PKG)"
                )
            files.update(file for file in found if not self.plan.excludes(file))
        self.modules = len(files)

    @pytest.hookimpl(tryfirst=True)  # (pytest prints the first hook's lines last: after rootdir)
    def pytest_report_header(self) -> str:
        details = [_count(self.modules, "module")]
        if self.plan.semantics != "python":
            details.append(f"{self.plan.semantics} semantics")
        if self.plan.keep:
            details.append(f"keeping {', '.join(self.plan.keep)}")
        if self.plan.runtime != "inline":
            details.append(f"runtime {self.plan.runtime}")
        return f"unsugar: desugaring {', '.join(self.plan.packages)} ({'; '.join(details)})"

    @pytest.hookimpl(tryfirst=True)
    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        """A module not desugared is an error: the run fails."""
        self.errors = [
            f"cannot desugar {self._show(file)}: {why}"
            for file, why in self.finder.failures.items()
        ] + [
            f"{self._show(file)} ({name}) was imported without being desugared"
            for name, file in self.plain_modules()
        ]
        if self.errors and session.exitstatus == pytest.ExitCode.OK:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED

    def pytest_terminal_summary(self, terminalreporter: pytest.TerminalReporter) -> None:
        line = f"unsugar: {_count(len(self.finder.desugared), 'module')} desugared"
        files = len(set(self.finder.desugared.values()))
        if files != len(self.finder.desugared):  # a file run under two names (toolz's tlz)
            line += f" (from {_count(files, 'file')})"
        terminalreporter.write_line(line)
        for error in self.errors:
            terminalreporter.write_line(f"unsugar: error: {error}", red=True)

    def pytest_unconfigure(self) -> None:
        runner.uninstall(self.finder)

    def plain_modules(self) -> Iterator[tuple[str, str]]:
        """The modules in scope, loaded from ``.py`` files but not test files, that were
        imported but not desugared: (name, file). A module whose spec has no location
        ran no file, whatever its ``__file__`` says (``toolz``'s ``tlz`` makes such
        modules: each an alias of a ``toolz`` module, its names copied); one
        registered under a second name is the module of its own name
        (``requests.packages.urllib3`` is ``urllib3``)."""
        for name, module in list(sys.modules.items()):
            spec = getattr(module, "__spec__", None)
            file = spec.origin if getattr(spec, "has_location", False) else None
            if (
                _within(name, self.plan.packages) and getattr(spec, "name", name) == name
                and isinstance(file, str)
                and file.endswith(".py") and not is_test_file(file, self.test_files)
                and not isinstance(getattr(module, "__loader__", None), runner.DesugaringLoader)
                and not self.plan.excludes(file)
            ):
                yield name, file

    def _show(self, file: str) -> str:
        """``file`` relative to the rootdir when it is inside."""
        path = Path(file)
        return str(path.relative_to(self.root)) if path.is_relative_to(self.root) else file


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"
