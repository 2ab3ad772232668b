"""Game-AI interfaces: every spec as a PettingZoo environment and an OpenSpiel game.

- :mod:`spelbok.rl.encoding`: the fixed discrete action space of a spec and its
  observation tensor, shared by both interfaces (see ``docs/rl.md``).
- :mod:`spelbok.rl.pettingzoo`: ``env(spec, players=N)``, a PettingZoo AEC environment.
- :mod:`spelbok.rl.openspiel`: ``register(spec)``, a Python OpenSpiel game.
- :mod:`spelbok.rl.compiled`: what an environment step runs, compiled with the engine
  (the observation, legal numbers and mask; the AEC turns).

They need the optional extra: ``pip install '.[rl]'`` from the checkout (numpy, gymnasium,
pettingzoo, open-spiel).  Importing this package needs none of them.
"""

from __future__ import annotations

__all__: list[str] = []
