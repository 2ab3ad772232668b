"""``spelbok play`` driven through a real pseudo-terminal, as a person would use it."""

from __future__ import annotations

import io
import os
import re
import shutil
import signal
import tempfile
from typing import Any

import pytest

pexpect = pytest.importorskip("pexpect")

SPELBOK = shutil.which("spelbok")
pytestmark = pytest.mark.skipif(SPELBOK is None or os.name != "posix",
                                reason="needs the installed spelbok command and a POSIX pty")

ARGS = ["play", "knektpass", "--players", "2", "--seed", "1"]
SYMBOL_TO_LETTER = {"♣": "c", "♠": "s", "♥": "h", "♦": "d"}


_STATE = tempfile.mkdtemp(prefix="spelbok-pty-")


def spawn() -> Any:
    env = {**os.environ, "NO_COLOR": "1", "TERM": "xterm", "PYTHONIOENCODING": "utf-8",
           "XDG_STATE_HOME": _STATE}  # an interrupted match is saved there, not in $HOME
    assert SPELBOK is not None
    # a generous safety net for each wait: a loaded machine starts Python slowly.
    # Ctrl-C as a person's terminal has it: a test run started in the background (an
    # asynchronous command of a shell without job control) ignores SIGINT, and a
    # process started from it would too (Python keeps an ignored SIGINT ignored).
    return pexpect.spawn(SPELBOK, ARGS, env=env, encoding="utf-8", timeout=120,
                         dimensions=(50, 160), preexec_fn=_default_interrupt)


def _default_interrupt() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def next_prompt(child: Any) -> str:
    """Wait for the '> ' prompt; the text shown since the last answer."""
    child.expect(r"\n> ")
    return str(child.before)


def notation(shown: str) -> str:
    """A card as shown (``10♥``) in lower-case notation (``10h``)."""
    return shown[:-1].lower() + SYMBOL_TO_LETTER[shown[-1]]


def hand_cards(screen: str) -> list[str]:
    line = re.findall(r"your hand  (.*)", screen)[-1]
    return [c for c in line.replace("│", " ").split() if c]


def menu_cards(screen: str) -> list[str]:
    line = re.findall(r"your card: (.*)", screen)[-1]
    return re.findall(r"\d+ (\S+)", line)


def test_a_person_plays_through_a_terminal() -> None:
    child = spawn()
    try:
        screen = next_prompt(child)
        assert "Knektpass · 2 players · seed 1" in screen
        assert "your hand  " in screen and "scores     you 12 · P1 12" in screen
        assert "announce: 1 play  2 pass" in screen
        child.sendline("1")  # a menu number: play

        refused = answered_in_notation = False
        for _ in range(120):
            screen = next_prompt(child)
            assert "Traceback" not in screen
            if "keep all" in screen:  # an exchange
                child.sendline("exchange")  # notation: keep every card
                answered_in_notation = True
                continue
            if "announce: 1 play  2 pass" in screen:
                child.sendline("play")
                continue
            if "your card: " not in screen:
                child.sendline("1")
                continue
            hand, legal = hand_cards(screen), menu_cards(screen)
            illegal = [c for c in hand if c not in legal]
            if not illegal:
                child.sendline(notation(legal[-1]).upper())  # notation, upper case
                answered_in_notation = True
                continue
            child.sendline(notation(illegal[0]))  # a card the rules forbid here
            again = next_prompt(child)
            assert "is not allowed: you must" in again  # the reason
            assert "✗" in again
            child.sendline(notation(legal[0]))
            refused = True
            break
        assert refused and answered_in_notation

        next_prompt(child)
        child.sendline("help")
        screen = next_prompt(child)
        assert "How to answer" in screen and "quit" in screen
        child.sendline("quit")
        child.expect(r"Match abandoned in hand \d+ \(seed 1\)\.")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0
    assert "Traceback" not in str(child.before)


def interrupt(child: Any) -> None:
    """Ctrl-C at the prompt until the process answers it (its message or its end).

    The prompt is written just before the process starts waiting for the answer; a
    Ctrl-C sent as soon as it shows can arrive in between, and then Python only notes
    the signal while the wait that follows (readline's) goes on until the next key,
    so this one Ctrl-C is never answered (a few times in a hundred on a loaded machine).
    A person presses it again: so does the test, when nothing came back for a while.
    """
    for _ in range(30):
        child.sendintr()
        seen = child.expect([r"Interrupted in hand", r"interrupted", pexpect.EOF, pexpect.TIMEOUT],
                            timeout=5)
        if seen < 2:
            child.expect(pexpect.EOF)
        if seen < 3:
            return
    raise AssertionError("the process never answered Ctrl-C")


def test_interrupt_exits_130_without_a_traceback() -> None:
    child = spawn()
    after = io.StringIO()  # everything shown after the prompt
    try:
        next_prompt(child)
        child.logfile_read = after
        interrupt(child)
    finally:
        child.close()
    assert child.exitstatus == 130
    assert "Traceback" not in after.getvalue()
