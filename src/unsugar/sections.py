"""A long module body runs as a chain of defs, each a section of it.

CPython's compiler copies, for every def it meets, the set of names bound in
the defs around it (``analyze_child_block`` in ``Python/symtable.c``). A
module body made one def (rule ``module``) holds all of the module's defs and
temporaries, and the module def around it all of its constants: the cost
grows with the square of the module's length, and a module of a few
megabytes does not finish compiling. So a body longer than
:data:`SECTION_LENGTH` statements is cut where no temporary lives across the
cut, into defs called one after the other, each with the constants only it
uses::

    def _us_body(_us_namespace):              def _us_body(_us_namespace):
        <first statements>                        <first statements>
        <later statements>            ->      def _us_body_1(_us_namespace):
    _us_body = _us_module_code(...)               _us_store = _us_namespace_setitem(_us_namespace)
    try:                                          _us_s_x = _us_text(120)
        _us_exec(<_us_body's code>, ...)          <later statements>
    except:                                   _us_body = _us_module_code(...)
        ...                                   _us_body_1 = _us_module_code(...)
                                              try:
                                                  _us_exec(<_us_body's code>, ...)
                                                  _us_exec(<_us_body_1's code>, ...)
                                              except:
                                                  ...

Each section is named ``<module>``, as the one body def is; a traceback shows
the section that raised, as CPython shows the module.
"""

from __future__ import annotations

from unsugar import builder as b
from unsugar import linker
from unsugar import nodes as ast
from unsugar.namespaces import module_runs
from unsugar.trees import children, copy_tree, core_bound_names, walk
from unsugar.unit import Unit

#: the statements of the body def (after the first two) a section holds at least
SECTION_LENGTH = 400


def split_body(module: list[ast.stmt], unit: Unit) -> None:
    """Cut the body def inside the module def (``module``, linked) into
    sections, in place, when it is long; move each constant of the user's
    code (not the runtime's) that one section alone uses into that section."""
    outer = module[0]
    assert isinstance(outer, ast.FunctionDef)
    name = unit.names.fixed("body")
    at = next(i for i in range(len(outer.body) - 1, -1, -1)  # (the body def is near the end)
              if isinstance(outer.body[i], ast.FunctionDef) and outer.body[i].name == name)
    body_def = outer.body[at]
    statements, drops = body_def.body, []
    if type(statements[0]) is ast.Try:  # drops the loops' iterators on an exception
        statements, drops = statements[0].body, statements[0].handlers[0].body[:-1]
    first, rest = statements[:2], statements[2:]
    if len(rest) < 2 * SECTION_LENGTH:
        return
    sections = _sections(rest, core_bound_names(rest))
    if len(sections) == 1:
        return
    # the module's literals one by one, where a section may take one
    outer.body[:at] = linker.expanded(outer.body[:at], linker.LiteralsText)
    at = outer.body.index(body_def)
    uses = [{node.id for stmt in section for node in walk(stmt) if type(node) is ast.Name}
            for section in [first + sections[0], *sections[1:]]]
    runtime = linker.compiled_runtime(unit.names.prefix, unit.semantics).unit
    assert runtime is not None
    user_constants = ({c.name for c in unit.constants.values()}
                      - {c.name for c in runtime.constants.values()})
    run = outer.body[at + 2]
    assert isinstance(run, ast.Try)
    handler = {node.id for stmt in run.handlers[0].body for node in walk(stmt) if type(node) is ast.Name}
    constants = _movable(outer.body[:at], user_constants, [*uses, handler])  # (the handler's stay)
    moved = set(map(id, constants.values()))
    outer.body[:at] = [stmt for stmt in outer.body[:at] if id(stmt) not in moved]
    at -= len(moved)
    namespace = unit.names.fixed("namespace")
    defs = []
    for number, (section, used) in enumerate(zip(sections, uses, strict=True)):
        head = first if number == 0 else [copy_tree(first[1])]
        own = [stmt for constant, stmt in constants.items() if constant in used]
        body = own + head + section
        dropped = [drop for drop in drops if drop.targets[0].id in used]
        if dropped:
            body = [b.try_except(body, [*dropped, b.raise_()])]
        section = b.function(name if number == 0 else unit.names.temp("body"), [namespace], body)
        section.in_namespace = True
        defs.append(section)
    made, runs = module_runs([d.name for d in defs], namespace, unit)
    outer.body[at:at + 3] = [*defs, *made, b.try_except(runs, run.handlers[0].body)]


