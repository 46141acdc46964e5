"""``unsugar run``: run a program with its modules desugared as they are imported.

An import hook does the work. :class:`DesugaringFinder`, first on
``sys.meta_path``, asks the other finders for a module's spec; when the
module is in scope and its origin is a ``.py`` file, it swaps the spec's
loader for a :class:`DesugaringLoader`, so ``__path__``, ``__package__`` and
relative imports are exactly those of a normal import. The loader compiles
the rewritten *tree*, which keeps the original positions: tracebacks,
``linecache`` and ``inspect.getsource`` show the user's real lines
(``get_source`` is still the original text).

The inlined runtime helpers are placed so that they do not confuse
tracebacks: their top-level statements sit on line 1, and the code objects of
the helper functions are given the file of the runtime module they come from
(``unsugar/runtime/operators.py``, ...), with that file's line numbers, so a
frame inside a helper shows the helper's real source.

Compiled code is cached like ``.pyc`` files, with :mod:`marshal`
(:mod:`unsugar.store`), under a sha256 of the source bytes, its path, the
options, unsugar's version and sources, and the Python version and
optimization level.
"""

from __future__ import annotations

import contextlib
import copy
import functools
import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import marshal
import os
import runpy
import signal
import sys
import threading
import types
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from importlib.machinery import ModuleSpec
from pathlib import Path

import unsugar
from unsugar import nodes as ast
from unsugar import store
from unsugar.options import RUNTIMES, check_keep, check_semantics
from unsugar.trees import copy_tree, walk


@dataclass(frozen=True)
class Options:
    """How modules are desugared: rules kept, runtime mode, whether to cache, semantics."""

    keep: tuple[str, ...] = ()
    runtime: str = "inline"
    cache: bool = True
    semantics: str = "python"


# ------------------------------------------------------------------- cache
def cache_key(data: bytes, path: str, options: Options) -> str:
    """The name of the cached code of source ``data`` at ``path``."""
    digest = hashlib.sha256(store.fingerprint().encode())
    digest.update(f"\0{path}\0{','.join(sorted(options.keep))}\0{options.runtime}\0".encode())
    digest.update(f"{options.semantics}\0".encode())
    digest.update(data)
    return f"{digest.hexdigest()}.code"


def _read_cache(key: str) -> types.CodeType | None:
    """The cached code, or None: missing, corrupt or truncated, or not private
    (then it is compiled again and replaced)."""
    data = store.read(key)
    try:
        code = None if data is None else marshal.loads(data)
    except (ValueError, EOFError, TypeError):
        return None
    return code if isinstance(code, types.CodeType) else None


# ----------------------------------------------------------------- compile
_busy = threading.local()


@contextlib.contextmanager
def _own_imports() -> Iterator[None]:
    """While the block runs (in this thread), the finders leave imports alone:
    what the tool imports to read its cache or desugar a module (its compiler,
    and the standard library modules that imports) is never desugared, wherever
    its file is."""
    busy = getattr(_busy, "active", False)
    _busy.active = True
    try:
        yield
    finally:
        _busy.active = busy


def compile_source(data: bytes, path: str, options: Options = Options()) -> types.CodeType:
    """The code object of the desugared module ``data`` (the bytes of file ``path``).

    Errors are CPython's own (a :class:`SyntaxError` naming ``path``); a
    failure of unsugar itself is an :class:`ImportError` naming ``path``.
    """
    with _own_imports():
        key = cache_key(data, path, options) if options.cache else ""
        if options.cache:
            cached = _read_cache(key)
            if cached is not None:
                return cached
        # the compiler is imported on the first miss of the cache, not at start-up
        from unsugar.pipeline import with_headroom

        code, files, prefix = with_headroom(lambda: _desugared_code(data, path, options))
        code = _retarget(code, files, prefix)
        if options.cache:
            store.write(key, marshal.dumps(code))
        return code


