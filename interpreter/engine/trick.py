"""The trick: its options, which cards a player may play, who wins, why a card
is refused, knocking, and the instructions that play the tricks of a hand.

* :class:`TrickFlags` the options of one ``tricks`` step;
* :func:`legal_cards` and :func:`refusal` what a player may play, and why not;
* :func:`card_key` the one winner rule: the trick goes to its highest key;
* :class:`TricksStart`, :class:`TrickPlay` (with knocking), :class:`TrickNext`
  the instructions (see :mod:`spelbok.engine.steps` for the others).

Everything here reads the per-trump tables of :mod:`spelbok.engine.order`, so the
same code serves permanent trumps, relative trumps and plain suit games.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..cards import Pack, cards_in
from ..frozen import Frozen
from ..limits import MAX_VALUE, held
from .actions import CARD, CARD_ACTIONS, CARDS, WORD, Action, pack_card_list
from .order import NO_TRUMP
from .steps import UNSET, Fn, Instr, Selector, Setter, fixed

if TYPE_CHECKING:
    from .state import State


@dataclass(frozen=True, slots=True)
class TrickFlags(Frozen):
    """The trick options of one ``tricks`` step, evaluated when it starts."""

    follow: bool = True
    head: bool = False
    head_after_trump: bool = False
    void_trump: bool = False
    void_beat: bool = False
    lead_broken: bool = False
    broken_any: bool = False  # any trump played breaks trumps, not only one played to another suit
    first_trick_trumps: bool = True
    abstain_lead: bool = True
    abstain_with_suit: bool = True
    overtrump: bool = False


def _above(mask: int, power: tuple[int, ...], target: int) -> int:
    """The cards of ``mask`` whose power exceeds ``target``."""
    out = 0
    m = mask
    while m:
        low = m & -m
        if power[low.bit_length() - 1] > target:
            out |= low
        m ^= low
    return out


def legal_cards(st: State, seat: int) -> int:
    """Mask of the cards ``seat`` may play to the current trick (before ``allow``)."""
    hand = st.hands[seat]
    t = st.tables
    f = st.tf
    trumps_count = f.first_trick_trumps or st.trick_no > 0
    led = st.led
    if led < 0:
        if not trumps_count or (f.lead_broken and not st.broken):
            plain = hand & ~t.trump_mask
            if plain:
                return plain
        return hand
    same = hand & t.suit_mask[led]
    if f.follow and same:
        if not f.head:
            if f.overtrump and same & t.trump_mask:  # a trump lead: follow with a higher trump
                return _above(same, t.power, st.best_key) or same
            return same
        if st.best_trumped:
            if not f.head_after_trump:
                return same
            target = st.best_led
        else:
            target = st.best_key
        beat = _above(same, t.power, target)
        return beat or same
    if not trumps_count:
        plain = hand & ~t.trump_mask
        return plain or hand
    if f.overtrump and st.best_trumped:
        hand = _overtrump(st, hand)
    if f.void_trump or f.void_beat:
        trumps = hand & t.trump_mask
        if trumps:
            if f.void_beat:
                beat = _above(trumps, t.power, st.best_key)
                if beat:
                    return beat
            if f.void_trump:
                return trumps
    return hand


def _duty_voids(st: State, c: int) -> int:
    """The suits ``c``, played by a hand without the suit led, shows it lacks by the duties
    of such a hand (:func:`legal_cards`): a trump to a first trick without trumps, the
    plain suits (it held nothing else); any other card under ``void_trump``, or under
    ``void_beat`` while every trump beats the trick, the suits made only of trumps (it
    held no trump).  Read before the card counts in the trick."""
    t = st.tables
    f = st.tf
    if not (f.first_trick_trumps or st.trick_no > 0):
        if not t.trump[c]:
            return 0
        out = 0
        for s in range(len(t.suit_mask)):
            m = t.suit_mask[s]
            if m and not m & t.trump_mask:
                out |= 1 << s
        return out
    if t.trump[c] or not (f.void_trump or _above(t.trump_mask, t.power, st.best_key) == t.trump_mask):
        return 0
    out = 0
    for s in range(len(t.suit_mask)):
        m = t.suit_mask[s]
        if m and m & t.trump_mask == m:
            out |= 1 << s
    return out


def played_cards(st: State) -> int:
    """The cards played to tricks this hand (the trick in progress included; face-down
    ones too: mask them with ``st.hidden`` for what the table saw)."""
    played = 0
    for _lead, cards, _w in st.history_tricks:
        for _p, c in cards:
            played |= 1 << c
    for _p, c in st.trick:
        played |= 1 << c
    return played


def _overtrump(st: State, hand: int) -> int:
    """``hand`` without its trumps below the trick's best trump, when it holds a higher one
    (the ``overtrump`` rule: a trump played to a trumped trick must beat it if it can)."""
    t = st.tables
    trumps = hand & t.trump_mask
    higher = _above(trumps, t.power, st.best_key)
    return hand & ~(trumps & ~higher) if higher else hand


def refusal(st: State, seat: int, card: int) -> str:
    """Why the trick options refuse ``card`` (in the hand, not in :func:`legal_cards`).

    Each reason mirrors the branch of :func:`legal_cards` that left the card out.
    """
    hand = st.hands[seat]
    t = st.tables
    f = st.tf
    first = not (f.first_trick_trumps or st.trick_no > 0)
    led = st.led
    if led < 0:  # only trumps are ever kept from the lead
        if first:
            return "no trump may be led to the first trick by a player holding another card"
        return "trumps may not be led until they are broken"
    if f.follow and hand & t.suit_mask[led]:
        if t.suit[card] != led:
            pack = st.prog.pack
            if led < len(pack.letters):
                return f"you must follow suit ({pack.letter(led)})"
            # led past the pack's suits: top trumps under no trump suit, or cards of no suit
            if any(t.trump[c] for c in cards_in(t.suit_mask[led])):
                return "you must follow suit (the top trumps led)"
            return "you must follow suit (the cards of no suit led)"
        if f.overtrump and not f.head and t.trump[card]:
            return "you must overtrump (play a trump higher than the trick's best)"
        return "you must head the trick (play a higher card of the suit)"
    if first:
        return "no trump may be played to the first trick by a player holding another card"
    if f.overtrump and st.best_trumped and t.trump[card] and _overtrump(st, hand) != hand:
        return "you must overtrump (play a trump higher than the trick's best)"
    beats = f.void_beat and _above(hand & t.trump_mask, t.power, st.best_key) != 0
    return "you must play a trump" + (" that beats the trick" if beats else "")


def card_key(st: State, card: int) -> int:
    """How strongly ``card`` bids for the current trick (0: it cannot win): the one
    winner rule, which the trick play and the bots both use.  The highest key wins.

    A trump's key is its power (100+, top trumps 200+); a card of the led
    suit its power; any other card 0.  In a first trick where trumps may not be
    played, a (forced) trump counts as a plain card.
    """
    t = st.tables
    if t.trump[card] and (st.tf.first_trick_trumps or st.trick_no > 0):
        return t.power[card]
    if t.suit[card] == st.led:
        return t.power[card]
    return 0


# -- tricks --------------------------------------------------------------------------


class TricksStart(Instr):
    """Fix the trick rules and participants for this hand, and start the first trick."""

    def __init__(
        self, players: Fn, leader: Selector, flags: dict[str, Fn], play: TrickPlay,
        count: Fn | None = None, scored: bool = True, players_vec: Any = None,
    ) -> None:
        self.players = players
        self.leader = leader
        self.flags = flags
        self.play = play
        self.count = count
        self.scored = scored
        self.flag_fns = list(flags.values())
        self.flag_sets: dict[tuple[bool, ...], TrickFlags] = {}
        values = [fixed(f) for f in self.flag_fns]
        # flags that only read options are the same every hand: build them once
        self.fixed_flags = (None if any(v is UNSET for v in values)
                            else TrickFlags(**{k: bool(v) for k, v in zip(flags, values, strict=True)}))
        self.everyone = fixed(players) is True  # every seat still in plays
        self.players_vec = players_vec  # every seat's answer at once (see SetVars)

    def rules(self, st: State) -> TrickFlags:
        """The trick rules now: at the step's start, or at each trick's (:class:`TrickPlayEach`)."""
        tf = self.fixed_flags
        if tf is None:
            values = tuple([bool(f(st, 0)) for f in self.flag_fns])
            tf = self.flag_sets.get(values)
            if tf is None:  # one TrickFlags per combination, built once
                tf = self.flag_sets[values] = TrickFlags(**dict(zip(self.flags, values, strict=True)))
        return tf

    def run(self, st: State) -> bool:
        st.tf = self.rules(st)
        mask = 0
        out = st.out
        if self.everyone:
            for p in range(st.n):
                if not out[p]:
                    mask |= 1 << p
        elif self.players_vec is not None:
            for p, plays in enumerate(self.players_vec(st, 0)):
                if plays and not out[p]:
                    mask |= 1 << p
        else:
            players = self.players
            for p in range(st.n):
                if not out[p] and players(st, p):
                    mask |= 1 << p
        st.participants = mask
        st.trick_stop = (st.trick_no + max(0, int(self.count(st, 0)))
                         if self.count is not None else 1 << 30)
        st.trick_scored = self.scored
        leaders = self.leader(st)
        lead = leaders[0] if leaders else (st.dealer + 1) % st.n
        st.pc += 1
        self.play.begin_trick(st, lead)
        return True


class TrickPlay(Instr):
    """Play tricks until every participant's hand is empty."""

    def __init__(self, abstain: Fn | None, abstain_word: str, allow: Fn | None,
                 refused: str, more: list[tuple[Fn, str]] | None = None) -> None:
        self.abstain = abstain
        self.knock = Action(WORD, abstain_word)
        self.allow = allow
        self.refused = refused  # why 'allow' refuses a card: the spec's reason, or the rule
        # the levels of an ordered 'allow' after the first (allow, refused), tried in turn
        # only when the ones before admit no card
        self.more: list[tuple[Fn, str]] = more or []
        self.rotations: dict[int, tuple[int, ...]] = {}
        self.end = -1  # where the hand goes on when this step's tricks are over (compiler)
        self.has_after = False  # steps run after each trick, then TrickNext starts the next
        # the cards of each trick kept (won_cards, played): set by the compiler only for a
        # game that reads them, so that the others pay nothing for it
        self.keep_cards = False
        self.pack: Pack | None = None  # a declared pack names the cards (compiler); None: French

    def begin_trick(self, st: State, leader: int) -> bool:
        """Set up the next trick, led by ``leader``; False when no trick is left to play."""
        hands = st.hands
        if st.trick_no >= st.trick_stop:
            order = []
        else:
            key = leader << 16 | st.participants
            seats = self.rotations.get(key)
            if seats is None:  # the participants, clockwise from the leader
                part = st.participants
                seats = self.rotations[key] = tuple(
                    p for p in st.prog.rot[leader] if (part >> p) & 1)
            order = [p for p in seats if hands[p]]  # everyone, until hands run out
        st.trick_order = order
        st.trick_pos = 0
        st.trick = []
        st.led = -1
        st.best_key = 0
        st.best_seat = -1
        st.best_led = 0
        st.best_trumped = False
        return bool(order)

    def run(self, st: State) -> bool:
        if not st.trick_order:
            st.pc = self.end
            return True
        st.current = st.trick_order[st.trick_pos]
        return False

    def _card_mask(self, st: State, seat: int) -> int:
        m = legal_cards(st, seat)
        allow = self.allow
        if allow is not None:
            kept = 0
            for c in cards_in(m):
                st.cand = c
                if allow(st, seat):
                    kept |= 1 << c
            if kept:
                return kept
            if self.more:
                return _admitted(st, seat, m, self.more)[0]
        return m

    def _refused(self, st: State, seat: int) -> str:
        """Why 'allow' refuses a card the trick options let pass: the reason of the level
        that decides (the first to admit a card of the legal set)."""
        if self.allow is None or not self.more:
            return self.refused
        return _admitted(st, seat, legal_cards(st, seat),
                         [(self.allow, self.refused), *self.more])[1]

    def _may_knock(self, st: State, seat: int) -> bool:
        if self.abstain is None or not self.abstain(st, seat):
            return False
        # a seat may hold back only while it has fewer cards than tricks remain
        if st.hands[seat].bit_count() >= _tricks_left(st):
            return False
        if st.led < 0:
            return st.tf.abstain_lead and st.trick_pos < len(st.trick_order) - 1
        return not (not st.tf.abstain_with_suit and st.hands[seat] & st.tables.suit_mask[st.led])

    def legal(self, st: State) -> list[Action]:
        seat = st.current
        assert seat is not None
        m = legal_cards(st, seat) if self.allow is None else self._card_mask(st, seat)
        pack = self.pack
        out = _CARD_LISTS.get(m) if pack is None else pack_card_list(pack, m)
        if out is None:
            out = _card_list(m)
        if self.abstain is not None and self.abstain(st, seat) and self._may_knock(st, seat):
            return [*out, self.knock]
        return out  # shared: State.legal_actions hands out a copy

    def check(self, st: State, a: Action) -> str | None:
        seat = st.current
        assert seat is not None
        if a.kind == CARD:
            c = a.value
            if not (st.hands[seat] >> c) & 1:
                return f"{a} is not in your hand"
            if (self._card_mask(st, seat) >> c) & 1:
                return None
            if (legal_cards(st, seat) >> c) & 1:
                return self._refused(st, seat)  # the trick options let it pass: 'allow' refused it
            return refusal(st, seat, c)
        if a == self.knock:
            if self._may_knock(st, seat):
                return None
            return f"you may not {self.knock.verb} now"
        return "play a card from your hand"

    def apply(self, st: State, seat: int, a: Action) -> bool:
        if a[0] == WORD:
            if st.rec is not None:
                st.event("knock", seat=seat)
            st.trick_pos += 1
            if st.trick_pos >= len(st.trick_order):
                return self._finish(st)
            return False
        c = a[2]
        bit = 1 << c
        st.hands[seat] ^= bit  # the card is in the hand: apply() has checked it
        known = st.known
        if known[seat]:
            known[seat] &= ~bit
        t = st.tables
        suit = t.suit[c]
        led = st.led
        if led < 0:
            st.led = led = suit
        elif suit != led:  # the duties of a hand void in the suit led: a free card shows
            f = st.tf  # no void (CardPlay.apply), another card one the rules prove
            if f.follow:
                st.voids[seat] |= 1 << led
            if f.void_trump or f.void_beat or not (f.first_trick_trumps or st.trick_no > 0):
                st.voids[seat] |= _duty_voids(st, c)
            if self.allow is not None:
                st.voids[seat] |= self._allowed_voids(st, seat, c, led)
        # card_key inlined (the one winner rule: the highest key takes the trick); the
        # hot path saves its call and re-reads, and tests/test_trick.py pins the winner
        # this records to card_key over random tricks
        if t.trump[c]:
            if suit != led or st.tf.broken_any:  # by default only a trump on another suit breaks
                st.broken = True
            if st.tf.first_trick_trumps or st.trick_no > 0:
                key = t.power[c]
                if key > st.best_key:
                    st.best_key = key
                    st.best_seat = seat
                    st.best_trumped = suit != led
            elif suit == led and t.power[c] > st.best_key:
                st.best_key = t.power[c]
                st.best_seat = seat
                st.best_trumped = False
        elif suit == led:
            key = t.power[c]
            if key > st.best_key:
                st.best_key = key
                st.best_seat = seat
                st.best_trumped = False
            if key > st.best_led:
                st.best_led = key  # the best card of the led suit itself (head_after_trump)
        return self._placed(st, seat, c)

    def _allowed_voids(self, st: State, seat: int, c: int, led: int) -> int:
        """The suits ``c``, not of the suit led, shows ``seat`` lacks by ``allow`` (a spec's
        own rule: "follow suit or trump", "trump when an opponent holds the trick"),
        among the suit led and the suits made only of trumps.  A suit is shown lacking
        when, had the hand held any one card of it besides its own, ``c`` would have
        been refused (``c`` has left the hand; the trick is as it was).  A suit already
        known void, or held, costs no evaluation."""
        hands = st.hands
        if not hands[seat] & ~st.known[seat]:
            return 0  # no hidden card left: a void would tell nothing
        hand = hands[seat] | (1 << c)
        t = st.tables
        known = st.voids[seat]
        out = 0
        cand = st.cand
        gone = -1
        for s in range(len(t.suit_mask)):
            suit = t.suit_mask[s]
            if (not suit or hand & suit or (known >> s) & 1
                    or (s != led and suit & t.trump_mask != suit)):
                continue
            if gone < 0:  # the cards played face up this hand: no hand holds them
                gone = played_cards(st) & ~st.hidden  # played face up
            shown = True
            for x in cards_in(suit & ~gone):
                hands[seat] = hand | (1 << x)
                if self._admits(st, seat, c, x):
                    shown = False
                    break
            if shown:
                out |= 1 << s
        hands[seat] = hand ^ (1 << c)
        st.cand = cand
        return out

    def _admits(self, st: State, seat: int, c: int, x: int) -> bool:
        """Is ``c`` legal for ``seat`` (whose hand holds the added card ``x``)?  As
        :meth:`_card_mask`, asking ``allow`` of ``c`` and ``x`` first: refused by it, ``c``
        is legal only when ``allow`` admits no card, and it admits ``x`` most often."""
        allow = self.allow
        if allow is None or self.more or st.demand:
            return bool((self._card_mask(st, seat) >> c) & 1)
        m = legal_cards(st, seat)
        if not (m >> c) & 1:
            return False
        st.cand = c
        if allow(st, seat):
            return True
        if (m >> x) & 1:
            st.cand = x
            if allow(st, seat):
                return False
        return bool((self._card_mask(st, seat) >> c) & 1)

    def _placed(self, st: State, seat: int, c: int) -> bool:
        """``seat``'s card ``c`` joins the trick: the next player is named, or it closes."""
        st.trick.append((seat, c))
        pos = st.trick_pos = st.trick_pos + 1
        if pos < len(st.trick_order):
            # the trick goes on: name the next player here and spare the step loop
            st.current = st.trick_order[pos]
            return True
        return self._finish(st)

    def _finish(self, st: State) -> bool:
        """Close the trick; True when the next trick has started (its leader is to play)."""
        winner = st.best_seat
        if winner < 0:
            if st.trick:  # only cards that cannot win (of no suit): it goes to its first card
                winner = st.best_seat = st.trick[0][0]
            else:  # everyone knocked: nobody wins, the lead passes on
                nxt = (st.trick_order[0] + 1) % st.n if st.trick_order else (st.dealer + 1) % st.n
                self.begin_trick(st, nxt)
                return False
        if st.trick_scored:
            st.won[winner] += 1
        if self.keep_cards:
            _keep_cards(st, winner)
        st.last_winner = winner
        st.trick_no += 1
        st.history_tricks.append((st.trick_order[0], tuple(st.trick), winner))
        if st.rec is not None:
            st.event(
                "trick",
                number=st.trick_no,
                cards=[[p, st.prog.pack.names[c]] for p, c in st.trick],
                winner=winner,
            )
        if self.has_after:
            # the trick is over: run the after-trick steps, then TrickNext deals the next one
            st.trick = []
            st.trick_order = []
            st.led = -1
            st.pc += 1
            return False
        if self.begin_trick(st, winner):
            st.current = st.trick_order[0]  # spares the step loop
            return True
        return False


