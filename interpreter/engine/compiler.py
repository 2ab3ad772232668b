"""Compile a canonical spec tree, for one player count, into a :class:`Program`.

Names in formulas are resolved here, once: each becomes a getter closure over
the state's lists, so nothing on the hot path looks a name up.  Errors found
while compiling (unknown names, a formula that does not parse, an option
value that does not exist) are located in the spec's own file.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from ..cards import FRENCH, Pack, pack_of
from ..errors import FormulaError, SpecError, SpecErrors, did_you_mean
from ..formula import CardContext, Compiled, NameInfo, compile_formula
from ..lang import vocabulary as _v
from ..lang.model import DEFAULT_MAX_HANDS, STOCK_POSITIONS, TRUMPS_BROKEN_BY
from ..limits import MAX_REPEAT, short_repr
from .auction import (
    A_BIDS,
    A_CALLED,
    A_CONTRACT,
    A_DECLARER,
    A_DOUBLED,
    MODES,
    AuctionBid,
    AuctionCall,
    AuctionStart,
    AuctionTrump,
    Contract,
    Rules,
    declarer_side,
    trump_code,
)
from .exchange import Exchange
from .melds import DeclareMelds, Meld
from .order import NO_TRUMP, build_tables, strip_cards
from .passing import PassCards, PassStart
from .patterns import Patterns
from .points import build_points, mask_points
from .program import STEP_PARTS, Origin, Program
from .steps import (
    UNSET,
    Deal,
    Decide,
    DecideStart,
    EndHand,
    Instr,
    Jump,
    JumpUnless,
    Move,
    Redeal,
    RepeatInit,
    RepeatTest,
    SetVars,
    TurnUp,
    TurnUpHand,
    fixed,
)
from .stock import StockDraw
from .trick import (
    CardPlay,
    Declaration,
    TrickNext,
    TrickPlay,
    TrickPlayEach,
    TricksStart,
    card_key,
)

if TYPE_CHECKING:
    from .state import State

Fn = Callable[[Any, int], Any]
Reader = Callable[["State", int], Any]


def _reads(fn: Reader) -> Fn:
    """A built-in name's getter.  Typed with State so that a compiled build reads
    the state's fields directly (see setup.py)."""
    return fn
Path = tuple[Any, ...]
Locator = Callable[[Path], tuple[str | None, int | None, int | None]]

# The language's tables, derived from its one declaration (lang/vocabulary.py); the
# getters of the Resolver below are the code (a test checks they match BUILTINS).
PLAYER_BUILTINS: tuple[str, ...] = tuple(b.name for b in _v.builtins("player"))
GLOBAL_BUILTINS: tuple[str, ...] = tuple(b.name for b in _v.BUILTINS if b.scope != "player")
BUILTINS = PLAYER_BUILTINS + GLOBAL_BUILTINS
#: Who wins a tie of ``who: {most: ..}`` when ``ties`` is absent.
TIES_DEFAULT: str = _v.construct("who_map").field("ties").default


#: How an error names the value of a formula of each type.
_TYPE_WORDS = {"int": "a number", "str": "a text", "card": "a card", "cards": "a set of cards"}


def _assigned(steps: list[Any]) -> set[str]:
    """The variables that ``steps`` (and the steps inside them) assign."""
    names: set[str] = set()
    for _, item in _v.walk_steps(steps):
        if "set" in item and isinstance(item["set"], dict):
            names.update(item["set"])
        elif "decide" in item and isinstance(item.get("then"), dict):
            names.update(item["then"])
    return names


def _fixed_false(fn: Any) -> bool:
    """Whether a compiled condition is false whatever happens (fixed when the game loads)."""
    return hasattr(fn, "value") and not fn.value


def _rule_refuses(cond: Any) -> str:
    """The message for a candidate a condition without a reason refuses."""
    return f"the rule `{cond}` does not allow it"


def _const(v: Any) -> Fn:
    """A formula fixed when the game loads; steps read ``.value`` to skip calling it."""
    fn: Any = lambda st, p: v  # noqa: E731
    fn.value = v
    return fn


