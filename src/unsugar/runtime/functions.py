"""Finishing function objects: names, defaults, annotations, docstrings.

A rewritten ``def`` is a core ``def``; what the original syntax gave the
function object (its defaults, annotations, docstring, and for a lambda, a
decorated function or a private method, its very name) is set on it right
after it is created, before anything else can see it.

These helpers use no operators or comparisons: they call methods.
"""

functions_sys = __import__("sys")


def rename_function(fn, name, qualname):
    """Give ``fn`` the ``__name__``, ``__qualname__`` and ``co_name`` it would
    have had: ``def _us_lambda_1`` becomes ``<lambda>``. Code objects nested
    in it get their qualified names fixed too (``f.<locals>.g``)."""
    code = fn.__code__
    return renamed_function(fn, name, qualname, str.__add__(code.co_qualname, "."),
                            str.__add__(qualname, "."))


def rename_scope_function(fn, name, qualname, inner):
    """``rename_function`` for a def whose nested code is named as if it were
    not there (an annotation scope, a comprehension): their qualified names
    start with ``inner`` instead of ``<its qualname>.<locals>.``."""
    code = fn.__code__
    return renamed_function(fn, name, qualname, str.__add__(code.co_qualname, ".<locals>."), inner)


#: The renamed code of each code object a renamed def was made from: a def
#: run again (in a loop, a lambda) makes a function of the same code.
renamed_codes = operator_table()  # noqa: F821  (runtime/operators.py)


def renamed_function(fn, name, qualname, old, new):
    """``fn`` named ``name``/``qualname``; nested code named ``old...`` is named ``new...``."""
    code = fn.__code__
    renamed = dict.get(renamed_codes, code)
    if renamed is None:
        consts = code.co_consts
        if type(code) in set(map(type, consts)):  # a code object is nested in it
            consts = requalified_consts(consts, old, new)
        renamed = code.replace(co_name=name, co_qualname=qualname, co_consts=consts)
        dict.__setitem__(renamed_codes, code, renamed)
    fn.__code__ = renamed
    fn.__name__ = name
    fn.__qualname__ = qualname
    return fn


def requalified_consts(consts, old, new):
    """``consts`` with every code object whose qualified name starts with
    ``old`` renamed to start with ``new``, at any depth (without recursion:
    a thousand lambdas nest a thousand code objects)."""
    code_type = type(rename_function.__code__)
    # each entry: the constants being rebuilt, the next index, the code they are of
    stack = [[list(consts), 0, None]]
    while 1:
        entry = list.__getitem__(stack, int.__sub__(len(stack), 1))
        items = list.__getitem__(entry, 0)
        index = list.__getitem__(entry, 1)
        if int.__lt__(index, len(items)):
            list.__setitem__(entry, 1, int.__add__(index, 1))
            item = list.__getitem__(items, index)
            if isinstance(item, code_type):
                list.append(stack, [list(item.co_consts), 0, item])
        else:
            list.pop(stack)
            code = list.__getitem__(entry, 2)
            if code is None:
                return tuple(items)
            qualname = code.co_qualname
            if str.startswith(qualname, old):
                qualname = str.__add__(new, str.__getitem__(qualname, slice(len(old), None)))
            outer = list.__getitem__(stack, int.__sub__(len(stack), 1))
            list.__setitem__(list.__getitem__(outer, 0), int.__sub__(list.__getitem__(outer, 1), 1),
                             code.replace(co_qualname=qualname, co_consts=tuple(items)))


#: The code each hoisted def is made of where it stands, by the code of its
#: stub (see ``hoisted``).
hoisted_codes = operator_table()  # noqa: F821  (runtime/operators.py)


def hoisted(template, stub):
    """The function a def too deeply nested to write in place makes there
    (see :mod:`unsugar.hoisting`): ``template`` is the def, written at the
    top of the module, ``stub`` a def written in its place that closes over
    the same names. The result has the template's code, named as the stub's
    (nested code too), and the stub's cells (matched by name) and globals."""
    stub_code = stub.__code__
    code = dict.get(hoisted_codes, stub_code)
    if code is None:
        code = template.__code__
        code = code.replace(
            co_name=stub_code.co_name, co_qualname=stub_code.co_qualname,
            co_consts=requalified_consts(code.co_consts, str.__add__(code.co_qualname, "."),
                                         str.__add__(stub_code.co_qualname, ".")),
        )
        dict.__setitem__(hoisted_codes, stub_code, code)
    cells = stub.__closure__
    if cells is None:
        cells = ()
    cells = dict(zip(stub_code.co_freevars, cells, strict=True))
    closure = tuple(map(cells.__getitem__, code.co_freevars))
    return type(stub)(code, stub.__globals__, stub.__name__, None, closure)


def set_function_defaults(fn, defaults, kwdefaults):
    """``__defaults__`` (a tuple or None) and ``__kwdefaults__`` (a dict or None)."""
    fn.__defaults__ = defaults
    fn.__kwdefaults__ = kwdefaults


def annotation_dict(*pairs):
    """``annotation_dict("x", int, "return", str)`` is ``{"x": int, "return": str}``."""
    out = dict()
    index = 0
    while int.__lt__(index, len(pairs)):
        dict.__setitem__(out, tuple.__getitem__(pairs, index), tuple.__getitem__(pairs, int.__add__(index, 1)))
        index = int.__add__(index, 2)
    return out


def set_function_annotations(fn, annotations):
    fn.__annotations__ = annotations


def starred_annotation(value):
    """The annotation ``*Ts`` of ``*args``: the one item ``value`` unpacks to."""
    kind = type(value)
    if not hasattr(kind, "__iter__") and not hasattr(kind, "__getitem__"):
        raise TypeError(str.format("cannot unpack non-iterable {} object", kind.__name__))
    items = iter(value)
    end = object()
    first = next(items, end)
    if int.__eq__(id(first), id(end)):
        raise ValueError("not enough values to unpack (expected 1, got 0)")
    if not int.__eq__(id(next(items, end)), id(end)):
        raise ValueError("too many values to unpack (expected 1)")
    return first


def docstrings_kept():
    """False under ``python -OO``, which drops docstrings."""
    return int.__lt__(functions_sys.flags.optimize, 2)


def docstring_text(doc):
    """A docstring as the running CPython stores it: from 3.13 on, the
    compiler removes the indentation of its lines (not as ``inspect.cleandoc``:
    only spaces after tabs are expanded, and no line is dropped)."""
    if not docstrings_kept():
        return None
    if int.__lt__(functions_sys.version_info.minor, 13):
        return doc
    lines = str.split(str.expandtabs(doc), "\n")
    margin = 0
    found = False
    index = 1
    while int.__lt__(index, len(lines)):
        line = list.__getitem__(lines, index)
        rest = str.lstrip(line, " ")
        if rest:
            indent = int.__sub__(len(line), len(rest))
            if not found or int.__lt__(indent, margin):
                margin = indent
                found = True
        index = int.__add__(index, 1)
    list.__setitem__(lines, 0, str.lstrip(list.__getitem__(lines, 0), " "))
    index = 1
    while int.__lt__(index, len(lines)):
        line = list.__getitem__(lines, index)
        indent = int.__sub__(len(line), len(str.lstrip(line, " ")))
        list.__setitem__(lines, index, str.__getitem__(line, slice(min(indent, margin), None)))
        index = int.__add__(index, 1)
    return str.join("\n", lines)


def set_function_doc(fn, doc):
    fn.__doc__ = docstring_text(doc)