class TrickPlayEach(TrickPlay):
    """A :class:`TrickPlay` whose trick rules read names that change from trick to trick
    (``trick_number``, a variable set after each trick): they are worked out again as each
    trick starts.  A spec whose rules are fixed words never builds one."""

    def __init__(self, abstain: Fn | None, abstain_word: str, allow: Fn | None,
                 refused: str, more: list[tuple[Fn, str]] | None = None) -> None:
        super().__init__(abstain, abstain_word, allow, refused, more)
        self.start: TricksStart | None = None  # whose rules these are (set by the compiler)

    def begin_trick(self, st: State, leader: int) -> bool:
        start = self.start
        if start is not None:
            st.tf = start.rules(st)
        return TrickPlay.begin_trick(self, st, leader)


def _admitted(st: State, seat: int, legal: int, levels: list[tuple[Fn, str]]) -> tuple[int, str]:
    """The cards of ``legal`` the first admitting level of ``levels`` admits, with its
    reason; ``legal`` itself (and the last reason) when no level admits a card."""
    reason = ""
    for allow, why in levels:
        reason = why
        kept = 0
        for c in cards_in(legal):
            st.cand = c
            if allow(st, seat):
                kept |= 1 << c
        if kept:
            return kept, why
    return legal, reason


class Declaration:
    """A declaration attached to a card play (``tricks.declare``): its word, the
    condition on the card played with it (``when``, the card in ``st.cand``; None:
    any card), its assignments for the declarer, and the demand it puts on the next
    player to the trick (``binds``, refused with ``reason``; None: none)."""

    def __init__(self, word: str, when: Fn | None, then: list[tuple[Setter, Fn, str]],
                 binds: Fn | None, reason: str, where: str) -> None:
        self.word = word
        self.when = when
        self.then = then
        self.binds = binds
        self.reason = reason
        self.where = where  # the declaration in the spec, for a value out of bounds


