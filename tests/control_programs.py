"""Random functions of nested control flow whose expressions may raise, for
``tests/test_control_programs.py``.

Each program defines ``f(k)`` (a plain function, a generator that also
yields, or a coroutine that awaits) from ``if``/``else``, ``for``/``else``,
``while``/``else``, ``try`` with typed, bare and named handlers, ``else``
and ``finally``, ``with`` (and in a coroutine ``async with``) over a context
manager that swallows ``KeyError``, ``return``/``yield`` of values that may
raise (``10 // z(k)``, ``boom(k)``, ``await aboom(k)``), ``break``/``continue``
(in loops, ``finally`` blocks included) and ``raise``; calls it for ``k`` in ``range(6)``, and prints
each result or error with the log of what ran. A generator is resumed after
its first value by ``next``, ``throw`` or ``close``, by ``k``. The shapes that real code
rarely writes and that a rewrite of control flow most easily gets wrong come
up often: a jump out of a ``finally``, a ``return`` whose value raises inside
a handler, a ``with`` that swallows the error of a jump's value.

    python tests/control_programs.py 1000 2000   # seeds 1000 to 2999, each compared
"""

from __future__ import annotations

import random

from difftest import Writer

HEADER = '''\
import contextlib
log = []
def z(k):
    log.append(("z", k))
    return k % 3
def boom(k):
    log.append(("boom", k))
    if k % 4 == 0:
        raise KeyError(k)
    return k
@contextlib.contextmanager
def cm(tag):
    log.append(("enter", tag))
    try:
        yield tag
    except KeyError:
        log.append(("swallowed", tag))
    finally:
        log.append(("exit", tag))
class ACM:
    def __init__(self, tag):
        self.tag = tag
    async def __aenter__(self):
        log.append(("aenter", self.tag))
        return self.tag
    async def __aexit__(self, kind, error, traceback):
        log.append(("aexit", self.tag, kind and kind.__name__))
        return kind is KeyError
async def aboom(k):
    log.append(("aboom", k))
    return boom(k)
def drain(generator, k):
    """The values of ``generator``: after the first, ``k % 3`` picks what
    follows: the rest, a ``ValueError`` thrown in, or ``close()``."""
    out = [next(generator)]
    if k % 3 == 1:
        out.append(generator.throw(ValueError("thrown")))
    elif k % 3 == 2:
        generator.close()
        return out
    out.extend(generator)
    return out
def drive(coroutine):
    try:
        while True:
            coroutine.send(None)
    except StopIteration as stop:
        return stop.value
'''


class _Writer(Writer):
    """Writes one function body from a seeded random source."""

    def __init__(self, rng: random.Random, kind: str) -> None:
        super().__init__(rng)
        self.generator = kind == "generator"
        self.coroutine = kind == "coroutine"

    def value(self) -> str:
        """A value that may raise: ``ZeroDivisionError`` or ``KeyError``."""
        choice = self.rng.random()
        if self.coroutine and choice < 0.2:
            return f"await aboom(k + {self.next_tag()})"
        if choice < 0.3:
            return f"10 // z(k + {self.next_tag()})"
        if choice < 0.6:
            return f"boom(k + {self.next_tag()})"
        return f"k + {self.next_tag()}"

    def block(self, depth: int, loop: bool, indent: int) -> str:
        return "".join(self.statement(depth, loop, indent) for _ in range(self.rng.randint(1, 3)))

    def statement(self, depth: int, loop: bool, indent: int) -> str:
        pad = "    " * indent
        choice = self.rng.random() * (0.45 if depth > 3 else 1.0)
        inner = depth + 1, indent + 1
        if choice < 0.12:
            return f"{pad}log.append({self.next_tag()})\n"
        if choice < 0.2:
            return f"{pad}k = {self.value()}\n"
        if choice < 0.3:
            word = "yield" if self.generator and self.rng.random() < 0.5 else "return"
            return f"{pad}{word} {self.value()}\n"
        if choice < 0.36 and loop:
            return f"{pad}{self.rng.choice(['break', 'continue'])}\n"
        if choice < 0.4:
            return f"{pad}raise {self.rng.choice(['KeyError', 'ValueError'])}({self.next_tag()})\n"
        if choice < 0.5:
            text = f"{pad}if {self.value()} % 2:\n" + self.block(inner[0], loop, inner[1])
            if self.rng.random() < 0.5:
                text += f"{pad}else:\n" + self.block(inner[0], loop, inner[1])
            return text
        if choice < 0.62:
            text = f"{pad}for i{depth} in range({self.rng.randint(0, 3)}):\n"
            text += self.block(inner[0], True, inner[1])
            if self.rng.random() < 0.3:
                text += f"{pad}else:\n" + self.block(inner[0], loop, inner[1])
            return text
        if choice < 0.7:
            manager = "async with ACM" if self.coroutine and self.rng.random() < 0.5 else "with cm"
            return f"{pad}{manager}({self.next_tag()}):\n" + self.block(inner[0], loop, inner[1])
        if choice < 0.76:
            count = f"n{depth}"
            text = f"{pad}{count} = {self.rng.randint(0, 2)}\n{pad}while {count}:\n{pad}    {count} -= 1\n"
            text += self.block(inner[0], True, inner[1])
            if self.rng.random() < 0.3:
                text += f"{pad}else:\n" + self.block(inner[0], loop, inner[1])
            return text
        return self.try_statement(depth, loop, indent)

    def try_statement(self, depth: int, loop: bool, indent: int) -> str:
        pad = "    " * indent
        inner = depth + 1, indent + 1
        text = f"{pad}try:\n" + self.block(inner[0], loop, inner[1])
        kinds = self.rng.sample(["KeyError", "ValueError", "ZeroDivisionError", ""], self.rng.randint(0, 2))
        kinds.sort(key=lambda kind: kind == "")  # a bare except comes last
        for kind in kinds:
            name = f" as e{depth}" if kind and self.rng.random() < 0.5 else ""
            text += f"{pad}except{' ' + kind if kind else ''}{name}:\n"
            text += self.block(inner[0], loop, inner[1])
            if name and self.rng.random() < 0.15:
                text += f"{pad}    raise e{depth}\n"
        if kinds and self.rng.random() < 0.3:
            text += f"{pad}else:\n" + self.block(inner[0], loop, inner[1])
        if not kinds or self.rng.random() < 0.4:
            text += f"{pad}finally:\n" + self.block(inner[0], loop, inner[1])
        return text


def program(seed: int) -> str:
    """The program of ``seed``."""
    rng = random.Random(seed)
    kind = rng.choice(["function", "function", "generator", "coroutine"])
    body = _Writer(rng, kind).block(0, False, 1)
    head = "async def" if kind == "coroutine" else "def"
    tail = "    yield -1\n" if kind == "generator" else ""
    call = {"function": "f(k)", "generator": "drain(f(k), k)", "coroutine": "drive(f(k))"}[kind]
    return HEADER + f"{head} f(k):\n" + body + tail + f"""\
for k in range(6):
    del log[:]
    try:
        r = {call}
    except Exception as exc:
        r = (type(exc).__name__, str(exc))
    print(k, r, log)
"""


if __name__ == "__main__":
    import sys
    import warnings

    from difftest import compare_seeds

    warnings.simplefilter("ignore")  # (a jump out of finally warns from 3.14)
    compare_seeds(program, sys.argv[1:], check_names=False)
