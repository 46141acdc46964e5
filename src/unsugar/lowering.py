"""The first phase: one walk that dispatches every node to its rule.

Statements are visited in order; a statement rule returns the statements it
expands to, which are lowered again (so a rule may produce sugar). An
expression rule builds a core expression from its already-lowered children.

Expressions that must run statements (``a and b``, ``x if c else y``,
chained comparisons, walrus, lambda) *emit* them into the prelude of the
statement being lowered. To keep the language's evaluation order, when a
child emits statements, every sibling evaluated before it is first saved to
a temporary (``spill``)::

    f(g(), a and b)   ->   _us_t_1 = g()
                           _us_and_1 = a
                           if _us_and_1: _us_and_1 = b
                           f(_us_t_1, _us_and_1)

What this phase leaves for the control-flow phase (:mod:`unsugar.control`):
``if``, ``while`` (maybe with ``else``), ``break``, ``continue``, ``return``
and ``try`` with one bare handler or a ``finally``.
"""

from __future__ import annotations

from ast import Assign, Call, Constant, Expr, Name, Yield  # (asked for every node: a load, not two)
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any, TypeVar

from unsugar import builder as b
from unsugar import lifetimes
from unsugar import nodes as ast
from unsugar.analysis import analyse_scopes, marked
from unsugar.forms import ForLoop, WithBlock
from unsugar.namespaces import ModuleNamespace, bind_defs_late
from unsugar.registry import SELECTORS, Rule, load_all
from unsugar.scopes import AnalysedScope
from unsugar.trees import (
    DECLARED_MARK,
    NAMES_BOUND,
    REBOUND_MARK,
    Scoped,
    asdl_fields,
    block_fields,
    children,
    compiled_for_class,
    is_placing,
    node_fields,
    walk,
)
from unsugar.unit import Unit, is_docstring

#: where a sub-expression is: its owner, the field, the index in the field's list (or None)
Slot = tuple[ast.AST, str, int | None]

if TYPE_CHECKING:
    from unsugar.namespaces import ClassAnnotations, Namespace

T = TypeVar("T")

#: an expression nested this deep in another is computed into a temporary
#: first, so that the output's calls never nest past the 200 parentheses
#: CPython's tokenizer allows (``1 + 1 + ... + 1`` is calls nested in calls)
SPILL_DEPTH = 50
#: Nodes whose insides run in a scope of their own; without a rule for them
#: they are left untouched (rewriting their parts in place would move code
#: out of that scope).
OPAQUE_EXPRESSIONS = frozenset({ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp, ast.Lambda})

#: Statements without a rule whose expression fields are evaluated once,
#: before anything else the statement does, so their prelude may come first.
EAGER_FIELDS: dict[type[ast.stmt], tuple[str, ...]] = {
    ForLoop: (),
    ast.For: ("iter",),
    ast.AsyncFor: ("iter",),
    ast.ClassDef: ("decorator_list", "bases", "keywords"),
    ast.Delete: (),
}

#: Hooks called when a module or class body starts to be lowered, with its
#: statements and the lowerer (``cx.scope`` is the new scope). Each returns
#: statements that the body runs first, after its docstring (e.g. creating
#: ``__annotations__``); a hook may also just analyse the body.
PROLOGUES: list[Callable[[list[ast.stmt], Lowerer], list[ast.stmt]]] = []

#: Lowerings of an expression for its truth alone (see ``Lowerer.condition``),
#: by node type, registered by the rules of the short-circuiting forms. A hook
#: returns None when it does not apply (e.g. its rule is kept).
CONDITIONS: dict[type[ast.expr], Callable[[ast.expr, Lowerer], ast.expr | None]] = {}


@dataclass
class Scope:
    """A namespace of the program being lowered."""

    kind: str  # "module", "function" or "class"
    qualname: str  # prefix for the qualified names of what it defines
    class_name: str | None = None  # nearest enclosing class, for mangling
    globals: set[str] = field(default_factory=set)
    nonlocals: set[str] = field(default_factory=set)
    node: ast.AST | None = None
    #: A rewritten class body: its names live in a namespace it is given.
    namespace: Namespace | None = None
    #: An annotation scope in a rewritten class body: it reads the class's names first.
    annotations: ClassAnnotations | None = None
    #: A function's parameters that nothing rebinds or deletes: always bound, to
    #: the same object, so reading one has no effect (see :func:`function_declarations`).
    stable: frozenset[str] = frozenset()
    #: A function's variables that no nested scope binds (:func:`unshared_locals`), made when first asked
    unshared: frozenset[str] | None = None
    #: The only private names mangled here, when not all are: in the
    #: annotation scope of a generic class (3.13, and 3.12.4 on), its type
    #: parameters', and in the scopes nested there
    mangled: frozenset[str] | None = None


def function_declarations(
    node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda, class_name: str | None
) -> tuple[set[str], set[str], frozenset[str]]:
    """The names ``node``'s body declares ``global`` and ``nonlocal``
    (:func:`declared_names`), and its stable parameters: those
    (mangled) that nothing in the body binds, nested scopes included (what
    the scope analysis marks, ``REBOUND_MARK``). Reading a stable parameter
    gives the same object at any time, so it need not be evaluated first
    (``self`` in ``self.x = f()``)."""
    arguments = node.args
    parameters = {arg.arg for arg in (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs)}
    parameters.update(arg.arg for arg in (arguments.vararg, arguments.kwarg) if arg is not None)
    global_names, nonlocal_names = declared_names(node, class_name)
    if parameters:
        parameters -= marked(node, REBOUND_MARK)
    return global_names, nonlocal_names, frozenset(mangle(name, class_name) for name in parameters)


