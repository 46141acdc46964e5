"""Operators, comparisons and subscription, dispatched as CPython does.

Special methods are looked up on the type, through the ``__dict__`` of each
class of its MRO (never on the instance, never through the metaclass), and
bound as CPython binds them. ``NotImplemented`` passes the turn to the other
operand. Error messages are CPython's, with the C-level type names it uses
(``'decimal.Decimal'``).

No operator syntax here but ``is`` between names: the rewriting of the others
calls these very helpers, while ``a is b`` becomes ``int.__eq__(id(a), id(b))``
in place. Arithmetic on ints calls ``int`` methods.

Each operator keeps plans: for a pair of built-in (immutable) types the
dispatch is fixed, and next time ``_operator``'s function runs the methods
that answered (:func:`planned`, :func:`native_plan`).

Binary operators follow CPython's number slots: a class's slot is filled
from its ``__op__``/``__rop__`` (``number_slot``), a slot shared by both
operands runs once, and a class with Python-level methods runs CPython's
generic slot function (``generic_binary``). The built-in sequences (``str``,
``bytes``, ``bytearray``, ``list``, ``tuple``, ``deque``, ``array``) implement
``+`` and ``*`` with sequence slots, tried only after both operands' number
slots; their ``__add__`` is a slot wrapper and they have no ``__radd__``,
which is how they are recognised.
"""

operator_missing = object()
operator_generic = object()
operator_int_eq = int.__eq__
operator_str_eq = str.__eq__
operator_int_sub = int.__sub__
operator_int_and = int.__and__
operator_int_gt = int.__gt__
operator_int_lt = int.__lt__
operator_int_floordiv = int.__floordiv__
operator_str_format = str.format
operator_dict_get = dict.get
operator_str_slice = str.__getitem__
operator_str_removeprefix = str.removeprefix
operator_str_removesuffix = str.removesuffix
operator_proxy_get = type(type.__dict__).get


def operator_getter_reduce(getter):
    """How pickling by value (cloudpickle, dill) keeps a getter: as
    ``getattr(mappingproxy.get(vars(owner), name), "__get__")`` when loaded."""
    descriptor = getter.__func__.__self__
    found = later(operator_proxy_get, later(vars, descriptor.__objclass__), descriptor.__name__)  # noqa: F821  (runtime/bootstrap.py)
    return operator_getter_type, (later(getattr, found, "__get__"),)  # noqa: F821


#: a getter called as its descriptor's ``__get__`` (a ``staticmethod`` calls its
#: function), but pickled as :func:`operator_getter_reduce` says: CPython pickles
#: a descriptor as ``getattr(owner, name)``, which for ``type``'s own attributes
#: (``__mro__``, ``__dict__``, ...) is the attribute of ``type`` itself
operator_getter_type = type("getter", (staticmethod,), dict(__slots__=(), __reduce__=operator_getter_reduce))


def operator_getter(owner, name):
    """``owner.__dict__[name].__get__``: the getter of a C-level attribute, which
    no metaclass can override (``type.__dict__['__mro__']`` reads ``tp_mro``)."""
    return operator_getter_type(operator_proxy_get(vars(owner), name).__get__)


def operator_table_reduce(table):
    """How pickling by value keeps a table: its entries, keyed by the ids their
    objects have when loaded."""
    items = tuple(map(operator_table_item_later, table.entries))
    return operator_table_type, (items,), (None, dict(entries=table.entries))


def operator_table_item_later(entry):
    return later(id, tuple.__getitem__(entry, 0)), tuple.__getitem__(entry, 1)  # noqa: F821


def operator_table_item(entry):
    return id(tuple.__getitem__(entry, 0)), tuple.__getitem__(entry, 1)


operator_table_type = type("table", (dict,), dict(__slots__=("entries",), __reduce__=operator_table_reduce))


def operator_table(*entries):
    """A dict the runtime keeps for its process (plans, caches, builtins by id):
    ``id(thing) -> value`` for each ``(thing, value)`` of ``entries``, then what
    the runtime adds. Pickled by value (cloudpickle and dill pickle a closure's
    cells), it comes back as it was made: ids are not another process's, and a
    cache may hold what cannot be pickled. Hot paths read it through its bound
    ``get``: ``dict.get`` is specialised for exact dicts only."""
    table = operator_table_type(map(operator_table_item, entries))
    table.entries = entries
    return table


