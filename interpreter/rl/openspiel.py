"""Any spec as a Python OpenSpiel game.

>>> import pyspiel
>>> from spelbok.rl.openspiel import register
>>> register("example")
'spelbok_example'
>>> game = pyspiel.load_game("spelbok_example", {"players": 3, "max_hands": 1})
>>> state = game.new_initial_state()
>>> state.is_chance_node(), game.num_players()
(True, 3)
>>> len(state.chance_outcomes())   # the seed's first hexadecimal digit
16
>>> state.apply_seed(7)            # its four digits: the seed of the match's shuffles
>>> state.history()
[0, 0, 0, 7]
>>> state.current_player() in (0, 1, 2), len(state.observation_tensor()) > 0
(True, True)

:func:`register` declares a spec under ``spelbok_<name>`` (its file name, or the game's
name for spec text) with the game parameters ``players`` (default: the spec's
minimum), ``max_hands`` (0: the spec's own bound), ``seeds`` and ``base``.

**Chance.** The engine draws every shuffle and cut of a match from one seed, uniform
among ``seeds`` seeds (default 65536).  OpenSpiel draws it as its digits in base
``base`` (default 16), most significant first: the first nodes of the game are chance
nodes (four of 16 outcomes each by default), then the match.  An outcome list is a
shared tuple (a branch cut short by ``seeds`` not a power of ``base`` gets its own,
weighted so that every seed stays equally likely), so a chance node costs a
microsecond or two where a single node listing 65536 seeds cost milliseconds a call
(docs/rl.md has the figures).  ``base=0`` keeps that single node of every seed.
:meth:`SpelbokState.apply_seed` applies a whole seed.  Every later deal follows from the
seed, so a history replays exactly (OpenSpiel's serialization) and the states after the
chance nodes are deterministic.

**Actions** are those of :class:`spelbok.rl.encoding.Encoding` (an exchange or a pass of
cards is a sequence of single-card picks and a stop).  **Returns** are the spec's outcome at the end of
the match: +1 to each winner, -1 to every other seat (``GENERAL_SUM``, terminal reward).

**Observations**: ``observation_tensor`` is the encoding's vector, with one named piece
per field (``docs/rl.md``); ``information_state_string`` and ``observation_string`` are
what the seat sees now (:meth:`spelbok.State.information_state`: the hand in play, the
tricks and decisions of this hand, every public variable), plus the cards it has picked
in an exchange or pass under way.  ``resample_from_infostate`` re-deals every hidden card
through :func:`spelbok.engine.observe.determinize` (a resampled state has a new seed
for later shuffles, so it no longer matches its history).
"""

from __future__ import annotations

import hashlib
import os
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pyspiel

from ..engine.game import Game, load
from ..errors import SnapshotError
from ..lang.vocabulary import DEFAULT_MAX_HANDS, walk_steps
from ..limits import short_repr
from .encoding import Encoding, Match


def _literal(text: Any) -> int | None:
    """The whole number a formula is, if it is just one."""
    if type(text) is int:
        return text
    try:
        return int(str(text).strip())
    except ValueError:
        return None


DEFAULT_SEEDS = 1 << 16
DEFAULT_BASE = 16
_SPECS: dict[str, tuple[str, dict[str, Any] | None]] = {}  # short name -> (spec, options)
_TREES: dict[str, tuple[Any, dict[str, Any] | None]] = {}  # to tell one spec from another
_RULES: dict[tuple[str, int, int, int, int], _Rules] = {}


