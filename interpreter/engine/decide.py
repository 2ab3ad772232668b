"""Decisions: ``decide`` (a word, a suit, a number, or an exchange of cards), its
instructions beside its compile step.

:class:`DecideStart` works out who decides and in which order; :class:`Decide` waits
for each of them (what every decision shares is :class:`~spelbok.engine.steps.Decision`,
the exchange is :class:`~spelbok.engine.exchange.Exchange`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..cards import SUITS, Pack
from ..errors import LimitError, SpecError
from ..limits import MAX_CHOICES
from .actions import NUMBER, SUIT, WORD, Action
from .exchange import Exchange
from .steps import Decision, Fn, Instr, Path, Selector, Setter, fixed

if TYPE_CHECKING:
    from .compiler import Compiler
    from .state import State


class DecideStart(Instr):
    """Work out who decides, in which order; with ``see`` (the step's ``see_partners``),
    each decider for whom it holds and his partners are shown each other's hands."""

    def __init__(self, select: Selector, see: Fn | None = None) -> None:
        self.select = select
        self.see = see

    def run(self, st: State) -> bool:
        st.queue = self.select(st)
        if self.see is not None:
            see_partners(st, st.queue, self.see)
        st.pc += 1
        return True


def see_partners(st: State, seats: list[int], cond: Fn) -> None:
    """Each seat of ``seats`` for whom ``cond`` holds, and each of his partners (his side:
    ``Program.sides``), is shown the other's hand as it stands (``State.peeked``: what a
    seat was shown alone; its view lists those cards among the others' known cards)."""
    sides = st.prog.sides
    peeked = st.peeked[:]  # a new list: clones share the old one
    for p in seats:
        if not cond(st, p):
            continue
        for q in range(st.n):
            if q != p and sides[q] == sides[p]:
                peeked[p] |= st.hands[q]
                peeked[q] |= st.hands[p]
    st.peeked = peeked


class Decide(Decision):
    """Wait for each player in the queue to choose a word, a suit or a number."""

    def __init__(
        self,
        name: str,
        kind: str,
        where: Fn | None,
        then: list[tuple[Setter, Fn, str]],
        words: list[str] | None = None,
        suits: list[int] | None = None,
        min_fn: Fn | None = None,
        max_fn: Fn | None = None,
        word_when: list[Fn | None] | None = None,
        allow: Fn | None = None,
        levels: list[tuple[Fn, str]] | None = None,
        pack: Pack | None = None,
    ) -> None:
        super().__init__(name, kind, where, then)
        # an ordered 'allow': its levels (the first is ``allow``), each with the answer to an
        # option it refuses ("": the options are listed)
        self.levels: list[tuple[Fn, str]] = levels or ([(allow, "")] if allow is not None
                                                        else [])
        self.word_actions = [Action(WORD, w) for w in (words or [])]
        self.word_when = word_when or [None] * len(self.word_actions)
        self.suit_actions = [Action(SUIT, name, s, pack) for s in (suits or [])]
        self.min_fn = min_fn
        self.max_fn = max_fn
        self.allow = allow
        self.filtered = allow is not None or any(f is not None for f in self.word_when)
        # the same options every time: words or suits with no condition on them
        self.fixed_list = (None if self.filtered else self.word_actions if kind == "words"
                           else self.suit_actions if kind == "suit" else None)

    def _choices(self, st: State) -> list[Action]:
        """Word, suit or number options that pass their conditions and ``allow``."""
        return self._allowed(st, self._options(st))[0]

    def _options(self, st: State) -> list[Action]:
        """Word, suit or number options that pass their conditions (``allow`` aside)."""
        seat = st.current
        assert seat is not None
        if self.kind == "words":
            opts = [a for a, f in zip(self.word_actions, self.word_when, strict=True)
                    if f is None or f(st, seat)]
        elif self.kind == "suit":
            opts = list(self.suit_actions)
        else:
            lo = int(self.min_fn(st, seat)) if self.min_fn is not None else 0
            hi = int(self.max_fn(st, seat)) if self.max_fn is not None else lo
            if hi - max(lo, 0) >= MAX_CHOICES:
                raise LimitError(f"the '{self.name}' decision would offer {hi - max(lo, 0) + 1} "
                                 f"numbers ({max(lo, 0)} to {hi}); the limit is {MAX_CHOICES}")
            opts = [Action(NUMBER, self.name, k) for k in range(max(lo, 0), hi + 1)]
            if not opts:
                raise SpecError(f"the '{self.name}' decision offers P{seat} no number: its range "
                                f"runs from {lo} to {hi} (hand {st.hand_number})")
        if not opts and self.kind == "words":
            # every word switched off: every word is offered (validate's promise: a
            # decision never leaves its player nothing, as a trick's allow never does)
            opts = list(self.word_actions)
        return opts

    def _allowed(self, st: State, opts: list[Action]) -> tuple[list[Action], str]:
        """The options the first level of ``allow`` that admits one admits, with that
        level's answer to a refused option."""
        if self.allow is None:
            return opts, ""
        seat = st.current
        assert seat is not None
        for allow, why in self.levels:
            kept = []
            for a in opts:
                st.choice = _choice_value(a)
                if allow(st, seat):
                    kept.append(a)
            st.choice = ""
            if kept:
                return kept, why
        return opts, ""  # 'allow' refuses every option: all are offered (as in a trick)

    def dead_end(self, seat: int, st: State, why: str) -> SpecError:
        """A decision that leaves its player nothing to do is the spec's fault: said at
        once, instead of a state with no legal action."""
        return SpecError(f"the '{self.name}' decision offers P{seat} no option: {why} "
                         f"(hand {st.hand_number})")

    def legal(self, st: State) -> list[Action]:
        if self.fixed_list is not None:
            return self.fixed_list  # shared: State.legal_actions hands out a copy
        return self._choices(st)

    def check(self, st: State, a: Action) -> str | None:
        if self.kind == "words" and not self.filtered:
            options = self.word_actions
        elif self.kind == "suit" and not self.filtered:
            options = self.suit_actions
        else:
            offered = self._options(st)
            options, why = self._allowed(st, offered)
            if why and a in offered and a not in options:
                return why  # the deciding level of 'allow' refuses it, and says why
        if a in options:
            return None
        listed = _or_list([str(w) for w in options])
        if self.kind == "suit":
            return f"name a suit: {listed}"
        return f"the choice is {listed}"

    def apply(self, st: State, seat: int, a: Action) -> bool:
        kind = a[0]
        st.choice = a[1] if kind == WORD else _suit_text(a) if kind == SUIT else a[2]
        st.count = 0
        st.public.append((seat, self.name, a))
        if st.rec is not None:
            st.event("decision", seat=seat, decision=self.name, action=str(a))
        return self.answered(st, seat)


def _suit_text(a: Action) -> str:
    """The letter of a suit action's suit (by its pack, when it holds one)."""
    return SUITS[a[2]] if len(a) == 3 else a[3].letters[a[2]]


def _choice_value(a: Action) -> str | int:
    """What ``choice`` reads in formulas for an action: the word, suit letter or number."""
    kind = a[0]
    if kind == WORD:
        return a[1]
    if kind == SUIT:
        return _suit_text(a)
    return a[2]


def _or_list(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " or " + items[-1]


def compile_decide(c: Compiler, step: dict[str, Any], path: Path, code: list[Instr]) -> None:
    """A ``decide`` step: who decides (:class:`DecideStart`), then a :class:`Decide` (words,
    suit, number) or an :class:`~spelbok.engine.exchange.Exchange`."""
    name = str(step["decide"])
    who = step.get("who", "each")
    where = step.get("where")
    choose = step.get("choose")
    single = who != "each"
    see = step.get("see_partners", False)
    see_fn = None if see in (False, "false") else c.formula(see, (*path, "see_partners"), True)
    code.append(DecideStart(c.selector(who, where if single else None, path), see_fn))
    where_fn = None if single or where is None else c.formula(where, (*path, "where"), True)
    if fixed(where_fn) is True:
        where_fn = None
    then = c.assigns(step.get("then", {}), (*path, "then"), True)
    # a refused option is answered with its level's reason, or (none given) the options
    reason = step.get("reason")
    levels = c.allow_levels(step.get("allow"), reason, (*path, "allow"), False)
    allow_fn = levels[0][0] if levels else None
    if isinstance(choose, list):
        words: list[str] = []
        when: list[Fn | None] = []
        for i, w in enumerate(choose):
            if isinstance(w, dict):
                words.append(str(w["word"]).lower())
                cond = w.get("when", True)
                when.append(None if cond in (True, "true")
                            else c.formula(cond, (*path, "choose", i, "when"), True))
            else:
                words.append(str(w).lower())
                when.append(None)
        code.append(Decide(name, "words", where_fn, then, words=words, word_when=when,
                           allow=allow_fn, levels=levels))
    elif choose == "suit":
        suits = [c.pack.suit_index[str(s).upper()]
                 for s in step.get("suits", list(c.pack.letters))]
        code.append(Decide(name, "suit", where_fn, then, suits=suits, allow=allow_fn,
                           levels=levels, pack=None if c.pack.french else c.pack))
    elif choose == "number":
        lo_fn = c.number(step.get("min", "0"), (*path, "min"), True)
        hi_fn = c.number(step.get("max", "0"), (*path, "max"), True)
        code.append(Decide(name, "number", where_fn, then, min_fn=lo_fn, max_fn=hi_fn,
                           allow=allow_fn, levels=levels))
    else:  # choose: exchange (the Typer refuses any other)
        ex = step.get("exchange", {})
        draw = c.constant(ex.get("draw_from", "stock"), (*path, "exchange", "draw_from"),
                          ("stock", "turn_up", "none"))
        max_fn = c.number(ex["max"], (*path, "exchange", "max"), True) if "max" in ex else None
        min_fn = c.number(ex["min"], (*path, "exchange", "min"), True) if "min" in ex else None
        show = ex.get("show", False)
        show_fn = None if show in (False, "false") else c.formula(show, (*path, "exchange",
                                                                         "show"), True)
        give_to = c.constant(ex.get("give_to", "discards"), (*path, "exchange", "give_to"),
                             ("discards", "turn_up", "hand"))
        exchange = Exchange(name, where_fn, then, draw_from=draw, min_fn=min_fn,
                            max_fn=max_fn, levels=levels, show=show_fn, give_to=str(give_to))
        if not c.pack.french:
            exchange.pack = c.pack
        code.append(exchange)
