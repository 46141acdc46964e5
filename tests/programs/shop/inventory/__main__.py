import sys

from . import describe
from .pricing import total

print("running", __name__, "spec", __spec__.name, "argv", sys.argv[1:])
print(*(describe(name) for name in sys.argv[1:]), sep="\n")
if total(sys.argv[1:]) > 6:
    raise SystemExit(3)
