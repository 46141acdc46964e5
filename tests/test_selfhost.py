"""Self-hosting: unsugar, desugared by itself, is core and desugars the same way.

The package is desugared file by file, except ``runtime/``: those modules
are the tool's input (it compiles them into every output), so they are
copied as they are. The desugared tool must then write, byte for byte, what
the original writes: on the examples, and on library modules chosen for the
syntax they use. The whole library is ``benchmarks/selfhost.py --all``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from unsugar import desugar

sys.path.insert(0, str(Path(__file__).parent.parent / "benchmarks"))
import selfhost  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent

#: library modules for their syntax: classes, decorators, match, comprehensions, f-strings and
#: generators (dataclasses); generators in try/finally, with, async generators (contextlib);
#: async def, await, async with (asyncio/locks); del, nested functions, regular expressions
#: (textwrap); a metaclass-free __init_subclass__, class attributes, chained methods (string)
MODULES = ["dataclasses.py", "contextlib.py", "asyncio/locks.py", "textwrap.py", "string.py"]
#: larger ones, marked slow: match statements of every kind, except*, tracebacks, numbers
SLOW_MODULES = ["test/test_patma.py", "test/test_except_star.py", "traceback.py", "fractions.py"]


@pytest.fixture(scope="module")
def desugared_package(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return selfhost.desugar_package(tmp_path_factory.mktemp("selfhost"))


def test_the_desugared_tool_is_core(desugared_package: Path) -> None:
    imported = subprocess.run(
        [sys.executable, "-c", "import unsugar; print(unsugar.__file__)"], capture_output=True,
        text=True, env={**os.environ, "PYTHONPATH": str(desugared_package)}, check=True,
    ).stdout.strip()
    assert Path(imported).is_relative_to(desugared_package)
    sugary = selfhost.sugar_left(desugared_package)
    assert not sugary, {path: findings[:3] for path, findings in sugary.items()}


@pytest.mark.parametrize("example", ["calculator.py", "inventory.py"])
def test_the_desugared_tool_writes_the_same_bytes(desugared_package: Path, example: str) -> None:
    source = ROOT / "examples" / example
    expected = desugar(source.read_text(encoding="utf-8"), filename=str(source))
    done = subprocess.run(
        [sys.executable, "-m", "unsugar", str(source)], capture_output=True, text=True,
        env={**os.environ, "PYTHONPATH": str(desugared_package)}, timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == expected


def same_bytes_on_library(package: Path, names: list[str], tmp_path: Path) -> None:
    """The desugared tool, on ``names`` (library modules) copied to one directory, writes
    what :func:`unsugar.desugar` returns for each."""
    present = [name for name in names if (selfhost.STDLIB / name).exists()]
    if not present:
        pytest.skip("none of the modules is in this library")
    source = tmp_path / "in"
    for name in present:
        (source / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(selfhost.STDLIB / name, source / name)
    done = subprocess.run(
        [sys.executable, "-m", "unsugar", "in", "-o", "out", "--jobs", "2", "--quiet"],
        cwd=tmp_path, capture_output=True, text=True,
        env={**os.environ, "PYTHONPATH": str(package)}, timeout=600,
    )
    assert done.returncode == 0, done.stderr
    for name in present:
        text = (source / name).read_text(encoding="utf-8")
        expected = desugar(text, filename=os.path.join("in", name))
        got = (tmp_path / "out" / name).read_text(encoding="utf-8")
        assert got == expected, f"{name}: the desugared tool writes other bytes"


def test_the_desugared_tool_writes_the_same_bytes_on_library_modules(
    desugared_package: Path, tmp_path: Path,
) -> None:
    same_bytes_on_library(desugared_package, MODULES, tmp_path)


@pytest.mark.slow
def test_the_desugared_tool_writes_the_same_bytes_on_larger_modules(
    desugared_package: Path, tmp_path: Path,
) -> None:
    same_bytes_on_library(desugared_package, SLOW_MODULES, tmp_path)
