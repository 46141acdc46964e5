"""The order of the phases.

1. :mod:`unsugar.lowering`: one walk; every statement and expression rule,
   dispatched by node type. Leaves structured control flow.
2. :mod:`unsugar.control`: one walk per scope; ``if``, loops with
   ``break``/``continue``, ``finally``.
3. :mod:`unsugar.linker`: the helpers, builtins and constants the module
   uses, written at its top.
4. :mod:`unsugar.printer`: the source text (or, for ``desugar_tree``, the
   positions ``compile`` needs). Text that would nest past the tokenizer's
   100 levels is linked again and printed with the deepest defs hoisted
   (:mod:`unsugar.hoisting`).
"""

from __future__ import annotations

import contextlib
import gc
import sys
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import TypeVar

from unsugar import control, hoisting, linker, printer, sections
from unsugar import nodes as ast
from unsugar.analysis import ModuleAnalysis, analyse_module
from unsugar.checker import is_core
from unsugar.lowering import Lowerer
from unsugar.names import prefix_of_text
from unsugar.namespaces import module_def, run_in_namespace
from unsugar.options import check_keep, check_semantics
from unsugar.scopes import AnalysedScope
from unsugar.trees import fix_locations, placing
from unsugar.unit import Constant, Unit


class Compilation:
    """One module through the phases, in order (``desugar`` runs them all)::

        c = Compilation(tree)          # the names the input spells, the options
        c.lower(); c.control(); c.link()
        c.text()                       # or c.module(): the tree, every node placed
    """

    def __init__(
        self, tree: ast.Module, *, keep: Iterable[str] = (), runtime: str = "inline",
        semantics: str = "python", source: str | None = None, scopes: list[AnalysedScope] | None = None,
    ) -> None:
        # the source ``tree`` was parsed from, if given, may name the prefix of
        # the temporaries without a walk of the tree
        prefix = None if source is None else prefix_of_text(source)
        self.unit = Unit.for_tree(tree, check_keep(keep), prefix, check_semantics(semantics))
        self.runtime = runtime
        self.body = tree.body
        #: the module's scopes, if analysed already (:func:`check_compiles`)
        self.scopes = scopes
        #: once linked, the runtime's literals its statements share with every
        #: output, their items left out: made complete in a tree given out
        self.literals: list[Constant] = []
        #: the runtime's statements are in the tree, not in its texts (:meth:`_expand`)
        self.expanded = False
        # a module already core needs no names of its own (its output is itself);
        # kept sugar may bind names that must stay globals
        self.unit.module_def = not self.unit.keep and not is_core(tree)

    def lower(self) -> None:
        """Every statement and expression rule (:mod:`unsugar.lowering`)."""
        self.body = Lowerer(self.unit).module(self.body, self.scopes)
        self.scopes = None

    def control(self) -> None:
        """``if``, loops with ``break``/``continue``, ``finally`` (:mod:`unsugar.control`)."""
        self.body = control.lower_module(self.body, self.unit)

    def link(self) -> None:
        """The helpers, builtins and constants used, at the top (:mod:`unsugar.linker`)."""
        self._own = list(self.body)
        self._link()

    def _link(self) -> None:
        self.literals = []
        self.body = linker.link(self.unit, self._own, self.runtime, self.literals, as_text=True)
        self.expanded = False
        if self.unit.module_def:
            self.body = module_def(self.unit, self.body)
            sections.split_body(self.body, self.unit)
            for stmt in self.body[0].body:
                if isinstance(stmt, ast.FunctionDef):
                    run_in_namespace(stmt, core=True)
        for body_def in self.unit.class_bodies:
            run_in_namespace(body_def, core=not self.unit.keep)

    def module(self) -> ast.Module:
        """The output tree, every node with a position (for ``compile``; a node
        made while nothing was placed takes its parent's)."""
        self._expand()
        for stmt in self._own:
            fix_locations(stmt)
        for function in self.unit.decorated:  # its code starts at its first decorator
            function.lineno = function.first_line
        for literal in self.literals:
            literal.complete()
        module = ast.Module(body=self.body, type_ignores=[])
        # the module's own statements and the runtime's are placed all through
        return fix_locations(module, trust_located=True)

    def _expand(self) -> None:
        """The statements in the tree, where a :class:`printer.TextRun` stood
        for them (:func:`linker.expanded`)."""
        self.body = linker.expanded(self.body)
        if self.unit.module_def:
            self.body[0].body = linker.expanded(self.body[0].body)
        self.expanded = True

    def text(self, mark: Callable[[list[ast.stmt], Known], Known] | None = None) -> str:
        """The output source (:mod:`unsugar.printer`; the runtime's text is made
        once). ``mark(body, known)``, if given, is what the printer is given for
        ``known`` (:mod:`unsugar.annotate` writes lines of its own with it)."""
        try:
            try:
                return self._print(mark)
            except printer.TooDeep:
                self._hoist()
                return self._print(mark)
        except printer.NotCore:  # sugar kept
            text = ast.unparse(self.module())
            return text + "\n" if text else ""
        except printer.TooDeep as deep:
            raise _too_deep(deep.args[0]) from None

    def spent_text(self) -> str | None:
        """The output source as :meth:`text` writes it, the tree freed as it is
        written (``printer.unparse`` with ``spend``): the compilation is spent.
        None where the tree had to change first (defs nested too deep to write,
        :meth:`_hoist`): the tree is spent all the same. Kept sugar is written
        by :meth:`text`."""
        if self.unit.keep:
            return self.text()
        try:
            return self._print(None, spend=True)
        except (printer.TooDeep, printer.NotCore):
            return None

    def _print(self, mark: Callable[[list[ast.stmt], Known], Known] | None, spend: bool = False) -> str:
        """The printer's text of the output, with its last newline."""
        # the runtime's statements are written from its texts: in a TextRun, or
        # once expanded, each by its own
        known = linker.compiled_runtime(self.unit.names.prefix, self.unit.semantics).known \
            if self.expanded else {}
        if mark is not None:
            known = mark(self.body, known)
        text = printer.unparse(ast.Module(body=self.body, type_ignores=[]), known, spend)
        return text + "\n" if text else ""

    def _hoist(self) -> None:
        """Link again with the runtime's ``hoisted``, and hoist the defs that
        nest past what source text can indent (:mod:`unsugar.hoisting`)."""
        self.unit.helper("hoisted")
        self._link()
        self._expand()  # (the hoisting sees every name the module def binds)
        self.body = hoisting.hoist(self.body, self.unit)


