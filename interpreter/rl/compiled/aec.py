"""The turn-taking of a PettingZoo AEC environment over a :class:`~.tensor.Cursor`:
``agent_iter``, ``last``, ``observe`` and ``step`` with their dicts of rewards,
terminations and truncations, compiled (``HOT`` in ``_native.py``).

An environment step is a few of these calls around one engine decision, so the
bookkeeping is compiled with the engine rather than interpreted around it.
:class:`spelbok.rl.pettingzoo.SpelbokEnv` subclasses :class:`Table` and PettingZoo's
``AECEnv`` (both bases; this one first, so that its methods are the ones called) and
adds what runs once a match: ``reset``, the spaces and ``render``.  No numpy here: the
environment hands over ``np.frombuffer`` and the two dtypes.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from librt.strings import BytesWriter

from ...errors import ArgumentError, IllegalActionError
from ...frozen import mypyc_attr
from .tensor import (
    Cursor,
    _trusted,
    cursor_apply,
    cursor_hand_rewards,
    cursor_legal,
    cursor_view,
    cursor_win_returns,
)


@mypyc_attr(allow_interpreted_subclasses=True)
class Table:
    """The agents, their rewards, terminations and truncations, and the match they
    play: what PettingZoo's AEC API reads and writes at every step.

    Rewards: with ``score_rewards``, each seat's change of score at the step that ends
    a hand; else +1 to each winner and -1 to the others at the step that ends the match.
    (The methods call functions, ``_observe`` and tensor.py's ``cursor_*``, not methods:
    compiled code calls a method of a class with interpreted subclasses by name.)
    """

    agent_selection: str
    agents: list[str]
    rewards: dict[str, float]
    _cumulative_rewards: dict[str, float]
    terminations: dict[str, bool]
    truncations: dict[str, bool]
    infos: dict[str, dict[str, Any]]

    def __init__(self, agents: list[str], score_rewards: bool, human: bool,
                 frombuffer: Any, f32: Any, i8: Any) -> None:
        self.possible_agents = agents
        self.seat_of = {a: p for p, a in enumerate(agents)}
        self.score_rewards = score_rewards
        self.human = human  # render after each step
        self.match: Cursor | None = None
        self.rewarded = False  # the last step handed out rewards (to clear at the next)
        self.frombuffer = frombuffer
        self.f32 = f32
        self.i8 = i8

    def start(self, match: Cursor) -> None:
        """Begin ``match``: every agent in play, no rewards yet."""
        agents = self.possible_agents
        self.match = match
        self.agents = agents[:]
        self.rewards = dict.fromkeys(agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(agents, 0.0)
        self.terminations = dict.fromkeys(agents, False)
        self.truncations = dict.fromkeys(agents, False)
        self.infos = {a: {} for a in agents}
        self.rewarded = False
        seat = match.st.current
        if seat is not None:
            self.agent_selection = agents[seat]
        else:  # a match over before any decision: every agent is done at once
            self.agent_selection = agents[0]
            cut = match.st.limit_reached
            for a in agents:
                self.terminations[a] = not cut
                self.truncations[a] = cut

    def observe(self, agent: str) -> dict[str, Any]:
        """``agent``'s observation: the float32 vector and the int8 action mask (all 0
        unless ``agent`` is to act), new read-only arrays."""
        return _observe(self, agent)

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """The agent to act's observation, reward so far, termination, truncation and
        info (as AECEnv.last)."""
        agent = self.agent_selection
        return (_observe(self, agent) if observe else None, self._cumulative_rewards[agent],
                self.terminations[agent], self.truncations[agent], self.infos[agent])

    def agent_iter(self, max_iter: int = 2**63) -> Iterator[str]:
        """The agent to act, until every agent is done (as AECEnv.agent_iter)."""
        while self.agents and max_iter > 0:
            max_iter -= 1
            yield self.agent_selection

    def step(self, action: object) -> None:
        """Take action number ``action`` for the agent to act (None for an agent already
        terminated or truncated, which then leaves)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._dead_step(action)
            return
        m = self.match
        assert m is not None
        cursor_apply(m, action)
        rewards = self.rewards
        cumulative = self._cumulative_rewards
        cumulative[agent] = 0.0
        if self.rewarded:  # the last step's rewards are spent
            for a in rewards:
                rewards[a] = 0.0
            self.rewarded = False
        st = m.st
        agents = self.possible_agents
        got = cursor_hand_rewards(m) if self.score_rewards else None
        if st.is_terminal:
            if not self.score_rewards:
                got = cursor_win_returns(m)
            cut = st.limit_reached
            for a in self.agents:
                self.terminations[a] = not cut
                self.truncations[a] = cut
        else:
            seat = st.current
            assert seat is not None
            self.agent_selection = agents[seat]
        if got is not None:
            for p, r in enumerate(got):
                rewards[agents[p]] = r
            for a, r in rewards.items():
                cumulative[a] += r
            self.rewarded = True
        if self.human:
            self.render()

    def render(self) -> str | None:
        """Overridden by the environment."""
        return None

    def _dead_step(self, action: object) -> None:
        """The step of an agent already done: AECEnv's, given by the environment."""
        raise NotImplementedError


def _observe(t: Table, agent: str) -> dict[str, Any]:
    """:meth:`Table.observe`."""
    m = t.match
    if m is None:
        raise ArgumentError("reset() the environment before observing it")
    obs, mask = cursor_view(m, t.seat_of[agent])
    fb = t.frombuffer
    return {"observation": fb(obs, t.f32), "action_mask": fb(mask, t.i8)}


# -- many matches a call (spelbok.rl.vector) ------------------------------------------


def view_matches(cursors: list[Cursor]) -> tuple[bytes, bytes, list[int]]:
    """The observation and the action mask of the seat to act in each match (none may be
    over), each concatenated in the matches' order, and those seats."""
    obs = BytesWriter()
    masks = BytesWriter()
    seats: list[int] = []
    for c in cursors:
        seat = c.st.current
        if seat is None:
            raise ArgumentError("a match is over: nobody is to act")
        o, m = cursor_view(c, seat)
        obs.write(o)
        masks.write(m)
        seats.append(seat)
    return obs.getvalue(), masks.getvalue(), seats


def step_matches(cursors: list[Cursor], actions: list[Any], score_rewards: bool,
                 rewards: list[float]) -> list[int]:
    """Take ``actions[i]`` for the seat to act in match ``i``, each; write each seat's
    reward of that step into ``rewards`` (``n`` a match, all 0 before); the indices of
    the matches that ended.  Every action is checked before any is taken, so an illegal
    one changes nothing (IllegalActionError names its match)."""
    if len(actions) != len(cursors):
        raise ArgumentError(f"{len(actions)} actions for {len(cursors)} matches")
    for i, c in enumerate(cursors):
        a = actions[i]
        legal = _trusted(c)
        if legal is None:
            legal = tuple(cursor_legal(c))
        if not isinstance(a, int) or a not in legal:
            raise IllegalActionError(f"match {i}: action {str(a)[:20]} is not legal now "
                                     f"(legal: {', '.join(map(str, legal[:12]))}"
                                     f"{', …' if len(legal) > 12 else ''})")
    ended: list[int] = []
    for i, c in enumerate(cursors):
        cursor_apply(c, actions[i])
        st = c.st
        got = cursor_hand_rewards(c) if score_rewards else None
        if st.is_terminal:
            if not score_rewards:
                got = cursor_win_returns(c)
            ended.append(i)
        if got is not None:
            base = i * st.n
            for p, r in enumerate(got):
                rewards[base + p] = r
    return ended
