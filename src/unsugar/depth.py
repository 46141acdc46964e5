"""CPython's static block depth of an AST: how close code is to "too many statically nested blocks".

While it compiles one code object (a module, class body, function, lambda or
comprehension), CPython keeps a stack of frame blocks and raises
``SyntaxError: too many statically nested blocks`` when it would grow past
``CO_MAXBLOCKS``. :func:`static_block_depth` counts that stack the way the
compiler pushes it (checked against 3.11, 3.12 and 3.13 in
``tests/test_compile_all.py``):

- ``for``/``while``/``async for`` body +1 (``else`` +0);
- ``with``/``async with`` body +1 per item;
- ``try`` body +1; a handler (``except`` or ``except*``) body +2 (the handler
  and its cleanup); ``finally`` body +1; with both handlers and ``finally``
  the body, handlers and ``else`` are one deeper, as in
  ``try: (try: ... except: ...) finally: ...``;
- ``if``/``match`` +0; a new scope (``def``, ``lambda``, ``class``,
  comprehension) starts again at 0;
- an ``async for`` clause of a comprehension +1; from 3.12 list, set and dict
  comprehensions are compiled inline, so those clauses count in the
  enclosing scope;
- from 3.13 the body of a generator or coroutine starts at 1 (the
  ``StopIteration`` handler), and ``CO_MAXBLOCKS`` is 21 instead of 20.

Code compiles (as far as nesting goes) when the depth is at most
:data:`MAX_BLOCKS`. One more limit is not counted here: 3.12 (at least 3.12.1)
crashes rather than raising ``SyntaxError`` when, in a generator or coroutine,
depth 20 is reached through ``with``/``try``-``finally``/``except*`` blocks
(CPython issue 113297).
"""

from __future__ import annotations

import sys

from unsugar import nodes as ast

Version = tuple[int, int]

#: ``CO_MAXBLOCKS`` of the running interpreter.
MAX_BLOCKS = 21 if sys.version_info >= (3, 13) else 20

_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef,
           ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
_INLINED = (ast.ListComp, ast.SetComp, ast.DictComp)
_SUSPENDS = (ast.Yield, ast.YieldFrom, ast.Await)


def max_blocks(version: Version) -> int:
    """``CO_MAXBLOCKS`` of CPython ``version`` (``(major, minor)``)."""
    return 21 if version >= (3, 13) else 20


def static_block_depth(
    tree: ast.AST, version: Version | None = None
) -> tuple[int, ast.AST | None]:
    """The deepest frame-block stack any code object in ``tree`` needs, and the node opening it.

    The node is the statement, handler or comprehension whose body reaches the
    depth (``None`` when nothing nests). ``version`` defaults to the running one.
    """
    counter = _Counter(version or sys.version_info[:2])
    counter.scope(tree)
    return counter.best, counter.where


class _Counter:
    def __init__(self, version: Version) -> None:
        self.version = version
        self.best = 0
        self.where: ast.AST | None = None

    def reach(self, depth: int, node: ast.AST) -> None:
        if depth > self.best:
            self.best, self.where = depth, node

    def scope(self, node: ast.AST) -> None:
        """A new code object: its own stack."""
        base = 0
        if self.version >= (3, 13) and (
            isinstance(node, (ast.AsyncFunctionDef, ast.GeneratorExp)) or _suspends(node)
        ):
            base = 1
            self.reach(base, node)
        if isinstance(node, ast.Lambda):
            self.children(node, base)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Module)):
            self.body(node.body, base)
        elif isinstance(node, _SCOPES):
            self.comprehension(node, base)
        else:
            self.visit(node, base)

    def comprehension(self, node: ast.AST, depth: int) -> None:
        for generator in node.generators:
            self.visit(generator.iter, depth)
            if generator.is_async:
                depth += 1
                self.reach(depth, node)
            self.visit(generator.target, depth)
            for test in generator.ifs:
                self.visit(test, depth)
        for field in ("elt", "key", "value"):
            if hasattr(node, field):
                self.visit(getattr(node, field), depth)

    def body(self, statements: list[ast.stmt], depth: int, opener: ast.AST | None = None) -> None:
        if opener is not None:
            self.reach(depth, opener)
        for statement in statements:
            self.visit(statement, depth)

    def visit(self, node: ast.AST, depth: int) -> None:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            for child in ast.iter_child_nodes(node):  # decorators, defaults, bases: outside
                if not isinstance(child, ast.stmt):
                    self.visit(child, depth)
            self.scope(node)
        elif isinstance(node, _INLINED) and self.version >= (3, 12):
            self.comprehension(node, depth)
        elif isinstance(node, _SCOPES):
            self.scope(node)
        elif isinstance(node, (ast.For, ast.AsyncFor, ast.While)):
            self.children(node, depth, skip=("body", "orelse"))
            self.body(node.body, depth + 1, node)
            self.body(node.orelse, depth)
        elif isinstance(node, (ast.With, ast.AsyncWith)):
            self.children(node, depth, skip=("body",))
            self.body(node.body, depth + len(node.items), node)
        elif isinstance(node, (ast.Try, ast.TryStar)):
            self.try_(node, depth)
        else:
            self.children(node, depth)

    def try_(self, node: ast.Try | ast.TryStar, depth: int) -> None:
        inner = depth + 1 if node.handlers and node.finalbody else depth
        self.body(node.body, inner + 1, node)
        for handler in node.handlers:
            if handler.type is not None:
                self.visit(handler.type, inner)
            self.body(handler.body, inner + 2, handler)
        self.body(node.orelse, inner)
        if node.finalbody:
            self.body(node.finalbody, depth + 1, node)

    def children(self, node: ast.AST, depth: int, skip: tuple[str, ...] = ()) -> None:
        for field, value in ast.iter_fields(node):
            if field in skip:
                continue
            for child in value if isinstance(value, list) else [value]:
                if isinstance(child, ast.AST):
                    self.visit(child, depth)


def _suspends(scope: ast.AST) -> bool:
    """Whether ``scope`` is a generator: a ``yield`` (or ``await``) of its own."""
    todo = list(ast.iter_child_nodes(scope))
    while todo:
        node = todo.pop()
        if isinstance(node, _SUSPENDS):
            return True
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda,
                             ast.GeneratorExp)):
            continue
        todo.extend(ast.iter_child_nodes(node))
    return False
