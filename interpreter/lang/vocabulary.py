"""The spec language, declared once: sections, step kinds, their keys, built-in names.

This module is the language reference in code.  Each *construct* (the top level,
a section such as ``dealer``, a step kind such as ``deal``, a part such as a
deck entry) lists its keys as :class:`Field` values (each in its construct's home in
:mod:`spelbok.lang.constructs`, listed here from the registry): type, default, allowed
words and a one-line doc.  The JSON Schema of the YAML surface
(:mod:`spelbok.lang.schema`) and the tables of ``docs/spec-reference.md``
(:mod:`spelbok.lang.reference`) are generated from it; the model's defaults,
the step walkers and the checks can read it instead of restating it.

A field's ``type`` is a name of :data:`TYPES` (``formula``, ``condition``,
``word``...), the name of a construct (its map), or ``list[T]`` / ``names[T]``
(a map from formula names to T) / ``map[T]`` (a map from any key to T).
``default`` is the canonical value a missing key means (:data:`ABSENT`: it stays
absent); ``omitted`` fields are left out of the canonical model while they hold
their default.  Bounds come from :mod:`spelbok.limits`.

>>> STEP_KINDS[:4]
('deal', 'turn_up', 'decide', 'tricks')
>>> defaults("deal")
{'deal': {'packets': [1], 'to': 'not out'}, 'when': 'true'}
>>> words("move", "from")
('hand', 'widow', 'stock', 'turn_up', 'discards', 'laid_aside')
>>> step("tricks").field("lead_trumps").default, words("tricks", "lead_trumps")
('any', ('any', 'broken'))
>>> [b.name for b in builtins("player")][:3]
['seat', 'out', 'sits_out']
>>> [b.name for b in BUILTINS if b.settable]
['out', 'trump', 'stock_closed', 'mode']
>>> sorted(f.name for f in FUNCTIONS if f.aggregate and f.scalar)
['max', 'min']
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

from spelbok.limits import MAX_CARDS, MAX_PLAYERS

from ..formula.functions import FUNCTIONS as _FUNCTIONS
from .constructs import PARTS as HOME_PARTS
from .constructs import SECTION_HOMES, STEP_HOMES, pass_cards, patterns

# the names these maps and words had here before they moved to their homes
from .constructs.auction import CONTRACT as CONTRACT
from .constructs.decide import CHOOSE_KINDS
from .constructs.decide import EXCHANGE as EXCHANGE
from .constructs.decide import WORD_OPTION as WORD_OPTION
from .constructs.deck import DECK_ENTRY as DECK_ENTRY
from .constructs.declarations import DECLARATION as DECLARATION
from .constructs.end import DEFAULT_MAX_HANDS
from .constructs.game import GAME
from .constructs.melds import MELD as MELD
from .constructs.options import OPTION as OPTION
from .constructs.pack import PACK_EXTRA as PACK_EXTRA
from .constructs.pack import PACK_SUIT as PACK_SUIT
from .constructs.shared import ALLOW_LEVEL as ALLOW_LEVEL
from .constructs.shared import WHO_MAP as WHO_MAP
from .constructs.shared import ZONES as _ZONES
from .declare import (
    ABSENT,
    SOURCE,
    STEP_COMMON,
    Builtin,
    Construct,
    Derived,
    Field,
    Function,
    Word,
    words_of,
)

__all__ = [
    "ABSENT",
    "BUILTINS",
    "CHOOSE_KINDS",
    "CONSTRUCTS",
    "DEFAULT_MAX_HANDS",
    "FUNCTIONS",
    "KEYWORDS",
    "SECTIONS",
    "SPEC",
    "STEP_COMMON",
    "STEP_KINDS",
    "STEPS",
    "TYPES",
    "ZONES",
    "Builtin",
    "Construct",
    "Derived",
    "Field",
    "Function",
    "Word",
    "builtins",
    "construct",
    "defaults",
    "step",
    "step_lists",
    "walk_steps",
    "words",
]


# ------------------------------------------------------------------------------ words

ZONES: tuple[Word, ...] = _ZONES
KEYWORDS: tuple[Word, ...] = (
    Word("if", "`if a then b else c`"),
    Word("then", "see `if`"),
    Word("else", "see `if`"),
    Word("and", "both conditions"),
    Word("or", "either condition"),
    Word("not", "the opposite condition"),
    Word("where", "the cards of a card set that meet a condition on each card "
         "(`hand where card_is_trump`)"),
    Word("true", "the true condition"),
    Word("false", "the false condition"),
)
#: The types a field may have (besides constructs and list/names/map of a type).
TYPES: tuple[Word, ...] = (
    Word("source", "The passage of the rules text this rule encodes (may start with a "
         "`sources` id: `en: Play`)."),
    Word("text", "Free text."),
    Word("formula", "A formula of the formula language; integers and booleans are shorthand "
         "for constant formulas."),
    Word("condition", "A boolean, or a condition evaluated once when the step starts (e.g. on "
         "an option); a trick rule that reads a name of the trick (`trick_number`) is "
         "evaluated again at the start of each trick."),
    Word("word", "One of the field's words, or the name of an option whose values are such "
         "words."),
    Word("name", "A name usable in formulas: letters, digits and _, not starting with a "
         "digit."),
    Word("scalar", "A string, an integer, true or false."),
    Word("rank", "A rank: 2..10, J, Q, K, A (T for ten)."),
    Word("suit", "A suit: C S H D (or ♣ ♠ ♥ ♦)."),
    Word("card", "A card: rank then suit, e.g. 10H, JC, J♣."),
    Word("top_trump", "A card name, or J@trump (rank J of the trump suit) / J@trump_colour "
         "(rank J of the other suit of the trump's colour)."),
    Word("ranks", "A list of ranks."),
    Word("suits", "A list of suits."),
    Word("range", "An inclusive range [min, max] of player counts (a single integer n means "
         "[n, n])."),
    Word("assignments", "name: formula assignments, applied in order."),
    Word("who", "A word (dealer, forehand, each, last_winner) or the player with the most of "
         "a formula."),
    Word("steps", "A list of steps."),
    Word("choose", "What a decision chooses: a list of words, suit, number or exchange."),
    Word("var_map", "Variables and their initial values (a string, an integer, true or "
         "false)."),
    Word("allow", "A condition on each candidate (a card, an option), or a list of at least "
         "two levels (`if`, `reason`) tried in order: the first level that admits a candidate "
         "decides."),
    Word("value_table", "A table of values: a map from keys (all numbers or all words at "
         "one level) to values (all numbers, all words or all true/false) or to tables of "
         "the next level; `otherwise` gives the value of a missing key."),
    Word("points_by_rank", "Points by rank: a map from ranks to integers (`A: 11`)."),
    Word("points_by_card", "Points of single cards: a map from cards to integers (`QS: 13`)."),
    # inline types (no schema definition of their own)
    Word("str", "a string"),
    Word("int", "an integer"),
    Word("token", "a word: no spaces"),
    Word("version", "the format version, 1"),
    Word("seat", f"a seat number 0..{MAX_PLAYERS - 1}"),
    Word("team", "a list of seats"),
    Word("card_group", "a list of two cards or more"),
    Word("packet", f"a packet size 1..{MAX_CARDS}"),
    Word("count", f"'all' or a formula (an integer at most {MAX_CARDS})"),
    Word("first_dealer", "a word or a seat number"),
    Word("true", "the value true"),
)


_w = words_of

_SOURCE = SOURCE
#: Where passed cards go (``pass_cards.directions``).
PASS_DIRECTIONS = pass_cards.DIRECTIONS

# ------------------------------------------------------------------------------ parts


HAND_PATTERN = patterns.PATTERN

#: The part maps, each declared in its home (the registry's).
PARTS: tuple[Construct, ...] = HOME_PARTS

# ------------------------------------------------------------------------------ steps


#: The step kinds' maps, each declared in its home (``lang/constructs/``), in the
#: registry's order (the reference's).
STEPS: tuple[Construct, ...] = tuple(h.decl for h in STEP_HOMES if h.decl is not None)
#: The step kinds, in the reference's order.
STEP_KINDS: tuple[str, ...] = tuple(c.name for c in STEPS)

# ------------------------------------------------------------------------------ sections

#: The sections, in the order of the spec's keys (each declared in its home).
SECTIONS: tuple[Construct, ...] = tuple(h.decl for h in SECTION_HOMES
                                        if h.decl is not None and h.group == "section")
#: The top level: the game's own keys, then each section's.
assert GAME.decl is not None
SPEC: Construct = replace(GAME.decl, fields=tuple(f for h in SECTION_HOMES for f in h.keys))

CONSTRUCTS: tuple[Construct, ...] = (SPEC, *SECTIONS, *STEPS, *PARTS)

# ------------------------------------------------------------------------------ names

BUILTINS: tuple[Builtin, ...] = (
    Builtin("seat", "player", "int", "seat index 0..n-1"),
    Builtin("out", "player", "bool", "eliminated from the match (bool, **settable**)",
            settable=True),
    Builtin("sits_out", "player", "bool", "sits this hand out (see `sit_out`): in the match, "
            "but dealt no card and given no turn this hand"),
    Builtin("tricks", "player", "int", "tricks won this hand", per_trick=True),
    Builtin("cards", "player", "int", "cards now in hand", per_trick=True),
    Builtin("is_dealer", "player", "bool", "bool"),
    Builtin("order", "player", "int", "1 for forehand (the dealer's next seat in the play direction) … n for the dealer, "
            "counting all seats"),
    Builtin("team", "player", "int", "the seat's team index (its own seat number without "
            "`teams`)"),
    Builtin("partner", "player", "int", "the other seat of a two-seat team, else -1"),
    Builtin("team_tricks", "player", "int", "tricks won this hand by the seat's team",
            per_trick=True),
    Builtin("hand", "player", "cards", "the cards in the seat's hand (a card set)",
            per_trick=True),
    Builtin("discarded", "player", "cards", "the cards the seat has laid away this hand, face "
            "down (an exchange's or a move's discards; a card set: `points_of(discarded)`)"),
    Builtin("meld_points", "player", "int", "the points of the melds the seat declared at "
            "the last `declare_melds` step (0 before; 0 for a side beaten under "
            "`compare: best`)"),
    Builtin("failed_throws", "player", "int", "the seat's throws that failed this hand "
            "(`tricks.combos`: `throw`): each time a component of its throw could be beaten, "
            "so that it played that component alone (a spec scores the penalty)",
            per_trick=True),
    Builtin("melds_made", "player", "int", "how many melds of the `melds` table the seat's "
            "hand makes now (each time it makes one), whether declared or not (e.g. an "
            "announcement's `when`)", per_trick=True),
    Builtin("hand_number", "hand", "int", "1 for the first hand of the match (redeals do not "
            "count)"),
    Builtin("trump", "hand", "suit_or_none", "`'C' 'S' 'H' 'D'` or `'none'` (**settable**, to a "
            "suit letter, or to `'none'` or `none` for no trump)", settable=True),
    Builtin("stock_closed", "hand", "bool", "the stock is closed: no more drawing after tricks "
            "(**settable**, e.g. by a decision's `then`)", settable=True, per_trick=True),
    Builtin("mode", "hand", "str", "the mode in force (see `modes`): a mode's name, or "
            "`'none'` for the ranking itself, as each hand starts (**settable**, to a mode's "
            "name or `'none'`)", settable=True),
    Builtin("tricks_played", "hand", "int", "tricks completed this hand", per_trick=True),
    Builtin("talon", "hand", "int", "cards left in the stock (talon)", per_trick=True),
    Builtin("turn_up", "hand", "int", "cards in the turn-up zone"),
    Builtin("turn_up_cards", "hand", "cards", "the cards in the turn-up zone"),
    Builtin("widow", "hand", "cards", "the cards of the widow"),
    Builtin("played", "hand", "cards", "the cards played to tricks this hand (the current "
            "trick's too)", per_trick=True),
    Builtin("seats", "hand", "int", "number of seats"),
    Builtin("dealer", "hand", "int", "dealer's seat"),
    Builtin("pattern", "hand", "any", "the name of the best pattern the last `patterns` step "
            "found (`'none'` when no seat holds one)"),
    Builtin("pattern_seat", "hand", "int", "the seat holding it (-1 when none)"),
    Builtin("choice", "decision", "any", "the word, suit letter or number chosen"),
    Builtin("count", "decision", "int", "cards exchanged"),
    Builtin("card_suit", "card", "suit", "the suit of the card considered",
            only_in=("allow", "declare", "call_allow", "exchange")),
    Builtin("card_rank", "card", "rank", "the rank of the card considered",
            only_in=("allow", "declare", "call_allow", "exchange")),
    Builtin("card_is_trump", "card", "bool", "whether the card considered is a trump",
            only_in=("allow", "declare", "call_allow", "exchange")),
    Builtin("led_suit", "card", "suit_or_none", "the suit led (`'none'` when leading)",
            per_trick=True, only_in=("allow", "abstain", "face_down", "declare", "announce")),
    Builtin("trumps_broken", "trick", "bool", "whether trumps are broken", per_trick=True),
    Builtin("trick_number", "trick", "int", "the trick being played (1-based)", per_trick=True),
    Builtin("turn_up_suit", "hand", "suit_or_none", "suit letter of the top turn-up card, or "
            "`'none'`"),
    Builtin("turn_up_rank", "hand", "rank_or_none", "rank of the top turn-up card (`'10'`, "
            "`'A'`), or `'none'`"),
    Builtin("last_winner", "hand", "int", "seat that won the last trick (-1 before any; "
            "after a tied trick, see `ranking.equal_best`, the seat that led it: the lead stays "
            "with it)", per_trick=True),
    Builtin("tied_by", "hand", "int", "the seat whose card tied the last trick (-1 when it "
            "was won, or before any; see `ranking.equal_best`)", per_trick=True),
    Builtin("tied_tricks", "hand", "int", "tricks tied this hand, won by nobody (see "
            "`ranking.equal_best`)", per_trick=True),
    Builtin("trick", "trick", "cards", "the cards played to the current trick so far",
            per_trick=True),
    Builtin("led_card", "trick", "card", "the card led to the current trick (no card when "
            "leading)", per_trick=True),
    Builtin("winning_card", "trick", "card", "the card winning the current trick so far (no "
            "card when leading)", per_trick=True),
    Builtin("card", "card", "card", "the card considered (in a trick, given in an exchange, "
            "or in an auction's `call_allow` the card the declarer might call)",
            only_in=("allow", "declare", "call_allow", "exchange")),
    Builtin("tricks_won", "player", "cards", "the cards in the tricks the seat won this hand",
            per_trick=True),
    Builtin("team_tricks_won", "player", "cards", "the cards in the tricks the seat's team won "
            "this hand", per_trick=True),
    Builtin("card_points", "player", "int", "the points of `tricks_won` (see `points`), with "
            "the last trick's", per_trick=True),
    Builtin("team_card_points", "player", "int", "`card_points` of the seat's team",
            per_trick=True),
    Builtin("contract", "hand", "str", "the contract an auction reached (its name), or "
            "`'none'`"),
    Builtin("contract_level", "hand", "int", "the contract's level (0 without one)"),
    Builtin("contract_aim", "hand", "int", "the tricks the contract's declarer must take (0 "
            "for a negative contract, one aiming at points, or none)"),
    Builtin("contract_points", "hand", "int", "the points the contract's declarer side must "
            "make (its `points`; 0 for a contract aiming at tricks, or none)"),
    Builtin("contract_negative", "hand", "bool", "whether the contract aims to take no trick"),
    Builtin("declarer_seat", "hand", "int", "the seat that won the auction (-1 without one)"),
    Builtin("doubled", "hand", "int", "0, 1 when the contract was doubled, 2 when redoubled"),
    Builtin("called_card", "hand", "card", "the card the declarer called (no card when none)"),
    Builtin("is_declarer", "player", "bool", "whether the seat is the declarer"),
    Builtin("declarer_team", "player", "bool", "whether the seat plays on the declarer's side "
            "(the declarer, or the partner: a team mate, or the called card's holder)"),
    Builtin("bid_of", "player", "str", "the name of the last contract the seat bid in the "
            "auction (`'none'` when it bid none)"),
)

#: The formula language's functions (declared in :mod:`spelbok.formula.functions`).
FUNCTIONS: tuple[Function, ...] = _FUNCTIONS

# ------------------------------------------------------------------------------ lookups

_BY_NAME: dict[str, Construct] = {c.name: c for c in CONSTRUCTS}
assert len(_BY_NAME) == len(CONSTRUCTS), "construct names must be unique"


def construct(name: str) -> Construct:
    """The construct called ``name`` (``spec``, a section, a step kind or a part).

    >>> construct("dealer").field("skip_out").default
    True
    """
    try:
        return _BY_NAME[name]
    except KeyError:
        raise KeyError(f"no construct {name!r}") from None


def step(kind: str) -> Construct:
    """The step kind ``kind``.

    >>> step("repeat").value.type, [f.name for f in step("repeat").own_fields()]
    ('formula', ['while', 'steps', 'when', 'label', 'source'])
    """
    c = construct(kind)
    if c.group != "step":
        raise KeyError(f"no step kind {kind!r}")
    return c


def words(name: str, field: str) -> tuple[str, ...]:
    """The words key ``field`` of construct ``name`` allows.

    >>> words("decide", "choose")
    ('words', 'suit', 'exchange', 'number')
    """
    return tuple(w.name for w in construct(name).field(field).words)


def _filled(fields: tuple[Field, ...]) -> dict[str, Any]:
    return {f.name: f.default for f in fields if not f.omitted and not f.required
            and f.default is not ABSENT and not isinstance(f.default, Derived)}


def defaults(name: str) -> dict[str, Any]:
    """The canonical values the model fills in for the keys of construct ``name``
    that a spec leaves out (a step kind's body under its kind key).

    >>> defaults("turn_up")
    {'turn_up': {'trump': True}, 'when': 'true'}
    >>> defaults("exchange")
    {'draw_from': 'stock', 'max': 'cards', 'min': '0', 'show': 'false', 'give_to': 'discards'}
    """
    c = construct(name)
    out: dict[str, Any] = {}
    if c.body is not None:
        inner = {u for f in c.body for w in f.words for u in w.uses}
        out[c.name] = {k: v for k, v in _filled(c.body).items() if k not in inner}
    # keys a word brings into play (``choose: number``'s min and max) are filled only with it
    uses = {u for f in c.own_fields() for w in f.words for u in w.uses}
    out.update({k: v for k, v in _filled(c.own_fields()).items() if k not in uses})
    return out


def step_lists(kind: str) -> tuple[tuple[str, ...], ...]:
    """The paths, inside a step of ``kind``, of the lists of steps it holds.

    >>> step_lists("if"), step_lists("tricks"), step_lists("deal")
    ((('then',), ('else',)), (('tricks', 'after_each'), ('tricks', 'announce', '*', 'steps')), ())
    """
    c = step(kind)
    inner = tuple((kind, f.name) for f in c.body or () if f.type == "steps")
    # the steps of the parts of a list (an announcement's): ``*`` stands for each item
    parts = tuple((kind, f.name, "*", g.name) for f in c.body or ()
                  if f.type.startswith("list[") and f.type[5:-1] in _BY_NAME
                  for g in construct(f.type[5:-1]).fields if g.type == "steps")
    return inner + parts + tuple((f.name,) for f in c.own_fields() if f.type == "steps")


def inner_steps(item: Any, kind: str | None) -> Iterator[tuple[tuple[Any, ...], Any]]:
    """The lists of steps a step of ``kind`` holds, each with its path inside the step
    (``*`` of :func:`step_lists` made each index); a missing list is None.

    >>> [p for p, _ in inner_steps({"tricks": {"announce": [{"word": "a", "steps": []}]}},
    ...                             "tricks")]
    [('tricks', 'after_each'), ('tricks', 'announce', 0, 'steps')]
    """
    for inner in step_lists(kind) if kind else ():
        yield from _at(item, inner, ())


def _at(node: Any, keys: tuple[str, ...], done: tuple[Any, ...]
        ) -> Iterator[tuple[tuple[Any, ...], Any]]:
    if not keys:
        yield done, node
        return
    key, rest = keys[0], keys[1:]
    if key == "*":
        for i, x in enumerate(node if isinstance(node, list) else []):
            yield from _at(x, rest, (*done, i))
        return
    yield from _at(node.get(key) if isinstance(node, dict) else None, rest, (*done, key))


def step_kind(item: Any) -> str | None:
    """The kind of a step (the one step-kind key it holds), or None.

    >>> step_kind({"deal": {"size": "5"}, "when": "true"}), step_kind({"when": "x"})
    ('deal', None)
    """
    if not isinstance(item, dict):
        return None
    return next((k for k in STEP_KINDS if k in item), None)


def walk_steps(steps: list[Any], path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...],
                                                                               dict[str, Any]]]:
    """Every step of ``steps`` (a canonical list) and of the steps they hold, depth first,
    with its path.

    >>> tree = [{"if": "true", "then": [{"end_hand": True}], "else": []}]
    >>> [p for p, _ in walk_steps(tree, ("hand",))]
    [('hand', 0), ('hand', 0, 'then', 0)]
    """
    for i, item in enumerate(steps):
        here = (*path, i)
        yield here, item
        for inner, node in inner_steps(item, step_kind(item)):
            if isinstance(node, list):
                yield from walk_steps(node, (*here, *inner))


def builtins(scope: str | None = None) -> tuple[Builtin, ...]:
    """The built-in names of ``scope`` (all of them when None), in declaration order.

    >>> [b.name for b in builtins("decision")]
    ['choice', 'count']
    """
    return tuple(b for b in BUILTINS if scope is None or b.scope == scope)


# ------------------------------------------------------------------------------ derived tables
# What the compiler and the checks read, worked out here once from the declarations above.

#: The trick rules checked on every card (the ``rule`` keys of ``tricks``), with defaults.
TRICK_RULES: dict[str, Any] = {f.name: f.default for f in step("tricks").body or () if f.rule}
#: The trick rules' declarations (their DSL phrases and prose), in reference order.
TRICK_RULE_FIELDS: tuple[Field, ...] = tuple(f for f in step("tricks").body or () if f.rule)
#: The trick rules that read as a duty (a DSL line on / off, a sentence of describe).
TRICK_DUTIES: tuple[Field, ...] = tuple(f for f in TRICK_RULE_FIELDS if f.phrase[0])
#: Names whose value changes from one trick to the next within a tricks step.
PER_TRICK_NAMES: tuple[str, ...] = tuple(b.name for b in BUILTINS if b.per_trick)
#: Names readable only in some keys of a tricks step, with those keys.
TRICK_ONLY_NAMES: dict[str, tuple[str, ...]] = {b.name: b.only_in for b in BUILTINS if b.only_in}
#: Names that read a suit letter (C S H D), with whether they may also read 'none'.
SUIT_NAMES: dict[str, bool] = {b.name: b.type == "suit_or_none" for b in BUILTINS
                               if b.type in ("suit", "suit_or_none")}
#: Names that read a rank (``'10'``, ``'J'``), with whether they may also read 'none'.
RANK_NAMES: dict[str, bool] = {b.name: b.type == "rank_or_none" for b in BUILTINS
                               if b.type in ("rank", "rank_or_none")}
