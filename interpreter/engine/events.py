"""The kinds of event a match records in ``state.log``, declared once.

Each step that records an event calls ``State.event(kind, ...)`` with one of these
kinds; a test reads the engine's sources and fails for a kind not declared here (and
for a declared kind no step records), and another fails for a kind the terminal's
narrator (``spelbok.view.narrator.Narrator``) has no renderer for.  An event may name
cards a seat does not see (a deal, a pass, a face-down play): the log is the whole
truth, and what a seat is shown of it is the renderer's business.

Each kind maps to its fields, and the fields that may name cards hidden from some
seat are marked ``(hidden)``.
"""

from __future__ import annotations

from typing import Final

EVENTS: Final[dict[str, str]] = {
    "cut": "cards: [[seat, card], ...] drawn to choose the first dealer (shown to all)",
    "cut_tie": "among: the seats tied at a cut, chosen: the seat picked",
    "first_dealer": "dealer, how: random, cut_low or cut_high",
    "hand": "number, dealer: a hand begins",
    "sitting_out": "seats: the seats sitting this hand out (the spec's sit_out), after its "
                   "hand event",
    "deal": "dealer, hands (hidden): each seat's dealt cards",
    "turn_up": "card, trump, seat (when from the dealer's hand): a card shown to all",
    "move": "seat, source, target, cards (a number), shown, position: cards moved "
            "between zones; shown only when they came face up",
    "draw": "seat, cards (a number): a card drawn face down from the stock",
    "pass_start": "direction: cards are about to be passed",
    "pass": "seat, to, cards (hidden): the cards a seat passes",
    "passed": "received (hidden): the cards each seat receives",
    "exchange": "seat, decision, gave (hidden), got (hidden), shown (cards given shown to all), "
                "to (where the given cards went): an exchange with a zone",
    "decision": "seat, decision, action, shown: a public decision (a bid, a word, a suit; an "
                "announcement, with the cards of his hand it shows to all; to_play: the "
                "player to play, when the announcement is made out of turn)",
    "contract": "contract, declarer, doubled, trump: an auction's outcome",
    "all_passed": "every seat passed in an auction",
    "trump": "trump, chosen_by, card: the trump suit is set",
    "mode": "mode: a mode of the `modes` section is put in force (its ranking, top trumps "
            "and card points)",
    "melds": "seat, melds, points, cards, beaten: melds declared (cards shown to all, when "
             "shown; beaten: another side's better meld leaves them worth nothing)",
    "melds_shown": "seat, cards: the cards of melds declared earlier shown to all",
    "melds_beaten": "seat: melds declared earlier (waiting), compared: another side's "
                    "better meld leaves them worth nothing",
    "pattern": "pattern, seat: the best hand pattern held",
    "dummy": "seat, cards: the dummy's hand laid face up after the opening lead (shown to all)",
    "knock": "seat: a knock with a card play",
    "declare": "seat, word, card: a declaration made with a card played face up",
    "face_down": "seat, card (hidden): a card played face down",
    "blind": "seat, card: a card played blind for its player (tricks.blind)",
    "throw_failed": "seat, cards, played: a throw another hand could beat, shown to all; the "
                    "part that could be beaten is played instead (tricks.combos: throw)",
    "trick": "number, cards (hidden when played face down), winner: a trick is complete",
    "stock_closed": "closed, by: the stock is closed (or opened)",
    "set": "var, value, seat: a declared variable changes (variables are public)",
    "eliminated": "seat: a seat is out of the match",
    "end_hand_early": "the hand ends before its tricks are played",
    "tricks_ended": "seat: an announcement ends the tricks, the trick in progress abandoned",
    "redeal": "dealer: no play, the cards are dealt again",
    "end_hand": "tricks, scores, out: a hand is over",
    "match_end": "winners, scores, limit_reached: the match is over",
    "position": "phase, scores: a match set up at a position (spelbok.engine.position)",
}

__all__ = ["EVENTS"]
