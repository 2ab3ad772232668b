"""The reading workbench of ``spelbok serve`` in a real browser (headless Chromium driven
by Playwright): open, edit with errors shown at their line, describe and a variant's
changes, a reading file's cases with their positions, a small audit's plot, and saving
as a download (nothing written on the server).

Skipped when Playwright or a Chromium it can start is absent (the system's
``/usr/bin/chromium`` is tried after Playwright's own).  ``SPELBOK_SCREENSHOTS=1``
writes the docs' screenshots (``docs/screenshots/workbench-*.png``).
"""

from __future__ import annotations

import os
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

from spelbok.web.app import create_app  # noqa: E402
from test_web_e2e import _launch  # noqa: E402  (the one way the browser tests find a Chromium)

SHOTS = (Path(__file__).resolve().parent.parent / "docs" / "screenshots"
         if os.environ.get("SPELBOK_SCREENSHOTS") else None)
TIMEOUT_MS = 15_000  # a safety bound on each wait, not a measure
FLOOR_ZERO = "variants/knektpass-floor-zero"


def _shot(page: Any, name: str) -> None:
    if SHOTS is not None:
        page.screenshot(path=str(SHOTS / f"workbench-{name}.png"))


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """The server (in a thread, its working folder an empty one) and that folder."""
    folder = tmp_path_factory.mktemp("cwd")
    before = os.getcwd()
    os.chdir(folder)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    srv = uvicorn.Server(uvicorn.Config(create_app(), host="127.0.0.1", port=port,
                                        log_level="warning"))
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not srv.started and thread.is_alive() and time.monotonic() < deadline:
        time.sleep(0.02)
    try:
        if not srv.started:
            pytest.skip("the test server did not start")
        yield f"http://127.0.0.1:{port}", folder
    finally:
        srv.should_exit = True
        thread.join(timeout=10)
        os.chdir(before)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        b = _launch(p)
        yield b
        b.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1400, "height": 860}, accept_downloads=True)
    pg = context.new_page()
    pg.set_default_timeout(TIMEOUT_MS)
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    yield pg
    context.close()
    assert not errors, errors  # no script error on the page


def _open(page: Any, url: str, spec: str) -> None:
    page.goto(f"{url}/workbench?spec={spec}")
    page.wait_for_selector("#status.good")
    page.wait_for_function("document.getElementById('prose').textContent.length > 100")


def test_edit_a_variant_with_errors_at_their_line(served: tuple[str, Path], page: Any) -> None:
    url, _ = served
    _open(page, url, FLOOR_ZERO)
    assert page.input_value("#text").startswith("# A reading of Knektpass")
    assert page.inner_text("#filename") == "knektpass-floor-zero.yaml"
    assert "options.floor_zero.default" in page.inner_text("#changes")
    assert "default true" in page.inner_text("#changes .diff")
    _shot(page, "rules")
    lines = len(page.input_value("#text").splitlines())
    page.click("#text")
    page.keyboard.press("Control+End")
    page.keyboard.type("bogus: 1")  # as one types: checked without a click
    page.wait_for_selector("#status.bad")
    problem = page.locator("#problems li.error").first
    assert problem.inner_text().startswith(
        f"knektpass-floor-zero.yaml:{lines + 1}:1: unknown key 'bogus'")
    marked = page.locator("#gutter .ln.error")
    assert marked.count() == 1 and marked.inner_text() == str(lines + 1)
    page.click("#text")
    page.keyboard.press("Control+Home")
    problem.click()  # goes to the error's line and column
    assert page.inner_text("#caret") == f"Ln {lines + 1}, Col 1"
    _shot(page, "error")
    for _ in range(len("bogus: 1")):
        page.keyboard.press("Delete")
    page.wait_for_selector("#status.good")
    assert page.locator("#problems li").count() == 0


def test_run_the_reading_file_and_see_positions(served: tuple[str, Path], page: Any) -> None:
    url, _ = served
    _open(page, url, "example")
    text = page.input_value("#text")
    page.fill("#text", text.replace("top_trumps: [JC]", "top_trumps: [JS]"))
    page.wait_for_selector("#status.good")
    page.click("#tab-readings")
    assert page.input_value("#reading") == "example"
    page.click("#run-readings")
    page.wait_for_selector("#cases li")
    assert "1 failed" in page.inner_text("#reading-summary")
    failed = page.locator("#cases li.fail")
    assert failed.count() == 1
    assert "the jack of clubs is the highest trump" in failed.inner_text()
    table = failed.locator("table.position")
    assert table.locator("caption").inner_text() == "Where it stopped"
    assert table.locator("tbody tr").count() == 3  # the reading's three players, one a row
    assert "J♣" in table.inner_text() and "A♥" in table.inner_text()
    passing = page.locator("#cases li.pass").first
    passing.locator("summary").click()
    assert passing.locator("table.position").count() == 1
    _shot(page, "readings")


def test_audit_an_option_and_see_its_plot(served: tuple[str, Path], page: Any) -> None:
    url, _ = served
    _open(page, url, "example")
    page.click("#tab-audit")
    page.select_option("#option", "void_rule")
    page.fill("#games", "4")
    page.click("#run-audit")
    page.wait_for_selector("#plot svg")
    assert "8 matches" in page.inner_text("#audit-status")
    assert page.locator("#plot svg circle").count() == 2  # the default and void_rule=any
    page.select_option("#measure", "length.hands")
    assert page.locator("#plot svg").get_attribute("aria-label") == "Hands per match"
    _shot(page, "audit")


def test_paste_a_spec_and_save_it_as_a_download(served: tuple[str, Path], page: Any) -> None:
    url, folder = served
    _open(page, url, "example")
    text = page.input_value("#text")
    page.click("#paste")
    assert page.input_value("#text") == ""
    page.fill("#text", text.replace("name: Example", "name: Mine\nplayerz: 3"))
    page.wait_for_selector("#status.bad")
    assert page.locator("#problems li").first.inner_text().startswith("<pasted>:")
    with page.expect_download() as info:
        page.click("#save")
    download = info.value
    assert download.suggested_filename == "spec.yaml"
    assert Path(download.path()).read_text(encoding="utf-8") == page.input_value("#text")
    assert list(folder.iterdir()) == []  # the server wrote nothing
