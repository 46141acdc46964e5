"""Random function definitions whose making and calling are logged step by
step, for ``tests/test_function_programs.py``.

Each program (with ``from __future__ import annotations`` at its top for
some seeds) defines functions at module level, in classes (methods,
``staticmethod``, ``classmethod``, private parameter names, methods of a
nested class), in functions (closures that read and rebind their
variables through ``nonlocal``, functions returned, curried lambdas), in
loops, under an ``if``, twice under one name, through ``global`` and
``nonlocal`` declarations, and as lambdas. Parameters are of every kind
(positional-only, ``*args``, keyword-only, ``**kwargs``) with defaults (some
mutable, mutated by the calls) and annotations written as calls of
``log(tag, value)``, which prints, so when each default, annotation and
decorator expression is evaluated is compared, and, under the future
import, the text each annotation becomes. Decorators are stacked: ones that
log when made and when applied, ones that wrap with ``functools.wraps``,
return a lambda, a class or the function with attributes set, one that
raises. Each function is described (``callable``, its type, ``__name__``,
``__qualname__``, ``__module__``, ``__doc__``, ``__defaults__``,
``__kwdefaults__``, ``__annotations__``, ``__wrapped__``, its ``__dict__``,
``co_name``, ``co_qualname``, the argument counts and the parameters' names
in ``co_varnames``, and its signature), some after its attributes are set
again (``__defaults__``, ``__kwdefaults__``, ``__doc__``, ``__name__``, own
ones), and called with positional, keyword, ``*`` and ``**`` arguments,
each argument logged, valid calls and calls that raise ``TypeError``, whose
message is compared. Recursive functions are called a few levels deep.
More shapes: a def in a generator whose decorator, defaults and annotations
are ``yield`` expressions (the values sent in become them), defaults and
decorators that bind names with ``:=`` which later defaults read, generator
and coroutine functions, a class's raw ``staticmethod`` and ``classmethod``
objects, private names (a mangled decorator, a ``global`` private def, nested
private defs and parameters), lambdas with logged defaults where an
expression evaluates them conditionally or repeatedly, parameters named
with the compiler's prefix or with characters NFKC folds, defaults that
raise, a ``local: log(...)`` annotation in a body (never evaluated). A
unit is sometimes written inside a function (or a generator) called at
once, and a program may end with an error that escapes it (its chain is
compared). Some shapes are drawn at rates of their own (``UNUSUAL``,
``RAISING``, ``HOSTED``, ``ESCAPING`` below). ``locals()`` is called by
that name: under another name, a function's shows the compiler's
temporaries (README, Known limitations).

    python tests/function_programs.py 1000 2000   # seeds 1000 to 2999, each compared
"""

from __future__ import annotations

import random
import sys
from dataclasses import dataclass, field

from difftest import Writer, first_compiling

FUTURE = "from __future__ import annotations\n"

