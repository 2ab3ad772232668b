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
:mod:`~spelbok.analysis.reading_report` (both re-exported here).

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

from ..cards import FRENCH, Pack, cards_in
from ..engine.actions import CARDS, Action, ascii_number, parse_action
from ..errors import (
    ActionError,
    IllegalActionError,
    InvalidActionError,
    SpecError,
    did_you_mean,
)
from ..limits import short_repr
from .reading_file import (
    READING_VERSION,
    Path_,
    ReadingFile,
    ReadingFileError,
    ReadingFileErrors,
    _Locator,
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
    _show,
)

if TYPE_CHECKING:
    from ..engine.game import Game
    from ..engine.program import Phase
    from ..engine.state import State

__all__ = [
    "READING_VERSION",
    "EXPECT_KEYS",
    "CaseResult",
    "Mismatch",
    "ReadingFileError",
    "ReadingFileErrors",
    "ReadingReport",
    "load_reading",
    "run_reading",
]


# ----------------------------------------------------------------------------- running


class _Failed(Exception):
    def __init__(self, mismatches: list[Mismatch], message: str = "") -> None:
        super().__init__(message)
        self.mismatches = mismatches
        self.message = message


class _Runner:
    """Runs the cases of one reading file against one spec (with game caching)."""

    def __init__(self, rf: ReadingFile, spec: str | None, options: dict[str, Any] | None,
                 allow_paths: tuple[str | os.PathLike[str], ...] = ()) -> None:
        self.rf = rf
        self.allow_paths = allow_paths
        self.loc = rf.locate
        self.spec_override = spec
        self.cli_options = dict(options or {})
        self.games: dict[tuple[Any, ...], Game] = {}

    # -- specs and games

    def spec_for(self, case: dict[str, Any], i: int) -> tuple[str, Path_]:
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

    def game(self, spec: str, players: int | None, options: dict[str, Any], where: Path_) -> Game:
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
                result.compared = failing
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
        except SpecError as e:
            result.status = "error"
            result.message = str(self._locate_setup(e, i))
            return
        except ReadingFileError as e:  # pragma: no cover - ReadingFileError is a SpecError
            result.status = "error"
            result.message = str(e)
            return
        ctx = _Context(game, st, self.loc, i)
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


def _settled(st: Any) -> Any:
    """The state, with its stock put in shuffled order (see State.settle)."""
    st.settle()
    return st


def _display_path(p: Path) -> str:
    """A path as short as it can be said: relative to the working folder when inside it."""
    full = os.path.normpath(os.path.abspath(p))
    try:
        rel = os.path.relpath(full)
    except ValueError:  # pragma: no cover - another drive on Windows
        return full
    return full if rel.startswith("..") else rel


def _card_items(value: Any) -> list[Any] | None:
    """The items of a list of cards (text ``'AS KH'`` or a list); None for anything else
    (a number, a map: a user's mistake, not a list to iterate)."""
    if isinstance(value, str):
        return value.replace(",", " ").split()
    if value is None or isinstance(value, list):
        return list(value or [])
    return None


def _kind_of(value: Any) -> str:
    """What a wrong value is, for a message (never its repr in full)."""
    if isinstance(value, bool) or value is None:
        return str(value).lower() if value is not None else "nothing"
    if isinstance(value, (int, float)):
        text = repr(value)
        return f"the number {text if len(text) <= 20 else text[:20] + '...'}"
    return f"a {type(value).__name__}"


def _seat(value: Any, n: int, loc: _Locator, where: Path_) -> int:
    # ASCII digits only: int() reads '١' and refuses '²'
    s = value if type(value) is int else ascii_number(value.strip(), 6) \
        if isinstance(value, str) else None
    if s is None:
        raise loc.error(where, f"a seat is a number 0..{n - 1}, not {short_repr(value)}", key=True)
    if not 0 <= s < n:
        raise loc.error(where, f"there is no seat {value} ({n} players: seats 0..{n - 1})",
                        key=True)
    return s


# ----------------------------------------------------------------------------- steps


ACTION_KEYS = ("play", "do")


