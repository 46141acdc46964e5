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


#: the rules a kept rule's sugar needs kept: an ``await``, an ``async for`` or
#: ``with`` (or an asynchronous comprehension) stands only in an ``async def``;
#: a name a kept statement binds is global only by a ``global`` statement; an
#: annotation kept is a string only under its future statement; a docstring
#: kept is a class's ``__doc__`` only in a ``class`` statement
_ASYNC = ("async-def", "async-generator")
KEPT_WITH = {
    "await": _ASYNC, "async-for": (*_ASYNC, "global"), "async-with": (*_ASYNC, "global"),
    "listcomp": _ASYNC, "setcomp": _ASYNC, "dictcomp": _ASYNC, "genexpr": _ASYNC,
    "augassign": ("global",), "for": ("global",), "with": ("global",), "del-name": ("global",),
    "import": ("global",), "import-from": ("global",), "walrus": ("global",),
    "unpack": ("global",), "chained-assign": ("global",), "except": ("global",),
    "except-star": ("global",), "type-alias": ("global",),
    "match": ("global",), "class": ("global",), "annassign": ("global", "future"),
    "annotation": ("future",), "docstring": ("class",),
}


def check_keep(keep: Iterable[str]) -> frozenset[str]:
    """The rule ids of ``keep``, validated against the registry, with the
    rules they need kept (``KEPT_WITH``)."""
    ids = frozenset(keep)
    if not ids:
        return ids
    from unsugar.registry import load_all  # (loads every rule)

    unknown = sorted(ids - set(load_all()))
    if unknown:
        raise UnknownRuleError(f"unknown rule(s): {', '.join(unknown)}")
    todo = list(ids)
    while todo:
        needed = set(KEPT_WITH.get(todo.pop(), ())) - ids
        ids |= needed
        todo.extend(needed)
    return ids


def check_semantics(semantics: str) -> str:
    """``semantics``, validated: one of ``SEMANTICS``."""
    if semantics not in SEMANTICS:
        raise ValueError(f"unknown semantics {semantics!r} (python or native)")
    return semantics
