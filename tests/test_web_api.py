"""The web API of ``spelbok serve`` (spelbok.web), through Starlette's test client.

What the browser receives is one seat's view only; every action is checked by the
engine; a refused or tampered request answers a clear 4xx and changes nothing.
"""

from __future__ import annotations

import json
import time
import warnings
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from click.testing import CliRunner  # noqa: E402
from spelbok.cli.main import cli  # noqa: E402

with warnings.catch_warnings():  # newer Starlette would rather have httpx2
    warnings.simplefilter("ignore", DeprecationWarning)
    from starlette.testclient import TestClient

from spelbok.web.app import create_app  # noqa: E402
from spelbok.web.sessions import card_json  # noqa: E402


@pytest.fixture
def client() -> TestClient:
    return TestClient(create_app())


def _state(client: TestClient, match_id: str) -> Any:
    """The server's own state of a match (never sent to the browser)."""
    return client.app.state.server.sessions.get(match_id).state  # type: ignore[attr-defined]


def _card_names(value: Any) -> set[str]:
    """Every card the answer draws (card objects carry a rank and a symbol)."""
    out: set[str] = set()
    if isinstance(value, dict):
        if "rank" in value and "symbol" in value:
            out.add(value["name"])
        for v in value.values():
            out |= _card_names(v)
    elif isinstance(value, list):
        for v in value:
            out |= _card_names(v)
    return out


def _until_human(client: TestClient, t: dict[str, Any]) -> dict[str, Any]:
    while t["bot_turn"]:
        r = client.post(f"/api/matches/{t['id']}/advance", json={"step": t["step"]})
        assert r.status_code == 200, r.text
        t = r.json()
    return t


def _first_legal(t: dict[str, Any]) -> str:
    cards = [c["name"] for c in t["hand"] if c.get("legal")]
    return cards[0] if cards else t["actions"][0]["text"]


def test_specs_and_their_rules(client: TestClient) -> None:
    specs = client.get("/api/specs").json()["specs"]
    assert "knektpass" in specs and "example" in specs
    info = client.get("/api/spec", params={"spec": "knektpass"}).json()
    assert info["name"] == "Knektpass"
    assert info["players"]["min"] == 2
    assert "void_rule" in info["options"] and info["options"]["void_rule"]["values"]
    assert "Knektpass" in info["describe"]


def test_the_browser_gets_only_its_seats_cards(client: TestClient) -> None:
    t = client.post("/api/matches", json={"spec": "knektpass", "players": 3, "seed": 5}).json()
    t = _until_human(client, t)
    state = _state(client, t["id"])
    v = state.view(0)
    public = set(v["hand"]) | set(v["turn_up"]) | {c for _, c in v["trick"]}
    public |= {c for known in v["known_cards"] for c in known}
    public |= {c for _, cards, _ in v["tricks_played"] for _, c in cards}
    assert _card_names(t) <= public
    hidden = {c for p in (1, 2) for c in state.view(p)["hand"]} - public
    assert hidden and not _card_names(t) & hidden
    shown = {card_json(c)["rank"] + card_json(c)["symbol"] for c in hidden}  # as the log writes
    assert not any(c in line for line in t["log"] for c in shown)


def test_a_whole_hand_through_the_api_and_a_reload(client: TestClient) -> None:
    t = client.post("/api/matches", json={"spec": "knektpass", "seed": 2,
                                          "bots": ["random"]}).json()
    first = t["hand_number"]
    moves = 0
    while t["hand_number"] == first and not t["terminal"]:
        t = _until_human(client, t)
        if t["hand_number"] != first or t["terminal"]:
            break
        for card in t["hand"]:  # an illegal card says why
            if not card.get("legal", True):
                assert card["reason"]
        r = client.post(f"/api/matches/{t['id']}/act", json={"action": _first_legal(t),
                                                            "step": t["step"]})
        assert r.status_code == 200, r.text
        t = r.json()
        moves += 1
    assert moves >= 1
    again = client.get(f"/api/matches/{t['id']}").json()  # a reload
    assert again == t


