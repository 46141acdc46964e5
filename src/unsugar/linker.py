"""Writes the top of an output: captured builtins, helpers, constants.

The runtime (:mod:`unsugar.runtime`) is plain Python. It is compiled to core
syntax by the same pipeline as user code, once per name prefix and
semantics (and kept in the cache for the next process, :mod:`unsugar.store`),
and its top-level names and the builtins it uses are renamed to
``<prefix><name>``.
An output then carries, in this order:

1. ``_us_getattr = getattr`` ... for every builtin used (before user code
   can shadow one);
2. the bootstrap helpers that build strings;
3. the interned constants (``_us_s_join = _us_text(106, 111, 105, 110)``);
4. the other helpers it uses, and what they use in turn;
5. the user's module.
"""

from __future__ import annotations

import builtins
import contextlib
import dataclasses
import pickle
import sys
from collections.abc import Callable, Iterable
from functools import cache, partial
from typing import NamedTuple, TypeVar

from unsugar import builder as b
from unsugar import nodes as ast
from unsugar import printer, store
from unsugar.names import NameAllocator
from unsugar.options import RUNTIMES, SEMANTICS
from unsugar.runtime import MODULES, source_path
from unsugar.trees import fix_locations, placing, walk
from unsugar.unit import Constant, MadeOnce, Unit

BUILTIN_NAMES = frozenset(dir(builtins))
T = TypeVar("T")
#: the runtime module whose definitions replace the others' with ``--semantics=native``
NATIVE = "native"


class RuntimeNames(NameAllocator):
    """Temporaries of the runtime: ``<prefix>rt<n>_<hint>``, never a user temporary's shape."""

    def temp(self, hint: str = "t") -> str:
        count = self._counters["rt"] = self._counters.get("rt", 0) + 1
        return f"{self.prefix}rt{count}_{hint}"


@dataclasses.dataclass
class Piece:
    """One top-level statement of the compiled runtime."""

    module: str
    stmt: ast.stmt
    defines: set[str]
    uses: set[str]
    #: its text by indent, made when first asked for; kept in the cache at
    #: indent 1, where the body of a module def is (:func:`_compiled_runtime`)
    texts: dict[int, str] = dataclasses.field(default_factory=dict)


class Closure(NamedTuple):
    """What some names need, transitively (:func:`_closure`). The runtime's
    pieces and constants are sets of bits (:class:`CompiledRuntime`'s): a
    module's closure is the ``|`` of its helpers'."""

    pieces: int  # bit ``i``: ``runtime.pieces[i]``
    constants: int  # bit ``i``: the ``i``-th of ``runtime.constants``
    builtins: frozenset[str]  # the builtins referred to on the way


@dataclasses.dataclass
class CompiledRuntime:
    pieces: list[Piece] = dataclasses.field(default_factory=list)
    unit: Unit | None = None
    by_name: dict[str, Piece] = dataclasses.field(default_factory=dict)
    #: the runtime's own constants by name, and the prefixed names each refers to
    constants: dict[str, Constant] = dataclasses.field(default_factory=dict)
    constant_uses: dict[str, set[str]] = dataclasses.field(default_factory=dict)
    #: for the printer: ``id(stmt) -> text at an indent``, each made once, for
    #: the pieces' statements and the constants'
    known: dict[int, Callable[[int], str]] = dataclasses.field(default_factory=dict)
    #: by indent, each statement's text in a run of them (:class:`RuntimeText`)
    run_texts: dict[int, MadeOnce[ast.stmt, str]] = dataclasses.field(default_factory=dict)
    #: ``name = value`` of each constant, by name: what every module's text
    #: that needs the constant shares
    constant_statements: dict[str, ast.Assign] = dataclasses.field(default_factory=dict)
    #: the closure of each runtime name a module has needed so far
    closures: dict[str, Closure] = dataclasses.field(default_factory=dict)
    #: the names each piece defines, and the constants' names -> the bit in a :class:`Closure`
    piece_bit: dict[str, int] = dataclasses.field(default_factory=dict)
    constant_bit: dict[str, int] = dataclasses.field(default_factory=dict)
    #: ``<prefix>len -> len`` for every builtin
    builtins: dict[str, str] = dataclasses.field(default_factory=dict)
    #: the prefix of its names
    prefix: str = ""


