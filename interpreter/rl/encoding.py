"""The fixed action space and the observation tensor of a spec, for game-AI interfaces.

Both :mod:`spelbok.rl.pettingzoo` and :mod:`spelbok.rl.openspiel` see a match through
this module, so they number actions and lay out observations the same way.

**Actions** are numbered once per game (spec, player count, options), in this order:

1. ``play C`` for every card of the pack (a card played to a trick), pack order;
2. ``discard C`` for every card of the pack, then ``stop``: an exchange is a sequence
   of single-card discards ended by ``stop`` (the engine then exchanges them all at
   once; ``stop`` with nothing picked keeps every card).  Only when the spec has an
   exchange decision;
3. every decision word (``play``, ``pass``, ``order``..., and a trick's abstain word
   such as ``knock``), each once;
4. ``<decision> <suit>`` for every suit a ``choose: suit`` decision offers;
5. ``<decision> <k>`` for every number of a ``choose: number`` decision's range: from
   its ``min`` to its ``max`` when they are plain numbers, else up to the pack's size.

**Observations** are a flat float32 vector of named fields (:attr:`Encoding.fields`,
documented in ``docs/rl.md``), seats counted from the observer (0 is the observer,
1 the next seat clockwise...).  They hold what :meth:`spelbok.State.view` shows that
seat and nothing else: :func:`spelbok.engine.observe.determinize` leaves them as they
are.

>>> import spelbok
>>> enc = Encoding(spelbok.load("example", players=3))
>>> enc.num_actions, enc.labels[0], enc.labels[enc.stop], enc.labels[-1]
(67, '7C', 'stop', 'pass')
>>> m = Match(enc, enc.game.new_state(seed=1))
>>> [enc.labels[i] for i in m.legal()][-3:]
['discard 9H', 'discard KH', 'stop']
>>> m.observation(0).shape == (enc.size,)
True
"""

from __future__ import annotations

import struct
from typing import Any

import numpy as np

from ..cards import SUIT_INDEX, SUITS, parse_card
from ..engine.actions import CARD, CARDS, NUMBER, SUIT, WORD, Action
from ..engine.game import Game
from ..engine.state import State
from ..engine.subsets import SubsetActions
from ..errors import IllegalActionError, SpelbokError
from ..lang.vocabulary import walk_steps


def _literal(text: Any) -> int | None:
    """The whole number a formula is, if it is just one."""
    if type(text) is int:
        return text
    try:
        return int(str(text).strip())
    except ValueError:
        return None


#: what the action space does not number yet: step kinds, then ``tricks`` keys
UNCOVERED_STEPS = ("auction", "pass_cards")
UNCOVERED_TRICK_KEYS = ("declare", "face_down")


def uncovered(tree: dict[str, Any]) -> str | None:
    """What a spec uses that the fixed action space cannot number yet, or None.

    >>> import spelbok
    >>> uncovered(spelbok.load("example").tree) is None
    True
    """
    if tree.get("pack") is not None:
        return "a declared pack"
    for _, step in walk_steps(tree.get("hand", [])):
        if not isinstance(step, dict):
            continue
        for kind in UNCOVERED_STEPS:
            if kind in step:
                return f"the '{kind}' step"
        t = step.get("tricks")
        if isinstance(t, dict):
            for key in UNCOVERED_TRICK_KEYS:
                if t.get(key) not in (None, False, "false", []):
                    return f"'tricks.{key}'"
    return None


