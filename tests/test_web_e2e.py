"""``spelbok serve`` in a real browser: headless Chromium driven by Playwright.

The server runs on a free port in a thread; the tests click (and type) as a person
would: a whole match of five shipped specs, undo and hints, the keyboard, a 360 px
screen.  Skipped when Playwright or a Chromium it can start is absent.  The
screenshots they take are the README's (docs/screenshots/; ``python
bench/screenshots.py`` refreshes them).
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
uvicorn = pytest.importorskip("uvicorn")
sync_api = pytest.importorskip("playwright.sync_api")

from click.testing import CliRunner  # noqa: E402
from spelbok.cli.main import cli  # noqa: E402
from spelbok.web.app import create_app  # noqa: E402

# SPELBOK_SCREENSHOTS=1 writes the README's screenshots; otherwise none are written
SHOTS = (Path(__file__).resolve().parent.parent / "docs" / "screenshots"
         if os.environ.get("SPELBOK_SCREENSHOTS") else None)
TIMEOUT_MS = 15_000  # a safety bound on each wait, not a measure


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    port = _free_port()
    srv = uvicorn.Server(uvicorn.Config(create_app(), host="127.0.0.1", port=port,
                                        log_level="warning"))
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not srv.started and thread.is_alive() and time.monotonic() < deadline:
        time.sleep(0.02)
    if not srv.started:
        pytest.skip("the test server did not start")
    yield f"http://127.0.0.1:{port}"
    srv.should_exit = True
    thread.join(timeout=10)


def _launch(p: Any) -> Any:
    """Playwright's own Chromium, else the system's (Debian's chromium package)."""
    try:
        return p.chromium.launch()
    except Exception:
        for name in ("chromium", "chromium-browser", "google-chrome"):
            path = shutil.which(name)
            if path:
                try:
                    return p.chromium.launch(executable_path=path, args=["--no-sandbox"])
                except Exception:
                    continue
    pytest.skip("no Chromium for Playwright (python -m playwright install chromium)")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        b = _launch(p)
        yield b
        b.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1200, "height": 820})
    pg = context.new_page()
    pg.set_default_timeout(TIMEOUT_MS)
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    yield pg
    context.close()
    assert not errors, errors  # no script error on the page


def _start(page: Any, url: str, spec: str = "knektpass", seed: int = 7,
           seat: str = "0", players: int | None = None, hands: int | None = None,
           bots: str | None = None) -> None:
    page.goto(url + "/")
    page.wait_for_selector(f"#spec option[value='{spec}']", state="attached")
    page.select_option("#spec", spec)
    page.wait_for_function("document.getElementById('rules').textContent.length > 0")
    if players is not None:
        page.fill("#players", str(players))
        page.dispatch_event("#players", "change")
    page.select_option("#speed", "0")  # bots move at once
    page.select_option("#seat", seat)
    page.fill("#seed", str(seed))
    if hands is not None:
        page.fill("#hands", str(hands))
    if bots is not None:
        page.fill("#bots", bots)
    page.click("#start")
    page.wait_for_selector("#table:not([hidden])")


def _wait_my_turn_or_end(page: Any) -> bool:
    """Wait until it is the human's turn (True) or the match is over (False)."""
    page.wait_for_function(
        """() => current && (current.terminal ||
                 (current.current_player === current.human && !current.bot_turn))""")
    return not page.evaluate("current.terminal")


def _tap_an_illegal_card(page: Any, card: Any, step: int) -> None:
    """An illegal card refuses on the page with the engine's reason, and on the server too."""
    title = card.get_attribute("title")
    label = card.get_attribute("aria-label")
    name = card.get_attribute("data-card")
    assert title.startswith(label + ": ")  # the reason on hover, the card in its symbols
    reason = title.removeprefix(label + ": ")
    card.click(force=True)  # a tap: the page shows why and sends nothing
    assert page.inner_text("#error") == title
    assert page.evaluate("current.step") == step
    answer = page.evaluate(
        """async ([id, name, step]) => {
             const r = await fetch('/api/matches/' + id + '/act', {method: 'POST',
               headers: {'Content-Type': 'application/json'},
               body: JSON.stringify({action: name, step})});
             return [r.status, await r.json()];
           }""", [page.evaluate("current.id"), name, step])
    assert answer[0] == 422
    assert page.evaluate("fetch('/api/matches/' + current.id).then(r => r.json())")["step"] == step
    assert reason


