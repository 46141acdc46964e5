"""Comprehensions and generator expressions: a def made where they are."""

from __future__ import annotations

import sys
import textwrap

import pytest
from difftest import assert_same, desugared

from unsugar import desugar
from unsugar.checker import check_source

LOG = """
log = []
def note(tag, value):
    log.append(tag)
    return value
"""

LISTCOMP = {
    "simple": "r = [x * 2 for x in range(5)]",
    "condition": "r = [x for x in range(10) if x % 2 if x > 3]",
    "several_fors": "r = [(x, y) for x in range(3) if x for y in range(x) if y != 1]",
    "inner_iterable_sees_outer_variable": "r = [y for x in ['ab', 'cd'] for y in x]",
    "unpacking_target": "r = [a + b for a, b in [(1, 2), (3, 4)]]",
    "starred_target": "r = [(h, t) for h, *t in ['abc', 'de']]",
    "nested_target": "r = [a + b + c for (a, (b, c)) in [(1, (2, 3))]]",
    "attribute_target": """
        class O: pass
        o = O()
        r = [o.v for o.v in range(3)], o.v
    """,
    "subscript_target": """
        d = {}
        r = [d['k'] for d['k'] in 'xyz'], d
    """,
    "empty": "r = [x for x in ()]",
    "nested_comprehension": "r = [[i * j for j in range(i)] for i in range(4)]",
    "comprehension_in_iterable": "r = [x for x in [y * 2 for y in range(3)]]",
    "evaluation_order": LOG + """
        r = [note(('elt', x, y), x + y)
             for x in note('first', [1, 2]) if note(('if1', x), True)
             for y in note(('second', x), [10, 20]) if note(('if2', x, y), y > 10)]
        print(log)
    """,
    "first_iterable_evaluated_before_call_args": LOG + """
        def f(*a): return a
        r = f(note('a', 1), [x for x in note('it', [1])], note('c', 3))
        print(log)
    """,
    "iteration_variable_does_not_leak": """
        x = 'outer'
        r = [x for x in range(3)]
        print(x)
    """,
    "iteration_variable_does_not_leak_in_function": """
        def f():
            x = 'outer'
            r = [x for x in range(3)]
            return x, r, sorted(k for k in locals() if not k.startswith('_'))
        print(f())
    """,
    "closure_late_binding": "r = [f() for f in [lambda: i for i in range(3)]]",
    "closure_bound_by_default": "r = [f() for f in [lambda i=i: i for i in range(3)]]",
    "reads_enclosing_function_variable": """
        def f(n):
            k = 10
            return [k * i for i in range(n)]
        print(f(3))
    """,
    "reads_variable_bound_later": """
        def f():
            g = lambda: [k for _ in range(2)]
            k = 'late'
            return g()
        print(f())
    """,
    "reads_global": """
        scale = 3
        def f(): return [scale * i for i in range(3)]
        print(f())
    """,
    "in_lambda": "r = (lambda n: [i * n for i in range(3)])(5)",
    "in_default": """
        def f(a=[i for i in range(3)]): return a
        print(f())
    """,
    "error_inside": "r = [1 // x for x in [1, 0]]",
    "error_chained_to_handled_exception": """
        try:
            raise KeyError('handled')
        except KeyError:
            r = [1 // x for x in [0]]
    """,
    "error_in_condition": "r = [x for x in [1, 2] if x + 'a']",
    "name_error_inside": "r = [undefined for x in [1]]",
    "first_iterable_not_iterable": "r = [x for x in 5]",
    "second_iterable_not_iterable": "r = [y for x in [1] for y in x]",
    "first_iterable_error_before_anything": LOG + """
        try:
            r = [note('elt', x) for x in note('it', None)]
        except TypeError as e:
            print(e, log)
    """,
    "iterator_without_iter_method": """
        class It:
            def __init__(self): self.n = 0
            def __next__(self):
                self.n += 1
                if self.n > 3: raise StopIteration
                return self.n
        class Box:
            def __iter__(self): return It()
        r = [x for x in Box()]
    """,
    "stop_iteration_inside_propagates": """
        def boom(x):
            raise StopIteration('inside')
        r = [boom(x) for x in [1]]
    """,
    "iterator_raising": """
        def gen():
            yield 1
            raise ValueError('from iterator')
        r = [x for x in gen()]
    """,
    "walrus_binds_in_module": "r = [(last := x) for x in range(4)]\nprint(last)",
    "walrus_binds_in_function": """
        def f():
            r = [(y := x * 2) for x in range(3) if (z := x) >= 0]
            return r, y, z
        print(f())
    """,
    "walrus_unbound_before": """
        def f():
            try:
                print(y)
            except UnboundLocalError as e:
                print(e)
            [(y := 1) for _ in 'a']
            return y
        print(f())
    """,
    "walrus_in_nested_comprehension": """
        def f():
            r = [[(y := a * b) for b in range(2)] for a in range(3)]
            return r, y
        print(f())
    """,
    "walrus_global_in_function": """
        def f():
            global g
            return [(g := x) for x in 'ab']
        print(f(), g)
    """,
    "walrus_nonlocal": """
        def outer():
            v = 0
            def inner():
                nonlocal v
                return [(v := x) for x in range(3)]
            return inner(), v
        print(outer())
    """,
    "walrus_in_lambda_stays_there": """
        def f():
            fs = [lambda: (w := 5) for _ in 'a']
            return [g() for g in fs], 'w' in locals()
        print(f())
    """,
    "del_read_inside": """
        def f():
            x = 1
            del x
            return [x for _ in 'a']
        f()
    """,
}

