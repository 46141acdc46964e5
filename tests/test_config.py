"""``[tool.unsugar]`` in ``pyproject.toml``: discovery, precedence, errors, the README example.

Run ``python tests/test_config.py`` to refresh the ``--show-settings``
example of README.md.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from unsugar import batch, cli, desugar
from unsugar.checker import check_source
from unsugar.config import ConfigError, Settings, find_config, load_settings

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
SHOP = Path(__file__).resolve().parent / "programs" / "shop"

SUGARY = "x = 0\nprint(not x)\nfor i in range(2):\n    pass\n"


def pyproject(folder: Path, table: str | None, *, name: str = "pyproject.toml") -> Path:
    """Write ``folder/name``: a ``[project]`` table, then ``[tool.unsugar]`` with
    ``table`` as its body (None: no such table)."""
    folder.mkdir(parents=True, exist_ok=True)
    text = '[project]\nname = "demo"\n'
    if table is not None:
        text += "\n[tool.unsugar]\n" + table + "\n"
    path = folder / name
    path.write_text(text)
    return path


def module(path: Path, text: str = SUGARY) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def shown(output: str) -> dict[str, tuple[str, str]]:
    """``--show-settings`` output as {setting: (value, origin)}."""
    lines = output.splitlines()
    assert re.fullmatch(r"setting +value +from", lines[0])
    rows = {}
    for line in lines[1:]:
        key, value, origin = re.split(r"  +", line, maxsplit=2)
        rows[key] = (value, origin)
    assert list(rows) == ["keep", "runtime", "semantics", "exclude", "include", "jobs"]
    return rows


def show(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, tuple[str, str]]:
    assert cli.main(list(argv)) == 0
    return shown(capsys.readouterr().out)


def sugar_left(text: str) -> set[str]:
    """The rules whose sugar ``text`` still holds (the core checker's findings)."""
    return {finding.rule for finding in check_source(text)}


# ---------------------------------------------------------------- discovery
def test_nearest_table_from_a_subdirectory(tmp_path: Path) -> None:
    top = pyproject(tmp_path, 'keep = ["not"]')
    deep = module(tmp_path / "pkg" / "sub" / "m.py")
    pyproject(tmp_path / "pkg", None)  # a pyproject.toml without the table is passed over
    assert find_config([deep]) == top
    assert find_config([deep.parent]) == top
    assert load_settings([deep]).keep == ("not",)
    nearer = pyproject(tmp_path / "pkg" / "sub", 'semantics = "native"')
    assert find_config([deep]) == nearer
    settings = load_settings([deep])
    assert (settings.keep, settings.semantics) == ((), "native")
    assert settings.source == nearer


def test_the_common_directory_of_several_paths(tmp_path: Path) -> None:
    top = pyproject(tmp_path, "jobs = 2")
    pyproject(tmp_path / "a", "jobs = 3")
    one, two = module(tmp_path / "a" / "x.py"), module(tmp_path / "b" / "y.py")
    assert find_config([one]) == tmp_path / "a" / "pyproject.toml"
    assert find_config([one, two]) == top
    assert load_settings([one, two]).jobs == 2
    assert find_config([one, tmp_path / "a"]) == tmp_path / "a" / "pyproject.toml"


def test_no_paths_or_standard_input_start_in_the_current_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = pyproject(tmp_path, 'runtime = "import"')
    (tmp_path / "sub").mkdir()
    monkeypatch.chdir(tmp_path / "sub")
    assert find_config([]) == config
    assert find_config(["-"]) == config
    assert load_settings().runtime == "import"
    assert load_settings().origins["runtime"] == str(config)  # above the current directory
    monkeypatch.chdir(tmp_path)
    assert load_settings().origins["runtime"] == "pyproject.toml"  # inside it: relative


def test_none_found_gives_the_defaults(tmp_path: Path) -> None:
    pyproject(tmp_path, None)
    path = module(tmp_path / "m.py")
    assert find_config([path]) is None
    settings = load_settings([path])
    assert settings == Settings()
    assert dict(settings.origins) == dict.fromkeys(settings.origins, "default")
    assert settings.jobs is None and settings.source is None
    assert hash(settings) == hash(Settings())


def test_config_names_another_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pyproject(tmp_path, 'keep = ["not"]')
    other = pyproject(tmp_path / "elsewhere", 'keep = ["pass"]', name="shared.toml")
    path = module(tmp_path / "m.py")
    settings = load_settings([path], config=other)
    assert settings.keep == ("pass",)
    assert settings.origins["keep"] == str(other)
    monkeypatch.chdir(tmp_path)
    assert load_settings([path], config="elsewhere/shared.toml").origins["keep"] == (
        "elsewhere/shared.toml"
    )


def test_isolated_reads_no_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pyproject(tmp_path, 'keep = ["not"]\njobs = 2')
    path = module(tmp_path / "m.py")
    assert load_settings([path], isolated=True) == Settings()
    assert cli.main(["--isolated", str(path)]) == 0
    assert capsys.readouterr().out == desugar(SUGARY)
    with pytest.raises(ValueError):
        load_settings([path], config=tmp_path / "pyproject.toml", isolated=True)
    assert cli.main(["--isolated", "--config", str(tmp_path / "pyproject.toml"), str(path)]) == 2
    assert "--config and --isolated exclude each other" in capsys.readouterr().err


def test_a_broken_pyproject_on_the_way_up_is_an_error(tmp_path: Path) -> None:
    pyproject(tmp_path, 'keep = ["not"]')
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "pyproject.toml").write_text("[project\n")
    with pytest.raises(ConfigError, match=r"pkg/pyproject\.toml:1:9: invalid TOML: "):
        find_config([tmp_path / "pkg" / "m.py"])


