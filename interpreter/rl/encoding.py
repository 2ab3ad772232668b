"""The fixed action space and the observation tensor of a spec, for game-AI interfaces.

Both :mod:`spelbok.rl.pettingzoo` and :mod:`spelbok.rl.openspiel` see a match through
this module, so they number actions and lay out observations the same way.

**Actions** are numbered once per game (spec, player count, options), read from the
decisions of its compiled program, in the order of :data:`RANGES`:

1. ``play``: ``C`` for every card of the deck (a card played to a trick), deck order;
   copies of a card in a pack with copies are actions of their own (``7O``, ``7O#2``);
2. ``pick``: ``pick C`` for every card of the deck, then ``stop``: an exchange or a pass
   of cards is a sequence of single-card picks ended by ``stop`` (the engine then
   gives them all at once; ``stop`` with nothing picked keeps every card).  Only when
   the spec has an exchange or a ``pass_cards`` step, or plays of several cards at once
   (``tricks.combos``: there every play, a single card too, is its cards picked one by
   one, then ``stop``);
3. ``word``: every decision word (``play``, ``pass``, ``order``...), a trick's abstain
   word (``knock``), its announcements (``tricks.announce``: ``double``, ``call``) and the
   auction's calls (``pass``, named contracts, ``double``,
   ``redouble``, and ``hold`` where a holder may keep a bid), each once;
4. ``suit``: ``<decision> <suit>`` for every suit a ``choose: suit`` decision (or the
   auction's ``trump``) offers;
5. ``number``: ``<decision> <k>`` for every number of a ``choose: number`` decision's
   range (from its ``min`` to its ``max`` when they are fixed, else up to the deck's
   size), and the auction's numbered bids (``bid 7``);
6. ``card``: ``<word> C`` for every card of the deck and every word that plays or
   names one card: a declaration (``tricks.declare``), a face-down play
   (``tricks.face_down``), the auction's called card (``call C``, of the called ranks).

**Observations** are a flat float32 vector of named fields (:attr:`Encoding.fields`,
documented in ``docs/rl.md``), seats counted from the observer (0 is the observer,
1 the next seat clockwise...).  They hold what :meth:`spelbok.State.view` shows that
seat and nothing else (a card another seat played face down is not in it):
:func:`spelbok.engine.observe.determinize` leaves them as they are.

>>> import spelbok
>>> enc = Encoding(spelbok.load("example", players=3))
>>> enc.num_actions, enc.labels[0], enc.labels[enc.stop], enc.labels[-1]
(67, '7C', 'stop', 'pass')
>>> m = Match(enc, enc.game.new_state(seed=1))
>>> [enc.labels[i] for i in m.legal()][-3:]
['pick 9H', 'pick KH', 'stop']
>>> m.observation(0).shape == (enc.size,)
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..cards import FRENCH, Pack
from ..engine.actions import CARDS, NUMBER, WORD, Action, card_actions
from ..engine.any_turn import AnyTurnPlay
from ..engine.auction import (
    DOUBLE,
    HOLD,
    PASS,
    REDOUBLE,
    AuctionBid,
    AuctionCall,
    AuctionStart,
    AuctionTrump,
)
from ..engine.combos import ComboPlay
from ..engine.deal_shows import DealShows
from ..engine.decide import Decide
from ..engine.exchange import Exchange
from ..engine.game import Game
from ..engine.passing import PassCards
from ..engine.state import State
from ..engine.steps import UNSET, Instr, fixed
from ..engine.tricks import CardPlay, TrickPlay
from ..errors import SpelbokError
from .compiled.tensor import Cursor, Layout

#: the arrays' types, made once (np.frombuffer given a dtype object is quicker than a name)
F32 = np.dtype(np.float32)
I8 = np.dtype(np.int8)
#: the environments' reward modes (docs/rl.md, "Rewards and returns")
REWARDS = ("win", "score")

#: the ranges of the action space, in numbering order (each described in docs/rl.md)
RANGES = ("play", "pick", "word", "suit", "number", "card")

#: the decision instructions the action space numbers (their ``legal`` is overridden);
#: any other is reported by :func:`uncovered`
COVERED: tuple[type, ...] = (TrickPlay, Decide, Exchange, PassCards, AuctionBid,
                             AuctionTrump, AuctionCall, DealShows)


def _is_decision(ins: Instr) -> bool:
    """Whether an instruction offers actions (overrides :meth:`Instr.legal`)."""
    return type(ins).legal is not Instr.legal


def uncovered(game: Game) -> str | None:
    """What a game offers that the fixed action space cannot number, or None.

    >>> import spelbok
    >>> uncovered(spelbok.load("example")) is None
    True
    """
    for ins in game.program.code:
        if _is_decision(ins) and not isinstance(ins, COVERED):
            return f"the '{getattr(ins, 'name', type(ins).__name__)}' decision"
    return None


def _card_labels(pack: Pack, deck: list[int]) -> list[str]:
    """The deck's card names; the k-th copy of a card (k > 1) is ``NAME#k``."""
    seen: dict[str, int] = {}
    out = []
    for c in deck:
        name = pack.names[c]
        k = seen[name] = seen.get(name, 0) + 1
        out.append(name if k == 1 else f"{name}#{k}")
    return out


