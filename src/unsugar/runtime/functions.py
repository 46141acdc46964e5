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
    setattr(fn, "__code__", renamed)  # noqa: B010  (same free variables: not code_set)
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


def code_set(value, obj, prefix):
    """``obj.__code__ = value``. A desugared function closes over the runtime
    helpers it uses (their names start with ``prefix``), where CPython's has
    no cells, and code compiled elsewhere has no free variables for them:
    such code is given free variables for all the function's cells, its own
    matched to the function's other cells in order, as CPython matches them
    (networkx's ``argmap`` swaps in the code of a function it compiled)::

        def func(*args): ...          # free variables: _us_getattr, ...
        func.__code__ = compiled      # compiled's: () -> _us_getattr, ...

    Any other value is set as it is (and fails as CPython's ``setattr`` does)."""
    if type(obj) is type(code_set) and type(value) is type(code_set.__code__):
        own = obj.__code__.co_freevars
        if value.co_freevars != own:
            value = code_for_cells(value, own, obj.__name__, prefix)
    setattr(obj, "__code__", value)  # noqa: B010  (obj.__code__ = value would be code_set)


def function_type_callee(function, prefix):
    """The callee of a call written ``FunctionType(...)`` or ``types.LambdaType(...)``:
    when it is the type of a function, one that gives code of a desugared
    function the cells of the runtime helpers it reads (their names start
    with ``prefix``), where no closure is given (pyquery and alembic make a
    function of another's code and globals so). Anything else, itself."""
    if function is not operator_function_type:  # noqa: F821  (runtime/operators.py)
        return function

    def made(*args, **kwargs):
        return function_made(function, args, kwargs, prefix)
    return made


def function_made(function_type, args, kwargs, prefix):
    """``function_type(*args, **kwargs)``; when its code reads only runtime
    helpers as free variables and no closure is given, with a closure of the
    helpers' cells (:func:`helper_cells`). Anything else is left to
    ``function_type``, and to its errors."""
    closure = None
    if len(args) > 4:
        closure = args[4]
    closure = dict.get(kwargs, "closure", closure)
    code = dict.get(kwargs, "code", None)
    if args:
        code = args[0]
    globals_ = dict.get(kwargs, "globals", None)
    if len(args) > 1:
        globals_ = args[1]
    if closure is None and type(code) is type(code_set.__code__) and type(globals_) is dict:
        cells = helper_cells(code, globals_, prefix)
        if cells is not None:
            if len(args) > 4:
                args = (*args[:4], cells, *args[5:])
            else:
                dict.__setitem__(kwargs, "closure", cells)
    return function_type(*args, **kwargs)


def exec_closure(function, code, prefix):
    """The keywords a call ``exec(code, ...)`` is given besides its own: when
    ``function`` is ``exec`` and ``code`` that of a desugared function, which
    reads runtime helpers as free variables, ``closure=`` their cells
    (:func:`helper_cells`, looked for in the caller's globals first), as
    ``exec`` refuses such code without them; else none."""
    if function is not classes_builtin_exec or type(code) is not type(code_set.__code__):  # noqa: F821
        return {}
    cells = helper_cells(code, frame_of_caller(1).f_globals, prefix)  # noqa: F821
    if cells is None:
        return {}
    return {"closure": cells}


def helper_cells(code, namespace, prefix):
    """The cells of the runtime helpers ``code`` reads (its free variables,
    all named with ``prefix``), or None: the closure of a function of
    ``namespace`` (or of a class there) made from ``code``, else the cells
    its functions have under those names, else the closure of any function
    made from ``code`` (through the garbage collector's referrers)."""
    wanted = code.co_freevars
    if not wanted:
        return None
    for name in wanted:
        if not str.startswith(name, prefix):
            return None
    found = {}
    for value in list(dict.values(namespace)):  # (their types looked at, no attribute read)
        functions = [value]
        if issubclass(type(value), type):
            functions = list(dict.values(dict(type.__getattribute__(value, "__dict__"))))
        for function in functions:
            if type(function) is staticmethod or type(function) is classmethod:
                function = function.__func__
            if type(function) is operator_function_type and function.__closure__ is not None:  # noqa: F821
                own = function.__code__
                if own is code:
                    return function.__closure__
                for name, cell in zip(own.co_freevars, function.__closure__, strict=True):
                    dict.setdefault(found, name, cell)
    cells = []
    for name in wanted:
        if name not in found:
            return made_from(code)
        list.append(cells, found[name])
    return tuple(cells)


def made_from(code):
    """The closure of a function made from ``code``, found among the objects
    that refer to it; None if there is none."""
    for referrer in __import__("gc").get_referrers(code):
        if type(referrer) is operator_function_type and referrer.__code__ is code \
                and referrer.__closure__ is not None:  # noqa: F821
            return referrer.__closure__
    return None


