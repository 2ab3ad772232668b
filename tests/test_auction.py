"""The auction step: bidding over ordered contracts, final passes, doubling, partners."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
import spelbok
from spelbok.analysis.conformance import check_game
from spelbok.analysis.simulate import simulate
from spelbok.engine.auction import declarer_side
from spelbok.engine.observe import observe
from spelbok.engine.snapshot import from_dict
from spelbok.errors import IllegalActionError, SpecError
from spelbok.lang.describe import describe
from spelbok.lang.dsl import parse_dsl
from spelbok.lang.dslwrite import to_dsl
from spelbok.lang.model import normalize
from spelbok.play.bots.greedy import GreedyBot
from spelbok.validation import validate

# a point-trick mini in the manner of a solo game: 6..10 tricks, a negative contract among them
AUCTION = """\
  - auction:
      contracts:
        - {level: 6, trump: H}
        - {level: 7, trump: chosen}
        - {name: misere, level: 7, aim: none, trump: none}
        - {level: 8, trump: chosen}
        - {level: 9}
        - {level: 10}
{extra}"""
SPEC = """\
spelbok: 1
name: auction mini
players: {{min: 4, max: 4}}
deck:
  - ranks: [A, K, Q, J, 10, 9, 8, 7, 6, 5, 4, 3, 2]
dealer: {{first: 0, rotate: none}}
variables:
  player: {{score: 0}}
  hand: {{name: "", level: 0, negative: false, who: -1, times: 0}}
hand:
  - deal: {{size: 13}}
{auction}  - set: {{name: contract, level: contract_level, negative: contract_negative,
           who: declarer_seat, times: doubled}}
  - tricks: {{}}
  - set:
      score: >-
        score + (if declarer_team then 1 else -1) * (1 + doubled) *
        (if (if contract_negative then sum(if declarer_team then tricks else 0) == 0
             else sum(if declarer_team then tricks else 0) >= contract_aim)
         then contract_level else 0 - contract_level)
    for: "true"
