"""The second phase: ``if``, loops, ``break``, ``continue``, ``try``/``finally``,
``with`` and ``return`` through them, in core syntax and *flat*.

CPython allows 20 statically nested blocks (loops, ``try``, ``with``) and an
``if`` costs none. Here too a block of the input is one block of the output
(a ``for`` one ``while``, a ``with`` one ``try``), and a conditional costs
none: it becomes a run of one-level *segments*, each a ``while`` that runs at
most once, guarded by a flag::

    if a:                     _us_if1 = a
        f()                   while _us_if1:
                                  _us_if1 = 0
                                  f()

A *level* is a run of statements that a false test or a jump may skip: the
body of an ``if`` or ``else``, of a loop, of a ``try``/``finally`` or
``with``, of a handler, of the scope. Nested levels are written one after the
other in the same block, so only the innermost segment adds a block. Once a
level may be off, its statements run in segments guarded by its flag; a jump
clears the flag of every level it leaves::

    for x in xs:                  while _us_loop1:
        if x:                         x = _us_item_1 ...
            continue                  _us_if2 = x
        g(x)                          while _us_if2:
                                          _us_if2 = 0
                                          _us_go2 = 0          (continue)
                                      _us_run = _us_go2
                                      while _us_run:
                                          _us_run = 0
                                          g(x)
                                      <next item>

Nothing here raises an exception to jump: a user's bare ``except:`` or a
context manager's ``__exit__`` never sees a rewritten ``break``. A jump that
leaves a ``try``/``finally`` or a ``with`` stops at its body and records
itself in a flag of that statement; after the final block (or ``__exit__``)
it goes on from there. A flag tested once holds the test's value; one read
more than once holds ``bool(test)``, so ``__bool__`` runs exactly once. A
test's value dies once tested, as CPython pops it: a flag that may hold an
object is cleared after its ``while`` (a loop's also as its body starts).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cache
from typing import Any, TypeVar

from unsugar import builder as b
from unsugar import nodes as ast
from unsugar.depth import MAX_BLOCKS
from unsugar.forms import LOOP_ITERATOR, ForLoop, WithBlock
from unsugar.lifetimes import held_temporaries
from unsugar.registry import control_rule
from unsugar.trees import (
    Scoped,
    block_fields,
    children,
    copy_tree,
    core_bound_names,
    is_placing,
    position,
)
from unsugar.unit import Unit

IF = control_rule(
    ast.If,
    id="if",
    summary="if/elif/else becomes flat while loops that run at most once",
    before="if t:\n    a()\nelse:\n    b()",
    after="_us_else1 = 1\n_us_if1 = t\nwhile _us_if1:\n    _us_if1 = 0\n    _us_else1 = 0\n"
    "    a()\nwhile _us_else1:\n    _us_else1 = 0\n    b()",
    reference="compound_stmts.html#the-if-statement",
)
BREAK = control_rule(
    ast.Break,
    id="break",
    summary="break clears the flags of the loop and of the blocks it leaves",
    before="while c:\n    break",
    after="_us_nobreak1 = 1\n_us_loop1 = c\nwhile _us_loop1:\n    _us_nobreak1 = 0\n    _us_loop1 = 0",
    reference="simple_stmts.html#the-break-statement",
)
CONTINUE = control_rule(
    ast.Continue,
    id="continue",
    summary="continue clears the flag of the rest of the loop body",
    before="while c:\n    continue\n    f()",
    after="while c:\n    _us_go2 = 1\n    _us_go2 = 0\n    _us_run = _us_go2\n"
    "    while _us_run:\n        _us_run = 0\n        f()",
    reference="simple_stmts.html#the-continue-statement",
)
WHILE_ELSE = control_rule(
    ast.While,
    id="while-else",
    summary="while/else runs the else block when the test turns false",
    before="while c:\n    f()\nelse:\n    g()",
    after="while c:\n    f()\ng()",
    reference="compound_stmts.html#the-while-statement",
    applies=lambda node: bool(node.orelse),
)
TRY_FINALLY = control_rule(
    ast.Try,
    id="try-finally",
    summary="finally runs on every way out: normal, exception, return, break, continue",
    before="try:\n    f()\nfinally:\n    g()",
    after="try:\n    f()\nexcept:\n    g()\n    raise\ng()",
    reference="compound_stmts.html#finally-clause",
    applies=lambda node: bool(node.finalbody),
)

JUMPS = ("break", "continue", "return")
#: the runtime helpers whose result is always a ``bool`` (in both semantics)
BOOL_HELPERS = ("logical_not", "compare_in", "compare_not_in", "compare_is", "compare_is_not", "bool",
                "exception_matches")


@cache
def _bool_helpers(prefix: str) -> frozenset[str]:
    """The names of :data:`BOOL_HELPERS` with ``prefix`` (a set made once per prefix)."""
    return frozenset(prefix + name for name in BOOL_HELPERS)


#: the statements that the control flow leaves as they are (with a real ``return``)
SIMPLE = (ast.Expr, ast.Assign, ast.Return, ast.Raise)
_ENDS_FRAME = (ast.Return, ast.Raise)
_ENDS_BLOCK = (ast.Return, ast.Raise, ast.Pass)
_JUMPS = (ast.Break, ast.Continue)
#: what holds no jump of an outer loop: loops, scopes, expressions
_OWN_JUMPS = (ast.While, ast.For, ast.AsyncFor, ForLoop, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.expr)
_OWN_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)

T = TypeVar("T")


@dataclass(eq=False, slots=True)
class Boundary:
    """The body of a ``try``/``finally`` or ``with``: jumps stop here, recorded
    in one flag per kind, and go on after the final block. A ``return`` that
    stops here leaves its value in ``value``, the boundary's own (a return in
    the final block, which a ``break`` there may cancel, leaves the pending
    one as it is)."""

    pending: dict[str, str] = field(default_factory=dict)
    value: str | None = None


@dataclass(eq=False, slots=True)
class Loop:
    """A loop being written."""

    flag: str  # the loop goes on
    kept: bool = False  # a kept loop: real break/continue
    stops: bool = False  # a break, or a return leaving it, clears the flag
    used: bool = False  # the flag is the while's test
    iterator: str | None = None  # a for loop's: dropped by a return from inside it


@dataclass(eq=False, slots=True)
class Outlined:
    """A segment written as a function (see :meth:`Flow._outline`)."""

    define: ast.FunctionDef
    where: list[ast.stmt]
    flag: str | None = None  # a segment's flag (None: a block called unconditionally)


@dataclass(eq=False, slots=True)
class Level:
    """A run of statements that a false test or a jump may skip.

    ``flag`` is made when first needed; ``guarded`` is set once the level may
    be off, and its statements then run in segments that read the flag.
    """

    kind: str  # scope, if, else, loop, body, boundary, handler, final, kept
    depth: int
    flag: str | None = None
    guarded: bool = False
    own: bool = False  # the flag is used by this level alone (a segment may consume it)
    init: tuple[list[ast.stmt], ast.Assign] | None = None  # ``flag = start``, named once needed
    test: ast.Assign | None = None  # an if level's ``flag = test``
    segments: list[tuple[list[ast.stmt], ast.Assign, ast.While]] = field(default_factory=list)
    reads: int = 0  # reads of the flag other than by segments
    loop: Loop | None = None  # the loop whose iterations this level runs
    boundary: Boundary | None = None
    clears: list[str] = field(default_factory=list)  # cleared with the flag


class Flow:
    """Lowers the control flow of one scope (a module, class or function body)."""

    def __init__(
        self, unit: Unit, kind: str, suspends: Callable[[], bool] | None = None, async_generator: bool = False,
    ) -> None:
        self.unit = unit
        self.kind = kind
        #: whether new nodes are placed (:func:`unsugar.trees.placing`): not where text is written
        self.placing = is_placing()
        self.returns_value = not async_generator  # (its ``return`` has no value)
        #: whether the scope's body yields or awaits (looked at only near the
        #: limit of blocks, see :meth:`fits`)
        self.suspends = suspends
        self.limit: int | None = None
        self.out: list[ast.stmt] = []
        #: the segment last written: its level, its body, its last statement
        self.open: tuple[Level, list[ast.stmt], ast.stmt] | None = None
        #: segments moved into functions, where a while would nest too deep
        self.outlined: list[Outlined] = []
        self.returns = Boundary()  # returns that must wait for the scope's end
        self.outlining = 0  # blocks being written into functions
        self.levels: list[Level] = []
        self.loops: list[tuple[Level, Loop]] = []
        self.run = unit.names.fixed("run")
        self.bool_helpers = _bool_helpers(unit.names.prefix)
        self.depth = 0  # blocks around what is written now
        self.max_depth = 0
        #: for each ``try`` being written, the iterators of the loops in its
        #: body: its handler drops them, as CPython's unwinding does
        self.iterators: list[list[str]] = []

    def keeps(self, rule_id: str) -> bool:
        return rule_id in self.unit.keep

    def fits(self, blocks: int) -> bool:
        """Whether ``blocks`` nested blocks fit in this scope: from 3.13 a
        generator's or coroutine's body already sits in one (its
        ``StopIteration`` handler), so whether it suspends is looked at once
        ``blocks`` comes near CPython's limit."""
        if blocks < MAX_BLOCKS:
            return True
        if self.limit is None:
            suspends = self.suspends is not None and sys.version_info >= (3, 13) and self.suspends()
            self.limit = MAX_BLOCKS - suspends
        return blocks <= self.limit

    @property
    def level(self) -> Level:
        return self.levels[-1]

    def scope_body(
        self, stmts: list[ast.stmt], frame_locals: Iterable[str] = (), hidden_locals: Iterable[str] = ()
    ) -> list[ast.stmt]:
        """The scope's statements. In a function, an exception leaving it drops
        what CPython's stack held and the output's temporaries hold, the
        iterators of its loops and the values of its expressions (the frame
        lives on in the traceback: a temporary that holds something which
        holds the exception is a cycle), through one ``try`` around the body,
        where the nesting limit leaves room for it; but not ``frame_locals``,
        which are locals of CPython's frame (a comprehension's iterator,
        ``.0``), kept with it. ``hidden_locals`` are dropped too (the variables
        of a comprehension CPython runs inline)."""
        self.iterators.append([])
        with self.level_of("scope", start=self.unit.number(1)) as root:
            self.block(stmts)
            if self.returns.pending:
                root.boundary = None
                self._resume(self.returns, stmts[0])
                self.out.insert(0, self.store(self.returns.pending["return"], self.unit.number(0)))
        self._finish_outlined()
        iterators = self.iterators.pop()
        if self.kind != "function" or not self.fits(self.max_depth + 1):
            return self.out
        # the last pushed first, the iterators of outer loops last
        held = [name for name in held_temporaries(stmts, self.unit, ever=True, defs=False)
                if name not in iterators]
        dropped = [name for name in [*held[::-1], *iterators[::-1]] if name not in frame_locals]
        dropped += hidden_locals
        if dropped:
            return [b.try_except(self.out, [*self._drop(dropped), b.raise_()])]
        return self.out

    def _finish_outlined(self) -> None:
        """The names a moved segment binds stay the scope's: ``nonlocal`` in a
        function (bound in the scope by an assignment that never runs), the
        module's globals at the top level."""
        bound: set[str] = set()
        for outlined in self.outlined:
            if outlined.flag is not None and _yields(outlined.define.body):
                # a function cannot yield for the scope: a segment after all
                at = _last_index(outlined.where, outlined.define)
                outlined.where[at:at + 2] = self.segment(outlined.flag, outlined.define.body)
                continue
            names = sorted(core_bound_names(outlined.define.body))
            if self.kind == "module":
                outlined.define.body = _as_global_stores(outlined.define.body, self.unit)
            elif names:
                outlined.define.body.insert(0, ast.Nonlocal(names=names))
                bound.update(names)
        if bound:
            self.out.append(b.while_(b.int_(0), [b.assign(name, b.int_(0)) for name in sorted(bound)]))

    def _drop(self, iterators: list[str]) -> list[ast.stmt]:
        return [self.store(name, self.unit.helper("none")) for name in iterators]

    # ------------------------------------------------------------- writing
    def append(self, stmt: ast.stmt) -> None:
        """Write ``stmt`` unguarded."""
        self.out.append(stmt)
        self.open = None

    def append_early(self, stmt: ast.Assign) -> None:
        """Write a flag's initial value; a constant goes before the open
        segment, if there is one, so that the segment may go on after it."""
        early = isinstance(stmt.value, ast.Constant)
        if early and self.open is not None and self.out and self.out[-1] is self.open[2]:
            self.out.insert(len(self.out) - 2, stmt)
        else:
            self.append(stmt)

    def emit_kept(self, stmt: ast.stmt) -> None:
        """Write a compound statement kept as sugar, whose blocks are lowered: a
        jump in them may clear the level's flag, so what follows is written
        in a segment of its own, which tests the flag again. One that holds a
        kept loop's real ``break`` or ``continue`` is guarded by an ``if``: a
        segment's ``while`` would take the jump."""
        level = self.level
        if level.guarded and self._holds_real_jump([stmt]):
            self.append(b.copy_location(b.if_(self.read(level), [stmt]), stmt))
        else:
            self.emit(stmt)
        self.open = None

    def emit(self, stmt: ast.stmt) -> None:
        """Write a simple statement of the current level, in a segment if it may be off."""
        level = self.levels[-1]
        if not level.guarded:  # (most statements: as append writes them)
            self.out.append(stmt)
            self.open = None
            return
        assert level.flag is not None
        if self.open is not None and self.open[0] is level and self.out and self.out[-1] is self.open[2]:
            self.open[1].append(stmt)
            return
        if not self.fits(self.depth + 1):
            self._outline(level, stmt)
            return
        self.max_depth = max(self.max_depth, self.depth + 1)
        # an if arm's segment stands on the arm's line (a tracer sees the test, not the body)
        where = level.test or stmt
        start, segment = self.segment(level.flag, [b.copy_location(stmt, where) if self.placing else stmt], where)
        self.out.extend((start, segment))
        level.segments.append((self.out, start, segment))
        self.open = (level, segment.body, segment)

    def segment(
        self, flag: str, body: list[ast.stmt], where: ast.AST | None = None
    ) -> tuple[ast.Assign, ast.While]:
        """``run = flag`` / ``while run: run = 0; body``: ``body`` once if ``flag``
        is set. Its statements stand at ``where``'s position, if it has one:
        built there, with their fields in order (keywords take twice as long),
        as the flow writes a segment for every few statements. Their names and
        ints are the unit's (:meth:`Unit.read`): one node each where text is
        written, placed as their statement in a tree."""
        run, unit = self.run, self.unit
        if not self.placing:  # (no position: no keywords to pass)
            start = b.make_assign([unit.stored(run)], unit.read(flag))
            clear = b.make_assign([unit.stored(run)], unit.number(0))
            return start, b.make_while(unit.read(run), [clear, *body], [])
        at = position(where)
        start = ast.Assign([unit.stored(run)], unit.read(flag), **at)
        clear = ast.Assign([unit.stored(run)], unit.number(0), **at)
        return start, ast.While(unit.read(run), [clear, *body], [], **at)

    def _outline(self, level: Level, stmt: ast.stmt) -> None:
        """A segment where one more block would pass CPython's limit: a
        function, called when the flag is set (its names are the scope's)::

            def seg(): nonlocal x; x = f()
            call_if(flag, seg)
        """
        assert level.flag is not None
        level.reads += 1
        name = self.unit.names.temp("segment")
        body = [stmt]
        define = b.copy_location(b.function(name, [], body), stmt)
        call_if = b.call(self.unit.helper("call_if"), self.unit.read(level.flag), b.load(name))
        call = b.copy_location(b.expr(call_if), stmt)
        self.out.extend((define, call))
        self.outlined.append(Outlined(define, self.out, level.flag))
        self.open = (level, body, call)

    def outlined_if_deep(self, write: Callable[[], None], where: ast.AST, cost: int = 2) -> None:
        """Run ``write``; when the block it writes (a loop 1, a ``try``'s
        handler 2) would nest deeper than CPython's limit, into a function
        called in place (its names stay the scope's, see
        :meth:`_finish_outlined`)."""
        if self.fits(self.depth + cost):
            write()
            return
        saved = self.depth
        self.depth = 0
        self.outlining += 1
        try:
            with self.into([], cost=0) as body:
                write()
        finally:
            self.depth = saved
            self.outlining -= 1
        if _yields(body):  # a function cannot yield for the scope: left as it is
            self.out.extend(body)
            self.open = None
            return
        name = self.unit.names.temp("block")
        define = b.copy_location(b.function(name, [], body), where)
        self.append(define)
        self.append(b.copy_location(b.expr(b.call(b.load(name))), where))
        self.outlined.append(Outlined(define, self.out))

    def into(self, out: list[ast.stmt], cost: int = 1) -> Scoped[list[ast.stmt]]:
        """Write to ``out``, the body of a new block that costs ``cost`` of
        CPython's nested blocks (a handler 2), for a while."""
        saved = self.out, self.open
        self.out, self.open = out, None
        self.depth += cost
        self.max_depth = max(self.max_depth, self.depth)

        def restore(_: list[ast.stmt]) -> None:
            self.out, self.open = saved
            self.depth -= cost

        return Scoped(out, restore)

    def read(self, level: Level) -> ast.expr:
        """The value of ``level``'s flag (1 if it cannot be off)."""
        if not level.guarded:
            return b.int_(1)
        assert level.flag is not None
        level.reads += 1
        return self.unit.read(level.flag)

    # -------------------------------------------------------------- levels
    def level_of(
        self, kind: str, *, flag: str | None = None, start: ast.expr | None = None,
        test: ast.Assign | None = None, own: bool = False, loop: Loop | None = None,
        boundary: Boundary | None = None, clears: list[str] | None = None,
    ) -> Scoped[Level]:
        """Enter a level. With ``flag`` it is guarded from the start; otherwise
        its flag is made when a jump first leaves it, set to ``start`` where the
        level begins (``start`` None: the caller sets it)."""
        # (its fields in order: a flow enters a level for every block)
        level = Level(kind, len(self.levels) + 1, flag, flag is not None, own, None, test, [], 0, loop, boundary,
                      clears or [])
        if flag is None and start is not None:
            init = b.assign("?", start)
            self.append_early(init)
            level.init = (self.out, init)
        self.levels.append(level)
        return Scoped(level, self._end)

    def _end(self, level: Level) -> None:
        """Leave ``level``: its flag's start and its segments take their final form."""
        self.levels.pop()
        self.open = None
        if level.init is not None:
            where, init = level.init
            if level.flag is None:
                del where[_last_index(where, init)]
            else:
                init.targets[0].id = level.flag
        if level.own and len(level.segments) == 1 and level.reads == 0:
            where, start, segment = level.segments[0]
            del where[_last_index(where, start)]  # the one segment consumes the flag
            segment.test = self.unit.read(level.flag)
            segment.body[0] = self.store(level.flag, self.unit.number(0))
            if level.test is not None and self._holds_object(level.test.value):
                # a false test's value dies here, as CPython pops it, not at the flag's next use
                where.insert(_last_index(where, segment) + 1, self._cleared(level.flag, level.test))
        elif level.test is not None and self._holds_object(level.test.value):
            level.test.value = b.call(self.unit.builtin("bool"), level.test.value)

    def store(self, name: str, value: ast.expr) -> ast.Assign:
        """``name = value``, to a flag or temporary (one node for its stores, :meth:`Unit.stored`)."""
        return b.assign_to(self.unit.stored(name), value)

    def assign_at(self, name: str, value: ast.expr | int, where: ast.AST) -> ast.Assign:
        """``name = value`` (an int: its constant) at ``where``'s position, as
        ``b.copy_location(b.assign(name, value), where)`` gives it but built there
        (flags set and cleared are most of what the flow writes)."""
        if type(value) is int:
            value = self.unit.number(value)
        elif self.placing:
            value = b.copy_location(value, where)
        if not self.placing:  # (no position: no keywords to pass)
            return b.make_assign([self.unit.stored(name)], value)
        return ast.Assign([self.unit.stored(name)], value, **position(where))

    def _cleared(self, flag: str, test: ast.Assign) -> ast.stmt:
        """``flag = 0`` after the ``while`` of an ``if`` whose flag is set by
        ``test``, on no line a tracer would see as a new one: the if's own when
        the whole statement is one line (its body's, and the code a rule made
        from one line's), else none (the body's last line is not the if's)."""
        if getattr(test, "lineno", None) == getattr(test, "end_lineno", None):  # (or unplaced, as the if)
            return self.assign_at(flag, 0, test)
        return b.unlined(self.store(flag, self.unit.number(0)))

    def _holds_object(self, value: ast.expr) -> bool:
        """Whether a flag set to ``value`` may hold an object that should die
        once tested: not an int or a ``bool`` (those are shared, never freed)."""
        return not _is_flag(value) and not self._is_bool(value)

    def _is_bool(self, value: ast.expr) -> bool:
        """Whether ``value`` is a call of a helper that always gives a real ``bool``
        (``not``, ``in``, ``is``, ``int.__eq__``): a flag read more than once needs
        no ``bool()``."""
        if not (isinstance(value, ast.Call) and isinstance(value.func, ast.Name)):
            return False
        if value.func.id in self.bool_helpers:
            return True
        # ``not``: int.__eq__(bool(t), 0); ``is``/``is not`` of a constant: int.__eq__/__ne__ of ids
        return any(constant is not None and value.func.id == constant.name
                   for constant in (self.unit.constants.get(("method", "int", method))
                                    for method in ("__eq__", "__ne__")))

    def flag_of(self, level: Level, name: str) -> str:
        """``level``'s flag, made now if needed."""
        if level.flag is None:
            level.flag = self.unit.names.fixed(f"{name}{level.depth}")
        return level.flag

    def child_level(self, kind: str, where: ast.AST, **options) -> Scoped[Level]:
        """A level entered with the current one, written in the same block:
        under a level that may be off it starts as a copy of that level's flag."""
        if self.level.guarded:
            flag = self.unit.names.fixed(f"go{len(self.levels) + 1}")
            self.append(self.assign_at(flag, self.read(self.level), where))
            return self.level_of(kind, flag=flag, **options)
        return self.level_of(kind, start=self.unit.number(1), **options)

    # --------------------------------------------------------------- blocks
    def block(self, stmts: list[ast.stmt]) -> None:
        """Lower ``stmts``, each by the method for its class (see :func:`_lowering`)."""
        for stmt in stmts:
            (_LOWERINGS.get(type(stmt)) or _lowering(type(stmt)))(self, stmt)

    def new_block(self, stmts: list[ast.stmt], kind: str = "kept", cost: int = 1) -> list[ast.stmt]:
        """Lower ``stmts`` as the body of a new block; never empty."""
        with self.into([], cost) as out, self.level_of(kind, start=self.unit.number(1)):
            self.block(stmts)
        return out or [b.nothing()]

    def handler(self, stmts: list[ast.stmt], iterators: list[str]) -> list[ast.stmt]:
        """A bare handler's body: first the iterators of the loops it ends,
        the innermost first (``iterators`` lists the outer loops first), as
        CPython's unwinding pops them."""
        return [*self._drop(iterators[::-1]), *self.new_block(stmts, "handler", cost=2)]

    def _Pass(self, node: ast.Pass) -> None:
        """Nothing to run."""

    # ---------------------------------------------------------------- if
    def _If(self, node: ast.If) -> None:
        if self.keeps("if") or self._holds_real_jump(node.body, node.orelse):
            # a kept loop's real break/continue must not end up inside a while
            body = self.new_block(node.body)
            orelse = self.new_block(node.orelse) if node.orelse else []
            self.emit_kept(b.copy_location(b.if_(node.test, body, orelse), node))
            return
        self.unit.note("if", node)
        if self._guard_clause(node):
            return
        self.if_(node)

    def _guard_clause(self, node: ast.If) -> bool:
        """An ``if`` whose body is simple statements ending in a real ``return``
        or ``raise`` needs no flag: its ``while`` runs at most once because it
        leaves, and what its ``else`` holds runs after it, only if it did not::

            if n < 2:                  while n < 2:
                return n                   return n
            else:                      f(n)
                f(n)
        """
        if not node.body or not isinstance(node.body[-1], _ENDS_BLOCK):
            return False  # (most ifs: no need to look further)
        body = [stmt for stmt in node.body if not isinstance(stmt, ast.Pass)]
        if not body or not isinstance(body[-1], _ENDS_FRAME) or \
                not all(isinstance(stmt, SIMPLE) for stmt in body):
            return False
        if self.outlining or not self.fits(self.depth + 2) or \
                any(level.boundary is not None for level in self.levels):
            return False  # the return waits for a finally, a with or the scope's end
        if isinstance(body[-1], ast.Return):
            body[-1:] = self._return(body[-1].value, body[-1])
        self.emit(b.copy_location(b.while_(node.test, body), node))
        self.block(node.orelse)
        return True

    def if_(self, node: ast.If) -> None:
        r"""``if``/``elif``/``else`` as flat levels, however many ``elif``\ s::

            pending = 1                         (no arm has run yet)
            if1 = a
            while if1: if1 = 0; pending = 0; A
            run = pending
            while run: run = 0; <b's statements>; if1 = b
            while if1: if1 = 0; pending = 0; B
            while pending: pending = 0; C
        """
        depth = len(self.levels) + 1
        flag = self.unit.names.fixed(f"if{depth}")
        pending = self.unit.names.fixed(f"else{depth}") if node.orelse else None
        if pending is not None:
            self.append_early(self.assign_at(pending, self.read(self.level), node))
        arm, prelude = node, None
        while True:
            if prelude is None:
                set_flag = self._arm_test(flag, arm)
            else:
                assert pending is not None
                with self.level_of("else", flag=pending):
                    self.block(prelude)
                    set_flag = self._arm_test(flag, arm)
            with self.level_of("if", flag=flag, test=set_flag, own=True):
                if pending is not None:
                    self.emit(self.assign_at(pending, 0, arm))
                self.block(arm.body)
            orelse = arm.orelse
            if not orelse:
                return
            last = orelse[-1]
            if isinstance(last, ast.If) and not self._holds_real_jump(last.body, last.orelse):
                arm, prelude = last, orelse[:-1]
                self.unit.note("if", arm)  # (an elif)
                continue
            assert pending is not None
            with self.level_of("else", flag=pending, own=True):
                self.block(orelse)
            return

    def _arm_test(self, flag: str, arm: ast.If) -> ast.Assign:
        """Write ``flag = test`` of an arm (``flag = 0`` first, if the arm may be skipped)."""
        if self.level.guarded:
            self.append_early(self.assign_at(flag, 0, arm))
        set_flag = self.assign_at(flag, arm.test, arm)
        self.emit(set_flag)
        return set_flag

    def _holds_real_jump(self, *blocks: list[ast.stmt]) -> bool:
        """Whether ``blocks`` hold a real ``break``/``continue`` of a kept loop."""
        if not self.loops or not self.loops[-1][1].kept:
            return False
        todo: list[ast.AST] = [stmt for block in blocks for stmt in block]
        while todo:
            node = todo.pop()
            if isinstance(node, _JUMPS):
                return True
            if not isinstance(node, _OWN_JUMPS):
                todo.extend(children(node))
        return False

    # -------------------------------------------------------------- loops
    def _While(self, node: ast.While) -> None:
        """``while test: body``, or with a flag when a jump may stop it, its
        test needs statements or it runs under a guard::

            loop = test
            while loop: body; loop = test
        """
        prelude: list[ast.stmt] = getattr(node, "prelude", [])
        if self.keeps("break") or self.keeps("continue"):
            self._kept_while(node, prelude)
            return
        if node.orelse:
            self.unit.note("while-else", node)

        def test(statements: list[ast.stmt], value: ast.expr) -> None:
            self.block(statements)
            self.emit(self.assign_at(loop.flag, value, node))

        def retest() -> None:  # (the test written again, at the end of the body: a copy)
            test(copy_tree(prelude), copy_tree(node.test))

        loop = Loop(self.unit.names.fixed(f"loop{len(self.levels) + 1}"),
                    iterator=getattr(node, LOOP_ITERATOR, None))
        if loop.iterator is not None:  # an async for's
            self.iterators[-1].append(loop.iterator)
        guarded = self.level.guarded
        inside, iteration = self._loop(node, loop, retest, force=bool(prelude) or guarded)
        if not loop.used:
            self.append(b.copy_location(b.while_(node.test, inside), node))
        else:
            if guarded:
                self.append_early(self.assign_at(loop.flag, 0, node))
            test(prelude, node.test)
            if self._holds_object(node.test):
                # the test's value dies once tested, as CPython pops it: not kept
                # by the flag while the body runs, nor after the loop
                inside.insert(0, self.assign_at(loop.flag, 1, node))
                self.append(b.copy_location(b.while_(self.unit.read(loop.flag), inside), node))
                self.append(self.assign_at(loop.flag, 0, node))
            else:
                self.append(b.copy_location(b.while_(self.unit.read(loop.flag), inside), node))
        self._loop_else(node.orelse, iteration)

    def _ForLoop(self, node: ForLoop) -> None:
        """``for`` (see :class:`unsugar.forms.ForLoop`): one ``while``. Its test is
        the next item's, in place, unless a ``break`` may stop it or it runs
        under a guard: then a flag holds it."""
        def more() -> ast.expr:
            if self.unit.semantics == "native":  # operator.is_not
                return b.call(self.unit.helper("compare_is_not"), b.load(node.item), self.unit.helper("loop_end"))
            return b.call(self.unit.helper("loop_more"), b.call(self.unit.builtin("id"), b.load(node.item)),
                          self.unit.helper("loop_end_id"))

        def fetch() -> None:
            item = b.call(self.unit.builtin("next"), b.load(node.iterator), self.unit.helper("loop_end"))
            self.emit(self.assign_at(node.item, item, getattr(node, "step_at", node)))
            if loop.stops or guarded:
                self.emit(self.assign_at(loop.flag, more(), node))

        def write() -> None:
            inside, iteration = self._loop(node, loop, fetch, force=True)
            if guarded:
                self.append_early(self.assign_at(loop.flag, 0, node))
            fetch()
            test = self.unit.read(loop.flag) if loop.stops or guarded else more()
            self.append(b.copy_location(b.while_(test, inside), node))
            self.append(self.assign_at(node.iterator, self.unit.helper("none"), node))
            self._loop_else(node.orelse, iteration)

        guarded = self.level.guarded
        loop = Loop(self.unit.names.fixed(f"loop{len(self.levels) + 1}"), iterator=node.iterator)
        self.iterators[-1].append(node.iterator)
        self.outlined_if_deep(write, node, cost=1)

    def _loop(
        self, node: ast.While | ForLoop, loop: Loop, step: Callable[[], None], force: bool
    ) -> tuple[list[ast.stmt], Level]:
        """The inside of a loop's ``while``: the body level, then ``step`` (the
        next test or item) in the iteration level, whose flag says the loop
        has not stopped (it also guards ``else``). Its flag's start is written
        where the loop begins."""
        start = self.read(self.level)
        with self.into([]) as inside, self.level_of("loop", loop=loop) as iteration:
            self.loops.append((iteration, loop))
            try:
                with self.level_of("body", start=self.unit.number(1)):
                    self.block(node.body)
            finally:
                self.loops.pop()
            loop.used = force or loop.stops
            if loop.used:
                step()
        if iteration.flag is not None or (node.orelse and self.level.guarded):
            name = self.flag_of(iteration, "nobreak")
            self.append_early(self.assign_at(name, start, node))
        return inside, iteration

    def _loop_else(self, orelse: list[ast.stmt], iteration: Level) -> None:
        """A loop's ``else``: it runs unless the loop stopped (or never began)."""
        if not orelse:
            return
        if iteration.flag is None:
            self.block(orelse)
            return
        with self.level_of("else", flag=iteration.flag):
            self.block(orelse)

    def kept_loop_body(self, stmts: list[ast.stmt]) -> list[ast.stmt]:
        """The body of a kept loop. A jump out of it to an outer target (a
        ``return`` through a ``finally``, an outer loop's ``break``) clears the
        body's flag, and the loop must stop: the body ends with ``if not
        flag: break``."""
        with self.into([]) as out, self.level_of("kept", start=self.unit.number(1)) as body:
            self.block(stmts)
        if body.flag is not None:
            out.append(b.if_(b.not_(self.unit.read(body.flag)), [ast.Break()]))
        return out or [b.nothing()]

    def _kept_while(self, node: ast.While, prelude: list[ast.stmt]) -> None:
        """A ``while`` whose ``break``/``continue`` stay real (kept sugar)."""
        self.loops.append((self.level, Loop("", kept=True)))
        try:
            if prelude:
                test = [*prelude, b.if_(node.test, [], [ast.Break()])]
                body = self.kept_loop_body([*test, *node.body])
                loop = ast.While(test=b.int_(1), body=body, orelse=[])
            else:
                loop = ast.While(test=node.test, body=self.kept_loop_body(node.body), orelse=[])
        finally:
            self.loops.pop()
        if node.orelse:
            loop.orelse = self.new_block(node.orelse)
        self.emit_kept(b.copy_location(loop, node))

    def _For(self, node: ast.For | ast.AsyncFor) -> None:
        """A kept ``for`` loop: its ``break`` and ``continue`` stay real."""
        self.loops.append((self.level, Loop("", kept=True)))
        try:
            node.body = self.kept_loop_body(node.body)
        finally:
            self.loops.pop()
        if node.orelse:
            node.orelse = self.new_block(node.orelse)
        self.emit_kept(node)

    _AsyncFor = _For

    # -------------------------------------------------------------- jumps
    def _Break(self, node: ast.Break) -> None:
        self.jump("break", node)

    def _Continue(self, node: ast.Continue) -> None:
        self.jump("continue", node)

    def _Return(self, node: ast.Return) -> None:
        self.jump("return", node, node.value)

    def jump(self, kind: str, where: ast.AST, value: ast.expr | None = None) -> None:
        """Leave every level up to the target: the loop (``break``,
        ``continue``), or the function (``return``); a ``finally`` or ``with``
        on the way takes the jump over and goes on with it afterwards."""
        target = self.loops[-1] if kind != "return" else None
        if target is None and (self.outlining or self.level.guarded and not self.fits(self.depth + 1)):
            # a moved segment cannot return for the scope: wait for its end
            self.levels[0].boundary = self.returns
        stops_at = None
        for level in reversed(self.levels):
            if target is not None and level is target[0]:
                break
            if level.boundary is not None:
                stops_at = level
                break
        if stops_at is None and (target is None or target[1].kept):
            # nothing to run on the way: a real return, or a kept loop's jump
            if kind == "return":
                for stmt in self._return(value, where):
                    self.emit(stmt)
                return
            self.emit(b.copy_location({"break": ast.Break, "continue": ast.Continue}[kind](), where))
            return
        if kind != "return":
            self.unit.note(kind, where)
        out: list[ast.stmt] = []
        if kind == "return" and self.returns_value:
            # the value first: if computing it raises, no flag has been cleared;
            # it waits in a box that the return empties, so that no variable
            # holds it once returned (a frame that a traceback keeps alive
            # keeps nothing of it), as nothing of CPython's stack does
            assert stops_at is not None and stops_at.boundary is not None
            boundary = stops_at.boundary
            if boundary.value is None:
                boundary.value = self.unit.names.temp("rv")
            out += self._boxed(boundary.value, value or self.unit.helper("none"), where)
        left: list[Level] = []
        for level in reversed(self.levels):
            if target is not None and level is target[0] and stops_at is None:
                if kind == "break":
                    out.extend(self._leave(level, where))
                    left.append(level)
                break
            out.extend(self._leave(level, where))
            left.append(level)
            if level is stops_at:
                assert level.boundary is not None
                flag = level.boundary.pending.get(kind)
                if flag is None:
                    flag = level.boundary.pending[kind] = self.unit.names.temp(kind[:3])
                out.append(self.assign_at(flag, 1, where))
                break
        for stmt in out:
            self.emit(stmt)
        for level in left:  # what follows in them runs under their flags
            level.guarded = True
        self.open = None

    def _return(self, value: ast.expr | None, where: ast.AST) -> list[ast.stmt]:
        """``return value``, which first drops the iterators of the for loops it
        leaves, the innermost first, as CPython pops them: a frame that
        outlives the call (a traceback keeps it) keeps none of them. The value
        is computed before, and waits in a box that the return empties::

            box = list(); list.append(box, value)
            iterator = None
            return list.pop(box)
        """
        out: list[ast.stmt] = []
        iterators = [loop.iterator for _, loop in reversed(self.loops) if loop.iterator]
        if iterators and value is not None and not isinstance(value, ast.Constant):
            box = self.unit.names.temp("rv")
            out += self._boxed(box, value, where)
            value = b.call(self.unit.method("list", "pop"), b.load(box))
        out += [self.assign_at(name, self.unit.helper("none"), where) for name in iterators]
        out.append(b.copy_location(b.ret(value), where))
        return out

    def _boxed(self, box: str, value: ast.expr, where: ast.AST) -> list[ast.stmt]:
        """``box = list(); list.append(box, value)``: ``list.pop(box)`` takes it out."""
        append = b.call(self.unit.method("list", "append"), b.load(box), value)
        return [self.assign_at(box, b.call(self.unit.builtin("list")), where),
                b.copy_location(b.expr(append), where)]

    def _leave(self, level: Level, where: ast.AST) -> list[ast.stmt]:
        """Clear ``level``'s flag (and stop the loop it runs): a jump at ``where`` leaves it."""
        name = self.flag_of(level, "nobreak" if level.kind == "loop" else "go")
        clears = [name, *level.clears]
        if level.loop is not None:
            level.loop.stops = True
            clears.append(level.loop.flag)
        return [self.assign_at(n, 0, where) for n in clears]

    # ---------------------------------------------------------------- try
    def _Try(self, node: ast.Try) -> None:
        if node.finalbody and not self.keeps("try-finally") and not self._holds_real_jump(node.body):
            self._try_finally(node)
            return

        def write() -> None:
            node.body, iterators = self._same_level_block(node.body)
            for handler in node.handlers:
                handler.body = self.handler(handler.body, iterators)
            if node.orelse:
                node.orelse = self.new_block(node.orelse)
            if node.finalbody:
                node.finalbody = self.new_block(node.finalbody)
            self.append(node)

        self.outlined_if_deep(write, node)

    def _same_level_block(self, stmts: list[ast.stmt]) -> tuple[list[ast.stmt], list[str]]:
        """Lower ``stmts`` into a new block at the current level (a ``try``
        body); also the iterators of the loops in it."""
        self.iterators.append([])
        with self.into([]) as out:
            self.block(stmts)
        return out or [b.nothing()], self.iterators.pop()

    def _boundary(
        self, body: list[ast.stmt], boundary: Boundary, where: ast.AST
    ) -> tuple[list[ast.stmt], list[str]]:
        """The body of a ``try``/``finally`` or ``with``: a level where jumps
        stop; also the iterators of the loops in it."""
        out: list[ast.stmt] = []
        self.iterators.append([])
        with self.child_level("boundary", where, boundary=boundary), self.into(out):
            self.block(body)
        for flag in boundary.pending.values():
            self.append_early(self.assign_at(flag, 0, where))
        return out or [b.nothing()], self.iterators.pop()

    def _resume(self, boundary: Boundary, where: ast.AST) -> None:
        """Go on with the jumps that stopped at ``boundary``."""
        for kind in JUMPS:
            flag = boundary.pending.get(kind)
            if flag is None:
                continue
            with self.level_of("resume", flag=flag, own=True):
                value = b.call(self.unit.method("list", "pop"), b.load(boundary.value)) \
                    if kind == "return" and boundary.value else None
                self.jump(kind, where, value)

    def _try_finally(self, node: ast.Try) -> None:
        """``try: B finally: F``::

            try: B                 (a jump out of B stops here: ``pending = 1``)
            except: F; raise       (F may jump: then the exception is dropped)
            F
            <the pending jumps go on>
        """
        self.unit.note("try-finally", node)
        boundary = Boundary()

        def write() -> None:
            body, iterators = self._boundary(node.body, boundary, node)
            handler = self.handler([*copy_tree(node.finalbody), ast.Raise(exc=None, cause=None)],
                                   iterators)
            self.append(b.copy_location(b.try_except(body, handler), node))
            # a jump out of the final block drops the pending jumps, and the value
            pending = [*boundary.pending.values(), *filter(None, [boundary.value])]
            with self.child_level("final", node, clears=pending):
                self.block(node.finalbody)

        self.outlined_if_deep(write, node)
        self._resume(boundary, node)

    def _WithBlock(self, node: WithBlock) -> None:
        """``try: BODY / except: exit(*exception), raised again unless it says
        so / exit(None, None, None)`` on every other way out."""
        depth = len(self.levels) + 1
        normal = self.unit.names.fixed(f"ok{depth}")
        self.append(self.assign_at(normal, self.read(self.level), node))
        boundary = Boundary()

        def none() -> ast.Name:  # (a node for each read: one node is in one place of a tree)
            return self.unit.helper("none")

        def write() -> None:
            body, iterators = self._boundary(node.body, boundary, node)
            exit_error = b.call_with(b.load(node.exit), [
                b.starred(b.call(self.unit.helper("context_exit_arguments")))])
            handler = self.handler([
                *getattr(node, "unwound", ()),
                self.store(normal, self.unit.number(0)),
                self.store(node.enter, none()),
                b.copy_location(b.if_(exit_error, [], [ast.Raise(exc=None, cause=None)]), node),
            ], iterators)
            self.append(b.copy_location(b.try_except(body, handler), node))
            with self.level_of("exit", flag=normal, own=True):
                self.emit(b.copy_location(b.expr(b.call(b.load(node.exit), none(), none(), none())), node))

        self.outlined_if_deep(write, node)
        self.append(self.assign_at(node.exit, none(), node))
        self._resume(boundary, node)

    # -------------------------------------------------------------- scopes
    def _FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        is_async = isinstance(node, ast.AsyncFunctionDef)
        body = node.body  # (its statements still hold their yields when the flow asks)
        async_generator = is_async and _yields(body, awaits=False)
        flow = Flow(self.unit, "function", lambda: _yields(body), async_generator)
        node.body = flow.scope_body(node.body, getattr(node, "frame_locals", ()),
                                    getattr(node, "hidden_locals", ())) or [b.ret()]
        if hasattr(node, "first_line"):
            self.unit.decorated.append(node)
        self.emit(node)

    _AsyncFunctionDef = _FunctionDef

    def _ClassDef(self, node: ast.ClassDef) -> None:
        node.body = Flow(self.unit, "class").scope_body(node.body) or [b.nothing()]
        self.emit(node)

    def _kept(self, node: ast.stmt) -> None:
        """A compound statement kept as sugar: lower the blocks inside it, then write it."""
        for name in block_fields(type(node)):
            value = getattr(node, name, None)
            if not value:
                continue
            if name in ("handlers", "cases"):
                for clause in value:
                    clause.body = self.new_block(clause.body)
            else:
                setattr(node, name, self.new_block(value))
        self.emit_kept(node)


