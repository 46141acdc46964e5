"""``unsugar --annotate`` and ``unsugar explain FILE:LINE``.

The annotated output compiles, is core, and is the plain output with comment
lines inserted (nothing else differs); each comment names a real line of the
input, its text and rules of the registry. ``explain FILE:LINE`` prints the
statement, the output lines it became and the rules with their summaries.

Run ``python tests/test_annotate.py`` to refresh the README's example of both.
"""

from __future__ import annotations

import ast
import importlib.util
import io
import re
import subprocess
import sys
import tokenize
from pathlib import Path

import pytest

from unsugar import cli, desugar
from unsugar.annotate import annotated, explain
from unsugar.checker import check_source
from unsugar.registry import load_all

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
#: ``# 12: for x in xs:  [for, augassign]``
COMMENT = re.compile(r"(?P<indent> *)# (?P<line>\d+): (?P<text>.*?)(?:  \[(?P<rules>[a-z, -]+)\])?")

SAMPLE = '''\
import math


def norms(rows):
    """Each row's length."""
    out = []
    for row in rows:
        total = 0
        for x in row:
            total += x * x
        if total > 100:
            break
        elif total:
            out.append(math.sqrt(total))
        else:
            continue
    else:
        print("all done")
    return out


@staticmethod
def scaled(v, k=2): return v * k

try:
    n = 0
    while n < 3:
        n += 1
    else:
        print(n, [c for c in "ab"])
finally:
    print(norms([[3, 4], [0], [20, 30]]), scaled(2), f"{n:>4}")
x = 1; y = (x
     + 2)
'''


def library_module(name: str) -> Path:
    spec = importlib.util.find_spec(name)
    assert spec is not None and spec.origin is not None
    return Path(spec.origin)


PROGRAMS: dict[str, str] = {
    "sample": SAMPLE,
    **{str(path.relative_to(ROOT)): path.read_text(encoding="utf-8")
       for folder in ("tests/programs", "examples") for path in sorted((ROOT / folder).rglob("*.py"))},
    **{name: library_module(name).read_text(encoding="utf-8")
       for name in ("textwrap", "colorsys", "fractions", "string")},
    # defs nested past the tokenizer's 100 levels: printed with the deepest hoisted
    "99_nested_defs": "".join("    " * i + f"def f{i}(n={i}):\n" for i in range(99))
    + "    " * 99 + "return [n, *range(2)] if n else None\n"
    + "".join("    " * i + f"return f{i + 1}\n" for i in range(98, 0, -1)),
    "core_already": "x = 1\nprint(x)\n",
    "empty": "",
}


def without_comments(text: str) -> str:
    """``text`` without its comment lines (found by ``tokenize``)."""
    lines = text.splitlines(keepends=True)
    comments = {
        token.start[0] for token in tokenize.generate_tokens(io.StringIO(text).readline)
        if token.type == tokenize.COMMENT and not token.line[:token.start[1]].strip()
    }
    return "".join(line for number, line in enumerate(lines, 1) if number not in comments)


def statement_texts(source: str) -> dict[int, set[str]]:
    """For each line, the texts a comment may show for the statements starting
    there: the first line of each one's source (``ast.get_source_segment``)."""
    texts: dict[int, set[str]] = {}
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.stmt):
            segment = ast.get_source_segment(source, node) or ""
            texts.setdefault(node.lineno, set()).add(segment.split("\n")[0].rstrip())
    return texts


def comments_of(text: str) -> list[tuple[int, re.Match[str]]]:
    """The comment lines of an annotated output: (index of the line, match)."""
    found = []
    for index, line in enumerate(text.split("\n")):
        if line.lstrip().startswith("#"):
            match = COMMENT.fullmatch(line)
            assert match, f"not an annotation: {line!r}"
            found.append((index, match))
    return found


