"""The lowering's own machinery: what it may leave as a rule made it."""

from __future__ import annotations

import ast
import contextlib
import copy
import inspect

import pytest

from unsugar import desugar, lowering
from unsugar.lowering import Lowerer, made_core

PREFIX = "_us_"


@pytest.mark.parametrize("source", [
    "_us_item_1 = _us_next(_us_iter_1, _us_loop_end)",
    "_us_flag_1 = 0",
    "_us_list_append(_us_result_1, _us_t_1)",
    "_us_t_1 = _us_text_of(0x6869, 2)",
    "_us_t_1 = _us_f(_us_g(_us_h(1)))",
])
def test_made_core_statements(source: str) -> None:
    assert made_core(ast.parse(source).body[0], PREFIX)


@pytest.mark.parametrize("source", [
    "_us_t_1 = _us_getattr(x, _us_s_y)",      # a name of the user's
    "x = _us_next(_us_iter_1)",               # stored in a name of the user's
    "_us_t_1 = _us_f(*_us_args_1)",           # a starred argument
    "_us_t_1 = _us_f(key=_us_v_1)",           # a keyword
    "_us_t_1 = _us_f(1.5)",                   # a float constant
    "_us_t_1 = _us_f(True)",                  # a bool: True, not an int
    "_us_t_1 = _us_f('text')",                # a str constant
    "_us_t_1 = _us_a.b",                      # an attribute
    "_us_t_1 = _us_u_1 = 0",                  # two targets
    "_us_t_1 += 1",                           # not an assignment
    "if _us_t_1: _us_f()",                    # a compound statement
])
def test_statements_not_made_core(source: str) -> None:
    assert not made_core(ast.parse(source).body[0], PREFIX)


#: programs whose rules make statements in module, class and function
#: bodies, comprehensions, loops, ``with``, ``try``, ``match`` and a class's
#: private names
PROGRAMS = """
import contextlib
class Base:
    __slots__ = ()
class C(Base):
    __private = [x for x in range(3) if x]
    for __i in range(2):
        total = __i
    def m(self, items, *rest):
        with contextlib.suppress(KeyError) as s, open(__file__) as f:
            for a, (b, *c) in items:
                try:
                    self.__x = {k: v for k, v in zip(a, b)}
                except (KeyError, TypeError) as e:
                    del e
                finally:
                    yield from rest
        match items:
            case [C(), *others] if others: return others
            case {"k": v, **kw}: return v, kw
        return f"{self!r:>{len(items)}}", lambda q=1: q + self.__x
for item in [1, 2]:
    del item
"""


def test_a_statement_made_core_lowers_to_itself(monkeypatch: pytest.MonkeyPatch) -> None:
    """What ``rule_block`` takes as it is, lowering would have given back
    unchanged: each such statement is lowered too, and compared."""
    rule_block = Lowerer.rule_block
    seen: list[str] = []
    changed: list[tuple[str, list[str]]] = []

    def checked(self: Lowerer, stmts: list[ast.stmt]) -> list[ast.stmt]:
        for stmt in stmts:
            if made_core(stmt, self.unit.names.prefix):
                text = ast.dump(stmt)
                again = [ast.dump(out) for out in self.stmt(copy.deepcopy(stmt))]
                seen.append(text)
                if again != [text]:
                    changed.append((text, again))
        return rule_block(self, stmts)

    monkeypatch.setattr(Lowerer, "rule_block", checked)
    sources = [PROGRAMS, inspect.getsource(contextlib), inspect.getsource(ast)]
    for source in sources:
        for semantics in ("python", "native"):
            desugar(source, semantics=semantics)
    assert len(seen) > 500
    assert changed == []



def test_name_rules_apply_to_marked_names_alone() -> None:
    """A name with none of the name rules' marks is lowered without asking
    them (``Lowerer.expr``): each name rule says its mark, and applies to no
    name without it."""
    from unsugar.lowering import _name_marks, _rule_tables
    from unsugar.trees import GLOBAL_MARK, UNBOUND_MARK

    rules = _rule_tables(frozenset())[0][ast.Name]
    assert sorted(_name_marks(frozenset())) == sorted([UNBOUND_MARK, GLOBAL_MARK])
    for rule in rules:
        for ctx in (ast.Load(), ast.Store(), ast.Del()):
            assert not rule.applies(ast.Name("x", ctx))
        marked = ast.Name("x", ast.Load())
        setattr(marked, rule.marked, "local")
        assert rule.applies(marked)
    assert _name_marks(frozenset({"del-name-read"})) == (GLOBAL_MARK,)


