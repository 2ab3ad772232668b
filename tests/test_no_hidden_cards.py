"""No hidden card on any screen (issue 30, item 1).

What a person's seat is shown (every line the terminal prints, everything the web page
receives) never names a card that seat cannot see at that moment.  The oracle, "the cards
hidden from this seat now", is built from the engine's state apart from the renderers:
the match is replayed one instruction at a time, and after each instruction the seat has
seen its own hand and discards, the turn-up, the cards shown to all (``known``: a dummy,
shown melds, a card taken from the turn-up), the cards played face up, and the cards
named in public decisions (a called card).  What it has seen in a hand stays seen until
the next hand; every other card of the deck is hidden.
"""

from __future__ import annotations

import ast
import json
import random
import re
from collections.abc import Iterable, Iterator
from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest
import spelbok
from click.testing import CliRunner
from spelbok.cards import cards_in
from spelbok.cli.main import cli
from spelbok.cli.play import SeatLog, _menu, _panel, _prompt_lines
from spelbok.cli.render import Narrator, Style, card, transcript
from spelbok.engine.events import EVENTS
from spelbok.play.bots import make_bot
from spelbok.web.sessions import Match

from tests.spec_cases import players

SPECS = Path(__file__).resolve().parent.parent / "specs"
SHIPPED = sorted(SPECS.glob("*.yaml")) + sorted((SPECS / "variants").glob("*.yaml"))
#: Actions played per match (about two hands of most games): enough to meet every step
#: kind of a hand, few enough that the ~90 matches take seconds.
MAX_ACTIONS = 90
SEAT = 0
#: The web table is checked at each of the person's turns and after every this many
#: moves (it re-tells the whole log each time; the terminal is checked at every event).
WEB_EVERY = 3


# -- the event kinds ------------------------------------------------------------------------

def recorded_kinds() -> set[str]:
    """The kinds of event the package's sources record (``….event("kind", ...)``); a call
    whose kind is not written out fails (the scan could not see it)."""
    root = Path(spelbok.__file__).resolve().parent
    kinds: set[str] = set()
    for path in root.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr == "event"):
                kind = node.args[0] if node.args else None
                assert isinstance(kind, ast.Constant) and isinstance(kind.value, str), \
                    f"{path.name}:{node.lineno}: an event's kind must be a literal"
                kinds.add(kind.value)
    return kinds


def test_event_kinds_are_declared_once() -> None:
    kinds = recorded_kinds()
    assert "trick" in kinds and "pass" in kinds  # the scan finds the engine's events
    assert kinds - set(EVENTS) == set(), "declare these kinds in spelbok.engine.events"
    assert set(EVENTS) - kinds == set(), "declared kinds that no step records"


@pytest.mark.parametrize("kind", sorted(EVENTS))
def test_every_event_kind_has_a_renderer(kind: str) -> None:
    assert callable(getattr(Narrator, "_ev_" + kind, None)), \
        f"the narrator has no renderer for '{kind}' events (Narrator._ev_{kind})"


def test_a_seat_never_sees_an_event_raw() -> None:
    event = {"event": "novel", "seat": 1, "cards": ["QC", "AS"]}
    seat = Narrator(["you", "P1"], viewer=0)
    assert seat.feed(event) + seat.flush() == ["  (novel)"]
    assert "QC" in " ".join(Narrator(["P0", "P1"]).feed(event))  # a transcript shows all


def test_a_broken_event_is_not_shown_raw_to_a_seat() -> None:
    seat = Narrator(["you", "P1"], viewer=0)
    lines = seat.feed({"event": "trick", "cards": "QC", "number": 1})  # malformed: fails
    assert lines == ["  (trick)"]


# -- the oracle -----------------------------------------------------------------------------

