"""Binary and unary operators: dispatch order, reflected methods, messages."""

import importlib.util
import subprocess
import sys
import textwrap

import pytest
from difftest import assert_same, desugared

LOG = """
log = []
class Num:
    def __init__(self, v, name):
        self.v = v
        self.name = name
    def __add__(self, other):
        log.append((self.name, "add"))
        return NotImplemented if other == "no" else self.v + getattr(other, "v", other)
    def __radd__(self, other):
        log.append((self.name, "radd"))
        return getattr(other, "v", other) + self.v
    def __neg__(self):
        log.append((self.name, "neg"))
        return -self.v
class Sub(Num):
    def __radd__(self, other):
        log.append((self.name, "sub-radd"))
        return 100
class Plain(Num):
    pass
def v(x, name):
    log.append(("eval", name))
    return x
"""

CASES = {
    "all_binary_on_ints": """
        a, b = 17, 5
        r = (a + b, a - b, a * b, a / b, a // b, a % b, a ** b, a << b, a >> b,
             a & b, a | b, a ^ b)
    """,
    "matmul_user_type": """
        class M:
            def __matmul__(self, o): return "mm"
            def __rmatmul__(self, o): return "rmm"
        r = (M() @ 1, 1 @ M())
    """,
    "operands_evaluated_left_to_right": """
        r = v(1, "a") + v(2, "b") * v(3, "c")
    """,
    "reflected_subclass_goes_first": """
        r = Num(1, "n") + Sub(2, "s")
    """,
    "subclass_without_override_goes_second": """
        r = Num(1, "n") + Plain(2, "p")
    """,
    "not_implemented_falls_back_to_reflected": """
        r = Num(1, "n") + Num(2, "m")
        r2 = 5 + Num(2, "m")
    """,
    "same_type_tries_only_op": """
        class A:
            def __add__(self, o): return NotImplemented
            def __radd__(self, o): return "radd"
        A() + A()
    """,
    "unsupported_message": """
        1 + "a"
    """,
    "concat_message_from_str": """
        "a" + 1
    """,
    "pow_message": """
        None ** 2
    """,
    "sequence_repeat": """
        r = ([1] * 3, 2 * "ab", (1,) * 0)
        "a" * "b"
    """,
    "division_by_zero": """
        1 / 0
    """,
    "unary_ops": """
        r = (-5, +5, ~5, -Num(3, "x"), -2.5, +True, -False)
        -"s"
    """,
    "float_and_complex_mix": """
        r = (1 + 2.5, 2.5 * 1j, 3 // 2.0, 7 % -3, -7 // 2, 2 ** -1, (-8) ** (1/3))
    """,
    "add_str_subclass_reflected_first": """
        class S(str):
            def __radd__(self, other):
                log.append("S.radd")
                return "reflected"
        r = ("a" + S("b"), S("b") + "a")
    """,
    "add_sequence_concat_comes_after_reflected": """
        r = ([1] + Num(2, "n"), (1,) + Sub(2, "s"))
    """,
    "add_redefined_add_hides_list_concat": """
        class L(list):
            def __add__(self, other):
                log.append("L.add")
                return NotImplemented
        L([1]) + [2]
    """,
    "left_operand_raises_before_right_is_evaluated": """
        def boom():
            raise ValueError("boom")
        v(1, "a") + boom() + v(2, "never")
    """,
    "special_methods_come_from_the_type": """
        n = Num(1, "n")
        n.__add__ = lambda other: "instance attribute"
        r = n + 1
        class Meta(type):
            def __add__(cls, other):
                return "metaclass method, for the class itself"
        class C(metaclass=Meta):
            def __add__(self, other):
                return "class method, for instances"
        r2 = (C + 1, C() + 1)
    """,
    "special_method_set_to_none": """
        class A:
            __add__ = None
        A() + 1
    """,
    "special_methods_that_are_not_functions": """
        class O:
            __add__ = repr
            __sub__ = staticmethod(lambda other: ("static", other))
            __mul__ = classmethod(lambda cls, other: (cls.__name__, other))
        r = (O() + 1, O() - 2, O() * 3)
    """,
    "mult_needs_an_index": """
        class Idx:
            def __index__(self):
                log.append("index")
                return 2
        r = ([1] * Idx(), Idx() * "ab")
        [1] * 2.5
    """,
    "mult_sequence_overflow": """
        "ab" * 2 ** 100
    """,
    "pow_message_names_pow": """
        "a" ** 2
    """,
    "message_uses_module_of_builtin_types": """
        from decimal import Decimal
        Decimal(1) - "a"
    """,
    "message_cuts_long_type_names": """
        Long = type("L" * 150, (), {})
        try:
            Long() % 1
        except TypeError as e:
            r = str(e)
        -Long()
    """,
    "unary_messages": """
        for value, f in ((1.5, lambda x: ~x), ([], lambda x: +x), ("s", lambda x: -x)):
            try:
                f(value)
            except TypeError as e:
                log.append(str(e))
    """,
    "unary_on_user_types": """
        class U:
            def __pos__(self):
                return "pos"
            def __invert__(self):
                return "invert"
        r = (+U(), ~U(), -Num(4, "n"), -True, +False)
    """,
    "inplace_falls_back_to_binary": """
        a = Num(1, "a")
        a += 5
        b = [1]
        c = b
        b += (2, 3)
        r = (a, c is b, b)
        t = (1,)
        t += [2]
    """,
    "inplace_list_subclass_extends_first": """
        class L(list):
            pass
        x = L([1])
        x += Num(2, "n")
    """,
    "wrapper_of_another_class_is_called_as_a_method": """
        class A(int):  # bpo-37619: CPython calls the wrapper, which refuses an A
            __add__ = str.__add__
            __sub__ = float.__sub__
            __mul__ = list.__mul__
        class B:
            __add__ = list.__add__
        class L(list):
            pass
        for left, right in ((A(), A()), (A(), 1), (B(), B()), (L(), L()), (L(), [1]), (L(), 2)):
            for f in (lambda x, y: x + y, lambda x, y: x - y, lambda x, y: x * y):
                try:
                    log.append(f(left, right))
                except TypeError as e:
                    log.append(str(e))
    """,
    "print_shifted_hints_python_2s_syntax": """
        import sys
        for f in (lambda: print >> sys.stderr, lambda: len >> 1, lambda: print << 1):
            try:
                f()
            except TypeError as e:
                log.append(str(e))
        x = print
        x >>= 1
    """,
    "inplace_message": """
        x = 1
        x **= "a"
    """,
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_operators(name: str) -> None:
    assert_same(LOG + textwrap.dedent(CASES[name]))


@pytest.mark.skipif(importlib.util.find_spec("_testbuffer") is None, reason="no _testbuffer")
def test_a_c_type_never_readied() -> None:
    """``_testbuffer`` makes instances of its ``ndarray`` with no ``PyType_Ready``
    (before 3.13): the type's MRO is NULL until an attribute of it is read.
    Each program runs in a fresh process, where nothing has readied it yet."""
    source = textwrap.dedent("""
        from _testbuffer import ndarray, ND_WRITABLE
        a = ndarray([1, 2, 3], shape=[3], format="b", flags=ND_WRITABLE)
        a[0] = 8
        print(a[0], a[-1])
    """)
    runs = [subprocess.run([sys.executable, "-c", text], capture_output=True, text=True, check=False)
            for text in (source, desugared(source))]
    assert [(run.stdout, run.stderr) for run in runs] == [("8 3\n", "")] * 2
