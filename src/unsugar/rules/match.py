"""``match`` (PEP 634): the subject once, then each case's pattern and guard in order.

A pattern becomes flat steps that clear a flag ``ok`` when it fails; each
step after one that may fail runs under ``if ok:``, so the nesting does not
grow with the pattern. Captured values go to temporaries and are bound to
their names only once the whole pattern matched, just before the guard (as
CPython does: a failed case binds nothing). The protocol checks are the
helpers of :mod:`unsugar.runtime.matching`.
"""

from __future__ import annotations

from unsugar import builder as b
from unsugar import nodes as ast
from unsugar.lowering import Lowerer
from unsugar.registry import stmt_rule

#: Code that tests a part of a pattern, and whether it may clear ``ok``.
Step = tuple[list[ast.stmt], bool]


@stmt_rule(
    ast.Match,
    id="match",
    summary="match/case: the subject once, each case's pattern (helpers for the "
    "sequence, mapping and class protocols), names bound on success, then the guard",
    before="match p:\n    case [x] if x:\n        f(x)\n    case _:\n        g()",
    after="_us_subject_1 = p\n_us_hit_1 = 0\n_us_ok_1 = 1\n"
    "_us_items_1 = _us_match_sequence_items(_us_subject_1, 1, None)\n"
    "if _us_items_1 is None:\n    _us_ok_1 = 0\n"
    "if _us_ok_1:\n    _us_x_1 = _us_items_1[0]\n    x = _us_x_1\n"
    "    if x:\n        pass\n    else:\n        _us_ok_1 = 0\n"
    "if _us_ok_1:\n    _us_hit_1 = 1\n    f(x)\n"
    "if _us_hit_1:\n    pass\nelse:\n    _us_hit_1 = 1\n    g()",
    reference="compound_stmts.html#the-match-statement",
)
def lower_match(node: ast.Match, cx: Lowerer) -> list[ast.stmt]:
    """The cases after the first run only while no case has matched (``hit``)."""
    subject, hit, ok = cx.temp("subject"), cx.temp("hit"), cx.temp("ok")
    out: list[ast.stmt] = [b.assign(subject, node.subject), b.assign(hit, b.int_(0))]
    for index, case in enumerate(node.cases):
        stmts = _Case(cx, ok).lower(case, subject, hit, out)
        if index:
            stmts = [b.if_(b.load(hit), [ast.Pass()], stmts)]
        out.extend(b.located(stmts, case.pattern))  # tracebacks and tracing show the case
    return out


def _is_wildcard(pattern: ast.pattern) -> bool:
    return isinstance(pattern, ast.MatchAs) and pattern.pattern is None and pattern.name is None


def _is_star_wildcard(pattern: ast.pattern) -> bool:
    return isinstance(pattern, ast.MatchStar) and pattern.name is None


def _item(container: str, index: int) -> ast.Subscript:
    return ast.Subscript(value=b.load(container), slice=b.int_(index), ctx=ast.Load())