operator_mro_of = operator_getter(type, "__mro__")
operator_dict_of = operator_getter(type, "__dict__")
operator_flags_of = operator_getter(type, "__flags__")
operator_is_subtype = type.__subclasscheck__
operator_wrapper_type = type(int.__add__)
operator_method_type = type(str.join)
operator_none_type = type(None)
operator_none_new = operator_none_type.__new__
operator_generic_alias = type(list.__class_getitem__(int))
operator_sys = __import__("sys")
operator_current_exception = operator_sys.exception
operator_module_dict_of = operator_getter(type(operator_sys), "__dict__")
operator_max_index = operator_sys.maxsize
operator_min_index = int.__invert__(operator_max_index)
operator_range_stop = operator_getter(range, "stop")
operator_objclass_of = operator_getter(operator_wrapper_type, "__objclass__")
operator_module_of = operator_getter(type, "__module__")
operator_qualname_of = operator_getter(type, "__qualname__")


def operator_index(value):
    """``operator.index(value)`` (``PyNumber_Index``, which ``range`` calls too): the
    runtime imports nothing but ``sys`` when it starts (``_operator`` may be blocked)."""
    return operator_range_stop(range(value))


def deque_wrapper(method):
    """Whether slot wrapper ``method`` is one of ``collections.deque``'s (its item
    slots take sequence indexes only), known by its class's name: ``_collections``
    is not imported (it may be blocked, or not loaded yet)."""
    owner = operator_objclass_of(method)
    if compare_is_not(operator_str_eq(operator_qualname_of(owner), "deque"), True):
        return False
    return compare_is(operator_str_eq(operator_module_of(owner), "collections"), True)


def compare_is(left, right):
    """``left is right``."""
    return operator_int_eq(id(left), id(right))


def compare_is_not(left, right):
    """``left is not right``."""
    if operator_int_eq(id(left), id(right)):
        return False
    return True


#: the type of a def (``compare_is`` is a builtin with native semantics: not that one)
operator_function_type = type(operator_getter)


def operator_readied_mro(kind):
    """The MRO of a C type that no ``PyType_Ready`` made yet (``tp_mro`` is NULL:
    ``_testbuffer`` adds its ``ndarray`` so, and makes instances of it): reading
    an attribute of the type readies it, as ``type_getattro`` does first."""
    type.__getattribute__(kind, "__name__")
    return operator_mro_of(kind)


def special_lookup(kind, name):
    """The attribute ``name`` of class ``kind``, from the dicts of its MRO (``_PyType_Lookup``)."""
    mro = operator_mro_of(kind)
    if mro is None:
        mro = operator_readied_mro(kind)
    classes = iter(mro)
    while 1:
        klass = next(classes, operator_missing)
        if klass is operator_missing:
            return operator_missing
        value = operator_proxy_get(operator_dict_of(klass), name, operator_missing)
        if value is not operator_missing:
            return value


def special_call(method, obj, *args):
    """Call a special method found on ``type(obj)``: functions and method descriptors
    get ``obj`` first, other descriptors are bound with ``__get__``, anything else
    is called as it is."""
    kind = type(method)
    if kind is operator_function_type:
        return method(obj, *args)
    if kind is operator_wrapper_type:
        return method(obj, *args)
    if kind is operator_method_type:
        return method(obj, *args)
    getter = special_lookup(kind, "__get__")
    if getter is operator_missing:
        return method(*args)
    return special_call(getter, method, obj, type(obj))(*args)


def special_call_maybe(obj, name, other):
    """``type(obj).name(obj, other)``, or ``NotImplemented`` when there is no such method."""
    method = special_lookup(type(obj), name)
    if method is operator_missing:
        return NotImplemented
    return special_call(method, obj, other)


def compare_call_maybe(obj, name, other):
    """``special_call_maybe`` for a rich comparison: an error while binding the method
    (a descriptor's ``__get__``) is dropped and gives ``NotImplemented``, as CPython's
    ``slot_tp_richcompare`` does."""
    method = special_lookup(type(obj), name)
    if method is operator_missing:
        return NotImplemented
    kind = type(method)
    if kind is operator_function_type:
        return method(obj, other)
    if kind is operator_wrapper_type:
        return method(obj, other)
    if kind is operator_method_type:
        return method(obj, other)
    getter = special_lookup(kind, "__get__")
    if getter is operator_missing:
        return method(other)
    try:
        bound = special_call(getter, method, obj, type(obj))
    except:  # noqa: E722  (CPython clears whatever the binding raised)
        return NotImplemented
    return bound(other)


