"""The browser table's view of a seat (spelbok.web.tableview) and what the page does
with it: seats around the table, one button per distinct choice, the engine's reasons
in suit symbols, undo, hints as sentences, the final table and the Rules tab."""

from __future__ import annotations

import re
import warnings
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

import spelbok  # noqa: E402
from spelbok.play.bots import make_bot  # noqa: E402
from spelbok.play.matchlog import seat_seed  # noqa: E402
from spelbok.play.seatlog import final_standing  # noqa: E402
from spelbok.web.sessions import Match  # noqa: E402
from spelbok.web.tableview import around, with_symbols  # noqa: E402

with warnings.catch_warnings():  # newer Starlette would rather have httpx2
    warnings.simplefilter("ignore", DeprecationWarning)
    from starlette.testclient import TestClient

from spelbok.web.app import create_app  # noqa: E402

#: A card written in notation (``6C``, ``10H``): the page writes cards with symbols.
NOTATION = re.compile(r"(?<![0-9A-Za-z'])(?:10|[2-9AKQJ])[CDHS](?![0-9A-Za-z'])")
FIVE = [("knektpass", 2, 3), ("hearts", 4, 2), ("bridge", 4, 5), ("skat", 3, 42), ("euchre", 4, 4)]


@pytest.fixture
def client() -> TestClient:
    return TestClient(create_app())


def _match(spec: str, players: int, seed: int = 3, human: int = 0) -> Match:
    game = spelbok.load(spec, players=players, max_hands=1)
    bots = {p: make_bot("greedy", seed=seat_seed(seed, p)) for p in range(players) if p != human}
    return Match(game, spec, seed, human, bots, {}, 1)


def _until_human(client: TestClient, t: dict[str, Any]) -> dict[str, Any]:
    while t["bot_turn"]:
        t = client.post(f"/api/matches/{t['id']}/advance", json={"step": t["step"]}).json()
    return t


def test_seats_are_placed_around_the_viewer() -> None:
    for n in range(2, 9):
        for seat in range(n):
            sides = around(n, seat)
            assert sides["bottom"] == [seat]
            placed = sides["left"] + sides["top"] + sides["right"]
            assert sorted(placed + [seat]) == list(range(n))
            # in turn from the viewer's left: up the left side, along the top, down the right
            assert sides["left"][::-1] + sides["top"] + sides["right"] == \
                [(seat + i) % n for i in range(1, n)]


@pytest.mark.parametrize("spec, players, seed", FIVE, ids=[s for s, _, _ in FIVE])
def test_a_whole_match_of_distinct_buttons_and_reasons_in_symbols(spec: str, players: int,
                                                                   seed: int) -> None:
    """At every decision of the person: one button per distinct choice (no two alike),
    an illegal card's reason is the engine's, in suit symbols; at the end the final table."""
    match = _match(spec, players, seed)
    st = match.state
    reasons = 0
    while not st.is_terminal:
        if st.current_player != 0:
            match.advance()
            continue
        t = match.to_json()
        labels = [a["label"] for a in t["actions"]]
        assert len(set(labels)) == len(labels), labels
        if t["exchange"]:
            assert t["exchange"]["verb"] not in labels  # the bare verb says 'keep all'
        for c in t["hand"]:
            if "reason" in c:
                reasons += 1
                assert not NOTATION.search(c["reason"]) and not re.search(r"\([CDHS]\)",
                                                                          c["reason"]), c
        legal = st.legal_actions()
        match.act(str(legal[0]))
    t = match.to_json()
    end = final_standing(st)
    assert [r["seat"] for r in t["final"]["rows"]] == end["order"]
    assert t["final"]["why"] == end["why"] and t["final"]["verdict"]
    assert reasons


def test_knektpass_swap_is_keep_all_and_a_picker(client: TestClient) -> None:
    """Two identical 'exchange' buttons were shown: the exchange of no cards is now
    'keep all', and the picker says how many cards it takes."""
    t = _until_human(client, client.post("/api/matches", json={
        "spec": "knektpass", "players": 2, "seed": 3}).json())
    assert [a["label"] for a in t["actions"]] == ["keep all"]
    assert t["actions"][0]["text"] == t["exchange"]["verb"]
    assert (t["exchange"]["min"], t["exchange"]["max"]) == (0, 1)


def test_the_reason_is_the_engines_with_symbols(client: TestClient) -> None:
    match = _match("hearts", 4, seed=2)
    st = match.state
    while True:
        if st.current_player != 0:
            match.advance()
            continue
        t = match.to_json()
        refused = [c for c in t["hand"] if "reason" in c]
        if refused:
            break
        match.act(str(st.legal_actions()[0]))
    from spelbok.errors import IllegalActionError

    with pytest.raises(IllegalActionError) as exc:
        st.parse_action(refused[0]["name"])
    style = spelbok.view.text.PLAIN.for_game(st.game)  # type: ignore[attr-defined]
    assert refused[0]["reason"] == with_symbols(exc.value.reason, style)
    assert any(s in refused[0]["reason"] for s in "♣♠♥♦")