#: nodes of each type whose rules select keys (``registry.SELECTORS``), of every key
SELECTED = """
x = 1; y = 'a'; z = b'b'; w = 1.5; v = 2j; u = True; t = None; s = ...
a.b = 1; a[0] = 1; a, b = 1, 2; [a, b] = 1, 2; a = b = 1; f.__code__ = g; (a) = 1
x + y; x - y; x * y; x @ y; x / y; x // y; x % y; x ** y; x << y; x >> y; x | y; x ^ y; x & y
-x; +x; ~x; not x; -1; +1.5; ~True; -(-2j)
x < y; x <= y; x > y; x >= y; x == y; x != y; x is y; x is not y; x in y; x not in y; x < y < z
f(); m.f(); f()(); locals(); vars(); dir(); m.locals(); exec(c); exec(*c); m.exec(c)
warn(); w.warn(); _warn(); w._warn(); FunctionType(c, g); types.FunctionType(c, g); LambdaType(c, g)
"""


def test_a_rule_that_selects_keys_selects_every_node_it_applies_to() -> None:
    """A rule that selects keys (``Rule.selects``) is asked only about the
    nodes with one of them: every node of its types that it applies to, in
    :data:`SELECTED` and in every rule's example, has one; and each such
    rule applies to some node there."""
    from unsugar.registry import SELECTORS, load_all

    rules = load_all().values()
    selecting = [rule for rule in rules if rule.selects is not None]
    assert len(selecting) >= 40
    nodes = [*ast.walk(ast.parse(SELECTED))]
    for rule in rules:
        with contextlib.suppress(SyntaxError):
            nodes += ast.walk(ast.parse(rule.before))
    applied = set()
    for node in nodes:
        select = SELECTORS.get(type(node))
        for rule in selecting:
            if type(node) in rule.nodes and rule.applies(node):
                assert select is not None and select(node) in rule.selects, (rule.id, ast.dump(node))
                applied.add(rule.id)
    assert applied == {rule.id for rule in selecting}


def test_a_rule_made_of_its_keys_applies_to_exactly_the_nodes_of_its_keys() -> None:
    """A rule that gives ``selects`` and no ``applies`` (``Rule.by_key``): the
    dispatch asks it nothing once it is selected, so its ``applies`` (what the
    checker asks) must hold for every node of its keys and for no other."""
    from unsugar.registry import SELECTORS, load_all

    by_key = [rule for rule in load_all().values() if rule.by_key]
    assert {"str-literal", "none", "add", "not", "eq", "compare-chain", "chained-assign",
            "unpack"} <= {rule.id for rule in by_key}
    assert all(rule.selects is not None for rule in by_key)
    nodes = [*ast.walk(ast.parse(SELECTED))]
    for rule in by_key:
        mine = [node for node in nodes if type(node) in rule.nodes]
        assert any(rule.applies(node) for node in mine) and not all(rule.applies(node) for node in mine)
        for node in mine:
            assert rule.applies(node) == (SELECTORS[type(node)](node) in rule.selects), rule.id


def test_only_a_type_with_a_selector_has_rules_that_select() -> None:
    from unsugar.registry import expr_rule

    with pytest.raises(ValueError, match="no selector"):
        expr_rule(ast.Attribute, id="x", summary="", before="", after="", reference="",
                  selects=("x",))(lambda node, cx: node)


#: children that emit statements after siblings that must be saved first: in
#: a call's arguments, starred and keyword ones, a subscript, a slice's
#: optional bounds, a dict display, a tuple, an f-string's fields
SPILLS = """
def g(): return 1
def f(*a, **k): return a, k
x = [1, 2]
print(f(g(), x and g(), *x, k=g() or 2, **{'z': x or 1}))
print(x[g():(g() and 2)], x[:g() or 1:], {g(): x and 1, **{}}, (g(), g() if x else 0))
print(f"{g()}{x and 3!r:>{g() or 4}}", [g(), *(x or ()), x or 0])
"""


def test_children_lowered_as_by_their_slots(monkeypatch: pytest.MonkeyPatch) -> None:
    """The lowerer made for a node class (``_children_lowerer``) writes what
    lowering by the slots (``Lowerer.lower_slots``) writes, spills included."""
    sources = [SPILLS, PROGRAMS, inspect.getsource(contextlib), inspect.getsource(ast)]
    made = {source: desugar(source) for source in sources}
    monkeypatch.setattr(lowering, "_CHILDREN_LOWERERS", {})
    monkeypatch.setattr(lowering, "_children_lowerer", lambda cls: Lowerer.lower_slots)
    for source in sources:
        assert desugar(source) == made[source]
    assert set(lowering._CHILDREN_LOWERERS.values()) == {Lowerer.lower_slots}


