"""Scopes whose names live in a mapping: a module body and a class body.

Both become a core ``def`` that receives the mapping (the module's dict, the
namespace ``__prepare__`` returned) and reads and writes the user's names
through it, as ``LOAD_NAME``, ``STORE_NAME`` and ``DELETE_NAME`` do. So the
def's own locals are only the compiler's: helpers, constants, temporaries,
flags. A ``def`` of the user's is made under a temporary and then stored
(``bind_defs_late``), so that it is finished before the mapping sees it.

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

import ast
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from unsugar import builder as b
from unsugar.trees import UNBOUND_MARK

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
        """The user's module (``body``, lowered) as the def that runs it, named
        ``<module>``; it takes the module def's name out of the namespace and
        binds the store of that namespace first. An error leaves without the
        module def's entry in its traceback::

            def _us_body(_us_namespace):
                _us_namespace_remove(_us_namespace, _us_s__us_module)
                _us_store = _us_namespace_setitem(_us_namespace)
                ...
            _us_module_code_named(_us_body)
            try:
                _us_body(_us_namespace)
            except:
                _us_module_failed(_us_namespace, _us_s__us_module)
                raise
        """
        name, module = cx.fixed("body"), cx.string(cx.fixed("module"))
        first = [
            b.expr(b.call(cx.rt("namespace_remove"), b.load(self.param), module)),
            b.assign(self.setitem, b.call(cx.rt("namespace_setitem"), b.load(self.param))),
        ]
        return [
            b.function(name, [self.param], first + body),
            b.expr(b.call(cx.rt("module_code_named"), b.load(name))),
            b.try_except([b.expr(b.call(name, b.load(self.param)))],
                         [b.expr(b.call(cx.rt("module_failed"), b.load(self.param), module)), b.raise_()]),
        ]


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

    def load(self, node: ast.Name, cx: Lowerer) -> ast.expr:
        name = cx.mangle(node.id)
        if name.startswith(cx.unit.names.prefix) or name in self.own:
            node.id = name
            return node
        if self.namespace.classdict is None:
            self.namespace.classdict = cx.temp("classdict")
        namespace = b.load(self.namespace.classdict)
        if name in self.namespace.free:
            reader = cx.temp("free")
            cx.emit(variable_reader(reader, name, hasattr(node, UNBOUND_MARK), cx))
            return b.call(cx.rt("namespace_free"), namespace, cx.string(name), b.load(reader))
        return b.call(cx.rt("namespace_load"), namespace, cx.string(name))


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

