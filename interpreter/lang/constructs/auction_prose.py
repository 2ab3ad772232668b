"""The auction's rules in prose (describe): passing, doubling, the declarer and the
declarer's partner; beside its home, constructs/auction.py."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .. import prose as p


def _cond_text(value: Any, on: str, off: str) -> str:
    """A condition's sentence: ``on`` when true, ``off`` when false, else ``on`` when ..."""
    if value in (True, "true"):
        return on
    if value in (False, "false"):
        return off
    return f"{on[:-1]} when {p.formula(value)}."


_SPEAK = ("Each player speaks once, in turn: bids above the highest so far, or passes; the "
          "auction ends when every player has spoken.")
_HOLD = ("The bidding goes in duels. The next player still in bids to the eldest still in "
         "(counted from the first bidder), who says hold (keeping the bid at the same level) or "
         "passes; the bidder then bids higher or passes. Whoever passes drops out, and the "
         "next player bids to the one left. A player left alone with nothing bid may bid or "
         "pass.")
_IN_TURN = ("A player before the highest bidder (counted from the first bidder) may instead "
            "say hold, taking the highest bid at the same level; a later player must bid "
            "higher.")
_CLOSES = ("A double closes the bidding: only the doubled side speaks after it, each of its "
           "players once, to redouble or pass; a redouble ends the auction.")
_ANY_TURN = ("A double may come out of turn: after each bid the bidder's opponents are "
             "asked in turn, before the next player speaks, whether they double it.")
_FIRST_TO_NAME = ("The declarer is the first player of the highest bidder's side who bid the "
                  "final contract's trump (or no trump).")


def _label(name: Any) -> str:
    """A contract's name as describe speaks it (``three_spades``: "three spades").

    >>> _label("garde_sans"), _label(18)
    ('garde sans', '18')
    """
    return str(name).replace("_", " ")


def _rules(a: Mapping[str, Any]) -> list[str]:
    """The auction's rules: passing, doubling, the declarer and their partner."""
    rules = [_HOLD if a.get("hold") == "elder" else _SPEAK if a.get("speak") == "once"
             else _cond_text(a.get("pass_final", True), "A player who passes may not bid again.",
                             "A player who passed may bid again; the auction ends when all "
                             "but the highest bidder pass in a row."),
             _IN_TURN if a.get("hold") == "in_turn" else "",
             _cond_text(a.get("double", False), "An opponent of the highest bidder may double.",
                        ""),
             _cond_text(a.get("redouble", False), "The doubled bidder's side may redouble.",
                        ""),
             _cond_text(a.get("last_word", False), "When all the others pass the highest bid, "
                        "its bidder speaks once more: he may bid again or pass, which ends "
                        "the auction.", ""),
             _CLOSES if a.get("doubling") in ("closes", "any_turn") else "",
             _ANY_TURN if a.get("doubling") == "any_turn" else "",
             _FIRST_TO_NAME if a.get("declarer") == "first_to_name"
             else "The highest bidder is the declarer."]
    partner = a.get("partner", "none")
    if partner == "called_card":
        ranks = " or ".join(str(r) for r in a.get("called_ranks", ["A"]))
        if a.get("call", "not_held") == "rank_order":
            first = str(a.get("called_ranks", ["A"])[0])
            rules.append(f"The declarer calls a card of the first rank of {ranks} of which "
                         f"they do not hold every card (a {first} unless they hold them all), "
                         "one of their own too, when they then play alone; its holder is "
                         "the declarer's partner, unknown to the others until the card is "
                         "played.")
        else:
            rules.append(f"The declarer calls a card of rank {ranks} they do not hold; its "
                         "holder is the declarer's partner, unknown to the others until the "
                         "card is played.")
        allow = a.get("call_allow", True)
        if allow not in (True, "true"):
            rules.append(f"He may call only a card for which {p.formula(allow)}; with no such "
                         "card he calls none and plays alone.")
    elif partner == "teams":
        rules.append("The declarer's team mates play with them.")
    else:
        rules.append("The declarer plays alone against the others.")
    return rules
