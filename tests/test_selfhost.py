"""Self-hosting: unsugar, desugared by itself, is core and desugars the same way.

The package is desugared file by file, except ``runtime/``: those modules
are the tool's input (it compiles them into every output), so they are
copied as they are. The desugared tool must then write, byte for byte, what
the original writes.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from unsugar import desugar
from unsugar.checker import check_source

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "unsugar"


@pytest.fixture(scope="module")
def desugared_package(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("selfhost")
    for source in PACKAGE.rglob("*.py"):
        target = root / "unsugar" / source.relative_to(PACKAGE)
        target.parent.mkdir(parents=True, exist_ok=True)
        if "runtime" in source.relative_to(PACKAGE).parts:
            shutil.copy(source, target)
        else:
            target.write_text(desugar(source.read_text(encoding="utf-8"), filename=str(source)))
    return root


def test_the_desugared_tool_is_core(desugared_package: Path) -> None:
    imported = subprocess.run(
        [sys.executable, "-c", "import unsugar; print(unsugar.__file__)"], capture_output=True,
        text=True, env={**os.environ, "PYTHONPATH": str(desugared_package)}, check=True,
    ).stdout.strip()
    assert Path(imported).is_relative_to(desugared_package)
    for path in (desugared_package / "unsugar").rglob("*.py"):
        if "runtime" in path.parts:
            continue
        findings = check_source(path.read_text())
        assert not findings, f"{path}: {findings[:3]}"


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