class Resolver:
    """Maps formula names to getters over a state (see spelbok.formula.Resolver)."""

    def __init__(self, n: int, options: dict[str, Any], pvars: dict[str, int],
                 gvars: dict[str, int], teams: list[list[int]] | None = None,
                 contracts: tuple[Contract, ...] = (), pack: Pack = FRENCH,
                 var_types: dict[str, type] | None = None) -> None:
        self.nseats = n
        self.options = options
        self.pvars = pvars
        self.gvars = gvars
        self.table: dict[str, NameInfo] = {}
        self.cards: CardContext | None = None  # set by the Compiler once the deck is known
        for name, value in options.items():
            self.table[name] = NameInfo("const", value, _type(value))
        # a variable keeps the kind of its initial value (the assignments are checked
        # against it), so `x + 1` over a text variable is a located error, not a crash
        types = var_types or {}
        for name, row in pvars.items():
            self.table[name] = NameInfo("player", _prow(row), types.get(name),
                                        column=("pv_rows", row))
        for name, slot in gvars.items():
            self.table[name] = _global(_gslot(slot), types.get(name))
        P = "player"
        b = self.table
        b["seat"] = NameInfo(P, _reads(lambda st, p: p), int)
        b["out"] = NameInfo(P, _reads(lambda st, p: st.out[p]), bool, column=("out", None))
        b["tricks"] = NameInfo(P, _reads(lambda st, p: st.won[p]), int, column=("won", None))
        b["cards"] = NameInfo(P, _reads(lambda st, p: st.hands[p].bit_count()), int)
        b["is_dealer"] = NameInfo(P, _reads(lambda st, p: p == st.dealer), bool)
        b["order"] = NameInfo(P, _reads(lambda st, p: (p - st.dealer - 1) % st.n + 1), int)
        b["hand_number"] = _global(_reads(lambda st, p: st.hand_number), int)
        b["trump"] = _global(_reads(lambda st, p: st.trump_letter()), str)
        b["tricks_played"] = _global(_reads(lambda st, p: st.trick_no), int)
        b["talon"] = _global(_reads(lambda st, p: len(st.stock)), int)
        b["turn_up"] = _global(_reads(lambda st, p: len(st.turn_up)), int)
        b["seats"] = NameInfo("const", n, int)
        b["dealer"] = _global(_reads(lambda st, p: st.dealer), int)
        b["choice"] = _global(_reads(lambda st, p: st.choice), None)  # a word, a suit letter or a number
        b["count"] = _global(_reads(lambda st, p: st.count), int)
        # the pack's texts, by suit number (4: none) and by card id
        letters = (*pack.letters, *["none"] * (5 - len(pack.letters)))
        rank_text = tuple(pack.ranks[r] if r >= 0 else "none" for r in pack.rank)
        printed = tuple(letters[s] for s in pack.suit)  # -1 (no suit): the last, "none"
        b["card_suit"] = _global(_reads(lambda st, p: letters[st.tables.suit[st.cand]]), str)
        b["card_rank"] = _global(_reads(lambda st, p: rank_text[st.cand]), str)
        b["card_is_trump"] = _global(_reads(lambda st, p: st.tables.trump[st.cand]), bool)
        b["led_suit"] = _global(_reads(lambda st, p: letters[st.led] if st.led >= 0 else "none"), str)
        b["trumps_broken"] = _global(_reads(lambda st, p: st.broken), bool)
        b["trick_number"] = _global(_reads(lambda st, p: st.trick_no + 1), int)
        b["turn_up_suit"] = _global(_reads(lambda st, p: printed[st.turn_up[-1]] if st.turn_up else "none"), str)
        b["turn_up_rank"] = _global(_reads(lambda st, p: rank_text[st.turn_up[-1]] if st.turn_up else "none"), str)
        b["last_winner"] = _global(_reads(lambda st, p: st.last_winner), int)
        # card sets, as bitmasks (bit c: card c); read only by formulas that name them
        b["hand"] = NameInfo(P, _reads(lambda st, p: st.hands[p]), "cards")
        b["meld_points"] = NameInfo(P, _reads(lambda st, p: st.meld_points[p]), int)
        b["trick"] = _global(_reads(lambda st, p: _mask(st.trick)), "cards")
        b["led_card"] = _global(_reads(lambda st, p: st.trick[0][1] if st.trick else -1), "card")
        b["winning_card"] = _global(_reads(lambda st, p: _card_of(st.trick, st.best_seat)), "card")
        b["turn_up_cards"] = _global(_reads(lambda st, p: _mask_of(st.turn_up)), "cards")
        b["widow"] = _global(_reads(lambda st, p: st.widow), "cards")
        b["card"] = _global(_reads(lambda st, p: st.cand), "card")
        b["pattern"] = _global(_reads(lambda st, p: st.pattern), str)
        b["stock_closed"] = _global(_reads(lambda st, p: st.stock_closed), bool)
        b["pattern_seat"] = _global(_reads(lambda st, p: st.pattern_seat), int)
        # partnerships: without `teams`, every seat is its own team
        team_of = list(range(n))
        partner_of = [-1] * n
        members: list[list[int]] = [[p] for p in range(n)]
        for i, team in enumerate(teams or []):
            for p in team:
                team_of[p] = i
        if teams:
            members = [list(t) for t in teams]
            for team in teams:
                for p in team:
                    others = [q for q in team if q != p]
                    partner_of[p] = others[0] if others else -1
        tof = tuple(team_of)
        pof = tuple(partner_of)
        mates = tuple(tuple(members[tof[p]]) for p in range(n))
        b["team"] = NameInfo(P, _reads(lambda st, p: tof[p]), int)
        b["partner"] = NameInfo(P, _reads(lambda st, p: pof[p]), int)
        b["team_tricks"] = NameInfo(P, _reads(lambda st, p: sum(st.won[q] for q in mates[p])), int)
        # the cards of the tricks won and played, and their points (engine/points.py); the
        # trick play keeps them only for a game that reads one of these (KEEPS_CARDS)
        b["tricks_won"] = NameInfo(P, _reads(lambda st, p: st.won_cards[p]), "cards")
        b["team_tricks_won"] = NameInfo(P, _reads(lambda st, p: _team_won(st, mates[p])), "cards")
        b["card_points"] = NameInfo(P, _reads(lambda st, p: _seat_points(st, p)), int)
        b["team_card_points"] = NameInfo(
            P, _reads(lambda st, p: sum(_seat_points(st, q) for q in mates[p])), int)
        b["played"] = _global(_reads(lambda st, p: st.played | _mask(st.trick)), "cards")
        self.used: set[str] = set()  # the names resolved so far (see KEEPS_CARDS)
        # in a tricks step's after_each, the trick's names read the trick just finished
        # (the last one played): the Compiler sets after_trick while it compiles those steps
        self.after_trick = False
        self.finished: dict[str, NameInfo] = {
            "trick": _global(_reads(lambda st, p: _pairs_mask(_last_trick(st))), "cards"),
            "led_card": _global(_reads(lambda st, p: _led_of(_last_trick(st))), "card"),
            "winning_card": _global(_reads(
                lambda st, p: _card_of(list(_last_trick(st)), st.last_winner)), "card"),
        }
        self.team_of = tof
        self._auction_names(contracts, tof)

    def _auction_names(self, contracts: tuple[Contract, ...], tof: tuple[int, ...]) -> None:
        """The names an auction sets (engine/auction.py): empty values before one."""
        b = self.table
        P = "player"
        names = tuple(c.name for c in contracts)
        levels = tuple(c.level for c in contracts)
        aims = tuple(c.aim for c in contracts)
        negative = tuple(c.negative for c in contracts)
        b["contract"] = _global(_reads(lambda st, p: names[st.auction[A_CONTRACT]] if st.auction and st.auction[A_CONTRACT] >= 0 else "none"), str)
        b["contract_level"] = _global(_reads(lambda st, p: levels[st.auction[A_CONTRACT]] if st.auction and st.auction[A_CONTRACT] >= 0 else 0), int)
        b["contract_aim"] = _global(_reads(lambda st, p: aims[st.auction[A_CONTRACT]] if st.auction and st.auction[A_CONTRACT] >= 0 else 0), int)
        b["contract_negative"] = _global(_reads(lambda st, p: negative[st.auction[A_CONTRACT]] if st.auction and st.auction[A_CONTRACT] >= 0 else False), bool)
        b["declarer_seat"] = _global(_reads(lambda st, p: st.auction[A_DECLARER] if st.auction else -1), int)
        b["doubled"] = _global(_reads(lambda st, p: st.auction[A_DOUBLED] if st.auction else 0), int)
        b["called_card"] = _global(_reads(lambda st, p: st.auction[A_CALLED] if st.auction else -1), "card")
        b["is_declarer"] = NameInfo(P, _reads(lambda st, p: bool(st.auction) and st.auction[A_DECLARER] == p), bool)
        b["declarer_team"] = NameInfo(P, _reads(lambda st, p: declarer_side(st, p, tof)), bool)
        b["bid_of"] = NameInfo(P, _reads(lambda st, p: names[st.auction[A_BIDS + p]] if st.auction and st.auction[A_BIDS + p] >= 0 else "none"), str)

    def resolve(self, name: str) -> NameInfo | None:
        self.used.add(name)
        if self.after_trick and name in self.finished:
            return self.finished[name]
        return self.table.get(name)

    def names(self) -> Iterable[str]:
        return self.table.keys()


def _mask(pairs: list[tuple[int, int]]) -> int:
    """The cards of a trick's ``(seat, card)`` pairs, as a bitmask."""
    m = 0
    for _, c in pairs:
        m |= 1 << c
    return m


#: The names whose values need the trick play to keep each trick's cards.
KEEPS_CARDS = frozenset({"tricks_won", "team_tricks_won", "card_points", "team_card_points",
                         "played"})


def _team_won(st: State, seats: tuple[int, ...]) -> int:
    m = 0
    for q in seats:
        m |= st.won_cards[q]
    return m


