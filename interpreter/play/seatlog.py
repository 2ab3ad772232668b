"""What a person at a seat is told of the match as it goes (``spelbok play`` and the
browser table of ``spelbok serve`` alike): the narrator with that seat's eyes, the
explanations it may read, in the spec's words, and the final standing of a match."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..engine.actions import CARD, CARDS, SUIT, WORD
from ..engine.play_sets import PlaySets
from ..view.narrator import Narrator
from ..view.text import Style, card, cards, suit

if TYPE_CHECKING:
    from ..engine.actions import Action
    from ..engine.game import Game
    from ..engine.state import State


def _spoken(name: str) -> str:
    """A spec's name as words (``three_spades`` -> ``three spades``)."""
    return name.replace("_", " ")


def score_name(game: Game) -> str | None:
    """The variable the match reports as each player's score (``end: score``), when it is
    one variable; None when the score is a formula."""
    end = game.tree.get("end") or {}
    name = end.get("score", "score")
    return name if isinstance(name, str) and name.isidentifier() else None


def exchange_verb(legal: Sequence[Action], state: State | None = None) -> str | None:
    """The verb of the cards given away at this decision (an exchange or a pass, which a
    menu writes ``give 9♠``, its bare word ``keep all``); None when ``legal`` holds no
    cards, or when ``state``'s decision does not give them away (a card called, a card
    played with an announcement or face down: ``call A♠``, ``twenty Q♠``; cards chosen
    to show, which stay in the hand: ``show T21``).

    >>> from spelbok.engine.actions import parse_action
    >>> exchange_verb([parse_action("give 9S"), parse_action("give")])
    'give'
    >>> exchange_verb([parse_action("9S")]) is None
    True
    """
    if type(legal) is not list:  # the lazy list of every exchange: one verb
        if isinstance(legal, PlaySets):
            return None  # plays of several cards in a trick (never listed here): no exchange
        verb: str | None = str(legal[0].verb)
    else:
        verb = next((a.verb for a in legal if a.kind == CARDS), None)
    if verb is not None and state is not None:
        from ..engine.exchange import Exchange
        from ..engine.passing import PassCards

        code = state.game.program.code
        if not (0 <= state.pc < len(code) and isinstance(code[state.pc], (Exchange, PassCards))):
            return None
        ins = code[state.pc]
        if isinstance(ins, Exchange) and ins.keep:
            return None  # cards chosen to show stay in the hand: nothing is given
    return verb


def receiver(state: State, names: Sequence[str] | None) -> str:
    """' to P1' when the decision gives cards to a seat the step names (a pass), else ''."""
    to = getattr(state.game.program.code[state.pc], "_to", None)
    seat = state.current_player
    if to is None or seat is None or not names:
        return ""
    try:
        return f" to {names[to(state, seat)]}"
    except Exception:  # an odd step: say nothing rather than a wrong seat
        return ""


def action_words(a: Action, style: Style, exchange_verb: str | None = None) -> str:
    """A decision as a menu shows it: cards and suits in the style's symbols, a word
    spoken (``keep_all`` -> ``keep all``), cards given away (``exchange_verb``: an
    exchange, a pass) as ``give``, the exchange of no cards as ``keep all``; other
    cards keep their verb (``call A♠``, ``twenty Q♠``).

    >>> from spelbok.engine.actions import parse_action
    >>> action_words(parse_action("exchange 9S 10H"), Style(), "exchange")
    'give 9♠ 10♥'
    >>> action_words(parse_action("exchange"), Style(), "exchange")
    'keep all'
    >>> action_words(parse_action("call AS"), Style(), None)
    'call A♠'
    """
    if a.kind == CARD:
        return card(str(a), style)
    if a.kind == SUIT:
        return f"{a.verb} {suit(str(a).split()[-1], style)}"
    if a.kind == CARDS:
        verb = "give" if a.verb == exchange_verb else _spoken(a.verb)
        return f"{verb} {cards(str(a).split()[1:], style)}"
    if a.kind == WORD and a.verb == exchange_verb:
        return "keep all"
    return _spoken(str(a))


def deed(a: Action, style: Style, exchange_verb: str | None, to: str = "") -> str:
    """What choosing ``a`` does, as the end of a sentence: 'play 9♣', 'give 6♥ 7♥'
    (with ``to``, the :func:`receiver` of the cards given: 'give 6♥ 7♥ to P1'),
    'choose call A♠', 'keep all', 'say pass'.

    >>> from spelbok.engine.actions import parse_action
    >>> "The greedy bot would " + deed(parse_action("9C"), Style(), None) + "."
    'The greedy bot would play 9♣.'
    >>> deed(parse_action("pass 6H 7H"), Style(), "pass", " to P1")
    'give 6♥ 7♥ to P1'
    >>> deed(parse_action("call AS"), Style(), None)
    'choose call A♠'
    """
    text = action_words(a, style, exchange_verb)
    if a.kind == CARD:
        return f"play {text}"
    if a.kind == CARDS and a.verb != exchange_verb:
        return f"choose {text}"  # 'choose twenty Q♠', 'choose call A♠'
    if a.kind == CARDS:
        return text + to
    if text == "keep all":
        return text
    return f"say {text}"  # a word or a suit, as the menu shows it


