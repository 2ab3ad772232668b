"""Information: what a seat sees (``view``) and what a sample keeps (``determinize``).

This extends the conformance check (``spelbok.analysis.conformance.check_view``, which
trusts the engine's own record of known cards and looks for quoted card names
only) with an observer kept by the test itself, over random playouts of every
shipped spec and a few variants:

- every card named anywhere in ``state.view(seat)`` (in any string, e.g. inside
  an action's notation) is the seat's own (held or discarded this hand) or has
  been public this hand (turn-up, trick, finished tricks);
- ``state.determinize(seat, rng)`` keeps the seat's hand and discards, every
  public card and every card publicly known to be in a hand, the size of every
  zone, and every void the seat has seen: a player who failed to follow the
  suit led (its *effective* suit, from the game's own tables, so that
  permanent top trumps and bowers count as trumps) is never dealt that suit,
  until unseen cards reach that player; a free card (Pam) or a card of no suit
  (the Excuse) shows nothing, being playable whatever the hand.
  ``tests/test_determinize_voids.py`` checks voids with a checker of its own that
  derives them from the trick rules.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import spelbok
from spelbok.analysis.conformance import check_cards
from spelbok.cards import CARD_NAMES, FRENCH, SUITS, Pack, cards_in, parse_card
from spelbok.engine.auction import A_CALLED

from tests.minispec import mini
from tests.spec_cases import players

ROOT = Path(__file__).resolve().parent.parent
SPECS = sorted((ROOT / "specs").glob("*.yaml"))
VARIANTS = [ROOT / "specs" / "variants" / f"{name}.yaml" for name in
            ("knektpass-jacks-printed", "knektpass-void-any", "knockout-whist-dog-follows-suit",
             "knockout-whist-misere")]
_TOKEN = re.compile(r"[0-9A-Za-z]+|[♣♠♥♦]")
_CARD_TEXT = re.compile(r"(?:10|[2-9AKQJT])[CSHD♣♠♥♦]", re.IGNORECASE)


def cases() -> list[tuple[Path, int]]:
    out = []
    for path in SPECS + VARIANTS:
        for n in sorted(set(players(path))):
            out.append((path, n))
    return out


def named_cards(view: Any, pack: Pack = FRENCH) -> set[int]:
    """Every card named in any string (or key) of a JSON-like view (for a declared
    pack: every whole word that is one of its card names, as its first copy)."""
    out: set[int] = set()
    stack = [view]
    while stack:
        v = stack.pop()
        if isinstance(v, dict):
            stack.extend(v.keys())
            stack.extend(v.values())
        elif isinstance(v, list | tuple):
            stack.extend(v)
        elif isinstance(v, str) and not pack.french:
            for word in re.findall(r"[0-9A-Za-z]+", v):
                c = pack.index.get(word.upper())
                if c is not None:
                    out.add(pack.face[c])
        elif isinstance(v, str):
            for m in _CARD_TEXT.finditer(v):
                # a whole word only ("10H", "JC"), not inside another word
                s, e = m.span()
                if (s == 0 or not v[s - 1].isalnum()) and (e == len(v) or not v[e].isalnum()):
                    c = parse_card(m.group())
                    if c is not None:
                        out.add(c)
    return out


@dataclass
class Observer:
    """What the table has seen this hand, kept apart from the engine's own record."""

    n: int
    public: int = 0  # cards that have been face up this hand
    held: list[int] = field(default_factory=list)  # cards each seat has held this hand
    voids: list[set[int]] = field(default_factory=list)  # suits each seat is seen to lack
    hand_number: int = -1
    logged: int = 0  # events of the match log already read

    def __post_init__(self) -> None:
        self.held = [0] * self.n
        self.voids = [set() for _ in range(self.n)]

    def faces(self, st: Any) -> int:
        m = 0
        for c in st.turn_up:
            m |= 1 << c
        for _p, c in st.trick.cards:
            m |= 1 << c
        for _lead, cards, _w in st.history_tricks:
            for _p, c in cards:
                m |= 1 << c
        for known in st.known:  # shown to all (a declared meld, a card taken from the turn-up)
            m |= known
        if st.auction and st.auction[A_CALLED] >= 0:  # a called card: its call names it to all
            m |= 1 << st.auction[A_CALLED]  # (where it lies stays hidden)
        return m

    def see(self, st: Any, before: list[int] | None = None) -> None:
        """Update after a change of state (``before``: the hands before it)."""
        if st.hand_number != self.hand_number:
            self.hand_number = st.hand_number
            self.public = 0
            self.held = [0] * self.n
            self.voids = [set() for _ in range(self.n)]
        public_before = self.public
        self.public |= self.faces(st)
        events = st.log
        for e in events[self.logged:]:
            if e["event"] == "turn_up" and "seat" in e:  # a card turned up from a hand
                self.public |= 1 << (st.prog.pack.parse_card(e["card"]) or 0)
        self.logged = len(events)
        for p in range(self.n):
            if before is not None:
                arrived = st.hands[p] & ~before[p]
                if arrived & ~public_before:
                    self.voids[p].clear()  # unseen cards arrived: the voids are stale
            self.held[p] |= st.hands[p] | st.discarded[p]

    def play(self, st: Any, seat: int, text: str) -> None:
        """Before ``seat`` plays ``text``: note a failure to follow the suit led."""
        c = st.prog.pack.parse_card(text)
        if c is None or st.trick.led < 0 or not (st.hands[seat] >> c) & 1:
            return
        ins = st.prog.code[st.pc]
        if (getattr(ins, "free", 0) | getattr(ins, "losing", 0)) >> c & 1:
            return  # a free card (Pam), or one of no suit (the Excuse): playable anyway
        t = st.tables
        if t.suit[c] != st.trick.led and st.tf.follow and not st.hands[seat] & t.suit_mask[st.trick.led]:
            self.voids[seat].add(st.trick.led)