class CardPlay(TrickPlayEach):
    """Trick play with the card-play mechanics a spec declares (a spec that declares
    none compiles to :class:`TrickPlay`: it pays nothing for them):

    * ``names_trump`` (``trump_from: first_lead``): while no trump is set, the first card
      led by a seat ``by`` admits (None: any seat) makes its suit trump before it is
      played, so the trick and the rest of the hand play under it;
    * ``free`` (``ranking.free_cards``): cards that may always be played;
    * ``losing`` (``ranking.losing_cards``): cards of no suit that never win (the order
      tables give them power 0 outside every suit: see ``order.strip_cards``); one led
      leaves the suit led to the next card, and playing one shows no void;
    * ``down`` (``face_down``): a seat it admits may play a card face down
      (``down 7H``), counted as the lowest trump (``down_trump``) or as a card of no
      suit; other seats do not see it (``st.hidden``) until its trick ends, if
      ``down_shown``;
    * ``kept`` (``ranking.kept_cards``): losing cards that stay with their owner: each
      goes into its player's ``won_cards``, not the trick winner's;
    * ``decls`` (``declare``): words a player may attach to a card he plays
      (``marriage KH``): assignments, and a demand binding the next player to the trick
      (``st.demand``, ``st.bound``) until he plays.

    A trick in which no card can win (only cards of no suit) goes to its leader.
    """

    def __init__(self, abstain: Fn | None, abstain_word: str, allow: Fn | None,
                 refused: str, names_trump: bool, by: Fn | None, free: int,
                 losing: int, down: Fn | None = None, down_word: str = "down",
                 down_trump: bool = True, down_shown: bool = True,
                 decls: list[Declaration] | None = None,
                 more: list[tuple[Fn, str]] | None = None) -> None:
        super().__init__(abstain, abstain_word, allow, refused, more)
        self.names_trump = names_trump
        self.by = by
        self.free = free
        self.losing = losing
        self.down = down
        self.down_word = down_word
        self.down_trump = down_trump
        self.down_shown = down_shown
        self.decls: list[Declaration] = decls or []
        self.words: dict[str, int] = {d.word: k for k, d in enumerate(self.decls)}
        self.kept = 0  # ranking.kept_cards (set by the compiler): won by their owner

    def _free_mask(self, st: State, seat: int) -> int:
        """The cards the trick's duties and ``allow`` leave, and the free cards."""
        return TrickPlay._card_mask(self, st, seat) | (st.hands[seat] & self.free)

    def _card_mask(self, st: State, seat: int) -> int:
        m = self._free_mask(st, seat)
        if st.demand and st.bound == seat:
            binds = self.decls[st.demand - 1].binds
            if binds is not None:
                kept = 0
                for c in cards_in(m):
                    st.cand = c
                    if binds(st, seat):
                        kept |= 1 << c
                if kept:  # none admitted: the demand cannot bind him
                    m = kept | (st.hands[seat] & self.free)
        return m

    def legal(self, st: State) -> list[Action]:
        cand = st.cand  # the candidate card is scratch: a replay must find the same state
        out = self._legal(st)
        st.cand = cand
        return out

    def _legal(self, st: State) -> list[Action]:
        seat = st.current
        assert seat is not None
        m = self._card_mask(st, seat)
        pack = self.pack  # a declared pack names its cards (as in TrickPlay.legal)
        out = list((_CARD_LISTS.get(m) or _card_list(m)) if pack is None
                   else pack_card_list(pack, m))
        if self.abstain is not None and self.abstain(st, seat) and self._may_knock(st, seat):
            out.append(self.knock)
        down = self.down
        if down is not None and down(st, seat):
            word = self.down_word
            held = st.hands[seat] if pack is None else pack.one_per_face(st.hands[seat])
            out += [Action(CARDS, word, 1 << c, pack) for c in cards_in(held)]
        if self.decls:
            # a declared pack: one action per card name, by its pack's names
            faces = m if pack is None else pack.one_per_face(m)
            for d in self.decls:
                when = d.when
                for c in cards_in(faces):
                    st.cand = c
                    if when is None or when(st, seat):
                        out.append(Action(CARDS, d.word, 1 << c, pack))
        return out

    def check(self, st: State, a: Action) -> str | None:
        cand = st.cand
        problem = self._check(st, a)
        st.cand = cand
        return problem

    def _check(self, st: State, a: Action) -> str | None:
        seat = st.current
        assert seat is not None
        kind = a.kind
        if kind == CARDS and (a.verb == self.down_word or a.verb in self.words):
            cards = a.cards
            if len(cards) != 1:
                return f"name one card ({a.verb} {st.prog.pack.names[cards[0]]})"
            c = cards[0]
            if not (st.hands[seat] >> c) & 1:
                return f"{st.prog.pack.names[c]} is not in your hand"
            if a.verb == self.down_word:
                if self.down is None or not self.down(st, seat):
                    return f"you may not play a card face down ({self.down_word}) now"
                return None
            problem = self.check(st, CARD_ACTIONS[c])
            if problem is not None:
                return problem
            when = self.decls[self.words[a.verb]].when
            st.cand = c
            if when is not None and not when(st, seat):
                return f"you may not declare {a.verb} with {st.prog.pack.names[c]}"
            return None
        if kind == CARD and st.demand and st.bound == seat:
            c = a.value
            if ((st.hands[seat] >> c) & 1 and not (self._card_mask(st, seat) >> c) & 1
                    and (self._free_mask(st, seat) >> c) & 1):
                d = self.decls[st.demand - 1]
                return d.reason or f"the declaration {d.word} binds you"
        return TrickPlay.check(self, st, a)

    def apply(self, st: State, seat: int, a: Action) -> bool:
        if st.demand and st.bound == seat:  # his play answers the demand
            st.demand = 0
            st.bound = -1
        kind = a[0]
        if kind != CARD:
            if kind == CARDS:
                c = a[2].bit_length() - 1
                if a[1] == self.down_word:
                    return self._play_down(st, seat, c)
                k = self.words.get(a[1], -1)
                if k >= 0:
                    return self._declare(st, seat, k, c)
            return TrickPlay.apply(self, st, seat, a)
        c = a[2]
        if not (self.losing >> c) & 1:
            if self.names_trump and st.led < 0 and st.trump == NO_TRUMP:
                by = self.by
                if by is None or by(st, seat):
                    # its printed suit: with no trump a top trump's own is that of no suit
                    suit = st.prog.pack.suit[c]
                    if suit < 0:
                        suit = NO_TRUMP
                    st.prog.set_trump(st, suit)
                    if st.rec is not None:
                        st.event("trump", trump=st.prog.pack.letter(suit), chosen_by=seat, card=st.prog.pack.names[c])
            if not (self.free >> c) & 1:
                return TrickPlay.apply(self, st, seat, a)
            # a free card may be played holding the suit led: it shows no void
            voids = st.voids[seat]
            done = TrickPlay.apply(self, st, seat, a)
            st.voids[seat] = voids
            return done
        # a card of no suit: it names no suit led and shows no void
        led = st.led
        voids = st.voids[seat]
        done = TrickPlay.apply(self, st, seat, a)
        st.voids[seat] = voids
        if st.trick:  # the trick goes on (a finished one has been cleared)
            st.led = led
        return done

    def _declare(self, st: State, seat: int, k: int, c: int) -> bool:
        """Declaration ``k`` with card ``c``: its assignments, made public; its demand on
        the next player to the trick; then the card is played."""
        d = self.decls[k]
        cand = st.cand
        st.cand = c
        for setter, fn, _name in d.then:
            value = fn(st, seat)
            if type(value) is int and not -MAX_VALUE <= value <= MAX_VALUE:
                value = held(value)
            setter(st, seat, value)
        st.cand = cand
        st.public.append((seat, d.word, Action(CARDS, d.word, 1 << c, self.pack)))  # to all
        if st.rec is not None:
            st.event("declare", seat=seat, word=d.word, card=st.prog.pack.names[c])
        pos = st.trick_pos + 1
        if d.binds is not None and pos < len(st.trick_order):
            st.demand = k + 1
            st.bound = st.trick_order[pos]
        return self.apply(st, seat, CARD_ACTIONS[c])

    def _play_down(self, st: State, seat: int, c: int) -> bool:
        """Play ``c`` face down: the lowest trump (key 100, below every trump's power),
        or a card of no suit (key 0); it shows no void."""
        bit = 1 << c
        st.hands[seat] ^= bit
        if st.known[seat]:
            st.known[seat] &= ~bit
        st.hidden |= bit
        if st.rec is not None:
            st.event("face_down", seat=seat, card=st.prog.pack.names[c])
        trump = st.trump
        if (self.down_trump and trump != NO_TRUMP
                and (st.tf.first_trick_trumps or st.trick_no > 0)):
            if st.led < 0:
                st.led = trump
            if st.best_key < 100:
                st.best_key = 100
                st.best_seat = seat
                st.best_trumped = st.led != trump
        return self._placed(st, seat, c)

    def _finish(self, st: State) -> bool:
        if self.down_shown:
            st.hidden = 0  # the trick's face-down cards are shown as it ends
        st.demand = 0  # a demand binds for its trick only
        st.bound = -1
        if st.best_seat < 0 and st.trick:
            # only cards that cannot win (of no suit): the trick goes to its first card
            st.best_seat = st.trick[0][0]
        if not self.kept or not self.keep_cards or not st.trick_scored:
            return TrickPlay._finish(self, st)
        owned = [(p, c) for p, c in st.trick if (self.kept >> c) & 1]
        winner = st.best_seat
        done = TrickPlay._finish(self, st)
        if owned:  # a kept card goes back from the winner's won cards to its owner's
            won = st.won_cards[:]  # a new list: clones share the old one (state.FIELDS)
            for p, c in owned:
                won[winner] &= ~(1 << c)
                won[p] |= 1 << c
            st.won_cards = won
        return done