SETCOMP = {
    "simple": "r = sorted({x % 3 for x in range(10)})",
    "unhashable": "r = {[x] for x in range(2)}",
    "order_of_adds": LOG + """
        class H:
            def __init__(self, v): self.v = v
            def __hash__(self):
                log.append(('hash', self.v))
                return hash(self.v)
        r = len({H(note(('elt', x), x)) for x in range(3)})
        print(log)
    """,
}

DICTCOMP = {
    "simple": "r = {x: x * x for x in range(4)}",
    "key_before_value": LOG + """
        r = {note(('k', x), x): note(('v', x), -x) for x in range(3)}
        print(log)
    """,
    "later_keys_win": "r = {x % 2: x for x in range(5)}",
    "unhashable_key": "r = {[x]: x for x in range(2)}",
    "items_unpacking": "r = {v: k for k, v in {'a': 1, 'b': 2}.items()}",
    "error_in_value": "r = {x: 1 // x for x in [1, 0]}",
}

GENEXP = {
    "simple": "r = list(x * 2 for x in range(4))",
    "sum_call": "r = sum(x for x in range(10) if x % 3)",
    "lazy": LOG + """
        g = (note(('elt', x), x) for x in note('it', [1, 2]))
        print(log)
        print(next(g), log)
        print(list(g), log)
    """,
    "first_iterable_error_at_creation": """
        try:
            g = (x for x in 5)
        except TypeError as e:
            print('at creation', e)
    """,
    "second_iterable_error_at_first_next": """
        g = (y for x in [1] for y in x)
        print('made')
        next(g)
    """,
    "names": """
        g = (x for x in [])
        print(g.__name__, g.__qualname__, g.gi_code.co_name)
        def f():
            return (x for x in [])
        h = f()
        print(h.__name__, h.__qualname__, h.gi_code.co_name, h.gi_code.co_qualname)
        class C:
            g = (x for x in [])
        print(C.g.__qualname__)
        def k():
            return [(y for y in 'a') for _ in 'a'][0], (z for z in [(y for y in 'a')])
        inner, outer = k()
        print(inner.__qualname__, next(outer).__qualname__)
    """,
    "protocol_send": """
        g = (x for x in range(3))
        print(g.send(None), g.send('ignored'), next(g))
        try:
            next(g)
        except StopIteration as e:
            print('done', e.value)
        print(list(g))
    """,
    "send_non_none_first": """
        g = (x for x in range(3))
        g.send(1)
    """,
    "protocol_throw": """
        g = (x for x in range(3))
        next(g)
        try:
            g.throw(ValueError('thrown'))
        except ValueError as e:
            print('came out', e)
        print(list(g))
    """,
    "protocol_close": """
        def source():
            try:
                yield 1
                yield 2
            finally:
                print('source closed')
        g = (x for x in source())
        print(next(g))
        g.close()
        print(list(g), g.gi_frame)
    """,
    "gi_frame": """
        g = (x for x in range(3))
        print(g.gi_frame is not None, g.gi_running)
        list(g)
        print(g.gi_frame)
    """,
    "iterator_shared": """
        it = iter(range(6))
        g = (x for x in it)
        print(next(g), next(it), next(g))
    """,
    "throw_before_start": """
        g = (x for x in range(3))
        try:
            g.throw(KeyError('early'))
        except KeyError as e:
            print('raised', e)
        print(list(g))
    """,
    "already_executing": """
        g = (next(g) for _ in 'a')
        next(g)
    """,
    "stop_iteration_inside_becomes_runtime_error": """
        def boom(x):
            raise StopIteration('inside')
        r = list(boom(x) for x in [1])
    """,
    "closure_in_genexp": "r = [f() for f in list(lambda: i for i in range(3))]",
    "nested_genexp": "r = [list(g) for g in ((x * y for y in range(3)) for x in range(3))]",
    "error_inside": "r = list(1 // x for x in [1, 0])",
    "lambda_qualname_inside": """
        def f():
            return list((lambda: 0) for _ in 'a')[0]
        print(f().__qualname__)
    """,
}

