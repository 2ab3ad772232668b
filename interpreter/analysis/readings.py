"""Rule readings: scenario files that pin a reading of a rules text to concrete deals.

A reading file (YAML, see ``docs/readings.md`` and ``reading.schema.json``)
names a spec and lists *cases*.  Each case sets up a deal (a stacked deck,
explicit hands, or a :mod:`position <spelbok.engine.position>`), plays actions and
checks expectations along the way.  :func:`run_reading` runs every case and
returns a :class:`ReadingReport`; ``spelbok verify`` prints it.

A case may assume a reading of an ambiguous rule (``reading: {void_rule:
any}``).  It is then judged under that reading; and when the spec under test
reads the rule otherwise, the case is run a second time under the spec's own
reading: if it fails there, the case *separates* the two readings.

This module runs the cases; loading and checking a file is in
:mod:`~spelbok.analysis.reading_file`, the report objects in
:mod:`~spelbok.analysis.reading_report` (both re-exported here), a case's steps in
:mod:`~spelbok.analysis.reading_steps` and the expectations they check in
:mod:`~spelbok.analysis.reading_checks`.

>>> text = '''
... reading: 1
... spec: example
... players: 3
... cases:
...   - name: the jack of clubs is the highest trump
...     cites: "the jack of clubs is the highest trump"
...     position: {trump: H, hands: {0: "KH", 1: "JC", 2: "AH"}, leader: 0}
...     steps:
...       - play: [KH, JC, AH]
...       - expect: {trick_winner: 1}
... '''
>>> report = run_reading("demo.yaml", text=text)
>>> report.ok, [c.status for c in report.cases]
(True, ['pass'])
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..cards import cards_in
from ..errors import (
    SpecError,
    did_you_mean,
)
from .reading_checks import (
    EXPECT_KEYS,
    _examples,
    _settled,
)
from .reading_file import (
    READING_VERSION,
    Path_,
    ReadingFile,
    ReadingFileError,
    ReadingFileErrors,
    load_reading,
)
from .reading_file import load_schema as load_schema
from .reading_report import (
    CaseResult,
    Mismatch,
    ReadingReport,
    _option_diff,
    _opts_text,
    _same_value,
)
from .reading_steps import ACTION_KEYS, _card_items, _Context, _Failed, _kind_of, _seat

if TYPE_CHECKING:
    from ..engine.game import Game
    from ..engine.state import State

__all__ = [
    "READING_VERSION",
    "EXPECT_KEYS",
    "ACTION_KEYS",
    "CaseResult",
    "Mismatch",
    "ReadingFileError",
    "ReadingFileErrors",
    "ReadingReport",
    "load_reading",
    "run_reading",
]


# ----------------------------------------------------------------------------- running



class _Runner:
    """Runs the cases of one reading file against one spec (with game caching)."""

    def __init__(self, rf: ReadingFile, spec: str | os.PathLike[str] | None,
                 options: dict[str, Any] | None,
                 allow_paths: tuple[str | os.PathLike[str], ...] = ()) -> None:
        self.rf = rf
        self.allow_paths = allow_paths
        self.loc = rf.locate
        self.spec_override = spec
        self.cli_options = dict(options or {})
        self.games: dict[tuple[Any, ...], Game] = {}

    # -- specs and games

    def spec_for(self, case: dict[str, Any], i: int) -> tuple[str | os.PathLike[str], Path_]:
        if "spec" in case:
            return self._resolve(str(case["spec"]), ("cases", i, "spec")), ("cases", i, "spec")
        if self.spec_override is not None:
            return self.spec_override, ()
        return self._resolve(str(self.rf.data["spec"])), ("spec",)

    def _resolve(self, spec: str, where: Path_ = ("spec",)) -> str:
        # a reading file names a shipped spec or a file of its own folder, nothing else
        from ..lang.loader import referenced_spec

        found = referenced_spec(spec, self.rf.folder, self.allow_paths, self.loc(where))
        return _display_path(Path(found)) if os.path.isabs(found) else found

    def game(self, spec: str | os.PathLike[str], players: int | None, options: dict[str, Any],
             where: Path_) -> Game:
        from ..engine.game import load

        key = (spec, players, tuple(sorted((k, repr(v)) for k, v in options.items())))
        g = self.games.get(key)
        if g is None:
            try:
                g = load(spec, players=players, options=options, allow_paths=self.allow_paths)
            except SpecError as e:
                if e.line is not None:  # a problem inside the spec file itself
                    raise
                what = f"{e.path}: {e.message}" if e.path else e.message
                raise self.loc.error(where, what, hint=e.hint) from None
            self.games[key] = g
        return g

    # -- one case

    def run_case(self, i: int, case: dict[str, Any]) -> CaseResult:
        data = self.rf.data
        cites = case["cites"] if isinstance(case["cites"], list) else [case["cites"]]
        result = CaseResult(name=str(case["name"]), status="pass", cites=[str(c) for c in cites],
                            line=self.loc.line(("cases", i)))
        spec, spec_where = self.spec_for(case, i)
        players = case.get("players", data.get("players"))
        options = {**self.cli_options, **(data.get("options") or {}), **(case.get("options") or {})}
        reading = dict(case.get("reading") or {})
        result.reading = {**(case.get("options") or {}), **reading}
        opt_where = ("cases", i, "options") if case.get("options") else spec_where
        try:
            base = self.game(spec, players, options, opt_where)
            for k in reading:
                if k not in base.options:
                    raise self.loc.error(("cases", i, "reading", k),
                                         f"{base.name} has no option '{k}'",
                                         hint=did_you_mean(str(k), base.options), key=True)
            differs = {k: base.options.get(k) for k in reading
                       if not _same_value(base.options.get(k), reading[k])}
            verdict_game = (self.game(spec, players, {**options, **reading},
                                      ("cases", i, "reading")) if differs else base)
            file_game = None
            if self.spec_override is not None and "spec" not in case:
                file_spec = self._resolve(str(data["spec"]))
                file_game = self.game(file_spec, players, options, ("spec",))
        except ReadingFileError as e:
            result.status = "error"
            result.message = str(e)
            return result
        result.options = dict(verdict_game.options)
        self.play(verdict_game, i, case, result)
        unforced = result
        if differs:
            unforced = self.fresh(result, base)
            self.play(base, i, case, unforced)
        if file_game is not None:
            # --spec: does the case tell the file's spec and the given one apart?
            on_file = self.fresh(result, file_game)
            self.play(file_game, i, case, on_file)
            result.separates = on_file.ok != unforced.ok
            changed = _option_diff(file_game.options, base.options)
            a = f"{self._resolve(str(data['spec']))}" + (f" ({_opts_text(changed[0])})" if changed[0] else "")
            b = f"{self.spec_override}" + (f" ({_opts_text(changed[1])})" if changed[1] else "")
            if result.separates:
                failing, passing = (unforced, a) if on_file.ok else (on_file, b)
                # the other run when it is the one that fails (this run's own failure is
                # the case's: itself as its "compared" would make a cycle)
                result.compared = failing if failing is not result else None
                result.compare_text = (f"passes under {a}, fails under {b}" if on_file.ok
                                       else f"fails under {a}, passes under {b}")
                del passing
            if not result.ok and not reading and "spec" not in case:
                result.note = ("this case fails against the spec given with --spec; if it "
                               "depends on how a rule is read, say so with `reading:`")
        elif differs:
            result.compared = unforced
            # a case that fails under its own reading tells nothing apart
            result.separates = (not unforced.ok) if result.ok else None
            result.spec_reading = differs
            result.compare_text = f"under this spec's {_opts_text(differs)}"
        return result

    def fresh(self, like: CaseResult, game: Game) -> CaseResult:
        return CaseResult(name=like.name, status="pass", cites=like.cites, line=like.line,
                          options=dict(game.options))

    def play(self, game: Game, i: int, case: dict[str, Any], result: CaseResult) -> None:
        try:
            st = self.setup(game, i, case)
            result.start = st.clone()
        except SpecError as e:
            result.status = "error"
            result.message = str(self._locate_setup(e, i))
            return
        except ReadingFileError as e:  # pragma: no cover - ReadingFileError is a SpecError
            result.status = "error"
            result.message = str(e)
            return
        ctx = _Context(game, st, self.loc, i)
        result.end = st  # where the case stops: its last step, or the one that failed
        for j, step in enumerate(case.get("steps") or []):
            path = ("cases", i, "steps", j)
            try:
                ctx.step(step, path)
            except _Failed as f:
                result.status = "fail"
                result.step = j + 1
                result.step_line = self.loc.line(path)
                result.history = list(ctx.history)
                result.mismatches = f.mismatches
                result.message = f.message
                return
            except ReadingFileError as e:
                result.status = "error"
                result.step = j + 1
                result.step_line = self.loc.line(path)
                result.history = list(ctx.history)
                result.message = str(e)
                return

    def _locate_setup(self, e: SpecError, i: int) -> SpecError:
        from ..engine.position import PositionError

        if isinstance(e, PositionError):
            file, line, col = self.loc(("cases", i, "position", *e.key), key=False)
            e.path, e.line, e.col = file, line, col
            return e
        if e.line is None:
            file, line, col = self.loc(("cases", i))
            return ReadingFileError(e.message, file, line, col, e.hint)
        return e

    def setup(self, game: Game, i: int, case: dict[str, Any]) -> State:
        data = self.rf.data
        seed = int(case.get("seed", data.get("seed", 1)))
        dealer = case.get("dealer", data.get("dealer"))
        start: dict[str, Any] = {"seed": seed, "dealer": None}
        if dealer is not None:
            if not isinstance(dealer, int) or not 0 <= dealer < game.players:
                raise self.loc.error(("cases", i, "dealer"),
                                     f"there is no seat {dealer} ({game.players} players)")
            start["dealer"] = dealer
        if "position" in case:
            pos = dict(case["position"])
            if dealer is not None and "dealer" not in pos:
                pos["dealer"] = dealer
            start["position"] = pos
        elif "deck" in case:
            start["deck"] = self.full_deck(game, case["deck"], ("cases", i, "deck"))
            if dealer is None:
                start["dealer"] = 0
        elif any(k in case for k in ("hands", "turn_up", "talon")):
            if dealer is None:
                start["dealer"] = 0
            start["deck"] = self.deal_to_deck(game, case, i, start)
        return game.new_state(seed=start["seed"], deck=start.get("deck"),
                              dealer=start["dealer"], position=start.get("position"),
                              record=True)

    def cards(self, game: Game, value: Any, where: Path_, taken: set[int] | None = None
              ) -> list[int]:
        """The card ids written in ``value``, in the game's pack; a name given again
        is its next copy (``taken``: the ids already given elsewhere, added to)."""
        pack = game.program.pack
        items = _card_items(value)
        if items is None:
            raise self.loc.error(where, f"expected cards, as 'AS KH 10D' or a list, got "
                                        f"{_kind_of(value)}")
        taken = set() if taken is None else taken
        out = []
        for j, text in enumerate(items):
            before = len(taken)
            c = pack.take_card(str(text), taken) if len(str(text)) <= 8 else None
            p = where if isinstance(value, str) else (*where, j)
            if c is None:
                raise self.loc.error(p, f"'{text}' is not a card (write cards like "
                                     f"{_examples(pack)})")
            if len(taken) == before:
                more = f" ({pack.copies} copies)" if pack.copies > 1 else ""
                raise self.loc.error(p, f"{pack.names[c]} is given twice{more}")
            if not (game.program.deck_mask >> c) & 1:
                raise self.loc.error(p, f"{pack.names[c]} is not in the pack of {game.name} "
                                     f"with {game.players} players")
            out.append(c)
        return out

    def full_deck(self, game: Game, value: Any, where: Path_) -> list[str]:
        """The stacked deck, top first; the rest of the pack follows in pack order."""
        given = self.cards(game, value, where)
        names = game.program.pack.names
        seen = set(given)
        return [names[c] for c in given] + [names[c] for c in game.program.deck if c not in seen]

    def deal_to_deck(self, game: Game, case: dict[str, Any], i: int, start: dict[str, Any]
                     ) -> list[str]:
        """Stack the deck so that the first deal gives these hands, turn-up and talon.

        The hand's own steps are run once on the pack in order, to see which
        deck position ends up where; the given cards are then put there.
        """
        card_pack = game.program.pack
        pack = game.deck
        probe = game.new_state(seed=start["seed"], deck=pack, dealer=start["dealer"],
                               record=True)
        # deck position of each id: the names are read back as the game reads a stacked deck
        placed: set[int] = set()
        index = {card_pack.take_card(n, placed): k for k, n in enumerate(pack)}
        deck: list[int | None] = [None] * len(pack)
        used: set[int] = set()

        def put(slots: list[int], cards: list[int], where: Path_, what: str) -> None:
            if len(cards) > len(slots):
                raise self.loc.error(where, f"{what} gets {len(slots)} card(s) in the deal, "
                                     f"{len(cards)} are given")
            if len(cards) < len(slots) and what.startswith("seat"):
                raise self.loc.error(where, f"{what} gets {len(slots)} card(s) in the deal, "
                                     f"only {len(cards)} are given")
            for slot, c in zip(slots, cards):
                deck[slot] = c

        hands = case.get("hands") or {}
        items = hands.items() if isinstance(hands, dict) else enumerate(hands)
        dealt = _first_deal(probe, game, pack)
        where: Path_
        for k, v in items:
            where = ("cases", i, "hands", k)
            seat = _seat(k, game.players, self.loc, where)
            slots = dealt[seat] if dealt is not None else sorted(
                index[c] for c in cards_in(probe.hands[seat]))
            put(slots, self.cards(game, v, where, used), where, f"seat {seat}")
        if "turn_up" in case:
            where = ("cases", i, "turn_up")
            put([index[c] for c in probe.turn_up], self.cards(game, case["turn_up"],
                where, used), where, "the turn-up")
        if "talon" in case:
            where = ("cases", i, "talon")
            put([index[c] for c in reversed(_settled(probe).stock)],
                self.cards(game, case["talon"], where, used), where, "the talon")
        rest = iter(c for c in game.program.deck if c not in used)
        names = card_pack.names
        return [names[c if c is not None else next(rest)] for c in deck]


def _first_deal(probe: Any, game: Game, pack: list[str]) -> list[list[int]] | None:
    """The deck positions each seat got in the first hand's deal, when that hand ended
    before any decision (a hand pattern that settles it at once, a redeal): the probe's
    hands are then the next hand's.  None while the probe is still in its first hand."""
    if probe.hand_number == 1 and not probe.is_terminal:
        return None
    hands = None
    for e in probe.log:
        if e["event"] == "deal":
            hands = e["hands"]
        elif e["event"] in ("end_hand", "end_hand_early", "redeal") and hands is not None:
            break
    if hands is None:
        return None
    free: dict[str, list[int]] = {}
    for k, name in enumerate(pack):  # copies share a name: any of its positions will do
        free.setdefault(name.upper(), []).append(k)
    return [sorted(free[n.upper()].pop(0) for n in seat_hand) for seat_hand in hands]



