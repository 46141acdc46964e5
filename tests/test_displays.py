"""Displays: tuple, list, set, dict, with * and ** unpacking."""

import textwrap

import pytest
from difftest import assert_same

# A logging identity function, values whose hashing and comparisons are
# printed, and a generator that prints as it is iterated; a snippet gets the
# ones it uses.
HELPERS = {
    "v(": """
def v(x):
    print("eval", x)
    return x
""",
    "H(": """
class H:
    def __init__(self, n):
        self.n = n
    def __hash__(self):
        print("hash", self.n)
        return 7
    def __eq__(self, other):
        print("eq", self.n, other.n)
        return self.n.__eq__(other.n)
    def __repr__(self):
        return "H" + str(self.n)
""",
    "gen(": """
def gen(*items):
    print("start")
    for item in items:
        print("yield", item)
        yield item
    print("end")
""",
}


def source(snippet: str) -> str:
    """``snippet`` after the helpers it uses."""
    snippet = textwrap.dedent(snippet)
    return "".join(code for use, code in HELPERS.items() if use in snippet) + snippet


def many(template: str, count: int) -> str:
    """``template`` (with ``{i}``) ``count`` times, comma-separated."""
    return ", ".join(template.format(i=i) for i in range(count))


TUPLE = {
    "empty_single_several": """
        r = (), (1,), (1, "a", None), ((1, 2), (3,))
    """,
    "evaluation_order": """
        r = (v(1), v(2), v(3))
    """,
    "starred_iterated_when_reached": """
        r = (v(0), *gen(1, 2), v(3), *v([4]), *gen())
    """,
    "starred_kinds": """
        r = (*"ab", *{"k": 1}, *b"xy", *range(3), *(1, 2))
    """,
    "starred_copies": """
        t = (1, 2)
        u = (*t,)
        r = len({id(t), id(u)}), u
    """,
    "not_iterable_int": """
        r = (*1,)
    """,
    "not_iterable_none_after_items": """
        r = (v(1), *None, v(2))
    """,
    "not_iterable_builtin_function": """
        r = (*len,)
    """,
    "not_iterable_dotted_static_type": """
        m = __import__("re").compile("a").match("a")
        r = (*m,)
    """,
    "not_iterable_user_class": """
        class C:
            pass
        r = (*C(),)
    """,
    "iter_set_to_none_keeps_message": """
        class C:
            __iter__ = None
        r = (*C(),)
    """,
    "iter_raising_typeerror_keeps_message": """
        class C:
            def __iter__(self):
                raise TypeError("mine")
        r = (*C(),)
    """,
    "iter_returning_non_iterator": """
        class C:
            def __iter__(self):
                return 5
        r = (*C(),)
    """,
    "old_sequence_protocol": """
        class C:
            def __getitem__(self, i):
                print("getitem", i)
                if i.__eq__(3):
                    raise IndexError
                return i
        r = (*C(), v(9))
    """,
    "error_while_handling_has_context": """
        try:
            raise KeyError(1)
        except KeyError:
            r = (*5,)
    """,
    "length_hint_after_iter": """
        class C:
            def __iter__(self):
                print("iter")
                return iter([1, 2])
            def __len__(self):
                print("len")
                return 2
        class D:
            def __iter__(self):
                print("iter")
                return self
            def __next__(self):
                raise StopIteration
            def __len__(self):
                print("len")
                return 2
        r = (*C(),), (0, *C()), (*D(),), (0, *D(), *D())
    """,
    "bad_len_fails_the_display": """
        class C:
            def __iter__(self):
                return iter([1])
            def __len__(self):
                return -1
        r = (0, *C())
    """,
}

LIST = {
    "empty_and_items": """
        r = [], [1], [v(1), "two", [3]]
    """,
    "new_list_each_time": """
        def f():
            return []
        a = f()
        b = f()
        a.append(1)
        r = a, b
    """,
    "starred_iterated_when_reached": """
        r = [v(0), *gen(1, 2), v(3), *v((4, 5))]
    """,
    "not_iterable": """
        r = [v(1), *v(2), v(3)]
    """,
    "not_iterable_float": """
        r = [*1.5]
    """,
    "length_hint_of_iterator_itself": """
        class D:
            def __iter__(self):
                print("iter")
                return self
            def __next__(self):
                raise StopIteration
            def __length_hint__(self):
                print("hint")
                return 0
        r = [*D()], [0, *D(), 1]
    """,
    "generator_error_propagates": """
        def bad():
            yield 1
            raise ValueError("inside")
        r = [*bad()]
    """,
    "spills_earlier_arguments": """
        print(v(1), [*v([2])], {*v([3])}, v(4))
    """,
}

