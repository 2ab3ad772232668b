"""The canonical model of a spec, and :class:`SpecDoc` (a loaded spec).

:func:`normalize` turns a schema-valid spec tree (from either surface) into
the *canonical model*: a plain JSON-like tree where

* every default of ``docs/spec-reference.md`` is filled in (a step's ``when``
  defaults to ``"true"``, ``deal.packets`` to ``[1]``, ...);
* formula fields are always ``str`` (``5`` -> ``"5"``, ``True`` -> ``"true"``);
* bool-or-condition fields (``follow``, ``head``, ``turn_up.trump``, ...) are
  ``bool`` when literally true/false (also the texts ``"true"``/``"false"``),
  else the condition text;
* ranks are canonical texts (``"10"``, ``"J"``), suits letters (``"C"``), cards
  canonical names (``"JC"``; ``"J♣"`` and ``"jc"`` are accepted), relative top
  trumps ``"J@trump"`` / ``"J@trump_colour"``;
* ``source`` (and ``label``) are kept where given and left out when absent, as
  are ``set``'s ``for`` and ``end.max_hands`` (absent means "no bound");
* keys come in a fixed order for fixed-key maps (the order of the reference);
  maps keyed by the author (``options``, ``sources``, variables, assignments)
  keep the author's order, which is meaningful for assignments.

Nodes keep the *paths* they had in the input (lists stay lists, maps stay
maps), so positions recorded for the input also locate the canonical nodes.

>>> tree = normalize({"spelbok": 1, "name": "Mini", "players": {"min": 2, "max": 4},
...     "deck": [{"ranks": ["a", 10, "k"]}], "hand": [{"deal": {"size": 3}}, {"tricks": {}}],
...     "end": {"when": "hand_number >= 3", "winners": True}})
>>> tree["deck"]
[{'players': [2, 4], 'ranks': ['A', '10', 'K'], 'suits': ['C', 'S', 'H', 'D']}]
>>> tree["hand"][0]
{'deal': {'size': '3', 'packets': [1], 'to': 'not out'}, 'when': 'true'}
>>> tree["end"]
{'when': 'hand_number >= 3', 'winners': 'true'}
>>> normalize(tree) == tree
True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..cards import RANKS, SUIT_INDEX, SUITS, card_name, normalize_rank, parse_card
from ..errors import SpecError
from .yamlio import key_path

__all__ = [
    "ALL_RANKS_HIGH_LOW",
    "DEFAULT_MAX_HANDS",
    "STEP_KINDS",
    "STOCK_POSITIONS",
    "TRUMPS_BROKEN_BY",
    "SpecDoc",
    "normalize",
    "formula_text",
    "condition_value",
]

#: The default rank order, high to low.
ALL_RANKS_HIGH_LOW: tuple[str, ...] = tuple(reversed(RANKS))
#: The bound on a match's hands when ``end.max_hands`` is absent (redeals count).
DEFAULT_MAX_HANDS = 1000
#: The step kinds, in the reference's order.
STEP_KINDS: tuple[str, ...] = (
    "deal",
    "turn_up",
    "decide",
    "tricks",
    "set",
    "if",
    "repeat",
    "redeal",
    "end_hand",
    "move",
)

#: What breaks trumps for ``lead_trumps: broken`` (``tricks.trumps_broken_by``), the default first.
TRUMPS_BROKEN_BY: tuple[str, ...] = ("ruff", "any")
#: Where cards moved to the stock go (``move.position``), the default first.
STOCK_POSITIONS: tuple[str, ...] = ("shuffled", "top", "bottom")

Tree = dict[str, Any]


def formula_text(value: Any) -> str:
    """A formula field's canonical text.

    >>> formula_text(5), formula_text(True), formula_text("score - 5")
    ('5', 'true', 'score - 5')
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    return _squeeze(str(value))


def _squeeze(text: str) -> str:
    """Runs of white space outside quotes become one space, so that the same
    formula written over several lines (YAML blocks, DSL continuations) has
    one canonical text.

    >>> _squeeze("a  +   b == 'x  y'")
    "a + b == 'x  y'"
    """
    if "\n" not in text and "  " not in text and "\t" not in text:
        return text.strip()
    out: list[str] = []
    quote = ""
    space = False
    for ch in text.strip():
        if quote:
            out.append(ch)
            if ch == quote:
                quote = ""
            continue
        if ch in " \t\r\n":
            space = True
            continue
        if space:
            out.append(" ")
            space = False
        if ch in "'\"":
            quote = ch
        out.append(ch)
    return "".join(out)