# --------------------------------------------------------------- precedence
PRECEDENCE = {
    # key: (in the file, its show-settings value, options, their value)
    "keep": ('keep = ["not"]', '["not"]', ["--keep", "pass"], '["pass"]'),
    "runtime": ('runtime = "import"', '"import"', ["--runtime", "inline"], '"inline"'),
    "semantics": ('semantics = "native"', '"native"', ["--semantics=python"], '"python"'),
    "jobs": ("jobs = 3", "3", ["-j", "5"], "5"),
    "exclude": ('exclude = ["build"]', '["build"]', [], None),
}
DEFAULTS = {"keep": "[]", "runtime": '"inline"', "semantics": '"python"', "exclude": "[]",
            "include": "[]", "jobs": "(one per core)"}


@pytest.mark.parametrize("key", PRECEDENCE)
def test_command_line_over_file_over_default(
    key: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    entry, in_file, options, on_command_line = PRECEDENCE[key]
    path = module(tmp_path / "m.py")
    rows = show(capsys, "--show-settings", str(path))
    assert rows == {k: (v, "default") for k, v in DEFAULTS.items()}
    config = pyproject(tmp_path, entry)
    rows = show(capsys, "--show-settings", str(path))
    assert rows[key] == (in_file, str(config))
    assert all(rows[other] == (DEFAULTS[other], "default") for other in rows if other != key)
    if options:
        rows = show(capsys, "--show-settings", *options, str(path))
        assert rows[key] == (on_command_line, "command line")
        rows = show(capsys, "--show-settings", "--isolated", *options, str(path))
        assert rows[key] == (on_command_line, "command line")
    assert show(capsys, "--show-settings", "--isolated", str(path))[key] == (DEFAULTS[key], "default")


def test_run_shows_its_settings_and_adds_include(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    config = pyproject(tmp_path, 'include = ["textwrap"]\nkeep = ["not"]')
    script = module(tmp_path / "main.py")
    rows = show(capsys, "run", "--show-settings", str(script))
    assert rows["include"] == ('["textwrap"]', str(config))
    assert rows["keep"] == ('["not"]', str(config))
    rows = show(capsys, "run", "--show-settings", "--include", "json", "--keep", "pass", str(script))
    assert rows["include"] == ('["textwrap", "json"]', f"{config} + command line")
    assert rows["keep"] == ('["pass"]', "command line")
    assert show(capsys, "run", "--show-settings", "--isolated", "--include", "json",
                str(script))["include"] == ('["json"]', "command line")
    monkeypatch.chdir(tmp_path)  # -m: the current directory
    assert show(capsys, "run", "--show-settings")["include"] == ('["textwrap"]', "pyproject.toml")


def test_an_empty_keep_on_the_command_line_clears_the_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pyproject(tmp_path, 'keep = ["not"]')
    path = module(tmp_path / "m.py")
    assert show(capsys, "--show-settings", "--keep=", str(path))["keep"] == ("[]", "command line")


def test_settings_override_keeps_the_file_where_not_given() -> None:
    base = Settings(keep=("not",), include=("a",), origins={"keep": "f", "include": "f",
                    "runtime": "default", "semantics": "default", "exclude": "default",
                    "jobs": "default"})
    merged = base.override(keep=None, runtime="import", include=["b", "a"], jobs=None)
    assert (merged.keep, merged.runtime, merged.include, merged.jobs) == (
        ("not",), "import", ("a", "b"), None)
    assert merged.origins["keep"] == "f" and merged.origins["runtime"] == "command line"
    assert merged.origins["include"] == "f + command line"
    with pytest.raises(TypeError):
        base.override(color="red")


# ---------------------------------------------------------- real behaviour
def test_keep_from_the_file_keeps_the_sugar(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pyproject(tmp_path, 'keep = ["not"]')
    path = module(tmp_path / "m.py")
    assert cli.main([str(path)]) == 0
    out = capsys.readouterr().out
    assert out == desugar(SUGARY, keep=["not"]) != desugar(SUGARY)
    assert "print(not x)" in out and sugar_left(out) == {"not"}
    assert cli.main(["--keep", "pass", str(path)]) == 0
    out = capsys.readouterr().out
    assert out == desugar(SUGARY, keep=["pass"]) and "not x" not in out


def test_runtime_and_semantics_from_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pyproject(tmp_path, 'runtime = "import"\nsemantics = "native"')
    path = module(tmp_path / "m.py")
    assert cli.main([str(path)]) == 0
    out = capsys.readouterr().out
    assert out == desugar(SUGARY, runtime="import", semantics="native") != desugar(SUGARY)
    assert not sugar_left(out)
    assert cli.main(["--semantics", "python", "--runtime", "inline", str(path)]) == 0
    out = capsys.readouterr().out
    assert out == desugar(SUGARY) and not sugar_left(out)


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """A project: ``src/`` with modules, generated ones, and a ``build`` directory."""
    pyproject(tmp_path, 'exclude = ["build", "src/pkg/gen_*.py", "*_skip.py"]')
    src = tmp_path / "src"
    for name in ("main.py", "pkg/__init__.py", "pkg/gen_a.py", "pkg/sub/gen_b.py",
                 "pkg/x_skip.py", "build/lib.py", "other/build/deep.py"):
        module(src / name)
    (src / "build" / "notes.txt").write_text("notes\n")
    return tmp_path


CONVERTED = {"main.py", "pkg/__init__.py", "pkg/sub/gen_b.py"}
EXCLUDED = {"pkg/gen_a.py", "pkg/x_skip.py", "build/lib.py", "other/build/deep.py"}


def _changed(src: Path) -> set[str]:
    return {p.relative_to(src).as_posix() for p in src.rglob("*.py") if p.read_text() != SUGARY}


def test_exclude_skips_files_in_place(tree: Path) -> None:
    src = tree / "src"
    assert cli.main(["--in-place", str(src), "-j", "1"]) == 0
    assert _changed(src) == CONVERTED
    assert (src / "main.py").read_text() == desugar(SUGARY)
    assert not sugar_left((src / "pkg" / "sub" / "gen_b.py").read_text())


def test_exclude_in_a_mirrored_tree_and_check_and_diff(
    tree: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src, out = tree / "src", tree / "out"
    assert cli.main([str(src), "-o", str(out), "-j", "1"]) == 0
    written = {p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()}
    assert written == CONVERTED  # build/notes.txt is in an excluded directory
    assert all(not sugar_left((out / name).read_text()) for name in written)
    assert cli.main(["check", str(src)]) == 1
    reported = {Path(line.split(":")[0]).relative_to(src).as_posix()
                for line in capsys.readouterr().out.splitlines()}
    assert reported == CONVERTED
    assert cli.main(["--diff", str(src), "-j", "1"]) == 0
    diffs = {Path(line.split()[1]).relative_to(src).as_posix()
             for line in capsys.readouterr().out.splitlines() if line.startswith("+++ ")}
    assert diffs == CONVERTED
    assert cli.main(["check", "--isolated", str(src)]) == 1
    findings = len(check_source(SUGARY))
    assert len(capsys.readouterr().out.splitlines()) == findings * len(CONVERTED | EXCLUDED)


def test_a_file_named_on_the_command_line_is_never_excluded(
    tree: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = tree / "src"
    assert cli.main(["--in-place", str(src / "pkg" / "gen_a.py"), str(src / "build"), "-j", "1"]) == 0
    assert _changed(src) == {"pkg/gen_a.py", "build/lib.py"}


def test_exclude_patterns_with_a_slash_are_relative_to_the_file(
    tree: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = load_settings([tree / "src"])
    monkeypatch.chdir(tree / "src" / "pkg")  # not the current directory's
    assert settings.excludes(tree / "src" / "pkg" / "gen_a.py")
    assert settings.excludes("gen_a.py")
    assert not settings.excludes(tree / "gen_a.py")
    assert not settings.excludes(tree / "src" / "pkg" / "sub" / "gen_b.py")
    assert not Settings(exclude=("build",)).excludes(tree / "src")


def test_jobs_from_the_file(
    tree: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``jobs`` sets the size of the pool (``-j`` overrides it); the pool asked
    for is recorded, the jobs are done in this process."""
    seen: list[int] = []
    real = batch.run

    def run(jobs, work, *, workers: int = 1, **kwargs):  # type: ignore[no-untyped-def]
        seen.append(workers)
        return real(jobs, work, workers=1, **kwargs)

    monkeypatch.setattr(cli.batch, "run", run)
    config = tree / "pyproject.toml"
    config.write_text(config.read_text() + "jobs = 3\n")
    src = tree / "src"
    assert cli.main(["--diff", str(src)]) == 0
    assert cli.main(["--diff", "-j", "1", str(src)]) == 0
    assert cli.main(["--diff", "--isolated", str(src)]) == 0
    assert seen == [3, 1, batch.default_workers()]
    assert capsys.readouterr().out.count("+++ ") == 2 * len(CONVERTED) + len(CONVERTED | EXCLUDED)


def test_include_from_the_file_for_unsugar_run(tmp_path: Path) -> None:
    shop = tmp_path / "shop"
    shutil.copytree(SHOP, shop, ignore=shutil.ignore_patterns("__pycache__"))
    env = {**os.environ, "UNSUGAR_CACHE_DIR": str(tmp_path / "cache"),
           "PYTHONDONTWRITEBYTECODE": "1"}
    command = [sys.executable, "-m", "unsugar", "run"]
    plain = subprocess.run(command + ["wrap.py", "15"], cwd=shop, env=env, capture_output=True,
                           text=True, timeout=120)
    assert plain.stdout.splitlines()[1] == "SourceFileLoader DesugaringLoader", plain.stderr
    pyproject(shop, 'include = ["textwrap"]\nsemantics = "native"')
    done = subprocess.run(command + ["wrap.py", "15"], cwd=shop, env=env, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    lines, plain_lines = done.stdout.splitlines(), plain.stdout.splitlines()
    assert lines[1] == "DesugaringLoader DesugaringLoader"
    assert lines[:1] + lines[2:] == plain_lines[:1] + plain_lines[2:]


@pytest.mark.parametrize(("exclude", "loaders"), [
    ('["inventory"]', "DesugaringLoader SourceFileLoader"),  # a directory the module is in
    ('["inventory/it*.py"]', "DesugaringLoader SourceFileLoader"),  # relative to the file
    ('["textwrap.py", "pricing.py"]', "DesugaringLoader DesugaringLoader"),  # included by name
])
def test_exclude_from_the_file_for_unsugar_run(tmp_path: Path, exclude: str, loaders: str) -> None:
    """A module whose file the settings exclude is imported as it is; the
    patterns only see the files under the settings file's directory."""
    shop = tmp_path / "shop"
    shutil.copytree(SHOP, shop, ignore=shutil.ignore_patterns("__pycache__"))
    pyproject(shop, f'include = ["textwrap"]\nexclude = {exclude}')
    env = {**os.environ, "UNSUGAR_CACHE_DIR": str(tmp_path / "cache"),
           "PYTHONDONTWRITEBYTECODE": "1"}
    command = [sys.executable, "-m", "unsugar", "run"]
    done = subprocess.run(command + ["wrap.py", "15"], cwd=shop, env=env, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[1] == loaders
    isolated = subprocess.run(command + ["--isolated", "wrap.py", "15"], cwd=shop, env=env,
                              capture_output=True, text=True, timeout=120)
    assert isolated.stdout.splitlines()[1] == "SourceFileLoader DesugaringLoader", isolated.stderr


# -------------------------------------------------------------------- errors
ERRORS = [
    ("kep = []", "kep: unknown key; expected one of keep, runtime, semantics, exclude, include, "
     "jobs (did you mean keep?)"),
    ("color = 1", "color: unknown key; expected one of keep, runtime, semantics, exclude, "
     "include, jobs"),
    ('keep = "not,pass"', 'keep: expected an array of rule ids such as ["not", "pass"], '
     'got "not,pass"'),
    ('keep = ["not", 1]', 'keep: expected an array of rule ids such as ["not", "pass"], '
     'got ["not", 1]'),
    ('keep = ["not", "nope"]', "keep: expected rule ids (see 'unsugar rules'), "
     "got unknown rule(s): nope"),
    ('runtime = "eager"', 'runtime: expected "inline" or "import", got "eager"'),
    ("runtime = true", 'runtime: expected "inline" or "import", got true'),
    ('semantics = ["native"]', 'semantics: expected "python" or "native", got ["native"]'),
    ('exclude = "build"', 'exclude: expected an array of glob patterns, got "build"'),
    ("exclude = [{a = 1}]", "exclude: expected an array of glob patterns, got [{a = 1}]"),
    ('include = "pkg"', 'include: expected an array of dotted module names, got "pkg"'),
    ('include = ["src/pkg"]', 'include: expected dotted module names, got "src/pkg"'),
    ("jobs = 0", "jobs: expected a positive integer, got 0"),
    ("jobs = 2.5", "jobs: expected a positive integer, got 2.5"),
    ('jobs = "4"', 'jobs: expected a positive integer, got "4"'),
    ("jobs = false", "jobs: expected a positive integer, got false"),
]


@pytest.mark.parametrize(("body", "message"), ERRORS, ids=[body for body, _ in ERRORS])
def test_errors_name_the_file_the_key_and_what_was_expected(
    body: str, message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = pyproject(tmp_path, body)
    path = module(tmp_path / "m.py")
    with pytest.raises(ConfigError) as error:
        load_settings([path])
    assert str(error.value) == f"{config}: [tool.unsugar] {message}"
    for argv in ([str(path)], ["--show-settings", str(path)], ["check", str(path)],
                 ["run", str(path)]):
        assert cli.main(argv) == 2
        captured = capsys.readouterr()
        assert (captured.out, captured.err) == ("", f"unsugar: {error.value}\n")
    assert path.read_text() == SUGARY


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[tool.unsugar]\njobs = \n", ":2:8: invalid TOML: Invalid value"),
        ("[tool.unsugar\n", ":1:14: invalid TOML: Expected ']' at the end of a table declaration"),
        ("[tool.unsugar]\njobs = 1\njobs = 2", ":3:9: invalid TOML: Cannot overwrite a value "
         "at the end"),
        ('[tool]\nunsugar = "all"\n', ': [tool.unsugar]: expected a table, got "all"'),
        (b'[tool.unsugar]\nkeep = ["\xff"]\n', ":2:10: invalid TOML: not UTF-8"),
    ],
)
def test_a_file_that_is_not_toml_or_has_no_table(
    text: str | bytes, message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "pyproject.toml"
    if isinstance(text, bytes):
        config.write_bytes(text)
    else:
        config.write_text(text)
    path = module(tmp_path / "m.py")
    assert cli.main([str(path)]) == 2
    assert capsys.readouterr().err == f"unsugar: {config}{message}\n"


def test_missing_or_tableless_config_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = module(tmp_path / "m.py")
    missing = tmp_path / "missing.toml"
    assert cli.main(["--config", str(missing), str(path)]) == 2
    assert capsys.readouterr().err == f"unsugar: {missing}: No such file or directory\n"
    plain = pyproject(tmp_path, None, name="plain.toml")
    assert cli.main(["--config", str(plain), str(path)]) == 2
    assert capsys.readouterr().err == f"unsugar: {plain}: no [tool.unsugar] table\n"
    assert cli.main(["run", "--config", str(missing), str(path)]) == 2
    assert capsys.readouterr().err == f"unsugar: {missing}: No such file or directory\n"


def test_the_exit_code_and_message_of_the_process(tmp_path: Path) -> None:
    config = pyproject(tmp_path, "jobs = -1")
    module(tmp_path / "m.py")
    done = subprocess.run([sys.executable, "-m", "unsugar", "m.py"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == "unsugar: pyproject.toml: [tool.unsugar] jobs: expected a positive " \
        "integer, got -1\n"
    assert config.exists()


# ------------------------------------------------------------------- README
SETTINGS_INPUT = re.compile(r"<!-- settings-input:begin -->\n```toml\n(.*?)```\n", re.S)
SETTINGS_BEGIN = "<!-- settings-output:begin -->\n"
SETTINGS_END = "<!-- settings-output:end -->\n"
SETTINGS_ARGS = ["--show-settings", "--semantics", "python", "src/"]


def settings_example(table: str) -> str:
    """``unsugar --show-settings ...`` run in a project whose pyproject.toml is ``table``."""
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "pyproject.toml").write_text(table)
        (Path(folder) / "src").mkdir()
        done = subprocess.run([sys.executable, "-m", "unsugar", *SETTINGS_ARGS], cwd=folder,
                              capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return f"```\n$ unsugar {' '.join(SETTINGS_ARGS)}\n{done.stdout}```\n"


def readme_expected() -> str:
    """README.md with the ``--show-settings`` example regenerated."""
    text = README.read_text()
    table = SETTINGS_INPUT.search(text)
    assert table, "README.md lacks the [tool.unsugar] example"
    head, found, rest = text.partition(SETTINGS_BEGIN)
    _, found_end, tail = rest.partition(SETTINGS_END)
    assert found and found_end, "README.md lacks the settings-output markers"
    return head + SETTINGS_BEGIN + settings_example(table.group(1)) + SETTINGS_END + tail


def test_readme_example_is_the_real_output() -> None:
    expected = readme_expected()
    assert "[tool.unsugar]" in expected
    example = expected.partition(SETTINGS_BEGIN)[2].partition(SETTINGS_END)[0]
    rows = shown(example.split("\n", 2)[2].removesuffix("```\n"))
    assert rows["semantics"] == ('"python"', "command line")
    assert any(origin == "pyproject.toml" for _, origin in rows.values())
    assert README.read_text() == expected, (
        "README.md is out of date: run `python tests/test_config.py` to refresh it"
    )


if __name__ == "__main__":
    README.write_text(readme_expected())
    print(f"refreshed {README}")