class _Rules:
    """One registered spec at one set of parameters: the compiled game and its encoding,
    shared by every state (never copied; pickled by name)."""

    def __init__(self, short: str, players: int, max_hands: int, seeds: int,
                 base: int) -> None:
        spec, options = _SPECS[short]
        self.key = (short, players, max_hands, seeds, base)
        self.game: Game = load(spec, players=players, options=options,
                               max_hands=max_hands or None)
        self.enc = Encoding(self.game)
        self.numbering = numbering(self.enc)  # pickled with each state, checked at loading
        self.seeds = seeds
        # the seed as digits in ``base`` (0: one digit of every seed), at least one
        b = self.base = base if 0 < base < seeds else max(seeds, 1)
        d = 1
        while b ** d < seeds:
            d += 1
        self.digits = d
        self.uniform = tuple((x, 1.0 / b) for x in range(b))  # a whole subtree's outcomes

    def outcomes(self, depth: int, prefix: int) -> tuple[tuple[int, float], ...]:
        """The outcomes of the chance node after ``depth`` digits, ``prefix`` their value:
        each digit weighted by the number of seeds below ``seeds`` it leads to."""
        b, below = self.base, self.base ** (self.digits - depth - 1)
        total = min(max(self.seeds - prefix * b * below, 0), b * below)
        if total == b * below:
            return self.uniform
        counts = [min(max(self.seeds - (prefix * b + x) * below, 0), below) for x in range(b)]
        return tuple((x, k / total) for x, k in enumerate(counts) if k)

    def __deepcopy__(self, memo: dict[int, Any]) -> _Rules:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rules, self.key)


def _rules(short: str, players: int, max_hands: int, seeds: int, base: int) -> _Rules:
    key = (short, players, max_hands, seeds, base)
    got = _RULES.get(key)
    if got is None:
        got = _RULES[key] = _Rules(*key)
    return got


def numbering(enc: Encoding) -> str:
    """A digest of the encoding's action numbering (its labels in order): a state saved
    under another numbering is refused, not misread.

    >>> len(numbering(Encoding(load("example", players=3))))
    16
    """
    return hashlib.sha256("\n".join(enc.labels).encode()).hexdigest()[:16]


def _restore_match(rules: _Rules, snapshot: dict[str, Any], extra: tuple[Any, ...]) -> Match:
    if len(extra) > 4 and extra[4] != rules.numbering:
        raise SnapshotError(f"this state of {rules.key[0]} was saved under another numbering "
                            "of the actions (the spec or spelbok changed since): its history "
                            "would be misread", hint="replay the match from its actions' "
                            "texts (State.to_dict) instead")
    m = Match(rules.enc, rules.game.restore(snapshot))
    m.pending, m.played, m.hand, m.scores_at = extra[:4]
    return m


def _reduce_match(m: Match) -> Any:
    """A match of a registered game pickles as its rules' name and a snapshot (cheap to
    load: the game is compiled once per process); any other match as usual."""
    rules = next((r for r in _RULES.values() if r.enc is m.enc), None)
    if rules is None:
        return m.__reduce__()
    return (_restore_match, (rules, m.st.to_dict(), (m.pending, m.played, m.hand, m.scores_at,
                                                     rules.numbering)))


def _slug(name: str) -> str:
    out = "".join(ch.lower() if ch.isalnum() else "_" for ch in name)
    return "_".join(part for part in out.split("_") if part) or "game"


def register(spec: str | os.PathLike[str], *, name: str | None = None,
             options: dict[str, Any] | None = None) -> str:
    """Declare ``spec`` (a path, a shipped name or spec text) to OpenSpiel with the
    readings ``options``; returns its short name, ``spelbok_<name>``.  Registering the
    same name again with the same spec does nothing."""
    probe = load(spec, options=options)
    text = str(spec)
    if name is None:
        looks_like_path = "\n" not in text and len(text) < 300
        name = Path(text).stem if looks_like_path else probe.name
    short = f"spelbok_{_slug(name)}"
    if short in _SPECS:
        if _TREES[short] != (probe.tree, options):
            raise ValueError(f"{short} is already registered for another spec")
        return short
    _SPECS[short] = (text, options)
    _TREES[short] = (probe.tree, options)
    tree = probe.tree
    lo, hi = int(tree["players"]["min"]), int(tree["players"]["max"])
    game_type = pyspiel.GameType(
        short_name=short,
        long_name=f"spelbok {probe.name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=hi,
        min_num_players=lo,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"players": lo, "max_hands": 0, "seeds": DEFAULT_SEEDS,
                                 "base": DEFAULT_BASE},
    )
    cls = type(f"SpelbokGame_{_slug(name)}", (SpelbokGame,), {"game_type": game_type,
                                                              "short": short})
    pyspiel.register_game(game_type, cls)
    return short


