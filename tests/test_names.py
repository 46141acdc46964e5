"""The names unsugar makes start with a prefix that no identifier of the input
starts with: ``_us_``, else ``_us1_``, ``_us2_``... An input whose text does not
spell ``_us_`` anywhere takes ``_us_`` without a walk of its tree."""

import re

import pytest
from difftest import assert_same

from unsugar import desugar
from unsugar.names import NameAllocator, prefix_of_text

CASES = {
    # source -> the prefix of the output's names
    "x = 1.5\nprint(x)\n": "_us_",
    # spelled only in a comment and a string: no identifier starts with it
    "# _us_\nx = 1.5\nprint(x, '_us_')\n": "_us_",
    "_us_x = 1.5\nprint(_us_x)\n": "_us1_",
    "class C:\n    _us_a = 1.5\nprint(C()._us_a)\n": "_us1_",
    "def f(_us_b=2.5):\n    return _us_b\nprint(f())\n": "_us1_",
    "_us_x = _us1_y = 1.5\nprint(_us_x + _us1_y)\n": "_us2_",
    # NFKC makes the name ``_us_x`` of the one spelled with a full-width u
    "_\uff55s_x = 1.5\nprint(_\uff55s_x)\n": "_us1_",
}


@pytest.mark.parametrize("source", CASES)
def test_the_prefix_avoids_every_identifier_of_the_input(source: str) -> None:
    assert_same(source)
    prefix = CASES[source]
    # every output defines ``<prefix>module``, the def its module runs in
    assert set(re.findall(r"\b(_us\d*_)module\b", desugar(source))) == {prefix}


def test_the_text_names_the_prefix_only_when_it_spells_no_temporary() -> None:
    assert prefix_of_text("x = 1\n") == "_us_"
    assert prefix_of_text("_us_x = 1\n") is None  # (the tree decides: _us1_)
    assert prefix_of_text("# _us_\n") is None  # (the tree decides: _us_)
    assert prefix_of_text("_\uff55s_x = 1\n") is None  # not ASCII: NFKC may make _us_


def test_fixed_names_and_temporaries_are_answered_once() -> None:
    """A fixed name is one string however often it is asked for; a name has
    the shape of a temporary, or not, the same each time it is asked."""
    names = NameAllocator(set(), "_us_")
    assert names.fixed("len") == "_us_len" and names.fixed("len") is names.fixed("len")
    temporary = names.temp("t")
    for _ in range(2):
        assert names.is_temporary(temporary)
        assert names.is_temporary("_us_item_12")
        assert not names.is_temporary("_us_len")
        assert not names.is_temporary("_us__3")  # no hint
        assert not names.is_temporary("item_1")  # not the prefix