#: What the page shows at the human's turn, read at once (one round trip, not ten).
_LOOK = """() => ({
  step: current.step, exchange: current.exchange, turn: $("turn").textContent,
  trick: current.trick.length,
  playable: document.querySelectorAll("#hand .card.playable").length,
  illegal: document.querySelectorAll("#hand.mine .card.illegal").length,
  buttons: [...document.querySelectorAll("#actions button.action")].map((b) => b.textContent),
  shown: [...document.querySelectorAll(".felt .seat .shown .card")].map((c) =>
           c.getAttribute("aria-label")),
})"""

#: The human's turn again, or the end of the match, after step ``s``.
_NEXT = """(s) => current && current.step > s && (current.terminal ||
             (current.current_player === current.human && !current.bot_turn))"""


def _decide(page: Any, look: dict[str, Any] | None = None) -> str:
    """One decision of the human, by clicking as a person would; what was clicked."""
    look = look or page.evaluate(_LOOK)
    exchange = look["exchange"]
    if exchange:
        if exchange["min"] == 0 and "keep all" in look["buttons"]:
            page.locator("#actions button.action", has_text="keep all").first.click()
            return "keep"
        go = page.locator("#exchange-go")
        assert go.is_disabled()  # nothing picked yet: the button says how many to pick
        cards = page.locator("#hand .card.playable")
        for i in range(max(exchange["min"], 1)):
            cards.nth(i).click()
        go.click()
        return "exchange"
    if look["playable"]:
        page.locator("#hand .card.playable").first.click()
        return "card"
    labels = look["buttons"]
    assert labels and len(set(labels)) == len(labels), labels  # one button per choice
    page.locator("#actions button.action").first.click()
    return "button"


def _play_to_the_end(page: Any, shot: str | None = None, shown: bool = False,
                     most: int = 200) -> dict[str, int]:
    """Play the human's seat by clicking until the match is over; what was clicked.
    ``shot``: the screenshot to take (with a hand shown to all, when ``shown``)."""
    done: dict[str, int] = {"shown": 0, "illegal": 0}
    alive = _wait_my_turn_or_end(page)
    while alive:
        look = page.evaluate(_LOOK)
        assert look["turn"].startswith("Your turn")
        # a hand shown to all (the dummy) is on the table, at its seat, in suit symbols
        assert all(label[-1] in "♣♠♥♦" for label in look["shown"]), look["shown"]
        done["shown"] = max(done["shown"], len(look["shown"]))
        pose = bool(SHOTS and shot and look["trick"] and (look["shown"] or not shown))
        if look["illegal"] and (not done["illegal"] or pose):
            _tap_an_illegal_card(page, page.locator(
                "#hand.mine .card.illegal").first, look["step"])
            done["illegal"] = 1
            if pose:  # a trick on the table, and why a card may not be played
                page.screenshot(path=str(SHOTS / str(shot)))
                shot = None
        what = _decide(page, look)
        done[what] = done.get(what, 0) + 1
        page.wait_for_function(_NEXT, arg=look["step"])
        alive = not page.evaluate("current.terminal")
        assert sum(done.values()) < most
    return done


def _check_final(page: Any, players: int, stopped: bool = True) -> None:
    """The final score screen: a row per seat, the winners marked, the rule that made them
    (and, for a match ``stopped`` at a limit of hands, a note that says so)."""
    page.wait_for_selector("#final:not([hidden])")
    assert page.locator("#final-table tbody tr").count() == players
    assert page.locator("#final-table tr.won").count() == len(page.evaluate("current.winners"))
    title = page.inner_text("#final-title")
    assert title.startswith(("You win", "You share", "You lose"))
    assert page.inner_text("#final-why").startswith("Why: ")
    assert ("stopped at its limit" in page.inner_text("#final-note")) == stopped
    assert page.is_visible("#final-download")


# -- a whole match of five shipped specs, by clicking ------------------------------------------

MATCHES = [  # spec, players, seed, hands (a match stopped after them, as --max-hands does;
    # None: played to the end its own rules set, a few hands of Knektpass for two)
    ("knektpass", 2, 3, None),
    ("hearts", 4, 2, 1),
    ("bridge", 4, 5, 1),
    ("skat", 3, 42, 1),  # (seed 13: with the null's own order every seat passes)
    ("euchre", 4, 4, 1),
]


