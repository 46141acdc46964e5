"""The runtime as one namespace with native semantics (``--runtime=import
--semantics=native``): :mod:`unsugar.linked_runtime`'s names, then those of
``runtime/native.py`` over them."""

from unsugar import linked_runtime as _linked
from unsugar.runtime import compiled as _compiled

globals().update({k: v for k, v in vars(_linked).items() if not k.startswith("__")})
exec(_compiled("native"), globals())
del _compiled, _linked
