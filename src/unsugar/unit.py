"""What one compilation shares: fresh names, options, and what the output needs.

The lowering records here which runtime helpers, captured builtins and
interned constants the rewritten module refers to; the linker then writes
just those at the top of the output.
"""

from __future__ import annotations
import __future__

import functools
import operator
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Protocol, TypeGuard, TypeVar

from unsugar import builder as b
from unsugar import nodes as ast
from unsugar.names import NameAllocator, input_names
from unsugar.trees import is_placing

#: ``"104, "`` for each octet, of which the items of most literals are written
_ITEM_TEXT = [f"{octet}, " for octet in range(256)]


#: the flags of future statements that a code object carries and that code it
#: compiles inherits: ``CO_FUTURE_BARRY_AS_BDFL`` and ``CO_FUTURE_ANNOTATIONS``
#: (the other features are the language's now: ``Python/future.c`` sets no flag)
FUTURE_CODE_FLAGS = 0x1400000


@dataclass
class Constant:
    """An interned constant: ``name = value`` at the top of the output.

    A ``str`` or ``bytes`` literal built from its items (``text(104, 105)``)
    keeps them in ``items``, not in ``value.args``: the printer writes the
    call from them (:meth:`source`), and :meth:`complete` puts them in the tree.
    """

    name: str
    value: ast.expr
    items: str | bytes | None = None
    _source: str | None = field(default=None, init=False, repr=False, compare=False)

    def complete(self) -> ast.expr:
        """``value`` with its items (for a tree of the output)."""
        if self.items and not self.value.args:  # type: ignore[attr-defined]
            self.value.args = b.ints(self._codes())  # type: ignore[attr-defined]
        return self.value

    def source(self) -> str:
        """The text of a literal's ``value``, as the printer writes it (made once)."""
        if self._source is None:
            items = self.items
            assert items is not None
            if isinstance(items, str) and not items.isascii():
                codes = ", ".join(map(str, map(ord, items)))
            else:  # octets, or ASCII text: an octet for each item
                octets = items.encode() if isinstance(items, str) else items
                codes = "".join([_ITEM_TEXT[octet] for octet in octets])[:-2]
            self._source = f"{self.value.func.id}({codes})"  # type: ignore[attr-defined]
        return self._source

    def statement_text(self, indent: int) -> str:
        """The text of ``name = value`` at ``indent``, as the printer writes it,
        made from the items (:meth:`source`)."""
        return f"\n{'    ' * indent}{self.name} = {self.source()}"

    def _codes(self) -> Iterable[int]:
        """The items of a literal: a str's code points, a bytes' octets."""
        assert self.items is not None
        return map(ord, self.items) if isinstance(self.items, str) else self.items


K = TypeVar("K")
V = TypeVar("V")


