"""The fields of a match's state, declared once: the table every use of them reads.

:class:`~spelbok.engine.state.State` takes its slots from :data:`FIELDS`; ``clone()``,
``==``, snapshots (:mod:`.snapshot`), pickles, undo (:mod:`.history`) and the resets of a
new hand or match read the same table, so a field added here is added everywhere.

>>> [f.name for f in FIELDS][:3]
['seed', 'rng_n', 'pos']
>>> f = next(f for f in FIELDS if f.snapshot == "trick")
>>> f.name, f.owner, f.zone
('cards', 'trick', 'the trick')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .order import NO_TRUMP


@dataclass(frozen=True, slots=True)
class StateField:
    """One field of a :class:`State`, as the table ``FIELDS`` declares it.

    ``kind`` says what it holds, and so how a snapshot writes it and where its cards
    are: ``int``, ``bool``, ``seat`` (a seat or None), ``value`` (a word or number),
    ``mask`` (a set of cards), ``masks`` (a set of cards per seat), ``cards`` (a list of
    cards), ``stock`` (the same, shuffled lazily: see :meth:`State.settle`), ``pairs``
    (``(seat, card)`` of the trick), ``tricks`` (the tricks played), ``seats`` (one plain
    value per seat), ``list``, ``rows`` (per-player variables), ``public``, ``flags``,
    ``history`` (the actions), ``start``; not in snapshots: ``game`` (the game's
    compiled objects), ``cache``, ``log``, ``shuffle``, ``trick`` (the trick in progress).
    ``copy`` is ``copied`` (clone() copies it), ``shared`` or ``cow`` (shared, copied
    by its first writer); ``compared`` whether ``==``
    compares it; ``reset`` whether a new ``hand`` or ``match`` sets it again (``fresh``:
    to that value, one per seat for ``masks``/``seats``; None: from the program), or
    ``never`` (set when the match is made, or by the steps); ``snapshot`` its key in
    ``to_dict()`` ("" when not written); ``zone`` the card zone it is, in messages
    ("" when it holds no card of its own); ``owner`` the object that holds it: "" the
    state itself, ``trick`` the trick in progress (``State.trick``, a
    :class:`~spelbok.engine.trick.Trick`, shared by clones until written: ``copy`` is
    ``cow`` for it), read and written by :func:`read` and :func:`write`.
    """

    name: str
    kind: str
    copy: str = "shared"
    compared: bool = True
    reset: str = "never"
    fresh: Any = None
    snapshot: str = ""
    zone: str = ""
    owner: str = ""


_F = StateField
_C = "copied"  # short, for the table
_T = "trick"  # the owner of the trick's fields: State.trick (engine/trick.py)
# every field of a State, in one place: slots, clone() (checked by a test), ==, snapshots,
# pickles, the resets of Program.start_hand/start_match (checked by a test), card zones.
# Snapshot keys come in the order snapshots write them.
FIELDS: tuple[StateField, ...] = (
    _F("seed", "int", snapshot="seed"),
    _F("rng_n", "int", snapshot="rng_n"),
    _F("pos", "int", reset="hand", fresh=0, snapshot="trick_pos", owner=_T),
    _F("led", "int", reset="hand", fresh=-1, snapshot="led", owner=_T),
    _F("best_key", "int", reset="hand", fresh=0, snapshot="best_key", owner=_T),
    _F("best_seat", "int", reset="hand", fresh=-1, snapshot="best_seat", owner=_T),
    _F("best_led", "int", reset="hand", fresh=0, snapshot="best_led", owner=_T),
    _F("trick_no", "int", reset="hand", fresh=0, snapshot="trick_no"),
    _F("trump", "int", reset="hand", fresh=NO_TRUMP, snapshot="trump"),
    _F("participants", "int", reset="hand", fresh=0, snapshot="participants"),
    _F("dealer", "int", reset="match", snapshot="dealer"),
    _F("hand_number", "int", reset="match", fresh=1, snapshot="hand_number"),
    _F("hands_played", "int", reset="match", fresh=0, snapshot="hands_played"),
    _F("pc", "int", reset="hand", fresh=0, snapshot="pc"),
    _F("count", "int", reset="hand", fresh=0, snapshot="count"),
    _F("cand", "int", snapshot="cand"),
    _F("last_winner", "int", reset="hand", fresh=-1, snapshot="last_winner"),
    _F("trick_stop", "int", reset="hand", fresh=1 << 30, snapshot="trick_stop"),
    _F("best_trumped", "bool", reset="hand", fresh=False, snapshot="best_trumped", owner=_T),
    _F("broken", "bool", reset="hand", fresh=False, snapshot="broken"),
    _F("limit_reached", "bool", snapshot="limit_reached"),
    _F("trick_scored", "bool", reset="hand", fresh=True, snapshot="trick_scored"),
    _F("is_terminal", "bool", snapshot="terminal"),
    _F("current", "seat", snapshot="current"),
    _F("choice", "value", reset="hand", fresh="", snapshot="choice"),
    _F("hands", "masks", _C, reset="hand", fresh=0, snapshot="hands", zone="hand"),
    _F("stock", "stock", _C, reset="hand", snapshot="stock", zone="the stock"),
    _F("turn_up", "cards", _C, reset="hand", fresh=(), snapshot="turn_up", zone="the turn-up"),
    _F("discards", "mask", reset="hand", fresh=0, snapshot="discards", zone="the discards"),
    _F("widow", "mask", reset="hand", fresh=0, snapshot="widow", zone="the widow"),
    _F("hidden", "mask", reset="hand", fresh=0, snapshot="hidden"),  # played face down, unshown
    # cards given away face up to all by an exchange's 'show' (in the discards or the widow)
    _F("shown", "mask", reset="hand", fresh=0, snapshot="shown"),
    # a demand binding a seat for the trick: the declaration's index + 1 (0: none), the seat
    _F("demand", "int", reset="hand", fresh=0, snapshot="demand", owner=_T),
    _F("plain", "mask", reset="hand", fresh=0, snapshot="trick_plain", owner=_T),
    _F("bound", "int", reset="hand", fresh=-1, snapshot="bound", owner=_T),
    # the seat asked in the window of announcements made out of turn before the next card
    # (tricks.announce any_turn): its index among the others, -1 when it is closed
    _F("ask", "int", reset="hand", fresh=0, snapshot="ask", owner=_T),
    # the seat whose card tied the trick and the key it tied at (ranking.equal_best: tie;
    # Trick.tied); rebuilt by a replay
    _F("tie", "int", reset="hand", fresh=-1, owner=_T),
    _F("tie_key", "int", reset="hand", fresh=0, owner=_T),
    _F("discarded", "masks", _C, reset="hand", fresh=0, snapshot="discarded"),
    _F("known", "masks", _C, reset="hand", fresh=0, snapshot="known"),
    # the cards of other hands each seat has been shown alone (a decision's see_partners);
    # rebuilt by a replay
    _F("peeked", "masks", reset="hand", fresh=0),  # replaced, never changed in place: shared
    _F("voids", "seats", _C, reset="hand", fresh=0, snapshot="voids"),
    # the cards each seat has passed, not yet received (pass_cards); never changed in place: shared
    _F("passing", "masks", reset="hand", fresh=0, snapshot="passing", zone="the passed cards"),
    # the best hand pattern found by a patterns step, and its holder
    _F("pattern", "value", reset="hand", fresh="none", snapshot="pattern"),
    _F("pattern_seat", "int", reset="hand", fresh=-1, snapshot="pattern_seat"),
    # each seat's points from its last declared melds; never changed in place: shared
    _F("meld_points", "seats", reset="hand", fresh=0, snapshot="meld_points"),
    # each seat's melds picked (a bit per meld of the table; -1: not declaring) and the
    # cards of its melds that count; never changed in place: shared
    _F("meld_picks", "seats", reset="hand", fresh=-1, snapshot="meld_picks"),
    _F("meld_cards", "masks", reset="hand", fresh=0, snapshot="meld_cards"),
    # each seat's best declared meld as a number to compare (0: none; engine/melds.py);
    # never changed in place: shared
    _F("meld_keys", "seats", reset="hand", fresh=0, snapshot="meld_keys"),
    _F("stock_closed", "bool", reset="hand", fresh=False, snapshot="stock_closed"),
    _F("won", "seats", _C, reset="hand", fresh=0, snapshot="won"),
    # the cards of the tricks won and played, kept only for a game whose formulas read them
    # (TrickPlay.keep_cards); public, like the tricks played, and rebuilt by a replay.
    # won_cards is replaced, never changed in place, so that clone() shares it for free
    _F("won_cards", "masks", reset="hand", fresh=0),
    _F("played", "mask", reset="hand", fresh=0),
    _F("last_trick", "int", reset="hand", fresh=-1),  # who won the trick that emptied the hands
    _F("tied_by", "int", reset="hand", fresh=-1),  # who tied the last trick (-1: it was won)
    # each seat's throws that failed this hand (tricks.combos: throw); replaced, never
    # changed in place: shared (rebuilt by a replay, as tied_by)
    _F("failed_throws", "seats", reset="hand", fresh=0),
    _F("cards", "pairs", _C, reset="hand", fresh=(), snapshot="trick", zone="the trick", owner=_T),
    _F("order", "list", _C, reset="hand", fresh=(), snapshot="trick_order", owner=_T),
    _F("history_tricks", "tricks", _C, reset="hand", fresh=(), snapshot="tricks_history",
       zone="the tricks played"),
    _F("public", "public", _C, reset="hand", fresh=(), snapshot="public"),
    _F("pv_rows", "rows", _C, reset="match", snapshot="pv_rows"),  # hand rows again each hand
    _F("gv", "list", _C, reset="match", snapshot="gv"),  # hand slots again each hand
    _F("out", "seats", _C, reset="match", fresh=False, snapshot="out"),
    # the seats that take no part in this hand: out of the match, or sitting out this hand
    # (the `sit_out` section, lang/constructs/sit_out.py); without sit_out it IS `out` (the
    # same list), so the steps read one mask at no cost. Set each hand (Program.seat_hand)
    # and rebuilt by a replay
    _F("off", "seats", _C, reset="hand"),
    _F("queue", "list", _C, reset="hand", fresh=(), snapshot="queue"),
    _F("auction", "list", _C, reset="hand", fresh=(), snapshot="auction"),  # engine/auction.py
    _F("counters", "list", _C, reset="hand", snapshot="counters"),
    _F("winner_seats", "list", _C, snapshot="winners"),
    _F("tf", "flags", reset="hand", snapshot="tf"),
    _F("hist", "history", compared=False, snapshot="actions"),  # == compares the actions
    _F("start", "start", compared=False, snapshot="start"),
    _F("game", "game", compared=False),
    _F("n", "int"),  # a snapshot's header says it (players)
    _F("tables", "game", compared=False, reset="hand"),  # follows trump
    _F("prog", "game", compared=False),
    _F("legal_cache", "cache", compared=False),
    _F("rec", "log", _C, compared=False),
    _F("stacked", "cards", compared=False),  # the first hand's stacked deck, then None
    # the trick in progress, holding the fields of owner trick: compared, written and
    # pickled through them; a new hand starts a new one
    _F("trick", "trick", "cow", compared=False, reset="hand"),
    _F("shuf", "shuffle", compared=False, reset="hand"),
    _F("settled", "int", compared=False, reset="hand"),
    # the last card dealt to the dealer, for a turn-up from his hand (-1: none noted); read
    # right after the deal, and rebuilt by a replay
    _F("dealt_last", "int", compared=False, reset="hand", fresh=-1),
)

#: The state's own slots (the trick's fields are the Trick's: owner ``trick``).
_FIELDS = tuple(f.name for f in FIELDS if not f.owner)
#: The fields the trick in progress holds, in the table's order.
TRICK_FIELDS = tuple(f.name for f in FIELDS if f.owner == _T)
#: What a new match sets again, from the table: ``(name, shape, fresh)``, shape 0 the
#: value itself, 1 one per seat, 2 a new empty list (Program.start_match runs it; a new
#: hand's resets are written out in Program.start_hand for speed, pinned by a test).
MATCH_RESETS: tuple[tuple[str, int, Any], ...] = tuple(
    (f.name, 1 if f.kind in ("masks", "seats") else 2 if f.fresh == () else 0, f.fresh)
    for f in FIELDS if f.reset == "match" and f.fresh is not None and not f.owner)
# pickles: the state's own fields (the trick pickles as one value)
_PICKLED = tuple(f.name for f in FIELDS
                 if f.kind not in ("game", "cache", "history") and not f.owner)
# ==: the state's own fields (stock: settled); the trick's by Trick.values()
_COMPARED = tuple(f.name for f in FIELDS if f.compared and f.name != "stock" and not f.owner)
# clone(): the fields holding lists, copied one by one (the rest are shared as they are)
_COPIED = frozenset(f.name for f in FIELDS if f.copy == "copied" and not f.owner)


def read(st: Any, f: StateField) -> Any:
    """The value of field ``f`` in the state ``st`` (in its trick for owner ``trick``)."""
    return getattr(st.trick if f.owner else st, f.name)


def write(st: Any, f: StateField, value: Any) -> None:
    """Set field ``f`` of ``st`` to ``value`` (the trick first made ``st``'s own)."""
    if f.owner:
        setattr(st.trick.own(st), f.name, value)
    else:
        setattr(st, f.name, value)
