"""``--semantics=native``: the interpreter's own implementations of the operators.

With native semantics these definitions replace the helpers of the same
names (the python semantics' dispatch in ``runtime/operators.py``). Each is
the C function that CPython's own instruction calls (``BINARY_OP`` and
``_operator.add`` both call ``PyNumber_Add``), so the methods called, their
order and the messages are the interpreter's; a traceback just has no helper
frame for them. A helper whose arguments come in another order than the C
function's takes one small frame (``compare_in``, ``subscript_store``).
"""


def native_builtin(name):
    """The interpreter's module ``name`` (``_operator``). A program may block
    it (``sys.modules[name] = None``, as ``test.support.import_fresh_module``
    does to test the pure Python ``operator``): the operators the output calls
    are the interpreter's all the same, from a module made as the importer of
    builtin modules makes one, and not put in ``sys.modules``. (This runs
    before the helpers of operators and handlers exist: calls and truth tests
    only.)"""
    modules = __import__("sys").modules
    if dict.get(modules, name, modules):  # imported, or not yet: not blocked
        return __import__(name)
    importer = dict.__getitem__(modules, "_frozen_importlib").BuiltinImporter
    spec = importer.find_spec(name)
    if spec:
        module = importer.create_module(spec)
        importer.exec_module(module)
        return module
    return __import__(name)  # no builtin module of that name: the import's error


native_operator = native_builtin("_operator")

binary_add = native_operator.add
binary_sub = native_operator.sub
binary_mult = native_operator.mul
binary_matmult = native_operator.matmul
binary_div = native_operator.truediv
binary_floordiv = native_operator.floordiv
binary_mod = native_operator.mod
binary_pow = native_operator.pow
binary_lshift = native_operator.lshift
binary_rshift = native_operator.rshift
binary_bitor = native_operator.or_
binary_bitxor = native_operator.xor
binary_bitand = native_operator.and_
inplace_add = native_operator.iadd
inplace_sub = native_operator.isub
inplace_mult = native_operator.imul
inplace_matmult = native_operator.imatmul
inplace_div = native_operator.itruediv
inplace_floordiv = native_operator.ifloordiv
inplace_mod = native_operator.imod
inplace_pow = native_operator.ipow
inplace_lshift = native_operator.ilshift
inplace_rshift = native_operator.irshift
inplace_bitor = native_operator.ior
inplace_bitxor = native_operator.ixor
inplace_bitand = native_operator.iand
unary_neg = native_operator.neg
unary_pos = native_operator.pos
unary_invert = native_operator.invert
logical_not = native_operator.not_
compare_eq = native_operator.eq
compare_ne = native_operator.ne
compare_lt = native_operator.lt
compare_le = native_operator.le
compare_gt = native_operator.gt
compare_ge = native_operator.ge
compare_is = native_operator.is_
compare_is_not = native_operator.is_not
subscript_get = native_operator.getitem
subscript_set = native_operator.setitem
subscript_delete = native_operator.delitem
native_contains = native_operator.contains


def compare_in(item, container):
    """``item in container``: ``operator.contains(container, item)``."""
    return native_contains(container, item)


def compare_not_in(item, container):
    """``item not in container``."""
    return logical_not(native_contains(container, item))


def subscript_store(value, obj, key):
    """``obj[key] = value``, with the arguments in evaluation order."""
    subscript_set(obj, key, value)