def _seat_points(st: State, p: int) -> int:
    """The points of the cards in ``p``'s tricks, with the last trick's bonus."""
    tables = st.prog.points
    got = mask_points(tables[st.trump], st.won_cards[p]) if tables else 0
    return got + st.prog.last_trick_points if st.last_trick == p else got


def _card_points(st: State, c: int) -> int:
    tables = st.prog.points
    return tables[st.trump].card[c] if tables and c >= 0 else 0


def _set_points(st: State, m: int) -> int:
    tables = st.prog.points
    return mask_points(tables[st.trump], m) if tables else 0


def _power(st: State, c: int) -> int:
    """A card's power in the current trick (its key: 0 when it cannot win it); before the
    lead, its power as a lead."""
    if c < 0:
        return 0
    if st.led < 0:
        return st.tables.power[c]
    return card_key(st, c)


def _last_trick(st: State) -> tuple[tuple[int, int], ...]:
    """The ``(seat, card)`` pairs of the last trick played this hand (none before one)."""
    tricks = st.history_tricks
    if not tricks:
        return ()
    pairs: tuple[tuple[int, int], ...] = tricks[-1][1]
    return pairs


def _pairs_mask(pairs: tuple[tuple[int, int], ...]) -> int:
    m = 0
    for _, c in pairs:
        m |= 1 << c
    return m


def _led_of(pairs: tuple[tuple[int, int], ...]) -> int:
    return pairs[0][1] if pairs else -1


def _card_of(pairs: list[tuple[int, int]], seat: int) -> int:
    """The card ``seat`` played to a trick's ``(seat, card)`` pairs, or -1."""
    for q, c in pairs:
        if q == seat:
            return c
    return -1


def _mask_of(cards: list[int]) -> int:
    """A list of cards as a bitmask."""
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def _tables(st: State) -> Any:
    """The current trump's tables (the card functions of formulas read them)."""
    return st.tables


def _type(v: Any) -> type:
    return bool if isinstance(v, bool) else int if isinstance(v, int) else str


def _prow(row: int) -> Reader:
    return lambda st, p: st.pv_rows[row][p]


def _gslot(slot: int) -> Reader:
    return lambda st, p: st.gv[slot]


def _first(st: State, order: list[int], where_fn: Fn | None) -> list[int]:
    """The first seat of ``order`` meeting ``where_fn`` (any seat when None), as a list."""
    if where_fn is None:
        return order[:1]
    for p in order:
        if where_fn(st, p):
            return [p]
    return []


def _global(get: Callable[[Any, int], Any], type_: Any) -> NameInfo:
    """A name with one value per state; ``get(state, seat)`` ignores the seat."""
    return NameInfo("global", lambda st: get(st, 0), type_, direct=get)


