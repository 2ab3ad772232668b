"""A bot's time budget per decision.

The searching bots (greedy's rollouts, ISMCTS's iterations) do a fixed amount
of work per decision, so the same seed gives the same choices on any machine.
The budget is a safety net over that: a spec whose hands are long and whose
decisions offer many options (an auction of sixty bids, three players with
nine cards) must not stall ``simulate`` or the browser.  When a decision's
time is spent, the bot stops searching and chooses from what it has (at least
one rollout of each option, or one ISMCTS iteration); the bot counts such
decisions in ``budget.cuts``, and those choices then depend on the machine's
speed.  ``seconds=None`` (``--bot-time 0``) removes the budget.

>>> b = Budget(0.5)
>>> b.start(); b.spent()
False
>>> Budget(None).deadline() == float("inf")
True
"""

from __future__ import annotations

import math
import time

#: Seconds a bot may think about one decision, unless told otherwise
#: (``--bot-time``; the browser's bots and hints use it too).
DEFAULT_BOT_TIME = 2.0

#: The largest budget accepted (seconds per decision).
MAX_BOT_TIME = 3600.0


class Budget:
    """The time one bot may spend per decision (``seconds``; None: no limit)."""

    __slots__ = ("seconds", "cuts", "_end")

    def __init__(self, seconds: float | None = DEFAULT_BOT_TIME) -> None:
        if seconds is not None and not (0 < seconds <= MAX_BOT_TIME):
            raise ValueError(f"a bot's time is more than 0 and at most {MAX_BOT_TIME:g} seconds")
        self.seconds = seconds
        #: decisions whose search stopped because the time was spent
        self.cuts = 0
        self._end = math.inf

    def start(self) -> None:
        """A decision begins: its clock starts now."""
        self._end = math.inf if self.seconds is None else time.monotonic() + self.seconds

    def deadline(self) -> float:
        """The ``time.monotonic()`` at which the current decision's time is spent."""
        return self._end

    def spent(self) -> bool:
        """Whether the current decision's time is spent."""
        return time.monotonic() >= self._end