def operator_type_name(kind, width):
    """The C-level name of ``kind`` that CPython's messages show, cut to ``width``.

    It is read from a message CPython writes with it:
    ``NoneType.__new__(X): X is not a subtype of NoneType``.
    """
    if kind is operator_none_type:
        return "NoneType"
    try:
        operator_none_new(kind)
    except:  # noqa: E722  (TypeError, always)
        text = str(operator_current_exception())
    text = operator_str_removesuffix(text, " is not a subtype of NoneType")
    text = operator_str_removeprefix(text, "NoneType.__new__(")
    length = operator_int_floordiv(operator_int_sub(len(text), 3), 2)
    if operator_int_gt(length, width):
        length = width
    return operator_str_slice(text, slice(0, length))


def operator_name_of(value, width):
    """The C-level name of the type of ``value``, cut to ``width``."""
    return operator_type_name(type(value), width)


def operator_type_error(template, value):
    """``TypeError(template)`` with the type name of ``value`` (``%.200s``)."""
    return TypeError(operator_str_format(template, operator_name_of(value, 200)))


def operator_heap_type(kind):
    """Whether ``kind`` was made by a ``class`` statement (or is an extension's heap type)."""
    return operator_int_and(operator_flags_of(kind), 512)


def sequence_class(klass):
    """Whether ``klass`` is a built-in sequence: ``+`` and ``*`` are sequence slots."""
    namespace = operator_dict_of(klass)
    method = operator_proxy_get(namespace, "__add__", operator_missing)
    if compare_is(type(method), operator_wrapper_type):
        return compare_is(operator_proxy_get(namespace, "__radd__", operator_missing), operator_missing)
    return False


operator_sequence_names = dict(__add__=1, __mul__=1, __rmul__=1, __iadd__=1, __imul__=1)


def sequence_wrapper(method):
    """Whether ``method`` is a built-in sequence's slot wrapper for ``+``, ``*``,
    ``+=`` or ``*=`` (``list.__add__``)."""
    if compare_is(type(method), operator_wrapper_type):
        if operator_dict_get(operator_sequence_names, method.__name__, 0):
            return sequence_class(method.__objclass__)
    return False


def sequence_slot(kind, name):
    """The sequence slot of ``kind`` behind ``name`` (``list.__add__``), or ``operator_missing``."""
    method = special_lookup(kind, name)
    if sequence_wrapper(method):
        return method
    return operator_missing


def sequence_repeat_slot(kind):
    """``sq_repeat``: ``__mul__`` of a built-in sequence, unless ``__rmul__`` was redefined."""
    method = sequence_slot(kind, "__mul__")
    reflected = special_lookup(kind, "__rmul__")
    if reflected is operator_missing:
        return method
    if sequence_wrapper(reflected):
        return method
    return operator_missing


def sequence_struct(kind):
    """Whether CPython gives ``kind`` sequence methods at all (``tp_as_sequence``)."""
    if operator_heap_type(kind):
        return True
    if compare_is_not(special_lookup(kind, "__len__"), operator_missing):
        return True
    return compare_is_not(special_lookup(kind, "__contains__"), operator_missing)


def has_index(value):
    """Whether ``value`` can be used as an index (it has ``__index__``)."""
    return compare_is_not(special_lookup(type(value), "__index__"), operator_missing)


def sequence_index(key):
    """``PyNumber_AsSsize_t(key, IndexError)``: an index that fits a C ``Py_ssize_t``."""
    value = operator_index(key)
    if operator_int_gt(value, operator_max_index):
        raise IndexError(operator_str_format(
            "cannot fit '{}' into an index-sized integer", operator_name_of(key, 200)))
    if operator_int_lt(value, operator_min_index):
        raise IndexError(operator_str_format(
            "cannot fit '{}' into an index-sized integer", operator_name_of(key, 200)))
    return value


def slot_part(kind, name):
    """What special method ``name`` of ``kind`` gives a number slot: nothing
    (``operator_missing``, also for a sequence's wrapper), the C type whose wrapper
    it is, or ``operator_generic`` (a Python-level method, or the wrapper of
    a class ``kind`` does not derive from: ``__add__ = str.__add__`` in a
    subclass of ``int``, which CPython calls as a method, to raise)."""
    method = special_lookup(kind, name)
    if method is operator_missing:
        return operator_missing
    if compare_is(type(method), operator_wrapper_type):
        if operator_str_eq(method.__name__, name):
            if operator_is_subtype(method.__objclass__, kind):  # (issubclass(kind, ...))
                if sequence_wrapper(method):
                    return operator_missing
                return method.__objclass__
    return operator_generic