class Compiler:
    """Builds the Program of one game for ``n`` players."""

    def __init__(self, tree: dict[str, Any], n: int, options: dict[str, Any] | None,
                 locate: Locator) -> None:
        self.tree = tree
        self.n = n
        self.locate = locate
        self.errors: list[SpecError] = []
        self.options = self._options(options or {})
        self.counters = 0
        self.dead = 0  # > 0 while compiling steps a guard fixed at load switches off
        self.pack: Pack = FRENCH  # the spec's, once compile() has read it
        self.step_pcs: dict[Path, int] = {}  # each step's first instruction (see Program)
        self.origins: dict[int, Origin] = {}  # pc -> the step it comes from (see Program)
        self._compiled: dict[tuple[str, bool, bool], Compiled] = {}
        self.free_mask = 0  # ranking.free_cards and losing_cards, as masks of the deck
        self.losing_mask = 0
        self.kept_mask = 0

    # -- errors ---------------------------------------------------------------

    def error(self, path: Path, message: str, hint: str | None = None) -> None:
        file, line, col = self.locate(path)
        self.errors.append(SpecError(message, file, line, col, hint))

    def where(self, path: Path) -> str:
        """``file:line:col`` of ``path`` in the spec, for errors found at run time."""
        return SpecError("", *self.locate(path)).location

    # -- options ----------------------------------------------------------------

    def _options(self, given: dict[str, Any]) -> dict[str, Any]:
        declared = self.tree.get("options", {})
        values: dict[str, Any] = {}
        for name, opt in declared.items():
            values[name] = opt.get("default")
        for name, value in given.items():
            if name not in declared:
                raise SpecError(f"unknown option '{name}'",
                                hint=did_you_mean(name, declared))
            allowed = declared[name].get("values")
            value = _coerce(value, allowed)
            if allowed and value not in allowed:
                raise SpecError(
                    f"option '{name}' cannot be {short_repr(value)}; choose one of "
                    + ", ".join(str(a) for a in allowed)
                )
            values[name] = value
        return values

    # -- formulas -------------------------------------------------------------------

    def _compile(self, text: str, per_player: bool) -> Compiled:
        """compile_formula, once per text (formula() and local_vec() may ask twice)."""
        key = (text, per_player, self.resolver.after_trick)
        got = self._compiled.get(key)
        if got is None:
            got = self._compiled[key] = compile_formula(text, self.resolver, per_player=per_player)
        return got

    def formula(self, text: Any, path: Path, per_player: bool) -> Fn:
        if isinstance(text, (bool, int)):
            return _const(text)
        try:
            compiled = self._compile(str(text), per_player)
        except FormulaError as e:
            from ..lang.yamlio import locate_in_text  # only on the error path

            file, line, col = locate_in_text(self.locate, path, str(text), e.line, e.col)
            self.errors.append(SpecError(e.message, file, line, col, e.hint))
            return _const(0)
        if compiled.constant:
            return _const(compiled.value)
        fn: Fn = compiled.fn
        return fn

    def condition(self, text: Any, path: Path) -> Fn:
        """A global formula that must give true or false (a trick rule): one of another
        type is a located error."""
        fn = self.formula(text, path, False)
        try:
            kind = self._compile(str(text), False).type
        except FormulaError:
            return fn  # already reported by formula()
        if kind not in ("bool", "any"):
            self.error(path, f"expected a condition (true or false) here, not a formula that "
                       f"gives {_TYPE_WORDS.get(kind, kind)} (compare it: e.g. "
                       "`trick_number > 1`)")
        return fn

    def _names_read(self, text: Any) -> frozenset[str]:
        """The names a formula reads (none when it does not compile: reported elsewhere)."""
        try:
            return self._compile(str(text), False).names
        except FormulaError:
            return frozenset()

    def allow_levels(self, allow: Any, reason: Any, path: Path,
                     default: bool) -> list[tuple[Fn, str]]:
        """An ``allow`` as its levels in order, each a condition on the candidate and the
        message for one it refuses (none for an absent or always-true ``allow``): the
        spec's reason, else (``default``) the rule itself, else empty."""
        if isinstance(allow, list):
            if reason is not None:
                self.error(path[:-1] + ("reason",), "with 'allow' levels, each level gives "
                           "its own 'reason': move this text to the level it explains")
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

    def number(self, text: Any, path: Path, per_player: bool) -> Fn:
        """A formula that must give a whole number (a size, a count, a bound): one fixed at
        load time to anything else is a located error, not a ValueError in play."""
        fn = self.formula(text, path, per_player)
        value = fixed(fn)
        if value is not UNSET and type(value) is not int:
            self.error(path, f"expected a whole number here, not {short_repr(value)}")
            return _const(0)
        return fn

    def local_vec(self, text: Any) -> Any:
        """Every seat's value of a per-player formula at once, when it reads only
        the seat's own per-player values and constants (else None)."""
        try:
            compiled = self._compile(str(text), True)
        except FormulaError:
            return None  # already reported by formula()
        if compiled.vec is None or not all(self._seat_local(n) for n in compiled.names):
            return None
        return compiled.vec

    def _seat_local(self, name: str) -> bool:
        info = self.resolver.resolve(name)
        return info is not None and (info.kind == "const" or info.column is not None)

    def constant(self, value: Any, path: Path, allowed: tuple[Any, ...]) -> Any:
        """An enum-or-option field: a literal, or a formula over options only."""
        if value in allowed and not (isinstance(value, bool) and True not in allowed):
            return value
        if isinstance(value, str):
            try:
                compiled = compile_formula(value, self.resolver, per_player=False)
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

    # -- the whole game -----------------------------------------------------------------

    def compile(self) -> Program:
        t = self.tree
        n = self.n
        deck_entry = None
        for entry in t["deck"]:
            lo, hi = entry["players"]
            if lo <= n <= hi:
                deck_entry = entry
        if deck_entry is None:
            raise SpecError(f"no deck is given for {n} players")
        pack = self.pack = pack_of(t.get("pack"))
        suits = [pack.suit_index[s] for s in deck_entry.get("suits", list(pack.letters))]
        ranks = [pack.rank_index[str(r).upper()] for r in deck_entry["ranks"]]
        deck = pack.ids_of(suits, ranks) + pack.extra_ids([e[0] for e in pack.extras])
        self.deck = deck
        deck_mask = 0
        for c in deck:
            deck_mask |= 1 << c
        ranking = t.get("ranking", {})
        rank_order = [str(r) for r in ranking.get("ranks", list(reversed(pack.ranks)))]
        top = [str(x) for x in ranking.get("top_trumps", [])]

        # variables
        variables = t.get("variables", {})
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
        self.var_types = {name: _type(init) for scope in variables.values()
                          for name, init in scope.items()}
        teams = self.teams(t.get("teams"))
        self.contracts = self._contracts(t["hand"])
        self.resolver = Resolver(n, self.options, pvars, gvars, teams, self.contracts,
                                 pack, self.var_types)
        self.resolver.cards = CardContext(_tables, deck_mask, _card_points, _set_points, _power,
                                          pack)

        follow_printed = self.constant(
            ranking.get("top_trumps_follow", "trump"), ("ranking", "top_trumps_follow"),
            ("trump", "printed")) == "printed"
        tables = build_tables(deck_mask, rank_order, top, follow_printed, pack)
        self.free_mask = self.card_mask(ranking.get("free_cards") or [], deck_mask, pack)
        self.losing_mask = self.card_mask(ranking.get("losing_cards") or [], deck_mask, pack)
        # kept cards never win either (and then stay with their owner: CardPlay.kept)
        self.kept_mask = self.card_mask(ranking.get("kept_cards") or [], deck_mask, pack)
        self.losing_mask |= self.kept_mask
        if self.losing_mask:
            tables = tuple(strip_cards(x, self.losing_mask) for x in tables)
        cut_ranks = [str(r) for r in ranking.get("cut_ranks", rank_order)]
        cut_index = {pack.rank_index[r.upper()]: len(cut_ranks) - i for i, r in enumerate(cut_ranks)}
        cut_power = [cut_index.get(r, 0) for r in pack.rank]

        prog = Program(n=n, deck=deck, deck_mask=deck_mask, tables=tables)
        prog.pack = pack
        prog.player_init = player_init
        prog.player_hand_rows = hand_rows
        prog.global_init = global_init
        prog.global_hand_slots = hand_slots
        prog.cut_power = tuple(cut_power)
        prog.pvar_names = list(pvars)
        prog.gvar_names = list(gvars)
        prog.options = dict(self.options)
        if t.get("points") is not None:
            prog.points = build_points(t["points"], deck, tables, pack)
            prog.last_trick_points = int(t["points"].get("last_trick", 0))
        prog.contracts = self.contracts

        dealer = t.get("dealer", {})
        first = dealer.get("first", "cut_low")
        if isinstance(first, bool) or not isinstance(first, int):
            first = self.constant(first, ("dealer", "first"), ("cut_low", "cut_high", "random"))
        prog.first_dealer = first
        rotate = self.constant(dealer.get("rotate", "left"), ("dealer", "rotate"),
                               ("left", "right", "none"))
        prog.rotate = {"left": 1, "right": -1, "none": 0}[rotate]
        prog.skip_out = bool(self.constant(dealer.get("skip_out", True), ("dealer", "skip_out"),
                                           (True, False)))

        code: list[Instr] = []
        self.compile_steps(t["hand"], ("hand",), code)
        prog.code = code
        prog.n_counters = self.counters
        prog.step_pcs = self.step_pcs
        prog.origins = [self.origins.get(pc, Origin((), "")) for pc in range(len(code))]

        end = t["end"]
        prog.end_when = self.formula(end.get("when", "false"), ("end", "when"), False)
        prog.winners_fn = self.formula(end.get("winners", "not out"), ("end", "winners"), True)
        prog.score_fn = self.formula(end.get("score", "0"), ("end", "score"), True)
        prog.max_hands = int(end.get("max_hands", DEFAULT_MAX_HANDS))
        if prog.points or self.resolver.used & KEEPS_CARDS:
            for ins in code:
                if isinstance(ins, TrickPlay):
                    ins.keep_cards = True
        if self.errors:
            raise SpecErrors(self.errors)
        return prog

    def teams(self, spec: Any) -> list[list[int]] | None:
        """Partnerships: a list of seat lists (every seat in exactly one), or none."""
        if not spec:
            return None
        seats = [p for team in spec for p in team]
        if sorted(seats) != list(range(self.n)):
            self.error(("teams",), f"teams must share out seats 0 to {self.n - 1}, each once "
                       f"(got {spec})")
            return None
        return [[int(p) for p in team] for team in spec]

    # -- steps -------------------------------------------------------------------------

    def compile_steps(self, steps: list[dict[str, Any]], path: Path, code: list[Instr]) -> None:
        for i, step in enumerate(steps):
            self.compile_step(step, (*path, i), code)

    def compile_step(self, step: dict[str, Any], path: Path, code: list[Instr]) -> None:
        guard: JumpUnless | None = None
        at = len(code)
        off = False
        if step.get("when", True) not in (True, "true"):
            guard = JumpUnless(self.formula(step["when"], (*path, "when"), False))
            code.append(guard)
            off = _fixed_false(guard.cond)
        self.step_pcs[path] = len(code)
        kind = next(k for k in KINDS if k in step)
        self.dead += off
        getattr(self, "step_" + kind)(step, path, code)
        self.dead -= off
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

    def step_deal(self, step: dict[str, Any], path: Path, code: list[Instr]) -> None:
        d = step["deal"]
        p = (*path, "deal")
        code.append(Deal(
            self.number(d.get("size", "0"), (*p, "size"), True),
            [int(x) for x in d.get("packets", [1])] or [1],
            # None: every seat still in (the usual case, which needs no formula)
            self.formula(d["to"], (*p, "to"), True) if d.get("to", "not out") != "not out" else None,
            self.number(d["widow"], (*p, "widow"), False)
            if d.get("widow") not in (None, 0, "0") else None,
            self.where(p),
        ))

    def step_turn_up(self, step: dict[str, Any], path: Path, code: list[Instr]) -> None:
        d = step["turn_up"]
        value = d.get("trump", True) if isinstance(d, dict) else True
        source = self.constant(d.get("from", "stock") if isinstance(d, dict) else "stock",
                               (*path, "turn_up", "from"), _v.words("turn_up", "from"))
        kind = TurnUpHand if source == "dealer" else TurnUp
        if isinstance(value, bool):
            code.append(kind(_const(value)))
        else:  # a condition, e.g. on an option
            code.append(kind(self.formula(value, (*path, "turn_up", "trump"), False)))

    def selector(self, who: Any, where: Any, path: Path, single_where: bool = True,
                 ) -> Callable[[Any], list[int]]:
        where_fn = self.formula(where, (*path, "where"), True) if where is not None else None
        if fixed(where_fn) is True:  # 'where: true' filters nothing
            where_fn = None
        if isinstance(who, dict):
            expr = self.formula(who.get("most", "0"), (*path, "who", "most"), True)
            ties = who.get("ties", TIES_DEFAULT)

            same = fixed(expr) is not UNSET  # fixed at load time: every seat ties

            def most(st: State) -> list[int]:
                cands = st.forehand_order()
                if where_fn is not None:
                    cands = [p for p in cands if where_fn(st, p)]
                if not cands:
                    return []
                if same:
                    tied = cands
                else:
                    vals = [expr(st, p) for p in cands]
                    best = max(vals)
                    tied = [p for p, v in zip(cands, vals, strict=True) if v == best]
                if len(tied) > 1 and ties == "cut":
                    pick = tied[st.random_below(len(tied))]
                    if st.rec is not None:
                        st.event("cut_tie", among=tied, chosen=pick)
                    return [pick]
                return [tied[0]]

            return most
        if who not in SELECTORS:
            # a formula over options naming a selector (a reading switch)
            who = self.constant(who, (*path, "who"), SELECTORS)
        if who == "each":
            return lambda st: st.forehand_order()  # `where` is applied lazily by Decide

        def single(st: State) -> list[int]:
            # seats still in, clockwise from the named one (from forehand for 'forehand')
            out = st.out
            if who == "dealer" and not out[st.dealer]:
                start = st.dealer
            elif who == "last_winner" and st.last_winner >= 0 and not out[st.last_winner]:
                start = st.last_winner
            elif who == "dealer":  # a dealer who is out: the last seat still in before them
                seats = [p for p in st.prog.rot[(st.dealer + 1) % st.n] if not out[p]]
                return [] if not seats else _first(st, [seats[-1], *seats[:-1]], where_fn)
            else:
                start = (st.dealer + 1) % st.n
            return _first(st, [p for p in st.prog.rot[start] if not out[p]], where_fn)

        return single

    def assigns(self, mapping: dict[str, Any], path: Path, per_player: bool
                ) -> list[tuple[Callable[[Any, int, Any], None], Fn, str]]:
        out = []
        for name, expr in mapping.items():
            if name == "trump":
                expr = self._trump_value(expr, (*path, name), per_player)
            fn = self.formula(expr, (*path, name), per_player)
            self._check_kind(name, expr, (*path, name), per_player)
            setter = self.setter(name, (*path, name), per_player)
            out.append((setter, fn, name))
        return out

    def _trump_value(self, expr: Any, path: Path, per_player: bool) -> Any:
        """What ``trump`` is set to: a suit letter or ``'none'`` (no trump), the bare word
        ``none`` too; a fixed text that is neither, or a number or a condition, is a
        located error (set at run time, it would quietly mean no trump)."""
        if isinstance(expr, str) and expr.strip() == "none":
            return "'none'"
        letters = ", ".join(self.pack.letters)
        if isinstance(expr, (bool, int)):
            got = _type(expr).__name__
        else:
            try:
                compiled = self._compile(str(expr), per_player)
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
                       f"{_TYPE_WORDS.get(got, 'a condition (true or false)')}")
        return expr

    def _check_kind(self, name: str, expr: Any, path: Path, per_player: bool) -> None:
        """A variable is only ever set to a value of its initial value's kind."""
        want = self.var_types.get(name)
        if want is None:
            return
        if isinstance(expr, (bool, int)):
            got: str = _type(expr).__name__
        else:
            try:
                got = self._compile(str(expr), per_player).type
            except FormulaError:
                return  # already reported by formula()
        if got not in ("any", want.__name__):
            self.error(path, f"the variable '{name}' holds {_TYPE_WORDS.get(want.__name__, 'a condition')} "
                       f"(its initial value), but this formula gives "
                       f"{_TYPE_WORDS.get(got, 'a condition (true or false)')}")

    def setter(self, name: str, path: Path, per_player: bool) -> Callable[[Any, int, Any], None]:
        if name in self.pvars:
            if not per_player:
                self.error(path, f"'{name}' is a per-player variable: set it with 'for:'")
            row = self.pvars[name]

            def set_p(st: State, p: int, v: Any) -> None:
                st.pv_rows[row][p] = v

            set_p.row = row  # type: ignore[attr-defined]  # steps may store into the row directly
            return set_p
        if name in self.gvars:
            slot = self.gvars[name]

            def set_g(st: State, p: int, v: Any) -> None:
                st.gv[slot] = v

            return set_g
        if name == "out":
            if not per_player:
                self.error(path, "'out' is per player: set it with 'for:'")

            def set_out(st: State, p: int, v: Any) -> None:
                st.out[p] = bool(v)
                if v and st.rec is not None:
                    st.event("eliminated", seat=p)

            return set_out
        if name == "stock_closed":

            def set_closed(st: State, p: int, v: Any) -> None:
                st.stock_closed = bool(v)
                if st.rec is not None:
                    st.event("stock_closed", closed=bool(v), **({"by": p} if p >= 0 else {}))

            return set_closed
        if name == "trump":
            suit_index = self.pack.suit_index

            def set_trump(st: State, p: int, v: Any) -> None:
                s = suit_index.get(str(v).upper(), NO_TRUMP) if v != "none" else NO_TRUMP
                st.game.program.set_trump(st, s)
                if st.rec is not None:  # p < 0: set by a step, not named by a player
                    st.event("trump", trump=st.trump_letter(), **({"chosen_by": p} if p >= 0 else {}))

            return set_trump
        known = list(self.pvars) + list(self.gvars) + ["out", "trump", "stock_closed"]
        if name in BUILTINS:
            self.error(path, f"'{name}' is read-only")
        else:
            self.error(path, f"unknown variable '{name}' (declare it under variables:)",
                       did_you_mean(name, known))
        return lambda st, p, v: None

    def step_decide(self, step: dict[str, Any], path: Path, code: list[Instr]) -> None:
        name = str(step["decide"])
        who = step.get("who", "each")
        where = step.get("where")
        choose = step.get("choose")
        single = who != "each"
        code.append(DecideStart(self.selector(who, where if single else None, path)))
        where_fn = None if single or where is None else self.formula(where, (*path, "where"), True)
        if fixed(where_fn) is True:
            where_fn = None
        then = self.assigns(step.get("then", {}), (*path, "then"), True)
        # a refused option is answered with its level's reason, or (none given) the options
        reason = step.get("reason")
        levels = self.allow_levels(step.get("allow"), reason, (*path, "allow"), False)
        allow_fn = levels[0][0] if levels else None
        if reason is not None and allow_fn is None:
            self.error((*path, "reason"), "'reason' explains an option that 'allow' refuses, "
                       "but this step has no 'allow'")
        if isinstance(choose, list):
            words: list[str] = []
            when: list[Fn | None] = []
            for i, w in enumerate(choose):
                if isinstance(w, dict):
                    words.append(str(w["word"]).lower())
                    cond = w.get("when", True)
                    when.append(None if cond in (True, "true")
                                else self.formula(cond, (*path, "choose", i, "when"), True))
                else:
                    words.append(str(w).lower())
                    when.append(None)
            code.append(Decide(name, "words", where_fn, then, words=words, word_when=when,
                               allow=allow_fn, levels=levels))
        elif choose == "suit":
            suits = [self.pack.suit_index[str(s).upper()]
                     for s in step.get("suits", list(self.pack.letters))]
            code.append(Decide(name, "suit", where_fn, then, suits=suits, allow=allow_fn,
                               levels=levels, pack=None if self.pack.french else self.pack))
        elif choose == "number":
            lo_fn = self.number(step.get("min", "0"), (*path, "min"), True)
            hi_fn = self.number(step.get("max", "0"), (*path, "max"), True)
            lo, hi = fixed(lo_fn), fixed(hi_fn)
            if lo is not UNSET and hi is not UNSET and max(lo, 0) > hi:
                self.error((*path, "max"), f"the decision offers no number: 'max' ({hi}) is "
                           f"below 'min' ({lo})")
            code.append(Decide(name, "number", where_fn, then, min_fn=lo_fn, max_fn=hi_fn,
                               allow=allow_fn, levels=levels))
        elif choose == "exchange":
            ex = step.get("exchange", {})
            draw = self.constant(ex.get("draw_from", "stock"), (*path, "exchange", "draw_from"),
                                 ("stock", "turn_up", "none"))
            max_fn = self.number(ex["max"], (*path, "exchange", "max"), True) if "max" in ex else None
            min_fn = self.number(ex["min"], (*path, "exchange", "min"), True) if "min" in ex else None
            exchange = Exchange(name, where_fn, then, draw_from=draw, min_fn=min_fn,
                                max_fn=max_fn)
            if not self.pack.french:
                exchange.pack = self.pack
            code.append(exchange)
        else:
            self.error((*path, "choose"), "choose a word list, 'suit', 'number' or 'exchange'")

    def step_tricks(self, step: dict[str, Any], path: Path, code: list[Instr]) -> None:
        t = step["tricks"]
        p = (*path, "tricks")
        flags: dict[str, Fn] = {}
        # names whose value changes between tricks: a rule reading one is worked out per trick
        changing = set(_v.PER_TRICK_NAMES) | _assigned(t.get("after_each") or [])
        per_trick = False
        for key, default in _v.TRICK_RULES.items():
            v = t.get(key, default)
            flags[key] = self.condition(v, (*p, key)) if not isinstance(v, bool) else _const(v)
            if not isinstance(v, bool) and self._names_read(v) & changing:
                per_trick = True
        lead_trumps = self.constant(t.get("lead_trumps", "any"), (*p, "lead_trumps"),
                                    ("any", "broken"))
        flags["lead_broken"] = _const(lead_trumps == "broken")
        broken_by = self.constant(t.get("trumps_broken_by", TRUMPS_BROKEN_BY[0]),
                                  (*p, "trumps_broken_by"), TRUMPS_BROKEN_BY)
        flags["broken_any"] = _const(broken_by == "any")
        abstain = t.get("abstain")
        abstain_fn = None
        if abstain not in (None, False, "false"):
            abstain_fn = self.formula(abstain, (*p, "abstain"), True)
        allow = t.get("allow")
        reason = t.get("reason")
        levels = self.allow_levels(allow, reason, (*p, "allow"), True)
        allow_fn, refused = levels[0] if levels else (None, "")
        if reason is not None and allow_fn is None:
            self.error((*p, "reason"), "'reason' explains a card that 'allow' refuses, "
                       "but this step has no 'allow'")
        play = self.trick_play(t, p, abstain_fn, allow_fn, refused, levels[1:] or None,
                               per_trick)
        if not self.pack.french:
            play.pack = self.pack
        leader = self.selector(t.get("leader", "forehand"), t.get("leader_where"), p)
        # seats out of the match never play: the default needs no formula
        players = (self.formula(t["players"], (*p, "players"), True)
                   if t.get("players", "not out") != "not out" else _const(True))
        count = t.get("count", "all")
        count_fn = None if count in ("all", None) else self.formula(count, (*p, "count"), False)
        scored = self.constant(t.get("scored", True), (*p, "scored"), (True, False))
        players_vec = (self.local_vec(t["players"])
                       if t.get("players", "not out") != "not out" else None)
        start = TricksStart(players, leader, flags, play, count_fn, bool(scored), players_vec)
        if per_trick and isinstance(play, TrickPlayEach):  # CardPlay is one too: only then
            play.start = start
        code.append(start)
        # the stock: a draw after each trick, an instruction of its own only when used
        draw = self.constant(t.get("draw", "none"), (*p, "draw"), _v.words("tricks", "draw"))
        stock_pcs: list[int] = []
        at = len(code)
        code.append(play)
        after = t.get("after_each") or []
        if after or draw != "none":
            play.has_after = True
            if draw == "winner_first":
                stock_pcs.append(len(code))
                code.append(StockDraw())
            outer, self.resolver.after_trick = self.resolver.after_trick, True
            self.compile_steps(after, (*p, "after_each"), code)
            self.resolver.after_trick = outer
            code.append(TrickNext(play, at))
        play.end = len(code)
        for pc in stock_pcs:  # claimed here, so that the step's parts stay start, play, next
            self.origins[pc] = Origin(path, "tricks", "run", str(step.get("label") or ""), "",
                                      self.step_pcs[path], len(code))

    @staticmethod
    def card_mask(names: list[Any], deck_mask: int, pack: Pack = FRENCH) -> int:
        """The cards of the deck ``names`` lists, every copy of each (the checks report
        any other name)."""
        mask = 0
        for name in names:
            c = pack.parse_card(str(name))
            if c is not None:
                for k in pack.copies_of(c) if pack.copies > 1 else (c,):
                    mask |= (1 << k) & deck_mask
        return mask

    def trick_play(self, t: dict[str, Any], p: Path, abstain_fn: Fn | None,
                   allow_fn: Fn | None, refused: str, more: list[tuple[Fn, str]] | None,
                   per_trick: bool) -> TrickPlay:
        """The play instruction of a tricks step: its class chosen here, so that a spec
        that uses no card-play mechanics (``trump_from``, special cards) plays its tricks
        with :class:`TrickPlay` and pays nothing for them."""
        word = str(t.get("abstain_word", "knock"))
        trump_from = self.constant(t.get("trump_from", "none"), (*p, "trump_from"),
                                   _v.words("tricks", "trump_from"))
        by = t.get("trump_by", "true")
        if trump_from == "none" and by not in (True, "true"):
            self.error((*p, "trump_by"), "'trump_by' says whose lead names trump, but "
                       "this step has no 'trump_from'", "add 'trump_from: first_lead'")
        down = t.get("face_down", "false")
        down_fn = None if down in (False, "false") else self.formula(down, (*p, "face_down"), True)
        if down_fn is None:
            for key in ("face_down_word", "face_down_as", "face_down_shown"):
                if key in t:
                    self.error((*p, key), f"'{key}' says how a card is played face down, "
                               "but this step has no 'face_down'",
                               "add 'face_down: CONDITION' (who may play face down)")
        decls = self.declarations(t.get("declare") or [], (*p, "declare"))
        if (trump_from == "none" and not self.free_mask and not self.losing_mask
                and down_fn is None and not decls):
            kind = TrickPlayEach if per_trick else TrickPlay
            return kind(abstain_fn, word, allow_fn, refused, more)
        by_fn = None if by in (True, "true") else self.formula(by, (*p, "trump_by"), True)
        down_word = str(t.get("face_down_word", "down"))
        if down_fn is not None and down_word == word:
            self.error((*p, "face_down_word"), f"'{down_word}' is already the word for "
                       "knocking: a face-down play needs a word of its own")
        down_as = self.constant(t.get("face_down_as", "lowest_trump"), (*p, "face_down_as"),
                                _v.words("tricks", "face_down_as"))
        shown = self.constant(t.get("face_down_shown", True), (*p, "face_down_shown"),
                              (True, False))
        taken = [word] + ([down_word] if down_fn is not None else [])
        for k, d in enumerate(decls):
            if d.word in taken:
                self.error((*p, "declare", k, "word"), f"'{d.word}' is already a word of this "
                           "tricks step: a declaration needs a word of its own")
            taken.append(d.word)
        play = CardPlay(abstain_fn, word, allow_fn, refused, trump_from == "first_lead", by_fn,
                        self.free_mask, self.losing_mask, down_fn, down_word,
                        down_as == "lowest_trump", bool(shown), decls, more)
        play.kept = self.kept_mask
        return play

    def declarations(self, entries: list[Any], path: Path) -> list[Declaration]:
        """The declarations a player may attach to a card play (``tricks.declare``)."""
        out = []
        for k, d in enumerate(entries):
            here = (*path, k)
            when = d.get("when", "true")
            binds = d.get("binds", "true")
            reason = d.get("reason")
            if reason is not None and binds in (True, "true"):
                self.error((*here, "reason"), "'reason' explains a card that 'binds' refuses, "
                           "but this declaration has no 'binds'")
            out.append(Declaration(
                str(d.get("word", "")),
                None if when in (True, "true") else self.formula(when, (*here, "when"), True),
                self.assigns(d.get("then") or {}, (*here, "then"), True),
                None if binds in (True, "true") else self.formula(binds, (*here, "binds"), True),
                str(reason) if reason else f"the demand `{binds}` binds you",
                self.where(here)))
        return out

    def step_set(self, step: dict[str, Any], path: Path, code: list[Instr]) -> None:
        each = step.get("for")
        per_player = each is not None
        assigns = self.assigns(step["set"], (*path, "set"), per_player)
        each_fn = self.formula(each, (*path, "for"), True) if per_player else None
        each_vec = self.local_vec(each) if per_player else None
        code.append(SetVars(assigns, each_fn, each_vec, self.where(path)))

    def step_if(self, step: dict[str, Any], path: Path, code: list[Instr]) -> None:
        test = JumpUnless(self.formula(step["if"], (*path, "if"), False))
        code.append(test)
        never = _fixed_false(test.cond)
        always = hasattr(test.cond, "value") and bool(test.cond.value)
        self.dead += never
        self.compile_steps(step.get("then", []), (*path, "then"), code)
        self.dead -= never
        if step.get("else"):
            skip = Jump()
            code.append(skip)
            test.target = len(code)
            self.dead += always
            self.compile_steps(step["else"], (*path, "else"), code)
            self.dead -= always
            skip.target = len(code)
        else:
            test.target = len(code)

    def step_repeat(self, step: dict[str, Any], path: Path, code: list[Instr]) -> None:
        slot = self.counters
        self.counters += 1
        code.append(RepeatInit(slot))
        top = len(code)
        cond = self.formula(step["while"], (*path, "while"), False) if "while" in step else None
        test = RepeatTest(slot, self.number(step["repeat"], (*path, "repeat"), False), cond,
                          where=self.where((*path, "repeat")))
        if test.fixed_times is not None and test.fixed_times > MAX_REPEAT:
            self.error((*path, "repeat"), f"a repeat may run at most {MAX_REPEAT} rounds, "
                       f"not {test.fixed_times}")
        code.append(test)
        self.compile_steps(step.get("steps", []), (*path, "steps"), code)
        code.append(Jump(top))
        test.target = len(code)

    def step_redeal(self, step: dict[str, Any], path: Path, code: list[Instr]) -> None:
        d = step["redeal"] if isinstance(step["redeal"], dict) else {}
        who = self.constant(d.get("dealer", "same"), (*path, "redeal", "dealer"), ("same", "next"))
        code.append(Redeal(who == "next"))

    def step_end_hand(self, step: dict[str, Any], path: Path, code: list[Instr]) -> None:
        code.append(EndHand())

    def step_move(self, step: dict[str, Any], path: Path, code: list[Instr]) -> None:
        m = step["move"]
        p = (*path, "move")
        zones = ("hand", "widow", "stock", "turn_up", "discards")
        source = self.constant(m.get("from", "stock"), (*p, "from"), zones)
        target = self.constant(m.get("to", "hand"), (*p, "to"), zones)
        each = step.get("for")
        if "hand" in (source, target) and each is None:
            self.error(p, "moving cards from or to a hand needs 'for:' (whose hand)")
        count = m.get("count", "all")
        count_fn = None if count == "all" else self.formula(count, (*p, "count"), each is not None)
        each_fn = self.formula(each, (*path, "for"), True) if each is not None else None
        position = self.constant(m.get("position", STOCK_POSITIONS[0]), (*p, "position"),
                                 STOCK_POSITIONS)
        if "position" in m and target != "stock":
            self.error((*p, "position"), "'position' says where cards go in the stock: "
                       "it needs 'to: stock'")
        code.append(Move(source, target, count_fn, each_fn, position))

    # -- auctions (engine/auction.py) --------------------------------------------------

    def _contracts(self, hand: list[Any]) -> tuple[Contract, ...]:
        """Every auction's contracts, numbered in one list (the built-ins read it); the
        first index of each auction step, by its path, in ``self.contract_first``."""
        out: list[Contract] = []
        self.contract_first: dict[Path, int] = {}
        for path, step in _v.walk_steps(hand, ("hand",)):
            if not isinstance(step, dict) or not isinstance(step.get("auction"), dict):
                continue
            self.contract_first[path] = len(out)
            for c in step["auction"].get("contracts", []):
                level = c.get("level", 0)
                aim = c.get("aim", level)
                negative = aim == "none"
                out.append(Contract(str(c.get("name", level)), int(level),
                                    trump_code(str(c.get("trump", "keep")), self.pack),
                                    0 if negative or not isinstance(aim, int) else aim, negative))
        return tuple(out)

    def step_auction(self, step: dict[str, Any], path: Path, code: list[Instr]) -> None:
        d = step["auction"]
        p = (*path, "auction")
        first = self.contract_first.get(path, 0)
        count = len(d.get("contracts", []))
        mode = self.constant(d.get("partner", "none"), (*p, "partner"), MODES)
        if mode == "teams" and not self.tree.get("teams"):
            self.error((*p, "partner"), "'partner: teams' needs the spec's 'teams'")
        ranks = tuple(self.pack.rank_index[str(r).upper()] for r in d.get("called_ranks", ["A"])
                      ) if mode == "called_card" else ()  # a pack may have no ace
        rules = Rules(self.contracts, first, count, MODES.index(mode), ranks,
                      self.resolver.team_of)

        def cond(key: str, default: bool) -> Fn:
            v = d.get(key, default)
            return _const(v) if isinstance(v, bool) else self.formula(v, (*p, key), False)

        code.append(AuctionStart(rules, self.number(d.get("first", "(dealer + 1) % seats"),
                                                    (*p, "first"), False),
                                 cond("pass_final", True), cond("double", False),
                                 cond("redouble", False)))
        code.append(AuctionBid(rules))
        suits = tuple(sorted({self.pack.suit[c] for c in self.deck if self.pack.suit[c] >= 0}))
        code.append(AuctionTrump(rules, suits, None if self.pack.french else self.pack))
        code.append(AuctionCall(rules))
        skip = Jump()
        code.append(skip)
        rules.all_pass = len(code)
        after = d.get("all_pass") or []
        if after:
            self.compile_steps(after, (*p, "all_pass"), code)
        else:
            code.append(Redeal(False))
        skip.target = len(code)
    def step_pass_cards(self, step: dict[str, Any], path: Path, code: list[Instr]) -> None:
        t = step["pass_cards"]
        p = (*path, "pass_cards")
        words = _v.words("pass_cards", "directions")
        directions = [self.constant(d, (*p, "directions", i), words)
                      for i, d in enumerate(t.get("directions", ["left"]))]
        if "across" in directions and self.n % 2 and not self.dead:
            self.error((*p, "directions"), f"cards cannot be passed across among {self.n} "
                       "players: 'across' needs an even number")
        by = self.number(t.get("by", "hand_number - 1"), (*p, "by"), False)
        slot = self.counters  # holds this hand's direction while the seats pass
        self.counters += 1
        start = PassStart([str(d) for d in directions], by, slot)
        code.append(start)
        code.append(PassCards(start, self.number(t["count"], (*p, "count"), True)))

    def step_patterns(self, step: dict[str, Any], path: Path, code: list[Instr]) -> None:
        names: list[str] = []
        conds: list[Fn] = []
        ranks: list[Fn | None] = []
        for i, pat in enumerate(step["patterns"]):
            p = (*path, "patterns", i)
            names.append(str(pat["name"]))
            conds.append(self.formula(pat["if"], (*p, "if"), True))
            try:
                kind = self._compile(str(pat["if"]), True).type
            except FormulaError:
                kind = "bool"  # already reported by formula()
            if kind not in ("bool", "any"):
                self.error((*p, "if"), f"expected a condition (true or false) here, not a "
                           f"formula that gives {_TYPE_WORDS.get(kind, kind)} (compare it: "
                           "e.g. `count(hand) == 5`)")
            rank = pat.get("rank", "0")
            ranks.append(None if rank in (0, "0") else self.number(rank, (*p, "rank"), True))
        code.append(Patterns(names, conds, ranks))

    def step_declare_melds(self, step: dict[str, Any], path: Path, code: list[Instr]) -> None:
        p = (*path, "declare_melds")
        table = self.tree.get("melds") or {}
        if not table:
            self.error(p, "there are no melds to declare: the spec has no 'melds' table")
        deck_mask = self.resolver.cards.deck_mask if self.resolver.cards else 0
        pack = self.pack
        nr = len(pack.ranks)
        deck = [c for c in range(pack.size) if (deck_mask >> c) & 1]
        suits = sorted({pack.suit[c] for c in deck if pack.suit[c] >= 0})
        ranking = self.tree.get("ranking", {}).get("ranks") or _v.construct("ranking").field(
            "ranks").default

        def rank_of(r: Any) -> int:
            return pack.rank_index[str(pack.normalize_rank(r) or r).upper()]

        melds = []
        for name, m in table.items():
            at = ("melds", name)
            kind = self.constant(m.get("spread", "one_suit"), (*at, "spread"),
                                 _v.words("meld", "spread"))
            # the first copy of each card (Meld.made counts the other copies)
            ranks = [rank_of(r) for r in m.get("ranks", [])]
            sets: list[int] = []
            if ranks and kind == "one_suit":
                sets = [sum(1 << (s * nr + r) for r in ranks) for s in suits]
            elif ranks:
                sets = [sum(1 << (s * nr + r) for r in ranks for s in suits)]
            sets = [x for x in sets if x & deck_mask == x]  # only what the deck can make
            run = int(m.get("run", 0))
            runs = [[s * nr + rank_of(r) for r in ranking
                     if (deck_mask >> (s * nr + rank_of(r))) & 1] for s in suits] \
                if run else []
            melds.append(Meld(str(name), sets, runs, run,
                              self.number(m["points"], (*at, "points"), True),
                              pack.copies, len(pack.letters) * nr))
        each = step.get("for", "not out")
        each_fn = None if each == "not out" else self.formula(each, (*path, "for"), True)
        show = self.constant(step["declare_melds"].get("show", True), (*p, "show"), (True, False))
        code.append(DeclareMelds(melds, each_fn, bool(show)))


SELECTORS = ("dealer", "forehand", "each", "last_winner")
KINDS = ("deal", "turn_up", "decide", "tricks", "set", "if", "repeat", "redeal", "end_hand",
         "move", "auction", "pass_cards", "patterns", "declare_melds")


def _coerce(value: Any, allowed: list[Any] | None) -> Any:
    """Option values given as text on a command line: 'true' -> True, '3' -> 3."""
    if not isinstance(value, str) or not allowed:
        return value
    for a in allowed:
        if str(a).lower() == value.lower():
            return a
    return value