@pytest.mark.parametrize("name", PROGRAMS)
def test_annotated_output_is_the_output_with_comments(name: str) -> None:
    source = PROGRAMS[name]
    plain = desugar(source)
    text = desugar(source, annotate=True)
    assert text == annotated(source)
    compile(text, name, "exec", dont_inherit=True)
    assert check_source(text) == []
    assert without_comments(text) == plain
    lines = text.split("\n")
    comments = comments_of(text)
    assert len(lines) == len(plain.split("\n")) + len(comments)
    texts = statement_texts(source)
    rules = load_all()
    for index, match in comments:
        line = int(match["line"])
        assert match["text"] in texts[line] or match["text"] == "...", (line, match["text"])
        assert set((match["rules"] or "").split(", ")) - {""} <= set(rules)
        # a comment stands right before a statement, at its indentation
        following = lines[index + 1]
        assert following.strip() and not following.lstrip().startswith("#")
        assert len(following) - len(following.lstrip(" ")) == len(match["indent"])
    if name not in ("core_already", "empty"):
        numbered = {int(match["line"]) for _, match in comments}
        assert len(numbered) > 1


def test_native_semantics_and_imported_runtime() -> None:
    for options in ({"semantics": "native"}, {"runtime": "import"}):
        plain = desugar(SAMPLE, **options)
        text = desugar(SAMPLE, annotate=True, **options)
        assert without_comments(text) == plain
        assert check_source(text) == []
        assert len(comments_of(text)) > 10


def test_every_output_statement_of_the_users_code_is_under_a_comment() -> None:
    """The module's own statements start with a comment; the helpers before them have none."""
    text = annotated(SAMPLE)
    lines = text.split("\n")
    first = next(index for index, line in enumerate(lines) if line.lstrip().startswith("# "))
    assert lines[first - 1].strip() == "_us_store = _us_namespace_setitem(_us_namespace)"
    assert COMMENT.fullmatch(lines[first])["line"] == "1"  # import math
    assert not any(line.lstrip().startswith("#") for line in lines[:first])


def rules_by_line(text: str) -> dict[int, set[str]]:
    found: dict[int, set[str]] = {}
    for _, match in comments_of(text):
        found.setdefault(int(match["line"]), set()).update((match["rules"] or "").split(", "))
    return found


def test_comments_name_the_rules_applied() -> None:
    rules = rules_by_line(annotated(SAMPLE))
    expected = {
        1: {"import"},
        4: {"docstring"},
        7: {"for"},
        9: {"for"},
        10: {"augassign", "mult"},
        11: {"if", "gt"},
        12: {"break"},
        13: {"if"},
        14: {"attribute"},
        16: {"continue"},
        18: {"str-literal"},
        23: {"decorator", "default", "mult"},
        25: {"try-finally"},
        27: {"while-else", "lt"},
        28: {"augassign"},
        30: {"listcomp", "str-literal"},
        32: {"fstring", "list"},
    }
    for line, ids in expected.items():
        assert ids <= rules[line], (line, rules[line])
    # a nested statement's rules are in its own comment, not its owner's
    assert "augassign" not in rules[9] and "break" not in rules[7]


def test_comments_show_each_statements_own_text() -> None:
    texts = [(int(m["line"]), m["text"]) for _, m in comments_of(annotated(SAMPLE))]
    assert (7, "for row in rows:") in texts
    assert (13, "elif total:") in texts
    assert (23, "def scaled(v, k=2): return v * k") in texts  # the def's line, not the decorator's
    assert (23, "return v * k") in texts
    assert (33, "x = 1") in texts and (33, "y = (x") in texts
    assert (7, "for row in rows:") == next(t for t in texts if t[0] == 7)


def test_annotated_output_runs_as_the_plain_one() -> None:
    from difftest import run

    assert run(annotated(SAMPLE)) == run(desugar(SAMPLE)) == run(SAMPLE)


def test_kept_sugar_that_is_not_core_has_no_comments() -> None:
    source = "if x:\n    y = 1\n"
    assert desugar(source, keep=["if"], annotate=True) == desugar(source, keep=["if"])
    # (ast.unparse writes it, a docstring on lines of their own)
    source = 'def f():\n    """doc\n#5\n#-\n"""\n    if x: pass\n'
    keep = ["if", "str-literal", "docstring"]
    assert "\n#5\n" in desugar(source, keep=keep, annotate=True) == desugar(source, keep=keep)


