"""``describe``: the rules in prose, with citations, and a variant's changes."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest
from spelbok import describe as describe_module
from spelbok.errors import SpecError
from spelbok.lang.describe import describe, spec_changes
from spelbok.lang.loader import read_spec

KNEKTPASS_SCORE = (
    "if tricks >= need then -tricks else 5 * (need - tricks) - (if short_deducts then tricks else 0)"
)


@pytest.fixture(scope="module")
def knektpass() -> str:
    return describe(read_spec("knektpass"))


def flat(text: str) -> str:
    """The text with line breaks and indentation folded into single spaces."""
    return " ".join(text.split())


def test_one_section_per_part(knektpass: str) -> None:
    lines = knektpass.splitlines()
    assert lines[:2] == ["Knektpass", "========="]
    titles = [lines[i - 1] for i, line in enumerate(lines) if line and set(line) == {"-"}]
    assert titles == ["Sources", "Players", "Cards", "Ranking", "Options (readings)",
                      "Score and other counts", "Dealing", "Each hand", "End of the match"]


def test_top_trumps_and_ranking(knektpass: str) -> None:
    assert "above the whole trump suit: J♣ J♠ J♥ J♦" in knektpass
    assert "They belong to the trump suit whatever their printed suit" in knektpass
    assert "as option jack_suit says; by default trump" in knektpass
    assert "Plain suits rank A K Q 10 9 8 7 6 5 4 3 2 (high to low); every J is a top trump." \
        in knektpass


def test_citations_and_sources(knektpass: str) -> None:
    assert "[en] Knektpass, encyclopedia article in English" in knektpass
    for citation in ("[en: Cards; a 36-card pack]", "[en: Play;", "[en: Scoring;",
                     "[en: Deal and exchange; the next card is turned for trump]"):
        assert citation in knektpass


def test_options_with_defaults_and_reasons(knektpass: str) -> None:
    assert "void_rule: any | trump_if_beats | trump | overtrump (default trump_if_beats)" in knektpass
    assert "head_after_trump: false | true (default false)" in knektpass
    assert "a trump that cannot beat the trick overtakes nothing" in flat(knektpass)


def test_steps_in_plain_words_and_formulas_as_written(knektpass: str) -> None:
    text = knektpass
    assert "1. (deal) Shuffle and deal 5 cards to each player still in, in packets of 2 then 3" in text
    assert "2. (turn-up) Turn up the next card of the stock; its suit is trump." in text
    assert "Decision 'swap': the dealer may exchange with the turn-up" in flat(text)
    assert "Decision 'announce': each player in turn from forehand chooses play or pass" in flat(text)
    assert "5. (all pass) If `count(plays) == 0`:" in text
    assert "5.1. (redeal) Gather the cards and deal again, by the same dealer" in text
    assert "6.2. (end of hand) The hand ends here" in text
    assert "7. (exchange rounds) Repeat up to 3 times, each round only while `talon > 0`:" in text
    assert "A player following suit must head the trick" in text
    assert ("When `void_rule == 'trump_if_beats' or void_rule == 'overtrump'` (with the default"
            " options: yes)") in flat(text)
    assert KNEKTPASS_SCORE in text  # the scoring formula exactly as written
    assert "the match ends when `any(score <= 0)`" in text
    assert "after 400 hands" in text


def test_players_narrows_the_cards() -> None:
    text = describe("knektpass", players=3)
    assert "For 2 or 3 players: 36 cards" in text and "52 cards" not in text
    assert "With 3 players: 5 cards each (15 in all), 1 turned up, 20 left in the stock" in text
    assert "Plain suits rank A K Q 10 9 8 7 6 (high to low)" in text
    with pytest.raises(SpecError, match="for 2 to 10 players, not 11"):
        describe("knektpass", players=11)


def test_knockout_whist() -> None:
    text = flat(describe(read_spec("knockout-whist")))
    assert "names a suit" in text
    assert "knock" in text
    assert "Only when `hand_number == 1`" in text
    assert "the player with the highest last_tricks (on a tie, cut for it)" in text
    assert "Trumps may be led at any time (as option lead_trumps says; by default any)" in text
    assert "When first_trick_trumps is false, no trump may be played to the first trick" in text


def test_variant_shows_changes_against_its_base(tmp_path: Path) -> None:
    base = Path(__file__).resolve().parent.parent / "specs" / "knektpass.yaml"
    variant = tmp_path / "any.yaml"
    variant.write_text(
        f"spelbok: 1\nextends: {base}\nname: Knektpass (any card when void)\n"
        "options:\n  void_rule: {default: any}\n",
        encoding="utf-8",
    )
    text = describe(read_spec(str(variant)))
    assert "Changes against knektpass.yaml" in text
    assert '- options.void_rule.default: "trump_if_beats" → "any"' in text
    assert "(with the default options: no)" in text  # the conditions read the new default
    plain = describe(read_spec("knektpass"))
    assert "Changes against" not in plain


def test_shipped_variant() -> None:
    text = describe(read_spec("variants/knektpass-floor-zero"))
    assert "Changes against knektpass.yaml" in text
    assert "options.floor_zero.default: false → true" in text


def test_every_vocabulary_item_reads(tmp_path: Path) -> None:
    spec = """\
spelbok: 1
name: Everything
players: {min: 3, max: 4}
options:
  lead: {values: [any, broken], default: broken}
deck:
  - ranks: [A, K, Q, J, 10, 9, 8, 7]
    suits: [C, S, H, D]
