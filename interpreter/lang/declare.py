"""How a construct of the spec language is declared: its keys, their types, defaults and words.

The classes here are the vocabulary's grammar of declarations: each construct's home
(:mod:`spelbok.lang.constructs`) declares its map as a :class:`Construct` of
:class:`Field` values; :mod:`spelbok.lang.vocabulary` gathers them.

>>> Field("size", "formula", "cards per player", required=True).required
True
>>> STEP_COMMON[0].name, STEP_COMMON[0].default
('when', 'true')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..formula.functions import Function as Function  # its home: the formula language


class _Absent:
    """The default of a key that stays absent when not given."""

    def __repr__(self) -> str:
        return "ABSENT"


ABSENT: Any = _Absent()


@dataclass(frozen=True)
class Derived:
    """A default worked out from other keys (``text`` says from what)."""

    text: str


@dataclass(frozen=True)
class Word:
    """An allowed word (a zone, a choose kind, a keyword, a type...) and what it means.

    ``uses`` names the keys a word brings into play (a choose kind's ``min``/``max``).
    """

    name: str
    doc: str
    uses: tuple[str, ...] = ()


@dataclass(frozen=True)
class Field:
    """One key of a construct's map.

    ``doc`` is the reference's one-line meaning; ``schema_doc`` the schema's
    description (editor tooltips) where it has one; ``doc_type`` / ``doc_default``
    override how the reference shows the type and the default.  ``minimum``,
    ``maximum`` bound an integer, ``min_items`` the size of a list, map or string.
    ``rule``: a rule of play checked on every card (a trick flag); such a field
    also says how it reads: ``phrase`` is its DSL line when on and when off (the
    grammar's rule of the same name spells those words; the DSL builder and
    writer read it from here), ``prose`` the sentence of ``describe`` when on and
    when off (empty: nothing is said).
    """

    name: str
    type: str
    doc: str
    default: Any = ABSENT
    required: bool = False
    omitted: bool = False
    words: tuple[Word, ...] = ()
    schema_doc: str | None = None
    doc_type: str = ""
    doc_default: str = ""
    minimum: int | None = None
    maximum: int | None = None
    min_items: int | None = None
    rule: bool = False
    phrase: tuple[str, str] = ("", "")
    prose: tuple[str, str] = ("", "")
    keep_empty: bool = False  # an empty list given is kept: it says "none", not "absent"


@dataclass(frozen=True)
class Construct:
    """A map of the language: the top level, a section, a step kind or a part.

    A step kind's map has its kind key (``value``: that key, when it does not
    hold a map; ``body``: the keys of the map it holds), its own ``fields`` and
    :data:`STEP_COMMON`.  ``x_name`` is how error messages name the map
    (``{key}``: the key holding it).
    """

    name: str
    group: str
    doc: str
    fields: tuple[Field, ...] = ()
    body: tuple[Field, ...] | None = None
    value: Field | None = None
    x_name: str = ""
    schema_doc: str | None = None

    def field(self, name: str) -> Field:
        """The key ``name`` of this construct (of its body first, for a step kind)."""
        for f in (*(self.body or ()), *self.fields, *_common(self)):
            if f.name == name:
                return f
        raise KeyError(f"{self.name} has no key {name!r}")

    def own_fields(self) -> tuple[Field, ...]:
        """The keys of the construct's own map (a step: kind key aside, common keys last)."""
        return (*self.fields, *_common(self))


@dataclass(frozen=True)
class Builtin:
    """A name every formula may read.

    ``scope``: ``player`` (one value per seat), ``hand`` (one value, shown in the
    reference's hand/match table), ``decision`` (in a decide's ``then``/``allow``),
    ``card`` (a trick's ``allow``) or ``trick`` (while tricks are played).
    ``type``: ``int``, ``bool``, ``str`` (a name), ``suit``, ``suit_or_none``, ``rank``,
    ``rank_or_none``,
    ``card`` (one card), ``cards`` (a set of cards) or ``any``.
    ``only_in``: the only keys whose formulas may read it (empty: anywhere).
    """

    name: str
    scope: str
    type: str
    doc: str
    settable: bool = False
    per_trick: bool = False
    only_in: tuple[str, ...] = ()


def _common(c: Construct) -> tuple[Field, ...]:
    return STEP_COMMON if c.group == "step" else ()


def words_of(*pairs: tuple[str, str]) -> tuple[Word, ...]:
    """Words from ``(name, doc)`` pairs.

    >>> [w.name for w in words_of(("left", "to the left"), ("right", "to the right"))]
    ['left', 'right']
    """
    return tuple(Word(name, doc) for name, doc in pairs)


#: The ``source`` key: the passage of the rules text a rule encodes.
SOURCE = Field("source", "source", "the passage of the rules text this rule encodes")

#: The keys every step may carry besides its kind key.
STEP_COMMON: tuple[Field, ...] = (
    Field("when", "formula", "a condition; the step is skipped when false", default="true"),
    Field("label", "text", "a name for the step (variants change steps by label)"),
    SOURCE,
)
