"""Imports: CPython's ``IMPORT_NAME``, ``IMPORT_FROM`` and ``IMPORT_STAR`` as functions.

``importer`` looks ``__import__`` up in the builtins of the frame that
imports, when it imports (so a replaced ``builtins.__import__`` is used); that
frame calls it with its globals and locals (``None`` in a function) as the
eval loop does. ``import_from`` is ``getattr`` with the ``sys.modules`` fallback
for circular imports and CPython's ``ImportError`` messages. ``import_star``
binds into the namespace of the module that imports.
"""

imports_sys = __import__("sys")
imports_module_type = type(imports_sys)
imports_missing = object()


def importer():
    """``__import__`` of the builtins of the frame that imports, looked up when it
    imports; that frame calls it, so no helper stands between the import and
    the module it runs."""
    function = dict.get(frame_of_caller(1).f_builtins, "__import__", imports_missing)  # noqa: F821  (runtime/names.py)
    if function is imports_missing:
        raise ImportError("__import__ not found")
    return function


def import_from(module, name):
    """``from module import name``: the attribute, else ``sys.modules["module.name"]``."""
    found = imports_missing
    try:
        found = getattr(module, name)
    except AttributeError:
        pass
    if found is not imports_missing:
        return found
    module_name = imports_missing
    try:
        module_name = module.__name__
    except AttributeError:
        pass
    if issubclass(type(module_name), str):
        full_name = str.__add__(str.__add__(module_name, "."), name)
        found = dict.get(imports_sys.modules, full_name, imports_missing)
        if found is not imports_missing:
            return found
    else:
        module_name = None
    raise import_from_error(module, name, module_name)


def import_from_error(module, name, module_name):
    """The ``ImportError`` of a failed ``from module import name``."""
    shown = "<unknown module name>" if module_name is None else module_name
    path = None
    if isinstance(module, imports_module_type):
        path = dict.get(operator_module_dict_of(module), "__file__")  # noqa: F821  (runtime/operators.py)
    if not issubclass(type(path), str):
        message = f"cannot import name {name!r} from {shown!r} (unknown location)"
        path = None
    elif module_initializing(module):
        message = (
            f"cannot import name {name!r} from partially initialized module {shown!r}"
            f" (most likely due to a circular import) ({str(path)})"
        )
    else:
        message = f"cannot import name {name!r} from {shown!r} ({str(path)})"
    if int.__lt__(imports_sys.version_info.minor, 12):
        return ImportError(message, name=module_name, path=path)
    return ImportError(message, name=module_name, path=path, name_from=name)


def module_initializing(module):
    """Whether ``module.__spec__._initializing`` is true (any error counts as false)."""
    try:
        return bool(module.__spec__._initializing)
    except Exception:
        return False


def import_star(module):
    """``from module import *``: the names of ``__all__``, else the public names of
    ``__dict__``, bound in the namespace of the calling module."""
    import_star_in(frame_of_caller(1).f_locals, module)  # noqa: F821  (runtime/names.py)


def import_star_in(namespace, module):
    """``import_star`` in a module run as a def over ``namespace``."""
    names = getattr(module, "__all__", imports_missing)
    public_only = names is imports_missing
    if public_only:
        names = getattr(module, "__dict__", imports_missing)
        if names is imports_missing:
            raise ImportError("from-import-* object has no __dict__ and no __all__")
        names = mapping_keys(names)
    position = 0
    while True:
        done = False
        try:
            name = sequence_item(names, position)
        except IndexError:
            done = True
        if done:
            break
        position = int.__add__(position, 1)
        if not issubclass(type(name), str):
            raise star_item_error(module, name, public_only)
        if public_only and str.startswith(name, "_"):
            continue
        namespace[name] = getattr(module, name)


def mapping_keys(mapping):
    """``PyMapping_Keys``: a dict's keys, else ``list(mapping.keys())``."""
    if type(mapping) is dict:
        return list(mapping)
    return list(mapping.keys())


def sequence_item(sequence, index):
    """``PySequence_GetItem``: item ``index`` through the sequence protocol."""
    kind = type(sequence)
    getitem = getattr(kind, "__getitem__", imports_missing)
    if getitem is imports_missing:
        raise TypeError(f"'{operator_type_name(kind, 200)}' object does not support indexing")  # noqa: F821  (in runtime/operators.py)
    if getitem is dict.__getitem__:
        raise TypeError(f"{operator_type_name(kind, 200)} is not a sequence")  # noqa: F821  (in runtime/operators.py)
    return getitem(sequence, index)


def star_item_error(module, name, public_only):
    """The ``TypeError`` for a name of ``__all__`` (or a key of ``__dict__``) that is no str."""
    module_name = module.__name__
    if not issubclass(type(module_name), str):
        return TypeError(f"module __name__ must be a string, not {operator_type_name(type(module_name), 100)}")  # noqa: F821  (in runtime/operators.py)
    place = "Key" if public_only else "Item"
    where = "__dict__" if public_only else "__all__"
    return TypeError(f"{place} in {module_name}.{where} must be str, not {operator_type_name(type(name), 100)}")  # noqa: F821  (in runtime/operators.py)
