"""A long module body runs as a chain of section defs (``unsugar.sections``)."""

from __future__ import annotations

import ast
import traceback

import pytest
from difftest import assert_same, desugared

from unsugar import desugar_tree, sections

#: sections of a few statements, so that short modules have many
SHORT = 12


@pytest.fixture
def short_sections(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sections, "SECTION_LENGTH", SHORT)

#: a module long enough for several sections: each block is a few statements
#: of the body def, with temporaries (``for``, ``with``, defs) and names of its own
BLOCK = """\
def f{n}(a, b={n}):
    return [x + a for x in range(b % 5)]
total{n} = 0
for item in f{n}(1):
    total{n} += item
class K{n}:
    shared = "shared"
    unique{n} = "only{n}"
try:
    checksum += total{n} + len(K{n}.unique{n})
except NameError:
    checksum = 0
"""


def long_module(blocks: int, tail: str = "") -> str:
    return "".join(BLOCK.format(n=n) for n in range(blocks)) + tail


def body_defs(out: str) -> list[str]:
    """The names of the section defs in the module def of ``out``."""
    module_def = ast.parse(out).body[0]
    assert isinstance(module_def, ast.FunctionDef)
    return [stmt.name for stmt in module_def.body
            if isinstance(stmt, ast.FunctionDef) and stmt.name.startswith("_us_body")]


def test_a_long_module_runs_the_same_in_sections() -> None:
    """At the real section length."""
    source = long_module(3 * sections.SECTION_LENGTH // len(BLOCK.splitlines()), "print(checksum, sorted(k for k in dir() if k[0] == 'K')[:3])\n")
    assert len(body_defs(desugared(source))) >= 3
    assert_same(source)


def test_a_short_module_is_one_body_def() -> None:
    assert body_defs(desugared(long_module(20))) == ["_us_body"]


@pytest.mark.usefixtures("short_sections")
def test_every_cut_runs_the_same() -> None:
    source = long_module(12, "print(checksum, K3.unique3, f11(2))\n")
    assert len(body_defs(desugared(source))) > 5
    assert_same(source)


@pytest.mark.usefixtures("short_sections")
def test_no_cut_where_a_temporary_lives() -> None:
    """Sections are cut only between statements no temporary lives across: a
    top-level ``with`` and ``for`` long enough to be cut in the middle stay whole."""
    inner = "".join(f"    v{n} = [{n}]\n    w{n} = v{n} * 2\n" for n in range(2 * SHORT))
    source = (
        "import contextlib\n"
        f"with contextlib.nullcontext(1) as c:\n{inner}"
        f"for i in range(2):\n{inner}"
        + long_module(8, "print(c, i, w5, checksum)\n")
    )
    assert len(body_defs(desugared(source))) >= 2
    assert_same(source)


@pytest.mark.usefixtures("short_sections")
def test_constants_of_one_section_move_into_it() -> None:
    """A string only one section uses is bound in that section; one that
    several use stays in the module def."""
    out = desugared(long_module(8))
    module_def = ast.parse(out).body[0]
    assert isinstance(module_def, ast.FunctionDef)
    top = {stmt.targets[0].id for stmt in module_def.body if isinstance(stmt, ast.Assign)}
    last = [stmt for stmt in module_def.body
            if isinstance(stmt, ast.FunctionDef) and stmt.name.startswith("_us_body")][-1]
    in_last = {node.targets[0].id for node in ast.walk(last) if isinstance(node, ast.Assign)}
    assert "_us_s_shared" in top and "_us_s_shared" not in in_last
    final = 8 - 1
    assert f"_us_s_unique{final}" in in_last and f"_us_s_unique{final}" not in top


@pytest.mark.usefixtures("short_sections")
def test_a_traceback_from_a_later_section_shows_the_module_lines() -> None:
    source = long_module(8, "def boom():\n    raise KeyError('late')\nboom()\n")
    frames = []
    for tree in (ast.parse(source), desugar_tree(ast.parse(source))):
        with pytest.raises(KeyError) as info:
            exec(compile(tree, "long.py", "exec"), {"__name__": "long"})
        frames.append([(f.name, f.lineno, f.filename) for f in traceback.extract_tb(info.value.__traceback__)
                       if f.filename == "long.py"])
    assert frames[0] == frames[1]
    assert frames[0][0][0] == "<module>"


@pytest.mark.usefixtures("short_sections")
def test_module_frames_are_named_module_in_every_section() -> None:
    source = long_module(
        8,
        "import sys\nprint(sys._getframe().f_code.co_name, sys._getframe().f_code.co_qualname)\n",
    )
    assert len(body_defs(desugared(source))) >= 3
    assert_same(source)


@pytest.mark.usefixtures("short_sections")
def test_a_variable_a_def_closes_over_stays_in_one_section() -> None:
    """``g`` reads the variable ``t`` when called: were ``t = 2`` in another
    section, ``g`` would keep the first section's ``t``."""
    filler = "".join(f"x{n} = {n}\n" for n in range(3 * SHORT))
    stmts = ast.parse(f"t = 1\ndef g():\n    return t\n{filler}t = 2\n{filler}print(g())\n{filler}").body
    cut = sections._sections(stmts, {"t", "g", *(f"x{n}" for n in range(3 * SHORT))})
    assert len(cut) > 1
    holding = [i for i, section in enumerate(cut) for stmt in section if "t" in ast.unparse(stmt)]
    assert len(set(holding)) == 1


@pytest.mark.usefixtures("short_sections")
def test_a_variable_bound_again_before_it_is_read_does_not_hold_a_cut() -> None:
    """A flag reused by every statement (``_us_if3 = ...`` first) lives in none between them."""
    stmts = ast.parse("".join(f"f = {n}\nprint(f)\n" for n in range(2 * SHORT))).body
    assert len(sections._sections(stmts, {"f"})) == 4


@pytest.mark.usefixtures("short_sections")
def test_a_binding_that_may_not_run_does_not_end_a_variable() -> None:
    """``t = 2`` in a ``try`` may not run: ``print(t)`` may read ``t = 1``."""
    filler = "".join(f"x{n} = {n}\n" for n in range(3 * SHORT))
    stmts = ast.parse(f"t = 1\n{filler}try:\n    t = 2\nexcept:\n    pass\n{filler}print(t)\n{filler}").body
    cut = sections._sections(stmts, {"t", *(f"x{n}" for n in range(3 * SHORT))})
    assert len(cut) > 1
    holding = [i for i, section in enumerate(cut) for stmt in section if "t" in ast.unparse(stmt)]
    assert len(set(holding)) == 1


@pytest.mark.usefixtures("short_sections")
def test_sections_with_hoisted_defs() -> None:
    """150 nested lambdas are hoisted (``unsugar.hoisting``) out of a section."""
    deep = "f = " + "lambda: " * 150 + "42\ng = f\nfor _ in range(149):\n    g = g()\nprint(g())\n"
    source = long_module(8) + deep + long_module(8).replace("f0", "h0") + "print(checksum)\n"
    names = body_defs(desugared(source))
    assert len(names) > 3
    assert_same(source)
