"""The second phase: ``if``, ``break``, ``continue``, ``while``/``else``,
``try``/``finally`` and ``return`` through ``finally``, in core syntax.

Nothing here raises an exception to jump: a user's bare ``except:`` or a
context manager's ``__exit__`` never sees a rewritten ``break``. Instead each
scope has a flag ``go`` (1 while statements run normally). A jump clears it
and the statements after anything that may jump are guarded by it::

    while c:                      loop1 = 1
        if x: break               while loop1:
        f()                           if c:
                                          if x: loop1 = 0; go = 0
                                          if go: f()
                                          go = 1
                                      else: loop1 = 0

``if`` itself becomes a ``while`` that runs at most once::

    if t: A          if1 = t
    else: B    ->    else1 = 1
                     while if1: if1 = 0; else1 = 0; A
                     while else1: else1 = 0; B

``try``/``finally`` runs its final block once on each path, as CPython does
(inside the handler for the exceptional path, so chaining is unchanged);
a ``return`` inside it stores its value and returns after the final block.
"""

from __future__ import annotations

import ast
import copy
from dataclasses import dataclass

from unsugar import builder as b
from unsugar.registry import control_rule
from unsugar.unit import Unit

IF = control_rule(
    ast.If,
    id="if",
    summary="if/elif/else becomes a while loop that runs at most once",
    before="if t:\n    a()\nelse:\n    b()",
    after="_us_if1 = t\n_us_else1 = 1\nwhile _us_if1:\n    _us_if1 = 0\n    _us_else1 = 0\n"
    "    a()\nwhile _us_else1:\n    _us_else1 = 0\n    b()",
    reference="compound_stmts.html#the-if-statement",
)
BREAK = control_rule(
    ast.Break,
    id="break",
    summary="break clears the loop's flag and skips the rest of the body",
    before="while c:\n    break",
    after="_us_loop1 = 1\nwhile _us_loop1:\n    ...\n    _us_loop1 = 0\n    _us_go = 0",
    reference="simple_stmts.html#the-break-statement",
)
CONTINUE = control_rule(
    ast.Continue,
    id="continue",
    summary="continue skips the rest of the loop body",
    before="while c:\n    continue\n    f()",
    after="... _us_go = 0\nif _us_go:\n    f()\n_us_go = 1",
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


@dataclass
class Loop:
    alive: str | None  # the loop's flag; None for a kept loop (real break)
    finally_depth: int
    jumps: bool = False  # a break or continue targets it
    breaks: bool = False  # a break targets it
    returns: bool = False  # a return passes through it


class Flow:
    """Lowers the control flow of one scope (a module, class or function body).

    Its variables: ``go`` (0 while a jump is pending), ``brk`` (the pending
    jump is a ``break``), ``ret``/``rv`` (a ``return`` waits for a final
    block), ``loopN`` (loop N keeps iterating), ``ifN``/``elseN`` (the flags
    of an ``if`` at depth N).
    """

    def __init__(self, unit: Unit, kind: str) -> None:
        self.unit = unit
        self.kind = kind
        self.loops: list[Loop] = []
        self.finally_depth = 0
        self.if_depth = 0
        self.uses_go = False
        self.uses_ret = False
        self.returns = 0  # flag returns lowered so far
        self.go = unit.names.fixed("go")
        self.ret = unit.names.fixed("ret")
        self.rv = unit.names.fixed("rv")
        self.brk = unit.names.fixed("brk")
        self.uses_brk = False

    def keeps(self, rule_id: str) -> bool:
        return rule_id in self.unit.keep

    def scope_body(self, stmts: list[ast.stmt]) -> list[ast.stmt]:
        body, _ = self.block(stmts)
        prologue = []
        if self.uses_go:
            prologue.append(b.assign(self.go, b.int_(1)))
        if self.uses_ret:
            prologue.append(b.assign(self.ret, b.int_(0)))
        if self.uses_brk:
            prologue.append(b.assign(self.brk, b.int_(0)))
        return prologue + body

    # --------------------------------------------------------------- blocks
    def block(self, stmts: list[ast.stmt]) -> tuple[list[ast.stmt], bool]:
        """Lower ``stmts``; the flag says whether they may end with ``go`` cleared."""
        out: list[ast.stmt] = []
        for i, stmt in enumerate(stmts):
            lowered, jumps = self.stmt(stmt)
            out.extend(lowered)
            if jumps:
                out.extend(self._guarded(stmts[i + 1 :]))
                return out, True
        return out, False

    def _guarded(self, stmts: list[ast.stmt]) -> list[ast.stmt]:
        """``stmts`` run only while ``go`` is set, as flat runs of guards::

            if go: s1; s2 (may jump)        not nested: CPython allows only
            if go: s3                       20 nested blocks
        """
        out: list[ast.stmt] = []
        start = 0
        while start < len(stmts):
            run: list[ast.stmt] = []
            self.if_depth += 1
            try:
                for stmt in stmts[start:]:
                    start += 1
                    lowered, jumps = self.stmt(stmt)
                    run.extend(lowered)
                    if jumps:
                        break
            finally:
                self.if_depth -= 1
            out.extend(self.if_(b.load(self.go), run, [], stmts[0]))
        return out

    def nested(self, stmts: list[ast.stmt]) -> list[ast.stmt]:
        """Lower a block that sits inside a generated ``if``."""
        self.if_depth += 1
        try:
            return self.block(stmts)[0]
        finally:
            self.if_depth -= 1

    def stmt(self, node: ast.stmt) -> tuple[list[ast.stmt], bool]:
        method = getattr(self, "_" + type(node).__name__, None)
        if method is None:
            return [self._kept(node)], False
        return method(node)

    # ---------------------------------------------------------------- if
    def if_(
        self, test: ast.expr, body: list[ast.stmt], orelse: list[ast.stmt], where: ast.AST
    ) -> list[ast.stmt]:
        """``if test: body else: orelse`` in core syntax (bodies already lowered)."""
        if self.keeps("if"):
            return b.located([b.if_(test, body, orelse)], where)
        depth = self.if_depth + 1
        flag = self.unit.names.fixed(f"if{depth}")
        out: list[ast.stmt] = []
        clear = [b.assign(flag, b.int_(0))]
        if orelse:
            other = self.unit.names.fixed(f"else{depth}")
            out.append(b.assign(other, b.int_(1)))
            clear.append(b.assign(other, b.int_(0)))
        out.append(b.assign(flag, test))
        out.append(b.while_(b.load(flag), clear + (body or [])))
        if orelse:
            out.append(b.while_(b.load(other), [b.assign(other, b.int_(0)), *orelse]))
        return b.located(out, where)

    def _If(self, node: ast.If) -> tuple[list[ast.stmt], bool]:
        real_jump = self._holds_real_jump([*node.body, *node.orelse])
        if not real_jump and not self.keeps("if") and _is_elif(node):
            return self._elif_chain(node)
        self.if_depth += 1
        try:
            body, j1 = self.block(node.body)
            orelse, j2 = self.block(node.orelse)
        finally:
            self.if_depth -= 1
        if real_jump:
            # a kept loop's real break/continue must not end up inside a while
            return b.located([b.if_(node.test, body, orelse)], node), j1 or j2
        return self.if_(node.test, body, orelse, node), j1 or j2

    def _elif_chain(self, node: ast.If) -> tuple[list[ast.stmt], bool]:
        """``if a: A / elif b: B / else: C`` flat, not one level deeper per ``elif``::

            pending = 1
            ifN = a
            while ifN: ifN = 0; pending = 0; A
            ifN = 0
            elseN = pending                  (b is tested only if nothing ran)
            while elseN: elseN = 0; ifN = b
            while ifN: ifN = 0; pending = 0; B
            while pending: pending = 0; C
        """
        depth = self.if_depth + 1
        flag = self.unit.names.fixed(f"if{depth}")
        pending = self.unit.names.fixed(f"elif{depth}")
        test_now = self.unit.names.fixed(f"else{depth}")
        out: list[ast.stmt] = [b.assign(pending, b.int_(1)), b.assign(flag, node.test)]
        jumps = False
        link: ast.If | None = node
        orelse: list[ast.stmt] = []
        while link is not None:
            self.if_depth += 1
            try:
                body, j = self.block(link.body)
            finally:
                self.if_depth -= 1
            jumps = jumps or j
            clear = [b.assign(flag, b.int_(0)), b.assign(pending, b.int_(0))]
            out.append(b.while_(b.load(flag), clear + body))
            orelse = link.orelse
            if not _is_elif(link):
                link = None
            else:
                link = orelse[0]
                out.append(b.assign(flag, b.int_(0)))
                out.append(b.assign(test_now, b.load(pending)))
                out.append(b.while_(b.load(test_now), [b.assign(test_now, b.int_(0)),
                                                       b.assign(flag, link.test)]))
        if orelse:
            self.if_depth += 1
            try:
                rest, j = self.block(orelse)
            finally:
                self.if_depth -= 1
            jumps = jumps or j
            out.append(b.while_(b.load(pending), [b.assign(pending, b.int_(0)), *rest]))
        return b.located(out, node), jumps

    def _holds_real_jump(self, stmts: list[ast.stmt]) -> bool:
        """Whether ``stmts`` hold a real ``break``/``continue`` of a kept loop."""
        if not self.loops or self.loops[-1].alive is not None:
            return False
        todo: list[ast.AST] = list(stmts)
        while todo:
            node = todo.pop()
            if isinstance(node, ast.Break | ast.Continue):
                return True
            if not isinstance(node, ast.While | ast.For | ast.AsyncFor | ast.FunctionDef
                              | ast.AsyncFunctionDef | ast.ClassDef | ast.expr):
                todo.extend(ast.iter_child_nodes(node))
        return False

    # -------------------------------------------------------------- loops
    def _While(self, node: ast.While) -> tuple[list[ast.stmt], bool]:
        loop = Loop(self.unit.names.fixed(f"loop{len(self.loops) + 1}"), self.finally_depth)
        self.loops.append(loop)
        try:
            body = self.nested(node.body)
        finally:
            self.loops.pop()
        orelse, else_jumps = self.block(node.orelse)
        if not loop.jumps and not loop.returns:
            if orelse and self.keeps("while-else"):
                return b.located([ast.While(test=node.test, body=body, orelse=orelse)], node), else_jumps
            return b.located([b.while_(node.test, body), *orelse], node), else_jumps
        assert loop.alive is not None
        self.uses_go = True
        resume: list[ast.stmt] = [b.assign(self.go, b.int_(1))]
        self.if_depth += 1
        if loop.breaks:
            resume += self.if_(
                b.load(self.brk), [b.assign(self.brk, b.int_(0)), b.assign(loop.alive, b.int_(0))],
                [], node,
            )
        self.if_depth -= 1
        if loop.returns:
            self.uses_ret = True
            self.if_depth += 1
            resume = self.if_(b.load(self.ret), [b.assign(loop.alive, b.int_(0))], resume, node)
            self.if_depth -= 1
        stop = [b.assign(loop.alive, b.int_(0)), *orelse]
        if _always_true(node.test):
            inner = body + resume
        else:
            inner = self.if_(node.test, body + resume, stop, node)
        out = [b.assign(loop.alive, b.int_(1)), b.while_(b.load(loop.alive), inner)]
        return b.located(out, node), else_jumps or loop.returns

    def _For(self, node: ast.For | ast.AsyncFor) -> tuple[list[ast.stmt], bool]:
        """A kept ``for`` loop: its ``break`` and ``continue`` stay real."""
        self.loops.append(Loop(None, self.finally_depth))
        try:
            node.body = self.block(node.body)[0]
        finally:
            self.loops.pop()
        orelse, jumps = self.block(node.orelse)
        node.orelse = orelse
        return [node], jumps

    _AsyncFor = _For

    def _Break(self, node: ast.Break) -> tuple[list[ast.stmt], bool]:
        loop = self.loops[-1]
        if loop.alive is None or self.keeps("break"):
            return [node], False
        loop.jumps = loop.breaks = True
        self.uses_go = self.uses_brk = True
        out = [b.assign(self.brk, b.int_(1)), b.assign(self.go, b.int_(0))]
        return b.located(out, node), True

    def _Continue(self, node: ast.Continue) -> tuple[list[ast.stmt], bool]:
        loop = self.loops[-1]
        if loop.alive is None or self.keeps("continue"):
            return [node], False
        loop.jumps = True
        self.uses_go = True
        return b.located([b.assign(self.go, b.int_(0))], node), True

    def _Return(self, node: ast.Return) -> tuple[list[ast.stmt], bool]:
        if self.finally_depth == 0:
            return [node], False
        for loop in reversed(self.loops):  # it waits for the outermost finally
            if loop.finally_depth == 0:
                break
            loop.returns = True
        self.uses_go = self.uses_ret = True
        self.returns += 1
        value = node.value if node.value is not None else self.unit.helper("none")
        out = [
            b.assign(self.rv, value),
            b.assign(self.ret, b.int_(1)),
            b.assign(self.go, b.int_(0)),
        ]
        return b.located(out, node), True

    # ---------------------------------------------------------------- try
    def _Try(self, node: ast.Try) -> tuple[list[ast.stmt], bool]:
        kept = self.keeps("try-finally") or self._holds_real_jump(node.body)
        if not node.finalbody or kept:
            body, j1 = self.block(node.body)
            node.body = body or [b.nothing()]
            jumps = j1
            for handler in node.handlers:
                handler_body, j2 = self.block(handler.body)
                handler.body = handler_body or [b.nothing()]
                jumps = jumps or j2
            if j1 and node.orelse:  # a kept else must not run after a jump out of the body
                node.orelse = self.if_(b.load(self.go), self.nested(node.orelse), [], node)
                j3 = True
            else:
                node.orelse, j3 = self.block(node.orelse)
            if node.finalbody:
                node.finalbody, j4 = self.block(node.finalbody)
                jumps = jumps or j4
            return [node], jumps or j3
        return self._try_finally(node)

    def _try_finally(self, node: ast.Try) -> tuple[list[ast.stmt], bool]:
        """``try: B finally: F``::

            try: B                 (a return in B: rv = value; ret = 1; go = 0)
            except: F; raise
            F
            if ret: return rv      (outermost finally of a function)

        When ``F`` itself may jump, it runs with ``go`` set (the pending jump of
        ``B`` saved and restored around it), and a jump out of ``F`` drops the
        exception, as in CPython.
        """
        self.finally_depth += 1
        returns_before = self.returns
        try:
            body, body_jumps = self.block(node.body)
        finally:
            self.finally_depth -= 1
        body_returns = self.returns > returns_before
        depth = self.finally_depth + 1
        on_error, final_jumps = self.block(copy.deepcopy(node.finalbody))
        out: list[ast.stmt] = []
        if not final_jumps:
            out.append(b.try_except(body or [b.nothing()], [*on_error, b.raise_()]))
            out.extend(self.block(node.finalbody)[0])
        else:
            swallowed = self.unit.names.fixed(f"fx{depth}")
            self.if_depth += 1
            reraise = self.if_(b.load(self.go), [b.raise_()], [], node)
            self.if_depth -= 1
            out.append(b.assign(swallowed, b.int_(0)))
            out.append(b.try_except(
                body or [b.nothing()], [*on_error, *reraise, b.assign(swallowed, b.int_(1))]
            ))
            on_exit = self.nested(node.finalbody)
            if body_jumps:
                saved_go = self.unit.names.fixed(f"fgo{depth}")
                saved_ret = self.unit.names.fixed(f"fret{depth}")
                saved_brk = self.unit.names.fixed(f"fbrk{depth}")
                self.uses_ret = self.uses_brk = True
                self.if_depth += 1
                restore = self.if_(
                    b.load(self.go),
                    [b.assign(self.go, b.load(saved_go)), b.assign(self.ret, b.load(saved_ret)),
                     b.assign(self.brk, b.load(saved_brk))],
                    [], node,
                )
                self.if_depth -= 1
                on_exit = [
                    b.assign(saved_go, b.load(self.go)),
                    b.assign(saved_ret, b.load(self.ret)),
                    b.assign(saved_brk, b.load(self.brk)),
                    b.assign(self.go, b.int_(1)),
                    b.assign(self.ret, b.int_(0)),
                    b.assign(self.brk, b.int_(0)),
                    *on_exit,
                    *restore,
                ]
            out.extend(self.if_(b.load(swallowed), [], on_exit, node))
        if body_returns and self.finally_depth == 0 and self.kind == "function":
            out.extend(self.if_(b.load(self.ret), [b.ret(b.load(self.rv))], [], node))
        return b.located(out, node), body_jumps or final_jumps

    # -------------------------------------------------------------- scopes
    def _FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> tuple[list[ast.stmt], bool]:
        node.body = Flow(self.unit, "function").scope_body(node.body) or [b.ret()]
        return [node], False

    _AsyncFunctionDef = _FunctionDef

    def _ClassDef(self, node: ast.ClassDef) -> tuple[list[ast.stmt], bool]:
        node.body = Flow(self.unit, "class").scope_body(node.body) or [b.nothing()]
        return [node], False

    def _kept(self, node: ast.stmt) -> ast.stmt:
        """A statement kept as sugar: lower the blocks inside it."""
        for name in ("body", "orelse", "finalbody"):
            value = getattr(node, name, None)
            if isinstance(value, list) and value and isinstance(value[0], ast.stmt):
                setattr(node, name, self.block(value)[0] or [b.nothing()])
        for part in (*getattr(node, "handlers", ()), *getattr(node, "cases", ())):
            part.body = self.block(part.body)[0] or [b.nothing()]
        return node


def _is_elif(node: ast.stmt | None) -> bool:
    """Whether ``node`` is an ``if`` whose ``else`` is one ``if`` (an ``elif``)."""
    return isinstance(node, ast.If) and len(node.orelse) == 1 and isinstance(node.orelse[0], ast.If)


def _always_true(test: ast.expr) -> bool:
    return isinstance(test, ast.Constant) and bool(test.value)


def lower_module(body: list[ast.stmt], unit: Unit) -> list[ast.stmt]:
    """Lower the control flow of a module body (and every scope inside it)."""
    return Flow(unit, "module").scope_body(body)
