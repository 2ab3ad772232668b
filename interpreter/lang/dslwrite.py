"""Print a spec tree as DSL text (the inverse of :func:`spelbok.lang.dsl.parse_dsl`).

:func:`to_dsl` writes a canonical tree (from :func:`spelbok.lang.model.normalize`)
as DSL text such that parsing it back and normalizing gives the same tree:
every field, ``source`` citation, ``about`` text, option and step detail is
kept; fields that hold their default value are left out.  Formulas are
printed exactly as stored.  A raw (not yet normalized) tree prints too.

>>> text = to_dsl({"spelbok": 1, "name": "Mini", "players": {"min": 2, "max": 4},
...     "deck": [{"players": [2, 4], "ranks": ["A", "K", "Q"]}],
...     "hand": [{"deal": {"size": "3"}}, {"tricks": {"follow": True}}],
...     "end": {"when": "hand_number >= 3", "winners": "tricks == max(tricks)"}})
>>> print(text)
spelbok 1
game "Mini"
<BLANKLINE>
players 2 to 4
<BLANKLINE>
deck for 2 to 4 players: A K Q
<BLANKLINE>
each hand:
    deal 3 cards
    play tricks
        must follow suit
<BLANKLINE>
the match ends when hand_number >= 3
    the winners are the players where tricks == max(tricks)
<BLANKLINE>
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from .constructs import DSL_ORDER, STEP_HOMES
from .constructs.players import direction_of
from .dsl_text import Out, UnwritableError
from .dsl_text import check as _check
from .dsl_text import formula as _f
from .dsl_text import keys as _text_keys
from .dsl_text import quote as _quote
from .dsl_text import source as _source
from .dsl_text import text as _text
from .vocabulary import construct
from .vocabulary import step_kind as _step_kind

__all__ = ["UnwritableError", "to_dsl"]


_ALL_SUITS = ["C", "S", "H", "D"]


class _Out(Out):
    def steps(self, indent: int, steps: list[Any]) -> None:
        _steps(self, indent, steps)

    def attrs(self, indent: int, step: Mapping[str, Any], part: str | None = None) -> None:
        _attrs(self, indent, step, part)


def _keys(name: str, body: bool = False) -> tuple[str, ...]:
    """The keys the vocabulary declares for construct ``name`` (a step: its kind key and
    its own keys; ``body``: the keys of the map under its kind key)."""
    return _text_keys(construct(name), body)


# ---------------------------------------------------------------------------- the game


def to_dsl(tree: Mapping[str, Any]) -> str:
    """DSL text for a (canonical) spec tree; ``parse_dsl`` reads it back.

    Raises ValueError for a key the DSL has no words for (never loses one silently).

    >>> print(to_dsl({"spelbok": 1, "name": "Tiny", "players": {"min": 3, "max": 3},
    ...     "options": {"bonus": {"values": [5, 10], "default": 5, "about": "Points."}},
    ...     "deck": [{"ranks": ["A", "K"], "suits": ["C", "H"]}],
    ...     "hand": [{"set": {"score": "score + bonus"}, "for": "true", "when": "hand_number > 1"}],
    ...     "end": {"when": "true", "winners": "true"}}).split("each hand:")[1])
    <BLANKLINE>
        for each player, set score = score + bonus
            only when hand_number > 1
    <BLANKLINE>
    the match ends when true
        the winners are the players where true
    <BLANKLINE>
    """
    _check(tree, _keys("spec"), "at the top level")
    out = _Out(direction_of(tree))
    out.declared_pack = bool(tree.get("pack"))
    for home in DSL_ORDER:  # each section's writer, in the DSL's order
        if home.write is not None:
            home.write(out, tree)
    out.blank()
    return "\n".join(out.lines)


# ---------------------------------------------------------------------------- steps


def _steps(out: _Out, indent: int, steps: list[Any]) -> None:
    for step in steps:
        kind = _step_kind(step)
        if kind is None:
            raise ValueError(f"to_dsl: a step has no kind: {sorted(step)}")
        _STEP_WRITERS[kind](out, indent, step)


def _attrs(out: _Out, indent: int, step: Mapping[str, Any], part: str | None = None) -> None:
    """The lines every step may have: the source of its part, when, label, source."""
    if part is not None:
        body = step.get(part.replace("-", "_"))
        if isinstance(body, Mapping) and isinstance(body.get("source"), str):
            _text(out, indent, f"source of the {part}", body["source"])
    when = step.get("when")
    if when is not None and _f(when) != "true":
        out.add(indent, f"only when {_f(when)}")
    if step.get("label") is not None:
        out.add(indent, f"label {_quote(str(step['label']))}")
    _source(out, indent, step)




#: The writer of each step kind (its home's ``write``).
_STEP_WRITERS: dict[str, Callable[[_Out, int, Mapping[str, Any]], None]] = {
    **{h.name: h.write for h in STEP_HOMES if h.write is not None},
    # the steps without a home yet
}
