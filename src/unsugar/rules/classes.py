"""Classes: the ``class`` statement as a call of ``build_class`` on a body ``def``.

::

    @d                                def _us_body_C_1(_us_ns_1):
    class C(B, metaclass=M):              __module__ = __name__
        "Doc."                     ->     __qualname__ = "C"
        x = 1                             __doc__ = "Doc."
        def f(self): ...                  x = 1
                                          def _us_f_1(self): ...
                                          f = _us_f_1
                                      C = d(_us_build_class(_us_body_C_1, "C", B, metaclass=M))

``build_class`` is ``builtins.__build_class__`` (``__mro_entries__``, the
metaclass, ``__prepare__``, ``__orig_bases__``, the ``__class__`` cell check)
running the body's code with the namespace as its frame's locals, as CPython
runs a class body (once linked, the body def makes that code:
:func:`unsugar.namespaces.run_in_namespace`). In the body, every name of the class
lives in that namespace, as ``LOAD_NAME``, ``STORE_NAME`` and
``DELETE_NAME`` use it: the body def has no local variable named by the user
(a def is made under a temporary, then stored), so the functions of the class
do not see its names. A name that an enclosing function binds is read as
``LOAD_CLASSDEREF`` does: the namespace first, then the variable. The
builtins ``locals`` and ``vars``, read in the body, return the namespace.

When a function of the class uses ``super`` or ``__class__``, the body def has
a variable ``__class__`` that those functions close over (CPython's compiler
makes any function that reads ``super`` refer to ``__class__``); its cell is
stored as ``__classcell__``, and ``type.__new__`` fills it.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, partial

from unsugar import builder as b
from unsugar import nodes as ast
from unsugar.analysis import marked
from unsugar.lowering import PROLOGUES, Lowerer, Scope, declared_names, mangle
from unsugar.namespaces import ClassNamespace, bind_defs_late, variable_reader
from unsugar.registry import stmt_rule
from unsugar.rules.functions import docstring_of
from unsugar.trees import CLASS_FACTS_MARK, block_fields, children, walk

#: Set on a ``ClassDef`` by the module analysis: the names its body reads
#: from an enclosing function (``LOAD_CLASSDEREF``).
FREE_MARK = "unsugar_class_free"
#: Set on the ``ClassDef`` a generic class becomes: the variable holding its
#: type parameters, stored as ``__type_params__`` first in the body.
TYPE_PARAMS = "unsugar_type_params"
#: Set on a ``ClassDef`` that stays a class (:func:`binds_through_kept_sugar`).
KEPT_CLASS_MARK = "unsugar_kept_class"

_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
#: the statements that make a scope
_DEFINITIONS = (*_FUNCTIONS, ast.ClassDef)
#: the node types that make a scope
_SCOPES = frozenset({*_FUNCTIONS, ast.Lambda, ast.ClassDef, *_COMPREHENSIONS})


@dataclass
class ClassBody:
    """Carried by the body def the class rule makes; lowers it in the class's scope."""

    node: ast.ClassDef
    namespace: ClassNamespace
    head: list[ast.stmt]  # __module__, __qualname__, ...: before the prologue
    ending: list[ast.stmt]  # __static_attributes__: after the body, lowered there
    tail: list[ast.stmt]  # core: after the body

    def lower(self, fn: ast.FunctionDef, cx: Lowerer) -> list[ast.stmt]:
        cls = self.node
        name = shown_name(cls)
        qualname = cx.qualname(name)
        global_names, nonlocal_names = declared_names(cls, name)
        scope = Scope("class", qualname + ".", name, global_names, nonlocal_names, cls, self.namespace)
        with cx.new_scope(scope):
            head = cx.block(self.head)
            body = cx.block(cx.with_prologue(fn.body))
            ending = b.located(cx.block(self.ending), cls)
        namespace = self.namespace
        readers = [
            variable_reader(reader, name, name in namespace.unbindable, cx)
            for name, reader in namespace.readers.items()
        ]
        for name, writer in self.namespace.writers.items():
            value = cx.temp("value")
            readers.append(b.function(
                writer, [value], [ast.Nonlocal(names=[name]), b.assign(name, b.load(value))]
            ))
        # a variable declared ``nonlocal`` and never used is still a free variable
        # of the functions around, as in CPython (their ``locals()`` show it):
        # ``def _us_cell_1(): nonlocal x`` makes it one
        for name in sorted(nonlocal_names - namespace.readers.keys() - namespace.writers.keys()):
            readers.append(b.function(cx.temp("cell"), [], [ast.Nonlocal(names=[name])]))
        # the readers and writers of the closure variables are made where the
        # class is, the body def has no ``nonlocal``: its own ``__class__`` (the
        # cell of this class) must not hide an enclosing one
        tail = self.tail
        classdict = self.namespace.classdict
        if classdict is not None:  # read by annotation scopes
            head.insert(0, b.assign(classdict, b.load(self.namespace.param)))
            reader = cx.temp("classdictcell")
            tail = [b.function(reader, [], [b.ret(b.load(classdict))]), b.expr(b.call(
                cx.rt("class_dict_cell"), b.load(self.namespace.param), b.load(reader))), *tail]
        fn.body = b.located([*head, *body], cls) + ending + tail
        rename = b.call(cx.rt("rename_function"), b.load(fn.name), cx.string(name),
                        cx.string(qualname))
        return [*b.located(readers, cls), fn, b.copy_location(b.expr(rename), cls)]


