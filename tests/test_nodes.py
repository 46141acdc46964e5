"""``unsugar.nodes``: ast's own classes, from a module whose attribute loads
the interpreter specializes (no module ``__getattr__``, which ``ast`` has from 3.12)."""

import ast
import re
from pathlib import Path

import unsugar
from unsugar import nodes

SOURCE = Path(unsugar.__file__).parent


def test_every_public_name_of_ast_is_asts_own() -> None:
    public = [name for name in vars(ast) if not name.startswith("_")]
    assert public
    assert [name for name in public if getattr(nodes, name, None) is not getattr(ast, name)] == []


def test_nodes_has_no_module_getattr() -> None:
    assert "__getattr__" not in vars(nodes)


def test_every_module_loads_ast_from_nodes() -> None:
    plain = [str(path.relative_to(SOURCE)) for path in SOURCE.rglob("*.py")
             if re.search(r"^\s*import ast\b", path.read_text(encoding="utf-8"), re.MULTILINE)]
    assert plain == []
