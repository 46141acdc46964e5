"""Random generators, driven through their whole protocol, for
``tests/test_generator_programs.py``.

Each program defines generators whose bodies ``yield`` values, take what
``send`` gives, delegate with ``yield from`` (to another generator of the
program, to iterators that are not generators, with and without ``send``,
``throw`` and ``close``, to lists, ranges and generator expressions) and
keep what the delegation returns, and nest ``try`` (typed and named
handlers, ``GeneratorExit`` ones that raise again or return, ``else`` and
``finally``), ``with``, ``for`` over another generator (``else``, ``break``,
``continue``), ``if``, ``return`` with a value and ``raise`` (a
``StopIteration`` too, which becomes a ``RuntimeError``). A driver then runs
one by ``next``, ``send``, ``throw``, ``close``, ``next`` with a default,
``list``, a ``for`` loop with ``break``, a comprehension, or another
generator that delegates to it; the generator is freed as the driver
returns, running what a suspended ``try`` or ``with`` still holds. (The
iterator's ``throw`` makes no reference cycle: one would keep alive
another frame in the output, a documented limitation.) The values,
the errors, the returned values and the log of every step are compared.

    python tests/generator_programs.py 1000 2000   # seeds 1000 to 2999, each compared
"""

from __future__ import annotations

from difftest import GeneratorWriter, driven_program

HEADER = '''\
log = []
def boom(k):
    log.append(("boom", k))
    if k % 5 == 0:
        raise KeyError(k)
    return k
class CM:
    def __init__(self, tag):
        self.tag = tag
    def __enter__(self):
        log.append(("enter", self.tag))
        return self.tag
    def __exit__(self, kind, error, traceback):
        log.append(("exit", self.tag, kind and kind.__name__))
        return kind is KeyError
class It:
    """An iterator that is no generator: ``next`` only."""
    def __init__(self, n, tag):
        self.n, self.i, self.tag = n, 0, tag
    def __iter__(self):
        return self
    def __next__(self):
        log.append(("it-next", self.tag, self.i))
        if self.i >= self.n:
            raise StopIteration(("it-done", self.tag))
        self.i += 1
        return ("it", self.tag, self.i)
class ItAll(It):
    """One with ``send``, ``throw`` (it takes a ValueError) and ``close``."""
    def send(self, value):
        log.append(("it-send", self.tag, value))
        return self.__next__()
    def throw(self, error, *rest):
        log.append(("it-throw", self.tag, repr(error)))
        if isinstance(error, ValueError):
            return ("it-took", self.tag)
        try:
            raise error
        finally:
            del error  # (a cycle through this frame frees what differs: README, Known limitations)
    def close(self):
        log.append(("it-close", self.tag))
def outer(g):
    got = yield from g
    log.append(("outer", got))
    return got
'''