def number_slot(kind, name, reflected):
    """The binary number slot of ``kind`` as CPython fills it from ``name`` and
    ``reflected``: ``operator_missing``, a C type, or ``operator_generic``."""
    forward = slot_part(kind, name)
    backward = slot_part(kind, reflected)
    if forward is operator_generic:
        return forward
    if backward is operator_generic:
        return backward
    if forward is operator_missing:
        return backward
    return forward


def inplace_slot(kind, name):
    """The in-place number slot of ``kind``: ``operator_missing``, a C wrapper to call,
    or ``operator_generic``. A class deriving from ``list`` gets ``list.__iadd__``
    here (its signature fits the slot), ``list`` itself does not."""
    method = special_lookup(kind, name)
    if method is operator_missing:
        return operator_missing
    if compare_is(type(method), operator_wrapper_type):
        if operator_str_eq(method.__name__, name):
            if sequence_wrapper(method):
                if compare_is(method.__objclass__, kind):
                    return operator_missing
                if operator_str_eq(name, "__imul__"):
                    return operator_missing
            return method
    return operator_generic


def operator_overloaded(left_type, right_type, name):
    """Whether ``right_type`` redefines ``name`` (``method_is_overloaded``)."""
    right = getattr(right_type, name, operator_missing)
    if right is operator_missing:
        return False
    left = getattr(left_type, name, operator_missing)
    if left is operator_missing:
        return True
    if left is right:
        return False
    return bool(compare_ne(left, right))


def generic_binary(left, right, name, reflected, left_generic, right_generic):
    """The slot of a class with Python-level methods (CPython's ``SLOT1BINFULL``);
    ``left_generic`` and ``right_generic`` say whether the operands' types have
    such a slot (``number_slot``, found by ``binary_steps``)."""
    left_type = type(left)
    right_type = type(right)
    do_other = False
    if left_type is not right_type:
        do_other = right_generic
    if left_generic:
        if do_other:
            if operator_is_subtype(left_type, right_type):
                if operator_overloaded(left_type, right_type, reflected):
                    result = special_call_maybe(right, reflected, left)
                    if result is not NotImplemented:
                        return result
                    do_other = False
        result = special_call_maybe(left, name, right)
        if result is not NotImplemented:
            return result
        if left_type is right_type:
            return result
    if do_other:
        return special_call_maybe(right, reflected, left)
    return NotImplemented


def swapped(method):
    """``method`` called with the two operands the other way round (a reflected method)."""
    def call(left, right):
        return method(right, left)
    return call


def binary_slot_step(slot, left_type, name, reflected, left_slot, right_slot):
    """How number slot ``slot`` is called on ``(left, right)``: a C slot through its
    wrapper, ``__op__`` of the left operand's type or ``__rop__`` of the right one's,
    or the generic slot of Python-level methods (given both operands' slots)."""
    if slot is operator_generic:
        left_generic = compare_is(left_slot, operator_generic)
        right_generic = compare_is(right_slot, operator_generic)

        def call(left, right):
            return generic_binary(left, right, name, reflected, left_generic, right_generic)
        return call
    if operator_is_subtype(slot, left_type):
        return operator_proxy_get(operator_dict_of(slot), name)
    return swapped(operator_proxy_get(operator_dict_of(slot), reflected))


def binary_steps(left_type, right_type, name, reflected):
    """CPython's ``binary_op1``: the left operand's slot, then the right one's (first
    when its type is a proper subclass of the left's); a slot shared by both types
    runs once. The slots, as callables of ``(left, right)``, in that order."""
    left_slot = number_slot(left_type, name, reflected)
    right_slot = operator_missing
    if left_type is not right_type:
        right_slot = number_slot(right_type, name, reflected)
    found_left = left_slot
    found_right = right_slot
    if right_slot is left_slot:
        right_slot = operator_missing
    steps = []
    if left_slot is not operator_missing:
        if right_slot is not operator_missing:
            if operator_is_subtype(left_type, right_type):
                list.append(steps, binary_slot_step(right_slot, left_type, name, reflected, found_left, found_right))
                right_slot = operator_missing
        list.append(steps, binary_slot_step(left_slot, left_type, name, reflected, found_left, found_right))
    if right_slot is not operator_missing:
        list.append(steps, binary_slot_step(right_slot, left_type, name, reflected, found_left, found_right))
    return steps


def inplace_steps(left_type, right_type, name, binary, reflected):
    """CPython's ``binary_iop1``: the in-place slot, then the binary operator's."""
    slot = inplace_slot(left_type, name)
    steps = []
    if slot is operator_generic:
        def call(left, right):
            return special_call(special_lookup(type(left), name), left, right)
        steps = [call]
    elif slot is not operator_missing:
        steps = [slot]
    list.extend(steps, binary_steps(left_type, right_type, binary, reflected))
    return steps


