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
  are ``set``'s ``for`` and ``end.max_hands`` (absent means the safety bound
  :data:`DEFAULT_MAX_HANDS`, declared in the vocabulary);
* the keys, their order, defaults and words are the vocabulary's
  (:mod:`spelbok.lang.vocabulary`): one generic pass over each construct's fields,
  with a small converter per field type;
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

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..cards import RANKS, SUIT_INDEX, SUITS, card_name, normalize_rank, parse_card
from ..errors import SpecError
from . import vocabulary as _v
from .constructs.players import FIRST_BIDDER
from .vocabulary import ABSENT, Construct, Derived, Field
from .vocabulary import step_kind as _step_kind
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
# the vocabulary's, re-exported under the model's long-standing names
DEFAULT_MAX_HANDS: int = _v.DEFAULT_MAX_HANDS
STEP_KINDS: tuple[str, ...] = _v.STEP_KINDS
#: What breaks trumps for ``lead_trumps: broken`` (``tricks.trumps_broken_by``), the default first.
TRUMPS_BROKEN_BY: tuple[str, ...] = _v.words("tricks", "trumps_broken_by")
#: Where cards moved to the stock go (``move.position``), the default first.
STOCK_POSITIONS: tuple[str, ...] = _v.words("move", "position")

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
    # rank names are case-insensitive, upper case when canonical: a declared pack's
    # ranks too (``_pack_defaults``), wherever a field names one (top trumps, melds...)
    rank = normalize_rank(value)
    return rank if rank is not None else str(value).strip().upper()


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