class Oracle:
    """The card names hidden from ``seat`` at each event of a match (``hidden_at``)."""

    def __init__(self, game: Any, start: dict[str, Any], seat: int) -> None:
        self.st = game._start(start, record=True)
        self.seat = seat
        self.pack = game.program.pack
        self.deck = list(game.program.deck)
        self.seen: set[int] = set()
        self.public: set[str] = set()
        rec = self.st.rec
        # the start runs as one: before its first hand (a cut) no card is dealt, none hidden
        first = next((i for i, e in enumerate(rec) if e.get("event") == "hand"), len(rec))
        self.hidden_at: list[frozenset[str]] = [frozenset()] * first
        self._look()
        self.hidden_at += [self.hidden()] * (len(rec) - first)

    def hidden(self) -> frozenset[str]:
        names = self.pack.names
        seen = {names[c] for c in self.seen} | self.public
        return frozenset(names[c] for c in self.deck
                         if c not in self.seen and names[c] not in seen)

    def _look(self) -> None:
        """Add what the seat sees now to what it has seen in this hand."""
        st, s = self.st, self.seat
        m = st.hands[s] | st.discarded[s]
        for p in range(st.n):
            m |= st.known[p]
        self.seen.update(cards_in(m))
        self.seen.update(st.turn_up)
        for _lead, cards, _w in [*st.history_tricks, (0, tuple(st.trick.cards), 0)]:
            for p, c in cards:
                if p == s or not (st.hidden >> c) & 1:
                    self.seen.add(c)
        v = st.view(s)  # cards named in public decisions (a called card), not where they are
        said = json.dumps([v.get("decisions"), v.get("auction")])
        self.public |= {w for w in re.findall(r"[^\s\"',\[\]]+", said) if w in self._names}

    @property
    def _names(self) -> set[str]:
        return set(self.pack.names)

    def _noted(self, k: int) -> None:
        """Hidden sets for the events from ``k`` on, just recorded by one instruction."""
        rec = self.st.rec
        before = self.hidden()
        new = rec[k:]
        j = next((i for i, e in enumerate(new) if e.get("event") == "hand"), None)
        if j is not None:  # a hand ended and the next began: its events see the old hand
            self.hidden_at += [before] * j
            self.seen, self.public = set(), set()
            new = new[j:]
        self._look()
        self.hidden_at += [self.hidden()] * len(new)

    def apply(self, a: Any) -> None:
        """``State.run_action``, one instruction at a time (as spelbok.play.explain does)."""
        st = self.st
        code = st.prog.code
        st.legal_cache = None
        seat = st.current
        st.hist = (st.hist, a)
        k = len(st.rec)
        more = code[st.pc].apply(st, seat, a)
        self._noted(k)
        if more:
            return
        st.current = None
        while not st.is_terminal:
            k = len(st.rec)
            if st.pc >= len(code):
                st.prog.end_hand(st)
                self._noted(k)
                continue
            go = code[st.pc].run(st)
            self._noted(k)
            if not go:
                return


@lru_cache(maxsize=4096)
def _pattern(hidden: frozenset[str], pack: Any) -> re.Pattern[str] | None:
    """Every notation a hidden card is written in: its name (``QC``, ``10H``), with its
    suit symbol (``Q♣``), ``T`` for 10 (``TH``, ``T♥``), and lower case (``10h``)."""
    forms: set[str] = set()
    taken: set[int] = set()
    for name in hidden:
        c = pack.take_card(name, set(taken))
        symbol = pack.symbol_names[c] if c is not None else name
        for form in (name, symbol):
            forms.add(form)
            if form.startswith("10"):
                forms.add("T" + form[2:])
            if any(ch.isdigit() for ch in form):
                forms.add(form.lower())
    if not forms:
        return None
    alts = "|".join(re.escape(f) for f in sorted(forms, key=len, reverse=True))
    return re.compile(rf"(?<![0-9A-Za-z])(?:{alts})(?![0-9A-Za-z])")


#: A formula's literal, as an explanation quotes the spec's rule (``holds('JH')``): the
#: rule names a card, not where it is.
_QUOTED = re.compile(r"'[^'\s]*'")


def leaks(lines: Iterable[str], hidden: frozenset[str], pack: Any) -> list[str]:
    pattern = _pattern(hidden, pack)
    if pattern is None:
        return []
    return [f"{line!r} names {m.group(0)}" for line in lines
            for m in [pattern.search(_QUOTED.sub("''", line))] if m]


