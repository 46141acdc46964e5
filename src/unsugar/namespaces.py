"""Scopes whose names live in a mapping: a module body and a class body.

Both become a core ``def`` that receives the mapping (the module's dict, the
namespace ``__prepare__`` returned) and reads and writes the user's names
through it, as ``LOAD_NAME``, ``STORE_NAME`` and ``DELETE_NAME`` do. So the
def's own variables are only the compiler's: helpers, constants, temporaries,
flags. A ``def`` of the user's is made under a temporary and then stored
(``bind_defs_late``), so that it is finished before the mapping sees it.

Its code runs as CPython runs a module or a class body: by ``exec``, with the
mapping as its frame's locals (``f_locals`` is the namespace; at module level,
``f_globals`` too). Its variables are then cells (``run_in_namespace``), so
that the frame has no locals of its own to show or copy into the mapping.

What differs per kind:

* a module reads a name as a plain name: the def binds no user name, so the
  compiler makes it ``LOAD_GLOBAL`` (the module's dict, then the builtins,
  then CPython's own ``NameError``), and stores through ``<prefix>store``,
  the ``__setitem__`` of the mapping bound once;
* a class body reads through ``namespace_load`` (the mapping, then the
  globals and builtins), and the names of enclosing functions through reader
  defs made where the class is (``LOAD_CLASSDEREF``).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from unsugar import builder as b
from unsugar import nodes as ast
from unsugar.trees import UNBOUND_MARK, core_bound_names, own_bindings

if TYPE_CHECKING:
    from unsugar.lowering import Lowerer
    from unsugar.unit import Unit

_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)


@dataclass
class Namespace(ABC):
    """The user's names of one scope, kept in the mapping ``param``."""

    param: str

    def holds(self, name: str, cx: Lowerer) -> bool:
        """Whether a store to ``name`` is the user's (a generated name is a local)."""
        return not name.startswith(cx.unit.names.prefix)

    @abstractmethod
    def load(self, node: ast.Name, cx: Lowerer) -> ast.expr:
        """A read of the user's name ``node``."""

    @abstractmethod
    def store(self, name: str, value: ast.expr, cx: Lowerer) -> ast.stmt:
        """``name = value``."""

    def delete(self, name: str, cx: Lowerer) -> ast.stmt:
        return b.expr(b.call(cx.rt("namespace_remove"), b.load(self.param), cx.string(name)))

    def setup_annotations(self, cx: Lowerer) -> ast.stmt:
        return b.expr(b.call(cx.rt("namespace_setup_annotations"), b.load(self.param)))


@dataclass
class ModuleNamespace(Namespace):
    """The module's dict (or the mapping ``exec`` was given as its locals)."""

    setitem: str = ""

    def load(self, node: ast.Name, cx: Lowerer) -> ast.expr:
        return node

    def store(self, name: str, value: ast.expr, cx: Lowerer) -> ast.stmt:
        return b.expr(b.call(b.load(self.setitem), b.load(self.param), cx.string(name), value))

    def body_def(self, body: list[ast.stmt], cx: Lowerer) -> list[ast.stmt]:
        """The user's module (``body``, lowered) as the def whose code runs in
        the namespace, named ``<module>`` (``run_in_namespace`` makes it the
        def that makes that code, once linked); it takes the module def's name
        out of the namespace and binds the store of that namespace first. An
        error leaves without the module def's entry in its traceback::

            def _us_body(_us_namespace):
                _us_namespace_remove(_us_namespace, _us_s__us_module)
                _us_store = _us_namespace_setitem(_us_namespace)
                ...
            _us_body = _us_module_code(_us_body, _us_namespace)
            try:
                _us_exec(_us_getattr(_us_body, _us_s___code__), ...)
            except:
                _us_module_failed(_us_namespace, _us_s__us_module)
                raise
        """
        name, module = cx.fixed("body"), cx.fixed("module")
        first = [
            b.expr(b.call(cx.rt("namespace_remove"), b.load(self.param), cx.string(module))),
            b.assign(self.setitem, b.call(cx.rt("namespace_setitem"), b.load(self.param))),
        ]
        made, runs = module_runs([name], self.param, cx.unit)
        failed = [b.expr(b.call(cx.rt("module_failed"), b.load(self.param), cx.string(module))), b.raise_()]
        body_def = b.function(name, [self.param], first + body)
        body_def.in_namespace = True
        return [body_def, *made, b.try_except(runs, failed)]


