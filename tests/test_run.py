"""``unsugar run`` and the import hook: programs run as ``python`` runs them.

The programs of ``tests/programs/shop`` run with plain ``python`` and with
``unsugar run``; stdout, stderr (tracebacks included) and the exit code must
be identical. In-process tests cover :func:`unsugar.runner.install`, the
positions of the compiled code and the cache.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import linecache
import marshal
import os
import shutil
import subprocess
import sys
import sysconfig
import traceback
import types
from pathlib import Path

import pytest

from unsugar import pipeline, runner, store
from unsugar.runner import DesugaringLoader, Options, compile_source, install, uninstall

SHOP = Path(__file__).resolve().parent / "programs" / "shop"


# ------------------------------------------------------------ subprocesses
@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    """The environment of a run: its own cache, no ``__pycache__`` in the tree."""
    return {**os.environ, "UNSUGAR_CACHE_DIR": str(tmp_path / "cache"),
            "PYTHONDONTWRITEBYTECODE": "1"}


def run(argv: list[str], env: dict[str, str], cwd: Path = SHOP) -> subprocess.CompletedProcess:
    return subprocess.run(argv, capture_output=True, text=True, cwd=cwd, env=env, timeout=120)


def unsugar_run(*args: str, env: dict[str, str], cwd: Path = SHOP) -> subprocess.CompletedProcess:
    return run([sys.executable, "-m", "unsugar", "run", *args], env, cwd)


def assert_same_run(
    python_args: list[str], env: dict[str, str], cwd: Path = SHOP, options: tuple[str, ...] = ()
) -> str:
    """``python ARGS`` and ``unsugar run OPTIONS ARGS`` print the same and exit the same;
    the stdout."""
    expected = run([sys.executable, *python_args], env, cwd)
    actual = unsugar_run(*options, *python_args, env=env, cwd=cwd)
    assert (actual.stdout, actual.stderr, actual.returncode) == (
        expected.stdout, expected.stderr, expected.returncode
    )
    return actual.stdout


@pytest.mark.parametrize("args", [
    ["main.py", "apple", "pear"],
    ["main.py"],
    ["main.py", "apple", "kiwi"],  # an uncaught LookupError: the same traceback
    ["-m", "inventory", "apple"],
    ["-m", "inventory", "pear", "plum"],  # SystemExit(3)
    ["-m", "inventory", "kiwi"],  # the traceback shows runpy's frames, as python -m does
    ["-m", "no_such_module"],
])
def test_program_runs_as_python_does(args: list[str], env: dict[str, str]) -> None:
    assert_same_run(args, env)


def test_traceback_names_original_lines(env: dict[str, str]) -> None:
    result = unsugar_run("main.py", "kiwi", env=env)
    assert result.returncode == 1
    assert f'File "{SHOP / "inventory" / "items.py"}", line 13, in lookup' in result.stderr
    assert '    raise LookupError(f"no item called {name!r}")' in result.stderr
    assert result.stderr.endswith("LookupError: no item called 'kiwi'\n")


@pytest.mark.parametrize(("source", "stderr", "code"), [
    ("raise SystemExit(3)", "", 3),
    ("raise SystemExit('bye')", "bye\n", 1),
    ("raise SystemExit", "", 0),
    ("raise SystemExit(None)", "", 0),
    ("print('done')", "", 0),
    ("x = = 1", None, 1),  # CPython's SyntaxError text, without frames
    ("def f():\n    raise KeyboardInterrupt\nf()", None, -2),  # killed by SIGINT
])
def test_exit_codes(source: str, stderr: str | None, code: int, tmp_path: Path,
                    env: dict[str, str]) -> None:
    script = tmp_path / "prog.py"
    script.write_text(source + "\n")
    assert_same_run([str(script)], env, tmp_path)
    result = unsugar_run(str(script), env=env, cwd=tmp_path)
    assert result.returncode == code
    if stderr is not None:
        assert result.stderr == stderr


def test_missing_script(tmp_path: Path, env: dict[str, str]) -> None:
    assert_same_run([str(tmp_path / "missing.py")], env, tmp_path)


def test_a_name_only_text_can_hold(tmp_path: Path, env: dict[str, str]) -> None:
    """NFKC makes ``Ｎｏｎｅ`` the name None, which no syntax tree holds: the
    module is compiled from the desugared text (cached too)."""
    (tmp_path / "prog.py").write_text(
        "Ｎｏｎｅ = 1\nprint(globals()['None'], None, Ｎｏｎｅ)\n"
        "def f(Ｔｒｕｅ):\n    return Ｔｒｕｅ + 1\nprint(f(2))\n"
    )
    for _ in range(2):
        assert assert_same_run(["prog.py"], env, tmp_path) == "1 None 1\n3\n"


def test_script_globals_match_python(tmp_path: Path, env: dict[str, str]) -> None:
    (tmp_path / "prog.py").write_text(
        "import sys\n"
        "print(__name__, __file__, __spec__, __cached__, __package__, __doc__, __annotations__)\n"
        "print(sys.argv, sys.path[0], type(__builtins__).__name__)\n"
        "print(sorted(k for k in globals() if not k.startswith('_us')))\n"
    )
    out = assert_same_run(["prog.py", "-x", "--flag", "arg"], env, tmp_path)
    assert "['prog.py', '-x', '--flag', 'arg']" in out


def test_include_stdlib_module(env: dict[str, str]) -> None:
    out = assert_loaders("wrap.py", "15", env=env)
    assert out.splitlines()[1] == "SourceFileLoader DesugaringLoader"
    out = assert_loaders("--include", "textwrap", "wrap.py", "15", env=env)
    assert out.splitlines()[1] == "DesugaringLoader DesugaringLoader"


def test_exclude(env: dict[str, str]) -> None:
    out = assert_loaders("--include", "textwrap", "--exclude", "inventory.items",
                         "wrap.py", "15", env=env)
    assert out.splitlines()[1] == "DesugaringLoader SourceFileLoader"


def assert_loaders(*args: str, env: dict[str, str]) -> str:
    """Run ``wrap.py`` under ``unsugar run ARGS``: the same text as plain python."""
    expected = run([sys.executable, "wrap.py", "15"], env).stdout.splitlines()
    result = unsugar_run(*args, env=env)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == expected[0] and lines[2:] == expected[2:]
    assert expected[1] == "SourceFileLoader SourceFileLoader"
    return result.stdout


LOADER_OF = "import sys, {name}\nprint(type(sys.modules['{name}'].__loader__).__name__)\n"


def test_a_library_inside_the_project_is_not_the_project(tmp_path: Path, env: dict[str, str]) -> None:
    """A virtual environment kept in the project (its ``site-packages``) is not
    the project, nor is the interpreter's library (pyenv's, under a home
    directory that holds the script); ``--include`` still names them."""
    library = tmp_path / ".venv" / "lib" / "python3" / "site-packages" / "vendored"
    library.mkdir(parents=True)
    (library / "__init__.py").write_text("VALUE = 1\n")
    (tmp_path / "mine.py").write_text("VALUE = 2\n")
    (tmp_path / "main.py").write_text(
        f"import sys\nsys.path.append({str(library.parent)!r})\n"
        + LOADER_OF.format(name="vendored") + LOADER_OF.format(name="mine"))
    result = unsugar_run("main.py", env=env, cwd=tmp_path)
    assert result.stdout.split() == ["SourceFileLoader", "DesugaringLoader"], result.stderr
    result = unsugar_run("--include", "vendored", "main.py", env=env, cwd=tmp_path)
    assert result.stdout.split() == ["DesugaringLoader", "DesugaringLoader"], result.stderr
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    code = (f"from unsugar import runner\nrunner.install([], paths=[{str(stdlib.parent)!r}])\n"
            + LOADER_OF.format(name="colorsys"))
    result = run([sys.executable, "-c", code], env, tmp_path)
    assert result.stdout.split() == ["SourceFileLoader"], result.stderr


def test_a_warning_of_a_module_imported_names_the_import(tmp_path: Path, env: dict[str, str]) -> None:
    """A module left as it is (``pipes``) warns at its caller's line
    (``stacklevel=2``) when imported: the import is called from the importing
    frame, no runtime helper's, so the warning names the import."""
    (tmp_path / "noisy.py").write_text(
        "import warnings\nwarnings.warn('imported', DeprecationWarning, stacklevel=2)\n")
    (tmp_path / "main.py").write_text(
        "import os, warnings\nwarnings.simplefilter('always')\n"
        "with warnings.catch_warnings(record=True) as caught:\n"
        "    warnings.simplefilter('always')\n    def f():\n        import noisy\n    f()\n"
        "print([(os.path.basename(w.filename), w.lineno) for w in caught])\n")
    out = assert_same_run(["main.py"], env, tmp_path, options=("--exclude", "noisy"))
    assert out == "[('main.py', 6)]\n"


