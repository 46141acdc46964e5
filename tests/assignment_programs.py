"""Random assignments whose every step is logged, for
``tests/test_assignment_programs.py``.

Each program runs statements that store to names, attributes, items and
slices, in tuple and list targets with a starred one, chained (``a = b[i] =
v``), augmented (``t.x += v``), annotated, in ``for`` and ``with``
targets, in a walrus and through ``del``; every value, key and object comes
from a call that logs it, and the objects log ``__getitem__``,
``__setitem__``, ``__delitem__``, ``__getattr__``-free attribute stores and
deletes, ``__iter__``/``__next__`` and the in-place operators. Iterables may
hold too few or too many items, and a step may raise; the program prints the
log and the error, if any, after each statement. So the order of evaluation
and of stores, and where an error stops them, are compared.

    python tests/assignment_programs.py 1000 2000   # seeds 1000 to 2999, each compared
"""

from __future__ import annotations

import random

from difftest import Writer, first_compiling

HEADER = '''\
log = []
def v(tag, value=None):
    log.append(("v", tag))
    return tag if value is None else value
class Box:
    def __init__(self, tag):
        object.__setattr__(self, "tag", tag)
        object.__setattr__(self, "items", {})
    def __setattr__(self, name, value):
        log.append(("setattr", self.tag, name, value))
        if name == "bad":
            raise AttributeError(name)
        object.__setattr__(self, name, value)
    def __delattr__(self, name):
        log.append(("delattr", self.tag, name))
        object.__delattr__(self, name)
    def __getitem__(self, key):
        log.append(("getitem", self.tag, key))
        return self.items[key]
    def __setitem__(self, key, value):
        log.append(("setitem", self.tag, key, value))
        self.items[key] = value
    def __delitem__(self, key):
        log.append(("delitem", self.tag, key))
        del self.items[key]
    def __iadd__(self, other):
        log.append(("iadd", self.tag, other))
        return self
    def __repr__(self):
        return f"Box({self.tag})"
class Seq:
    def __init__(self, tag, count):
        self.tag, self.count = tag, count
    def __iter__(self):
        log.append(("iter", self.tag))
        return (v((self.tag, i)) for i in range(self.count))
    def __repr__(self):
        return f"Seq({self.tag})"
boxes = [Box(i) for i in range(3)]
def box(i):
    log.append(("box", i))
    return boxes[i]
def step(tag, statement):
    del log[:]
    try:
        statement()
        print(tag, "ok", log)
    except Exception as error:
        print(tag, type(error).__name__, error, log)
'''


class _Writer(Writer):
    """Writes statements from a seeded random source."""

    def value(self) -> str:
        rng = self.rng
        choice = rng.random()
        if choice < 0.6:
            return f"v({self.next_tag()})"
        if choice < 0.8:
            return f"box({rng.randint(0, 2)})[v({rng.randint(0, 3)})]"  # may raise KeyError
        return f"Seq({self.next_tag()}, {rng.randint(0, 3)})"

    def target(self, depth: int = 0, starred: bool = False) -> str:
        rng = self.rng
        choice = rng.random() * (0.7 if depth > 1 else 1.0)
        if choice < 0.25:
            return rng.choice(["a", "b", "c"])
        if choice < 0.45:
            return f"box({rng.randint(0, 2)}).{rng.choice(['x', 'y', 'bad'])}"
        if choice < 0.65:
            return f"box({rng.randint(0, 2)})[v({rng.randint(0, 3)})]"
        if choice < 0.7:
            return f"box({rng.randint(0, 2)})[v(1):v(2)]"
        items = [self.target(depth + 1) for _ in range(rng.randint(1, 3))]
        if rng.random() < 0.4:
            items.insert(rng.randrange(len(items) + 1), "*" + rng.choice(["a", "b", "c"]))
        text = ", ".join(items)
        return f"[{text}]" if rng.random() < 0.5 else f"({text},)"

    def statement(self) -> str:
        rng = self.rng
        choice = rng.random()
        if choice < 0.35:
            return f"{self.target()} = {self.sequence()}"
        if choice < 0.5:
            return f"{self.target()} = {self.target()} = {self.sequence()}"
        if choice < 0.65:
            target = rng.choice([f"box({rng.randint(0, 2)}).x", f"box({rng.randint(0, 2)})[v(0)]",
                                 "a", f"boxes[v({rng.randint(0, 2)})]"])
            return f"{target} += {self.value()}"
        if choice < 0.72:
            return f"{self.target(2)}: int = {self.value()}"
        if choice < 0.82:
            return f"for {self.target()} in {self.sequence()}, {self.sequence()}: v('body')"
        if choice < 0.9:
            return f"del {', '.join(self.target(2) for _ in range(rng.randint(1, 2)))}"
        return f"v('walrus', (a := {self.value()}))"

    def sequence(self) -> str:
        """A value to unpack: a tuple of values, a ``Seq`` or a value."""
        rng = self.rng
        choice = rng.random()
        if choice < 0.5:
            return f"({', '.join(self.value() for _ in range(rng.randint(1, 4)))},)"
        if choice < 0.8:
            return f"Seq({self.next_tag()}, {rng.randint(0, 4)})"
        return self.value()


def program(seed: int) -> str:
    """The program of ``seed``: the first draw from it that CPython compiles
    (an annotated target may be a name the functions declare ``global``)."""
    return first_compiling(_draw, seed, 100)


def _draw(rng: random.Random) -> str:
    """Statements, each run inside a function and at module level."""
    writer = _Writer(rng)
    lines = []
    for number in range(rng.randint(4, 8)):
        statement = writer.statement()
        lines.append(f"def s{number}():\n    global a, b, c\n    {statement}\n"
                     f"step({number}, s{number})\n"
                     f"del log[:]\ntry:\n    {statement}\nexcept Exception as error:\n"
                     f"    print('module', {number}, type(error).__name__, error, log)\n")
    return HEADER + "a = b = c = 0\n" + "".join(lines) + \
        "print(a, b, c, [(x.tag, x.items, vars(x)) for x in boxes])\n"


if __name__ == "__main__":
    import sys

    from difftest import compare_seeds

    compare_seeds(program, sys.argv[1:])