def _desugared_code(
    data: bytes, path: str, options: Options
) -> tuple[types.CodeType, dict[str, str], str]:
    """The code of ``data`` desugared, the runtime file of each inlined helper,
    and the name prefix (run with the headroom the rewrite needs, on a thread
    of its own: its imports are the tool's too)."""
    tree = ast.parse(data, path)
    try:
        compile(tree, path, "exec", dont_inherit=True)  # the errors CPython itself reports
        text = None
    except ValueError:  # a name NFKC makes None (``Ｎｏｎｅ``): no tree holds it, text does
        text = importlib.util.decode_source(data)
        compile(text, path, "exec", dont_inherit=True)
    with _own_imports():
        try:
            from unsugar.names import choose_prefix, input_names
            from unsugar.pipeline import desugar, desugar_tree

            prefix = choose_prefix(input_names(tree))
            if text is not None:  # (its lines are the output's)
                text = desugar(text, filename=path, keep=options.keep, runtime=options.runtime,
                               semantics=options.semantics)
                return compile(text, path, "exec", dont_inherit=True), {}, prefix
            module = desugar_tree(
                tree, keep=options.keep, runtime=options.runtime, semantics=options.semantics
            )
            files = _place_runtime(module, prefix, options.semantics)
            _repair_positions(module)
            return compile(module, path, "exec", dont_inherit=True), files, prefix
        except (ImportError, KeyboardInterrupt):
            raise
        except Exception as exc:
            raise ImportError(
                f"unsugar cannot desugar {path}: {type(exc).__name__}: {exc}", path=path
            ) from exc


def _place_runtime(module: ast.Module, prefix: str, semantics: str) -> dict[str, str]:
    """Put the inlined helpers' top-level statements on line 1; the runtime file of each
    helper function, by name."""
    from unsugar.linker import compiled_runtime

    runtime = compiled_runtime(prefix, semantics)
    pieces = {id(piece.stmt): piece.module for piece in runtime.pieces}
    files: dict[str, str] = {}
    body = module.body
    if body and isinstance(body[0], ast.FunctionDef) and body[0].name == f"{prefix}module":
        body = body[0].body  # the module def (unsugar.namespaces)
    for index, stmt in enumerate(body):
        name = pieces.get(id(stmt))
        if name is None:
            continue
        if isinstance(stmt, ast.FunctionDef):
            stmt = copy.copy(stmt)  # the compiled runtime is shared: never change it
            files[stmt.name] = str(Path(unsugar.__file__).parent / "runtime" / f"{name}.py")
            nodes = [stmt]
        else:
            stmt = copy_tree(stmt)
            nodes = list(walk(stmt))
        for node in nodes:
            if "lineno" in node._attributes:
                node.lineno, node.col_offset, node.end_lineno, node.end_col_offset = 1, 0, 1, 0
        body[index] = stmt
    return files


def _repair_positions(module: ast.Module) -> None:
    """compile() rejects a node that ends before it starts: such a node ends where it starts."""
    for node in walk(module):
        if "end_lineno" in node._attributes and node.end_lineno is not None and (
            (node.end_lineno, node.end_col_offset or 0) < (node.lineno, node.col_offset)
        ):
            node.end_lineno, node.end_col_offset = node.lineno, node.col_offset


def _retarget(code: types.CodeType, files: dict[str, str], prefix: str) -> types.CodeType:
    """``code`` with the helper functions' code objects naming their runtime files
    (they are made by the module, or by its module def)."""
    if not files:
        return code
    consts = tuple(
        _refile(const, files[const.co_name])
        if isinstance(const, types.CodeType) and const.co_name in files
        else _retarget(const, files, prefix)
        if isinstance(const, types.CodeType) and const.co_name == f"{prefix}module" else const
        for const in code.co_consts
    )
    return code.replace(co_consts=consts)


def _refile(code: types.CodeType, filename: str) -> types.CodeType:
    consts = tuple(
        _refile(const, filename) if isinstance(const, types.CodeType) else const
        for const in code.co_consts
    )
    return code.replace(co_filename=filename, co_consts=consts)


# -------------------------------------------------------------- the hook
class DesugaringLoader(importlib.machinery.SourceFileLoader):
    """A source loader whose code is the desugared module (never a ``__pycache__`` file)."""

    def __init__(self, fullname: str, path: str, options: Options = Options()) -> None:
        super().__init__(fullname, path)
        self.options = options

    def get_code(self, fullname: str) -> types.CodeType:
        path = self.get_filename(fullname)
        return self.source_to_code(self.get_data(path), path)

    def source_to_code(self, data: bytes, path: str, *, _optimize: int = -1) -> types.CodeType:
        return compile_source(bytes(data), str(path), self.options)


def _within(name: str, roots: Iterable[str]) -> bool:
    return any(name == root or name.startswith(root + ".") for root in roots)


#: directories of installed packages (a virtual environment's, the system's)
INSTALLED_DIRECTORIES = frozenset({"site-packages", "dist-packages"})


