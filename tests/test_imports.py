"""Imports: every form of ``import`` against a small package tree on disk.

Each snippet runs twice (original, desugared); before each run the modules
of the tree are forgotten, so both runs import them afresh and print their
side effects.
"""

from __future__ import annotations

import importlib
import sys
import textwrap
from pathlib import Path

import pytest

from tests.difftest import assert_same
from unsugar import desugar

PACKAGE = {
    "pkgx/__init__.py": "print('init pkgx')\nvalue = 1\n",
    "pkgx/sub/__init__.py": "print('init sub')\n",
    "pkgx/sub/leaf.py": "print('init leaf')\nx = 3\n_hidden = 4\n",
    "pkgx/circ_ok_a.py": "print('a starts')\nfrom pkgx import circ_ok_b\nA = 1\n",
    "pkgx/circ_ok_b.py": "print('b starts')\nfrom pkgx import circ_ok_a\nB = 2\n",
    "pkgx/circ_bad_a.py": "from pkgx.circ_bad_b import B\nA = 1\n",
    "pkgx/circ_bad_b.py": "from pkgx.circ_bad_a import A\nB = 2\n",
    "pkgx/circ_as_a.py": "import pkgx.circ_as_b as b\nA = 1\n",
    "pkgx/circ_as_b.py": "import pkgx.circ_as_a as a\nprint('b sees', a.__name__)\nB = 2\n",
    "pkgx/with_all.py": "__all__ = ['pub', '_priv']\npub = 1\n_priv = 2\nother = 3\n",
    "pkgx/no_all.py": "a = 1\n_b = 2\nc = 3\n",
    "pkgx/bad_all.py": "__all__ = ['ok', 5]\nok = 1\n",
    "pkgx/dict_all.py": "__all__ = {'a': 1}\na = 1\n",
    "pkgx/set_all.py": "__all__ = {'a'}\na = 1\n",
    "pkgx/raising.py": "print('raising starts')\nraise ValueError('boom')\n",
    "pkgx/lazy.py": (
        "def __getattr__(name):\n"
        "    print('getattr', name)\n"
        "    if name == 'dyn':\n"
        "        return 42\n"
        "    raise AttributeError(name)\n"
    ),
}

#: Modules the snippets create by hand; forgotten with the tree.
EXTRA = ("fake_mod", "int_mod", "named_mod")


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("imports")
    for path, text in PACKAGE.items():
        target = root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
    sys.path.insert(0, str(root))
    importlib.invalidate_caches()
    yield root
    sys.path.remove(str(root))
    forget()


def forget(*prefixes: str) -> None:
    """Remove the tree's modules (and ``prefixes``) from ``sys.modules``."""
    for name in list(sys.modules):
        top = name.partition(".")[0]
        if top in ("pkgx", *EXTRA, *prefixes):
            del sys.modules[name]


def same(source: str, **kwargs: object) -> None:
    assert_same(source, allow=("classdef",), setup=forget, **kwargs)


IMPORT = [
    "import pkgx\nprint(pkgx.value)",
    "import pkgx, pkgx.sub\nprint(pkgx.sub.__name__)",
    "import pkgx.sub.leaf\nprint(pkgx.sub.leaf.x)",
    "import pkgx.sub.leaf as leaf\nprint(leaf.x, 'pkgx' in dir())",
    "import pkgx.sub as s, pkgx.sub.leaf as l\nprint(s.leaf is l)",
    "import pkgx.nothing",
    "import pkgx.raising",
    "import no_such_module_at_all",
    "try:\n    import pkgx.raising\nexcept ValueError as e:\n    print('caught', e)\nimport pkgx.raising",
    "def f():\n    import pkgx.sub.leaf as leaf\n    return leaf.x\nprint(f(), 'leaf' in dir())",
    "def f():\n    global pkgx\n    import pkgx.sub\nf()\nprint(pkgx.sub.__name__)",
    "def f():\n    import pkgx\n    del pkgx\n    return pkgx\nf()",
    "import pkgx.circ_ok_a\nprint(pkgx.circ_ok_a.circ_ok_b.circ_ok_a.A)",
    "import pkgx.circ_bad_a",
    # import a.b as c takes b through IMPORT_FROM, so it works in a circular import
    "import pkgx.circ_as_a as a\nprint(a.b.a is a, a.b.B)",
    "def f():\n    class C:\n        import pkgx.sub as s\n    return C.s.__name__\nprint(f())",
    # the import runs from the importing frame: no helper's frame is in the traceback
    "import traceback\ntry:\n    import pkgx.raising\nexcept ValueError as e:\n"
    "    print([frame.name for frame in traceback.extract_tb(e.__traceback__)])",
]