@stmt_rule(
    ast.ClassDef,
    id="class",
    summary="a class body becomes a def run in the namespace __prepare__ returns, its names "
    "stored there; build_class then calls the metaclass; decorators applied bottom up",
    before="@d\nclass C(B):\n    x = 1",
    after="def _us_body_C_1(_us_ns_1):\n"
    "    _us_namespace_store(_us_ns_1, _us_s___module__, _us_namespace_load(_us_ns_1, _us_s___name__))\n"
    "    _us_namespace_store(_us_ns_1, _us_s___qualname__, _us_s_C)\n"
    "    _us_class_first_line(_us_ns_1, 1)\n"
    "    _us_namespace_store(_us_ns_1, _us_s_x, 1)\n"
    "    _us_class_static_attributes(_us_ns_1)\n"
    "_us_rename_function(_us_body_C_1, _us_s_C, _us_s_C)\n"
    "C = d(_us_build_class(_us_body_C_1, _us_s_C, B))",
    reference="compound_stmts.html#class-definitions",
    applies=lambda node: not getattr(node, "type_params", None) and not hasattr(node, KEPT_CLASS_MARK),
)
def lower_class(node: ast.ClassDef, cx: Lowerer) -> list[ast.stmt]:
    """The decorators are evaluated first, then the bases and keywords (the
    body def is made before them, which nothing can observe); the name is
    bound once the decorators have run. A class whose body binds names
    through sugar kept stays a class (:func:`binds_through_kept_sugar`)."""
    if cx.unit.keep and binds_through_kept_sugar(node, cx.unit.keep):
        setattr(node, KEPT_CLASS_MARK, True)
        return [node]
    name = shown_name(node)
    namespace = ClassNamespace(cx.temp("ns"), getattr(node, FREE_MARK, set()))
    if makes_annotation_scope(node):
        namespace.classdict = cx.temp("classdict")
    ns = b.load(namespace.param)
    first_line = node.decorator_list[0].lineno if node.decorator_list else node.lineno
    declared = set().union(*declared_names(node, name))
    head = [
        b.assign("__module__", b.load("__name__")),
        b.assign("__qualname__", ast.Constant(cx.qualname(name))),
        _implicit_store("__firstlineno__", declared, b.call(cx.rt("class_first_line"), ns, b.int_(first_line)),
                        b.int_(first_line)),
    ]
    if hasattr(node, TYPE_PARAMS):
        head.append(b.assign("__type_params__", b.load(getattr(node, TYPE_PARAMS))))
    body = bind_defs_late(list(node.body), cx)
    if docstring_of(body) is not None and not cx.keeps("docstring"):
        text = b.call(cx.rt("docstring_text"), body[0].value)
        body[0] = b.if_(b.call(cx.rt("docstrings_kept")), [b.assign("__doc__", text)])
    attributes, class_cell = class_facts(node)
    namespace.synced_cells = synced_cells(node, class_cell)
    names = [ast.Constant(attribute) for attribute in attributes]
    ending = [_implicit_store(
        "__static_attributes__", declared,
        b.call(cx.rt("class_static_attributes"), b.load(namespace.param), *names),
        b.call(cx.rt("tuple_of"), *names),
    )]
    tail: list[ast.stmt] = []
    if class_cell:
        reader = cx.temp("classcell")
        tail += [
            b.function(reader, [], [b.ret(b.load("__class__"))]),
            b.expr(b.call(cx.rt("class_cell"), b.load(namespace.param), b.load(reader))),
        ]
    fn = b.function(cx.temp("body_" + (name.lstrip("_") or "C")), [namespace.param], body)
    fn.class_body = ClassBody(node, namespace, head, ending, b.located(tail, node))
    fn.in_namespace = True  # its code runs in the namespace (``run_in_namespace``)
    fn.class_cell = class_cell  # its variable ``__class__`` (bound there, never set)
    cx.unit.class_bodies.append(fn)
    value: ast.expr = b.call_with(
        cx.rt("build_class"), [b.load(fn.name), ast.Constant(name), *node.bases], node.keywords
    )
    for decorator in reversed(node.decorator_list):
        value = b.call(decorator, value)
    return [fn, b.assign(node.name, value)]