def test_a_cookie_lookalike_on_the_first_lines_is_not_written() -> None:
    """An already-core module is its own output: a comment on its first line
    that reads as a PEP 263 declaration would change how the file is read."""
    source = "f(coding=x)\n"
    text = annotated(source)
    assert text.split("\n")[0] == "# 1: ..."
    compile(text, "<annotated>", "exec")
    later = annotated("a = 1\nf(coding=x)\n")
    assert later.split("\n")[2] == "# 2: f(coding=x)"  # a third line is not read for one
    compile(later, "<annotated>", "exec")


# ------------------------------------------------------------------ explain
def test_explain_a_compound_statement() -> None:
    explanation = explain(SAMPLE, 9)
    assert (explanation.first, explanation.last) == (9, 10)
    assert explanation.source == ["        for x in row:", "            total += x * x"]
    ids = [rule.id for rule in explanation.rules]
    assert {"for", "augassign", "mult"} <= set(ids)
    assert ids == [rule_id for rule_id in load_all() if rule_id in ids]  # the registry's order
    plain = desugar(SAMPLE).split("\n")
    output = explanation.output
    assert output[0] == "_us_iter_2 = _us_iter(row)" and output[-1] == "_us_iter_2 = _us_none"
    assert any(line.strip().startswith("total = _us_inplace_add(total, ") for line in output)
    # the output lines are lines of the plain output, in order, dedented alike
    margin = next(len(line) - len(line.lstrip()) for line in plain if line.endswith(output[0]))
    start = plain.index(" " * margin + output[0])
    assert [line[margin:] for line in plain[start:start + len(output)]] == output


def test_explain_picks_the_statement_on_or_over_the_line() -> None:
    decorated = ["@staticmethod", "def scaled(v, k=2): return v * k"]
    assert explain(SAMPLE, 23).source == decorated  # the def's line: the def, not its return
    assert explain(SAMPLE, 22).source == decorated  # its decorator's line: the def over it
    assert explain(SAMPLE, 33).source == ["x = 1"]  # the first starting there
    assert explain(SAMPLE, 34).source == ["x = 1; y = (x", "     + 2)"]  # the one over it
    assert (explain(SAMPLE, 17).first, explain(SAMPLE, 17).last) == (7, 18)  # the for's else:
    assert (explain(SAMPLE, 13).first, explain(SAMPLE, 13).last) == (13, 16)  # an elif


def test_explain_on_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "sample.py"
    path.write_text(SAMPLE)
    assert cli.main(["explain", f"{path}:10"]) == 0
    out = capsys.readouterr().out
    summaries = {rule.id: rule.summary for rule in load_all().values()}
    assert out == (
        f"statement at {path}:10:\n    total += x * x\n\nbecomes:\n"
        "    total = _us_inplace_add(total, _us_binary_mult(x, x))\n\nrules:\n"
        f"    augassign: {summaries['augassign']}\n    mult: {summaries['mult']}\n"
    )
    assert cli.main(["explain", "augassign"]) == 0
    assert capsys.readouterr().out.startswith(f"augassign: {summaries['augassign']}\n")


