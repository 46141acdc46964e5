"""The text CPython's compiler makes of an annotation under ``from __future__
import annotations`` (``Python/ast_unparse.c``), which ``ast.unparse`` does
not always write: the annotation rules store it as a string.

    def f(x: a and (b or c), y: f"{v:'>5}"): ...
    f.__annotations__  ->  {'x': 'a and (b or c)', 'y': 'f"{v:\'>5}"'}
"""

from __future__ import annotations

from unsugar import nodes as ast


class _CompilerUnparser(ast._Unparser):  # type: ignore[name-defined,misc]
    """``ast.unparse`` as CPython's compiler writes annotations back under
    ``from __future__ import annotations`` (``Python/ast_unparse.c``): every
    operand of ``and``/``or`` at one precedence, a lone generator argument
    without extra parens, and an f-string as ``f`` and the ``repr`` of its
    inside, its format specs written as they are: ``x: f"{v:'>5}"`` gives
    the text ``f"{v:'>5}"`` (``ast.unparse`` quotes it otherwise, and 3.13's
    escapes the quote in the spec).
    """

    def visit_BoolOp(self, node: ast.BoolOp) -> None:
        operator = self.boolops[type(node.op).__name__]
        precedence = self.boolop_precedence[operator]

        def operand(value: ast.expr) -> None:
            self.set_precedence(precedence.next(), value)
            self.traverse(value)

        with self.require_parens(precedence, node):
            self.interleave(lambda: self.write(f" {operator} "), operand, node.values)

    def visit_Call(self, node: ast.Call) -> None:
        if len(node.args) == 1 and not node.keywords and isinstance(node.args[0], ast.GeneratorExp):
            self.set_precedence(ast._Precedence.ATOM, node.func)  # type: ignore[attr-defined]
            self.traverse(node.func)
            with self.delimit("(", ")"):
                self.traverse(node.args[0].elt)
                for comprehension in node.args[0].generators:
                    self.traverse(comprehension)
            return
        super().visit_Call(node)

    def visit_JoinedStr(self, node: ast.JoinedStr) -> None:
        self.write("f" + repr(_fstring_body(node)))


def _fstring_body(node: ast.JoinedStr) -> str:
    """The inside of an f-string (or a whole format spec) as the compiler
    writes it: braces of the text doubled, each field ``{expr!c:spec}``."""
    parts = []
    for value in node.values:
        if isinstance(value, ast.FormattedValue):
            inner = _CompilerUnparser()
            inner.set_precedence(ast._Precedence.TEST.next(), value.value)  # type: ignore[attr-defined]
            expression = inner.visit(value.value)
            field = ("{ " if expression.startswith("{") else "{") + expression
            if value.conversion != -1:
                field += "!" + chr(value.conversion)
            if isinstance(value.format_spec, ast.JoinedStr):
                field += ":" + _fstring_body(value.format_spec)
            parts.append(field + "}")
        else:
            parts.append(value.value.replace("{", "{{").replace("}", "}}"))
    return "".join(parts)


def annotation_source(node: ast.expr) -> str:
    """The string an annotation becomes under ``from __future__ import annotations``."""
    return _CompilerUnparser().visit(node)