@pytest.mark.parametrize("source", IMPORT)
def test_import(tree: Path, source: str) -> None:
    same(source)


IMPORT_FROM = [
    "from pkgx import value\nprint(value)",
    "from pkgx.sub import leaf\nprint(leaf.x)",
    "from pkgx.sub.leaf import x as y, _hidden\nprint(y, _hidden)",
    "from pkgx import sub, value as v\nprint(sub.__name__, v)",
    "from pkgx.sub.leaf import x, missing",
    "from pkgx import nothing",
    "from pkgx.lazy import dyn, other",
    "from pkgx.lazy import dyn\nprint(dyn)",
    # the sys.modules fallback during a circular import
    "from pkgx import circ_ok_a\nprint(circ_ok_a.A)",
    # the "partially initialized" message
    "from pkgx import circ_bad_a",
    # a module without __file__: unknown location
    "import sys\nsys.modules['fake_mod'] = type(sys)('fake_mod')\nfrom fake_mod import x",
    # not a module at all: no __name__
    "import sys\nsys.modules['int_mod'] = 5\nfrom int_mod import real\nprint(real)\nfrom int_mod import x",
    # a name that is not a str: <unknown module name>
    "import sys\nm = type(sys)('named_mod')\nm.__name__ = 3\nsys.modules['named_mod'] = m\n"
    "from named_mod import x",
    "def f():\n    from pkgx.sub.leaf import x\n    return x\nprint(f(), 'x' in dir())",
    "def f():\n    global x, y\n    from pkgx.sub.leaf import x, _hidden as y\nf()\nprint(x, y)",
    "def outer():\n    leaf = 0\n    def inner():\n        global leaf\n        from pkgx.sub import leaf\n"
    "        return leaf.x\n    return inner(), leaf\nprint(outer(), leaf.__name__)",
    "class C:\n    from pkgx.sub.leaf import x as __y\n    import pkgx as __p\n"
    "for k in sorted(C.__dict__):\n    if 'y' in k or 'p' in k:\n        print(k)",
]


@pytest.mark.parametrize("source", IMPORT_FROM)
def test_import_from(tree: Path, source: str) -> None:
    same(source)


@pytest.mark.parametrize("source", [
    "from pkgx.sub.leaf import missing",
    "from pkgx import circ_bad_a",
    "import sys\nsys.modules['fake_mod'] = type(sys)('fake_mod')\nfrom fake_mod import x",
    "import sys\nsys.modules['int_mod'] = 5\nfrom int_mod import x",
    "import sys\nm = type(sys)('named_mod')\nm.__name__ = 3\nsys.modules['named_mod'] = m\n"
    "from named_mod import x",
    "from pkgx import nothing",
    "import pkgx.nothing",
])
def test_import_error_attributes(tree: Path, source: str) -> None:
    """``name``, ``path`` and (3.12+) ``name_from`` of the ImportError."""
    same(
        "try:\n" + textwrap.indent(source, "    ") + "\nexcept ImportError as e:\n"
        "    print(type(e).__name__, e, e.name, e.path, getattr(e, 'name_from', None))\n"
    )


