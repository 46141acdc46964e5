"""A small program: a package, relative imports, arguments, a main guard."""

import sys

from inventory import catalogue, describe
from inventory.pricing import total


def order(names):
    lines = []
    for name in names:
        lines.append(describe(name))
    for line in lines:
        print(line)
    print("total:", total(names))
    return len(lines)


if __name__ == "__main__":
    print("argv:", sys.argv[1:], "spec:", __spec__, "file:", __file__.endswith("main.py"))
    print("path0:", sys.path[0].endswith("shop"), "package:", __package__)
    print("catalogue:", sorted(catalogue()))
    count = order(sys.argv[1:])
    print("ordered", count, "items")
