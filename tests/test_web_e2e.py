"""``spelbok serve`` in a real browser: headless Chromium driven by Playwright.

The server runs on a free port in a thread; the tests click as a person would.
Skipped when Playwright or a Chromium it can start is absent.  The screenshots
they take are the README's (docs/screenshots/).
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
           seat: str = "0") -> None:
    page.goto(url + "/")
    page.wait_for_selector(f"#spec option[value='{spec}']", state="attached")
    page.select_option("#spec", spec)
    page.wait_for_function("document.getElementById('rules').textContent.length > 0")
    page.select_option("#speed", "0")  # bots move at once
    page.select_option("#seat", seat)
    page.fill("#seed", str(seed))
    page.click("#start")
    page.wait_for_selector("#table:not([hidden])")


def _wait_my_turn_or_hand(page: Any, hand: int) -> bool:
    """Wait until it is the human's turn (True), or the hand changed or the match ended."""
    page.wait_for_function(
        """(hand) => current && (current.terminal || current.hand_number !== hand ||
                                 (current.current_player === current.human && !current.bot_turn))""",
        arg=hand)
    return bool(page.evaluate(f"!current.terminal && current.hand_number === {hand}"))


def _tap_an_illegal_card(page: Any, card: Any, step: int) -> None:
    """An illegal card refuses on the page with the engine's reason, and on the server too."""
    reason = card.get_attribute("title")
    name = card.get_attribute("data-card")
    card.click(force=True)  # a tap: the page shows why and sends nothing
    assert name in page.inner_text("#error") and reason in page.inner_text("#error")
    assert page.evaluate("current.step") == step
    answer = page.evaluate(
        """async ([id, name, step]) => {
             const r = await fetch('/api/matches/' + id + '/act', {method: 'POST',
               headers: {'Content-Type': 'application/json'},
               body: JSON.stringify({action: name, step})});
             return [r.status, await r.json()];
           }""", [page.evaluate("current.id"), name, step])
    assert answer[0] == 422 and reason in answer[1]["error"]
    assert page.evaluate("fetch('/api/matches/' + current.id).then(r => r.json())")["step"] == step


def test_play_a_whole_knektpass_hand_by_clicking(server: str, page: Any) -> None:
    _start(page, server, seed=3)  # a hand both players play out, trick by trick
    clicks = 0
    illegal_seen = False
    while True:
        if not _wait_my_turn_or_hand(page, 1):
            break
        assert page.inner_text("#turn").startswith("Your turn")
        disabled = page.locator("#hand .card[aria-disabled=true]")
        for i in range(disabled.count()):  # an illegal card says why, on hover
            assert disabled.nth(i).get_attribute("title")
        step = page.evaluate("current.step")
        playable = page.locator("#hand .card.playable")
        if not illegal_seen and disabled.count() and playable.count():
            _tap_an_illegal_card(page, disabled.first, step)
            illegal_seen = True
        buttons = page.locator("#actions button.action")
        if playable.count() and not page.evaluate("current.exchange"):
            if SHOTS and page.locator("#trick .card").count() and disabled.count():
                page.screenshot(path=str(SHOTS / "play.png"))
            playable.first.click()
        else:
            buttons.first.click()
        page.wait_for_function("(s) => current.step > s", arg=step)
        clicks += 1
        assert clicks < 60
    assert clicks >= 5
    assert illegal_seen
    log = page.inner_text("#log")
    assert "Hand 1" in log and "trick 1:" in log and "Hand 2" in log


def test_a_match_survives_a_reload(server: str, page: Any) -> None:
    _start(page, server, seed=11)
    _wait_my_turn_or_hand(page, 1)
    step = page.evaluate("current.step")
    if page.evaluate("current.exchange"):  # give a card away: pick it, then the verb
        page.locator("#hand .card.playable").last.click()
        page.click("#exchange-go")
    else:  # by the keyboard: the cards and decisions are buttons
        page.locator("#actions button.action, #hand .card.playable").first.focus()
        page.keyboard.press("Enter")
    page.wait_for_function("(s) => current.step > s", arg=step)
    _wait_my_turn_or_hand(page, page.evaluate("current.hand_number"))
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


def test_watch_bots_on_a_phone_sized_screen(server: str, browser: Any) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    try:
        _start(page, server, spec="knektpass", seed=5, seat="watch")
        page.wait_for_function("current.step > 10")
        assert page.locator("#hand .card").count() >= 0
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 400  # nothing wider than the screen
        page.click("#pause")
        if SHOTS:
            page.screenshot(path=str(SHOTS / "phone.png"), full_page=False)
    finally:
        context.close()


def test_no_resource_comes_from_elsewhere(server: str, page: Any) -> None:
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url))
    _start(page, server)
    assert asked and all(u.startswith(server) or u.startswith("data:") for u in asked), asked
