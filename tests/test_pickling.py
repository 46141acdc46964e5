"""Pickling by value: cloudpickle and dill pickle a function or class made at
run time with its closure, and the output's closures reach the runtime's
helpers. Loaded in another process, a desugared function must work as the
original does.

The helpers hold two kinds of values that CPython's own reductions do not
bring back: getters of ``type``'s attributes (pickled as ``getattr(type,
'__mro__')``, the attribute's value) and tables keyed by ``id`` (plans,
caches), whose ids are not another process's.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from unsugar import desugar
from unsugar.checker import check_source

#: ``make()`` returns a function made at run time: pickled by value, with the
#: closures of the class it defines
MODULE = textwrap.dedent('''
    import math

    def make():
        class Vector:
            def __init__(self, x, y):
                self.x, self.y = x, y

            def __add__(self, other):
                return Vector(self.x + other.x, self.y + other.y)

            def __eq__(self, other):
                return (self.x, self.y) == (other.x, other.y)

            def __getitem__(self, index):
                return (self.x, self.y)[index]

            def __repr__(self):
                return f"Vector({self.x!r}, {self.y!r})"

            def __enter__(self):
                return self

            def __exit__(self, *exc):
                return False

        class Base:
            tag = "base"

        def work(pairs):
            class Derived(Base):
                names = sorted(locals())

                def describe(self):
                    return super().tag + "!"

            out = []
            total = Vector(0, 0)
            for a, b in pairs:
                total += Vector(a, b)
            out.append(total)
            out.append(total == Vector(4, 6))
            out.append(total[1] * 2.5)
            with total as held:
                out.append(held.x - 1)
            match total:
                case Vector(x=4, y=y):
                    out.append(("matched", y))
            try:
                {}["missing"]
            except KeyError as error:
                out.append(repr(error))
            out.append([n * n for n in range(5) if n % 2])
            out.append(math.floor(7 / 2))
            out.append((Derived().describe(), Derived.names))
            out.append("".join(letter for letter in "abc"))

            async def inner():
                return 5

            async def outer():
                return await inner() + 1

            try:
                outer().send(None)
            except StopIteration as stop:
                out.append(stop.value)
            return out

        return work
''')

#: imports ``mod`` from the directory argv[1], runs ``make()``'s function once
#: (its plans and caches filled), and pickles it to argv[2] with argv[3]
DUMP = """
import sys, importlib
sys.path.insert(0, sys.argv[1])
import mod
pickler = importlib.import_module(sys.argv[3])
work = mod.make()
print(work([(1, 2), (3, 4)]))
with open(sys.argv[2], "wb") as file:
    pickler.dump(work, file)
"""

#: loads the function in a fresh process, runs it twice, and pickles it again
#: to the same file (the next process loads what this one made): ``mod``
#: cannot be imported for cloudpickle, which pickles the module's globals too;
#: dill imports it (it pickles the module's namespace by reference)
LOAD = """
import sys, importlib
if sys.argv[3] == "dill":
    sys.path.insert(0, sys.argv[2])
pickler = importlib.import_module(sys.argv[3])
with open(sys.argv[1], "rb") as file:
    work = pickler.load(file)
print(work([(1, 2), (3, 4)]))
print(work([(0, 0), (4, 6)]))
with open(sys.argv[1], "wb") as file:
    pickler.dump(work, file)
"""


def _dumped_and_loaded(source: str, tmp_path, name: str, pickler: str) -> str:
    directory = tmp_path / name
    directory.mkdir()
    (directory / "mod.py").write_text(source, encoding="utf-8")
    pickled = tmp_path / f"{name}.pickle"
    dumped = subprocess.run([sys.executable, "-c", DUMP, str(directory), str(pickled), pickler],
                            capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert dumped.returncode == 0, dumped.stderr
    output = dumped.stdout
    for _ in range(2):  # loaded, pickled again, loaded in a third process
        loaded = subprocess.run([sys.executable, "-c", LOAD, str(pickled), str(directory), pickler],
                                capture_output=True, text=True, cwd=tmp_path, timeout=120)
        assert loaded.returncode == 0, loaded.stderr
        output += loaded.stdout
    return output


@pytest.mark.parametrize("pickler", ["cloudpickle", "dill"])
@pytest.mark.parametrize("semantics", ["python", "native"])
def test_a_function_made_at_run_time_works_in_another_process(
    tmp_path, semantics: str, pickler: str,
) -> None:
    pytest.importorskip(pickler)
    output = desugar(MODULE, semantics=semantics)
    check_source(output)
    expected = _dumped_and_loaded(MODULE, tmp_path, "original", pickler)
    assert "'__module__', '__qualname__'" in expected and "('matched', 6)" in expected
    assert _dumped_and_loaded(output, tmp_path, "desugared", pickler) == expected


def test_every_runtime_value_pickled_by_value_comes_back() -> None:
    """Each top-level value of the runtime, pickled with its module by value,
    comes back as a value of the same type; a table as it is made in this
    process (a cache, empty). A dict keyed by ids is a table, and the id of
    another of the runtime's values is a ``kept_id``."""
    from unsugar import linked_runtime

    cloudpickle = pytest.importorskip("cloudpickle")
    values = {name: value for name, value in vars(linked_runtime).items()
              if not name.startswith("__")}
    ids = {id(value) for value in values.values()}
    cloudpickle.register_pickle_by_value(linked_runtime)
    try:
        for name, value in values.items():
            if type(value) is dict:
                assert not any(type(key) is int for key in value), name
            if type(value) is int:
                assert value not in ids, name
            loaded = cloudpickle.loads(cloudpickle.dumps(value))
            assert type(loaded).__name__ == type(value).__name__, name
            if isinstance(value, linked_runtime.operator_table_type):
                made = map(linked_runtime.operator_table_item, value.entries)
                assert loaded == dict(made) and loaded.entries == value.entries, name
            if isinstance(value, linked_runtime.operator_getter_type):
                assert loaded.__func__ == value.__func__, name
    finally:
        cloudpickle.unregister_pickle_by_value(linked_runtime)
