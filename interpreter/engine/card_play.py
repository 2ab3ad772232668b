"""The card play of a ``tricks`` step that declares card-play mechanics (trump named
by the first lead, free, losing and kept cards, face-down plays, declarations):
:class:`CardPlay`, and :func:`playable` (the cards a pending trick play offers, for the
game-AI interfaces)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..cards import cards_in
from ..limits import MAX_VALUE, held
from .actions import CARD, CARDS, WORD, Action, card_actions, pack_card_list
from .announce import Announcement
from .combos import ComboPlay
from .dummy import DummyPlay
from .order import NO_TRUMP
from .steps import Fn, Instr, Setter
from .trick import Trick, beats, down_key, legal_cards
from .trick_play import _CARD_LISTS, TrickPlay, TrickPlayEach, _card_list, equal_card

if TYPE_CHECKING:
    from .state import State


#: ``Trick.bound`` of a demand on every later player of the trick (``bound: rest``)
REST = -2


class Declaration:
    """A declaration attached to a card play (``tricks.declare``): its word, the
    condition on the card played with it (``when``, the card in ``st.cand``; None:
    any card), its assignments for the declarer, and the demand it puts on the next
    player to the trick, or every later one (``rest``) (``binds``, refused with
    ``reason``; None: none): it binds a free card too.  A ``required`` one makes a card
    its ``when`` admits playable only with a declaration (the card alone is no play)."""

    def __init__(self, word: str, when: Fn | None, then: list[tuple[Setter, Fn, str]],
                 binds: Fn | None, reason: str, where: str, rest: bool = False,
                 required: bool = False) -> None:
        self.word = word
        self.when = when
        self.then = then
        self.binds = binds
        self.reason = reason
        self.where = where  # the declaration in the spec, for a value out of bounds
        self.rest = rest  # binds every later player of the trick (bound: rest), not the next
        self.required = required  # a card `when` admits is played only with a declaration


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
      (the trick's ``demand`` and ``bound``) until he plays;
    * ``calls`` (``announce``): words offered beside the cards at a player's turn,
      before his card (:class:`~spelbok.engine.announce.Announcement`): he stays the
      one to play after each.

    A trick in which no card can win (only cards of no suit) goes to its leader.
    """

    def __init__(self, abstain: Fn | None, abstain_word: str, allow: Fn | None,
                 refused: str, names_trump: bool, by: Fn | None, free: int,
                 losing: int, down: Fn | None = None, down_word: str = "down",
                 down_trump: bool = True, down_shown: bool = True,
                 decls: list[Declaration] | None = None,
                 more: list[tuple[Fn, str]] | None = None,
                 calls: list[Announcement] | None = None) -> None:
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
        self.calls: list[Announcement] = calls or []
        self.call_words: dict[str, Announcement] = {a.word: a for a in self.calls}
        self.aside = False  # tricks.aside_turn (set by the compiler)
        #: the declarations a card needs (``required``): none, and plain plays are as ever
        self.needed: list[Declaration] = [d for d in self.decls if d.required]

    def begin_trick(self, st: State, leader: int) -> bool:
        """As :meth:`TrickPlay.begin_trick`; with ``aside`` (``tricks.aside_turn``) a seat
        whose hand is empty keeps its turn while it has cards laid aside (``discarded``)."""
        started = TrickPlayEach.begin_trick(self, st, leader)
        if not self.aside or st.trick_no >= st.trick_stop:
            return started
        seats = self.rotations[leader << 16 | st.participants]
        hands, aside = st.hands, st.discarded
        order = [p for p in seats if hands[p] or aside[p]]
        if len(order) != len(st.trick.order):
            st.trick = Trick(order)
        return bool(order)

    def _free_mask(self, st: State, seat: int) -> int:
        """The cards the trick's duties and ``allow`` leave, and the free cards: a free
        card is bound by no duty and binds none (the duties read the hand without it:
        Pam need not be played to a trump lead, even as its holder's only trump)."""
        hand = st.hands[seat]
        free = hand & self.free
        if not free or free == hand:
            return TrickPlay._card_mask(self, st, seat) | free
        st.hands[seat] = hand ^ free
        try:
            m = legal_cards(st, seat)
        finally:
            st.hands[seat] = hand
        return self._allowed_of(st, seat, m) | free

    def _card_mask(self, st: State, seat: int) -> int:
        tr = st.trick
        if tr.demand and (tr.bound == seat or tr.bound == REST):
            binds = self.decls[tr.demand - 1].binds
            if binds is not None:
                # the demand first: the duties then apply as if he held only the cards
                # it admits (a free card too); none admitted: it cannot bind him
                hand = st.hands[seat]
                kept = 0
                for c in cards_in(hand):
                    st.cand = c
                    if binds(st, seat):
                        kept |= 1 << c
                if kept and kept != hand:
                    st.hands[seat] = kept
                    try:
                        return self._free_mask(st, seat)
                    finally:
                        st.hands[seat] = hand
        return self._free_mask(st, seat)

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
        plain = m & ~self._needs(st, seat, m) if self.needed else m
        out = list((_CARD_LISTS.get(plain) or _card_list(plain)) if pack is None
                   else pack_card_list(pack, plain))
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
        for call in self.calls:
            if call.offered(st, seat):
                out.append(call.action)
        return out

    def _needs(self, st: State, seat: int, m: int) -> int:
        """The cards of ``m`` a required declaration admits: played only with one."""
        out = 0
        for c in cards_in(m):
            st.cand = c
            for d in self.needed:
                if d.when is None or d.when(st, seat):
                    out |= 1 << c
                    break
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
        if kind == WORD and a.verb in self.call_words:
            if self.call_words[a.verb].offered(st, seat):
                return None
            return f"you may not announce {a.verb} now"
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
            problem = self._check_card(st, card_actions(st.prog.pack)[c])
            if problem is not None:
                return problem
            when = self.decls[self.words[a.verb]].when
            st.cand = c
            if when is not None and not when(st, seat):
                return f"you may not declare {a.verb} with {st.prog.pack.names[c]}"
            return None
        if kind == CARD and self.needed and (st.hands[seat] >> a.value) & 1 \
                and self._needs(st, seat, 1 << a.value):
            c = a.value
            name = st.prog.pack.names[c]
            words = []
            for d in self.decls:
                st.cand = c
                if d.when is None or d.when(st, seat):
                    words.append(f"{d.word} {name}")
            return f"{name} is played only with a declaration: " + ", ".join(words)
        return self._check_card(st, a)

    def _check_card(self, st: State, a: Action) -> str | None:
        """The checks of a card play, whether declared or not (``_check``)."""
        seat = st.current
        assert seat is not None
        kind = a.kind
        tr = st.trick
        if kind == CARD and tr.demand and (tr.bound == seat or tr.bound == REST):
            c = a.value
            if ((st.hands[seat] >> c) & 1 and not (self._card_mask(st, seat) >> c) & 1
                    and (self._free_mask(st, seat) >> c) & 1):
                d = self.decls[tr.demand - 1]
                return d.reason or f"the declaration {d.word} binds you"
        return TrickPlay.check(self, st, a)

    def apply(self, st: State, seat: int, a: Action) -> bool:
        if a[0] == WORD and a[1] in self.call_words:
            return self.call_words[a[1]].make(st, seat)  # his turn goes on (or steps run)
        tr = st.trick
        if tr.demand and (tr.bound == seat or tr.bound == REST):
            # a card a demand left him shows no void (he may hold the suit it refused)
            # a demand that binds him (it admits some cards of his hand, not all) may leave
            # him a card of the suit it refused: his play then shows no void
            binding = self._binding(st, seat, tr)
            voids = st.voids[seat]
            if tr.bound == seat:  # his play answers the demand
                tr = tr.own(st)
                tr.demand = 0
                tr.bound = -1
            done = self._apply(st, seat, a)
            if binding:
                st.voids[seat] = voids
            return done
        return self._apply(st, seat, a)

    def _binding(self, st: State, seat: int, tr: Trick) -> bool:
        """Whether the trick's demand binds ``seat``: its ``binds`` admits some cards of
        his hand but not all (none admitted, or all, it changes nothing for him)."""
        binds = self.decls[tr.demand - 1].binds
        if binds is None:
            return False
        hand = st.hands[seat]
        cand = st.cand
        kept = 0
        for c in cards_in(hand):
            st.cand = c
            if binds(st, seat):
                kept |= 1 << c
        st.cand = cand
        return bool(kept) and kept != hand

    def _apply(self, st: State, seat: int, a: Action) -> bool:
        tr = st.trick
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
            if self.names_trump and tr.led < 0 and st.trump == NO_TRUMP:
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
                held = st.hands[seat] & self.free
                if not held:
                    return TrickPlay.apply(self, st, seat, a)
                # the duties read the hand without its free cards: a card played shows
                # no void in the suit of a free card held (Pam, a trump, kept back)
                keep = 0
                suit = st.tables.suit
                for fc in cards_in(held):
                    if suit[fc] >= 0 and not (self.losing >> fc) & 1:  # of no suit: none kept
                        keep |= 1 << suit[fc]
                voids = st.voids[seat]
                done = TrickPlay.apply(self, st, seat, a)
                st.voids[seat] = (st.voids[seat] & ~keep) | (voids & keep)
                return done
            # a free card may be played holding the suit led: it shows no void
            voids = st.voids[seat]
            done = TrickPlay.apply(self, st, seat, a)
            st.voids[seat] = voids
            return done
        # a card of no suit: it names no suit led and shows no void
        led = tr.led
        voids = st.voids[seat]
        done = TrickPlay.apply(self, st, seat, a)
        st.voids[seat] = voids
        tr = st.trick
        if tr.cards:  # the trick goes on (a finished one has been cleared)
            tr.own(st).led = led
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
        tr = st.trick
        pos = tr.pos + 1
        if d.binds is not None and pos < len(tr.order):
            tr = tr.own(st)
            tr.demand = k + 1
            tr.bound = REST if d.rest else tr.order[pos]
        return self.apply(st, seat, card_actions(st.prog.pack)[c])

    def _play_down(self, st: State, seat: int, c: int) -> bool:
        """Play ``c`` face down: the lowest trump or a card of no suit (its key is
        :func:`~spelbok.engine.trick.down_key`); it shows no void."""
        bit = 1 << c
        st.hands[seat] ^= bit
        if st.known[seat]:
            st.known[seat] &= ~bit
        st.hidden |= bit
        if st.rec is not None:
            st.event("face_down", seat=seat, card=st.prog.pack.names[c])
        trump = st.trump
        key = down_key(trump, st.tf.first_trick_trumps or st.trick_no > 0, self.down_trump)
        if key:  # played as the lowest trump (else a card of no suit: it names nothing)
            tr = st.trick.own(st)  # the one rule (trick_winner) for a face-down card,
            if tr.led < 0:  # inlined: tests/test_trick_value.py pins it
                tr.led = trump
            if beats(key, tr.best_key):
                tr.best_key = key
                tr.best_seat = seat
                tr.best_trumped = tr.led != trump
            elif st.tables.equal and key == tr.best_key:
                equal_card(st, tr, seat, tr.led != trump, c)
        return self._placed(st, seat, c)

    def _finish(self, st: State) -> bool:
        if self.down_shown:
            st.hidden = 0  # the trick's face-down cards are shown as it ends
        tr = st.trick.own(st)
        tr.demand = 0  # a demand binds for its trick only
        tr.bound = -1
        if tr.best_seat < 0 and tr.cards:
            tr.best_seat = tr.taker()  # only cards of no suit: its first card's
        if not self.kept or not self.keep_cards or not st.trick_scored:
            return TrickPlay._finish(self, st)
        owned = [(p, c) for p, c in tr.cards if (self.kept >> c) & 1]
        winner = tr.best_seat
        done = TrickPlay._finish(self, st)
        if owned:  # a kept card goes back from the winner's won cards to its owner's
            won = st.won_cards[:]  # a new list: clones share the old one (state.FIELDS)
            for p, c in owned:
                won[winner] &= ~(1 << c)
                won[p] |= 1 << c
            st.won_cards = won
        return done


def playable(ins: Instr, st: State) -> int:
    """The cards the player to act may play, as a mask, when the pending instruction
    ``ins`` is a trick play that offers those cards and nothing else now (no knock, no
    face-down play, no declaration): the cards of ``ins.legal(st)``, with its side
    effects, without making their actions.  -1 otherwise (ask ``legal``).

    For :mod:`spelbok.rl.compiled.tensor`: the game-AI interfaces number the legal cards
    of nearly every decision from this mask."""
    seat = st.current
    if seat is None or not isinstance(ins, TrickPlay) or isinstance(ins, ComboPlay):
        return -1  # (plays of several cards at once: their cards are picked one by one)
    if type(ins) is DummyPlay:  # the dummy's cards, chosen by the seat to act
        seat = st.trick.order[st.trick.pos]
    if isinstance(ins, CardPlay):
        if ins.down is not None or ins.decls or ins.calls:
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