FOR_LOOP_RAISES = """\
import traceback
class Broken:
    def __init__(self, where):
        self.where = where
    def __iter__(self):
        if self.where == "iter":
            raise ValueError
        return self
    def __next__(self):
        raise KeyError
def loop(where):
    try:
        for x in Broken(
                where):
            pass
    except Exception as e:
        return traceback.extract_tb(e.__traceback__)[0]
for where in ("iter", "next"):
    f = loop(where)
    print(f.lineno, f.end_lineno, f.colno, f.end_colno)
"""


def test_an_error_of_a_for_loops_iteration_is_where_cpython_places_it(
    tmp_path: Path, env: dict[str, str]
) -> None:
    """``iter()`` and ``next()`` stand where CPython places ``GET_ITER`` and
    ``FOR_ITER``: the ``for`` statement before 3.13, its iterable from 3.13."""
    (tmp_path / "loops.py").write_text(FOR_LOOP_RAISES)
    assert_same_run(["loops.py"], env, tmp_path)


def test_the_tools_own_imports_are_never_desugared(tmp_path: Path, env: dict[str, str]) -> None:
    """What unsugar imports to read its cache and desugar (its compiler, and
    the library modules that needs) stays as it is, even in scope: a program
    in a directory that holds unsugar (a virtual environment in the project),
    or with ``--include unsugar``, runs."""
    (tmp_path / "hi.py").write_text("print('hi')\n")
    result = unsugar_run("--include", "unsugar", "hi.py", env=env, cwd=tmp_path)
    assert (result.stdout, result.returncode) == ("hi\n", 0), result.stderr