def test_refused_and_tampered_requests_change_nothing(client: TestClient) -> None:
    t = _until_human(client, client.post("/api/matches",
                                         json={"spec": "knektpass", "seed": 1}).json())
    mid, step = t["id"], t["step"]
    before = str(_state(client, mid).actions)
    held = t["hand"][0]["name"]
    cases = [
        ("act", {"action": held, "step": step}, 422),  # announce: a card is not a choice
        ("act", {"action": "AS" if held != "AS" else "2C", "step": step}, 422),
        ("act", {"action": "?!", "step": step}, 400),
        ("act", {"action": 7, "step": step}, 400),
        ("act", {"action": "x" * 5000, "step": step}, 400),
        ("act", {"action": "play", "step": step - 1}, 409),  # a stale page
        ("advance", {"step": step}, 409),  # no bot is to move
        ("hint", {"bot": "random"}, 400),
        ("hint", {"bot": "ismcts:99999999"}, 400),
    ]
    for route, body, status in cases:
        r = client.post(f"/api/matches/{mid}/{route}", json=body)
        assert r.status_code == status, (route, body, r.text)
        assert r.json()["error"]
    assert client.post(f"/api/matches/{mid}/act", content=b"{not json").status_code == 400
    assert client.post(f"/api/matches/{mid}/act", content=b"[1]").status_code == 400
    assert client.get(f"/api/matches/{mid}/log").status_code == 409  # hidden cards, mid-match
    assert client.post(f"/api/matches/{mid}/seat", json={"seat": 1}).status_code == 409
    assert client.get("/api/matches/nope").status_code == 404
    assert str(_state(client, mid).actions) == before
    r = client.post(f"/api/matches/{mid}/act", json={"action": "play", "step": step})
    assert r.status_code == 200 and r.json()["step"] == step + 1


def test_a_spec_or_a_seat_the_server_does_not_serve(client: TestClient, tmp_path: Any) -> None:
    spec = tmp_path / "mine.yaml"
    spec.write_text("not: a spec\n")
    for body in ({"spec": str(spec)}, {"spec": "../../etc/passwd"}, {"spec": ["knektpass"]},
                 {"spec": "knektpass", "seat": 9}, {"spec": "knektpass", "players": 99},
                 {"spec": "knektpass", "bots": ["nobot"]},
                 {"spec": "knektpass", "options": {"void_rule": "sometimes"}},
                 {"spec": "knektpass", "seed": -1}, {"spec": "knektpass", "max_hands": 0}):
        r = client.post("/api/matches", json=body)
        assert r.status_code == 400, (body, r.text)
        assert r.json()["error"]
    assert len(client.app.state.server.sessions) == 0  # type: ignore[attr-defined]


def test_a_hint_is_a_legal_action(client: TestClient) -> None:
    t = _until_human(client, client.post("/api/matches",
                                         json={"spec": "knektpass", "seed": 4}).json())
    for bot in ("greedy", "ismcts:20"):
        r = client.post(f"/api/matches/{t['id']}/hint", json={"bot": bot})
        assert r.status_code == 200, r.text
        assert _state(client, t["id"]).is_legal(r.json()["action"])


def test_watch_bots_then_replay_the_log(client: TestClient) -> None:
    a = client.post("/api/matches", json={"spec": "example", "seat": None, "seed": 3,
                                          "max_hands": 1}).json()
    b = client.post("/api/matches", json={"spec": "example", "seat": None, "seed": 4}).json()
    assert a["id"] != b["id"] and a["human"] is None
    assert client.post(f"/api/matches/{a['id']}/act", json={"action": "play"}).status_code == 409
    while not a["terminal"]:
        a = client.post(f"/api/matches/{a['id']}/advance", json={"step": a["step"]}).json()
    assert client.get(f"/api/matches/{b['id']}").json()["step"] == 0  # the other one waits
    seen = client.post(f"/api/matches/{b['id']}/seat", json={"seat": 1}).json()
    assert seen["seat"] == 1 and seen["hand"] and seen["step"] == 0
    assert client.post(f"/api/matches/{b['id']}/seat", json={"seat": 5}).status_code == 400
    log = client.get(f"/api/matches/{a['id']}/log")
    assert log.status_code == 200
    r = client.post("/api/replays", content=log.content)
    assert r.status_code == 201, r.text
    rp = r.json()
    assert rp["kind"] == "replay" and rp["pos"] == 0 and rp["total"] == a["step"]
    end = client.post(f"/api/replays/{rp['id']}/goto", json={"pos": rp["total"]}).json()
    assert end["terminal"] and end["scores"] == a["scores"] and end["winners"] == a["winners"]
    back = client.post(f"/api/replays/{rp['id']}/goto", json={"pos": 1}).json()
    assert back["pos"] == 1 and not back["terminal"]
    assert client.post(f"/api/replays/{rp['id']}/goto", json={"pos": 10**6}).status_code == 400
    assert client.post(f"/api/replays/{rp['id']}/seat", json={"seat": 1}).json()["seat"] == 1


