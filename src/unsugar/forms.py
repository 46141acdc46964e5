"""Statement forms that the lowering phase hands to the control-flow phase.

A ``for`` or a ``with`` expanded in phase 1 into generic ``try``/``while``/``if``
statements costs more nested blocks than CPython's, and phase 2 could no
longer tell the loop's step or the manager's exit from user code. So their
rules emit these small forms instead; phase 2 (:mod:`unsugar.control`) makes
each one exactly one block: a ``for`` one ``while``, a ``with`` one ``try``.
"""

from __future__ import annotations

import sys

from unsugar import nodes as ast

#: From 3.13 CPython reports getting and stepping a loop's iterator
#: (``GET_ITER``, ``FOR_ITER``) at the iterable (a traceback points there), a
#: ``for`` statement's before at the whole loop, a comprehension's at the whole
#: comprehension.
AT_ITERABLE = sys.version_info >= (3, 13)


class ForLoop(ast.stmt):
    """``for``, its ``iter()`` already called into ``iterator``::

        item = next(iterator, END); more = item is not END
        while more:
            BODY                    (starts by binding the target from ``item``)
            item = next(iterator, END); more = item is not END
        ELSE                        (unless the loop broke)

    The ``next()`` calls stand at ``step_at``, if the rule set it (from 3.13
    CPython places ``FOR_ITER`` at the iterable), else at the loop.
    """

    _fields = ("iterator", "item", "body", "orelse")


class WithBlock(ast.stmt):
    """The protected part of a ``with``, its manager already entered::

        try: BODY
        except: exit(*exception) suppresses it or it is raised again
        exit(None, None, None)      (every other way out of BODY)

    Once lowered, ``unwound`` holds the statements that drop what BODY's
    expressions held, which the handler runs before ``exit``.
    """

    _fields = ("exit", "enter", "body")


#: Set on the ``while`` an ``async for`` becomes: the variable that holds its
#: asynchronous iterator, which phase 2 drops as it drops a ``ForLoop``'s
#: iterator (a ``return`` from inside the loop, a handler its exception
#: reaches), as CPython pops it.
LOOP_ITERATOR = "unsugar_loop_iterator"
