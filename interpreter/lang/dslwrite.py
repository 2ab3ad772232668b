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

from .constructs import STEP_HOMES
from .dsl_text import WIDTH as _WIDTH
from .dsl_text import Out, UnwritableError
from .dsl_text import card as _card
from .dsl_text import check as _check
from .dsl_text import formula as _f
from .dsl_text import keys as _text_keys
from .dsl_text import literal as _literal
from .dsl_text import quote as _quote
from .dsl_text import rank as _rank
from .dsl_text import source as _source
from .dsl_text import suits as _suits
from .dsl_text import text as _text
from .dsl_text import value as _value
from .dsl_text import word as _word
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
    out = _Out()
    out.add(0, f"spelbok {tree.get('spelbok', 1)}")
    if "name" in tree:
        out.add(0, f"game {_quote(str(tree['name']))}")
    if "extends" in tree:
        out.add(0, f"extends {_quote(str(tree['extends']))}")
    if tree.get("about"):
        _text(out, 0, "about", str(tree["about"]))
    sources = tree.get("sources") or {}
    if sources:
        out.blank()
        for key, text in sources.items():
            _text(out, 0, f"source {_word(key, ('of',))}:", str(text))
    players = tree.get("players")
    if players:
        _check(players, _keys("players"), "in 'players'")
        out.blank()
        out.add(0, f"players {players['min']} to {players['max']}")
        _source(out, 1, players)
    _options(out, tree.get("options") or {})
    _melds(out, tree.get("melds") or {})
    _pack(out, tree.get("pack"))
    _deck(out, tree.get("deck") or [], tree.get("pack"))
    _teams(out, tree.get("teams") or [])
    _ranking(out, tree.get("ranking") or {})
    _points(out, tree.get("points"))
    _variables(out, tree.get("variables") or {})
    _dealer(out, tree.get("dealer") or {})
    if "hand" in tree:
        out.blank()
        out.add(0, "each hand:")
        if not tree["hand"]:
            raise ValueError("to_dsl: a hand needs at least one step")
        _steps(out, 1, tree["hand"])
    if "end" in tree:
        _end(out, tree["end"])
    out.blank()
    return "\n".join(out.lines)


def _points(out: _Out, points: Any) -> None:
    """``points of ranks: A 11, 10 10``, ``points of trumps: …``, ``points of cards: …``,
    ``the last trick scores 10 points``; the section's source under its first line."""
    if not isinstance(points, Mapping):
        return
    _check(points, _keys("points"), "in 'points'")

    def table(key: str, show: Any) -> str:
        items = (points.get(key) or {}).items()
        for k, v in items:
            if isinstance(v, bool) or not isinstance(v, int) or show(str(k)) is None:
                raise ValueError(f"to_dsl: cannot write {k!r}: {v!r} in points.{key}")
        return ", ".join(f"{show(str(k))} {v}" for k, v in items)

    def rank(k: str) -> str | None:  # a declared pack's rank is quoted ("R", "1")
        return _rank(k) if k.strip() else None

    def card(k: str) -> str | None:  # as is a declared pack's card ("1O", "JK")
        return _card(k) if k.strip() else None

    out.blank()
    out.add(0, "points of ranks: " + (table("ranks", rank) or "none"))
    _source(out, 1, points)
    if points.get("trumps"):
        out.add(0, "points of trumps: " + table("trumps", rank))
    if points.get("cards"):
        out.add(0, "points of cards: " + table("cards", card))
    last = points.get("last_trick", 0)
    if last:
        if isinstance(last, bool) or not isinstance(last, int):
            raise ValueError(f"to_dsl: cannot write points.last_trick {last!r}")
        out.add(0, f"the last trick scores {last} point{'s' if abs(last) != 1 else ''}")



def _options(out: _Out, options: Mapping[str, Any]) -> None:
    for name, opt in options.items():
        _check(opt, _keys("option"), f"in option '{name}'")
        out.blank()
        values = list(opt.get("values") or [])
        if not values:
            raise ValueError(f"to_dsl: option '{name}' has no values")
        shown = [_value(v) for v in values]
        listed = shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " or " + shown[-1]
        line = f"option {_word(name)}: {listed}"
        if "default" in opt:
            line += f", default {_value(opt['default'])}"
        out.add(0, line)
        if opt.get("about"):
            _text(out, 1, "about", str(opt["about"]))
        _source(out, 1, opt)


