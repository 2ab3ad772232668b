"""The browser table's view of a match for one seat: what the page draws, and nothing
that seat may not see.

:func:`table` turns a state into the JSON a page gets: the seat's
:func:`~spelbok.engine.observe.view` (never another seat's hidden cards), the seats
placed around the table with the viewer at the bottom (:func:`around`), the hands
shown to all (a dummy, melds), the viewer's cards with whether each is legal now and,
when not, the engine's reason (its legality layers: the trick options, then the
spec's ``allow`` levels), one button per distinct decision (:func:`decisions`), the
hand's log in the seat's words (:mod:`spelbok.play.seatlog`) and, once the match is
over, the final table (:func:`final_json`).  Cards come from the game's own pack
(``game.program.pack``) and every text writes them with their suit symbols.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..cards import COLOURS, FRENCH
from ..engine.actions import CARD, CARDS, SUIT, WORD
from ..engine.dummy import hand_seat
from ..engine.play_sets import PlaySets
from ..engine.play_sets import listed as plays_listed
from ..errors import ActionError, IllegalActionError
from ..play.explain import SeatExplainer
from ..play.seatlog import (
    PlayerWords,
    _seat_narrator,
    action_words,
    exchange_verb,
    final_standing,
    score_name,
)
from ..play.suggest import suggestions
from ..view.text import PLAIN, Style, card, sort_hand, suit

if TYPE_CHECKING:
    from ..cards import Pack
    from ..engine.actions import Action
    from ..engine.game import Game
    from ..engine.state import State
    from ..play.explain import Explainer

#: Exchanges listed one button each up to this many; beyond it the page picks cards.
MAX_LISTED = 12


# -- cards as the page draws them ----------------------------------------------------------

def card_json(name: str, pack: Pack = FRENCH) -> dict[str, str]:
    """A card of ``pack`` (the game's, ``game.program.pack``) as the page draws it: its
    notation, rank, suit letter, symbol and colour.

    The page draws only what this says (no table of suits in JavaScript), so a
    declared pack's suits, symbols and colours reach it from here alone.  A card of
    no suit (a joker) or a name the pack does not know (a face-down card) is drawn
    as its name.

    >>> card_json("10H")
    {'name': '10H', 'rank': '10', 'suit': 'H', 'symbol': '♥', 'colour': 'red'}
    """
    c = pack.parse_card(name)
    s = pack.suit[c] if c is not None else -1
    if c is None or s < 0:
        return {"name": name, "rank": name, "suit": "", "symbol": "", "colour": "black"}
    return {"name": name, "rank": pack.ranks[pack.rank[c]], "suit": pack.letters[s],
            "symbol": pack.symbols[s], "colour": _colour(pack, s)}


def suit_json(letter: str | None, pack: Pack = FRENCH) -> dict[str, str] | None:
    """A suit (trump, led) of ``pack`` as the page draws it, or None.

    >>> suit_json("S")
    {'suit': 'S', 'symbol': '♠', 'colour': 'black'}
    """
    s = pack.suit_index.get(letter.upper()) if letter and len(letter) == 1 else None
    if s is None:
        return None
    return {"suit": pack.letters[s], "symbol": pack.symbols[s], "colour": _colour(pack, s)}


def _colour(pack: Pack, s: int) -> str:
    k = pack.colours[s] if 0 <= s < len(pack.colours) else 0
    return COLOURS[k] if 0 <= k < len(COLOURS) else "black"


_NOTATION = re.compile(r"(?<![0-9A-Za-z])(?:10|[0-9]|[A-Z])[A-Z](?![0-9A-Za-z])")
_SUIT_NAMED = re.compile(r"(?<=\()[A-Z](?=\))")  # a suit in parentheses: '(S)'


def with_symbols(text: str, style: Style = PLAIN) -> str:
    """``text`` with each card written in notation (``6C``, ``10H``) written with its suit
    symbol, as the table draws cards; other words unchanged.

    >>> with_symbols("6C may not be played: follow suit (QS was led)")
    '6♣ may not be played: follow suit (Q♠ was led)'
    >>> with_symbols("you must follow suit (S)")
    'you must follow suit (♠)'
    >>> with_symbols("AN IDEA")
    'AN IDEA'
    """
    pack = style.pack or FRENCH

    def one(m: re.Match[str]) -> str:
        return card(m.group(0), style) if pack.parse_card(m.group(0)) is not None \
            else m.group(0)

    def letter(m: re.Match[str]) -> str:
        return suit(m.group(0), style) if m.group(0) in pack.suit_index else m.group(0)

    return _SUIT_NAMED.sub(letter, _NOTATION.sub(one, text))


# -- the table's layout -----------------------------------------------------------------------

def around(players: int, seat: int) -> dict[str, list[int]]:
    """The seats placed around the table with ``seat`` at the bottom, the others as
    they sit, from its left (seat ``s + 1`` sits at seat ``s``'s left, whatever the
    play direction): up the left side, along the top, down the right side (each
    side listed as drawn: top to bottom, left to right).  Turning left, the next
    player is the first on the left side; turning right (``players.direction``), the
    last on the right side.

    >>> around(4, 2)
    {'bottom': [2], 'left': [3], 'top': [0], 'right': [1]}
    >>> around(2, 0)
    {'bottom': [0], 'left': [], 'top': [1], 'right': []}
    >>> around(6, 0)
    {'bottom': [0], 'left': [2, 1], 'top': [3], 'right': [4, 5]}
    """
    others = [(seat + i) % players for i in range(1, players)]
    k = len(others)
    side = 0 if k < 2 else max(1, round(k / 3))
    left, top, right = others[:side], others[side:k - side], others[k - side:]
    return {"bottom": [seat], "left": left[::-1], "top": top, "right": right}


def decisions(legal: Sequence[Action], pack: Pack, style: Style, state: State | None = None
              ) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
    """The buttons of the decisions other than a card, one per distinct choice, and the
    exchange whose cards the page picks (the engine checks them) when there are too
    many to list: its verb and how many cards it takes (``min``, ``max``).  The buttons
    say ``give`` only for cards given away at ``state``'s decision (an exchange, a pass:
    :func:`~spelbok.play.seatlog.exchange_verb`), as the terminal's menu."""
    if isinstance(legal, PlaySets):
        small = plays_listed(legal, MAX_LISTED)
        if small is None:  # plays of several cards, too many to list: the page picks cards
            return _plays(legal, pack, style, state)
        legal = small  # a few: listed as any plays
    lazy = type(legal) is not list  # the lazy list of every exchange of many cards
    if lazy:
        first = legal[0]
        lo, hi = getattr(legal, "lo", 0), getattr(legal, "hi", len(legal))
        listed = [first] if first.kind != CARDS else []
        exchange: dict[str, Any] | None = {"verb": first.verb, "min": lo, "max": hi}
    else:
        listed = [a for a in legal if a.kind != CARD]
        many = [a for a in listed if a.kind == CARDS]
        exchange = None
        if len(many) > MAX_LISTED:
            sizes = [len(a.cards) for a in many]
            bare = any(a.kind == WORD and a.verb == many[0].verb for a in listed)
            exchange = {"verb": many[0].verb, "min": 0 if bare else min(sizes),
                        "max": max(sizes)}
            listed = [a for a in listed if a.kind != CARDS]
    verb = exchange_verb(legal, state)
    out: list[dict[str, Any]] = []
    seen: set[str] = set()
    for a in listed:
        label = action_words(a, style, verb)
        if str(a) in seen or label in seen:
            continue  # one button per distinct choice
        seen |= {str(a), label}
        out.append(action_json(a, pack, label))
    return out, exchange