def check_view(st: Any, seat: int, obs: Observer) -> str | None:
    view = st.view(seat)
    json.dumps(view)
    allowed = obs.public | obs.held[seat] | st.hands[seat] | st.discarded[seat]
    pack = st.prog.pack
    for text in view.get("legal_actions", ()):  # a call names a card, not where it lies
        if text.startswith("call "):
            allowed |= 1 << (pack.parse_card(text[5:]) or 0)
    # copies share a name: a name is allowed when any of its copies is
    leaked = named_cards(view, pack) - {pack.face[c] for c in _set(allowed)}
    if leaked:
        names = sorted(pack.names[c] for c in leaked)
        return f"the view of seat {seat} names hidden card(s) {names}"
    return None


def _set(mask: int) -> set[int]:
    return set(cards_in(mask))


def _seen(st: Any, seat: int) -> list[Any]:
    """The hand's tricks as ``seat`` sees them: another seat's unshown face-down card is
    no public card (-1), so a sample may re-deal it."""
    def cards(pairs: Any) -> list[tuple[int, int]]:
        return [(p, c if p == seat or not (st.hidden >> c) & 1 else -1) for p, c in pairs]
    return [*[(lead, cards(pairs), w) for lead, pairs, w in st.history_tricks], cards(st.trick.cards)]


def check_sample(st: Any, seat: int, s: Any, obs: Observer) -> str | None:
    err = check_cards(st)  # every deck card in exactly one zone, before and after (below)
    if err:
        return f"the state does not conserve cards: {err}"
    if s.hands[seat] != st.hands[seat]:
        return f"the sample changed seat {seat}'s own hand"
    if s.discarded[seat] != st.discarded[seat]:
        return f"the sample changed seat {seat}'s own discards"
    if (s.turn_up, _seen(s, seat)) != (st.turn_up, _seen(st, seat)):
        return "the sample changed a public card (turn-up, trick or finished tricks)"
    for p in range(st.n):
        if s.hands[p] & st.known[p] != st.known[p]:
            return f"the sample moved a card publicly known to be in seat {p}'s hand"
        if s.hands[p].bit_count() != st.hands[p].bit_count():
            return f"the sample changed the size of seat {p}'s hand"
    if len(s.stock) != len(st.stock) or s.widow.bit_count() != st.widow.bit_count() \
            or s.discards.bit_count() != st.discards.bit_count():
        return "the sample changed the size of the stock, the widow or the discards"
    err = check_cards(s)
    if err:
        return f"the sample does not conserve cards: {err}"
    for p in range(st.n):
        if p == seat:
            continue
        for suit in obs.voids[p]:
            bad = s.hands[p] & st.tables.suit_mask[suit]
            if bad:
                names = [CARD_NAMES[c] for c in cards_in(bad)]
                return (f"seat {seat} saw seat {p} fail to follow {SUITS[suit]}, "
                        f"but the sample deals {p} {names}")
    return None


@pytest.mark.parametrize("path, players", cases(),
                         ids=lambda v: getattr(v, "stem", str(v)))
