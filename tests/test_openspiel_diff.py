"""Differential tests: shipped specs against OpenSpiel's own implementations of the games.

Each test deals from spelbok seeds, forces the deal into OpenSpiel, plays random
decisions from the common legal set and requires full agreement on the seat to act, the
legal set, every trick winner and each hand's score (see tests/openspiel_diff.py; the
README's "Checked against OpenSpiel" lists the figures and the remaining differences).
Needs the ``rl`` extra (open_spiel); skipped without it.
"""

from __future__ import annotations

import pytest

pytest.importorskip("pyspiel")

from openspiel_diff import (  # noqa: E402
    Bridge,
    Euchre,
    EuchreNoStick,
    Hearts,
    HeartsHouse,
    HeartsOpen,
    OhHell,
    OhHell3,
    OhHell6,
    Rules,
    Skat,
    Spades,
    Tally,
    duel,
)

# (rules, seeds, hands per match): sized to a few seconds per game in the pure build
GAMES: list[tuple[type[Rules], range, int]] = [
    (Hearts, range(20), 4),  # four hands: every pass direction
    (HeartsHouse, range(10), 4),  # the house rules OpenSpiel has as parameters
    (HeartsOpen, range(10), 4),
    (Spades, range(100), 8),  # a match is compared while both sides' scores are >= 0
    (Bridge, range(8), 16),  # sixteen boards: every vulnerability and dealer
    (Euchre, range(30), 12),  # both making rounds, lone hands, stick the dealer
    (EuchreNoStick, range(10), 12),  # hands thrown in
    (OhHell, range(4), 19),  # a whole match: every hand size from ten down to one and up
    (OhHell3, range(3), 19),
    (OhHell6, range(3), 15),
    (Skat, range(50), 3),  # a declarer and a game drawn each deal, one in ten all pass
]


def run(rules_class: type[Rules], seeds: range, hands: int) -> Tally:
    rules = rules_class()
    tally = Tally()
    for seed in seeds:
        tally.add(duel(rules, seed, hands))
    return tally


@pytest.mark.parametrize(("rules_class", "seeds", "hands"), GAMES,
                         ids=[g[0].__name__.lower() for g in GAMES])
def test_agrees_with_openspiel(rules_class: type[Rules], seeds: range, hands: int) -> None:
    tally = run(rules_class, seeds, hands)
    assert tally.mismatches == []
    assert tally.decisions >= 1000 and tally.hands >= len(seeds)
    assert tally.tricks >= tally.hands  # each hand's tricks but the last


def test_bridge_declarer_plays_the_dummy() -> None:
    """At the dummy's turn both engines ask the declarer, for one of the dummy's cards
    (spelbok's current player is the declarer; the legal sets agree)."""
    rules = Bridge()
    tally = Tally()
    for seed in range(2):
        tally.add(duel(rules, seed, 4))
    assert tally.mismatches == []
    assert rules.dummy_turns >= 20


class OlderHearts(Hearts):
    options = {**Hearts.options, "hearts_led": "broken"}  # only a heart breaks hearts


class LoneEuchre4(Euchre):
    options = {**Euchre.options, "lone_euchre": 4}  # a lone maker euchred gives 4


class LoneLeadLeft(Euchre):
    options = {**Euchre.options, "lone_lead": "maker_left"}


class SkatTournament(Skat):
    options = {**Skat.options, "scoring": "tournament"}  # 40 to each defender of a loss


@pytest.mark.parametrize(("rules_class", "found"), [
    (OlderHearts, ", OpenSpiel ['"),  # a legal set
    (LoneEuchre4, "score change"),
    (LoneLeadLeft, ": spelbok seat"),  # the seat to act
    (SkatTournament, "score change"),
], ids=["legal-set", "score", "seat", "skat-score"])
def test_a_rules_difference_is_caught(rules_class: type[Rules], found: str) -> None:
    """The harness can fail: an option set away from OpenSpiel's rule is found."""
    tally = run(rules_class, range(6), 4)
    assert any(found in m for m in tally.mismatches), tally.mismatches