def _melds(out: _Out, melds: Mapping[str, Any]) -> None:
    """``meld NAME: RANKS in one suit, worth FORMULA`` (or ``in every suit``, ``run of N``)."""
    for name, meld in melds.items():
        _check(meld, _keys("meld"), f"in meld '{name}'")
        out.blank()
        parts = [str(r) for r in meld.get("ranks") or []]
        if meld.get("run"):
            parts.append(f"run of {int(meld['run'])}")
        where = meld.get("spread", "one_suit")
        parts.append(f"in {where.replace('_', ' ')}" if where in ("one_suit", "every_suit")
                     else f"in: {_word(where)}")
        out.add(0, f"meld {_word(name)}: {' '.join(parts)}, worth {_f(meld.get('points', 0))}")
        _source(out, 1, meld)


def _pack(out: _Out, pack: Mapping[str, Any] | None) -> None:
    """A declared pack: one line per suit, its ranks, copies and extra cards."""
    if pack is None:
        return
    _check(pack, _keys("pack"), "in 'pack'")
    out.blank()
    out.add(0, "pack:")
    for suit in pack.get("suits") or []:
        _check(suit, _keys("pack_suit"), "in a pack suit")
        letter = str(suit["letter"])
        line = f"suit {_quote(letter)}"
        if suit.get("name", letter) != letter:
            line += f" named {_quote(str(suit['name']))}"
        if suit.get("symbol", letter) != letter:
            line += f" shown as {_quote(str(suit['symbol']))}"
        if suit.get("colour", "black") != "black":
            line += f" coloured {_word(suit['colour'])}"
        out.add(1, line)
    out.add(1, "ranks from low to high: " + " ".join(_quote(str(r)) for r in pack["ranks"]))
    if pack.get("copies", 1) != 1:
        out.add(1, f"{int(pack['copies'])} copies")
    for card in pack.get("extra") or []:
        _check(card, _keys("pack_extra"), "in a pack's extra card")
        line = f"extra card {_quote(str(card['name']))}"
        if card.get("suit", "none") != "none":
            line += f" of suit {_quote(str(card['suit']))}"
        if card.get("rank", "none") != "none":
            line += f" rank {_quote(str(card['rank']))}"
        out.add(1, line)
    _source(out, 1, pack)


def _deck(out: _Out, deck: list[Any], pack: Mapping[str, Any] | None = None) -> None:
    letters = [str(s.get("letter")).upper() for s in (pack or {}).get("suits") or []]
    if deck:
        out.blank()
    for entry in deck:
        _check(entry, _keys("deck_entry"), "in a deck entry")
        line = "deck"
        players = entry.get("players")
        if isinstance(players, int) and not isinstance(players, bool):
            players = [players, players]
        if players:
            lo, hi = players
            line += f" for {lo} player" if lo == hi == 1 else (
                f" for {lo} players" if lo == hi else f" for {lo} to {hi} players"
            )
        line += ": " + " ".join(_rank(r) for r in entry.get("ranks") or [])
        suits = entry.get("suits")
        every = letters or _ALL_SUITS  # the default: every suit of the pack
        if suits is not None and [str(s).upper() for s in suits] != every:
            line += " of " + _suits(suits)
        out.add(0, line)
        _source(out, 1, entry)


def _teams(out: _Out, teams: list[Any]) -> None:
    """``teams: seats 0 and 2, seats 1 and 3`` (a team of one: ``seat 4``)."""
    if not teams:
        return
    parts: list[str] = []
    for team in teams:
        seats = [str(int(s)) for s in team]
        if not seats:
            raise ValueError("to_dsl: a team without seats")
        if len(seats) == 1:
            parts.append(f"seat {seats[0]}")
        else:
            parts.append(f"seats {', '.join(seats[:-1])} and {seats[-1]}")
    if not out.lines or not out.lines[-1].startswith("deck"):
        out.blank()
    out.add(0, "teams: " + ", ".join(parts))


def _ranking(out: _Out, ranking: Mapping[str, Any]) -> None:
    _check(ranking, _keys("ranking"), "in 'ranking'")
    if not ranking:
        return
    lines: list[str] = []
    ranks = ranking.get("ranks")
    if ranks is not None:
        lines.append("ranks from high to low: " + " ".join(_rank(r) for r in ranks))
    tops = ranking.get("top_trumps") or []
    if tops:
        lines.append("top trumps from high to low: " + " ".join(_card(str(c)) for c in tops))
    follow = ranking.get("top_trumps_follow")
    if follow is not None and (follow != "trump" or tops):
        what = {"trump": "the trump suit", "printed": "their printed suit"}.get(
            str(follow), _word(follow, ("the", "their"))
        )
        lines.append(f"top trumps follow {what}")
    cut = ranking.get("cut_ranks")
    if cut is not None and [str(r) for r in cut] != [str(r) for r in ranks or []]:
        lines.append("cut order from high to low: " + " ".join(_rank(r) for r in cut))
    for key, head in (("free_cards", "cards that may always be played: "),
                      ("losing_cards", "cards that never win: "),
                      ("kept_cards", "cards that stay with their owner: ")):
        if ranking.get(key):
            lines.append(head + " ".join(_card(str(c)) for c in ranking[key]))
    if not lines:
        if "source" not in ranking:
            return
        lines.append("ranks from high to low: A K Q J 10 9 8 7 6 5 4 3 2")
    out.blank()
    out.add(0, lines[0])
    _source(out, 1, ranking)
    for line in lines[1:]:
        out.add(0, line)