def _map(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _list(value: Any) -> list[Any]:
    return list(value) if isinstance(value, list | tuple) else []


def _scalar(value: Any) -> Any:
    return value if isinstance(value, bool | int | str) else str(value)


@dataclass(frozen=True)
class _Ctx:
    """What a derived default reads besides its own map: the spec's player counts and the
    way its turn goes round (``players.direction``)."""

    players: tuple[Any, Any]
    direction: str = "left"


Convert = Callable[[Any, _Ctx], Any]
_WORD_OPTION = _v.construct("word_option")
_WHO_MAP = _v.construct("who_map")
_ALLOW_LEVEL = _v.construct("allow_level")


def _word_option(value: Any, ctx: _Ctx) -> str | Tree:
    """A word option of a decision: plain, or ``{word, when}`` when it has a condition."""
    if isinstance(value, Mapping):
        node = _fields(_WORD_OPTION, value, _WORD_OPTION.fields, ctx)
        return node["word"] if node["when"].strip() == "true" else node
    return str(value)


def _allow(value: Any, ctx: _Ctx) -> str | list[Tree]:
    """An ``allow``: one condition, or its levels in order (``{if, reason}`` maps)."""
    if isinstance(value, list):
        return [_fields(_ALLOW_LEVEL, _map(x), _ALLOW_LEVEL.fields, ctx) for x in value]
    return formula_text(value)


def _who(value: Any, ctx: _Ctx) -> str | Tree:
    if isinstance(value, Mapping):
        return _fields(_WHO_MAP, value, _WHO_MAP.fields, ctx)
    return str(value)


def _range(value: Any, ctx: _Ctx) -> list[int]:
    if isinstance(value, int) and not isinstance(value, bool):
        return [value, value]
    return [int(v) for v in _list(value)]


def _value_table(value: Any) -> Tree:
    """A table's levels, keys as text (``3`` and ``'3'`` are one key)."""
    return {str(k): _value_table(x) if isinstance(x, Mapping) else _scalar(x)
            for k, x in _map(value).items()}


def _steps(value: Any, ctx: _Ctx) -> list[Tree]:
    return [_step(_map(s), ctx) for s in _list(value)]


#: The converter of each field type (a construct's map, ``list[T]``, ``names[T]`` and
#: ``map[T]`` are handled by :func:`_convert`).
_CONVERT: dict[str, Convert] = {
    "formula": lambda v, c: formula_text(v),
    "condition": lambda v, c: condition_value(v),
    "word": lambda v, c: str(v), "token": lambda v, c: str(v), "name": lambda v, c: str(v),
    "str": lambda v, c: str(v), "text": lambda v, c: str(v), "source": lambda v, c: str(v),
    "scalar": lambda v, c: _scalar(v),
    "int": lambda v, c: int(v), "packet": lambda v, c: int(v), "seat": lambda v, c: int(v),
    "version": lambda v, c: v,
    "true": lambda v, c: True,
    "rank": lambda v, c: _rank(v), "suit": lambda v, c: _suit(v), "card": lambda v, c: _card(v),
    "top_trump": lambda v, c: _top_trump(v),
    "ranks": lambda v, c: [_rank(r) for r in _list(v)],
    "suits": lambda v, c: [_suit(s) for s in _list(v)],
    "team": lambda v, c: [int(p) for p in _list(v)],
    "card_group": lambda v, c: [_card(x) for x in _list(v)],
    "count": lambda v, c: "all" if v == "all" else formula_text(v),
    "first_dealer": lambda v, c: v if isinstance(v, int) and not isinstance(v, bool) else str(v),
    "range": _range,
    "assignments": lambda v, c: {str(k): formula_text(x) for k, x in _map(v).items()},
    "var_map": lambda v, c: {str(k): _scalar(x) for k, x in _map(v).items()},
    "value_table": lambda v, c: _value_table(v),
    "points_by_rank": lambda v, c: {_rank(k): int(x) for k, x in _map(v).items()},
    "points_by_card": lambda v, c: {_card(k): int(x) for k, x in _map(v).items()},
    "who": _who,
    "choose": lambda v, c: [_word_option(w, c) for w in v] if isinstance(v, list) else str(v),
    "allow": lambda v, c: _allow(v, c),
    "steps": _steps,
}


def _convert(type_: str, value: Any, ctx: _Ctx) -> Any:
    """``value`` in its canonical form for a field of type ``type_``."""
    for wrap in ("list[", "names[", "map["):
        if type_.startswith(wrap):
            inner = type_[len(wrap):-1]
            if wrap == "list[":
                return [_convert(inner, x, ctx) for x in _list(value)]
            return {str(k): _convert(inner, x, ctx) for k, x in _map(value).items()}
    if type_ in _CONVERT:
        return _CONVERT[type_](value, ctx)
    c = _v.construct(type_)
    return _fields(c, _map(value), c.fields, ctx)


#: A required key's value when a (not schema-valid) tree lacks it, by type.
_BLANK: dict[str, Any] = {"version": 1, "int": 0, "formula": "false", "condition": False,
                          "true": True, "name": "", "str": "", "token": "", "choose": []}

#: Derived defaults that are not a construct's own defaults: (construct, key) -> value.
_DERIVED: dict[tuple[str, str], Callable[[Tree, _Ctx], Any]] = {
    ("option", "default"): lambda out, ctx: out["values"][0] if out["values"] else None,
    ("deck_entry", "players"): lambda out, ctx: list(ctx.players),
    ("ranking", "cut_ranks"): lambda out, ctx: list(out["ranks"]),
    ("pack_suit", "name"): lambda out, ctx: out["letter"],
    ("pack_suit", "symbol"): lambda out, ctx: out["letter"],
    ("contract", "name"): lambda out, ctx: str(out.get("level", 0)),
    ("contract", "aim"): lambda out, ctx: out.get("level", 0),
    # the deal passes the way the turn goes; the auction starts at forehand, the dealer's
    # next seat that way
    ("dealer", "rotate"): lambda out, ctx: ctx.direction,
    ("auction", "first"): lambda out, ctx: FIRST_BIDDER[ctx.direction],
}



def _fields(c: Construct, src: Mapping[str, Any], fields: Iterable[Field], ctx: _Ctx) -> Tree:
    """The canonical map of ``fields`` (keys of construct ``c``) read from ``src``: in the
    declared order, defaults filled, an ``omitted`` key left out while it holds its default,
    a key a word brings into play (``choose: number``'s ``min``) filled only with it."""
    fields = tuple(fields)
    uses = {u: (f.name, w) for f in fields for w in f.words for u in w.uses}
    out: Tree = {}
    for f in fields:
        value = src.get(f.name)
        if f.type in ("source", "text") and not isinstance(value, str):
            value = None  # a name or a passage is text, or absent
        if value is None:
            if f.name in uses:
                key, word = uses[f.name]
                if src.get(key) != word.name and all(src.get(u) is None for u in word.uses):
                    continue
            if f.required:
                value = _BLANK.get(f.type, [] if f.type not in _CONVERT else "")
            elif f.default is ABSENT or f.omitted:
                continue
            elif isinstance(f.default, Derived):
                derive = _DERIVED.get((c.name, f.name))
                out[f.name] = derive(out, ctx) if derive else _convert(f.type, {}, ctx)
                continue
            else:
                value = f.default
        canonical = _convert(f.type, value, ctx)
        if f.omitted and canonical == _convert(f.type, f.default, ctx):
            continue
        if canonical == [] and f.default is ABSENT and not f.required and not f.keep_empty:
            continue  # an empty list with no default is none (``teams: []``)
        out[f.name] = canonical
    return out


def _step(step: Mapping[str, Any], ctx: _Ctx) -> Tree:
    kind = _step_kind(step)
    out: Tree = {}
    if kind is None:  # not schema-valid: its common keys only
        out.update(_fields(_v.SPEC, step, _v.STEP_COMMON, ctx))
        return out
    c = _v.step(kind)
    if c.body is not None:
        out[kind] = _fields(c, _map(step[kind]), c.body, ctx)
    elif c.value is not None:
        out[kind] = _convert(c.value.type, step[kind], ctx)
    out.update(_fields(c, step, c.own_fields(), ctx))
    return out


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
    direction = players.get("direction")
    ctx = _Ctx((lo, players.get("max", lo)), direction if direction in FIRST_BIDDER else "left")
    src = dict(tree)
    src.setdefault("players", {"min": lo, "max": lo})
    # ``extends`` is merged before normalizing (loader.py): the model has no parent
    out = _fields(_v.SPEC, src, (f for f in _v.SPEC.fields if f.name != "extends"), ctx)
    if "pack" in out:
        _pack_defaults(out, src)
    _suit_keys(out)
    return out


def _suit_keys(out: Tree) -> None:
    """The suits keying ``ranking.suit_ranks`` in canonical form: a declared pack's
    letters upper case as written, the French suits' letters from any spelling (``c``,
    ``♣``)."""
    orders = out.get("ranking", {}).get("suit_ranks")
    if not orders:
        return
    declared = "pack" in out
    out["ranking"]["suit_ranks"] = {
        (str(k).strip().upper() if declared or str(k).strip().upper() not in SUIT_INDEX
         else _suit(k)): v for k, v in orders.items()}


def _pack_defaults(out: Tree, src: Mapping[str, Any]) -> None:
    """A declared pack's texts in canonical form (upper case), and the defaults that name
    its suits and ranks where the vocabulary's name the French ones (the deck's suits, the
    rank order: the pack's ranks, high to low)."""
    pack = out["pack"]
    pack["ranks"] = [str(r).strip().upper() for r in pack["ranks"]]
    for suit in pack["suits"]:
        suit["letter"] = suit["letter"].strip().upper()
    for extra in pack["extra"]:
        extra["suit"] = str(extra["suit"]).strip().upper() if extra["suit"] != "none" else "none"
        if extra["rank"] != "none":
            extra["rank"] = str(extra["rank"]).strip().upper()
    letters = [s["letter"] for s in pack["suits"]]
    given = _list(src.get("deck"))
    for i, entry in enumerate(out.get("deck", [])):
        src_entry = given[i] if i < len(given) and isinstance(given[i], Mapping) else None
        if src_entry is not None and src_entry.get("suits") is None:
            entry["suits"] = list(letters)
        entry["ranks"] = [str(r).upper() for r in entry["ranks"]]
        raw = _list(src_entry.get("suits")) if src_entry is not None else []
        # a letter of the declared pack stays as written: '♣' may be a pack's own letter,
        # not the French clubs the generic suit normalization reads it as
        suits = []
        for j, x in enumerate(entry["suits"]):
            r = str(raw[j]).strip().upper() if j < len(raw) else None
            suits.append(r if r is not None and r in letters else str(x).upper())
        entry["suits"] = suits
    french = list(_v.construct("decide").field("suits").default)
    for _path, step in _v.walk_steps(out.get("hand", [])):
        if step.get("suits") == french and not set(french) <= set(letters):
            step["suits"] = list(letters)  # the default: every suit of the pack
    ranking = _map(src.get("ranking"))
    if "ranking" in out:
        order = out["ranking"]
        if ranking.get("ranks") is None:
            order["ranks"] = list(reversed(pack["ranks"]))
        else:
            order["ranks"] = [str(r).upper() for r in order["ranks"]]
        if ranking.get("cut_ranks") is None:
            order["cut_ranks"] = list(order["ranks"])
        else:
            order["cut_ranks"] = [str(r).upper() for r in order["cut_ranks"]]


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