class _Context:
    """The running state of one case: applies actions, checks expectations."""

    def __init__(self, game: Game, st: State, loc: _Locator, case_index: int) -> None:
        self.game = game
        self.st = st
        self.loc = loc
        self.case_index = case_index
        self.history: list[str] = []
        self.initial = self._initial_scores()

    def _initial_scores(self) -> list[int]:
        rec = self.st.rec or []
        for e in rec:
            if e.get("event") == "position" and "scores" in e:
                return list(e["scores"])
        return list(self.st.scores)

    def step(self, step: dict[str, Any], path: Path_) -> None:
        kinds = [k for k in ACTION_KEYS if k in step]
        if len(kinds) > 1:
            raise self.loc.error((*path, kinds[1]), "a step has one action: 'play' or 'do'",
                                 key=True)
        if kinds:
            self.act(step, kinds[0], path)
        elif "expect_error" in step or "by" in step:
            key = "expect_error" if "expect_error" in step else "by"
            raise self.loc.error((*path, key), f"'{key}' goes with an action ('play' or 'do')",
                                 key=True)
        if "expect" in step:
            self.expect(step["expect"], (*path, "expect"))

    def act(self, step: dict[str, Any], kind: str, path: Path_) -> None:
        value = step[kind]
        actions = [str(a) for a in value] if isinstance(value, list) else [str(value)]
        want_error = step.get("expect_error")
        if want_error is not None and len(actions) != 1:
            raise self.loc.error((*path, "expect_error"),
                                 "expect_error goes with a single action", key=True)
        st = self.st
        if "by" in step:
            by = step["by"]
            if st.current_player != by:
                raise _Failed([Mismatch("by (the seat to act)", _show(by),
                                        _show_seat(st.current_player))],
                              f"before {actions[0]}")
        for text in actions:
            seat = st.current_player
            try:
                st.apply(text)
            except ActionError as e:
                if want_error is None:
                    raise _Failed([], f"{_who(seat)} {text}: refused: {e}") from None
                kind_ok = (want_error in ("refused", "any")
                           or (want_error == "illegal" and isinstance(e, IllegalActionError))
                           or (want_error == "invalid" and isinstance(e, InvalidActionError)))
                reason = step.get("reason")
                # the rules' words for the refusal (an allow level's reason), not the action's
                said = e.reason if isinstance(e, IllegalActionError) else str(e)
                if not kind_ok or (reason and str(reason).lower() not in said.lower()):
                    expected = f"{want_error}" + (f" ({reason})" if reason else "")
                    raise _Failed([Mismatch(f"expect_error for {text}", expected,
                                            f"{_error_kind(e)}: {e}")]) from None
                self.history.append(f"{_who(seat)} {text} (refused)")
                return
            self.history.append(f"{_who(seat)} {text}")
            if want_error is not None:
                reason = step.get("reason")
                raise _Failed([Mismatch(f"expect_error for {text}",
                                        str(want_error) + (f" ({reason})" if reason else ""),
                                        "the action was accepted")])

    def expect(self, exp: dict[str, Any], path: Path_) -> None:
        bad: list[Mismatch] = []
        for key, want in exp.items():
            check = _CHECKS.get(key)
            if check is None:  # pragma: no cover - the schema lists every key
                raise self.loc.error((*path, key), f"unknown expectation '{key}'",
                                     hint=did_you_mean(key, _CHECKS), key=True)
            m = check(self, want, (*path, key))
            if m is not None:
                bad.extend(m if isinstance(m, list) else [m])
        if bad:
            raise _Failed(bad)

    # -- helpers for checks

    def seat(self, value: Any, where: Path_) -> int:
        return _seat(value, self.st.n, self.loc, where)

    def per_seat(self, want: Any, where: Path_) -> dict[int, Any]:
        n = self.st.n
        if isinstance(want, list):
            if len(want) != n:
                raise self.loc.error(where, f"give one value per seat ({n}), or a map "
                                     "{seat: value}; got " + str(len(want)))
            return dict(enumerate(want))
        if isinstance(want, dict):
            return {self.seat(k, (*where, k)): v for k, v in want.items()}
        raise self.loc.error(where, "expected a list with one value per seat or a map {seat: value}")

    @property
    def pack(self) -> Pack:
        """The pack that names the game's cards."""
        return self.game.program.pack

    def card_set(self, want: Any, where: Path_) -> list[str]:
        """The card names written in ``want``, sorted (a name given again: a second copy)."""
        items = _card_items(want)
        if items is None:
            raise self.loc.error(where, f"expected cards, as 'AS KH 10D' or a list, got "
                                        f"{_kind_of(want)}")
        out = []
        for text in items:
            c = self.pack.parse_card(str(text)) if len(str(text)) <= 8 else None
            if c is None:
                raise self.loc.error(where, f"'{text}' is not a card")
            out.append(self.pack.names[c])
        return sorted(out)

    def events(self, kind: str) -> list[dict[str, Any]]:
        return [e for e in (self.st.rec or []) if e.get("event") == kind]

    def hand_tricks(self) -> list[int]:
        """Tricks of the current hand; once it is over (until the next hand's trick play),
        those of the hand just finished."""
        st = self.st
        rec = st.rec or []
        in_play = st.phase.kind == "trick"
        last_hand = max((k for k, e in enumerate(rec) if e.get("event") == "hand"), default=-1)
        tricks_now = any(e.get("event") == "trick" for e in rec[last_hand + 1:])
        if not st.is_terminal and (in_play or tricks_now):
            return list(st.won)
        for e in reversed(rec):
            if e.get("event") == "end_hand":
                return list(e["tricks"])
        return list(st.won)

    def pending(self) -> Phase | None:
        """Where the pending decision is (None when nobody is to act)."""
        st = self.st
        if st.current_player is None:
            return None
        return st.phase