class TrickNext(Instr):
    """After the after-trick steps: start the next trick, led by the last winner."""

    def __init__(self, play: TrickPlay, play_at: int) -> None:
        self.play = play
        self.play_at = play_at

    def run(self, st: State) -> bool:
        self.play.begin_trick(st, st.last_winner)
        st.pc = self.play_at
        return True


def _keep_cards(st: State, winner: int) -> None:
    """The finished trick's cards: played this hand, and won by ``winner`` (when the trick
    counts); ``last_trick`` is the winner of the trick that leaves every hand empty."""
    m = 0
    for _, c in st.trick:
        m |= 1 << c
    st.played |= m
    if st.trick_scored:
        won = st.won_cards[:]  # a new list: clones share the old one (state.FIELDS)
        won[winner] |= m
        st.won_cards = won
        hands = st.hands
        for p in range(st.n):
            if hands[p]:
                return
        st.last_trick = winner


def _tricks_left(st: State) -> int:
    """Tricks still to play in this hand, counting the current one: the most
    cards any seat of the trick held when it began."""
    hands = st.hands
    held = {p: hands[p].bit_count() for p in st.trick_order}
    for p, _ in st.trick:
        held[p] += 1
    return max(held.values(), default=0)


_CARD_LISTS: dict[int, list[Action]] = {}
# per suit, the card actions of each of its 8192 subsets, made when first needed
_SUIT_LISTS: list[list[tuple[Action, ...] | None]] = [[None] * 8192 for _ in range(4)]


