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
   the spec has an exchange or a ``pass_cards`` step;
3. ``word``: every decision word (``play``, ``pass``, ``order``...), a trick's abstain
   word (``knock``) and the auction's calls (``pass``, named contracts, ``double``,
   ``redouble``), each once;
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

import struct
from typing import Any

import numpy as np

from ..cards import FRENCH, Pack
from ..engine.actions import CARD, CARDS, NUMBER, WORD, Action, card_actions
from ..engine.auction import (
    DOUBLE,
    PASS,
    REDOUBLE,
    AuctionBid,
    AuctionCall,
    AuctionStart,
    AuctionTrump,
)
from ..engine.exchange import Exchange
from ..engine.game import Game
from ..engine.passing import PassCards
from ..engine.state import State
from ..engine.steps import UNSET, Decide, Instr, fixed
from ..engine.tensor import Layout, played_cards
from ..engine.trick import CardPlay, TrickPlay
from ..errors import IllegalActionError, SpelbokError

#: the arrays' types, made once (np.frombuffer given a dtype object is quicker than a name)
F32 = np.dtype(np.float32)
I8 = np.dtype(np.int8)

#: the ranges of the action space, in numbering order (each described in docs/rl.md)
RANGES = ("play", "pick", "word", "suit", "number", "card")