ranking:
  ranks: [A, K, Q, J, 10, 9, 8, 7]
  top_trumps: ["J@trump", "J@trump_colour"]
  top_trumps_follow: printed
  cut_ranks: [A, K, Q, J, 10, 9, 8, 7]
variables:
  player: {score: 0}
  hand_player: {bid: 0}
  hand: {maker: -1}
  match: {rounds: 0}
dealer: {first: random, rotate: right, skip_out: false}
hand:
  - deal: {size: "8 - seat", packets: [3]}
  - decide: call
    who: {most: "score", ties: cut}
    where: "not out"
    choose: suit
    suits: [H, S]
    then: {trump: choice}
  - decide: bid
    who: forehand
    where: "score >= 0"
    choose: [one, two]
  - tricks:
      lead_trumps: lead
      first_trick_trumps: false
      follow: true
      abstain: "score > 3"
      abstain_lead: false
      abstain_with_suit: false
      allow: "card_rank != 'A' or trick_number > 1"
  - set: {rounds: "rounds + 1"}
  - if: "rounds > 2"
    then: [{end_hand: true}]
    else: [{redeal: {dealer: next}}]
end:
  when: "rounds >= 3"
  winners: "score == max(score)"
"""
    path = tmp_path / "everything.yaml"
    path.write_text(spec, encoding="utf-8")
    text = flat(describe(read_spec(str(path))))
    for phrase in (
        "the J of trumps, the J of the other suit of the trump's colour",
        "Below them the trump suit ranks A K Q 10 9 8 7.",
        "They follow, and are led as, their printed suit",
        "The first dealer is chosen at random. The deal then passes to the right.",
        "`8 - seat` cards (per player)", "in packets of 3",
        "the player with the highest score among those where `not out` (on a tie, cut for it)",
        "names a suit, ♥ or ♠",
        "the first player from forehand (round to the left) where `score >= 0` chooses one or two",
        "Trumps may not be led until a trump has been played",
        "No trump may be played to the first trick",
        "may knock (sit the trick out, write: knock)",
        "not when due to lead; not while holding the suit led",
        "Each card played must also satisfy `card_rank != 'A' or trick_number > 1`",
        "Set rounds to `rounds + 1`.",
        "Otherwise: 6.2. Gather the cards and deal again, by the next dealer",
        "For the hand, reset at its start: maker (starts at -1).",
    ):
        assert phrase in text, phrase


def test_spec_changes() -> None:
    assert spec_changes({"a": [1, 2, 3]}, {"a": [1, 2, 3]}) == []
    assert spec_changes({"a": [1, 2, 3]}, {"a": [1, 9, 2, 3]}) == [("a[1]", "(new) 9")]
    assert spec_changes({"a": {"b": 1}}, {}) == [("a", '{"b": 1} → (removed)')]
    assert spec_changes({"x": 1}, {"x": True}) == [("x", "1 → true")]


def test_doctests() -> None:
    failures, _ = doctest.testmod(describe_module)
    assert failures == 0


def test_what_breaks_trumps_where_moved_cards_go_and_the_reason_for_a_refusal(
        tmp_path: Path) -> None:
    text = flat(describe(read_spec("variants/knockout-whist-trumps-broken")))
    assert ("Trumps may not be led until a trump has been played to a trick of another suit "
            "(\"broken\") (as option trumps_broken_by says; by default ruff; with 'any', until "
            "any trump has been played, even one led by a player holding nothing else)") in text
    path = tmp_path / "moves.yaml"
    path.write_text("""
spelbok: 1
name: Moves
players: {min: 2, max: 2}
deck: [{players: [2, 2], ranks: [A, K, Q, J, 10, 9, 8, 7, 6, 5, 4, 3, 2]}]
hand:
  - deal: {size: 3, widow: 2}
  - move: {from: widow, to: stock}
  - move: {from: widow, to: stock, position: bottom}
  - tricks: {allow: "card_rank != 'A'", reason: "aces stay home"}
end: {when: "hand_number >= 1", winners: "true"}
""", encoding="utf-8")
    text = flat(describe(read_spec(str(path))))
    assert "Move all cards from the widow to the stock, shuffled into it." in text
    assert "Move all cards from the widow to the stock, at the bottom." in text
    assert 'a card it refuses is answered "aces stay home".' in text


def test_top_trumps_of_a_declared_pack_read_with_its_own_symbols() -> None:
    # bug (found writing Schafkopf): describe showed a declared pack's cards with the
    # French suit symbols whatever the pack declared
    text = " ".join(describe(read_spec("schafkopf")).split())
    assert "above the whole trump suit: Q🌰 Q🍃 Q♥ Q🔔 J🌰" in text


def test_an_auction_names_the_trump_suit_of_each_contract() -> None:
    text = " ".join(describe(read_spec("bridge")).split())
    assert "one club (level 1): take 7 tricks; clubs trump." in text
    assert "one nt (level 1): take 7 tricks; no trump." in text


def test_a_discard_only_exchange_reads_as_a_discard() -> None:
    # bug (found writing Skat): it read "may exchange with the stock ... draw as many from
    # it ... or discard alone to keep every card" for a discard of exactly two
    text = " ".join(describe(read_spec("skat")).split())
    assert "discards exactly 2 cards, drawing nothing. Write: discard 7H 9S." in text


def test_a_ranking_of_top_trumps_only_names_no_empty_suit_order() -> None:
    # found with Truco: "Below them the trump suit ranks ." and "Plain suits rank  (high
    # to low)" printed empty lists when every card is a top trump
    text = " ".join(describe(read_spec("truco-mineiro")).split())
    assert "ranks ." not in text and "rank  (" not in text
    assert "Every card is a top trump: the list above ranks them all." in text
