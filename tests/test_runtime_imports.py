"""The runtime imports nothing but ``sys`` when an output starts.

Modules such as ``_operator``, ``_collections`` or ``_functools`` may be
blocked (``sys.modules[name] = None``, as ``test.support.import_helper``
does to test a module's pure Python version) or not loaded yet; an output
that uses operators, unpacking, displays or ``yield from`` must run then too,
inlined or with ``--runtime=import``.
"""

from __future__ import annotations

import ast
import builtins
import contextlib
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest
from difftest import assert_same, run

import unsugar
from unsugar import desugar
from unsugar.linker import compiled_runtime
from unsugar.runner import DesugaringLoader, install, uninstall
from unsugar.runtime import MODULES, source_path

#: What the runtime may import when it starts.
ALLOWED = {"sys", "builtins"}

#: Modules the runtime used to import, blocked as ``import_fresh_module`` blocks them.
BLOCKED = ("_operator", "operator", "_collections", "_functools", "functools", "types")


@contextlib.contextmanager
def restored(names: tuple[str, ...] = BLOCKED) -> Iterator[None]:
    """The entries ``names`` of ``sys.modules`` as they are now, put back afterwards."""
    saved = {name: sys.modules.get(name, sys) for name in names}
    try:
        yield
    finally:
        for name, module in saved.items():
            if module is sys:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = module


def block(names: tuple[str, ...] = BLOCKED) -> None:
    """``sys.modules[name] = None`` for ``names``: importing them fails."""
    for name in names:
        sys.modules[name] = None


#: Operators, unpacking, displays, subscripts and ``yield from``: no imports.
USES_HELPERS = """
    class Index:
        def __init__(self, n):
            self.n = n
        def __index__(self):
            return self.n
    class Mapping:
        def keys(self):
            return ["k"]
        def __getitem__(self, key):
            print("getitem", key)
            return key * 2
    a, *b = [1, 2, 3]
    (c, d), e = "xy", 5
    r1 = a + 1, b * 2, -e, ~e, e ** 2, e // 2, 2 < e <= 9, e in b
    r2 = [*b, *"ab"], {*b}, {**{"x": 1}, **Mapping()}, (*b,)
    items = [10, 20, 30]
    r3 = items[True], items[Index(2)], items[-1:], "abc"[Index(1)]
    items[Index(0)] += 5
    del items[Index(1)]
    def gen():
        got = yield from [1, 2]
        return got
    def outer():
        result = yield from gen()
        print("result", result)
    r4 = list(outer())
    for bad in ("a", 1.5, 2 ** 100, Index("x")):
        try:
            items[bad]
        except (TypeError, IndexError) as exc:
            print(type(exc).__name__, exc)
"""

#: ``deque`` takes sequence indexes only; the deque exists before the blocking.
USES_DEQUE = """
    q = queue_type([1, 2, 3])
    r = q[1], q[True], q[-1]
    q[0] = 7
    del q[1]
    for bad in ("a", 1.5, 2 ** 100, None):
        for action in (lambda: q[bad], lambda: q.__setitem__(bad, 1)):
            try:
                action()
            except (TypeError, IndexError) as exc:
                print(type(exc).__name__, exc)
        try:
            del q[bad]
        except (TypeError, IndexError) as exc:
            print(type(exc).__name__, exc)
"""


def test_outputs_run_with_modules_blocked() -> None:
    with restored():
        assert_same(USES_HELPERS, setup=block, semantics="python")


def test_native_semantics_with_operator_blocked() -> None:
    """``--semantics=native`` takes the operators from ``_operator``; where the
    program blocked it (as ``import_fresh_module("operator", blocked=["_operator"])``
    does, which then imports the pure Python ``operator``, desugared), they
    come from a module made afresh from the interpreter's, which the block
    still hides from the program."""
    out = desugar("print('started')\n", semantics="native")
    assert "native_operator" not in out  # an output without operators needs nothing
    source = textwrap.dedent("""
        import sys
        print('started', 1 + 1, [1, 2][0], 2 in [2], -True, sys.modules['_operator'])
        try:
            import _operator
        except ImportError as error:
            print(type(error).__name__, error)
    """)
    with restored(("_operator",)):
        assert_same(source, setup=lambda: block(("_operator",)), semantics="native")
        assert sys.modules["_operator"] is None


def test_deque_subscripts_with_collections_blocked() -> None:
    import collections

    source = "queue_type = " + "__import__('collections').deque\n" + textwrap.dedent(USES_DEQUE)
    with restored(("_collections",)):
        assert_same(source, setup=lambda: block(("_collections",)))
    assert collections.deque  # still there


def test_import_runtime_with_modules_blocked() -> None:
    """``--runtime=import``: the linked runtime, imported while they are blocked."""
    source = textwrap.dedent(USES_HELPERS)
    out = desugar(source, runtime="import")
    assert "linked_runtime" in out
    with restored((*BLOCKED, "unsugar.linked_runtime")):
        sys.modules.pop("unsugar.linked_runtime", None)
        block()
        original = run(source)
        rewritten = run(out)
    assert rewritten == original


def test_import_runtime_with_native_semantics() -> None:
    """``--runtime=import --semantics=native``: the helpers come from
    ``unsugar.linked_native``, whose operators are ``_operator``'s."""
    import _operator

    from unsugar import linked_native, linked_runtime

    source = textwrap.dedent(USES_HELPERS)
    out = desugar(source, runtime="import", semantics="native")
    assert "linked_native" in out and "linked_runtime" not in out
    assert run(out) == run(source)
    assert linked_native.binary_add is _operator.add
    assert linked_runtime.binary_add is not _operator.add