#: Statements that open a scope of their own.
_SCOPE_STATEMENTS = frozenset({ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef})
#: Statements after which their frame, or the handler around them, goes on
_ENDS_FRAME = frozenset({ast.Return, ast.Raise})
#: Values released as they are, and those that stay where they stand
_NAME_OR_CONSTANT = (ast.Name, ast.Constant)
_STAYS_IN_PLACE = (ast.Starred, ast.Slice, ast.FormattedValue)


def declared_names(
    node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | ast.ClassDef, class_name: str | None
) -> tuple[set[str], set[str]]:
    """The names the body of ``node`` declares ``global`` and ``nonlocal``,
    mangled: as the scope analysis marked them (``DECLARED_MARK``), or, for a
    node a rule made, as :func:`declarations` finds them."""
    declared = getattr(node, DECLARED_MARK, None)
    if declared is None:
        return declarations(node.body if isinstance(node.body, list) else [], class_name)
    global_names, nonlocal_names = declared
    return {mangle(name, class_name) for name in global_names}, \
        {mangle(name, class_name) for name in nonlocal_names}


def declarations(body: list[ast.stmt], class_name: str | None = None) -> tuple[set[str], set[str]]:
    """The names declared ``global`` and those declared ``nonlocal`` directly
    in this scope, mangled. Only statements declare, so only the blocks of
    statements are looked into."""
    global_names: set[str] = set()
    nonlocal_names: set[str] = set()
    todo: list[ast.AST] = list(body)
    pop = todo.pop
    while todo:
        node = pop()
        kind = type(node)
        if kind is ast.Global:
            global_names.update(mangle(name, class_name) for name in node.names)
        elif kind is ast.Nonlocal:
            nonlocal_names.update(mangle(name, class_name) for name in node.names)
        elif kind not in _SCOPE_STATEMENTS:
            for name in block_fields(kind):
                todo += getattr(node, name, None) or ()  # (a node made without the field)
    return global_names, nonlocal_names


#: The names a node binds, by node type (besides a ``Name`` stored or deleted);
#: a ``global`` or ``nonlocal`` declaration counts as binding its names.
_BINDINGS: dict[type, Callable[[Any], Iterable[str]]] = {
    **NAMES_BOUND,
    ast.Global: lambda node: node.names,
    ast.Nonlocal: lambda node: node.names,
}


def bound_names(body: list[ast.stmt]) -> set[str]:
    """Every name that ``body`` binds, deletes or declares, in its own scope
    or in a nested one (conservatively: a name a nested scope binds counts)."""
    bound: set[str] = set()
    todo: list[ast.AST] = list(body)
    pop, extend, add = todo.pop, todo.extend, bound.add
    name_type, load_type, constant_type, bindings = ast.Name, ast.Load, ast.Constant, _BINDINGS.get
    while todo:
        node = pop()
        kind = type(node)
        if kind is name_type:
            if type(node.ctx) is not load_type:
                add(node.id)
        elif kind is not constant_type:
            binds = bindings(kind)
            if binds is not None:
                bound.update(binds(node))
            extend(children(node))
    return bound


#: the nodes whose contents are a scope of their own
_NESTED_SCOPES = (
    ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef,
    ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp,
)