class MadeOnce(dict[K, V]):
    """One value for each key, made by ``make(key)`` when first asked for
    (``made``: those made already)."""

    def __init__(self, make: Callable[[K], V], made: Mapping[K, V] | None = None) -> None:
        super().__init__(made or {})
        self.make = make

    def __missing__(self, key: K) -> V:
        value = self[key] = self.make(key)
        return value


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
    #: the names of ``constants`` (bound once, at the top: never a temporary to release)
    constant_names: set[str] = field(default_factory=set)
    future_annotations: bool = False
    #: the compiler flags of the module's future statements (what ``exec`` of a string inherits)
    future_flags: int = 0
    #: the statements that must open the output, if kept: the module's
    #: docstring and its future statements
    opening: list[ast.stmt] = field(default_factory=list)
    #: the module body runs as a def over the module's namespace (rule ``module``)
    module_def: bool = False
    #: ``python`` (the runtime's exact helpers) or ``native`` (the interpreter's own)
    semantics: str = "python"
    #: notes every rule applied, where (``unsugar --annotate``); None: nothing noted
    recorder: Recorder | None = None
    #: the output's decorated defs: their ``first_line`` (their first
    #: decorator's) is where their code starts when the tree is compiled
    decorated: list[ast.FunctionDef] = field(default_factory=list)
    #: the class bodies' defs, whose code runs in their namespace
    #: (:func:`unsugar.namespaces.run_in_namespace`, once linked)
    class_bodies: list[ast.FunctionDef] = field(default_factory=list)
    #: where no node is placed (text is written), one node for all the reads
    #: of each name the rewrite binds (a helper, builtin, constant or flag),
    #: one for its stores, one for each flag's int: fewer nodes to make and
    #: free. In a tree each has a position of its own: None, a node each.
    shared_reads: MadeOnce[str, ast.Name] | None = None
    shared_stores: MadeOnce[str, ast.Name] | None = None
    shared_numbers: MadeOnce[int, ast.Constant] | None = None
    #: the shared reads of the helpers, builtins and strings asked for, by
    #: their own names or values (none in a tree): what :meth:`helper`,
    #: :meth:`builtin` and :meth:`string` give
    helper_reads: dict[str, ast.Name] = field(default_factory=dict)
    builtin_reads: dict[str, ast.Name] = field(default_factory=dict)
    string_reads: dict[str, ast.Name] = field(default_factory=dict)

    def note(self, rule_id: str, node: ast.AST) -> None:
        """Rule ``rule_id`` rewrites ``node`` (for ``unsugar --annotate``)."""
        if self.recorder is not None:
            self.recorder.note(rule_id, node)

    @classmethod
    def for_tree(
        cls, tree: ast.AST, keep: Iterable[str] = (), prefix: str | None = None,
        semantics: str = "python",
    ) -> Unit:
        """The unit of a module whose tree is ``tree``: its temporaries' names start
        with ``prefix``, or with one that no name of the tree starts with."""
        taken = input_names(tree) if prefix is None else set()
        unit = cls(NameAllocator(taken, prefix), frozenset(keep), semantics=semantics)
        unit.opening = opening_of(tree)
        if not is_placing():
            unit.shared_reads, unit.shared_stores = MadeOnce(b.load), MadeOnce(b.store)
            unit.shared_numbers = MadeOnce(ast.Constant)
        features = [alias.name for stmt in unit.opening if is_future(stmt) for alias in stmt.names]
        unit.future_annotations = "annotations" in features
        unit.future_flags = FUTURE_CODE_FLAGS & functools.reduce(
            operator.or_, (getattr(__future__, name).compiler_flag for name in features), 0)
        return unit

    def helper(self, name: str) -> ast.Name:
        """A reference to the runtime helper ``name``."""
        node = self.helper_reads.get(name)
        if node is None:
            node = self._uses(name, self.helpers, self.helper_reads)
        return node

    def builtin(self, name: str) -> ast.Name:
        """A reference to builtin ``name``, captured before user code runs."""
        node = self.builtin_reads.get(name)
        if node is None:
            node = self._uses(name, self.builtins, self.builtin_reads)
        return node

    def _uses(self, name: str, used: set[str], reads: dict[str, ast.Name]) -> ast.Name:
        """A read of helper or builtin ``name``, noted in ``used``; where reads
        are shared, kept in ``reads``, by which the next is found at once."""
        used.add(name)
        node = self.read(self.names.fixed(name))
        if self.shared_reads is not None:
            reads[name] = node
        return node

    def read(self, name: str) -> ast.Name:
        """A read of ``name``, a helper, builtin, constant or flag: where nodes
        are not placed, one node shared by every read of the name
        (:attr:`shared_reads`); else a new node, placed as its parent."""
        reads = self.shared_reads
        return b.load(name) if reads is None else reads[name]

    def stored(self, name: str) -> ast.Name:
        """A store to temporary or flag ``name``, as :meth:`read` reads it
        (for a statement nothing renames)."""
        stores = self.shared_stores
        return b.store(name) if stores is None else stores[name]

    def number(self, value: int) -> ast.Constant:
        """The int ``value`` (a flag's), as :meth:`read` reads a name."""
        numbers = self.shared_numbers
        return b.make_constant(value) if numbers is None else numbers[value]

    def intern(self, key: object, name: Callable[[], str], value: Callable[[], ast.expr]) -> ast.Name:
        """A reference to a constant computed once at the top of the module.

        ``key`` identifies the constant (e.g. ``(str, "join")``); ``name`` and
        ``value`` are called only the first time it is seen.
        """
        entry = self.constants.get(key)
        if entry is None:
            entry = self.constants[key] = Constant(name(), value())
            self.constant_names.add(entry.name)
        return self.read(entry.name)

    def method(self, type_name: str, method: str) -> ast.Name:
        """The method ``method`` of builtin type ``type_name`` (``list.append``),
        looked up once at the top of the module."""
        return self.intern(
            ("method", type_name, method),
            lambda: self.names.temp(f"{type_name}_{method.strip('_')}"),
            lambda: b.call(self.builtin("getattr"), self.builtin(type_name), self.string(method)),
        )

    def string(self, value: str) -> ast.Name:
        """A reference to the interned ``str`` constant ``value``: built from
        its code points, or from chunks of its UTF-8 when it is long."""
        node = self.string_reads.get(value)
        if node is not None:
            return node
        entry = self.constants.get((str, value))
        if entry is None:
            entry = self.constants[(str, value)] = self._literal(self.names.for_string(value), "text", value)
            self.constant_names.add(entry.name)
        node = self.read(entry.name)
        if self.shared_reads is not None:
            self.string_reads[value] = node
        return node

    def octets(self, value: bytes) -> ast.Name:
        """A reference to the interned ``bytes`` constant ``value``."""
        entry = self.constants.get((bytes, value))
        if entry is None:
            entry = self.constants[(bytes, value)] = self._literal(self.names.temp("bytes"), "octets", value)
            self.constant_names.add(entry.name)
        return self.read(entry.name)

    def _literal(self, name: str, helper: str, value: str | bytes) -> Constant:
        """``name = text(104, 105)`` / ``octets(104, 105)`` (the items kept
        aside, :class:`Constant`), or for a long literal ``text_of(0x6869, 2)``
        / ``octets_of(0x6869, 2)`` (:func:`builder.chunks`)."""
        interned = isinstance(value, str) and _all_name_chars(value)
        if len(value) <= b.LONG_LITERAL:
            return Constant(name, b.make_call(self.helper("name_text" if interned else helper), [], []), value)
        data = value.encode("utf-8", "surrogatepass") if isinstance(value, str) else value
        made = b.call(self.helper(f"{helper}_of"), *b.chunks(data))
        return Constant(name, b.call(self.helper("intern"), made) if interned else made)


#: the characters of a string constant CPython interns (``all_name_chars``)
_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")


def _all_name_chars(value: str) -> bool:
    """Whether CPython's compiler interns the constant ``value``: ASCII letters,
    digits and underscores only."""
    return _NAME_CHARS.issuperset(value)


def opening_of(tree: ast.AST) -> list[ast.stmt]:
    """The statements that open the module ``tree``: its docstring, if any,
    and the future statements after it."""
    body = getattr(tree, "body", [])
    at = 1 if body and is_docstring(body[0]) else 0
    while at < len(body) and is_future(body[at]):
        at += 1
    return body[:at]


def is_future(stmt: ast.stmt) -> TypeGuard[ast.ImportFrom]:
    """Whether ``stmt`` is ``from __future__ import ...``."""
    return isinstance(stmt, ast.ImportFrom) and stmt.module == "__future__" and not stmt.level


def is_docstring(stmt: ast.stmt) -> bool:
    """Whether ``stmt``, first in its body, is the body's docstring."""
    return isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) \
        and isinstance(stmt.value.value, str)
