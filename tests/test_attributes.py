"""attribute: ``x.y`` loads, with private-name mangling inside classes."""

import pytest
from difftest import assert_same

ATTRIBUTE = {
    "load_and_call": """
        r1 = (5).bit_length()
        r2 = (7).real
        r3 = (3).__add__(4)
        m = (2).__mul__
        r4 = m(21)
    """,
    "chained": """
        r = (12).real.imag.bit_length()
    """,
    "evaluation_order": """
        def obj(n):
            print(n)
            return n
        r = obj(6).__add__(obj(1)).bit_length()
    """,
    "missing_attribute": """
        r = (5).nope
    """,
    "missing_attribute_on_none": """
        def f():
            return
        f().split
    """,
    "shadowed_getattr": """
        def getattr(obj, name):
            print(0)
            return 0
        r = (9).real
    """,
    "getattr_hooks_called_once": """
        class C:
            def __getattribute__(self, name):
                print("getattribute", name)
                return object.__getattribute__(self, name)
            def __getattr__(self, name):
                print("getattr", name)
                return len(name)
        c = C()
        r = c.missing, c.__class__.__name__
    """,
    "descriptor_and_property": """
        class C:
            @property
            def p(self):
                print("p")
                return 4
        r = C().p
    """,
    "property_raising_attribute_error": """
        class C:
            @property
            def p(self):
                raise AttributeError("inner")
            def __getattr__(self, name):
                return "fallback " + name
        r = C().p
    """,
    "mangled_in_method": """
        class C:
            __x = 1
            __y__ = 2
            def get(self):
                return self.__x, self.__y__, C._C__x
        r = C().get()
        r2 = C._C__x
    """,
    "mangled_in_nested_function": """
        class Outer:
            __v = 3
            def m(self):
                def inner():
                    return self.__v
                return inner()
        r = Outer().m()
    """,
    "mangled_with_leading_underscores": """
        class _Priv:
            __p = 5
            def get(self):
                return self.__p
        r = _Priv().get(), _Priv._Priv__p
    """,
    "mangling_missing_names_the_mangled_attribute": """
        class C:
            def get(self):
                return self.__hidden
        C().get()
    """,
    "no_mangling_outside_classes": """
        def f():
            return f.__private
        f()
    """,
}


@pytest.mark.parametrize("name", sorted(ATTRIBUTE))
def test_attribute(name):
    assert_same(ATTRIBUTE[name])
