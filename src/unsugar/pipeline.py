"""The order of the phases.

1. :mod:`unsugar.lowering`: one walk; every statement and expression rule,
   dispatched by node type. Leaves structured control flow.
2. :mod:`unsugar.control`: one walk per scope; ``if``, loops with
   ``break``/``continue``, ``finally``.
3. :mod:`unsugar.linker`: the helpers, builtins and constants the module
   uses, written at its top.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable

from unsugar import control, linker
from unsugar.checker import is_core
from unsugar.lowering import Lowerer
from unsugar.namespaces import module_def
from unsugar.registry import load_all
from unsugar.trees import fix_locations
from unsugar.unit import Unit


class UnknownRuleError(ValueError):
    """``--keep`` named a rule that does not exist."""


def check_keep(keep: Iterable[str]) -> frozenset[str]:
    """The rule ids of ``keep``, validated against the registry."""
    ids = frozenset(keep)
    unknown = sorted(ids - set(load_all()))
    if unknown:
        raise UnknownRuleError(f"unknown rule(s): {', '.join(unknown)}")
    return ids


def check_semantics(semantics: str) -> str:
    """``semantics``, validated: ``python`` or ``native`` (``unsugar.linker.SEMANTICS``)."""
    if semantics not in linker.SEMANTICS:
        raise ValueError(f"unknown semantics {semantics!r} (python or native)")
    return semantics


def desugar_tree(
    tree: ast.Module, *, keep: Iterable[str] = (), runtime: str = "inline",
    semantics: str = "python",
) -> ast.Module:
    """Rewrite ``tree`` (which is consumed) into core syntax.

    ``semantics="native"`` calls the interpreter's own operators
    (``_operator.add`` for ``+``) where the default calls the runtime's exact
    Python helpers.
    """
    unit = Unit.for_tree(tree, check_keep(keep), semantics=check_semantics(semantics))
    # a module already core needs no names of its own (its output is itself);
    # kept sugar may bind names that must stay globals
    unit.module_def = not unit.keep and not is_core(tree)
    body = Lowerer(unit).module(tree.body)
    body = control.lower_module(body, unit)
    for stmt in body:
        fix_locations(stmt)
    body = linker.link(unit, body, runtime)
    if unit.module_def:
        body = module_def(unit, body)
    module = ast.Module(body=body, type_ignores=[])
    # the module's own statements and the runtime's are placed all through
    return fix_locations(module, trust_located=True)


def desugar(
    source: str, *, filename: str = "<string>", keep: Iterable[str] = (), runtime: str = "inline",
    semantics: str = "python",
) -> str:
    """Rewrite Python ``source`` into core-only Python source."""
    tree = ast.parse(source, filename)
    text = ast.unparse(desugar_tree(tree, keep=keep, runtime=runtime, semantics=semantics))
    return text + "\n" if text else ""
