"""Whole-tool properties: idempotence, determinism, the input is never run, no dependency on unsugar."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from unsugar import desugar

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*.py"))

SNIPPETS = {
    "empty": "",
    "core": "x = 1\nprint(x)\n",
    "core_everything": textwrap.dedent("""\
        def outer(a, /, b, *args, c, **kwargs):
            n = 0

            def inner():
                nonlocal n
                n = add(n, 1)
                yield n
                got = (yield)
                return got
            try:
                raise ValueError(a)
            except:
                pass_ = 1
            while n:
                n = 0
            return list(inner(*args, **kwargs))
        add = int.__add__
        """).replace("int.__add__", "getattr(int, next(iter(dict(__add__=0))))"),
    "strings_and_not": 'a = "alpha"\nb = not a\nprint(a, b, "beta", "alpha")\n',
    "control_flow": textwrap.dedent("""
        def f(n):
            total = 0
            while n:
                n = None if total else 0
                if n:
                    continue
                total = 1
            return total
        print(f(1))
    """),
    "global_and_walrus": textwrap.dedent("""
        def g():
            global seen
            seen = (y := "walrus")
            return y
        print(g(), seen)
    """),
}
INPUTS = {**SNIPPETS, **{p.stem: p.read_text() for p in EXAMPLES}}


@pytest.mark.parametrize("name", INPUTS)
def test_desugaring_is_idempotent(name: str) -> None:
    once = desugar(INPUTS[name])
    assert desugar(once) == once


@pytest.mark.parametrize("name", ["core", "core_everything"])
def test_core_input_comes_back_byte_identical(name: str) -> None:
    assert desugar(SNIPPETS[name]) == SNIPPETS[name]


def _tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_same_bytes_under_every_hash_seed(tmp_path: Path) -> None:
    src = tmp_path / "src"
    src.mkdir()
    for name, text in INPUTS.items():
        (src / f"{name}.py").write_text(text)
    outputs = []
    for seed in ("0", "1", "12345"):
        out = tmp_path / f"out{seed}"
        done = subprocess.run(
            [sys.executable, "-m", "unsugar", str(src), "-o", str(out)],
            capture_output=True, text=True, timeout=300,
            env={**os.environ, "PYTHONHASHSEED": seed},
        )
        assert done.returncode == 0, done.stderr
        outputs.append(_tree(out))
    assert len(outputs[0]) == len(INPUTS)
    assert outputs[0] == outputs[1] == outputs[2]


EVIL = textwrap.dedent("""
    import sys
    print("EXECUTED")
    open("marker.txt", "w").write("ran")
    sys.exit(3)
""")


def _script() -> list[str]:
    """The installed command (which, unlike ``python -m``, puts no cwd on sys.path)."""
    script = Path(sys.executable).parent / "unsugar"
    return [str(script)] if script.exists() else [sys.executable, "-P", "-m", "unsugar"]


@pytest.mark.parametrize("filename", ["evil.py", "ast.py", "tokenize.py", "sitecustomize.py"])
@pytest.mark.parametrize("command", [[], ["check"], ["--diff"], ["--in-place"]])
def test_the_input_is_never_imported_or_run(
    filename: str, command: list[str], tmp_path: Path
) -> None:
    """Not even when it is named after a module the tool itself imports."""
    path = tmp_path / filename
    path.write_text(EVIL)
    done = subprocess.run(
        [*_script(), *command, filename], capture_output=True, text=True, cwd=tmp_path,
        timeout=120,
    )
    assert not (tmp_path / "marker.txt").exists()
    assert "EXECUTED" not in done.stdout.splitlines()
    assert done.returncode in (0, 1), done.stderr
    assert "Traceback" not in done.stderr


def test_the_input_is_not_imported_in_process(tmp_path: Path) -> None:
    name = "unsugar_probe_never_imported"
    desugar(f"import {name}\nfrom {name} import x\n")
    assert name not in sys.modules


def _isolated(path: Path) -> subprocess.CompletedProcess[str]:
    """Run ``path`` without site-packages (so without unsugar) or the environment."""
    return subprocess.run(
        [sys.executable, "-I", "-S", path.name], capture_output=True, text=True,
        cwd=path.parent, timeout=120, env={"PYTHONHASHSEED": "0"},
    )


def test_isolation_really_hides_unsugar(tmp_path: Path) -> None:
    probe = tmp_path / "probe.py"
    probe.write_text("import unsugar\n")
    assert "No module named 'unsugar'" in _isolated(probe).stderr


@pytest.mark.parametrize("name", INPUTS)
def test_output_runs_without_unsugar(name: str, tmp_path: Path) -> None:
    original = tmp_path / "original" / "program.py"
    rewritten = tmp_path / "rewritten" / "program.py"
    original.parent.mkdir()
    rewritten.parent.mkdir()
    original.write_text(INPUTS[name])
    rewritten.write_text(desugar(INPUTS[name]))
    expected = _isolated(original)
    assert expected.returncode == 0, expected.stderr
    got = _isolated(rewritten)
    assert (got.returncode, got.stdout, got.stderr) == (0, expected.stdout, "")
    assert "unsugar" not in rewritten.read_text()