IMPORTED_AFRESH = """
import faulthandler, sys
faulthandler.dump_traceback_later(60, exit=True)
from unsugar import runner
runner.load_compiler()
name = sys.argv[1]
for module in [m for m in sys.modules if m == name or m.startswith(name + ".")]:
    del sys.modules[module]
runner.install([name], cache=False)
print(type(__import__(name).__loader__).__name__)
"""


@pytest.mark.parametrize("name", ["collections", "functools", "keyword", "contextlib", "enum"])
def test_a_module_the_compiler_uses_imported_afresh(name: str, env: dict[str, str]) -> None:
    """The rewrite runs on a thread of its own while the importing thread holds
    the module's import lock: the compiler imports nothing lazily (3.12's
    ``ast.walk`` imports ``collections``), or a module it uses, dropped from
    ``sys.modules`` and imported desugared (as the conformance suite does),
    would wait for itself."""
    result = run([sys.executable, "-c", IMPORTED_AFRESH, name], env, SHOP)
    assert (result.stdout, result.returncode) == ("DesugaringLoader\n", 0), result.stderr


def test_second_run_uses_the_cache(tmp_path: Path, env: dict[str, str]) -> None:
    first = unsugar_run("main.py", "plum", env=env)
    files = sorted((tmp_path / "cache").glob("*.code"))
    assert len(files) == 4  # main, inventory, items, pricing
    stamps = [f.stat().st_mtime_ns for f in files]
    second = unsugar_run("main.py", "plum", env=env)
    assert second.stdout == first.stdout
    assert [f.stat().st_mtime_ns for f in files] == stamps
    assert unsugar_run("--no-cache", "main.py", env=env).returncode == 0
    assert sorted((tmp_path / "cache").glob("*.code")) == files
    assert unsugar_run("--keep", "add", "main.py", env=env).returncode == 0
    assert len(list((tmp_path / "cache").glob("*.code"))) > len(files)
    cleared = unsugar_run("--clear-cache", env=env)
    assert cleared.returncode == 0 and not list((tmp_path / "cache").glob("*.code"))


