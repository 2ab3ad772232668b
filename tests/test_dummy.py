"""A dummy (``tricks.dummy``, ``dummy_by``; Bridge's): its hand shown after the opening
lead, its cards chosen by the declarer, in every interface that asks a seat to act
(the state, bots, the terminal's table, the browser's table, the game-AI adapters),
and old snapshots of Bridge refused."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
import spelbok
from spelbok.engine.dummy import hand_seat
from spelbok.engine.observe import observe
from spelbok.errors import SnapshotError, SpecError
from spelbok.lang.dsl import parse_dsl
from spelbok.lang.dslwrite import to_dsl
from spelbok.play.bots import make_bot
from spelbok.view.panel import panel

ROOT = Path(__file__).resolve().parent.parent


def _at_dummy_turn(seed: int = 1) -> tuple[spelbok.State, int, int]:
    """Bridge after one club by the dealer, three passes and the opening lead: the
    dummy's turn.  Returns the state, the declarer and the dummy."""
    st = spelbok.load("bridge", players=4).new_state(seed=seed)
    declarer = st.dealer
    for call in ("one_club", "pass", "pass", "pass"):
        st.apply(call)
    st.apply(st.legal_actions()[0])
    return st, declarer, (declarer + 2) % 4


def test_the_declarer_acts_with_the_dummys_cards() -> None:
    st, declarer, dummy = _at_dummy_turn()
    assert st.current_player == declarer and hand_seat(st) == dummy
    assert {str(a) for a in st.legal_actions()} <= set(st.view(dummy)["hand"])
    assert st.view(declarer).get("legal_actions") == [str(a) for a in st.legal_actions()]
    with pytest.raises(spelbok.IllegalActionError, match="hand you play now"):
        st.apply(st.view(declarer)["hand"][0])


def test_a_clone_and_a_snapshot_keep_the_dummy() -> None:
    st, declarer, dummy = _at_dummy_turn()
    again = st.game.restore(st.to_dict())
    assert again.current_player == declarer
    assert again.view(1 - declarer % 2)["known_cards"][dummy] == st.view(dummy)["hand"]
    assert st.clone().legal_actions() == st.legal_actions()


def test_an_old_bridge_snapshot_is_refused() -> None:
    """A snapshot of the old spec (the dummy shown by melds after the first trick, and
    playing its own cards) cannot be replayed by the new rules: it is refused."""
    import subprocess

    old = subprocess.run(["git", "show", "abea6f5:specs/bridge.yaml"], cwd=ROOT,
                         capture_output=True, text=True)
    if old.returncode != 0:
        pytest.skip("no git history here")
    game_old = spelbok.load(old.stdout, players=4)
    st = game_old.new_state(seed=1)
    for call in ("one_club", "pass", "pass", "pass"):
        st.apply(call)
    for _ in range(5):  # the first trick and a card of the second: melds declared
        st.apply(st.legal_actions()[0])
    with pytest.raises(SnapshotError):
        spelbok.load("bridge", players=4).restore(st.to_dict())


def test_bots_choose_the_dummys_card_for_the_declarer() -> None:
    for name in ("random", "greedy", "ismcts"):
        st, _, _ = _at_dummy_turn()
        bot = make_bot(name, seed=1)
        a = bot.choose(observe(st))
        assert a in st.legal_actions(), name


def test_the_terminal_table_shows_the_dummy_and_whose_cards_are_played() -> None:
    st, declarer, dummy = _at_dummy_turn()
    names = [f"P{p}" for p in range(4)]
    lines = panel(st, declarer, names)
    assert any(line.startswith(f"  P{dummy} shows") for line in lines)
    assert any(f"P{dummy}'s card" in line for line in lines)


def test_the_rl_adapters_ask_the_declarer_with_the_dummys_cards() -> None:
    pytest.importorskip("numpy")
    from spelbok.rl.encoding import Encoding, Match

    st, declarer, dummy = _at_dummy_turn()
    enc = Encoding(st.game)
    m = Match(enc, st)
    assert sorted(enc.labels[i] for i in m.legal()) == sorted(str(a) for a in st.legal_actions())
    pyspiel = pytest.importorskip("pyspiel")
    from spelbok.rl.openspiel import register

    register("bridge")
    os_st = pyspiel.load_game("spelbok_bridge", {"players": 4, "max_hands": 1}).new_initial_state()
    rng = random.Random(3)
    seen = 0
    while not os_st.is_terminal() and seen < 5:
        if os_st.is_chance_node():
            os_st.apply_action(os_st.chance_outcomes()[0][0])
            continue
        inner = os_st.match.st
        if hand_seat(inner) != inner.current_player:
            seen += 1
            assert os_st.current_player() == inner.current_player != hand_seat(inner)
            hand = set(inner.view(hand_seat(inner))["hand"])
            assert {os_st.action_to_string(a) for a in os_st.legal_actions()} <= hand
        os_st.apply_action(rng.choice(os_st.legal_actions()))
    assert seen or os_st.is_terminal()