class Encoding:
    """The action numbering and the observation layout of one game."""

    def __init__(self, game: Game) -> None:
        what = uncovered(game.tree)
        if what is not None:
            raise SpelbokError(f"{game.name} uses {what}, which the game-AI action space does "
                               "not number yet (docs/rl.md)")
        self.game = game
        n = self.players = game.players
        # the pack as the spec deals it at this player count (not necessarily 52 cards)
        self.cards: list[int] = [c for c in (parse_card(x) for x in game.deck) if c is not None]
        C = self.num_cards = len(self.cards)
        self.card_index = {c: i for i, c in enumerate(self.cards)}
        steps = [s for _, s in walk_steps(game.tree.get("hand", []))]
        decides = [s for s in steps if isinstance(s, dict) and "decide" in s]
        self.exchanges = {str(s["decide"]) for s in decides if s.get("choose") == "exchange"}

        self.labels: list[str] = []
        self.actions: list[Action | None] = []  # None: a discard or stop (see Match.apply)
        self.index: dict[Action, int] = {}

        def add(a: Action | None, label: str) -> None:
            if a is not None:
                if a in self.index:
                    return
                self.index[a] = len(self.actions)
            self.actions.append(a)
            self.labels.append(label)

        for c, name in zip(self.cards, game.deck, strict=True):
            add(Action(CARD, "", c), name)
        self.discard_base = self.stop = -1
        if self.exchanges:
            self.discard_base = len(self.actions)
            for name in game.deck:
                add(None, f"discard {name}")
            self.stop = len(self.actions)
            add(None, "stop")
        words: list[str] = []
        for s in steps:
            if isinstance(s, dict) and "tricks" in s and isinstance(s["tricks"], dict):
                t = s["tricks"]
                if t.get("abstain") not in (False, "false", None):
                    words.append(str(t.get("abstain_word", "knock")))
            elif isinstance(s, dict) and "decide" in s and isinstance(s.get("choose"), list):
                for w in s["choose"]:
                    words.append(str(w["word"] if isinstance(w, dict) else w))
        for w in words:
            add(Action(WORD, w), w)
        for s in decides:
            name = str(s["decide"])
            if s.get("choose") == "suit":
                for letter in s.get("suits") or list(SUITS):
                    a = Action(SUIT, name, SUIT_INDEX[str(letter).upper()])
                    add(a, str(a))
            elif s.get("choose") == "number":
                lo = max(0, _literal(s.get("min", 0)) or 0)
                hi = _literal(s.get("max", 0))
                for k in range(lo, (C if hi is None else hi) + 1):
                    add(Action(NUMBER, name, k), f"{name} {k}")
        self.num_actions = len(self.actions)
        self.decisions = ["play", *dict.fromkeys(str(s["decide"]) for s in decides)]
        self.decision_index = {d: i for i, d in enumerate(self.decisions)}
        # words a variable may hold, coded as numbers in the observation
        self.word_code = {w: float(i + 1) for i, w in enumerate(dict.fromkeys([*words, *SUITS]))}

        planes = ["hand"] + (["exchange_pending"] if self.exchanges else [])
        planes += ["own_discards", "turn_up", "played"]
        planes += [f"trick_{k}" for k in range(n)] + [f"known_{k}" for k in range(1, n)]
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
        prog = game.program
        self.pvars = list(prog.pvar_names)
        self.gvars = list(prog.gvar_names)
        self.fields: list[tuple[str, int]] = [(p, C) for p in planes]
        self.fields += [("trump", 5), ("led", 5), ("hand_sizes", n), ("tricks", n), ("out", n),
                        ("dealer", n), ("to_act", n)]
        self.fields += [(f"var:{v}", n) for v in self.pvars] + [(f"var:{v}", 1) for v in self.gvars]
        self.fields += [("talon", 1), ("widow", 1), ("hand_number", 1),
                        ("decision", len(self.decisions))]
        self.size = sum(k for _, k in self.fields)
        self.card_size = len(planes) * C
        self.rot = [[(seat + k) % n for k in range(n)] for seat in range(n)]
        self.tail = struct.Struct(f"<{self.size - self.card_size}f")
        # per-player variables that hold words (by their declared start value)
        declared: dict[str, Any] = {}
        for part in (game.tree.get("variables") or {}).values():
            if isinstance(part, dict):
                declared.update(part)
        self.word_rows = {i for i, v in enumerate(self.pvars) if isinstance(declared.get(v), str)}
        self.word_globals = any(isinstance(declared.get(v), str) for v in self.gvars)
        # one-hot rows: hot[k][i] has k values, 1 at i (hot[k][k]: all 0)
        self.hot = {k: [[float(j == i) for j in range(k)] for i in range(k + 1)]
                    for k in {5, n, len(self.decisions)}}

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
        got = b"".join([lut[(m >> src) & width] for src, width, lut in self.chunks])
        if len(self.plane_bytes) >= 1 << 16:  # a bound on memory: start again
            self.plane_bytes.clear()
            self.plane_bytes[0] = self.zero_plane
        self.plane_bytes[m] = got
        return got

    def mask(self, legal: list[int]) -> np.ndarray:
        """The action numbers ``legal`` as a 0/1 int8 vector of the action space's size."""
        b = bytearray(self.num_actions)
        for i in legal:
            b[i] = 1
        return np.frombuffer(b, dtype=np.int8)

    def _value(self, v: Any) -> float:
        if type(v) is bool or type(v) is int or type(v) is float:
            return float(v)
        if type(v) is str:
            return self.word_code.get(v, -1.0)
        return 0.0