def test_pycache_is_neither_read_nor_written(tmp_path: Path, env: dict[str, str]) -> None:
    shop = tmp_path / "shop"
    shutil.copytree(SHOP, shop, ignore=shutil.ignore_patterns("__pycache__"))
    env = {k: v for k, v in env.items() if k != "PYTHONDONTWRITEBYTECODE"}
    run([sys.executable, "wrap.py", "15"], env, shop)
    compiled = {path: path.read_bytes() for path in shop.rglob("*.pyc")}
    assert len(compiled) == 3  # textwrap's is in the standard library
    result = unsugar_run("--include", "textwrap", "wrap.py", "15", env=env, cwd=shop)
    assert result.stdout.splitlines()[1] == "DesugaringLoader DesugaringLoader"
    assert {path: path.read_bytes() for path in shop.rglob("*.pyc")} == compiled
    assert len(list((tmp_path / "cache").glob("*.code"))) == 5


def test_command_line(env: dict[str, str]) -> None:
    help_text = unsugar_run("--help", env=env).stdout
    for option in ("-m MODULE", "--include", "--exclude", "--keep", "--runtime", "--semantics",
                   "--no-cache", "--clear-cache", "UNSUGAR_CACHE_DIR"):
        assert option in help_text
    for args in (["--keep", "nonsense", "main.py"], ["--runtime", "other", "main.py"],
                 ["--semantics", "other", "main.py"], []):
        result = unsugar_run(*args, env=env)
        assert result.returncode == 2 and "unsugar run: error:" in result.stderr
    script = run(["unsugar", "run", "--runtime", "import", "main.py", "pear"], env)
    assert (script.returncode, script.stdout.splitlines()[-1]) == (0, "ordered 1 items")
    script = run(["unsugar", "run", "--semantics", "native", "main.py", "pear"], env)
    assert (script.returncode, script.stdout.splitlines()[-1]) == (0, "ordered 1 items")


def test_semantics_is_part_of_the_cache_key() -> None:
    from unsugar.runner import Options, cache_key

    assert cache_key(b"x = 1", "a.py", Options()) != cache_key(b"x = 1", "a.py", Options(semantics="native"))


def test_split_run_args() -> None:
    from unsugar.cli import split_run_args

    assert split_run_args(["--keep", "add", "a.py", "--keep", "x"]) == (
        ["--keep", "add", "a.py"], ["--keep", "x"])
    assert split_run_args(["-m", "pkg", "-m", "x"]) == (["-m", "pkg"], ["-m", "x"])
    assert split_run_args(["--no-cache", "-mpkg", "a"]) == (["--no-cache", "-mpkg"], ["a"])


