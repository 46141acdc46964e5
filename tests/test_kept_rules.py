"""Every rule may be kept alone (``--keep RULE``): the output still compiles
and behaves as the input, on a module that uses every construct."""

from __future__ import annotations

import sys

import pytest

from tests.difftest import assert_same
from unsugar.options import check_keep
from unsugar.registry import load_all

EVERY_CONSTRUCT = r'''"""Every construct, printed."""
from __future__ import annotations

import asyncio
import warnings
from collections import OrderedDict as Ordered
from os.path import *  # noqa: F403

total: int = 0
counter = 0


def decorate(function):
    return function


class Base:
    """A base."""
    kind = "base"

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        print("subclass", cls.__name__)


@decorate
class Point(Base):
    __slots__ = ("x", "y")

    def __init__(self, x, y=2, *rest, scale=1, **extra):
        self.x, self.y = x * scale, y
        self.extra = None if not extra else extra
        del self.extra

    def __repr__(self):
        return f"Point({self.x!r}, {self.y:>3}, {self.x + self.y = })"


def counting(n):
    global counter
    i = 0
    while i < n:
        i += 1
        if i % 2 == 0:
            continue
        if i > 7:
            break
        counter += i
    else:
        print("no break")
    for j in range(3):
        pass
    else:
        print("for else", j)
    return i


def generated(n):
    received = yield n
    yield from range(received or 2)
    return "done"


def searching(rows):
    with Managed():
        for row in rows:
            if row == 9:
                return "nine"
            if row == 3:
                break
            print("row", row)
        else:
            print("no break")
        i = 0
        while i < 5:
            i += 1
            if i == 4:
                return "four"
    return "done"


def closure():
    value = 1

    def inner():
        nonlocal value
        value <<= 2
        return value
    return inner


def matching(subject):
    match subject:
        case [1, *rest]:
            return ("list", rest)
        case {"k": v, **others}:
            return ("dict", v, others)
        case Point(x=0):
            return "origin"
        case int(n) if n > 5:
            return n
        case "a" | "b":
            return "letter"
        case _:
            return None


def errors():
    try:
        raise ValueError("v") from KeyError("k")
    except (KeyError, ValueError) as error:
        print(type(error.__cause__).__name__)
    else:
        print("no error")
    finally:
        print("finally")
    try:
        raise ExceptionGroup("g", [OSError(1), TypeError(2)])
    except* OSError as group:
        print("os", len(group.exceptions))
    except* TypeError:
        print("type")
    assert counter >= 0, "negative"


class Managed:
    def __enter__(self):
        print("enter")
        return self

    def __exit__(self, *exc):
        print("exit", exc[0])
        return True

    async def __aenter__(self):
        return self

    async def __aexit__(self, *exc):
        print("aexit")


async def ticks(n):
    for i in range(n):
        await asyncio.sleep(0)
        yield i


async def finishing(items):
    await asyncio.sleep(0)
    try:
        return len(items)
    finally:
        items.clear()


async def main():
    print("finishing", await finishing([1, 2]))
    async with Managed() as m:
        values = [v async for v in ticks(3)]
    async for v in ticks(2):
        print("tick", v)
    return values, await asyncio.sleep(0, "slept"), m is not None


point = Point(1, scale=3, other=5)
print(point, repr(point))
print(counting(10), counter)
g = generated(3)
print(next(g), g.send(2), list(g))
print(closure()())
print(searching([1, 9, 3]), searching([1, 3, 9]), searching([1, 2]))
for subject in [[1, 2, 3], {"k": 1, "z": 2}, Point(0, 0), 9, "b", 2.5]:
    print(matching(subject))
errors()
with Managed() as m:
    raise KeyError("swallowed")
print(asyncio.run(main()))
data = {"a": 1, **{"b": 2}}
items = [*range(3), 4]
squares = {x: x ** 2 for x in items if x}
print(data, items, squares, {x % 3 for x in items}, tuple(x for x in items))
print(1 + 2 - 3 * 4 / 5 // 1 % 7, 2 ** 10, 7 @ 1 if False else -(~5), +3, 6 & 3 | 8 ^ 1, 1 << 3 >> 1)
print(1 < 2 <= 3 != 4 == 4 > 0 >= 0, 1 in items, 9 not in items, None is None, point is not None)
print(not 0, 0 or 5, 3 and 4, 0x1F, 1_000, 1.5e3, 2j, b"by\x00tes", "str", ..., True, False)
print(items[1:3], items[::-1], items[0], data["a"], point.x)
x = y = 5
x += 1
first, *middle, last = "abcde"
print(x, y, first, middle, last)
(w := 10)
print(w, (lambda a, b=2: a + b)(1), sorted(items, key=lambda v: -v))
text = f"{x:{y}}|{'nested'!s:^10}|{3.14159:.2f}"
print(text)
del x, data["a"]
print(Ordered(a=1), "x" in dir(), "__builtins__" in locals())
if total:
    pass
elif counter:
    print("elif")
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    warnings.warn("careful", stacklevel=1)
print(len(caught), caught[0].category.__name__)
globals().pop("__warningregistry__")  # (its version counts the filters changed in the process)
print(sorted(name for name in list(globals()) if not name.startswith("_")))
'''


