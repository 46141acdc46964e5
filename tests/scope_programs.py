"""Random programs of nested scopes that bind, read and unbind a few names,
for ``tests/test_scope_programs.py``.

Each program is a module whose statements, and those of the functions,
classes, lambdas and comprehensions nested in it, bind the names ``a``, ``b``
and ``c`` (``=``, ``+=``, ``for``, ``with ... as``, ``except ... as``, a
walrus in a comprehension, ``import ... as``), unbind them (``del``), declare
them ``global`` or ``nonlocal``, and read them, each read printing the value
or the ``NameError`` it raised (``UnboundLocalError`` and the free-variable
error included). Functions are called where they are defined, or later
(closures see later bindings); classes print their own names;
``locals()`` prints its keys. Most of these programs are refused by CPython's
compiler (a ``nonlocal`` with nothing to bind, a name used before its
``global``...): a program is drawn again until one compiles.

    python tests/scope_programs.py 1000 2000   # seeds 1000 to 2999, each compared
"""

from __future__ import annotations

import random

from difftest import Writer, first_compiling

HEADER = '''\
import contextlib, re
def show(value):
    if isinstance(value, BaseException):
        return f"{type(value).__name__}: {value}"
    if isinstance(value, type) or callable(value):
        return f"<{type(value).__name__} {getattr(value, '__qualname__', '?')}>"
    return re.sub(" at 0x[0-9a-f]+", "", repr(value))
def p(tag, *values):
    print(tag, *map(show, values))
@contextlib.contextmanager
def cm(tag):
    yield tag
'''

NAMES = ("a", "b", "c", "__d")


