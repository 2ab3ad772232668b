"""The names a formula reads, each resolved once to a getter over a state.

:class:`Resolver` is the table the formula compiler asks (see
:class:`spelbok.formula.Resolver`): the spec's options, its variables and the
language's built-in names, each with its kind (per player, global or constant), its
type and its getter (the run-time library of :mod:`spelbok.engine.readers`).

>>> r = Resolver(4, {}, {}, {}, teams=[[0, 2], [1, 3]])
>>> r.resolve("partner").kind, r.resolve("seats").value
('player', 4)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..cards import FRENCH, Pack
from ..formula import CardContext, NameInfo
from ..formula.name_table import BUILTIN_TYPES, value_type
from ..lang import vocabulary as _v
from .auction import A_BIDS, A_CALLED, A_CONTRACT, A_DECLARER, A_DOUBLED, Contract, declarer_side
from .readers import (
    card_of,
    global_name,
    global_var,
    last_trick,
    led_of,
    mask_of,
    pairs_mask,
    player_var,
    reads,
    seat_points,
    team_won,
)

# The language's tables, derived from its one declaration (lang/vocabulary.py); the
# getters of the Resolver below are the code (a test checks they match BUILTINS).
PLAYER_BUILTINS: tuple[str, ...] = tuple(b.name for b in _v.builtins("player"))
GLOBAL_BUILTINS: tuple[str, ...] = tuple(b.name for b in _v.BUILTINS if b.scope != "player")
BUILTINS = PLAYER_BUILTINS + GLOBAL_BUILTINS

#: The names whose values need the trick play to keep each trick's cards.
KEEPS_CARDS = frozenset({"tricks_won", "team_tricks_won", "card_points", "team_card_points",
                         "played"})



def builtin(name: str, get: Any, column: tuple[str, int | None] | None = None) -> NameInfo:
    """Built-in ``name``, read in play by ``get`` (for a constant: its value); its kind
    and type are the formula language's (:data:`spelbok.formula.name_table.BUILTIN_TYPES`)."""
    kind, type_ = BUILTIN_TYPES[name]
    if kind == "global":
        return global_name(get, type_)
    return NameInfo(kind, get, type_, column=column)


