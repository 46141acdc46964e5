"""Random class statements whose creation is logged step by step, for
``tests/test_class_programs.py``.

Each program defines classes, at module level and in functions whose
variables their bodies read, with random decorators, bases, keywords and a
metaclass whose ``__prepare__`` returns a namespace that logs every store,
read and delete (so the body's own steps are compared, not only its
result). The bodies bind, read, augment and delete names (private ones
too), annotate, run ``if``/``for``/``try``, define methods that use
``super()`` and ``__class__``, descriptors that log ``__set_name__``,
nested classes, lambdas and comprehensions; bases log
``__init_subclass__``. Then each class's name, qualified name, bases, own
names, annotations and the results of its methods are printed. So the order
of every step of class creation, and what the class ends with, are compared.

    python tests/class_programs.py 1000 2000   # seeds 1000 to 2999, each compared
"""

from __future__ import annotations

import random

from difftest import Writer, first_compiling

HEADER = '''\
log = []
def short(value):
    if isinstance(value, (int, str, tuple, type(None))):
        return value
    return type(value).__name__
def v(tag, value=None):
    log.append(("v", tag))
    return tag if value is None else value
class NS(dict):
    def __setitem__(self, key, value):
        log.append(("set", key, short(value)))
        dict.__setitem__(self, key, value)
    def __getitem__(self, key):
        log.append(("get", key))
        return dict.__getitem__(self, key)
    def __delitem__(self, key):
        log.append(("del", key))
        dict.__delitem__(self, key)
class Meta(type):
    @classmethod
    def __prepare__(mcls, name, bases, **keywords):
        log.append(("prepare", name, [base.__name__ for base in bases], sorted(keywords)))
        return NS()
    def __new__(mcls, name, bases, namespace, **keywords):
        log.append(("new", name, type(namespace).__name__, sorted(namespace), sorted(keywords)))
        return super().__new__(mcls, name, bases, dict(namespace))
    def __init__(cls, name, bases, namespace, **keywords):
        log.append(("init", name))
        super().__init__(name, bases, namespace)
class Base:
    def __init_subclass__(cls, **keywords):
        log.append(("init_subclass", cls.__name__, sorted(keywords)))
        super().__init_subclass__()
    def who(self):
        return "Base"
class Other:
    def who(self):
        return "Other"
class D:
    def __init__(self, tag):
        self.tag = tag
    def __set_name__(self, owner, name):
        log.append(("set_name", self.tag, owner.__name__, name))
    def __get__(self, obj, owner=None):
        return ("D", self.tag)
def deco(tag):
    log.append(("deco", tag))
    def apply(cls):
        log.append(("apply", tag, cls.__name__))
        return cls
    return apply
def report(cls):
    own = sorted((name, short(value)) for name, value in vars(cls).items()
                 if name not in ("__dict__", "__weakref__", "__doc__"))
    print("class", cls.__name__, cls.__qualname__, [base.__name__ for base in cls.__mro__], own,
          dict(getattr(cls, "__annotations__", {})))
    for name in ("m", "s", "k", "p", "q"):
        try:
            value = getattr(cls(), name) if name == "p" else getattr(cls(), name)()
            print(" ", name, short(value) if not isinstance(value, (list, tuple)) else value)
        except AttributeError:
            pass
        except Exception as error:
            print(" ", name, type(error).__name__, error)
def create(tag, make):
    del log[:]
    try:
        cls = make()
        print(tag, log)
        report(cls)
    except Exception as error:
        print(tag, type(error).__name__, error, log)
x = "global x"
y = "global y"
'''


