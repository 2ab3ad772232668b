"""Plays of several cards (tricks.combos) at the tables without listing every play: a
lazy PlaySets is counted (PlaySets.total), never listed, by the seat's view, the
browser table, the terminal and the engine's refusal; the person picks or writes the
cards and the engine judges them.  Small play sets stay listed in full."""

from __future__ import annotations

import json
import random
import warnings
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import spelbok
from spelbok.engine.play_sets import PlaySets, listed
from spelbok.errors import IllegalActionError
from spelbok.play.suggest import SUGGESTED, suggestions

COMBOS = (Path(__file__).parent / "specs" / "combos.yaml").read_text(encoding="utf-8")


def combos_state(hands: dict[int, str]) -> Any:
    game = spelbok.load(COMBOS, players=4)
    return game.new_state(seed=1, position={"trump": "H", "leader": 0, "hands": hands,
                                            "vars": {"level": 2}})


def _replay(seed: int, actions: list[str]) -> Any:
    st = spelbok.load("tractor").new_state(seed=seed, record=True)
    for a in actions:
        st.apply(a)
    return st


@cache
def _found(follow: bool) -> tuple[int, tuple[str, ...]]:
    """A Tractor match (seed, actions) at a play of several cards with more than a
    thousand legal plays: a lead of many possible throws, or (``follow``) a follow to a
    tractor led (the leader's longest suggestion)."""
    game = spelbok.load("tractor")
    for seed in range(60):
        st = game.new_state(seed=seed)
        rng = random.Random(seed)
        while not st.is_terminal and len(st.actions) < 400:
            legal = st.legal_actions()
            if isinstance(legal, PlaySets) and not st.trick.cards:
                if not follow and legal.total() > 1000:
                    return seed, tuple(str(a) for a in st.actions)
                if follow:
                    for lead in suggestions(st, legal)[:2]:
                        nxt = st.clone()
                        nxt.apply(lead)
                        after = nxt.legal_actions()
                        if nxt.trick.cards and isinstance(after, PlaySets) and \
                                after.total() > 1000:
                            return seed, tuple(str(a) for a in nxt.actions)
            st.apply(legal.pick(rng) if isinstance(legal, PlaySets) else rng.choice(legal))
    raise AssertionError("no Tractor position with many plays found")


def huge(follow: bool) -> Any:
    seed, actions = _found(follow)
    return _replay(seed, list(actions))


@pytest.fixture
def unlisted(monkeypatch: pytest.MonkeyPatch) -> None:
    """Listing a PlaySets of many plays fails the test (the positions are found before)."""
    _found(False)
    _found(True)
    def boom(self: PlaySets) -> None:
        if not self.built and self.total() > 100:
            raise AssertionError("a PlaySets of many plays was listed")
        if not self.built:
            self.built = True
            list.extend(self, [self.make(m) for m in self.masks()])

    monkeypatch.setattr(PlaySets, "_build", boom)


# -- the engine ---------------------------------------------------------------------------

def test_total_counts_every_play_once() -> None:
    st = combos_state({0: "5C 5C 3D", 1: "AS 7D 8D", 2: "6C 6C 3D", 3: "7C 7C 4D"})
    st.apply("pair 5C 5C")
    legal = st.legal_actions()
    assert isinstance(legal, PlaySets) and legal.total() == 3 == len(legal.masks())
    for follow in (False, True):
        legal = huge(follow).legal_actions()
        assert isinstance(legal, PlaySets)
        assert legal.total() == len(legal.masks()) > 1000
    # templates that share plays (each must hold its own cards): each play counted once
    rng = random.Random(7)
    for _ in range(200):
        hand = rng.getrandbits(10) | 1
        cards = [c for c in range(10) if hand >> c & 1]
        temps = []
        for _ in range(rng.randint(1, 4)):
            base = sum(1 << c for c in rng.sample(cards, rng.randint(0, min(3, len(cards)))))
            pool = hand & ~base & rng.getrandbits(10)
            lo = rng.randint(0, 3)
            temps.append((base, pool, lo, lo + rng.randint(0, 2)))
        sets = PlaySets(temps, hand, [1 << c for c in range(10)], str)
        assert sets.total() == len(sets.masks()), temps