def test_a_log_that_is_not_one_or_names_an_unserved_spec(client: TestClient,
                                                          tmp_path: Any) -> None:
    assert client.post("/api/replays", content=b"{}").status_code == 400
    assert client.post("/api/replays", content=b"\xff\xfe").status_code == 400
    path = tmp_path / "m.json"
    result = CliRunner().invoke(cli, ["play", "example", "--auto", "--seed", "2", "--max-hands", "1",
                                      "--log", str(path)])
    assert result.exit_code == 0, result.output
    data = json.loads(path.read_text())
    data["spec"] = "/etc/passwd"
    r = client.post("/api/replays", content=json.dumps(data))
    assert r.status_code == 400 and "not served" in r.json()["error"]
    data["spec"] = "example"
    data["actions"] = data["actions"][:3] + ["QQ"]
    assert client.post("/api/replays", content=json.dumps(data)).status_code == 400


def test_serve_is_a_command() -> None:
    result = CliRunner().invoke(cli, ["serve", "--help"])
    assert result.exit_code == 0 and "--port" in result.output
    bad = CliRunner().invoke(cli, ["serve", "no-such-spec-here"])
    assert bad.exit_code == 1 and "error:" in bad.output


def test_serve_serves_and_prints_its_address() -> None:
    import subprocess
    import sys
    import urllib.request

    proc = subprocess.Popen([sys.executable, "-c", "from spelbok.cli.main import main; main()",
                             "serve", "--port", "0"], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.startswith("spelbok serve: http://127.0.0.1:"), line
        url = line.split()[2]
        for _ in range(200):  # until it listens (a bound, not a measure)
            try:
                with urllib.request.urlopen(url + "api/specs", timeout=5) as r:
                    assert "knektpass" in json.loads(r.read())["specs"]
                    break
            except OSError:
                time.sleep(0.05)
        else:
            pytest.fail("the server never answered")
        with urllib.request.urlopen(url, timeout=5) as r:
            page = r.read().decode()
        assert "<script src=\"/static/app.js\">" in page and "http" not in page
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_a_spec_file_named_at_start_is_served(tmp_path: Any) -> None:
    from importlib import resources

    mine = tmp_path / "mine.yaml"
    mine.write_text((resources.files("spelbok.specs") / "example.yaml").read_text("utf-8"),
                    encoding="utf-8")
    client = TestClient(create_app([str(mine)]))
    assert client.get("/api/specs").json()["specs"][0] == str(mine)
    t = client.post("/api/matches", json={"spec": str(mine), "seat": None, "seed": 1,
                                          "max_hands": 1}).json()
    while not t["terminal"]:
        t = client.post(f"/api/matches/{t['id']}/advance", json={}).json()
    log = client.get(f"/api/matches/{t['id']}/log").json()
    log["spec"] = "/elsewhere/mine.yaml"  # a log made elsewhere names the same file name
    r = client.post("/api/replays", content=json.dumps(log))
    assert r.status_code == 201, r.text


def test_the_engine_says_why_a_trick_was_won_and_what_a_score_change_means(
        client: TestClient) -> None:
    t = client.post("/api/matches", json={"spec": "knektpass", "players": 3, "seed": 5}).json()
    whys: list[str] = []
    while not t["terminal"] and t["hand_number"] == 1:
        t = _until_human(client, t)
        if t["last_trick"] and t["last_trick"]["why"]:
            whys.append(t["last_trick"]["why"])
        if t["terminal"] or t["hand_number"] > 1:
            break
        t = client.post(f"/api/matches/{t['id']}/act",
                        json={"action": _first_legal(t), "step": t["step"]}).json()
    # the first trick of seed 5: J♦ led, J♠ trumps it (as the spec ranks it)
    assert "J♠ is the highest trump" in whys
    assert "    J♠ is the highest trump" in t["log"]
    # another seat's score change: what changed and by which rule, never the values read
    scored = [line for line in t["log"] if line.startswith("  P2 score 12 → 7 (-5): [scoring]")]
    assert scored and "with" not in scored[0] and "en: Scoring" in scored[0]
    # the seat's own: the rule's formula and the values it read
    t = client.post("/api/matches", json={"spec": "knektpass", "players": 3, "seed": 6}).json()
    while not t["terminal"] and t["hand_number"] == 1:
        t = _until_human(client, t)
        if t["terminal"] or t["hand_number"] > 1:
            break
        t = client.post(f"/api/matches/{t['id']}/act",
                        json={"action": _first_legal(t), "step": t["step"]}).json()
    # the seat's own: the rule by its label and source, as the terminal says it (the
    # spec's working variables, such as 'change', are never named to a player)
    mine = [line for line in t["log"] if line.startswith("  you score 12 → 11 (-1): [scoring]")]
    assert mine and "with change" not in mine[0] and "en: Scoring" in mine[0], t["log"]


def test_another_seats_set_is_explained_without_what_it_read() -> None:
    from spelbok.web.sessions import SeatExplainer

    class Told:  # an Explainer's note for one set step that read a hand
        def note(self, index: int) -> Any:
            from spelbok.play.explain import Note

            return Note(pc=0, formula="count(cards_of(hand, 'O'))", values={"hand": "1O 3O"},
                        before=0)

        def step(self, pc: int) -> dict[str, Any]:
            return {"label": "count", "source": "rules §2"}

        def explain(self, index: int, event: Any, who: str = "") -> str:
            return f"{who} oros: with hand 1O 3O"

    event = {"event": "set", "seat": 1, "var": "oros", "value": 2}
    why = SeatExplainer(Told(), 0, [event])  # type: ignore[arg-type]
    assert why.explain(0, event, "P1") == "P1 oros 0 → 2 (+2): [count] (rules §2)"
    assert "1O" in str(SeatExplainer(Told(), 1, [event]).explain(0, event, "P1"))  # type: ignore[arg-type]


def test_a_trick_with_a_card_played_face_down_is_not_explained() -> None:
    from spelbok.web.sessions import SeatExplainer

    class Told:
        def explain(self, index: int, event: Any, who: str = "") -> str:
            return "QS is the highest trump"

    log = [{"event": "face_down", "seat": 1, "card": "QS"},
           {"event": "trick", "cards": [[0, "7S"], [1, "QS"]], "winner": 1}]
    assert SeatExplainer(Told(), 0, log).explain(1, log[1]) is None  # type: ignore[arg-type]
    assert SeatExplainer(Told(), 1, log).explain(1, log[1])  # type: ignore[arg-type]


def test_cards_come_from_the_games_declared_pack(tmp_path: Any) -> None:
    from spelbok.cards import FRENCH
    from test_pack import GERMAN

    mine = tmp_path / "german.yaml"
    mine.write_text(GERMAN, encoding="utf-8")
    client = TestClient(create_app([str(mine)]))
    t = client.post("/api/matches", json={"spec": str(mine), "players": 2, "seed": 3}).json()
    t = _until_human(client, t)
    symbols = {"E": "🌰", "G": "🍀", "H": "❤", "S": "🔔"}
    colours = {"E": "black", "G": "green", "H": "red", "S": "yellow"}
    drawn = [*t["hand"], *t["turn_up"], *(c for _p, c in t["trick"])]
    assert len(t["hand"]) == 6 and drawn
    for c in drawn:
        assert c["symbol"] == symbols[c["suit"]] and c["colour"] == colours[c["suit"]], c
        assert c["rank"] in ("7", "8", "9", "10", "U", "O", "K", "A")
    assert t["trump"]["symbol"] == symbols[t["trump"]["suit"]]
    assert any(c["rank"] + c["symbol"] in " ".join(t["log"]) for c in t["turn_up"])
    # the French pack is the default, and a declared one knows its own cards only
    assert card_json("10H") == card_json("10H", FRENCH)
    assert card_json("JK")["suit"] == ""


def test_a_declared_packs_tricks_are_explained_in_its_own_cards(tmp_path: Any) -> None:
    import spelbok
    from spelbok.play.explain import explain_trick
    from spelbok.web.sessions import _explainer
    from test_pack import GERMAN

    game = spelbok.load(GERMAN, players=2)
    ex = _explainer(game)
    trick = {"event": "trick", "cards": [[0, "7H"], [1, "AH"]], "winner": 1}
    assert explain_trick(game, trick, "S", ex.card, ex.suit) == \
        "A❤ is the highest card of the led suit ❤"
    trick = {"event": "trick", "cards": [[0, "AH"], [1, "7S"]], "winner": 1}
    assert explain_trick(game, trick, "S", ex.card, ex.suit) == "7🔔 is the only trump"
    # and through the API, a whole hand: each trick's why in the pack's symbols
    mine = tmp_path / "german.yaml"
    mine.write_text(GERMAN, encoding="utf-8")
    client = TestClient(create_app([str(mine)]))
    t = client.post("/api/matches", json={"spec": str(mine), "players": 2, "seed": 3}).json()
    whys = []
    while not t["terminal"] and t["hand_number"] == 1:
        t = _until_human(client, t)
        if t["last_trick"]:
            whys.append(t["last_trick"]["why"])
        if t["terminal"] or t["hand_number"] > 1:
            break
        t = client.post(f"/api/matches/{t['id']}/act",
                        json={"action": _first_legal(t), "step": t["step"]}).json()
    assert whys and all(w and any(s in w for s in "🌰🍀❤🔔") for w in whys), whys


def test_unicode_digits_are_a_clear_refusal_not_a_server_error(client: TestClient) -> None:
    """'²' is a digit to str.isdigit but no number to int(): a 4xx with a message, never a
    500 from a ValueError (issue 30)."""
    t = _until_human(client, client.post("/api/matches",
                                         json={"spec": "knektpass", "seed": 1}).json())
    mid, step = t["id"], t["step"]
    for text in ("²", "bid ²", "٣", "1²"):
        r = client.post(f"/api/matches/{mid}/act", json={"action": text, "step": step})
        assert 400 <= r.status_code < 500 and r.json()["error"], (text, r.text)
    r = client.post(f"/api/matches/{mid}/hint", json={"bot": "ismcts:²"})
    assert r.status_code == 400 and r.json()["error"]
    r = client.get("/api/spec", params={"spec": "knektpass", "players": "²"})
    assert r.status_code == 400 and r.json()["error"]
    r = client.post(f"/api/matches/{mid}/act", content=b"{}",
                    headers={"content-length": "²".encode("latin-1")})
    assert r.status_code != 500
    assert client.get(f"/api/matches/{mid}").json()["step"] == step  # nothing changed


def test_the_table_shows_the_cards_other_seats_showed_to_all(client: TestClient) -> None:
    """Bridge: the dummy's hand, shown to all, is in the table as the seat's 'shown' cards."""
    t = client.post("/api/matches", json={"spec": "bridge", "seed": 3, "bots": ["random"]}).json()
    while not any(t["shown"]) and not t["terminal"]:
        t = _until_human(client, t)
        if any(t["shown"]) or t["terminal"]:
            break
        r = client.post(f"/api/matches/{t['id']}/act", json={"action": _first_legal(t),
                                                            "step": t["step"]})
        t = r.json()
    assert not t["shown"][t["seat"]]
    dummy = next(p for p, cards in enumerate(t["shown"]) if cards)
    assert len(t["shown"][dummy]) == t["hand_sizes"][dummy]
    assert all("name" in c and "symbol" in c for c in t["shown"][dummy])


def test_the_browser_offers_the_meld_choice_and_shows_declared_melds(client: TestClient) -> None:
    # Pinochle: each player picks the melds he shows, by name, then says done
    t = client.post("/api/matches", json={"spec": "pinochle", "seed": 1, "seat": 0}).json()
    for _ in range(60):
        t = _until_human(client, t)
        if _state(client, t["id"]).decision_name == "declare_melds":
            break
        t = client.post(f"/api/matches/{t['id']}/act",
                        json={"action": _first_legal(t), "step": t["step"]}).json()
    words = [a["text"] for a in t["actions"]]
    assert words[-1] == "done" and len(words) >= 2
    t = client.post(f"/api/matches/{t['id']}/act", json={"action": words[0], "step": t["step"]}).json()
    t = _until_human(client, t)
    assert any(line.strip().startswith("you declare") for line in t["log"])
    others = _state(client, t["id"]).known
    assert any(t["shown"][p] for p in range(1, 4) if others[p])  # their melds, face up