@pytest.mark.parametrize("spec, players, seed, hands", MATCHES, ids=[m[0] for m in MATCHES])
def test_play_a_whole_match_by_clicking(server: str, page: Any, spec: str, players: int,
                                        seed: int, hands: int | None) -> None:
    _start(page, server, spec=spec, seed=seed, players=players, hands=hands)
    # the seats around the table, the human at the bottom
    around = page.evaluate("current.around")
    assert around["bottom"] == [0]
    assert page.locator("#side-bottom .seat").count() == 1
    for side in ("left", "top", "right"):
        assert page.locator(f"#side-{side} .seat").count() == len(around[side])
    bottom = page.locator("#side-bottom").bounding_box()
    top = page.locator(".felt").bounding_box()
    assert top["y"] < bottom["y"]
    done = _play_to_the_end(page, shot={"knektpass": "play.png", "bridge": "bridge.png"}.get(spec),
                            shown=spec == "bridge")
    assert done.get("card", 0) >= 2, done
    assert done["illegal"], done
    assert done["shown"] or spec != "bridge", done  # the dummy
    _check_final(page, players, stopped=hands is not None)
    if SHOTS and spec == "hearts":
        page.screenshot(path=str(SHOTS / "final.png"))
    page.click("#final-close")
    assert page.is_hidden("#final") and "Hand 1" in page.inner_text("#log")


def _pick_a_play(page: Any, look: dict[str, Any]) -> None:
    """A play of several cards with too many to list: the cards of the first suggested
    play picked one by one (two cards of one name are two clicks), then *play*."""
    x = look["exchange"]
    go = page.locator("#exchange-go")
    assert go.is_disabled() and go.get_attribute("title").endswith("legal plays")
    assert f"{x['count']:,}" in go.get_attribute("title")
    names = page.evaluate("current.actions[0].text").split()[1:]
    for name, k in ((n, names[:i].count(n)) for i, n in enumerate(names)):
        page.locator(f"#hand .card.playable[data-card='{name}']").nth(k).click()
    assert page.locator("#hand .card.picked").count() == len(names)
    assert go.is_enabled()
    go.click()


def test_tractor_plays_are_picked_card_by_card(server: str, page: Any) -> None:
    """Tractor (two decks): a play among thousands is its cards clicked, then *play*;
    the page is sent a few suggestions and the count, never every play."""
    # random bots: the greedy bot's eight burials search up to its time budget each, past
    # the page's wait on a loaded machine
    _start(page, server, spec="tractor", seed=15, hands=1, bots="random")
    picked = 0
    steps = 0
    while _wait_my_turn_or_end(page) and steps < 80:
        look = page.evaluate(_LOOK)
        x = look["exchange"]
        if x and x.get("count") and page.evaluate("current.actions.length"):
            _pick_a_play(page, look)
            picked += 1
        else:
            _decide(page, look)
        page.wait_for_function(_NEXT, arg=look["step"])
        steps += 1
    assert picked >= 2


def test_undo_and_a_hint(server: str, page: Any) -> None:
    _start(page, server, seed=11)
    _wait_my_turn_or_end(page)
    assert page.is_disabled("#undo")  # nothing to take back yet
    step = page.evaluate("current.step")
    hand = page.evaluate("current.hand.map(c => c.name)")
    page.click("#hint")
    page.wait_for_function("document.getElementById('hinttext').textContent.length > 0")
    sentence = page.inner_text("#hinttext")
    assert sentence.startswith("The greedy bot would ") and sentence.endswith(".")
    _decide(page)
    page.wait_for_function("(s) => current.step > s", arg=step)
    _wait_my_turn_or_end(page)
    assert page.is_enabled("#undo")
    page.locator("#hand .card").first.focus()
    page.keyboard.press("u")  # the undo key (the button does the same)
    page.wait_for_function("(s) => current.step === s", arg=step)
    assert page.evaluate("current.hand.map(c => c.name)") == hand
    assert page.inner_text("#turn").startswith("Your turn")


def test_one_button_per_distinct_choice(server: str, page: Any) -> None:
    """Knektpass's swap: once two identical 'exchange' buttons; now 'keep all' and a
    button that says how many cards to pick."""
    _start(page, server, seed=3)
    _wait_my_turn_or_end(page)
    assert page.evaluate("current.exchange") is not None
    labels = page.locator("#actions button.action").all_inner_texts()
    assert len(set(labels)) == len(labels) == 2, labels
    assert "keep all" in labels and any("choose" in x for x in labels)
    page.locator("#hand .card.playable").first.click()
    go = page.inner_text("#exchange-go")
    assert go.split()[-1][-1] in "♣♠♥♦", go  # the picked card in its symbols