def _sections(stmts: list[ast.stmt], locals_: set[str]) -> list[list[ast.stmt]]:
    """``stmts`` cut into runs of at least :data:`SECTION_LENGTH` statements,
    only where no name of ``locals_`` lives across the cut: none is read after
    it before being bound again, and none that a def closes over is used on
    both sides (the def would keep the first section's variable)."""
    stored = [core_bound_names([stmt]) for stmt in stmts]
    read = [_exposed([stmt], set()) & locals_ for stmt in stmts]
    closed = _closed_over(stmts) & locals_
    reach = list(range(len(stmts)))  # the last statement what a statement binds is read in
    since: dict[str, int] = {}  # each local, the first statement whose binding may still hold
    for index, stmt in enumerate(stmts):
        for name in read[index]:
            if name in since:
                reach[since[name]] = max(reach[since[name]], index)
        for name in stored[index]:
            if name in _surely_bound(stmt):
                since[name] = index
            else:
                since.setdefault(name, index)
    first: dict[str, int] = {}
    for index, stmt in enumerate(stmts):
        for node in walk(stmt):
            if type(node) is ast.Name and node.id in closed:
                start = first.setdefault(node.id, index)
                reach[start] = max(reach[start], index)
    sections: list[list[ast.stmt]] = [[]]
    alive = 0
    for index, stmt in enumerate(stmts):
        sections[-1].append(stmt)
        alive = max(alive, reach[index])
        left = len(stmts) - index - 1
        if alive <= index and len(sections[-1]) >= SECTION_LENGTH and left >= SECTION_LENGTH:
            sections.append([])
    return sections


def _closed_over(stmts: list[ast.stmt]) -> set[str]:
    """The names used inside the defs in ``stmts``."""
    names: set[str] = set()
    todo: list[tuple[ast.AST, bool]] = [(stmt, False) for stmt in stmts]
    while todo:
        node, inside = todo.pop()
        if type(node) is ast.Name:
            if inside:
                names.add(node.id)
            continue
        inside = inside or type(node) is ast.FunctionDef
        todo.extend((child, inside) for child in children(node))
    return names


def _loads(node: ast.AST) -> set[str]:
    return {sub.id for sub in walk(node) if type(sub) is ast.Name and type(sub.ctx) is ast.Load}


def _surely_bound(stmt: ast.stmt) -> set[str]:
    """The names ``stmt`` binds whenever it completes."""
    if type(stmt) is ast.Assign:
        return {t.id for t in stmt.targets if type(t) is ast.Name}
    if type(stmt) is ast.FunctionDef:
        return {stmt.name}
    return set()


def _exposed(stmts: list[ast.stmt], bound: set[str]) -> set[str]:
    """The names core ``stmts`` may read before binding them, when ``bound``
    are bound before them (a def reads what it closes over, when it is made)."""
    bound = set(bound)
    exposed: set[str] = set()
    for stmt in stmts:
        kind = type(stmt)
        if kind is ast.While:
            exposed |= (_loads(stmt.test) - bound) | _exposed(stmt.body, bound)
        elif kind is ast.Try:
            exposed |= _exposed(stmt.body, bound)
            for handler in stmt.handlers:
                exposed |= _exposed(handler.body, bound)
        elif kind is ast.Assign:
            exposed |= _loads(stmt.value) - bound
            bound |= {t.id for t in stmt.targets if type(t) is ast.Name}
        else:
            exposed |= _loads(stmt) - bound
            if kind is ast.FunctionDef:
                bound.add(stmt.name)
    return exposed


def _movable(
    stmts: list[ast.stmt], user_constants: set[str], uses: list[set[str]]
) -> dict[str, ast.stmt]:
    """The constants of ``user_constants`` bound in ``stmts`` that exactly one
    section uses and no other constant is made from, in order."""
    count: dict[str, int] = {}
    for used in uses:
        for name in used & user_constants:
            count[name] = count.get(name, 0) + 1
    bound = {
        stmt.targets[0].id: stmt for stmt in stmts
        if type(stmt) is ast.Assign and type(stmt.targets[0]) is ast.Name
        and stmt.targets[0].id in user_constants
    }
    made_from = {node.id for stmt in bound.values() for node in walk(stmt.value)
                 if type(node) is ast.Name}
    return {name: stmt for name, stmt in bound.items()
            if count.get(name) == 1 and name not in made_from}
