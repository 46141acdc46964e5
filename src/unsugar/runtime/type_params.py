"""Type parameters and ``type`` aliases (PEP 695, 696): CPython's own objects.

``typing.TypeVar(name, bound=...)`` evaluates its bound at once; the objects
the syntax makes evaluate bounds, constraints, defaults and alias values when
first read, once. Only the interpreter's intrinsics make those
(``INTRINSIC_TYPEVAR_WITH_BOUND``, ``INTRINSIC_TYPEALIAS``, ...), so the
runtime assembles, once per intrinsic, the code of a function that runs it:
``RESUME 0; LOAD_FAST 0 [; LOAD_FAST 1]; CALL_INTRINSIC_1/2 n; RETURN_VALUE``
(the async generators' ``INTRINSIC_ASYNC_GEN_WRAP`` too, which is the
instruction ``ASYNC_GEN_WRAP`` on 3.11). A ``TypeAliasType`` takes its
``__module__`` from the module whose code called ``type_param``, as from the
module of a ``type`` statement.
"""

intrinsic_codes = operator_table()  # noqa: F821  (runtime/operators.py)


def intrinsic_template(first, second):
    """Whose code the intrinsics' code replaces (its shape: two positional arguments)."""
    return first


def intrinsic_code(name):
    """The code of a function that returns intrinsic ``name`` (``INTRINSIC_...``)
    of its one or two arguments."""
    code = dict.get(intrinsic_codes, name)
    if code is not None:
        return code
    dis = __import__("dis")  # (the runtime imports only sys when it starts)
    opmap = dis.opmap
    if str.__eq__(name, "INTRINSIC_ASYNC_GEN_WRAP") and dict.__contains__(opmap, "ASYNC_GEN_WRAP"):
        # 3.11: an instruction of its own (no intrinsics)
        count, call = 1, [dict.__getitem__(opmap, "ASYNC_GEN_WRAP"), 0]
    else:
        ones = dis._intrinsic_1_descs
        count = 1 if list.__contains__(ones, name) else 2
        table = ones if int.__eq__(count, 1) else dis._intrinsic_2_descs
        instruction = "CALL_INTRINSIC_1" if int.__eq__(count, 1) else "CALL_INTRINSIC_2"
        call = [dict.__getitem__(opmap, instruction), list.index(table, name)]
    words = [dict.__getitem__(opmap, "RESUME"), 0, dict.__getitem__(opmap, "LOAD_FAST"), 0]
    if int.__eq__(count, 2):
        list.extend(words, [dict.__getitem__(opmap, "LOAD_FAST"), 1])
    list.extend(words, [*call, dict.__getitem__(opmap, "RETURN_VALUE"), 0])
    base = intrinsic_template.__code__
    code = base.replace(co_code=bytes(words), co_argcount=count, co_nlocals=count,
                        co_varnames=tuple.__getitem__(base.co_varnames, slice(0, count)),
                        co_stacksize=2, co_name=name, co_qualname=name)
    dict.__setitem__(intrinsic_codes, name, code)
    return code


def type_param(name, *args):
    """Intrinsic ``name`` of ``args``."""
    return type(type_param)(intrinsic_code(name), type_param.__globals__)(*args)