@pytest.mark.parametrize("semantics", ["python", "native"])
@pytest.mark.parametrize("rule_id", sorted(load_all()))
def test_a_rule_kept_alone(rule_id: str, semantics: str) -> None:
    assert_same(EVERY_CONSTRUCT, keep=(rule_id,), semantics=semantics)


KEPT_TOGETHER = {
    "async": ("yield-from", "async-def", "await", "async-with", "async-for", "async-generator"),
    "control_flow": ("if", "for", "while-else", "break", "continue", "try-finally", "try-else", "with"),
    "names": ("global", "del-name", "walrus", "unpack", "augassign", "import-from"),
}


@pytest.mark.parametrize("keep", KEPT_TOGETHER.values(), ids=KEPT_TOGETHER.keys())
def test_rules_kept_together(keep: tuple[str, ...]) -> None:
    assert_same(EVERY_CONSTRUCT, keep=keep)


def test_a_rule_kept_keeps_the_rules_its_sugar_needs() -> None:
    assert check_keep(["await"]) == {"await", "async-def", "async-generator"}
    assert check_keep(["docstring"]) == {"docstring", "class", "global"}


#: A class body that binds names through each rule's sugar, which stays when
#: the rule is kept: CPython binds them in the class's namespace.
CLASS_BINDINGS = {
    "for": "for i in range(3):\n        pass",
    "with": "with open(__file__) as fh:\n        pass",
    "import": "import os.path as p",
    "import-from": "from os import path as q, sep",
    "except": "try:\n        1 / 0\n    except ZeroDivisionError as e:\n        kind = type(e).__name__",
    "except-star": "try:\n        raise ExceptionGroup('g', [ValueError(1)])\n"
                   "    except* ValueError as eg:\n        n = len(eg.exceptions)",
    "decorator": "@staticmethod\n    def f(x=1):\n        return x",
    "unpack": "a, (b, *c) = 1, (2, 3, 4)\n    for d, e in [(5, 6)]:\n        pass",
    "chained-assign": "a = b = 3",
    "augassign": "n = 1\n    n += 5",
    "annassign": "a: int = 3\n    b: str",
    "match": "match (1, 2):\n        case (p, q):\n            pass",
    "walrus": "x = (y := 4) + 1",
    "del-name": "a = 1\n    b = 2\n    del a",
    "del-targets": "a = b = c = 1\n    del a, b",
}


@pytest.mark.parametrize("rule_id", sorted(CLASS_BINDINGS))
def test_names_a_class_body_binds_through_sugar_kept(rule_id: str) -> None:
    """The class stays a class (its body made a def would bind them as its own
    variables); the compiler's temporaries in it are class attributes too
    (Known limitations), left out here."""
    assert_same(f"""
class C:
    {CLASS_BINDINGS[rule_id]}
names = sorted(name for name in vars(C) if not name.startswith(("__", "_us")))
values = [vars(C)[name] for name in names]
print(names, [v if isinstance(v, int | str | list) else type(v).__name__ for v in values],
      vars(C).get("__annotations__"))
""", keep=(rule_id,))


@pytest.mark.skipif(sys.version_info < (3, 12), reason="type parameters and aliases are 3.12's")
@pytest.mark.parametrize("rule_id, body", [
    ("generic-class", "class D[T]:\n        pass"),
    ("type-alias", "type A = int"),
])
def test_names_a_class_body_binds_through_type_parameter_sugar_kept(rule_id: str, body: str) -> None:
    assert_same(f"class C:\n    {body}\nprint(sorted(name for name in vars(C) if not name.startswith('__')))\n",
                keep=(rule_id,))