def _implicit_store(name: str, declared: set[str], helper: ast.expr, value: ast.expr) -> ast.stmt:
    """What the compiler stores in a class body from 3.13 (``__firstlineno__``,
    ``__static_attributes__``): ``helper``, which stores it in the namespace on
    3.13 and later; but where the body declares ``name`` global or nonlocal,
    ``name = value`` in the body, which goes there, as CPython's store does."""
    if name in declared and sys.version_info >= (3, 13):
        return b.assign(name, value)
    return b.expr(helper)


#: For each rule, the nodes whose sugar, when the rule is kept, binds names
#: where it stands (a target, an alias, a handler's name, a decorated def's
#: name): in a class body made a def, they would be that def's variables, not
#: the namespace's. (A def kept otherwise is bound there late, as any def.)
KEPT_BINDERS: dict[str, Callable[[ast.AST], bool]] = {
    "for": lambda node: isinstance(node, ast.For),
    "with": lambda node: isinstance(node, ast.With),
    "import": lambda node: isinstance(node, ast.Import),
    "import-from": lambda node: isinstance(node, ast.ImportFrom),
    "except": lambda node: isinstance(node, ast.Try) and any(h.name for h in node.handlers),
    "except-star": lambda node: isinstance(node, ast.TryStar) and any(h.name for h in node.handlers),
    "decorator": lambda node: isinstance(node, _FUNCTIONS) and bool(node.decorator_list),
    "generic-class": lambda node: isinstance(node, ast.ClassDef) and bool(getattr(node, "type_params", ())),
    "type-alias": lambda node: type(node).__name__ == "TypeAlias",
    # a target unpacked: an assignment's, and those the for and with rules make
    "unpack": lambda node: isinstance(node, (ast.Assign, ast.For, ast.With)),
    "chained-assign": lambda node: isinstance(node, ast.Assign) and len(node.targets) > 1,
    "augassign": lambda node: isinstance(node, ast.AugAssign),
    "annassign": lambda node: isinstance(node, ast.AnnAssign),
    "match": lambda node: isinstance(node, ast.Match),
    "walrus": lambda node: isinstance(node, ast.NamedExpr),
    "del-targets": lambda node: isinstance(node, ast.Delete),
    "del-name": lambda node: isinstance(node, ast.Delete),
}


def binds_through_kept_sugar(node: ast.ClassDef, keep: frozenset[str]) -> bool:
    """Whether the body of class ``node`` holds sugar kept that binds names
    (:data:`KEPT_BINDERS`). Such a class stays a class: CPython binds those
    names in its namespace (``--keep for`` keeps ``for i in ...`` a loop whose
    target is the class attribute ``i``), as the module body stays at module
    level when sugar is kept."""
    tests = [KEPT_BINDERS[rule] for rule in keep if rule in KEPT_BINDERS]
    if not tests:
        return False
    own, _ = _scope_walk(list(node.body))
    return any(test(item) for item in own for test in tests)


