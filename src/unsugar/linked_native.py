"""The runtime as one namespace with native semantics (``--runtime=import
--semantics=native``): :mod:`unsugar.linked_runtime`'s names, then those of
``runtime/native.py`` over them."""

from importlib.util import find_spec as _find_spec

from unsugar import linked_runtime as _linked

globals().update({k: v for k, v in vars(_linked).items() if not k.startswith("__")})
_spec = _find_spec("unsugar.runtime.native")
exec(compile(_spec.loader.get_source(_spec.name), _spec.origin, "exec"), globals())
del _find_spec, _linked, _spec
