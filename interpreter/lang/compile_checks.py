"""The checks a spec must pass before it is compiled, at one player count: every formula
typed, every enum-or-option field worked out, every step's parameters checked.

The :class:`Typer` walks a canonical tree as the engine's compiler does and asks each
construct's home (its ``compile_check``, :class:`~spelbok.lang.constructs.home.Home`)
what its part needs; formulas are typed by :mod:`spelbok.formula` against a
:class:`~spelbok.formula.name_table.TypeResolver` (the names' kinds and types, no
getters), so ``validate`` never imports the engine.  The engine's compiler runs the
Typer first: its compile steps build instructions and report nothing.

Its toolkit mirrors the compiler's: :meth:`Typer.formula` gives a formula's value when
it is fixed at load time (:data:`UNSET` when it is not, 0 when it is an error, as the
compiler's stand-in), :meth:`~Typer.number`, :meth:`~Typer.condition`,
:meth:`~Typer.constant`, :meth:`~Typer.assigns`, :meth:`~Typer.selector`,
:meth:`~Typer.allow_levels`; :attr:`Typer.dead` counts the enclosing steps a condition
fixed at load switches off.

>>> from spelbok.lang.loader import read_spec
>>> doc = read_spec("example")
>>> Typer(doc.tree, 4, None, doc.locate).check()
>>> bad = read_spec("g.yaml", text='''spelbok: 1
... name: Tiny
... players: {min: 2, max: 4}
... deck: [{ranks: [A, K, Q, J, 10, 9, 8, 7]}]
... variables: {player: {score: 0}}
... hand: [{deal: {size: 5}}, {tricks: {}}, {set: {score: "seat > 1", won: "1"}, for: "true"}]
... end: {when: "true", winners: "true"}
... ''')
>>> Typer(bad.tree, 2, None, bad.locate).check()
Traceback (most recent call last):
...
spelbok.errors.SpecErrors: g.yaml:6:55: the variable 'score' holds a number (its initial value), but this formula gives a condition (true or false)
g.yaml:6:72: unknown variable 'won' (declare it under variables:)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..cards import FRENCH, Pack, pack_of
from ..errors import FormulaError, SpecError, SpecErrors, did_you_mean
from ..formula import Compiled, compile_formula
from ..formula.name_table import BUILTIN_TYPES, TypeResolver, value_type
from ..formula.nodes import IfExpr, Name, Str, unparse
from ..formula.parse import parse_formula
from ..formula.tables import table_names
from ..limits import short_repr
from .constructs import SECTION_HOMES, STEP_HOMES, entry_cards
from .constructs.deck import entries_for
from .constructs.equal import RULES as EQUAL_RULES
from .constructs.home import UNSET, Home
from .constructs.teams import teams_at

__all__ = ["SELECTORS", "TYPE_WORDS", "UNSET", "Typer", "card_mask", "option_values"]

Path = tuple[Any, ...]
Locator = Callable[[Path], tuple[str | None, int | None, int | None]]

#: How an error names the value of a formula of each type.
TYPE_WORDS = {"int": "a number", "str": "a text", "card": "a card", "cards": "a set of cards"}
#: The seat selectors of a decision's ``who`` and a tricks step's ``leader``.
SELECTORS = ("dealer", "forehand", "each", "last_winner")
#: The variables every game has, besides the spec's (``trump`` and ``out`` are set by steps).
SETTABLE = ("out", "trump", "stock_closed", "mode")
_HOMES: dict[str, Home] = {h.name: h for h in STEP_HOMES}
#: The sections with formulas of their own to check.
_SECTIONS: tuple[Home, ...] = tuple(h for h in SECTION_HOMES if h.compile_check is not None)
_KINDS = tuple(_HOMES)


def _coerce(value: Any, allowed: list[Any] | None) -> Any:
    """Option values given as text on a command line: 'true' -> True, '3' -> 3."""
    if not isinstance(value, str) or not allowed:
        return value
    for a in allowed:
        if str(a).lower() == value.lower():
            return a
    return value


def option_values(declared: dict[str, Any], given: dict[str, Any]) -> dict[str, Any]:
    """Each option's value: its default, or the one ``given`` (checked against the
    option's ``values``; text as from a command line is read as the value it names).

    >>> option_values({"target": {"default": 21, "values": [21, 31]}}, {"target": "31"})
    {'target': 31}
    >>> option_values({}, {"colour": 1})
    Traceback (most recent call last):
    ...
    spelbok.errors.SpecError: <spec>: unknown option 'colour'
    """
    values: dict[str, Any] = {name: opt.get("default") for name, opt in declared.items()}
    for name, value in given.items():
        if name not in declared:
            raise SpecError(f"unknown option '{name}'", hint=did_you_mean(name, declared))
        allowed = declared[name].get("values")
        value = _coerce(value, allowed)
        if allowed and value not in allowed:
            raise SpecError(f"option '{name}' cannot be {short_repr(value)}; choose one of "
                            + ", ".join(str(a) for a in allowed))
        values[name] = value
    return values


def card_mask(names: list[Any], deck_mask: int, pack: Pack = FRENCH) -> int:
    """The cards of the deck ``names`` lists, every copy of each (the checks report any
    other name).

    >>> card_mask(["2C", "XX"], 0b11)
    1
    """
    mask = 0
    for name in names:
        c = pack.parse_card(str(name))
        if c is not None:
            for k in pack.copies_of(c) if pack.copies > 1 else (c,):
                mask |= (1 << k) & deck_mask
    return mask


class Typer:
    """Checks the tree of one game for ``n`` players with ``options`` (the defaults
    when None), locating each problem with ``locate``; :meth:`check` raises them."""

    def __init__(self, tree: dict[str, Any], n: int, options: dict[str, Any] | None,
                 locate: Locator) -> None:
        self.tree = tree
        self.n = n
        self.locate = locate
        self.errors: list[SpecError] = []
        self.options = option_values(tree.get("options") or {}, options or {})
        self.dead = 0  # > 0 while checking steps a condition fixed at load switches off
        self.pack: Pack = FRENCH
        self.deck: list[int] = []
        self.deck_mask = 0
        self.free_mask = self.losing_mask = self.kept_mask = 0
        self.var_types: dict[str, type] = {}
        self.pvars: dict[str, int] = {}
        self.gvars: dict[str, int] = {}
        self.team_seats: list[list[int]] | None = None  # the teams at this count
        self._typed: dict[tuple[str, bool], Compiled | FormulaError] = {}

    # -- errors ---------------------------------------------------------------

    def error(self, path: Path, message: str, hint: str | None = None) -> None:
        """A problem at ``path`` of the spec."""
        file, line, col = self.locate(path)
        self.errors.append(SpecError(message, file, line, col, hint))

    # -- formulas -------------------------------------------------------------

    def typed(self, text: Any, per_player: bool) -> Compiled:
        """The formula compiled against the names' types (raises FormulaError), once per
        text (the checks ask again for its type)."""
        key = (str(text), per_player)
        got = self._typed.get(key)
        if got is None:
            try:
                got = compile_formula(key[0], self.resolver, per_player=per_player)
            except FormulaError as e:
                got = e
            self._typed[key] = got
        if isinstance(got, FormulaError):
            raise got
        return got

    def formula(self, text: Any, path: Path, per_player: bool) -> Any:
        """A formula's value when fixed at load time, else :data:`UNSET` (an error: 0)."""
        if isinstance(text, (bool, int)):
            return text
        try:
            compiled = self.typed(text, per_player)
        except FormulaError as e:
            from .yamlio import locate_in_text  # only on the error path

            file, line, col = locate_in_text(self.locate, path, str(text), e.line, e.col)
            self.errors.append(SpecError(e.message, file, line, col, e.hint))
            return 0
        return compiled.value if compiled.constant else UNSET

    def condition(self, text: Any, path: Path, per_player: bool = False,
                  example: str = "`trick_number > 1`") -> Any:
        """A formula that must give true or false (``example`` shows a comparison)."""
        value = self.formula(text, path, per_player)
        try:
            kind = self.typed(text, per_player).type
        except FormulaError:
            return value  # already reported by formula()
        if kind not in ("bool", "any"):
            self.error(path, f"expected a condition (true or false) here, not a formula that "
                       f"gives {TYPE_WORDS.get(kind, kind)} (compare it: e.g. {example})")
        return value

    def number(self, text: Any, path: Path, per_player: bool) -> Any:
        """A formula that must give a whole number: one fixed to anything else is an error."""
        value = self.formula(text, path, per_player)
        if value is not UNSET and type(value) is not int:
            self.error(path, f"expected a whole number here, not {short_repr(value)}")
            return 0
        return value

    def constant(self, value: Any, path: Path, allowed: tuple[Any, ...]) -> Any:
        """An enum-or-option field: a literal, or a formula over options only."""
        if value in allowed and not (isinstance(value, bool) and True not in allowed):
            return value
        if isinstance(value, str):
            try:
                compiled = self.typed(value, False)
            except FormulaError as e:
                file, line, col = self.locate(path)
                self.errors.append(SpecError(
                    f"expected one of {', '.join(map(str, allowed))} or an option: {e.message}",
                    file, line, col, e.hint or did_you_mean(value, [str(a) for a in allowed])))
                return allowed[0]
            if not compiled.constant:
                self.error(path, f"'{value}' must be fixed when the game is loaded (use an option)")
                return allowed[0]
            v = compiled.value
            if v in allowed:
                return v
            self.error(path, f"'{value}' gives {short_repr(v)}; expected one of {', '.join(map(str, allowed))}")
            return allowed[0]
        self.error(path, f"expected one of {', '.join(map(str, allowed))}")
        return allowed[0]

    def allow_levels(self, allow: Any, reason: Any, path: Path) -> int:
        """An ``allow`` (a condition, or levels each with its ``if`` and ``reason``): how
        many levels it has (none for an absent or always-true one)."""
        if isinstance(allow, list):
            if reason is not None:
                self.error(path[:-1] + ("reason",), "with 'allow' levels, each level gives "
                           "its own 'reason': move this text to the level it explains")
            for i, level in enumerate(allow):
                cond = level.get("if", "true") if isinstance(level, dict) else "true"
                self.formula(cond, (*path, i, "if"), True)
            return len(allow)
        if allow in (None, True, "true"):
            return 0
        self.formula(allow, path, True)
        return 1

    def selector(self, who: Any, where: Any, path: Path) -> None:
        """Who acts: a selector word, ``{most: .., ties: ..}``, or a formula over options
        naming a selector; the first seat ``where`` admits."""
        if where is not None:
            self.formula(where, (*path, "where"), True)
        if isinstance(who, dict):
            self.formula(who.get("most", "0"), (*path, "who", "most"), True)
        elif who not in SELECTORS:
            self.constant(who, (*path, "who"), SELECTORS)

    # -- assignments ------------------------------------------------------------

    def assigns(self, mapping: dict[str, Any], path: Path, per_player: bool) -> None:
        """``name: formula`` assignments: each name settable, each value of its kind."""
        for name, expr in mapping.items():
            if name == "trump":
                expr = self._trump_value(expr, (*path, name), per_player)
            elif name == "mode":
                self._mode_value(expr, (*path, name), per_player)
            self.formula(expr, (*path, name), per_player)
            self._check_kind(name, expr, (*path, name), per_player)
            self._settable(name, (*path, name), per_player)

    def _mode_value(self, expr: Any, path: Path, per_player: bool) -> None:
        """What ``mode`` is set to: a mode of the ``modes`` section or ``'none'`` (a fixed
        text that names neither is an error, as is a spec without modes)."""
        modes = list(self.tree.get("modes") or {})
        if not modes:
            self.error(path, "'mode' chooses one of the spec's modes, and it has none: "
                       "declare them under modes:")
            return
        names = [*modes, "none"]
        if isinstance(expr, (bool, int)):
            self.error(path, f"mode is set to a mode's name ({', '.join(modes)}) or 'none', "
                       f"not {short_repr(expr)}")
            return
        try:
            tree = parse_formula(str(expr))
        except FormulaError:
            return  # reported by formula()
        # every value it can give is a quoted name (through if/then/else) or an option's:
        # a mode is never set to a word found in play, so no match stops on an unknown one
        leaves = [tree]
        while leaves:
            leaf = leaves.pop()
            if isinstance(leaf, IfExpr):
                leaves += [leaf.then, leaf.else_]
                continue
            if isinstance(leaf, Name) and leaf.name in self.options:
                value = self.options[leaf.name]
            elif isinstance(leaf, Str):
                value = leaf.value
            else:
                self.error(path, "mode is set to a mode's name, written in quotes ('"
                           f"{modes[0]}'), or to one of them by if/then/else, not "
                           f"{short_repr(unparse(leaf))}")
                return
            if str(value) not in names:
                self.error(path, f"unknown mode {short_repr(str(value))}: the modes are "
                           f"{', '.join(modes)} (and 'none', the ranking itself)",
                           did_you_mean(str(value), names))

    def _trump_value(self, expr: Any, path: Path, per_player: bool) -> Any:
        """What ``trump`` is set to: a suit letter or ``'none'``, the bare word ``none``
        too; a fixed text that is neither, or a number or a condition, is an error."""
        if isinstance(expr, str) and expr.strip() == "none":
            return "'none'"
        letters = ", ".join(self.pack.letters)
        if isinstance(expr, (bool, int)):
            got = value_type(expr).__name__
        else:
            try:
                compiled = self.typed(expr, per_player)
            except FormulaError:
                return expr  # reported by formula()
            got = compiled.type
            if compiled.constant and got == "str":
                value = str(compiled.value)
                if value.lower() != "none" and value.upper() not in self.pack.suit_index:
                    self.error(path, f"trump is set to a suit letter ({letters}) or 'none', "
                               f"not {short_repr(value)}")
                return expr
        if got not in ("any", "str"):
            self.error(path, f"trump is set to a suit letter ({letters}) or 'none', not "
                       f"{TYPE_WORDS.get(got, 'a condition (true or false)')}")
        return expr

    def _check_kind(self, name: str, expr: Any, path: Path, per_player: bool) -> None:
        """A variable is only ever set to a value of its initial value's kind."""
        want = self.var_types.get(name)
        if want is None:
            return
        if isinstance(expr, (bool, int)):
            got: str = value_type(expr).__name__
        else:
            try:
                got = self.typed(expr, per_player).type
            except FormulaError:
                return  # already reported by formula()
        if got not in ("any", want.__name__):
            self.error(path, f"the variable '{name}' holds {TYPE_WORDS.get(want.__name__, 'a condition')} "
                       f"(its initial value), but this formula gives "
                       f"{TYPE_WORDS.get(got, 'a condition (true or false)')}")

    def _settable(self, name: str, path: Path, per_player: bool) -> None:
        """A name a step may set: a declared variable, ``out`` (per seat), ``trump``..."""
        if name in self.pvars or name == "out":
            if not per_player:
                self.error(path, f"'{name}' is a per-player variable: set it with 'for:'"
                           if name != "out" else "'out' is per player: set it with 'for:'")
            return
        if name in self.gvars or name in SETTABLE:
            return
        known = list(self.pvars) + list(self.gvars) + list(SETTABLE)
        if name in BUILTIN_TYPES:
            self.error(path, f"'{name}' is read-only")
        else:
            self.error(path, f"unknown variable '{name}' (declare it under variables:)",
                       did_you_mean(name, known))

    # -- the whole game -----------------------------------------------------------------

    def check(self) -> None:
        """Every problem of the tree at this player count, raised as SpecErrors (a
        missing deck: one SpecError at once)."""
        t = self.tree
        # a deck entry's `when` reads options only: typed before the game's names exist
        self.resolver = TypeResolver(self.n, self.options, {}, {}, {}, FRENCH, 0)
        self._deck()
        self._variables(t.get("variables") or {})
        self.resolver = TypeResolver(self.n, self.options, self.pvars, self.gvars,
                                     self.var_types, self.pack, self.deck_mask)
        self.resolver.table.update(table_names(t.get("tables")))
        self._teams(t.get("teams"))
        self._ranking(t.get("ranking") or {})
        self._dealer(t.get("dealer") or {})
        self.check_steps(t.get("hand") or [], ("hand",))
        for home in _SECTIONS:  # a section's own formulas (the hidden variables')
            home.compile_check(self, t, ())  # type: ignore[misc]
        end = t.get("end") or {}
        self.formula(end.get("when", "false"), ("end", "when"), False)
        self.formula(end.get("winners", "not out"), ("end", "winners"), True)
        self.formula(end.get("score", "0"), ("end", "score"), True)
        if self.errors:
            raise SpecErrors(self.errors)

    def _deck(self) -> None:
        """The deck for this many players (``deck``, ``deck_mask``, ``pack``)."""
        entries: list[Any] = self.tree.get("deck") or []
        found = entries_for(entries, self.n, lambda i, when: bool(
            self.constant(when, ("deck", i, "when"), (True, False))))
        if self.errors:  # a `when` that is not a condition over options
            raise SpecErrors(self.errors)
        if not found:
            raise SpecError(f"no deck is given for {self.n} players"
                            + (" under these options" if any(
                                "when" in e for e in entries) else ""),
                            *self.locate(("deck",) if entries else ()))
        if len(found) > 1:  # readings of the deck: exactly one serves
            raise SpecError(f"deck entries {found[0] + 1} and {found[1] + 1} both serve "
                            f"{self.n} players under these options (their 'when' must "
                            "exclude each other)", *self.locate(("deck", found[1], "when")))
        entry = entries[found[0]]
        self.pack = pack_of(self.tree.get("pack"))
        self.deck = entry_cards(entry, self.pack)
        for c in self.deck:
            self.deck_mask |= 1 << c

    def _variables(self, variables: dict[str, Any]) -> None:
        """The variables' names, per player and global, and their kinds."""
        for scope, into in (("player", self.pvars), ("hand_player", self.pvars),
                            ("match", self.gvars), ("hand", self.gvars)):
            for name in variables.get(scope, {}):
                into[name] = len(into)
        self.var_types = {name: value_type(init) for scope in variables.values()
                          for name, init in scope.items()}

    def _teams(self, spec: Any) -> None:
        """Partnerships: every seat in exactly one, where ``teams_when`` holds (a
        condition fixed when the game loads)."""
        when = self.tree.get("teams_when", True)
        if when not in (True, "true") and not spec:
            self.error(("teams_when",), "'teams_when' says when the 'teams' hold: give "
                       "'teams' too (e.g. 'teams: [[0, 2], [1, 3]]'), or remove it")
        self.team_seats = teams_at(self.tree, lambda w: bool(self.constant(
            w, ("teams_when",), (True, False))))
        if self.team_seats and sorted(p for team in self.team_seats for p in team) != list(
                range(self.n)):
            only = "" if when in (True, "true") else f" (as '{when}' holds)"
            self.error(("teams",), f"teams must share out seats 0 to {self.n - 1}, each once, "
                       f"at {self.n} players{only} (got {spec}): change the teams, or give "
                       "'teams_when' a condition that fails at this count (e.g. 'seats == "
                       f"{len([p for team in spec for p in team])}')")

    def _ranking(self, ranking: dict[str, Any]) -> None:
        """The ranking's enum-or-option field, and the free, losing and kept cards."""
        self.constant(ranking.get("top_trumps_follow", "trump"),
                      ("ranking", "top_trumps_follow"), ("trump", "printed"))
        self.constant(ranking.get("equal_best", "first"), ("ranking", "equal_best"), EQUAL_RULES)
        deck, pack = self.deck_mask, self.pack
        self.free_mask = card_mask(ranking.get("free_cards") or [], deck, pack)
        self.kept_mask = card_mask(ranking.get("kept_cards") or [], deck, pack)
        self.losing_mask = card_mask(ranking.get("losing_cards") or [], deck, pack)
        self.losing_mask |= self.kept_mask

    def _dealer(self, dealer: dict[str, Any]) -> None:
        """The first dealer and how the deal moves on."""
        first = dealer.get("first", "cut_low")
        if isinstance(first, bool) or not isinstance(first, int):
            self.constant(first, ("dealer", "first"), ("cut_low", "cut_high", "random"))
        self.constant(dealer.get("rotate", "left"), ("dealer", "rotate"),
                      ("left", "right", "none"))
        self.constant(dealer.get("skip_out", True), ("dealer", "skip_out"), (True, False))

    # -- steps -------------------------------------------------------------------------

    def check_steps(self, steps: list[dict[str, Any]], path: Path) -> None:
        """Each step of a list: its guard, then its home's ``compile_check``."""
        for i, step in enumerate(steps):
            here = (*path, i)
            off = False
            if step.get("when", True) not in (True, "true"):
                value = self.formula(step["when"], (*here, "when"), False)
                off = value is not UNSET and not value
            kind = next(k for k in _KINDS if k in step)
            check = _HOMES[kind].compile_check
            self.dead += off
            if check is not None:
                check(self, step, here)
            self.dead -= off