class RuntimeText(printer.TextRun):
    """The builtins ``captured`` (``_us_len = len``) and statements of the
    runtime, written as the runtime's texts of its statements joined."""

    def __init__(self, captured: list[str], stmts: list[ast.stmt], runtime: CompiledRuntime) -> None:
        super().__init__()
        self.captured, self.stmts, self.runtime = captured, stmts, runtime

    def text(self, indent: int) -> str:
        runtime = self.runtime
        texts = runtime.run_texts.get(indent)
        if texts is None:
            texts = runtime.run_texts[indent] = MadeOnce(partial(_run_text, runtime.known, indent))
        parts = [_capture_text(runtime.prefix, captured, indent) for captured in self.captured]
        parts += [texts[stmt] for stmt in self.stmts]
        return "".join(parts)

    def statements(self) -> list[ast.stmt]:
        return [*_captures(self.runtime.prefix, self.captured), *self.stmts]


def _run_text(known: dict[int, Callable[[int], str]], indent: int, stmt: ast.stmt) -> str:
    """The text of the runtime's ``stmt`` at ``indent`` in a run of them (a
    def's after a blank line), from ``known`` (:attr:`CompiledRuntime.known`)."""
    text = known[id(stmt)](indent)
    return "\n" + text if type(stmt) is ast.FunctionDef else text


class LiteralsText(printer.TextRun):
    """A run of the module's own literals built from their items
    (``_us_s_x = _us_name_text(120)``), written from the items
    (:meth:`unit.Constant.statement_text`): no node is made for them."""

    def __init__(self, entries: list[Constant]) -> None:
        super().__init__()
        self.entries = entries

    def text(self, indent: int) -> str:
        return "".join([entry.statement_text(indent) for entry in self.entries])

    def statements(self) -> list[ast.stmt]:
        """Each literal's assignment, its items in the tree."""
        return [b.assign(entry.name, entry.complete()) for entry in self.entries]


def _captures(prefix: str, builtins_used: Iterable[str]) -> list[ast.stmt]:
    """``<prefix>len = len`` for each of ``builtins_used``: read before user code can shadow one."""
    return [b.assign(prefix + name, b.load(name)) for name in builtins_used]


@cache
def _capture_text(prefix: str, builtin: str, indent: int) -> str:
    """The printer's text of ``<prefix>builtin = builtin`` at ``indent`` (made once)."""
    return printer.statements(_captures(prefix, [builtin]), indent)


def expanded(stmts: list[ast.stmt], kind: type[printer.TextRun] = printer.TextRun) -> list[ast.stmt]:
    """``stmts`` with each :class:`printer.TextRun` (of ``kind``) replaced by its statements."""
    out: list[ast.stmt] = []
    for stmt in stmts:
        if isinstance(stmt, kind):
            out += stmt.statements()
        else:
            out.append(stmt)
    return out


def runtime_tree(name: str) -> ast.Module:
    """The syntax tree of runtime module ``name``."""
    path = source_path(name)
    with open(path, encoding="utf-8") as handle:
        return ast.parse(handle.read(), path)


def compiled_runtime(prefix: str, semantics: str = "python") -> CompiledRuntime:
    """The runtime compiled to core syntax, with names for ``prefix`` (once per process).

    With ``native`` semantics, the definitions of ``runtime/native.py`` replace
    the helpers of the same names (and run right after the bootstrap). Its
    nodes are placed, whatever the caller's rewrite does (:func:`placing`).
    """
    with placing(True):
        return _compiled_runtime(prefix, semantics)