#: how :meth:`Flow.block` lowers each class of statement (filled as they are met)
_LOWERINGS: dict[type, Callable[[Flow, Any], None]] = {}


def _lowering(cls: type) -> Callable[[Flow, Any], None]:
    """How ``cls`` is lowered: ``Flow._<class name>``, or kept as it is (a
    compound statement's blocks lowered, by :meth:`Flow._kept`)."""
    method = getattr(Flow, "_" + cls.__name__, None)
    if method is None:
        method = Flow._kept if block_fields(cls) else Flow.emit
    _LOWERINGS[cls] = method
    return method


def _as_global_stores(stmts: list[ast.stmt], unit: Unit) -> list[ast.stmt]:
    """``name = value`` in a moved segment of the module: the module's global."""
    out: list[ast.stmt] = []
    for stmt in stmts:
        if isinstance(stmt, ast.Assign) and isinstance(stmt.targets[0], ast.Name):
            store = b.call(unit.helper("global_set"), unit.string(stmt.targets[0].id), stmt.value)
            stmt = b.copy_location(b.expr(store), stmt)
        elif isinstance(stmt, ast.While):
            stmt.body = _as_global_stores(stmt.body, unit)
        elif isinstance(stmt, ast.Try):
            stmt.body = _as_global_stores(stmt.body, unit)
            for handler in stmt.handlers:
                handler.body = _as_global_stores(handler.body, unit)
        out.append(stmt)
    return out