HEADER = '''\
import functools, inspect, re
def show(value):
    if isinstance(value, BaseException):
        return re.sub(" at 0x[0-9a-fA-F]+", "", f"{type(value).__name__}: {value}")
    if isinstance(value, dict):
        return "{" + ", ".join(f"{key!r}: {show(item)}" for key, item in value.items()) + "}"
    if type(value) in (tuple, list):
        return type(value).__name__ + "(" + ", ".join(map(show, value)) + ")"
    if callable(value) and not isinstance(value, type) and hasattr(value, "__qualname__"):
        return f"<fn {value.__qualname__}>"
    return re.sub(" at 0x[0-9a-fA-F]+", "", repr(value))
def log(tag, value=None):
    print("log", tag, show(value))
    return value
def attempt(tag, thunk):
    try:
        value = thunk()
    except Exception as error:
        print(tag, "raised", show(error))
    else:
        print(tag, "->", show(value))
def describe(tag, thunk):
    try:
        f = thunk()
    except Exception as error:
        print(tag, "raised", show(error))
        return
    print(tag, "callable", callable(f), type(f).__name__, re.sub(" at 0x[0-9a-fA-F]+", "", repr(f)))
    print(tag, "globals", getattr(f, "__globals__", None) is globals(),
          show(getattr(f, "__type_params__", "none")))
    for name in ("__name__", "__qualname__", "__module__", "__doc__", "__defaults__",
                 "__kwdefaults__", "__annotations__", "__wrapped__"):
        try:
            value = getattr(f, name)
        except AttributeError:
            print(tag, name, "missing")
        else:
            print(tag, name, show(value))
    code = getattr(f, "__code__", None)
    if code is not None:
        count = (code.co_argcount + code.co_kwonlyargcount + bool(code.co_flags & 4)
                 + bool(code.co_flags & 8))
        print(tag, "code", code.co_name, code.co_qualname, code.co_argcount,
              code.co_posonlyargcount, code.co_kwonlyargcount, code.co_varnames[:count])
    own = getattr(f, "__dict__", None)
    if isinstance(own, dict):
        print(tag, "dict", show({key: own[key] for key in sorted(own)}))
    try:
        print(tag, "signature", show(str(inspect.signature(f))))
    except Exception as error:
        print(tag, "signature raised", show(error))
def deco(tag):
    print("deco made", tag)
    def apply(f):
        print("deco apply", tag, show(f))
        print("deco sees", tag, *(show(getattr(f, name, "-")) for name in
                                  ("__defaults__", "__kwdefaults__", "__doc__", "__annotations__", "__dict__")))
        return f
    return apply
def wrapping(tag):
    print("wrapping made", tag)
    def apply(f):
        print("wrapping apply", tag, show(f))
        @functools.wraps(f)
        def wrapper(*args, **kwargs):
            print("wrapper", tag, show(args), show(kwargs))
            return f(*args, **kwargs)
        return wrapper
    return apply
def replacing(tag):
    print("replacing made", tag)
    def apply(f):
        print("replacing apply", tag, show(f))
        return lambda *args, **kwargs: ("replaced", tag, getattr(f, "__name__", "?"), args, kwargs)
    return apply
def to_class(tag):
    def apply(f):
        print("to_class apply", tag, show(f))
        class Made:
            "made by to_class"
            def __init__(self, *args, **kwargs):
                print("Made", tag, show(args), show(kwargs))
            def __repr__(self):
                return f"Made({tag})"
        return Made
    return apply
def raising(tag):
    print("raising made", tag)
    def apply(f):
        print("raising apply", tag, show(f))
        raise ValueError(f"decorator {tag} refuses {getattr(f, '__name__', '?')}")
    return apply
def with_attr(tag, **attributes):
    def apply(f):
        print("with_attr apply", tag, show(f), sorted(attributes))
        for key, value in attributes.items():
            setattr(f, key, value)
        return f
    return apply
def plain(f):
    print("plain", show(f))
    return f
class Holder:
    deco = staticmethod(deco)
decos = [deco, wrapping]
total = 0
'''

#: what an annotation may be written as (under the future import, the text
#: CPython makes of it is compared)
ANNOTATIONS = ["int", "'str'", '"quoted"', "int|None", "dict[str,int]", "list[ 'x' ]", "-1",
               "(1,2)", "Holder", "None", "...", "1 + 2*3", "not 0", "[int, str]", "{'k': 1}",
               "0x10", "1_000", "1e3", "b'by'", "\"it's\"", "int if 1 else str", "(1,)[0:1]",
               "f'{total}'", "{1, 2}", "Holder.deco", "(-1) ** 2", "- 1 ** 2", "total", "'a' 'b'", "(x := 3)", "[i for i in ()]"]

#: how often a default raises (a name never bound, a division by zero)
RAISING = 0.02
#: how often a parameter is named with the compiler's prefix (``_us_a``) or with
#: a character NFKC folds (``\ufb01`` is ``fi``, ``\u210c`` is ``H``)
UNUSUAL = 0.08

#: decorators that leave a function a function (a method stays callable)
TRANSPARENT = ("deco", "plain", "holder", "decos", "attr", "lambda", "logged")


@dataclass
class Spec:
    """The parameters of a function, as its calls need them."""

    posonly: list[str] = field(default_factory=list)
    regular: list[str] = field(default_factory=list)
    vararg: str | None = None
    kwonly: list[str] = field(default_factory=list)
    kwarg: str | None = None
    #: parameters whose default is a list (the body appends to them)
    mutable: list[str] = field(default_factory=list)
    #: names the call may pass by keyword but not bound
    required_kwonly: list[str] = field(default_factory=list)

    def names(self) -> list[str]:
        return [*self.posonly, *self.regular, *filter(None, [self.vararg]), *self.kwonly,
                *filter(None, [self.kwarg])]


