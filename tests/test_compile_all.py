"""Output compiles wherever the input compiles: standard library modules, and the depth count.

The full check is ``benchmarks/compile_all.py``; here a fixed subset of the
library (the deepest nesting, plus large modules) and, marked slow, all of it.
:func:`unsugar.depth.static_block_depth` is checked against CPython itself:
code at ``MAX_BLOCKS`` compiles, one deeper fails, for every kind of block.
"""

from __future__ import annotations

import ast
import random
import sys
import warnings
from pathlib import Path

import pytest

from unsugar.depth import MAX_BLOCKS, max_blocks, static_block_depth

sys.path.insert(0, str(Path(__file__).parent.parent / "benchmarks"))
import compile_all  # noqa: E402

# The deepest nesting in the library of 3.11-3.13 (input depth 6 to 9); the two email and
# idlelib modules are also among the large ones (2400-3000 lines).
SUBSET = [
    "test/test_exceptions.py", "multiprocessing/forkserver.py", "multiprocessing/pool.py",
    "idlelib/idle_test/test_run.py", "test/test_urllib2net.py", "multiprocessing/resource_tracker.py",
    "email/_header_value_parser.py", "idlelib/configdialog.py", "multiprocessing/managers.py",
    "test/test_except_star.py", "test/test_deque.py", "test/test_uuid.py", "site.py", "glob.py",
    "email/_encoded_words.py", "test/test_richcmp.py", "test/test_getpass.py", "test/sortperf.py",
    "test/test_tools/test_fixcid.py", "test/libregrtest/main.py",
]


@pytest.mark.parametrize("name", SUBSET)
def test_library_module_output_compiles(name):
    path = compile_all.ROOT / name
    if not path.exists():
        pytest.skip(f"{name} is not in this version's library")
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = compile_all.check(path)
    assert result["status"] == compile_all.OK, result.get("error")


@pytest.mark.slow
def test_whole_library_output_compiles(capsys):
    assert compile_all.main(["--timeout", "600"]) == 0, capsys.readouterr().out


# ---------------------------------------------------------------- the depth count
def compiles(source: str) -> bool:
    try:
        compile(source, "<nest>", "exec", dont_inherit=True)
    except SyntaxError as exc:
        assert "too many statically nested blocks" in str(exc)
        return False
    return True


# Each kind: how it wraps the lines of a body, and how much deeper the body is.
KINDS = {
    "for": (lambda b: ["for a in b:", *b], 1),
    "while": (lambda b: ["while a:", *b], 1),
    "for else": (lambda b: ["for a in b:", "    pass", "else:", *b], 0),
    "with": (lambda b: ["with a:", *b], 1),
    "with two items": (lambda b: ["with a, b as c:", *b], 2),
    "if": (lambda b: ["if a:", "    pass", "else:", *b], 0),
    "match": (lambda b: ["match a:", "    case 1:", "        pass", "    case _:",
                         *("    " + line for line in b)], 0),
    "try body": (lambda b: ["try:", *b, "except E:", "    pass"], 1),
    "except": (lambda b: ["try:", "    pass", "except E as e:", *b], 2),
    "except*": (lambda b: ["try:", "    pass", "except* E:", *b], 2),
    "try else": (lambda b: ["try:", "    pass", "except E:", "    pass", "else:", *b], 0),
    "finally": (lambda b: ["try:", "    pass", "finally:", *b], 1),
    "try body, finally": (lambda b: ["try:", *b, "finally:", "    pass"], 1),
    "try body, except, finally": (lambda b: ["try:", *b, "except E:", "    pass",
                                             "finally:", "    pass"], 2),
    "except, finally": (lambda b: ["try:", "    pass", "except E:", *b, "finally:",
                                   "    pass"], 3),
    "try else, finally": (lambda b: ["try:", "    pass", "except E:", "    pass", "else:", *b,
                                     "finally:", "    pass"], 1),
    "async for": (lambda b: ["async for a in b:", *b], 1),
    "async with": (lambda b: ["async with a:", *b], 1),
}