def test_the_view_counts_many_plays_and_lists_few(unlisted: None) -> None:
    for follow in (False, True):
        st = huge(follow)
        seat = st.current_player
        v = st.view(seat)
        legal = st.legal_actions()
        assert "legal_actions" not in v
        assert v["legal_count"] == legal.total() > 1000
        assert set(v["legal_cards"]) <= set(v["hand"]) and v["legal_cards"]
        assert len(json.dumps(v)) < 10_000
    st = combos_state({0: "5C 5C 3D", 1: "AS 7D 8D", 2: "6C 6C 3D", 3: "7C 7C 4D"})
    st.apply("pair 5C 5C")
    v = st.view(1)
    assert sorted(v["legal_actions"]) == ["play 7D 8D", "play 7D AS", "play 8D AS"]
    assert "legal_count" not in v


def test_a_refused_play_names_the_rule_without_listing(unlisted: None) -> None:
    st = huge(True)
    legal = st.legal_actions()
    n = len(str(suggestions(st, legal)[0]).split()) - 1  # as many cards as were led
    hand = st.view(st.current_player)["hand"]
    with pytest.raises(IllegalActionError, match="as many as were led") as got:
        st.apply("play " + " ".join(hand[:n - 1]))
    assert len(str(got.value)) < 200
    st = combos_state({0: "5C 5C 6C 6C 3H", 1: "7C 8C AC 3S 4S", 2: "AS 8S 3D 4D 5S",
                       3: "AD 8D 5D 6D 7D"})
    st.apply("tractor 5C 5C 6C 6C")
    with pytest.raises(IllegalActionError, match="follow suit") as got:
        st.apply("play 7C 8C 3S 4S")  # he holds three clubs: all three, and one more
    assert "follow suit: play 3 cards of the suit led (you hold 3)" in got.value.reason
    with pytest.raises(IllegalActionError, match="follow the lead's kinds"):
        combos_follow_pairs().apply("play 7C 8C AC 4C")


def combos_follow_pairs() -> Any:
    st = combos_state({0: "5C 5C 6C 6C 3H 4H", 1: "7C 7C 8C AC 4C 3S", 2: "AS 8S 3D 4D 5S 6S",
                       3: "AD 8D 5D 6D 7D 7S"})
    st.apply("tractor 5C 5C 6C 6C")
    return st


def test_a_play_written_another_way_is_the_engine_s_play() -> None:
    from spelbok.engine.play_sets import as_played

    st = combos_state({0: "5C 5C 6C 6C 3D", 1: "7D 7D AS 4D 5D", 2: "AS 3D 5D 6D 8D",
                       3: "AD 4D 3S 4S 5S"})
    st.apply("pair 5C 5C")
    legal = st.legal_actions()
    assert isinstance(legal, PlaySets)
    assert str(as_played(legal, st.parse_action("play 7D 7D"))) == "pair 7D 7D"
    assert str(as_played(legal, st.parse_action("play AS 4D"))) == "play 4D AS"
    assert listed(legal, 100) is not None and listed(legal, 1) is None
    st = huge(False)
    legal = st.legal_actions()
    card = st.view(st.current_player)["hand"][0]
    assert str(as_played(legal, st.parse_action(f"play {card}"))) == card


# -- the browser table --------------------------------------------------------------------

@pytest.fixture
def client() -> Any:
    pytest.importorskip("starlette")
    pytest.importorskip("httpx")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        from starlette.testclient import TestClient
    from spelbok.web.app import create_app

    return TestClient(create_app())


def _match_at(client: Any, st: Any) -> tuple[dict[str, Any], Any]:
    """A browser match of Tractor whose person sits at ``st``'s player to act, at ``st``."""
    seat = st.current_player
    t = client.post("/api/matches", json={"spec": "tractor", "seed": 1, "seat": seat}).json()
    match = client.app.state.server.sessions.get(t["id"])
    match.state = st
    return client.get(f"/api/matches/{t['id']}").json(), match


