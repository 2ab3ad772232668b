"""The top level and the sections live in their homes (spelbok.lang.constructs): the
registry's orders, the keys of the top level, the grammar's statements and their readers."""

from __future__ import annotations

from spelbok.lang import vocabulary as v
from spelbok.lang.constructs import DSL_ORDER, PROSE_ORDER, SECTION_HOMES
from spelbok.lang.dsl_build import _SECTION_BUILDS, _Builder
from spelbok.lang.spec_grammar import grammar_text


def test_each_stage_order_holds_the_sections_once() -> None:
    assert sorted(h.name for h in DSL_ORDER) == sorted(h.name for h in SECTION_HOMES)
    told = [h for h in SECTION_HOMES if h.describe is not None]
    assert sorted(h.name for h in PROSE_ORDER) == sorted(h.name for h in told)
    assert len({h.name for h in SECTION_HOMES}) == len(SECTION_HOMES)


def test_the_top_level_keys_are_the_homes_keys_in_the_registry_order() -> None:
    assert v.SPEC.fields == tuple(f for h in SECTION_HOMES for f in h.keys)
    assert [f.name for f in v.SPEC.fields][:5] == ["spelbok", "name", "about", "extends",
                                                   "sources"]
    sections = [h.decl for h in SECTION_HOMES if h.decl is not None and h.group == "section"]
    assert list(v.SECTIONS) == sections
    for h in SECTION_HOMES:  # a section's map is the type of its key
        if h.group == "section" and h.decl is not None:
            assert [f.type for f in h.keys] == [h.name]


def test_every_top_level_statement_is_read_by_its_home() -> None:
    entries = [e for h in SECTION_HOMES for e in h.alternatives]
    top = grammar_text().split("\n_top: ", 1)[1].split("\n\n", 1)[0]
    assert [a.strip() for a in top.replace("\n", " ").split("|")] == entries
    assert sorted(_SECTION_BUILDS) == sorted(entries)
    # the builder keeps the shared readers only (an about text: the game's and an option's)
    assert [n for n in dir(_Builder) if n.startswith("s_")] == ["s_about"]
