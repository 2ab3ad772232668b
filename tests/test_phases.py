"""Phases of a hand before and around play (issue 15, item 5): passing cards."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
import spelbok
from spelbok.analysis.conformance import check_game
from spelbok.errors import IllegalActionError, SpecError
from spelbok.lang.describe import describe
from spelbok.lang.dsl import parse_dsl
from spelbok.lang.dslwrite import to_dsl
from spelbok.lang.model import normalize
from spelbok.validation import validate

SPECS = Path(__file__).resolve().parent / "specs"
PASS = SPECS / "pass_cards.yaml"


def _write(tmp_path: Path, text: str, name: str = "g.yaml") -> Path:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def _errors(tmp_path: Path, text: str) -> list[str]:
    return [str(e) for e in validate(_write(tmp_path, text))]


# ------------------------------------------------------------------ passing cards


def _pass_all(s: spelbok.State) -> dict[int, int]:
    """Every seat passes its first legal choice; the masks each passed."""
    passed = {}
    while s.decision_name == "pass":
        seat = s.current_player
        a = s.legal_actions()[0]
        passed[seat] = a.value
        s.apply(a)
    return passed


def _hand_at(hand_number: int, seed: int = 1) -> spelbok.State:
    """A state at the passing of hand ``hand_number`` (earlier hands played at random)."""
    s = spelbok.load(PASS).new_state(seed=seed)
    rng = random.Random(seed)
    while s.hand_number < hand_number:
        s.apply(rng.choice(s.legal_actions()))
    return s


@pytest.mark.parametrize(("hand", "step"), [(1, 1), (2, -1), (3, 2)])
def test_cards_go_left_right_then_across_by_hand_number(hand: int, step: int) -> None:
    s = _hand_at(hand)
    assert s.decision_name == "pass"
    before = list(s.hands)
    passed = _pass_all(s)
    assert sorted(passed) == [0, 1, 2, 3]
    for p, m in passed.items():
        to = (p + step) % 4
        assert m.bit_count() == 3 and m & before[p] == m
        assert s.hands[to] & m == m  # received
        assert s.hands[p] & m == 0
    assert [h.bit_count() for h in s.hands] == [8, 8, 8, 8]
    assert s.phase.kind == "trick"


def test_the_fourth_hand_keeps_its_cards() -> None:
    s = _hand_at(4)
    assert s.decision_name == "play"  # no pass decision at all
    assert [h.bit_count() for h in s.hands] == [8, 8, 8, 8]


def test_received_cards_arrive_only_when_all_have_passed() -> None:
    s = _hand_at(1)
    first = s.current_player
    a = s.legal_actions()[0]
    s.apply(a)
    receiver = (first + 1) % 4
    assert s.hands[receiver] & a.value == 0  # not yet received
    assert s.hands[first].bit_count() == 5
    # the receiver's choices are its own cards only
    while s.current_player != receiver:
        s.apply(s.legal_actions()[0])
    assert all(x.value & a.value == 0 for x in s.legal_actions())
    # nobody else sees what was passed: the view of another seat shows no passed card
    other = (first + 2) % 4
    view = str(s.view(other))
    assert not any(f"'{c}'" in view for c in spelbok.cards.names(a.value))


def test_a_pass_must_name_exactly_the_count_from_the_hand() -> None:
    s = _hand_at(1)
    seat = s.current_player
    cards = spelbok.cards.names(s.hands[seat])
    with pytest.raises(IllegalActionError, match="pass exactly 3 cards"):
        s.apply("pass " + " ".join(cards[:2]))
    other = spelbok.cards.names(s.hands[(seat + 1) % 4])[0]
    with pytest.raises(IllegalActionError, match="not in hand"):
        s.apply(f"pass {cards[0]} {cards[1]} {other}")
    s.apply("pass " + " ".join(cards[:3]))


def test_snapshot_clone_and_determinize_mid_pass() -> None:
    s = _hand_at(1)
    first = s.current_player
    passed = s.legal_actions()[0].value
    s.apply(s.legal_actions()[0])
    assert s.game.restore(s.to_dict()) == s
    c = s.clone()
    c.apply(c.legal_actions()[0])
    assert s.passing[first] == passed and c.passing[first] == passed  # clones share safely
    # another seat cannot know the passed cards: a sample re-deals them
    seat = (first + 2) % 4
    samples = {s.determinize(seat, random.Random(k)).passing[first] for k in range(20)}
    assert len(samples) > 1 and all(m.bit_count() == 3 for m in samples)
    assert {s.determinize(first, random.Random(k)).passing[first] for k in range(5)} == {passed}


def test_passing_spec_conforms() -> None:
    assert validate(PASS) == []
    rep = check_game(spelbok.load(PASS), matches=6, seed=2)
    assert rep.ok, rep.failures


def test_passing_round_trips_through_the_dsl() -> None:
    tree = spelbok.load(PASS).tree
    text = to_dsl(tree)
    assert "each player passes 3 cards left, right, across or none\n" in text
    assert normalize(parse_dsl(text, "p.spel")[0]) == tree
    one = normalize({**tree, "hand": [{"pass_cards": {"count": "cards - 7", "directions": ["right"],
                                                      "by": "0"}}, *tree["hand"][1:]]})
    text = to_dsl(one)
    assert "each player passes cards - 7 cards right by 0\n" in text
    assert normalize(parse_dsl(text, "p.spel")[0]) == one


def test_passing_is_described() -> None:
    text = " ".join(describe(spelbok.load(PASS).doc).split())
    assert "Each player passes 3 cards, in turn by `hand_number - 1`" in text
    assert "2: to the player opposite; 3: no cards are passed" in text


def test_passing_errors_are_located(tmp_path: Path) -> None:
    base = PASS.read_text(encoding="utf-8")
    errors = _errors(tmp_path, base.replace("[left, right, across, none]",
                                            "[left, rigth, across, none]"))
    assert errors == [f"{tmp_path / 'g.yaml'}:11:26: unknown directions 'rigth': expected left, "
                      "right, across or none, or the name of an option (did you mean 'right'?)"]
    errors = _errors(tmp_path, base.replace("{min: 4, max: 4}", "{min: 3, max: 4}"))
    assert errors == [f"{tmp_path / 'g.yaml'}:11:33: cards cannot be passed across among 3 "
                      "players: 'across' needs an even number (limit 'players' to even counts)"]
    with pytest.raises(SpecError, match=r"g.yaml:\d+:\d+: .*'across' needs an even number"):
        spelbok.load(_write(tmp_path, base.replace("{min: 4, max: 4}", "{min: 3, max: 3}")
                            .replace("[left, right, across, none]", "[left, 'across']")))


def test_across_may_be_passed_where_a_condition_limits_it_to_even_counts(tmp_path: Path) -> None:
    # 3 to 4 players: across at four, left and right at three (two steps, each for its count)
    base = PASS.read_text(encoding="utf-8").replace("{min: 4, max: 4}", "{min: 3, max: 4}")
    text = base.replace("    label: pass\n", "    label: pass\n    when: seats == 4\n"
                        "  - pass_cards: {count: 3, directions: [left, right]}\n"
                        "    label: pass three\n    when: seats == 3\n")
    assert "when: seats == 4" in text
    path = _write(tmp_path, text)
    assert _errors(tmp_path, text) == []
    for n in (3, 4):
        st = spelbok.load(path, players=n).new_state(seed=1)
        while not st.is_terminal:
            st.apply(st.legal_actions()[0])
    # under a condition not fixed at load, an odd count is still refused where it loads
    text = text.replace("when: seats == 4", "when: hand_number > 1")
    errors = _errors(tmp_path, text)
    assert len(errors) == 1 and "'across' needs an even number" in errors[0], errors


# ------------------------------------------------------------------ hand patterns

PATTERNS = SPECS / "hand_patterns.yaml"


def _dealt(path: Path, hands: dict[int, str], players: int = 2) -> spelbok.State:
    """A state whose first deal gives ``hands`` (the rest of the pack after them)."""
    g = spelbok.load(path, players=players)
    wanted = [c for p in sorted(hands) for c in hands[p].split()]
    rest = [c for c in spelbok.cards.names(g.program.deck_mask) if c not in wanted]
    # the deal goes one card at a time from forehand (seat 1 when seat 0 deals)
    order = [hands[p].split() for p in sorted(hands, key=lambda p: (p - 1) % players)]
    deck = [c for round_ in zip(*order, strict=True) for c in round_] + rest
    return g.new_state(seed=1, deck=deck, dealer=0)


def test_the_best_pattern_settles_the_hand() -> None:
    s = _dealt(PATTERNS, {0: "AC KC QC JC 9C", 1: "AD AH AS 7D 8H"})
    # seat 0 holds a flush, seat 1 three aces: the flush is higher in the list
    assert s.hand_number == 2 and s.var("score") == [5, 0]


def test_ties_within_a_pattern_go_to_the_higher_rank() -> None:
    s = _dealt(PATTERNS, {0: "KC QC JC 10C 9C", 1: "AD KD QD JD 9D"})
    assert s.var("score") == [0, 5]  # both flushes: seat 1 has an ace, its rank is 1


def test_no_pattern_leaves_the_hand_to_play() -> None:
    s = _dealt(PATTERNS, {0: "AC KD QC JH 9C", 1: "AD KH QS 7D 8H"})
    assert s.hand_number == 1 and s.decision_name == "play"
    assert s.var("score") == [0, 0]


def test_patterns_spec_conforms_and_round_trips() -> None:
    assert validate(PATTERNS) == []
    for n in (2, 4):
        rep = check_game(spelbok.load(PATTERNS, players=n), matches=4, seed=n)
        assert rep.ok, rep.failures
    tree = spelbok.load(PATTERNS).tree
    text = to_dsl(tree)
    assert "    find the best hand pattern:\n        four_of_a_kind if max(" in text
    assert ", ranked by count(hand where card_rank == 'A')\n" in text
    assert normalize(parse_dsl(text, "p.spel")[0]) == tree
    # a pattern named as a keyword of the block is quoted, and comes back
    odd = normalize({**tree, "hand": [tree["hand"][0], {"patterns": [
        {"name": "source", "if": "true", "source": "en: Hands"}]}, {"end_hand": True}]})
    text = to_dsl(odd)
    assert '"source" if true — source "en: Hands"' in text
    assert normalize(parse_dsl(text, "p.spel")[0]) == odd


def test_patterns_are_described() -> None:
    text = " ".join(describe(spelbok.load(PATTERNS).doc).split())
    assert "Find the best hand pattern held by a player still in" in text
    assert "2) flush: when `max(" in text and "ranked by `count(hand where card_rank == 'A')`" in text


def test_pattern_errors_are_located(tmp_path: Path) -> None:
    base = PATTERNS.read_text(encoding="utf-8")
    errors = _errors(tmp_path, base.replace("name: three_aces", "name: flush"))
    assert errors == [f"{tmp_path / 'g.yaml'}:15:9: the pattern name 'flush' is listed twice"]
    errors = _errors(tmp_path, base.replace("rank: \"count(", "rank: \"cout("))
    assert len(errors) == 1 and ":14:" in errors[0] and "cout" in errors[0]
    errors = _errors(tmp_path, base.replace("pattern == 'flush'", "patern == 'flush'"))
    assert len(errors) == 1 and "did you mean 'pattern'" in errors[0]
    errors = _errors(tmp_path, base.replace('if: "count(hand where card_rank == \'A\') >= 3"',
                                            'if: "count(hand where card_rank == \'A\')"'))
    assert errors == [f"{tmp_path / 'g.yaml'}:16:13: expected a condition (true or false) here, "
                      "not a formula that gives a number (compare it: e.g. `count(hand) == 5`)"]


# ------------------------------------------------------------------ melds

MELDS = SPECS / "melds.yaml"


def test_melds_are_scored_as_often_as_made_and_shown() -> None:
    # seat 0: marriages in hearts, spades and clubs, a sequence A K Q of clubs
    # seat 1: four jacks, a sequence 10 9 8 7 of diamonds (one run, however long)
    s = _dealt(MELDS, {0: "KH QH KS QS AC KC QC 7H", 1: "JC JS JH JD 10D 9D 8D 7D"})
    assert s.meld_points == [3 * 20 + 10 * 2, 40 + 10 * 2]
    assert s.var("score") == [80, 60]
    shown = s.view(1)["known_cards"][0]
    assert sorted(shown) == sorted(["KH", "QH", "KS", "QS", "AC", "KC", "QC"])  # not the 7H
    assert "JC" in s.view(0)["known_cards"][1]


def test_a_hand_without_melds_scores_nothing_and_shows_nothing() -> None:
    s = _dealt(MELDS, {0: "AC KD QH JC 9C 7S 8H 10D", 1: "AD KH QS 7D 8S 9H 10C JD"})
    assert s.meld_points == [0, 0] and s.view(1)["known_cards"][0] == []


def test_melds_not_shown_stay_hidden_and_for_limits_who_declares(tmp_path: Path) -> None:
    text = MELDS.read_text(encoding="utf-8").replace(
        "  - declare_melds: {}", "  - declare_melds: {show: false}\n    for: \"seat == 1\"")
    path = _write(tmp_path, text)
    s = _dealt(path, {0: "KH QH KS QS AC KC QC 7H", 1: "JC JS JH JD 10D 9D 8D 7D"})
    assert s.meld_points == [0, 60]
    assert s.view(0)["known_cards"][1] == []


def test_melds_spec_conforms_and_round_trips() -> None:
    assert validate(MELDS) == []
    for n in (2, 3):
        rep = check_game(spelbok.load(MELDS, players=n), matches=4, seed=n)
        assert rep.ok, rep.failures
    tree = spelbok.load(MELDS).tree
    text = to_dsl(tree)
    assert "meld marriage: K Q in one suit, worth 20\n" in text
    assert "meld four_jacks: J in every suit, worth 40\n" in text
    assert "meld sequence: run of 3 in one suit, worth 10 * seats\n" in text
    assert "    declare melds\n" in text
    assert normalize(parse_dsl(text, "m.spel")[0]) == tree
    hand = [tree["hand"][0], {"declare_melds": {"show": False}, "for": "seat == 0"},
            *tree["hand"][2:]]
    other = normalize({**tree, "hand": hand})
    text = to_dsl(other)
    assert "    for each player where seat == 0, declare melds, not shown\n" in text
    assert normalize(parse_dsl(text, "m.spel")[0]) == other


def test_melds_are_described() -> None:
    text = " ".join(describe(spelbok.load(MELDS).doc).split())
    assert "marriage: K Q of one suit (each suit may make one), worth 20." in text
    assert "four_jacks: J of every suit, worth 40." in text
    assert "declares the melds their hand makes and shows their cards to all" in text


def test_meld_errors_are_located(tmp_path: Path) -> None:
    base = MELDS.read_text(encoding="utf-8")
    g = tmp_path / "g.yaml"
    errors = _errors(tmp_path, base.replace("{ranks: [K, Q], spread: one_suit, points: 20}",
                                            "{ranks: [K, 5], spread: one_sut, points: 20}"))
    assert errors == [
        f"{g}:8:25: the meld 'marriage' can never be made: no deck has the rank 5",
        f"{g}:8:37: unknown spread 'one_sut': expected one_suit, every_suit, trump_suit or "
        "plain_suit, or the name of an option (did you mean 'one_suit'?)"]
    errors = _errors(tmp_path, base.replace("{run: 3, points", "{run: 3, ranks: [A], points"))
    assert errors == [f"{g}:10:3: the meld 'sequence' needs one of 'ranks', 'cards' or 'run', "
                      "not more"]
    errors = _errors(tmp_path, base.replace("melds:\n", "unused:\n").replace(
        "  marriage", "  x_marriage"))
    assert any("unknown key 'unused'" in e for e in errors)
    no_table = "\n".join(line for line in base.splitlines()
                         if not line.startswith(("melds:", "  marriage", "  four", "  sequ")))
    assert _errors(tmp_path, no_table + "\n") == [
        f"{g}:9:5: there are no melds to declare: the spec has no 'melds' table"]


# ------------------------------------------------------------------ the stock

STOCK = SPECS / "stock.yaml"
# the deal, one card at a time from seat 1 (seat 0 deals): seat 1 gets the odd places
STACK = [*["AC", "AD", "KC", "KD", "QC", "QD", "JC", "JD", "10C", "10D", "9C", "9D"],
         "9H",  # turned up, then under the stock
         *["AH", "KH", "QH", "JH", "10H", "AS", "KS", "QS", "JS", "10S", "9S"]]


def _stock_state() -> spelbok.State:
    return spelbok.load(STOCK).new_state(seed=1, deck=list(STACK), dealer=0)


def test_the_winner_then_the_other_draws_after_each_trick() -> None:
    s = _stock_state()
    assert s.trump_letter() == "H" and len(s.stock) == 12
    s.apply(s.legal_actions()[0])
    s.apply(s.legal_actions()[0])
    w = s.last_winner
    assert "AH" in spelbok.cards.names(s.hands[w])  # the top of the stock
    assert "KH" in spelbok.cards.names(s.hands[1 - w])
    assert [h.bit_count() for h in s.hands] == [6, 6] and len(s.stock) == 10
    assert s.decision_name == "close" and s.current_player == w


def test_closing_the_stock_stops_the_draw_and_brings_its_rules() -> None:
    suit_of = spelbok.cards.suit_of
    s = _stock_state()
    s.apply(s.legal_actions()[0])
    s.apply(s.legal_actions()[0])
    assert not s.stock_closed
    s.apply("close")
    assert s.stock_closed
    follower = 1 - s.current_player
    held = {suit_of(c) for c in spelbok.cards.cards_in(s.hands[follower])}
    lead = next(a for a in s.legal_actions() if suit_of(a.card) in held)
    s.apply(lead)
    legal = {a.card for a in s.legal_actions()}
    assert legal and all(suit_of(c) == suit_of(lead.card) for c in legal)  # must follow
    assert len(legal) < s.hands[follower].bit_count()
    s.apply(s.legal_actions()[0])
    assert len(s.stock) == 10  # closed: nobody draws
    assert [h.bit_count() for h in s.hands] == [5, 5]


def test_an_empty_stock_brings_the_closed_rules_too() -> None:
    s = _stock_state()
    rng = random.Random(4)
    while s.stock and not s.is_terminal:
        a = s.legal_actions()
        s.apply("play_on" if s.decision_name == "close" else rng.choice(a))
    assert not s.stock_closed and s.tf.follow and s.tf.head
    assert [h.bit_count() for h in s.hands] == [6, 6]


def test_a_tricks_step_without_a_stock_compiles_as_before() -> None:
    from spelbok.engine.stock import StockDraw

    for name in ("example", "german-whist", "rams"):
        code = spelbok.load(name).program.code
        assert not any(isinstance(i, StockDraw) for i in code), name


def test_stock_spec_conforms_round_trips_and_is_described() -> None:
    assert validate(STOCK) == []
    rep = check_game(spelbok.load(STOCK), matches=8, seed=3)
    assert rep.ok, rep.failures
    tree = spelbok.load(STOCK).tree
    text = to_dsl(tree)
    assert ("        must follow suit if stock_closed or talon == 0\n"
            "        must head the trick if stock_closed or talon == 0\n") in text
    assert "        draw from the stock after each trick, the winner first\n" in text
    assert normalize(parse_dsl(text, "s.spel")[0]) == tree
    prose = " ".join(describe(spelbok.load(STOCK).doc).split())
    assert "After each trick the winner, then each other player in turn, draws a card" in prose
    assert ("When `stock_closed or talon == 0` (worked out as each trick starts): a player "
            "must follow") in prose


def test_stock_errors_are_located(tmp_path: Path) -> None:
    base = STOCK.read_text(encoding="utf-8")
    g = tmp_path / "g.yaml"
    errors = _errors(tmp_path, base.replace("draw: winner_first", "draw: winer_first"))
    assert errors == [f"{g}:15:13: unknown draw 'winer_first': expected none or winner_first, "
                      "or the name of an option (did you mean 'winner_first'?)"]
    errors = _errors(tmp_path, base.replace("then: {stock_closed:", "then: {stock_closd:"))
    assert len(errors) == 1 and errors[0].startswith(f"{g}:21:31: unknown variable") \
        and "did you mean 'stock_closed'" in errors[0]


# ------------------------------------------------------------------ shared

def test_a_snapshot_without_the_new_keys_restores() -> None:
    # snapshots written before these phases existed lack their keys
    s = _stock_state()
    s.apply(s.legal_actions()[0])
    d = s.to_dict()
    for key in ("passing", "pattern", "pattern_seat", "meld_points", "stock_closed"):
        assert key in d
        del d[key]
    assert s.game.restore(d) == s


def test_shown_melds_stay_put_in_a_determinized_sample() -> None:
    s = _dealt(MELDS, {0: "KH QH KS QS AC KC QC 7H", 1: "JC JS JH JD 10D 9D 8D 7D"})
    for k in range(5):
        sample = s.determinize(1, random.Random(k))
        assert sample.hands[0] & s.known[0] == s.known[0]  # the shown cards are still there


MELDS_WITH_COPIES = """\
spelbok: 1
name: melds and copies
players: {min: 2, max: 2}
pack: {suits: [{letter: C, name: clubs, symbol: "C"}, {letter: D, name: diamonds, symbol: "D"}],
       ranks: [9, Q, A], copies: 2}
