"""The auction's rules of speaking and declaring: ``speak: once``, the holder's right
(``hold: elder``), a contract's ``allow`` condition and ``declarer: first_to_name``.

Each test plays the same bids with and without the rule, so it fails without it.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import spelbok
from spelbok.errors import IllegalActionError, SnapshotError
from spelbok.lang.describe import describe
from spelbok.lang.dsl import parse_dsl
from spelbok.lang.dslwrite import to_dsl
from spelbok.lang.model import normalize
from spelbok.lang.yamlio import load_yaml
from spelbok.validation import validate

from tests.test_auction import play, spec, start

ROOT = Path(__file__).resolve().parent.parent


def legal(st: spelbok.State) -> list[str]:
    return [str(a) for a in st.legal_actions()]


# ------------------------------------------------------------------ speak: once


def test_a_player_outbid_bids_again_unless_each_speaks_once() -> None:
    st = start()
    play(st, "bid 6", "bid 7", "pass", "pass")
    assert st.decision_name == "bid" and st.current_player == 1  # asked again
    st = start("      speak: once\n")
    play(st, "bid 6", "bid 7", "pass", "pass")  # each has spoken: P2 declares
    assert st.decision_name == "trump" and st.current_player == 2


def test_speaking_once_still_lets_a_later_player_overbid() -> None:
    st = start("      speak: once\n")
    play(st, "bid 6", "pass", "bid 8")
    assert st.current_player == 0 and legal(st) == ["pass", "bid 9", "bid 10"]
    play(st, "pass")
    assert st.decision_name == "trump" and st.current_player == 3


# ------------------------------------------------------------------ hold: elder


def test_the_holder_answers_hold_or_pass_and_keeps_an_equal_bid() -> None:
    st = start()
    assert st.current_player == 1  # in turn from the first bidder
    st = start("      hold: elder\n")
    assert st.current_player == 2  # the next one bids to the eldest (P1)
    play(st, "bid 6")
    assert st.current_player == 1 and legal(st) == ["pass", "hold"]
    with pytest.raises(IllegalActionError, match="hold or pass"):
        st.apply("bid 7")
    play(st, "hold")
    assert st.current_player == 2 and "bid 6" not in legal(st) and "hold" not in legal(st)
    play(st, "bid 7", "pass")  # P1 gives up: P3 bids to P2, from above 7
    assert st.current_player == 3 and legal(st)[:2] == ["pass", "misere"]
    play(st, "pass", "pass")  # P3, then P0: P2 is left
    assert st.decision_name == "trump" and st.current_player == 2


def test_a_hold_makes_the_holder_the_declarer() -> None:
    st = start("      hold: elder\n")
    play(st, "bid 6", "hold", "pass", "pass", "pass")
    assert st.var("who") == 1 and st.var("name") == "6" and st.trump_letter() == "H"


def test_a_holder_left_alone_with_nothing_bid_may_bid_or_pass() -> None:
    st = start("      hold: elder\n")
    play(st, "pass", "pass", "pass")
    assert st.current_player == 1 and legal(st)[:2] == ["pass", "bid 6"]
    play(st, "bid 9")
    assert st.var("who") == 1 and st.var("name") == "9"
    st = start("      hold: elder\n")
    play(st, "pass", "pass", "pass", "pass")  # all passed: the same dealer deals again
    assert st.hands_played == 1 and st.current_player == 2


def test_hold_is_not_a_call_without_the_holders_right() -> None:
    st = start()
    play(st, "bid 6")
    with pytest.raises(IllegalActionError, match="only a player before the highest bidder"):
        st.apply("hold")


def test_in_turn_an_earlier_player_may_hold_a_later_ones_bid() -> None:
    st = start()
    play(st, "bid 6", "bid 7", "pass", "pass")
    assert "hold" not in legal(st)  # P1 must go higher
    st = start("      hold: in_turn\n")
    play(st, "bid 6")
    assert "hold" not in legal(st)  # P2 comes after the highest bidder
    play(st, "bid 7", "pass", "pass")
    assert st.current_player == 1 and legal(st)[:3] == ["pass", "hold", "misere"]
    play(st, "hold")
    assert st.current_player == 2 and "hold" not in legal(st) and "misere" in legal(st)
    play(st, "pass")
    assert st.decision_name == "trump" and st.current_player == 1  # P1 plays the 7


# ------------------------------------------------------------------ allow


def test_a_contract_is_offered_only_while_its_condition_holds() -> None:
    st = start()
    assert "bid 10" in legal(st)
    st = spelbok.load(spec().replace("{level: 10}", "{level: 10, allow: \"contract_level >= 8\"}")
                      ).new_state(1)
    assert "bid 10" not in legal(st) and "bid 9" in legal(st)
    with pytest.raises(IllegalActionError, match="condition is false"):
        st.apply("bid 10")
    play(st, "bid 8")
    assert legal(st)[-2:] == ["bid 9", "bid 10"]


def test_allow_reads_the_bidder() -> None:
    text = spec().replace("{level: 10}", "{level: 10, allow: \"seat == 3\"}")
    st = spelbok.load(text).new_state(1)
    assert "bid 10" not in legal(st)  # P1
    play(st, "pass", "pass")
    assert "bid 10" in legal(st)  # P3


# ------------------------------------------------------------------ declarer: first_to_name


def _bridge(first_to_name: bool) -> spelbok.Game:
    text = (ROOT / "specs" / "bridge.yaml").read_text("utf-8")
    if not first_to_name:
        text = text.replace("      declarer: first_to_name\n", "")
    return spelbok.load(text)


@pytest.mark.parametrize(("calls", "first", "highest"), [
    (["one_heart", "pass", "two_hearts", "pass", "pass", "pass"], 0, 2),  # a raise
    (["one_heart", "pass", "two_spades", "pass", "pass", "pass"], 2, 2),  # a new strain
    (["one_heart", "two_hearts", "pass", "three_hearts", "pass", "pass", "pass"], 1, 3),
])
def test_the_declarer_is_the_first_of_the_side_to_name_the_strain(
        calls: list[str], first: int, highest: int) -> None:
    for rule, declarer in ((True, first), (False, highest)):
        st = _bridge(rule).new_state(seed=1, record=True)
        play(st, *calls)
        [e] = [e for e in st.log if e["event"] == "contract"]
        assert e["declarer"] == declarer and st.view(0)["auction"]["declarer"] == declarer
        assert st.current_player == (declarer + 1) % 4  # the declarer's left leads


# ------------------------------------------------------------------ the surfaces

EVERY = ("      speak: once\n      declarer: first_to_name\n")


def test_yaml_and_dsl_round_trip_every_rule() -> None:
    for extra in (EVERY, "      hold: elder\n      speak: any\n      declarer: highest\n",
                  "      hold: in_turn\n"):
        text = spec(extra).replace("{level: 10}", "{level: 10, allow: \"contract_level >= 8\"}")
        tree = normalize(load_yaml(text, "a.yaml")[0])
        dsl = to_dsl(tree)
        assert "contract at level 10, only if contract_level >= 8" in dsl
        assert normalize(parse_dsl(dsl, "a.spel")[0]) == tree
    dsl = to_dsl(normalize(load_yaml(spec(EVERY), "a.yaml")[0]))
    assert "each player speaks once" in dsl
    assert "the declarer is the first of the side to name the trump" in dsl
    dsl = to_dsl(normalize(load_yaml(spec("      hold: elder\n"), "a.yaml")[0]))
    assert "the elder player may hold" in dsl


def test_the_dsl_reads_the_defaults_said_aloud() -> None:
    dsl = to_dsl(normalize(load_yaml(spec(), "a.yaml")[0]))
    said = dsl.replace("hold an auction\n", "hold an auction\n        a player may speak again\n"
                       "        no player may hold\n"
                       "        the declarer is the highest bidder\n")
    tree = parse_dsl(said, "a.spel")[0]
    auction = next(s["auction"] for s in tree["hand"] if "auction" in s)
    assert (auction["speak"], auction["hold"], auction["declarer"]) == ("any", "none", "highest")


def test_validate_locates_rules_that_cannot_go_together() -> None:
    for extra, key in (("      hold: elder\n      speak: once\n", "speak"),
                       ("      hold: elder\n      pass_final: false\n", "pass_final"),
                       ("      hold: elder\n      double: true\n", "double"),
                       ("      speak: once\n      pass_final: false\n", "pass_final"),
                       ("      speak: once\n      hold: in_turn\n", "hold")):
        text = spec(extra)
        [e] = validate(text)
        line = text.splitlines().index(next(x for x in text.splitlines()
                                            if x.strip().startswith(key + ":"))) + 1
        assert e.line == line and "cannot go with" in e.message, (extra, e)


def test_validate_refuses_a_contract_named_hold_and_a_bad_allow() -> None:
    [e] = validate(spec().replace("{level: 9}", "{level: 9, name: hold}"))
    assert "cannot be bid" in e.message and "hold" in e.message
    [e] = validate(spec().replace("{level: 9}", "{level: 9, allow: \"levle > 2\"}"))
    assert e.line == 18 and "levle" in e.message
    errors = validate(spec("      speak: twice\n"))
    assert errors and errors[0].line == 20 and "twice" in str(errors[0])


def test_describe_says_each_rule_and_speaks_contract_labels() -> None:
    text = describe(spelbok.load(spec(EVERY).replace(
        "{level: 10}", "{level: 10, allow: \"contract_level >= 8\"}")).doc)
    assert "Each player speaks once" in text and "first player of the highest bidder's side" \
        in text
    assert "- 10 (level 10): take 10 tricks; trump unchanged; only when `contract_level >= 8`." \
        in text
    text = describe(spelbok.load(spec("      hold: elder\n")).doc)
    assert "An auction in duels" in text and "says hold" in text
    text = describe(spelbok.load(spec("      hold: in_turn\n")).doc)
    assert "A player before the highest bidder (counted from the first bidder) may" in text
    tarot = describe(spelbok.load("french-tarot").doc)
    assert "- garde sans (level 4)" in tarot and "garde_sans (level" not in tarot


# ------------------------------------------------------------------ actions, screens, snapshots


def test_the_action_space_numbers_hold_only_where_it_is_offered() -> None:
    pytest.importorskip("numpy")
    from spelbok.rl.encoding import Encoding

    assert "hold" in Encoding(spelbok.load(spec("      hold: elder\n"))).labels
    assert "hold" not in Encoding(spelbok.load(spec())).labels
    assert "hold" in Encoding(spelbok.load("skat")).labels


def test_the_terminal_and_the_web_table_offer_hold() -> None:
    from spelbok.cli.prompt import _menu

    st = start("      hold: elder\n")
    play(st, "bid 6")
    assert [str(a) for a in _menu(st.legal_actions(), st.game, None)] == ["pass", "hold"]
    pytest.importorskip("starlette")
    from spelbok.web.sessions import table

    t = table(st, 1, ["a", "b", "c", "d"], to_act=True, log_viewer=1)
    assert [a["text"] for a in t["actions"]] == ["pass", "hold"]


def test_a_snapshot_made_before_the_rules_changed_is_refused() -> None:
    """A Skat match saved when its auction went round in turn cannot be read under the
    holder's right: the replay refuses it, it is not misread."""
    old = (ROOT / "specs" / "skat.yaml").read_text("utf-8").replace("      hold: elder\n", "")
    st = spelbok.load(old).new_state(seed=3)
    play(st, "bid 18", "bid 20")  # forehand, then middlehand, in turn
    with pytest.raises(SnapshotError, match="cannot be replayed"):
        spelbok.load("skat").restore(st.to_dict())


def test_an_openspiel_state_saved_under_another_numbering_is_refused() -> None:
    pytest.importorskip("pyspiel")
    import pickle

    import pyspiel
    from spelbok.rl import openspiel

    name = openspiel.register("skat")
    game = pyspiel.load_game(name, {"max_hands": 1})
    state = game.new_initial_state()
    state.apply_seed(7)
    state.apply_action(state.legal_actions()[0])
    data = pickle.dumps(state._m)
    assert pickle.loads(data).st.actions == state._m.st.actions  # the same numbering: read
    rules = next(r for r in openspiel._RULES.values() if r.enc is state._m.enc)
    with pytest.raises(SnapshotError, match="another numbering"):
        openspiel._restore_match(rules, state._m.st.to_dict(), (0, 0, 0, None, "0" * 16))