@cache
def _compiled_runtime(prefix: str, semantics: str) -> CompiledRuntime:
    """Read from the cache, or compiled and kept there (:mod:`unsugar.store`)."""
    if semantics not in SEMANTICS:
        raise ValueError(f"unknown semantics {semantics!r}")
    kind = f"runtime-{sys.implementation.cache_tag}-{semantics}-{prefix}-"
    entry = f"{kind}{store.fingerprint()[:32]}.runtime"
    runtime = _unpickled(store.read(entry)) if store.used() else None
    if runtime is None:
        runtime = _compile_runtime(prefix, semantics)
        if store.used():
            for piece in runtime.pieces:  # its text in a module def's body: no process writes it again
                piece.texts[1] = printer.statements([piece.stmt], 1)
            with contextlib.suppress(RecursionError):
                store.write(entry, pickle.dumps(runtime, pickle.HIGHEST_PROTOCOL))
                store.remove_others(kind, entry)  # former versions' (the last few spared)
    runtime.known = {
        id(piece.stmt): MadeOnce(partial(printer.statements, [piece.stmt]), piece.texts).__getitem__
        for piece in runtime.pieces
    }
    for name, entry in runtime.constants.items():
        stmt = runtime.constant_statements[name] = b.assign(name, entry.value)
        text = entry.statement_text if entry.items is not None else partial(printer.statements, [stmt])
        runtime.known[id(stmt)] = cache(text)
    runtime.piece_bit = {name: 1 << i for i, piece in enumerate(runtime.pieces) for name in piece.defines}
    runtime.constant_bit = {name: 1 << i for i, name in enumerate(runtime.constants)}
    return runtime


def _unpickled(data: bytes | None) -> CompiledRuntime | None:
    """The compiled runtime kept in ``data``; None if there is none, or it does not load."""
    if data is None:
        return None
    try:
        runtime = pickle.loads(data)
    except Exception:  # noqa: BLE001  (truncated or corrupt: compiled again, and replaced)
        return None
    return runtime if isinstance(runtime, CompiledRuntime) else None


def _compile_runtime(prefix: str, semantics: str) -> CompiledRuntime:
    """Each runtime module lowered as user code is, its names prefixed (the
    texts of its pieces are made when first asked for, or before it is cached)."""
    from unsugar.control import lower_module
    from unsugar.lowering import Lowerer

    unit = Unit(RuntimeNames(set(), prefix))
    trees = {name: runtime_tree(name) for name in (*MODULES, NATIVE)}
    top: set[str] = set()
    for name in MODULES:
        for stmt in trees[name].body:
            clash = _defined(stmt) & top
            if clash:
                raise ValueError(f"runtime name defined twice: {sorted(clash)}")
            top.update(_defined(stmt))
    native = set().union(*map(_defined, trees[NATIVE].body))
    top |= native
    replaced = native if semantics == NATIVE else set()
    order = [MODULES[0], NATIVE, *MODULES[1:]] if semantics == NATIVE else MODULES
    runtime = CompiledRuntime(unit=unit)
    for name in order:
        tree = trees[name]
        if name != NATIVE:
            tree.body = [stmt for stmt in tree.body if not _defined(stmt) & replaced]
        _strip_docstrings(tree)
        body = lower_module(Lowerer(unit).module(tree.body), unit)
        for stmt in body:
            _rename(stmt, top, unit)
            fix_locations(stmt)
            piece = Piece(name, stmt, _defined(stmt), _prefixed_uses(stmt, prefix))
            runtime.pieces.append(piece)
            for defined in piece.defines:
                runtime.by_name[defined] = piece
    runtime.constants = {entry.name: entry for entry in unit.constants.values()}
    runtime.constant_uses = {
        entry.name: _prefixed_uses(entry.value, prefix) for entry in unit.constants.values()
    }
    runtime.builtins = {prefix + name: name for name in BUILTIN_NAMES}
    runtime.prefix = prefix
    return runtime


def _strip_docstrings(tree: ast.Module) -> None:
    """Docstrings of the runtime are for its readers, not for outputs."""
    for node in walk(tree):
        if isinstance(node, ast.Module | ast.FunctionDef | ast.ClassDef) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and \
                    isinstance(first.value.value, str):
                node.body = node.body[1:] or [ast.Pass()]


def _defined(stmt: ast.stmt) -> set[str]:
    if isinstance(stmt, ast.FunctionDef | ast.ClassDef):
        return {stmt.name}
    if isinstance(stmt, ast.Assign):
        return {t.id for t in stmt.targets if isinstance(t, ast.Name)}
    return set()


def _rename(stmt: ast.stmt, top: set[str], unit: Unit) -> None:
    """Top-level runtime names and builtins become ``<prefix><name>``."""
    fixed = unit.names.fixed
    if isinstance(stmt, ast.FunctionDef):
        stmt.name = fixed(stmt.name)
    for node in walk(stmt):
        if isinstance(node, ast.Name):
            if node.id in top:
                node.id = fixed(node.id)
            elif node.id in BUILTIN_NAMES:
                unit.builtins.add(node.id)
                node.id = fixed(node.id)