def strings(value: Any) -> Iterator[str]:
    """Every text in a JSON value (keys too)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield str(k)
            yield from strings(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from strings(v)


def current_hand(log: list[str]) -> list[str]:
    """The web log's lines of the hand being played (earlier hands were checked then)."""
    starts = [i for i, line in enumerate(log) if line.startswith("Hand ")]
    return log[starts[-1]:] if starts else log


# -- every shipped spec, a person at seat 0 ----------------------------------------------------

def cases() -> list[Any]:
    out = []
    for path in SHIPPED:
        for n in sorted(set(players(path))):
            rel = path.relative_to(SPECS).as_posix()
            out.append(pytest.param(path, n, id=f"{rel}-{n}"))
    return out


def play_and_check(path: Path, n: int, seed: int = 5) -> tuple[list[str], int]:
    """Play ``path`` with a person (random moves) at SEAT and random bots elsewhere; every
    terminal line and web message checked against the oracle.  The problems found, and
    the number of lines and texts checked."""
    game = spelbok.load(path, players=n, max_hands=2)
    pack = game.program.pack
    bots = {p: make_bot("random", seed=seed * 10 + p) for p in range(n) if p != SEAT}
    match = Match(game, str(path), seed, SEAT, bots, {})
    state = match.state
    oracle = Oracle(game, state.start, SEAT)
    followed = 0

    def follow() -> None:
        """The oracle plays what the table played: one move, or several when the table
        also played lone passes for their players."""
        nonlocal followed
        for a in state.actions[followed:]:
            oracle.apply(a)
        followed = len(state.actions)

    follow()  # the table may have played lone passes before anyone is asked
    style = Style(symbols=False).for_game(game)  # the terminal in letters, the web in symbols
    names = match.names
    tell = SeatLog(game, names, SEAT, style)
    pick = random.Random(seed)
    found: list[str] = []
    checked = 0

    def check(where: str, lines: list[str], hidden: frozenset[str]) -> None:
        nonlocal checked
        checked += len(lines)
        found.extend(f"{where}: {x}" for x in leaks(lines, hidden, pack))

    def asking() -> frozenset[str]:
        """Hidden now, less the cards the seat's own choices name (a card to call is
        named, not shown)."""
        now = oracle.hidden()
        if state.current_player != SEAT:
            return now
        legal = state.legal_actions()
        if type(legal) is not list:  # every exchange of many cards: the seat's own cards
            return now
        return now - {w for a in legal for w in str(a).split()}

    def terminal() -> None:
        events = tell.sync(state)
        for i in range(tell.shown, len(events)):
            check(f"event {i} ({events[i].get('event')})", tell.narrator.feed(events[i]),
                  oracle.hidden_at[i])
        tell.shown = len(events)
        if state.current_player == SEAT:  # the terminal asks: what it shows then
            now = asking()
            check("flush", tell.narrator.flush(), oracle.hidden_at[-1])
            legal = state.legal_actions()
            menu = _menu(legal, game, state.view(SEAT).get("trump"))
            check("panel", _panel(state, SEAT, names, style)
                  + _prompt_lines(state, menu, legal, style), now)
            begin = max((i for i, e in enumerate(events) if e.get("event") == "hand"),
                        default=0)
            check("log command", transcript(events[begin:], names, style=style, viewer=SEAT),
                  now)

    def web() -> None:
        # the table's whole view data (web/tableview.py): seats around, shown hands,
        # cards with their reasons, buttons, the final table
        table = match.to_json()
        now = asking()
        check("web log", current_hand(table.pop("log")), now)
        del table["id"]  # a random token (it may read '3H-...'), no card
        check("web table", list(strings(table)), now)
        if state.current_player == SEAT and type(state.legal_actions()) is list:
            check("web hint", [match.hint("greedy")["sentence"]], now)

    terminal()
    web()
    steps = 0
    while not state.is_terminal and steps < MAX_ACTIONS:
        if state.current_player == SEAT:
            legal = state.legal_actions()
            match.act(str(legal[pick.randrange(len(legal))]))
        else:
            match.advance()
        follow()
        steps += 1
        terminal()
        if state.current_player == SEAT or steps % WEB_EVERY == 0 or state.is_terminal:
            web()
    assert oracle.st.rec == state.log  # the oracle followed the match
    return found, checked