def _display_path(p: Path) -> str:
    """A path as short as it can be said: relative to the working folder when inside it."""
    full = os.path.normpath(os.path.abspath(p))
    try:
        rel = os.path.relpath(full)
    except ValueError:  # pragma: no cover - another drive on Windows
        return full
    return full if rel.startswith("..") else rel



# ----------------------------------------------------------------------------- entry point


def run_reading(
    path: str | os.PathLike[str],
    spec: str | os.PathLike[str] | None = None,
    options: dict[str, Any] | None = None,
    *,
    text: str | None = None,
    only: Callable[[str], bool] | None = None,
    allow_paths: Iterable[str | os.PathLike[str]] = (),
    folder: str | os.PathLike[str] | None = None,
) -> ReadingReport:
    """Run every case of a reading file; return the report (never raises for a failing case).

    ``spec`` replaces the file's spec (cases that name their own spec keep it);
    ``options`` set option values for every case, like a variant would
    (``{"void_rule": "any"}``); ``text`` gives the file's text directly;
    ``only`` filters cases by name; the file's ``spec:`` names a shipped spec
    or a file in the reading file's folder (or below), or in one of the
    folders ``allow_paths`` lists; ``folder`` is that folder for a ``text``
    (default: the folder ``path`` names).  ``spec`` may be a
    :class:`~spelbok.lang.loader.SpecText` (a spec being edited).  A file that cannot be read raises
    :class:`ReadingFileErrors` / :class:`ReadingError`; a case whose set-up is
    impossible is reported with status ``error``.

    >>> r = run_reading("example", only=lambda name: "32-card" in name)
    >>> r.ok, len(r.cases) >= 1
    (True, True)
    """
    rf = load_reading(path, text=text, folder=folder)
    allowed = tuple(allow_paths)
    runner = _Runner(rf, spec, options, allowed)
    # the spec (and the options given) must load before any case runs
    target = spec if spec is not None else runner._resolve(str(rf.data["spec"]))
    players = rf.data.get("players")
    from ..engine.game import load

    if spec is None:
        runner.game(target, players, {}, ("spec",))
    else:
        load(target, players=players, allow_paths=allowed)
    if options:
        # an unknown option: a plain error
        load(target, players=players, options=dict(options), allow_paths=allowed)
    if rf.data.get("options"):
        runner.game(target, players, {**(options or {}), **rf.data["options"]}, ("options",))
    results = []
    for i, case in enumerate(rf.data.get("cases") or []):
        if only is not None and not only(str(case.get("name", ""))):
            continue
        results.append(runner.run_case(i, case))
    if spec is not None:
        spec_text = os.fspath(spec)
    else:
        spec_text = runner._resolve(str(rf.data["spec"]))
    versus = runner._resolve(str(rf.data["spec"])) if spec is not None else None
    return ReadingReport(path=rf.path, spec=spec_text, title=rf.title, cases=results,
                         players=rf.data.get("players"), versus=versus)
