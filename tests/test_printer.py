"""The core printer writes what ``ast.unparse`` writes, but big integers in hexadecimal."""

import ast
import copy
import sysconfig
import textwrap
from pathlib import Path

import pytest

from unsugar import desugar, desugar_tree, printer

CORE = """
def f(a, b, /, c, *args, d, e, **kw):
    nonlocal_free = 0

    def g():
        nonlocal nonlocal_free
        x = yield
        y = (yield x)
        yield f(x, (yield), *args, **kw)
        yield (yield y)
        return (yield)
    while g(0):
        try:
            raise
        except:
            raise f(1)
        except:
            return
    return 1
def h(*, k):
    return k(x=(yield), **(yield 1))
"""

STDLIB = Path(sysconfig.get_paths()["stdlib"])


def same_as_unparse(tree: ast.Module, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(printer, "HEX_FROM", 10**10000)
    assert printer.unparse(tree) == ast.unparse(tree)


def test_core_statements_and_yield_parentheses_as_unparse_writes_them(monkeypatch):
    tree = ast.parse(CORE)
    same_as_unparse(tree, monkeypatch)
    assert "def f(a, b, /, c, *args, d, e, **kw):" in printer.unparse(tree)


@pytest.mark.parametrize("module", ["textwrap.py", "json/decoder.py", "fractions.py", "contextlib.py"])
def test_desugared_modules_as_unparse_writes_them(module, monkeypatch):
    tree = desugar_tree(ast.parse((STDLIB / module).read_text()))
    same_as_unparse(tree, monkeypatch)


def test_big_integers_in_hexadecimal_read_back_the_same():
    tree = ast.parse(f"x = f({2**64 - 1}, {2**64}, {2**4000 + 5})")
    text = printer.unparse(tree)
    assert text == f"x = f({2**64 - 1}, 0x10000000000000000, {hex(2**4000 + 5)})"
    assert ast.dump(ast.parse(text)) == ast.dump(tree)


def test_a_module_with_sugar_left_is_not_core_and_is_written_by_unparse():
    source = "for x in y:\n    print(x, 'a')\n"
    with pytest.raises(printer.NotCore):
        printer.unparse(ast.parse(source))
    out = desugar(source, keep=["for"])
    assert out.endswith("\nfor x in y:\n    print(x, _us_s_a)\n")
    compile(out, "<out>", "exec")


def test_known_statements_are_taken_as_rendered():
    tree = ast.parse("x = 1\ndef f():\n    return 2\ny = 3\n")
    f = tree.body[1]
    text = printer.unparse(tree, {id(f): lambda indent: "\n" + "    " * indent + "def f(): KNOWN"})
    assert text == "x = 1\n\ndef f(): KNOWN\ny = 3"


def test_the_runtime_text_is_made_once_per_indent():
    desugar("print(1 + 2)\n")
    from unsugar.linker import compiled_runtime

    known = compiled_runtime("_us_", "python").known
    render = next(iter(known.values()))
    assert render(1) is render(1)
    assert render(1) == textwrap.indent(render(0), "    ")


@pytest.mark.parametrize("module", ["textwrap.py", "base64.py"])
def test_text_written_from_known_parts_is_the_trees_text(module):
    """``desugar`` writes the runtime's helpers and the literals built from
    their items (``text(104, 105)``) from text made without the tree; the tree
    ``desugar_tree`` gives has those items and prints the same."""
    source = (STDLIB / module).read_text()
    assert desugar(source) == printer.unparse(desugar_tree(ast.parse(source))) + "\n"


def test_a_spent_tree_is_written_the_same_and_its_bodies_emptied():
    """With ``spend`` the text is the same; every body is left empty (its
    statements freed as they are written)."""
    # (a copy: the runtime's statements in the tree are the process's, shared)
    tree = copy.deepcopy(desugar_tree(ast.parse((STDLIB / "textwrap.py").read_text())))
    bodies = [node.body for node in ast.walk(tree) if isinstance(getattr(node, "body", None), list)]
    text = printer.unparse(tree)
    assert len(bodies) > 100 and all(bodies)
    assert printer.unparse(tree, spend=True) == text
    assert not any(bodies)


def test_spending_a_tree_leaves_what_the_next_module_shares_whole():
    """The runtime's helpers, made once per process, are shared by every
    module's output: writing one output spends none of them."""
    first = desugar("import re\nprint(re.sub('a', 'b', f'{1:>3}') + 'c')\n")
    for semantics in ("python", "native"):
        desugar((STDLIB / "textwrap.py").read_text(), semantics=semantics)
    assert desugar("import re\nprint(re.sub('a', 'b', f'{1:>3}') + 'c')\n") == first
