"""What a seat is shown, as text: shared by the terminal (``cli/``), the web page's log
(:mod:`spelbok.web`) and the game-AI interfaces' ``render`` (:mod:`spelbok.rl`).

- :mod:`.text`: cards, suits, hands, tricks and scores as text (:class:`~.text.Style`:
  symbols or letters, colour, width, the game's own pack);
- :mod:`.narrator`: match events as lines, with one seat's eyes or all (:func:`~.narrator.transcript`);
- :mod:`.panel`: the table a seat sees before its decision.
"""