@functools.cache
def _library_directories() -> tuple[str, ...]:
    """The running interpreter's standard library and packages, as real paths
    ending in a separator."""
    with _own_imports():  # (once a module's file is under a project: not at start-up)
        import sysconfig

        paths = sysconfig.get_paths()
    found = {paths[key] for key in ("stdlib", "platstdlib", "purelib", "platlib") if key in paths}
    return tuple(sorted(os.path.join(os.path.realpath(path), "") for path in found))


def installed_below(root: str, path: str) -> bool:
    """Whether ``path``, a real path under directory ``root`` (ending in a
    separator), is in a library inside ``root``: a ``site-packages`` or
    ``dist-packages`` directory (a virtual environment kept in a project), or
    the interpreter's own library (``~/.pyenv`` under a home directory)."""
    if not INSTALLED_DIRECTORIES.isdisjoint(path[len(root):].split(os.sep)[:-1]):
        return True
    return any(library != root and library.startswith(root) and path.startswith(library)
               for library in _library_directories())


class DesugaringFinder(importlib.abc.MetaPathFinder):
    """Finds in-scope ``.py`` modules with the other finders and desugars them.

    A module is in scope when its name is, or is inside, an ``include`` name,
    or its file is under one of ``paths`` (but not in a library there:
    :func:`installed_below`); and its name is not, nor is inside, an
    ``exclude`` name, and its file is not ``excluded_file``.
    """

    def __init__(
        self, include: Iterable[str] = (), exclude: Iterable[str] = (),
        paths: Iterable[str | os.PathLike[str]] = (), options: Options = Options(),
        excluded_file: Callable[[str], bool] | None = None,
    ) -> None:
        self.include = tuple(include)
        self.exclude = tuple(exclude)
        self.paths = tuple(os.path.join(os.path.realpath(p), "") for p in paths)
        self.options = options
        self.excluded_file = excluded_file

    def in_scope(self, fullname: str, origin: str) -> bool:
        """Whether module ``fullname``, read from file ``origin``, is desugared."""
        if _within(fullname, self.exclude):
            return False
        if self.excluded_file is not None and self.excluded_file(origin):
            return False
        if _within(fullname, self.include):
            return True
        path = os.path.realpath(origin)
        return any(path.startswith(root) and not installed_below(root, path) for root in self.paths)

    def find_spec(
        self, fullname: str, path: Sequence[str] | None = None,
        target: types.ModuleType | None = None,
    ) -> ModuleSpec | None:
        if getattr(_busy, "active", False) or _within(fullname, self.exclude):
            return None
        if not self.paths and not _within(fullname, self.include):
            return None
        spec = self._other_spec(fullname, path, target)
        if (
            spec is None or type(spec.loader) is not importlib.machinery.SourceFileLoader
            or not spec.origin or not spec.origin.endswith(".py")
            or not self.in_scope(fullname, spec.origin)
        ):
            return None
        spec.loader = DesugaringLoader(fullname, spec.origin, self.options)
        return spec

    def _other_spec(
        self, fullname: str, path: Sequence[str] | None, target: types.ModuleType | None
    ) -> ModuleSpec | None:
        for finder in sys.meta_path:
            if isinstance(finder, DesugaringFinder) or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(fullname, path, target)
            if spec is not None:
                return spec
        return None


def install(
    include: Iterable[str],
    exclude: Iterable[str] = (),
    paths: Iterable[str | os.PathLike[str]] = (),
    keep: Iterable[str] = (),
    runtime: str = "inline",
    cache: bool = True,
    semantics: str = "python",
    finder_type: type[DesugaringFinder] = DesugaringFinder,
    excluded_file: Callable[[str], bool] | None = None,
) -> DesugaringFinder:
    """Desugar the modules in scope as they are imported from now on; the finder.

    ``include`` and ``exclude`` are dotted module or package names, ``paths``
    directories whose ``.py`` files are in scope, ``excluded_file`` what says
    that a file is not (``[tool.unsugar] exclude``). Modules already imported
    stay as they are. The finder is a ``finder_type`` (a subclass narrows the
    scope or records the loads, as :mod:`unsugar.pytest_plugin`'s). Raises :class:`unsugar.options.UnknownRuleError` for
    an unknown ``keep`` rule and :class:`ValueError` for an unknown ``runtime``
    or ``semantics``.
    """
    if runtime not in RUNTIMES:
        raise ValueError(f"unknown runtime mode {runtime!r}")
    keep = tuple(sorted(check_keep(keep)))
    options = Options(keep, runtime, cache, check_semantics(semantics))
    finder = finder_type(include, exclude, paths, options, excluded_file)
    sys.meta_path.insert(0, finder)
    return finder