def _plays(legal: PlaySets, pack: Pack, style: Style, state: State | None
           ) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The buttons of a few sensible plays (:func:`~spelbok.play.suggest.suggestions`)
    and the cards to pick for any other play: ``play`` with how many cards a play
    takes (``min``, ``max``) and how many plays are legal (``count``); the engine
    judges the cards sent."""
    sizes = [(b.bit_count() + lo, b.bit_count() + hi) for b, _p, lo, hi in legal.templates]
    held = legal.hand.bit_count()
    picker = {"verb": "play", "min": max(1, min(lo for lo, _ in sizes)),
              "max": min(held, max(hi for _, hi in sizes)), "count": legal.total()}
    shown = suggestions(state, legal) if state is not None else []
    return [action_json(a, pack, action_words(a, style, None)) for a in shown], picker


def action_json(a: Action, pack: Pack = FRENCH, label: str | None = None) -> dict[str, Any]:
    """A decision button: the notation sent back, the words it shows (cards in their
    symbols, as the terminal's menu) and its cards or suit to draw.

    >>> from spelbok.engine.actions import parse_action
    >>> action_json(parse_action("give 9S"))["label"]
    'give 9♠'
    """
    words = str(a).split()
    if a.kind == CARDS:
        shown: list[Any] = [card_json(w, pack) for w in words[1:]]
    elif a.kind == SUIT:
        shown = [suit_json(words[1], pack)]
    else:  # a word or a number: the text says it
        shown = []
    return {"text": str(a), "verb": words[0], "cards": shown,
            "label": label if label is not None else action_words(a, PLAIN, None)}


# -- a seat's table --------------------------------------------------------------------------

def _sorted_hand(names: Sequence[str], game: Game, trump: str | None,
                 mode: str | None = None) -> list[list[str]]:
    try:
        return sort_hand(list(names), game, trump, mode)
    except Exception:  # an order the renderer does not know: the engine's order, one group
        return [list(names)]


def log_lines(state: State, seat: int | None, names: Sequence[str],
              why: SeatExplainer | None = None) -> list[str]:
    """The match's log as the person at ``seat`` reads it (the terminal's words: the
    spec's labels, never its working variables)."""
    style = PLAIN.for_game(state.game)
    words = PlayerWords(why, score_name(state.game)) if why is not None else None
    narrator = _seat_narrator(names, style, seat if seat is not None else 0, None, words)
    narrator.viewer = seat
    out: list[str] = []
    for event in state.log:
        out += narrator.feed(event)
    return out + narrator.flush()


def _last_trick_why(state: State, why: SeatExplainer | None) -> str | None:
    """Why the last complete trick was won, as the seat may read it (None: not known)."""
    if why is None:
        return None
    log = state.log
    for i in range(len(log) - 1, -1, -1):
        if log[i].get("event") == "trick":
            try:
                return why.explain(i, log[i])
            except Exception:  # an explanation never stops a match
                return None
        if log[i].get("event") == "hand":
            return None
    return None


def refusal(state: State, name: str, style: Style = PLAIN) -> str:
    """The engine's reason why card ``name`` may not be played now (its legality
    layers, as the terminal says it), cards written with their symbols."""
    try:
        state.parse_action(name)
    except IllegalActionError as exc:
        return with_symbols(exc.reason, style)
    except ActionError as exc:
        return with_symbols(str(exc), style)
    return "not now"  # legal as notation but not a card play (a card-naming decision)


def final_json(state: State, names: Sequence[str], human: int | None) -> dict[str, Any]:
    """The final table (:func:`~spelbok.play.seatlog.final_standing`): each seat's score,
    the winners, the rule that made them, the verdict for the person playing, and a
    note when the match was stopped at a limit on its hands."""
    end = final_standing(state)
    winners = end["winners"]
    rows = [{"seat": p, "name": names[p], "score": _plain(end["scores"][p]),
             "winner": p in winners} for p in end["order"]]
    if human is None:
        verdict = "Match over: " + (" and ".join(names[p] for p in winners) or "nobody") + \
            (" wins" if len(winners) == 1 else " win")
    elif human in winners:
        verdict = "You win!" if len(winners) == 1 else "You share the win!"
    else:
        who = " and ".join(names[p] for p in winners) or "nobody"
        verdict = f"You lose: {who} {'wins' if len(winners) == 1 else 'win'}."
    note = ("The match was stopped at its limit on the number of hands, before its own "
            "end: the scores so far decide." if end["stopped"] else "")
    return {"rows": rows, "why": end["why"], "verdict": verdict, "note": note}


def _seat_why(state: State, explainer: Explainer | None,
              log_viewer: int | None) -> SeatExplainer | None:
    if explainer is None:
        return None
    try:
        explainer.sync(state, state.log)
        return SeatExplainer(explainer, log_viewer, state.log)
    except Exception:  # an explanation never stops a match
        return None


def _hand(state: State, v: dict[str, Any], mine: bool, legal: Sequence[Action],
          style: Style) -> list[dict[str, Any]]:
    """The seat's cards in the table's order; when it is to play a card, each says
    whether it is legal now and, when not, why."""
    game = state.game
    many = isinstance(legal, PlaySets) and plays_listed(legal, MAX_LISTED) is None
    if isinstance(legal, PlaySets) and not many:
        legal = list(legal)
    shown = legal if type(legal) is list else []
    legal_cards = {str(a) for a in shown if a.kind == CARD}
    plays = mine and bool(legal_cards)  # a card play (not a word, nor cards to pick)
    sample: list[str] = []
    if mine and many:  # cards picked for a play: those some play holds may be picked
        assert isinstance(legal, PlaySets)
        legal_cards = set(game.program.pack.names_of(legal.first_picks()))
        plays = True
        one = suggestions(state, legal, 1)
        sample = str(one[0]).split()[1:] if one else []
    out = []
    for group in _sorted_hand(v["hand"], game, v.get("trump"), (v.get("vars") or {}).get("mode")):
        for name in group:
            c: dict[str, Any] = card_json(name, game.program.pack)
            if plays:
                c["legal"] = name in legal_cards
                if name not in legal_cards:
                    # a play with this card for one of a legal play's: the engine says why
                    tried = " ".join(["play"] + sample[1:] + [name]) if len(sample) > 1 else name
                    c["reason"] = refusal(state, tried, style)
            out.append(c)
    return out


def _shown(state: State, v: dict[str, Any], seat: int,
           legal: Sequence[Action]) -> list[list[dict[str, Any]]]:
    """The cards each other seat shows to all, in the table's order; at a dummy's turn
    (the seat plays another's hand) those of the hand played carry their legality."""
    game = state.game
    held = hand_seat(state) if isinstance(legal, PlaySets) or legal else None
    plays = {str(a) for a in legal if a.kind == CARD} if type(legal) is list else set()
    out = []
    for p, known in enumerate(v.get("known_cards") or []):
        cards = []
        if p != seat:
            for group in _sorted_hand(known, game, v.get("trump"),
                                      (v.get("vars") or {}).get("mode")):
                for name in group:
                    c: dict[str, Any] = card_json(name, game.program.pack)
                    if p == held:
                        c["legal"] = name in plays
                    cards.append(c)
        out.append(cards)
    return out


def table(state: State, seat: int, names: Sequence[str], *, to_act: bool,
          log_viewer: int | None, explainer: Explainer | None = None,
          human: int | None = None) -> dict[str, Any]:
    """What the page shows of ``state`` to ``seat``: its view and nothing more.

    ``to_act``: the seat may act (its cards carry legality and reasons);
    ``log_viewer``: whose eyes the log uses (None only for a replay's own file);
    ``explainer``: the match's, synced here, for the log's and the last trick's whys;
    ``human``: the person playing (the final table's verdict is theirs).
    """
    game = state.game
    pack = game.program.pack
    style = PLAIN.for_game(game)
    why = _seat_why(state, explainer, log_viewer)
    v = state.view(seat)
    trump = v.get("trump")
    mine = to_act and state.current_player == seat
    legal = state.legal_actions() if mine else []
    actions, exchange = decisions(legal, pack, style, state)
    played = v.get("tricks_played") or []
    last = None
    if played:
        lead, cards, winner = played[-1]
        last = {"leader": lead, "cards": [[p, card_json(c, pack)] for p, c in cards],
                "winner": winner, "why": _last_trick_why(state, why)}
    return {
        "game": game.name,
        "players": v["players"],
        "seat": seat,
        "names": list(names),
        "around": around(v["players"], seat),
        "hand_number": v["hand_number"],
        "dealer": v["dealer"],
        "trump": suit_json(trump, pack),
        "turn_up": [card_json(c, pack) for c in v.get("turn_up") or []],
        # cards an exchange gave away face up (its 'show'), lying aside
        "shown_aside": [card_json(c, pack) for c in v.get("shown") or []],
        "talon": v.get("talon", 0),
        "hand": _hand(state, v, mine, legal, style),
        "hand_sizes": v["hand_sizes"],
        # cards laid aside face down this hand: how many each seat has, and the viewer's own
        "aside_sizes": [m.bit_count() for m in state.discarded],
        "own_aside": [card_json(c, pack) for c in v.get("own_discards") or []],
        # the cards each other seat has shown to all and still holds (a dummy, melds);
        # at a dummy's turn, its cards say whether the seat to act may play them
        "shown": _shown(state, v, seat, legal if mine else []),
        "trick": [[p, card_json(c, pack)] for p, c in v.get("trick") or []],
        "led": suit_json(v.get("led"), pack),
        "last_trick": last,
        "tricks_played": len(played),
        "tricks": v.get("tricks") or [],
        "scores": _plain(v.get("scores")),
        "out": v.get("out") or [],
        "sitting_out": v.get("sitting_out") or [],  # this hand only (the spec's sit_out)
        "vars": _plain(v.get("vars")),
        "current_player": v["current_player"],
        "decision": v.get("decision"),
        "terminal": v["terminal"],
        "winners": v.get("winners") or [],
        "final": final_json(state, names, human) if v["terminal"] else None,
        "actions": actions,
        "exchange": exchange,
        "log": log_lines(state, log_viewer, names, why),
        "step": len(state.actions),
    }


def _plain(value: Any) -> Any:
    """JSON-safe copy (variables may hold tuples or other values)."""
    return json.loads(json.dumps(value, default=str))