def _prefixed_uses(node: ast.AST, prefix: str) -> set[str]:
    """The names starting with ``prefix`` that ``node`` refers to."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and not node.keywords \
            and all(type(arg) is ast.Constant for arg in node.args):
        # a literal built from its items (``_us_text(104, 105)``) refers to its helper only
        return {node.func.id} if node.func.id.startswith(prefix) else set()
    return {
        sub.id for sub in walk(node)
        if isinstance(sub, ast.Name) and sub.id.startswith(prefix)
    }


def link(
    unit: Unit, body: list[ast.stmt], runtime_mode: str = "inline",
    literals: list[Constant] | None = None, as_text: bool = False,
) -> list[ast.stmt]:
    """The whole output module body: what ``body`` needs, then ``body``.

    With ``literals``, the runtime's constants are its assignments made once
    per process, each literal built from its items recorded there (its items
    are left out of the tree, :class:`unit.Constant`); without, each is made
    complete. ``as_text`` (for an output written as
    text): the captured builtins and the runtime's statements stand as
    :class:`RuntimeText`, one before the module's own constants and one
    after, and each run of the module's own literals as a
    :class:`LiteralsText`, which the printer writes as they are;
    :func:`expanded` gives the statements back.
    """
    if runtime_mode not in RUNTIMES:
        raise ValueError(f"unknown runtime mode {runtime_mode!r}")
    prefix = unit.names.prefix
    runtime = compiled_runtime(prefix, unit.semantics)
    assert runtime.unit is not None
    direct = {unit.names.fixed(h) for h in unit.helpers}
    own: dict[str, Constant] = {}  # the module's constants that the runtime has not
    for entry in unit.constants.values():
        if entry.name in runtime.constants:
            direct.add(entry.name)
        else:
            own.setdefault(entry.name, entry)
    for entry in own.values():  # each is linked: what it refers to is needed
        if entry.items is None:  # (a literal's helper is among the unit's helpers)
            direct |= _prefixed_uses(entry.value, prefix)
    direct.difference_update(own)
    header: list[ast.stmt] = []
    known: dict[str, Closure] | None = runtime.closures
    if runtime_mode == "import":
        imported = _importable(runtime, direct)
        header = _imports(unit, sorted(imported), LINKED[unit.semantics])
        runtime = dataclasses.replace(runtime, by_name={
            name: piece for name, piece in runtime.by_name.items() if name not in imported
        })
        known = None  # the closures kept are the whole runtime's
        direct -= imported
    closure = _closure(runtime, direct, known)
    pieces = _members(runtime.pieces, closure.pieces)
    boot = [p.stmt for p in pieces if p.module == "bootstrap"]
    rest = [p.stmt for p in pieces if p.module != "bootstrap"]
    shared = _members(list(runtime.constants.values()), closure.constants)
    if literals is not None:  # the runtime's constants are made and written once
        shared_consts = [runtime.constant_statements[entry.name] for entry in shared]
        literals.extend(entry for entry in shared if entry.items is not None)
    else:
        shared_consts = [b.assign(entry.name, entry.complete()) for entry in shared]
    own_consts = _own_constants(list(own.values()))
    captured = sorted(closure.builtins.union(unit.builtins))
    opening: list[ast.stmt] = []
    if unit.keep:  # the docstring and future statements kept open the module
        opening = [stmt for stmt in body if any(stmt is kept for kept in unit.opening)]
        body = [stmt for stmt in body if not any(stmt is kept for kept in opening)]
    if header:  # (not the runtime's: between two texts)
        before = [RuntimeText(captured, boot, runtime), *header, RuntimeText([], shared_consts, runtime)]
    else:
        before = [RuntimeText(captured, boot + shared_consts, runtime)]
    after = RuntimeText([], rest, runtime)
    linked = opening + before + own_consts + [after] + body
    return linked if as_text else expanded(linked)


def _own_constants(entries: list[Constant]) -> list[ast.stmt]:
    """``name = value`` of each of the module's own constants, in order; each
    run of literals built from their items stands as one :class:`LiteralsText`."""
    out: list[ast.stmt] = []
    run: list[Constant] = []
    for entry in entries:
        if entry.items is not None:
            run.append(entry)
            continue
        if run:
            out.append(LiteralsText(run))
            run = []
        out.append(b.assign(entry.name, entry.value))
    if run:
        out.append(LiteralsText(run))
    return out


def _closure(
    runtime: CompiledRuntime, wanted: set[str], known: dict[str, Closure] | None = None,
) -> Closure:
    """The runtime pieces and constants that ``wanted`` (names of the runtime
    and builtins) needs, transitively, and the builtins they refer to. A
    runtime name's own closure is made once and kept in ``known``, if given:
    a module's is then the union of its helpers' (the runtime's names refer
    to its names alone)."""
    pieces = used_constants = 0
    builtins_used: set[str] = set()
    seen: set[str] = set()
    constants = runtime.constants
    todo = list(wanted)
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        if known is not None and (name in runtime.by_name or name in runtime.constants):
            closure = known.get(name)
            if closure is None:
                closure = known[name] = _closure(runtime, {name})
            pieces |= closure.pieces
            used_constants |= closure.constants
            builtins_used |= closure.builtins
            continue
        builtin = runtime.builtins.get(name)
        if builtin is not None:
            builtins_used.add(builtin)
        if name in constants:
            used_constants |= runtime.constant_bit[name]
            todo.extend(runtime.constant_uses[name])
            continue
        piece = runtime.by_name.get(name)
        if piece is None or pieces & runtime.piece_bit[name]:
            continue
        pieces |= runtime.piece_bit[name]
        todo.extend(piece.uses)
    return Closure(pieces, used_constants, frozenset(builtins_used))


def _members(items: list[T], bits: int) -> list[T]:
    """The ``items`` whose bits are set in ``bits`` (bit ``i``: ``items[i]``), in order
    (the bits stop at the highest set)."""
    return [item for item, bit in zip(items, reversed(f"{bits:b}"), strict=False) if bit == "1"]


def _importable(runtime: CompiledRuntime, wanted: set[str]) -> set[str]:
    """The helpers ``--runtime=import`` binds: those ``wanted`` and the
    runtime's constants it needs refer to (not what the imported helpers use
    themselves)."""
    imported: set[str] = set()
    seen: set[str] = set()
    todo = list(wanted)
    while todo:
        name = todo.pop()
        if name in runtime.by_name:
            imported.add(name)
        elif name in runtime.constants and name not in seen:
            seen.add(name)
            todo.extend(runtime.constant_uses[name])
    return imported


#: the module of the package that ``--runtime=import`` takes the helpers from
LINKED = {"python": "linked_runtime", "native": "linked_native"}


def _imports(unit: Unit, helpers: list[str], module: str) -> list[ast.stmt]:
    """``--runtime=import``: bind ``helpers`` from ``unsugar.<module>``
    (:mod:`unsugar.linked_runtime`, or :mod:`unsugar.linked_native`),
    spelling every name as a keyword (no string constant exists yet)::

        _us_rt_unsugar = __import__(next(iter(dict(unsugar=0))), fromlist=dict(linked_runtime=0))
        _us_rt_linked = getattr(_us_rt_unsugar, next(iter(dict(linked_runtime=0))))
        _us_global_set = getattr(_us_rt_linked, next(iter(dict(global_set=0))))
    """
    if not helpers:
        return []
    fixed, builtin = unit.names.fixed, unit.builtin

    def word(name: str) -> ast.expr:
        return b.call(builtin("next"), b.call(builtin("iter"), b.call(builtin("dict"), **{name: b.int_(0)})))

    package, linked = fixed("rt_unsugar"), fixed("rt_linked")
    out = [
        b.assign(package, b.call(
            builtin("__import__"), word("unsugar"),
            fromlist=b.call(builtin("dict"), **{module: b.int_(0)}),
        )),
        b.assign(linked, b.call(builtin("getattr"), b.load(package), word(module))),
    ]
    for name in helpers:
        short = name.removeprefix(unit.names.prefix)
        out.append(b.assign(name, b.call(builtin("getattr"), b.load(linked), word(short))))
    return out