def planned(plans, steps, left, right, native):
    """The first answer of ``steps`` on ``(left, right)``, ``NotImplemented`` if none.

    When both operands' types are immutable (``Py_TPFLAGS_IMMUTABLETYPE``: the
    built-in types), the dispatch is fixed for that pair of types: their
    methods cannot change, and whether their C methods decline
    (``NotImplemented``) depends on the operands' types, so the same step
    answers next time, and those before it decline again. The plan for the
    pair in ``plans`` is then ``_operator``'s function ``native``
    (:func:`native_plan`), which runs those very C methods in one call.
    """
    for step in steps:
        result = step(left, right)
        if result is not NotImplemented:
            left_type = type(left)
            right_type = type(right)
            if operator_int_and(operator_int_and(operator_flags_of(left_type),
                                                 operator_flags_of(right_type)), 256):
                row = operator_dict_get(plans, id(left_type))
                if row is None:
                    row = dict()
                    operator_plan_set(plans, planned_type(left_type), row)
                operator_plan_set(row, planned_type(right_type), native_plan(native, step))
            return result
    return NotImplemented


operator_no_plans = dict()
operator_plan_set = dict.__setitem__
#: The types plans were made for, kept alive: a plan is found by the id of the
#: operand's type (hashing a class could run its metaclass's ``__hash__``), and
#: the id of a type that lives cannot be another object's.
operator_planned_types = operator_table()


def native_plan(name, step):
    """The plan for operands of built-in types: ``_operator.name``, the C function of
    CPython's own instruction, which runs the very C methods the whole dispatch
    found (and nothing observable besides), without their wrappers' cost.
    ``step`` itself where ``_operator`` is not loaded (3.12 loads it with
    ``operator``, not at start-up; importing it here would change ``sys.modules``
    under whoever iterates over it) or is blocked (``None``, as tests do)."""
    native = operator_dict_get(operator_sys.modules, "_operator")
    if native is None:
        return step
    return getattr(native, name)


def native_name(name):
    """The name of ``_operator``'s function for special method ``name``: ``add``
    for ``__add__``, ``iadd`` for ``__iadd__``, ``or_`` for ``__or__``."""
    bare = operator_str_removesuffix(operator_str_removeprefix(name, "__"), "__")
    if operator_str_eq(bare, "or"):
        return "or_"
    if operator_str_eq(bare, "and"):
        return "and_"
    return bare


def planned_type(kind):
    """The key of ``kind``'s plans: its id (``kind`` is kept alive)."""
    key = id(kind)
    operator_plan_set(operator_planned_types, key, kind)
    return key


def planned_operation(plans, full):
    """An operation on two operands: the plan ``plans`` holds for their types,
    else ``full``, the whole dispatch, which makes the plans."""
    plan_row = plans.get

    def operation(left, right):
        row = plan_row(id(type(left)), operator_no_plans)
        return operator_dict_get(row, id(type(right)), full)(left, right)
    return operation


operator_builtin_function_type = type(len)


def binary_error(symbol, left, right):
    """``unsupported operand type(s) for +: 'int' and 'str'``; for ``print >> f``,
    CPython's hint of Python 2's syntax."""
    message = operator_str_format(
        "unsupported operand type(s) for {}: '{}' and '{}'",
        symbol, operator_name_of(left, 100), operator_name_of(right, 100),
    )
    if operator_str_eq(symbol, ">>") and compare_is(type(left), operator_builtin_function_type):
        if operator_str_eq(left.__name__, "print"):
            message = str.__add__(message, '. Did you mean "print(<message>, file=<output_stream>)"?')
    return TypeError(message)


def number_operation(number_steps, symbol, sequence_steps, native, own_name):
    """An operator's whole dispatch: the slots ``number_steps(left_type,
    right_type)`` gives, then what ``sequence_steps`` adds (a built-in
    sequence's concatenation or repetition); the error names ``symbol``, the
    plans call ``_operator``'s ``native``.

    Operands of one class whose method ``own_name`` (None for an in-place
    operator) is a def: that def alone answers, as CPython's generic slot
    tries nothing else for operands of one type, and such a def leaves the
    class no sequence slot for the operator."""
    plans = operator_table()

    def full(left, right):
        left_type = type(left)
        right_type = type(right)
        if left_type is right_type:
            if own_name is not None:
                method = special_lookup(left_type, own_name)
                if type(method) is operator_function_type:
                    result = method(left, right)
                    if result is NotImplemented:
                        raise binary_error(symbol, left, right)
                    return result
        steps = number_steps(left_type, right_type)
        list.extend(steps, sequence_steps(left_type, right_type))
        result = planned(plans, steps, left, right, native)
        if result is NotImplemented:
            raise binary_error(symbol, left, right)
        return result
    return planned_operation(plans, full)