def load_compiler() -> None:
    """Import the compiler and every rule now, not on the first module the cache
    lacks. A test that puts ``sys.modules`` back as it found it (pytester's
    nested runs do) would otherwise take them out again, and the next module
    would be desugared by fresh copies of half of them (a registry without the
    rules, whose modules stay imported)."""
    import unsugar.pipeline  # noqa: F401  (the phases, and what they import)
    from unsugar.registry import load_all

    load_all()


def uninstall(finder: DesugaringFinder) -> None:
    """Stop desugaring imports with ``finder`` (modules already imported stay)."""
    with contextlib.suppress(ValueError):
        sys.meta_path.remove(finder)


# ------------------------------------------------------------- programs
def _script_path(script: str) -> str:
    """``__file__`` of a script as CPython makes it: the current directory joined as text."""
    return script if os.path.isabs(script) else os.getcwd() + os.sep + script


def run_script(script: str, args: Sequence[str], finder: DesugaringFinder) -> int:
    """Run ``script`` as ``python SCRIPT ARGS`` does; the exit code. A
    directory runs its ``__main__.py``."""
    path = _script_path(script)
    if os.path.isdir(path):
        return run_directory(script, args)
    sys.argv = [script, *args]
    sys.path[0] = os.path.dirname(os.path.realpath(path))
    main = types.ModuleType("__main__")
    main.__file__ = path
    main.__cached__ = None
    main.__loader__ = DesugaringLoader("__main__", path, finder.options)
    main.__annotations__ = {}
    main.__builtins__ = sys.modules["builtins"]
    sys.modules["__main__"] = main
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as exc:
        print(f"{sys.executable}: can't open file {path!r}: [Errno {exc.errno}] {exc.strerror}",
              file=sys.stderr)
        return 2
    try:
        code = main.__loader__.source_to_code(data, path)
    except (SyntaxError, ImportError) as exc:  # shown, as CPython does, without frames
        return _report(exc.with_traceback(None))
    try:
        exec(code, main.__dict__)
    except BaseException as exc:  # noqa: BLE001  (reported as the interpreter does)
        return _report(exc)
    return 0


def run_directory(directory: str, args: Sequence[str]) -> int:
    """Run ``python DIRECTORY ARGS``: its ``__main__`` module, found first on the path."""
    sys.argv = [directory, *args]
    sys.path[0] = os.path.realpath(directory)
    try:
        runpy._run_module_as_main("__main__", alter_argv=False)  # what python itself calls
    except BaseException as exc:  # noqa: BLE001  (reported as the interpreter does)
        return _report(exc)
    return 0


def run_module(name: str, args: Sequence[str]) -> int:
    """Run module ``name`` as ``python -m NAME ARGS`` does; the exit code."""
    sys.argv = ["-m", *args]  # runpy puts the module's file in argv[0]
    sys.path[0] = os.getcwd()
    try:
        runpy._run_module_as_main(name)  # what ``python -m`` itself calls
    except BaseException as exc:  # noqa: BLE001  (reported as the interpreter does)
        return _report(exc)
    return 0


def _drop_loader_frames(tb: types.TracebackType | None) -> None:
    """End ``tb`` before the import machinery that led to this module's loader, as CPython
    hides the frames of its own loader when a module fails to compile."""
    last_user = None
    while tb is not None:
        filename = tb.tb_frame.f_code.co_filename
        if filename == __file__:
            if last_user is not None:
                last_user.tb_next = None
            return
        if not filename.startswith("<frozen importlib."):
            last_user = tb
        tb = tb.tb_next


def _report(exc: BaseException) -> int:
    """Print an exception that ended the program as CPython does; the exit code."""
    if isinstance(exc, SystemExit):
        code = exc.code
        if code is None:
            return 0
        if isinstance(code, int):
            return code
        print(code, file=sys.stderr)
        return 1
    tb = exc.__traceback__
    while tb is not None and tb.tb_frame.f_code.co_filename == __file__:
        tb = tb.tb_next
    if isinstance(exc, SyntaxError | ImportError):
        _drop_loader_frames(tb)
    sys.excepthook(type(exc), exc.with_traceback(tb), tb)
    if isinstance(exc, KeyboardInterrupt):  # exit "killed by SIGINT", as CPython does
        sys.stdout.flush()
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGINT)
    return 1
