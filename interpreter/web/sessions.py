"""The matches and replays a web server runs, by id, and what a seat may see of them.

A :class:`Match` is a live match: one human seat (or none, to watch bots), bots
at the others.  A :class:`Replay` steps through a saved log (``play --log``)
forwards and back.  Both answer with :func:`table`, the JSON a browser gets: the
seat's :func:`~spelbok.engine.observe.view` (never another seat's hidden cards),
its cards with whether each is legal now (and the engine's reason when not), the
decisions it may take and the hand's log as that seat saw it, with the engine's
explanations (:mod:`spelbok.play.explain`) of what that seat may know: why each
complete trick was won, and what each score change means (:class:`SeatExplainer`).
Cards are drawn from the game's own pack (``game.program.pack``).

Every action goes through :meth:`spelbok.engine.state.State.apply`: a request
the rules refuse raises an :class:`~spelbok.errors.ActionError` and changes nothing.
"""

from __future__ import annotations

import json
import random
import secrets
import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..cards import COLOURS, FRENCH
from ..engine.actions import CARD, CARDS, SUIT
from ..engine.observe import observe
from ..errors import ActionError, IllegalActionError, SpelbokError
from ..play.explain import SeatExplainer
from ..play.matchlog import log_data, match_record
from ..view.narrator import Narrator
from ..view.text import PLAIN, card, player_names, sort_hand, suit

if TYPE_CHECKING:
    from ..cards import Pack
    from ..engine.actions import Action
    from ..engine.game import Game
    from ..engine.state import State
    from ..play.bots import Bot
    from ..play.explain import Explainer

#: Matches and replays kept at once; the least recently used goes first.
MAX_SESSIONS = 500
#: Exchanges listed one button each up to this many; beyond it the page picks cards.
MAX_LISTED = 12
#: The largest search a hint may ask for (ismcts iterations).
MAX_HINT_ITERATIONS = 2000


class NotFound(SpelbokError):
    """No match or replay has this id (expired, or never made)."""


class Conflict(SpelbokError):
    """The request does not fit the match's moment (not your turn, a stale page)."""


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


def _action_json(a: Action, pack: Pack = FRENCH) -> dict[str, Any]:
    """A decision button: the notation sent back, and its cards or suit to draw."""
    words = str(a).split()
    if a.kind == CARDS:
        shown: list[Any] = [card_json(w, pack) for w in words[1:]]
    elif a.kind == SUIT:
        shown = [suit_json(words[1], pack)]
    else:  # a word or a number: the text says it
        shown = []
    return {"text": str(a), "verb": words[0], "cards": shown}


# -- a seat's table --------------------------------------------------------------------------

def _sorted_hand(names: Sequence[str], game: Game, trump: str | None) -> list[list[str]]:
    try:
        return sort_hand(list(names), game, trump)
    except Exception:  # an order the renderer does not know: the engine's order, one group
        return [list(names)]


def _log_lines(state: State, seat: int | None, names: Sequence[str],
               why: SeatExplainer | None = None) -> list[str]:
    narrator = Narrator(names, style=PLAIN.for_game(state.game), viewer=seat, explainer=why)
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


def table(state: State, seat: int, names: Sequence[str], *, to_act: bool,
          log_viewer: int | None, explainer: Explainer | None = None) -> dict[str, Any]:
    """What the page shows of ``state`` to ``seat``: its view and nothing more.

    ``to_act``: the seat may act (its cards carry legality and reasons);
    ``log_viewer``: whose eyes the log uses (None only for a replay's own file);
    ``explainer``: the match's, synced here, for the log's and the last trick's whys.
    """
    game = state.game
    pack = game.program.pack
    why = None
    if explainer is not None:
        try:
            explainer.sync(state, state.log)
            why = SeatExplainer(explainer, log_viewer, state.log)
        except Exception:  # an explanation never stops a match
            why = None
    v = state.view(seat)
    trump = v.get("trump")
    mine = to_act and state.current_player == seat
    legal = state.legal_actions() if mine else []
    lazy = type(legal) is not list  # the lazy list of every exchange of many cards
    listed: list[Action] = [] if lazy else legal
    legal_cards = {str(a) for a in listed if a.kind == CARD}
    hand = []
    for group in _sorted_hand(v["hand"], game, trump):
        for name in group:
            c: dict[str, Any] = card_json(name, pack)
            if mine:
                c["legal"] = name in legal_cards
                if name not in legal_cards:
                    c["reason"] = _refusal(state, name)
            hand.append(c)
    others, exchange = _decisions(legal)
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
        "hand_number": v["hand_number"],
        "dealer": v["dealer"],
        "trump": suit_json(trump, pack),
        "turn_up": [card_json(c, pack) for c in v.get("turn_up") or []],
        "talon": v.get("talon", 0),
        "hand": hand,
        "hand_sizes": v["hand_sizes"],
        # the cards each other seat has shown to all and still holds (a dummy, melds)
        "shown": [[card_json(c, pack) for c in group] if p != seat else []
                  for p, known in enumerate(v.get("known_cards") or [])
                  for group in [[n for g in _sorted_hand(known, game, trump) for n in g]]],
        "trick": [[p, card_json(c, pack)] for p, c in v.get("trick") or []],
        "led": suit_json(v.get("led"), pack),
        "last_trick": last,
        "tricks_played": len(played),
        "tricks": v.get("tricks") or [],
        "scores": _plain(v.get("scores")),
        "out": v.get("out") or [],
        "vars": _plain(v.get("vars")),
        "current_player": v["current_player"],
        "decision": v.get("decision"),
        "terminal": v["terminal"],
        "winners": v.get("winners") or [],
        "actions": [_action_json(a, pack) for a in others],
        "exchange": exchange,
        "log": _log_lines(state, log_viewer, names, why),
        "step": len(state.actions),
    }