@dataclass
class _Offers:
    """What a game's decisions offer, range by range (:data:`RANGES`), while
    :class:`Encoding` reads them."""

    picks: list[str] = field(default_factory=list)  # decisions answered by picking cards
    words: list[Action] = field(default_factory=list)
    suits: list[Action] = field(default_factory=list)
    numbers: list[Action] = field(default_factory=list)
    card_words: list[tuple[str, list[int], Pack | None]] = field(
        default_factory=list)  # word, cards, the pack the action names
    decisions: list[str] = field(default_factory=lambda: ["play"])


class Encoding:
    """The action numbering and the observation layout of one game."""

    def __init__(self, game: Game) -> None:
        what = uncovered(game)
        if what is not None:
            raise SpelbokError(f"{game.name} uses {what}, which the game-AI action space does "
                               "not number yet (docs/rl.md)")
        self.game = game
        n = self.players = game.players
        prog = game.program
        pack = self.pack = prog.pack
        self.named = None if pack.french else pack  # how the engine's actions name the pack
        # the deck as the spec deals it at this player count (not necessarily 52 cards)
        self.cards: list[int] = list(prog.deck)
        self.num_cards = len(self.cards)
        self.card_index = {c: i for i, c in enumerate(self.cards)}
        offers = self._offers(prog)
        self.exchanges = set(offers.picks)  # (the name kept: decisions answered by picks)
        self.pick_pcs = {pc for pc, ins in enumerate(prog.code)
                         if isinstance(ins, (Exchange, PassCards, ComboPlay))}
        self._number(offers)
        self.decisions = offers.decisions
        self.decision_index = {d: i for i, d in enumerate(self.decisions)}
        # the pending decision by the program counter (what State.decision_name reads)
        self.pc_decision = {pc: self.decision_index.get(getattr(ins, "name", "play"), 0)
                            for pc, ins in enumerate(prog.code)}
        # words a variable may hold, coded as numbers in the observation (the mode in force
        # among them: the spec's modes, last)
        self.word_code = {w: float(i + 1) for i, w in enumerate(dict.fromkeys(
            [*(a[1] for a in offers.words), *pack.letters, *prog.modes[1:]]))}
        self.passes = any(isinstance(ins, PassCards) for ins in prog.code)
        self._lay_out(bool(offers.picks))
        # the same tables as plain typed values, for the compiled writer of observations,
        # legal numbers and masks (rl/compiled/tensor.py)
        self.layout = Layout(
            game.name, n, self.num_actions, self.cards, self.card_index, self.index,
            self.pick_pcs, self.pick_base, self.stop,
            (bool(self.exchanges), self.passes, self.auction, self.face_down),
            len(self.planes), self.hot, self.contracts, len(self.decisions), self.pc_decision,
            self.word_code, self.actions, self.labels, self.named, self.play_words)
        # the hidden variables' rows: a value the observer may not see reads 0, and a
        # flag per seat says which it sees (engine/hidden.py)
        self.layout.secret_rows = [s.row for s in prog.secrets]
        self.layout.combo_pcs = {pc for pc, ins in enumerate(prog.code)
                                 if isinstance(ins, ComboPlay)}

    def _offers(self, prog: Any) -> _Offers:
        """What each decision of the program offers, range by range (:data:`RANGES`); sets
        ``play_words``, ``auction`` and ``face_down``."""
        o = _Offers()
        self.play_words: set[str] = set()  # CARDS verbs that play their card to the trick
        self.auction = False
        self.face_down = False
        for ins in prog.code:
            if not _is_decision(ins) and not isinstance(ins, AuctionStart):
                continue
            if isinstance(ins, TrickPlay):
                self._trick_offers(ins, o)
                continue
            name = getattr(ins, "name", "")
            if name and name not in o.decisions:
                o.decisions.append(name)
            if isinstance(ins, Decide):
                self._decide_offers(ins, name, o)
            elif isinstance(ins, DealShows):  # cards shown as dealt: a word and a card, or pass
                o.words.append(ins.pass_action)
                o.card_words += [(s.word, self.cards, self.named) for s in ins.shows]
            elif isinstance(ins, (Exchange, PassCards)):
                o.picks.append(name)
            elif isinstance(ins, AuctionStart):  # every call the auction may offer
                self.auction = True
                o.words.append(PASS)
                for b in ins.rules.bids:
                    (o.numbers if b[0] == NUMBER else o.words).append(b)
                if ins.rules.hold:
                    o.words.append(HOLD)
                if fixed(ins.double) is not False:
                    o.words.append(DOUBLE)
                if fixed(ins.redouble) is not False:
                    o.words.append(REDOUBLE)
            elif isinstance(ins, AuctionTrump):
                o.suits += ins.actions
            elif isinstance(ins, AuctionCall) and ins.rules.mode == 1:
                ranks = ins.rules.called_ranks
                o.card_words.append(
                    ("call", [c for c in self.cards if self.pack.rank[c] in ranks], self.named))
        return o

    def _trick_offers(self, ins: TrickPlay, o: _Offers) -> None:
        """A trick's play: its abstain word, its face-down play, declarations and
        announcements."""
        if ins.abstain is not None:
            o.words.append(ins.knock)
        if isinstance(ins, ComboPlay):  # several cards at once: picks ended by the stop
            o.picks.append("play")
        if isinstance(ins, CardPlay):
            if ins.down is not None:
                o.card_words.append((ins.down_word, self.cards, self.named))
                self.play_words.add(ins.down_word)
                self.face_down = True
            for d in ins.decls:
                o.card_words.append((d.word, self.cards, self.named))
                self.play_words.add(d.word)
            o.words += [call.action for call in ins.calls]  # announcements beside the cards
            if isinstance(ins, AnyTurnPlay):  # a seat asked out of turn may pass
                o.words.append(ins.passing)

    def _decide_offers(self, ins: Decide, name: str, o: _Offers) -> None:
        """A decision's words, suits or numbers (a range up to the deck's size when its
        bounds are not fixed)."""
        if ins.kind == "words":
            o.words += ins.word_actions
        elif ins.kind == "suit":
            o.suits += ins.suit_actions
        elif ins.kind == "number":
            lo = fixed(ins.min_fn) if ins.min_fn is not None else 0
            hi = fixed(ins.max_fn) if ins.max_fn is not None else lo
            lo = 0 if lo is UNSET else max(0, int(lo))
            hi = self.num_cards if hi is UNSET else int(hi)
            o.numbers += [Action(NUMBER, name, k) for k in range(lo, hi + 1)]

    def _number(self, o: _Offers) -> None:
        """Number the actions, range by range: ``labels``, ``actions``, ``index``,
        ``pick_base``, ``stop`` and ``num_actions``."""
        pack = self.pack
        card_names = _card_labels(pack, self.cards)
        self.labels: list[str] = []
        self.actions: list[Action | None] = []  # None: a pick or stop (see Match.apply)
        self.index: dict[Action, int] = {}

        def add(a: Action | None, label: str) -> None:
            if a is not None:
                if a in self.index:
                    return
                i = len(self.actions)
                self.index[a] = i
                if a[0] != WORD and a[0] != NUMBER:  # the engine may name the pack or not
                    for p in (None, pack, FRENCH):
                        self.index.setdefault(Action(a[0], a[1], a[2], p), i)
            self.actions.append(a)
            self.labels.append(label)

        plays = card_actions(pack)  # the engine's own objects (found by identity)
        for c, label in zip(self.cards, card_names, strict=True):
            add(plays[c], label)
        self.pick_base = self.stop = -1
        if o.picks:
            self.pick_base = len(self.actions)
            for label in card_names:
                add(None, f"pick {label}")
            self.stop = len(self.actions)
            add(None, "stop")
        for a in [*o.words, *o.suits, *o.numbers]:
            add(a, str(a))
        for word, cards, p in o.card_words:
            for c in cards:
                add(Action(CARDS, word, 1 << c, p), f"{word} {card_names[self.card_index[c]]}")
        self.num_actions = len(self.actions)

    def _lay_out(self, picks: bool) -> None:
        """The observation's card planes and fields (``planes``, ``fields``, ``size``,
        ``card_size``) and its one-hot rows (``hot``)."""
        n = self.players
        C = self.num_cards
        prog = self.game.program
        planes = ["hand"] + (["picked"] if picks else [])
        planes += ["own_discards"] + (["own_passed"] if self.passes else [])
        planes += ["turn_up", "played"]
        planes += [f"trick_{k}" for k in range(n)] + [f"known_{k}" for k in range(1, n)]
        planes += ["called"] if self.auction else []
        self.planes = planes
        self.pvars = list(prog.pvar_names)
        self.gvars = list(prog.gvar_names)
        self.contracts = len(prog.contracts)
        self.fields: list[tuple[str, int]] = [(p, C) for p in planes]
        self.fields += [("trump", 5), ("led", 5), ("hand_sizes", n), ("tricks", n), ("out", n),
                        ("dealer", n), ("to_act", n)]
        if self.face_down:
            self.fields.append(("trick_down", n))
        if self.auction:
            self.fields += [("contract", self.contracts + 1), ("declarer", n), ("doubled", 1),
                            ("bids", n), ("passed", n)]
        self.fields += [(f"var:{v}", n) for v in self.pvars]
        # which seats' hidden values the observer sees (1) or not (0): engine/hidden.py
        self.fields += [(f"seen:{self.pvars[s.row]}", n) for s in prog.secrets]
        self.fields += [(f"var:{v}", 1) for v in self.gvars]
        self.fields += [("talon", 1), ("widow", 1), ("hand_number", 1),
                        ("decision", len(self.decisions))]
        self.size = sum(k for _, k in self.fields)
        self.card_size = len(planes) * C
        # one-hot rows: hot[k][i] has k values, 1 at i (hot[k][k]: all 0)
        self.hot = {k: [[float(j == i) for j in range(k)] for i in range(k + 1)]
                    for k in {5, n, len(self.decisions), self.contracts + 1}}

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle as the game (its tables are built again on loading)."""
        return (Encoding, (self.game,))

    def offsets(self) -> dict[str, tuple[int, int]]:
        """Each field's ``(start, stop)`` in the observation vector."""
        out = {}
        at = 0
        for name, k in self.fields:
            out[name] = (at, at + k)
            at += k
        return out

    def mask(self, legal: list[int]) -> np.ndarray:
        """The action numbers ``legal`` as a 0/1 int8 vector of the action space's size
        (read-only, as every array of the interfaces: copy it to change it)."""
        return np.frombuffer(self.layout.mask(legal), I8)

    def _value(self, v: Any) -> float:
        return self.layout.value(v)


