"""The command line: every command and flag, exit codes, error format, atomic writes.

Run ``python tests/test_cli.py`` to refresh the generated parts of README.md
(the rules table and the example output) after adding or changing a rule.
"""

from __future__ import annotations

import argparse
import ast
import io
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from unsugar import cli, desugar
from unsugar.checker import check_source
from unsugar.linker import compiled_runtime
from unsugar.registry import load_all

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"

SUGARY = "x = 0\nprint(not x)\n"
CORE = "x = 1\nprint(x)\n"
BROKEN = "x = 1\ny = = 2\n"


def unsugar(*args: str, stdin: bytes | None = None, cwd: Path | None = None):
    """Run the command line in a fresh interpreter."""
    return subprocess.run(
        [sys.executable, "-m", "unsugar", *args], input=stdin, capture_output=True, cwd=cwd,
        timeout=120,
    )


def python(path: Path, *flags: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *flags, str(path)], capture_output=True, text=True, timeout=120
    )


def inlined_helpers(source: str) -> set[str]:
    """The runtime helpers ``source`` defines in its module def (not imports of them)."""
    helpers = compiled_runtime("_us_").by_name
    found = set()
    body = ast.parse(source).body
    if body and isinstance(body[0], ast.FunctionDef) and body[0].name == "_us_module":
        body = body[0].body
    for stmt in body:
        if isinstance(stmt, ast.FunctionDef):
            found.add(stmt.name)
        elif isinstance(stmt, ast.Assign) and not ast.unparse(stmt.value).startswith(
            "_us_getattr(_us_rt_linked, "
        ):
            found.update(t.id for t in stmt.targets if isinstance(t, ast.Name))
    return found & set(helpers)


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """A small source tree: two good modules, a broken one, a data file, a cache."""
    src = tmp_path / "src"
    (src / "pkg" / "__pycache__").mkdir(parents=True)
    (src / "main.py").write_text(SUGARY)
    (src / "pkg" / "__init__.py").write_text(CORE)
    (src / "pkg" / "broken.py").write_text(BROKEN)
    (src / "pkg" / "data.txt").write_text("not python: x = = 1\n")
    (src / "pkg" / "__pycache__" / "main.cpython-311.pyc").write_bytes(b"\0stale")
    return src