class _Recorder:
    """A lowerer that records the expressions it is asked to lower."""

    lower_slots = Lowerer.lower_slots

    def __init__(self) -> None:
        self.pre: list[ast.stmt] = []
        self.lowered: list[str] = []

    def expr(self, node: ast.expr) -> ast.expr:
        self.lowered.append(ast.unparse(node))
        return node


def test_a_node_a_rule_made_without_a_field_is_lowered_by_its_slots() -> None:
    """A rule may make a node without one of its fields (``keywords``), or
    with None for a list: its children are lowered all the same."""
    lower_call = lowering._children_lowerer(ast.Call)
    call = ast.Call(ast.Name("f", ast.Load()), [ast.Name("x", ast.Load())], [])
    del call.keywords
    recorder = _Recorder()
    lower_call(recorder, call)
    assert recorder.lowered == ["f", "x"]
    call.args, call.keywords, recorder.lowered = None, [ast.keyword("k", ast.Name("y", ast.Load()))], []
    lower_call(recorder, call)
    assert recorder.lowered == ["f", "y"]


def test_a_class_body_def_holds_none_of_the_class_once_lowered() -> None:
    """The class rule's body def carries what lowering it needs (the class's
    input among it) until it is lowered, and no longer: the input is freed
    then, not with the whole output."""
    from unsugar.pipeline import Compilation

    source = "class C:\n    x = 1\n    def f(self):\n        return self.x\nclass D(C): pass\n"
    compilation = Compilation(ast.parse(source), source=source)
    compilation.lower()
    assert len(compilation.unit.class_bodies) == 2
    assert not any(hasattr(body_def, "class_body") for body_def in compilation.unit.class_bodies)



def _reads_bound_at_the_top(compilation) -> list[ast.Name]:
    """The reads of helpers, builtins and constants in the output's def ``f``."""
    unit = compilation.unit
    top = {unit.names.fixed(name) for name in unit.helpers | unit.builtins} | unit.constant_names
    [function] = [node for stmt in compilation.body for node in ast.walk(stmt)
                  if type(node) is ast.FunctionDef and node.body and type(node.body[-1]) is ast.Return]
    return [node for node in ast.walk(function)
            if type(node) is ast.Name and type(node.ctx) is ast.Load and node.id in top]


def test_reads_of_helpers_are_one_node_each_in_text_a_node_each_in_a_tree() -> None:
    """Writing text, all the reads of a helper, builtin or constant are one
    node (fewer nodes to make and free); in a tree, where each node gets the
    position of its own read, every read is a node of its own. The text is
    the same (``test_text_written_from_known_parts_is_the_trees_text``)."""
    from unsugar.pipeline import Compilation, rewriting_text

    source = "def f(a, b):\n    return a.x + b.x + getattr(a, 'z') + getattr(b, 'z')\n"
    with rewriting_text():
        text = Compilation(ast.parse(source), source=source)
        text.lower()
    reads = _reads_bound_at_the_top(text)
    names = {node.id for node in reads}
    assert len(reads) > len(names) >= 2
    assert len({id(node) for node in reads}) == len(names)
    tree = Compilation(ast.parse(source), source=source)
    tree.lower()
    reads = _reads_bound_at_the_top(tree)
    assert len({id(node) for node in reads}) == len(reads) > len(names)


FLOW = """
def f(xs):
    t = 0
    for x in xs:
        if x > 1:
            t = t + g(x) * h(x)
        elif x:
            break
        t = t + 1
    return t
"""


def _flag_nodes(compilation, ctx: type) -> list[ast.Name]:
    """The reads (``ctx`` Load) or stores of the flow's flags in the output."""
    return [node for stmt in compilation.body for node in ast.walk(stmt)
            if type(node) is ast.Name and type(node.ctx) is ctx and node.id in ("_us_run", "_us_if4")]


@pytest.mark.parametrize("ctx", [ast.Load, ast.Store])
def test_the_flows_flags_are_one_node_per_name_and_context_in_text(ctx: type) -> None:
    """The flags the control flow sets and tests (``run``, an if's flag) are
    one node per name and context where text is written; a node each in a tree."""
    from unsugar.pipeline import Compilation, rewriting_text

    with rewriting_text():
        text = Compilation(ast.parse(FLOW), source=FLOW)
        text.lower()
        text.control()
    nodes = _flag_nodes(text, ctx)
    assert len(nodes) > 4 and len({id(node) for node in nodes}) == 2
    tree = Compilation(ast.parse(FLOW), source=FLOW)
    tree.lower()
    tree.control()
    assert len({id(node) for node in _flag_nodes(tree, ctx)}) == len(_flag_nodes(tree, ctx)) == len(nodes)