@dataclass
class ClassNamespace(Namespace):
    """A class body's namespace; ``free`` are the names it reads from enclosing functions."""

    free: set[str] = field(default_factory=set)
    readers: dict[str, str] = field(default_factory=dict)  # free name -> its reader def
    #: the free names a ``del`` may unbind (their reads are marked): the reader checks for the marker
    unbindable: set[str] = field(default_factory=set)
    writers: dict[str, str] = field(default_factory=dict)  # nonlocal name -> its writer def
    #: The variable the annotation scopes read the class's names from (``__classdict__``).
    classdict: str | None = None
    #: The cells CPython up to 3.12 copies into the namespace when the body
    #: reads it as its locals (``locals()``, ``vars()``, ``dir()``, ``exec`` and
    #: ``eval`` without a mapping): 1, the ``__class__`` cell (empty while the
    #: body runs: the key is deleted); 2, the ``__classdict__`` cell (3.12: the
    #: namespace is stored under it); 0 on 3.13, which reads the namespace as it is.
    synced_cells: int = 0

    def load(self, node: ast.Name, cx: Lowerer) -> ast.expr:
        name = cx.mangle(node.id)
        if name.startswith(cx.unit.names.prefix):
            return node
        if name in cx.scope.globals:
            return b.call(cx.rt("namespace_global"), cx.string(name))
        if name in self.free or name in cx.scope.nonlocals:
            reader = self.readers.get(name)
            if reader is None:
                reader = self.readers[name] = cx.temp("free")
            if hasattr(node, UNBOUND_MARK):
                self.unbindable.add(name)
            return b.call(cx.rt("namespace_free"), b.load(self.param), cx.string(name), b.load(reader))
        return b.call(cx.rt("namespace_load"), b.load(self.param), cx.string(name))

    def store(self, name: str, value: ast.expr, cx: Lowerer) -> ast.stmt:
        if name in cx.scope.nonlocals:
            writer = self.writers.get(name)
            if writer is None:
                writer = self.writers[name] = cx.temp("set")
            return b.expr(b.call(b.load(writer), value))
        return b.expr(b.call(cx.rt("namespace_store"), b.load(self.param), cx.string(name), value))


#: on a read of a type parameter that the type parameter rules make: the
#: parameter itself, not a read of the class's namespace first
PARAMETER_MARK = "unsugar_type_parameter"


@dataclass
class ClassAnnotations:
    """An annotation scope in a class body (PEP 695): a def whose own names
    are the type parameters (of it and of the annotation scopes around it),
    and which reads any other name from the class's namespace first, as
    ``LOAD_FROM_DICT_OR_GLOBALS`` and ``LOAD_FROM_DICT_OR_DEREF`` do: from a
    variable of the body def (CPython's ``__classdict__`` cell), the namespace
    while the body runs, then the class's own dict, which ``type.__new__``
    puts in the cell stored as ``__classdictcell__``. It may run long after
    the class body (a lazy bound), so a variable of a function around is read
    by a reader def made in the annotation scope itself."""

    namespace: ClassNamespace
    own: frozenset[str]
    #: the type parameters of ``own`` that CPython makes cells (a scope in the
    #: annotation scope reads them, or this is such a scope: a bound, a
    #: default, an alias's value), which it reads from the class's namespace
    #: first, as any free variable: the rule's own reads of the parameters
    #: carry ``PARAMETER_MARK``
    cells: frozenset[str] = frozenset()

    def load(self, node: ast.Name, cx: Lowerer) -> ast.expr:
        name = cx.mangle(node.id)
        if name.startswith(cx.unit.names.prefix) or name in self.own and (
                name not in self.cells or hasattr(node, PARAMETER_MARK)):
            node.id = name
            return node
        if self.namespace.classdict is None:
            self.namespace.classdict = cx.temp("classdict")
        namespace = b.load(self.namespace.classdict)
        if name in self.namespace.free or name in self.cells:
            reader = cx.temp("free")
            cx.emit(variable_reader(reader, name, hasattr(node, UNBOUND_MARK), cx))
            return b.call(cx.rt("namespace_free"), namespace, cx.string(name), b.load(reader))
        return b.call(cx.rt("namespace_load"), namespace, cx.string(name))


def module_runs(defs: list[str], namespace: str, unit: Unit) -> tuple[list[ast.stmt], list[ast.stmt]]:
    """The code that the body defs ``defs`` make, for ``namespace`` (the
    sections of a long module body, in turn), and the statements that run it
    there::

        _us_body = _us_module_code(_us_body, _us_namespace)
        ...
        _us_exec(_us_getattr(_us_body, _us_s___code__), _us_getattr(_us_body, _us_s___globals__),
                 _us_namespace, closure=_us_getattr(_us_body, _us_s___closure__))
    """
    def attribute(name: str, attr: str) -> ast.Call:
        return b.call(unit.builtin("getattr"), b.load(name), unit.string(attr))

    # the flags of the future statements are given to the module's code (what it compiles inherits them)
    helper, flags = ("module_code_future", [b.int_(unit.future_flags)]) if unit.future_flags \
        else ("module_code", [])
    made = [b.assign(name, b.call(unit.helper(helper), b.load(name), b.load(namespace), *flags))
            for name in defs]
    runs: list[ast.stmt] = [b.expr(b.call_with(
        unit.builtin("exec"),
        [attribute(name, "__code__"), attribute(name, "__globals__"), b.load(namespace)],
        [ast.keyword(arg="closure", value=attribute(name, "__closure__"))],
    )) for name in defs]
    return made, runs


