"""A module's namespace holds exactly the user's names (rule ``module``).

Snippets run as difftest modules (every name of the namespace compared), and
small packages run in a fresh interpreter twice, as written and desugared,
where what library code looks at is printed: ``vars``, ``dir``,
``inspect.getmembers``, ``from m import *``, doctest's finder, pickle.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.difftest import assert_same, desugared, run
from unsugar import desugar

SNIPPETS = {
    "names": """
        import os
        X = 1
        def f(): return X
        class C:
            def m(self): return 1
        for i in range(2):
            pass
        print(sorted(globals()))
        print(sorted(locals()))
        print(sorted(vars()))
        print(dir())
        print(locals() is globals(), vars() is globals())
    """,
    "values": """
        a, *b = [1, 2, 3]
        with open(__file__ if False else '/dev/null') as handle:
            pass
        try:
            1 / 0
        except ZeroDivisionError as error:
            caught = str(error)
        print({k: v for k, v in globals().items() if k != '__builtins__' and not callable(v)})
    """,
    "reexport_idiom": """
        class Thing: pass
        Thing.__module__ = 'pkg._impl'
        def helper(): pass
        helper.__module__ = 'pkg._impl'
        for _name, _obj in tuple(locals().items()):
            if not getattr(_obj, '__module__', '').startswith('pkg.'):
                continue
            _obj.__module__ = 'pkg'
        del _name, _obj
        print(Thing.__module__, helper.__module__)
    """,
    "plugin_registry": """
        def plugin_a(): pass
        def plugin_b(): pass
        PLUGINS = [v for k, v in sorted(globals().items()) if k.startswith('plugin_')]
        print([p.__name__ for p in PLUGINS])
    """,
    "qualnames": """
        def f():
            def g():
                return lambda: 0
            return g
        class C:
            class D:
                def m(self): pass
            def n(self):
                return [lambda: 0 for _ in range(1)]
        lam = lambda: 0
        gen = (x for x in ())
        print(f.__qualname__, f().__qualname__, f()().__qualname__)
        print(f.__code__.co_name, f.__code__.co_qualname, f().__code__.co_qualname)
        print(C.__qualname__, C.D.__qualname__, C.D.m.__qualname__, C().n()[0].__qualname__)
        print(lam.__qualname__, gen.__qualname__, gen.gi_code.co_qualname)
        print(f.__module__, C.__module__, C.D.m.__module__)
    """,
    "late_binding_globals": """
        def f(): return 'f'
        def g(): return f()
        globals()['f'] = lambda: 'patched'
        print(g())
        def h(): return later()
        def later(): return 'later'
        print(h())
    """,
    "name_errors": """
        x = 1
        del x
        try:
            x
        except NameError as e:
            print(e, e.name)
        try:
            del x
        except NameError as e:
            print(e)
        print(undefined_name)
    """,
    "exec_eval_dir": """
        exec('y = 2')
        print(y, eval('y + 1'), 'y' in dir())
        exec('z = y', None)
        exec('w = 5', globals())
        print(z, w, eval('w', None, None))
        ns = {}
        exec('v = 1', ns)
        print(sorted(k for k in ns if k != '__builtins__'))
        class K:
            exec('inside = 1')
            names = dir()
            e = eval('inside + 1')
        print(K.inside, K.e, K.names)
    """,
    "shadowed_namespace_builtins": """
        def locals(): return 'mine'
        def dir(): return 'my dir'
        print(locals(), dir())
    """,
    "module_global_statement": """
        global g
        g = 1
        def f():
            global g
            g += 1
        f()
        print(g)
    """,
    "frame": """
        import sys
        print(sys._getframe().f_code.co_name, __name__)
        def caller():
            return sys._getframe(1).f_code.co_name
        print(caller())
    """,
    "builtins_shadowed_at_module_level": """
        len = lambda x: 42
        print(len([1]))
        del len
        print(len([1]))
    """,
    "annotations": """
        x: int = 1
        y: 'str'
        print(__annotations__, 'y' in globals())
    """,
    "module_getattr": """
        import sys
        def __getattr__(name):
            return name * 2
        def __dir__():
            return ['a', 'b']
        me = sys.modules[__name__] if __name__ in sys.modules else None
        print(me)
    """,
    "frame_locals_are_the_namespace": """
        import sys
        frame = sys._getframe(0)
        print(frame.f_locals is frame.f_globals, frame.f_locals is globals(), frame.f_code.co_name)
        print("__name__" in frame.f_locals, frame.f_locals["frame"] is frame)
        frame.f_locals["written"] = 1
        del frame
        print(written)
    """,
    "caller_checks_it_is_called_from_a_module": """
        import sys
        def provides(*names):
            frame = sys._getframe(1)
            f_locals = frame.f_locals
            if f_locals is not frame.f_globals or "__name__" not in f_locals:
                raise TypeError("provides can only be used from a module definition.")
            f_locals["__provides__"] = names
        provides("a", "b")
        print(__provides__)
    """,
}


@pytest.mark.parametrize("source", SNIPPETS.values(), ids=SNIPPETS.keys())
def test_module_namespace(source: str) -> None:
    assert_same(source)


def test_error_at_module_level_has_the_originals_traceback() -> None:
    """The call of the module def is not a traceback entry."""
    import traceback

    source = "def f():\n    raise ZeroDivisionError\nx = 1\nf()\n"
    frames = []
    for code in (source, desugared(source)):
        try:
            exec(compile(code, "<m>", "exec"), {"__name__": "m"})
        except ZeroDivisionError as exc:
            frames.append([entry.name for entry in traceback.extract_tb(exc.__traceback__)][1:])
    assert frames[0] == frames[1] == ["<module>", "f"]


@pytest.mark.parametrize("rebinding", [
    "dict = iter = next = getattr = setattr = __import__ = locals = 5",
    "from os import path as dict",
    "def next(iterator):\n    return 0",
])
def test_an_error_leaves_the_module_after_its_code_rebound_builtins(rebinding: str) -> None:
    """The handler at module level reads none of the module's names: the
    error is the module's own, with no other chained to it, its traceback
    as CPython's, and the namespace holds only the module's names."""
    import traceback

    assert_same(f"{rebinding}\nraise KeyError('boom')\n")
    source = f"{rebinding}\ndef f():\n    raise SystemExit(3)\nf()\n"
    for code in (source, desugared(source)):
        namespace: dict[str, object] = {"__name__": "m"}
        with pytest.raises(SystemExit) as caught:
            exec(compile(code, "<m>", "exec"), namespace)
        assert caught.value.code == 3 and caught.value.__context__ is None
        assert [entry.name for entry in traceback.extract_tb(caught.tb)][1:] == ["<module>", "f"]
        assert not [name for name in namespace if name.startswith("_us")]


def test_exec_into_a_custom_dict() -> None:
    source = "import math\nA = math.pi > 3\ndef f():\n    return A\nprint(f())\n"
    out = desugared(source)
    for code in (source, out):
        namespace: dict[str, object] = {"__name__": "custom", "PRESET": 1}
        exec(code, namespace)
        assert sorted(namespace) == ["A", "PRESET", "__builtins__", "__name__", "f", "math"]
        assert namespace["f"]() is True and namespace["f"].__globals__ is namespace


def test_output_of_core_input_is_the_input() -> None:
    """A module already core has no names of the tool's: no module def."""
    core = "x = 1\nprint(x)\n"
    assert desugar(core) == core
    assert run(desugar("x = 1\nprint(not x)\n")).names == run("x = 1\nprint(not x)\n").names