class _Writer(Writer):
    """Writes function definitions, their descriptions and calls from a seeded random source."""

    def __init__(self, rng: random.Random, future: bool) -> None:
        super().__init__(rng)
        self.future = future

    # -- pieces of a definition ------------------------------------------------------------

    def logged(self, value: str) -> str:
        return f"log({self.next_tag()}, {value})"

    def attempts(self, *calls: str) -> list[str]:
        """A line that runs each of ``calls`` and prints its value or error (``attempt``)."""
        return [f"attempt({self.next_tag()}, lambda: {call})" for call in calls]

    def annotation(self, lazy: bool = False) -> str:
        rng = self.rng
        if rng.random() < 0.45:
            return self.logged(repr(rng.choice(["ann", "int", "x"])))
        if rng.random() < 0.05 and not lazy:
            return "lambda: 0"
        choice = rng.choice(ANNOTATIONS)
        if choice.startswith("(x :=") and self.future:
            return "int"
        return choice

    def default(self, spec: Spec, name: str, scope: list[str]) -> str:
        rng = self.rng
        choice = rng.random()
        if choice < 0.2:
            spec.mutable.append(name)
            return self.logged("[]")
        if choice < 0.3 and scope:
            return rng.choice(scope)
        if choice < 0.8:
            return self.logged(str(rng.randint(0, 9)))
        if choice < 0.8 + RAISING:
            return rng.choice(["missing", f"{self.logged('1')} // 0"])
        return rng.choice(["None", "'text'", "(1, 2)", "-3"])

    def parameters(self, scope: list[str], lambda_: bool = False, private: bool = False,
                   first: str | None = None) -> tuple[str, Spec]:
        """A parameter list and its spec; ``first`` (``self``, ``cls``) comes before the others."""
        rng = self.rng
        spec = Spec()
        letters = iter("abcdefghijklmn")
        texts: list[str] = []
        annotate = not lambda_ and rng.random() < 0.5

        def one(name: str, with_default: bool) -> str:
            text = name
            if annotate and rng.random() < 0.5:
                text += f": {self.annotation()}"
            if with_default:
                text += ("=" if ":" not in text else " = ") + self.default(spec, name, scope)
            return text

        def fresh() -> str:
            name = next(letters)
            if rng.random() < UNUSUAL:
                return rng.choice(["_us_" + name, "\ufb01" + name, "\u210c" + name])
            return f"__{name}" if private and rng.random() < 0.3 else name

        positional: list[str] = []
        if first:
            positional.append(first)
        spec.posonly = [fresh() for _ in range(rng.choice([0, 0, 1, 2]))]
        spec.regular = [fresh() for _ in range(rng.choice([0, 1, 1, 2, 3]))]
        every = spec.posonly + spec.regular
        defaults_from = rng.randint(0, len(every)) if every else 0
        if rng.random() < 0.3:
            defaults_from = len(every)
        for index, name in enumerate(every):
            positional.append(one(name, index >= defaults_from))
        if spec.posonly:
            texts += positional[: len(spec.posonly) + (1 if first else 0)] + ["/"]
            texts += positional[len(spec.posonly) + (1 if first else 0):]
        else:
            texts += positional
        if rng.random() < 0.4:
            spec.vararg = fresh()
            texts.append("*" + spec.vararg + (f": {self.annotation()}" if annotate and rng.random() < 0.4
                                              else ""))
        if rng.random() < 0.5:
            spec.kwonly = [fresh() for _ in range(rng.randint(1, 2))]
            if spec.vararg is None:
                texts.append("*")
            for name in spec.kwonly:
                with_default = rng.random() < 0.7
                if not with_default:
                    spec.required_kwonly.append(name)
                texts.append(one(name, with_default))
        if rng.random() < 0.35:
            spec.kwarg = fresh()
            texts.append("**" + spec.kwarg + (f": {self.annotation()}" if annotate and rng.random() < 0.4
                                               else ""))
        return ", ".join(texts), spec

    def decorators(self, in_class: bool) -> list[str]:
        """Decorator lines (top first); in a class the last may make a static or class method."""
        rng = self.rng
        lines = []
        for _ in range(rng.choice([0, 0, 1, 1, 2, 3])):
            tag = self.next_tag()
            kind = rng.choice(["deco", "deco", "wrapping", "wrapping", "replacing", "to_class",
                               "raising", "attr", "plain", "holder", "decos", "lambda", "logged"])
            if kind == "raising" and rng.random() < 0.7:
                kind = "deco"
            lines.append({
                "deco": f"@deco({tag})",
                "wrapping": f"@wrapping({tag})",
                "replacing": f"@replacing({tag})",
                "to_class": f"@to_class({tag})",
                "raising": f"@raising({tag})",
                "attr": f"@with_attr({tag}, marked=log({tag}, 'mark'), __doc__='set doc')",
                "plain": "@plain",
                "holder": f"@Holder.deco({tag})",
                "decos": f"@decos[{rng.randint(0, 1)}]({tag})",
                "lambda": f"@(lambda f: log({tag}, f))",
                "logged": f"@log({tag}, deco)({tag})",
            }[kind])
        return lines

    def body(self, spec: Spec, name: str, extra: list[str] | None = None) -> list[str]:
        rng = self.rng
        lines: list[str] = []
        if rng.random() < 0.4:
            lines.append(rng.choice([repr(f"doc of {name}"), repr(f"doc of {name}"),
                                     '"""two\n    lines"""', '"""\n    indented\n      more\n    """',
                                     f'f"not doc {name}"', 'b"bytes"', f'"con" "cat {name}"',
                                     "r'raw\\n'"]))
        if rng.random() < 0.15:
            lines.append(f"local: {self.logged(repr('never'))} = 1")
        for mutable in spec.mutable:
            if rng.random() < 0.8:
                lines.append(f"{mutable}.append(len({mutable})) if isinstance({mutable}, list) else None")
        lines += extra or []
        if rng.random() < 0.15:
            lines.append("print('locals', sorted(locals()))")
        values = ", ".join(spec.names()) + ("," if len(spec.names()) == 1 else "")
        lines.append(f"return log({self.next_tag()}, ({values}))")
        return lines

    def function(self, name: str, scope: list[str], in_class: str | None = None,
                 kind: str = "", extra: list[str] | None = None) -> tuple[list[str], Spec, bool]:
        """The lines of a def (decorated) named ``name``; whether its decorators keep it callable
        as its spec says."""
        rng = self.rng
        decorators = self.decorators(in_class is not None)
        first = {"": None, "method": "self", "classmethod": "cls", "staticmethod": None}[kind]
        params, spec = self.parameters(scope, private=in_class is not None and rng.random() < 0.4,
                                       first=first)
        if kind in ("classmethod", "staticmethod"):
            decorators.append(f"@{kind}")
        returns = f" -> {self.annotation()}" if rng.random() < 0.4 else ""
        lines = [*decorators, f"def {name}({params}){returns}:"]
        lines += ["    " + line for line in self.body(spec, name, extra)]
        faithful = all(any(line.startswith(f"@{kept}") for kept in ("deco", "plain", "Holder", "decos[0]",
                                                                     "(lambda", "log(", "with_attr",
                                                                     "staticmethod", "classmethod"))
                       for line in decorators)
        return lines, spec, faithful

    def lambda_(self, scope: list[str]) -> tuple[str, Spec]:
        params, spec = self.parameters(scope, lambda_=True)
        spec.mutable = []  # a lambda's body does not append
        values = ", ".join(spec.names()) + ("," if len(spec.names()) == 1 else "")
        return f"lambda {params}: log({self.next_tag()}, ({values}))", spec

    # -- calls -------------------------------------------------------------------------------

    def arguments(self, spec: Spec, valid: bool) -> str:
        """An argument list for a function of ``spec``; a valid one most of the time when asked."""
        rng = self.rng
        positional = spec.posonly + spec.regular
        texts: list[str] = []
        count = len(positional) if valid else rng.randint(0, len(positional) + 2)
        if valid and rng.random() < 0.5:
            count = rng.randint(0, len(positional))
        if spec.vararg and rng.random() < 0.5:
            count += rng.randint(0, 2)
        starred = rng.random() < 0.25
        plain = rng.randint(0, count) if starred else count
        texts += [self.logged(str(rng.randint(10, 99))) for _ in range(plain)]
        if starred:
            items = ", ".join(str(rng.randint(10, 99)) for _ in range(count - plain))
            texts.append(f"*{self.logged('[' + items + ']')}")
        by_name = [name for name in positional[count:] if name in spec.regular]
        keywords = [name for name in by_name if rng.random() < 0.6] + [
            name for name in spec.kwonly if name in spec.required_kwonly or rng.random() < 0.5]
        keywords = [name for name in keywords if not name.startswith("__")]
        if not valid:
            keywords += rng.sample(["zz", *spec.posonly, *spec.regular, *spec.kwonly], 1)
            keywords = list(dict.fromkeys(keywords))
        double = {}
        if keywords and rng.random() < 0.3:
            moved = keywords.pop()
            double[moved] = rng.randint(10, 99)
        if rng.random() < 0.1 and not valid and spec.kwarg:
            double["yy"] = 1
        texts += [f"{name}={self.logged(str(rng.randint(10, 99)))}" for name in keywords]
        if not valid and keywords and rng.random() < 0.3:
            double[keywords[0]] = 0  # given twice
        if double:
            texts.append(f"**{self.logged(repr(double))}")
        if not valid and rng.random() < 0.15:
            bad = rng.choice(["*log({tag}, 5)", "**log({tag}, [1])", "**log({tag}, {{1: 2}})",
                              "*log({tag}, None)", "**log({tag}, None)"])
            texts.append(bad.format(tag=self.next_tag()))
        return ", ".join(texts)

    def calls(self, target: str, spec: Spec, faithful: bool) -> list[str]:
        rng = self.rng
        lines = []
        for _ in range(rng.randint(1, 3)):
            valid = faithful and rng.random() < 0.75
            lines.append(f"attempt({self.next_tag()}, lambda: {target}({self.arguments(spec, valid)}))")
        return lines

    def describe(self, target: str) -> list[str]:
        return [f"describe({self.next_tag()}, lambda: {target})"]

    def retouch(self, target: str) -> list[str]:
        """Attributes of the function set again (in a ``try``: it may be something else)."""
        rng = self.rng
        change = rng.choice([
            f"{target}.__defaults__ = {self.logged('(7, 8)')}",
            f"{target}.__kwdefaults__ = {self.logged(repr({'e': 5, 'f': 6}))}",
            f"{target}.__doc__ = {self.logged(repr('new doc'))}",
            f"{target}.__name__ = 'renamed'",
            f"{target}.__qualname__ = 'Re.named'",
            f"{target}.own = {self.logged('[1]')}",
            f"{target}.__annotations__ = {{'a': int}}",
            f"del {target}.__defaults__",
            f"{target}.__kwdefaults__ = None",
        ])
        return ["try:", f"    {change}", "except Exception as error:",
                f"    print({self.next_tag()}, 'retouch', type(error).__name__, error)"]

    # -- placements ----------------------------------------------------------------------------

    def guarded(self, lines: list[str]) -> list[str]:
        """``lines`` in a ``try`` (a decorator may raise)."""
        return ["try:", *("    " + line for line in lines), "except Exception as error:",
                f"    print({self.next_tag()}, 'made raised', type(error).__name__, error)"]

    def placed(self, number: int) -> list[str]:
        rng = self.rng
        where = rng.choice(["module", "module", "class", "class", "closure", "loop", "conditional",
                            "lambda", "redefined", "recursive", "global", "nonlocal", "curried",
                            "generator", "walrus", "kinds", "class_in_function", "lambdas", "private"])
        lines = getattr(self, "place_" + where)(number)
        if rng.random() < HOSTED:
            # the whole unit in a function (a generator, half the time), called at once
            generator = rng.random() < 0.5
            body = [*lines, "yield 'host done'"] if generator else lines
            call = f"print(list(host{number}()))" if generator else f"host{number}()"
            lines = [f"def host{number}():", *("    " + line for line in body), call]
        return lines

    def place_module(self, number: int) -> list[str]:
        name = f"f{number}"
        lines, spec, faithful = self.function(name, ["total"])
        out = self.guarded(lines) + self.describe(name) + self.calls(name, spec, faithful)
        if self.rng.random() < 0.4:
            out += self.retouch(name) + self.describe(name) + self.calls(name, spec, faithful)
        return out

    def place_class(self, number: int, scope: tuple[str, ...] = ("z",)) -> list[str]:
        rng = self.rng
        holder = f"K{number}"
        body = [repr(f"doc of {holder}")] if rng.random() < 0.4 else []
        body.append(f"z = {self.logged(repr('z'))}")
        observed: list[str] = []
        for kind in rng.sample(["method", "staticmethod", "classmethod", "nested", "lambda"],
                               rng.randint(1, 3)):
            if kind == "nested":
                lines, spec, faithful = self.function("m", [*scope, "z"], in_class="Inner",
                                                         kind="method")
                body += ["class Inner:", *("    " + line for line in lines)]
                target = f"{holder}.Inner().m"
            elif kind == "lambda":
                text, spec = self.lambda_(list(scope))
                body.append(f"lam = {text}")
                faithful = True
                target = f"{holder}.lam"
            else:
                name = {"method": "m", "staticmethod": "s", "classmethod": "k"}[kind]
                lines, spec, faithful = self.function(name, list(scope), in_class=holder, kind=kind)
                body += lines
                target = f"{holder}.{name}" if kind != "method" else f"{holder}().m"
                if kind == "method" and rng.random() < 0.5:
                    observed += self.describe(f"{holder}.m")
            observed += self.describe(target) + self.calls(target, spec, faithful)
        return self.guarded([f"class {holder}:", *("    " + line for line in body)]) + observed

    def place_closure(self, number: int) -> list[str]:
        rng = self.rng
        maker = f"make{number}"
        extra = ["nonlocal count", "count += 1", "print('count', count, p)"]
        lines, spec, faithful = self.function("inner", ["p", "count"], extra=extra)
        body = [f"count = {self.logged('0')}", *lines]
        if rng.random() < 0.4:
            body.append(f"print('in maker', inner.__qualname__, {self.logged(repr('after'))})")
        body.append("return inner")
        out = [f"def {maker}(p):", *("    " + line for line in body)]
        out += [f"try:\n    g{number} = {maker}({self.logged('5')})\nexcept Exception as error:\n"
                f"    print({self.next_tag()}, 'maker raised', type(error).__name__, error)"]
        target = f"g{number}"
        out += self.describe(target) + self.calls(target, spec, faithful)
        if rng.random() < 0.5:
            out += self.calls(target, spec, faithful)
        return out

    def place_loop(self, number: int) -> list[str]:
        rng = self.rng
        made = f"made{number}"
        name = f"loop{number}"
        in_function = rng.random() < 0.5
        lines, spec, faithful = self.function(name, ["i"], extra=["print('i is', i)"])
        loop = [f"for i in range({rng.randint(1, 3)}):", *("    " + line for line in lines),
                f"    {made}.append({name})"]
        out = [f"{made} = []"]
        if in_function:
            out += [f"def fill{number}():", *("    " + line for line in loop), f"    i = {self.logged('-1')}",
                    f"try:\n    fill{number}()\nexcept Exception as error:\n"
                    f"    print({self.next_tag()}, 'fill raised', type(error).__name__, error)"]
        else:
            out += self.guarded(loop)
        out.append(f"for each in {made}:")
        out += ["    " + line for line in self.describe("each") + self.calls("each", spec, faithful)]
        return out

    def place_conditional(self, number: int) -> list[str]:
        rng = self.rng
        name = f"c{number}"
        first, spec_a, faithful_a = self.function(name, [])
        text, spec_b = self.lambda_([])
        second = [f"{name} = {text}"] if rng.random() < 0.5 else self.function(name, [])[0]
        condition = self.logged(rng.choice(["0", "1", "''", "'yes'"]))
        lines = [f"if {condition}:", *("    " + line for line in first), "else:",
                 *("    " + line for line in second)]
        out = self.guarded(lines) + self.describe(name)
        out += self.calls(name, spec_a if rng.random() < 0.5 else spec_b, False)
        return out

    def place_lambda(self, number: int) -> list[str]:
        name = f"lam{number}"
        text, spec = self.lambda_(["total"])
        out = self.guarded([f"{name} = {text}"]) + self.describe(name) + self.calls(name, spec, True)
        if self.rng.random() < 0.3:
            out += self.retouch(name) + self.describe(name) + self.calls(name, spec, True)
        return out

    def place_redefined(self, number: int) -> list[str]:
        name = f"r{number}"
        first, spec_a, faithful_a = self.function(name, [])
        second, spec_b, faithful_b = self.function(name, [name])
        out = self.guarded(first) + [f"old{number} = globals().get({name!r})"] + self.describe(name)
        out += self.guarded(second) + self.describe(name) + self.calls(name, spec_b, faithful_b)
        out += [f"print('same', old{number} is globals().get({name!r}))"]
        out += self.calls(f"old{number}", spec_a, faithful_a)
        return out

    def place_recursive(self, number: int) -> list[str]:
        rng = self.rng
        name = f"rec{number}"
        decorators = self.decorators(False) if rng.random() < 0.5 else []
        decorators = [line for line in decorators if "to_class" not in line and "replacing" not in line]
        lines = [*decorators, f"def {name}(k, /, acc={self.logged('()')}, *, step=1):",
                 "    if k <= 0:", "        return acc",
                 f"    return {name}(k - step, acc + (k,), step=step)"]
        out = self.guarded(lines) + self.describe(name)
        out += self.attempts(f"{name}({rng.randint(0, 4)})", f"{name}(k=2)", f"{name}(3, step={rng.randint(1, 2)})")
        return out

    def place_global(self, number: int) -> list[str]:
        """A function that declares ``total`` and a function's name ``global`` and defines it."""
        name = f"gl{number}"
        made = f"gm{number}"
        lines, spec, faithful = self.function(made, ["total"])
        body = [f"global total, {made}", f"total = total + {self.logged('1')}", *lines,
                f"return {made}"]
        out = [f"def {name}():", *("    " + line for line in body)]
        out += [f"attempt({self.next_tag()}, {name})", "print('total', total)"]
        out += self.describe(made) + self.calls(made, spec, faithful)
        return out

    def place_nonlocal(self, number: int) -> list[str]:
        """A def that rebinds a name of the function around it through ``nonlocal``."""
        name = f"outer{number}"
        lines, spec, faithful = self.function("g", ["h"])
        body = ["def g():", "    return 'first g'", "h = 'h'", "def setter():", "    nonlocal g",
                *("    " + line for line in lines), "setter()",
                "print('g is', g.__qualname__ if hasattr(g, '__qualname__') else g)", "return g"]
        out = [f"def {name}():", *("    " + line for line in body)]
        out += [f"try:\n    n{number} = {name}()\nexcept Exception as error:\n"
                f"    print({self.next_tag()}, 'outer raised', type(error).__name__, error)"]
        out += self.describe(f"n{number}") + self.calls(f"n{number}", spec, faithful)
        return out

    def place_generator(self, number: int) -> list[str]:
        """A def in a generator whose decorator, defaults and annotations are ``yield``s."""
        rng = self.rng
        name = f"gen{number}"
        slots = rng.sample(["decorator", "default", "kwdefault", "annotation", "returns"], rng.randint(1, 3))
        head = "@(yield 'decorator')" if "decorator" in slots else f"@deco({self.next_tag()})"
        params = ["a" + (" = (yield 'default')" if "default" in slots else f" = {self.logged('0')}"),
                  "*", "b" + (": (yield 'annotation')" if "annotation" in slots else "")
                  + (" = (yield 'kwdefault')" if "kwdefault" in slots else " = 1")]
        returns = " -> (yield 'returns')" if "returns" in slots else ""
        body = [head, f"def inner({', '.join(params)}){returns}:",
                f"    return log({self.next_tag()}, (a, b))",
                "yield inner"]
        lines = [f"def {name}():", *("    " + line for line in body)]
        sends = "'plain', 5, 6, int, str"
        lines += [f"def drive{number}():",
                  f"    it = {name}()",
                  "    sent = [None, " + sends + "]",
                  "    for value in sent:",
                  "        got = it.send(value if value != 'plain' else plain)",
                  "        print('yielded', show(got))",
                  "        if callable(got) and not isinstance(got, type):",
                  "            return got",
                  f"try:\n    made{number} = drive{number}()\nexcept Exception as error:\n"
                  f"    print({self.next_tag()}, 'drive raised', type(error).__name__, error)"]
        spec = Spec(regular=["a"], kwonly=["b"])
        lines += self.describe(f"made{number}") + self.calls(f"made{number}", spec, True)
        if rng.random() < 0.3:
            lines += [f"lg{number} = lambda *a: (yield a)", *self.describe(f"lg{number}"),
                      f"attempt({self.next_tag()}, lambda: list(lg{number}(1, 2)))"]
        return lines

    def place_walrus(self, number: int) -> list[str]:
        """Defaults and decorators that bind names (``:=``) that later defaults and the body read."""
        rng = self.rng
        name = f"w{number}"
        lines = [f"@(d{number} := deco({self.next_tag()}))",
                 f"def {name}(a=(v{number} := {self.logged('1')}), b=v{number}, *, "
                 f"c=(u{number} := [v{number}])):",
                 f"    c.append(v{number})",
                 f"    return log({self.next_tag()}, (a, b, c, u{number}))"]
        if rng.random() < 0.5:
            holder = f"KW{number}"
            inner = ["x = 1", *lines, f"print('class sees', v{number}, x)"]
            lines = [f"class {holder}:", *("    " + line for line in inner)]
            target = f"{holder}.{name}"
        else:
            target = name
        out = self.guarded(lines) + self.describe(target)
        out += self.attempts(f"{target}()", f"{target}(2, c=[])", f"{target}()")
        return out

    def place_kinds(self, number: int) -> list[str]:
        """A generator function, a coroutine function and a class's raw descriptors, described."""
        rng = self.rng
        lines = [f"def gf{number}(a, /, b=2, *c, d, **e):", f"    yield log({self.next_tag()}, a)",
                 "    yield b, c, d, e",
                 f"async def af{number}(a=1, *, b=2) -> {self.annotation()}:",
                 f"    'coroutine {number}'", "    return a",
                 f"class KD{number}:",
                 "    @staticmethod", f"    def s(a={self.logged('1')}):", "        'static'",
                 "        return a",
                 "    @classmethod", "    def c(cls, *, k=1):", "        return cls.__name__, k",
                 "    def __private(self, __x=1):", "        return __x",
                 "    def call(self):", "        return self.__private(), self.__private(2)"]
        out = self.guarded(lines)
        out += self.describe(f"gf{number}") + self.describe(f"af{number}")
        out += [f"attempt({self.next_tag()}, lambda: list(gf{number}(1, d=4)))",
                f"attempt({self.next_tag()}, lambda: gf{number}(d=4))",
                f"attempt({self.next_tag()}, lambda: print(inspect.isgeneratorfunction(gf{number}), "
                f"inspect.iscoroutinefunction(af{number})))",
                f"co{number} = af{number}()",
                f"print(type(co{number}).__name__, co{number}.__name__, co{number}.__qualname__)",
                f"try:\n    co{number}.send(None)\nexcept StopIteration as stop:\n    print('stop', stop.value)"]
        for raw in rng.sample(["'s'", "'c'", f"'_KD{number}__private'"], 2):
            out += self.describe(f"KD{number}.__dict__[{raw}]")
        out += self.attempts(f"KD{number}().call()", f"KD{number}().c(k=3)", f"KD{number}.__dict__['s']()")
        return out

    def place_class_in_function(self, number: int) -> list[str]:
        """A class placed in a function whose variable (``p``) its methods' defaults read."""
        lines = self.place_class(number, ("z", "p"))
        split = next(index for index, line in enumerate(lines) if line.startswith("except"))
        made, observed = lines[1:split], lines[split + 2:]
        holder = f"K{number}"
        out = [f"def maker{number}(p):", *made, f"    return {holder}",
               f"try:\n    {holder} = maker{number}({self.logged('3')})\nexcept Exception as error:\n"
               f"    print({self.next_tag()}, 'maker raised', type(error).__name__, error)"]
        return out + observed

    def place_lambdas(self, number: int) -> list[str]:
        """Lambdas with logged defaults where an expression evaluates them conditionally, late or
        more than once: among a call's arguments, behind ``or``/``and``, in a conditional
        expression, a comprehension, a ``while`` condition, a default of a lambda."""
        rng = self.rng

        def lam() -> str:
            return f"(lambda q={self.logged(str(rng.randint(0, 3)))}: q)"

        shapes = [
            f"print({self.logged('1')}, {lam()}(), {self.logged('2')}, sep=str({lam()}()))",
            f"print({self.logged(rng.choice(['0', '1']))} or {lam()}())",
            f"print({lam()}() if {self.logged(rng.choice(['0', '1']))} else {lam()}())",
            f"print([{lam()}() for _ in range({rng.randint(0, 2)})])",
            f"print((lambda a={lam()}, b={self.logged('5')}: (a(), b))())",
            f"i = 0\nwhile {lam()}() + i < 3:\n    i += 1\nprint('i', i)",
            f"print(f'{{{lam()}()}}{{{self.logged('6')}}}')",
            f"print({{k: {lam()}() for k in 'ab'}})",
        ]
        return rng.sample(shapes, rng.randint(2, 4))

    def place_private(self, number: int) -> list[str]:
        """Private names in a class: a decorator, a ``global`` def, a nested def, a lambda."""
        holder = f"KP{number}"
        lines = [f"def _{holder}__deco(f):", "    print('private deco', f.__qualname__)", "    return f",
                 f"class {holder}:", f"    global __g{number}",
                 f"    def __g{number}(__a={self.logged('1')}):", "        return __a",
                 "    @__deco",
                 f"    def m(self, *, __k={self.logged('2')}):",
                 "        def __inner(__x=__k):",
                 "            return __x",
                 "        return __inner",
                 f"    __lam = lambda self, __y={self.logged('3')}: __y"]
        out = self.guarded(lines)
        out += self.describe(f"_{holder}__g{number}") + self.describe(f"{holder}().m()")
        out += self.describe(f"{holder}._{holder}__lam") + self.describe(f"{holder}.m")
        out += self.attempts(f"{holder}().m(_{holder}__k=7)()", f"{holder}().m(__k=7)", f"{holder}()._{holder}__lam()")
        return out

    def place_curried(self, number: int) -> list[str]:
        name = f"cur{number}"
        a = self.logged("1")
        lines = [f"def {name}(a=({a})):",
                 f"    '''curried {number}'''",
                 f"    def middle(b, *, c=a) -> {self.annotation()}:",
                 "        return lambda d=b, /: (a, b, c, d)",
                 "    return middle"]
        out = self.guarded(lines)
        out += self.attempts(f"{name}()({self.logged('2')})()", f"{name}(5)(6, c=7)(8)", f"{name}(5)(6)(d=8)")
        out += self.describe(f"{name}()") + self.describe(f"{name}()(0)")
        return out


