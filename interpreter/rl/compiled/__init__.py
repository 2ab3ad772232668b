"""The compiled part of the game-AI interfaces (``HOT`` in ``_native.py`` names this
folder: mypyc compiles every module in it), reading the compiled engine state directly.

- :mod:`.tensor`: the observation, the legal action numbers and the mask of a match;
- :mod:`.aec`: the turn-taking of a PettingZoo AEC environment.

No numpy here: :mod:`spelbok.rl.encoding` and :mod:`spelbok.rl.pettingzoo` wrap what
these return in arrays.
"""