def _decisions(legal: Sequence[Action]) -> tuple[list[Action], dict[str, str] | None]:
    """The decisions other than a card, one button each, and the exchange whose cards the
    page picks (the engine checks them) when there are too many to list."""
    if type(legal) is not list:  # the lazy list of every exchange of many cards
        first = legal[0]
        return ([first] if first.kind != CARDS else []), {"verb": first.verb}  # keep: a word
    others = [a for a in legal if a.kind != CARD]
    if sum(1 for a in others if a.kind == CARDS) > MAX_LISTED:
        return ([a for a in others if a.kind != CARDS],
                {"verb": next(a.verb for a in others if a.kind == CARDS)})
    return others, None


def _explainer(game: Game) -> Explainer:
    """The explainer of a match of ``game``, naming cards and suits as its pack does."""
    from ..play.explain import Explainer

    style = PLAIN.for_game(game)
    return Explainer(game, card=lambda c: card(c, style), suit=lambda t: suit(t, style))


def _refusal(state: State, name: str) -> str:
    """The engine's reason why card ``name`` may not be played now."""
    try:
        state.parse_action(name)
    except IllegalActionError as exc:
        return exc.reason
    except ActionError as exc:
        return str(exc)
    return "not now"  # legal as notation but not a card play (a card-naming decision)


def _plain(value: Any) -> Any:
    """JSON-safe copy (variables may hold tuples or other values)."""
    return json.loads(json.dumps(value, default=str))


# -- live matches ----------------------------------------------------------------------------

class Match:
    """A live match: ``human`` plays one seat (None: bots play every seat)."""

    kind = "match"

    def __init__(self, game: Game, spec: str, seed: int, human: int | None,
                 bots: dict[int, Bot], options: dict[str, str],
                 max_hands: int | None = None) -> None:
        self.id = secrets.token_urlsafe(12)
        self.game = game
        self.spec = spec
        self.seed = seed
        self.human = human
        self.bots = bots
        self.options = options
        self.max_hands = max_hands
        self.lock = threading.Lock()
        self.state = game.new_state(seed=seed, record=True)
        self.names = player_names(game.players, human)
        self.watch_seat = 0  # whose view a watcher sees
        self.explainer = _explainer(game)

    def to_json(self) -> dict[str, Any]:
        seat = self.human if self.human is not None else self.watch_seat
        out = table(self.state, seat, self.names, to_act=self.human is not None,
                    log_viewer=seat, explainer=self.explainer)
        out.update({"id": self.id, "kind": self.kind, "spec": self.spec, "seed": self.seed,
                    "human": self.human,
                    "bots": {str(p): b.name for p, b in sorted(self.bots.items())},
                    "bot_turn": self.bot_to_move() is not None})
        return out

    def view_from(self, seat: object) -> None:
        """Whose view a watcher sees (bots at every seat: nobody's cards are the viewer's own)."""
        if self.human is not None:
            raise Conflict("you see your own seat: only a watcher chooses whose cards to see")
        if type(seat) is not int or not 0 <= seat < self.game.players:
            raise SpelbokError(f"there are {self.game.players} seats: 0 to {self.game.players - 1}")
        self.watch_seat = seat

    def bot_to_move(self) -> int | None:
        """The seat whose bot moves next, or None (the human's turn, or the end)."""
        p = self.state.current_player
        return p if p is not None and p != self.human else None

    def act(self, text: object, step: object = None) -> None:
        """The human's action (notation).  ``step``: the page's step count, refused when stale."""
        if self.human is None:
            raise Conflict("bots play every seat of this match: nobody acts here")
        if self.state.current_player != self.human:
            raise Conflict("it is not your turn" if not self.state.is_terminal
                           else "the match is over")
        self._check_step(step)
        if not isinstance(text, str):
            raise ActionError("send an action as text in notation, e.g. JC or pass")
        if any(ch.isnumeric() and not ch.isascii() for ch in text):  # '²' is no number to int
            raise ActionError(f"{text[:40]!r} is not a legal move here: write numbers in the "
                              "digits 0-9")
        self.state.apply(text)  # the engine checks it; a refusal changes nothing

    def advance(self, step: object = None) -> None:
        """One bot's move (the page calls this at its chosen pace)."""
        p = self.bot_to_move()
        if p is None:
            raise Conflict("no bot is to move" if not self.state.is_terminal
                           else "the match is over")
        self._check_step(step)
        self.state.apply(self.bots[p].choose(observe(self.state, p)))

    def hint(self, bot: str) -> str:
        """What a bot would play in the human's place (its notation)."""
        from ..play.bots import make_bot

        if self.human is None or self.state.current_player != self.human:
            raise Conflict("a hint is for your turn")
        name, _, budget = bot.partition(":")
        if name not in ("greedy", "ismcts"):
            raise SpelbokError("a hint asks the greedy or the ismcts bot")
        if budget and (not (budget.isascii() and budget.isdigit())
                       or not 1 <= int(budget) <= MAX_HINT_ITERATIONS):
            raise SpelbokError(f"a hint searches 1 to {MAX_HINT_ITERATIONS} iterations")
        adviser = make_bot(bot, seed=self.seed + len(self.state.actions))
        return str(adviser.choose(observe(self.state, self.human)))

    def log_record(self) -> dict[str, Any]:
        """The match as ``play --log`` writes it (only once it is over: the log shows every hand)."""
        if not self.state.is_terminal:
            raise Conflict("the log shows every seat's cards: it is given once the match is over")
        record = match_record(self.spec, self.game.players, self.options, self.seed,
                              self.max_hands, {p: b.name for p, b in self.bots.items()},
                              self.human)
        data = log_data(record, self.state)
        data["events"], data["scores"] = _plain(data["events"]), _plain(data["scores"])
        return data

    def _check_step(self, step: object) -> None:
        if step is None:
            return
        if type(step) is not int or step != len(self.state.actions):
            raise Conflict("the page is behind the match: reload it")


