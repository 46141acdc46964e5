"""Writes core syntax as source text, the text ``ast.unparse`` would write.

The output of unsugar uses ten kinds of statement and expression, so its
printer needs no precedence table: only a ``yield`` inside another
expression takes parentheses. A module with anything else in it (sugar kept
with ``--keep``) raises :class:`NotCore`, and is left to ``ast.unparse``. Integers from 2**64 up are
written in hexadecimal (the chunks of long literals), which reads back the
same and needs no decimal conversion.

A :class:`TextRun` stands for statements whose text is made otherwise (the
runtime's, written once per process; a run of literals, written from their
items): the printer writes its :meth:`TextRun.text`. Other statements whose
text is known already are taken from ``known``: ``id(stmt) -> render(indent)``,
the text of the statement at that indent, starting with its newline.

Written with ``spend``, the tree is freed as it is written: each body is
emptied once its text is made, while its nodes are still in the processor's
cache. The output's tree is several times the input's, scattered in memory:
freeing it afterwards costs a quarter of what parsing and unparsing the input
cost; freed so, next to nothing.
"""

from __future__ import annotations

import abc
import keyword
from ast import (
    Assign,
    Call,
    Constant,
    Expr,
    FunctionDef,
    Name,
    Nonlocal,
    Raise,
    Return,
    Starred,
    Try,
    While,
    Yield,
)
from collections.abc import Callable, Mapping

from unsugar import nodes as ast

#: integers at least this large are written in hexadecimal
HEX_FROM = 2**64


class NotCore(Exception):
    """The tree holds a node the printer does not write (kept sugar)."""


#: the deepest indentation level CPython's tokenizer reads (``MAXINDENT`` 100)
MAX_INDENT = 99


class TooDeep(Exception):
    """A statement would be indented past :data:`MAX_INDENT`: ``args[0]``."""


#: names that are keywords: only NFKC makes them (``ｉｆ`` is the name ``if``)
KEYWORDS = frozenset(keyword.kwlist)


def name(identifier: str) -> str:
    """``identifier`` as source text: a keyword gets a full-width first letter,
    which the parser's NFKC turns back into the name (``if`` is written ``ｉf``)."""
    if identifier in KEYWORDS:
        return chr(ord(identifier[0]) + 0xFEE0) + identifier[1:]
    return identifier


class TextRun(ast.stmt, metaclass=abc.ABCMeta):
    """Statements written as one text (:meth:`text`); a tree given out holds
    the statements it stands for (:meth:`statements`). The linker's
    ``RuntimeText`` and ``LiteralsText`` are the two kinds."""

    _fields = ()

    @abc.abstractmethod
    def text(self, indent: int) -> str:
        """The text of the statements at ``indent``, each starting with its
        newline, a ``def`` with a blank line."""

    @abc.abstractmethod
    def statements(self) -> list[ast.stmt]:
        """The statements this stands for."""


def unparse(
    module: ast.Module, known: Mapping[int, Callable[[int], str]] | None = None, spend: bool = False
) -> str:
    """The source text of core ``module`` (``ast.unparse``'s, but for big
    integers); :class:`NotCore` if it is not core, :class:`TooDeep` if it
    nests past what the tokenizer reads. With ``spend``, each body of
    ``module`` is emptied once written: the tree is spent, even if it raises."""
    out: list[str] = []
    _Printer(out, known or {}, spend).body(module.body, 0)
    # (each statement's text starts with its newline, a def's with two unless
    # it is first; a text of several, a ``TextRun``'s, starts with two when
    # its first statement is a def, even first in the module)
    return "".join(out).lstrip("\n")


def statements(
    stmts: list[ast.stmt], indent: int, known: Mapping[int, Callable[[int], str]] | None = None
) -> str:
    """The text of core ``stmts`` at ``indent``, each line starting with its
    newline; :class:`NotCore` if they are not core."""
    out: list[str] = []
    _Printer(out, known or {}).body(stmts, indent)
    return "".join(out)