def _who(seat: int | None) -> str:
    return "nobody" if seat is None else f"{seat}:"


def _show_seat(seat: int | None) -> str:
    return "nobody (the match is over)" if seat is None else str(seat)


def _error_kind(e: ActionError) -> str:
    if isinstance(e, IllegalActionError):
        return "illegal"
    if isinstance(e, InvalidActionError):
        return "invalid"
    return "refused"


def _examples(pack: Pack) -> str:
    """Three cards of ``pack`` as examples of its notation."""
    if pack.french:
        return "10H, JC, A♠"
    return ", ".join(pack.names[c] for c in sorted({0, len(pack.ranks) - 1, pack.size - 1}))


def _norm_action(ctx: _Context, text: Any, where: Path_) -> str:
    try:
        return str(parse_action(str(text), ctx.pack))
    except InvalidActionError as e:
        raise ctx.loc.error(where, str(e)) from None


def _sorted_actions(items: set[str], pack: Pack = FRENCH) -> str:
    # cards by rank, then suit, in the pack's orders (cards of no rank after them); words last
    ns = len(pack.letters)

    def key(a: str) -> tuple[int, int, str]:
        c = pack.parse_card(a) if len(a) <= 8 else None
        if c is None:
            return (1, 0, a)
        r = pack.rank[c] if pack.rank[c] >= 0 else len(pack.ranks)
        return (0, r * ns + pack.suit[c] % 99, a)

    return "[" + ", ".join(sorted(items, key=key)) + "]" if items else "[] (none)"


def _legal(ctx: _Context) -> set[str]:
    return {str(a) for a in ctx.st.legal_actions()}


Check = Callable[[_Context, Any, Path_], "Mismatch | list[Mismatch] | None"]


def _c_legal(ctx: _Context, want: Any, where: Path_) -> Mismatch | None:
    exp = {_norm_action(ctx, w, (*where, k)) for k, w in enumerate(_as_list(want, ctx.pack))}
    got = _legal(ctx)
    if exp == got:
        return None
    notes = []
    if exp - got:
        notes.append("missing " + ", ".join(sorted(exp - got)))
    if got - exp:
        notes.append("also " + ", ".join(sorted(got - exp)))
    return Mismatch("legal", _sorted_actions(exp, ctx.pack), _sorted_actions(got, ctx.pack) + f"  ({'; '.join(notes)})")


def _c_legal_includes(ctx: _Context, want: Any, where: Path_) -> Mismatch | None:
    exp = {_norm_action(ctx, w, (*where, k)) for k, w in enumerate(_as_list(want, ctx.pack))}
    got = _legal(ctx)
    missing = exp - got
    if not missing:
        return None
    return Mismatch("legal_includes", _sorted_actions(exp, ctx.pack),
                    f"{_sorted_actions(got, ctx.pack)}  (not legal: {', '.join(sorted(missing))})")


def _c_legal_excludes(ctx: _Context, want: Any, where: Path_) -> Mismatch | None:
    exp = {_norm_action(ctx, w, (*where, k)) for k, w in enumerate(_as_list(want, ctx.pack))}
    got = _legal(ctx)
    present = exp & got
    if not present:
        return None
    return Mismatch("legal_excludes", _sorted_actions(exp, ctx.pack),
                    f"{_sorted_actions(got, ctx.pack)}  (legal after all: {', '.join(sorted(present))})")