class Resolver:
    """Maps formula names to getters over a state (see spelbok.formula.Resolver)."""

    def __init__(self, n: int, options: dict[str, Any], pvars: dict[str, int],
                 gvars: dict[str, int], teams: list[list[int]] | None = None,
                 contracts: tuple[Contract, ...] = (), pack: Pack = FRENCH,
                 var_types: dict[str, type] | None = None, turn: int = 1) -> None:
        self.nseats = n
        self.turn = turn  # the play direction (``order`` counts from forehand in it)
        self.options = options
        self.pvars = pvars
        self.gvars = gvars
        self.table: dict[str, NameInfo] = {}
        self.cards: CardContext | None = None  # set by the Compiler once the deck is known
        for name, value in options.items():
            self.table[name] = NameInfo("const", value, value_type(value))
        # a variable keeps the kind of its initial value (the assignments are checked
        # against it), so `x + 1` over a text variable is a located error, not a crash
        types = var_types or {}
        for name, row in pvars.items():
            self.table[name] = NameInfo("player", player_var(row), types.get(name),
                                        column=("pv_rows", row))
        for name, slot in gvars.items():
            self.table[name] = global_name(global_var(slot), types.get(name))
        self._seat_names(n)
        self._card_names(pack)
        mates = self._team_names(n, teams)
        self._won_names(mates)
        self.used: set[str] = set()  # the names resolved so far (see KEEPS_CARDS)
        # in a tricks step's after_each, the trick's names read the trick just finished
        # (the last one played): the Compiler sets after_trick while it compiles those steps
        self.after_trick = False
        self.finished: dict[str, NameInfo] = {
            "trick": builtin("trick", reads(lambda st, p: pairs_mask(last_trick(st)))),
            "led_card": builtin("led_card", reads(lambda st, p: led_of(last_trick(st)))),
            "winning_card": builtin("winning_card", reads(
                lambda st, p: card_of(list(last_trick(st)), st.last_winner))),
        }
        self._auction_names(contracts, self.team_of)

    def _seat_names(self, n: int) -> None:
        """The names of a seat, of the hand and of the decision."""
        self._put("seat", reads(lambda st, p: p))
        self._put("out", reads(lambda st, p: st.out[p]), ("out", None))
        self._put("sits_out", reads(lambda st, p: st.off[p] and not st.out[p]))
        self._put("tricks", reads(lambda st, p: st.won[p]), ("won", None))
        self._put("cards", reads(lambda st, p: st.hands[p].bit_count()))
        self._put("is_dealer", reads(lambda st, p: p == st.dealer))
        if self.turn == 1:
            self._put("order", reads(lambda st, p: (p - st.dealer - 1) % st.n + 1))
        else:  # turning to the right: forehand is the seat before the dealer's
            self._put("order", reads(lambda st, p: (st.dealer - p - 1) % st.n + 1))
        self._put("hand_number", reads(lambda st, p: st.hand_number))
        self._put("trump", reads(lambda st, p: st.trump_letter()))
        self._put("tricks_played", reads(lambda st, p: st.trick_no))
        self._put("talon", reads(lambda st, p: len(st.stock)))
        self._put("turn_up", reads(lambda st, p: len(st.turn_up)))
        self._put("seats", n)
        self._put("dealer", reads(lambda st, p: st.dealer))
        self._put("choice", reads(lambda st, p: st.choice))  # a word, a suit letter or a number
        self._put("count", reads(lambda st, p: st.count))

    def _card_names(self, pack: Pack) -> None:
        """The names of the candidate card, the trick, the turn-up and the card sets."""
        # the pack's texts, by suit number (4: none) and by card id
        letters = (*pack.letters, *["none"] * (5 - len(pack.letters)))
        rank_text = tuple(pack.ranks[r] if r >= 0 else "none" for r in pack.rank)
        printed = tuple(letters[s] for s in pack.suit)  # -1 (no suit): the last, "none"
        self._put("card_suit", reads(lambda st, p: letters[st.tables.suit[st.cand]]))
        self._put("card_rank", reads(lambda st, p: rank_text[st.cand]))
        self._put("card_is_trump", reads(lambda st, p: st.tables.trump[st.cand]))
        self._put("led_suit", reads(lambda st, p: letters[st.trick.led] if st.trick.led >= 0 else "none"))
        self._put("trumps_broken", reads(lambda st, p: st.broken))
        self._put("trick_number", reads(lambda st, p: st.trick_no + 1))
        self._put("turn_up_suit", reads(lambda st, p: printed[st.turn_up[-1]] if st.turn_up else "none"))
        self._put("turn_up_rank", reads(lambda st, p: rank_text[st.turn_up[-1]] if st.turn_up else "none"))
        self._put("last_winner", reads(lambda st, p: st.last_winner))
        self._put("tied_by", reads(lambda st, p: st.tied_by))
        self._put("tied_tricks", reads(lambda st, p: sum(1 for t in st.history_tricks if t[2] < 0)))
        # card sets, as bitmasks (bit c: card c); read only by formulas that name them
        self._put("hand", reads(lambda st, p: st.hands[p]))
        self._put("discarded", reads(lambda st, p: st.discarded[p]))
        self._put("meld_points", reads(lambda st, p: st.meld_points[p]))
        self._put("failed_throws", reads(lambda st, p: st.failed_throws[p]))
        # the melds table, as the first declare_melds step compiles it (engine/melds.py)
        self.melds: list[Any] = []
        melds = self.melds
        self._put("melds_made", reads(
            lambda st, p: sum(len(m.made(st.hands[p], st.trump)) for m in melds)))
        self._put("trick", reads(lambda st, p: st.trick.mask()))
        self._put("led_card", reads(lambda st, p: st.trick.cards[0][1] if st.trick.cards else -1))
        self._put("winning_card", reads(lambda st, p: card_of(st.trick.cards, st.trick.best_seat)))
        self._put("turn_up_cards", reads(lambda st, p: mask_of(st.turn_up)))
        self._put("widow", reads(lambda st, p: st.widow))
        self._put("card", reads(lambda st, p: st.cand))
        self._put("pattern", reads(lambda st, p: st.pattern))
        self._put("stock_closed", reads(lambda st, p: st.stock_closed))
        if "mode" not in self.gvars:  # a spec with modes reads its hand slot (compiler)
            self._put("mode", "none")
        self._put("pattern_seat", reads(lambda st, p: st.pattern_seat))

    def _team_names(self, n: int, teams: list[list[int]] | None) -> tuple[tuple[int, ...], ...]:
        """The names of partnerships (without ``teams``, every seat is its own team); each
        seat's team mates, for the names that add them up."""
        team_of = list(range(n))
        partner_of = [-1] * n
        members: list[list[int]] = [[p] for p in range(n)]
        for i, team in enumerate(teams or []):
            for p in team:
                team_of[p] = i
        if teams:
            members = [list(t) for t in teams]
            for team in teams:
                for p in team:
                    others = [q for q in team if q != p]
                    partner_of[p] = others[0] if others else -1
        tof = tuple(team_of)
        pof = tuple(partner_of)
        mates = tuple(tuple(members[tof[p]]) for p in range(n))
        self._put("team", reads(lambda st, p: tof[p]))
        self._put("partner", reads(lambda st, p: pof[p]))
        self._put("team_tricks", reads(lambda st, p: sum(st.won[q] for q in mates[p])))
        self.team_of = tof
        return mates

    def _won_names(self, mates: tuple[tuple[int, ...], ...]) -> None:
        """The cards of the tricks won and played, and their points (engine/points.py); the
        trick play keeps them only for a game that reads one of these (KEEPS_CARDS)."""
        self._put("tricks_won", reads(lambda st, p: st.won_cards[p]))
        self._put("team_tricks_won", reads(lambda st, p: team_won(st, mates[p])))
        self._put("card_points", reads(lambda st, p: seat_points(st, p)))
        self._put("team_card_points",
                  reads(lambda st, p: sum(seat_points(st, q) for q in mates[p])))
        self._put("played", reads(lambda st, p: st.played | st.trick.mask()))

    def _auction_names(self, contracts: tuple[Contract, ...], tof: tuple[int, ...]) -> None:
        """The names an auction sets (engine/auction.py): empty values before one."""
        names = tuple(c.name for c in contracts)
        levels = tuple(c.level for c in contracts)
        aims = tuple(c.aim for c in contracts)
        negative = tuple(c.negative for c in contracts)
        points = tuple(c.points for c in contracts)
        self._put("contract", reads(lambda st, p: names[st.auction[A_CONTRACT]] if st.auction and st.auction[A_CONTRACT] >= 0 else "none"))
        self._put("contract_level", reads(lambda st, p: levels[st.auction[A_CONTRACT]] if st.auction and st.auction[A_CONTRACT] >= 0 else 0))
        self._put("contract_aim", reads(lambda st, p: aims[st.auction[A_CONTRACT]] if st.auction and st.auction[A_CONTRACT] >= 0 else 0))
        self._put("contract_points", reads(lambda st, p: points[st.auction[A_CONTRACT]] if st.auction and st.auction[A_CONTRACT] >= 0 else 0))
        self._put("contract_negative", reads(lambda st, p: negative[st.auction[A_CONTRACT]] if st.auction and st.auction[A_CONTRACT] >= 0 else False))
        self._put("declarer_seat", reads(lambda st, p: st.auction[A_DECLARER] if st.auction else -1))
        self._put("doubled", reads(lambda st, p: st.auction[A_DOUBLED] if st.auction else 0))
        self._put("called_card", reads(lambda st, p: st.auction[A_CALLED] if st.auction else -1))
        self._put("is_declarer", reads(lambda st, p: bool(st.auction) and st.auction[A_DECLARER] == p))
        self._put("declarer_team", reads(lambda st, p: declarer_side(st, p, tof)))
        self._put("bid_of", reads(lambda st, p: names[st.auction[A_BIDS + p]] if st.auction and st.auction[A_BIDS + p] >= 0 else "none"))

    def _put(self, name: str, get: Any, column: tuple[str, int | None] | None = None) -> None:
        self.table[name] = builtin(name, get, column)

    def resolve(self, name: str) -> NameInfo | None:
        self.used.add(name)
        if self.after_trick and name in self.finished:
            return self.finished[name]
        return self.table.get(name)

    def names(self) -> Iterable[str]:
        return self.table.keys()
