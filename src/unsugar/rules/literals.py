"""Literals other than ``int``: each is a name bound once at the top of the output.

Strings are built from code points (``_us_text(104, 105)``), bytes from byte
values (``_us_octets(104, 105)``); a long one from chunks of its bytes
(``_us_text_of(0x6869..., 512, ...)``, :meth:`unsugar.unit.Unit.octets`). Floats and complex numbers from the
string of their shortest repr, which rounds back to the very same value
(``float("0.1")``, ``float("inf")`` for ``1e999``). ``True``, ``False`` and
``None`` are the runtime's ``bool(1)``, ``bool(0)`` and ``nothing()``.
"""

from __future__ import annotations

from unsugar import builder as b
from unsugar import nodes as ast
from unsugar.lowering import Lowerer
from unsugar.registry import expr_rule


@expr_rule(
    ast.Constant,
    id="str-literal",
    summary="a str literal is built once from its code points",
    before='"hi"',
    after="_us_s_hi   # _us_s_hi = _us_text(104, 105) at the top",
    reference="lexical_analysis.html#string-and-bytes-literals",
    selects=(str,),
)
def lower_str(node: ast.Constant, cx: Lowerer) -> ast.expr:
    return cx.string(node.value)


@expr_rule(
    ast.Constant,
    id="bytes-literal",
    summary="a bytes literal is built once from its byte values",
    before='b"hi"',
    after="_us_bytes_1   # _us_bytes_1 = _us_octets(104, 105) at the top",
    reference="lexical_analysis.html#string-and-bytes-literals",
    selects=(bytes,),
)
def lower_bytes(node: ast.Constant, cx: Lowerer) -> ast.expr:
    return cx.unit.octets(node.value)


@expr_rule(
    ast.Constant,
    id="float-literal",
    summary="a float literal is float() of its repr, which gives back the same value",
    before="0.1",
    after='_us_float_1   # _us_float_1 = _us_float(_us_str_1) with _us_str_1 = "0.1"',
    reference="lexical_analysis.html#floating-point-literals",
    selects=(float,),
)
def lower_float(node: ast.Constant, cx: Lowerer) -> ast.expr:
    return _parsed_from_repr(node.value, cx)  # repr is "inf" for 1e999


@expr_rule(
    ast.Constant,
    id="complex-literal",
    summary="an imaginary literal is complex() of its repr",
    before="2j",
    after='_us_complex_1   # _us_complex_1 = _us_complex(_us_str_1) with _us_str_1 = "2j"',
    reference="lexical_analysis.html#imaginary-literals",
    selects=(complex,),
)
def lower_complex(node: ast.Constant, cx: Lowerer) -> ast.expr:
    return _parsed_from_repr(node.value, cx)  # "2j", "infj": a literal's real part is 0.0


def _parsed_from_repr(value: float | complex, cx: Lowerer) -> ast.expr:
    """``float("0.1")`` / ``complex("2j")``, interned: the repr round-trips exactly."""
    kind = type(value)
    text = repr(value)
    return cx.unit.intern(
        (kind, text),
        lambda: cx.unit.names.temp(kind.__name__),
        lambda: b.call(cx.builtin(kind.__name__), cx.string(text)),
    )


@expr_rule(
    ast.Constant,
    id="true-false",
    summary="True and False are the runtime's bool(1) and bool(0)",
    before="True",
    after="_us_true",
    reference="lexical_analysis.html#keywords",
    selects=(bool,),
)
def lower_bool(node: ast.Constant, cx: Lowerer) -> ast.expr:
    return cx.rt("true" if node.value else "false")


@expr_rule(
    ast.Constant,
    id="none",
    summary="None is the runtime's result of a function that returns nothing",
    before="None",
    after="_us_none",
    reference="lexical_analysis.html#keywords",
    selects=(type(None),),
)
def lower_none(node: ast.Constant, cx: Lowerer) -> ast.expr:
    return cx.none()


@expr_rule(
    ast.Constant,
    id="ellipsis",
    summary="... is the builtin Ellipsis",
    before="...",
    after="_us_Ellipsis",
    reference="expressions.html#atom-literals",
    selects=(type(Ellipsis),),
)
def lower_ellipsis(node: ast.Constant, cx: Lowerer) -> ast.expr:
    return cx.builtin("Ellipsis")
