"""Positions of the nodes the rewrite makes: every one in the tree
``desugar_tree`` gives (for ``compile`` and tracebacks), none when only text
is written (``trees.placing``)."""

import ast
import subprocess
import sys

from unsugar.trees import copy_location, placing

SOURCE = "def f(a, *b):\n    return [a + x for x in b if x]\n\n\nprint(f(1, 2, 0, 3))\n"
TREE = ("import ast, sys\nfrom unsugar import desugar, desugar_tree\nsource = sys.argv[1]\n"
        "if sys.argv[2] == 'text first':\n    desugar(source)\n"
        "print(ast.dump(desugar_tree(ast.parse(source)), include_attributes=True))\n")


def test_copy_location_places_nothing_while_placing_is_off() -> None:
    old = ast.parse("x = 1\n").body[0]
    with placing(False):
        unplaced = copy_location(ast.Expr(ast.Name("y", ast.Load())), old)
    placed = copy_location(ast.Expr(ast.Name("y", ast.Load())), old)
    assert getattr(unplaced, "lineno", None) is None
    assert getattr(unplaced.value, "lineno", None) is None
    assert (placed.value.lineno, placed.value.end_col_offset) == (1, 5)


def test_the_tree_is_placed_the_same_after_text_was_written_in_the_process() -> None:
    """The runtime's helpers are compiled once per process, placed even when
    text asks for them first; the tree must not depend on what ran before."""
    def tree(order: str) -> str:
        return subprocess.run([sys.executable, "-c", TREE, SOURCE, order], check=True,
                              capture_output=True, text=True).stdout

    first, alone = tree("text first"), tree("tree only")
    assert "lineno=" in first
    assert first == alone, "the tree differs when text was written first"  # (no diff: it is long)


#: code whose expansions read one value in several places: a ``with``'s exit
#: (called with None three times), ``and``/``or`` chains (their flag), a
#: comparison chain (a link's right operand is the next one's left), a walrus,
#: ``exec(code)`` and ``locals()`` (their callee), a module run as a def
SHARED = """
import os
def f(a, b, c, code, items):
    with open(a) as h, open(b):
        pass
    x = a and b and c
    y = a < b < c < 4
    if (n := len(items)) > 1:
        print(n)
    exec(code, {})
    return locals()
class C:
    z = os.sep or os.name or 3
"""


def test_each_node_of_a_desugared_tree_is_in_one_place() -> None:
    """A node read in two places would be placed for the first and moved by
    a tool that edits the tree in one place; each read is a node of its own
    (but the contexts, ``ast.Load()``, which CPython's parser shares too)."""
    import collections

    from unsugar import desugar_tree

    for options in ({}, {"runtime": "import", "semantics": "native"}):
        tree = desugar_tree(ast.parse(SHARED), **options)
        seen = collections.Counter(
            id(node) for node in ast.walk(tree) if not isinstance(node, ast.expr_context))
        shared = [ast.dump(node) for node in ast.walk(tree) if seen[id(node)] > 1]
        assert not shared, shared[:5]
