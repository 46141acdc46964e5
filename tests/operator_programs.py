"""Random classes whose special methods answer, decline or raise, and the
operators applied to their instances and to built-in values, for
``tests/test_operator_programs.py``.

Each program defines three classes: ``A``, ``B(A)`` and ``C``, each with a
random set of special methods (binary, reflected and in-place arithmetic,
rich comparisons, ``__contains__``, ``__iter__``, ``__getitem__``,
``__len__``, ``__bool__``, ``__index__``, unary operators, ``__hash__``);
each method logs its call and returns a value, returns ``NotImplemented`` or
raises, and some are set to ``None``. ``B`` overrides some of ``A``'s
methods (the reflected one first rule depends on it). Then every expression
of a random list (binary and augmented operators, comparisons, ``in``,
``not``, truth tests, unary operators, ``bool``, ``len``, indexing by an
object, ``hash``) is printed with its value or its error, and the log. So
which method is called, in which order, and every message are compared.

    python tests/operator_programs.py 1000 2000   # seeds 1000 to 2999, each compared
"""

from __future__ import annotations

import random

from difftest import Writer

HEADER = '''\
log = []
def show(tag, run):
    del log[:]
    try:
        value = run()
        print(tag, "=", value if not isinstance(value, (A, C)) else type(value).__name__, log)
    except Exception as error:
        print(tag, type(error).__name__, error, log)
'''

BINARY = ["add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "lshift", "and", "or", "xor", "matmul"]
SYMBOLS = {"add": "+", "sub": "-", "mul": "*", "truediv": "/", "floordiv": "//", "mod": "%",
           "pow": "**", "lshift": "<<", "and": "&", "or": "|", "xor": "^", "matmul": "@"}
COMPARE = {"eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">="}
UNARY = {"neg": "-", "pos": "+", "invert": "~"}


class _Writer(Writer):
    """Writes the classes and the expressions from a seeded random source."""

    def method(self, cls: str, name: str, parameters: str) -> list[str]:
        """A special method that logs its call, then answers, declines or raises."""
        rng = self.rng
        tag = self.next_tag()
        choice = rng.random()
        if choice < 0.08:
            return [f"    __{name}__ = None"]
        if name in ("bool", "len", "index", "hash"):
            value = {"bool": rng.choice(["True", "False", "1"]), "len": rng.choice(["0", "2", "-1"]),
                     "index": rng.choice(["1", "0", "'x'"]), "hash": "7"}[name]
        elif name in ("iter",):
            value = "iter([1, 2])"
        elif name == "getitem":
            value = "(other if not isinstance(other, int) or other < 2 else self.fail(IndexError))"
        elif choice < 0.35:
            value = "NotImplemented"
        elif choice < 0.45:
            value = "self.fail(ValueError)"
        else:
            value = rng.choice([f"'{cls}.{name}'", "self", "0", "1"])
        return [f"    def __{name}__(self{parameters}):",
                f"        log.append(('{cls}', '{name}', {tag}{', type(other).__name__' if parameters else ''}))",
                f"        return {value}"]

    def cls(self, name: str, base: str, names: list[str]) -> str:
        lines = [f"class {name}({base}):",
                 "    def fail(self, kind):", f"        raise kind('{name}')",
                 "    def __repr__(self):", f"        return '{name}()'"]
        for method in names:
            single = method in ("bool", "len", "index", "hash", "iter") or method in UNARY
            lines += self.method(name, method, "" if single else ", other")
        return "\n".join(lines) + "\n"

    def methods(self) -> list[str]:
        rng = self.rng
        pool = [*BINARY[:6], *("r" + name for name in BINARY[:6]), *("i" + name for name in BINARY[:3]),
                *COMPARE, "contains", "iter", "getitem", "len", "bool", "index", "hash", *UNARY]
        return rng.sample(pool, rng.randint(4, 14))

    def operand(self) -> str:
        return self.rng.choice(["a", "b", "c", "a", "b", "1", "2.5", "'s'", "[1]", "None", "True"])

    def expression(self) -> str:
        rng = self.rng
        x, y = self.operand(), self.operand()
        choice = rng.random()
        if choice < 0.4:
            return f"{x} {SYMBOLS[rng.choice(BINARY)]} {y}"
        if choice < 0.65:
            return f"{x} {rng.choice(list(COMPARE.values()))} {y}"
        if choice < 0.72:
            return f"{x} {rng.choice(['in', 'not in'])} {y}"
        if choice < 0.8:
            return f"{rng.choice(list(UNARY.values()))}{x}"
        if choice < 0.9:
            return rng.choice([f"not {x}", f"bool({x})", f"len({x})", f"hash({x}) == hash({x})", f"[10, 20, 30][{x}]",
                               f"(1 if {x} else 2)", f"{x} and {y}", f"list({x})"])
        return ""

    def statement(self, number: int) -> str:
        rng = self.rng
        text = self.expression()
        if text:
            return f"show({number}, lambda: {text})\n"
        target = rng.choice(["a", "b", "c", "n"])
        op = SYMBOLS[rng.choice(BINARY)]
        return (f"def aug{number}():\n    global {target}\n    {target} {op}= {self.operand()}\n"
                f"    return {target}\nshow({number}, aug{number})\n")


def program(seed: int) -> str:
    """The program of ``seed``."""
    rng = random.Random(seed)
    writer = _Writer(rng)
    a_methods = writer.methods()
    b_methods = [name for name in a_methods if rng.random() < 0.4] + writer.methods()
    parts = [HEADER,
             writer.cls("A", "", a_methods),
             writer.cls("B", "A", list(dict.fromkeys(b_methods))),
             writer.cls("C", "", writer.methods()),
             "a, b, c, n = A(), B(), C(), 3\n"]
    parts += [writer.statement(number) for number in range(rng.randint(10, 25))]
    return "".join(parts)


if __name__ == "__main__":
    import sys

    from difftest import compare_seeds

    compare_seeds(program, sys.argv[1:])
