"""Differential testing: run a snippet and its desugared form, compare everything.

``assert_same(source)`` desugars ``source``, checks that the output is core
syntax (unless rules are kept), runs both in fresh module namespaces and
compares what the contract names: printed output, the exception that escaped
(type, message, ``__cause__``/``__context__`` types and
``__suppress_context__``) and the module's names afterwards: the same names,
with the same values.
"""

from __future__ import annotations

import ast
import contextlib
import io
import random
import re
import sys
import textwrap
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field

from unsugar import desugar
from unsugar.checker import check_source

_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")


@dataclass
class Outcome:
    stdout: str
    error: tuple | None
    names: dict[str, str] = field(default_factory=dict)


def describe_exception(exc: BaseException | None, depth: int = 0) -> tuple | None:
    """What of an exception must match: type, message, chain."""
    if exc is None or depth > 3:
        return None
    return (
        type(exc).__qualname__,
        str(exc),
        describe_exception(exc.__cause__, depth + 1),
        describe_exception(exc.__context__, depth + 1),
        exc.__suppress_context__,
    )


def normal_repr(value: object) -> str:
    """A repr without memory addresses (functions by qualified name)."""
    if callable(value) and hasattr(value, "__qualname__") and not isinstance(value, type):
        return f"<callable {getattr(value, '__qualname__', '?')}>"
    try:
        text = repr(value)
    except Exception as exc:  # a repr that fails is itself an observable
        text = f"<repr failed: {type(exc).__name__}>"
    return _ADDRESS.sub("", text)


def run(source: str, filename: str = "<difftest>", hidden: str | None = None) -> Outcome:
    """Execute ``source`` as a fresh module ``__main__``-like namespace; the
    names starting with ``hidden`` are left out of the comparison."""
    namespace: dict[str, object] = {"__name__": "difftest_module"}
    buffer = io.StringIO()
    error = None
    code = compile(source, filename, "exec", dont_inherit=True)  # not this file's __future__
    with contextlib.redirect_stdout(buffer):
        try:
            exec(code, namespace)
        except BaseException as exc:  # noqa: BLE001  (the point is to record it)
            if isinstance(exc, KeyboardInterrupt):
                raise
            error = describe_exception(exc)
    names = {
        key: normal_repr(value)
        for key, value in namespace.items()
        if not (hidden and key.startswith(hidden)) and key != "__builtins__"
    }
    namespace.clear()  # what the module left dies now, not while the next run prints
    return Outcome(buffer.getvalue(), error, names)


#: Sugar that ``assert_same`` tolerates in outputs by default: none, every
#: statement a snippet uses as instrumentation (classes, imports) is rewritten.
#: Pass ``allow`` to tolerate the findings of rules not built yet.
DEFINITIONS: tuple[str, ...] = ()


#: The semantics that differential tests desugar with (``pytest --semantics native``).
SEMANTICS = ["python"]


def desugared(
    source: str, keep: tuple[str, ...] = (), allow: tuple[str, ...] = (), semantics: str = ""
) -> str:
    """The desugared form of ``source``, checked to be core syntax."""
    out = desugar(source, keep=keep, semantics=semantics or SEMANTICS[0])
    if not keep:
        sugar = [f for f in check_source(out) if f.rule not in allow]
        assert not sugar, "output is not core:\n" + "\n".join(
            f.format("<out>") for f in sugar[:20]
        ) + "\n\n" + out
    return out


def assert_same(
    source: str,
    keep: tuple[str, ...] = (),
    check_names: bool = True,
    allow: tuple[str, ...] = DEFINITIONS,
    setup: Callable[[], object] | None = None,
    semantics: str = "",
) -> Outcome:
    """Desugar ``source`` and assert both versions behave the same.

    ``setup`` runs before each of the two runs (e.g. to forget imported modules).
    """
    source = textwrap.dedent(source)
    out = desugared(source, keep, allow, semantics)
    if setup is not None:
        setup()
    original = run(source)
    if setup is not None:
        setup()
    # kept sugar keeps the module body at module level, its temporaries too
    rewritten = run(out, hidden="_us" if keep else None)
    assert rewritten.stdout == original.stdout, _explain("stdout", original, rewritten, out)
    assert rewritten.error == original.error, _explain("error", original, rewritten, out)
    if check_names:
        assert rewritten.names == original.names, _explain("names", original, rewritten, out)
    return original


