"""Operators, comparisons and subscription, dispatched as CPython does.

Special methods are looked up on the type, through the ``__dict__`` of each
class of its MRO (never on the instance, never through the metaclass), and
bound as CPython binds them. ``NotImplemented`` passes the turn to the other
operand. Error messages are CPython's, with the C-level type names it uses
(``'decimal.Decimal'``).

No operator syntax here: its rewriting calls these very helpers. Identity is
``int.__eq__(id(a), id(b))`` and arithmetic on ints calls ``int`` methods.

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
operator_type_namespace = type.__dict__
operator_proxy_get = type(operator_type_namespace).get
operator_mro_of = operator_proxy_get(operator_type_namespace, "__mro__").__get__
operator_dict_of = operator_proxy_get(operator_type_namespace, "__dict__").__get__
operator_flags_of = operator_proxy_get(operator_type_namespace, "__flags__").__get__
operator_is_subtype = type.__subclasscheck__
operator_wrapper_type = type(int.__add__)
operator_method_type = type(str.join)
operator_none_type = type(None)
operator_none_new = operator_none_type.__new__
operator_generic_alias = type(list.__class_getitem__(int))
operator_sys = __import__("sys")
operator_current_exception = operator_sys.exception
operator_max_index = operator_sys.maxsize
operator_min_index = int.__invert__(operator_max_index)
operator_range_stop = operator_proxy_get(operator_dict_of(range), "stop").__get__
operator_objclass_of = operator_proxy_get(operator_dict_of(operator_wrapper_type), "__objclass__").__get__
operator_module_of = operator_proxy_get(operator_type_namespace, "__module__").__get__
operator_qualname_of = operator_proxy_get(operator_type_namespace, "__qualname__").__get__


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


operator_function_type = type(compare_is)


def special_lookup(kind, name):
    """The attribute ``name`` of class ``kind``, from the dicts of its MRO (``_PyType_Lookup``)."""
    classes = iter(operator_mro_of(kind))
    while 1:
        klass = next(classes, operator_missing)
        if compare_is(klass, operator_missing):
            return operator_missing
        value = operator_proxy_get(operator_dict_of(klass), name, operator_missing)
        if compare_is_not(value, operator_missing):
            return value


def special_call(method, obj, *args):
    """Call a special method found on ``type(obj)``: functions and method descriptors
    get ``obj`` first, other descriptors are bound with ``__get__``, anything else
    is called as it is."""
    kind = type(method)
    if compare_is(kind, operator_function_type):
        return method(obj, *args)
    if compare_is(kind, operator_wrapper_type):
        return method(obj, *args)
    if compare_is(kind, operator_method_type):
        return method(obj, *args)
    getter = special_lookup(kind, "__get__")
    if compare_is(getter, operator_missing):
        return method(*args)
    return special_call(getter, method, obj, type(obj))(*args)


def special_call_maybe(obj, name, other):
    """``type(obj).name(obj, other)``, or ``NotImplemented`` when there is no such method."""
    method = special_lookup(type(obj), name)
    if compare_is(method, operator_missing):
        return NotImplemented
    return special_call(method, obj, other)


def compare_call_maybe(obj, name, other):
    """``special_call_maybe`` for a rich comparison: an error while binding the method
    (a descriptor's ``__get__``) is dropped and gives ``NotImplemented``, as CPython's
    ``slot_tp_richcompare`` does."""
    method = special_lookup(type(obj), name)
    if compare_is(method, operator_missing):
        return NotImplemented
    kind = type(method)
    if compare_is(kind, operator_function_type):
        return method(obj, other)
    if compare_is(kind, operator_wrapper_type):
        return method(obj, other)
    if compare_is(kind, operator_method_type):
        return method(obj, other)
    getter = special_lookup(kind, "__get__")
    if compare_is(getter, operator_missing):
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
    if compare_is(kind, operator_none_type):
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
    if compare_is(reflected, operator_missing):
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
    it is, or ``operator_generic`` (a Python-level method)."""
    method = special_lookup(kind, name)
    if compare_is(method, operator_missing):
        return operator_missing
    if compare_is(type(method), operator_wrapper_type):
        if operator_str_eq(method.__name__, name):
            if sequence_wrapper(method):
                return operator_missing
            return method.__objclass__
    return operator_generic


def number_slot(kind, name, reflected):
    """The binary number slot of ``kind`` as CPython fills it from ``name`` and
    ``reflected``: ``operator_missing``, a C type, or ``operator_generic``."""
    forward = slot_part(kind, name)
    backward = slot_part(kind, reflected)
    if compare_is(forward, operator_generic):
        return forward
    if compare_is(backward, operator_generic):
        return backward
    if compare_is(forward, operator_missing):
        return backward
    return forward


def inplace_slot(kind, name):
    """The in-place number slot of ``kind``: ``operator_missing``, a C wrapper to call,
    or ``operator_generic``. A class deriving from ``list`` gets ``list.__iadd__``
    here (its signature fits the slot), ``list`` itself does not."""
    method = special_lookup(kind, name)
    if compare_is(method, operator_missing):
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
    if compare_is(right, operator_missing):
        return False
    left = getattr(left_type, name, operator_missing)
    if compare_is(left, operator_missing):
        return True
    if compare_is(left, right):
        return False
    return bool(compare_ne(left, right))


def generic_binary(left, right, name, reflected):
    """The slot of a class with Python-level methods (CPython's ``SLOT1BINFULL``)."""
    left_type = type(left)
    right_type = type(right)
    do_other = False
    if compare_is_not(left_type, right_type):
        do_other = compare_is(number_slot(right_type, name, reflected), operator_generic)
    if compare_is(number_slot(left_type, name, reflected), operator_generic):
        if do_other:
            if operator_is_subtype(left_type, right_type):
                if operator_overloaded(left_type, right_type, reflected):
                    result = special_call_maybe(right, reflected, left)
                    if compare_is_not(result, NotImplemented):
                        return result
                    do_other = False
        result = special_call_maybe(left, name, right)
        if compare_is_not(result, NotImplemented):
            return result
        if compare_is(left_type, right_type):
            return result
    if do_other:
        return special_call_maybe(right, reflected, left)
    return NotImplemented


def slot_call(slot, left, right, name, reflected):
    """Call number slot ``slot`` on ``(left, right)``; a C slot through its wrapper."""
    if compare_is(slot, operator_generic):
        return generic_binary(left, right, name, reflected)
    if operator_is_subtype(slot, type(left)):
        return operator_proxy_get(operator_dict_of(slot), name)(left, right)
    return operator_proxy_get(operator_dict_of(slot), reflected)(right, left)


def binary_dispatch(left, right, name, reflected):
    """CPython's ``binary_op1``: the left operand's slot, then the right one's (first
    when its type is a proper subclass of the left's); a slot shared by both types
    runs once. ``NotImplemented`` if none answers."""
    left_type = type(left)
    right_type = type(right)
    left_slot = number_slot(left_type, name, reflected)
    right_slot = operator_missing
    if compare_is_not(left_type, right_type):
        right_slot = number_slot(right_type, name, reflected)
        if compare_is(right_slot, left_slot):
            right_slot = operator_missing
    if compare_is_not(left_slot, operator_missing):
        if compare_is_not(right_slot, operator_missing):
            if operator_is_subtype(left_type, right_type):
                result = slot_call(right_slot, left, right, name, reflected)
                if compare_is_not(result, NotImplemented):
                    return result
                right_slot = operator_missing
        result = slot_call(left_slot, left, right, name, reflected)
        if compare_is_not(result, NotImplemented):
            return result
    if compare_is_not(right_slot, operator_missing):
        return slot_call(right_slot, left, right, name, reflected)
    return NotImplemented


def inplace_dispatch(left, right, name, binary, reflected):
    """CPython's ``binary_iop1``: the in-place slot, then the binary operator's."""
    slot = inplace_slot(type(left), name)
    if compare_is_not(slot, operator_missing):
        if compare_is(slot, operator_generic):
            result = special_call(special_lookup(type(left), name), left, right)
        else:
            result = slot(left, right)
        if compare_is_not(result, NotImplemented):
            return result
    return binary_dispatch(left, right, binary, reflected)


def binary_error(symbol, left, right):
    """``unsupported operand type(s) for +: 'int' and 'str'``."""
    return TypeError(operator_str_format(
        "unsupported operand type(s) for {}: '{}' and '{}'",
        symbol, operator_name_of(left, 100), operator_name_of(right, 100),
    ))


def binary_operator(left, right, name, reflected, symbol):
    """A binary operator without sequence behaviour."""
    result = binary_dispatch(left, right, name, reflected)
    if compare_is(result, NotImplemented):
        raise binary_error(symbol, left, right)
    return result


def inplace_operator(left, right, name, binary, reflected, symbol):
    """An augmented assignment's operator without sequence behaviour."""
    result = inplace_dispatch(left, right, name, binary, reflected)
    if compare_is(result, NotImplemented):
        raise binary_error(symbol, left, right)
    return result


def sequence_repeat(method, sequence, count):
    """``sequence * count`` with a built-in sequence's repeat slot."""
    if has_index(count):
        return method(sequence, count)
    raise operator_type_error("can't multiply sequence by non-int of type '{}'", count)


def binary_add(left, right):
    """``left + right``; then the left operand's sequence concatenation."""
    result = binary_dispatch(left, right, "__add__", "__radd__")
    if compare_is_not(result, NotImplemented):
        return result
    method = sequence_slot(type(left), "__add__")
    if compare_is_not(method, operator_missing):
        return method(left, right)
    raise binary_error("+", left, right)


def binary_sub(left, right):
    """``left - right``."""
    return binary_operator(left, right, "__sub__", "__rsub__", "-")


def binary_mult(left, right):
    """``left * right``; then a sequence's repetition (left operand, else right)."""
    result = binary_dispatch(left, right, "__mul__", "__rmul__")
    if compare_is_not(result, NotImplemented):
        return result
    method = sequence_repeat_slot(type(left))
    if compare_is_not(method, operator_missing):
        return sequence_repeat(method, left, right)
    method = sequence_repeat_slot(type(right))
    if compare_is_not(method, operator_missing):
        return sequence_repeat(method, right, left)
    raise binary_error("*", left, right)


def binary_matmult(left, right):
    """``left @ right``."""
    return binary_operator(left, right, "__matmul__", "__rmatmul__", "@")


def binary_div(left, right):
    """``left / right``."""
    return binary_operator(left, right, "__truediv__", "__rtruediv__", "/")


def binary_floordiv(left, right):
    """``left // right``."""
    return binary_operator(left, right, "__floordiv__", "__rfloordiv__", "//")


def binary_mod(left, right):
    """``left % right``."""
    return binary_operator(left, right, "__mod__", "__rmod__", "%")


def binary_pow(left, right):
    """``left ** right``."""
    return binary_operator(left, right, "__pow__", "__rpow__", "** or pow()")


def binary_lshift(left, right):
    """``left << right``."""
    return binary_operator(left, right, "__lshift__", "__rlshift__", "<<")


def binary_rshift(left, right):
    """``left >> right``."""
    return binary_operator(left, right, "__rshift__", "__rrshift__", ">>")


def binary_bitor(left, right):
    """``left | right``."""
    return binary_operator(left, right, "__or__", "__ror__", "|")


def binary_bitxor(left, right):
    """``left ^ right``."""
    return binary_operator(left, right, "__xor__", "__rxor__", "^")


def binary_bitand(left, right):
    """``left & right``."""
    return binary_operator(left, right, "__and__", "__rand__", "&")


def inplace_add(left, right):
    """``left += right``: ``__iadd__``, ``+``, then the left operand's in-place
    concatenation, else its concatenation (``list += iterable``)."""
    result = inplace_dispatch(left, right, "__iadd__", "__add__", "__radd__")
    if compare_is_not(result, NotImplemented):
        return result
    method = sequence_slot(type(left), "__iadd__")
    if compare_is(method, operator_missing):
        method = sequence_slot(type(left), "__add__")
    if compare_is_not(method, operator_missing):
        return method(left, right)
    raise binary_error("+=", left, right)


def inplace_sub(left, right):
    """``left -= right``."""
    return inplace_operator(left, right, "__isub__", "__sub__", "__rsub__", "-=")


def inplace_mult(left, right):
    """``left *= right``: ``__imul__``, ``*``, then a sequence's repetition; the right
    operand repeats only when the left one has no sequence methods at all."""
    result = inplace_dispatch(left, right, "__imul__", "__mul__", "__rmul__")
    if compare_is_not(result, NotImplemented):
        return result
    if sequence_struct(type(left)):
        method = sequence_slot(type(left), "__imul__")
        if compare_is(method, operator_missing):
            method = sequence_repeat_slot(type(left))
        if compare_is_not(method, operator_missing):
            return sequence_repeat(method, left, right)
    else:
        method = sequence_repeat_slot(type(right))
        if compare_is_not(method, operator_missing):
            return sequence_repeat(method, right, left)
    raise binary_error("*=", left, right)


def inplace_matmult(left, right):
    """``left @= right``."""
    return inplace_operator(left, right, "__imatmul__", "__matmul__", "__rmatmul__", "@=")


def inplace_div(left, right):
    """``left /= right``."""
    return inplace_operator(left, right, "__itruediv__", "__truediv__", "__rtruediv__", "/=")


def inplace_floordiv(left, right):
    """``left //= right``."""
    return inplace_operator(left, right, "__ifloordiv__", "__floordiv__", "__rfloordiv__", "//=")


def inplace_mod(left, right):
    """``left %= right``."""
    return inplace_operator(left, right, "__imod__", "__mod__", "__rmod__", "%=")


def inplace_pow(left, right):
    """``left **= right``."""
    return inplace_operator(left, right, "__ipow__", "__pow__", "__rpow__", "**=")


def inplace_lshift(left, right):
    """``left <<= right``."""
    return inplace_operator(left, right, "__ilshift__", "__lshift__", "__rlshift__", "<<=")


def inplace_rshift(left, right):
    """``left >>= right``."""
    return inplace_operator(left, right, "__irshift__", "__rshift__", "__rrshift__", ">>=")


def inplace_bitor(left, right):
    """``left |= right``."""
    return inplace_operator(left, right, "__ior__", "__or__", "__ror__", "|=")


def inplace_bitxor(left, right):
    """``left ^= right``."""
    return inplace_operator(left, right, "__ixor__", "__xor__", "__rxor__", "^=")


def inplace_bitand(left, right):
    """``left &= right``."""
    return inplace_operator(left, right, "__iand__", "__and__", "__rand__", "&=")


def unary_operator(operand, name, symbol):
    """``type(operand).name(operand)``, or ``bad operand type for unary -: 'str'``."""
    method = special_lookup(type(operand), name)
    if compare_is(method, operator_missing):
        raise operator_type_error(operator_str_format("bad operand type for unary {}: '{{}}'", symbol), operand)
    return special_call(method, operand)


def unary_neg(operand):
    """``-operand``."""
    return unary_operator(operand, "__neg__", "-")


def unary_pos(operand):
    """``+operand``."""
    return unary_operator(operand, "__pos__", "+")


def unary_invert(operand):
    """``~operand``."""
    return unary_operator(operand, "__invert__", "~")


def rich_compare(left, right, name, swapped):
    """``left.__op__(right)``, then ``right.__swapped__(left)``; the right operand goes
    first when its type is a proper subclass of the left's. ``NotImplemented`` if none
    answers."""
    left_type = type(left)
    right_type = type(right)
    reflected_first = False
    if compare_is_not(left_type, right_type):
        if operator_is_subtype(left_type, right_type):
            reflected_first = True
            result = compare_call_maybe(right, swapped, left)
            if compare_is_not(result, NotImplemented):
                return result
    result = compare_call_maybe(left, name, right)
    if compare_is_not(result, NotImplemented):
        return result
    if reflected_first:
        return NotImplemented
    return compare_call_maybe(right, swapped, left)


def compare_order(left, right, name, swapped, symbol):
    """``<``, ``<=``, ``>``, ``>=``: no fallback."""
    result = rich_compare(left, right, name, swapped)
    if compare_is(result, NotImplemented):
        raise TypeError(operator_str_format(
            "'{}' not supported between instances of '{}' and '{}'",
            symbol, operator_name_of(left, 100), operator_name_of(right, 100),
        ))
    return result


def compare_eq(left, right):
    """``left == right``; identity when neither side knows."""
    result = rich_compare(left, right, "__eq__", "__eq__")
    if compare_is(result, NotImplemented):
        return compare_is(left, right)
    return result


def compare_ne(left, right):
    """``left != right``; non-identity when neither side knows."""
    result = rich_compare(left, right, "__ne__", "__ne__")
    if compare_is(result, NotImplemented):
        return compare_is_not(left, right)
    return result


def compare_lt(left, right):
    """``left < right``."""
    return compare_order(left, right, "__lt__", "__gt__", "<")


def compare_le(left, right):
    """``left <= right``."""
    return compare_order(left, right, "__le__", "__ge__", "<=")


def compare_gt(left, right):
    """``left > right``."""
    return compare_order(left, right, "__gt__", "__lt__", ">")


def compare_ge(left, right):
    """``left >= right``."""
    return compare_order(left, right, "__ge__", "__le__", ">=")


def compare_in(item, container):
    """``item in container``: ``__contains__``, else iteration (``iter()`` also knows
    the old ``__getitem__`` protocol); the result is a real ``bool``."""
    method = special_lookup(type(container), "__contains__")
    if compare_is(method, None):
        raise operator_type_error("'{}' object is not a container", container)
    if compare_is_not(method, operator_missing):
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
        if compare_is(element, operator_missing):
            return False
        if compare_is(element, item):
            return True
        if compare_eq(element, item):
            return True


def subscript_get(container, key):
    """``container[key]``: ``__getitem__`` of its type, else ``__class_getitem__`` of a class."""
    kind = type(container)
    method = special_lookup(kind, "__getitem__")
    if compare_is_not(method, operator_missing):
        if compare_is(type(method), operator_wrapper_type) and deque_wrapper(method):
            return method(container, sequence_key(key))
        return special_call(method, container, key)
    if operator_is_subtype(type, kind):
        if compare_is(container, type):
            return operator_generic_alias(container, key)
        method = getattr(container, "__class_getitem__", None)
        if compare_is_not(method, None):
            return method(key)
        raise TypeError(operator_str_format(
            "type '{}' is not subscriptable", operator_type_name(container, 200)))
    raise operator_type_error("'{}' object is not subscriptable", container)


def sequence_key(key):
    """The index of a sequence without mapping methods (``deque``)."""
    if has_index(key):
        return sequence_index(key)
    raise operator_type_error("sequence index must be integer, not '{}'", key)


def subscript_set(container, key, value):
    """``container[key] = value``."""
    kind = type(container)
    method = special_lookup(kind, "__setitem__")
    if compare_is_not(method, operator_missing):
        if compare_is(type(method), operator_wrapper_type) and deque_wrapper(method):
            method(container, sequence_key(key), value)
            return
        special_call(method, container, key, value)
        return
    if compare_is_not(special_lookup(kind, "__delitem__"), operator_missing):
        raise AttributeError("__setitem__")
    if sequence_struct(kind):
        if has_index(key):
            sequence_index(key)
    raise operator_type_error("'{}' object does not support item assignment", container)


def subscript_delete(container, key):
    """``del container[key]``."""
    kind = type(container)
    method = special_lookup(kind, "__delitem__")
    if compare_is_not(method, operator_missing):
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