#: how often a unit of definitions is written in a function (its names become its variables)
HOSTED = 0.25

#: how often a program ends with an error that escapes it (its chain is compared)
ESCAPING = 0.25

#: the endings of programs that raise out of them
ENDINGS = [
    "try:\n    (lambda a, /: a)(a=1)\nexcept TypeError:\n    @raising({tag})\n    def last():\n        pass\n",
    "def last(a=log({tag}, 1) // 0):\n    pass\n",
    "try:\n    raise KeyError('k')\nexcept KeyError as error:\n"
    "    def last(e=error, *, f=missing):\n        pass\n",
    "def last(a, *, b):\n    return a, b\ntry:\n    last(1)\nfinally:\n    print('finally', last(1, b=2))\n",
    "@wrapping({tag})\ndef last(n):\n    return last(n - 1) if n else 1 // n\nlast(2)\n",
]


def program(seed: int) -> str:
    """The program of ``seed``: the first draw from it that CPython compiles."""
    return first_compiling(_draw, seed, 100)


def _draw(rng: random.Random) -> str:
    future = rng.random() < 0.4
    writer = _Writer(rng, future)
    parts = [FUTURE if future else "", HEADER]
    for number in range(rng.randint(3, 6)):
        parts += [line + "\n" for line in writer.placed(number)]
    if rng.random() < ESCAPING:
        parts.append(rng.choice(ENDINGS).format(tag=writer.next_tag()))
    return "".join(parts)


if __name__ == "__main__":
    from difftest import compare_seeds

    compare_seeds(program, sys.argv[1:])