#: the decision instructions the action space numbers (their ``legal`` is overridden);
#: any other is reported by :func:`uncovered`
COVERED: tuple[type, ...] = (TrickPlay, Decide, Exchange, PassCards, AuctionBid,
                             AuctionTrump, AuctionCall)


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
        named = None if pack.french else pack  # how the engine's actions name the pack
        # the deck as the spec deals it at this player count (not necessarily 52 cards)
        self.cards: list[int] = list(prog.deck)
        C = self.num_cards = len(self.cards)
        self.card_index = {c: i for i, c in enumerate(self.cards)}
        card_names = _card_labels(pack, self.cards)

        # what each decision of the program offers, range by range (RANGES)
        picks: list[str] = []  # the decisions answered by picking cards one by one
        words: list[Action] = []
        suits: list[Action] = []
        numbers: list[Action] = []
        card_words: list[tuple[str, list[int], Pack | None]] = []  # word, cards, pack named
        decisions = ["play"]
        self.play_words: set[str] = set()  # CARDS verbs that play their card to the trick
        self.auction = False
        self.face_down = False
        for ins in prog.code:
            if not _is_decision(ins) and not isinstance(ins, AuctionStart):
                continue
            if isinstance(ins, TrickPlay):
                if ins.abstain is not None:
                    words.append(ins.knock)
                if isinstance(ins, CardPlay):
                    if ins.down is not None:
                        card_words.append((ins.down_word, self.cards, None))
                        self.play_words.add(ins.down_word)
                        self.face_down = True
                    for d in ins.decls:
                        card_words.append((d.word, self.cards, None))
                        self.play_words.add(d.word)
                continue
            name = getattr(ins, "name", "")
            if name and name not in decisions:
                decisions.append(name)
            if isinstance(ins, Decide):
                if ins.kind == "words":
                    words += ins.word_actions
                elif ins.kind == "suit":
                    suits += ins.suit_actions
                elif ins.kind == "number":
                    lo = fixed(ins.min_fn) if ins.min_fn is not None else 0
                    hi = fixed(ins.max_fn) if ins.max_fn is not None else lo
                    lo = 0 if lo is UNSET else max(0, int(lo))
                    hi = C if hi is UNSET else int(hi)
                    numbers += [Action(NUMBER, name, k) for k in range(lo, hi + 1)]
            elif isinstance(ins, (Exchange, PassCards)):
                picks.append(name)
            elif isinstance(ins, AuctionStart):  # every call the auction may offer
                self.auction = True
                words.append(PASS)
                for b in ins.rules.bids:
                    (numbers if b[0] == NUMBER else words).append(b)
                if fixed(ins.double) is not False:
                    words.append(DOUBLE)
                if fixed(ins.redouble) is not False:
                    words.append(REDOUBLE)
            elif isinstance(ins, AuctionTrump):
                suits += ins.actions
            elif isinstance(ins, AuctionCall) and ins.rules.mode == 1:
                ranks = ins.rules.called_ranks
                card_words.append(("call", [c for c in self.cards if pack.rank[c] in ranks],
                                   named))
        self.exchanges = set(picks)  # (the name kept: decisions answered by picks)
        self.pick_pcs = {pc for pc, ins in enumerate(prog.code)
                         if isinstance(ins, (Exchange, PassCards))}
        self.named = named

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
        if picks:
            self.pick_base = len(self.actions)
            for label in card_names:
                add(None, f"pick {label}")
            self.stop = len(self.actions)
            add(None, "stop")
        for a in [*words, *suits, *numbers]:
            add(a, str(a))
        for word, cards, p in card_words:
            for c in cards:
                add(Action(CARDS, word, 1 << c, p), f"{word} {card_names[self.card_index[c]]}")
        self.num_actions = len(self.actions)
        self.decisions = decisions
        self.decision_index = {d: i for i, d in enumerate(self.decisions)}
        # the pending decision by the program counter (what State.decision_name reads)
        self.pc_decision = {pc: self.decision_index.get(getattr(ins, "name", "play"), 0)
                            for pc, ins in enumerate(prog.code)}
        # words a variable may hold, coded as numbers in the observation
        self.word_code = {w: float(i + 1) for i, w in enumerate(dict.fromkeys(
            [*(a[1] for a in words), *pack.letters]))}

        planes = ["hand"] + (["picked"] if picks else [])
        self.passes = any(isinstance(ins, PassCards) for ins in prog.code)
        planes += ["own_discards"] + (["own_passed"] if self.passes else [])
        planes += ["turn_up", "played"]
        planes += [f"trick_{k}" for k in range(n)] + [f"known_{k}" for k in range(1, n)]
        planes += ["called"] if self.auction else []
        self.planes = planes
        # the pack as chunks of up to 8 consecutive card ids: (first id, mask, table of the
        # chunk's bits as float32 bytes), so that a set of cards turns into pack order
        # with a few look-ups
        self.chunks: list[tuple[int, int, list[bytes]]] = []
        start = 0
        for i in range(1, C + 1):
            if i == C or self.cards[i] != self.cards[i - 1] + 1 or i - start == 8:
                k = i - start
                lut = [struct.pack(f"<{k}f", *[(b >> j) & 1 for j in range(k)])
                       for b in range(1 << k)]
                self.chunks.append((self.cards[start], (1 << k) - 1, lut))
                start = i
        self.zero_plane = bytes(4 * C)
        self.plane_bytes: dict[int, bytes] = {0: self.zero_plane}
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
        self.fields += [(f"var:{v}", n) for v in self.pvars] + [(f"var:{v}", 1) for v in self.gvars]
        self.fields += [("talon", 1), ("widow", 1), ("hand_number", 1),
                        ("decision", len(self.decisions))]
        self.size = sum(k for _, k in self.fields)
        self.card_size = len(planes) * C
        # per-player variables that hold words (by their declared start value)
        declared: dict[str, Any] = {}
        for part in (game.tree.get("variables") or {}).values():
            if isinstance(part, dict):
                declared.update(part)
        self.word_rows = {i for i, v in enumerate(self.pvars) if isinstance(declared.get(v), str)}
        self.word_globals = any(isinstance(declared.get(v), str) for v in self.gvars)
        # one-hot rows: hot[k][i] has k values, 1 at i (hot[k][k]: all 0)
        self.hot = {k: [[float(j == i) for j in range(k)] for i in range(k + 1)]
                    for k in {5, n, len(self.decisions), self.contracts + 1}}
        # the same tables as plain typed values, for the compiled writer of observations,
        # legal numbers and masks (engine/tensor.py)
        self.layout = Layout(
            game.name, n, self.num_actions, self.cards, self.card_index, self.index,
            self.pick_pcs, self.pick_base, self.stop,
            (bool(self.exchanges), self.passes, self.auction, self.face_down),
            self.chunks, self.plane_bytes, self.hot, self.contracts, len(self.decisions),
            self.pc_decision, self.word_code, self.word_rows, self.word_globals,
            self.size - self.card_size)

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

    def plane(self, m: int) -> bytes:
        """The set of cards ``m`` as C float32 values in pack order (and kept)."""
        return self.layout.plane(m)

    def mask(self, legal: list[int]) -> np.ndarray:
        """The action numbers ``legal`` as a 0/1 int8 vector of the action space's size."""
        return np.frombuffer(self.layout.mask(legal), I8)

    def _value(self, v: Any) -> float:
        return self.layout.value(v)