def test_undo_takes_back_the_persons_last_decision(client: TestClient) -> None:
    t = _until_human(client, client.post("/api/matches", json={
        "spec": "hearts", "players": 4, "seed": 2}).json())
    assert not t["can_undo"]
    r = client.post(f"/api/matches/{t['id']}/undo", json={"step": t["step"]})
    assert r.status_code == 409 and "nothing to take back" in r.json()["error"]
    before = t
    picked = " ".join(c["name"] for c in t["hand"][:t["exchange"]["min"]])
    t = client.post(f"/api/matches/{t['id']}/act", json={
        "action": f"{t['exchange']['verb']} {picked}", "step": t["step"]}).json()
    t = _until_human(client, t)
    assert t["can_undo"] and t["step"] > before["step"]
    stale = client.post(f"/api/matches/{t['id']}/undo", json={"step": t["step"] - 1})
    assert stale.status_code == 409
    back = client.post(f"/api/matches/{t['id']}/undo", json={"step": t["step"]}).json()
    assert back["step"] == before["step"] and back["hand"] == before["hand"]
    assert back["log"] == before["log"] and not back["can_undo"]


def test_a_watcher_cannot_undo(client: TestClient) -> None:
    t = client.post("/api/matches", json={"spec": "knektpass", "seat": None, "seed": 1}).json()
    r = client.post(f"/api/matches/{t['id']}/undo", json={})
    assert r.status_code == 409


def test_a_hint_reads_as_a_sentence(client: TestClient) -> None:
    t = _until_human(client, client.post("/api/matches", json={
        "spec": "knektpass", "players": 2, "seed": 3}).json())
    while not any(c.get("legal") for c in t["hand"]):  # to a card play
        t = _until_human(client, client.post(f"/api/matches/{t['id']}/act", json={
            "action": t["actions"][0]["text"], "step": t["step"]}).json())
    hint = client.post(f"/api/matches/{t['id']}/hint", json={"bot": "greedy"}).json()
    card = next(c for c in t["hand"] if c["name"] == hint["action"])
    assert hint["sentence"] == f"The greedy bot would play {card['rank']}{card['symbol']}."


def test_a_hint_at_a_pass_says_to_whom_as_the_terminal() -> None:
    """The web's hint at a pass names the seat the cards go to, as ``play``'s hint."""
    from spelbok.cli.prompt import _hint
    from spelbok.view.text import PLAIN

    m = _match("hearts", 4, seed=1)
    while m.bot_to_move() is not None:
        m.advance()
    hint = m.hint("greedy")
    assert re.fullmatch(r"The greedy bot would give (\S+ ){2}\S+ to \S+\.", hint["sentence"]), hint
    to = hint["sentence"].rsplit(" to ", 1)[1].rstrip(".")
    step: Any = m.state.game.program.code[m.state.pc]  # the pass: its receiver of seat 0
    assert to == m.names[step._to(m.state, 0)], (to, m.names)
    terminal = _hint(m.state, 0, PLAIN, m.names)[0]
    assert terminal.strip().endswith(f" to {to}."), terminal


def test_the_rules_tab_is_prose_for_the_players_asked(client: TestClient) -> None:
    info = client.get("/api/spec", params={"spec": "knektpass", "players": 3}).json()
    assert info["described_for"] == 3
    blocks = info["rules"]
    assert blocks[0] == {"kind": "title", "text": "Knektpass", "indent": 0}
    assert any(b["kind"] == "heading" and b["text"] == "Players" for b in blocks)
    text = "\n".join(b["text"] for b in blocks)
    assert "With 3 players" in text and "With 2 players" not in text
    # a paragraph is one line of words, not the terminal's wrapped lines
    assert all("\n" not in b["text"] and "  " not in b["text"] for b in blocks)


def test_the_header_links_to_the_workbench_only_when_it_is_served() -> None:
    from starlette.responses import PlainTextResponse
    from starlette.routing import Route

    app = create_app()
    served = any(getattr(r, "path", "") == "/workbench" for r in app.routes)
    page = TestClient(app).get("/").text
    assert ('href="/workbench"' in page) == served
    app.router.routes.append(Route("/workbench", lambda request: PlainTextResponse("")))
    assert 'href="/workbench"' in TestClient(app).get("/").text


def test_the_terminal_keeps_its_seat_log_names() -> None:
    """``cli/seatlog.py`` moved to the library (the web tells a seat the same): its
    names stay importable from the old place."""
    from spelbok.cli import seatlog
    from spelbok.play import seatlog as library

    assert seatlog.SeatLog is library.SeatLog and seatlog.PlayerWords is library.PlayerWords
