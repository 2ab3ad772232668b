"""Stage 3, the engine: a canonical spec compiled into a program, and the match state that runs it.

- :mod:`.compiler` turns the model into a :class:`~.program.Program` (a flat
  instruction list; the shared base in :mod:`.steps`): it resolves the formulas'
  names once (:mod:`.resolver`, over the run-time library :mod:`.readers`) and
  calls each step kind's compile step, which sits beside that kind's
  instructions (:mod:`.flow`, :mod:`.deal`, :mod:`.decide`, :mod:`.tricks`,
  :mod:`.stock`, :mod:`.auction`, :mod:`.passing`, :mod:`.patterns`,
  :mod:`.melds`); :mod:`.trick` owns the trick in progress (``Trick``, the value
  ``State.trick`` holds) and its rules (legal cards, the winner, refusal reasons), :mod:`.trick_play` and :mod:`.card_play` the instructions
  that play it; :mod:`.exchange` the exchange; :mod:`.order` the card-order
  tables per trump;
- :mod:`.state` is the match (ints, bitmasks, small lists); :mod:`.actions` the
  moves and their notation; :mod:`.subsets` the lazy list of an exchange's moves;
- :mod:`.rng` the seeded shuffles; :mod:`.observe` views and determinizations;
  :mod:`.snapshot` to and from JSON; :mod:`.position` starting from a position;
- :mod:`.game` ties it together: ``load``, ``Game.new_state``.

The modules named in ``HOT`` (``spelbok._native``) are compiled with mypyc.
"""
