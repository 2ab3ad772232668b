"""The auction step: a bidding round over an ordered list of contracts.

Players bid in turn, from the ``first`` seat, each bid above the highest so far
(``bid 7`` for a numbered contract, the word for a named one, offered when its
``allow`` condition holds), or pass; passes may be final, and with ``speak: once``
each player speaks once.  With ``hold: elder`` the bidding is a duel: the eldest
player still in (from ``first``) holds, the next one bids to him, and the holder
says ``hold`` (keeping the bid at its level) or passes; the loser drops out and
the next player bids to the survivor.  With ``hold: in_turn`` the bids go round as
usual, but a player before the highest bidder (from ``first``) may ``hold`` his bid.  An opponent of the highest bidder may
``double``, the bidder's side ``redouble`` (with ``doubling: closes`` a double ends the
bidding but for the doubled side's redouble).  The highest bidder becomes the
declarer (or, with ``declarer: first_to_name``, the first player of the highest
bidder's side who bid the final contract's trump); the contract's
trump is set (or named by the declarer, ``trump H``), and a partner may be
called by a card (``call AH``): its holder plays with the declarer, unknown to
the others until the card is played.  When every player passes, the step's
``all_pass`` steps run (by default the hand is dealt again).

The auction's state is one list of ints, ``State.auction`` (empty until an
auction starts in the hand; the slots are the ``A_*`` constants below), so that
a spec without an auction pays nothing for it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from ..cards import FRENCH, Pack, cards_in
from ..lang import vocabulary as _v
from .actions import CARDS, NUMBER, PASS_WORD, SUIT, WORD, Action
from .order import NO_TRUMP
from .steps import Instr

if TYPE_CHECKING:
    from .compiler import Compiler
    from .state import State

Fn = Callable[[Any, int], Any]

# slots of State.auction
A_CONTRACT: Final = 0  # the highest contract so far (an index of the program's contracts), -1 none
A_DECLARER: Final = 1  # its bidder, -1 none
A_DOUBLED: Final = 2  # 0, 1 doubled, 2 redoubled
A_CALLED: Final = 3  # the called card, -1 none
A_MODE: Final = 4  # how the declarer's partner is found: MODES
A_PASSES: Final = 5  # passes in a row
A_PASSED: Final = 6  # the seats that passed, a bitmask
A_FLAGS: Final = 7  # the step's conditions, read when it starts: F_*
A_BIDS: Final = 8  # from here, one per seat: the last contract the seat bid, -1 none

MODES = _v.words("auction", "partner")  # the home's words, in its order
F_PASS_FINAL: Final = 1
F_DOUBLE: Final = 2
F_REDOUBLE: Final = 4
F_ONCE: Final = 8  # each seat speaks once
F_LAST_WORD: Final = 16  # all the others passed, the highest bidder speaks once more
F_START: Final = 8  # with the holder's right, the flags' bits from here: the first seat
#: how the bidding goes round (``hold``): in turn, in duels with the holder's right, or
#: in turn with an earlier player's right to hold
HOLDS = _v.words("auction", "hold")
H_DUEL: Final = 1
H_IN_TURN: Final = 2
#: who declares (``declarer``): the highest bidder, or the first of its side to name the trump
DECLARERS = _v.words("auction", "declarer")
#: trump codes of a contract besides a suit index and NO_TRUMP
T_CHOSEN: Final = -1
T_KEEP: Final = -2

PASS = Action(WORD, PASS_WORD)
DOUBLE = Action(WORD, "double")
REDOUBLE = Action(WORD, "redouble")
HOLD = Action(WORD, "hold")
#: words a contract may not be called (they are calls of their own)
RESERVED = ("pass", "double", "redouble", "hold")


@dataclass(frozen=True)
class Contract:
    """One contract of the program (every auction's contracts share one numbering)."""

    name: str
    level: int
    trump: int  # a suit index, NO_TRUMP, T_CHOSEN or T_KEEP
    aim: int  # tricks to take (0 for a negative contract, or one aiming at points)
    negative: bool
    points: int = 0  # the points the declarer's side must make (0: it aims at tricks)


def bid_action(name: str) -> Action:
    """A contract's bid: ``bid N`` for a number, else the word itself."""
    number = name.isascii() and name.isdigit()
    return Action(NUMBER, "bid", int(name)) if number else Action(WORD, name)


class Rules:
    """What the instructions of one auction step share."""

    def __init__(self, contracts: tuple[Contract, ...], first: int, count: int, mode: int,
                 called_ranks: tuple[int, ...], team_of: tuple[int, ...]) -> None:
        self.contracts = contracts  # the program's, all auctions
        self.first = first  # this step's first contract
        self.count = count
        self.bids = [bid_action(contracts[i].name) for i in range(first, first + count)]
        self.mode = mode
        self.called_ranks = called_ranks
        self.team_of = team_of
        self.all_pass = -1  # the pc of the all-pass part, set by the compiler
        self.allow: list[Fn | None] = [None] * count  # each bid's condition (None: always)
        self.ends: list[Fn | None] = [None] * count  # a bid ending the auction (None: never)
        self.hold = 0  # the holder's right: an index of HOLDS (0: none)
        self.first_to_name = False  # the declarer (DECLARERS)
        self.once = False  # each seat speaks once (``speak``)
        self.closes = False  # a double closes the bidding but for a redouble (``doubling``)
        self.last_word: Fn | None = None  # the condition ``last_word`` (None: false)
        self.call_allow: Fn | None = None  # which cards the declarer may call (`card`)
        self.rank_order = False  # call: the first called rank not held whole, own cards too

    def side(self, st: State, p: int, d: int) -> bool:
        """Whether ``p`` bids on ``d``'s side (doubling): ``d``, or a team mate with teams."""
        if p == d:
            return True
        return self.mode == 2 and self.team_of[p] == self.team_of[d]


def new_auction(n: int) -> list[int]:
    """A fresh auction's slots."""
    return [-1, -1, 0, -1, 0, 0, 0, 0, *([-1] * n)]


class AuctionStart(Instr):
    """Read the step's conditions and seat the first bidder."""

    def __init__(self, rules: Rules, first_fn: Fn, pass_final: Fn, double: Fn,
                 redouble: Fn) -> None:
        self.rules = rules
        self.first_fn = first_fn
        self.pass_final = pass_final
        self.double = double
        self.redouble = redouble

    def run(self, st: State) -> bool:
        a = new_auction(st.n)
        a[A_MODE] = self.rules.mode
        a[A_FLAGS] = ((F_PASS_FINAL if self.pass_final(st, 0) else 0)
                      | (F_DOUBLE if self.double(st, 0) else 0)
                      | (F_REDOUBLE if self.redouble(st, 0) else 0)
                      | (F_ONCE if self.rules.once else 0)
                      | (F_LAST_WORD if self.rules.last_word is not None
                         and self.rules.last_word(st, 0) else 0))
        st.auction = a
        start = int(self.first_fn(st, 0)) % st.n
        if self.rules.hold:  # who is elder is counted from the first seat: kept in the flags
            a[A_FLAGS] |= start << F_START
        if self.rules.hold == H_DUEL:
            order = [p for p in st.prog.rot[start] if not st.off[p]]
            st.current = order[1] if len(order) > 1 else next(iter(order), None)
        else:
            st.current = next((p for p in st.prog.rot[start] if not st.off[p]), None)
        st.pc += 1
        return True


class AuctionBid(Instr):
    """Wait for each bid or pass, until the auction is settled."""

    name = "bid"

    def __init__(self, rules: Rules) -> None:
        self.rules = rules

    def run(self, st: State) -> bool:
        if st.current is not None:
            return False
        self.settle(st)  # nobody left to bid (every seat out)
        return True

    def legal(self, st: State) -> list[Action]:
        a = st.auction
        seat = st.current
        assert seat is not None
        r = self.rules
        high = a[A_CONTRACT]
        out = [PASS]
        if r.hold == H_DUEL and high >= 0 and a[A_DECLARER] != seat \
                and self.duel(st)[0] == seat:
            return [PASS, HOLD]  # the holder answers the bid made to him
        if r.hold == H_IN_TURN and high >= 0 and self.elder(st, seat, a[A_DECLARER]):
            out.append(HOLD)  # an earlier player may take the highest bid at its level
        start = 0 if high < 0 else high - r.first + 1
        allow = r.allow
        if not (r.closes and a[A_DOUBLED]):  # a closing double leaves no bid
            out += [b for i, b in enumerate(r.bids[start:], start)
                    if allow[i] is None or allow[i](st, seat)]  # type: ignore[misc]
        d = a[A_DECLARER]
        if d >= 0:
            flags = a[A_FLAGS]
            if flags & F_DOUBLE and a[A_DOUBLED] == 0 and not r.side(st, seat, d):
                out.append(DOUBLE)
            elif flags & F_REDOUBLE and a[A_DOUBLED] == 1 and r.side(st, seat, d):
                out.append(REDOUBLE)
        return out

    def check(self, st: State, a: Action) -> str | None:
        options = self.legal(st)
        if a in options:
            return None
        r = self.rules
        if options == [PASS, HOLD]:
            return "the holder answers the bid made to him: hold or pass"
        if a in r.bids:
            high = st.auction[A_CONTRACT]
            if a == HOLD or a not in r.bids[0 if high < 0 else high - r.first + 1:]:
                return "a bid must be above the highest so far"
            return f"{a} is not allowed now (its condition is false)"
        if a == HOLD:
            return "only a player before the highest bidder may hold his bid"
        return "the choice is " + ", ".join(str(o) for o in options)

    def apply(self, st: State, seat: int, action: Action) -> bool:
        a = st.auction
        r = self.rules
        ends: Fn | None = None  # a bid that ends the auction (``ends``)
        if action == PASS:
            a[A_PASSED] |= 1 << seat
            a[A_PASSES] += 1
        elif action in (DOUBLE, REDOUBLE):
            a[A_DOUBLED] = 1 if action == DOUBLE else 2
            a[A_PASSES] = 0
        elif action == HOLD:  # the holder keeps the bid made to him, at its level
            a[A_DECLARER] = seat
            a[A_BIDS + seat] = a[A_CONTRACT]
            a[A_PASSES] = 0
        else:
            k = r.first + r.bids.index(action)
            ends = r.ends[k - r.first]
            a[A_CONTRACT] = k
            a[A_DECLARER] = seat
            a[A_DOUBLED] = 0
            a[A_BIDS + seat] = k
            a[A_PASSES] = 0
        st.public.append((seat, "bid", action))
        if st.rec is not None:
            st.event("decision", seat=seat, decision="bid", action=str(action))
        nxt = (None if ends is not None and ends(st, seat)
               else self.next_duel(st, seat, action) if r.hold == H_DUEL
               else self.next_bidder(st, seat))
        if nxt is not None:
            st.current = nxt
            return True
        st.current = None
        self.settle(st)
        return False

    def next_bidder(self, st: State, seat: int) -> int | None:
        """The next seat to bid after ``seat``, or None when the auction is over."""
        a = st.auction
        out = st.off
        final = a[A_FLAGS] & F_PASS_FINAL
        passed = a[A_PASSED]
        d = a[A_DECLARER]
        seats = [p for p in st.prog.rot[st.prog.nxt[seat]] if not out[p]]
        if self.rules.closes and a[A_DOUBLED]:  # only the doubled side, each once; a redouble ends it
            side = [p for p in seats if self.rules.side(st, p, d)]
            return side[0] if a[A_DOUBLED] == 1 and a[A_PASSES] < len(side) else None
        if a[A_FLAGS] & F_ONCE:  # the next who has not spoken (passed or bid)
            bids = A_BIDS
            return next((p for p in seats if not (passed >> p) & 1 and a[bids + p] < 0), None)
        if final:
            active = [p for p in seats if not (passed >> p) & 1]
            if all(p == d for p in active):  # no one left to outbid the highest (or all passed)
                return None
            return active[0]
        if a[A_PASSES] >= len(seats) - (1 if d >= 0 and not a[A_FLAGS] & F_LAST_WORD else 0):
            return None
        return seats[0]

    def elder(self, st: State, seat: int, d: int) -> bool:
        """Whether ``seat`` comes before the highest bidder ``d`` in the bidding order."""
        order = st.prog.rot[st.auction[A_FLAGS] >> F_START]
        return d >= 0 and order.index(seat) < order.index(d)

    def duel(self, st: State) -> tuple[int | None, int | None]:
        """With the holder's right: the holder (the eldest seat still in, from the first
        seat) and the seat bidding to him (the next one still in), each None when none."""
        a = st.auction
        passed = a[A_PASSED]
        alive = [p for p in st.prog.rot[a[A_FLAGS] >> F_START]
                 if not st.off[p] and not (passed >> p) & 1]
        return (alive[0] if alive else None), (alive[1] if len(alive) > 1 else None)

    def next_duel(self, st: State, seat: int, action: Action) -> int | None:
        """With the holder's right, who speaks after ``seat``: the holder, answering a bid
        made to him; else the seat that bids to the holder; or, with no one left to bid to
        him, the holder alone while nothing is bid (None: the auction is over)."""
        holder, bidder = self.duel(st)
        if bidder is None:
            return holder if st.auction[A_CONTRACT] < 0 else None
        if seat == bidder and action not in (PASS, HOLD):
            return holder
        return bidder

    def first_to_name(self, st: State, d: int) -> int:
        """The first seat of ``d``'s side that bid the final contract's trump in this
        auction (its bids: the last run of bids in the hand's public record)."""
        contracts = self.rules.contracts
        strain = contracts[st.auction[A_CONTRACT]].trump
        first = d
        for seat, kind, action in reversed(st.public):
            if kind != "bid":
                break
            if (action in self.rules.bids and self.rules.side(st, seat, d)
                    and contracts[self.rules.first + self.rules.bids.index(action)].trump
                    == strain):
                first = seat
        return first

    def settle(self, st: State) -> None:
        """The auction is over: the contract's trump, or the all-pass steps."""
        a = st.auction
        k = a[A_CONTRACT]
        if k < 0:
            if st.rec is not None:
                st.event("all_passed")
            st.pc = self.rules.all_pass
            return
        c = self.rules.contracts[k]
        if self.rules.first_to_name:
            a[A_DECLARER] = self.first_to_name(st, a[A_DECLARER])
        if c.trump >= 0:
            st.prog.set_trump(st, c.trump)
        if st.rec is not None:
            st.event("contract", contract=c.name, declarer=a[A_DECLARER], doubled=a[A_DOUBLED],
                     **({"trump": st.trump_letter()} if c.trump >= 0 else {}))
        st.pc += 1


class AuctionTrump(Instr):
    """The declarer of a contract whose trump is ``chosen`` names a suit."""

    name = "trump"

    def __init__(self, rules: Rules, suits: tuple[int, ...], pack: Pack | None = None) -> None:
        self.rules = rules
        self.actions = [Action(SUIT, "trump", s, pack) for s in suits]  # pack: names the suits

    def run(self, st: State) -> bool:
        a = st.auction
        k = a[A_CONTRACT]
        if k >= 0 and self.rules.contracts[k].trump == T_CHOSEN and a[A_DECLARER] >= 0:
            st.current = a[A_DECLARER]
            return False
        st.pc += 1
        return True

    def legal(self, st: State) -> list[Action]:
        return self.actions

    def check(self, st: State, a: Action) -> str | None:
        if a in self.actions:
            return None
        return "name a suit: " + ", ".join(str(x) for x in self.actions)

    def apply(self, st: State, seat: int, a: Action) -> bool:
        st.prog.set_trump(st, a[2])
        st.public.append((seat, "trump", a))
        if st.rec is not None:
            st.event("decision", seat=seat, decision="trump", action=str(a))
            st.event("trump", trump=st.trump_letter(), chosen_by=seat)
        st.current = None
        st.pc += 1
        return False


class AuctionCall(Instr):
    """The declarer calls a card (``call AH``); its holder is the partner."""

    name = "call"

    def __init__(self, rules: Rules) -> None:
        self.rules = rules

    def callable(self, st: State) -> list[Action]:
        """The cards the declarer may call: of the called ranks, in the deck, not in hand;
        with ``rank_order``, of the first called rank he does not hold whole, his too."""
        d = st.auction[A_DECLARER]
        ranks = self.rules.called_ranks
        mine = st.hands[d]
        pack = st.prog.pack  # (its rank table: copies and declared packs too)
        named = None if pack.french else pack
        deck = st.prog.deck_mask
        if self.rules.rank_order:  # the first called rank he does not hold whole, his own too
            cards = []
            for r in ranks:
                of_r = [c for c in cards_in(deck) if pack.rank[c] == r]
                if any(not (mine >> c) & 1 for c in of_r):
                    cards = of_r
                    break
        else:
            cards = [c for c in cards_in(deck & ~mine) if pack.rank[c] in ranks]
        allow = self.rules.call_allow
        if allow is not None:  # the spec's condition, on each card as `card`, for the declarer
            cand = st.cand  # scratch: a replay must find the same state
            kept = []
            for c in cards:
                st.cand = c
                if allow(st, d):
                    kept.append(c)
            st.cand = cand
            cards = kept
        return [Action(CARDS, "call", 1 << c, named) for c in cards]

    def run(self, st: State) -> bool:
        a = st.auction
        if (a and a[A_MODE] == 1 and a[A_CONTRACT] >= 0 and a[A_DECLARER] >= 0
                and self.callable(st)):
            st.current = a[A_DECLARER]
            return False
        st.pc += 1
        return True

    def legal(self, st: State) -> list[Action]:
        return self.callable(st)

    def check(self, st: State, a: Action) -> str | None:
        options = self.callable(st)
        if a in options:
            return None
        return "call one card: " + ", ".join(str(x) for x in options)

    def apply(self, st: State, seat: int, a: Action) -> bool:
        c = a[2].bit_length() - 1
        st.auction[A_CALLED] = c
        st.public.append((seat, "call", a))
        if st.rec is not None:
            st.event("decision", seat=seat, decision="call", action=str(a))
        st.current = None
        st.pc += 1
        return False


# -- what formulas and views read ------------------------------------------------------


def played_by(st: State, card: int) -> int:
    """The seat that played ``card`` this hand (-1 when not played)."""
    for q, c in st.trick.cards:
        if c == card:
            return q
    for _lead, pairs, _winner in st.history_tricks:
        for q, c in pairs:
            if c == card:
                return q
    return -1


def holder(st: State, card: int) -> int:
    """The seat holding ``card`` or that played it (-1: neither: the widow, the stock...)."""
    for p in range(st.n):
        if (st.hands[p] >> card) & 1:
            return p
    return played_by(st, card)


def declarer_side(st: State, p: int, team_of: tuple[int, ...]) -> bool:
    """Whether seat ``p`` plays on the declarer's side."""
    a = st.auction
    if not a or a[A_DECLARER] < 0:
        return False
    d = a[A_DECLARER]
    if p == d:
        return True
    mode = a[A_MODE]
    if mode == 2:
        return team_of[p] == team_of[d]
    if mode == 1 and a[A_CALLED] >= 0:
        return holder(st, a[A_CALLED]) == p
    return False


def auction_view(st: State, seat: int, contracts: tuple[Contract, ...]) -> dict[str, Any]:
    """The auction as ``seat`` sees it: the called card's holder only to that holder, or
    to everyone once the card is played."""
    a = st.auction
    k = a[A_CONTRACT]
    called = a[A_CALLED]
    partner: int | None = None
    if called >= 0:
        played = played_by(st, called)
        if played >= 0:
            partner = played
        elif (st.hands[seat] >> called) & 1:
            partner = seat
    return {
        "contract": contracts[k].name if k >= 0 else None,
        "declarer": a[A_DECLARER] if a[A_DECLARER] >= 0 else None,
        "doubled": a[A_DOUBLED],
        "called_card": st.prog.pack.names[called] if called >= 0 else None,
        "partner": partner,
    }


def trump_code(word: str, pack: Pack = FRENCH) -> int:
    """A contract's trump word as its code (a suit letter of ``pack``: that suit)."""
    if word in pack.letters:
        return pack.letters.index(word)
    return {"none": NO_TRUMP, "chosen": T_CHOSEN}.get(word, T_KEEP)


def contracts_of(c: Compiler, hand: list[Any]) -> tuple[Contract, ...]:
    """Every auction's contracts, numbered in one list (the built-ins read it); the
    first index of each auction step, by its path, in ``c.contract_first``."""
    out: list[Contract] = []
    c.contract_first = {}
    for path, step in _v.walk_steps(hand, ("hand",)):
        if not isinstance(step, dict) or not isinstance(step.get("auction"), dict):
            continue
        c.contract_first[path] = len(out)
        for k in step["auction"].get("contracts", []):
            level = k.get("level", 0)
            points = int(k.get("points", 0))
            aim = 0 if points else k.get("aim", level)
            negative = aim == "none"
            out.append(Contract(str(k.get("name", level)), int(level),
                                trump_code(str(k.get("trump", "keep")), c.pack),
                                0 if negative or not isinstance(aim, int) else aim, negative,
                                points))
    return tuple(out)


__all__ = ["HOLD", "AuctionBid", "AuctionCall", "AuctionStart", "AuctionTrump", "Contract", "Rules",
           "auction_view", "bid_action", "declarer_side", "holder", "new_auction", "trump_code"]
