"""Comparisons: rich comparison dispatch, chains, identity and membership."""

import textwrap

import pytest
from difftest import assert_same, desugared

LOG = """
log = []
def v(x, name):
    log.append(name)
    return x
class Cmp:
    def __init__(self, name):
        self.name = name
    def __lt__(self, o):
        log.append((self.name, "lt"))
        return NotImplemented
    def __gt__(self, o):
        log.append((self.name, "gt"))
        return "gt-result"
class SubCmp(Cmp):
    def __gt__(self, o):
        log.append((self.name, "sub-gt"))
        return "sub"
"""

CASES = {
    "all_comparisons": """
        r = (1 < 2, 2 <= 2, 3 > 4, 4 >= 5, 1 == 1.0, 1 != 2, "a" < "b", [1] < [1, 0])
    """,
    "chain_evaluates_middle_once": """
        r = v(1, "a") < v(2, "b") < v(3, "c")
    """,
    "chain_short_circuits": """
        r = v(3, "a") < v(2, "b") < v(1, "c")
    """,
    "long_chain": """
        r = v(1, "a") <= v(1, "b") == v(1, "c") != v(2, "d") > v(0, "e")
    """,
    "reflected_on_not_implemented": """
        r = Cmp("x") < Cmp("y")
    """,
    "subclass_reflected_first": """
        r = Cmp("x") < SubCmp("y")
    """,
    "eq_identity_fallback": """
        o = object()
        r = (o == o, o != o, o == object(), o != object())
    """,
    "ne_inverts_eq": """
        class E:
            def __eq__(self, o):
                log.append("eq")
                return True
        r = E() != 1
    """,
    "method_whose_binding_fails_is_not_implemented": """
        def booh(self):
            log.append("booh")
            raise AttributeError("booh")
        class E:
            __eq__ = property(booh)
            __lt__ = property(booh)
        r = E() == E(), E() != E()
        E() < E()
    """,
    "unorderable_message": """
        1 < "a"
    """,
    "unorderable_user_message": """
        object() >= None
    """,
    "is_and_is_not": """
        a = []
        r = (a is a, a is [], a is not a, None is None, v(1, "x") is not v(2, "y"))
    """,
    "in_uses_contains": """
        class C:
            def __contains__(self, x):
                log.append(("contains", x))
                return 1
        r = (3 in C(), 3 not in C(), 2 in [1, 2], "b" in "abc", 5 in {5: 0})
    """,
    "in_falls_back_to_iteration": """
        class I:
            def __iter__(self):
                log.append("iter")
                return iter([1, 2, 3])
        r = (2 in I(), 7 in I())
    """,
    "in_old_getitem_protocol": """
        class G:
            def __getitem__(self, i):
                log.append(i)
                if i > 3:
                    raise IndexError
                return i * 2
        r = (4 in G(), 5 in G())
    """,
    "in_not_iterable_message": """
        1 in 5
    """,
    "bool_of_comparison_result_in_chain": """
        class B:
            def __bool__(self):
                log.append("bool")
                return True
        class L:
            def __lt__(self, o):
                return B()
        r = L() < 1 < 2
    """,
    "chain_value_is_the_false_link": """
        class F:
            def __lt__(self, o):
                return ""
        r = (F() < 1 < 2, 1 < 2 < F(), 1 < 2 > 3 < v(4, "never"))
    """,
    "chain_middle_operand_read_once_despite_rebinding": """
        x = 1
        def bump():
            global x
            x = 10
            return 5
        r = x < bump() < x
    """,
    "chain_operand_raises": """
        def boom():
            raise KeyError("k")
        v(1, "a") < v(2, "b") < boom()
    """,
    "chain_inside_expression_keeps_order": """
        r = [v(0, "first"), v(1, "a") < v(2, "b") < v(3, "c"), v(4, "last")]
    """,
    "eq_subclass_reflected_first_without_override": """
        class Base:
            def __eq__(self, o):
                log.append(("eq", type(self).__name__))
                return NotImplemented
        class Derived(Base):
            pass
        r = (Base() == Derived(), Derived() == Base(), Base() != Base())
    """,
    "eq_non_bool_results_pass_through": """
        class Q:
            def __eq__(self, o):
                return [1]
        r = (Q() == 1, 1 == Q(), Q() != 1)
    """,
    "unorderable_long_name_is_cut": """
        Long = type("L" * 150, (), {})
        Long() < Long()
    """,
    "in_contains_set_to_none": """
        class C:
            __contains__ = None
            def __iter__(self):
                return iter([1])
        1 in C()
    """,
    "in_iter_type_error_is_replaced": """
        class I:
            def __iter__(self):
                raise TypeError("from __iter__")
        1 in I()
    """,
    "in_iter_other_errors_propagate": """
        class I:
            def __iter__(self):
                raise ValueError("from __iter__")
        1 in I()
    """,
    "in_identity_before_equality": """
        nan = float("nan")
        class Never:
            def __eq__(self, o):
                log.append("eq")
                return False
        n = Never()
        r = (nan in [nan], nan in iter([nan]), n in [n], n in iter([1, n]))
    """,
    "in_result_is_bool_of_contains": """
        class C:
            def __contains__(self, x):
                return [x]
        r = (0 in C(), 0 not in C(), type(0 in C()))
    """,
    "in_evaluates_item_first": """
        r = v(1, "item") in v([1], "container")
    """,
    "chains_of_constants_in_a_function": """
        def f(cutoff):  # (the constants are the module's: a chain releases only its own temporaries)
            if not 0.0 <= cutoff <= 1.0:
                return "out"
            return 0.5 < cutoff < 2.0, "a" < "b" < "c", (1, 2) < (1, 3) < (2,)
        class K:
            lim = 1.5
            ok = 0.0 <= lim <= 2.0 < 2.5
        r = (f(0.7), f(3), K.ok)
    """,
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_comparisons(name: str) -> None:
    assert_same(LOG + textwrap.dedent(CASES[name]))


def test_comparisons_of_int_constants_are_known() -> None:
    """``1 < 2`` is ``True`` when desugared: two int constants compare the same every time."""
    source = "r = [1 < 2, 3 == 4, 5 >= 5, 2 != 2, 7 > 1, 0 <= 0, True < 2, 1 in (1,)]\n"
    assert_same(source)
    out = desugared(source)
    assert "_us_list_of(_us_true, _us_false, _us_true, _us_false, _us_true, _us_true," in out
    assert "_us_compare_lt(_us_true, 2)" in out and "_us_compare_in(1," in out  # a bool, in: called


def test_a_bool_test_read_twice_needs_no_bool() -> None:
    """A flag read more than once holds ``bool(test)``, unless the test gives a bool."""
    source = textwrap.dedent("""
        def f(x, xs):
            if x in xs:
                print("in")
                for y in xs:
                    print(y)
            else:
                print("out")
        f(1, [1, 2])
        f(3, [1, 2])
    """)
    assert_same(source)
    assert "_us_bool(_us_compare_in(" not in desugared(source)


def test_identity_with_none_reads_its_id_once_for_all() -> None:
    """``x is None`` compares ``id(x)`` with ``id(None)`` computed at the top: None
    lives as long as the process, so its id never changes."""
    source = textwrap.dedent("""
        def f(x):
            return x is None, None is not x, None is None, x is not None
        r = [f(None), f(0), f(False), f(""), f(f)]
        print(r)
    """)
    assert_same(source)
    out = desugared(source, semantics="python")
    assert "_us_int_eq_1(_us_id(x), _us_none_id)" in out
    assert "_us_int_ne_1(_us_none_id, _us_id(x))" in out
    assert out.count("_us_none_id = _us_kept_id(_us_none)") == 1  # where it is made