def binary_operation(method, symbol, sequence_steps):
    """``left OP right``: ``__method__``, reflected ``__rmethod__``."""
    name = str.format("__{}__", method)
    reflected = str.format("__r{}__", method)

    def number_steps(left_type, right_type):
        return binary_steps(left_type, right_type, name, reflected)
    return number_operation(number_steps, symbol, sequence_steps, native_name(name), name)


def inplace_operation(method, symbol, sequence_steps):
    """``left OP= right``: ``__imethod__``, then the binary operator's slots."""
    name = str.format("__i{}__", method)
    binary = str.format("__{}__", method)
    reflected = str.format("__r{}__", method)

    def number_steps(left_type, right_type):
        return inplace_steps(left_type, right_type, name, binary, reflected)
    return number_operation(number_steps, str.__add__(symbol, "="), sequence_steps, native_name(name), None)


def no_sequence_steps(left_type, right_type):
    """An operator that sequences do not implement."""
    return []


def sequence_repeat(method, sequence, count):
    """``sequence * count`` with a built-in sequence's repeat slot."""
    if has_index(count):
        return method(sequence, count)
    raise operator_type_error("can't multiply sequence by non-int of type '{}'", count)


def repeat_step(method):
    """A built-in sequence's repetition as a step: ``(sequence, count)``."""
    def call(sequence, count):
        return sequence_repeat(method, sequence, count)
    return call


def concat_steps(left_type, right_type):
    """``+``: the left operand's sequence concatenation."""
    method = sequence_slot(left_type, "__add__")
    if method is operator_missing:
        return []
    return [method]


def repeat_steps(left_type, right_type):
    """``*``: a sequence's repetition, the left operand's, else the right one's."""
    method = sequence_repeat_slot(left_type)
    if method is not operator_missing:
        return [repeat_step(method)]
    method = sequence_repeat_slot(right_type)
    if method is not operator_missing:
        return [swapped(repeat_step(method))]
    return []


def inplace_concat_steps(left_type, right_type):
    """``+=``: the left operand's in-place concatenation, else its concatenation
    (``list += iterable``)."""
    method = sequence_slot(left_type, "__iadd__")
    if method is operator_missing:
        return concat_steps(left_type, right_type)
    return [method]


def inplace_repeat_steps(left_type, right_type):
    """``*=``: a sequence's in-place repetition, else its repetition; the right
    operand repeats only when the left one has no sequence methods at all."""
    if sequence_struct(left_type):
        method = sequence_slot(left_type, "__imul__")
        if method is operator_missing:
            method = sequence_repeat_slot(left_type)
        if method is not operator_missing:
            return [repeat_step(method)]
        return []
    method = sequence_repeat_slot(right_type)
    if method is not operator_missing:
        return [swapped(repeat_step(method))]
    return []


binary_add = binary_operation("add", "+", concat_steps)
binary_sub = binary_operation("sub", "-", no_sequence_steps)
binary_mult = binary_operation("mul", "*", repeat_steps)
binary_matmult = binary_operation("matmul", "@", no_sequence_steps)
binary_div = binary_operation("truediv", "/", no_sequence_steps)
binary_floordiv = binary_operation("floordiv", "//", no_sequence_steps)
binary_mod = binary_operation("mod", "%", no_sequence_steps)
binary_pow = binary_operation("pow", "** or pow()", no_sequence_steps)
binary_lshift = binary_operation("lshift", "<<", no_sequence_steps)
binary_rshift = binary_operation("rshift", ">>", no_sequence_steps)
binary_bitor = binary_operation("or", "|", no_sequence_steps)
binary_bitxor = binary_operation("xor", "^", no_sequence_steps)
binary_bitand = binary_operation("and", "&", no_sequence_steps)
inplace_add = inplace_operation("add", "+", inplace_concat_steps)
inplace_sub = inplace_operation("sub", "-", no_sequence_steps)
inplace_mult = inplace_operation("mul", "*", inplace_repeat_steps)
inplace_matmult = inplace_operation("matmul", "@", no_sequence_steps)
inplace_div = inplace_operation("truediv", "/", no_sequence_steps)
inplace_floordiv = inplace_operation("floordiv", "//", no_sequence_steps)
inplace_mod = inplace_operation("mod", "%", no_sequence_steps)
inplace_pow = inplace_operation("pow", "**", no_sequence_steps)
inplace_lshift = inplace_operation("lshift", "<<", no_sequence_steps)
inplace_rshift = inplace_operation("rshift", ">>", no_sequence_steps)
inplace_bitor = inplace_operation("or", "|", no_sequence_steps)
inplace_bitxor = inplace_operation("xor", "^", no_sequence_steps)
inplace_bitand = inplace_operation("and", "&", no_sequence_steps)


