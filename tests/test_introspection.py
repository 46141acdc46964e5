"""locals() and vars() in functions: no temporaries, no deleted variables."""

import pytest
from difftest import assert_same

LOCALS = {
    "temporaries_hidden": """
        def f(y):
            a, b = y
            z = [i * 2 for i in range(3)]
            if a:
                w = a and b
            return sorted(locals()), sorted(vars())
        r = f((2, 3))
    """,
    "deleted_and_except_names_hidden": """
        def f(x):
            del x
            try:
                raise KeyError
            except KeyError as e:
                pass
            names = sorted(locals())
            try:
                x
            except UnboundLocalError as error:
                return names, str(error)
        r = f(1)
    """,
    "match_temporaries_hidden": """
        def f(w):
            match w:
                case [1, x, *rest] if x:
                    out = locals()
                    del out["w"]
                    return sorted(out)
        r = f([1, 2, 3, 4])
    """,
    "values_and_writes": """
        def f():
            x = 1
            d = locals()
            d["x"] = 99
            y = 2
            return x, sorted(locals().items())
        r = f()
    """,
    "class_and_module_locals_are_namespaces": """
        class C:
            u = 1
            names = sorted(locals())
        r = C.names, "C" in locals()
    """,
    "shadowed_locals_is_called_as_it_is": """
        def locals():
            return {"_us_kept": 1}
        def f():
            return locals()
        r = f()
    """,
}


@pytest.mark.parametrize("source", LOCALS.values(), ids=LOCALS.keys())
def test_locals(source: str) -> None:
    assert_same(source)
