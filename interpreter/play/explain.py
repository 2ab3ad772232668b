"""Why things happen in a match, in words derived from the spec (a library API).

The engine's events say *what* happened (a trick's cards and winner, a variable's
new value); this module says *why*, from the spec only: the trick's ranking (the
trump, the led suit, the top trumps), and for a ``set`` the step's label, its
formula with the branches that applied and the values it read, and its ``source``
citation.  No game is named here: every text comes from the spec.

:class:`Explainer` follows a match (``sync(state)``) by replaying its actions on a
recorded copy, one instruction at a time, so that each event is known with the step
that made it and the values that step read; a match played without it pays nothing.
:func:`explain_trick` and :func:`explain_set` are the pieces, for other front ends.

>>> import spelbok
>>> game = spelbok.load("example", players=2)
>>> explain_trick(game, {"event": "trick", "cards": [[0, "7H"], [1, "AH"]], "winner": 1}, "S")
'A♥ is the highest card of the led suit ♥'
>>> explain_trick(game, {"event": "trick", "cards": [[0, "AH"], [1, "7S"]], "winner": 1}, "S")
'7♠ is the only trump'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

from ..cards import SUITS
from ..formula.nodes import IfExpr, Node, unparse
from ..formula.parse import formula_names, parse_formula

if TYPE_CHECKING:
    from ..engine.game import Game
    from ..engine.state import State

Text = Callable[[str], str]
_SYMBOLS = "♣♠♥♦"  # in the order of cards.SUITS


def plain_card(name: str) -> str:
    """A card as the explanations show it by default (``JC`` -> ``J♣``)."""
    text = str(name)
    s = text[-1:].upper()
    return text[:-1].upper() + _SYMBOLS[SUITS.index(s)] if s and s in SUITS else text


def plain_suit(letter: str) -> str:
    """A suit letter as its symbol (``H`` -> ``♥``)."""
    s = str(letter).upper()
    return _SYMBOLS[SUITS.index(s)] if len(s) == 1 and s in SUITS else str(letter)


def _tables(game: Game, trump: str | int | None, mode: str | None = None) -> Any:
    # a suit letter of the game's pack (4: no trump, as engine.order.NO_TRUMP), in the
    # mode named (the spec's modes; None: its ranking)
    if isinstance(trump, int):
        index = trump
    else:
        index = game.program.pack.suit_index.get(trump.upper(), 4) if trump else 4
    return game.program.tables_in(mode)[index]


def _mode(st: State) -> str:
    """The mode in force in ``st`` ('none' for a spec without modes)."""
    prog = st.prog
    return str(st.gv[prog.mode_slot]) if prog.mode_slot >= 0 else "none"


def explain_trick(game: Game, event: Mapping[str, Any], trump: str | int | None = None,
                  card: Text = plain_card, suit: Text = plain_suit,
                  mode: str | None = None) -> str:
    """Why the winner of a ``trick`` event won it, from the game's ranking under ``trump``
    (a suit letter, a suit index, or None for no trump), in ``mode`` (the spec's modes).

    When the trick was not won by the highest trump or the highest card of the led
    suit (a spec's own trick rule), the step's rule is named instead of a guess.
    """
    tables = _tables(game, trump, mode)
    pack = game.program.pack  # the game's cards: ids, names and suit letters
    played = [(int(p), pack.parse_card(str(c))) for p, c in event.get("cards") or []]
    winner = event.get("winner")
    if event.get("tied_by") is not None:  # ranking.equal_best: tie
        return "its best cards are equal: the trick is tied"
    won = [c for p, c in played if p == winner and c is not None]
    if not played or not won or any(c is None for _p, c in played):
        return "nobody takes the trick" if winner is None else "takes the trick"
    w = won[0]
    cards = [c for _p, c in played if c is not None]
    trumps = [c for c in cards if tables.trump[c]]
    led = tables.suit[cards[0]]
    name = card(pack.names[w])
    if tables.trump[w] and tables.power[w] == max(tables.power[c] for c in trumps):
        return f"{name} is the only trump" if len(trumps) == 1 else f"{name} is the highest trump"
    if not trumps and tables.suit[w] == led:
        same = [c for c in cards if tables.suit[c] == led]
        if tables.power[w] == max(tables.power[c] for c in same):
            led_text = suit(pack.letters[led]) if 0 <= led < len(pack.letters) else "led"
            if len(same) == 1:
                return f"{name} is the only card of the led suit {led_text}"
            return f"{name} is the highest card of the led suit {led_text}"
    return f"{name} takes the trick by the rules of play"


def _number(v: Any) -> bool:
    return type(v) is int


def _fmt(v: Any) -> str:
    if v is True:
        return "yes"
    if v is False:
        return "no"
    return str(v)


def explain_set(event: Mapping[str, Any], before: Any = None, formula: str = "",
                values: Mapping[str, Any] | None = None, label: str = "", source: str = "",
                who: str = "") -> str:
    """One line saying what a ``set`` event changed and by which rule.

    ``formula`` is the step's formula for the variable (with the branches that applied,
    see :class:`Explainer`), ``values`` the names it read and their values then,
    ``label`` and ``source`` the step's; ``who`` names the seat.

    >>> explain_set({"event": "set", "seat": 1, "var": "score", "value": 17}, 12,
    ...             "score + change", {"change": 5}, source="en: Scoring", who="P1")
    'P1 score 12 → 17 (+5): score + change, with change 5 (en: Scoring)'
    """
    var, value = str(event.get("var")), event.get("value")
    head = f"{who} {var}" if who else var
    if _number(value) and _number(before):
        change = value - before
        text = f"{head} {before} → {value} ({change:+d})"
    else:
        text = f"{head} is now {_fmt(value)}"
    parts = []
    if label:
        parts.append(f"[{label}]")
    if formula and formula != str(value):
        read = ", ".join(f"{k} {_fmt(v)}" for k, v in (values or {}).items())
        parts.append(formula + (f", with {read}" if read else ""))
    if parts:
        text += ": " + " ".join(parts)
    if source:
        text += f" ({source})"
    return text


def simplify(node: Node, truth: Callable[[Node], Any]) -> Node:
    """``node`` with each ``if`` replaced by the branch that applies (``truth(cond)``;
    a branch it cannot tell, None, stays whole)."""
    if isinstance(node, IfExpr):
        got = truth(node.cond)
        if got is True:
            return simplify(node.then, truth)
        if got is False:
            return simplify(node.else_, truth)
        return node
    changes: dict[str, Any] = {}
    for name in getattr(node, "__dataclass_fields__", {}):
        child = getattr(node, name)
        if _is_node(child):
            new: Any = simplify(child, truth)
            if new is not child:
                changes[name] = new
        elif isinstance(child, tuple) and any(_is_node(x) for x in child):
            items = tuple(simplify(x, truth) if _is_node(x) else x for x in child)
            if any(x is not y for x, y in zip(items, child)):
                changes[name] = items
    if not changes:
        return node
    from dataclasses import replace

    result: Node = replace(cast(Any, node), **changes)
    return result


def _is_node(x: Any) -> bool:
    return hasattr(x, "__dataclass_fields__") and hasattr(x, "line")


@dataclass
class Note:
    """What the explainer knows of one event: the instruction that made it (-1 when
    none), the trump then, and for a ``set`` the formula, values read and the value
    before."""

    pc: int = -1
    trump: int = 4
    mode: str = "none"  # the mode in force (the spec's modes)
    formula: str = ""
    values: dict[str, Any] = field(default_factory=dict)
    before: Any = None


@dataclass
class Explainer:
    """Explains the events of one match as it goes (see the module doc)."""

    game: Game
    card: Text = plain_card
    suit: Text = plain_suit
    _st: State | None = field(default=None, init=False)
    _done: list[Any] = field(default_factory=list, init=False)
    _notes: list[Note] = field(default_factory=list, init=False)
    _resolver: Any = field(default=None, init=False)
    _compiled: dict[tuple[str, bool], Any] = field(default_factory=dict, init=False)

    # -- following the match ----------------------------------------------------------

    def sync(self, state: State, log: list[dict[str, Any]] | None = None) -> None:
        """Catch up with ``state`` (replaying only its new actions; after an undo, again
        from the start).  With the match's ``log`` at hand, a replay that does not give
        it back (an engine this module does not follow) drops its notes rather than
        explain the wrong step."""
        actions = state.actions
        if self._st is None or state.start != self._st.start or \
                self._done != actions[:len(self._done)]:
            self._st = self.game._start(state.start, record=True)
            self._done = []
            self._notes = [Note(trump=self._st.trump, mode=_mode(self._st))
                           for _ in self._st.rec or ()]
        for a in actions[len(self._done):]:
            self._apply(a)
            self._done.append(a)
        if log is not None and self._st.rec != log:
            self._notes = []

    def note(self, index: int) -> Note | None:
        """The note of event ``index`` of the match (None when not known)."""
        return self._notes[index] if 0 <= index < len(self._notes) else None

    def _apply(self, a: Any) -> None:
        # State.apply without its checks (the action was legal in the match), so that
        # the steps run one at a time and each event is known with its step
        st = self._st
        assert st is not None and st.rec is not None
        prog = self.game.program
        seat = st.current
        assert seat is not None
        st.legal_cache = None
        st.hist = (st.hist, a)
        pc = st.pc
        k = len(st.rec)
        more = prog.code[pc].apply(st, seat, a)
        self._noted(k, pc, None)
        if not more:
            st.current = None
            self._advance()

    def _noted(self, k: int, pc: int, got: dict[int, tuple[dict[str, str], dict[str, Any]]] | None
               ) -> None:
        st = self._st
        assert st is not None and st.rec is not None
        for e in st.rec[k:]:
            n = Note(pc=pc, trump=st.trump, mode=_mode(st))
            if got is not None and e.get("event") == "set":
                seat = e.get("seat", -1)
                formulas, before = got.get(seat, ({}, {}))
                var = str(e.get("var"))
                n.formula = formulas.get(var, "")
                n.before = before.get("\0" + var)
                n.values = {k2: v for k2, v in before.items()
                            if k2[:1] != "\0" and k2 in formula_names(n.formula or "0")}
            self._notes.append(n)

    def _advance(self) -> None:
        from ..engine.flow import SetVars

        st = self._st
        assert st is not None and st.rec is not None
        prog = self.game.program
        code = prog.code
        while not st.is_terminal:
            pc = st.pc
            k = len(st.rec)
            if pc >= len(code):
                prog.end_hand(st)
                self._noted(k, -1, None)
                continue
            instr = code[pc]
            got = self._before(pc, st) if isinstance(instr, SetVars) else None
            more = instr.run(st)
            self._noted(k, pc, got)
            if not more:
                return

    # -- a set step's formulas, read before it runs -------------------------------------

    def step(self, pc: int) -> dict[str, Any]:
        """The spec step of instruction ``pc`` ({} when none)."""
        origin = self.game.program.origin(pc)
        node: Any = self.game.tree
        for key in origin.path if origin is not None else ():
            try:
                node = node[key]
            except (KeyError, IndexError, TypeError):
                return {}
        return node if isinstance(node, dict) else {}

    def _eval(self, text: str, st: State, seat: int) -> Any:
        from ..formula.compile import compile_formula

        self._names()
        key = (text, True)
        fn = self._compiled.get(key)
        if fn is None:
            fn = self._compiled[key] = compile_formula(text, self._resolver, per_player=True).fn
        return fn(st, max(seat, 0))

    def _names(self) -> Any:
        """The resolver of the game's formula names (made once)."""
        if self._resolver is None:
            from ..engine.compiler import Compiler

            c = Compiler(self.game.tree, self.game.players, self.game.option_overrides,
                         self.game.doc.locate)
            c.compile()
            self._resolver = c.resolver
        return self._resolver

    def _cards(self, name: str) -> bool:
        """Whether formula name ``name`` is a set of cards (a zone: its value is a mask, which
        says nothing to a reader and may hold cards the reader does not see)."""
        from ..formula.names import _norm_type

        try:
            info = self._names().resolve(name)
            return info is not None and _norm_type(info.type) == "cards"
        except Exception:
            return False

    def _before(self, pc: int, st: State) -> dict[int, tuple[dict[str, str], dict[str, Any]]]:
        """Each seat's formulas (the branches that apply) and the values they read, as the
        step at ``pc`` runs: its assignments are played out in order on a copy, as
        SetVars.run does, so that a formula reading an earlier assignment sees it."""
        step = self.step(pc)
        assigns = step.get("set")
        instr: Any = self.game.program.code[pc]
        if not isinstance(assigns, dict):
            return {}
        options = set(self.game.options)
        out: dict[int, tuple[dict[str, str], dict[str, Any]]] = {}
        c = st.clone()
        c.rec = None
        try:
            if instr.each is None:
                seats: Any = (-1,)
            else:
                seats = [p for p in c.prog.rot[c.prog.nxt[c.dealer]]]
            for p in seats:
                if instr.each is not None and not instr.each(c, p):
                    continue
                formulas: dict[str, str] = {}
                values: dict[str, Any] = {}
                for setter, fn, var in instr.assigns:
                    text = assigns.get(var)
                    if text is not None:
                        node = parse_formula(str(text))

                        def truth(cond: Node, p: int = p) -> Any:
                            try:
                                v = self._eval(unparse(cond), c, p)
                            except Exception:
                                return None
                            return v if type(v) is bool else None

                        formulas[var] = unparse(simplify(node, truth))
                        for name in sorted(formula_names(formulas[var]) | {var}):
                            if name != var and self._cards(name):
                                continue  # a set of cards (a hand, the widow): no value to show
                            if name not in options and (name == var or name not in values):
                                values[name if name != var else f"\0{var}"] = \
                                    self._eval(name, c, p)
                    setter(c, p, fn(c, max(p, 0)))
                out[p] = (formulas, values)
        except Exception:  # an explanation never stops a match: what is known so far
            pass
        return out

    # -- words ----------------------------------------------------------------------------

    def explain(self, index: int, event: Mapping[str, Any], who: str = "") -> str | None:
        """Why event ``index`` (of ``state.log``) happened, or None when it says it all."""
        kind = event.get("event")
        note = self.note(index)
        if note is None:  # not followed (or not given back): better nothing than a guess
            return None
        if kind == "trick":
            return explain_trick(self.game, event, note.trump, self.card, self.suit, note.mode)
        if note is None or note.pc < 0:
            return None
        step = self.step(note.pc)
        label = str(step.get("label") or "")
        source = str(step.get("source") or "")
        if kind == "set":
            if note.before == event.get("value"):
                return None
            return explain_set(event, note.before, note.formula, note.values, label, source,
                               who)
        if kind in ("end_hand_early", "redeal", "eliminated", "melds", "melds_shown",
                    "melds_beaten"):
            parts = [f"[{label}]"] if label else []
            parents = self._parents(note.pc)
            if parents:
                parts.append(parents)
            if source:
                parts.append(f"({source})")
            return " ".join(parts) or None
        return None

    def _parents(self, pc: int) -> str:
        """The condition of the ``if`` step holding instruction ``pc`` (as 'when ...')."""
        origin = self.game.program.origin(pc)
        if origin is None:
            return ""
        path = origin.path
        node: Any = self.game.tree
        cond = ""
        for i, key in enumerate(path):
            try:
                node = node[key]
            except (KeyError, IndexError, TypeError):
                break
            if isinstance(node, dict) and "if" in node and i < len(path) - 1:
                cond = str(node["if"])
        return f"because {cond}" if cond else ""


class SeatExplainer:
    """An :class:`~spelbok.play.explain.Explainer`'s words as one seat may read them.

    A trick's explanation is public once the trick is complete (its event comes
    then), unless another seat played a card of it face down (naming the winner
    would tell of that card).  A set of the seat's own variable is explained whole;
    another seat's (or the table's) says only the change, the step's label and its
    source: its formula and the values it read may stand on cards this seat does
    not see.  Other explanations (a hand ended early, a redeal) cite the spec's rule.
    """

    def __init__(self, explainer: Explainer, viewer: int | None,
                 log: Sequence[Any]) -> None:
        self.explainer = explainer
        self.viewer = viewer
        self.log = log  # the match's events (state.log), which the explainer is synced with

    def explain(self, index: int, event: Any, who: str = "") -> str | None:
        """What ``viewer`` may read of why event ``index`` of ``state.log`` happened."""
        kind = event.get("event")
        if self.viewer is None or kind not in ("trick", "set"):
            return self.explainer.explain(index, event, who)
        if kind == "trick":
            if self._hidden_in_trick(index):
                return None
            return self.explainer.explain(index, event, who)
        if event.get("seat") == self.viewer:
            return self.explainer.explain(index, event, who)
        note = self.explainer.note(index)
        if note is None or note.pc < 0 or note.before == event.get("value"):
            return None
        step = self.explainer.step(note.pc)
        return explain_set(event, note.before, label=str(step.get("label") or ""),
                           source=str(step.get("source") or ""), who=who)

    def _hidden_in_trick(self, index: int) -> bool:
        """Another seat played a card of the trick ending at event ``index`` face down."""
        log = self.log
        i = min(index, len(log)) - 1
        while i >= 0 and log[i].get("event") not in ("trick", "hand"):
            e = log[i]
            if e.get("event") == "face_down" and e.get("seat") != self.viewer:
                return True
            i -= 1
        return False


__all__ = ["Explainer", "Note", "SeatExplainer", "explain_set", "explain_trick", "plain_card", "plain_suit",
           "simplify"]
