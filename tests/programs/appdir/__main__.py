"""A program that is a directory: ``python appdir ARGS``."""

import os
import sys

import helper

print("argv", sys.argv[1:], "name", __name__, "spec", __spec__.name)
print(helper.shout(sys.argv[1:]))
if os.environ.get("SHOW_LOADERS"):
    print(type(__loader__).__name__, type(helper.__loader__).__name__)
if len(sys.argv) > 3:
    raise SystemExit(len(sys.argv))
