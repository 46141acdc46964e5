"""Binary and unary operators: each is a call of its runtime helper.

``a + b`` is ``binary_add(a, b)``: the helper looks ``__add__`` and
``__radd__`` up on the operands' types and tries them in CPython's order
(see :mod:`unsugar.runtime.operators`). Both operands are evaluated first,
left to right, as the call's arguments are. ``not`` belongs to the boolean
family.
"""

from __future__ import annotations

import operator
import warnings

from unsugar import builder as b
from unsugar import nodes as ast
from unsugar.lowering import Lowerer
from unsugar.registry import expr_rule

ARITHMETIC = "expressions.html#binary-arithmetic-operations"
SHIFTING = "expressions.html#shifting-operations"
BITWISE = "expressions.html#binary-bitwise-operations"

#: AST operator -> (symbol, special method, reference) of the 13 binary operators.
BINARY: dict[type[ast.operator], tuple[str, str, str]] = {
    ast.Add: ("+", "__add__", ARITHMETIC),
    ast.Sub: ("-", "__sub__", ARITHMETIC),
    ast.Mult: ("*", "__mul__", ARITHMETIC),
    ast.MatMult: ("@", "__matmul__", ARITHMETIC),
    ast.Div: ("/", "__truediv__", ARITHMETIC),
    ast.FloorDiv: ("//", "__floordiv__", ARITHMETIC),
    ast.Mod: ("%", "__mod__", ARITHMETIC),
    ast.Pow: ("**", "__pow__", ARITHMETIC),
    ast.LShift: ("<<", "__lshift__", SHIFTING),
    ast.RShift: (">>", "__rshift__", SHIFTING),
    ast.BitOr: ("|", "__or__", BITWISE),
    ast.BitXor: ("^", "__xor__", BITWISE),
    ast.BitAnd: ("&", "__and__", BITWISE),
}

#: AST unary operator -> (rule id, symbol, special method); ``not`` is elsewhere.
UNARY: dict[type[ast.unaryop], tuple[str, str, str]] = {
    ast.USub: ("neg", "-", "__neg__"),
    ast.UAdd: ("pos", "+", "__pos__"),
    ast.Invert: ("invert", "~", "__invert__"),
}


def binary_helper(op: ast.operator) -> str:
    """The runtime helper of a binary operator: ``binary_add`` for ``ast.Add``."""
    return "binary_" + type(op).__name__.lower()


def inplace_helper(op: ast.operator) -> str:
    """The runtime helper of an augmented assignment: ``inplace_add`` for ``+=``."""
    return "inplace_" + type(op).__name__.lower()


#: What CPython's compiler folds a unary operator on a number literal into.
_FOLDED = {ast.USub: operator.neg, ast.UAdd: operator.pos, ast.Invert: operator.invert}


def folded_number(node: ast.expr) -> int | float | complex | None:
    """The constant CPython's compiler makes of ``node`` when it is a ``-``, ``+``
    or ``~`` of a number literal, ``True`` or ``False`` (or of such a constant):
    ``-1``, ``-1.5``, ``-(-2)``, ``~True`` (``-2``: from 3.12 the compiler
    warns that ``~`` of a bool is deprecated, and the code does not); None
    otherwise."""
    if isinstance(node, ast.Constant):
        return node.value if type(node.value) in (int, float, complex, bool) else None
    if isinstance(node, ast.UnaryOp) and type(node.op) in _FOLDED:
        value = folded_number(node.operand)
        if value is not None and not (isinstance(node.op, ast.Invert) and type(value) not in (int, bool)):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", DeprecationWarning)
                return _FOLDED[type(node.op)](value)
    return None


@expr_rule(
    ast.UnaryOp,
    id="folded-number",
    summary="-, + or ~ of a number literal is the constant CPython's compiler folds it into",
    before="-1",
    after="_us_minus_1   # _us_minus_1 = _us_int_neg(1) at the top",
    reference="expressions.html#unary-arithmetic-and-bitwise-operations",
    applies=lambda node: folded_number(node) is not None,
    selects=tuple(_FOLDED),
    custom_order=True,
)
def lower_folded_number(node: ast.UnaryOp, cx: Lowerer) -> ast.expr:
    """A negative int is ``int.__neg__`` of its magnitude, made once at the top;
    a float or complex is the literal's own rule on the folded value."""
    value = folded_number(node)
    if type(value) is int and value < 0:
        return cx.unit.intern(
            (int, value),
            lambda: cx.unit.names.fixed(f"minus_{-value}") if -value < 10**6 else cx.unit.names.temp("minus_big"),
            lambda: b.call(cx.method("int", "__neg__"), b.int_(-value)),
        )
    return cx.expr(ast.Constant(value=value))


def _register_binary(op: type[ast.operator], symbol: str, method: str, reference: str) -> None:
    rule_id = op.__name__.lower()
    reflected = "__r" + method[2:]

    @expr_rule(
        ast.BinOp,
        id=rule_id,
        summary=f"a {symbol} b calls {method} of a's type, then {reflected} of b's",
        before=f"a {symbol} b",
        after=f"_us_binary_{rule_id}(a, b)",
        reference=reference,
        selects=(op,),
    )
    def lower_binary(node: ast.BinOp, cx: Lowerer) -> ast.expr:
        return b.call(cx.rt(binary_helper(node.op)), node.left, node.right)


def _register_unary(op: type[ast.unaryop], rule_id: str, symbol: str, method: str) -> None:
    @expr_rule(
        ast.UnaryOp,
        id=rule_id,
        summary=f"{symbol}x calls {method} of x's type",
        before=f"{symbol}x",
        after=f"_us_unary_{rule_id}(x)",
        reference="expressions.html#unary-arithmetic-and-bitwise-operations",
        selects=(op,),
    )
    def lower_unary(node: ast.UnaryOp, cx: Lowerer) -> ast.expr:
        return b.call(cx.rt("unary_" + rule_id), node.operand)


for _op, (_symbol, _method, _reference) in BINARY.items():
    _register_binary(_op, _symbol, _method, _reference)
for _uop, (_id, _symbol, _method) in UNARY.items():
    _register_unary(_uop, _id, _symbol, _method)