class _Writer(Writer):
    """Writes one module from a seeded random source."""

    def __init__(self, rng: random.Random) -> None:
        super().__init__(rng)
        #: per scope being written, the names it surely binds (a function's
        #: parameters and first assignment): what a ``nonlocal`` inside may name
        self.scopes: list[set[str]] = []

    def name(self) -> str:
        return self.rng.choice(NAMES)

    def guarded(self, pad: str, statement: str) -> str:
        """``statement``, printing the ``NameError`` it may raise."""
        return f"{pad}try:\n{pad}    {statement}\n{pad}except NameError as error:\n" \
               f"{pad}    p({self.next_tag()}, error)\n"

    def block(self, kind: str, depth: int, indent: int, params: tuple[str, ...] = ()) -> str:
        """Statements of a scope of ``kind`` ("module", "function", "class"),
        whose parameters are ``params``; a function's begin with a
        declaration (half of the time) and an assignment."""
        rng, pad = self.rng, "    " * indent
        text = ""
        declared: set[str] = set()
        around = sorted(set().union(*self.scopes) - set(params))
        if kind != "module" and rng.random() < 0.6:
            if around and rng.random() < 0.6:
                declared = set(rng.sample(around, rng.randint(1, len(around))))
                text += f"{pad}nonlocal {', '.join(sorted(declared))}\n"
            else:
                free = [name for name in NAMES if name not in params]
                declared = set(rng.sample(free, rng.randint(1, 2)))
                text += f"{pad}global {', '.join(sorted(declared))}\n"
        bound = set(params)
        if kind == "function":
            first = self.name()
            text += f"{pad}{first} = {self.next_tag()}\n"
            bound.add(first)
        # what a nonlocal in the scopes inside may name: a class's names are not variables
        if text.lstrip().startswith("nonlocal"):
            bound |= declared
        elif declared:
            bound -= declared
        self.scopes.append(bound if kind == "function" else set())
        for _ in range(rng.randint(2, 5)):
            text += self.statement(kind, depth, indent)
        self.scopes.pop()
        return text

    def statement(self, kind: str, depth: int, indent: int) -> str:
        rng, pad, name = self.rng, "    " * indent, self.name()
        choice = rng.random() * (0.55 if depth > 2 else 1.0)
        if choice < 0.14:
            return f"{pad}{name} = {self.next_tag()}\n"
        if choice < 0.3:
            return self.guarded(pad, f"p({self.next_tag()}, {name})")
        if choice < 0.34:
            return self.guarded(pad, f"{name} += 100")
        if choice < 0.4:
            return self.guarded(pad, f"del {name}")
        if choice < 0.43:
            return f"{pad}p({self.next_tag()}, sorted(locals()))\n"
        if choice < 0.47:
            return f"{pad}for {name} in range({rng.randint(0, 2)}):\n{pad}    p({self.next_tag()}, {name})\n"
        if choice < 0.5:
            return f"{pad}with cm({self.next_tag()}) as {name}:\n" + self.guarded(pad + "    ", f"p({self.next_tag()}, {self.name()})")
        if choice < 0.53:
            return f"{pad}try:\n{pad}    raise KeyError({self.next_tag()})\n{pad}except KeyError as {name}:\n" \
                   + self.guarded(pad + "    ", f"p({self.next_tag()}, {self.name()})")
        if choice < 0.55:
            if rng.random() < 0.5:
                return f"{pad}import string as {name}\n"
            return f"{pad}match {self.next_tag()}, {self.next_tag()}:\n{pad}    case [{name}, *{self.name()}]:\n" \
                   + self.guarded(pad + "        ", f"p({self.next_tag()}, {self.name()})")
        if choice < 0.63:
            return self.guarded(pad, f"p({self.next_tag()}, {self.comprehension(kind)})")
        if choice < 0.68:
            lam = f"lambda: ({', '.join(rng.sample(NAMES, 2))})"
            if rng.random() < 0.3:
                lam = f"lambda {name}={self.next_tag()}: ({', '.join(rng.sample(NAMES, 2))})"
            return f"{pad}{name} = {lam}\n" + self.guarded(pad, f"p({self.next_tag()}, {name}())")
        if choice < 0.85:
            return self.function(kind, depth, indent)
        return self.class_(depth, indent)

    def comprehension(self, kind: str) -> str:
        """A comprehension whose variable may hide a name, or that binds one
        around it with a walrus (not in a class body, where it is refused)."""
        rng, name, other = self.rng, self.name(), self.name()
        shape = rng.choice([0, 2, 3, 4, 5] if kind == "class" else [0, 1, 1, 2, 3, 4, 5])
        if shape == 0:
            return f"[({name}, {other}) for {name} in range(2)]"
        if shape == 5:
            return f"[{name} for {name} in range({other})]"
        if shape == 1:
            other = rng.choice([n for n in NAMES if n != name])
            return f"[{other} := {name} for {name} in range(2)]"
        if shape == 2:
            return f"{{{name}: {other} for {name} in range(2) if {other}}}"
        if shape == 3:
            return f"list(({other}, {name}) for {name} in range(2) for {other} in range({name} + 1))"
        return f"[[{other} for {other} in range({name})] for {name} in range(3)]"

    def function(self, kind: str, depth: int, indent: int) -> str:
        """A def (a generator, when it yields), called there or after the next statement."""
        rng, pad = self.rng, "    " * indent
        fname = f"f{self.next_tag()}"
        params = rng.sample(NAMES, rng.randint(0, 1))
        text = f"{pad}def {fname}({', '.join(params)}):\n"
        text += self.block("function", depth + 1, indent + 1, tuple(params))
        ending = rng.random()
        if ending < 0.3:
            text += f"{pad}    return lambda: {self.name()}\n"
        elif ending < 0.45:
            text += f"{pad}    return sorted(locals())\n"
        elif ending < 0.55:
            text += f"{pad}    yield {self.name()}\n"
        call = f"{fname}({', '.join(str(self.next_tag()) for _ in params)})"
        if "yield" in text.splitlines()[-1]:
            call = f"list({call})"
        printed = f"p({self.next_tag()}, {call})"
        if rng.random() < 0.5:
            # later, after the statements that follow have (re)bound names
            return text + self.statement(kind, depth, indent) + self.guarded(pad, printed)
        return text + self.guarded(pad, printed)

    def class_(self, depth: int, indent: int) -> str:
        pad = "    " * indent
        cname = f"K{self.next_tag()}"
        text = f"{pad}class {cname}:\n" + self.block("class", depth + 1, indent + 1)
        shown = f"sorted((k, show(v)) for k, v in vars({cname}).items() if not k.startswith('__'))"
        return text + f"{pad}p({self.next_tag()}, {shown})\n"


def program(seed: int) -> str:
    """The program of ``seed``: the first draw from it that CPython compiles."""
    return first_compiling(_draw, seed, 1000)


def _draw(rng: random.Random) -> str:
    return HEADER + _Writer(rng).block("module", 0, 0)


if __name__ == "__main__":
    import sys

    from difftest import compare_seeds

    compare_seeds(program, sys.argv[1:])
