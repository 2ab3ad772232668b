"""``players.direction``: the turn goes to the left (seat + 1, the default) or to the
right (seat - 1), and every turn order follows it: forehand, the deal, decisions in
turn, an auction, each trick, the draw, the dealer's rotation and ``order``."""

from __future__ import annotations

import pytest
import spelbok
from spelbok.errors import SpecError
from spelbok.lang.describe import describe
from spelbok.lang.dsl import parse_dsl
from spelbok.lang.dslwrite import to_dsl
from spelbok.lang.loader import read_spec
from spelbok.lang.model import normalize
from spelbok.validation import validate
from spelbok.view.panel import panel
from spelbok.web.tableview import around

SPEC = """\
spelbok: 1
name: direction mini
players: {{min: 3, max: 4{direction}}}
deck:
  - ranks: [A, K, Q, J, 10, 9, 8, 7, 6, 5, 4, 3, 2]
dealer: {{first: 0{rotate}}}
variables:
  player: {{score: 0, ord: 0, asked: 0}}
  hand: {{asks: 0}}
hand:
  - set: {{ord: order}}
    for: "true"
  - deal: {{size: 2}}
  - decide: ready
    who: each
    choose: [yes]
    then: {{asks: "asks + 1", asked: asks}}
  - auction:
      contracts: [{{level: 1}}]
  - tricks: {{}}
  - set: {{score: "score + tricks"}}
    for: "true"
end: {{when: "hand_number >= 3", winners: "score == max(score)", score: score}}
"""


def spec(direction: str | None = None, rotate: str | None = None) -> str:
    return SPEC.format(direction=f", direction: {direction}" if direction else "",
                       rotate=f", rotate: {rotate}" if rotate else "")


def state(direction: str | None = None, rotate: str | None = None,
          players: int = 4) -> spelbok.State:
    return spelbok.load(spec(direction, rotate), players=players).new_state(seed=3)


def test_the_default_turns_left_and_leaves_the_canonical_tree_alone() -> None:
    tree = normalize({"spelbok": 1, "name": "x", "players": {"min": 2, "max": 4},
                      "deck": [{"ranks": ["A"]}], "hand": [{"end_hand": True}],
                      "end": {"when": True, "winners": True}})
    assert "direction" not in tree["players"]
    assert tree["dealer"]["rotate"] == "left"
    assert "direction" not in read_spec("hearts").tree["players"]


def test_turning_right_the_deal_and_the_first_bidder_follow() -> None:
    tree = normalize({"spelbok": 1, "name": "x",
                      "players": {"min": 2, "max": 4, "direction": "right"},
                      "deck": [{"ranks": ["A"]}],
                      "hand": [{"auction": {"contracts": [{"level": 1}]}}],
                      "end": {"when": True, "winners": True}})
    assert tree["players"]["direction"] == "right"
    assert tree["dealer"]["rotate"] == "right"
    assert tree["hand"][0]["auction"]["first"] == "(dealer + seats - 1) % seats"


@pytest.mark.parametrize(("direction", "ready", "bids", "trick", "order"), [
    (None, [1, 2, 3, 0], [1, 2, 3, 0], [1, 2, 3, 0], [4, 1, 2, 3]),
    ("right", [3, 2, 1, 0], [3, 2, 1, 0], [3, 2, 1, 0], [4, 3, 2, 1]),
])
def test_every_turn_order_goes_the_direction(direction: str | None, ready: list[int],
                                             bids: list[int], trick: list[int],
                                             order: list[int]) -> None:
    st = state(direction)
    assert st.dealer == 0
    assert st.var("ord") == order  # `order`: 1 for forehand ... n for the dealer
    asked = []
    while st.decision_name == "ready":
        asked.append(st.current_player)
        st.apply("yes")
    assert asked == ready
    assert st.var("asked") == [ready.index(p) + 1 for p in range(4)]
    bidders = [st.current_player]
    st.apply("bid 1")
    while st.decision_name == "bid":
        bidders.append(st.current_player)
        st.apply("pass")
    assert bidders == bids
    players = []
    assert st.current_player == trick[0]
    for _ in range(4):
        players.append(st.current_player)
        st.apply(st.legal_actions()[0])
    assert players == trick