CLASS = {
    "first_iterable_in_class_scope": """
        x = 'global'
        class C:
            items = [1, 2, 3]
            x = 'class'
            doubled = [i * 2 for i in items]
            seen = [x for i in items]
            gen = list(x for i in items)
        print(C.doubled, C.seen, C.gen)
    """,
    "class_name_not_visible_inside": """
        class C:
            k = 3
            r = [k for _ in range(2)]
    """,
    "class_in_function_sees_function_variables": """
        def f():
            k = 'function'
            class C:
                k = 'class'
                r = [k for _ in 'ab']
            return C.r, C.k
        print(f())
    """,
    "class_binds_the_function_name_too": """
        def f():
            x = 'function'
            class C:
                first = [x for _ in 'a']
                x = 'class'
                later = [x for _ in 'a'], list(x for _ in 'a')
                from_class = [i for i in x]
            return C.first, C.later, C.from_class
        print(f())
    """,
    "nonlocal_in_class_body": """
        def f():
            x = 1
            class C:
                nonlocal x
                x = 2
                r = [x for _ in 'a']
            return C.r, x
        print(f())
    """,
    "method_uses_super": """
        class A:
            def m(self): return 'A'
        class B(A):
            def m(self):
                try:
                    r = [super().m() for _ in 'a']
                except TypeError as e:
                    r = str(e)
                return r, [super(B, self).m() for _ in 'a'], [__class__.__name__ for _ in 'a']
        print(B().m())
    """,
    "method_uses_super_in_genexp": """
        class A:
            def m(self): return 'A'
        class B(A):
            def m(self):
                return list(super(B, self).m() + x for x in 'bc')
        print(B().m())
    """,
    "mangled_names": """
        class C:
            __secret = 7
            def m(self):
                __local = 2
                return [self.__secret * __local * __i for __i in range(3)]
        print(C().m())
    """,
    "mangled_walrus": """
        class C:
            def m(self):
                r = [(__w := i) for i in range(3)]
                return r, __w
        print(C().m())
    """,
    "qualnames_in_class": """
        class C:
            f = [lambda: 0 for _ in 'a'][0]
            def m(self):
                return [lambda: 0 for _ in 'a'][0]
        print(C.f.__qualname__, C().m().__qualname__)
    """,
    # up to 3.11 and in a generator expression: the def's own frame with ``.0``; a
    # comprehension inlined from 3.12 shows the frame around too (a module or
    # class body's namespace only on 3.12)
    "locals_vars_and_dir_inside": """
        def names(found):
            return sorted(k for k in found if not k.startswith('__'))[:8]
        print("module", [names(locals()) for x in [1]], [[names(vars()) for y in [1]] for x in [1]])
        class C:
            z = 1
            print("class", [names(locals()) for x in [1]], list(names(locals()) for x in [1]))
        def f(a):
            b = 2
            def g():
                return a
            print([sorted(locals()) for x in [1]], {x: dir() for x in [1]}, [sorted(vars()) for x in [1]])
            print(list([sorted(locals()) for y in [1]] for x in [1]))
            print([list(sorted(locals()) for y in [1]) for x in [1]])
            print([(lambda q: sorted(locals()))(1) for x in [1]])
            del a
            print([sorted(locals()) for x in [1] if (w := x)], w)
            return [type(locals()[".0"]).__name__ for x in (1,)] if ".0" in [locals() for x in [1]][0] else "inlined"
        def h(a):  # (3.13.0 crashes when the variable shadowed is a cell)
            return [locals()["a"] for a in [9]], a, [locals() is locals() for x in [1]]
        print(f(0), h(0))
    """,
}