def _max_length(game: Game, enc: Encoding) -> int:
    """An upper bound on the decisions of a match: per hand, every card played or
    abstained from, and every decision of every seat (an exchange or a pass: a pick per
    card and a stop; an auction: every call), times the rounds of the repeats around it;
    times the bound on hands."""
    tree = game.tree
    steps = dict(walk_steps(tree.get("hand", [])))
    n, C = game.players, enc.num_cards
    per_hand = 2 * C
    for path, step in steps.items():
        if not isinstance(step, dict):
            continue
        if "decide" in step:
            each = C + 1 if step.get("choose") == "exchange" else 1
        elif "pass_cards" in step:  # a pick per card and a stop
            each = C + 1
        elif isinstance(step.get("auction"), dict):
            # every call raises the contract, or is one of the passes, doubles and
            # redoubles between two raises; then the trump and the called card
            each = (len(step["auction"].get("contracts") or []) + 3) * n + 2
        else:
            continue
        rounds = 1
        for k in range(1, len(path)):
            outer = steps.get(path[:k])
            if isinstance(outer, dict) and "repeat" in outer:
                rounds *= _literal(outer["repeat"]) or C
        per_hand += n * rounds * each
    hands = int(tree["end"].get("max_hands", DEFAULT_MAX_HANDS))
    return per_hand * hands


class SpelbokGame(pyspiel.Game):
    """The OpenSpiel game of one registered spec (made by :func:`register`)."""

    game_type: Any
    short: str

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        spec = self.game_type.parameter_specification
        p = {"players": int(spec["players"]), "max_hands": 0, "seeds": DEFAULT_SEEDS,
             "base": DEFAULT_BASE}
        p.update(params or {})
        if int(p["seeds"]) < 1 or int(p["base"]) < 0 or int(p["base"]) == 1:
            raise ValueError(f"seeds must be at least 1 and base 0 or at least 2; got "
                             f"seeds={p['seeds']}, base={p['base']}")
        rules = _rules(self.short, int(p["players"]), int(p["max_hands"]), int(p["seeds"]),
                       int(p["base"]))
        self.rules = rules
        game, enc = rules.game, rules.enc
        bound = _max_length(game, enc)
        if p["max_hands"]:
            hands = int(game.tree["end"].get("max_hands", DEFAULT_MAX_HANDS))
            bound = bound // hands * min(hands, int(p["max_hands"]))
        info = pyspiel.GameInfo(
            num_distinct_actions=enc.num_actions,
            max_chance_outcomes=rules.base,
            num_players=game.players,
            min_utility=-1.0,
            max_utility=1.0,
            max_game_length=bound,
        )
        super().__init__(self.game_type, info, p)

    def new_initial_state(self) -> SpelbokState:
        return SpelbokState(self)

    def max_chance_nodes_in_history(self) -> int:
        return self.rules.digits  # the seed's digits, all at the start

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        return Observer(self.rules.enc, iig_obs_type, params)


