"""Random ``match`` statements whose every protocol step is logged, for
``tests/test_match_programs.py``.

Each program matches subjects of every kind against random patterns: literal,
capture, wildcard, value (``K.ONE``), sequence (with and without a star),
mapping (with ``**rest``), class (positional through ``__match_args__`` and
by keyword, on a class whose metaclass logs ``__instancecheck__`` and on
the builtins that match themselves), or- and as-patterns, and guards. The
subjects log ``__len__``, ``__getitem__``, ``__iter__``, ``keys``, ``get``,
``__eq__`` and each attribute a class pattern reads, and some of these
raise. After each match the program prints the case taken, the log, the
error if any, and the value of every name a pattern may bind (or
``unbound``). So the order of the steps, where a failing step stops them,
and which names a failed case leaves bound, are compared.

    python tests/match_programs.py 1000 2000   # seeds 1000 to 2999, each compared
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from difftest import Writer, first_compiling

HEADER = '''\
import collections.abc
log = []
class Seq(collections.abc.Sequence):
    def __init__(self, tag, items, bad=None):
        self.tag, self.items, self.bad = tag, items, bad
    def __len__(self):
        log.append(("len", self.tag))
        return len(self.items)
    def __getitem__(self, index):
        log.append(("getitem", self.tag, index))
        if index == self.bad:
            raise LookupError(self.tag)
        return self.items[index]
    def __iter__(self):
        log.append(("iter", self.tag))
        return iter(self.items)
    def __repr__(self):
        return f"Seq({self.tag})"
class Map(collections.abc.Mapping):
    def __init__(self, tag, items, bad=None):
        self.tag, self.items, self.bad = tag, items, bad
    def __len__(self):
        log.append(("len", self.tag))
        return len(self.items)
    def __getitem__(self, key):
        log.append(("getitem", self.tag, key))
        return self.items[key]
    def __iter__(self):
        log.append(("iter", self.tag))
        return iter(self.items)
    def keys(self):
        log.append(("keys", self.tag))
        return self.items.keys()
    def get(self, key, default=None):
        log.append(("get", self.tag, key))
        if key == self.bad:
            raise KeyError(self.tag)
        return self.items.get(key, default)
    def __repr__(self):
        return f"Map({self.tag})"
class Meta(type):
    def __instancecheck__(cls, obj):
        log.append(("isinstance", cls.__name__, repr(obj)))
        return type.__instancecheck__(cls, obj)
class Point(metaclass=Meta):
    __match_args__ = ("x", "y")
    def __init__(self, tag, x, y, z=None):
        self.tag, self._x, self._y, self._z = tag, x, y, z
    @property
    def x(self):
        log.append(("x", self.tag))
        return self._x
    @property
    def y(self):
        log.append(("y", self.tag))
        if self._y == "bad":
            raise AttributeError("y")
        return self._y
    @property
    def z(self):
        log.append(("z", self.tag))
        return self._z
    def __repr__(self):
        return f"Point({self.tag})"
class Short(Point):
    __match_args__ = ("x",)
class Eq:
    def __init__(self, tag, value):
        self.tag, self.value = tag, value
    def __eq__(self, other):
        log.append(("eq", self.tag, repr(other)))
        if self.value == "bad":
            raise ValueError(self.tag)
        return self.value == other
    __hash__ = None
    def __repr__(self):
        return f"Eq({self.tag})"
class K:
    ONE = Eq("ONE", 1)
    TWO = 2
    NAME = Eq("NAME", "a")
def g(tag, value):
    log.append(("guard", tag))
    return value
def names(scope):
    return {name: scope.get(name, "unbound") for name in ("a", "b", "c", "rest")}
def show(number, subject, run):
    del log[:]
    try:
        taken = run(subject)
        print(number, repr(subject), "case", taken, log)
    except Exception as error:
        print(number, repr(subject), type(error).__name__, error, log)
'''


#: the literal patterns, and subjects that they match
LITERALS = ["1", "'a'", "None", "True", "-1", "1.0", "b'a'"]
#: the keys of mapping subjects and patterns
KEYS = ["1", "'k'", "'m'", "2", "'z'"]


class _Writer(Writer):
    """Writes patterns and subjects from a seeded random source."""

    def pattern(self, depth: int = 0) -> str:
        rng = self.rng
        choice = rng.random() * (0.46 if depth > 1 else 1.0)
        if choice < 0.12:
            return rng.choice(LITERALS)
        if choice < 0.26:
            return rng.choice(["a", "b", "c"])
        if choice < 0.32:
            return "_"
        if choice < 0.4:
            return rng.choice(["K.ONE", "K.TWO", "K.NAME"])
        if choice < 0.46:
            return f"{rng.choice(['int', 'str', 'tuple', 'dict', 'bool'])}({self.maybe_pattern(depth)})"
        if choice < 0.55:
            return f"({self.pattern(depth + 1)}) as {rng.choice(['a', 'b', 'c'])}"
        if choice < 0.72:
            items = [self.pattern(depth + 1) for _ in range(rng.randint(0, 3))]
            if rng.random() < 0.45:
                items.insert(rng.randrange(len(items) + 1), rng.choice(["*_", "*rest", "*a"]))
            text = ", ".join(items)
            return rng.choice([f"[{text}]", f"({text}{',' if len(items) == 1 else ''})"])
        if choice < 0.85:
            items = [f"{rng.choice([*KEYS, 'K.TWO'])}: "
                     f"{self.pattern(depth + 1)}" for _ in range(rng.randint(0, 2))]
            if rng.random() < 0.35:
                items.append("**rest")
            return "{" + ", ".join(items) + "}"
        if choice < 0.95:
            cls = rng.choice(["Point", "Short", "Point", "Seq"])
            arguments = [self.pattern(depth + 1) for _ in range(rng.randint(0, 3))]
            arguments += [f"{name}={self.pattern(depth + 1)}"
                          for name in rng.sample(["x", "y", "z", "tag"], rng.randint(0, 2))]
            return f"{cls}({', '.join(arguments)})"
        return " | ".join(self.pattern(2) for _ in range(rng.randint(2, 3)))

    def case_pattern(self, subject: Shape) -> str:
        """A pattern made for ``subject`` that CPython accepts before another
        case: refutable, no name bound twice, the same names in each
        alternative, no key repeated."""
        while True:
            pattern = self.pattern_for(subject)
            try:
                compile(f"match x:\n case {pattern}:\n  pass\n case 0:\n  pass\n", "<case>", "exec")
            except SyntaxError:
                continue
            return pattern

    def maybe_pattern(self, depth: int) -> str:
        return self.pattern(depth + 1) if self.rng.random() < 0.5 else ""

    def subject(self, depth: int = 0) -> Shape:
        """A subject: its text and its shape, which :meth:`pattern_for` reads."""
        rng = self.rng
        choice = rng.random() * (0.25 if depth > 1 else 1.0)
        if choice < 0.2:
            text = rng.choice(LITERALS + ["2", "0", "'k'"])
            return Shape(text, "literal")
        if choice < 0.25:
            value = rng.choice(["1", "'a'", "'bad'"])
            return Shape(f"Eq({self.next_tag()}, {value})", "eq", value=value)
        if choice < 0.5:
            items = [self.subject(depth + 1) for _ in range(rng.randint(0, 4))]
            text = ", ".join(item.text for item in items)
            kind = rng.random()
            if kind < 0.35:
                text = f"({text}{',' if len(items) == 1 else ''})"
            elif kind < 0.6:
                text = f"[{text}]"
            else:
                bad = rng.choice(["None", "None", "0", "-1", "1"])
                text = f"Seq({self.next_tag()}, [{text}], {bad})"
            return Shape(text, "sequence", items)
        if choice < 0.75:
            keys = rng.sample(KEYS, rng.randint(0, 3))
            values = [self.subject(depth + 1) for _ in keys]
            text = ", ".join(f"{key}: {value.text}" for key, value in zip(keys, values, strict=True))
            if rng.random() < 0.4:
                text = "{" + text + "}"
            else:
                bad = rng.choice(["None", "None", "'k'", "1"])
                text = f"Map({self.next_tag()}, {{{text}}}, {bad})"
            return Shape(text, "mapping", values, keys=keys)
        cls = rng.choice(["Point", "Short"])
        values = [self.subject(depth + 1) for _ in range(3)]
        if rng.random() < 0.2:
            values[1] = Shape("'bad'", "literal")
        return Shape(f"{cls}({self.next_tag()}, {', '.join(value.text for value in values)})",
                     "object", values, cls=cls)

    def pattern_for(self, shape: Shape, depth: int = 0) -> str:
        """A pattern that ``shape`` most often matches, else any pattern."""
        rng = self.rng
        if rng.random() < 0.2:
            return self.pattern(depth + 1)
        if rng.random() < 0.1:
            return f"({self.pattern_for(shape, depth + 1)}) as {rng.choice(['a', 'b', 'c'])}"
        if rng.random() < 0.15:
            return f"{self.pattern(2)} | {self.pattern_for(shape, depth + 1)}"
        if shape.kind == "literal":
            if shape.text in LITERALS and rng.random() < 0.6:
                return shape.text
            return rng.choice(["a", "b", "_", "int()", "str(c)"])
        if shape.kind == "eq":
            return rng.choice(["K.ONE", "K.NAME", "a"])
        if shape.kind == "sequence":
            items = [self.pattern_for(item, depth + 1) for item in shape.items]
            if items and rng.random() < 0.4:
                start = rng.randrange(len(items))
                items[start:rng.randint(start, len(items))] = [rng.choice(["*_", "*rest", "*a"])]
            text = ", ".join(items)
            return rng.choice([f"[{text}]", f"({text}{',' if len(items) == 1 else ''})"])
        if shape.kind == "mapping":
            chosen = rng.sample(range(len(shape.keys)), rng.randint(0, len(shape.keys)))
            items = [f"{shape.keys[i]}: {self.pattern_for(shape.items[i], depth + 1)}" for i in chosen]
            if rng.random() < 0.35:
                items.append("**rest")
            return "{" + ", ".join(items) + "}"
        positional = rng.randint(0, 2 if shape.cls == "Point" else 1)
        arguments = [self.pattern_for(item, depth + 1) for item in shape.items[:positional]]
        for name in rng.sample(["x", "y", "z", "tag"][positional:], rng.randint(0, 2)):
            index = "xyz".find(name)
            arguments.append(f"{name}={self.pattern_for(shape.items[index], depth + 1) if index >= 0 else '_'}")
        return f"{rng.choice([shape.cls, shape.cls, 'Point'])}({', '.join(arguments)})"

    def match(self, indent: str, subjects: list[Shape]) -> list[str]:
        """A ``match`` of ``subject``, each case returning its number; its
        patterns are most often made for one of ``subjects``."""
        rng = self.rng
        lines = [f"{indent}match subject:"]
        cases = rng.randint(1, 4)
        for number in range(cases):
            guard = ""
            if rng.random() < 0.25:
                guard = f" if g({number}, {rng.choice(['True', 'False', 'a', 'subject'])})"
            pattern = self.case_pattern(rng.choice(subjects))
            if number == cases - 1 and rng.random() < 0.2:
                pattern = rng.choice(["_", "a"])
            lines += [f"{indent}    case {pattern}{guard}:", f"{indent}        taken = {number}"]
        return lines


@dataclass
class Shape:
    """A subject's text, and what :meth:`_Writer.pattern_for` needs of it."""

    text: str
    kind: str  # literal, eq, sequence, mapping, object
    items: list[Shape] = field(default_factory=list)
    value: str = ""  # an Eq's value
    keys: list[str] = field(default_factory=list)  # a mapping's, in the order of items
    cls: str = ""  # an object's class