class _Printer:
    def __init__(
        self, out: list[str], known: Mapping[int, Callable[[int], str]], spend: bool = False
    ) -> None:
        self.out = out
        self.known = known or None  # (nothing known: no statement is looked up)
        self.write = out.append
        self.spend = spend  # empty each body once written

    def body(self, stmts: list[ast.stmt], indent: int) -> None:
        """Each statement on its own line; every one starts with a newline
        (the module's first is stripped), a ``def`` with a blank line."""
        if indent > MAX_INDENT:
            raise TooDeep(stmts[0])
        pad = "\n" + "    " * indent
        write, expr, known = self.write, self.expr, self.known
        for stmt in stmts:
            kind = type(stmt)
            if kind is FunctionDef and self.out:
                write("\n")
            render = known.get(id(stmt)) if known is not None else None
            if render is not None:
                write(render(indent))
            elif kind is Assign:
                targets = stmt.targets
                if len(targets) != 1 or type(targets[0]) is not Name:
                    raise NotCore
                target = targets[0].id
                write(f"{pad}{name(target) if target in KEYWORDS else target} = {expr(stmt.value)}")
            elif kind is Expr:
                value = stmt.value
                write(pad + (self.yield_(value) if type(value) is Yield else expr(value)))
            elif kind is FunctionDef:
                if stmt.decorator_list or stmt.returns is not None or getattr(stmt, "type_params", None):
                    raise NotCore
                write(f"{pad}def {name(stmt.name)}({self.parameters(stmt.args)}):")
                self.body(stmt.body, indent + 1)
            elif kind is Return:
                write(pad + ("return" if stmt.value is None else f"return {expr(stmt.value)}"))
            elif kind is While:
                if stmt.orelse:
                    raise NotCore
                write(f"{pad}while {expr(stmt.test)}:")
                self.body(stmt.body, indent + 1)
            elif kind is Try:
                if stmt.orelse or stmt.finalbody:
                    raise NotCore
                write(pad + "try:")
                self.body(stmt.body, indent + 1)
                for handler in stmt.handlers:
                    if handler.type is not None or handler.name is not None:
                        raise NotCore
                    write(pad + "except:")
                    self.body(handler.body, indent + 1)
            elif kind is Raise:
                if stmt.cause is not None:
                    raise NotCore
                write(pad + ("raise" if stmt.exc is None else f"raise {expr(stmt.exc)}"))
            elif kind is Nonlocal:
                write(f"{pad}nonlocal {', '.join(map(name, stmt.names))}")
            elif isinstance(stmt, TextRun):  # (a few in a module: asked last)
                write(stmt.text(indent))
            else:
                raise NotCore
        if self.spend:
            stmts.clear()

    def parameters(self, args: ast.arguments) -> str:
        if args.defaults or any(d is not None for d in args.kw_defaults):
            raise NotCore
        parts = []
        for arg in args.posonlyargs:
            parts.append(self.arg(arg))
        if args.posonlyargs:
            parts.append("/")
        parts += [self.arg(arg) for arg in args.args]
        if args.vararg is not None:
            parts.append("*" + self.arg(args.vararg))
        elif args.kwonlyargs:
            parts.append("*")
        parts += [self.arg(arg) for arg in args.kwonlyargs]
        if args.kwarg is not None:
            parts.append("**" + self.arg(args.kwarg))
        return ", ".join(parts)

    @staticmethod
    def arg(arg: ast.arg) -> str:
        if arg.annotation is not None:
            raise NotCore
        return name(arg.arg)

    def yield_(self, node: ast.Yield) -> str:
        return "yield" if node.value is None else f"yield {self.expr(node.value)}"

    def expr(self, node: ast.expr) -> str:
        """An expression where a ``yield`` needs parentheses."""
        kind = type(node)
        if kind is Name:
            identifier = node.id
            return name(identifier) if identifier in KEYWORDS else identifier
        if kind is Call:
            expr = self.expr
            # the usual arguments and callee, an int below HEX_FROM (every item
            # of a string's ``text(...)``) or a name that is no keyword, are
            # written here; the rest, by ``expr``
            items: list[str] = []
            append = items.append
            for arg in node.args:
                kind = type(arg)
                if kind is Constant and type(value := arg.value) is int and value < HEX_FROM:
                    append(repr(value))
                elif kind is Name and arg.id not in KEYWORDS:
                    append(arg.id)
                elif kind is Starred:
                    append(f"*{expr(arg.value)}")
                else:
                    append(expr(arg))
            if node.keywords:
                items += [
                    f"**{expr(kw.value)}" if kw.arg is None else f"{name(kw.arg)}={expr(kw.value)}"
                    for kw in node.keywords
                ]
            func = node.func
            callee = func.id if type(func) is Name and func.id not in KEYWORDS else expr(func)
            return f"{callee}({', '.join(items)})"
        if kind is Constant:
            value = node.value
            if type(value) is not int:
                raise NotCore
            return hex(value) if value >= HEX_FROM else repr(value)
        if kind is Yield:
            return f"({self.yield_(node)})"
        raise NotCore
