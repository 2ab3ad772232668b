"""Compile a canonical spec tree, for one player count, into a :class:`Program`.

Names in formulas are resolved here, once: each becomes a getter closure over
the state's lists (:mod:`spelbok.engine.resolver`, reading through the run-time
library of :mod:`spelbok.engine.readers`), so nothing on the hot path looks a name
up.  The compiler reports nothing of its own: it first runs the checks of
:class:`spelbok.lang.compile_checks.Typer` (every formula typed, every step's
parameters checked by its construct's home), which ``validate`` runs too, and raises
what they find, located in the spec's own file; then it builds.

The :class:`Compiler` is the driver and the toolkit (formulas, conditions, seat
selectors, assignments); each step kind compiles in its own module, beside its
instructions, by the function :data:`COMPILE_STEPS` names.

>>> sorted(COMPILE_STEPS)[:3]
['auction', 'deal', 'decide']
>>> step_compiler("deal").__name__
'compile_deal'
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..cards import FRENCH, Pack, pack_of
from ..formula import CardContext, Compiled, compile_formula
from ..formula.tables import table_names
from ..lang.compile_checks import Typer, option_values
from ..lang.compile_checks import card_mask as _card_mask
from ..lang.constructs import STEP_HOMES, entry_cards
from ..lang.constructs.deck import entries_for
from ..lang.constructs.players import direction_of
from ..lang.constructs.teams import teams_at
from ..lang.model import DEFAULT_MAX_HANDS
from .auction import Contract, contracts_of
from .order import NO_TRUMP, build_tables, equal_cards, strip_cards
from .points import build_points
from .program import STEP_PARTS, Origin, Program
from .readers import card_points, power, set_points, trump_tables
from .resolver import (  # noqa: F401  (BUILTINS, KEEPS_CARDS, Resolver: their old home)
    BUILTINS,
    GLOBAL_BUILTINS,
    KEEPS_CARDS,
    PLAYER_BUILTINS,
    Resolver,
    value_type,
)
from .seats import SELECTORS, TIES_DEFAULT, seat_selector  # noqa: F401  (their old home)
from .steps import Fn, Instr, JumpUnless, Path, Selector, const
from .trick import EQUAL_RULES, renamed_trump
from .trick_play import TrickPlay

if TYPE_CHECKING:
    from .state import State

Locator = Callable[[Path], tuple[str | None, int | None, int | None]]
#: A step kind's compile step: it appends the step's instructions to ``code``.
StepCompiler = Callable[["Compiler", dict[str, Any], Path, list[Instr]], None]

#: Each step kind's compile step, as ``"module:function"``: its home names it
#: (``Home.compile``); resolved once, when first used.
COMPILE_STEPS: dict[str, str] = {h.name: h.compile for h in STEP_HOMES}
#: The step kinds, in the order a step's key is looked for.
KINDS = tuple(COMPILE_STEPS)
_STEP_FNS: dict[str, StepCompiler] = {}


def step_compiler(kind: str) -> StepCompiler:
    """The compile step of ``kind`` (imported from :data:`COMPILE_STEPS` once)."""
    fn = _STEP_FNS.get(kind)
    if fn is None:
        module, _, name = COMPILE_STEPS[kind].partition(":")
        fn = _STEP_FNS[kind] = getattr(importlib.import_module(module), name)
    return fn


def _rule_refuses(cond: Any) -> str:
    """The message for a candidate a condition without a reason refuses."""
    return f"the rule `{cond}` does not allow it"


class Compiler:
    """Builds the Program of one game for ``n`` players (``options``: the given values,
    checked here; unknown or refused ones raise SpecError)."""

    def __init__(self, tree: dict[str, Any], n: int, options: dict[str, Any] | None,
                 locate: Locator) -> None:
        self.tree = tree
        self.n = n
        self.locate = locate
        self.given = options or {}
        self.options = option_values(tree.get("options") or {}, self.given)
        self.counters = 0
        self.pack: Pack = FRENCH  # the spec's, once compile() has read it
        self.step_pcs: dict[Path, int] = {}  # each step's first instruction (see Program)
        self.origins: dict[int, Origin] = {}  # pc -> the step it comes from (see Program)
        self._compiled: dict[tuple[str, bool, bool], Compiled] = {}
        self.free_mask = 0  # ranking.free_cards and losing_cards, as masks of the deck
        self.losing_mask = 0
        self.kept_mask = 0
        self.contract_first: dict[Path, int] = {}  # each auction's first contract (auction.py)
        self.contracts: tuple[Contract, ...] = ()
        self.team_seats: list[list[int]] | None = None  # the teams in force (teams_when)
        self.calls_own = False  # an auction lets the declarer call his own card (auction.py)
        self.new_trump: tuple[bool, bool, int] = (False, True, 0)  # tricks.new_trump (tricks.py)

    @staticmethod
    def card_mask(names: list[Any], deck_mask: int, pack: Pack = FRENCH) -> int:
        """The cards of the deck ``names`` lists (:func:`spelbok.lang.compile_checks.card_mask`)."""
        return _card_mask(names, deck_mask, pack)

    def where(self, path: Path) -> str:
        """``file:line:col`` of ``path`` in the spec, for errors found at run time."""
        file, line, col = self.locate(path)
        parts = [file or "<spec>"]
        if line is not None:
            parts += [str(line)] + ([str(col)] if col is not None else [])
        return ":".join(parts)

    # -- formulas -------------------------------------------------------------------

    def _compile(self, text: str, per_player: bool) -> Compiled:
        """compile_formula, once per text (formula() and local_vec() may ask twice)."""
        key = (text, per_player, self.resolver.after_trick)
        got = self._compiled.get(key)
        if got is None:
            got = self._compiled[key] = compile_formula(text, self.resolver, per_player=per_player)
        return got

    def formula(self, text: Any, path: Path, per_player: bool) -> Fn:
        """A formula as ``fn(state, seat)`` (one fixed at load: a constant, its ``value``)."""
        if isinstance(text, (bool, int)):
            return const(text)
        compiled = self._compile(str(text), per_player)
        if compiled.constant:
            return const(compiled.value)
        fn: Fn = compiled.fn
        return fn

    def number(self, text: Any, path: Path, per_player: bool) -> Fn:
        """A formula that gives a whole number (the Typer checked it: as :meth:`formula`)."""
        return self.formula(text, path, per_player)

    def condition(self, text: Any, path: Path, per_player: bool = False,
                  example: str = "") -> Fn:
        """A formula that gives true or false (the Typer checked it: as :meth:`formula`)."""
        return self.formula(text, path, per_player)

    def names_read(self, text: Any) -> frozenset[str]:
        """The names a formula reads."""
        return self._compile(str(text), False).names

    def allow_levels(self, allow: Any, reason: Any, path: Path,
                     default: bool) -> list[tuple[Fn, str]]:
        """An ``allow`` as its levels in order, each a condition on the candidate and the
        message for one it refuses (none for an absent or always-true ``allow``): the
        spec's reason, else (``default``) the rule itself, else empty."""
        if isinstance(allow, list):
            out: list[tuple[Fn, str]] = []
            for i, level in enumerate(allow):
                cond = level.get("if", "true") if isinstance(level, dict) else "true"
                why = level.get("reason") if isinstance(level, dict) else None
                out.append((self.formula(cond, (*path, i, "if"), True),
                            str(why) if why else _rule_refuses(cond) if default else ""))
            return out
        if allow in (None, True, "true"):
            return []
        return [(self.formula(allow, path, True),
                 str(reason) if reason else _rule_refuses(allow) if default else "")]

    def local_vec(self, text: Any) -> Any:
        """Every seat's value of a per-player formula at once, when it reads only
        the seat's own per-player values and constants (else None)."""
        if isinstance(text, (bool, int)):
            return None  # a literal (compiled as text, `True` is no formula)
        compiled = self._compile(str(text), True)
        if compiled.vec is None or not all(self._seat_local(n) for n in compiled.names):
            return None
        return compiled.vec

    def _seat_local(self, name: str) -> bool:
        info = self.resolver.resolve(name)
        return info is not None and (info.kind == "const" or info.column is not None)

    def constant(self, value: Any, path: Path, allowed: tuple[Any, ...]) -> Any:
        """An enum-or-option field: a literal, or the value of a formula over options."""
        if value in allowed and not (isinstance(value, bool) and True not in allowed):
            return value
        return compile_formula(str(value), self.resolver, per_player=False).value

    # -- the whole game -----------------------------------------------------------------

    def compile(self) -> Program:
        """The program (raises SpecErrors: what the Typer finds wrong, located)."""
        Typer(self.tree, self.n, self.given, self.locate).check()
        t = self.tree
        n = self.n
        deck_mask = self._deck()
        pack = self.pack
        ranking = t.get("ranking", {})
        rank_order = [str(r) for r in ranking.get("ranks", list(reversed(pack.ranks)))]
        player_init, hand_rows, global_init, hand_slots = self._variables(
            t.get("variables", {}))
        if t.get("modes"):  # the mode in force: a hand slot, 'none' as each hand starts
            self.gvars["mode"] = len(global_init)
            hand_slots.append(len(global_init))
            global_init.append("none")
        teams = self.team_seats = self.teams(t.get("teams"))
        self.contracts = contracts_of(self, t["hand"])
        self.turn = -1 if direction_of(t) == "right" else 1
        self.resolver = Resolver(n, self.options, self.pvars, self.gvars, teams, self.contracts,
                                 pack, self.var_types, self.turn)
        self.resolver.table.update(table_names(t.get("tables")))
        self.resolver.cards = CardContext(trump_tables, deck_mask, card_points, set_points,
                                          power, pack)
        tables, cut_power = self._tables(ranking, rank_order, deck_mask)

        prog = Program(n=n, deck=self.deck, deck_mask=deck_mask, tables=tables)
        prog.pack = pack
        prog.player_init = player_init
        prog.player_hand_rows = hand_rows
        prog.global_init = global_init
        prog.global_hand_slots = hand_slots
        prog.cut_power = tuple(cut_power)
        prog.sides = tuple(self.resolver.team_of)
        prog.pvar_names = list(self.pvars)
        prog.gvar_names = list(self.gvars)
        prog.options = dict(self.options)
        if t.get("points") is not None:
            prog.points = build_points(t["points"], self.deck, tables, pack)
            prog.last_trick_points = int(t["points"].get("last_trick", 0))
        prog.contracts = self.contracts
        if t.get("modes"):
            self._modes(prog, t, ranking, deck_mask)
        if ranking.get("trump_rank") is not None:  # a trump rank read from a formula
            from .combos import level_tables

            prog.level_fn = self.formula(ranking["trump_rank"], ("ranking", "trump_rank"), False)
            prog.level_sets = {r.upper(): level_tables(tables, pack, deck_mask, i)
                               for i, r in enumerate(pack.ranks)}
        if t.get("hidden"):
            from .hidden import compile_hidden

            compile_hidden(self, prog, t["hidden"])
        prog.set_turn(self.turn)
        self._dealer(prog, t.get("dealer", {}))
        if t.get("sit_out"):  # seats sitting a hand out (lang/constructs/sit_out.py)
            prog.sit_fn = self.formula(t["sit_out"]["when"], ("sit_out", "when"), True)

        code: list[Instr] = []
        self.compile_steps(t["hand"], ("hand",), code)
        prog.code = code
        prog.calls_own = self.calls_own  # set by compile_auction
        prog.new_trump = self.new_trump  # set by compile_tricks
        prog.n_counters = self.counters
        prog.step_pcs = self.step_pcs
        prog.origins = [self.origins.get(pc, Origin((), "")) for pc in range(len(code))]
        self._end(prog, t["end"])
        return prog

    def _deck(self) -> int:
        """The deck for this many players (``self.deck``, the pack in ``self.pack``), as a
        mask."""
        t = self.tree
        n = self.n
        options = Resolver(n, self.options, {}, {})  # a deck's `when` reads options only
        found = entries_for(t["deck"], n, lambda i, when: bool(
            compile_formula(str(when), options, per_player=False).value))
        deck_entry = t["deck"][found[0]]  # there is one (the Typer checked)
        pack = self.pack = pack_of(t.get("pack"))
        deck = self.deck = entry_cards(deck_entry, pack)
        deck_mask = 0
        for c in deck:
            deck_mask |= 1 << c
        return deck_mask

    def _variables(self, variables: dict[str, Any]
                   ) -> tuple[list[Any], list[int], list[Any], list[int]]:
        """The variables' rows and slots (``self.pvars``, ``self.gvars``, their types in
        ``self.var_types``): the initial values of the per-player rows, the rows reset
        each hand, the initial values of the global slots, the slots reset each hand."""
        pvars: dict[str, int] = {}
        player_init: list[Any] = []
        hand_rows: list[int] = []
        for scope in ("player", "hand_player"):
            for name, init in variables.get(scope, {}).items():
                pvars[name] = len(player_init)
                if scope == "hand_player":
                    hand_rows.append(len(player_init))
                player_init.append(init)
        gvars: dict[str, int] = {}
        global_init: list[Any] = []
        hand_slots: list[int] = []
        for scope in ("match", "hand"):
            for name, init in variables.get(scope, {}).items():
                gvars[name] = len(global_init)
                if scope == "hand":
                    hand_slots.append(len(global_init))
                global_init.append(init)
        self.pvars = pvars
        self.gvars = gvars
        self.var_types = {name: value_type(init) for scope in variables.values()
                          for name, init in scope.items()}
        return player_init, hand_rows, global_init, hand_slots

    def _tables(self, ranking: dict[str, Any], rank_order: list[str], deck_mask: int
                ) -> tuple[tuple[Any, ...], list[int]]:
        """The card order tables of each trump (free, losing and kept cards in
        ``self.free_mask``...), and each rank's power when cutting for the deal."""
        pack = self.pack
        top = [str(x) for x in ranking.get("top_trumps", [])]
        follow_printed = self.constant(
            ranking.get("top_trumps_follow", "trump"), ("ranking", "top_trumps_follow"),
            ("trump", "printed")) == "printed"
        suit_ranks = {pack.suit_index[k]: [str(r) for r in v]
                      for k, v in (ranking.get("suit_ranks") or {}).items()}
        trump_ranks = [str(r) for r in ranking.get("trump_ranks") or []]
        top_low = "top_trumps_place" in ranking and self.constant(
            ranking["top_trumps_place"], ("ranking", "top_trumps_place"), ("high", "low")) == "low"
        tables = build_tables(deck_mask, rank_order, top, follow_printed, pack, suit_ranks,
                              trump_ranks, top_low)
        self.free_mask = _card_mask(ranking.get("free_cards") or [], deck_mask, pack)
        self.losing_mask = _card_mask(ranking.get("losing_cards") or [], deck_mask, pack)
        # kept cards never win either (and then stay with their owner: CardPlay.kept)
        self.kept_mask = _card_mask(ranking.get("kept_cards") or [], deck_mask, pack)
        self.losing_mask |= self.kept_mask
        if self.losing_mask:
            tables = tuple(strip_cards(x, self.losing_mask) for x in tables)
        groups = [_card_mask(g, deck_mask, pack) for g in ranking.get("equal_cards") or []]
        rule = EQUAL_RULES.index(self.constant(ranking.get("equal_best", "first"),
                                               ("ranking", "equal_best"), EQUAL_RULES))
        only = _card_mask(ranking.get("equal_best_cards") or [], deck_mask, pack)
        if groups or rule:
            tables = tuple(equal_cards(x, groups, rule, only) for x in tables)
        cut_ranks = [str(r) for r in ranking.get("cut_ranks", rank_order)]
        cut_index = {pack.rank_index[r.upper()]: len(cut_ranks) - i for i, r in enumerate(cut_ranks)}
        return tables, [cut_index.get(r, 0) for r in pack.rank]

    def _modes(self, prog: Program, t: dict[str, Any], ranking: dict[str, Any],
               deck_mask: int) -> None:
        """Each mode's tables and card points (lang/constructs/modes.py): mode 0 is the
        ranking's."""
        from ..lang.constructs.modes import mode_ranking

        names, tables, points = ["none"], [prog.tables], [prog.points]
        for name, mode in t["modes"].items():
            merged = mode_ranking(ranking, mode)
            order = [str(r) for r in merged.get("ranks", list(reversed(self.pack.ranks)))]
            mode_tables = self._tables(merged, order, deck_mask)[0]
            names.append(str(name))
            tables.append(mode_tables)
            spec = dict(t.get("points") or {})
            if "points" in mode:
                spec["ranks"] = mode["points"]
            points.append(build_points(spec, self.deck, mode_tables, self.pack)
                          if t.get("points") is not None or "points" in mode else ())
        prog.modes = tuple(names)
        prog.mode_tables = tuple(tables)
        prog.mode_points = tuple(points)
        prog.mode_slot = self.gvars["mode"]

    def _dealer(self, prog: Program, dealer: dict[str, Any]) -> None:
        """The first dealer, and how the deal moves on."""
        first = dealer.get("first", "cut_low")
        if isinstance(first, bool) or not isinstance(first, int):
            first = self.constant(first, ("dealer", "first"), ("cut_low", "cut_high", "random"))
        prog.first_dealer = first
        rotate = self.constant(dealer.get("rotate", "left"), ("dealer", "rotate"),
                               ("left", "right", "none"))
        prog.rotate = {"left": 1, "right": -1, "none": 0}[rotate]
        prog.skip_out = bool(self.constant(dealer.get("skip_out", True), ("dealer", "skip_out"),
                                           (True, False)))
        stays = dealer.get("stays", "false")
        if stays not in ("false", False):  # the same dealer deals again while it holds
            prog.stays = self.formula(stays, ("dealer", "stays"), False)
        nxt = dealer.get("next", "-1")
        if nxt not in ("-1", -1):  # a seat named to deal the next hand
            prog.next_seat = self.formula(nxt, ("dealer", "next"), False)

    def _end(self, prog: Program, end: dict[str, Any]) -> None:
        """The end of the match, and whether the trick play keeps the cards of each trick
        (for a game that reads them: KEEPS_CARDS)."""
        prog.end_when = self.formula(end.get("when", "false"), ("end", "when"), False)
        prog.winners_fn = self.formula(end.get("winners", "not out"), ("end", "winners"), True)
        prog.score_fn = self.formula(end.get("score", "0"), ("end", "score"), True)
        prog.max_hands = int(end.get("max_hands", DEFAULT_MAX_HANDS))
        if prog.points or self.resolver.used & KEEPS_CARDS:
            for ins in prog.code:
                if isinstance(ins, TrickPlay):
                    ins.keep_cards = True

    def teams(self, spec: Any) -> list[list[int]] | None:
        """Partnerships: a list of seat lists (every seat in exactly one), or none (also
        where ``teams_when`` fails at this player count)."""
        if not spec:
            return None
        options = Resolver(self.n, self.options, {}, {})  # `teams_when` reads options only
        return teams_at(self.tree, lambda w: bool(
            compile_formula(str(w), options, per_player=False).value))

    # -- steps -------------------------------------------------------------------------

    def compile_steps(self, steps: list[dict[str, Any]], path: Path, code: list[Instr]) -> None:
        for i, step in enumerate(steps):
            self.compile_step(step, (*path, i), code)

    def compile_step(self, step: dict[str, Any], path: Path, code: list[Instr]) -> None:
        guard: JumpUnless | None = None
        at = len(code)
        if step.get("when", True) not in (True, "true"):
            guard = JumpUnless(self.formula(step["when"], (*path, "when"), False))
            code.append(guard)
        self.step_pcs[path] = len(code)
        kind = next(k for k in KINDS if k in step)
        step_compiler(kind)(self, step, path, code)
        if guard is not None:
            guard.target = len(code)
        # the instructions the nested steps did not claim are this step's, in STEP_PARTS order
        first = self.step_pcs[path]
        parts = STEP_PARTS.get(kind, ("run",))
        label = step.get("label")
        own = 0
        for pc in range(at, len(code)):
            if pc in self.origins:
                continue
            part = "when" if pc < first else parts[own] if own < len(parts) else "run"
            if pc >= first:
                own += 1
            self.origins[pc] = Origin(path, kind, part, label if isinstance(label, str) else "",
                                      str(step["decide"]) if kind == "decide" else "",
                                      first, len(code))

    def selector(self, who: Any, where: Any, path: Path) -> Selector:
        """Who acts (:func:`spelbok.engine.seats.seat_selector`)."""
        return seat_selector(self, who, where, path)

    def assigns(self, mapping: dict[str, Any], path: Path, per_player: bool
                ) -> list[tuple[Callable[[Any, int, Any], None], Fn, str]]:
        """``name: formula`` assignments, each as its setter, its formula and its name
        (``trump`` may be set to the bare word ``none``: no trump)."""
        out = []
        for name, expr in mapping.items():
            if name == "trump" and isinstance(expr, str) and expr.strip() == "none":
                expr = "'none'"
            out.append((self.setter(name), self.formula(expr, (*path, name), per_player),
                        name))
        return out

    def setter(self, name: str) -> Callable[[Any, int, Any], None]:
        """What sets variable ``name`` (one of the spec's, ``out``, ``stock_closed`` or
        ``trump``: the Typer refuses any other)."""
        if name in self.pvars:
            row = self.pvars[name]

            def set_p(st: State, p: int, v: Any) -> None:
                st.pv_rows[row][p] = v

            set_p.row = row  # type: ignore[attr-defined]  # steps may store into the row directly
            return set_p
        if name in self.gvars and name != "mode":
            slot = self.gvars[name]

            def set_g(st: State, p: int, v: Any) -> None:
                st.gv[slot] = v

            return set_g
        if name == "out":

            def set_out(st: State, p: int, v: Any) -> None:
                st.out[p] = bool(v)
                if st.off is not st.out:  # sit_out: out of the match is out of the hand
                    prog = st.prog
                    st.off[p] = bool(v) or prog.sit_fn is not None and bool(prog.sit_fn(st, p))
                if v and st.rec is not None:
                    st.event("eliminated", seat=p)

            return set_out
        if name == "mode":

            def set_mode(st: State, p: int, v: Any) -> None:
                st.game.program.set_mode(st, str(v))
                if st.rec is not None:
                    st.event("mode", mode=str(v))

            return set_mode
        if name == "stock_closed":

            def set_closed(st: State, p: int, v: Any) -> None:
                st.stock_closed = bool(v)
                if st.rec is not None:
                    st.event("stock_closed", closed=bool(v), **({"by": p} if p >= 0 else {}))

            return set_closed
        if name != "trump":
            raise KeyError(name)  # the Typer refuses any other name first
        suit_index = self.pack.suit_index

        def set_trump(st: State, p: int, v: Any) -> None:
            s = suit_index.get(str(v).upper(), NO_TRUMP) if v != "none" else NO_TRUMP
            prog = st.game.program
            old = st.trump
            prog.set_trump(st, s)
            if st.trick.cards and s != old:  # named during a trick (tricks.new_trump)
                renamed_trump(st, *prog.new_trump)
            if st.rec is not None:  # p < 0: set by a step, not named by a player
                st.event("trump", trump=st.trump_letter(), **({"chosen_by": p} if p >= 0 else {}))

        return set_trump