def program(seed: int) -> str:
    """The program of ``seed``: the first draw from it that CPython compiles
    (the names of an or-pattern's alternatives must agree, a name may be
    bound once in a pattern, an irrefutable case must come last)."""
    return first_compiling(_draw, seed, 200)


def _draw(rng: random.Random) -> str:
    """Matches, each in a function (its locals printed) and at module level
    (the module's names printed), over the same subjects."""
    writer = _Writer(rng)
    parts = [HEADER]
    for number in range(rng.randint(2, 4)):
        shapes = [writer.subject() for _ in range(rng.randint(2, 4))]
        match = writer.match("    ", shapes)
        subjects = ", ".join(shape.text for shape in shapes)
        at_module = "\n".join("    " + line for line in match)
        parts.append(
            f"def m{number}(subject):\n    taken = None\n" + "\n".join(match)
            + "\n    return taken, names(locals())\n"
            f"for subject in [{subjects}]:\n    show({number}, subject, m{number})\n"
            f"a = b = c = rest = 'before'\n"
            f"for subject in [{subjects}]:\n    del log[:]\n    taken = None\n    try:\n"
            f"{at_module}\n        print('module', {number}, repr(subject), taken, log, names(globals()))\n"
            f"    except Exception as error:\n"
            f"        print('module', {number}, repr(subject), type(error).__name__, error, log, names(globals()))\n"
        )
    return "".join(parts)


if __name__ == "__main__":
    import sys

    from difftest import compare_seeds

    compare_seeds(program, sys.argv[1:])