def _text_of(node: ast.expr) -> str | None:
    """The string a name of the runtime's constants (``_us_s_sys``), or the
    bootstrap's ``_us_text(115, 121, 115)``, stands for."""
    if isinstance(node, ast.Name) and node.id.startswith("_us_s_"):
        return node.id.removeprefix("_us_s_")
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "_us_text":
        return "".join(chr(arg.value) for arg in node.args if isinstance(arg, ast.Constant))
    return None


def test_runtime_imports_only_sys_at_start() -> None:
    """Every top-level statement of the compiled runtime imports ``sys`` at most."""
    runtime = compiled_runtime("_us_")
    for piece in runtime.pieces:
        if isinstance(piece.stmt, ast.FunctionDef):
            continue
        for node in ast.walk(piece.stmt):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                    and node.func.id == "_us___import__":
                assert [_text_of(arg) for arg in node.args] == ["sys"], ast.unparse(piece.stmt)


def test_runtime_modules_import_only_sys_when_run() -> None:
    """The runtime as plain Python (``--runtime=import``) and an output with the
    helpers inlined import nothing but ``sys`` while they start."""
    seen: list[str] = []

    def record(name, *args, **kwargs):
        seen.append(name)
        return builtins.__import__(name, *args, **kwargs)

    own_builtins = {**vars(builtins), "__import__": record}
    namespace: dict[str, object] = {"__builtins__": own_builtins}
    for name in MODULES:
        with open(source_path(name), encoding="utf-8") as handle:
            exec(compile(handle.read(), source_path(name), "exec"), namespace)
    out = desugar(textwrap.dedent(USES_HELPERS))
    exec(compile(out, "<out>", "exec"), {"__builtins__": own_builtins, "__name__": "m"})
    assert set(seen) <= ALLOWED, sorted(set(seen) - ALLOWED)


#: Calls made on the pure Python ``operator`` module, desugared or not.
OPERATOR_CALLS = [
    ("add", (1, 2)), ("concat", ([1], [2])), ("concat", (1, 2)), ("index", (True,)),
    ("index", (1.5,)), ("getitem", ("abc", 1)), ("contains", ([1, 2], 2)), ("truth", ([],)),
    ("countOf", ([1, 1, 2], 1)), ("indexOf", ([1, 2], 3)), ("length_hint", (iter([1, 2]),)),
    ("length_hint", (1, "x")), ("pow", (2, 10)), ("matmul", (1, 2)), ("is_", (None, None)),
    ("iadd", ([1], [2])), ("iconcat", ((1,), (2,))), ("lt", (1, "a")),
]


def _calls(module) -> list[object]:
    out: list[object] = []
    for name, args in OPERATOR_CALLS:
        try:
            out.append((name, getattr(module, name)(*args)))
        except Exception as exc:  # noqa: BLE001  (compared as observed)
            out.append((name, type(exc).__name__, str(exc)))
    point = type("Point", (), {"x": 1, "y": {"z": [4, 5]}})()
    out.append(module.attrgetter("x", "y")(point))
    out.append(module.itemgetter(1, 0)("ab"))
    out.append(module.methodcaller("split", ",")("a,b"))
    out.append(repr(module.attrgetter("x")))
    return out


def test_desugared_operator_module_with_operator_blocked() -> None:
    """The CPython idiom for testing ``operator.py``: the module desugared by the
    import hook and imported fresh with ``_operator`` blocked."""
    import_helper = pytest.importorskip("test.support.import_helper")
    plain = import_helper.import_fresh_module("operator", blocked=["_operator"])
    finder = install(["operator"], cache=False)
    try:
        desugared = import_helper.import_fresh_module("operator", blocked=["_operator"])
    finally:
        uninstall(finder)
    assert isinstance(desugared.__loader__, DesugaringLoader)
    assert desugared.add is not plain.add
    assert _calls(desugared) == _calls(plain)
    own = sorted(name for name in vars(desugared) if not name.startswith("_us"))  # runtime names
    assert own == sorted(vars(plain))


#: ``unsugar``'s modules imported by a loader with no ``get_source``, as pytest's
#: assertion rewriting imports them once the ``pytest11`` entry point is installed
SOURCELESS = textwrap.dedent("""\
    import importlib.abc, importlib.machinery, sys

    class Sourceless(importlib.abc.Loader):
        def __init__(self, loader):
            self.loader = loader
        def create_module(self, spec):
            return None
        def exec_module(self, module):
            self.loader.exec_module(module)

    class Finder(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path, target=None):
            if not name.startswith("unsugar"):
                return None
            spec = importlib.machinery.PathFinder.find_spec(name, path)
            if spec is not None and spec.origin.endswith(".py"):
                spec.loader = Sourceless(spec.loader)
            return spec

    sys.meta_path.insert(0, Finder())
    from unsugar import linked_native, linked_runtime
    print(linked_native.binary_add is __import__("_operator").add,
          linked_runtime.binary_add.__module__)
""")


def test_the_linked_runtime_imports_under_any_loader() -> None:
    env = {"PYTHONPATH": str(Path(unsugar.__file__).parent.parent)}
    result = subprocess.run([sys.executable, "-c", SOURCELESS], capture_output=True, text=True,
                            env=env, timeout=60)
    assert result.stdout == "True unsugar.linked_runtime\n", result.stderr