class SpelbokState(pyspiel.State):
    """A match: the chance nodes that draw the seed's digits, then the engine's state."""

    def __init__(self, game: SpelbokGame) -> None:
        super().__init__(game)
        self._rules = game.rules
        self._m: Match | None = None
        self._depth = 0  # the seed's digits drawn so far, and their value
        self._prefix = 0

    @property
    def match(self) -> Match | None:
        """The spelbok match under this state (its engine state is ``match.st``), or
        None before the seed is drawn.  Read it; change it only through ``apply_action``."""
        return self._m

    def apply_seed(self, seed: int) -> None:
        """Apply the chance nodes' digits of ``seed`` (0 to ``seeds - 1``) at the start."""
        r = self._rules
        if self._depth or self._m is not None or not 0 <= seed < r.seeds:
            raise ValueError(f"a seed 0..{r.seeds - 1} is applied at the start; got {seed}")
        for k in range(r.digits - 1, -1, -1):
            self.apply_action(seed // r.base ** k % r.base)

    def current_player(self) -> int:
        m = self._m
        if m is None:
            return int(pyspiel.PlayerId.CHANCE)
        if m.st.current is None:
            return int(pyspiel.PlayerId.TERMINAL)
        return m.st.current

    def _legal_actions(self, player: int) -> list[int]:
        m = self._m
        if m is None or player != m.st.current:
            return []
        return m.legal()

    def chance_outcomes(self) -> Sequence[tuple[int, float]]:
        if self._m is not None:
            return ()
        return self._rules.outcomes(self._depth, self._prefix)

    def _apply_action(self, action: int) -> None:
        if self._m is None:
            r = self._rules
            x = int(action)
            outs = r.outcomes(self._depth, self._prefix)
            if not 0 <= x < r.base or (outs is not r.uniform and all(x != y for y, _ in outs)):
                raise ValueError(f"{x} is not a digit of a seed below {r.seeds} here")
            self._prefix = self._prefix * r.base + x
            self._depth += 1
            if self._depth == r.digits:
                self._m = Match(r.enc, r.game.new_state(seed=self._prefix))
        else:
            self._m.apply(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            r = self._rules
            return f"seed {action}" if r.digits == 1 else f"seed digit {action}"
        return self._rules.enc.labels[action]

    def is_terminal(self) -> bool:
        return self._m is not None and self._m.st.is_terminal

    def returns(self) -> list[float]:
        if self._m is None:
            return [0.0] * self._rules.game.players
        return self._m.win_returns()

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> SpelbokState:
        """A state that ``player_id`` cannot tell from this one: the hidden cards re-dealt."""
        c = self.clone()
        if self._m is not None:
            rng = random.Random(int(probability_sampler() * (1 << 53)))
            c._m = self._m.clone(self._m.st.determinize(player_id, rng))
        return c

    def __str__(self) -> str:
        m = self._m
        if m is None:
            r = self._rules
            drawn = [self._prefix // r.base ** k % r.base for k in range(self._depth - 1, -1, -1)]
            return (f"chance: the seed, {self._depth} of {r.digits} digits drawn"
                    + (f": {' '.join(map(str, drawn))}" if drawn else ""))
        st = m.st
        picked = " ".join(m.enc.labels[m.enc.card_index[c]] for c in m.enc.cards
                          if m.pending >> c & 1)
        return (f"{st!r} seed {st.seed}: {' '.join(str(a) for a in st.actions)}"
                + (f" | picked {picked}" if picked else ""))


class Observer:
    """The PyObserver of a spelbok game: the encoding's vector, a piece per field."""

    def __init__(self, enc: Encoding, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; got {short_repr(params)}")
        self.enc = enc
        self.perfect_recall = bool(iig_obs_type and iig_obs_type.perfect_recall)
        self.tensor = np.zeros(enc.size, np.float32)
        self.dict = {name: self.tensor[a:b] for name, (a, b) in enc.offsets().items()}

    def set_from(self, state: SpelbokState, player: int) -> None:
        m = state._m
        if m is None:
            self.tensor.fill(0.0)
        else:
            self.tensor[:] = m.observation(player)

    def string_from(self, state: SpelbokState, player: int) -> str:
        m = state._m
        if m is None:
            return "chance"
        return m.information_state(player)


# a match pickles by its rules' name and a snapshot (OpenSpiel's serialization)
import copyreg  # noqa: E402

copyreg.pickle(Match, _reduce_match)

__all__ = ["DEFAULT_BASE", "DEFAULT_SEEDS", "Observer", "SpelbokGame", "SpelbokState", "register"]
