"""The linker: which of the runtime's pieces and constants an output carries."""

from __future__ import annotations

import pytest

from unsugar.linker import LiteralsText, RuntimeText, _closure, compiled_runtime
from unsugar.printer import TextRun


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
        texts = [node for node in ast.walk(ast.Module(compilation.body, [])) if isinstance(node, RuntimeText)]
        used = [stmt for text in texts for stmt in text.stmts if id(stmt) in shared]
        assert len(used) > 10
        assert all(id(stmt) in runtime.known for stmt in used)
        assert all(runtime.known[id(stmt)](1) is runtime.known[id(stmt)](1) for stmt in used)


@pytest.mark.parametrize("runtime_mode", ["inline", "import"])
def test_the_runtime_and_literals_written_as_one_text_are_their_statements_text(runtime_mode: str) -> None:
    """Where text is written, the captured builtins and the runtime's
    statements stand as :class:`RuntimeText` (one before the module's own
    constants, one after; with ``--runtime=import``, the imports between the
    first two), and each run of the module's own literals as a
    :class:`LiteralsText`: the text of each, at any indent, is the printer's
    text of the statements it stands for, a def after a blank line."""
    import ast

    from unsugar import builder as b
    from unsugar import printer
    from unsugar.pipeline import Compilation

    source = "import os\nprint(os.sep + 'x', [a for a in 'bc' if a == 'b'])\n"
    compilation = Compilation(ast.parse(source), source=source, runtime=runtime_mode)
    compilation.lower()
    compilation.control()
    compilation.link()
    runs = [node for node in ast.walk(ast.Module(compilation.body, [])) if isinstance(node, TextRun)]
    texts = [run for run in runs if isinstance(run, RuntimeText)]
    literals = [run for run in runs if isinstance(run, LiteralsText)]
    assert len(texts) == (3 if runtime_mode == "import" else 2)
    assert literals and {"_us_s_sep", "_us_str_1"} <= {e.name for run in literals for e in run.entries}
    assert texts[0].captured
    if runtime_mode == "inline":  # (imported, the helpers are not in the text)
        assert any(isinstance(stmt, ast.FunctionDef) for stmt in texts[-1].stmts)
    known = compiled_runtime("_us_", "python").known
    for run in runs:
        for indent in (0, 2):
            opener = "\n" + "    " * indent + "0"  # (a statement first: a def after it has its blank line)
            written = printer.statements([b.expr(b.int_(0)), *run.statements()], indent, known)
            assert run.text(indent) == written.removeprefix(opener)
    tree = compilation.module()
    assert not any(isinstance(node, TextRun) for node in ast.walk(tree))