STAR = [
    "from pkgx.with_all import *\nprint(pub, _priv)",
    "from pkgx.no_all import *\nprint(a, c)",
    "from pkgx.no_all import *\n_b",
    "from pkgx.bad_all import *",
    "from pkgx.dict_all import *",
    "from pkgx.set_all import *",
    "from pkgx.raising import *",
    "import sys\nm = type(sys)('fake_mod')\nm.__dict__[3] = 4\nsys.modules['fake_mod'] = m\n"
    "from fake_mod import *",
    "import sys\nm = type(sys)('fake_mod')\nm.__all__ = ['z']\nsys.modules['fake_mod'] = m\n"
    "from fake_mod import *",
    "from pkgx.sub.leaf import *\nprint(x)",
]


@pytest.mark.parametrize("source", STAR)
def test_import_star(tree: Path, source: str) -> None:
    same(source)


def test_import_star_outside_module_is_a_syntax_error() -> None:
    source = "def f():\n    from os import *\n"
    with pytest.raises(SyntaxError) as expected:
        compile(source, "<s>", "exec")
    with pytest.raises(SyntaxError) as got:
        desugar(source)
    assert got.value.msg == expected.value.msg


REPLACED_IMPORT = """
import builtins
original = builtins.__import__
def hook(name, globals=None, locals=None, fromlist=(), level=0):
    if globals is not None and globals.get('__name__') == 'difftest_module':
        shown = 'none' if locals is None else 'globals' if locals is globals else sorted(locals)
        print('hook', repr(name), fromlist, level, shown)
    return original(name, globals, locals, fromlist, level)
builtins.__import__ = hook
try:
    import pkgx.sub
    from pkgx.sub import leaf
    from pkgx.with_all import *
    def f():
        import pkgx.sub.leaf as l
        from pkgx import value
        return value
    f()
    class C:
        k = 1
        from pkgx import value
finally:
    builtins.__import__ = original
"""


def test_replaced_builtins_import_is_called(tree: Path) -> None:
    """IMPORT_NAME looks ``__import__`` up in the builtins when it runs, and passes
    the globals, and the locals (None in a function, the class namespace in a class)."""
    same(REPLACED_IMPORT)


RELATIVE = {
    "__init__.py": "from . import helpers\nfrom .helpers import twice as _twice\nprint('pkg', __name__)\n",
    "helpers.py": "def twice(x):\n    return 2 * x\nNAME = __name__\n",
    "inner/__init__.py": "from .. import helpers\nfrom ..helpers import NAME\nfrom .deep import *\n",
    "inner/deep.py": (
        "__all__ = ['DEEP', 'where']\nfrom .. import helpers as far\n"
        "DEEP = far.twice(21)\nfrom . import __name__ as where\n"
    ),
}


def test_relative_imports_in_a_desugared_package(tmp_path: Path) -> None:
    """The same package, original and desugared, imported side by side."""
    for package, rewrite in (("rel_base", False), ("rel_core", True)):
        for path, text in RELATIVE.items():
            target = tmp_path / package / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(desugar(text) if rewrite else text)
    sys.path.insert(0, str(tmp_path))
    importlib.invalidate_caches()
    try:
        results = []
        for package in ("rel_base", "rel_core"):
            deep = importlib.import_module(f"{package}.inner.deep")
            inner = importlib.import_module(f"{package}.inner")
            results.append((deep.DEEP, deep.where.replace(package, "P"), inner.NAME.replace(package, "P"),
                            inner.helpers.__name__.replace(package, "P"), inner.DEEP))
        assert results[0] == results[1]
        assert results[0] == (42, "P.inner", "P.helpers", "P.helpers", 42)
    finally:
        sys.path.remove(str(tmp_path))
        forget("rel_base", "rel_core")


def test_relative_import_beyond_top_level() -> None:
    """Relative imports outside a package fail as CPython fails them."""
    for source in ("from . import x", "from .. import y"):
        same(textwrap.dedent(source))
