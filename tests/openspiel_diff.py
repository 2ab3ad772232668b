"""Differential play of a shipped spec against OpenSpiel's own implementation of the game.

One :func:`duel` plays spelbok and OpenSpiel side by side on the same deals: spelbok deals
(from a seed), the deal is forced into OpenSpiel through its chance nodes, and then every
decision is compared: the seat to act and the legal set (each side's actions mapped to
OpenSpiel's numbers), then one action drawn at random from the common set is played in
both. Each trick's winner and each hand's score are compared as they come (from spelbok's
event log and OpenSpiel's state). A game's :class:`Rules` subclass holds what differs
between games: the seat and card numbering, the chance outcomes of a deal, the decisions
compared, the score conversion. Where the two engines' rules differ with no spelbok option
to remove it, the Rules class says so (``DIFFERENCES``) and the duel compares only up to it.

Used by ``tests/test_openspiel_diff.py``; the README's "Checked against OpenSpiel" gives the
figures.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

import pyspiel
import spelbok
from spelbok.engine.actions import Action
from spelbok.engine.dummy import hand_seat
from spelbok.engine.state import State

OS_RANKS = "23456789TJQKA"  # OpenSpiel's rank characters, lowest first, in every game here


@dataclass
class Tally:
    """What a duel compared, and every disagreement found."""

    decisions: int = 0  # decisions compared (seat and legal set)
    tricks: int = 0  # trick winners compared
    hands: int = 0  # hand scores compared
    narrowed: int = 0  # decisions where a listed difference took options out of spelbok's set
    mismatches: list[str] = field(default_factory=list)

    def check(self, ok: bool, what: str) -> bool:
        if not ok and len(self.mismatches) < 20:
            self.mismatches.append(what)
        return ok

    def add(self, other: Tally) -> None:
        self.decisions += other.decisions
        self.tricks += other.tricks
        self.hands += other.hands
        self.narrowed += other.narrowed
        self.mismatches.extend(other.mismatches)


class Rules:
    """One game as both engines have it. Subclasses set the names and the hooks."""

    spec = ""  # the shipped spec
    players = 4
    options: dict[str, Any] = {}  # spelbok's options set to OpenSpiel's rules
    os_game = ""
    os_params: dict[str, Any] = {}
    suits = "CDHS"  # OpenSpiel's suit order (its suit index of each spelbok suit letter)
    DIFFERENCES: tuple[str, ...] = ()  # rules differences with no option to remove them

    def __init__(self) -> None:
        self.game = spelbok.load(self.spec, players=self.players, options=self.options)
        self.os = pyspiel.load_game(self.os_game, self.os_params)
        self.pack = self.game.program.pack

    # -- numbering ------------------------------------------------------------------
    def card_parts(self, card: int) -> tuple[int, int]:
        """(OpenSpiel suit index, rank index 0 = the two) of a spelbok card."""
        name = self.pack.names[card]
        rank = name[:-1]
        return self.suits.index(name[-1]), OS_RANKS.index("T" if rank == "10" else rank)

    def os_card(self, card: int) -> int:
        """OpenSpiel's number of a card (overridden where the numbering differs)."""
        suit, rank = self.card_parts(card)
        return rank * 4 + suit

    def os_seat(self, st: State, seat: int) -> int:
        """OpenSpiel's player of a spelbok seat in the running hand."""
        return seat

    def os_action(self, st: State, action: Action) -> int:
        """OpenSpiel's number of a spelbok action at the current decision."""
        assert action.card is not None, f"no mapping for {action}"
        return self.os_card(action.card)

    # -- a hand ---------------------------------------------------------------------
    def start(self, st: State, deal: dict[str, Any]) -> pyspiel.State:
        """A new OpenSpiel state holding spelbok's deal (``deal`` is the deal event)."""
        raise NotImplementedError

    def deal_round_robin(self, os_st: pyspiel.State, st: State, hands: list[list[str]],
                         first: int = 0) -> None:
        """Apply the chance outcomes of a deal where OpenSpiel deals one card at a time to
        player ``first``, the next... in turn (its usual way)."""
        n = self.players
        by_os = [[] for _ in range(n)]  # type: list[list[str]]
        for seat, cards in enumerate(hands):
            by_os[self.os_seat(st, seat)] = cards
        for i in range(sum(len(h) for h in hands)):
            p = (first + i) % n
            os_st.apply_action(self.os_card(self.pack.index[by_os[p][i // n]]))

    def narrow(self, st: State, os_st: pyspiel.State,
               mine: dict[int, Action]) -> dict[int, Action]:
        """spelbok's legal set without the options a listed difference (``DIFFERENCES``)
        gives spelbok and not OpenSpiel (default: all of them)."""
        return mine

    def os_actor(self, st: State, seat: int) -> int:
        """OpenSpiel's player to act when spelbok's ``seat`` acts (default: the same)."""
        return self.os_seat(st, seat)

    def pick_from(self, st: State, common: list[int]) -> list[int]:
        """The actions the random choice draws from (default: the whole common set); a
        listed difference that depends on the choices made is kept out this way."""
        return common

    def choose(self, st: State, rng: random.Random, common: list[int]) -> int:
        """The action played, drawn from ``common`` (default: uniformly)."""
        return rng.choice(common)

    def comparable(self, st: State) -> bool:
        """Whether the hand about to start can be compared (else the duel stops)."""
        return True

    def compared(self, st: State) -> bool:
        """Whether the pending spelbok decision is compared one to one (else it is
        handled by :meth:`deferred`)."""
        return True

    def deferred(self, st: State, os_st: pyspiel.State, action: Action, tally: Tally) -> None:
        """A decision the two engines take in another order (e.g. passing): record it."""
        raise NotImplementedError

    def flush(self, st: State, os_st: pyspiel.State, tally: Tally) -> None:
        """Play the recorded deferred decisions in OpenSpiel, checking them there."""

    def decide(self, st: State, os_st: pyspiel.State, tally: Tally, rng: random.Random,
               where: str) -> bool:
        """Compare the pending decision (seat, legal set), then play one common action
        drawn at random in both engines; False after a disagreement."""
        seat = st.current_player
        assert seat is not None
        legal = st.legal_actions()
        tally.decisions += 1
        os_p = os_st.current_player()
        if not tally.check(os_p == self.os_actor(st, seat),
                           f"{where}: spelbok seat {seat}, OpenSpiel player {os_p}"):
            return False
        mine = {self.os_action(st, a): a for a in legal}
        kept = self.narrow(st, os_st, mine)
        if len(kept) < len(mine):
            tally.narrowed += 1
            mine = kept
        theirs = set(os_st.legal_actions())
        if not tally.check(set(mine) == theirs,
                           f"{where}: spelbok {sorted(str(a) for a in legal)}, OpenSpiel "
                           f"{sorted(os_st.action_to_string(os_p, a) for a in theirs)}"):
            return False
        pick = self.choose(st, rng, self.pick_from(st, sorted(theirs)))
        st.apply(mine[pick])
        os_st.apply_action(pick)
        return True

    def trick_winner(self, os_st: pyspiel.State, st: State, number: int) -> int | None:
        """OpenSpiel's winner of the trick just completed, as a spelbok seat (None:
        not visible, e.g. after the last trick: the hand's score checks it)."""
        if os_st.is_terminal() or os_st.is_chance_node():
            return None
        p = os_st.current_player()
        return next(s for s in range(self.players) if self.os_seat(st, s) == p)

    def trick_counts(self, st: State, os_st: pyspiel.State) -> list[int] | None:
        """OpenSpiel's tricks taken in the hand, per spelbok seat, where it shows them
        (this checks the last trick's winner too); None where it does not."""
        return None

    def shown_counts(self, st: State, text: str, after: str, names: bool) -> list[int]:
        """The per-player numbers on the line of ``to_string()`` after ``after`` (``names``:
        a line of player names comes between), as per spelbok seat."""
        lines = text[text.index(after) + len(after):].strip().splitlines()
        row = [int(x) for x in lines[1 if names else 0].split()]
        return [row[self.os_seat(st, s)] for s in range(self.players)]

    def score_ok(self, st: State, os_st: pyspiel.State, delta: list[int]) -> bool:
        """Whether spelbok's score change of the hand agrees with OpenSpiel's returns."""
        raise NotImplementedError

    def hand_compared(self, st: State) -> bool:
        """Whether the hand just over was compared to its end (False: a listed
        difference stopped the comparison, and its score is not compared)."""
        return True


def play_hand(rules: Rules, st: State, rng: random.Random, tally: Tally, seen: int) -> int:
    """Play spelbok's running hand against OpenSpiel; return the log index reached.

    ``seen`` is the number of log events already handled (the deal of this hand is
    among the new ones).
    """
    log = st.log
    deal = next(e for e in log[seen:] if e["event"] == "deal")
    seen = log.index(deal) + 1
    before = st.scores
    hand = st.hand_number
    os_st = rules.start(st, deal)
    label = f"{rules.spec} seed {st.seed} hand {hand}"
    while not st.is_terminal and st.hand_number == hand:
        if not rules.compared(st):
            legal = st.legal_actions()
            action = legal[rng.randrange(len(legal))]
            rules.deferred(st, os_st, action, tally)
            st.apply(action)
        else:
            rules.flush(st, os_st, tally)
            if not rules.decide(st, os_st, tally, rng, f"{label}, {st.phase}"):
                return _skip_hand(st, hand)
        log = st.log
        for i in range(seen, len(log)):
            e = log[i]
            if e["event"] == "trick":
                w = rules.trick_winner(os_st, st, e["number"])
                if w is not None:
                    tally.tricks += 1
                    tally.check(w == e["winner"], f"{label}, trick {e['number']}: spelbok "
                                f"winner {e['winner']}, OpenSpiel {w}")
            elif e["event"] == "redeal":
                # all passed: OpenSpiel's deal ends with nothing scored, spelbok deals again
                tally.hands += 1
                tally.check(os_st.is_terminal() and not any(os_st.returns()),
                            f"{label}: spelbok redeals, OpenSpiel "
                            f"{os_st.returns() if os_st.is_terminal() else 'not over'}")
                deal = next(d for d in log[i:] if d["event"] == "deal")
                os_st = rules.start(st, deal)
            elif e["event"] == "end_hand":
                if not rules.hand_compared(st):
                    return i + 1  # a listed difference ended the comparison
                rules.flush(st, os_st, tally)
                tally.hands += 1
                counts = rules.trick_counts(st, os_st) if os_st.is_terminal() else None
                tally.check(counts is None or counts == e["tricks"],
                            f"{label}: spelbok tricks {e['tricks']}, OpenSpiel {counts}")
                delta = [a - b for a, b in zip(e["scores"], before)]
                tally.check(os_st.is_terminal() and rules.score_ok(st, os_st, delta),
                            f"{label}: spelbok score change {delta}, OpenSpiel "
                            f"{os_st.returns() if os_st.is_terminal() else 'not over'}")
                return i + 1  # the next hand's events follow
        seen = len(log)
    return seen


def _skip_hand(st: State, hand: int) -> int:
    """After a disagreement: finish spelbok's hand at random, comparing nothing more."""
    rng = random.Random(0)
    while not st.is_terminal and st.hand_number == hand:
        legal = st.legal_actions()
        st.apply(legal[rng.randrange(len(legal))])
    log = st.log
    ends = [i for i, e in enumerate(log) if e["event"] == "end_hand"]
    return ends[-1] + 1 if ends else len(log)


def duel(rules: Rules, seed: int, hands: int = 1) -> Tally:
    """Play ``hands`` hands of one spelbok match (from ``seed``) against OpenSpiel."""
    tally = Tally()
    rng = random.Random(seed)
    st = rules.game.new_state(seed=seed, record=True)
    seen = 0
    for _ in range(hands):
        if st.is_terminal or not rules.comparable(st):
            break
        seen = play_hand(rules, st, rng, tally, seen)
    return tally


class Hearts(Rules):
    """specs/hearts.yaml against OpenSpiel's "hearts" (open_spiel/games/hearts/hearts.cc).

    OpenSpiel: cards are ``rank * 4 + suit`` (suits C D H S, rank 0 the two); the first
    chance outcome is the pass direction (0 none, 1 left, 2 across, 3 right: player p
    passes to p + direction), then 52 deal outcomes, card i to player i % 4; players 0..3
    pass one card at a time; returns are 26 minus the points taken. Its defaults: the two
    of clubs leads, no point card on the first trick, hearts broken by a heart or the
    queen of spades, the moon adds 26 to the others, no jack of diamonds.
    """

    spec = "hearts"
    options = {"passing": "rotate", "first_trick_points": "forbidden",
               "hearts_led": "broken_or_queen", "moon": "add_to_others",
               "jack_of_diamonds": False}
    os_game = "hearts"
    os_params: dict[str, Any] = {}  # OpenSpiel's defaults, listed in the class docstring
    DIRECTION = {"left": 1, "across": 2, "right": 3, "none": 0}
    # spelbok's rotation: left, right, across, none (hand 1, 2, 3, 4, ...)
    ROTATION: tuple[str, ...] = ("left", "right", "across", "none")

    def start(self, st: State, deal: dict[str, Any]) -> pyspiel.State:
        os_st = self.os.new_initial_state()
        rotation = self.ROTATION
        os_st.apply_action(self.DIRECTION[rotation[(st.hand_number - 1) % len(rotation)]])
        self.deal_round_robin(os_st, st, deal["hands"])
        self.passes: dict[int, tuple[set[int], list[int]]] = {}
        return os_st

    def compared(self, st: State) -> bool:
        return st.decision_name != "pass"

    def deferred(self, st: State, os_st: pyspiel.State, action: Action, tally: Tally) -> None:
        # spelbok passes three cards at once from the dealer's left; OpenSpiel one card
        # at a time from player 0: the same choice (passing is simultaneous in the rules)
        legal = st.legal_actions()
        mask = 0
        for a in legal:
            mask |= a.value  # a pass's value is its set of cards
        offered = {self.os_card(c) for c in range(self.pack.size) if mask >> c & 1}
        sizes = {a.value.bit_count() for a in legal}
        seat = st.current_player
        assert seat is not None
        tally.check(sizes == {3}, f"{self.spec} seed {st.seed}: pass sizes {sizes}")
        self.passes[self.os_seat(st, seat)] = (offered, [self.os_card(c) for c in action.cards])

    def flush(self, st: State, os_st: pyspiel.State, tally: Tally) -> None:
        passes, self.passes = self.passes, {}
        for p in sorted(passes):
            offered, cards = passes[p]
            tally.decisions += 1
            ok = tally.check(os_st.current_player() == p and set(os_st.legal_actions()) == offered,
                             f"{self.spec} seed {st.seed} hand {st.hand_number}: pass by {p}: "
                             f"OpenSpiel player {os_st.current_player()}")
            for c in cards:
                if ok:
                    ok = tally.check(c in os_st.legal_actions(), f"pass {c} refused")
                    os_st.apply_action(c)

    def score_ok(self, st: State, os_st: pyspiel.State, delta: list[int]) -> bool:
        returns = os_st.returns()
        return all(returns[self.os_seat(st, s)] == 26 - delta[s] for s in range(self.players))


class HeartsHouse(Hearts):
    """Hearts with the house rules flipped on both sides: always pass left, penalty
    cards allowed on the first trick, only a heart breaks hearts, the jack of diamonds
    takes off 10 (OpenSpiel: ``no_pts_on_first_trick``, ``qs_breaks_hearts`` false,
    ``jd_bonus`` true)."""

    options = {"passing": "left", "first_trick_points": "allowed", "hearts_led": "broken",
               "moon": "add_to_others", "jack_of_diamonds": True}
    os_params = {"no_pts_on_first_trick": False, "qs_breaks_hearts": False, "jd_bonus": True}
    ROTATION = ("left",)


class HeartsOpen(Hearts):
    """Hearts without passing and with hearts led at any time (OpenSpiel: ``pass_cards``
    and ``must_break_hearts`` false)."""

    options = {**Hearts.options, "passing": "none", "hearts_led": "any"}
    os_params = {"pass_cards": False, "must_break_hearts": False}
    ROTATION = ("none",)


class Spades(Rules):
    """specs/spades.yaml against OpenSpiel's "spades" (open_spiel/games/spades/spades.cc,
    spades_scoring.cc).

    OpenSpiel: cards are ``suit * 13 + rank`` (suits C D H S), bids ``52 + tricks`` (52 is
    nil); one hand, player 0 bids first and leads (spelbok: the dealer's left); the deal
    gives card i to player i % 4; partners 0 and 2, 1 and 3. Its scoring: a side making
    its contract scores ten a trick bid and a point a trick over, else loses ten a trick
    bid; a nil wins or loses 100 and its tricks count for the side (spelbok's
    ``nil_tricks: count``); no blind nil (``blind_nil: never``); ten bags cost 100, the
    bags read as the side's score modulo 10 (so hands are compared while both scores are
    at least 0, and OpenSpiel is given the sides' scores before each hand).
    """

    spec = "spades"
    options = {"blind_nil": "never", "nil_tricks": "count", "bags": "penalty"}
    os_game = "spades"
    DIFFERENCES = (
        "bids: OpenSpiel refuses a bid that takes the partners' bids over 13; "
        "no option (spelbok allows 0 to 13 whatever the partner bid)",
        "leading spades: OpenSpiel never counts spades as broken (its is_spades_broken_ is "
        "never set), so a spade is led only by a player holding nothing else; no option "
        "(spelbok's lead_trumps: broken, trumps_broken_by: ruff frees them after a ruff)",
    )

    def os_card(self, card: int) -> int:
        suit, rank = self.card_parts(card)
        return suit * 13 + rank

    def os_seat(self, st: State, seat: int) -> int:
        return (seat - self.dealer - 1) % 4  # the dealer of the hand compared

    def os_action(self, st: State, action: Action) -> int:
        if action.card is None:  # a bid
            return 52 + action.value
        return self.os_card(action.card)

    def comparable(self, st: State) -> bool:
        return min(st.var("score")) >= 0

    def start(self, st: State, deal: dict[str, Any]) -> pyspiel.State:
        os_st = self.os.new_initial_state()
        self.dealer = st.dealer
        scores = [0, 0]
        for seat, score in enumerate(st.var("score")):
            scores[self.os_seat(st, seat) % 2] = score
        os_st.set_current_scores(scores)
        self.deal_round_robin(os_st, st, deal["hands"])
        self.mark = len(st.log)  # this hand's decisions come after
        return os_st

    def narrow(self, st: State, os_st: pyspiel.State,
               mine: dict[int, Action]) -> dict[int, Action]:
        if st.decision_name != "bid":
            if st.view(st.current_player)["trick"] or all(a.card is not None and
                                                            self.pack.names[a.card][-1] == "S"
                                                            for a in mine.values()):
                return mine  # following, or holding only spades
            return {k: a for k, a in mine.items() if self.pack.names[a.card][-1] != "S"}
        seat = st.current_player
        assert seat is not None
        partner = (seat + 2) % 4
        bids = [e for e in st.log[self.mark:] if e["event"] == "decision"
                and e["decision"] == "bid" and e["seat"] == partner]
        if not bids:
            return mine
        said = int(bids[0]["action"].split()[1])
        return {k: a for k, a in mine.items() if a.value + said <= 13}

    def choose(self, st: State, rng: random.Random, common: list[int]) -> int:
        # bids of 0 to 4: contracts are made often enough for bags and their penalty
        low = [c for c in common if c >= 52 and c <= 56]
        return rng.choice(low or common)

    def trick_counts(self, st: State, os_st: pyspiel.State) -> list[int] | None:
        return self.shown_counts(st, os_st.to_string(), "Tricks taken:", names=True)

    def score_ok(self, st: State, os_st: pyspiel.State, delta: list[int]) -> bool:
        returns = os_st.returns()
        return all(returns[self.os_seat(st, s)] == delta[s] for s in range(4))


class Bridge(Rules):
    """specs/bridge.yaml (duplicate scoring) against OpenSpiel's "bridge" with
    ``use_double_dummy_result=False`` (open_spiel/games/bridge/bridge.cc,
    bridge_scoring.cc).

    OpenSpiel: cards are ``rank * 4 + suit`` (suits C D H S), calls ``52 + call`` (0 pass,
    1 double, 2 redouble, then ``3 + (level - 1) * 5 + strain``, strains C D H S N); one
    deal, player 0 (North) deals and calls first (spelbok's dealer); the deal gives card i
    to player i % 4; during play the declarer chooses the dummy's cards; duplicate
    scoring, the vulnerability given as parameters (set per deal from the standard board
    order that spelbok's duplicate option follows).
    """

    spec = "bridge"
    options = {"scoring": "duplicate", "doubled_undertricks": "current"}
    os_game = "bridge"
    os_params = {"use_double_dummy_result": False}
    STRAINS = {"C": 0, "D": 1, "H": 2, "S": 3, "none": 4}
    # the standard duplicate board order, boards 1..16: (North-South, East-West) vulnerable
    VUL = "- N E B N E B - E B - N B - N E"
    def __init__(self) -> None:
        super().__init__()
        auction = next(s["auction"] for s in self.game.tree["hand"] if "auction" in s)
        self.calls = {"pass": 52, "double": 53, "redouble": 54}
        for c in auction["contracts"]:
            self.calls[c["name"]] = 55 + (c["level"] - 1) * 5 + self.STRAINS[c["trump"]]
        self.games: dict[tuple[bool, bool], pyspiel.Game] = {}
        self.dummy_turns = 0  # decisions where the declarer chose the dummy's card

    def os_seat(self, st: State, seat: int) -> int:
        return (seat - self.dealer) % 4

    def os_action(self, st: State, action: Action) -> int:
        if action.card is None:
            return self.calls[str(action)]
        return self.os_card(action.card)

    def start(self, st: State, deal: dict[str, Any]) -> pyspiel.State:
        self.dealer = st.dealer
        self.mark = len(st.log)
        board = (st.hand_number - 1) % 16  # from 0
        vul = self.VUL.split()[board]
        # the standard order: board n is dealt by North, East, South, West in turn, so
        # the dealer's side is North-South on odd boards (OpenSpiel's dealer is player 0)
        north_deals = board % 2 == 0
        dealer_side_vul = vul == "B" or vul == ("N" if north_deals else "E")
        other_vul = vul == "B" or vul == ("E" if north_deals else "N")
        key = (dealer_side_vul, other_vul)
        if key not in self.games:
            self.games[key] = pyspiel.load_game(self.os_game, {
                **self.os_params, "dealer_vul": key[0], "non_dealer_vul": key[1]})
        os_st = self.games[key].new_initial_state()
        self.deal_round_robin(os_st, st, deal["hands"])
        return os_st

    def _declarer(self, st: State) -> int | None:
        got = [e for e in st.log[self.mark:] if e["event"] == "contract"]
        return got[0]["declarer"] if got else None

    def decide(self, st: State, os_st: pyspiel.State, tally: Tally, rng: random.Random,
               where: str) -> bool:
        # the dummy's turn: spelbok's seat to act (the one compared with OpenSpiel's
        # current player) is the declarer, and the cards offered are the dummy's
        seat, hand = st.current_player, hand_seat(st)
        if hand != seat:
            self.dummy_turns += 1
            d = self._declarer(st)
            if not tally.check(d == seat and hand == (d + 2) % 4,
                               f"{where}: the dummy {hand} played by {seat}, declarer {d}"):
                return False
        return super().decide(st, os_st, tally, rng, where)

    def choose(self, st: State, rng: random.Random, common: list[int]) -> int:
        # uniform calls push nearly every auction to the seven level: pass half the
        # time, else make one of the five cheapest calls, so part scores and games come up
        if st.decision_name == "play" or len(common) == 1:
            return rng.choice(common)
        if 52 in common and rng.random() < 0.5:
            return 52
        return rng.choice([c for c in common if c != 52][:5])

    def trick_winner(self, os_st: pyspiel.State, st: State, number: int) -> int | None:
        text = os_st.to_string()
        at = text.index(f"Trick {number}. ")
        who = text[text.index("Won by ", at) + 7:].split(".")[0]
        p = ["North", "East", "South", "West"].index(who)
        return next(s for s in range(4) if self.os_seat(st, s) == p)

    def score_ok(self, st: State, os_st: pyspiel.State, delta: list[int]) -> bool:
        # OpenSpiel's deal is zero-sum: a side's return is its score minus the other's
        returns = os_st.returns()
        return all(returns[self.os_seat(st, s)] == delta[s] - delta[(s + 1) % 4]
                   for s in range(4))


class Euchre(Rules):
    """specs/euchre.yaml against OpenSpiel's "euchre" (open_spiel/games/euchre/euchre.cc).

    OpenSpiel: cards are ``rank * 4 + suit`` (ranks 9 10 J Q K A, suits C D H S); 24 pass,
    25..28 a trump suit (C D H S), 29 alone, 30 with the partner; the first chance outcome
    is the dealer, then 20 cards, the k-th to player dealer + k, then the turned card. In
    the second round OpenSpiel names the suit in one action where spelbok asks "name" and
    then the suit: the two spelbok decisions are compared as the one. Its defaults: stick
    the dealer, no lone defender, makers 1, 2 for the march, 4 alone, euchred -2.
    """

    spec = "euchre"
    options = {"stick_dealer": True, "discard_turn_up": False, "lone_lead": "forehand",
               "lone_euchre": 2, "partner_order_alone": False}
    os_game = "euchre"
    os_params = {"stick_the_dealer": True, "allow_lone_defender": False}
    WORDS = {"pass": 24, "alone": 29, "together": 30}

    def os_card(self, card: int) -> int:
        suit, rank = self.card_parts(card)
        return (rank - OS_RANKS.index("9")) * 4 + suit

    def trump_action(self, letter: str) -> int:
        return 25 + self.suits.index(letter)

    def start(self, st: State, deal: dict[str, Any]) -> pyspiel.State:
        os_st = self.os.new_initial_state()
        os_st.apply_action(st.dealer)
        self.deal_round_robin(os_st, st, deal["hands"], first=st.dealer)
        self.upcard = st.view(0)["turn_up"][0]
        os_st.apply_action(self.os_card(self.pack.index[self.upcard]))
        return os_st

    def os_action(self, st: State, action: Action) -> int:
        text = str(action)
        if text in self.WORDS:
            return self.WORDS[text]
        if text == "order":
            return self.trump_action(self.upcard[-1])
        if action.card is None:  # the dealer's pickup: the one card discarded
            (card,) = action.cards
            return self.os_card(card)
        return self.os_card(action.card)

    def decide(self, st: State, os_st: pyspiel.State, tally: Tally, rng: random.Random,
               where: str) -> bool:
        if st.decision_name != "name":
            return super().decide(st, os_st, tally, rng, where)
        # second round: spelbok's "name" then "trump X" is OpenSpiel's one suit action
        seat = st.current_player
        tally.decisions += 1
        os_p = os_st.current_player()
        if not tally.check(os_p == seat, f"{where}: spelbok seat {seat}, OpenSpiel {os_p}"):
            return False
        words = {str(a) for a in st.legal_actions()}
        theirs = set(os_st.legal_actions())
        suits = {self.trump_action(x) for x in self.suits if x != self.upcard[-1]}
        want = ({24} if "pass" in words else set()) | (suits if "name" in words else set())
        if not tally.check(want == theirs, f"{where}: spelbok {sorted(words)}, OpenSpiel "
                           f"{sorted(os_st.action_to_string(os_p, a) for a in theirs)}"):
            return False
        pick = self.choose(st, rng, sorted(theirs))
        st.apply("pass" if pick == 24 else "name")
        if pick != 24:
            named = {self.trump_action(str(a).split()[-1]): a for a in st.legal_actions()}
            if not tally.check(st.current_player == seat and set(named) == suits,
                               f"{where}: spelbok's suits {sorted(named)}"):
                return False
            st.apply(named[pick])
        os_st.apply_action(pick)
        return True

    def choose(self, st: State, rng: random.Random, common: list[int]) -> int:
        if self.pass_rate and 24 in common and rng.random() < self.pass_rate:
            return 24
        return rng.choice(common)

    pass_rate = 0.0  # how often a player passes where he may (else: uniform)

    def trick_winner(self, os_st: pyspiel.State, st: State, number: int) -> int | None:
        return os_st.tricks()[number - 1].winner()

    def score_ok(self, st: State, os_st: pyspiel.State, delta: list[int]) -> bool:
        returns = os_st.returns()  # zero-sum: the makers' points, the defenders' negated
        return all(returns[s] == delta[s] - delta[(s + 1) % 4] for s in range(4))


class EuchreNoStick(Euchre):
    """Euchre where four passes in both rounds throw the hand in (OpenSpiel's
    ``stick_the_dealer`` false: the deal ends with nothing scored); players pass 80 % of
    the time, so that the second round and the redeal come up."""

    options = {**Euchre.options, "stick_dealer": False, "redeal_dealer": "next"}
    os_params = {"stick_the_dealer": False, "allow_lone_defender": False}
    pass_rate = 0.8


class OhHell(Rules):
    """specs/oh-hell.yaml against OpenSpiel's "oh_hell" (open_spiel/games/oh_hell/oh_hell.cc).

    OpenSpiel: cards are ``rank * 4 + suit`` with the suits in the order C D S H; bids are
    ``52 + tricks``; one deal, its chance outcomes the number of tricks (spelbok's hand
    size of the deal), the dealer, the cards (the k-th to player k % players), then the
    card turned for trumps. Its rules: the dealer bids last and may not make the bids add
    up to the tricks (spelbok's ``hook: always``); a point a trick and 10 more for an
    exact bid (spelbok's ``scoring: basic``).
    """

    spec = "oh-hell"
    players = 4
    options = {"hook": "always", "scoring": "basic", "largest_hand": "pagat",
               "schedule": "down_up"}
    os_game = "oh_hell"
    suits = "CDSH"

    def __init__(self) -> None:
        self.os_params = {"players": self.players}
        super().__init__()

    def os_action(self, st: State, action: Action) -> int:
        if action.card is None:  # a bid
            return 52 + action.value
        return self.os_card(action.card)

    def start(self, st: State, deal: dict[str, Any]) -> pyspiel.State:
        os_st = self.os.new_initial_state()
        os_st.apply_action(len(deal["hands"][0]))
        os_st.apply_action(st.dealer)
        self.deal_round_robin(os_st, st, deal["hands"])
        os_st.apply_action(self.os_card(self.pack.index[st.view(0)["turn_up"][0]]))
        return os_st

    def trick_counts(self, st: State, os_st: pyspiel.State) -> list[int] | None:
        return self.shown_counts(st, os_st.to_string(), "Tricks Won:", names=False)

    def score_ok(self, st: State, os_st: pyspiel.State, delta: list[int]) -> bool:
        return [int(r) for r in os_st.returns()] == delta


class OhHell3(OhHell):
    players = 3


class OhHell6(OhHell):
    players = 6


class Skat(Rules):
    """specs/skat.yaml against OpenSpiel's "skat" (open_spiel/games/skat/skat.cc).

    OpenSpiel: cards are ``suit * 8 + rank`` (suits D H S C, ranks 7 8 9 Q K 10 A J);
    32 deal outcomes, the k-th card to player 0 (k 0-2, 11-14, 23-25), 1 (3-5, 15-18,
    26-28), 2 (6-8, 19-22, 29-31) or the skat (9, 10), which is spelbok's 3-4-3 deal with
    the skat after the first round; player 0 is forehand (spelbok's dealer + 1). Its
    bidding is first come, first served: players 0, 1, 2 in turn pass (32) or name a game
    (33 diamonds, 34 hearts, 35 spades, 36 clubs, 37 grand, 38 null), the first to name one
    is the declarer and takes the skat; all passing ends the deal with nothing scored. He
    discards two cards one at a time; forehand leads; a null ends as soon as the declarer
    takes a trick. Its returns are card points: the declarer's ``(points - 60) / 120``
    (with the skat; a null counts 90 won, 30 lost), each defender's ``(60 - points) / 240``.

    The auctions differ (``DIFFERENCES``), so both are driven to one contract: a declarer
    drawn at random (or none: all pass, one deal in ten). In OpenSpiel the players before
    him pass; in spelbok (middlehand bids to forehand, then rearhand to the survivor) he
    bids 18 when it is his turn to bid and every other player passes; he picks up the skat
    and names the game in both (drawn at random).
    """

    spec = "skat"
    players = 3
    options = {"doubling": "none", "passed_out": "throw_in", "scoring": "plain"}
    os_game = "skat"
    suits = "DHSC"
    RANKS = ["7", "8", "9", "Q", "K", "10", "A", "J"]
    GAMES = {"diamonds": 33, "hearts": 34, "spades": 35, "clubs": 36, "grand": 37,
             "null": 38}
    PASS = 32
    DIFFERENCES = (
        "auction: OpenSpiel's first player to name a game is the declarer, with no bid "
        "values; no option: both driven to one declarer at 18 and one game",
        "hand games, announcements and the open null: OpenSpiel has none (the declarer "
        "always takes the skat); no option: taken out of spelbok's sets",
        "null ranking: spelbok's jacks stay top trumps and the ten above the king (the "
        "spec's COMPROMISE); no option: a null is compared up to the first trick whose "
        "winner differs and holds a jack or a ten",
        "null: OpenSpiel ends the deal when the declarer takes a trick, spelbok plays on; "
        "no option: compared up to that trick",
        "score: OpenSpiel returns card points, spelbok the game value; no option: the "
        "declarer's card points and won or lost are compared",
    )

    def __init__(self) -> None:
        super().__init__()
        self.stopped = 0  # null deals whose comparison stopped at the ranking difference

    def os_card(self, card: int) -> int:
        name = self.pack.names[card]
        return self.suits.index(name[-1]) * 8 + self.RANKS.index(name[:-1])

    def os_seat(self, st: State, seat: int) -> int:
        return (seat - self.forehand) % 3

    def _os_passes(self, st: State, os_st: pyspiel.State, tally: Tally, where: str) -> bool:
        """OpenSpiel's bidding up to the drawn declarer: the players before him pass (all
        three when no one declares); he names the game when spelbok asks for it."""
        before = 3 if self.declarer is None else self.os_seat(st, self.declarer)
        for p in range(before):
            tally.decisions += 1
            theirs = set(os_st.legal_actions())
            if not tally.check(os_st.current_player() == p
                               and theirs == {self.PASS, *self.GAMES.values()},
                               f"{where}: OpenSpiel player {os_st.current_player()} "
                               f"{sorted(theirs)}, expected {p} to pass or name a game"):
                return False
            os_st.apply_action(self.PASS)
        return True

    def os_action(self, st: State, action: Action) -> int:
        if action.card is None:
            return self.GAMES.get(str(action), -1)  # -1: no OpenSpiel counterpart
        return self.os_card(action.card)

    def start(self, st: State, deal: dict[str, Any]) -> pyspiel.State:
        self.forehand = (st.dealer + 1) % 3
        self.mark = len(st.log)
        self.declarer: int | None = None  # drawn at the first bid (None: all pass)
        self.drawn = False
        self.game_name = ""
        self.ended_at = 0  # the trick after which OpenSpiel's null was over
        self.halted = False  # the null ranking difference was reached
        os_st = self.os.new_initial_state()
        by_os = [[] for _ in range(3)]  # type: list[list[str]]
        for seat, cards in enumerate(deal["hands"]):
            by_os[self.os_seat(st, seat)] = list(cards)
        order = [(0, 3), (1, 3), (2, 3), (3, 2), (0, 4), (1, 4), (2, 4), (0, 3), (1, 3), (2, 3)]
        piles = [*by_os, list(deal["widow"])]
        for who, n in order:
            for _ in range(n):
                os_st.apply_action(self.os_card(self.pack.index[piles[who].pop(0)]))
        return os_st

    def decide(self, st: State, os_st: pyspiel.State, tally: Tally, rng: random.Random,
               where: str) -> bool:
        name = st.decision_name
        if self.halted:
            return False  # the listed difference: the deal is not compared further
        if os_st.is_terminal() and name != "bid":
            # OpenSpiel's null is over (the declarer took a trick); spelbok plays on
            legal = st.legal_actions()
            st.apply(legal[rng.randrange(len(legal))])
            return True
        if name == "play":
            return super().decide(st, os_st, tally, rng, where)
        seat = st.current_player
        assert seat is not None
        words = {str(a) for a in st.legal_actions()}
        theirs = set(os_st.legal_actions())
        if name == "bid":
            if not self.drawn:
                self.drawn = True
                self.declarer = None if rng.random() < 0.1 else rng.randrange(3)
                self.game_name = rng.choice(sorted(self.GAMES))
                if not self._os_passes(st, os_st, tally, where):
                    return False
            mine = self.declarer == seat
            if not tally.check("pass" in words and ("bid 18" in words or not mine),
                               f"{where}: spelbok {sorted(words)}"):
                return False
            st.apply("bid 18" if mine else "pass")
            return True
        tally.decisions += 1
        if not tally.check(os_st.current_player() == self.os_seat(st, seat),
                           f"{where}: spelbok seat {seat}, OpenSpiel player "
                           f"{os_st.current_player()}"):
            return False
        if name == "skat":  # OpenSpiel's declarer always takes the skat
            tally.narrowed += 1
            st.apply("pick_up")
            return True
        if name == "game":
            tally.narrowed += 1  # the open null
            mine_games = {self.GAMES[w] for w in words if w in self.GAMES}
            if not tally.check(mine_games == theirs - {self.PASS},
                               f"{where}: spelbok {sorted(words)}, OpenSpiel {sorted(theirs)}"):
                return False
            st.apply(self.game_name)
            os_st.apply_action(self.GAMES[self.game_name])
            return True
        assert name == "discard", name
        # spelbok discards the two cards at once, OpenSpiel one at a time
        pairs = {frozenset(self.os_card(c) for c in a.cards): a for a in st.legal_actions()}
        want = {frozenset((x, y)) for x in theirs for y in theirs if x != y}
        if not tally.check(set(pairs) == want, f"{where}: spelbok {sorted(words)[:5]}..., "
                           f"OpenSpiel {sorted(theirs)}"):
            return False
        pick = sorted(pairs, key=sorted)[rng.randrange(len(pairs))]
        st.apply(pairs[pick])
        first, second = sorted(pick)
        os_st.apply_action(first)
        tally.decisions += 1
        if not tally.check(set(os_st.legal_actions()) == theirs - {first}
                           and os_st.current_player() == self.os_seat(st, seat),
                           f"{where}: OpenSpiel's second discard"):
            return False
        os_st.apply_action(second)
        return True

    def pick_from(self, st: State, common: list[int]) -> list[int]:
        # in a null, jacks and tens are played only when nothing else is legal: the
        # listed ranking difference then decides fewer tricks
        if self.game_name != "null":
            return common
        plain = [c for c in common if c % 8 not in (5, 7)]  # OpenSpiel's 10 and J
        return plain or common

    def trick_winner(self, os_st: pyspiel.State, st: State, number: int) -> int | None:
        if self.ended_at or self.halted:
            return None  # compared no further
        trick = next(e for e in reversed(st.log) if e["event"] == "trick"
                     and e["number"] == number)
        w = super().trick_winner(os_st, st, number)
        if os_st.is_terminal() and number < 10:
            self.ended_at = number  # OpenSpiel's null is lost: its declarer took the trick
            assert self.declarer is not None
            w = self.declarer
        if (w is not None and w != trick["winner"] and self.game_name == "null"
                and any(c[:-1] in ("J", "10") for _, c in trick["cards"])):
            self.halted = True  # the listed null ranking difference
            self.stopped += 1
            return None
        return w

    def hand_compared(self, st: State) -> bool:
        return not self.halted

    def score_ok(self, st: State, os_st: pyspiel.State, delta: list[int]) -> bool:
        returns = os_st.returns()
        if self.declarer is None:  # all passed: nothing scored
            return not any(returns) and not any(delta)
        d = self.declarer
        solo = returns[self.os_seat(st, d)]
        points = next((e["value"] for e in st.log[self.mark:]
                       if e["event"] == "set" and e["var"] == "points"), 0)  # 0: never set
        others_ok = all(delta[s] == 0 and returns[self.os_seat(st, s)] == -solo / 2
                        for s in range(3) if s != d)
        if self.game_name != "null" and round(solo * 120 + 60) != points:
            return False
        return others_ok and (solo > 0) == (delta[d] > 0) and delta[d] != 0
