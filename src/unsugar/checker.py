"""The core check: which syntax outside Minimum Viable Python remains.

The core (SPEC section 1): ``int`` constants, calls (positional, keyword,
``*args``, ``**kwargs``), ``name = value``, ``def`` without decorators,
defaults, annotations or type parameters, ``nonlocal``, ``return``,
``yield``, ``try`` with bare ``except:`` handlers only, ``raise`` without
``from``, ``while`` without ``else``; plus modules, expression statements
and names.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from unsugar import nodes as ast
from unsugar.registry import find_rule


@dataclass(frozen=True)
class Finding:
    """One piece of sugar left in a module."""

    line: int
    col: int
    rule: str
    message: str

    def format(self, filename: str) -> str:
        return f"{filename}:{self.line}:{self.col + 1}: {self.rule} {self.message}"


def _sugar(node: ast.AST) -> str | None:
    """Why ``node`` is not core syntax, or None if it is."""
    match node:
        case ast.Module() | ast.Expr() | ast.Nonlocal() | ast.Return() | ast.Yield():
            return None
        case ast.expr_context() | ast.operator() | ast.unaryop() | ast.cmpop() | ast.boolop():
            return None  # reported with the node that holds them
        case ast.Name():
            return None  # a deleted name is reported with its ``del``
        case ast.Constant(value=value):
            if type(value) is int:
                return None
            return f"{type(value).__name__} literal"
        case ast.Call():
            return None
        case ast.Starred(ctx=ast.Load()):
            return None
        case ast.keyword():
            return None
        case ast.Assign(targets=[ast.Name()], type_comment=None):
            return None
        case ast.Assign():
            return "assignment to a target that is not a single name"
        case ast.FunctionDef():
            if node.decorator_list:
                return "decorated def"
            if node.returns is not None:
                return "return annotation"
            if getattr(node, "type_params", None):
                return "type parameters"
            return None
        case ast.arguments():
            if node.defaults or any(d is not None for d in node.kw_defaults):
                return "parameter defaults"
            return None
        case ast.arg():
            return "parameter annotation" if node.annotation is not None else None
        case ast.Try():
            if node.orelse:
                return "try/else"
            if node.finalbody:
                return "try/finally"
            return None
        case ast.ExceptHandler():
            if node.type is not None or node.name is not None:
                return "typed except handler"
            return None
        case ast.Raise():
            return "raise ... from" if node.cause is not None else None
        case ast.While():
            return "while/else" if node.orelse else None
    return type(node).__name__


#: Parts of a ``def`` that the function rules remove.
_PART_RULES = {ast.arguments: "default", ast.arg: "annotation"}


def _rule_id(node: ast.AST) -> str:
    """The id of the rule that removes ``node``."""
    if type(node) in _PART_RULES:
        return _PART_RULES[type(node)]
    rule = find_rule(node)
    return rule.id if rule is not None else type(node).__name__.lower()


def find_sugar(tree: ast.AST) -> Iterator[Finding]:
    """Every node of ``tree`` outside the core, in source order."""
    todo: list[tuple[ast.AST, int, int]] = [(tree, 1, 0)]
    while todo:
        node, line, col = todo.pop()
        # nodes without a position (operators, arguments) take their parent's
        line = getattr(node, "lineno", line)
        col = getattr(node, "col_offset", col)
        todo.extend((child, line, col) for child in ast.iter_child_nodes(node))
        why = _sugar(node)
        if why is None:
            continue
        yield Finding(line, col, _rule_id(node), why)


def check_source(source: str, filename: str = "<string>") -> list[Finding]:
    """The sugar left in ``source``, sorted by position."""
    tree = ast.parse(source, filename)
    return sorted(find_sugar(tree), key=lambda f: (f.line, f.col, f.rule))


def is_core(tree: ast.AST) -> bool:
    """Whether ``tree`` uses core syntax only."""
    return next(find_sugar(tree), None) is None