def _too_deep(stmt: ast.stmt) -> SyntaxError:
    """What is left too deep once every def is hoisted (nothing known reaches
    it), at its line if it has one (a statement the rewrite made has none when
    only text is written: :func:`unsugar.trees.placing`)."""
    line = getattr(stmt, "lineno", None)
    return SyntaxError("too deeply nested to write as source", (None, line, None, None))


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while a module is rewritten: the
    trees hold no cycles worth finding, and its passes over the many live
    nodes cost about a third of the time, growing with the module's size."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


@contextlib.contextmanager
def rewriting_text() -> Iterator[None]:
    """How :func:`desugar` rewrites a module into text: with the collector
    paused (:func:`collector_paused`), and no position given to the nodes the
    rewrite makes, which the text has no use for (:func:`unsugar.trees.placing`)."""
    with collector_paused(), placing(False):
        yield


#: how deep the rewrite may recurse: about as deep as the input nests, which
#: CPython's parser allows beyond the default limit (a long ``elif`` chain)
RECURSION_LIMIT = 100_000
#: the stack of the thread the rewrite runs on (address space, used as needed)
STACK_SIZE = 512 * 2**20
_headroom_lock = threading.Lock()
_headroom_users = 0
_saved_limit = 0
T = TypeVar("T")
#: the statements whose text the printer is given: ``id(stmt) -> render(indent)``
Known = Mapping[int, Callable[[int], str]]


def with_headroom(function: Callable[[], T]) -> T:
    """``function()`` on a thread with a large stack and a high recursion
    limit, so that the tool's own recursion is not what limits the input (the
    limit is raised while any such call runs, and restored after the last)."""
    global _headroom_users, _saved_limit
    outcome: list[T] = []
    failure: list[BaseException] = []

    def run() -> None:
        try:
            outcome.append(function())
        except BaseException as exc:  # noqa: BLE001  (raised again in the caller's thread)
            failure.append(exc)

    with _headroom_lock:
        if not _headroom_users:
            _saved_limit = sys.getrecursionlimit()
            sys.setrecursionlimit(max(_saved_limit, RECURSION_LIMIT))
        _headroom_users += 1
        previous = threading.stack_size(STACK_SIZE)
        try:
            thread = threading.Thread(target=run, name="unsugar", daemon=True)
            thread.start()
        finally:
            threading.stack_size(previous)
    try:
        thread.join()
    finally:
        with _headroom_lock:
            _headroom_users -= 1
            if not _headroom_users:
                sys.setrecursionlimit(_saved_limit)
    if failure:
        raise failure[0]
    return outcome[0]