class _Case:
    """The code of one case; ``captures`` maps each name it binds to its temporary."""

    def __init__(self, cx: Lowerer, ok: str) -> None:
        self.cx, self.ok = cx, ok
        self.captures: dict[str, str] = {}

    def lower(self, case: ast.match_case, subject: str, hit: str, before: list[ast.stmt]) \
            -> list[ast.stmt]:
        """``ok = 1``, the steps, the bindings and the guard, then the body if
        ``ok``; the body starts by releasing the subject and what the patterns
        (this one and those ``before``) held, as CPython pops them."""
        steps = self.pattern(case.pattern, subject)
        binds = [b.assign(name, b.load(temp)) for name, temp in self.captures.items()]
        steps.append((binds, False))
        if case.guard is not None:
            steps.append(self.fail_unless(case.guard))
        held = self.cx.held_temporaries([*before, *(stmt for part, _ in steps for stmt in part)])
        success = [b.assign(hit, b.int_(1)), *self.cx.released(held), *case.body]
        if not any(fallible for _, fallible in steps):
            return [*self.sequence(steps), *success]
        return [b.assign(self.ok, b.int_(1)), *self.sequence(steps), b.if_(b.load(self.ok), success)]

    def sequence(self, steps: list[Step]) -> list[ast.stmt]:
        """Run ``steps`` in order; after one that may fail, only while ``ok``."""
        groups: list[list[ast.stmt]] = [[]]
        for stmts, fallible in steps:
            groups[-1].extend(stmts)
            if fallible:
                groups.append([])
        out = groups[0]
        out.extend(b.if_(b.load(self.ok), group) for group in groups[1:] if group)
        return out

    def fail_unless(self, test: ast.expr, *before: ast.stmt) -> Step:
        """``before``, then ``if test: pass`` / ``else: ok = 0`` (one truth test)."""
        return [*before, b.if_(test, [ast.Pass()], [b.assign(self.ok, b.int_(0))])], True

    def fail_if_none(self, name: str, value: ast.expr) -> Step:
        """``name = value``; no match when it is None (a helper's "no match")."""
        fail = b.if_(b.is_(b.load(name), self.cx.none()), [b.assign(self.ok, b.int_(0))])
        return [b.assign(name, value), fail], True

    def capture(self, name: str, value: ast.expr) -> Step:
        if name not in self.captures:
            self.captures[name] = self.cx.temp(name)
        return [b.assign(self.captures[name], value)], False

    def sub(self, pattern: ast.pattern, value: ast.expr) -> list[Step]:
        """``pattern`` against ``value`` (a fresh temporary unless it is a wildcard)."""
        if _is_wildcard(pattern):
            return []
        if isinstance(pattern, ast.MatchAs) and pattern.pattern is None:
            return [self.capture(pattern.name, value)]
        temp = self.cx.temp("item")
        return [([b.assign(temp, value)], False), *self.pattern(pattern, temp)]

    def pattern(self, pattern: ast.pattern, subject: str) -> list[Step]:
        """The steps that match ``pattern`` against the temporary ``subject``."""
        steps = getattr(self, "_" + type(pattern).__name__)(pattern, subject)
        for stmts, _ in steps:
            b.located(stmts, pattern)
        return steps

    def _MatchAs(self, pattern: ast.MatchAs, subject: str) -> list[Step]:
        steps = [] if pattern.pattern is None else self.pattern(pattern.pattern, subject)
        if pattern.name is not None:
            steps.append(self.capture(pattern.name, b.load(subject)))
        return steps

    def _MatchValue(self, pattern: ast.MatchValue, subject: str) -> list[Step]:
        test = ast.Compare(left=b.load(subject), ops=[ast.Eq()], comparators=[pattern.value])
        return [self.fail_unless(test)]

    def _MatchSingleton(self, pattern: ast.MatchSingleton, subject: str) -> list[Step]:
        return [self.fail_unless(b.is_(b.load(subject), ast.Constant(value=pattern.value)))]

    def _MatchOr(self, pattern: ast.MatchOr, subject: str) -> list[Step]:
        """The first alternative that matches wins (no backtracking into the others)."""
        first, *others = pattern.patterns
        stmts = self.sequence(self.pattern(first, subject))
        for alternative in others:
            retry = [b.assign(self.ok, b.int_(1)), *self.sequence(self.pattern(alternative, subject))]
            stmts.append(b.if_(b.load(self.ok), [ast.Pass()], retry))
        return [(stmts, True)]

    def _MatchSequence(self, pattern: ast.MatchSequence, subject: str) -> list[Step]:
        """As CPython: only wildcards, a length check; a ``*_`` star, items by
        index (from the end for those after it), each matched as it is taken;
        otherwise the subject is unpacked first."""
        patterns = pattern.patterns
        size = len(patterns)
        star = next((i for i, p in enumerate(patterns) if isinstance(p, ast.MatchStar)), -1)
        cx = self.cx
        if all(_is_wildcard(p) or _is_star_wildcard(p) for p in patterns):
            exact = star < 0
            check = b.call(cx.rt("match_sequence"), b.load(subject),
                           b.int_(size if exact else size - 1), b.int_(exact))
            return [self.fail_unless(check)]
        steps: list[Step] = []
        if star >= 0 and _is_star_wildcard(patterns[star]):
            check = b.call(cx.rt("match_sequence"), b.load(subject), b.int_(size - 1), b.int_(0))
            steps.append(self.fail_unless(check))
            for i, sub in enumerate(patterns):
                if i == star or _is_wildcard(sub):
                    continue
                if i < star:
                    value: ast.expr = _item(subject, i)
                else:
                    value = b.call(cx.rt("match_item_from_end"), b.load(subject), b.int_(size - i))
                steps.extend(self.sub(sub, value))
            return steps
        items = cx.temp("items")
        where = b.int_(star) if star >= 0 else cx.none()
        take = b.call(cx.rt("match_sequence_items"), b.load(subject), b.int_(size), where)
        steps.append(self.fail_if_none(items, take))
        for i, sub in enumerate(patterns):
            if isinstance(sub, ast.MatchStar):
                if sub.name is not None:
                    steps.append(self.capture(sub.name, _item(items, i)))
            else:
                steps.extend(self.sub(sub, _item(items, i)))
        return steps

    def _MatchMapping(self, pattern: ast.MatchMapping, subject: str) -> list[Step]:
        """Length check, keys evaluated, ``get`` for each, sub-patterns, then ``**rest``."""
        cx = self.cx
        size = len(pattern.keys)
        check = b.call(cx.rt("match_mapping"), b.load(subject), b.int_(size))
        steps = [self.fail_unless(check)]
        if not size and pattern.rest is None:
            return steps
        keys, values = cx.temp("keys"), cx.temp("values")
        steps.append(([b.assign(keys, ast.Tuple(elts=list(pattern.keys), ctx=ast.Load()))], False))
        steps.append(self.fail_if_none(
            values, b.call(cx.rt("match_mapping_values"), b.load(subject), b.load(keys))
        ))
        for i, sub in enumerate(pattern.patterns):
            steps.extend(self.sub(sub, _item(values, i)))
        if pattern.rest is not None:
            rest = b.call(cx.rt("match_mapping_rest"), b.load(subject), b.load(keys))
            steps.append(self.capture(pattern.rest, rest))
        return steps

    def _MatchClass(self, pattern: ast.MatchClass, subject: str) -> list[Step]:
        """``match_class`` checks the class and gets every attribute first."""
        cx = self.cx
        attrs = cx.temp("attrs")
        names = ast.Tuple(elts=[ast.Constant(value=n) for n in pattern.kwd_attrs], ctx=ast.Load())
        get = b.call(cx.rt("match_class"), b.load(subject), pattern.cls,
                     b.int_(len(pattern.patterns)), names)
        steps = [self.fail_if_none(attrs, get)]
        for i, sub in enumerate([*pattern.patterns, *pattern.kwd_patterns]):
            steps.extend(self.sub(sub, _item(attrs, i)))
        return steps
