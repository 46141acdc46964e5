"""Which temporaries still hold a value, so that the lowering can release them.

On CPython a value dies when its last reference goes, and that moment is
observable (``__del__``, weakref callbacks, files closed by going out of
scope). Where CPython keeps a value on its stack, the output keeps it in a
temporary; the lowering releases the temporary (``t = None``) where CPython
pops the value. This module answers which temporaries a run of statements
leaves holding something (docs/architecture.md, "Lifetimes").
"""

from __future__ import annotations

import ast

from unsugar.forms import ForLoop
from unsugar.unit import Unit


def held_temporaries(stmts: list[ast.stmt], unit: Unit, ever: bool = False) -> list[str]:
    """The temporaries ``stmts`` bind (not in nested scopes) that may still hold
    an object after them, in the order first bound: a value other than an int,
    a ``bool`` flag or None was stored, and (unless ``ever``) not released
    since by a store that always runs. A def under a temporary name holds its
    function; a loop releases its own iterator."""
    held: dict[str, bool] = {}
    is_temporary = unit.names.is_temporary

    def walk(block: list[ast.stmt], always: bool) -> None:
        for stmt in block:
            if isinstance(stmt, ast.Assign) and isinstance(stmt.targets[0], ast.Name):
                name = stmt.targets[0].id
                if is_temporary(name):
                    if not holds_nothing(stmt.value, unit):
                        held[name] = True
                    elif always and not ever and name in held:
                        held[name] = False
            elif isinstance(stmt, ast.FunctionDef):
                if is_temporary(stmt.name):
                    held[stmt.name] = True
            elif isinstance(stmt, ForLoop):
                walk(stmt.body, False)
                held[stmt.iterator] = False
            else:
                for part in ("body", "orelse", "finalbody"):
                    walk(getattr(stmt, part, None) or [], False)
                for handler in getattr(stmt, "handlers", ()):
                    walk(handler.body, False)

    walk(stmts, True)
    return [name for name, holds in held.items() if holds]


def holds_nothing(value: ast.expr, unit: Unit) -> bool:
    """Whether ``value`` is an int, a truth flag or None: nothing to release."""
    if isinstance(value, ast.Constant):
        return True
    names = unit.names
    if isinstance(value, ast.Name):
        return value.id == names.fixed("none")
    return isinstance(value, ast.Call) and isinstance(value.func, ast.Name) \
        and value.func.id == names.fixed("bool")