def shown_name(node: ast.ClassDef) -> str:
    """The class's name: a generic class is made under a temporary."""
    return getattr(node, "shown_name", node.name)


# ------------------------------------------------------------------ analysis
def _scope_walk(nodes: list[ast.AST]) -> tuple[list[ast.AST], list[ast.AST]]:
    """The nodes of one scope, and the scopes (functions, lambdas, classes,
    comprehensions) made in it, in no particular order; what those evaluate
    where they are made (decorators, defaults, bases, the first iterable)
    belongs to this scope."""
    own: list[ast.AST] = []
    nested: list[ast.AST] = []
    todo = list(nodes)
    while todo:
        node = todo.pop()
        own.append(node)
        kind = type(node)
        if kind not in _SCOPES:
            todo += children(node)
            continue
        nested.append(node)
        if kind is ast.ClassDef:
            todo += [*node.decorator_list, *getattr(node, "type_params", ()), *node.bases,
                     *node.keywords]
        elif kind in _COMPREHENSIONS:
            todo.append(node.generators[0].iter)
        else:
            args = node.args
            todo += [*getattr(node, "decorator_list", ()), *getattr(node, "type_params", ()),
                     *args.defaults, *(d for d in args.kw_defaults if d is not None)]
            if kind is not ast.Lambda:
                todo += [a.annotation for a in b.parameters(args) if a.annotation is not None]
                if node.returns is not None:
                    todo.append(node.returns)
    return own, nested


def _inside(node: ast.AST) -> list[ast.AST]:
    """What runs in the scope ``node`` makes."""
    if isinstance(node, (*_FUNCTIONS, ast.ClassDef)):
        return list(node.body)
    if isinstance(node, ast.Lambda):
        return [node.body]
    first, *rest = node.generators
    parts: list[ast.AST] = [first.target, *first.ifs, *rest]
    if isinstance(node, ast.DictComp):
        return [*parts, node.key, node.value]
    return [*parts, node.elt]


@dataclass
class _Names:
    """The bindings of one scope."""

    bound: set[str]
    globals: set[str]
    nonlocals: set[str]
    loads: set[str]


def _names(node: ast.AST, class_name: str | None) -> _Names:
    own, nested = _scope_walk(_inside(node))
    found = _Names(set(), set(), set(), set())
    if isinstance(node, _FUNCTIONS):
        found.bound.update(a.arg for a in b.parameters(node.args))
    for item in own:
        if isinstance(item, ast.Name):
            (found.loads if isinstance(item.ctx, ast.Load) else found.bound).add(item.id)
        elif isinstance(item, ast.Global):
            found.globals.update(item.names)
        elif isinstance(item, ast.Nonlocal):
            found.nonlocals.update(item.names)
        elif isinstance(item, ast.alias):
            found.bound.add((item.asname or item.name).partition(".")[0])
        elif isinstance(item, (ast.ExceptHandler, ast.MatchAs, ast.MatchStar)) and item.name:
            found.bound.add(item.name)
        elif isinstance(item, ast.MatchMapping) and item.rest:
            found.bound.add(item.rest)
    for scope in nested:
        if isinstance(scope, (*_FUNCTIONS, ast.ClassDef)):
            found.bound.add(scope.name)
        elif isinstance(scope, _COMPREHENSIONS):  # (x := v) binds in this scope
            found.bound.update(n.target.id for n in walk(scope) if isinstance(n, ast.NamedExpr))
    for names in (found.bound, found.globals, found.nonlocals, found.loads):
        mangled = {mangle(name, class_name) for name in names}
        names.clear()
        names.update(mangled)
    return found


def _known(names: _Names) -> Callable[[], _Names]:
    return lambda: names


def _definitions(body: list[ast.stmt]) -> list[ast.stmt]:
    """The ``def`` and ``class`` statements of the scope whose statements are
    ``body``, in its compound statements too: a class is made only by a
    statement, so no expression needs a look."""
    found: list[ast.stmt] = []
    todo: list[ast.AST] = list(body)
    while todo:
        stmt = todo.pop()
        if isinstance(stmt, _DEFINITIONS):
            found.append(stmt)
        else:
            for name in block_fields(type(stmt)):
                todo += getattr(stmt, name, None) or ()  # (a node made without the field)
    return found