def _as_list(want: Any, pack: Pack = FRENCH) -> list[Any]:
    if isinstance(want, str):
        return want.replace(",", " ").split() if all(
            pack.parse_card(w) is not None for w in want.replace(",", " ").split()) else [want]
    return list(want) if isinstance(want, list) else [want]


def _c_current(ctx: _Context, want: Any, where: Path_) -> Mismatch | None:
    got = ctx.st.current_player
    exp = None if want is None else ctx.seat(want, where)
    if exp == got:
        return None
    return Mismatch(where[-1], _show_seat(exp), _show_seat(got))


def _c_decision(ctx: _Context, want: Any, where: Path_) -> Mismatch | None:
    at = ctx.pending()
    got = ("none (the match is over)" if at is None else "tricks" if at.kind == "trick"
           else at.name if at.kind == "decide" else at.kind)
    exp = str(want)
    if exp.lower() == got.split(" ")[0].lower():
        return None
    return Mismatch("decision", exp, got)


def _c_chooser(ctx: _Context, want: Any, where: Path_) -> Mismatch | None:
    from ..engine.position import step_at

    at = ctx.pending()
    seats = {ctx.seat(w, (*where, k)) for k, w in enumerate(want)} if isinstance(want, list) \
        else {ctx.seat(want, where)}
    shown = " or ".join(str(s) for s in sorted(seats))
    if at is not None and at.kind == "decide" \
            and step_at(ctx.st.game.tree, at.path).get("choose") == "suit":
        got = ctx.st.current_player
        return None if got in seats else Mismatch("chooser", shown, str(got))
    what = "no trump choice is pending" if at is None else (
        f"no trump choice is pending ({ctx.st.current_player} to act at "
        f"'{at.name if at.kind == 'decide' else 'tricks'}')")
    return Mismatch("chooser", shown, what)


def _c_trick_winner(ctx: _Context, want: Any, where: Path_) -> Mismatch | None:
    exp = ctx.seat(want, where)
    tricks = ctx.events("trick")
    if not tricks:
        return Mismatch("trick_winner", str(exp), "no trick has been finished")
    last = tricks[-1]
    got = int(last["winner"])
    if got == exp:
        return None
    cards = ", ".join(f"{p}: {c}" for p, c in last["cards"])
    return Mismatch("trick_winner", str(exp), f"{got}  (trick {cards})")


def _seat_values(ctx: _Context, name: str, want: Any, where: Path_, got: list[Any],
                 norm: Callable[[Any], Any] = lambda v: v) -> Mismatch | None:
    exp = ctx.per_seat(want, where)
    if all(norm(v) == got[s] for s, v in exp.items()):
        return None
    if isinstance(want, list):
        return Mismatch(name, _show([norm(v) for v in want]), _show(got))
    return Mismatch(name, _show({s: norm(v) for s, v in exp.items()}),
                    _show({s: got[s] for s in exp}))


def _c_tricks(ctx: _Context, want: Any, where: Path_) -> Mismatch | None:
    return _seat_values(ctx, "tricks", want, where, ctx.hand_tricks())


def _c_scores(ctx: _Context, want: Any, where: Path_) -> Mismatch | None:
    return _seat_values(ctx, "scores", want, where, list(ctx.st.scores))


def _c_score_change(ctx: _Context, want: Any, where: Path_) -> Mismatch | None:
    now = ctx.st.scores
    return _seat_values(ctx, "score_change", want, where,
                        [a - b for a, b in zip(now, ctx.initial)])


def _c_hand_size(ctx: _Context, want: Any, where: Path_) -> Mismatch | None:
    return _seat_values(ctx, "hand_size", want, where, [h.bit_count() for h in ctx.st.hands])


def _cards_text(cards: Iterable[str], pack: Pack = FRENCH) -> str:
    # by suit in the pack's order, high rank first (cards of no suit last)
    def key(c: str) -> tuple[int, int]:
        i = pack.parse_card(c)
        assert i is not None
        return (pack.suit[i] % 99, -pack.rank[i])

    return " ".join(sorted(cards, key=key)) or "(none)"


def _c_hand(ctx: _Context, want: Any, where: Path_) -> Mismatch | None:
    exp = ctx.per_seat(want, where)
    bad = {}
    for s, v in exp.items():
        e = ctx.card_set(v, (*where, s))
        g = sorted(ctx.pack.names_of(ctx.st.hands[s]))
        if e != g:
            bad[s] = (e, g)
    if not bad:
        return None
    return Mismatch(where[-1], "; ".join(f"{s}: {_cards_text(e, ctx.pack)}"
                                         for s, (e, _) in bad.items()),
                    "; ".join(f"{s}: {_cards_text(g, ctx.pack)}" for s, (_, g) in bad.items()))