# ------------------------------------------------------- packages, imported
PACKAGE = {
    "pkg/__init__.py": '''
        """A package that re-exports what its private modules define."""
        from pkg._impl import Thing, helper, Pair
        from pkg.noall import *
        for _name, _obj in tuple(locals().items()):
            if not getattr(_obj, '__module__', '').startswith('pkg.'):
                continue
            _obj.__module__ = 'pkg'
        del _name, _obj
    ''',
    "pkg/_impl.py": '''
        """Things.

        >>> Thing().twice(2)
        4
        """
        import collections
        Pair = collections.namedtuple('Pair', 'a b')

        class Thing:
            """A thing.

            >>> Thing().name
            'thing'
            """
            name = 'thing'

            def twice(self, x):
                """
                >>> Thing().twice(3)
                6
                """
                return 2 * x

            class Inner:
                pass

        def helper(items):
            """
            >>> helper([1, 2])
            3
            """
            total = 0
            for item in items:
                total += item
            return total

        _private = lambda: None
    ''',
    "pkg/noall.py": '''
        import os as _os
        PUBLIC = 1
        _hidden = 2
        def shown(): return [k for k in (1, 2) if k]
    ''',
}

OBSERVE = '''
import doctest, inspect, pickle, sys
import pkg, pkg._impl as impl
print(sorted(k for k in vars(pkg) if k != '__builtins__'))
print(sorted(k for k in vars(impl) if k != '__builtins__'))
print(dir(impl) == sorted(vars(impl)), [n for n, _ in inspect.getmembers(impl)])
print(pkg.Thing.__module__, pkg.helper.__module__, pkg.Pair.__module__)
star = {}
exec('from pkg.noall import *', star)
print(sorted(k for k in star if k != '__builtins__'))
tests = doctest.DocTestFinder().find(impl)
print(sorted((t.name, len(t.examples)) for t in tests))
print(doctest.testmod(impl))
for value in (impl.Thing, impl.Thing.Inner, impl.helper, impl.Thing.twice, impl.Thing(),
              impl.Pair(1, 2)):
    back = pickle.loads(pickle.dumps(value))
    print(type(back).__name__, back is value or type(back) is type(value))
import pydoc
print(pydoc.render_doc(impl, renderer=pydoc.plaintext).replace(impl.__file__, 'FILE'))
'''