# ------------------------------------------------------------ single files
def test_file_to_stdout(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "a.py"
    path.write_text(SUGARY)
    assert cli.main([str(path)]) == 0
    out = capsys.readouterr().out
    assert out == desugar(SUGARY)
    assert not check_source(out)


def test_file_to_output_file_keeps_the_mode(tmp_path: Path) -> None:
    path, out = tmp_path / "a.py", tmp_path / "out" / "b.py"
    path.write_text(SUGARY)
    path.chmod(0o750)
    assert cli.main([str(path), "-o", str(out)]) == 0
    assert out.read_text() == desugar(SUGARY)
    assert out.stat().st_mode & 0o777 == 0o750
    assert python(out).stdout == "True\n"


def test_output_into_an_existing_directory(tmp_path: Path) -> None:
    path = tmp_path / "a.py"
    path.write_text(SUGARY)
    (tmp_path / "out").mkdir()
    assert cli.main([str(path), "-o", str(tmp_path / "out")]) == 0
    assert (tmp_path / "out" / "a.py").read_text() == desugar(SUGARY)


def test_the_compilers_warnings_about_the_input_are_shown(tmp_path: Path) -> None:
    """CPython's compiler warns of ``x is 1``, a literal called or indexed, and
    an assertion of a tuple: the command line shows those warnings as compiling
    the input shows them, with ``-W error`` as errors (the output has none of
    those constructs, so running it shows none)."""
    path = tmp_path / "warned.py"
    path.write_text('x = 1\nprint(x is 1, (1, 2)[1.5] if 0 else 0, [2]["a"] if 0 else 0)\n'
                    'assert (x, "m")\ny = (1, 2)(3) if 0 else None[0] if 0 else {1}[0] if 0 else 0\n')
    expected = subprocess.run(
        [sys.executable, "-c", f"compile(open({str(path)!r}).read(), {str(path)!r}, 'exec')"],
        capture_output=True, text=True, timeout=120,
    ).stderr
    assert expected.count("SyntaxWarning") == 7
    result = unsugar(str(path), "-o", str(tmp_path / "out.py"))
    assert result.returncode == 0 and result.stderr.decode() == expected
    assert python(tmp_path / "out.py").stderr == ""
    error = subprocess.run([sys.executable, "-W", "error", "-m", "unsugar", str(path)],
                           capture_output=True, text=True, timeout=120)
    assert (error.returncode, error.stdout) == (1, "")
    assert error.stderr.startswith(f'{path}:2:7: "is" with ') and "literal" in error.stderr


def test_standard_input_and_output() -> None:
    done = unsugar("-", stdin=SUGARY.encode())
    assert done.returncode == 0, done.stderr
    assert done.stdout.decode() == desugar(SUGARY)


def test_output_dash_is_standard_output(tmp_path: Path) -> None:
    """``-o -`` writes to standard output, as no ``-o`` does, not to a file
    named ``-``; a directory's output cannot go there."""
    path = tmp_path / "a.py"
    path.write_text(SUGARY)
    done = unsugar(str(path), "-o", "-", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.decode() == desugar(SUGARY)
    done = unsugar("-", "-o", "-", stdin=SUGARY.encode(), cwd=tmp_path)
    assert done.stdout.decode() == desugar(SUGARY)
    assert not (tmp_path / "-").exists()
    done = unsugar(str(tmp_path), "-o", "-", cwd=tmp_path)
    assert done.returncode == 2 and b"is a directory" in done.stderr
    assert not (tmp_path / "-").exists()


def test_standard_input_to_file(tmp_path: Path) -> None:
    out = tmp_path / "o.py"
    done = unsugar("-", "-o", str(out), stdin=SUGARY.encode())
    assert done.returncode == 0, done.stderr
    assert out.read_text() == desugar(SUGARY)


def test_console_script_and_version(tmp_path: Path) -> None:
    script = Path(sys.executable).parent / "unsugar"
    if not script.exists():
        pytest.skip("console script not installed next to this interpreter")
    done = subprocess.run([str(script), "--version"], capture_output=True, text=True)
    assert done.returncode == 0
    assert re.fullmatch(r"unsugar \d+\.\d+\.\d+\n", done.stdout)


def test_shebang_is_kept(tmp_path: Path) -> None:
    path = tmp_path / "tool.py"
    path.write_text("#!/usr/bin/env python3\n" + SUGARY)
    out = tmp_path / "out.py"
    assert cli.main([str(path), "-o", str(out)]) == 0
    text = out.read_text()
    assert text.startswith("#!/usr/bin/env python3\n")
    assert text.removeprefix("#!/usr/bin/env python3\n") == desugar(SUGARY)


# ------------------------------------------------------------- directories
def test_directory_is_mirrored_despite_a_broken_file(
    tree: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tree.parent / "out"
    assert cli.main([str(tree), "-o", str(out)]) == 1
    err = capsys.readouterr().err
    broken = tree / "pkg" / "broken.py"
    assert re.fullmatch(rf"{re.escape(str(broken))}:2:5: invalid syntax\n", err)
    assert (out / "main.py").read_text() == desugar(SUGARY)
    assert (out / "pkg" / "__init__.py").read_text() == desugar(CORE)
    assert (out / "pkg" / "data.txt").read_text() == "not python: x = = 1\n"
    assert not (out / "pkg" / "broken.py").exists()
    assert not (out / "pkg" / "__pycache__").exists()
    assert sorted(p.name for p in out.rglob("*")) == ["__init__.py", "data.txt", "main.py", "pkg"]


def test_output_directory_inside_the_source_is_not_walked(tree: Path) -> None:
    (tree / "pkg" / "broken.py").unlink()
    assert cli.main([str(tree), "-o", str(tree / "out")]) == 0
    assert cli.main([str(tree), "-o", str(tree / "out")]) == 0
    assert not (tree / "out" / "out").exists()


def test_in_place_rewrites_what_it_can(tree: Path, capsys: pytest.CaptureFixture[str]) -> None:
    main, broken = tree / "main.py", tree / "pkg" / "broken.py"
    assert cli.main(["--in-place", str(main), str(tree / "pkg")]) == 1
    assert main.read_text() == desugar(SUGARY)
    assert (tree / "pkg" / "__init__.py").read_text() == desugar(CORE)
    assert broken.read_text() == BROKEN
    assert (tree / "pkg" / "data.txt").read_text() == "not python: x = = 1\n"
    assert f"{broken}:2:5: invalid syntax" in capsys.readouterr().err


def test_in_place_is_idempotent_on_its_own_output(tmp_path: Path) -> None:
    path = tmp_path / "a.py"
    path.write_text(SUGARY)
    assert cli.main(["--in-place", str(path)]) == 0
    first = path.read_bytes()
    assert cli.main(["--in-place", str(path)]) == 0
    assert path.read_bytes() == first


# ----------------------------------------------------------- atomic writes
def test_failed_input_leaves_an_existing_output_alone(tmp_path: Path) -> None:
    bad, out = tmp_path / "bad.py", tmp_path / "out.py"
    bad.write_text(BROKEN)
    out.write_text("previous\n")
    assert cli.main([str(bad), "-o", str(out)]) == 1
    assert out.read_text() == "previous\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.py", "out.py"]


def test_interrupted_write_leaves_no_partial_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    good, out = tmp_path / "a.py", tmp_path / "out"
    good.write_text(SUGARY)

    def fail(*args: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(cli.os, "replace", fail)
    assert cli.main([str(good), "-o", str(out / "a.py")]) == 1
    assert "No space left on device" in capsys.readouterr().err
    assert list(out.iterdir()) == []


# ------------------------------------------------------------ flags, modes
def test_keep_leaves_the_chosen_sugar(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "a.py"
    path.write_text(SUGARY)
    assert cli.main(["--keep", "not", str(path)]) == 0
    out = capsys.readouterr().out
    assert out == desugar(SUGARY, keep=["not"])
    assert "print(not x)" in out


def test_keep_accepts_lists_and_repeats(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "a.py"
    path.write_text('print(not "s")\n')
    assert cli.main(["--keep", "not, str-literal", "--keep", "pass", str(path)]) == 0
    assert "print(not 's')" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("keep", "unknown"),
    [("nope", "nope"), ("not,nope", "nope"), ("not,,b-rule,a-rule", "a-rule, b-rule")],
)
def test_keep_unknown_rule_is_a_usage_error(
    keep: str, unknown: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "a.py"
    path.write_text(SUGARY)
    assert cli.main(["--keep", keep, str(path)]) == 2
    assert f"unknown rule(s): {unknown};" in capsys.readouterr().err
    assert path.read_text() == SUGARY


def test_diff(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "a.py"
    path.write_text(SUGARY)
    assert cli.main(["--diff", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"--- {path}\toriginal\n+++ {path}\tdesugared\n@@ ")
    assert "\n-print(not x)\n" in out
    assert "\n+            print(_us_int_eq_1(_us_bool(x), 0))\n" in out
    assert path.read_text() == SUGARY


def test_diff_of_a_directory_reports_each_file(
    tree: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["--diff", str(tree)]) == 1
    captured = capsys.readouterr()
    assert captured.out.count("\n+++ ") == 1, "a file that is already core has no diff"
    assert f"--- {tree / 'main.py'}\t" in captured.out
    assert "broken.py:2:5: invalid syntax" in captured.err


def test_runtime_import(tmp_path: Path) -> None:
    path, out = tmp_path / "a.py", tmp_path / "out.py"
    path.write_text(
        "def f():\n    global y\n    y = not 0\nf()\nprint(y, not y)\n"
    )
    assert cli.main(["--runtime=import", str(path), "-o", str(out)]) == 0
    text = out.read_text()
    assert not check_source(text)
    assert not inlined_helpers(text)
    assert inlined_helpers(desugar(path.read_text())) >= {"_us_global_set"}
    assert python(out).stdout == "True False\n"
    isolated = python(out, "-I", "-S")
    assert "ModuleNotFoundError: No module named 'unsugar'" in isolated.stderr


@pytest.mark.parametrize(
    "example", sorted((ROOT / "examples").glob("*.py")), ids=lambda p: p.stem
)
def test_runtime_import_runs_the_examples(example: Path, tmp_path: Path) -> None:
    """Imported helpers find the helpers they use themselves (one namespace, as inlined)."""
    out = tmp_path / example.name
    assert cli.main(["--runtime=import", str(example), "-o", str(out)]) == 0
    assert not inlined_helpers(out.read_text())
    assert python(out).stdout == python(example).stdout != ""


def test_runtime_import_without_helpers_imports_nothing(tmp_path: Path) -> None:
    assert desugar(CORE, runtime="import") == desugar(CORE) == CORE


def test_runtime_must_be_known(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["--runtime=eager", "x.py"]) == 2
    assert "invalid choice" in capsys.readouterr().err


@pytest.mark.parametrize(
    "example", sorted((ROOT / "examples").glob("*.py")), ids=lambda p: p.stem
)
def test_native_semantics_runs_the_examples(example: Path, tmp_path: Path) -> None:
    """``--semantics=native``: core output whose operators are ``_operator``'s."""
    out = tmp_path / example.name
    assert cli.main(["--semantics=native", str(example), "-o", str(out)]) == 0
    text = out.read_text()
    assert not check_source(text)
    assert "_us_native_operator = _us_native_builtin(_us_s__operator)" in text
    assert python(out).stdout == python(example).stdout != ""


def test_semantics_must_be_known(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["--semantics=exact", "x.py"]) == 2
    assert "invalid choice" in capsys.readouterr().err


# ---------------------------------------------------------------- decoding
def test_coding_cookie_is_respected(tmp_path: Path) -> None:
    path, out = tmp_path / "a.py", tmp_path / "out.py"
    path.write_bytes('# -*- coding: latin-1 -*-\ns = "café"\nprint(len(s), ascii(s))\n'
                     .encode("latin-1"))
    assert cli.main([str(path), "-o", str(out)]) == 0
    assert python(out).stdout == python(path).stdout == "4 'caf\\xe9'\n"


def test_byte_order_mark_and_crlf(tmp_path: Path) -> None:
    path, out = tmp_path / "a.py", tmp_path / "out.py"
    path.write_bytes(b"\xef\xbb\xbfx = 0\r\nprint(not x)\r\n")
    assert cli.main([str(path), "-o", str(out)]) == 0
    assert out.read_text() == desugar(SUGARY)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"x = 1\ny = '\xff'\n", r":2:6: Non-UTF-8 code starting with '\\xff' in file \S+ "
         r"on line 2, but no encoding declared; see https://peps\.python\.org/pep-0263/ for details"),
        (b"# coding: klingon\nx = 1\n", r":1:11: encoding problem: klingon"),
        (b"x = 1\ny = = 2\n", r":2:5: invalid syntax"),
        (b"x = (1,\n", r":1:5: '\(' was never closed"),
    ],
)
def test_file_errors_name_file_line_and_column(
    data: bytes, message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.py"
    path.write_bytes(data)
    assert cli.main([str(path)]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert re.fullmatch(re.escape(str(path)) + message + "\n", captured.err)


def test_missing_file_fails_and_others_go_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = tmp_path / "a.py"
    good.write_text(SUGARY)
    assert cli.main(["--in-place", str(tmp_path / "missing.py"), str(good)]) == 1
    assert "missing.py: No such file or directory" in capsys.readouterr().err
    assert good.read_text() == desugar(SUGARY)


def test_syntax_error_from_standard_input() -> None:
    done = unsugar("-", stdin=BROKEN.encode())
    assert done.returncode == 1
    assert done.stderr.decode() == "<stdin>:2:5: invalid syntax\n"
    assert done.stdout == b""


# ------------------------------------------------------------ usage errors
@pytest.mark.parametrize(
    ("argv", "message"),
    [
        ([], "nothing to do"),
        (["a.py", "b.py"], "several inputs need --in-place or --diff"),
        (["SRC_DIR"], "is a directory"),
        (["--in-place", "-o", "x.py", "a.py"], "exclude each other"),
        (["--diff", "--in-place", "a.py"], "exclude each other"),
        (["--in-place", "-"], "standard input"),
        (["--frobnicate", "a.py"], "unrecognized arguments"),
        (["run"], "give a script or -m MODULE"),
        (["explain"], "the following arguments are required: RULE"),
        (["check"], "the following arguments are required: PATH"),
        (["rules", "--html"], "unrecognized arguments"),
    ],
)
def test_usage_errors_exit_2(
    argv: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = [str(tmp_path) if a == "SRC_DIR" else a for a in argv]
    assert cli.main(argv) == 2
    captured = capsys.readouterr()
    assert message in captured.err
    assert captured.out == ""


def test_help_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["--help"]) == 0
    out = capsys.readouterr().out
    for flag in ("-o OUT", "--in-place", "--diff", "--keep", "--runtime", "unsugar check"):
        assert flag in out


def test_usage_error_exit_code_from_the_process() -> None:
    done = unsugar("--keep", "nope", "a.py")
    assert done.returncode == 2
    assert b"unknown rule(s): nope" in done.stderr


# ------------------------------------------------------------------- check
def test_check_core_file_is_clean(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "a.py"
    path.write_text(desugar(SUGARY))
    assert cli.main(["check", str(path)]) == 0
    assert capsys.readouterr().out == ""


def test_check_lists_sugar_with_positions(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "a.py"
    path.write_text("x = 0\nif x:\n    print(not x)\n")
    assert cli.main(["check", str(path)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert f"{path}:2:1: if If" in lines
    assert f"{path}:3:11: not UnaryOp" in lines
    for line in lines:
        assert re.fullmatch(rf"{re.escape(str(path))}:\d+:\d+: [\w-]+ .+", line)


def test_check_directory_and_stdin(tree: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["check", str(tree)]) == 1
    captured = capsys.readouterr()
    assert f"{tree / 'main.py'}:2:7: not UnaryOp" in captured.out
    assert f"{tree / 'pkg' / 'broken.py'}:2:5: invalid syntax" in captured.err
    assert "__init__.py" not in captured.out
    done = unsugar("check", "-", stdin=SUGARY.encode())
    assert done.returncode == 1
    assert b"<stdin>:2:7: not UnaryOp" in done.stdout


def test_check_syntax_error_is_a_failure(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "a.py"
    path.write_text(BROKEN)
    assert cli.main(["check", str(path)]) == 1
    assert capsys.readouterr().err == f"{path}:2:5: invalid syntax\n"


# ---------------------------------------------------------- rules, explain
def test_rules_lists_every_rule(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["rules"]) == 0
    out = capsys.readouterr().out
    for rule in load_all().values():
        assert f"{rule.id}: {rule.summary}\n  before:\n" in out


def test_rules_markdown_has_one_row_per_rule(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["rules", "--markdown"]) == 0
    rows = capsys.readouterr().out.splitlines()[2:]
    assert [re.match(r"\| \[`([^`]+)`\]", row).group(1) for row in rows] == list(load_all())
    assert all(row.count(" | ") == 3 for row in rows), "a cell must not contain a bare |"


def test_explain(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["explain", "not"]) == 0
    out = capsys.readouterr().out
    rule = load_all()["not"]
    assert out.startswith(f"not: {rule.summary}\n")
    assert rule.reference in out
    assert "before:\n    not x\n" in out


def test_explain_unknown_rule_suggests(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["explain", "nott"]) == 2
    assert "(did you mean not, " in capsys.readouterr().err


# -------------------------------------------------------------- many files
MODULES = {
    "loops.py": "for i in range(3):\n    if i:\n        break\nelse:\n    pass\nprint(i)\n",
    "classes.py": "class A:\n    x = [i * 2 for i in range(3)]\nprint(A.x)\n",
    "strings.py": f"s = {'long text ' * 40!r}\nprint(len(s), f'{{s[:4]!r}}')\n",
    "gens.py": "def g():\n    yield from range(2)\nprint(list(g()))\n",
}


def _files(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_jobs_2_writes_the_same_bytes_as_jobs_1(
    tree: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for name, text in MODULES.items():
        (tree / "pkg" / name).write_text(text)
    one, two = tree.parent / "one", tree.parent / "two"
    assert cli.main([str(tree), "-o", str(one), "--jobs", "1"]) == 1
    err_one = capsys.readouterr().err
    assert cli.main([str(tree), "-o", str(two), "--jobs", "2"]) == 1
    assert capsys.readouterr().err == err_one
    assert "broken.py:2:5: invalid syntax" in err_one
    assert _files(one) == _files(two) and len(_files(one)) == 3 + len(MODULES)
    assert cli.main(["--diff", str(tree), "--jobs", "1"]) == 1
    diff_one = capsys.readouterr().out
    assert cli.main(["--diff", str(tree), "--jobs", "2"]) == 1
    assert capsys.readouterr().out == diff_one and diff_one.count("+++ ") == 1 + len(MODULES)  # the core module is unchanged


def test_jobs_in_place(tree: Path) -> None:
    (tree / "pkg" / "broken.py").unlink()
    for name, text in MODULES.items():
        (tree / "pkg" / name).write_text(text)
    assert cli.main(["--in-place", str(tree), "-j", "2"]) == 0
    for name, text in MODULES.items():
        assert (tree / "pkg" / name).read_text() == desugar(text)


def test_in_place_killed_at_any_moment_leaves_old_or_new_files(tmp_path: Path) -> None:
    """SIGKILL while ``--in-place`` writes: every file is the old or the new
    content, whole, with its mode; never empty or half written."""
    text = (Path(textwrap.__file__)).read_text()
    source = tmp_path / "source"
    source.mkdir()
    for i in range(10):
        (source / f"m{i}.py").write_text(text)
        (source / f"m{i}.py").chmod(0o640 if i % 2 else 0o751)
    new = tmp_path / "new"
    assert cli.main([str(source), "-o", str(new), "-j", "1"]) == 0
    chooser = random.Random(13)
    for trial in range(4):
        tree = tmp_path / f"trial{trial}"
        shutil.copytree(source, tree)
        process = subprocess.Popen([sys.executable, "-m", "unsugar", "--in-place", str(tree),
                                    "-j", "2", "--quiet"])
        time.sleep(chooser.uniform(0.3, 2.5))
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=60)
        deadline = time.monotonic() + 30
        while _processes_naming(tree) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not _processes_naming(tree), "a worker outlived its killed parent"
        for path in sorted(tree.glob("*.py")):
            data = path.read_bytes()
            assert data in (text.encode(), (new / path.name).read_bytes()), path
            assert path.stat().st_mode & 0o777 == (source / path.name).stat().st_mode & 0o777
        assert len(list(tree.glob("*.py"))) == 10


def test_interrupted_run_stops_without_a_traceback(tmp_path: Path) -> None:
    """Ctrl-C: exit 130, one line, no worker left; files are old or new."""
    text = (Path(argparse.__file__)).read_text()
    tree = tmp_path / "tree"
    tree.mkdir()
    sources = {}
    for i in range(200):  # minutes of work: far more than can be done before the signal
        sources[tree / f"m{i:03}.py"] = f"{text}\nFILE_NUMBER = {i}\n"
    for path, source in sources.items():
        path.write_text(source)
    process = subprocess.Popen([sys.executable, "-m", "unsugar", "--in-place", str(tree), "-j", "2"],
                               stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while all(path.read_text() == source for path, source in sources.items()) and time.monotonic() < deadline:
        time.sleep(0.05)
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=120)
    assert process.returncode == 130, err
    assert err.splitlines()[-1] == "unsugar: interrupted" and "Traceback" not in err
    assert not _processes_naming(tree)
    changed = {path: source for path, source in sources.items() if path.read_text() != source}
    assert changed and len(changed) < len(sources)
    assert all(path.read_text() == desugar(source) for path, source in changed.items())


def _processes_naming(path: Path) -> list[int]:
    """The processes whose command line names ``path`` (Linux's ``/proc``)."""
    found = []
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            if str(path).encode() in (entry / "cmdline").read_bytes():
                found.append(int(entry.name))
        except OSError:
            continue
    return found


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_line_on_a_terminal_unless_quiet(
    tree: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for quiet in ([], ["--quiet"]):
        terminal = _Terminal()
        monkeypatch.setattr(sys, "stderr", terminal)
        assert cli.main([str(tree), "-o", str(tree.parent / "out"), "-j", "1", *quiet]) == 1
        shown = terminal.getvalue()
        assert "invalid syntax" in shown
        if quiet:
            assert "\r" not in shown
        else:
            assert f"\r\x1b[K[4/4] {tree / 'pkg' / 'data.txt'}" in shown
            assert shown.endswith("\r\x1b[K")  # the line is cleared at the end


def test_no_progress_line_when_stderr_is_not_a_terminal(
    tree: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main([str(tree), "-o", str(tree.parent / "out"), "-j", "1"]) == 1
    assert "\r" not in capsys.readouterr().err


def test_jobs_must_be_positive(tree: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main([str(tree), "-o", str(tree.parent / "out"), "--jobs", "0"]) == 2
    assert "--jobs must be at least 1" in capsys.readouterr().err


# --------------------------------------------------------------- benchmark
def test_benchmark_counts_and_measures(tree: Path) -> None:
    (tree / "pkg" / "strings.py").write_text(MODULES["strings.py"])
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "throughput.py"), "--root", str(tree),
         "--sections", "phases,files,jobs"], capture_output=True, text=True, timeout=300,
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "modules:  4 found, 1 failed to parse" in out
    assert "pkg/broken.py: does not parse" in out
    assert "lines:    6 in 3 modules" in out
    assert re.search(r"parse \d+\.\d\d s, lowering [\d.]+ s, control [\d.]+ s, linking [\d.]+ s, "
                     r"writing [\d.]+ s", out)
    assert re.search(r"ratio: +\d+\.\d\d x the floor", out)
    assert re.search(r"most literal text: pkg/strings.py +[\d.]+ MB +[\d.]+ s +\d+ MB peak", out)
    assert re.search(r"a 2 MB string literal +2\.\d\d MB", out)
    assert re.search(r"speedup: [\d.]+x; outputs identical", out)


# ------------------------------------------------------------------ README
RULES_BEGIN, RULES_END = "<!-- rules:begin -->\n", "<!-- rules:end -->\n"
EXAMPLE_BEGIN, EXAMPLE_END = "<!-- example-output:begin -->\n", "<!-- example-output:end -->\n"
EXAMPLE_INPUT = re.compile(r"<!-- example-input:begin -->\n```python\n(.*?)```\n", re.S)


def _between(text: str, begin: str, end: str, new: str) -> str:
    head, found, rest = text.partition(begin)
    assert found, f"README.md lacks {begin.strip()}"
    _, found, tail = rest.partition(end)
    assert found, f"README.md lacks {end.strip()}"
    return head + begin + new + end + tail


def readme_expected() -> str:
    """README.md with the rules table and the example output regenerated."""
    text = README.read_text()
    text = _between(text, RULES_BEGIN, RULES_END, cli.rules_markdown())
    example = EXAMPLE_INPUT.search(text)
    assert example, "README.md lacks the example input"
    output = "```python\n" + desugar(example.group(1)) + "```\n"
    return _between(text, EXAMPLE_BEGIN, EXAMPLE_END, output)


def test_readme_is_generated_from_the_tool() -> None:
    assert README.read_text() == readme_expected(), (
        "README.md is out of date: run `python tests/test_cli.py` to refresh it"
    )


def test_the_same_bytes_under_any_hash_seed(tmp_path: Path) -> None:
    """No dict or set order, no id, reaches the output."""
    source = tmp_path / "m.py"
    source.write_text(
        Path(textwrap.__file__).read_text()
        + "class C:\n    a, b, c = {1, 2}, {'x': 1, 'y': 2}, frozenset('abc')\n"
        + "def f(*, k=1, **kw):\n    global g\n    g = {k, *kw}\n    return [x for x in g if x]\n"
    )
    outputs = set()
    for seed in ("0", "1", "12345", "random"):
        done = subprocess.run([sys.executable, "-m", "unsugar", str(source)], capture_output=True,
                              env={**os.environ, "PYTHONHASHSEED": seed}, timeout=120)
        assert done.returncode == 0, done.stderr
        outputs.add(done.stdout)
    assert len(outputs) == 1


COMPILE_ERRORS = {
    "nonlocal_at_module_level": "x = 1\nnonlocal x\n",
    "return_outside_function": "x = 1\nreturn x\n",
    "await_outside_async": "def f():\n    await g()\n",
    "duplicate_parameter": "def f(a, a):\n    pass\n",
    "assigned_before_global": "def f():\n    x = 1\n    global x\n",
    "future_braces": "from __future__ import braces\n",
    "break_outside_loop": "if 1:\n    break\n",
    "yield_outside_function": "x = 1\nyield x\n",
}


@pytest.mark.parametrize("name", COMPILE_ERRORS)
def test_errors_of_cpythons_compiler_are_reported_as_it_reports_them(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """What parses but does not compile is an error, not an output."""
    source = tmp_path / "bad.py"
    source.write_text(COMPILE_ERRORS[name])
    with pytest.raises(SyntaxError) as cpython:
        compile(COMPILE_ERRORS[name], str(source), "exec")
    error = cpython.value
    assert cli.main([str(source), "-o", str(tmp_path / "out.py")]) == 1
    assert capsys.readouterr().err == f"{source}:{error.lineno}:{error.offset}: {error.msg}\n"
    assert not (tmp_path / "out.py").exists()


if __name__ == "__main__":
    import test_annotate
    import test_config

    for part in (readme_expected, test_config.readme_expected, test_annotate.readme_expected):
        README.write_text(part())  # each regenerates its own sections
    print(f"refreshed {README}")