def unshared_locals(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> frozenset[str]:
    """The local variables of function ``node`` (unmangled) that no scope
    nested in it binds or declares: only the function's own statements bind
    them, so nothing else can while one of its statements runs. (A def or
    class in it counts as binding its name: conservatively.)"""
    body = node.body if isinstance(node.body, list) else [ast.Expr(node.body)]
    arguments = node.args
    local = {arg.arg for arg in (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs)}
    local.update(arg.arg for arg in (arguments.vararg, arguments.kwarg) if arg is not None)
    local |= bound_names(body)
    for statement in body:
        for sub in walk(statement):
            if isinstance(sub, _NESTED_SCOPES):
                local -= bound_names([sub])
    return frozenset(local)


def mangle(name: str, class_name: str | None) -> str:
    """Private name mangling: ``__x`` in class ``C`` is ``_C__x``."""
    if not class_name or not name.startswith("__") or name.endswith("__") or "." in name:
        return name
    stripped = class_name.lstrip("_")
    if not stripped:
        return name
    return f"_{stripped}{name}"


#: the method of :class:`Lowerer` that lowers a statement no rule applies to,
#: by node type (functions: bound methods kept by a lowerer would make it a
#: cycle, with the whole module in it, that only the garbage collector frees)
_STMT_METHODS: dict[type[ast.AST], Callable[[Lowerer, ast.stmt], list[ast.stmt]]] = {}


#: rules by the node type they apply to, in the registry's order
RuleTable = dict[type[ast.AST], list[Rule]]


@cache
def _rule_tables(keep: frozenset[str]) -> tuple[RuleTable, RuleTable]:
    """The expression rules and the statement rules, but those ``keep`` names
    (made once per set kept; read only)."""
    tables: dict[str, RuleTable] = {"expr": {}, "stmt": {}}
    for rule in load_all().values():
        table = tables.get(rule.kind)
        if table is not None and rule.id not in keep:
            for node_type in rule.nodes:
                table.setdefault(node_type, []).append(rule)
    return tables["expr"], tables["stmt"]


@cache
def _selected_rules(keep: frozenset[str]) -> defaultdict[type[ast.AST], dict[object, list[Rule]]]:
    """Where ``keep`` is kept, the rules of a node type that may apply to a
    node with a key (:data:`SELECTORS`), by type, then key, as :meth:`Lowerer._rule`
    finds them (once per process: a callee's name comes back in every module)."""
    return defaultdict(dict)


@cache
def _name_marks(keep: frozenset[str]) -> tuple[str, ...] | None:
    """The marks the name rules apply to (:attr:`Rule.marked`): a name with
    none of them is left to no rule. None if a name rule may apply to any name."""
    rules = _rule_tables(keep)[0].get(ast.Name, [])
    marks = tuple(rule.marked for rule in rules if rule.marked is not None)
    return marks if len(marks) == len(rules) else None


class Lowerer:
    """Lowers one module; the ``cx`` every rule receives."""

    def __init__(self, unit: Unit) -> None:
        self.unit = unit
        self.pre: list[ast.stmt] = []
        self.scopes: list[Scope] = []
        #: the preludes of the scopes around the current one (:meth:`new_scope`)
        self.outer_preludes: list[list[ast.stmt]] = []
        #: the innermost scope, the last of ``scopes`` (:meth:`new_scope`)
        self.scope: Scope
        self.expression_depth = 0  # expressions being lowered around the current one
        #: whether new nodes are placed (:func:`unsugar.trees.placing`): not where text is written
        self.placing = is_placing()
        #: the scopes of the module being lowered, its own first
        #: (:mod:`unsugar.analysis`): what the prologues read
        self.module_scopes: list[AnalysedScope] = []
        self._expr_rules, self._stmt_rules = _rule_tables(unit.keep)
        #: the rules of a node type that may apply to a node with a key (:meth:`_rule`)
        self._selected = _selected_rules(unit.keep)
        self._name_marks = _name_marks(unit.keep)
        # what the rules ask of the unit most, bound once (a call each, not two)
        #: a fresh temporary name: ``temp(hint="t")``
        self.temp: Callable[..., str] = unit.names.temp
        #: the generated name ``name``, the same in every scope
        self.fixed: Callable[[str], str] = unit.names.fixed
        #: a reference to runtime helper ``name``
        self.rt: Callable[[str], ast.Name] = unit.helper
        #: a reference to builtin ``name``, safe from user shadowing
        self.builtin: Callable[[str], ast.Name] = unit.builtin
        #: a reference to the interned string ``value``
        self.string: Callable[[str], ast.Name] = unit.string
        #: ``method(type_name, method)``: the method of a builtin type
        #: (``list.append``), looked up once at the top of the module
        self.method: Callable[[str, str], ast.Name] = unit.method

    # ------------------------------------------------------------------ API
    def keeps(self, rule_id: str) -> bool:
        """Whether the user asked to keep the sugar of ``rule_id``."""
        return rule_id in self.unit.keep

    def none(self) -> ast.Name:
        return self.rt("none")

    def identity(self, left: ast.expr, right: ast.expr, same: bool = True) -> ast.expr:
        """``left is right`` (``is not`` unless ``same``) of operands that stay alive
        while both are read: ``int.__eq__(id(left), id(right))`` in place, or
        ``operator.is_`` (``is_not``) with native semantics."""
        if self.unit.semantics == "native":
            return b.call(self.rt("compare_is" if same else "compare_is_not"), left, right)
        test = self.method("int", "__eq__" if same else "__ne__")
        return b.call(test, self._id_of(left), self._id_of(right))

    def _id_of(self, operand: ast.expr) -> ast.expr:
        """``id(operand)``; for ``None``, which lives as long as the process, its
        id computed once (``_us_none_id``)."""
        if isinstance(operand, ast.Name) and operand.id == self.unit.names.fixed("none"):
            return self.rt("none_id")
        return b.call(self.builtin("id"), operand)

    def mangle(self, name: str) -> str:
        scope = self.scope
        if scope.class_name is None or name[:2] != "__" or scope.mangled is not None and name not in scope.mangled:
            return name
        return mangle(name, scope.class_name)

    def emit(self, *stmts: ast.stmt) -> None:
        """Add already-lowered statements to the current prelude."""
        self.pre.extend(stmts)

    def capture(self, func: Callable[[], T]) -> tuple[list[ast.stmt], T]:
        """Run ``func`` with a fresh prelude; return what it emitted and its result."""
        saved, self.pre = self.pre, []
        try:
            result = func()
            return self.pre, result
        finally:
            self.pre = saved

    def is_pure(self, node: ast.expr) -> bool:
        """Whether evaluating ``node`` later gives the same value, without effects:
        a constant, a temporary, a parameter nothing rebinds."""
        if isinstance(node, ast.Constant):
            return True
        return isinstance(node, ast.Name) and (
            node.id.startswith(self.unit.names.prefix) or node.id in self.scope.stable)

    def is_plain_local(self, node: ast.expr) -> bool:
        """Whether ``node`` names a variable of this function that no nested
        scope binds (:func:`unshared_locals`): reading it has no effect, and
        reading it twice with nothing run between gives the same object."""
        scope = self.scope
        if type(node) is not ast.Name or scope.kind != "function" or scope.annotations is not None \
                or scope.node is None:
            return False
        name = self.mangle(node.id)
        if name in scope.globals or name in scope.nonlocals:
            return False
        if scope.unshared is None:
            scope.unshared = frozenset(mangle(local, scope.class_name) for local in unshared_locals(scope.node))
        return name in scope.unshared

    def spill(self, node: ast.expr, hint: str = "t") -> ast.expr:
        """Evaluate ``node`` now into a temporary (unless it is pure)."""
        if self.is_pure(node):
            return node
        name = self.temp(hint)
        self.emit(b.copy_location(b.assign(name, node), node))
        return b.load(name)

    def new_scope(self, scope: Scope) -> Scoped[Scope]:
        """``with lowerer.new_scope(scope):`` lowers in ``scope``, its
        statements' preludes apart from those of the scope around."""
        self.scopes.append(scope)
        self.scope = scope
        self.outer_preludes.append(self.pre)
        self.pre = []
        return Scoped(scope, self._leave_scope)

    def _leave_scope(self, scope: Scope) -> None:
        self.pre = self.outer_preludes.pop()
        self.scopes.pop()
        if self.scopes:
            self.scope = self.scopes[-1]
        else:
            del self.scope

    def function_scope(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda, name: str) -> Scope:
        """The scope of a function called ``name`` defined in the current scope."""
        outer = self.scope
        qualname = name if outer.kind == "module" or self.mangle(name) in outer.globals \
            else outer.qualname + name
        # a comprehension's def sets the prefix of what it defines (no ``<locals>``)
        prefix = getattr(node, "inner_qualname", qualname + ".<locals>.")
        # an annotation scope of a generic class mangles as the class does
        class_name = getattr(node, "mangles_as", outer.class_name)
        globals_, nonlocals, stable = function_declarations(node, class_name)
        return Scope(
            "function", prefix, class_name, globals_, nonlocals, node,
            annotations=getattr(node, "class_annotations", None), stable=stable,
            mangled=getattr(node, "mangled_names", outer.mangled),
        )

    def qualname(self, name: str) -> str:
        """The ``__qualname__`` of something called ``name`` defined here."""
        outer = self.scope
        if outer.kind == "module" or self.mangle(name) in outer.globals:
            return name
        return outer.qualname + name

    # ----------------------------------------------------------- statements
    def module(self, body: list[ast.stmt], scopes: list[AnalysedScope] | None = None) -> list[ast.stmt]:
        """The module body (its ``scopes``, if analysed already); with
        ``unit.module_def`` its names live in the namespace the module def is
        given (:mod:`unsugar.namespaces`)."""
        self.module_scopes = analyse_scopes(body) if scopes is None else scopes
        if not self.unit.module_def:
            with self.new_scope(Scope("module", "", node=ast.Module(body=body, type_ignores=[]))):
                return self.block(self.with_prologue(body))
        namespace = ModuleNamespace(self.fixed("namespace"), self.fixed("store"))
        scope = Scope("module", "", node=ast.Module(body=body, type_ignores=[]), namespace=namespace)
        with self.new_scope(scope):
            lowered = self.block(bind_defs_late(self.with_prologue(body), self))
            return namespace.body_def(lowered, self)

    def with_prologue(self, body: list[ast.stmt]) -> list[ast.stmt]:
        """``body`` (of the current module or class) with what ``PROLOGUES`` put first."""
        first = [stmt for hook in PROLOGUES for stmt in hook(body, self)]
        if not first:
            return body
        at = 1 if body and is_docstring(body[0]) else 0
        return [*body[:at], *first, *body[at:]]

    def block(self, stmts: list[ast.stmt]) -> list[ast.stmt]:
        """Lower a list of statements."""
        out: list[ast.stmt] = []
        for stmt in stmts:
            out.extend(self.stmt(stmt))
        return out

    def stmt(self, node: ast.stmt) -> list[ast.stmt]:
        """Lower one statement; the temporaries a rule's expansion binds are
        released after it."""
        kind = type(node)
        depth, self.expression_depth = self.expression_depth, 0
        try:
            rule = self._rule(self._stmt_rules, node)
            if rule is not None:
                if self.unit.recorder is not None:  # (``unit.note``: no call)
                    self.unit.recorder.note(rule.id, node)
                allocated = self.unit.names.allocated
                mark = len(allocated)
                expanded = rule.lower(node, self)
                produced = self.rule_block(b.located(expanded, node) if self.placing else expanded)
                if len(allocated) == mark:
                    return produced
                # the rule's own temporaries (not those of a rule around it),
                # but a def made under a temporary binds it
                own = set(allocated[mark:]) - _binds(node)
                if not own:
                    return produced
                return produced + self.released(
                    [name for name in self.held_temporaries(produced) if name in own])
            method = _STMT_METHODS.get(kind)
            if method is None:
                method = _STMT_METHODS[kind] = getattr(Lowerer, "_stmt_" + kind.__name__, Lowerer._kept_stmt)
            return method(self, node)
        finally:
            self.expression_depth = depth

    def rule_block(self, stmts: list[ast.stmt]) -> list[ast.stmt]:
        """Lower the statements a rule expanded to; one already core and made of
        the rewrite's own names (:func:`made_core`) is taken as it is: no rule
        applies to it, and lowering it again would give it back unchanged."""
        prefix = self.unit.names.prefix
        out: list[ast.stmt] = []
        for stmt in stmts:
            if made_core(stmt, prefix):
                out.append(stmt)
            else:
                out.extend(self.stmt(stmt))
        return out

    def with_prelude(self, node: ast.stmt, stmts: list[ast.stmt]) -> list[ast.stmt]:
        """``node``, whose expressions are lowered, after ``stmts``, the prelude
        they need; the temporaries of the prelude are released after ``node``."""
        if type(node) in _ENDS_FRAME:  # the frame, or its handler, goes on
            return [*stmts, node]
        return [*stmts, node, *self.release(stmts)]

    def value_prelude(self, node: ast.Assign | ast.Expr | ast.Return) -> list[ast.stmt]:
        """Lower ``node.value`` in place (if there is one); the statements of
        its prelude (what :meth:`capture` gives, without a function to run)."""
        saved, self.pre = self.pre, []
        try:
            if node.value is not None:
                node.value = self.expr(node.value)
            return self.pre
        finally:
            self.pre = saved

    def release(self, prelude: list[ast.stmt]) -> list[ast.stmt]:
        """``t = None`` for each temporary of ``prelude`` still holding a value:
        CPython drops a value its stack held at the end of the expression."""
        return self.released(self.held_temporaries(prelude)) if prelude else []

    def released(self, names: list[str]) -> list[ast.stmt]:
        """``name = None`` for each of ``names``, on no line of the source."""
        return [b.unlined(b.assign(name, self.none())) for name in names]

    def held_temporaries(self, stmts: list[ast.stmt], ever: bool = False) -> list[str]:
        """The temporaries of ``stmts`` that may still hold an object after them
        (:func:`unsugar.lifetimes.held_temporaries`)."""
        return lifetimes.held_temporaries(stmts, self.unit, ever)

    def own_temporary(self, value: ast.expr, since: int) -> str | None:
        """The name of the temporary ``value`` is, if it was made since
        ``since`` (``len(unit.names.allocated)`` then) and is none of the
        module's constants (which are named as temporaries are)."""
        if type(value) is ast.Name and value.id in self.unit.names.allocated[since:] \
                and value.id not in self.unit.constant_names:
            return value.id
        return None

    def release_consumed(self, value: ast.expr, mark: int) -> ast.expr:
        """``value`` was computed from the prelude after ``mark``: the
        temporaries there are released once it is, as CPython drops what an
        instruction consumed. ``value`` is saved to a temporary first unless it
        is a name or a constant (a starred item, a slice or an f-string part
        stays, and what it consumed is released with the statement)."""
        held = [name for name in self.held_temporaries(self.pre[mark:])
                if not (isinstance(value, ast.Name) and value.id == name)]
        if not held:
            return value
        if not isinstance(value, _NAME_OR_CONSTANT):
            if isinstance(value, _STAYS_IN_PLACE) \
                    or not isinstance(getattr(value, "ctx", b.LOAD), ast.Load):
                return value
            value = self.spill(value)
        self.emit(*self.released(held))
        return value

    def _stmt_Expr(self, node: ast.Expr) -> list[ast.stmt]:
        """A docstring kept stays a string (else it is none)."""
        owner = self.scope.node
        if owner is not None and getattr(owner, "body", None) and owner.body[0] is node \
                and is_docstring(node) and self.keeps("docstring"):
            return [node]
        return self.with_prelude(node, self.value_prelude(node))

    def _stmt_Assign(self, node: ast.Assign) -> list[ast.stmt]:
        prelude = self.value_prelude(node)
        stored: ast.stmt = node
        target = node.targets[0]
        if len(node.targets) == 1 and isinstance(target, ast.Name):  # else kept sugar
            name = self.mangle(target.id)
            namespace = self.scope.namespace
            if name in self.scope.globals and self.scope.kind != "module" \
                    and not self.keeps("global"):
                store = b.call(self.rt("global_set"), self.string(name), node.value)
                stored = b.copy_location(b.expr(store), node)
            elif namespace is not None and namespace.holds(name, self):
                stored = b.copy_location(namespace.store(name, node.value, self), node)
                self.unit.note("module" if self.scope.kind == "module" else "class", node)
            else:
                target.id = name
        return [*prelude, stored, *self.release(prelude)]

    def _stmt_Return(self, node: ast.Return) -> list[ast.stmt]:
        return self.with_prelude(node, self.value_prelude(node))

    def _stmt_Raise(self, node: ast.Raise) -> list[ast.stmt]:
        def lower() -> None:
            if node.exc is not None:
                node.exc = self.expr(node.exc)
            if node.cause is not None:
                node.cause = self.expr(node.cause)

        return self.with_prelude(node, self.capture(lower)[0])

    def _stmt_If(self, node: ast.If) -> list[ast.stmt]:
        def lower() -> None:
            node.test = self.condition(node.test)

        prelude, _ = self.capture(lower)
        held = self.held_temporaries(prelude)
        node.body = self.released(held) + self.block(node.body)
        node.orelse = self.released(held) + self.block(node.orelse)
        return [*prelude, node]

    def _stmt_While(self, node: ast.While) -> list[ast.stmt]:
        """A test that needs statements keeps them in ``node.prelude``: the
        control-flow phase runs them before each test."""
        node.prelude, node.test = self.capture(lambda: self.condition(node.test))
        held = self.held_temporaries(node.prelude)
        node.body = self.released(held) + self.block(node.body)
        node.orelse = self.released(held) + self.block(node.orelse)
        return [node, *self.released(held)]

    def _stmt_Try(self, node: ast.Try) -> list[ast.stmt]:
        if node.finalbody and (node.handlers or node.orelse):
            inner = ast.Try(body=node.body, handlers=node.handlers, orelse=node.orelse, finalbody=[])
            b.copy_location(inner, node)
            node.body, node.handlers, node.orelse = [inner], [], []
        unwound = self._protected(node)
        for handler in node.handlers:
            handler.body = unwound + self.block(handler.body)
        node.orelse = self.block(node.orelse)
        node.finalbody = self.block(node.finalbody)
        if not node.handlers and not node.finalbody:  # ``finally: pass`` lowers to nothing
            return node.body
        if node.finalbody:
            node.finalbody = [*unwound, *node.finalbody]
        return [node]

    def _stmt_WithBlock(self, node: WithBlock) -> list[ast.stmt]:
        """The protected part of a ``with``: its handler drops what the body's
        expressions held before ``__exit__`` is called (``node.unwound``)."""
        node.unwound = self._protected(node)
        node.body = node.body or [b.nothing()]
        return [node]

    def _protected(self, node: ast.Try | WithBlock) -> list[ast.stmt]:
        """Lower the body of ``node``; the statements that drop what its
        expressions held (the last pushed first), as an exception leaving the
        body does, before its handler runs."""
        mark = len(self.unit.names.allocated)
        node.body = self.block(node.body)
        own = set(self.unit.names.allocated[mark:])
        return self.released([name for name in self.held_temporaries(node.body, ever=True)[::-1]
                              if name in own])

    def _stmt_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> list[ast.stmt]:
        """A core ``def`` (the function rules removed everything else).

        When the def is bound under another name than the one the function
        shows (a ``global`` name, or the temporary of a lambda or a decorated
        def, which sets ``shown_name``), the function is renamed right after
        it is made: ``__name__``, ``__qualname__``, ``co_name`` and the
        qualified names of the code nested in it.
        """
        class_body = getattr(node, "class_body", None)
        if class_body is not None:  # made by the class rule
            del node.class_body  # (it holds the class's input: freed once lowered, not with the output)
            return class_body.lower(node, self)
        shown = getattr(node, "shown_name", node.name)
        name = self.mangle(node.name)
        for arg in (*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs,
                    node.args.vararg, node.args.kwarg):
            if arg is not None:
                arg.arg = self.mangle(arg.arg)
        with self.new_scope(self.function_scope(node, shown)):
            node.body = self.block(node.body) or [b.ret()]
        tail: list[ast.stmt] = []
        if self.scope.kind == "function":  # binds the mangled name (``def __f`` in a method: ``_C__f``)
            node.name = name
        if name in self.scope.globals and self.scope.kind != "module" and not self.keeps("global"):
            node.name = self.temp(name)
            tail = self.block([b.assign_to(b.store(name), b.load(node.name))])
        # a def in a class body keeps its plain name: the compiler mangles the
        # binding, while co_name and __qualname__ keep the plain one
        if node.name != shown:
            inner = getattr(node, "inner_qualname", None)
            args = [b.load(node.name), self.string(shown), self.string(self.qualname(shown))]
            rename = b.call(self.rt("rename_function"), *args) if inner is None else \
                b.call(self.rt("rename_scope_function"), *args, self.string(inner))
            tail.insert(0, b.copy_location(b.expr(rename), node))
        return [node, *tail]

    _stmt_AsyncFunctionDef = _stmt_FunctionDef

    def _stmt_ClassDef(self, node: ast.ClassDef) -> list[ast.stmt]:
        """A ``class`` kept as it is: its parts are lowered in place."""
        out = self._lower_eager_fields(node)
        global_names, nonlocal_names = declared_names(node, node.name)
        scope = Scope("class", self.qualname(node.name) + ".", node.name, global_names, nonlocal_names, node)
        with self.new_scope(scope):
            node.body = self.block(self.with_prologue(node.body)) or [b.nothing()]
        return [*out, node]

    def _stmt_Nonlocal(self, node: ast.Nonlocal) -> list[ast.stmt]:
        if self.scope.namespace is not None:  # a class body writes through closures
            return []
        node.names = [self.mangle(name) for name in node.names]
        return [node]

    def _kept_stmt(self, node: ast.stmt) -> list[ast.stmt]:
        """A statement without a rule (or kept): lower its bodies in place."""
        out = self._lower_eager_fields(node)
        for name in ("body", "orelse", "finalbody"):
            value = getattr(node, name, None)
            if isinstance(value, list) and value and isinstance(value[0], ast.stmt):
                setattr(node, name, self.block(value) or [b.nothing()])
        for handler in getattr(node, "handlers", ()):
            handler.body = self.block(handler.body) or [b.nothing()]
        for case in getattr(node, "cases", ()):
            case.body = self.block(case.body) or [b.nothing()]
        return [*out, node]

    def _lower_eager_fields(self, node: ast.stmt) -> list[ast.stmt]:
        def lower() -> None:
            for name in EAGER_FIELDS.get(type(node), ()):
                value = getattr(node, name)
                if isinstance(value, list):
                    for item in value:
                        if isinstance(item, ast.keyword):
                            item.value = self.expr(item.value)
                    setattr(node, name, [
                        item if isinstance(item, ast.keyword) else self.expr(item)
                        for item in value
                    ])
                else:
                    setattr(node, name, self.expr(value))

        stmts, _ = self.capture(lower)
        return stmts

    # ---------------------------------------------------------- expressions
    def expr(self, node: ast.expr) -> ast.expr:
        """Lower an expression; statements it needs go to the prelude. The
        temporaries a part of the expression consumed are released when that
        part is computed; those of the whole expression, with its statement.

        An int, and a name no rule applies to where names are variables (no
        namespace, no annotation scope), are core already: a name is only
        mangled, in place."""
        kind = type(node)
        if kind is Constant:
            if type(node.value) is int:
                return node
        elif kind is Name and self._name_marks is not None:
            scope = self.scope
            if scope.namespace is None and scope.annotations is None:
                for mark in self._name_marks:
                    if hasattr(node, mark):
                        break
                else:
                    return _mangled(node, scope)
        root = self.expression_depth == 0
        mark = len(self.pre)
        self.expression_depth += 1
        try:
            value = self._expr(node)
        finally:
            self.expression_depth -= 1
        if self.expression_depth % SPILL_DEPTH == 0 and not root and type(value) is Call:
            value = self.spill(value)  # (the output's calls nest less than 200 deep)
        if root or len(self.pre) == mark:
            return value
        return self.release_consumed(value, mark)

    def _rule(self, table: RuleTable, node: ast.AST) -> Rule | None:
        """The first rule of ``table`` that applies to ``node``, among those of its
        type; for a type with a selector, among those that select the node's key
        (a rule made of its keys alone, ``by_key``, is not asked again)."""
        kind = type(node)
        rules = table.get(kind)
        if rules is None:
            return None
        select = SELECTORS.get(kind)
        if select is not None:
            key = select(node)
            of_kind = self._selected[kind]
            selected = of_kind.get(key)
            if selected is None:
                selected = of_kind[key] = [rule for rule in rules if rule.selects is None or key in rule.selects]
            rules = selected
        for rule in rules:
            if rule.by_key or rule.applies(node):
                return rule
        return None

    def _expr(self, node: ast.expr) -> ast.expr:
        scope = self.scope
        kind = type(node)
        if kind is Name:
            if scope.namespace is not None:
                value = scope.namespace.load(node, self)
                return b.copy_location(value, node) if self.placing else value
            if scope.annotations is not None:
                value = scope.annotations.load(node, self)
                return b.copy_location(value, node) if self.placing else value
        rule = self._rule(self._expr_rules, node)
        if rule is None:
            if kind is Name:
                return _mangled(node, scope)
            if kind is Constant:
                return node
        else:
            if self.unit.recorder is not None:  # (``unit.note``, for every rule applied: no call)
                self.unit.recorder.note(rule.id, node)
            if rule.custom_order:
                value = rule.lower(node, self)
                return b.copy_location(value, node) if self.placing else value
        if kind is Yield and node.value is not None:
            return self._yield(node)
        if kind in OPAQUE_EXPRESSIONS:
            if scope.namespace is not None and kind is not ast.Lambda:
                # the first iterable is evaluated in the class body
                node.generators[0].iter = self.expr(node.generators[0].iter)
            return node
        (_CHILDREN_LOWERERS.get(kind) or Lowerer.lower_children)(self, node)
        if rule is None:
            return node
        value = rule.lower(node, self)
        return b.copy_location(value, node) if self.placing else value

    def _yield(self, node: ast.Yield) -> ast.expr:
        """``yield value``: while the generator is suspended, nothing of the
        expression holds the value, as on CPython's stack. When temporaries
        computed it, it waits in a box they cannot see, and they are released::

            _us_t_1 = g()                     _us_box_1 = list()
            yield f(_us_t_1, ...)      ->     list.append(_us_box_1, f(_us_t_1, ...))
                                              _us_t_1 = None
                                              yield list.pop(_us_box_1)
        """
        mark = len(self.pre)
        node.value = self.expr(node.value)
        held = self.held_temporaries(self.pre[mark:])
        if held or isinstance(node.value, ast.Name) and self.unit.names.is_temporary(node.value.id):
            node.value = self.hand_over(node.value, held)
        return node

    def hand_over(self, value: ast.expr, release: list[str]) -> ast.expr:
        """``value`` put in a box, ``release`` set to None, and the expression
        that takes ``value`` out of the box."""
        box = self.temp("box")
        self.emit(b.assign(box, b.call(self.builtin("list"))),
                  b.expr(b.call(self.method("list", "append"), b.load(box), value)),
                  *self.released(release))
        return b.call(self.method("list", "pop"), b.load(box))

    def condition(self, node: ast.expr) -> ast.expr:
        """Lower ``node`` for its truth alone, as CPython compiles a test into jumps.

        Testing the result once makes the last truth test; the tests before it
        are made in the prelude, each operand's once, and their outcomes kept
        in ``bool`` flags (so ``if a and b`` tests ``a`` once, not again as the
        value of ``a and b``).
        """
        hook = CONDITIONS.get(type(node))
        lowered = hook(node, self) if hook is not None else None
        if lowered is None:
            return self.expr(node)
        if self.unit.recorder is not None:
            rule = self._rule(self._expr_rules, node)
            if rule is not None:
                self.unit.note(rule.id, node)
        return b.copy_location(lowered, node)

    def lower_children(self, node: ast.AST) -> None:
        """Lower the sub-expressions of ``node`` in place, in evaluation order
        (by a function made for its class: :func:`_children_lowerer`)."""
        lower = _CHILDREN_LOWERERS.get(type(node))
        if lower is None:
            lower = _CHILDREN_LOWERERS[type(node)] = _children_lowerer(type(node))
        lower(self, node)

    def lower_slots(self, node: ast.AST) -> None:
        """:meth:`lower_children` by the slots of ``node`` (:func:`_child_slots`),
        for a class with no lowerer of its own."""
        done: list[Slot] = []
        for slot in _child_slots(node):
            owner, name, index = slot
            mark = len(self.pre)
            if index is None:
                setattr(owner, name, self.expr(getattr(owner, name)))
            else:
                getattr(owner, name)[index] = self.expr(getattr(owner, name)[index])
            if done and len(self.pre) > mark:
                self._spill_before(done, mark)
            done.append(slot)

    def _spill_before(self, slots: list[Slot], at: int) -> None:
        """Save the values of ``slots`` to temporaries, before prelude index ``at``."""
        saves: list[ast.stmt] = []
        for slot in slots:
            value = _get(slot)
            if isinstance(value, ast.Starred):
                slot, value = (value, "value", None), value.value
            if not self.is_pure(value):
                name = self.temp("t")
                saves.append(b.copy_location(b.assign(name, value), value))
                _set(slot, b.load(name))
        self.pre[at:at] = saves


def _binds(node: ast.stmt) -> set[str]:
    """The names a statement binds by itself: a def's or class's, a plain assignment's."""
    if type(node) in _SCOPE_STATEMENTS:
        return {node.name}
    if isinstance(node, ast.Assign):
        return {target.id for target in node.targets if isinstance(target, ast.Name)}
    return set()


def _mangled(node: ast.Name, scope: Scope) -> ast.Name:
    """``node``, its name mangled in place where ``scope`` mangles it."""
    if scope.class_name is not None and node.id[:2] == "__" and (scope.mangled is None or node.id in scope.mangled):
        node.id = mangle(node.id, scope.class_name)
    return node


def made_core(stmt: ast.stmt, prefix: str) -> bool:
    """Whether ``stmt`` is ``name = value`` or ``value``, where ``name`` and every
    name in ``value`` start with ``prefix`` (temporaries, helpers, constants:
    never the user's), and ``value`` is made of calls of them and ints::

        _us_item_1 = _us_next(_us_iter_1, _us_loop_end)     # made core
        _us_t_1 = _us_getattr(x, _us_s_y)                   # not: x is the user's
    """
    kind = type(stmt)
    if kind is Assign:
        targets = stmt.targets
        if len(targets) != 1 or type(targets[0]) is not Name or not targets[0].id.startswith(prefix):
            return False
    elif kind is not Expr:
        return False
    todo = [stmt.value]
    while todo:
        node = todo.pop()
        kind = type(node)
        if kind is Call:
            if node.keywords:
                return False
            todo.append(node.func)
            todo += node.args
        elif kind is Name:
            if not node.id.startswith(prefix):
                return False
        elif kind is not Constant or type(node.value) is not int:
            return False
    return True


def _child_slots(node: ast.AST) -> list[Slot]:
    """Where the sub-expressions of ``node`` are, in evaluation order."""
    slots_of = _SLOTS.get(type(node))
    if slots_of is None:
        slots_of = _SLOTS[type(node)] = _slots_function(type(node))
    return slots_of(node)


def _dict_slots(node: ast.Dict) -> list[Slot]:
    """A dict display's keys and values, alternating (a ``**`` item has no key)."""
    slots: list[Slot] = []
    for i, key in enumerate(node.keys):
        if key is not None:
            slots.append((node, "keys", i))
        slots.append((node, "values", i))
    return slots


def _joined_slots(node: ast.JoinedStr) -> list[Slot]:
    """An f-string's replacement fields (its str constants are text, not expressions)."""
    return [(node, "values", i) for i, v in enumerate(node.values) if not isinstance(v, ast.Constant)]


def _any_slots(node: ast.AST) -> list[Slot]:
    """The slots of ``node``, whatever its fields hold."""
    slots: list[Slot] = []
    for name in node_fields(node):
        value = getattr(node, name, None)
        if isinstance(value, ast.expr):
            slots.append((node, name, None))
        elif isinstance(value, list):
            for i, item in enumerate(value):
                if isinstance(item, ast.expr):
                    slots.append((node, name, i))
                elif isinstance(item, ast.keyword):
                    slots.append((item, "value", None))
    return slots


def _slots_function(cls: type) -> Callable[[ast.AST], list[Slot]]:
    """The function that lists the slots of a node of class ``cls``, made from
    its ASDL signature::

        Call(expr func, expr* args, keyword* keywords)  ->
            out = []
            if node.func is not None:
                out.append((node, "func", None))
            out += [(node, "args", i) for i in range(len(node.args))]
            out += [(item, "value", None) for item in node.keywords]
            return out
    """
    special = {ast.Dict: _dict_slots, ast.JoinedStr: _joined_slots}.get(cls)
    if special is not None:
        return special  # type: ignore[return-value]
    fields = _subexpression_fields(cls)
    if fields is None:
        return _any_slots
    lines = ["out = []"]
    for kind, mark, name in fields:
        if kind == "keyword":
            lines.append(f"out += [(item, 'value', None) for item in node.{name}]")
        elif mark == "*":
            lines.append(f"out += [(node, {name!r}, i) for i in range(len(node.{name}))]")
        else:
            lines += [f"if node.{name} is not None:", f"    out.append((node, {name!r}, None))"]
    return compiled_for_class(f"slots of {cls.__name__}", [*lines, "return out"], _any_slots)


def _subexpression_fields(cls: type) -> list[tuple[str, str, str]] | None:
    """The fields of node class ``cls`` that hold its sub-expressions, from
    its ASDL signature (each one's type, mark and name): an expression, one
    or None, a list of them, a list of keywords (their values). None for a
    class without a signature."""
    fields = asdl_fields(cls)
    if fields is None:
        return None
    return [(kind, mark, name) for kind, mark, name in fields
            if kind == "expr" or kind == "keyword" and mark == "*"]


#: per node class: the function that lists its slots (:func:`_child_slots`)
_SLOTS: dict[type, Callable[[ast.AST], list[Slot]]] = {}


def _children_lowerer(cls: type) -> Callable[[Lowerer, Any], None]:
    """The function that lowers the sub-expressions of a node of class
    ``cls`` in place, made from its ASDL signature. It does what
    :meth:`Lowerer.lower_slots` does, without listing the slots::

        BinOp(expr left, operator op, expr right)  ->
            left, right = node.left, node.right
            done = 0
            if left is not None:
                mark = len(pre)
                node.left = expr(left)
                done += 1
            if right is not None:
                mark = len(pre)
                node.right = expr(right)
                if done and len(pre) > mark:       # right emitted statements:
                    lowerer._spill_before(_child_slots(node)[:done], mark)
                done += 1

    A node without a field its signature names (made by a rule) is lowered
    by its slots.
    """
    lowered = None if cls in (ast.Dict, ast.JoinedStr) else _subexpression_fields(cls)
    if lowered == []:  # (a constant, a name: no sub-expression in its signature)
        return _lower_nothing
    if not lowered:
        return Lowerer.lower_slots
    spill = [
        "    if done and len(pre) > mark:",
        "        lowerer._spill_before(_child_slots(node)[:done], mark)",
        "    done += 1",
    ]
    lines = [f"{name}_ = node.{name}" for _, _, name in lowered]
    body = ["pre = lowerer.pre", "expr = lowerer.expr", "done = 0"]
    for kind, mark, name in lowered:
        if kind == "keyword":
            body += [f"for item in {name}_ or ():", "    mark = len(pre)", "    item.value = expr(item.value)", *spill]
        elif mark == "*":
            body += [f"for i in range(len({name}_ or ())):", "    mark = len(pre)",
                     f"    {name}_[i] = expr({name}_[i])", *spill]
        else:
            body += [f"if {name}_ is not None:", "    mark = len(pre)",
                     f"    node.{name} = expr({name}_)", *spill]
    return compiled_for_class(
        f"lower children of {cls.__name__}", lines, Lowerer.lower_slots, after=body,
        parameters=("lowerer", "node"), caught=AttributeError, names={"_child_slots": _child_slots},
    )


def _lower_nothing(lowerer: Lowerer, node: ast.AST) -> None:
    """The children lowerer of a class whose signature has no sub-expression."""


#: per node class: the function that lowers its sub-expressions (:func:`_children_lowerer`)
_CHILDREN_LOWERERS: dict[type, Callable[[Lowerer, Any], None]] = {}


def _get(slot: Slot) -> ast.expr:
    owner, name, index = slot
    value = getattr(owner, name)
    return value if index is None else value[index]


def _set(slot: Slot, new: ast.expr) -> None:
    owner, name, index = slot
    if index is None:
        setattr(owner, name, new)
    else:
        getattr(owner, name)[index] = new