CASES = {
    **{f"listcomp/{k}": v for k, v in LISTCOMP.items()},
    **{f"setcomp/{k}": v for k, v in SETCOMP.items()},
    **{f"dictcomp/{k}": v for k, v in DICTCOMP.items()},
    **{f"genexpr/{k}": v for k, v in GENEXP.items()},
    **{f"class/{k}": v for k, v in CLASS.items()},
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_comprehension(name: str) -> None:
    source = CASES[name]
    if source.startswith(LOG):
        source = LOG + textwrap.dedent(source[len(LOG):])
    assert_same(source)


def test_targets_that_are_not_names_survive_an_error_leaving() -> None:
    """Only the names a comprehension binds are its variables: an error
    leaving one whose targets are an item and an attribute leaves the
    containers alone (from 3.12 the variables are dropped as it leaves)."""
    assert_same("""
        class Box:
            pass
        def f():
            box, slots = Box(), [0]
            def source():
                yield 1
                raise KeyError("done")
            try:
                return [(slots[0], box.value) for slots[0] in source() for box.value in (2, 3)]
            except KeyError:
                return slots, box.value
        print(f())
    """)


def test_shadowed_builtins() -> None:
    """The result is built with the builtins captured before user code runs."""
    assert_same("""
        list = set = dict = iter = next = None
        r = [x for x in (1, 2)], {x for x in (1,)}, {x: 0 for x in (1,)}, sum(x for x in (1, 2))
    """)


@pytest.mark.parametrize("display", ["[x for x in 'ab']", "{x for x in 'ab'}", "{x: 0 for x in 'ab'}"])
def test_frame_name(display: str) -> None:
    """Up to 3.11 the comprehension runs in a frame of its own; from 3.12 it
    is inlined: the def then shows the name of the code around it."""
    assert_same(f"""
        import sys
        def f():
            return [sys._getframe().f_code.co_name for x in 'a'], {display}
        print(f())
        print([sys._getframe().f_code.co_name for x in 'a'])
    """)


def test_async_comprehensions_and_async_generator_expressions_are_core() -> None:
    """Asynchronous list comprehensions in an ``async def`` are coroutine defs,
    an asynchronous generator expression (anywhere) an async generator
    (``tests/test_coroutines.py`` and ``tests/test_async_generators.py`` run them)."""
    rewritten = desugar(
        "async def f(xs):\n"
        "    a = [x async for x in xs]\n"
        "    b = [await x for x in xs]\n"
        "    c = [[y async for y in x] for x in xs]\n"
        "    d = [x for x in await xs]\n"
        "    e = (x async for x in xs)\n"
        "    return a, b, c, d, e\n"
        "def g(xs):\n"
        "    return (await x for x in xs)\n"
    )
    assert not check_source(rewritten)


@pytest.mark.parametrize("rule", ["listcomp", "setcomp", "dictcomp", "genexpr"])
def test_kept(rule: str) -> None:
    """With ``--keep`` the comprehension stays as it is."""
    source = {"listcomp": "[x for x in a]", "setcomp": "{x for x in a}",
              "dictcomp": "{x: 1 for x in a}", "genexpr": "(x for x in a)"}[rule]
    out = desugar(f"r = {source}\n", keep=(rule,))
    assert f"r = {source}" in out


def test_walrus_in_class_body_comprehension_is_a_syntax_error() -> None:
    with pytest.raises(SyntaxError):
        desugared("class C:\n    r = [(y := 1) for _ in 'a']\n")


@pytest.mark.skipif(sys.version_info < (3, 12), reason="inlined comprehensions (PEP 709)")
def test_super_in_inlined_comprehension() -> None:
    assert_same("""
        class A:
            def m(self): return 'A'
        class B(A):
            def m(self):
                return [super().m() + x for x in 'bc'], [[super().m() for _ in 'a'] for _ in 'b']
        print(B().m())
    """)