def _c_turn_up(ctx: _Context, want: Any, where: Path_) -> Mismatch | None:
    exp = ctx.card_set(want, where)
    got = sorted(ctx.pack.names[c] for c in ctx.st.turn_up)
    return None if exp == got else Mismatch("turn_up", _cards_text(exp, ctx.pack),
                                            _cards_text(got, ctx.pack))


def _c_talon(ctx: _Context, want: Any, where: Path_) -> Mismatch | None:
    items = want.split() if isinstance(want, str) else list(want)
    names = ctx.pack.names
    exp = [names[c] for c in (ctx.pack.parse_card(str(x)) for x in items) if c is not None]
    if len(exp) != len(items):
        raise ctx.loc.error(where, "the talon is a list of cards, top first")
    got = [names[c] for c in reversed(_settled(ctx.st).stock)]
    return None if exp == got else Mismatch("talon (top first)", " ".join(exp) or "(empty)",
                                            " ".join(got) or "(empty)")


def _c_talon_top(ctx: _Context, want: Any, where: Path_) -> Mismatch | None:
    items = want.split() if isinstance(want, str) else list(want)
    names = ctx.pack.names
    exp = [names[c] for c in (ctx.pack.parse_card(str(x)) for x in items) if c is not None]
    if len(exp) != len(items):
        raise ctx.loc.error(where, "talon_top is a list of cards, top first")
    got = [names[c] for c in reversed(_settled(ctx.st).stock)][:len(exp)]
    return None if exp == got else Mismatch("talon_top", " ".join(exp),
                                            " ".join(got) or "(empty)")


def _c_talon_size(ctx: _Context, want: Any, where: Path_) -> Mismatch | None:
    got = len(ctx.st.stock)
    return None if got == want else Mismatch("talon_size", str(want), str(got))


def _c_trick(ctx: _Context, want: Any, where: Path_) -> Mismatch | None:
    items = want.split() if isinstance(want, str) else list(want or [])
    exp = [_norm_action(ctx, x, where) for x in items]
    got = [ctx.pack.names[c] for _, c in ctx.st.trick]
    return None if exp == got else Mismatch("trick", " ".join(exp) or "(empty)",
                                            " ".join(got) or "(empty)")


def _c_leader(ctx: _Context, want: Any, where: Path_) -> Mismatch | None:
    exp = ctx.seat(want, where)
    at = ctx.pending()
    if at is None or at.kind != "trick":
        return Mismatch("leader", str(exp), "no trick is being played")
    got = ctx.st.trick_order[0]
    return None if got == exp else Mismatch("leader", str(exp), str(got))


def _c_exchange_max(ctx: _Context, want: Any, where: Path_) -> Mismatch | None:
    acts: list[Action] = [a for a in ctx.st.legal_actions() if a.kind == CARDS]
    if not acts:
        return Mismatch("exchange_max", str(want), "no exchange is pending")
    got = max(len(a.cards) for a in acts)
    return None if got == want else Mismatch("exchange_max", str(want), str(got))


def _c_out(ctx: _Context, want: Any, where: Path_) -> Mismatch | None:
    exp = {ctx.seat(s, (*where, k)) for k, s in enumerate(_as_list(want))}
    got = {s for s in range(ctx.st.n) if ctx.st.out[s]}
    return None if exp == got else Mismatch("out", _show(sorted(exp)), _show(sorted(got)))


def _c_winners(ctx: _Context, want: Any, where: Path_) -> Mismatch | None:
    exp = {ctx.seat(s, (*where, k)) for k, s in enumerate(_as_list(want))}
    got = set(ctx.st.winners)
    if exp == got:
        return None
    return Mismatch("winners", _show(sorted(exp)),
                    _show(sorted(got)) + ("" if ctx.st.is_terminal else "  (the match is not over)"))


def _c_terminal(ctx: _Context, want: Any, where: Path_) -> Mismatch | None:
    got = ctx.st.is_terminal
    return None if got == bool(want) else Mismatch("terminal", _show(bool(want)), _show(got))