def _suit_list(suit: int, part: int) -> tuple[Action, ...]:
    got = tuple(CARD_ACTIONS[suit * 13 + r] for r in range(13) if (part >> r) & 1)
    _SUIT_LISTS[suit][part] = got
    return got


def _card_list(mask: int) -> list[Action]:
    """The card actions of ``mask``, ascending; remembered (the same masks recur).

    Built suit by suit from remembered per-suit pieces: a legal set is often
    one suit (following), or a whole hand of a few suits."""
    out: list[Action] = []
    for suit in range(4):
        part = (mask >> (13 * suit)) & 8191
        if part:
            out += _SUIT_LISTS[suit][part] or _suit_list(suit, part)
    if len(_CARD_LISTS) >= 16384:
        _CARD_LISTS.clear()
    _CARD_LISTS[mask] = out
    return out


def playable(ins: Instr, st: State) -> int:
    """The cards the player to act may play, as a mask, when the pending instruction
    ``ins`` is a trick play that offers those cards and nothing else now (no knock, no
    face-down play, no declaration): the cards of ``ins.legal(st)``, with its side
    effects, without making their actions.  -1 otherwise (ask ``legal``).

    For :mod:`spelbok.engine.tensor`: the game-AI interfaces number the legal cards
    of nearly every decision from this mask."""
    seat = st.current
    if seat is None or not isinstance(ins, TrickPlay):
        return -1
    if isinstance(ins, CardPlay):
        if ins.down is not None or ins.decls:
            return -1
        cand = st.cand  # as CardPlay.legal: the candidate card is scratch
        m = ins._card_mask(st, seat)
        knock = ins.abstain is not None and ins._may_knock(st, seat)
        st.cand = cand
    else:
        m = legal_cards(st, seat) if ins.allow is None else ins._card_mask(st, seat)
        knock = ins.abstain is not None and ins._may_knock(st, seat)
    if knock:
        return -1
    pack = ins.pack
    return m if pack is None else pack.one_per_face(m)