class Match:
    """An engine state driven through the fixed action space: it keeps the cards picked
    so far in an exchange (``pending``) and the cards played this hand (``played``)."""

    __slots__ = ("enc", "st", "pending", "played", "hand", "scores_at")

    def __init__(self, enc: Encoding, st: State) -> None:
        self.enc = enc
        self.st = st
        self.pending = 0
        played = 0
        for _lead, cards, _w in st.history_tricks:
            for _p, c in cards:
                played |= 1 << c
        for _p, c in st.trick:
            played |= 1 << c
        self.played = played
        self.hand = st.hand_number
        self.scores_at = st.scores

    def clone(self, st: State | None = None) -> Match:
        """A copy (of the engine state too, unless ``st`` is given to use instead)."""
        m = Match.__new__(Match)
        m.enc = self.enc
        m.st = self.st.clone() if st is None else st
        m.pending = self.pending
        m.played = self.played
        m.hand = self.hand
        m.scores_at = self.scores_at
        return m

    def __deepcopy__(self, memo: dict[int, Any]) -> Match:
        return self.clone()

    # -- actions -------------------------------------------------------------------------

    def legal(self) -> list[int]:
        """The legal action numbers, ascending (empty once the match is over)."""
        st = self.st
        if st.current is None:
            return []
        acts = st.legal_actions()
        enc = self.enc
        if enc.exchanges and st.decision_name in enc.exchanges:
            return self._exchange_legal(acts)
        index = enc.index
        try:
            out = [index[a] for a in acts]
        except KeyError as e:
            raise SpelbokError(f"{e.args[0]} is outside {enc.game.name}'s action space (a "
                               f"number beyond the range read from the spec?)") from None
        out.sort()
        return out

    def _exchange_legal(self, acts: list[Action]) -> list[int]:
        enc = self.enc
        picked = self.pending
        k = picked.bit_count()
        base = enc.discard_base
        ci = enc.card_index
        out: list[int] = []
        if isinstance(acts, SubsetActions):  # by its bounds: no need to list the subsets
            if k < acts.hi:
                rest = acts.hand & ~picked
                while rest:
                    low = rest & -rest
                    out.append(base + ci[low.bit_length() - 1])
                    rest ^= low
            ok = acts.lo <= k <= acts.hi
        else:
            masks = [a[2] if a[0] == CARDS else 0 for a in acts]
            union = 0
            for m in masks:
                union |= m
            rest = union & ~picked
            while rest:
                low = rest & -rest
                need = picked | low
                if any(m & need == need for m in masks):
                    out.append(base + ci[low.bit_length() - 1])
                rest ^= low
            ok = picked in masks
        out.sort()
        if ok:
            out.append(enc.stop)
        return out

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
        if a is None:  # a discard or the stop of an exchange
            if i not in self.legal():
                raise IllegalActionError(f"{enc.labels[i]} is not allowed now")
            if i != enc.stop:
                self.pending |= 1 << enc.cards[i - enc.discard_base]
                return
            a = Action(CARDS, st.decision_name or "", self.pending)
            self.pending = 0
        hand = st.hand_number
        st.apply(a)
        if a[0] == CARD:
            self.played |= 1 << a[2]
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
        enc = self.enc
        st = self.st
        n = st.n
        turn_up = 0
        for c in st.turn_up:
            turn_up |= 1 << c
        masks = [st.hands[seat]]
        if enc.exchanges:
            masks.append(self.pending if st.current == seat else 0)
        masks += [st.discarded[seat], turn_up, self.played]
        trick = [0] * n
        for p, c in st.trick:
            trick[(p - seat) % n] = 1 << c
        masks += trick
        known = st.known
        masks += known[seat + 1:] + known[:seat]
        # each plane as C float32 values in pack order: the bytes of a set of cards are
        # worked out once (from tables of chunks) and kept
        planes = enc.plane_bytes
        parts = []
        for m in masks:
            got = planes.get(m)
            if got is None:
                got = enc.plane(m)
            parts.append(got)
        hot = enc.hot
        tail: list[Any] = hot[5][st.trump if 0 <= st.trump < 4 else 4] + hot[5][
            st.led if 0 <= st.led < 4 else 4]
        h = st.hands
        tail += [m.bit_count() for m in h[seat:] + h[:seat]]
        won = st.won
        tail += won[seat:] + won[:seat]
        gone = st.out
        tail += gone[seat:] + gone[:seat]
        hot_n = hot[n]
        tail += hot_n[(st.dealer - seat) % n]
        tail += hot_n[n] if st.current is None else hot_n[(st.current - seat) % n]
        words = enc.word_rows
        for i, row in enumerate(st.pv_rows):
            if words and i in words:  # a variable holding words: coded as numbers
                tail += [enc._value(v) for v in row[seat:] + row[:seat]]
            else:
                tail += row[seat:] + row[:seat]
        tail += [enc._value(v) for v in st.gv] if enc.word_globals else st.gv
        tail.append(len(st.stock))
        tail.append(st.widow.bit_count())
        tail.append(st.hand_number)
        name = st.decision_name
        d = len(enc.decisions)
        tail += hot[d][d if name is None else enc.decision_index.get(name, 0)]
        try:
            parts.append(enc.tail.pack(*tail))
        except struct.error:  # a word in a variable declared with a number: coded
            parts.append(enc.tail.pack(*[enc._value(v) for v in tail]))
        buf = bytearray(b"".join(parts))
        obs = np.frombuffer(buf, dtype=np.float32)
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