def _write(root: Path, files: dict[str, str], transform) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(transform(textwrap.dedent(text).lstrip()))


def _observe(root: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", OBSERVE], cwd=root, capture_output=True,
                          text=True, timeout=120)


def test_package_as_libraries_see_it(tmp_path: Path) -> None:
    _write(tmp_path / "original", PACKAGE, lambda text: text)
    _write(tmp_path / "desugared", PACKAGE, desugar)
    original, rewritten = _observe(tmp_path / "original"), _observe(tmp_path / "desugared")
    assert original.returncode == 0, original.stderr
    assert rewritten.returncode == 0, rewritten.stderr
    assert rewritten.stdout == original.stdout
    assert "_us" not in rewritten.stdout


WARNINGS = """
    import sys, traceback, warnings
    from warnings import warn as deprecate

    # the frames that run this snippet, innermost first (the test's own lines
    # differ between the two runs: a warning names the frame by its place here)
    callers = [(frame.filename, frame.lineno) for frame in traceback.extract_stack()[::-1]
               if frame.filename != "<difftest>"]

    def shown(record):
        # a warning in the snippet's code is at a line of its own text (which
        # the output's is not); one outside it, at one of the callers
        for item in record:
            where = (item.filename, item.lineno)
            print(item.message, "here" if item.filename == "<difftest>"
                  else callers.index(where) if where in callers else where)
        record.clear()

    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        warnings.warn("level 1")
        warnings.warn("level 2", stacklevel=2)
        warnings.warn("level 3", DeprecationWarning, 3)
        deprecate("imported", stacklevel=2)
        warnings.warn("none", stacklevel=0)
        warnings.warn("negative", stacklevel=-5)
        warnings.warn("true", stacklevel=True)
        warnings.warn("past the outermost", stacklevel=10**6)
        warnings.warn(message="keywords", category=UserWarning, stacklevel=2)
        if sys.version_info >= (3, 12):
            warnings.warn("skip", stacklevel=1, skip_file_prefixes=("<difftes",))
            warnings.warn("skip 3", stacklevel=3, skip_file_prefixes=("<difftes", "/nowhere"))
            # a prefix that is the whole name skips nothing (CPython's C compares one less)
            warnings.warn("skip none", stacklevel=1, skip_file_prefixes=("<difftest>",))
        else:
            warnings.warn("skip", stacklevel=2)
            warnings.warn("skip 3", stacklevel=3)
            warnings.warn("skip none", stacklevel=2)
        class C:
            warnings.warn("class 1")
            warnings.warn("class 2", stacklevel=2)
            warnings.warn("class 3", stacklevel=3)
            class D:
                warnings.warn("nested 3", stacklevel=3)
        def f():
            warnings.warn("function 2", stacklevel=2)
            warnings.warn("function 3", stacklevel=3)
            _warn = warnings.warn
            _warn("aliased 3", stacklevel=3)
        f()
        class Base:
            def __init_subclass__(cls, **keywords):
                # called by type.__new__, in C under __build_class__: the output's
                # build_class is one of the runtime's helpers
                warnings.warn("subclassed", stacklevel=2)
        class Sub(Base):
            pass
        class Number:
            def __eq__(self, other):
                deprecate("compared", stacklevel=2)
                return True
            def __add__(self, other):
                warnings.warn("added", stacklevel=3)
                return self
        def adds():
            return Number() + 1
        equal = Number() == 1
        adds()
        class Logger:
            def warn(self, message, stacklevel=1):
                print("logged", message, stacklevel)
        Logger().warn("not warnings'", stacklevel=2)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            def raises():
                warnings.warn("an error in a function")
            for call in (lambda: warnings.warn("an error"), raises):
                try:
                    call()
                except UserWarning as error:
                    print(error, [entry.name for entry in traceback.extract_tb(error.__traceback__)])
            try:
                warnings.warn("an error in the body")
            except UserWarning as error:
                print(error, [entry.name for entry in traceback.extract_tb(error.__traceback__)])
        for bad in ("2", 2.0, 10**100):
            try:
                warnings.warn("bad", stacklevel=bad)
            except (TypeError, OverflowError) as error:
                print(type(error).__name__, error)
        shown(record)
    del callers, __warningregistry__  # (its version counts the changes of the filters so far)
"""