# ---------------------------------------------------------------- in process
@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """A package ``proj`` on ``sys.path``; its modules forgotten afterwards."""
    monkeypatch.setenv("UNSUGAR_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.syspath_prepend(str(tmp_path))
    package = tmp_path / "proj"
    package.mkdir()
    (package / "__init__.py").write_text("from .core import double\nLEVEL = 'package'\n")
    (package / "core.py").write_text(
        "def double(x):\n"
        "    if x is None:\n"
        "        raise ValueError('nothing to double')\n"
        "    return x * 2\n"
    )
    (package / "other.py").write_text("from . import core\nVALUE = core.double(21)\n")
    (package / "broken.py").write_text("x = (\n")
    finders: list[runner.DesugaringFinder] = []
    yield package, finders
    for finder in finders:
        uninstall(finder)
    for name in [n for n in sys.modules if n == "proj" or n.startswith("proj.")]:
        del sys.modules[name]
    importlib.invalidate_caches()


def test_install_desugars_included_packages(project) -> None:
    package, finders = project
    finder = install(["proj"], exclude=["proj.other"])
    finders.append(finder)
    assert sys.meta_path[0] is finder
    import proj
    import proj.other

    assert isinstance(proj.__loader__, DesugaringLoader)
    assert isinstance(sys.modules["proj.core"].__loader__, DesugaringLoader)
    assert not isinstance(proj.other.__loader__, DesugaringLoader)
    assert proj.__path__ == [str(package)] and proj.__package__ == "proj"
    assert proj.double(4) == 8 and proj.other.VALUE == 42
    # the helpers are the closure of the module's functions, never its globals
    assert any(name.startswith("_us_") for name in proj.double.__code__.co_freevars)
    assert not any(name.startswith("_us_") for name in vars(sys.modules["proj.core"]))
    uninstall(finder)
    assert finder not in sys.meta_path


def test_install_by_path(project) -> None:
    package, finders = project
    finders.append(install([], paths=[package]))
    import proj.other

    assert isinstance(proj.other.__loader__, DesugaringLoader)
    assert proj.other.VALUE == 42


def test_install_checks_options() -> None:
    with pytest.raises(ValueError, match="unknown rule"):
        install(["x"], keep=["no-such-rule"])
    with pytest.raises(ValueError, match="runtime"):
        install(["x"], runtime="other")


def test_tracebacks_and_getsource_show_original_lines(project) -> None:
    package, finders = project
    finders.append(install(["proj"]))
    import proj.core

    with pytest.raises(ValueError) as info:
        proj.core.double(None)
    frame = traceback.extract_tb(info.value.__traceback__)[-1]
    assert (frame.filename, frame.lineno, frame.name) == (str(package / "core.py"), 3, "double")
    assert frame.line == "raise ValueError('nothing to double')"
    assert inspect.getsource(proj.core.double).startswith("def double(x):\n    if x is None:")
    assert linecache.getline(str(package / "core.py"), 4) == "    return x * 2\n"


def test_errors_name_the_file(project, monkeypatch: pytest.MonkeyPatch) -> None:
    package, finders = project
    finders.append(install(["proj"], cache=False))
    with pytest.raises(SyntaxError) as info:
        import proj.broken  # noqa: F401
    assert info.value.filename == str(package / "broken.py")

    def crash(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(pipeline, "desugar_tree", crash)  # the runner imports it when it needs it
    with pytest.raises(ImportError, match=r"cannot desugar .*other\.py: RuntimeError: boom"):
        import proj.other  # noqa: F401


def code_lines(code: types.CodeType, filename: str) -> set[int]:
    """The line numbers of ``code`` and its nested code objects that name ``filename``."""
    lines = {line for _, _, line in code.co_lines() if line} if code.co_filename == filename \
        else set()
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            lines |= code_lines(const, filename)
    return lines


def files_of(code: types.CodeType) -> set[str]:
    return {code.co_filename}.union(
        *(files_of(c) for c in code.co_consts if isinstance(c, types.CodeType))
    )


@pytest.mark.parametrize("path", sorted(
    [*SHOP.rglob("*.py"), *(SHOP.parents[2] / "examples").glob("*.py")], key=str
), ids=lambda p: p.name)
def test_positions_are_the_originals(path: Path) -> None:
    """Every line of the desugared code is a line of the file that has code, or 1 (the
    inlined helpers); the helper functions name their runtime files."""
    data = path.read_bytes()
    code = compile_source(data, str(path), Options(cache=False))
    plain = compile(data, str(path), "exec", dont_inherit=True)
    assert code_lines(code, str(path)) <= code_lines(plain, str(path)) | {1} | docstring_lines(data)
    runtime = Path(runner.__file__).parent / "runtime"
    assert {Path(f).parent for f in files_of(code) - {str(path)}} <= {runtime}


DECORATED = b"""\
import functools
def deco(f):
    return f
@deco
def plain(): pass
class C:
    @deco
    @functools.lru_cache
    def method(self, x=1): pass
    @staticmethod
    async def coroutine(): pass
def outer():
    @deco
    def inner(y: int = 2) -> int: return y
    return inner
first_lines = [function.__code__.co_firstlineno for function in
               (plain, C.method.__wrapped__, C.coroutine, outer, outer())]
"""


def test_a_decorated_function_starts_at_its_first_decorator() -> None:
    """``co_firstlineno``, where ``inspect`` finds a function's source (and
    typeguard the function it instruments), is CPython's: the line of the
    first decorator."""
    found = []
    for code in (compile(DECORATED, "decorated.py", "exec"),
                 compile_source(DECORATED, "decorated.py", Options(cache=False))):
        namespace: dict[str, object] = {"__name__": "decorated"}
        exec(code, namespace)
        found.append(namespace["first_lines"])
    assert found[0] == found[1] == [4, 7, 10, 12, 13]


def docstring_lines(data: bytes) -> set[int]:
    """Lines of docstrings and of the items of displays: code in the desugared form only."""
    import ast

    lines = set()
    for node in ast.walk(ast.parse(data)):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            lines.add(node.lineno)
        if isinstance(node, ast.List | ast.Tuple | ast.Dict | ast.Set):
            lines.update(range(node.lineno, node.end_lineno + 1))
    return lines


def test_cache_reuse_in_process(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("UNSUGAR_CACHE_DIR", str(tmp_path))
    calls = []
    real = pipeline.desugar_tree
    monkeypatch.setattr(pipeline, "desugar_tree", lambda *a, **k: calls.append(1) or real(*a, **k))
    data = b"print(-1 + 2)\n"
    first = compile_source(data, "/m.py")
    second = compile_source(data, "/m.py")
    assert len(calls) == 1 and first == second
    assert len(list(tmp_path.glob("*.code"))) == 1
    compile_source(data, "/m.py", Options(keep=("add",)))
    compile_source(data, "/other.py")
    compile_source(data, "/m.py", Options(cache=False))
    assert len(calls) == 4 and len(list(tmp_path.glob("*.code"))) == 3
    (next(tmp_path.glob("*.code"))).write_bytes(b"corrupt")  # a bad entry is recompiled
    for path, options in (("/m.py", Options()), ("/m.py", Options(keep=("add",))),
                          ("/other.py", Options())):
        compile_source(data, path, options)
    assert len(calls) == 5
    kept = [*tmp_path.glob("*.code"), *tmp_path.glob("*.runtime")]  # (the runtime, if compiled here)
    assert store.clear() == len(kept) and not list(tmp_path.glob("*.code"))


@pytest.fixture
def counted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """A fresh cache directory (not yet made); each compilation appends to the list."""
    monkeypatch.setenv("UNSUGAR_CACHE_DIR", str(tmp_path / "cache"))
    calls: list[int] = []
    real = pipeline.desugar_tree
    monkeypatch.setattr(pipeline, "desugar_tree", lambda *a, **k: calls.append(1) or real(*a, **k))
    return calls


def test_the_cache_is_private_to_the_user(tmp_path: Path, counted: list[int]) -> None:
    compile_source(b"print(1 + 1)\n", "/m.py")
    cache = tmp_path / "cache"
    (entry,) = cache.glob("*.code")
    assert cache.stat().st_mode & 0o777 == 0o700 and entry.stat().st_mode & 0o777 == 0o600
    cache.chmod(0o777)  # made open by someone: closed again when next written
    compile_source(b"print(2 + 2)\n", "/m.py")
    assert cache.stat().st_mode & 0o777 == 0o700


@pytest.mark.parametrize("damage", ["truncated", "corrupt", "empty", "writable by others"])
def test_a_damaged_or_open_cache_entry_is_rebuilt_never_run(
    tmp_path: Path, counted: list[int], damage: str
) -> None:
    data = b"import sys\nsys.stdout.write(str(2 * 21))\n"
    code = compile_source(data, "/m.py")
    (entry,) = (tmp_path / "cache").glob("*.code")
    good = entry.read_bytes()
    if damage == "truncated":
        entry.write_bytes(good[: len(good) // 2])
    elif damage == "corrupt":
        entry.write_bytes(b"\xe3" + good[1:100])
    elif damage == "empty":
        entry.write_bytes(b"")
    else:
        entry.chmod(0o666)
    assert compile_source(data, "/m.py") == code and len(counted) == 2
    assert marshal.loads(entry.read_bytes()) == code and entry.stat().st_mode & 0o777 == 0o600
    assert compile_source(data, "/m.py") == code and len(counted) == 2  # (now it is used)


@pytest.mark.skipif(not hasattr(os, "getuid") or os.getuid() != 0, reason="needs root to chown")
def test_a_cache_of_another_user_is_neither_read_nor_written(
    tmp_path: Path, counted: list[int]
) -> None:
    data = b"print(3 * 3)\n"
    compile_source(data, "/m.py")
    cache = tmp_path / "cache"
    (entry,) = cache.glob("*.code")
    os.chown(entry, 12345, 12345)  # an entry that another user wrote
    compile_source(data, "/m.py")
    assert len(counted) == 2 and entry.stat().st_uid == 0  # rebuilt, and replaced
    os.chown(cache, 12345, 12345)  # a directory that is another user's
    for entry in cache.glob("*.code"):
        entry.unlink()
    compile_source(data, "/m.py")
    compile_source(data, "/m.py")
    assert len(counted) == 4 and not list(cache.glob("*.code"))


def test_syntax_error_in_an_imported_module(tmp_path: Path, env: dict[str, str]) -> None:
    """CPython hides its loader's frames; so does unsugar run (with its own loader). The
    import is kept: a rewritten one adds the frame of its helper."""
    (tmp_path / "prog.py").write_text("print('start')\nimport helper\n")
    (tmp_path / "helper.py").write_text("def f(:\n    pass\n")
    assert_same_run(["prog.py"], env, tmp_path, ("--keep", "import"))


APPDIR = SHOP.parent / "appdir"


@pytest.mark.parametrize("args", [["appdir"], ["appdir", "a", "b"], ["appdir", "x", "y", "z"]])
def test_directory_runs_its_main_as_python_does(args: list[str], env: dict[str, str]) -> None:
    assert_same_run(args, env, cwd=APPDIR.parent)


def test_directory_program_is_desugared(env: dict[str, str]) -> None:
    result = unsugar_run(str(APPDIR), "hi", env={**env, "SHOW_LOADERS": "1"}, cwd=SHOP)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1] == "DesugaringLoader DesugaringLoader"


def test_a_cached_start_imports_no_compiler(tmp_path: Path) -> None:
    """With every module cached, ``unsugar run`` starts without importing the
    compiler (lowering, control flow, linker): its start-up is the program's."""
    (tmp_path / "main.py").write_text(
        "import sys\nprint(sorted(m for m in sys.modules if m.startswith('unsugar')))\n"
    )
    env = {**os.environ, "UNSUGAR_CACHE_DIR": str(tmp_path / "cache")}
    command = [sys.executable, "-m", "unsugar", "run", "main.py"]
    first = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert "'unsugar.pipeline'" in first.stdout, first.stderr
    second = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    loaded = ast.literal_eval(second.stdout)
    assert not {"unsugar.pipeline", "unsugar.lowering", "unsugar.control", "unsugar.linker"} & set(loaded)