def _variables(out: _Out, variables: Mapping[str, Any]) -> None:
    _check(variables, _keys("variables"), "in 'variables'")
    heads = {
        "player": "each player starts the match with",
        "hand_player": "each player starts each hand with",
        "hand": "each hand starts with",
        "match": "the match starts with",
    }
    first = True
    for scope, head in heads.items():
        table = variables.get(scope) or {}
        if not table:
            continue
        if first:
            out.blank()
            first = False
        inits = [f"{_word(k)} = {_literal(v)}" for k, v in table.items()]
        # one line per scope unless it gets long; several lines of one scope merge
        line = f"{head} " + ", ".join(inits)
        if len(line) <= _WIDTH:
            out.add(0, line)
        else:
            for init in inits:
                out.add(0, f"{head} {init}")
    if isinstance(variables.get("source"), str):
        if first:
            out.blank()
        _text(out, 0, "source of the variables", variables["source"])


def _dealer(out: _Out, dealer: Mapping[str, Any]) -> None:
    _check(dealer, _keys("dealer"), "in 'dealer'")
    if not dealer:
        return
    out.blank()
    lines: list[str] = []
    if "first" in dealer:
        first = dealer["first"]
        if isinstance(first, int) and not isinstance(first, bool):
            what = f"seat {first}"
        else:
            what = {"cut_low": "lowest cut", "cut_high": "highest cut", "random": "random"}.get(
                str(first), _word(first, ("lowest", "highest", "random", "seat"))
            )
        lines.append(f"first dealer: {what}")
    skip = dealer.get("skip_out")
    skip_phrase = (
        "" if skip is None else
        f", skipping players who are out if {skip}" if isinstance(skip, str) else
        ", skipping players who are out" if skip else ", not skipping players who are out"
    )
    if "rotate" in dealer:
        rotate = str(dealer["rotate"])
        if rotate == "none":
            lines.append("the deal does not pass" + skip_phrase)
        else:
            lines.append(f"the deal passes to the {_word(rotate)}" + skip_phrase)
    elif skip is not None:
        lines.append(
            "the deal skips players who are out" if skip
            else "the deal does not skip players who are out"
        )
    if not lines:
        lines.append("first dealer: lowest cut")  # a dealer map with only a source
    out.add(0, lines[0])
    _source(out, 1, dealer)
    for line in lines[1:]:
        out.add(0, line)


def _end(out: _Out, end: Mapping[str, Any]) -> None:
    _check(end, _keys("end"), "in 'end'")
    out.blank()
    out.add(0, "the match ends" + (f" when {_f(end['when'])}" if "when" in end else ""))
    if "winners" in end:
        out.add(1, f"the winners are the players where {_f(end['winners'])}")
    if end.get("score") is not None:  # optional: absent and "0" differ in the model
        out.add(1, f"the score of each player is {_f(end['score'])}")
    if end.get("max_hands") is not None:
        out.add(1, f"at most {int(end['max_hands'])} hands")
    _source(out, 1, end)


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


def _step_declare_melds(out: _Out, indent: int, step: Mapping[str, Any]) -> None:
    """``[for each player where …,] declare melds[, not shown | , shown if …]``."""
    _check(step, _keys("declare_melds"), "in a declare_melds step")
    body = step["declare_melds"] or {}
    _check(body, _keys("declare_melds", body=True), "in 'declare_melds'")
    head = ""
    each = step.get("for")
    if each is not None and _f(each) != "not out":
        head = "for each player, " if _f(each) == "true" else f"for each player where {_f(each)}, "
    show = body.get("show", True)
    tail = "" if show is True else ", not shown" if show is False else f", shown if {_f(show)}"
    out.add(indent, f"{head}declare melds{tail}")
    _attrs(out, indent + 1, step, "declare-melds")


#: The writer of each step kind (its home's ``write``).
_STEP_WRITERS: dict[str, Callable[[_Out, int, Mapping[str, Any]], None]] = {
    **{h.name: h.write for h in STEP_HOMES if h.write is not None},
    # the steps without a home yet
    "declare_melds": _step_declare_melds,
}
