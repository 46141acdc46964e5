"""What one compilation shares: fresh names, options, and what the output needs.

The lowering records here which runtime helpers, captured builtins and
interned constants the rewritten module refers to; the linker then writes
just those at the top of the output.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Protocol

from unsugar import builder as b
from unsugar.names import NameAllocator, input_names


@dataclass
class Constant:
    """An interned constant: ``name = value`` at the top of the output."""

    name: str
    value: ast.expr


class Recorder(Protocol):
    """What notes the rules a compilation applies (:mod:`unsugar.annotate`)."""

    def note(self, rule_id: str, node: ast.AST) -> None:
        """Rule ``rule_id`` rewrote ``node`` (of the input, or made from it)."""


@dataclass
class Unit:
    """The state of one module's compilation."""

    names: NameAllocator
    keep: frozenset[str] = frozenset()
    helpers: set[str] = field(default_factory=set)
    builtins: set[str] = field(default_factory=set)
    constants: dict[object, Constant] = field(default_factory=dict)
    future_annotations: bool = False
    #: the module body runs as a def over the module's namespace (rule ``module``)
    module_def: bool = False
    #: ``python`` (the runtime's exact helpers) or ``native`` (the interpreter's own)
    semantics: str = "python"
    #: notes every rule applied, where (``unsugar --annotate``); None: nothing noted
    recorder: Recorder | None = None

    def note(self, rule_id: str, node: ast.AST) -> None:
        """Rule ``rule_id`` rewrites ``node`` (for ``unsugar --annotate``)."""
        if self.recorder is not None:
            self.recorder.note(rule_id, node)

    @classmethod
    def for_tree(
        cls, tree: ast.AST, keep: Iterable[str] = (), prefix: str | None = None,
        semantics: str = "python",
    ) -> Unit:
        return cls(NameAllocator(input_names(tree), prefix), frozenset(keep), semantics=semantics)

    def helper(self, name: str) -> ast.Name:
        """A reference to the runtime helper ``name``."""
        self.helpers.add(name)
        return b.load(self.names.fixed(name))

    def builtin(self, name: str) -> ast.Name:
        """A reference to builtin ``name``, captured before user code runs."""
        self.builtins.add(name)
        return b.load(self.names.fixed(name))

    def intern(self, key: object, name: Callable[[], str], value: Callable[[], ast.expr]) -> ast.Name:
        """A reference to a constant computed once at the top of the module.

        ``key`` identifies the constant (e.g. ``(str, "join")``); ``name`` and
        ``value`` are called only the first time it is seen.
        """
        entry = self.constants.get(key)
        if entry is None:
            entry = Constant(name(), value())
            self.constants[key] = entry
        return b.load(entry.name)

    def string(self, value: str) -> ast.Name:
        """A reference to the interned ``str`` constant ``value``: built from
        its code points, or from chunks of its UTF-8 when it is long."""
        return self.intern((str, value), lambda: self.names.for_string(value),
                           lambda: self._built("text", value))

    def octets(self, value: bytes) -> ast.Name:
        """A reference to the interned ``bytes`` constant ``value``."""
        return self.intern((bytes, value), lambda: self.names.temp("bytes"),
                           lambda: self._built("octets", value))

    def _built(self, helper: str, value: str | bytes) -> ast.Call:
        """``text(104, 105)`` / ``octets(104, 105)``, or for a long literal
        ``text_of(0x6869, 2)`` / ``octets_of(0x6869, 2)`` (:func:`builder.chunks`)."""
        if len(value) <= b.LONG_LITERAL:
            items = map(ord, value) if isinstance(value, str) else value
            return b.call_with(self.helper(helper), b.ints(items))
        data = value.encode("utf-8", "surrogatepass") if isinstance(value, str) else value
        return b.call(self.helper(f"{helper}_of"), *b.chunks(data))