@pytest.mark.parametrize("semantics", ["python", "native"])
def test_stacklevel_of_a_warning_counts_the_frames_cpython_runs(semantics: str) -> None:
    """``warnings.warn(stacklevel=n)`` names the frame CPython's names: the
    module def and the module's own frame above a module body are not
    counted, nor the runtime's helpers (``build_class``, an operator's)."""
    assert_same(WARNINGS, semantics=semantics)


@pytest.mark.parametrize("loaded", ["pure Python", "_warnings again"])
def test_stacklevel_counts_the_frames_cpython_runs_for_another_warnings(loaded: str) -> None:
    """The same for the ``warn`` of another ``warnings``: the pure Python one
    (what an implementation of the core without ``_warnings`` runs), and one of
    a ``_warnings`` loaded again; not only the one loaded as the interpreter
    started."""
    from test.support.import_helper import import_fresh_module

    blocked, fresh = (["_warnings"], []) if loaded == "pure Python" else ([], ["_warnings"])
    module = import_fresh_module("warnings", blocked=blocked, fresh=fresh)
    assert (type(module.warn).__name__ == "function") == (loaded == "pure Python")
    saved = sys.modules["warnings"]
    try:
        assert_same(WARNINGS, setup=lambda: sys.modules.__setitem__("warnings", module))
    finally:
        sys.modules["warnings"] = saved


@pytest.mark.parametrize("runtime", ["inline", "import"])
def test_deprecation_on_import_is_shown_where_the_importer_is(tmp_path: Path, runtime: str) -> None:
    """A module that warns when imported, for its importer (``stacklevel=2``):
    the default filters show a ``DeprecationWarning`` of ``__main__`` only."""
    files = {
        "pkg/__init__.py": "",
        "pkg/old.py": """
            import warnings
            warnings.warn("pkg.old is deprecated", DeprecationWarning, stacklevel=2)
            class Legacy:
                warnings.warn("Legacy is deprecated", DeprecationWarning, stacklevel=2)
            def deprecated_module(name):
                warnings.warn(f"{name} is deprecated too", DeprecationWarning, stacklevel=3)
            deprecated_module(__name__)
        """,
        "main.py": "import pkg.old\nprint('imported')\n",
    }
    outputs = []
    for name, transform in (("original", lambda text: text),
                            ("desugared", lambda text: desugar(text, runtime=runtime))):
        _write(tmp_path / name, {**files, "main.py": files["main.py"]}, transform)
        if name == "desugared":
            (tmp_path / name / "main.py").write_text(files["main.py"])  # the importer as written
        run_main = subprocess.run([sys.executable, "main.py"], cwd=tmp_path / name, capture_output=True,
                                  text=True, timeout=120)
        outputs.append((run_main.returncode, run_main.stdout, run_main.stderr.replace(str(tmp_path / name), "")))
    assert outputs[0] == outputs[1]
    assert "main.py:1: DeprecationWarning: pkg.old is deprecated" in outputs[0][2]
    assert "main.py:1: DeprecationWarning: pkg.old is deprecated too" in outputs[0][2]
