"""The matches and replays a web server runs, by id, and what a seat may see of them.

A :class:`Match` is a live match: one human seat (or none, to watch bots), bots
at the others.  A :class:`Replay` steps through a saved log (``play --log``)
forwards and back.  Both answer with :func:`~spelbok.web.tableview.table`, the JSON
a browser gets: what that seat may see, and nothing more (:mod:`spelbok.web.tableview`).
A match's person may take back their last decision (:meth:`Match.undo`) and ask a bot
for a hint, said as a sentence (:meth:`Match.hint`).

Every action goes through :meth:`spelbok.engine.state.State.apply`: a request
the rules refuse raises an :class:`~spelbok.errors.ActionError` and changes nothing.
"""

from __future__ import annotations

import random
import secrets
import threading
from collections import OrderedDict
from typing import TYPE_CHECKING, Any

from ..engine.actions import is_pass
from ..engine.forced import lone_pass
from ..engine.observe import observe
from ..engine.play_sets import PlaySets, as_played
from ..errors import ActionError, SpelbokError
from ..play.explain import SeatExplainer as SeatExplainer
from ..play.matchlog import log_data, match_record
from ..view.text import PLAIN, card, player_names, suit
from .tableview import _plain, exchange_verb, table
from .tableview import card_json as card_json

if TYPE_CHECKING:
    from ..engine.game import Game
    from ..play.bots import Bot
    from ..play.explain import Explainer

#: Matches and replays kept at once; the least recently used goes first.
MAX_SESSIONS = 500
#: The largest search a hint may ask for (ismcts iterations).
MAX_HINT_ITERATIONS = 2000


class NotFound(SpelbokError):
    """No match or replay has this id (expired, or never made)."""


class Conflict(SpelbokError):
    """The request does not fit the match's moment (not your turn, a stale page)."""


def _explainer(game: Game) -> Explainer:
    """The explainer of a match of ``game``, naming cards and suits as its pack does."""
    from ..play.explain import Explainer

    style = PLAIN.for_game(game)
    return Explainer(game, card=lambda c: card(c, style), suit=lambda t: suit(t, style))


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
        self.asked: list[int] = []  # the action counts at which the human decided
        self.explainer = _explainer(game)
        self.play_lone_passes()

    def to_json(self) -> dict[str, Any]:
        seat = self.human if self.human is not None else self.watch_seat
        out = table(self.state, seat, self.names, to_act=self.human is not None,
                    log_viewer=seat, explainer=self.explainer, human=self.human)
        out.update({"id": self.id, "kind": self.kind, "spec": self.spec, "seed": self.seed,
                    "human": self.human,
                    "bots": {str(p): b.name for p, b in sorted(self.bots.items())},
                    "bot_turn": self.bot_to_move() is not None,
                    "can_undo": self.human is not None and self._last_asked() is not None})
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
        before = len(self.state.actions)
        legal = self.state.legal_actions()
        if isinstance(legal, PlaySets):  # cards picked: the play as the engine writes it
            self.state.apply(as_played(legal, self.state.parse_action(text)))
        else:
            self.state.apply(text)  # the engine checks it; a refusal changes nothing
        self.asked.append(before)
        self.play_lone_passes()

    def advance(self, step: object = None) -> None:
        """One bot's move (the page calls this at its chosen pace), and after a pass that
        leaves no trace (a card dealt not shown) the bots' moves on to the next that
        does: a pause on such a pass alone would tell which bot had a choice to make."""
        p = self.bot_to_move()
        if p is None:
            raise Conflict("no bot is to move" if not self.state.is_terminal
                           else "the match is over")
        self._check_step(step)
        st = self.state
        while p is not None:
            seen = len(st.rec or ())
            action = self.bots[p].choose(observe(st, p))
            st.apply(action)
            self.play_lone_passes()
            if not is_pass(action) or len(st.rec or ()) != seen:
                break
            p = self.bot_to_move()

    def play_lone_passes(self) -> None:
        """Play the person's ``pass`` when it is his only legal action: nothing to decide
        (a card dealt that he may not show).  The bots answer their own (``advance``)."""
        st = self.state
        while (self.human is not None and st.current_player == self.human
               and lone_pass(legal := st.legal_actions())):
            st.apply(legal[0])

    def hint(self, bot: str) -> dict[str, str]:
        """What a bot would do in the human's place: its notation, and as a sentence
        with the cards in their symbols (``The greedy bot would play 9♣.``)."""
        from ..play.bots import make_bot
        from ..play.seatlog import deed, receiver

        if self.human is None or self.state.current_player != self.human:
            raise Conflict("a hint is for your turn")
        name, _, budget = bot.partition(":")
        if name not in ("greedy", "ismcts"):
            raise SpelbokError("a hint asks the greedy or the ismcts bot")
        if budget and (not (budget.isascii() and budget.isdigit())
                       or not 1 <= int(budget) <= MAX_HINT_ITERATIONS):
            raise SpelbokError(f"a hint searches 1 to {MAX_HINT_ITERATIONS} iterations")
        adviser = make_bot(bot, seed=self.seed + len(self.state.actions))
        action = adviser.choose(observe(self.state, self.human))
        verb = exchange_verb(self.state.legal_actions(), self.state)
        to = receiver(self.state, self.names) if verb else ""
        style = PLAIN.for_game(self.game)
        return {"action": str(action), "bot": bot,
                "sentence": f"The {name} bot would {deed(action, style, verb, to)}."}

    def _last_asked(self) -> int | None:
        """How many actions preceded the human's last decision (None: none yet)."""
        return self.asked[-1] if self.asked else None

    def undo(self, step: object = None) -> None:
        """Take back the human's last decision and the bots' moves after it."""
        if self.human is None:
            raise Conflict("bots play every seat of this match: nobody takes back")
        self._check_step(step)
        at = self._last_asked()
        if at is None:
            raise Conflict("nothing to take back: you have made no decision yet")
        self.state.undo(len(self.state.actions) - at)
        self.asked.pop()
        self.explainer = _explainer(self.game)  # its notes were of the longer match

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
                    explainer=self.explainer, human=None)
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
