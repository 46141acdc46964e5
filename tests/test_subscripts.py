"""Subscription and slicing: get, evaluation order, class_getitem, messages."""

import textwrap

import pytest
from difftest import assert_same

LOG = """
log = []
def v(x, name):
    log.append(name)
    return x
class Rec:
    def __getitem__(self, k):
        log.append(("get", k))
        return k
"""

CASES = {
    "index_list_dict_str": """
        r = ([1, 2, 3][1], {"a": 1}["a"], "xyz"[-1], (1, 2)[0])
    """,
    "evaluation_order": """
        r = v([10, 20], "container")[v(1, "index")]
    """,
    "slices": """
        s = [0, 1, 2, 3, 4, 5]
        r = (s[1:3], s[::2], s[:-1], s[::-1], s[v(1, "a"):v(4, "b"):v(2, "c")], "abc"[1:])
    """,
    "tuple_index_and_slice_objects": """
        r = (Rec()[1, 2], Rec()[1:2], Rec()[1:2, ::3], Rec()[...])
    """,
    "class_getitem": """
        r = (list[int], dict[str, int])
        class K:
            def __class_getitem__(cls, item):
                return ("K", item)
        r2 = K[5]
    """,
    "not_subscriptable": """
        5[0]
    """,
    "type_not_subscriptable": """
        class N:
            pass
        N[0]
    """,
    "index_error": """
        [][0]
    """,
    "key_error": """
        {}["missing"]
    """,
    "bad_index_type": """
        [1]["a"]
    """,
    "type_itself_is_generic": """
        r = (type[int], type(type[int]).__name__)
    """,
    "metaclass_getitem_wins_over_class_getitem": """
        class Meta(type):
            def __getitem__(cls, k):
                return ("meta", k)
        class C(metaclass=Meta):
            def __class_getitem__(cls, k):
                return ("class", k)
        r = C[1]
    """,
    "class_getitem_set_to_none": """
        class N:
            __class_getitem__ = None
        N[0]
    """,
    "getitem_comes_from_the_type": """
        class A:
            pass
        a = A()
        a.__getitem__ = lambda k: k
        a[0]
    """,
    "deque_index_message": """
        from collections import deque
        d = deque([1, 2])
        r = (d[0], d[-1])
        d["a"]
    """,
    "deque_index_too_large": """
        from collections import deque
        deque([1])[2 ** 100]
    """,
    "missing_calls_dict_subclass_hook": """
        class D(dict):
            def __missing__(self, k):
                log.append(("missing", k))
                return 0
        r = D()["x"]
    """,
    "slice_parts_evaluated_in_order_once": """
        r = Rec()[v(1, "lower"):v(2, "upper"):v(3, "step")]
        r2 = Rec()[v(1, "lower"):]
    """,
    "store_and_delete_messages": """
        t = (1, 2)
        try:
            t[0] = 5
        except TypeError as e:
            log.append(str(e))
        try:
            del t[0]
        except TypeError as e:
            log.append(str(e))
        try:
            del t["a"]
        except TypeError as e:
            log.append(str(e))
        del "abc"[0]
    """,
    "store_with_only_delitem": """
        class D:
            def __delitem__(self, k):
                pass
        D()[0] = 1
    """,
    "store_evaluation_order": """
        v([0], "container")[v(0, "index")] = v(1, "value")
        d = {}
        d[v("k", "key")] = v(2, "value")
        del d[v("k", "key")]
    """,
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_subscripts(name: str) -> None:
    assert_same(LOG + textwrap.dedent(CASES[name]))