def _explain(what: str, original: Outcome, rewritten: Outcome, out: str) -> str:
    return (
        f"{what} differs\n--- original: {getattr(original, what)!r}\n"
        f"--- desugared: {getattr(rewritten, what)!r}\n--- output:\n{out}"
    )


#: A value whose truth tests are printed (instrumentation shared by snippets).
PRINTING_TRUTH = """
class T:
    def __init__(self, name, value):
        self.name = name
        self.value = value
    def __bool__(self):
        print("bool", self.name)
        return self.value
    def __repr__(self):
        return self.name
"""


def parse_ok(source: str) -> bool:
    try:
        ast.parse(source)
    except SyntaxError:
        return False
    return True


__all__ = ["assert_same", "desugared", "run", "Outcome", "parse_ok", "PRINTING_TRUTH", "sys"]


class Writer:
    """What a generator of programs writes with: its seeded source of random
    choices, and a counter of tags that tell a program's values and prints apart."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.tag = 0

    def next_tag(self) -> int:
        self.tag += 1
        return self.tag


class GeneratorWriter(Writer):
    """A writer of generator functions whose statements are lists of lines
    (``statement(depth, loop)``, a subclass's), and of their ``driver``."""

    def __init__(self, rng: random.Random) -> None:
        super().__init__(rng)
        self.generators: list[str] = []

    def statement(self, depth: int, loop: bool) -> list[str]:
        raise NotImplementedError

    def generator(self, name: str) -> str:
        raise NotImplementedError

    def driver(self, target: str) -> str:
        raise NotImplementedError

    def block(self, depth: int, loop: bool) -> list[str]:
        lines: list[str] = []
        for _ in range(self.rng.randint(1, 3)):
            lines += self.statement(depth, loop)
        return lines

    def indented(self, depth: int, loop: bool, optional: bool = False) -> list[str]:
        if optional and self.rng.random() < 0.5:
            return []
        return ["    " + line for line in self.block(depth + 1, loop)]


def driven_program(seed: int, header: str, writer: Callable[[random.Random], GeneratorWriter],
                   prefix: str, call: str) -> str:
    """``header``, one to three generators named ``prefix`` and a number, the
    driver of the last, and a loop that prints ``call`` (of ``drive(k)``) and
    the log for ``k`` in ``range(6)``."""
    rng = random.Random(seed)
    made = writer(rng)
    parts = [header]
    for number in range(rng.randint(1, 3)):
        parts.append(made.generator(f"{prefix}{number}"))
    parts.append(made.driver(made.generators[-1]))
    parts.append(f"for k in range(6):\n    del log[:]\n    print(k, {call}, log)\n")
    return "".join(parts)


def first_compiling(draw: Callable[[random.Random], str], seed: int, tries: int) -> str:
    """The first program ``draw`` writes from ``Random(seed * tries + attempt)``
    that CPython compiles: a generator of programs may draw one that CPython
    refuses (a ``nonlocal`` with nothing to bind, a walrus in an iterable)."""
    for attempt in range(tries):
        source = draw(random.Random(seed * tries + attempt))
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                compile(source, "<generated program>", "exec")
        except SyntaxError:
            continue
        return source
    raise AssertionError(f"no program of seed {seed} compiles")


def programs_with(sources: list[str], found: Callable[[ast.AST], bool]) -> int:
    """How many of the programs ``sources`` hold a node that ``found`` is true
    of (the shape checks of the generators' tests)."""
    return sum(any(found(node) for node in ast.walk(ast.parse(source))) for source in sources)


def compare_seeds(program: Callable[[int], str], argv: list[str], check_names: bool = True) -> int:
    """The long run of a generator of programs: seeds ``FIRST`` to ``FIRST +
    COUNT - 1`` (``argv``), each program compared (:func:`assert_same`);
    prints each seed that differs (or that the rewrite fails on), and the
    count. The number that differ."""
    first, count = (int(arg) for arg in argv[:2])
    failed = 0
    for seed in range(first, first + count):
        try:
            assert_same(program(seed), check_names=check_names)
        except AssertionError as error:
            failed += 1
            print(f"seed {seed}: {str(error).splitlines()[0]}")
        except Exception as error:  # noqa: BLE001  (the rewrite failed: counted, and the run goes on)
            failed += 1
            print(f"seed {seed}: {type(error).__name__}: {error}")
    print(f"{count} programs, {failed} differ")
    return failed
