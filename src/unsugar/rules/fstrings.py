"""f-strings: each replacement field is ``format()`` of its (converted) value.

The parser already expands the ``=`` specifier (``f"{x=}"`` is
``f"x={x!r}"``) and gives a format spec as an f-string of its own, so nested
replacement fields come for free. ``format(value)`` returns a ``str`` value
unchanged, as the f-string does.
"""

from __future__ import annotations

from unsugar import builder as b
from unsugar import nodes as ast
from unsugar.lowering import Lowerer
from unsugar.registry import expr_rule

#: ``FormattedValue.conversion`` (``!s``, ``!r``, ``!a``) to the builtin it calls.
CONVERSIONS = {ord("s"): "str", ord("r"): "repr", ord("a"): "ascii"}


@expr_rule(
    ast.JoinedStr,
    ast.FormattedValue,
    id="fstring",
    summary="an f-string joins its pieces; a field is format() of its converted value",
    before='f"x={x!r:>{w}} y={y}"',
    after="_us_fstring_join(_us_str_1, _us_fstring_format(*_us_fstring_convert(x, _us_repr), "
          "_us_fstring_join(_us_str_2, _us_format(w))), _us_str_3, _us_format(y))",
    reference="lexical_analysis.html#f-strings",
)
def lower_fstring(node: ast.JoinedStr | ast.FormattedValue, cx: Lowerer) -> ast.expr:
    """Fields and specs are already lowered (a spec to a ``str`` expression); the
    text between fields is not (the lowering leaves f-string text alone)."""
    if isinstance(node, ast.FormattedValue):
        return _field(node, cx)
    pieces = [cx.string(v.value) if isinstance(v, ast.Constant) else v for v in node.values]
    if not pieces:
        return cx.string("")
    if len(pieces) == 1:  # no join: f"{x}" is what format() returned (maybe a str subclass)
        return pieces[0]
    return b.call(cx.rt("fstring_join"), *pieces)


def _field(node: ast.FormattedValue, cx: Lowerer) -> ast.expr:
    """``format(value)``, ``format(repr(value))``, ``format(value, spec)`` or,
    with both a conversion and a spec, ``fstring_format(*fstring_convert(value, repr), spec)``."""
    value = node.value
    conversion = CONVERSIONS.get(node.conversion)
    if node.format_spec is None:
        if conversion is not None:
            value = b.call(cx.builtin(conversion), value)
        return b.call(cx.builtin("format"), value)
    if conversion is None:
        return b.call(cx.builtin("format"), value, node.format_spec)
    converted = b.call(cx.rt("fstring_convert"), value, cx.builtin(conversion))
    return b.call(cx.rt("fstring_format"), b.starred(converted), node.format_spec)
