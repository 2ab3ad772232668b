"""Cards as values in formulas: the card and card-set types, their built-ins and functions."""

from __future__ import annotations

from typing import Any

import pytest
import spelbok
from spelbok.cards import card_id
from spelbok.errors import FormulaError, SpecError
from spelbok.formula import DictResolver, compile_formula

from tests.minispec import HEAD, mini

VARS = "variables:\n  player: {n: 0, held: false, top: x, low: x, hearts: 0}\nhand:\n"
SET = ("  - deal: {size: 5}\n"
       "  - set: {n: \"count(trumps(hand))\", held: \"holds('AH')\", "
       "top: \"rank_of(highest(hand))\", low: \"suit_of(lowest(hand))\", "
       "hearts: \"count(cards_of(hand, 'H'))\"}\n"
       "    for: true\n"
       "  - tricks: {}\n")


def with_vars(steps: str) -> str:
    return mini(steps).replace("hand:\n", VARS, 1)


def state(spec: str, position: dict[str, Any] | None = None, seed: int = 1) -> spelbok.State:
    return spelbok.load(spec, players=2).new_state(seed=seed, position=position)


def test_a_set_step_reads_the_seat_s_hand() -> None:
    st = state(with_vars(SET).replace("  - set:", "  - set: {trump: \"'S'\"}\n  - set:"))
    hands = [{c for c in range(52) if h >> c & 1} for h in st.hands]
    assert st.var("n") == [sum(1 for c in h if c // 13 == 1) for h in hands]
    assert st.var("held") == [card_id("AH") in h for h in hands]
    assert st.var("hearts") == [sum(1 for c in h if c // 13 == 2) for h in hands]
    for p, h in enumerate(hands):
        # highest: trumps (spades) above the rest, then by rank
        assert st.var("top")[p] in ("A", "K", "Q", "J", "10", "9", "8", "7")
        if any(c // 13 == 1 for c in h):
            best = max((c for c in h if c // 13 == 1), key=lambda c: c % 13)
            assert st.var("top")[p] == spelbok.cards.RANKS[best % 13]


def test_highest_and_lowest_follow_the_trick_order() -> None:
    spec = with_vars("  - deal: {size: 4}\n  - tricks:\n      count: 1\n      after_each:\n"
                     + "\n".join("        " + line for line in SET.splitlines()[1:-1]) + "\n")
    st = state(spec, {"trump": "C", "leader": 0, "hands": {0: "AH 7C KS 8H", 1: "8D 9D 10D 7H"}})
    st.apply("8H")
    st.apply("7H")
    assert st.var("top") == ["7", "10"]  # the trump 7C is above AH; then the rank order
    assert st.var("low") == ["S", "D"]
    assert st.var("n") == [1, 0] and st.var("held") == [True, False]
    assert st.var("hearts") == [1, 0]


ALLOW = HEAD.replace("ranks: [A, K, Q, J, 10, 9, 8, 7]", "ranks: [A, K, Q, J, 10, 9, 8, 7, 6, 5, 4, 3, 2]") + (
    "  - deal: {size: 3}\n"
    "  - tricks: {allow: \"not (count(trumps(hand)) > 0 and led_suit == 'none') "
    "or card == highest(trumps(hand))\", reason: \"lead your highest trump\"}\n"
    'end: {when: "hand_number >= 1", winners: "true"}\n')


def test_allow_must_lead_the_highest_trump() -> None:
    st = state(ALLOW, {"trump": "S", "leader": 1, "hands": {0: "AH 3H 2C", 1: "QS 9S 2H"}})
    assert [str(a) for a in st.legal_actions()] == ["QS"]
    with pytest.raises(spelbok.IllegalActionError, match="lead your highest trump"):
        st.clone().apply("2H")
    st.apply("QS")
    assert sorted(str(a) for a in st.legal_actions()) == ["2C", "3H", "AH"]  # no trump: free
    # without a trump in hand, any card may be led
    st = state(ALLOW, {"trump": "S", "leader": 1, "hands": {0: "AH 3H 2C", 1: "QD 9C 2H"}})
    assert sorted(str(a) for a in st.legal_actions()) == ["2H", "9C", "QD"]


def test_card_properties_and_card_literals_in_allow() -> None:
    spec = ALLOW.replace(
        "not (count(trumps(hand)) > 0 and led_suit == 'none') or card == highest(trumps(hand))",
        "card != 'AH' and (suit_of(card) != 'C' or is_trump(card)) and rank_of(card) != '3'")
    st = state(spec, {"trump": "C", "leader": 0, "hands": {0: "AH 3H 2C 4D", 1: "QD 9C 2H 5S"}})
    assert sorted(str(a) for a in st.legal_actions()) == ["2C", "4D"]
    st = state(spec, {"trump": "H", "leader": 0, "hands": {0: "AH 3H 2C 4D", 1: "QD 9C 2H 5S"}})
    assert sorted(str(a) for a in st.legal_actions()) == ["4D"]


def test_the_trick_so_far_as_a_card_set() -> None:
    # the second player must play a card higher than every card of the trick, if he can
    spec = ALLOW.replace(
        "not (count(trumps(hand)) > 0 and led_suit == 'none') or card == highest(trumps(hand))",
        "count(trick) == 0 or card == highest(hand)")
    st = state(spec, {"trump": "none", "leader": 0, "hands": {0: "5H 3C 4C", 1: "QH 9H 2D"}})
    assert len(st.legal_actions()) == 3  # an empty trick: any lead
    st.apply("5H")
    assert [str(a) for a in st.legal_actions()] == ["QH"]


def error_of(spec: str) -> SpecError:
    with pytest.raises(SpecError) as info:
        spelbok.load(spec, players=2)
    return info.value


def test_card_literals_are_checked_against_the_deck() -> None:
    err = error_of(with_vars(SET.replace("holds('AH')", "holds('2H')")))
    assert "the card 2H is not in this game's deck" in str(err)
    assert str(err).startswith("<spec>:11:50: ")
    err = error_of(with_vars(SET.replace("holds('AH')", "holds('XH')")))
    assert "'XH' is not a card" in str(err)


def test_type_errors_are_located() -> None:
    err = error_of(with_vars(SET.replace("count(trumps(hand))", "count(hand) + hand")))
    assert "cannot add an int and a set of cards" in str(err)
    assert str(err).startswith("<spec>:11:27: ")
    err = error_of(with_vars(SET.replace("count(trumps(hand))", "rank_of(hand) == 'A'")))
    assert "rank_of() needs a card, got a set of cards" in str(err)
    err = error_of(with_vars(SET.replace("count(cards_of(hand, 'H'))",
                                         "count(cards_of(hand, 'X'))")))
    assert "'X' is not a suit" in str(err)


def test_card_functions_need_a_game() -> None:
    r = DictResolver(2, {})
    with pytest.raises(FormulaError, match="reads cards"):
        compile_formula("rank_of(highest(trumps(x)))", r, per_player=False)


def test_count_keeps_counting_seats() -> None:
    st = state(with_vars(SET.replace('hearts: "count(cards_of(hand, \'H\'))"',
                                     'hearts: "count(count(hand) > 0)"')))
    assert st.var("hearts") == [2, 2]


def test_nested_counts_compile_in_linear_time() -> None:
    r = DictResolver(2, {"x": 1})
    text = "count(" * 12 + "x > 0" + " ) > 0" * 11 + ")"
    assert compile_formula(text, r, per_player=False).fn(None, 0) == 2


def test_count_of_a_seat_s_cards_outside_a_per_player_rule_says_so() -> None:
    err = error_of(mini("  - deal: {size: 5}\n  - if: \"count(hand) > 2\"\n    then: []\n"
                        "  - tricks: {}\n"))
    assert str(err).startswith("<spec>:9:16: 'hand' is a per-player value: count() of its "
                               "cards needs a seat")
    spelbok.load(mini("  - deal: {size: 5}\n  - if: \"sum(count(hand)) == 10\"\n    then: []\n"
                      "  - tricks: {}\n"))


def test_the_turn_up_and_the_widow_as_card_sets() -> None:
    spec = mini("  - deal: {size: 5, widow: 3}\n  - turn_up: {}\n"
                "  - set: {up: \"rank_of(highest(turn_up_cards))\", w: \"count(widow)\", "
                "t: \"count(trumps(turn_up_cards)) == 1 and count(cards_of(turn_up_cards, "
                "trump)) == 1\"}\n"
                "  - tricks: {}\n").replace("hand:\n", "variables:\n  hand: {up: x, w: 0, "
                                            "t: false}\nhand:\n", 1)
    st = state(spec)
    [up] = st.turn_up
    assert st.var("up") == spelbok.cards.RANKS[up % 13]
    assert st.var("w") == 3 and st.var("t") is True


def test_card_is_read_only_in_a_trick_s_allow() -> None:
    err = error_of(with_vars(SET.replace("count(trumps(hand))", "count(trumps(hand)) + "
                                         "(if card == 'AH' then 1 else 0)")))
    assert "'card' has a value only while a trick is played" in str(err)


class Tables:
    """The tables of spelbok.engine.order for hearts as trumps, in a 52-card deck."""

    def __init__(self) -> None:
        from spelbok.engine.order import build_tables
        ranks = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"]
        self.tables = build_tables((1 << 52) - 1, ranks, [], False)[2]


def card_resolver() -> DictResolver:
    from spelbok.formula import CardContext, NameInfo
    return DictResolver(2, {
        "hand": NameInfo("player", lambda st, p: st.hands[p], "cards"),
        "empty": NameInfo("global", lambda st: 0, "cards"),
    }, CardContext(lambda st: st.tables, (1 << 52) - 1))


def run(text: str, hands: list[str], seat: int = 0) -> Any:
    st = Tables()
    st.hands = [sum(1 << card_id(c) for c in h.split()) for h in hands]  # type: ignore[attr-defined]
    return compile_formula(text, card_resolver(), per_player=True).fn(st, seat)


def test_the_card_functions_over_a_resolver() -> None:
    hands = ["KC KS 2H 9D", "AC"]
    assert run("rank_of(highest(hand))", hands) == "2"  # the only trump
    assert run("suit_of(highest(cards_of(hand, 'C')))", hands) == "C"
    # a tie in power (KC, KS): the lower card id
    assert run("suit_of(highest(hand))", ["KC KS 9D"]) == "C"
    assert run("suit_of(lowest(hand))", ["KC KS 9D"]) == "D"
    assert run("rank_of(highest(empty)) == 'none' and suit_of(lowest(empty)) == 'none' "
               "and not is_trump(highest(empty)) and not holds(highest(empty))", hands) is True
    assert run("holds(highest(hand)) and holds('9D') and not holds('AC')", hands) is True
    assert run("count(hand) * 10 + count(trumps(hand))", hands) == 41
    assert run("sum(count(hand))", hands) == 5
    assert run("count(cards_of(hand, suit_of(lowest(hand))))", hands) == 1


def test_card_types_are_checked() -> None:
    r = card_resolver()
    for text, message in (
        ("hand == 1", "cannot compare a set of cards with an int"),
        ("highest(hand) + 1", "cannot add a card and an int"),
        ("count(highest(hand))", "count() needs a condition (true or false) or a set of cards, got a card"),
        ("holds(hand)", "holds() needs a card, got a set of cards"),
        ("cards_of(hand, 1)", "cards_of() needs a text (str), got an int"),
        ("cards_of(hand)", "cards_of takes 2 arguments, got 1"),
        ("highest(hand) == 'ZZ'", "'ZZ' is not a card"),
    ):
        with pytest.raises(FormulaError, match=message.replace("(", r"\(").replace(")", r"\)")):
            compile_formula(text, r, per_player=True)


def test_where_filters_a_card_set_by_each_card() -> None:
    hands = ["KC KS 2H 9D 3H", "AC"]  # hearts are trumps (see Tables)
    assert run("count(hand where card_is_trump)", hands) == 2
    assert run("count(hand where card_suit == 'C' or card_rank == '3')", hands) == 2
    assert run("count(hand where not card_is_trump and card_rank != 'K')", hands) == 1
    assert run("rank_of(highest(hand where card_suit != 'H'))", hands) == "K"
    assert run("count(hand where count(hand) > 4)", hands) == 5  # the same for each card
    assert run("count(hand where card_suit == suit_of(lowest(hand where card_is_trump)))",
               hands) == 2  # a nested where reads its own cards


def test_where_conditions_are_checked() -> None:
    r = card_resolver()
    for text, message in (
        ("count(hand where card_rank > '3')", "in a 'where' condition, card_suit"),
        ("count(hand where card_suit == 'X')", "'X' is not a suit"),
        ("count(hand where card_rank == 'Ace')", "'Ace' is not a rank"),
        ("count(hand where 1)", "'where' needs a condition (true or false), got an int"),
        ("count(3 where true)", "'where' needs a set of cards, got an int"),
        ("hand where card_is_trump", "a card set's '… where …' goes in parentheses"),
    ):
        with pytest.raises(FormulaError, match=message.replace("(", r"\(").replace(")", r"\)")):
            compile_formula(text, r, per_player=True)


def test_where_in_a_spec_and_its_dsl() -> None:
    spec = ALLOW.replace("count(trumps(hand))", "count(hand where card_is_trump)")
    st = state(spec, {"trump": "S", "leader": 1, "hands": {0: "AH 3H 2C", 1: "QS 9S 2H"}})
    assert [str(a) for a in st.legal_actions()] == ["QS"]
    # the card names inside 'where' read each card, in any step (not only a trick's allow)
    spelbok.load(with_vars(SET.replace("count(trumps(hand))", "count(hand where card_is_trump)")))


def test_where_survives_the_dsl_round_trip(tmp_path: Any) -> None:
    from spelbok.lang.dslwrite import to_dsl
    spec = with_vars(SET.replace("count(trumps(hand))", "count(hand where card_is_trump)")
                     .replace("    for: true", "    for: count(hand where card_suit == 'H') > 0"))
    tree = spelbok.load(spec).tree
    text = to_dsl(tree)
    assert "for each player where count(hand where card_suit == 'H') > 0, set:" in text
    path = tmp_path / "where.spel"
    path.write_text(text, "utf-8")
    assert spelbok.load(str(path)).tree == tree


CONFORM = HEAD.replace("hand:\n", "variables:\n  player: {score: 0}\nhand:\n", 1) + (
    "  - deal: {size: 5}\n"
    "  - turn_up: {}\n"
    "  - tricks:\n"
    "      allow: \"not (count(hand where card_is_trump) > 0 and led_suit == 'none') "
    "or card == highest(hand where card_is_trump)\"\n"
    "      after_each:\n"
    "        - set: {score: \"score + count(trick where card_is_trump)\"}\n"
    "          for: \"holds(highest(hand)) or count(hand) == 0\"\n"
    'end: {when: "hand_number >= 3", winners: "score == max(score)"}\n')


@pytest.mark.parametrize("players", [2, 4])
def test_a_spec_with_card_values_conforms(players: int) -> None:
    from spelbok.analysis.conformance import check_game
    rep = check_game(spelbok.load(CONFORM, players=players), matches=15, seed=players)
    assert rep.ok, rep.failures


def test_the_names_a_where_reads_are_the_allow_s_card_names() -> None:
    from spelbok.formula import FILTER_NAMES
    from spelbok.lang import vocabulary as v
    card_names = {b.name: b for b in v.BUILTINS if b.scope == "card" and b.name.startswith("card_")}
    assert set(FILTER_NAMES) == set(card_names)
    assert {card_names[n].type for n in FILTER_NAMES} == {"suit", "rank", "bool"}


@pytest.mark.parametrize("name", ["led_card", "winning_card"])
def test_the_led_and_the_winning_card(name: str) -> None:
    # "play a card of the rank led, if you can" (no heart in hand: following suit is no duty)
    spec = ALLOW.replace(
        "not (count(trumps(hand)) > 0 and led_suit == 'none') or card == highest(trumps(hand))",
        f"rank_of({name}) == 'none' or card_rank == rank_of({name}) "
        f"or count(hand where card_rank == rank_of({name})) == 0")
    st = state(spec, {"trump": "none", "leader": 0, "hands": {0: "5H 3C 4C", 1: "5C 9D 2D"}})
    assert len(st.legal_actions()) == 3
    st.apply("5H")
    assert [str(a) for a in st.legal_actions()] == ["5C"]
