"""The instructions that play the tricks of a ``tricks`` step: :class:`TricksStart`
fixes the step's rules and players, :class:`TrickPlay` plays each card (with knocking),
:class:`TrickNext` starts the next trick after the after-trick steps.

The rules they apply (which cards a player may play, who wins) are
:mod:`spelbok.engine.trick`'s; the card-play mechanics a spec may declare are
:class:`~spelbok.engine.card_play.CardPlay`'s; the compile step is
:func:`spelbok.engine.tricks.compile_tricks`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..cards import Pack, cards_in
from .actions import CARD, CARD_ACTIONS, WORD, Action, pack_card_list
from .steps import UNSET, Fn, Instr, Selector, fixed
from .trick import Trick, TrickFlags, _duty_voids, equal_best, legal_cards, played_cards, refusal

if TYPE_CHECKING:
    from .state import State


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
        out = st.off  # out of the match, or sitting this hand out
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
        lead = leaders[0] if leaders else st.prog.nxt[st.dealer]
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
        self.takes: Fn | None = None  # tricks.takes_trick: a card that takes the trick outright
        # follow: false with an allow (the spec's own following, compiler): a play may show
        # a void in any suit, and after a led card of no suit too (_allowed_voids)
        self.any_suit_voids = False

    def begin_trick(self, st: State, leader: int) -> bool:
        """Set up the next trick, led by ``leader``; False when no trick is left to play."""
        hands = st.hands
        if st.trick_no >= st.trick_stop:
            order = []
        else:
            key = leader << 16 | st.participants
            seats = self.rotations.get(key)
            if seats is None:  # the participants, in turn from the leader
                part = st.participants
                seats = self.rotations[key] = tuple(
                    p for p in st.prog.rot[leader] if (part >> p) & 1)
            order = [p for p in seats if hands[p]]  # everyone, until hands run out
        st.trick = Trick(order)  # a new one: a clone may share the last
        return bool(order)

    def run(self, st: State) -> bool:
        tr = st.trick
        if not tr.order:
            st.pc = self.end
            return True
        st.current = tr.order[tr.pos]
        return False

    def _card_mask(self, st: State, seat: int) -> int:
        return self._allowed_of(st, seat, legal_cards(st, seat))

    def _allowed_of(self, st: State, seat: int, m: int) -> int:
        """The cards of ``m`` (those the duties leave) that ``allow`` admits (all of them
        when it admits none)."""
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
        tr = st.trick
        if tr.led < 0:
            return st.tf.abstain_lead and tr.pos < len(tr.order) - 1
        return not (not st.tf.abstain_with_suit and st.hands[seat] & st.tables.suit_mask[tr.led])

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
            tr = st.trick
            if tr.shared:
                tr = tr.own(st)
            tr.pos += 1
            if tr.pos >= len(tr.order):
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
        tr = st.trick
        if tr.shared:
            tr = tr.own(st)
        led = tr.led
        if led < 0:
            tr.led = led = suit
            if tr.cards and self.any_suit_voids:  # after cards of no suit (a losing card led)
                st.voids[seat] |= self._allowed_voids(st, seat, c, led)
        elif suit != led:  # the duties of a hand void in the suit led: a free card shows
            f = st.tf  # no void (CardPlay.apply), another card one the rules prove
            if f.follow:
                st.voids[seat] |= 1 << led
            if f.void_trump or f.void_beat or not (f.first_trick_trumps or st.trick_no > 0):
                st.voids[seat] |= _duty_voids(st, c)
            if self.allow is not None:
                st.voids[seat] |= self._allowed_voids(st, seat, c, led)
        # trick.key_of and trick.beats inlined (the one winner rule: the highest key takes
        # the trick, the first of equals keeps it): the hot path saves their calls and
        # re-reads, and tests/test_trick_value.py pins what this records (best_seat,
        # best_key, best_led, best_trumped) to trick.trick_winner after every card
        if t.trump[c]:
            if suit != led or st.tf.broken_any:  # by default only a trump on another suit breaks
                st.broken = True
            if st.tf.first_trick_trumps or st.trick_no > 0:
                key = t.power[c]
                if key > tr.best_key:
                    tr.best_key = key
                    tr.best_seat = seat
                    tr.best_trumped = suit != led
                elif t.equal and key == tr.best_key:
                    equal_card(st, tr, seat, suit != led, c)
            elif suit == led and t.power[c] > tr.best_key:
                tr.best_key = t.power[c]
                tr.best_seat = seat
                tr.best_trumped = False
            elif t.equal and suit == led and t.power[c] == tr.best_key:
                equal_card(st, tr, seat, False, c)
        elif suit == led:
            key = t.power[c]
            if key > tr.best_key:
                tr.best_key = key
                tr.best_seat = seat
                tr.best_trumped = False
            elif t.equal and key == tr.best_key:
                equal_card(st, tr, seat, False, c)
            if key > tr.best_led:
                tr.best_led = key  # the best card of the led suit itself (head_after_trump)
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
                    or (s != led and suit & t.trump_mask != suit and not self.any_suit_voids)):
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
        if allow is None or self.more or st.trick.demand:
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
        tr = st.trick
        if tr.shared:
            tr = tr.own(st)
        tr.cards.append((seat, c))
        pos = tr.pos = tr.pos + 1
        if pos < len(tr.order):
            # the trick goes on: name the next player here and spare the step loop
            st.current = tr.order[pos]
            return True
        return self._finish(st)

    def _finish(self, st: State) -> bool:
        """Close the trick; True when the next trick has started (its leader is to play)."""
        tr = st.trick
        if tr.shared:
            tr = tr.own(st)
        winner = tr.best_seat
        if self.takes is not None:
            taken = _taken(st, tr.cards, self.takes, -1)
            if taken >= 0:  # taken outright: not tied either
                winner = tr.best_seat = taken
                tr.tie = -1
        if winner < 0:
            if tr.cards:  # only cards that cannot win (of no suit): it goes to its first card
                winner = tr.best_seat = tr.taker()
            else:  # everyone knocked: nobody wins, the lead passes on
                nxt = st.prog.nxt[tr.order[0] if tr.order else st.dealer]
                self.begin_trick(st, nxt)
                return False
        tied = tr.tied() if tr.tie >= 0 else -1
        if tied >= 0:  # won by nobody: the lead stays with its leader (last_winner)
            winner = tr.order[0]
            if self.keep_cards:
                st.played |= tr.mask()
        else:
            if st.trick_scored:
                st.won[winner] += 1
            if self.keep_cards:
                _keep_cards(st, winner)
        st.tied_by = tied
        st.last_winner = winner
        st.trick_no += 1
        st.history_tricks.append((tr.order[0], tuple(tr.cards), winner if tied < 0 else -1))
        if st.rec is not None:
            st.event(
                "trick",
                number=st.trick_no,
                cards=[[p, st.prog.pack.names[c]] for p, c in tr.cards],
                winner=winner if tied < 0 else -1,
                **({"tied_by": tied} if tied >= 0 else {}),
            )
        if self.has_after:
            # the trick is over: run the after-trick steps, then TrickNext deals the next one
            tr.cards = []
            tr.order = []
            tr.led = -1
            st.pc += 1
            return False
        if self.begin_trick(st, winner):
            st.current = st.trick.order[0]  # spares the step loop
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


class TrickNext(Instr):
    """After the after-trick steps: start the next trick, led by the last winner."""

    def __init__(self, play: TrickPlay, play_at: int) -> None:
        self.play = play
        self.play_at = play_at

    def run(self, st: State) -> bool:
        self.play.begin_trick(st, st.last_winner)
        st.pc = self.play_at
        return True


def _taken(st: State, cards: list[tuple[int, int]], takes: Fn, winner: int) -> int:
    """Who takes a complete trick under ``tricks.takes_trick``: the player of its first
    card (in play order) that meets ``takes``, else ``winner``."""
    for p, c in cards:
        st.cand = c
        if takes(st, p):
            return p
    return winner


def equal_card(st: State, tr: Trick, seat: int, trumped: bool, card: int) -> None:
    """``seat`` has played ``card``, as strong as the trick's best: the tables' rule for
    equal cards (:func:`~spelbok.engine.trick.equal_best`) says who holds the trick and
    whether it is tied (the off-path part of the one winner rule: a spec without
    ``ranking.equal_best`` never comes here)."""
    if not tr.best_key:
        return  # a card of no suit (key 0) never wins, nor ties
    t = st.tables
    best, tie = equal_best(t.equal, seat, tr.best_seat, tr.tied(), st.prog.sides, card, t.equal_only)
    if best != tr.best_seat:
        tr.best_seat = best
        tr.best_trumped = trumped
    if tie >= 0:
        tr.tie = tie
        tr.tie_key = tr.best_key


def _keep_cards(st: State, winner: int) -> None:
    """The finished trick's cards: played this hand, and won by ``winner`` (when the trick
    counts); ``last_trick`` is the winner of the trick that leaves every hand empty."""
    m = st.trick.mask()
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
    tr = st.trick
    held = {p: hands[p].bit_count() for p in tr.order}
    for p, _ in tr.cards:
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