@pytest.mark.parametrize("path, n", cases())
def test_no_hidden_card_on_any_screen(path: Path, n: int) -> None:
    found, checked = play_and_check(path, n)
    assert checked > 50
    assert found == [], "\n".join(found[:10])


# -- the cases of the issue --------------------------------------------------------------------

def test_hearts_passes_are_not_shown_to_others() -> None:
    """``play hearts --seed 5``: P2's pass to P3 printed its cards before the person passed."""
    out = CliRunner().invoke(cli, ["play", "hearts", "--seed", "5", "--plain"],
                             input="quit\n").output
    assert "pass: P2 3 cards -> P3" in out
    assert "cards=[" not in out and "QC, AC, QS" not in out


def test_bridge_dummy_is_shown_to_all_as_a_hand() -> None:
    """The dummy: a line saying who shows which cards, and the table showing them."""
    game = spelbok.load("bridge")
    bots = {p: make_bot("random", seed=p) for p in range(1, 4)}
    match = Match(game, "bridge", 3, 0, bots, {})
    st = match.state
    while not any(e.get("event") == "dummy" for e in st.log):
        if st.current_player == 0:
            match.act(str(st.legal_actions()[0]))
        else:
            match.advance()
    dummy = next(e["seat"] for e in st.log if e.get("event") == "dummy")
    assert sum(len(t[1]) for t in st.view(0)["tricks_played"]) + len(st.view(0)["trick"]) == 1
    table = match.to_json()
    log = [line for line in table["log"] if line.startswith(f"  {match.names[dummy]} show")]
    assert log and "melds:" not in "\n".join(table["log"])
    if dummy != 0:
        assert table["shown"][dummy] and not table["shown"][0]
        style = Style(symbols=False).for_game(game)
        while st.current_player != 0:
            match.advance()
        panel = _panel(st, 0, match.names, style)
        assert any(line.startswith(f"  P{dummy} shows") for line in panel)


def test_auto_transcript_says_it_shows_every_card() -> None:
    out = CliRunner().invoke(cli, ["play", "example", "--auto", "--seed", "1", "--plain"]).output
    assert "shows every card" in out.splitlines()[1]


def test_a_face_down_card_stays_hidden_in_a_seats_log() -> None:
    events = [{"event": "hand", "number": 1, "dealer": 0},
              {"event": "face_down", "seat": 1, "card": "7H"},
              {"event": "trick", "number": 1, "cards": [[0, "AS"], [1, "7H"]], "winner": 0}]
    lines = transcript(events, ["you", "P1"], viewer=0)
    assert "7H" not in "\n".join(lines) and "P1 ?" in "\n".join(lines)
    assert "7♥ face down" in "\n".join(transcript(events, 2))


def test_the_oracle_finds_a_hidden_card_in_every_notation() -> None:
    """The check can fail: another seat's card, written as the renderers write cards."""
    game = spelbok.load("hearts")
    state = game.new_state(seed=5)
    oracle = Oracle(game, state.start, SEAT)
    hidden = oracle.hidden()
    other = game.program.pack.names_of(state.hands[1])
    ten = next((c for c in other if c.startswith("10")), None)
    assert set(other) <= hidden and not hidden & set(state.view(SEAT)["hand"])
    pack = game.program.pack
    name = other[0]
    styled = Style().for_game(game)
    for text in (name, card(name, styled), f"({name})", f"{name}, "):
        assert leaks([f"P1 holds {text}"], hidden, pack), text
    if ten is not None:
        assert len(leaks([f"P1 holds T{ten[2:]}", f"x {ten.lower()}"], hidden, pack)) == 2
    mine = state.view(SEAT)["hand"][0]
    assert not leaks([f"you hold {mine}", "as you like", "QUACK"], hidden, pack)