class _Writer(Writer):
    """Writes class statements from a seeded random source."""

    def statement(self, depth: int) -> list[str]:
        """Lines of one statement of a class body, unindented."""
        rng = self.rng
        tag = self.next_tag()
        choice = rng.random()
        name = rng.choice(["x", "y", "z", "__p"])
        if choice < 0.18:
            return [f"{name} = v({tag})"]
        if choice < 0.28:
            return [f"{rng.choice(['x', 'y', 'z', 'w'])} = {name}"]
        if choice < 0.33:
            return [f"{name} += v({tag}, 1) if isinstance({name}, int) else '+'"]
        if choice < 0.38:
            return [f"del {name}"]
        if choice < 0.44:
            return [f"{name}: {rng.choice(['int', 'v(' + str(tag) + ')'])}" +
                    (f" = v({tag}, 2)" if rng.random() < 0.5 else "")]
        if choice < 0.5:
            return [f"d{tag} = D({tag})"]
        if choice < 0.56:
            return [f"if v({tag}, {rng.choice(['0', '1'])}):", f"    {name} = {tag}", "else:",
                    f"    {rng.choice(['x', 'y', 'z'])} = -{tag}"]
        if choice < 0.6:
            return [f"for i in v({tag}, range(2)):", f"    {name} = i"]
        if choice < 0.64:
            return ["try:", f"    w = {name}", "except NameError as error:", "    w = str(error)"]
        if choice < 0.72:
            return rng.choice([
                ["def m(self):", f"    return (super().who(), __class__.__name__, {tag})"],
                ["@staticmethod", "def s():", f"    return ({name}, {tag})"],
                ["@classmethod", "def k(cls):", f"    return (cls.__name__, {tag})"],
                ["@property", "def p(self):", f"    return self.__class__.__name__, {tag}"],
                ["def q(self):", "    return self.__p"],
                ["def m(self):", f"    return [{tag}, x, y]"],
            ])
        if choice < 0.76:
            return [f"l{tag} = (lambda: ({name}, x))()"]
        if choice < 0.8:
            return [f"c{tag} = [({rng.choice(['x', 'y', 'i'])}, i) for i in ({name}, 1)]"]
        if choice < 0.84 and depth < 1:
            return self.class_lines(depth + 1)
        if choice < 0.88:
            return ["w = locals().get('x', 'none'), sorted(k for k in locals() if not k.startswith('_'))"]
        return [f"__doc__ = v({tag}, 'doc')" if rng.random() < 0.3 else f"'''doc {tag}'''"]

    def class_lines(self, depth: int) -> list[str]:
        rng = self.rng
        tag = self.next_tag()
        lines = [f"@deco({tag})"] if rng.random() < 0.3 else []
        bases = rng.sample(["Base", "Other", f"v({tag}, Base)"], rng.randint(0, 2))
        if "Base" in bases and f"v({tag}, Base)" in bases:
            bases.remove("Base")
        keywords = []
        if rng.random() < 0.5:
            keywords.append(f"metaclass={rng.choice(['Meta', f'v({tag}, Meta)'])}")
            if rng.random() < 0.5:
                keywords.append(f"flag=v({tag}, 1)")
        elif any("Base" in base for base in bases) and rng.random() < 0.5:
            keywords.append(f"flag=v({tag}, 1)")
        arguments = ", ".join(bases + keywords)
        lines.append(f"class C{tag}({arguments}):")
        for _ in range(rng.randint(1, 6)):
            lines += ["    " + line for line in self.statement(depth)]
        return lines


def program(seed: int) -> str:
    """The program of ``seed``: the first draw from it that CPython compiles
    (a name annotated in a class body may not be ``global`` there)."""
    return first_compiling(_draw, seed, 100)


def _draw(rng: random.Random) -> str:
    """Classes made at module level and in functions whose variables (``x``,
    ``z``) their bodies may read."""
    writer = _Writer(rng)
    parts = [HEADER]
    for number in range(rng.randint(2, 4)):
        lines = writer.class_lines(0)
        name = next(line for line in lines if line.startswith("class ")).split("(")[0][6:]
        body = "\n".join("        " + line for line in lines)
        if rng.random() < 0.5:
            parts.append(
                f"def make{number}():\n    x = 'local x'\n    z = 'local z'\n"
                f"    def inner():\n{body}\n        return {name}\n    return inner()\n"
                f"create({number}, make{number})\n")
        else:
            at_module = "\n".join("    " + line for line in lines)
            parts.append(
                f"del log[:]\ntry:\n{at_module}\n    print({number}, log)\n    report({name})\n"
                f"except Exception as error:\n    print({number}, type(error).__name__, error, log)\n")
    return "".join(parts)


if __name__ == "__main__":
    import sys

    from difftest import compare_seeds

    compare_seeds(program, sys.argv[1:])