deck: [{ranks: [A, Q, 9]}]
melds:
  queen: {ranks: [Q], points: "1"}
  pair: {ranks: [Q, A], spread: every_suit, points: "10"}
  run: {run: 3, points: "100"}
variables: {hand_player: {n: 0}}
hand:
  - deal: {size: 6}
  - {declare_melds: {show: true}, label: melds}
  - {set: {n: meld_points}, for: "true"}
  - tricks: {}
end: {when: "true", winners: "true"}
"""


def test_melds_count_the_second_copy_of_a_card() -> None:
    # bug (found writing a double-pack game): the sets named only the first copies,
    # so a hand of second copies made no meld at all
    g = spelbok.load(MELDS_WITH_COPIES, players=2)
    hands = {0: "QC QD 9C 9D AC AD", 1: "QC QD 9C 9D AC AD"}
    st = g.new_state(seed=1, position={"phase": "melds", "hands": hands})
    st.legal_actions()
    # each seat: two queens, one pair of queens and aces, 9-Q-A runs in C and D
    assert st.var("n") == [2 + 10 + 200, 2 + 10 + 200]
    hands = {0: "QC QC QD QD AC AC", 1: "AD AD 9C 9C 9D 9D"}
    st = g.new_state(seed=1, position={"phase": "melds", "hands": hands})
    st.legal_actions()
    # seat 0: four queens, each copy a meld; no pair (no ace of diamonds)
    assert st.var("n") == [4, 0]
    assert sorted(st.view(1)["known_cards"][0]) == ["QC", "QC", "QD", "QD"]