def code_for_cells(code, cells, name, prefix):
    """``code`` whose free variables are as many as ``cells`` (the free
    variables of function ``name``), each helper's where ``cells`` has it; a
    ``ValueError`` as CPython's when their other free variables differ in
    number. ``code`` as it is when its instructions cannot be renumbered."""
    # (no comprehensions, no f-strings in this module: 3.12 compiles them to
    # other constants, and the runtime's must be the same on every version)
    places = []  # the function's cells that are not helpers'
    for at, cell in enumerate(cells):
        if not str.startswith(cell, prefix):
            places.append(at)
    theirs = 0  # the code's free variables that are not helpers
    for free in code.co_freevars:
        if not str.startswith(free, prefix):
            theirs += 1
    if len(places) != theirs:
        raise ValueError("{}() requires a code object with {} free vars, not {}".format(  # noqa: UP032
            name, len(places), theirs))
    names = list(cells)
    moved = []  # the new place of each free variable of ``code``
    places = iter(places)
    for free in code.co_freevars:
        if str.startswith(free, prefix):
            if free not in cells:
                raise ValueError("{}() has no cell for {}, which the new code reads".format(  # noqa: UP032
                    name, free))
            moved.append(cells.index(free))
        else:
            at = next(places)
            names[at] = free
            moved.append(at)
    return code_with_free_vars(code, tuple(names), moved)


def code_with_free_vars(code, names, moved):
    """``code`` with the free variables ``names``, its own at the places
    ``moved`` gives, renumbered in its instructions that take one (on 3.13 a
    closure's cells are loaded by ``LOAD_FAST``). Its ``COPY_FREE_VARS``
    copies them all, since a frame that shows its locals reads them; code that
    had none gets that instruction first, as CPython's prologue has it: its
    exception table's offsets move by one code unit, and its location table
    starts with an entry of no location for it."""
    opmap = __import__("dis").opmap
    copy_free_vars = opmap["COPY_FREE_VARS"]
    if len(names) > 255:  # (an EXTENDED_ARG: left to setattr's error)
        return code
    if not code.co_freevars:
        return code.replace(
            co_code=bytes([copy_free_vars, len(names)]) + code.co_code,
            co_exceptiontable=exception_table_moved(code.co_exceptiontable),
            co_linetable=bytes([0x80 | 15 << 3]) + code.co_linetable,  # one unit, no location
            co_freevars=names,
        )
    renumbered = set()
    for op in free_variable_instructions:
        if op in opmap:
            renumbered.add(opmap[op])
    paired = set()
    for op in paired_local_instructions:
        if op in opmap:
            paired.add(opmap[op])
    first = code.co_nlocals  # the first free variable's place: after the locals and other cells
    for cell in code.co_cellvars:
        if cell not in code.co_varnames:
            first += 1
    raw = bytearray(code.co_code)
    extended = False
    for at in range(0, len(raw), 2):
        op, arg = raw[at], raw[at + 1]
        if op == copy_free_vars:
            raw[at + 1] = len(names)
        elif op in renumbered and arg >= first:
            if extended or first + moved[arg - first] > 255:
                return code
            raw[at + 1] = first + moved[arg - first]
        elif op in paired and (arg >> 4 >= first or arg & 15 >= first):
            return code
        extended = op == opmap["EXTENDED_ARG"]
    return code.replace(co_code=bytes(raw), co_freevars=names)


#: the instructions whose argument may be a free variable's place
free_variable_instructions = ("LOAD_DEREF", "STORE_DEREF", "DELETE_DEREF", "LOAD_CLOSURE",
                              "LOAD_CLASSDEREF", "LOAD_FROM_DICT_OR_DEREF", "LOAD_FAST")
#: 3.13's instructions of two places, four bits each
paired_local_instructions = ("LOAD_FAST_LOAD_FAST", "STORE_FAST_LOAD_FAST", "STORE_FAST_STORE_FAST")


def exception_table_moved(table):
    """Exception table ``table`` (``co_exceptiontable``) with its entries'
    starts and targets one code unit later. An entry is four numbers (start,
    size, target, depth and lasti), each in groups of 6 bits, the most
    significant first, 64 set in all groups but the last; 128 marks the first
    byte of an entry."""
    out = []
    index = number = 0
    while index < len(table):
        value = 0
        more = True
        while more:
            byte = table[index]
            index += 1
            value = value << 6 | byte & 63
            more = byte & 64
        if number % 4 in (0, 2):
            value += 1
        groups = [value & 63]
        value >>= 6
        while value:
            groups.insert(0, value & 63 | 64)
            value >>= 6
        if number % 4 == 0:
            groups[0] |= 128
        out += groups
        number += 1
    return bytes(out)


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