class Match:
    """An engine state driven through the fixed action space: it keeps the cards picked
    so far in an exchange (``pending``) and the cards played this hand (``played``)."""

    __slots__ = ("enc", "st", "pending", "played", "hand", "scores_at", "listed", "listed_at")

    def __init__(self, enc: Encoding, st: State) -> None:
        self.enc = enc
        self.st = st
        self.pending = 0
        self.played = played_cards(st)
        # the legal numbers last listed, and the engine's history then (so that they are
        # trusted only in the state they were listed in)
        self.listed: tuple[int, ...] | None = None
        self.listed_at: Any = None
        self.hand = st.hand_number
        self.scores_at = st.scores

    def clone(self, st: State | None = None) -> Match:
        """A copy (of the engine state too, unless ``st`` is given to use instead)."""
        m = Match.__new__(Match)
        m.enc = self.enc
        m.st = self.st.clone() if st is None else st
        m.pending = self.pending
        # another state (a re-deal): its own cards played, face-down ones re-dealt too
        m.played = self.played if st is None else played_cards(st)
        m.hand = self.hand
        m.scores_at = self.scores_at
        m.listed = None
        return m

    def __deepcopy__(self, memo: dict[int, Any]) -> Match:
        return self.clone()

    # -- actions -------------------------------------------------------------------------

    def legal(self) -> list[int]:
        """The legal action numbers, ascending (empty once the match is over)."""
        st = self.st
        got = self.enc.layout.legal(st, self.pending)
        self.listed = tuple(got)  # (a caller may change the list it is given)
        self.listed_at = st.hist
        return got

    def mask(self) -> np.ndarray:
        """The legal actions as a 0/1 int8 vector of the action space's size."""
        return self.enc.mask(self.legal())

    def apply(self, i: int) -> None:
        """Take action number ``i`` for the player to act.  Raises IllegalActionError."""
        enc = self.enc
        st = self.st
        if type(i) is not int:
            i = int(i)
        if not 0 <= i < enc.num_actions:
            raise IllegalActionError(f"action {i} is outside 0..{enc.num_actions - 1}")
        a = enc.actions[i]
        listed = self.listed
        self.listed = None
        if listed is not None and self.listed_at is not st.hist:
            listed = None  # the state has moved on since
        if a is None:  # a pick or the stop
            if i not in (listed if listed is not None else self.legal()):
                raise IllegalActionError(f"{enc.labels[i]} is not allowed now")
            if i != enc.stop:
                self.pending |= 1 << enc.cards[i - enc.pick_base]
                return
            a = Action(CARDS, st.decision_name or "", self.pending, enc.named)
            self.pending = 0
        hand = st.hand_number
        if a[0] == CARD:
            if listed is not None and i in listed:
                st.run_action(a)  # a card just listed as legal: the engine's own, no check again
            else:
                st.apply(a)
            self.played |= 1 << a[2]
        else:
            st.apply(a)
            if a[0] == CARDS and a[1] in enc.play_words:
                self.played |= 1 << (a[2].bit_length() - 1)
        if st.hand_number != hand:
            self.played = 0

    def hand_rewards(self) -> list[float] | None:
        """Each seat's change of score since the last hand ended, when a hand (or the
        match) has just ended; else None."""
        st = self.st
        if st.hand_number == self.hand and not st.is_terminal:
            return None
        self.hand = st.hand_number
        new = st.scores
        old = self.scores_at
        self.scores_at = new
        return [float(a - b) for a, b in zip(new, old, strict=True)]

    def win_returns(self) -> list[float]:
        """+1 for each winner and -1 for every other seat once the match is over, else 0."""
        st = self.st
        if not st.is_terminal:
            return [0.0] * st.n
        w = st.winner_seats
        return [1.0 if p in w else -1.0 for p in range(st.n)]

    # -- observation -----------------------------------------------------------------------

    def observation(self, seat: int, out: np.ndarray | None = None) -> np.ndarray:
        """The observation vector of ``seat`` (written into ``out`` when given)."""
        obs = np.frombuffer(self.enc.layout.observation(self.st, seat, self.pending, self.played),
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
        from ..cli.play import _panel
        from ..cli.render import PLAIN, player_names

        st = self.st
        if seat is None:
            seat = st.current if st.current is not None else 0
        names = player_names(st.n)
        lines = _panel(st, seat, names, PLAIN)
        if st.is_terminal:
            lines.append(f"  over: winners {' '.join(names[p] for p in st.winner_seats)}")
        elif st.current == seat:
            menu = "  ".join(f"{i} {self.enc.labels[i]}" for i in self.legal())
            lines.append(f"  {st.decision_name}: {menu}")
        return "\n".join(lines)


__all__ = ["Encoding", "Match"]
