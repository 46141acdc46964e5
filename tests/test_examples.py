"""The example programs: desugared, core-only, and printing exactly what the originals print."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

from unsugar import desugar
from unsugar.checker import check_source

EXAMPLES = sorted((Path(__file__).resolve().parent.parent / "examples").glob("*.py"))

#: What the examples may not use: the rules cover everything else they do.
NOT_COVERED = (ast.Match, ast.YieldFrom)


def run(path: Path) -> tuple[int, str, str]:
    done = subprocess.run(
        [sys.executable, str(path)], capture_output=True, text=True, timeout=120,
        env={**os.environ, "PYTHONHASHSEED": "0"}, cwd=path.parent,
    )
    return done.returncode, done.stdout, done.stderr


def test_there_are_examples() -> None:
    assert len(EXAMPLES) >= 3


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: p.stem)
def test_example_uses_only_covered_syntax(example: Path) -> None:
    tree = ast.parse(example.read_text(), str(example))
    found = sorted({type(n).__name__ for n in ast.walk(tree) if isinstance(n, NOT_COVERED)})
    assert not found
    assert len(example.read_text().splitlines()) >= 60, "an example is a real program"


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: p.stem)
def test_example_desugars_to_core_and_prints_the_same(example: Path, tmp_path: Path) -> None:
    out = desugar(example.read_text(), filename=str(example))
    sugar = check_source(out)
    assert not sugar, "\n".join(f.format(example.name) for f in sugar[:20])
    rewritten = tmp_path / example.name
    rewritten.write_text(out)
    original = run(example)
    assert original[0] == 0 and original[1], original
    assert run(rewritten) == original