@pytest.mark.parametrize(("direction", "rotate", "dealers"), [
    (None, None, [0, 1, 2]), ("right", None, [0, 3, 2]), ("right", "left", [0, 1, 2]),
    (None, "right", [0, 3, 2]),
])
def test_the_deal_passes_the_way_play_goes_unless_rotate_says(
        direction: str | None, rotate: str | None, dealers: list[int]) -> None:
    st = state(direction, rotate)
    seen = [st.dealer]
    hand = st.hand_number
    while not st.is_terminal:
        legal = st.legal_actions()
        st.apply(legal[-1] if st.decision_name == "bid" else legal[0])  # bid 1, not pass
        if st.hand_number != hand:
            hand = st.hand_number
            seen.append(st.dealer)
    assert seen == dealers


def test_the_next_trick_is_led_by_its_winner_and_goes_on_to_the_right() -> None:
    st = state("right", players=3)
    while st.decision_name == "bid":
        st.apply(st.legal_actions()[0])
    assert st.current_player == 2  # the dealer's right
    for _ in range(3):
        st.apply(st.legal_actions()[0])
    leader = st.current_player
    st.apply(st.legal_actions()[0])
    assert st.current_player == (leader - 1) % 3


def test_dsl_says_turning_to_the_right_and_reads_it_back() -> None:
    doc = spelbok.load(spec("right"), players=4).doc
    text = to_dsl(doc.tree)
    assert "players 3 to 4, turning to the right" in text
    assert "the deal passes to the right" in text
    assert "the first bidder is" not in text  # forehand turning right: the default
    assert normalize(parse_dsl(text, "t.spel")[0]) == doc.tree
    left = to_dsl(spelbok.load(spec(), players=4).doc.tree)
    assert "turning" not in left


def test_an_explicit_first_bidder_survives_the_dsl_either_way() -> None:
    tree = dict(spelbok.load(spec("right"), players=4).doc.tree)
    tree["hand"] = [dict(s) for s in tree["hand"]]
    auction = next(s for s in tree["hand"] if "auction" in s)
    auction["auction"] = dict(auction["auction"], first="(dealer + 1) % seats")
    assert normalize(parse_dsl(to_dsl(tree), "t.spel")[0])["hand"] == normalize(tree)["hand"]


def test_validate_names_an_unknown_direction_where_it_is() -> None:
    errors = validate(spec("upwards"))
    assert errors, "an unknown direction must be refused"
    text = " ".join(str(e) for e in errors)
    assert "direction" in text and ("left" in text and "right" in text)
    assert ":3:" in text  # the players line


def test_describe_says_which_way_play_goes() -> None:
    right = " ".join(describe(spelbok.load(spec("right"), players=4).doc).split())
    assert "play goes counter-clockwise (to the right)" in right
    assert "Forehand is the player to the dealer's right." in right
    assert "starting with the player right of the dealer" in right
    left = " ".join(describe(spelbok.load(spec(), players=4).doc).split())
    assert "play goes clockwise (to the left)" in left
    assert "Forehand is the player to the dealer's left." in left


def test_the_terminal_says_turning_right_and_the_table_seats_the_next_player_right() -> None:
    names = ["you", "P1", "P2", "P3"]
    assert "turning right" in " ".join(panel(state("right"), 0, names))
    assert "turning right" not in " ".join(panel(state(), 0, names))
    # seats sit as numbered whatever the direction: seat 1 at seat 0's left, so the
    # player after seat 0 is on its right when the game turns right
    sides = around(4, 0)
    assert sides["left"] == [1] and sides["right"] == [3]
    st = state("right")
    assert st.game.program.nxt[0] in sides["right"]


def test_shipped_games_turning_right() -> None:
    for name in ("briscola", "tute", "truco-mineiro", "french-tarot"):
        tree = read_spec(name).tree
        assert tree["players"]["direction"] == "right", name
        assert tree["dealer"]["rotate"] == "right", name


def test_a_bad_direction_is_refused_at_load() -> None:
    with pytest.raises(SpecError):
        spelbok.load(spec("sideways"), players=4)


def test_the_audit_counts_seats_after_the_first_dealer_the_way_the_turn_goes() -> None:
    from spelbok.analysis.audit_measures import AuditRecord, audit_measures
    from spelbok.analysis.sim_report import MatchRecord

    rec = MatchRecord.__new__(MatchRecord)
    object.__setattr__(rec, "winners", [3])
    object.__setattr__(rec, "scores", [0, 0, 0, 1])
    object.__setattr__(rec, "counts", {})
    measures = {m.key: m for m in audit_measures(
        [AuditRecord(rec, first_dealer=0, turn=-1)], 4)}
    assert measures["advantage.seat.1"].value == 1.0  # seat 3: next after seat 0, turning right
