import sys
import textwrap

import inventory.items

print(type(textwrap.__loader__).__name__, type(inventory.items.__loader__).__name__)
print(textwrap.fill("the quick brown fox jumps over the lazy dog", width=int(sys.argv[1])))
print(textwrap.shorten("one two three four", 12))