@pytest.mark.parametrize("where, message", [
    ("missing.py:3", "missing.py: no such file"),
    ("{path}:0", "{path}:0: line 0 is out of range (the file has 34 lines)"),
    ("{path}:35", "{path}:35: line 35 is out of range (the file has 34 lines)"),
    ("{path}:3", "{path}:3: no statement on line 3"),
])
def test_explain_errors_are_usage_errors(
    where: str, message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "sample.py"
    path.write_text(SAMPLE)
    assert cli.main(["explain", where.format(path=path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.endswith(f"error: {message.format(path=path)}\n")


def test_explain_a_file_that_does_not_compile(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.py"
    path.write_text("x = 1\nreturn x\n")
    assert cli.main(["explain", f"{path}:1"]) == 1
    assert capsys.readouterr().err == f"{path}:2:1: 'return' outside function\n"


# -------------------------------------------------------------- the command
def test_annotate_on_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "src"
    (source / "pkg").mkdir(parents=True)
    (source / "pkg" / "a.py").write_text(SAMPLE)
    (source / "b.py").write_text("#!/usr/bin/env python3\nprint(1 + 2)\n")
    expected_b = "#!/usr/bin/env python3\n" + annotated("#!/usr/bin/env python3\nprint(1 + 2)\n")
    assert "# 2: print(1 + 2)  [add]\n" in expected_b

    assert cli.main(["--annotate", str(source / "b.py")]) == 0  # standard output
    assert capsys.readouterr().out == expected_b
    assert cli.main(["--annotate", str(source / "b.py"), "-o", str(tmp_path / "b.py")]) == 0
    assert (tmp_path / "b.py").read_text() == expected_b
    assert cli.main(["--annotate", "-j", "1", str(source), "-o", str(tmp_path / "out")]) == 0
    assert (tmp_path / "out" / "pkg" / "a.py").read_text() == annotated(SAMPLE)
    assert (tmp_path / "out" / "b.py").read_text() == expected_b
    capsys.readouterr()
    assert cli.main(["--annotate", "--diff", str(source / "b.py")]) == 0
    assert re.search(r"\n\+ *# 2: print\(1 \+ 2\)  \[add\]\n", capsys.readouterr().out)
    assert cli.main(["--annotate", "--in-place", "-j", "1", str(source)]) == 0
    assert (source / "pkg" / "a.py").read_text() == annotated(SAMPLE)
    assert (source / "b.py").read_text() == expected_b
    assert cli.main(["--help"]) == 0
    assert "--annotate" in capsys.readouterr().out


def test_annotate_from_standard_input() -> None:
    run = subprocess.run([sys.executable, "-m", "unsugar", "--annotate", "-"], input=b"y = 2 ** 3\n",
                         capture_output=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.decode() == annotated("y = 2 ** 3\n")
    assert "# 1: y = 2 ** 3  [module, pow]" in run.stdout.decode()


# ------------------------------------------------------------------- README
INPUT_BEGIN, INPUT_END = "<!-- annotate-input:begin -->\n```python\n", "```\n<!-- annotate-input:end -->\n"
OUTPUT_BEGIN, OUTPUT_END = "<!-- annotate-output:begin -->\n", "<!-- annotate-output:end -->\n"
EXPLAIN_BEGIN, EXPLAIN_END = "<!-- explain-output:begin -->\n", "<!-- explain-output:end -->\n"
EXPLAINED = 3  # the line of the README's example that ``explain`` is shown for


def _between(text: str, begin: str, end: str, new: str | None = None) -> str:
    """The part of ``text`` between ``begin`` and ``end``; with ``new``, ``text`` with it replaced."""
    head, found, rest = text.partition(begin)
    assert found, f"README.md lacks {begin.strip()}"
    old, found, tail = rest.partition(end)
    assert found, f"README.md lacks {end.strip()}"
    return old if new is None else head + begin + new + end + tail


def readme_expected() -> str:
    """README.md with the examples of ``--annotate`` and ``explain`` regenerated."""
    text = README.read_text()
    source = _between(text, INPUT_BEGIN, INPUT_END)
    lines = annotated(source).split("\n")
    first = next(index for index, line in enumerate(lines) if line.lstrip().startswith("# "))
    margin = len(lines[first]) - len(lines[first].lstrip())
    end = next(index for index in range(first, len(lines))
               if lines[index].strip() and len(lines[index]) - len(lines[index].lstrip()) < margin)
    excerpt = "\n".join(line[margin:] for line in lines[first:end]).strip("\n")
    text = _between(text, OUTPUT_BEGIN, OUTPUT_END, f"```python\n{excerpt}\n```\n")
    shown = explain(source, EXPLAINED, filename="count.py").format("count.py")
    return _between(text, EXPLAIN_BEGIN, EXPLAIN_END, f"```\n$ unsugar explain count.py:{EXPLAINED}\n"
                    f"{shown}```\n")


def test_readme_examples_are_current() -> None:
    assert README.read_text() == readme_expected(), (
        "README.md is out of date: run `python tests/test_annotate.py` to refresh it"
    )


if __name__ == "__main__":
    README.write_text(readme_expected())
    print(f"refreshed {README}")