def fixed_method(plans, kind, method, native):
    """Plan ``_operator``'s ``native`` for ``kind`` in ``plans`` when ``method`` (found
    on ``kind``) cannot change and is called as it is: a C method of an immutable
    type (a ``deque``'s item slots convert the index first)."""
    if operator_int_and(operator_flags_of(kind), 256):
        if type(method) is operator_wrapper_type:
            if not deque_wrapper(method):
                operator_plan_set(plans, planned_type(kind), native_plan(native, method))
        elif type(method) is operator_method_type:
            operator_plan_set(plans, planned_type(kind), native_plan(native, method))


def unary_operation(name, symbol):
    """``OP operand``: ``type(operand).name(operand)``, or ``bad operand type for
    unary -: 'str'``."""
    plans = operator_table()
    native = native_name(name)

    def full(operand):
        kind = type(operand)
        method = special_lookup(kind, name)
        if method is operator_missing:
            raise operator_type_error(operator_str_format("bad operand type for unary {}: '{{}}'", symbol), operand)
        if type(method) is operator_function_type:  # a class's def: called as it is, never planned
            return method(operand)
        fixed_method(plans, kind, method, native)
        return special_call(method, operand)

    plan = plans.get

    def operation(operand):
        return plan(id(type(operand)), full)(operand)
    return operation


unary_neg = unary_operation("__neg__", "-")
unary_pos = unary_operation("__pos__", "+")
unary_invert = unary_operation("__invert__", "~")


def compare_step(kind, name):
    """How ``type(obj).name(obj, other)`` is called for a rich comparison: the
    method of a built-in type itself (it cannot change), else looked up at each
    call (``compare_call_maybe``)."""
    if operator_int_and(operator_flags_of(kind), 256):
        method = special_lookup(kind, name)
        if method is not operator_missing:
            if type(method) is operator_wrapper_type:
                return method

    def call(obj, other):
        return compare_call_maybe(obj, name, other)
    return call


def rich_steps(left_type, right_type, name, reflected):
    """``left.__op__(right)``, then ``right.__reflected__(left)``; the right operand
    goes first when its type is a proper subclass of the left's (and then the left
    one's method is the last tried)."""
    forward = compare_step(left_type, name)
    if left_type is not right_type:
        if operator_is_subtype(left_type, right_type):
            return [swapped(compare_step(right_type, reflected)), forward]
    return [forward, swapped(compare_step(right_type, reflected))]


def order_operation(name, reflected, symbol):
    """``<``, ``<=``, ``>``, ``>=``: no fallback."""
    plans = operator_table()
    native = native_name(name)

    def full(left, right):
        steps = rich_steps(type(left), type(right), name, reflected)
        result = planned(plans, steps, left, right, native)
        if result is NotImplemented:
            raise TypeError(operator_str_format(
                "'{}' not supported between instances of '{}' and '{}'",
                symbol, operator_name_of(left, 100), operator_name_of(right, 100),
            ))
        return result
    return planned_operation(plans, full)


def equality_operation(name, identity):
    """``==`` and ``!=``: identity (``identity``) when neither side knows. A plan
    that declines the operands (``object.__eq__`` of different objects) sends
    them through the whole dispatch."""
    plans = operator_table()
    native = native_name(name)

    def full(left, right):
        steps = rich_steps(type(left), type(right), name, name)
        list.append(steps, identity)
        return planned(plans, steps, left, right, native)

    plan_row = plans.get

    def operation(left, right):
        row = plan_row(id(type(left)), operator_no_plans)
        result = operator_dict_get(row, id(type(right)), full)(left, right)
        if result is NotImplemented:
            return full(left, right)
        return result
    return operation


compare_eq = equality_operation("__eq__", compare_is)
compare_ne = equality_operation("__ne__", compare_is_not)
compare_lt = order_operation("__lt__", "__gt__", "<")
compare_le = order_operation("__le__", "__ge__", "<=")
compare_gt = order_operation("__gt__", "__lt__", ">")
compare_ge = order_operation("__ge__", "__le__", ">=")