SET = {
    "small_hashes_after_all_evaluated": """
        r = {v(H(1)), v(H(2)), v(H(1))}
    """,
    "first_equal_item_kept": """
        s = {1, 1.0, True}
        r = s, type(next(iter(s))).__name__
    """,
    "starred_adds_as_it_goes": """
        r = {v(H(1)), *v([H(2), H(3)]), v(H(4)), *gen(H(5))}
    """,
    "starred_first": """
        r = {*v([H(1)]), v(H(2))}
    """,
    "unhashable_after_all_evaluated": """
        r = {[], v(1)}
    """,
    "unhashable_after_star_before_next": """
        r = {*v([1]), [], v(2)}
    """,
    "not_iterable": """
        r = {v(1), *v(2)}
    """,
    "constants": """
        r = sorted({"b", "a", 1.5, 2, None.__class__.__name__})
    """,
    "big_adds_as_it_goes": f"""
        r = {{{many("v(H({i}))", 33)}}}
    """,
    "big_unhashable_before_next": f"""
        r = {{[], {many("v({i})", 31)}}}
    """,
    "big_constants": f"""
        r = sorted({{{many("'s{i}'", 40)}}})
    """,
}

DICT = {
    "empty_and_items": """
        r = {}, {1: "a", "b": 2.5, None: [1]}
    """,
    "key_value_order": """
        r = {v("k1"): v(1), v("k2"): v(2)}
    """,
    "later_keys_win_first_key_kept": """
        d = {1: "a", 1.0: "b", True: "c"}
        r = d, type(next(iter(d))).__name__
    """,
    "hashes_after_all_evaluated": """
        r = {v(H(1)): v(1), v(H(2)): v(2), v(H(1)): v(3)}
    """,
    "unhashable_key_after_all_evaluated": """
        r = {[]: v(1), v(2): v(3)}
    """,
    "unpack_dicts_in_order": """
        a = {"x": 1, "y": 2}
        r = {"x": 0, **v(a), "y": 9, **v({"z": 3}), "x": 5}
    """,
    "unpack_first_and_only": """
        a = {"x": 1}
        b = {**a}
        r = b, len({id(a), id(b)}), {**{}}
    """,
    "unpack_merges_as_it_goes": """
        r = {v(H(1)): 1, **v({H(2): 2}), v(H(3)): 3}
    """,
    "unpack_before_unhashable_run": """
        r = {[]: 1, **v({})}
    """,
    "unpack_mapping_protocol": """
        class M:
            def keys(self):
                print("keys")
                return ["a", "b"]
            def __getitem__(self, key):
                print("getitem", key)
                return key.upper()
        r = {"a": 0, **M(), "c": 1}
    """,
    "unpack_dict_subclass_fast_path": """
        class D(dict):
            def keys(self):
                print("keys")
                return ["z"]
            def __getitem__(self, key):
                print("getitem", key)
                return 0
        r = {**D(a=1)}
    """,
    "unpack_dict_subclass_with_iter": """
        class D(dict):
            def __iter__(self):
                print("iter")
                return iter(["z"])
            def keys(self):
                print("keys")
                return ["z"]
            def __getitem__(self, key):
                print("getitem", key)
                return 0
        r = {**D(a=1)}
    """,
    "not_a_mapping_int": """
        r = {**1}
    """,
    "not_a_mapping_list": """
        r = {v("a"): 1, **v([("b", 2)])}
    """,
    "not_a_mapping_none_in_handler": """
        try:
            raise KeyError(1)
        except KeyError:
            r = {**None}
    """,
    "not_a_mapping_dotted_type": """
        r = {**__import__("array").array("i")}
    """,
    "attribute_error_in_keys_is_not_a_mapping": """
        class M:
            def keys(self):
                raise AttributeError("inner")
        r = {**M()}
    """,
    "attribute_error_in_getitem_is_not_a_mapping": """
        class M:
            def keys(self):
                return ["k"]
            def __getitem__(self, key):
                raise AttributeError("inner")
        r = {**M()}
    """,
    "key_error_in_getitem_propagates": """
        class M:
            def keys(self):
                return ["k"]
            def __getitem__(self, key):
                raise KeyError(key)
        r = {**M()}
    """,
    "keys_returns_non_iterable": """
        class M:
            def keys(self):
                return 5
        r = {**M()}
    """,
    "keys_iterator_typeerror_propagates": """
        def bad():
            yield "a"
            raise TypeError("late")
        class M:
            def keys(self):
                return bad()
            def __getitem__(self, key):
                return 1
        r = {**M()}
    """,
    "big_runs_of_seventeen": f"""
        r = {{{many("v(H({i})): {i}", 36)}}}
    """,
    "big_constant_keys": f"""
        r = {{{many("'k{i}': v({i})", 40)}}}
    """,
}

FAMILIES = {"tuple": TUPLE, "list": LIST, "set": SET, "dict": DICT}


@pytest.mark.parametrize(
    ("rule", "name"), [(rule, name) for rule, cases in FAMILIES.items() for name in sorted(cases)]
)
def test_displays(rule, name):
    assert_same(source(FAMILIES[rule][name]))