def run_in_namespace(body_def: ast.FunctionDef, core: bool) -> None:
    """The body def ``body_def`` (``def f(ns)``, whose code runs in the
    namespace ``ns``, marked ``in_namespace``; ``core``: no sugar kept) made,
    in place, the def that makes that code, once for each run: its variables
    are parameters, so that the code's are cells (a frame run in a mapping has
    no fast locals to show in its ``f_locals`` or to copy into the mapping);
    a class body's ``__class__`` (``class_cell`` on the def) is bound without
    a value (the cell is empty while the body runs)::

        def f(ns):                def f(ns, t, g):
            t = ...                   def f():
            def g(): ...      ->          nonlocal ns, t, g
                                          t = ...
                                          def g(): ...
                                      return f
    """
    if not getattr(body_def, "in_namespace", False):
        return  # (made already: linked again to hoist)
    body_def.in_namespace = False
    namespace = body_def.args.args[0].arg
    if core:  # only assignments and defs bind, and nothing is declared
        own = core_bound_names(body_def.body) - {namespace}
    else:  # sugar kept
        bound, declared = own_bindings(body_def.body)
        own = bound - declared - {namespace}
    cell = getattr(body_def, "class_cell", False)
    params = [namespace, *sorted(own)]
    declared = [*params, "__class__"] if cell else params
    code = b.function(body_def.name, [], [ast.Nonlocal(names=declared), *body_def.body])
    head = [b.while_(b.int_(0), [b.assign("__class__", b.int_(0))])] if cell else []
    body_def.args = b.function(body_def.name, params, []).args
    body_def.body = [*head, code, b.ret(b.load(body_def.name))]


def variable_reader(reader: str, name: str, unbindable: bool, cx: Lowerer) -> ast.FunctionDef:
    """``def reader(): return name``, by which a class body reads the variable
    ``name`` of a function around it; when a ``del`` may unbind the variable,
    the value is checked for the marker (``del-name-read``)::

        def _us_free_1():
            return _us_free_value(x, _us_s_x)
    """
    value = b.load(name)
    if unbindable:
        value = b.call(cx.rt("free_value"), value, cx.string(name))
    return b.function(reader, [], [b.ret(value)])


def bind_defs_late(stmts: list[ast.stmt], cx: Lowerer) -> list[ast.stmt]:
    """Each undecorated ``def f`` of a namespace scope (in its blocks too)
    becomes ``def _us_f_1``, ``f = _us_f_1``, ``_us_f_1 = None``: the function
    is finished (defaults, docstring, ...) before the namespace sees it, as in
    CPython, and the def binds no user name. (A decorated def is made under a
    temporary by the decorator rule.)"""
    out: list[ast.stmt] = []
    for stmt in stmts:
        if isinstance(stmt, _FUNCTIONS) and not stmt.decorator_list:
            shown = stmt.name
            stmt.name = cx.temp(shown.lstrip("_") or "f")
            stmt.shown_name = shown
            out += [stmt, b.copy_location(b.assign(shown, b.load(stmt.name)), stmt),
                    *cx.released([stmt.name])]
            continue
        if not isinstance(stmt, (*_FUNCTIONS, ast.ClassDef)):
            for name in ("body", "orelse", "finalbody"):
                value = getattr(stmt, name, None)
                if isinstance(value, list) and value and isinstance(value[0], ast.stmt):
                    setattr(stmt, name, bind_defs_late(value, cx))
            for part in (*getattr(stmt, "handlers", ()), *getattr(stmt, "cases", ())):
                part.body = bind_defs_late(part.body, cx)
        out.append(stmt)
    return out


def module_def(unit: Unit, body: list[ast.stmt]) -> list[ast.stmt]:
    """The whole output: the helpers and the module body def (``body``) made
    in a def over the namespace, called with it; an error leaves without the
    entry of that call, so that a traceback shows the module's code once, as
    CPython's does::

        def _us_module(_us_namespace):
            ...
        try:
            _us_module(locals())
        except:
            try:
                _us_module()
            except:
                0
            raise

    The handler reads no name the module's code may have bound: the
    module def's handler bound ``_us_module`` again, to a function that
    drops the entry (``module_failed`` in the runtime). Where the error came
    before the module's code ran (making the helpers), the name is still the
    module def, whose call fails: the error leaves as it is.
    """
    name = unit.names.fixed("module")
    dropped = b.try_except([b.expr(b.call(name))], [b.nothing()])
    return [
        b.function(name, [unit.names.fixed("namespace")], body),
        b.try_except([b.expr(b.call(name, b.call("locals")))], [dropped, b.raise_()]),
    ]