contains_plans = operator_table()
contains_plan = contains_plans.get


def compare_in(item, container):
    """``item in container``: ``__contains__``, else iteration (``iter()`` also knows
    the old ``__getitem__`` protocol); the result is a real ``bool``."""
    return contains_plan(id(type(container)), contains_full)(container, item)


def contains_full(container, item):
    """``compare_in`` without a plan for the container's type."""
    kind = type(container)
    method = special_lookup(kind, "__contains__")
    if method is None:
        raise operator_type_error("'{}' object is not a container", container)
    if method is not operator_missing:
        if type(method) is operator_function_type:  # a class's def: called as it is, never planned
            return bool(method(container, item))
        # a C slot gives a bool, and so do the C methods of dict, set and frozenset
        fixed_method(contains_plans, kind, method, "contains")
        return bool(special_call(method, container, item))
    return contains_by_iteration(item, container)


def compare_not_in(item, container):
    """``item not in container``."""
    if compare_in(item, container):
        return False
    return True


def contains_by_iteration(item, container):
    """Whether some element of ``container`` is ``item`` or equals it (element first)."""
    not_iterable = False
    try:
        elements = iter(container)
    except:  # noqa: E722
        if operator_is_subtype(TypeError, type(operator_current_exception())):
            not_iterable = True
        else:
            raise
    if not_iterable:
        raise operator_type_error("argument of type '{}' is not iterable", container)
    while 1:
        element = next(elements, operator_missing)
        if element is operator_missing:
            return False
        if element is item:
            return True
        if compare_eq(element, item):
            return True


get_plans = operator_table()
get_plan = get_plans.get


def subscript_get(container, key):
    """``container[key]``: ``__getitem__`` of its type, else ``__class_getitem__`` of a class."""
    return get_plan(id(type(container)), subscript_get_full)(container, key)


def subscript_get_full(container, key):
    """``subscript_get`` without a plan for the container's type."""
    kind = type(container)
    method = special_lookup(kind, "__getitem__")
    if method is not operator_missing:
        if type(method) is operator_function_type:  # a class's def: called as it is, never planned
            return method(container, key)
        if type(method) is operator_wrapper_type and deque_wrapper(method):
            return method(container, sequence_key(key))
        fixed_method(get_plans, kind, method, "getitem")
        return special_call(method, container, key)
    if operator_is_subtype(type, kind):
        if container is type:
            return operator_generic_alias(container, key)
        method = getattr(container, "__class_getitem__", None)
        if method is not None:
            return method(key)
        raise TypeError(operator_str_format(
            "type '{}' is not subscriptable", operator_type_name(container, 200)))
    raise operator_type_error("'{}' object is not subscriptable", container)


def sequence_key(key):
    """The index of a sequence without mapping methods (``deque``)."""
    if has_index(key):
        return sequence_index(key)
    raise operator_type_error("sequence index must be integer, not '{}'", key)


set_plans = operator_table()
set_plan = set_plans.get


def subscript_set(container, key, value):
    """``container[key] = value``."""
    set_plan(id(type(container)), subscript_set_full)(container, key, value)


def subscript_set_full(container, key, value):
    """``subscript_set`` without a plan for the container's type."""
    kind = type(container)
    method = special_lookup(kind, "__setitem__")
    if method is not operator_missing:
        if type(method) is operator_function_type:  # a class's def: called as it is, never planned
            method(container, key, value)
            return
        if type(method) is operator_wrapper_type and deque_wrapper(method):
            method(container, sequence_key(key), value)
            return
        fixed_method(set_plans, kind, method, "setitem")
        special_call(method, container, key, value)
        return
    if special_lookup(kind, "__delitem__") is not operator_missing:
        raise AttributeError("__setitem__")
    if sequence_struct(kind):
        if has_index(key):
            sequence_index(key)
    raise operator_type_error("'{}' object does not support item assignment", container)


def subscript_delete(container, key):
    """``del container[key]``."""
    kind = type(container)
    method = special_lookup(kind, "__delitem__")
    if method is not operator_missing:
        if compare_is(type(method), operator_wrapper_type) and deque_wrapper(method):
            method(container, sequence_key(key))
            return
        special_call(method, container, key)
        return
    if compare_is_not(special_lookup(kind, "__setitem__"), operator_missing):
        raise AttributeError("__delitem__")
    if sequence_struct(kind):
        if has_index(key):
            sequence_index(key)
            raise operator_type_error("'{}' object doesn't support item deletion", container)
    raise operator_type_error("'{}' object does not support item deletion", container)
