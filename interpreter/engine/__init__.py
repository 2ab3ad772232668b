"""Stage 3, the engine: a canonical spec compiled into a program, and the match state that runs it.

- :mod:`.compiler` turns the model into a :class:`~.program.Program` (a flat
  instruction list, :mod:`.steps`); :mod:`.trick` owns the trick (legal cards,
  the winner, refusal reasons, knocking, its instructions); :mod:`.exchange` the
  exchange; :mod:`.order` the card-order tables per trump;
- :mod:`.state` is the match (ints, bitmasks, small lists); :mod:`.actions` the
  moves and their notation; :mod:`.subsets` the lazy list of an exchange's moves;
- :mod:`.rng` the seeded shuffles; :mod:`.observe` views and determinizations;
  :mod:`.snapshot` to and from JSON; :mod:`.position` starting from a position;
- :mod:`.game` ties it together: ``load``, ``Game.new_state``.

The modules named in ``HOT`` (``spelbok._native``) are compiled with mypyc.
"""