def _c_trump(ctx: _Context, want: Any, where: Path_) -> Mismatch | None:
    text = str(want).strip()
    exp = "none" if text.lower() == "none" else text.upper()
    pack = ctx.pack
    if exp != "none" and exp not in pack.suit_index:
        raise ctx.loc.error(where, f"trump is a suit letter {', '.join(pack.letters)} or none, "
                            f"not {short_repr(want)}")
    if exp in pack.suit_index:  # a symbol reads as its letter
        exp = pack.letters[pack.suit_index[exp]]
    got = ctx.st.trump_letter()
    return None if got == exp else Mismatch("trump", exp, got)


def _c_int(name: str, get: Callable[[State], int]) -> Check:
    def check(ctx: _Context, want: Any, where: Path_) -> Mismatch | None:
        got = get(ctx.st)
        return None if got == want else Mismatch(name, str(want), str(got))

    return check


def _c_redeals(ctx: _Context, want: Any, where: Path_) -> Mismatch | None:
    got = len(ctx.events("redeal"))
    return None if got == want else Mismatch("redeals", str(want), str(got))


def _c_var(ctx: _Context, want: Any, where: Path_) -> list[Mismatch] | None:
    prog = ctx.game.program
    st = ctx.st
    out: list[Mismatch] = []
    if not isinstance(want, dict):
        raise ctx.loc.error(where, "var: a map {variable: values}")
    for name, value in want.items():
        p = (*where, name)
        if name in prog.pvar_names:
            m = _seat_values(ctx, f"var {name}", value, p, st.var(name))
        elif name in prog.gvar_names:
            g = st.var(name)
            m = None if g == value else Mismatch(f"var {name}", _show(value), _show(g))
        else:
            raise ctx.loc.error(p, f"{ctx.game.name} declares no variable '{name}'",
                                hint=did_you_mean(str(name), prog.pvar_names + prog.gvar_names),
                                key=True)
        if m is not None:
            out.append(m)
    return out or None


_CHECKS: dict[str, Check] = {
    "legal": _c_legal,
    "legal_includes": _c_legal_includes,
    "legal_excludes": _c_legal_excludes,
    "current": _c_current,
    "decision": _c_decision,
    "chooser": _c_chooser,
    "trick_winner": _c_trick_winner,
    "trick": _c_trick,
    "leader": _c_leader,
    "tricks": _c_tricks,
    "score_change": _c_score_change,
    "scores": _c_scores,
    "out": _c_out,
    "trump": _c_trump,
    "hand_size": _c_hand_size,
    "hand": _c_hand,
    "hands": _c_hand,
    "turn_up": _c_turn_up,
    "talon": _c_talon,
    "talon_top": _c_talon_top,
    "talon_size": _c_talon_size,
    "exchange_max": _c_exchange_max,
    "winners": _c_winners,
    "terminal": _c_terminal,
    "hand_number": _c_int("hand_number", lambda st: st.hand_number),
    "dealer": _c_int("dealer", lambda st: st.dealer),
    "redeals": _c_redeals,
    "var": _c_var,
}

#: Every expectation key a step's ``expect:`` map may use.
EXPECT_KEYS = tuple(_CHECKS)


# ----------------------------------------------------------------------------- entry point


def run_reading(
    path: str | os.PathLike[str],
    spec: str | None = None,
    options: dict[str, Any] | None = None,
    *,
    text: str | None = None,
    only: Callable[[str], bool] | None = None,
    allow_paths: Iterable[str | os.PathLike[str]] = (),
) -> ReadingReport:
    """Run every case of a reading file; return the report (never raises for a failing case).

    ``spec`` replaces the file's spec (cases that name their own spec keep it);
    ``options`` set option values for every case, like a variant would
    (``{"void_rule": "any"}``); ``text`` gives the file's text directly;
    ``only`` filters cases by name; the file's ``spec:`` names a shipped spec
    or a file in the reading file's folder (or below), or in one of the
    folders ``allow_paths`` lists.  A file that cannot be read raises
    :class:`ReadingFileErrors` / :class:`ReadingError`; a case whose set-up is
    impossible is reported with status ``error``.

    >>> r = run_reading("example", only=lambda name: "32-card" in name)
    >>> r.ok, len(r.cases) >= 1
    (True, True)
    """
    rf = load_reading(path, text=text)
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
        spec_text = spec
    else:
        spec_text = runner._resolve(str(rf.data["spec"]))
    versus = runner._resolve(str(rf.data["spec"])) if spec is not None else None
    return ReadingReport(path=rf.path, spec=spec_text, title=rf.title, cases=results,
                         players=rf.data.get("players"), versus=versus)
