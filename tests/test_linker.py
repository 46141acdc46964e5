"""The linker: which of the runtime's pieces and constants an output carries."""

from __future__ import annotations

import pytest

from unsugar.linker import _closure, compiled_runtime


@pytest.mark.parametrize("semantics", ["python", "native"])
def test_closure_from_kept_closures_is_the_walked_one(semantics: str) -> None:
    """A module's closure is the union of the closures kept for each runtime
    name it uses: the same pieces, constants and builtins as a walk of them all."""
    runtime = compiled_runtime("_us_", semantics)
    names = [*sorted(runtime.by_name)[::5], *sorted(runtime.constants)[::7]]
    kept: dict = {}
    for start in range(0, len(names), 9):  # sets that share much of their closures
        wanted = set(names[start:start + 12])
        walked = _closure(runtime, wanted)
        assert all(walked.pieces & runtime.piece_bit[name] for name in wanted if name in runtime.by_name)
        assert all(walked.constants & runtime.constant_bit[name] for name in wanted if name in runtime.constants)
        assert walked.builtins
        assert _closure(runtime, wanted, kept) == walked
    assert set(kept) <= set(names)


@pytest.mark.parametrize("semantics", ["python", "native"])
def test_every_runtime_piece_defines_a_name(semantics: str) -> None:
    """The linker takes a runtime piece by the names it defines: one that
    defines none (the ``while`` of a conditional expression at a runtime
    module's top level) would be left out of every output."""
    import ast

    runtime = compiled_runtime("_us_", semantics)
    assert not [(piece.module, ast.unparse(piece.stmt)[:80]) for piece in runtime.pieces if not piece.defines]


def test_the_runtimes_constants_are_made_and_written_once() -> None:
    """Each module's text shares the runtime's ``name = value`` statements,
    and their text: both made once per process."""
    import ast

    from unsugar.pipeline import Compilation

    runtime = compiled_runtime("_us_", "python")
    shared = {id(stmt): name for name, stmt in runtime.constant_statements.items()}
    assert len(shared) == len(runtime.constants)
    for source in ("print(1 + 2)\n", "x = [a for a in 'bc' if a == 'b']\n"):
        compilation = Compilation(ast.parse(source), source=source)
        compilation.lower()
        compilation.control()
        compilation.link()
        used = [stmt for stmt in ast.walk(ast.Module(compilation.body, [])) if id(stmt) in shared]
        assert len(used) > 10
        assert all(id(stmt) in runtime.known for stmt in used)
        assert all(runtime.known[id(stmt)](1) is runtime.known[id(stmt)](1) for stmt in used)
