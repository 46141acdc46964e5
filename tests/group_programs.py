"""Random ``try``/``except*`` statements over random exception groups, for
``tests/test_group_programs.py``.

Each program raises, in a function, a random exception or exception group
(nested groups of ``ValueError``, ``TypeError``, ``KeyError``, ``OSError``
and their subclasses, some with notes) inside a ``try`` whose ``except*``
clauses (one to three, of single types and tuples, named or not) print the
group they are given and then do nothing, ``raise`` again, raise the named
group, a new exception or a new one ``from`` it; some ``try`` statements
have ``else`` and ``finally`` and nest another. The caller prints what
leaves the function: the whole group, nested, with each exception's
``__context__``, ``__cause__`` and notes. So how each group is split, what
is raised again and how it is put back together are compared.

    python tests/group_programs.py 1000 2000   # seeds 1000 to 2999, each compared
"""

from __future__ import annotations

import random

from difftest import Writer

HEADER = '''\
class Sub(ValueError):
    pass
def shape(error, depth=0):
    if error is None or depth > 6:
        return None
    out = [type(error).__name__, str(error) if not isinstance(error, BaseExceptionGroup) else error.message]
    if isinstance(error, BaseExceptionGroup):
        out.append([shape(inner, depth + 1) for inner in error.exceptions])
    out.append(getattr(error, "__notes__", None))
    out.append(("context", shape(error.__context__, depth + 1)))
    out.append(("cause", shape(error.__cause__, depth + 1), error.__suppress_context__))
    return out
def call(tag, function):
    try:
        function()
        print(tag, "returned")
    except BaseException as error:
        print(tag, shape(error))
'''

LEAVES = ["ValueError", "TypeError", "KeyError", "OSError", "Sub", "FileNotFoundError"]


class _Writer(Writer):
    """Writes exception groups and ``except*`` handlers from a seeded random source."""

    def error(self, depth: int = 0) -> str:
        rng = self.rng
        tag = self.next_tag()
        if depth > 1 or rng.random() < 0.3:
            return f"{rng.choice(LEAVES)}({tag})"
        items = ", ".join(self.error(depth + 1) for _ in range(rng.randint(1, 3)))
        kind = "ExceptionGroup"
        return f"{kind}('g{tag}', [{items}])"

    def raising(self) -> list[str]:
        rng = self.rng
        error = self.error()
        if rng.random() < 0.2:
            tag = self.next_tag()
            return [f"error = {error}", f"error.add_note('note {tag}')", "raise error"]
        return [f"raise {error}"]

    def handler_body(self, name: str | None) -> list[str]:
        rng = self.rng
        tag = self.next_tag()
        lines = [f"print('handler', {tag}, shape({name}))"] if name else [f"print('handler', {tag})"]
        choice = rng.random()
        if choice < 0.35:
            return lines
        if choice < 0.55:
            return [*lines, "raise"]
        if choice < 0.65 and name:
            return [*lines, f"raise {name}"]
        if choice < 0.8:
            return [*lines, f"raise {rng.choice(LEAVES)}({tag})"]
        if choice < 0.9 and name:
            return [*lines, f"raise {rng.choice(LEAVES)}({tag}) from {name}"]
        return [*lines, f"raise ExceptionGroup('new{tag}', [{rng.choice(LEAVES)}({tag})])"]

    def try_lines(self, depth: int) -> list[str]:
        rng = self.rng
        body = self.raising()
        if depth < 1 and rng.random() < 0.3:
            body = self.try_lines(depth + 1)
        lines = ["try:", *("    " + line for line in body)]
        for kinds in rng.sample([("ValueError",), ("TypeError",), ("KeyError", "OSError"), ("Sub",),
                                 ("Exception",), ("FileNotFoundError",), ("LookupError",)],
                                rng.randint(1, 3)):
            name = "eg" if rng.random() < 0.7 else None
            kind = kinds[0] if len(kinds) == 1 else f"({', '.join(kinds)})"
            lines.append(f"except* {kind}{' as ' + name if name else ''}:")
            lines += ["    " + line for line in self.handler_body(name)]
        if rng.random() < 0.2:
            lines += ["else:", f"    print('else', {self.next_tag()})"]
        if rng.random() < 0.3:
            lines += ["finally:", f"    print('finally', {self.next_tag()})"]
        return lines


def program(seed: int) -> str:
    """The program of ``seed``."""
    rng = random.Random(seed)
    writer = _Writer(rng)
    parts = [HEADER]
    for number in range(rng.randint(3, 6)):
        body = "".join(f"    {line}\n" for line in writer.try_lines(0))
        parts.append(f"def f{number}():\n{body}call({number}, f{number})\n")
    return "".join(parts)


if __name__ == "__main__":
    import sys

    from difftest import compare_seeds

    compare_seeds(program, sys.argv[1:])