class PlayerWords:
    """A :class:`~spelbok.play.explain.SeatExplainer`'s words as a person at the table
    reads them: the spec's labels and citations, never its variable names.  A change of
    the score the match reports is said with its step's label and source (what
    ``describe`` cites); the spec's other counts (``need``, ``change``, ...) are its own
    working names, and their effect is in the score, so they are not told (``play --auto
    --verbose`` shows them)."""

    def __init__(self, why: Any, score: str | None) -> None:
        self.why = why
        self.score = score

    def explain(self, index: int, event: Any, who: str = "") -> str | None:
        if event.get("event") in ("end_hand_early", "redeal", "eliminated", "melds",
                                  "melds_shown", "melds_beaten"):
            return self._rule(index)
        if event.get("event") != "set":
            return self.why.explain(index, event, who)
        from .explain import explain_set

        ex = self.why.explainer
        note = ex.note(index)
        if event.get("var") != self.score or note is None or note.pc < 0 or \
                note.before == event.get("value"):
            return None
        step = ex.step(note.pc)
        # said as the scores line says it: 'score', whatever the spec calls it
        return explain_set({**event, "var": "score"}, note.before,
                           label=_spoken(str(step.get("label") or "")),
                           source=str(step.get("source") or ""), who=who)


    def _rule(self, index: int) -> str | None:
        """The step that made event ``index``, by its label, the label of the ``if`` step
        holding it (not its condition, which is a formula) and the source."""
        ex = self.why.explainer
        note = ex.note(index)
        if note is None or note.pc < 0:
            return None
        step = ex.step(note.pc)
        origin = ex.game.program.origin(note.pc)
        node: Any = ex.game.tree
        under: dict[str, Any] = {}
        for key in origin.path[:-1] if origin is not None else ():
            try:
                node = node[key]
            except (KeyError, IndexError, TypeError):
                break
            if isinstance(node, dict) and "if" in node:
                under = node
        parts = [f"[{_spoken(str(step['label']))}]"] if step.get("label") else []
        if under.get("label"):
            parts.append(f"under '{_spoken(str(under['label']))}'")
        source = step.get("source") or under.get("source")
        if source:
            parts.append(f"({source})")
        return " ".join(parts) or None


def _seat_narrator(names: Sequence[str], style: Style, human: int,
                   start_scores: Sequence[Any] | None = None, explainer: Any = None) -> Any:
    """A :class:`~spelbok.view.narrator.Narrator` for a person at seat ``human``: contracts and
    bids as words, and no line for a spec's working variables (see :class:`PlayerWords`)."""
    class PlayerNarrator(Narrator):
        def _ev_set(self, e: Any) -> list[str]:
            return []  # the score's change is on the scores line (and explained)

        def _ev_decision(self, e: Any) -> list[str]:
            return super()._ev_decision({**e, "action": _spoken(str(e.get("action", "")))})

        def _ev_contract(self, e: Any) -> list[str]:
            return super()._ev_contract({**e, "contract": _spoken(str(e.get("contract")))})

    return PlayerNarrator(names, style=style, viewer=human, start_scores=start_scores,
                          explainer=explainer)


class SeatLog:
    """What a person at seat ``human`` is told of a match's events as they come: the
    narrator with that seat's eyes (:class:`~spelbok.view.narrator.Narrator`, ``viewer``)
    and the explanations that seat may read (:class:`~spelbok.play.explain.SeatExplainer`),
    in the spec's words (:class:`PlayerWords`).
    ``shown``: the events told already (a resumed match, or after an undo)."""

    def __init__(self, game: Game, names: Sequence[str], human: int, style: Style,
                 start_scores: Sequence[Any] | None = None, shown: int = 0) -> None:
        from .explain import Explainer, SeatExplainer

        self.explainer = Explainer(game, card=lambda c: card(c, style),
                                   suit=lambda t: suit(t, style))
        self.why = SeatExplainer(self.explainer, human, [])
        self.narrator = _seat_narrator(names, style, human, start_scores,
                                       PlayerWords(self.why, score_name(game)))
        self.narrator._index = shown
        self.shown = shown

    def sync(self, state: State) -> list[dict[str, Any]]:
        """The match's events, with the explainer caught up on them."""
        events = state.log
        self.explainer.sync(state, events)
        self.why.log = events
        return events

    def lines(self, state: State) -> list[str]:
        """The lines for the events since the last call (every line complete)."""
        events = self.sync(state)
        out: list[str] = []
        for event in events[self.shown:]:
            out += self.narrator.feed(event)
        self.shown = len(events)
        return out + self.narrator.flush()


def final_standing(state: State) -> dict[str, Any]:
    """The end of a match as the table shows it: each seat's final score in order (the
    winners first), the winners, the rule that made them winners (the spec's own
    citation of ``end``, as ``describe`` gives it; "" when it cites none) and whether
    the match was stopped at a limit on its hands (``max_hands``) before its own end.

    >>> import spelbok
    >>> st = spelbok.load("example").new_state(seed=1)
    >>> while not st.is_terminal:
    ...     st.apply(st.legal_actions()[0])
    >>> end = final_standing(st)
    >>> sorted(end["order"]) == list(range(st.game.players)), end["winners"] == list(st.winners)
    (True, True)
    """
    from ..lang.prose import cite

    winners = list(state.winners)
    scores = list(state.scores)
    order = winners + [p for p in range(len(scores)) if p not in winners]
    end = state.game.tree.get("end") or {}
    why = " ".join(line.strip() for line in cite(end, 0))
    last = state.log[-1] if state.log else {}
    stopped = bool(last.get("event") == "match_end" and last.get("limit_reached"))
    return {"order": order, "winners": winners, "scores": scores, "why": why,
            "stopped": stopped}