def condition_value(value: Any) -> bool | str:
    """A bool-or-condition field's canonical value.

    >>> condition_value("true"), condition_value(False), condition_value("void_rule == 'any'")
    (True, False, "void_rule == 'any'")
    """
    if isinstance(value, bool):
        return value
    text = str(value)
    if text.strip() == "true":
        return True
    if text.strip() == "false":
        return False
    return text


def _rank(value: Any) -> str:
    rank = normalize_rank(value)
    return rank if rank is not None else str(value)


def _suit(value: Any) -> str:
    index = SUIT_INDEX.get(str(value).strip().upper())
    return SUITS[index] if index is not None else str(value)


def _card(value: Any) -> str:
    card = parse_card(str(value))
    return card_name(card) if card is not None else str(value)


def _top_trump(value: Any) -> str:
    text = str(value).strip()
    if "@" in text:
        rank, _, rel = text.partition("@")
        return f"{_rank(rank)}@{rel}"
    return _card(text)


def _with_source(out: Tree, src: Mapping[str, Any]) -> Tree:
    if isinstance(src.get("source"), str):
        out["source"] = src["source"]
    return out


def _map(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _list(value: Any) -> list[Any]:
    return list(value) if isinstance(value, list | tuple) else []


def _assignments(value: Any) -> Tree:
    return {str(k): formula_text(v) for k, v in _map(value).items()}


def _who(value: Any, default: str) -> str | Tree:
    if value is None:
        return default
    if isinstance(value, Mapping):
        return {
            "most": formula_text(value.get("most", "0")),
            "ties": str(value.get("ties", "forehand")),
        }
    return str(value)


def _step_tail(out: Tree, step: Mapping[str, Any]) -> Tree:
    out["when"] = formula_text(step.get("when", "true"))
    if isinstance(step.get("label"), str):
        out["label"] = step["label"]
    return _with_source(out, step)


_TRICK_CONDITIONS: tuple[tuple[str, bool], ...] = (
    ("follow", True),
    ("head", False),
    ("head_after_trump", False),
    ("void_trump", False),
    ("void_beat", False),
)


def _tricks(body: Mapping[str, Any]) -> Tree:
    out: Tree = {
        "players": formula_text(body.get("players", "not out")),
        "leader": _who(body.get("leader"), "forehand"),
        "leader_where": formula_text(body.get("leader_where", "true")),
    }
    for name, default in _TRICK_CONDITIONS:
        out[name] = condition_value(body.get(name, default))
    out["lead_trumps"] = str(body.get("lead_trumps", "any"))
    if body.get("trumps_broken_by", TRUMPS_BROKEN_BY[0]) != TRUMPS_BROKEN_BY[0]:
        out["trumps_broken_by"] = str(body["trumps_broken_by"])  # kept only when not the default
    out["first_trick_trumps"] = condition_value(body.get("first_trick_trumps", True))
    out["abstain"] = formula_text(body.get("abstain", "false"))
    out["abstain_word"] = str(body.get("abstain_word", "knock"))
    out["abstain_lead"] = condition_value(body.get("abstain_lead", True))
    out["abstain_with_suit"] = condition_value(body.get("abstain_with_suit", True))
    out["allow"] = formula_text(body.get("allow", "true"))
    if isinstance(body.get("reason"), str):
        out["reason"] = body["reason"]
    # optional parts, kept only when given (so older canonical trees stay as they were)
    if body.get("count", "all") != "all":
        out["count"] = formula_text(body["count"])
    if "scored" in body and condition_value(body["scored"]) is not True:
        out["scored"] = condition_value(body["scored"])
    if body.get("after_each"):
        out["after_each"] = _steps(body["after_each"])
    return _with_source(out, body)


def _word(value: Any) -> str | Tree:
    """A word option of a decision: plain, or ``{word, when}`` when it has a condition."""
    if isinstance(value, Mapping):
        when = formula_text(value.get("when", "true"))
        word = str(value.get("word", ""))
        return word if when.strip() == "true" else {"word": word, "when": when}
    return str(value)


def _step(step: Mapping[str, Any]) -> Tree:
    kind = next((k for k in STEP_KINDS if k in step), None)
    out: Tree = {}
    if kind == "deal":
        body = _map(step["deal"])
        out["deal"] = _with_source(
            {
                "size": formula_text(body.get("size", "0")),
                "packets": [int(p) for p in _list(body.get("packets", [1]))],
                "to": formula_text(body.get("to", "not out")),
            },
            body,
        )
        if body.get("widow") not in (None, 0, "0"):
            out["deal"]["widow"] = formula_text(body["widow"])
    elif kind == "turn_up":
        body = _map(step["turn_up"])
        out["turn_up"] = _with_source({"trump": condition_value(body.get("trump", True))}, body)
    elif kind == "decide":
        out["decide"] = str(step["decide"])
        out["who"] = _who(step.get("who"), "each")
        out["where"] = formula_text(step.get("where", "true"))
        choose = step.get("choose", [])
        out["choose"] = [_word(w) for w in choose] if isinstance(choose, list) else str(choose)
        if choose == "number" or "min" in step or "max" in step:
            out["min"] = formula_text(step.get("min", "0"))
            out["max"] = formula_text(step.get("max", "0"))
        if "suits" in step or choose == "suit":
            out["suits"] = [_suit(s) for s in _list(step.get("suits", list(SUITS)))]
        if "exchange" in step or choose == "exchange":
            body = _map(step.get("exchange"))
            out["exchange"] = _with_source(
                {
                    "draw_from": str(body.get("draw_from", "stock")),
                    "max": formula_text(body.get("max", "cards")),
                    "min": formula_text(body.get("min", "0")),
                },
                body,
            )
        if step.get("allow", "true") not in ("true", True):
            out["allow"] = formula_text(step["allow"])
        out["then"] = _assignments(step.get("then"))
    elif kind == "move":
        body = _map(step["move"])
        count = body.get("count", "all")
        move: Tree = {
            "from": str(body.get("from", "stock")),
            "to": str(body.get("to", "hand")),
            "count": "all" if count == "all" else formula_text(count),
        }
        if body.get("position", STOCK_POSITIONS[0]) != STOCK_POSITIONS[0]:
            move["position"] = str(body["position"])  # kept only when not the default
        out["move"] = _with_source(move, body)
        if "for" in step:
            out["for"] = formula_text(step["for"])
    elif kind == "tricks":
        out["tricks"] = _tricks(_map(step["tricks"]))
    elif kind == "set":
        out["set"] = _assignments(step["set"])
        if "for" in step:
            out["for"] = formula_text(step["for"])
    elif kind == "if":
        out["if"] = formula_text(step["if"])
        out["then"] = _steps(step.get("then"))
        out["else"] = _steps(step.get("else"))
    elif kind == "repeat":
        out["repeat"] = formula_text(step["repeat"])
        out["while"] = formula_text(step.get("while", "true"))
        out["steps"] = _steps(step.get("steps"))
    elif kind == "redeal":
        body = _map(step["redeal"])
        out["redeal"] = _with_source({"dealer": str(body.get("dealer", "same"))}, body)
    elif kind == "end_hand":
        out["end_hand"] = True
    return _step_tail(out, step)


def _steps(value: Any) -> list[Tree]:
    return [_step(_map(s)) for s in _list(value)]


def _players_range(value: Any, lo: int, hi: int) -> list[int]:
    if value is None:
        return [lo, hi]
    if isinstance(value, int) and not isinstance(value, bool):
        return [value, value]
    return [int(v) for v in _list(value)]


def _scalar(value: Any) -> Any:
    return value if isinstance(value, bool | int | str) else str(value)


def normalize(tree: Mapping[str, Any]) -> Tree:
    """The canonical model of a schema-valid spec tree (see the module docstring).

    Never mutates ``tree``; ``normalize(normalize(t)) == normalize(t)``.

    >>> t = normalize({"spelbok": 1, "name": "x", "players": {"min": 2, "max": 2},
    ...     "deck": [{"ranks": ["A"], "suits": ["♣", "s"]}], "hand": [{"end_hand": True}],
    ...     "end": {"when": True, "winners": "true", "max_hands": 1},
    ...     "ranking": {"top_trumps": ["j♣", "j@trump"]}})
    >>> t["deck"][0]["suits"], t["ranking"]["top_trumps"]
    (['C', 'S'], ['JC', 'J@trump'])
    """
    players = _map(tree.get("players"))
    lo = players.get("min", 2)
    hi = players.get("max", lo)
    out: Tree = {"spelbok": tree.get("spelbok", 1), "name": str(tree.get("name", ""))}
    out["about"] = str(tree.get("about", ""))
    out["sources"] = {str(k): str(v) for k, v in _map(tree.get("sources")).items()}
    out["players"] = _with_source({"min": lo, "max": hi}, players)

    options: Tree = {}
    for name, opt in _map(tree.get("options")).items():
        opt = _map(opt)
        values = [_scalar(v) for v in _list(opt.get("values"))]
        default = _scalar(opt["default"]) if "default" in opt else (values[0] if values else None)
        options[str(name)] = _with_source(
            {"values": values, "default": default, "about": str(opt.get("about", ""))}, opt
        )
    out["options"] = options

    deck: list[Tree] = []
    for entry in _list(tree.get("deck")):
        entry = _map(entry)
        deck.append(
            _with_source(
                {
                    "players": _players_range(entry.get("players"), lo, hi),
                    "ranks": [_rank(r) for r in _list(entry.get("ranks"))],
                    "suits": [_suit(s) for s in _list(entry.get("suits", list(SUITS)))],
                },
                entry,
            )
        )
    out["deck"] = deck
    if tree.get("teams"):
        out["teams"] = [[int(p) for p in _list(team)] for team in _list(tree["teams"])]

    ranking = _map(tree.get("ranking"))
    ranks = [_rank(r) for r in _list(ranking.get("ranks", ALL_RANKS_HIGH_LOW))]
    out["ranking"] = _with_source(
        {
            "ranks": ranks,
            "top_trumps": [_top_trump(c) for c in _list(ranking.get("top_trumps"))],
            "top_trumps_follow": str(ranking.get("top_trumps_follow", "trump")),
            "cut_ranks": [_rank(r) for r in _list(ranking.get("cut_ranks", ranks))],
        },
        ranking,
    )

    variables = _map(tree.get("variables"))
    out["variables"] = _with_source(
        {
            scope: {str(k): _scalar(v) for k, v in _map(variables.get(scope)).items()}
            for scope in ("player", "hand_player", "hand", "match")
        },
        variables,
    )

    dealer = _map(tree.get("dealer"))
    first = dealer.get("first", "cut_low")
    out["dealer"] = _with_source(
        {
            "first": first
            if isinstance(first, int) and not isinstance(first, bool)
            else str(first),
            "rotate": str(dealer.get("rotate", "left")),
            "skip_out": condition_value(dealer.get("skip_out", True)),
        },
        dealer,
    )

    out["hand"] = _steps(tree.get("hand"))

    end = _map(tree.get("end"))
    end_out: Tree = {
        "when": formula_text(end.get("when", "false")),
        "winners": formula_text(end.get("winners", "false")),
    }
    if "score" in end and end["score"] is not None:
        end_out["score"] = formula_text(end["score"])
    if "max_hands" in end and end["max_hands"] is not None:
        end_out["max_hands"] = int(end["max_hands"])
    out["end"] = _with_source(end_out, end)
    return out


Position = tuple[str, int | None, int | None]


@dataclass
class SpecDoc:
    """A loaded spec: canonical tree, the tree as read, and source positions.

    ``positions`` maps a path (tuple of keys and indexes, ``()`` the root) to
    ``(file, line, col)`` of the node's value; entries under
    ``yamlio.key_path(path)`` locate map keys.  Paths are the same in ``raw``
    and ``tree``.  ``parents`` lists the files merged in through ``extends``
    (nearest first).

    >>> doc = SpecDoc(tree={}, raw={}, positions={("hand",): ("g.yaml", 40, 3)}, path="g.yaml")
    >>> doc.locate(("hand", 2, "deal"))
    ('g.yaml', 40, 3)
    >>> str(doc.error(("hand", 2), "this step can never run"))
    'g.yaml:40:3: this step can never run'
    """

    tree: Tree
    raw: Tree
    positions: dict[tuple[Any, ...], Position]
    path: str
    surface: str = "yaml"
    parents: tuple[str, ...] = field(default=())

    def locate(self, path: Iterable[Any], *, key: bool = False) -> Position:
        """``(file, line, col)`` of the node at ``path``, or of its nearest located ancestor.

        With ``key=True`` the position of the map key naming the node is preferred.
        Unknown positions are ``(self.path, None, None)``.
        """
        p = tuple(path)
        if key:
            pos = self.positions.get(key_path(p))
            if pos is not None:
                return pos
        while True:
            pos = self.positions.get(p)
            if pos is not None:
                return pos
            if not p:
                return (self.path, None, None)
            p = p[:-1]

    def error(
        self, path: Iterable[Any], message: str, hint: str | None = None, *, key: bool = False
    ) -> SpecError:
        """A :class:`SpecError` located at ``path`` (see :meth:`locate`)."""
        file, line, col = self.locate(path, key=key)
        return SpecError(message, path=file, line=line, col=col, hint=hint)
