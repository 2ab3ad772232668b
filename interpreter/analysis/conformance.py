"""One conformance check for every game: random playouts with invariants.

>>> import spelbok
>>> report = check_game(spelbok.load("example", players=2), matches=2, seed=1)
>>> report.matches, report.failures
(2, [])
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..cards import cards_in
from ..engine.fields import FIELDS, read

if TYPE_CHECKING:
    from ..engine.game import Game
    from ..engine.state import State


@dataclass
class ConformanceReport:
    matches: int = 0
    decisions: int = 0
    hands: int = 0
    failures: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.failures


def _bits(cards: Iterable[int]) -> list[int]:
    return [1 << c for c in cards]


# the cards a zone of each kind holds, as masks (see spelbok.engine.state.FIELDS)
_ZONE_MASKS: dict[str, Callable[[Any], list[int]]] = {
    "masks": list,
    "mask": lambda m: [m],
    "cards": _bits,
    "stock": _bits,
    "pairs": lambda trick: _bits(c for _p, c in trick),
    "tricks": lambda played: _bits(c for _lead, cards, _w in played for _p, c in cards),
}
_ZONES = tuple(f for f in FIELDS if f.zone)


def zones_mask(st: State) -> tuple[int, int]:
    """(union of every zone, total count) — equal sizes mean no card is in two places."""
    union = 0
    total = 0
    for f in _ZONES:
        for m in _ZONE_MASKS[f.kind](read(st, f)):
            union |= m
            total += m.bit_count()
    return union, total


def check_cards(st: State) -> str | None:
    union, total = zones_mask(st)
    deck = st.game.program.deck_mask
    if union != deck or total != len(st.game.program.deck):
        names = st.prog.pack.names
        lost = [names[c] for c in cards_in(deck & ~union)]
        extra = [names[c] for c in cards_in(union & ~deck)]
        return f"cards not conserved: {total} placed, lost {lost}, foreign {extra}"
    return None


def check_view(st: State, seat: int) -> str | None:
    """No card hidden from ``seat`` appears anywhere in its view."""
    view = st.view(seat)
    auction = view.get("auction")
    if auction is not None:
        # an auction's called card is named in public (where it lies stays hidden); its
        # holder, the declarer's partner, only to the holder until it is played
        partner = auction.pop("called_card")
        if auction["partner"] not in (None, seat) and not any(
                st.prog.pack.names[c] == partner for _, c in st.trick.cards) and not any(
                st.prog.pack.names[c] == partner for _l, cards, _w in st.history_tricks
                for _, c in cards):
            return f"view of seat {seat} shows the partner of a card not yet played"
    text = json.dumps(view)
    hidden = 0
    for p in range(st.n):
        if p != seat:
            hidden |= st.hands[p] & ~st.known[p] & ~st.peeked[seat]  # peeked: shown to it
            hidden |= st.passing[p]  # passed, not yet received
    hidden |= st.discards & ~st.discarded[seat]
    hidden |= st.widow
    for c in st.stock:
        hidden |= 1 << c
    if st.hidden:  # cards the other seats played face down, not yet shown
        for _lead, cards, _w in [*st.history_tricks, (0, tuple(st.trick.cards), 0)]:
            for p, c in cards:
                if p != seat and (st.hidden >> c) & 1:
                    hidden |= 1 << c
    pack = st.prog.pack
    seen = st.game.program.deck_mask & ~hidden  # (a copy of a hidden card may be in view)
    for c in cards_in(hidden):
        if any((seen >> k) & 1 for k in pack.copies_of(c)):
            continue
        if f'"{pack.names[c]}"' in text:
            return f"view of seat {seat} shows hidden card {pack.names[c]}"
    return None


def check_state_deep(st: State) -> str | None:
    """The expensive checks: notation, clone, snapshot, every legal action applies."""
    legal = st.legal_actions()
    texts = [str(a) for a in legal]
    if len(set(texts)) != len(texts):
        return f"notation not unique: {texts}"
    for a in legal:
        if st.parse_action(str(a)) != a and str(st.parse_action(str(a))) != str(a):
            return f"notation does not round-trip: {a}"
    c = st.clone()
    if c != st:
        return "clone differs from the state"
    d = st.to_dict()
    json.dumps(d)
    r = st.game.restore(d)
    if r != st:
        return "restore(to_dict()) differs from the state"
    for a in legal:
        probe = st.clone()
        probe.apply(a)
    if st != c:
        return "applying actions to clones changed the original"
    return None


def check_game(
    game: Game, matches: int = 20, seed: int = 0, deep_every: int = 7, max_decisions: int = 200_000,
    budget: int | None = None,
) -> ConformanceReport:
    """Play ``matches`` random matches, checking invariants along the way.

    ``budget``: no new match starts once this many decisions are played in all, so a
    long game costs about what a short one does (the first match always runs).
    """
    rep = ConformanceReport()
    rng = random.Random(seed)
    for m in range(matches):
        if budget is not None and m and rep.decisions >= budget:
            break
        st = game.new_state(seed=seed * 10_007 + m)
        steps = 0
        while not st.is_terminal:
            legal = st.legal_actions()
            if not legal:
                rep.failures.append(f"match {m}: no legal action at step {steps}")
                break
            if steps % (deep_every if steps < 150 else deep_every * 15) == 0:
                err = check_state_deep(st) or check_view(st, rng.randrange(st.n))
                if err:
                    rep.failures.append(f"match {m} step {steps}: {err}")
                    break
            st.apply(rng.choice(legal))
            steps += 1
            err = check_cards(st)
            if err:
                rep.failures.append(f"match {m} step {steps}: {err}")
                break
            if steps > max_decisions:
                rep.failures.append(f"match {m}: no end after {steps} decisions")
                break
        else:
            if st.current_player is not None or st.legal_actions():
                rep.failures.append(f"match {m}: terminal state still has a player to act")
            if not st.winners and not st.outcome:
                rep.failures.append(f"match {m}: no outcome")
        if m % 5 == 0 and not rep.failures:
            replay = game.new_state(seed=seed * 10_007 + m)
            for a in st.actions:
                replay.apply(a)
            if replay != st:
                rep.failures.append(f"match {m}: replaying the actions gives another state")
        rep.matches += 1
        rep.decisions += steps
        rep.hands += st.hands_played
        if len(rep.failures) >= 5:
            break
    return rep