def _compiled(
    tree: ast.Module, keep: Iterable[str], runtime: str, semantics: str, source: str | None = None,
    scopes: list[AnalysedScope] | None = None,
) -> Compilation:
    """``tree`` (parsed from ``source``, if given; its ``scopes``, if analysed)
    through lowering, control and linking."""
    compilation = Compilation(tree, keep=keep, runtime=runtime, semantics=semantics, source=source,
                              scopes=scopes)
    compilation.lower()
    compilation.control()
    compilation.link()
    return compilation


def written(compilation: Compilation, source: str, filename: str = "<string>") -> str:
    """The text of ``compilation``, its tree spent as it is written
    (:meth:`Compilation.spent_text`); where the tree had to change first, the
    text of ``source`` compiled again with the same options."""
    text = compilation.spent_text()
    if text is None:
        unit = compilation.unit
        again = _compiled(ast.parse(source, filename), unit.keep, compilation.runtime, unit.semantics, source)
        text = again.text()
    return text


def check_compiles(tree: ast.Module, filename: str, source: str | None = None) -> ModuleAnalysis:
    """Raise the ``SyntaxError`` CPython's compiler raises for ``tree`` (what
    parsing accepts but compiling does not: ``return`` outside a function,
    ``nonlocal`` at module level, a duplicate parameter...), and show its
    warnings (``SyntaxWarning: "is" with a literal``), as compiling the input
    would. A tree cannot name ``None``, ``True`` or ``False``, which NFKC
    makes of ``Ｎｏｎｅ``: then the ``source`` it was parsed from is compiled.

    Compiling costs about what parsing costs: only a tree that the module's
    analysis flags (:mod:`unsugar.refusals`) is compiled. The analysis is
    returned: its scopes are the rewrite's (``Compilation(scopes=...)``)."""
    analysis = analyse_module(tree)
    if analysis.may_refuse:
        try:
            compile(tree, filename, "exec", dont_inherit=True)
        except ValueError:
            if source is None:
                raise
            compile(source, filename, "exec", dont_inherit=True)
    return analysis


def desugar_tree(
    tree: ast.Module, *, keep: Iterable[str] = (), runtime: str = "inline",
    semantics: str = "python",
) -> ast.Module:
    """Rewrite ``tree`` (which is consumed) into core syntax. The tree is taken
    as it is (:func:`check_compiles` tells whether CPython compiles it).

    ``semantics="native"`` calls the interpreter's own operators
    (``_operator.add`` for ``+``) where the default calls the runtime's exact
    Python helpers.
    """
    with collector_paused():
        return _compiled(tree, keep, runtime, semantics).module()


def desugar(
    source: str, *, filename: str = "<string>", keep: Iterable[str] = (), runtime: str = "inline",
    semantics: str = "python", annotate: bool = False,
) -> str:
    """Rewrite Python ``source`` into core-only Python source.

    Raises the ``SyntaxError`` CPython raises for ``source``, at parsing or at
    compiling. The rewrite runs with the headroom it needs (:func:`with_headroom`).
    With ``annotate``, a comment before the statements each input statement
    became names its line, its text and the rules applied (:mod:`unsugar.annotate`).
    """
    if annotate:
        from unsugar.annotate import annotated

        return annotated(source, filename=filename, keep=keep, runtime=runtime, semantics=semantics)

    def rewrite() -> str:
        with rewriting_text():
            tree = ast.parse(source, filename)
            # (the scopes the check finds are the lowering's, which lets them go: they hold input nodes)
            compilation = _compiled(tree, keep, runtime, semantics, source, check_compiles(tree, filename, source).scopes)
            text = written(compilation, source, filename)
            del tree, compilation  # before the collector resumes: its first pass would walk every node left
            return text

    return with_headroom(rewrite)
