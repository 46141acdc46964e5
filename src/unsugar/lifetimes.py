"""Which temporaries still hold a value, so that the lowering can release them.

On CPython a value dies when its last reference goes, and that moment is
observable (``__del__``, weakref callbacks, files closed by going out of
scope). Where CPython keeps a value on its stack, the output keeps it in a
temporary; the lowering releases the temporary (``t = None``) where CPython
pops the value. This module answers which temporaries a run of statements
leaves holding something (docs/architecture.md, "Lifetimes").
"""

from __future__ import annotations

from ast import Assign, Call, Constant, Expr, FunctionDef, If, Name, Return, While  # (one load)
from collections.abc import Mapping

from unsugar import nodes as ast
from unsugar.forms import ForLoop
from unsugar.trees import block_fields
from unsugar.unit import Unit


def held_temporaries(
    stmts: list[ast.stmt], unit: Unit, ever: bool = False, defs: bool = True
) -> list[str]:
    """The temporaries ``stmts`` bind (not in nested scopes) that may still hold
    an object after them, in the order first bound: a value other than an int,
    a ``bool`` flag or None was stored, and (unless ``ever``) not released
    since by a store that always runs. A def under a temporary name holds its
    function (unless not ``defs``: until it is stored, a statement or two
    later); a loop releases its own iterator."""
    if not stmts:
        return []
    held: dict[str, bool] = {}
    names = unit.names
    _walk_held(stmts, True, held, ever, defs, names.temporaries, names.fixed("none"), names.fixed("bool"))
    return [name for name, holds in held.items() if holds]


def _walk_held(
    block: list[ast.stmt], always: bool, held: dict[str, bool], ever: bool, defs: bool,
    temporary: Mapping[str, bool], none: str, flag: str,
) -> None:
    """Note in ``held`` each temporary ``block`` binds, and whether it may
    still hold an object (``always``: the block runs whenever its scope does).
    A temporary holds nothing once it is set to an int, a truth flag (a call
    of ``flag``) or None (the name ``none``)."""
    for stmt in block:
        kind = type(stmt)
        if kind is Assign:
            target = stmt.targets[0]
            if type(target) is Name and temporary[name := target.id]:
                value = stmt.value
                made = type(value)
                if made is Constant or made is Name and value.id == none or made is Call \
                        and type(value.func) is Name and value.func.id == flag:
                    if always and not ever and name in held:
                        held[name] = False
                else:
                    held[name] = True
        elif kind is Expr or kind is Return:  # (most of the rest: no block in them)
            continue
        elif kind is While or kind is If:  # (most blocks: their fields with no lookup)
            if stmt.body:
                _walk_held(stmt.body, False, held, ever, defs, temporary, none, flag)
            if stmt.orelse:
                _walk_held(stmt.orelse, False, held, ever, defs, temporary, none, flag)
        elif kind is FunctionDef:
            if defs and temporary[stmt.name]:
                held[stmt.name] = True
        elif kind is ForLoop:
            _walk_held(stmt.body, False, held, ever, defs, temporary, none, flag)
            held[stmt.iterator] = False
        else:
            for part in block_fields(kind):  # (a handler or a case: its body, as a block's)
                inner = getattr(stmt, part, None)
                if inner:
                    _walk_held(inner, False, held, ever, defs, temporary, none, flag)
