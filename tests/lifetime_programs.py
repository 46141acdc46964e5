"""Random statements over values that print when they die, for
``tests/test_lifetime_programs.py``.

Each program runs a few statements at module level, in a class body, in a
function and in a generator (whose expressions may ``yield``, taken in part
and closed, then to the end); every value is an ``R``, numbered as it is made, whose
``__del__`` prints its number, and after each statement the program prints
a step. So the output
shows where each value died, and a temporary of the output that holds a
value too long, or drops it too soon, shows as a ``del`` printed at another
step. The expressions make values in every position: operands, callees,
arguments (``*`` and ``**`` too), subscripts, conditions, ``and``/``or``,
conditional expressions, chained comparisons, displays, comprehensions,
lambdas, f-strings and walruses; the statements bind, augment, delete, loop
over, enter and raise them, and decorate a def with a default. No value refers to itself, so only reference counts free them.

    python tests/lifetime_programs.py 1000 2000   # seeds 1000 to 2999, each compared
"""

from __future__ import annotations

import random

from difftest import first_compiling

HEADER = '''\
made = [0]
died = []
def say(*args):
    if died:
        print("del", *sorted(died))
        del died[:]
    print(*args)
class R:
    def __init__(self, *parts):
        made[0] += 1
        self.n = made[0]
    def __del__(self, died=died):
        died.append(self.n)
    def __repr__(self):
        return f"R{self.n}"
    def __add__(self, other):
        return R(self, other)
    def __getitem__(self, key):
        return R(key)
    def __bool__(self):
        return self.n % 2 == 1
    def __iter__(self):
        return iter([R(), R()])
    def __enter__(self):
        return R(self)
    def __exit__(self, *exc):
        say("exit", self.n)
        return False
    def m(self, *args, **kwargs):
        return R(*args)
    def __format__(self, spec):
        return f"R{self.n}{spec}"
    def __lt__(self, other):
        return R(self, other)
    def __call__(self, *args):
        return R(*args)
def g(*args, **kwargs):
    return R(*args)
class Stop(Exception):
    pass
'''

NAMES = ("a", "b", "c")


