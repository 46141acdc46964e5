"""How fast core syntax can be, without unsugar: one loop written by hand four ways.

The loop is nbody's kind of code: attribute loads and stores and float
arithmetic on objects in a list. The ways:

1. ``plain``: as written, what CPython's specialising interpreter runs;
2. ``calls``: operators and attributes as calls of the interpreter's own C
   functions (``_operator.add``, ``getattr``, ``setattr``), which is the
   best any core rendering can do for them (``--semantics=native`` writes
   these calls), loops kept;
3. ``core``: the loops too as the output writes them (``iter``, ``next``
   with an end marker, ``while`` over ``int.__ne__`` of the ids). (Reading
   the helpers from closure cells, as an output does, instead of globals
   changes these figures by a few percent either way.)

Each figure is the best of 7 repeats, side by side in one process; the ratio
to ``plain`` is the floor under ``benchmarks/runtime.py``'s slowdowns for
such code.
"""

from __future__ import annotations

import _operator
import argparse
import sys
import timeit


class Body:
    def __init__(self) -> None:
        self.x = 1.5
        self.v = 0.25


def plain(bodies: list[Body], steps: int) -> None:
    for _ in range(steps):
        for body in bodies:
            body.x = body.x + body.v * 0.01 - 0.001


add, mul, sub = _operator.add, _operator.mul, _operator.sub


def calls(bodies: list[Body], steps: int) -> None:
    for _ in range(steps):
        for body in bodies:
            setattr(body, "x", sub(add(getattr(body, "x"), mul(getattr(body, "v"), 0.01)), 0.001))  # noqa: B009, B010


END = object()
END_ID = id(END)
more = int.__ne__


def core(bodies: list[Body], steps: int) -> None:
    steps_left = iter(range(steps))
    step = next(steps_left, END)
    while more(id(step), END_ID):
        items = iter(bodies)
        body = next(items, END)
        while more(id(body), END_ID):
            setattr(body, "x", sub(add(getattr(body, "x"), mul(getattr(body, "v"), 0.01)), 0.001))  # noqa: B009, B010
            body = next(items, END)
        step = next(steps_left, END)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=200)
    args = parser.parse_args()
    bodies = [Body() for _ in range(100)]
    ways = {"plain": plain, "calls": calls, "core": core}
    best = {name: min(timeit.repeat(lambda f=f: f(bodies, args.steps), number=5, repeat=7))
            for name, f in ways.items()}
    print(f"Python {sys.version.split()[0]}")
    for name, seconds in best.items():
        print(f"{name:6} {seconds * 1000:7.1f} ms  {seconds / best['plain']:4.2f}x")


if __name__ == "__main__":
    main()