# -- replays ---------------------------------------------------------------------------------

class Replay:
    """A saved log, stepped through: ``pos`` actions of it applied."""

    kind = "replay"

    def __init__(self, game: Game, data: dict[str, Any]) -> None:
        self.id = secrets.token_urlsafe(12)
        self.game = game
        self.seed = int(data["seed"])
        self.actions = [str(a) for a in data["actions"]]
        human = data.get("human")
        self.seat = human if isinstance(human, int) and 0 <= human < game.players else 0
        self.names = player_names(game.players)
        self.lock = threading.Lock()
        self.spec = str(data.get("spec", ""))
        self.pos = 0
        self.state = game.new_state(seed=self.seed, record=True)
        self.explainer = _explainer(game)

    def goto(self, pos: object) -> None:
        """Move to ``pos`` actions in (re-played from the start when going back)."""
        if type(pos) is not int or not 0 <= pos <= len(self.actions):
            raise SpelbokError(f"a replay position is 0 to {len(self.actions)}")
        if pos < self.pos:
            self.state = self.game.new_state(seed=self.seed, record=True)
            self.pos = 0
        while self.pos < pos:
            self.state.apply(self.actions[self.pos])
            self.pos += 1

    def view_from(self, seat: object) -> None:
        if type(seat) is not int or not 0 <= seat < self.game.players:
            raise SpelbokError(f"there are {self.game.players} seats: 0 to {self.game.players - 1}")
        self.seat = seat

    def to_json(self) -> dict[str, Any]:
        out = table(self.state, self.seat, self.names, to_act=False, log_viewer=self.seat,
                    explainer=self.explainer)
        out.update({"id": self.id, "kind": self.kind, "spec": self.spec, "seed": self.seed,
                    "pos": self.pos, "total": len(self.actions),
                    "next": self.actions[self.pos] if self.pos < len(self.actions) else None})
        return out


# -- the store -------------------------------------------------------------------------------

class Sessions:
    """Matches and replays by id (thread-safe; the oldest go past :data:`MAX_SESSIONS`)."""

    def __init__(self, limit: int = MAX_SESSIONS) -> None:
        self.limit = limit
        self._items: OrderedDict[str, Match | Replay] = OrderedDict()
        self._lock = threading.Lock()

    def add(self, item: Match | Replay) -> Match | Replay:
        with self._lock:
            self._items[item.id] = item
            while len(self._items) > self.limit:
                self._items.popitem(last=False)
        return item

    def get(self, key: str) -> Match | Replay:
        with self._lock:
            item = self._items.get(key)
            if item is None:
                raise NotFound(f"no match or replay {key[:40]!r} (it may have expired: start "
                               "a new one)")
            self._items.move_to_end(key)
            return item

    def __len__(self) -> int:
        return len(self._items)


def new_seed() -> int:
    """A fresh match seed (shown on the page, so a match can be played again)."""
    return random.SystemRandom().randrange(1_000_000)