@pytest.mark.parametrize("follow", [False, True], ids=["lead", "follow"])
def test_the_browser_gets_a_few_plays_and_picks_any_other(client: Any, follow: bool,
                                                          unlisted: None) -> None:
    st = huge(follow)
    total = st.legal_actions().total()
    t, match = _match_at(client, st)
    assert len(json.dumps(t)) < 20_000  # not the thousands of plays
    x = t["exchange"]
    assert x["verb"] == "play" and x["count"] == total and 1 <= x["min"] <= x["max"]
    assert 0 < len(t["actions"]) <= SUGGESTED
    legal = st.legal_actions()
    assert all(st.parse_action(a["text"]) in legal for a in t["actions"])
    mine = [c for c in t["hand"] if c.get("legal")]
    assert mine and all("reason" in c for c in t["hand"] if not c.get("legal"))
    # a refused play: the engine's reason, nothing changes
    before = len(match.state.actions)
    r = client.post(f"/api/matches/{t['id']}/act",
                    json={"action": "play " + mine[0]["name"], "step": t["step"]})
    if x["min"] > 1:
        assert r.status_code in (400, 409, 422) and "as many as were led" in r.json()["error"]
        assert len(match.state.actions) == before
        # any legal play, written with the cards, not one of the buttons
        offered = {a["text"] for a in t["actions"]}
        rng = random.Random(3)
        play = next(a for a in iter(lambda: legal.pick(rng), None) if str(a) not in offered)
        cards = " ".join(str(play).split()[1:])
        r = client.post(f"/api/matches/{t['id']}/act",
                        json={"action": "play " + cards, "step": t["step"]})
        assert r.status_code == 200, r.text
        assert str(match.state.actions[before]) == str(play)  # the engine's own words
    else:  # one card alone is a lead
        assert r.status_code == 200, r.text
        assert str(match.state.actions[before]) == mine[0]["name"]


def test_the_browser_lists_a_few_plays_in_full() -> None:
    from spelbok.web.tableview import table

    st = combos_state({0: "5C 5C 3D", 1: "AS 7D 8D", 2: "6C 6C 3D", 3: "7C 7C 4D"})
    st.apply("pair 5C 5C")
    t = table(st, 1, ["a", "b", "c", "d"], to_act=True, log_viewer=1)
    assert t["exchange"] is None
    assert sorted(a["text"] for a in t["actions"]) == ["play 7D 8D", "play 7D AS",
                                                        "play 8D AS"]


# -- the terminal -------------------------------------------------------------------------

def test_the_terminal_suggests_and_reads_written_plays(unlisted: None) -> None:
    from spelbok.cli.prompt import _interpret, _prompt_lines
    from spelbok.view.text import PLAIN

    st = huge(True)
    legal = st.legal_actions()
    menu = suggestions(st, legal)
    text = "\n".join(_prompt_lines(st, menu, legal, PLAIN, ["a", "b", "c", "d"]))
    assert f"({legal.total():,} are legal)" in text and "1 " in text
    assert _interpret("1", st, menu, legal, PLAIN) == menu[0]
    play = legal.pick(random.Random(5))
    cards = " ".join(str(play).split()[1:])
    for typed in (f"play {cards}", cards, cards.lower()):
        assert str(_interpret(typed, st, menu, legal, PLAIN)) == str(play), typed
    with pytest.raises(IllegalActionError, match="as many as were led"):
        _interpret(cards.split()[0], st, menu, legal, PLAIN)


def test_spelbok_play_tractor_with_a_person() -> None:
    from click.testing import CliRunner
    from spelbok.cli.main import cli

    out = CliRunner().invoke(cli, ["play", "tractor", "--seed", "3", "--max-hands", "1",
                                   "--bot-time", "0.1"], input="1\n" * 400)
    assert out.exit_code == 0, out.output
    assert "are legal), e.g. play" in out.output


def test_the_terminal_reads_a_written_play_among_a_few() -> None:
    from spelbok.cli.prompt import _interpret, _menu

    st = combos_state({0: "5C 5C 6C 6C 3D", 1: "7D 7D AS 4D 5D", 2: "AS 3D 5D 6D 8D",
                       3: "AD 4D 3S 4S 5S"})
    legal = listed(st.legal_actions(), 100)
    assert legal is not None
    menu = _menu(legal, st.game, "H")
    for typed in ("5c 5c", "play 5C 5C", "pair 5c 5c"):
        assert str(_interpret(typed, st, menu, legal)) == "pair 5C 5C", typed
    assert str(_interpret("5c 5c 6c 6c", st, menu, legal)) == "tractor 5C 5C 6C 6C"
