"""Random functions that raise, catch, chain and raise again, for
``tests/test_exception_programs.py``.

Each program defines ``f(k)`` from ``try`` with typed, bare and named
handlers, ``else`` and ``finally``, ``with`` over a context manager that
may swallow or replace the error, ``raise X``, ``raise X from Y``, ``raise X
from None``, a bare ``raise`` and the ``raise`` of a caught error kept in a
variable, in bodies, handlers and final blocks; every handler and final
block prints the exception being handled (``sys.exc_info()``) with its
whole chain: the type and message of each ``__context__`` and ``__cause__``
and ``__suppress_context__``. The function is called for ``k`` in
``range(4)`` and its result or error (with its chain) printed.

    python tests/exception_programs.py 1000 2000   # seeds 1000 to 2999, each compared
"""

from __future__ import annotations

import random

from difftest import Writer, first_compiling

HEADER = '''\
import contextlib, sys
def chain(error, depth=0):
    if error is None or depth > 4:
        return None
    return (type(error).__name__, str(error), chain(error.__cause__, depth + 1),
            chain(error.__context__, depth + 1), error.__suppress_context__)
def seen(tag):
    print(tag, chain(sys.exc_info()[1]))
@contextlib.contextmanager
def cm(tag, mode):
    try:
        yield tag
    except KeyError as error:
        seen(("cm", tag))
        if mode == 1:
            return
        if mode == 2:
            raise ValueError(tag) from error
        raise
    finally:
        seen(("cm-exit", tag))
'''

ERRORS = ("KeyError", "ValueError", "TypeError")


class _Writer(Writer):
    """Writes one function body from a seeded random source."""

    def raise_(self, names: list[str], in_handler: bool) -> str:
        rng, tag = self.rng, self.next_tag()
        error = f"{rng.choice(ERRORS)}({tag})"
        choice = rng.random()
        if in_handler and choice < 0.25:
            return "raise"
        if names and choice < 0.4:
            return f"raise {rng.choice(names)}"
        if choice < 0.55:
            return f"raise {error} from {rng.choice(ERRORS)}({tag + 100})"
        if choice < 0.65:
            return f"raise {error} from None"
        if names and choice < 0.75:
            return f"raise {error} from {rng.choice(names)}"
        return f"raise {error}"

    def block(self, depth: int, indent: int, names: list[str], in_handler: bool) -> str:
        return "".join(self.statement(depth, indent, names, in_handler)
                       for _ in range(self.rng.randint(1, 3)))

    def statement(self, depth: int, indent: int, names: list[str], in_handler: bool) -> str:
        rng, pad = self.rng, "    " * indent
        choice = rng.random() * (0.45 if depth > 2 else 1.0)
        if choice < 0.15:
            return f"{pad}seen({self.next_tag()})\n"
        if choice < 0.3:
            return f"{pad}if k % {rng.randint(2, 3)} == {rng.randint(0, 1)}:\n" \
                   f"{pad}    {self.raise_(names, in_handler)}\n"
        if choice < 0.4 and in_handler:  # (elsewhere a raise is conditional: the rest runs too)
            return f"{pad}{self.raise_(names, in_handler)}\n"
        if choice < 0.5:
            return f"{pad}if k == {rng.randint(0, 3)}:\n{pad}    return {self.next_tag()}\n"
        if choice < 0.62:
            mode = rng.randint(0, 2)
            return f"{pad}with cm({self.next_tag()}, {mode}):\n" \
                   + self.block(depth + 1, indent + 1, names, in_handler)
        return self.try_(depth, indent, names, in_handler)

    def try_(self, depth: int, indent: int, names: list[str], in_handler: bool) -> str:
        rng, pad = self.rng, "    " * indent
        text = f"{pad}try:\n" + self.block(depth + 1, indent + 1, names, in_handler)
        kinds = rng.sample([*ERRORS, ""], rng.randint(0, 2))
        kinds.sort(key=lambda kind: kind == "")  # a bare except comes last
        for kind in kinds:
            name = f"e{depth}" if kind and rng.random() < 0.6 else ""
            text += f"{pad}except{' ' + kind if kind else ''}{' as ' + name if name else ''}:\n"
            text += f"{pad}    seen(('handler', {self.next_tag()}))\n"
            inner = [*names, name] if name else names
            text += self.block(depth + 1, indent + 1, inner, True)
        if kinds and rng.random() < 0.3:
            text += f"{pad}else:\n" + self.block(depth + 1, indent + 1, names, in_handler)
        if not kinds or rng.random() < 0.4:
            text += f"{pad}finally:\n{pad}    seen(('finally', {self.next_tag()}))\n"
            text += self.block(depth + 1, indent + 1, names, in_handler)
        return text


def program(seed: int) -> str:
    """The program of ``seed``: the first draw from it that CPython compiles
    (a ``raise e`` may name a variable no handler around it bound)."""
    return first_compiling(_draw, seed, 100)


def _draw(rng: random.Random) -> str:
    return HEADER + "def f(k):\n" + _Writer(rng).block(0, 1, [], False) + """\
for k in range(4):
    try:
        print(k, "returned", f(k))
    except Exception as error:
        print(k, "raised", chain(error))
    print(k, "after", chain(sys.exc_info()[1]))
"""


if __name__ == "__main__":
    import sys

    from difftest import compare_seeds

    compare_seeds(program, sys.argv[1:], check_names=False)