class Match(Cursor):
    """An engine state driven through the fixed action space: it keeps the cards picked
    so far in an exchange (``pending``) and the cards played this hand (``played``).
    Legal numbers, actions and rewards are :class:`~spelbok.rl.compiled.tensor.Cursor`'s
    (compiled); this adds the numpy arrays and the text views."""

    __slots__ = ("enc",)

    def __init__(self, enc: Encoding, st: State) -> None:
        super().__init__(enc.layout, st)
        self.enc = enc

    def clone(self, st: State | None = None) -> Match:
        """A copy (of the engine state too, unless ``st`` is given to use instead)."""
        m = Match(self.enc, self.st.clone() if st is None else st)
        m.pending = self.pending
        if st is None:  # (another state, a re-deal, has its own cards played)
            m.played = self.played
        m.hand = self.hand
        m.scores_at = self.scores_at
        return m

    def __deepcopy__(self, memo: dict[int, Any]) -> Match:
        return self.clone()

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle as the encoding, the engine state and what the match keeps beside it."""
        return (_match, (self.enc, self.st, self.pending, self.played, self.hand,
                         self.scores_at))

    def mask(self) -> np.ndarray:
        """The legal actions as a 0/1 int8 vector of the action space's size."""
        return self.enc.mask(self.legal())

    # -- observation -----------------------------------------------------------------------

    def observation(self, seat: int, out: np.ndarray | None = None) -> np.ndarray:
        """The observation vector of ``seat`` (written into ``out`` when given)."""
        obs = np.frombuffer(self.layout.observation(self.st, seat, self.pending, self.played),
                            F32)
        if out is not None:
            out[:] = obs
            return out
        return obs

    def information_state(self, seat: int) -> str:
        """What ``seat`` knows, as text: its view, and the cards it has picked so far."""
        text = self.st.information_state(seat)
        if self.pending and self.st.current == seat:
            text += " pending " + " ".join(self.enc.labels[self.enc.card_index[c]]
                                           for c in self.enc.cards if self.pending >> c & 1)
        return text

    def render(self, seat: int | None = None) -> str:
        """The table as ``spelbok play`` shows it to ``seat`` (default: the player to act),
        with the menu of legal actions by number."""
        from ..view.panel import panel
        from ..view.text import player_names

        st = self.st
        if seat is None:
            seat = st.current if st.current is not None else 0
        names = player_names(st.n)
        lines = panel(st, seat, names)
        if st.is_terminal:
            lines.append(f"  over: winners {' '.join(names[p] for p in st.winner_seats)}")
        elif st.current == seat:
            menu = "  ".join(f"{i} {self.enc.labels[i]}" for i in self.legal())
            lines.append(f"  {st.decision_name}: {menu}")
        return "\n".join(lines)


def _match(enc: Encoding, st: State, pending: int, played: int, hand: int,
           scores_at: list[int]) -> Match:
    m = Match(enc, st)
    m.pending, m.played, m.hand, m.scores_at = pending, played, hand, scores_at
    return m


__all__ = ["Encoding", "Match"]
