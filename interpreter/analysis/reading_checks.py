"""The expectations a reading file's ``expect:`` map may name (``legal``, ``trick_winner``,
``scores``, ``hand``...): one check each, in :data:`EXPECT_KEYS`, run by
:meth:`~spelbok.analysis.reading_steps._Context.expect`."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from ..cards import FRENCH, Pack
from ..engine.actions import CARDS, Action, parse_action
from ..errors import (
    ActionError,
    IllegalActionError,
    InvalidActionError,
    did_you_mean,
)
from ..limits import short_repr
from .reading_file import (
    Path_,
)
from .reading_report import (
    Mismatch,
    _show,
)

if TYPE_CHECKING:
    from ..engine.state import State
    from .reading_steps import _Context


def _settled(st: Any) -> Any:
    """The state, with its stock put in shuffled order (see State.settle)."""
    st.settle()
    return st


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


Check = Callable[["_Context", Any, Path_], "Mismatch | list[Mismatch] | None"]


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


def _c_shown(ctx: _Context, want: Any, where: Path_) -> Mismatch | None:
    """The cards of each named hand shown to every seat (a dummy, shown melds)."""
    exp = ctx.per_seat(want, where)
    bad = {}
    for s, v in exp.items():
        e = ctx.card_set(v, (*where, s))
        g = sorted(ctx.pack.names_of(ctx.st.known[s] & ctx.st.hands[s]))
        if e != g:
            bad[s] = (e, g)
    if not bad:
        return None
    return Mismatch("shown", "; ".join(f"{s}: {_cards_text(e, ctx.pack)}"
                                       for s, (e, _) in bad.items()),
                    "; ".join(f"{s}: {_cards_text(g, ctx.pack)}" for s, (_, g) in bad.items()))


def _c_laid_aside(ctx: _Context, want: Any, where: Path_) -> Mismatch | None:
    """The cards each named seat has laid aside face down this hand (its ``discarded``,
    which its own view alone names: a concealed trump, a discard)."""
    exp = ctx.per_seat(want, where)
    bad = {}
    for s, v in exp.items():
        e = ctx.card_set(v, (*where, s))
        g = sorted(ctx.pack.names_of(ctx.st.discarded[s]))
        if e != g:
            bad[s] = (e, g)
    if not bad:
        return None
    return Mismatch("laid_aside", "; ".join(f"{s}: {_cards_text(e, ctx.pack)}"
                                            for s, (e, _) in bad.items()),
                    "; ".join(f"{s}: {_cards_text(g, ctx.pack)}" for s, (_, g) in bad.items()))


def _c_turn_up(ctx: _Context, want: Any, where: Path_) -> Mismatch | None:
    exp = ctx.card_set(want, where)
    got = sorted(ctx.pack.names[c] for c in ctx.st.turn_up)
    return None if exp == got else Mismatch("turn_up", _cards_text(exp, ctx.pack),
                                            _cards_text(got, ctx.pack))


def _c_widow(ctx: _Context, want: Any, where: Path_) -> Mismatch | None:
    exp = ctx.card_set(want, where)
    got = sorted(ctx.pack.names_of(ctx.st.widow))
    return None if exp == got else Mismatch("widow", _cards_text(exp, ctx.pack),
                                            _cards_text(got, ctx.pack))


def _c_shown_aside(ctx: _Context, want: Any, where: Path_) -> Mismatch | None:
    """The cards given away face up to all (an exchange's `show`), in the discards or widow."""
    exp = ctx.card_set(want, where)
    st = ctx.st
    got = sorted(ctx.pack.names_of(st.shown & (st.discards | st.widow)))
    return None if exp == got else Mismatch("shown_aside", _cards_text(exp, ctx.pack),
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
    got = [ctx.pack.names[c] for _, c in ctx.st.trick.cards]
    return None if exp == got else Mismatch("trick", " ".join(exp) or "(empty)",
                                            " ".join(got) or "(empty)")


def _c_leader(ctx: _Context, want: Any, where: Path_) -> Mismatch | None:
    exp = ctx.seat(want, where)
    at = ctx.pending()
    if at is None or at.kind != "trick":
        return Mismatch("leader", str(exp), "no trick is being played")
    got = ctx.st.trick.order[0]
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


def _c_seen(ctx: _Context, want: Any, where: Path_) -> list[Mismatch] | None:
    """Per-player variables as a seat sees them (its view): null where hidden from it."""
    st = ctx.st
    if not isinstance(want, dict):
        raise ctx.loc.error(where, "seen: a map {seat: {variable: values}}")
    out: list[Mismatch] = []
    for seat, names in want.items():
        p = (*where, seat)
        if isinstance(seat, str) and seat.isdigit():  # a map's keys may be read as text
            seat = int(seat)
        if type(seat) is not int or not 0 <= seat < st.n or not isinstance(names, dict):
            raise ctx.loc.error(p, f"seen: a seat 0 to {st.n - 1}, then a map "
                                "{variable: values}")
        shown = st.view(seat)["vars"]
        for name, value in names.items():
            if name not in ctx.game.program.pvar_names:
                raise ctx.loc.error((*p, name), f"{ctx.game.name} declares no per-player "
                                    f"variable '{name}'", key=True)
            if shown[name] != value:
                out.append(Mismatch(f"seen by {seat}: {name}", _show(value),
                                    _show(shown[name])))
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
    "shown": _c_shown,
    "turn_up": _c_turn_up,
    "widow": _c_widow,
    "shown_aside": _c_shown_aside,
    "laid_aside": _c_laid_aside,
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
    "seen": _c_seen,
}

#: Every expectation key a step's ``expect:`` map may use.
EXPECT_KEYS = tuple(_CHECKS)