def _yields(stmts: list[ast.stmt], awaits: bool = True) -> bool:
    """Whether ``stmts`` yield (or, with ``awaits``, await) in their own scope."""
    kinds = (ast.Yield, ast.YieldFrom, ast.Await) if awaits else (ast.Yield, ast.YieldFrom)
    todo: list[ast.AST] = list(stmts)
    while todo:
        node = todo.pop()
        if isinstance(node, kinds):
            return True
        if not isinstance(node, _OWN_SCOPES):
            todo.extend(children(node))
    return False


def _last_index(stmts: list[ast.stmt], stmt: ast.stmt) -> int:
    """Where ``stmt`` is in ``stmts``, looked for from the end: the statements
    a level revisits were written last, and a long block must not be scanned
    for each of its ``if``s (``list.index`` would make the flow quadratic)."""
    for at in range(len(stmts) - 1, -1, -1):
        if stmts[at] is stmt:
            return at
    raise ValueError("statement not in its block")


def _is_flag(value: ast.expr) -> bool:
    """Whether ``value`` is already 0 or 1 (an int, or a flag)."""
    return isinstance(value, ast.Constant) and type(value.value) is int


def lower_module(body: list[ast.stmt], unit: Unit) -> list[ast.stmt]:
    """Lower the control flow of a module body (and every scope inside it)."""
    return Flow(unit, "module").scope_body(body)