def nest(kinds: list[str], leaf: str = "pass") -> str:
    lines = leaf.splitlines()
    for kind in reversed(kinds):
        wrap, _ = KINDS[kind]
        lines = wrap(["    " + line for line in lines])
    return "\n".join(lines) + "\n"


def in_scope(body: str, head: str) -> str:
    return head + "\n" + "".join("    " + line + "\n" for line in body.splitlines())


def scope_base(head: str) -> int:
    """3.13 counts the ``StopIteration`` handler of generators and coroutines as a block."""
    generator = head.startswith("async") or "yield" in head
    return int(generator and sys.version_info >= (3, 13))


@pytest.mark.parametrize("kind", list(KINDS))
def test_depth_limit_per_kind(kind):
    head = "async def f():" if kind.startswith("async") else "def f():"
    step = KINDS[kind][1]
    copies = 3  # three of the kind, then `for` loops up to the limit
    for target in (MAX_BLOCKS, MAX_BLOCKS + 1):
        fill = target - scope_base(head) - copies * step
        source = in_scope(nest([kind] * copies + ["for"] * fill), head)
        assert static_block_depth(ast.parse(source))[0] == target
        assert compiles(source) == (target <= MAX_BLOCKS)


@pytest.mark.parametrize("head", ["", "def f():", "class C:", "def f():\n    yield",
                                  "async def f():"])
def test_depth_limit_per_scope(head):
    base = scope_base(head)
    for target in (MAX_BLOCKS, MAX_BLOCKS + 1):
        source = nest(["for"] * (target - base))
        source = in_scope(source, head) if head else source
        depth, node = static_block_depth(ast.parse(source))
        assert depth == target and isinstance(node, ast.For)
        assert compiles(source) == (target <= MAX_BLOCKS)


def test_new_scope_starts_again():
    inner = in_scope(nest(["for"] * MAX_BLOCKS), "def g():")
    source = nest(["while"] * MAX_BLOCKS, leaf=inner)
    assert static_block_depth(ast.parse(source))[0] == MAX_BLOCKS
    assert compiles(source)
    lam = nest(["for"] * MAX_BLOCKS, leaf="f = lambda: [x for x in y]")
    assert static_block_depth(ast.parse(lam))[0] == MAX_BLOCKS and compiles(lam)


def test_async_comprehension_clauses():
    # from 3.12 list comprehensions are inlined: their `async for` counts where they are
    for leaf, inlined in [("x = [a async for a in b]", True), ("x = (a async for a in b)", False)]:
        body = nest(["for"] * (MAX_BLOCKS - scope_base("async def")), leaf=leaf)
        source = in_scope(body, "async def f():")
        deeper = inlined and sys.version_info >= (3, 12)
        assert static_block_depth(ast.parse(source))[0] == MAX_BLOCKS + deeper
        assert compiles(source) == (not deeper)


def test_max_blocks_per_version():
    assert (max_blocks((3, 11)), max_blocks((3, 12)), max_blocks((3, 13))) == (20, 20, 21)
    assert MAX_BLOCKS == max_blocks(sys.version_info[:2])


def test_random_nests_agree_with_cpython():
    """Random mixes of every kind of block, around the limit: the count decides as CPython does."""
    rng = random.Random(2024)
    plain = [kind for kind in KINDS if not kind.startswith("async") and "finally" not in kind]
    checked = 0
    for _ in range(400):
        kinds = [rng.choice(plain) for _ in range(rng.randint(6, 22))]
        kinds += ["finally"] * rng.randint(0, 2)  # nested finally bodies take 2**n to compile
        rng.shuffle(kinds)
        head = rng.choice(["", "def f():", "class C:"]
                          + ([] if sys.version_info[:2] == (3, 12) else ["def f():\n    yield"]))
        source = nest(kinds)
        source = in_scope(source, head) if head else source
        depth, _ = static_block_depth(ast.parse(source))
        if abs(depth - MAX_BLOCKS) <= 3:
            checked += 1
            assert compiles(source) == (depth <= MAX_BLOCKS), source
    assert checked > 50