def test_the_dummy_in_the_dsl_and_its_checks() -> None:
    text = (ROOT / "specs" / "bridge.spel").read_text()
    tree = parse_dsl(text, "bridge.spel")[0]
    tricks = next(s["tricks"] for s in tree["hand"] if "tricks" in s)
    assert tricks["dummy"] == "declarer_team and not is_declarer"
    assert tricks["dummy_by"] == "is_declarer"
    assert "the dummy is played by the player where is_declarer" in to_dsl(tree)
    bad = (ROOT / "specs" / "bridge.yaml").read_text().replace(
        'dummy: "declarer_team and not is_declarer"', 'dummy: "declarer_team and nope"')
    with pytest.raises(SpecError, match=r":\d+:\d+: .*nope"):
        spelbok.load(bad, players=4)


def test_the_browser_table_offers_the_dummys_cards_to_the_declarer() -> None:
    pytest.importorskip("starlette")
    from spelbok.web.tableview import table

    st, declarer, dummy = _at_dummy_turn()
    names = [f"P{p}" for p in range(4)]
    t = table(st, declarer, names, to_act=True, log_viewer=declarer)
    legal = {str(a) for a in st.legal_actions()}
    assert {c["name"] for c in t["shown"][dummy] if c["legal"]} == legal
    assert not any(c.get("legal") for c in t["hand"])  # the declarer's own cards wait
    other = table(st, (declarer + 1) % 4, names, to_act=True, log_viewer=None)
    assert {c["name"] for c in other["shown"][dummy]} == set(st.view(dummy)["hand"])
    assert all("legal" not in c for c in other["shown"][dummy])  # not that seat's turn


@pytest.mark.parametrize(("change", "message"), [
    ("dummy_by: \"seat + 1\"", r"bridge\.yaml:\d+:\d+: expected a condition"),
    ("dummy_by: is_declarer\n      face_down: \"true\"",
     r"bridge\.yaml:\d+:\d+: a dummy cannot yet be played .* card-play mechanics"),
])
def test_validate_locates_a_wrong_dummy(tmp_path: Path, change: str, message: str) -> None:
    import re

    from spelbok.validation import validate

    text = (ROOT / "specs" / "bridge.yaml").read_text().replace("dummy_by: is_declarer", change)
    path = tmp_path / "bridge.yaml"
    path.write_text(text)
    errors = validate(path)
    assert any(re.search(message, str(e)) for e in errors), errors


def test_a_match_never_asks_the_dummys_seat_during_the_tricks() -> None:
    from spelbok.play.match import play_match

    asked: list[tuple[int, int | None, bool]] = []

    class Spy:
        name = "spy"

        def __init__(self, seat: int) -> None:
            self.bot = make_bot("random", seed=seat)

        def choose(self, obs: object) -> spelbok.Action:
            st = obs._state  # type: ignore[attr-defined]
            held = hand_seat(st)
            cards = {str(a) for a in obs.legal} <= set(st.view(held)["hand"])  # type: ignore[attr-defined]
            asked.append((obs.seat, held, cards))  # type: ignore[attr-defined]
            return self.bot.choose(obs)  # type: ignore[arg-type]

    game = spelbok.load("bridge", players=4, options={"scoring": "duplicate", "boards": 4})
    st = play_match(game, [Spy(p) for p in range(4)], seed=2, record=True)
    contracts = [e for e in st.log if e["event"] == "contract"]
    dummies = {(e["declarer"] + 2) % 4 for e in contracts}
    plays = [(seat, held) for seat, held, cards in asked if held != seat]
    assert contracts and len(plays) == 13 * len(contracts)  # every dummy card, by its declarer
    assert all(held in dummies and (held + 2) % 4 == seat for seat, held in plays)
    assert all(cards for seat, held, cards in asked if held != seat)
