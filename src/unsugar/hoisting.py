"""Functions nested past the 100 indentation levels CPython's tokenizer reads.

A lambda in a lambda is one expression, and CPython compiles a thousand of
them nested; the output writes each as a ``def`` in a ``def``, one level
deeper every time, and source text stops at 100 levels ("too many levels of
indentation"). A def whose lines would pass that limit is written at the
top of the outermost def instead, in a factory that binds its free names
(so that the compiler makes them cells, not globals). Where it stood, a
stub def closes over the same names, and the runtime's ``hoisted`` makes
the function from the template's code and the stub's cells::

    def _us_module(_us_namespace):
        def _us_hoist_1():                    # the factory
            a = 0
            def f(x):                         # the def as it was
                return a(x)
            return f
        _us_hoisted_1 = _us_hoist_1()         # the template
        ...
                    def f():                  # where it stood: the stub
                        return a()
                    f = _us_hoisted(_us_hoisted_1, f)

Core code has no classes, comprehensions or ``global``: a name is local to
a def when the def binds it (a parameter, an assignment, a nested def) and
does not declare it ``nonlocal``; a free name is a cell when an enclosing
def binds it, and a global otherwise.
"""

from __future__ import annotations

from unsugar import builder as b
from unsugar import nodes as ast
from unsugar.printer import MAX_INDENT
from unsugar.trees import core_blocks, core_bound_names, walk
from unsugar.unit import Unit


def hoist(body: list[ast.stmt], unit: Unit) -> list[ast.stmt]:
    """``body`` (a whole core module) with every def that would nest past
    :data:`~unsugar.printer.MAX_INDENT` hoisted (see the module docstring)."""
    return _Hoister(unit).block(body, 0)


def _reach(define: ast.FunctionDef) -> int:
    """How many levels below the def's own line its code goes (a nested
    def counts its first line: the stub left in its place has one)."""
    return 1 + max(map(_statement_reach, define.body), default=0)


def _statement_reach(stmt: ast.stmt) -> int:
    if type(stmt) is ast.FunctionDef:
        return 1
    blocks = core_blocks(stmt)
    return 1 + max(_statement_reach(s) for block in blocks for s in block) if blocks else 0


def _own_statements(body: list[ast.stmt]) -> list[ast.stmt]:
    """The statements of a def's own code (not those of nested defs)."""
    out: list[ast.stmt] = []
    for stmt in body:
        out.append(stmt)
        for block in core_blocks(stmt):
            out += _own_statements(block)
    return out


def _scope(define: ast.FunctionDef) -> tuple[set[str], set[str], list[ast.FunctionDef]]:
    """The names ``define`` binds, those it declares ``nonlocal``, and its nested defs."""
    bound = core_bound_names(define.body) | {arg.arg for arg in b.parameters(define.args)}
    own = _own_statements(define.body)
    declared = {name for stmt in own if type(stmt) is ast.Nonlocal for name in stmt.names}
    return bound, declared, [stmt for stmt in own if type(stmt) is ast.FunctionDef]


def _free_names(define: ast.FunctionDef) -> set[str]:
    """The names ``define`` (or a def in it) uses and does not bind itself."""
    bound, declared, nested = _scope(define)
    used = set(declared)
    for stmt in _own_statements(define.body):
        kind = type(stmt)
        parts = [stmt.test] if kind is ast.While else [] if kind in _COMPOUND else [stmt]
        for part in parts:
            used.update(node.id for node in walk(part) if type(node) is ast.Name)
    for inner in nested:
        used |= _free_names(inner)
    return used - (bound - declared)


_COMPOUND = (ast.FunctionDef, ast.While, ast.Try)


class _Hoister:
    def __init__(self, unit: Unit) -> None:
        self.unit = unit
        #: the defs around the statements being visited, outermost first
        self.chain: list[ast.FunctionDef] = []
        #: the factories, for the top of the outermost def
        self.factories: list[ast.stmt] = []
        self.bound: dict[int, set[str]] = {}
        self.top = 0  # the level of the outermost def

    def block(self, stmts: list[ast.stmt], level: int) -> list[ast.stmt]:
        out: list[ast.stmt] = []
        for stmt in stmts:
            kind = type(stmt)
            if kind is ast.FunctionDef:
                if self.chain and level + _reach(stmt) > MAX_INDENT:
                    out += self.hoisted(stmt)
                    continue
                if not self.chain:
                    self.top = level
                self.chain.append(stmt)
                stmt.body = self.block(stmt.body, level + 1)
                self.chain.pop()
                if not self.chain and self.factories:
                    stmt.body[:0] = self.factories
                    self.factories = []
            else:
                for inner in core_blocks(stmt):
                    inner[:] = self.block(inner, level + 1)
            out.append(stmt)
        return out

    def hoisted(self, define: ast.FunctionDef) -> list[ast.stmt]:
        """The stub and the call that makes ``define`` where it stood; the
        factory goes to :attr:`factories`."""
        names = self.unit.names
        factory, _ = self.factory(names.temp("hoist"), define)
        template = names.temp("hoisted")
        self.bound_by(self.chain[0]).add(template)
        outer, self.chain = self.chain, [self.chain[0], factory, define]
        define.body = self.block(define.body, self.top + 3)
        self.chain = outer
        # again: the defs hoisted out of it left stubs that use the outermost def's templates
        factory, cells = self.factory(factory.name, define)
        self.factories += [factory, b.assign(template, b.call(b.load(factory.name)))]
        refers = b.ret(b.call(b.load(cells[0]), *map(b.load, cells[1:])) if cells else None)
        return [
            b.copy_location(b.function(define.name, [], [refers]), define),
            b.copy_location(b.assign(define.name, b.call(
                self.unit.helper("hoisted"), b.load(template), b.load(define.name))), define),
        ]

    def factory(self, name: str, define: ast.FunctionDef) -> tuple[ast.FunctionDef, list[str]]:
        """``def name(): <each cell> = 0; define; return <it>``, and the cells:
        the free names of ``define`` that the defs around it bind."""
        enclosing = set().union(*map(self.bound_by, self.chain))
        cells = sorted(_free_names(define) & enclosing)
        return b.function(name, [], [
            *(b.assign(cell, b.int_(0)) for cell in cells), define, b.ret(b.load(define.name)),
        ]), cells

    def bound_by(self, define: ast.FunctionDef) -> set[str]:
        bound = self.bound.get(id(define))
        if bound is None:
            bound = self.bound[id(define)] = _scope(define)[0]
        return bound
