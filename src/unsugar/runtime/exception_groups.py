"""``try``/``except*`` (PEP 654): matching clauses and combining what escapes.

A rewritten ``except*`` keeps its state in a list made by
:func:`except_star_begin`::

    [original, rest, raised, current, saved_context, saved_traceback]

``original`` is the exception caught, ``rest`` what no clause has matched
yet, ``raised`` what the handlers raised (or re-raised), ``current`` the
exception the rewritten code makes "being handled" next (CPython sets it
without raising it; the rewritten code raises it and then puts back the
``__context__`` and ``__traceback__`` that raising changed).
"""

except_star_handled = __import__("sys").exception
except_star_context_slot = BaseException.__context__
except_star_cause_slot = BaseException.__cause__
except_star_traceback_slot = BaseException.__traceback__
except_star_subtype = type.__subclasscheck__
#: 3.11 keeps the group a clause did not match at all as it was, where 3.12
#: goes on with the rest ``split`` made of it (a copy, ``__cause__`` set)
except_star_keeps_rest = __import__("sys").version_info < (3, 12)


def except_star_is_group(value):
    """An instance of ``BaseExceptionGroup`` (no ``__class__`` or hooks)."""
    return except_star_subtype(BaseExceptionGroup, type(value))


def except_star_is_class(value):
    """``PyExceptionClass_Check``: a class deriving from ``BaseException``."""
    return except_star_subtype(type, type(value)) and except_star_subtype(BaseException, value)


def except_star_begin():
    """The state for the exception being handled."""
    caught = except_star_handled()
    return [caught, caught, [], caught, None, None]


def except_star_current(state):
    """The exception to raise now, its context and traceback saved."""
    current = state[3]
    state[4] = except_star_context_slot.__get__(current)
    state[5] = except_star_traceback_slot.__get__(current)
    return current


def except_star_restore(state):
    """Undo what raising the current exception changed on it."""
    current = state[3]
    except_star_context_slot.__set__(current, state[4])
    except_star_traceback_slot.__set__(current, state[5])


def except_star_given_matches(value, kinds):
    """``PyErr_GivenExceptionMatches`` for checked ``kinds`` (no hooks)."""
    if except_star_subtype(tuple, type(kinds)):
        for kind in tuple.__iter__(kinds):
            if except_star_subtype(kind, type(value)):
                return True
        return False
    return except_star_subtype(kinds, type(value))


def except_star_check_kinds(kinds):
    """The TypeErrors of an ``except*`` clause's type, as CPython checks it."""
    kinds_list = [kinds]
    if except_star_subtype(tuple, type(kinds)):
        kinds_list = kinds
    for kind in kinds_list:
        if not except_star_is_class(kind):
            raise TypeError(
                "catching classes that do not inherit from BaseException is not allowed"
            )
    for kind in kinds_list:
        if issubclass(kind, BaseExceptionGroup):
            raise TypeError(
                "catching ExceptionGroup with except* is not allowed. Use except instead."
            )


def except_star_match(state, kinds):
    """The part of the rest that ``except* kinds`` handles, or ``None``.

    A whole match is the rest itself (a naked exception wrapped in an
    ``ExceptionGroup``); otherwise a group is ``split`` (and on 3.11 a group
    nothing of which matched stays the rest).
    """
    except_star_check_kinds(kinds)
    rest = state[1]
    if rest is None:
        return None
    if except_star_given_matches(rest, kinds):
        match = rest
        if not except_star_is_group(rest):
            match = BaseExceptionGroup("", (rest,))
        state[1] = None
    elif except_star_is_group(rest):
        match, unmatched = rest.split(kinds)
        if match is not None or not except_star_keeps_rest:
            state[1] = unmatched
    else:
        return None
    if match is not None:
        state[3] = match
    return match


def except_star_collect(state):
    """A handler raised: keep the exception being handled for the end."""
    state[2].append(except_star_handled())


def except_star_same_metadata(first, second):
    """CPython's ``is_same_exception_metadata``: the same traceback, cause and context."""
    return (
        except_star_traceback_slot.__get__(first) is except_star_traceback_slot.__get__(second)
        and except_star_cause_slot.__get__(first) is except_star_cause_slot.__get__(second)
        and except_star_context_slot.__get__(first) is except_star_context_slot.__get__(second)
    )


def except_star_leaf_ids(exc, ids):
    """Add the ids of the leaf exceptions of ``exc`` to the set ``ids``."""
    if except_star_is_group(exc):
        for inner in BaseExceptionGroup.exceptions.__get__(exc):
            except_star_leaf_ids(inner, ids)
    else:
        ids.add(id(exc))


def except_star_prepare(state):
    """Whether something escapes; if so it becomes the current exception.

    This is CPython's ``_PyExc_PrepReraiseStar``: what handlers re-raised is
    projected on the original group (its structure kept, via ``derive``);
    new exceptions and that projection are combined in a new group.
    """
    original = state[0]
    excs = state[2]
    excs.append(state[1])
    if not except_star_is_group(original):
        result = excs[0]
    else:
        raised = []
        ids = set()
        for exc in excs:
            if exc is not None:
                if except_star_same_metadata(exc, original):
                    except_star_leaf_ids(exc, ids)
                else:
                    raised.append(exc)
        if ids:
            reraised = BaseExceptionGroup.subgroup(original, lambda exc: id(exc) in ids)
        else:
            reraised = None
        if raised:
            if reraised is not None:
                raised.append(reraised)
            if len(raised) > 1:
                result = BaseExceptionGroup("", raised)
            else:
                result = raised[0]
        else:
            result = reraised
    if result is None:
        return False
    state[3] = result
    return True