def test_keyboard_play(server: str, page: Any) -> None:
    _start(page, server, seed=3, hands=1)
    keys = 0
    while _wait_my_turn_or_end(page) and keys < 8:
        step = page.evaluate("current.step")
        if page.locator("#hand .card.playable").count() and not page.evaluate("current.exchange"):
            page.keyboard.press("ArrowRight")  # along the hand to a legal card, then Enter
            for _ in range(12):
                if page.evaluate("document.activeElement.classList.contains('playable')"):
                    break
                page.keyboard.press("ArrowRight")
            page.keyboard.press("Enter")
        else:
            page.keyboard.press("1")  # the first decision
        page.wait_for_function("(s) => current.step > s", arg=step)
        keys += 1
    assert keys >= 3


def test_a_match_survives_a_reload(server: str, page: Any) -> None:
    _start(page, server, seed=11)
    _wait_my_turn_or_end(page)
    step = page.evaluate("current.step")
    _decide(page)
    page.wait_for_function("(s) => current.step > s", arg=step)
    _wait_my_turn_or_end(page)
    before = page.evaluate("[current.id, current.step, current.hand.map(c => c.name)]")
    assert page.url.endswith("#match=" + before[0])
    page.reload()
    page.wait_for_function("current !== null")
    after = page.evaluate("[current.id, current.step, current.hand.map(c => c.name)]")
    assert after == before


def test_replay_a_log_forwards_and_back(server: str, page: Any, tmp_path: Path) -> None:
    log = tmp_path / "match.json"
    result = CliRunner().invoke(cli, ["play", "knektpass", "--auto", "--seed", "3",
                                      "--max-hands", "1", "--log", str(log)])
    assert result.exit_code == 0, result.output
    total = len(json.loads(log.read_text())["actions"])
    page.goto(server + "/")
    page.wait_for_selector("#spec option", state="attached")
    page.set_input_files("#logfile", str(log))
    page.wait_for_selector("#replaybox:not([hidden])")
    assert page.inner_text("#pos").startswith(f"0 / {total}")
    for _ in range(min(total, 8)):
        pos = page.evaluate("current.pos")
        page.click("#fwd")
        page.wait_for_function("(p) => current.pos === p + 1", arg=pos)
    page.click("#back")
    page.wait_for_function("current.pos === 7")
    page.click("#last-step")
    page.wait_for_function(f"current.pos === {total}")
    assert "Match over" in page.inner_text("#turn")
    if SHOTS:
        page.screenshot(path=str(SHOTS / "replay.png"))
    page.keyboard.press("ArrowLeft")  # the keyboard steps too
    page.wait_for_function(f"current.pos === {total - 1}")


def test_the_hand_is_in_view_on_a_360_px_screen(server: str, browser: Any) -> None:
    context = browser.new_context(viewport={"width": 360, "height": 640})
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    try:
        _start(page, server, spec="hearts", seed=2, players=4, hands=1)
        _wait_my_turn_or_end(page)
        assert page.evaluate("window.scrollY") == 0
        assert page.evaluate("document.documentElement.scrollWidth") <= 360  # no sideways
        cards = page.locator("#hand .card")
        assert cards.count() == 13
        for i in range(cards.count()):  # every card of the hand on the screen, unscrolled
            box = cards.nth(i).bounding_box()
            assert box and box["y"] >= 0 and box["y"] + box["height"] <= 640, (i, box)
            assert box["x"] >= 0 and box["x"] + box["width"] <= 360, (i, box)
        if SHOTS:
            page.screenshot(path=str(SHOTS / "phone.png"), full_page=False)
    finally:
        context.close()


def test_watch_bots_on_a_phone_sized_screen(server: str, browser: Any) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    try:
        _start(page, server, spec="knektpass", seed=5, seat="watch")
        page.wait_for_function("current.step > 3")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        page.click("#pause")
    finally:
        context.close()


def test_the_rules_tab_reads_as_prose_and_nothing_comes_from_elsewhere(server: str,
                                                                        page: Any) -> None:
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url))
    _start(page, server, spec="knektpass", seed=1, players=3)
    page.click("#tab-rules")
    assert page.locator("#rules h3").count() == 1 and page.locator("#rules h4").count() > 3
    text = page.inner_text("#rules")  # the rules for the match's own player count
    assert "With 3 players" in text and "With 2 players" not in text
    assert asked and all(u.startswith(server) or u.startswith("data:") for u in asked), asked