def test_views_hide_and_samples_keep_what_a_seat_knows(path: Path, players: int) -> None:
    game = spelbok.load(path, players=players, max_hands=3)
    rng = random.Random(players * 1009 + len(path.stem))
    failures: list[str] = []
    samples = redealt = 0
    for m in range(4):
        # the log kept as the match goes: ``st.log`` would otherwise replay the whole
        # match at every step (the observer reads it after each action)
        st = game.new_state(seed=7919 * m + players, record=True)
        obs = Observer(st.n)
        obs.see(st)
        steps = 0
        while not st.is_terminal and steps < 400 and len(failures) < 5:
            seat = rng.randrange(st.n)
            err = check_view(st, seat, obs)
            if err is None and steps % 3 == 0:
                s = st.determinize(seat, random.Random(rng.getrandbits(32)))
                samples += 1
                err = check_sample(st, seat, s, obs)
                hidden = [p for p in range(st.n) if p != seat and st.hands[p] & ~st.known[p]]
                if any(s.hands[p] != st.hands[p] for p in hidden):
                    redealt += 1
            if err:
                failures.append(f"match {m} step {steps} (hand {st.hand_number}): {err}")
                break
            action = rng.choice(st.legal_actions())
            before = list(st.hands)
            obs.play(st, st.current_player, str(action))
            st.apply(action)
            obs.see(st, before)
            steps += 1
    assert not failures, "\n".join(failures)
    assert samples >= 10
    assert redealt > 0, "determinize never re-dealt a hidden card"


def test_named_cards_reads_every_string() -> None:
    # the test's own reader: notation inside longer texts counts, words do not
    found = named_cards({"a": ["exchange 7H 9S", "JC"], "KD": 1, "b": "the JACK, 10s", "c": "AS,"})
    assert {CARD_NAMES[c] for c in found} == {"7H", "9S", "JC", "KD", "10S", "AS"}


# a card moved from the turn-up to the discards (euchre's buried turn-up), and one from
# the stock (a burnt card): discards of no seat's, hidden as the pile is
_BURY = ("  - deal: {size: 5}\n  - turn_up: {trump: true}\n"
         "  - move: {from: turn_up, to: discards}\n  - move: {from: stock, to: discards, count: 1}\n"
         "  - tricks: {}\n")


@pytest.mark.parametrize("players", [2, 4])
def test_a_sample_conserves_discards_of_no_seat(players: int) -> None:
    game = spelbok.load(mini(_BURY), players=players)
    rng = random.Random(players)
    for m in range(3):
        st = game.new_state(seed=m)
        for _step in range(6):
            assert check_cards(st) is None
            assert st.discards.bit_count() == 2
            for seat in range(players):
                s = st.determinize(seat, random.Random(rng.getrandbits(32)))
                assert check_cards(s) is None, (m, seat)
                assert s.discards.bit_count() == 2
            st.apply(rng.choice(st.legal_actions()))


def test_samples_conserve_cards_with_the_turn_up_buried() -> None:
    # euchre with a dealer who may discard the card he picked up: over random matches
    game = spelbok.load("euchre", players=4, options={"discard_turn_up": True}, max_hands=4)
    rng = random.Random(5)
    buried = 0
    for m in range(6):
        st = game.new_state(seed=m)
        while not st.is_terminal:
            assert check_cards(st) is None
            if st.discards & ~sum(st.discarded):
                buried += 1
                seat = rng.randrange(st.n)
                err = check_cards(st.determinize(seat, random.Random(rng.getrandbits(32))))
                assert err is None, (m, seat, err)
            st.apply(rng.choice(st.legal_actions()))
    assert buried > 0


_CALLED = """\
spelbok: 1
name: Called card sample
players: {min: 4, max: 4}
deck:
  - ranks: [A, K, Q, J]
hand:
  - deal: {size: 4}
    label: deal
  - auction:
      contracts: [{name: play, level: 1, trump: H}]
      partner: called_card
    label: bidding
  - tricks: {}
    label: play
end: {when: "true", winners: "true"}
"""


def test_a_sample_never_deals_the_called_card_to_its_caller() -> None:
    # bug (found writing Schafkopf): the declarer called a card he does not hold, yet
    # samples dealt it to him in about a quarter of the cases
    from spelbok.engine.auction import A_CALLED, A_DECLARER

    game = spelbok.load(_CALLED, players=4)
    rng = random.Random(3)
    checked = 0
    for m in range(20):
        st = game.new_state(seed=m)
        while not st.is_terminal and not (st.auction and st.auction[A_CALLED] >= 0
                                          and str(st.phase).startswith("trick")):
            st.apply(rng.choice(st.legal_actions()))
        if st.is_terminal:
            continue
        called, declarer = st.auction[A_CALLED], st.auction[A_DECLARER]
        for seat in range(4):
            if seat == declarer:
                continue
            for _ in range(10):
                s = st.determinize(seat, random.Random(rng.getrandbits(32)))
                assert not (s.hands[declarer] >> called) & 1, (m, seat)
                checked += 1
    assert checked > 100