class _Writer(GeneratorWriter):
    """Writes generators and their drivers from a seeded random source."""

    def value(self) -> str:
        tag = self.next_tag()
        return self.rng.choice([f"{tag}", f"boom(k + {tag})", f"(k, {tag})", f"[k, {tag}]"])

    def source(self) -> str:
        """Something to delegate to or loop over."""
        rng = self.rng
        tag = self.next_tag()
        choices = [f"It({rng.randint(0, 2)}, {tag})", *[f"ItAll({rng.randint(1, 3)}, {tag})"] * 2,
                   f"[k, {tag}]", "range(k % 3)", f"(x * {tag} for x in range(2) if x != k)"]
        if self.generators:
            choices += [f"{rng.choice(self.generators)}(k + {tag})"] * 3
        return rng.choice(choices)

    def statement(self, depth: int, loop: bool) -> list[str]:
        rng = self.rng
        tag = self.next_tag()
        choice = rng.random() * (0.5 if depth > 2 else 1.0)
        if choice < 0.12:
            return [f"yield {self.value()}"]
        if choice < 0.18:
            return [f"got = yield {self.value()}", f"log.append(('got', {tag}, got))"]
        if choice < 0.34:
            return [f"got = yield from {self.source()}", f"log.append(('from', {tag}, got))"]
        if choice < 0.40:
            return [rng.choice([f"raise KeyError({tag})", f"return ('ret', {tag})", "return",
                                f"boom(k + {tag})", f"raise StopIteration({tag})"])]
        if choice < 0.44 and loop:
            return [rng.choice(["break", "continue"])]
        if choice < 0.48:
            return [f"log.append(('step', {tag}))"]
        if choice < 0.62:
            lines = ["try:", *self.indented(depth, loop)]
            handlers = rng.randint(0, 2)
            for _ in range(handlers):
                kind = rng.choice(["ValueError", "KeyError", "GeneratorExit", "Exception", "RuntimeError"])
                lines += [f"except {kind} as error:", f"    log.append(('caught', {tag}, repr(error)))"]
                if kind == "GeneratorExit":  # one that yields again is an error of the program
                    lines += [rng.choice(["    raise", f"    return ('closed', {tag})"])]
                else:
                    lines += self.indented(depth, loop, optional=True)
            if handlers and rng.random() < 0.3:
                lines += ["else:", f"    log.append(('else', {tag}))"]
            if not handlers or rng.random() < 0.5:
                lines += ["finally:", f"    log.append(('finally', {tag}))"]
            return lines
        if choice < 0.72:
            return [f"with CM({tag}) as c{tag}:", *self.indented(depth, loop)]
        if choice < 0.86:
            lines = [f"for x{tag} in {self.source()}:", f"    log.append(('item', {tag}, x{tag}))",
                     *self.indented(depth, True)]
            if rng.random() < 0.3:
                lines += ["else:", f"    log.append(('else', {tag}))"]
            return lines
        return [f"if k % {rng.randint(2, 3)} == {rng.randint(0, 1)}:", *self.indented(depth, loop)]

    def generator(self, name: str) -> str:
        body = self.block(0, False)
        self.generators.append(name)
        return f"def {name}(k):\n    log.append(('start', {name!r}, k))\n    if k < 0:\n        yield\n" + \
            "".join(f"    {line}\n" for line in body) + f"    log.append(('end', {name!r}))\n" + \
            f"    return ('done', {name!r})\n"

    def driver(self, target: str) -> str:
        """``def drive(k)``: steps of the protocol on ``target(k)``."""
        rng = self.rng
        steps = [rng.choice(["out.append(next(g))", "out.append(g.send(None))"])]
        for _ in range(rng.randint(1, 4)):
            choice = rng.random()
            if choice < 0.25:
                steps.append("out.append(g.send(len(out)))")
            elif choice < 0.4:
                steps.append(rng.choice(["out.append(next(g))", "out.append(next(g, 'default'))"]))
            elif choice < 0.55:
                steps.append(f"out.append(g.throw({rng.choice(['ValueError', 'KeyError'])}(k)))")
            elif choice < 0.65:
                steps.append("out.append(g.close())")
            elif choice < 0.75:
                steps += ["for item in g:", "    out.append(item)", "    if len(out) > k:", "        break"]
            elif choice < 0.82:
                steps.append("out.append(list(g))")
            elif choice < 0.9:
                steps.append(f"out.append([item for item in {target}(k + 1) if item != k])")
            else:
                steps += ["for item in outer(g):", "    out.append(('outer', item))",
                          "    if len(out) > k + 1:", "        break"]
        body = "".join(f"        {line}\n" for line in steps)
        return (f"def drive(k):\n    g = {target}(k)\n    out = []\n    try:\n{body}"
                "    except StopIteration as stop:\n        out.append(('stop', stop.value))\n"
                "    except Exception as error:\n"
                "        out.append(('error', type(error).__name__, str(error), repr(error.__cause__)))\n"
                "    log.append('returning')\n    return out\n")


def program(seed: int) -> str:
    """The program of ``seed``."""
    return driven_program(seed, HEADER, _Writer, "gen", "drive(k)")


if __name__ == "__main__":
    import sys

    from difftest import compare_seeds

    compare_seeds(program, sys.argv[1:])
