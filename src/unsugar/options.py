"""The options of a compilation, validated: which rules keep their sugar, which semantics.

A light module: ``unsugar run`` reads its options (and then, with every
module cached, nothing of the compiler) at start-up.
"""

from __future__ import annotations

from collections.abc import Iterable

#: ``inline``: the helpers are copied into the output; ``import``: imported from the package
RUNTIMES = ("inline", "import")
#: ``python``: the runtime's exact helpers; ``native``: the interpreter's own operators
SEMANTICS = ("python", "native")


class UnknownRuleError(ValueError):
    """``--keep`` named a rule that does not exist."""


def comma_list(values: Iterable[str]) -> tuple[str, ...]:
    """The items of comma-separated ``values`` (``--keep a,b --keep c``), once each, in order."""
    items = (part.strip() for value in values for part in value.split(","))
    return tuple(dict.fromkeys(item for item in items if item))


def check_keep(keep: Iterable[str]) -> frozenset[str]:
    """The rule ids of ``keep``, validated against the registry."""
    ids = frozenset(keep)
    if not ids:
        return ids
    from unsugar.registry import load_all  # (loads every rule)

    unknown = sorted(ids - set(load_all()))
    if unknown:
        raise UnknownRuleError(f"unknown rule(s): {', '.join(unknown)}")
    return ids


def check_semantics(semantics: str) -> str:
    """``semantics``, validated: one of ``SEMANTICS``."""
    if semantics not in SEMANTICS:
        raise ValueError(f"unknown semantics {semantics!r} (python or native)")
    return semantics
