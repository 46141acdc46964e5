"""Random generic functions, classes and ``type`` aliases (PEP 695, and the
defaults of PEP 696 on 3.13), for ``tests/test_type_param_programs.py``.

Each program defines three to eight generic definitions: functions
(``def f[T, *Ts, **P](...)``, decorated or not, with defaults and
annotations that read the parameters), classes (bases that use the
parameters, ``Base[T]``, ``list[T]``, a metaclass that prints what it is
given, keywords for ``__init_subclass__``, generic methods, methods that
use ``super()`` and ``__class__``, nested generic classes and ``type``
statements in the body) and aliases (``type A[T] = ...``). They stand at
module level, in a function (reading its variables, some bound only after
the definition, some through ``nonlocal`` or ``global``) or in a class
(whose names an annotation scope reads before the module's). Parameters
have bounds, constraints and (3.13) defaults, ``*Ts = *tuple[int, str]``
and ``**P = [int, str]`` included; those and the aliases' values are
evaluated lazily, by ``note(tag, value)``, which prints, so when each is
evaluated (and that it is evaluated once) is compared; some read a name
never bound, or bound later, or a variable of the function not bound yet,
and raise when read. Each definition is described where it is made, and
again after the module's names, a class's names and the missing names are
rebound: ``__type_params__`` and each parameter's kind, ``__name__``,
``__bound__``, ``__constraints__`` (and ``has_default()``, ``__default__``)
read in a random order, an alias's ``__value__``, names, qualified names,
modules, ``__orig_bases__``, ``__parameters__``, the MRO and the class's own
names, annotations, subscriptions, and the results of calls (the type
parameters and names the body sees), each failing access printing its
exception. Some shapes are drawn at rates of their own (``SHADOWING``,
``GLOBAL``, ``INTROSPECTION``, ``PRIVATE``, ``DELETED``, ``FOLDED`` below):
each found a fault of the compiler, and set to 0, a run looks past one.

    python tests/type_param_programs.py 1000 2000   # seeds 1000 to 2999, each compared
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from dataclasses import dataclass, field

from difftest import Writer, first_compiling

#: type parameter defaults (PEP 696) are 3.13 syntax
DEFAULTS = sys.version_info >= (3, 13)

HEADER = '''\
import re, typing
def show(value):
    if isinstance(value, BaseException):
        return f"{type(value).__name__}: {value}"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{key}: {show(item)}" for key, item in value.items()) + "}"
    if type(value) in (tuple, list):
        return type(value).__name__ + "(" + ", ".join(map(show, value)) + ")"
    return re.sub(" at 0x[0-9a-fA-F]+", "", repr(value))
def note(tag, value):
    print("note", tag, show(value))
    return value
def attempt(tag, function):
    try:
        value = function()
    except Exception as error:
        print(tag, "raised", type(error).__name__, error)
    else:
        print(tag, show(value))
def deco(function):
    print("deco", function.__qualname__, show(function.__type_params__))
    return function
def params(tag, owner, order):
    found = owner.__type_params__
    print(tag, "type_params", show(found))
    for param in found:
        name = f"{tag} {param.__name__}"
        print(name, type(param).__name__, param.__module__, getattr(param, "__infer_variance__", None))
        for what in order:
            if what == "b" and not isinstance(param, typing.TypeVarTuple):
                attempt(name + " bound", lambda: param.__bound__)
            elif what == "c" and isinstance(param, typing.TypeVar):
                attempt(name + " constraints", lambda: param.__constraints__)
            elif what == "d" and hasattr(param, "has_default"):
                attempt(name + " has_default", param.has_default)
                attempt(name + " default", lambda: param.__default__)
def function(tag, f, order):
    print(tag, f.__name__, f.__qualname__, f.__module__, show(f.__defaults__), show(f.__kwdefaults__))
    print(tag, "annotations", show(f.__annotations__))
    params(tag, f, order)
def klass(tag, cls, order):
    print(tag, cls.__name__, cls.__qualname__, cls.__module__, type(cls).__name__, cls.__doc__)
    print(tag, "orig_bases", show(cls.__dict__.get("__orig_bases__")), "parameters", show(cls.__parameters__))
    print(tag, "mro", [base.__qualname__ for base in cls.__mro__])
    print(tag, "names", sorted(name for name in vars(cls) if name not in ("__dict__", "__weakref__")))
    print(tag, "annotations", show(cls.__dict__.get("__annotations__")))
    params(tag, cls, order)
def alias(tag, value, order):
    print(tag, type(value).__name__, value.__name__, value.__module__, show(value.__parameters__))
    if "v" in order[:2]:
        attempt(tag + " value", lambda: value.__value__)
    params(tag, value, order)
    attempt(tag + " value", lambda: value.__value__)
class Meta(type):
    def __new__(meta, name, bases, namespace, **kwargs):
        print("Meta", name, show(bases), sorted(namespace), show(kwargs))
        return super().__new__(meta, name, bases, namespace, **kwargs)
class Base[B]:
    def __init_subclass__(cls, **kwargs):
        print("init_subclass", cls.__qualname__, show(kwargs))
    def who(self):
        return "Base.who", __class__.__name__, type(self).__qualname__
X = int
Y = str
'''

TYPEVARS = ("T", "U", "V", "K")

#: 3.13 refuses a lambda or a comprehension in an annotation scope within a class
NO_FUNCTIONS_IN_CLASS_SCOPES = sys.version_info >= (3, 13)

#: how often a type parameter is named as a class binds a name: ``X``, or
#: one of a generic class's own parameters that its body binds again
SHADOWING = 0.03
#: how often a generic function's body declares a name ``global`` (half the
#: time one of its type parameters)
GLOBAL = 0.05
#: how often a lazily evaluated value looks at its own scope:
#: ``sorted(locals())`` or a lambda's ``__qualname__``
INTROSPECTION = 0.02
#: how often a class binds a private name (``__p``, ``__q``) its annotation scopes read
PRIVATE = 0.15
#: how often a function deletes a variable (``W``) a lazy value reads
DELETED = 0.1
#: how often constraints that are all string literals are left so (CPython
#: folds such a tuple into a constant: a bound)
FOLDED = 0.3


@dataclass
class Scope:
    """What an expression written somewhere may read."""

    #: type parameters visible: (kind, name), kind "" (TypeVar), "*" or "**"
    params: list[tuple[str, str]] = field(default_factory=list)
    #: names bound when the code there runs
    eager: list[str] = field(default_factory=lambda: ["X", "Y"])
    #: names only a lazily evaluated value may read (bound later, or never)
    lazy: list[str] = field(default_factory=list)
    #: the class whose body this is, if any (its name)
    in_class: str | None = None
    #: the names ``Base`` goes by there
    bases: list[str] = field(default_factory=lambda: ["Base"])
    #: the name of the alias whose value this is (it may read itself)
    alias: str | None = None
    #: whether this is in a function whose variable ``W`` a ``nonlocal`` may name
    function: bool = False

    def inner(self, **changes: object) -> Scope:
        fields = {"params": list(self.params), "eager": list(self.eager), "lazy": list(self.lazy),
                  "in_class": self.in_class, "bases": list(self.bases), "alias": self.alias,
                  "function": self.function}
        return Scope(**{**fields, **changes})

    def functions_allowed(self) -> bool:
        """Whether an annotation scope here may hold a lambda or a comprehension."""
        return not (NO_FUNCTIONS_IN_CLASS_SCOPES and self.in_class)


@dataclass
class Made:
    """A definition written: its lines, and how to describe it from an access expression."""

    name: str
    lines: list[str]
    observe: Callable[[str], list[str]]


class _Writer(Writer):
    """Writes generic definitions from a seeded random source."""

    def __init__(self, rng: random.Random) -> None:
        super().__init__(rng)
        self.missing: list[str] = []  # names read lazily that nothing binds yet
        self.classes: list[str] = []  # classes around definitions (their X may be rebound)
        self.count = 0

    def fresh(self, prefix: str) -> str:
        self.count += 1
        return f"{prefix}{self.count}"

    def order(self) -> str:
        letters = list("bcdv")
        self.rng.shuffle(letters)
        return "".join(letters)

    # expressions

    def expr(self, scope: Scope, lazy: bool, depth: int = 0, top: bool = True) -> str:
        """A type expression; ``lazy``: evaluated when first read, so it may read
        names bound later or never, and call what it makes (a lambda, a comprehension)."""
        rng = self.rng
        typevars = [name for kind, name in scope.params if kind == ""]
        packs = [name for kind, name in scope.params if kind == "*"]
        specs = [name for kind, name in scope.params if kind == "**"]
        choice = rng.random()
        if depth < 2 and choice < 0.2:
            return f"note({self.next_tag()}, {self.expr(scope, lazy, depth + 1, top)})"
        if depth < 2 and choice < 0.4:
            shape = rng.choice(["list[{}]", "tuple[{}, {}]", "dict[{}, {}]", "{} | None"])
            items = [self.expr(scope, lazy, depth + 1, False) for _ in range(shape.count("{}"))]
            return shape.format(*items)
        if depth < 2 and packs and choice < 0.46:
            return f"tuple[{self.expr(scope, lazy, depth + 1, False)}, *{rng.choice(packs)}]"
        if depth < 2 and specs and choice < 0.5:
            return f"typing.Callable[{rng.choice(specs)}, {self.expr(scope, lazy, depth + 1, False)}]"
        functions = lazy and scope.functions_allowed()
        if functions and choice < 0.54:
            return f"(lambda: {self.expr(scope, lazy, depth + 1, False)})()"
        if functions and choice < 0.57:
            return f"[{self.expr(scope, lazy, depth + 1, False)} for _ in (1,)][0]"
        if lazy and rng.random() < INTROSPECTION:
            if functions and rng.random() < 0.5:
                return "(lambda: 0).__qualname__"
            if not scope.in_class:  # (in a class CPython's shows its ``__classdict__`` cell: not matched)
                return "sorted(locals())"
        if top and choice < 0.6:
            return repr(rng.choice(["Later", "T", "X"]))
        leaves = ["int", "str", *scope.eager, *typevars, *typevars]
        if scope.in_class:  # the names a class binds, read first there, more often
            leaves += [name for name in scope.eager if name != "Y"]
        if lazy:
            leaves += [*scope.lazy, "Later"]
            if scope.alias:
                leaves.append(scope.alias)
            if rng.random() < 0.2:
                name = self.fresh("missing")
                self.missing.append(name)
                return name
        return rng.choice(leaves)

    # type parameters

    def type_params(self, scope: Scope) -> tuple[str, list[tuple[str, str]]]:
        """``[...]`` and the parameters it makes; ``scope`` is where the definition is."""
        rng = self.rng
        names = rng.sample(TYPEVARS, rng.randint(0, 3))
        if rng.random() < SHADOWING:
            names.append("X")  # shadows the module's (and a class's) X
        made = [("", name) for name in names]
        if rng.random() < 0.35:
            made.append(("*", rng.choice(["Ts", "Us"])))
        if rng.random() < 0.3:
            made.append(("**", rng.choice(["P", "Q"])))
        if not made:
            made.append(("", "T"))
        rng.shuffle(made)
        if scope.in_class and rng.random() < 0.2:
            # private: mangled; first, since on 3.13.0 a default that reads a
            # later private parameter of a class raises SystemError
            made.insert(0, ("", "__M"))
        inner = scope.inner(params=[*scope.params, *made])
        texts = []
        defaulted = False
        for kind, name in made:
            text = kind + name
            if kind == "" and rng.random() < 0.45:
                if rng.random() < 0.3:
                    items = [self.expr(inner, True) for _ in range(rng.randint(2, 3))]
                    if all(item.startswith("'") for item in items) and rng.random() >= FOLDED:
                        items[0] = "int"
                    text += f": ({', '.join(items)})"
                else:
                    text += f": {self.expr(inner, True)}"
            if DEFAULTS and (defaulted or rng.random() < 0.25):
                defaulted = True  # the parameters after one with a default have one
                text += " = " + self.default(kind, inner)
            texts.append(text)
        return f"[{', '.join(texts)}]", made

    def default(self, kind: str, scope: Scope) -> str:
        rng = self.rng
        if kind == "*":
            return rng.choice([
                "*tuple[int, str]", f"*note({self.next_tag()}, tuple[{self.expr(scope, True, 1)}])",
                f"tuple[{self.expr(scope, True, 1)}]", f"*{self.expr(scope, True, 1)}", "*tuple[int, ...]",
            ])
        if kind == "**":
            return rng.choice(["[int, str]", "...", f"note({self.next_tag()}, [{self.expr(scope, True, 1)}])",
                               f"[{self.expr(scope, True, 1)}]"])
        return self.expr(scope, True)

    # definitions

    def function(self, scope: Scope, name: str, method: bool) -> Made:
        """A generic function; a ``method`` of a class (a class method or a static
        one too). Its defaults are evaluated where the ``def`` is (a class's
        ``X``), its annotations in the annotation scope."""
        rng = self.rng
        header, made = self.type_params(scope)
        inner = scope.inner(params=[*scope.params, *made])
        kind = rng.choice(["", "", "@classmethod", "@staticmethod"]) if method else ""
        args = ["self"] if method and kind != "@staticmethod" else []
        count = rng.randint(0, 2)
        required = count
        for number in range(count):
            arg = f"a{number}"
            if rng.random() < 0.6:
                arg += f": {self.expr(inner, False)}"
            if rng.random() < 0.3 or required < number:
                required = min(required, number)
                value = rng.choice([str(number), *scope.eager]) if rng.random() < 0.5 else str(number)
                arg += f" = note({self.next_tag()}, {value})"
            args.append(arg)
        packs = [n for k, n in made if k == "*"]
        specs = [n for k, n in made if k == "**"]
        if specs:
            args += [f"*args: {specs[0]}.args", f"**kwargs: {specs[0]}.kwargs"]
        elif packs:
            args.append(f"*args: *{packs[0]}")
        elif rng.random() < 0.3:
            args += ["*", f"key: {self.expr(inner, False)} = {rng.choice(['X', 'Y', 'None'])}"]
        returns = f" -> {self.expr(inner, False)}" if rng.random() < 0.5 else ""
        seen = [n for _, n in made]
        body = []
        if not method and rng.random() < GLOBAL:
            body.append(f"global {rng.choice(seen) if rng.random() < 0.5 else 'X'}")
        elif scope.function and rng.random() < 0.2:
            # the function's variable, through the annotation scope: what lazy values read after the call
            body += ["nonlocal W", f"W = note({self.next_tag()}, ({', '.join(seen)}, 'W set in {name}'))"]
        if rng.random() < 0.3:
            body += [f"def inner(): return {', '.join(seen)}", "seen = inner(), inner.__qualname__"]
        else:
            body.append(f"seen = {', '.join(seen)},")
        if method and kind != "@staticmethod":
            body.append("seen += (__class__.__qualname__, super().__thisclass__.__qualname__)")
        names = [a.split(":")[0].split(" = ")[0] for a in args if a not in ("self", "*")]
        names = [n.lstrip("*") for n in names]
        returned = ", ".join(["seen", *names, rng.choice(["X", "Y", "Z", *seen])])
        body.append(f"return {returned}")
        decorators = [kind] if kind else []
        if rng.random() < 0.2:
            decorators.append("@deco")
        lines = [*decorators, f"def {name}{header}({', '.join(args)}){returns}:",
                 *("    " + line for line in body)]
        given = [str(n * 10) for n in range(rng.randint(required, count))]
        if specs or packs:
            given = [str(n) for n in range(count)] + ["'extra'"] + (["key='word'"] if specs else [])
        call_args = ", ".join(given)
        order = self.order()

        def observe(access: str) -> list[str]:
            tag = self.next_tag()
            owner = access.rsplit("().", 1)
            described = f"{owner[0]}.{owner[1]}" if len(owner) == 2 else access
            return [f"function({tag}, {described}, {order!r})",
                    f"attempt({tag}, lambda: {access}({call_args}))"]

        return Made(name, lines, observe)

    def alias(self, scope: Scope, name: str) -> Made:
        """``type name[...] = value``, its value lazy (it may read itself)."""
        rng = self.rng
        header, made = self.type_params(scope) if rng.random() < 0.8 else ("", [])
        inner = scope.inner(params=[*scope.params, *made], alias=name)
        lines = [f"type {name}{header} = {self.expr(inner, True)}"]
        order = self.order()
        arity = [kind for kind, _ in made]

        def observe(access: str) -> list[str]:
            tag = self.next_tag()
            out = [f"alias({tag}, {access}, {order!r})"]
            if arity:
                items = ", ".join("[int]" if kind == "**" else "int" for kind in arity)
                out.append(f"attempt({tag}, lambda: {access}[{items}])")
            return out

        return Made(name, lines, observe)

    def klass(self, scope: Scope, name: str, depth: int) -> Made:
        """A generic class: bases that use its parameters (``Base`` maybe by a
        class's name for it), a metaclass, keywords; its body binds names the
        annotation scopes inside read first, and holds generic methods,
        aliases and (once) a nested generic class."""
        rng = self.rng
        header, made = self.type_params(scope)
        inner = scope.inner(params=[*scope.params, *made])
        typevars = [n for kind, n in made if kind == ""] or ["int"]
        bases = []
        keywords = []
        if rng.random() < 0.5:
            bases.append(f"{rng.choice(scope.bases)}[{rng.choice(typevars)}]")
            if rng.random() < 0.5:
                keywords.append(f"flag=note({self.next_tag()}, 'flag')")
        if rng.random() < 0.3:
            bases.append(rng.choice(["list[{}]", "dict[{}, {}]"]).format(*(rng.choice(typevars) for _ in "ab")))
        if rng.random() < 0.35:
            keywords.append("metaclass=Meta")
        arguments = ", ".join([*bases, *keywords])
        late = rng.random() < 0.3
        body_scope = inner.inner(in_class=name, lazy=[*inner.lazy, *(["Z"] if late else [])])
        body: list[str] = []
        if rng.random() < 0.3:
            body.append(f'"Doc of {name}."')
        if rng.random() < 0.5:
            body.append(f"X = {rng.choice(['float', 'complex'])}")
        if rng.random() < 0.3:
            body.append("Bs = Base")
            body_scope.bases.append("Bs")
        if rng.random() < SHADOWING:
            rebound = rng.choice([n for _, n in made])
            body.append(f"{rebound} = {rng.choice(['float', 'complex'])}")  # the class's own, from now on
        if rng.random() < 0.4:
            body.append(f"item: {self.expr(body_scope, False)}")
        body.append(f"kept = {', '.join(n for _, n in made)},")
        if rng.random() < 0.3:
            body.append("own = __type_params__")
        if rng.random() < PRIVATE:
            body.append("__q = str")  # private: read as _C__q
            body_scope.eager.append("__q")
        params = ", ".join(n for _, n in made)
        if rng.random() < 0.3:
            body.append(f"listed = [({params}) for _ in (1,)]")
        if rng.random() < 0.3:
            body.append(f"got = lambda self: ({params})")
        if depth == 0 and rng.random() < 0.3:  # a class body in a class body, not an annotation scope
            body += ["class Plain:", f"    seen = {params},", f"    def get(self): return {params}"]
        body += ["def plain(self):",
                 f"    return ({params}), __class__.__qualname__, super().__thisclass__.__name__"
                 + (", super().who()" if bases and "[" in bases[0] and not bases[0].startswith(("list", "dict"))
                    else "")]
        # the nested generic classes last: on 3.12 the code after one mangles
        # private names as its own (CPython's gh-119395)
        members: list[list[str]] = []
        observers: list[tuple[str, Made]] = []
        for number in range(rng.randint(1, 3)):
            what = rng.random()
            if what < 0.5:
                member = self.function(body_scope, f"m{number}", True)
                observers.append(("method", member))
            elif what < 0.75 or depth > 0:
                member = self.alias(body_scope, f"A{number}")
                observers.append(("attr", member))
            else:
                member = self.klass(body_scope, f"Inner{number}", depth + 1)
                observers.append(("attr", member))
            members.append(member.lines)
        members.sort(key=lambda lines: any(line.startswith("class ") for line in lines))
        body += [line for lines in members for line in lines]
        if late:
            body.append("Z = bytes")
        decorator = ["@note(0, lambda cls: cls)"] if rng.random() < 0.15 else []
        lines = [*decorator, f"class {name}{header}({arguments}):", *("    " + line for line in body)]
        order = self.order()
        arity = [kind for kind, _ in made]

        def observe(access: str) -> list[str]:
            tag = self.next_tag()
            items = ", ".join("[int]" if kind == "**" else "int" for kind in arity)
            out = [f"klass({tag}, {access}, {order!r})",
                   f"attempt({tag}, lambda: {access}[{items}])",
                   f"attempt({tag}, lambda: {access}().plain())",
                   f"attempt({tag}, lambda: [{access}.__dict__.get(name) for name in "
                   "('kept', 'own', 'listed', '_' + " + f"{access}.__name__ + '__q')])"]
            if "got = lambda self: (" + params + ")" in body:
                out.append(f"attempt({tag}, lambda: {access}().got())")
            if "class Plain:" in body:
                out += [f"attempt({tag}, lambda: ({access}.Plain.seen, {access}.Plain().get(), "
                        f"{access}.Plain.__qualname__))"]
            for kind, member in observers:
                out += member.observe(f"{access}().{member.name}" if kind == "method"
                                      else f"{access}.{member.name}")
            return out

        return Made(name, lines, observe)

    def definition(self, scope: Scope, name: str) -> Made:
        what = self.rng.random()
        if what < 0.35:
            return self.function(scope, name, False)
        if what < 0.65:
            return self.alias(scope, name)
        return self.klass(scope, name, 0)

    def placed(self, number: int) -> tuple[list[str], list[str]]:
        """One definition where it stands (described there, half the time), and
        its description for the end of the module. At module level; in a class
        (whose ``X`` and ``W`` it reads first, ``Z`` bound after it); in a
        function (``W``, ``X`` its variables, ``late`` bound after it, a
        ``global`` and a ``nonlocal`` maybe), in a class in a function, or in a
        function in a class (whose names it does not see)."""
        rng = self.rng
        name = f"D{number}"
        where = rng.choice(["module", "module", "function", "class", "function class", "nonlocal",
                            "class function"])
        if where == "module":
            made = self.definition(Scope(), name)
            now = made.observe(name) if rng.random() < 0.5 else []
            return [*made.lines, *now], made.observe(name)
        if where == "class":
            holder = f"H{number}"
            self.classes.append(holder)
            scope = Scope(eager=["X", "Y", "W"], lazy=["Z"], in_class=holder)
            body = ["W = bytes"]
            if rng.random() < 0.5:
                body.insert(0, f"X = {rng.choice(['float', 'complex'])}")
            if rng.random() < 0.3:
                body.append("Bs = Base")
                scope.bases.append("Bs")
            if rng.random() < 0.15:
                body.insert(0, "global Y")
                body.append(f"Y = note({self.next_tag()}, bytearray)")
            if rng.random() < PRIVATE:
                body.append("__p = bool")  # private: read as _H..__p
                scope.eager.append("__p")
            made = self.definition(scope, name)
            body += [*made.lines, "Z = memoryview"]
            if body[0].startswith("X") and rng.random() < 0.3:
                body.append("del X")  # a lazy value reads the module's X then
            lines = [f"class {holder}:", *("    " + line for line in body)]
            return lines, made.observe(f"{holder}.{name}")
        # in a function, returned from it
        maker = f"make{number}"
        late = f"late{number}"
        in_class = "Holder" if where == "function class" else None
        scope = Scope(eager=["X", "Y", "W"], lazy=[late], in_class=in_class, function=True)
        made = self.definition(scope, name)
        inside = made.lines
        body = ["W = bytes"]
        if rng.random() < 0.5:
            body.append(f"X = {rng.choice(['float', 'complex'])}")
        if rng.random() < 0.15:
            body.insert(0, "global Y")
            body.append(f"Y = note({self.next_tag()}, bytearray)")
        returned = name
        if where == "function class":
            inside = ["class Holder:", "    X = frozenset", *("    " + line for line in made.lines)]
            returned = f"Holder.{name}"
        now = made.observe(returned) if rng.random() < 0.5 else []
        tail = [*inside, *now, f"{late} = bytearray"]
        if rng.random() < 0.4:
            tail.append(f"W = note({self.next_tag()}, 'W rebound')")
        elif rng.random() < DELETED:
            tail.append("del W")  # a lazy value that reads it raises
        tail.append(f"return {returned}")
        if where == "nonlocal":
            body += ["def inner():", "    nonlocal W", "    W = set", *("    " + line for line in tail),
                     "return inner()"]
        else:
            body += tail
        lines = [f"def {maker}():", *("    " + line for line in body)]
        if where == "class function":
            holder = f"H{number}"
            lines = [f"class {holder}:", "    X = slice", "    W = range",
                     *("    " + line for line in lines), f"    {name} = {maker}()"]
            return lines, made.observe(f"{holder}.{name}")
        return [*lines, f"{name} = {maker}()"], made.observe(name)

    def rebinding(self) -> list[str]:
        """The names lazy values read, bound again (or for the first time) at module level."""
        rng = self.rng
        lines = []
        if rng.random() < 0.5:
            lines.append(f"X = note({self.next_tag()}, 'X rebound')")
        if rng.random() < 0.6:
            lines.append("class Later: pass")
        for name in self.missing:
            if rng.random() < 0.5:
                lines.append(f"{name} = {rng.choice(['bool', 'bytes', repr(name)])}")
        for holder in self.classes:
            if rng.random() < 0.5:
                lines.append(f"{holder}.X = {rng.choice(['range', 'type'])}")
        return lines


def program(seed: int) -> str:
    """The program of ``seed``: the first draw from it that CPython compiles."""
    return first_compiling(_draw, seed, 100)


def _draw(rng: random.Random) -> str:
    writer = _Writer(rng)
    parts = [HEADER]
    if rng.random() < 0.3:
        parts.append("T = 'module T'\n")
    later: list[str] = []
    for number in range(rng.randint(3, 5)):
        lines, observe = writer.placed(number)
        parts += [line + "\n" for line in lines]
        later += observe
    parts += [line + "\n" for line in writer.rebinding()]
    parts += [line + "\n" for line in later]
    return "".join(parts)


if __name__ == "__main__":
    from difftest import compare_seeds

    compare_seeds(program, sys.argv[1:])