def _mark_classes(
    definitions: list[ast.stmt], class_name: str | None, functions: list[Callable[[], _Names]]
) -> None:
    """Mark every class among ``definitions`` (the ``_definitions`` of a scope)
    and in them with the names it reads from the functions around it;
    ``functions`` give those functions' bindings (found only if a class
    inside them asks)."""
    for scope in definitions:
        inner = _definitions(scope.body)
        around = functions
        if getattr(scope, "type_params", None):
            # its annotation scope binds the type parameters
            private = scope.name if isinstance(scope, ast.ClassDef) else class_name
            params = {mangle(param.name, private) for param in scope.type_params}
            around = [*functions, _known(_Names(params, set(), set(), set()))]
        if isinstance(scope, ast.ClassDef):
            free = set()
            if around:  # (else no scope around it binds a name it could read)
                names = _names(scope, scope.name)
                for name in names.loads - names.bound - names.globals:
                    for bindings in reversed(around):
                        outer = bindings()
                        if name in outer.globals:
                            break
                        if name in outer.bound or name in outer.nonlocals:
                            free.add(name)
                            break
            setattr(scope, FREE_MARK, free)
            if inner:
                _mark_classes(inner, scope.name, [*around, cache(partial(_cell_names, scope))])
        elif inner:
            _mark_classes(inner, class_name, [*around, cache(partial(_names, scope, class_name))])


def mark_class_free_names(body: list[ast.stmt], cx: Lowerer) -> list[ast.stmt]:
    """A module prologue that adds nothing: it marks each class with
    ``FREE_MARK``, where a class is made in a scope other than the module's
    (a def, a class, a generic's annotation scope): a class made in the
    module's own has no scope around it whose names it could read."""
    if cx.scope.kind == "module" and not cx.keeps("class"):
        module = cx.module_scopes[0]
        if any(scope.kind == "class" and scope.parent is not module for scope in cx.module_scopes):
            _mark_classes(_definitions(body), None, [])
    return []


PROLOGUES.append(mark_class_free_names)


def _cell_names(node: ast.ClassDef) -> _Names:
    """What the scopes in the class see bound in it: its ``__class__`` cell, if it has one."""
    return _Names({"__class__"} if class_facts(node)[1] else set(), set(), set(), set())


def synced_cells(node: ast.ClassDef, class_cell: bool) -> int:
    """The cells of the class body that a read of its locals copies into the
    namespace up to 3.12 (``ClassNamespace.synced_cells``): its ``__class__``
    cell, and on 3.12 its ``__classdict__`` cell, which CPython gives a class
    whose body makes an annotation scope (a generic def or class, a type alias)."""
    if sys.version_info >= (3, 13):
        return 0
    cells = 1 if class_cell else 0
    if makes_annotation_scope(node):
        cells |= 2
    return cells


def makes_annotation_scope(node: ast.ClassDef) -> bool:
    """Whether the class body makes an annotation scope (3.12+: a generic def
    or class, a type alias): CPython then gives the body a ``__classdict__``
    cell, which the namespace holds as ``__classdictcell__``, whatever names
    the annotation scopes read (the module's analysis marks it,
    ``CLASS_FACTS_MARK``)."""
    return marked(node, CLASS_FACTS_MARK)[2]


def class_facts(node: ast.ClassDef) -> tuple[list[str], bool]:
    """``(attributes, class_cell)`` of the class: the sorted ``x`` of the
    ``self.x = ...`` in it (``__static_attributes__``), and whether CPython
    gives it a ``__class__`` cell (a function in it uses ``super`` or
    ``__class__``, or the body of a class in it reads ``__class__``). The
    module's scope analysis marks every class of the input
    (``CLASS_FACTS_MARK``); a class a rule made is analysed alone."""
    attributes, class_cell, _ = marked(node, CLASS_FACTS_MARK)
    return attributes, class_cell