end: {{when: "hand_number >= 3", winners: "score == max(score)", score: score}}
"""


def spec(extra: str = "") -> str:
    """The mini spec, with ``extra`` lines (indented 6) added to its auction."""
    return SPEC.format(auction=AUCTION.replace("{extra}", extra))


def start(extra: str = "", seed: int = 1) -> spelbok.State:
    return spelbok.load(spec(extra)).new_state(seed=seed)


def play(st: spelbok.State, *actions: str) -> None:
    for a in actions:
        st.apply(a)


def test_bids_go_up_and_passes_are_final() -> None:
    st = start()
    assert st.current_player == 1 and st.decision_name == "bid"  # left of the dealer
    assert [str(a) for a in st.legal_actions()] == [
        "pass", "bid 6", "bid 7", "misere", "bid 8", "bid 9", "bid 10"]
    play(st, "bid 7")
    assert [str(a) for a in st.legal_actions()] == ["pass", "misere", "bid 8", "bid 9", "bid 10"]
    with pytest.raises(IllegalActionError, match="above the highest"):
        st.apply("bid 6")
    play(st, "pass", "misere", "pass")  # P2 passes, P3 says misère, P0 passes
    assert st.current_player == 1  # P2 passed for good: skipped
    play(st, "pass")  # only the highest bidder is left
    assert st.var("name") == "misere" and st.var("who") == 3 and st.var("negative") is True
    assert st.var("level") == 7 and st.trump_letter() == "none"
    assert st.phase.kind == "trick"


def test_a_contract_with_a_trump_sets_it_and_a_chosen_one_is_named() -> None:
    st = start()
    play(st, "bid 6", "pass", "pass", "pass")
    assert st.trump_letter() == "H" and st.var("name") == "6"
    st = start()
    play(st, "pass", "bid 8", "pass", "pass")
    assert st.current_player == 2 and st.decision_name == "trump"
    play(st, "trump S")
    assert st.trump_letter() == "S" and st.var("level") == 8


def test_passes_that_are_not_final_end_the_auction_after_a_round_of_passes() -> None:
    st = start("      pass_final: false\n")
    play(st, "bid 6", "pass", "pass", "bid 9", "pass", "bid 10")  # P2 bids again
    assert st.current_player == 3
    play(st, "pass", "pass", "pass")  # three passes after the last bid
    assert st.var("who") == 2 and st.var("name") == "10"


def test_all_pass_redeals_by_the_same_dealer() -> None:
    st = start()
    hand = st.hands[1]
    play(st, "pass", "pass", "pass", "pass")
    assert st.hands_played == 1 and st.hand_number == 1 and st.dealer == 0
    assert st.decision_name == "bid" and st.current_player == 1 and st.hands[1] != hand


def test_all_pass_steps_run_instead() -> None:
    st = start("      all_pass:\n        - set: {score: score - 5}\n          for: \"true\"\n"
               "        - end_hand: true\n")
    play(st, "pass", "pass", "pass", "pass")
    assert st.var("score") == [-5] * 4 and st.hand_number == 2


def test_doubling_and_redoubling() -> None:
    st = start("      double: true\n      redouble: true\n")
    play(st, "bid 6")
    assert "double" in [str(a) for a in st.legal_actions()]
    play(st, "double")
    assert "double" not in [str(a) for a in st.legal_actions()]  # P3: doubled already
    play(st, "pass", "pass")
    assert [str(a) for a in st.legal_actions()][-1] == "redouble"  # P1, the bidder
    play(st, "redouble", "pass")  # P2 passes; P1 is the last in
    assert st.var("times") == 2 and st.var("who") == 1
    st = start("      double: true\n")
    play(st, "bid 6", "double", "bid 7")  # a new bid is not doubled
    assert "double" in [str(a) for a in st.legal_actions()]
    play(st, "pass", "pass", "pass", "trump C")
    assert st.var("times") == 0
    assert "redouble" not in str(spelbok.load(spec("      double: true\n")).new_state(1)
                                 .legal_actions())


def test_a_called_card_makes_its_holder_the_secret_partner() -> None:
    st = start("      partner: called_card\n      called_ranks: [A, K]\n", seed=4)
    play(st, "bid 6", "pass", "pass", "pass")
    assert st.current_player == 1 and st.decision_name == "call"
    calls = [str(a) for a in st.legal_actions()]
    mine = st.hands[1]
    assert calls and all(a.split()[0] == "call" for a in calls)
    card = st.legal_actions()[0].value.bit_length() - 1
    assert not (mine >> card) & 1 and card % 13 in (11, 12)  # a K or an A not held
    play(st, calls[0])
    holder = next(p for p in range(4) if (st.hands[p] >> card) & 1)
    team = [p for p in range(4) if declarer_side(st, p, tuple(range(4)))]
    assert team == sorted({1, holder})
    # the holder's identity: known to the holder only, until the card is played
    for seat in range(4):
        assert st.view(seat)["auction"]["partner"] == (holder if seat == holder else None)
    assert st.view(0)["auction"]["called_card"] == calls[0].split()[1]
    while not any(c == card for _, c in st.trick.cards) and st.history_tricks == []:
        legal = st.legal_actions()
        pick = next((a for a in legal if a.card == card), legal[0])
        st.apply(pick)
    if any(c == card for _, c in st.trick.cards):
        assert all(st.view(seat)["auction"]["partner"] == holder for seat in range(4))


def test_teams_partner_and_bid_of() -> None:
    text = spec("      partner: teams\n      double: true\n").replace(
        "dealer: {first: 0", "teams: [[0, 2], [1, 3]]\ndealer: {first: 0").replace(
        "who: declarer_seat", "who: sum(if bid_of == 'misere' then seat else 0)")
    st = spelbok.load(text).new_state(seed=1)
    play(st, "misere")
    assert "double" not in [str(a) for a in st.legal_actions()] or st.current_player % 2 == 0
    play(st, "pass", "pass", "pass")  # P2 (an opponent) could double; did not
    assert st.var("who") == 1


def test_scoring_by_contract() -> None:
    # the score formula reads the contract's level, aim, negativity and doubling
    game = spelbok.load(spec("      double: true\n"))
    rng = random.Random(3)
    hands = 0
    for seed in range(4):
        st = game.new_state(seed=seed, record=True)
        while not st.is_terminal:
            st.apply(rng.choice(st.legal_actions()))
        scores = [0] * 4
        contract: dict[str, object] = {}
        for e in st.log:
            if e["event"] == "contract":
                contract = e
            elif e["event"] == "end_hand":
                d, k = contract["declarer"], contract["doubled"]
                name = str(contract["contract"])
                level = 7 if name == "misere" else int(name)
                made = e["tricks"][d] == 0 if name == "misere" else e["tricks"][d] >= level
                gain = level * (1 + k) * (1 if made else -1)  # type: ignore[operator]
                scores = [s + (gain if p == d else -gain) for p, s in enumerate(scores)]
                assert e["scores"] == scores
                hands += 1
    assert hands >= 4


def test_describe_says_the_contracts_and_rules() -> None:
    text = describe(spelbok.load(spec("      double: true\n      partner: called_card\n")).doc)
    assert "An auction, starting with the player left of the dealer" in text
    assert "misere (level 7): take no trick; no trump." in text
    assert "An opponent of the highest bidder may double." in text
    assert "its holder" in text and "If every player passes, the same dealer deals again." in text


def test_convert_round_trip() -> None:
    from spelbok.lang.yamlio import load_yaml

    extra = ("      double: true\n      pass_final: false\n      partner: called_card\n"
             "      called_ranks: [K]\n      first: dealer\n"
             "      all_pass:\n        - end_hand: true\n")
    tree = normalize(load_yaml(spec(extra), "a.yaml")[0])
    text = to_dsl(tree)
    assert "hold an auction" in text and "contract misere at level 7, aiming at no trick" in text
    assert normalize(parse_dsl(text, "a.spel")[0]) == tree


def test_located_errors() -> None:
    bad = spec().replace("{level: 8, trump: chosen}", "{level: 5, trump: chosen}")
    [e] = validate(bad)
    assert isinstance(e, SpecError) and "the contracts are not in order" in e.message
    assert (e.line, e.col) == (17, 19)  # at the level that falls
    bad = spec().replace("{level: 9}", "{level: 9, trump: hearts}")
    [e] = validate(bad)
    assert "unknown trump 'hearts'" in e.message and e.line == 18
    bad = spec().replace("{level: 9}", "{level: 9, name: pass}")
    assert "cannot be bid" in str(validate(bad)[0])
    bad = spec().replace("{level: 9}", "{level: 9, name: '09'}")
    assert "without leading zeros" in str(validate(bad)[0])
    bad = spec().replace("{level: 9}", "{level: 9, name: '²'}")
    assert "cannot be bid" in str(validate(bad)[0])
    bad = spec().replace("{level: 9}", "{level: 6}")
    assert "the contract '6' is listed twice" in str(validate(bad)[0])


def test_conformance() -> None:
    for extra in ("", "      double: true\n      redouble: true\n      partner: called_card\n",
                  "      pass_final: false\n"):
        rep = check_game(spelbok.load(spec(extra), max_hands=4), matches=6, seed=2,
                         deep_every=13)
        assert rep.ok, rep.failures


def test_random_playouts_through_simulate(tmp_path: Path) -> None:
    path = tmp_path / "auction.yaml"
    path.write_text(spec("      double: true\n      partner: called_card\n"), "utf-8")
    summary = simulate(str(path), games=4, bots=["random"], seed=1)
    assert sum(m.trials for m in summary.wins_by_seat()) == 16


def test_the_greedy_bot_bids_names_trump_and_calls() -> None:
    st = start("      partner: called_card\n", seed=2)
    bot = GreedyBot(seed=1, samples=2)
    kinds = set()
    while st.phase.kind != "trick":
        kinds.add(st.decision_name)
        st.apply(bot.choose(observe(st)))
    assert "bid" in kinds


def test_snapshot_mid_auction() -> None:
    game = spelbok.load(spec("      double: true\n"))
    st = game.new_state(seed=5)
    play(st, "bid 6", "double")
    back = from_dict(game, st.to_dict())
    assert back.legal_actions() == st.legal_actions() and back.auction == st.auction


def test_conformance_over_the_twin_specs() -> None:
    # the YAML and DSL twins of tests/test_dsl.py: a conditional pass rule, all-pass steps
    here = Path(__file__).resolve().parent / "specs"
    for name in ("auction_mini.yaml", "auction_mini.spel"):
        rep = check_game(spelbok.load(here / name, max_hands=4), matches=4, seed=7,
                         deep_every=17)
        assert rep.ok, rep.failures


def test_the_contracts_are_bounded() -> None:
    from spelbok.limits import MAX_CHOICES

    many = "".join(f"        - {{level: 10, name: c{i}}}\n" for i in range(MAX_CHOICES))
    [e] = validate(spec().replace("        - {level: 10}\n", many))
    assert f"at most {MAX_CHOICES} contracts" in e.message and e.line == 14
