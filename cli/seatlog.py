"""What a person at a seat of ``spelbok play`` is told: now :mod:`spelbok.play.seatlog`
(the browser table tells a seat the same); these names stay importable from here."""

from spelbok.play.seatlog import PlayerWords, SeatLog, _seat_narrator, _spoken, score_name

__all__ = ["PlayerWords", "SeatLog", "_seat_narrator", "_spoken", "score_name"]