class _Writer:
    """Writes statements from a seeded random source."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.step = 0
        #: expressions may ``yield`` (the body of a generator is being written)
        self.yields = False

    def expr(self, depth: int = 0) -> str:
        """An expression whose value is an ``R``."""
        rng = self.rng
        if self.yields and rng.random() < 0.08:  # (values held across the suspension)
            return f"((yield {self.expr(depth + 1)}) or {self.expr(depth + 1)})"
        choice = rng.random() * (0.3 if depth > 2 else 1.0)
        inner = depth + 1
        if choice < 0.12:
            return "R()"
        if choice < 0.3:
            return rng.choice(NAMES)
        if choice < 0.38:
            return f"({self.expr(inner)} + {self.expr(inner)})"
        if choice < 0.44:
            return f"{self.expr(inner)}[{self.expr(inner)}]"
        if choice < 0.5:
            return f"{self.expr(inner)}.m({self.expr(inner)})"
        if choice < 0.55:
            return f"g(*[{self.expr(inner)}], k={self.expr(inner)})"
        if choice < 0.6:
            return f"g(**{{'k': {self.expr(inner)}}}, j={self.expr(inner)})"
        if choice < 0.65:
            return f"({self.expr(inner)} if {self.expr(inner)} else {self.expr(inner)})"
        if choice < 0.7:
            return f"({self.expr(inner)} {rng.choice(['and', 'or'])} {self.expr(inner)})"
        if choice < 0.75:
            return f"({self.expr(inner)}, {self.expr(inner)})[{rng.randint(0, 1)}]"
        if choice < 0.8:
            return f"{{1: {self.expr(inner)}, 2: {self.expr(inner)}}}[{rng.randint(1, 2)}]"
        if choice < 0.85:
            return f"[x + {self.scoped(inner)} for x in {self.expr(inner)}][{rng.randint(0, 1)}]"
        if choice < 0.89:
            return f"(lambda v: v + {self.scoped(inner)})({self.expr(inner)})"
        if choice < 0.93:
            left, right = rng.choice(NAMES), rng.choice(NAMES)  # (no quotes in an f-string's expressions before 3.12)
            return f"g(f'{{{left}!r:>3}}{{{right} + R()}}{{{right}[R()]:<2}}')"
        if choice < 0.97:
            return f"({rng.choice(NAMES)} := {self.expr(inner)})"
        if choice < 0.985:
            return f"next(iter({self.expr(inner)}))"
        return f"({self.expr(inner)} < {self.expr(inner)} < {self.expr(inner)})"

    def scoped(self, depth: int) -> str:
        """An expression of a scope of its own (a lambda's body, a
        comprehension's element), where a ``yield`` would be the scope's."""
        yields, self.yields = self.yields, False
        try:
            return self.expr(depth)
        finally:
            self.yields = yields

    def statement(self, pad: str, depth: int, in_function: bool) -> str:
        rng, name = self.rng, self.rng.choice(NAMES)
        choice = rng.random() * (0.55 if depth > 1 else 1.0)
        inner = pad + "    "
        if choice < 0.2:
            text = f"{pad}{name} = {self.expr()}\n"
        elif choice < 0.28:
            text = f"{pad}{name} += {self.expr()}\n"
        elif choice < 0.38:
            text = f"{pad}say('value', {self.expr()})\n"
        elif choice < 0.46:
            text = f"{pad}{self.expr()}\n"
        elif choice < 0.5:
            text = f"{pad}del {name}\n{pad}{name} = {self.expr()}\n"
        elif choice < 0.55:
            text = f"{pad}{name}, *rest = {self.expr()}\n{pad}del rest\n"
        elif choice < 0.65:
            text = f"{pad}for x in {self.expr()}:\n{self.block(inner, depth + 1, in_function)}{pad}del x\n"
        elif choice < 0.75:
            text = f"{pad}with {self.expr()} as w:\n{self.block(inner, depth + 1, in_function)}{pad}del w\n"
        elif choice < 0.85:
            text = f"{pad}if {self.expr()}:\n{self.block(inner, depth + 1, in_function)}"
            if rng.random() < 0.5:
                text += f"{pad}else:\n{self.block(inner, depth + 1, in_function)}"
        elif choice < 0.95:
            text = f"{pad}try:\n{inner}raise Stop({self.expr()})\n{pad}except Stop as e:\n" \
                   f"{inner}say('caught', e.args)\n"
            if rng.random() < 0.5:
                text += f"{pad}finally:\n{inner}say('finally', {self.expr()})\n"
        elif choice < 0.975:
            text = f"{pad}@{self.expr()}\n{pad}@{self.expr()}\n{pad}def fn(p={self.expr()}):\n" \
                   f"{inner}return p\n{pad}say('defined', fn)\n{pad}del fn\n"
        else:
            count = f"n{depth}"  # (a loop of its own: one inside cannot reset it)
            text = f"{pad}{count} = 2\n{pad}while {count} and {self.expr()}:\n{inner}{count} -= 1\n" \
                   + self.block(inner, depth + 1, in_function)
        self.step += 1
        return text + f"{pad}say('step', {self.step})\n"

    def block(self, pad: str, depth: int, in_function: bool) -> str:
        return "".join(self.statement(pad, depth, in_function) for _ in range(self.rng.randint(1, 3)))


def program(seed: int) -> str:
    """The program of ``seed``: the first draw from it that CPython compiles (a
    walrus may land in a comprehension's iterable, where it is refused)."""
    return first_compiling(_draw, seed, 100)


def _draw(rng: random.Random) -> str:
    """Statements at module level, in a class body (whose names are its own;
    its comprehensions and lambdas read the module's), then in a function
    (whose names are its own), each ending with the names set to None."""
    writer = _Writer(rng)
    module = writer.block("", 0, False)
    function = writer.block("    ", 0, True)
    end = f"return {writer.expr()}" if rng.random() < 0.5 else "a = b = c = None"
    body = writer.block("    ", 0, False)  # (drawn last: the other parts are as they were)
    writer.yields = True
    generator = writer.block("    ", 0, True)
    writer.yields = False
    taken = rng.randint(0, 3)  # values taken before it is closed (or all)
    return HEADER + f"""\
a, b, c = R(), R(), R()
{module}say('module done')
class K:
    a, b, c = R(), R(), R()
{body}    a = b = c = None
    say('class body done')
say('class made')
a = b = c = None
say('module names cleared')
def main():
    a, b, c = R(), R(), R()
{function}    {end}
say('returned', main())
def gen():
    a, b, c = R(), R(), R()
    yield R()
{generator}    a = b = c = None
    say('generator done')
g = gen()
for _ in range({taken}):
    say('yielded', next(g, None))
g.close()
say('closed')
for v in gen():
    say('item', v)
    v = None
say('end')
"""


if __name__ == "__main__":
    import sys

    from difftest import compare_seeds

    compare_seeds(program, sys.argv[1:], check_names=False)
