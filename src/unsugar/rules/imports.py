"""Imports: ``import``, ``from ... import``, relative imports and ``import *``.

Each form is CPython's sequence of ``IMPORT_NAME``/``IMPORT_FROM``/``IMPORT_STAR``
as calls to the runtime (:mod:`unsugar.runtime.imports`), and every name is
bound by a plain assignment, which the lowering routes to the right namespace
(module, function, class body, ``global``)::

    from .pkg import a, b as c    ->    _us_module_1 = _us_importer()("pkg", globals(), None, ("a", "b"), 1)
                                        a = _us_import_from(_us_module_1, "a")
                                        c = _us_import_from(_us_module_1, "b")
                                        _us_module_1 = None

Names are mangled as CPython's compiler mangles them in a class body: the
module of ``import __m`` and ``from __m import ...``, and the names of
``from m import __x``, but not the parts of a dotted ``import a.__b as c``.
"""

from __future__ import annotations

from unsugar import builder as b
from unsugar import nodes as ast
from unsugar.lowering import Lowerer
from unsugar.registry import stmt_rule
from unsugar.unit import is_future


def _fromlist(names: list[str], cx: Lowerer) -> ast.expr:
    return b.call(cx.rt("tuple_of"), *[cx.string(name) for name in names])


def _import_name(module: str, fromlist: ast.expr, level: int, cx: Lowerer) -> ast.Call:
    """``IMPORT_NAME``: ``__import__`` of the importing frame's builtins, called
    from that frame (so a warning the imported module raises, or an error's
    traceback, shows the import, not a helper) with its globals, and its locals:
    ``None`` in a function, a rewritten body's namespace, else ``locals()``."""
    scope = cx.scope
    if scope.namespace is not None:
        namespace: ast.expr = b.load(scope.namespace.param)
    elif scope.kind == "function":
        namespace = cx.none()
    else:
        namespace = b.call(cx.builtin("locals"))
    return b.call(b.call(cx.rt("importer")), cx.string(cx.mangle(module)), b.call(cx.builtin("globals")),
                  namespace, fromlist, b.int_(level))


@stmt_rule(
    ast.Import,
    id="import",
    summary="import a.b binds the top package a; import a.b as c binds submodule b "
    "through IMPORT_FROM's lookup",
    before="import os.path\nimport os.path as p",
    after="os = _us_importer()(_us_s_os_path, _us_globals(), _us_none, _us_none, 0)\n"
    "p = _us_import_from(_us_importer()(_us_s_os_path, _us_globals(), _us_none, _us_none, 0), _us_s_path)",
    reference="simple_stmts.html#the-import-statement",
)
def lower_import(node: ast.Import, cx: Lowerer) -> list[ast.stmt]:
    out: list[ast.stmt] = []
    for alias in node.names:
        value: ast.expr = _import_name(alias.name, cx.none(), 0, cx)
        if alias.asname is None:
            out.append(b.assign(alias.name.partition(".")[0], value))
            continue
        for part in alias.name.split(".")[1:]:
            value = b.call(cx.rt("import_from"), value, cx.string(part))
        out.append(b.assign(alias.asname, value))
    return out


@stmt_rule(
    ast.ImportFrom,
    id="import-from",
    summary="from m import x imports m with fromlist ('x',) and takes x from it "
    "(or from sys.modules['m.x']); relative imports pass their level",
    before="from . import a, b as c",
    after="_us_module_1 = _us_importer()(_us_s_, _us_globals(), _us_none, _us_tuple_of(_us_s_a, _us_s_b), 1)\n"
    "a = _us_import_from(_us_module_1, _us_s_a)\nc = _us_import_from(_us_module_1, _us_s_b)\n"
    "_us_module_1 = _us_none",
    reference="simple_stmts.html#the-import-statement",
    applies=lambda node: not is_future(node) and node.names[0].name != "*",
)
def lower_import_from(node: ast.ImportFrom, cx: Lowerer) -> list[ast.stmt]:
    """The module is held in a temporary between the names, then released."""
    fromlist = _fromlist([alias.name for alias in node.names], cx)
    module = _import_name(node.module or "", fromlist, node.level, cx)
    out: list[ast.stmt] = []
    if len(node.names) > 1:
        held = cx.temp("module")
        out.append(b.assign(held, module))
        module = b.load(held)
    for i, alias in enumerate(node.names):
        source = module if i == 0 else b.load(module.id)
        value = b.call(cx.rt("import_from"), source, cx.string(cx.mangle(alias.name)))
        out.append(b.assign(alias.asname or alias.name, value))
    if len(node.names) > 1:
        out.append(b.assign(module.id, cx.none()))
    return out


@stmt_rule(
    ast.ImportFrom,
    id="import-star",
    summary="from m import * binds m.__all__, else every public name of m.__dict__, "
    "in the module's namespace",
    before="from m import *",
    after="_us_import_star(_us_importer()(_us_s_m, _us_globals(), _us_none, _us_tuple_of(_us_s_star), 0))",
    reference="simple_stmts.html#the-import-statement",
    applies=lambda node: not is_future(node) and node.names[0].name == "*",
)
def lower_import_star(node: ast.ImportFrom, cx: Lowerer) -> list[ast.stmt]:
    """Only a module body may do it (CPython's compiler refuses it elsewhere)."""
    if cx.scope.kind != "module":
        raise SyntaxError(
            "import * only allowed at module level", ("<unknown>", node.lineno, node.col_offset + 1, None)
        )
    module = _import_name(node.module or "", _fromlist(["*"], cx), node.level, cx)
    namespace = cx.scope.namespace
    if namespace is not None:
        return [b.expr(b.call(cx.rt("import_star_in"), b.load(namespace.param), module))]
    return [b.expr(b.call(cx.rt("import_star"), module))]
