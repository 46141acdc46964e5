"""Fresh names: never equal to a name of the input, readable, deterministic.

Every name unsugar invents starts with one module-wide prefix, ``_us_`` unless
the input already uses names with that prefix (then ``_us1_``, ``_us2_``, ...).
So a generated name can never collide with a user's name, whatever the counter
says, and the same input always gets the same names.

The shapes never overlap:

* temporaries: ``<prefix><hint>_<n>``, numbered per hint (``_us_iter_3``);
* per-scope control variables: ``<prefix><word><depth>`` (``_us_if2``), and
  ``_us_go``, ``_us_ret``: each function has its own locals, so the same
  name is reused in every scope;
* runtime helpers and captured builtins: ``<prefix><name>`` (``_us_add``,
  ``_us_getattr``); no helper is named after a builtin;
* interned strings: ``<prefix>s_<identifier>`` (``_us_s_join``), other
  constants are temporaries (``_us_str_4``, ``_us_float_2``).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable
from typing import Any

from unsugar import nodes as ast
from unsugar.trees import children

#: the identifiers each kind of node spells (besides ``Name``)
_SPELLED: dict[type, Callable[[Any], Iterable[str]]] = {
    ast.Attribute: lambda node: (node.attr,),
    ast.arg: lambda node: (node.arg,),
    ast.keyword: lambda node: (node.arg,) if node.arg else (),
    ast.FunctionDef: lambda node: (node.name,),
    ast.AsyncFunctionDef: lambda node: (node.name,),
    ast.ClassDef: lambda node: (node.name,),
    ast.alias: lambda node: ((node.asname or node.name).partition(".")[0],),
    ast.Global: lambda node: node.names,
    ast.Nonlocal: lambda node: node.names,
    ast.ExceptHandler: lambda node: (node.name,) if node.name else (),
    ast.MatchAs: lambda node: (node.name,) if node.name else (),
    ast.MatchStar: lambda node: (node.name,) if node.name else (),
    ast.MatchMapping: lambda node: (node.rest,) if node.rest else (),
}


def input_names(tree: ast.AST) -> set[str]:
    """Every identifier the input spells: names, attributes, arguments, aliases."""
    names: set[str] = set()
    add, spelled = names.add, _SPELLED.get
    todo = [tree]
    pop, extend = todo.pop, todo.extend
    while todo:
        node = pop()
        kind = type(node)
        if kind is ast.Name:  # (a leaf, as a constant is)
            add(node.id)
        elif kind is not ast.Constant:
            found = spelled(kind)
            if found is not None:
                names.update(found(node))
            extend(children(node))
    return names


def prefix_of_text(source: str) -> str | None:
    """``_us_`` if ``source`` spells it nowhere, else None (then the names of its
    tree decide, :func:`choose_prefix`). An ASCII source spells its identifiers
    as its tree holds them; another may spell ``_us_`` as NFKC makes it (``_ｕs_``)."""
    return "_us_" if source.isascii() and "_us_" not in source else None


def choose_prefix(taken: set[str]) -> str:
    """``_us_``, or the first ``_usN_`` that no input name starts with."""
    for n in itertools.count():
        prefix = "_us_" if n == 0 else f"_us{n}_"
        if not any(name.startswith(prefix) for name in taken):
            return prefix
    raise AssertionError("unreachable")


class TemporaryShapes(dict[str, bool]):
    """Whether each name asked about has the shape of a temporary,
    ``<prefix><hint>_<n>``, found when first asked."""

    def __init__(self, prefix: str) -> None:
        super().__init__()
        self.prefix = prefix

    def __missing__(self, name: str) -> bool:
        head, _, number = name.rpartition("_")
        shaped = self[name] = name.startswith(self.prefix) and number.isdigit() and len(head) > len(self.prefix)
        return shaped


class NameAllocator:
    """Hands out fresh names for one module."""

    def __init__(self, taken: set[str], prefix: str | None = None) -> None:
        self.prefix = prefix if prefix is not None else choose_prefix(taken)
        #: (a plain dict: the compiled runtime keeps a unit, pickled from the
        #: rewrite's thread, which must import nothing a caller may be importing)
        self._counters: dict[str, int] = {}
        #: every temporary handed out, in order (what a piece of lowering made)
        self.allocated: list[str] = []
        #: the answers of :meth:`fixed` so far (each name is asked about many
        #: times: one string for each fixed name)
        self._fixed: dict[str, str] = {}
        #: whether a name has the shape of a temporary (:meth:`is_temporary`),
        #: each name's answer found once: ``temporaries[name]``, a walk's lookup
        self.temporaries = TemporaryShapes(self.prefix)

    def temp(self, hint: str = "t") -> str:
        """A new temporary, ``<prefix><hint>_<n>``, unique in the module."""
        count = self._counters[hint] = self._counters.get(hint, 0) + 1
        name = f"{self.prefix}{hint}_{count}"
        self.allocated.append(name)
        return name

    def is_temporary(self, name: str) -> bool:
        """Whether ``name`` has the shape of a temporary, ``<prefix><hint>_<n>``."""
        return self.temporaries[name]

    def fixed(self, name: str) -> str:
        """The module-wide name of a helper or constant called ``name``."""
        fixed = self._fixed.get(name)
        if fixed is None:
            fixed = self._fixed[name] = f"{self.prefix}{name}"
        return fixed

    def for_string(self, value: str) -> str:
        """A readable name for an interned string constant."""
        if value.isascii() and value.isidentifier() and len(value) <= 40:  # no NFKC folding
            return self.fixed("s_" + value)
        return self.temp("str")
