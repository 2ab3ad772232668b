"""The audit's own measures, on top of :func:`~spelbok.analysis.sim_report.build_measures`.

What one match tells beyond its :class:`~spelbok.analysis.sim_report.MatchRecord`
is read from its event log by :func:`match_facts` (the first dealer, the dealer's
gain in each hand, which seat the stronger bot held); :func:`audit_measures`
turns a cell's matches into measures:

* ``match.decisive`` and ``match.tie``: matches with one winner, with several;
* ``match.margin``: the winner's lead over the best other seat (decisive matches);
* ``advantage.seat.K``: wins of the seat K places after the first dealer (0: the
  first dealer himself), with Wilson intervals: the seat advantage;
* ``advantage.dealer``: the dealer's score change in a hand, less the mean of
  the others', in the winning direction, per hand (a mean over matches);
* ``hand.choice.D.C``: how often decision D is answered C, per hand;
* with a skill line-up (one stronger bot, the others weaker, the stronger one
  moving one seat on each match): ``skill.strong`` and ``skill.weak`` (win rates
  of the stronger bot and of one weaker seat) and ``skill.gain``, the per-match
  difference of the two (a mean in [-1, 1]; 0: the game is all luck).

The winning direction (whether winners end with higher or lower scores) is read
from the cell's own matches, so no game is named here.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .sim_report import MatchRecord, Measure, _mean, _rate

if TYPE_CHECKING:
    from ..engine.state import State


@dataclass
class AuditRecord:
    """A match's :class:`MatchRecord` with what the audit reads from its log (picklable)."""

    match: MatchRecord
    first_dealer: int = -1
    #: per hand: the dealer's score change less the mean of the others' (raw sign)
    dealer_gain: float = 0.0
    scored_hands: int = 0
    #: the seat of the stronger bot in a skill line-up, else -1
    strong_seat: int = -1
    #: the way the turn goes (1: to the left, -1: to the right, players.direction)
    turn: int = 1


def match_facts(st: State) -> dict[str, Any]:
    """The first dealer and the dealers' summed gain over the hands of a finished match."""
    first = -1
    dealer = -1
    # the scores before the first hand: those of a new match (no hand is scored before it ends)
    before = [float(x) for x in st.game.new_state(seed=st.start["seed"]).scores]
    gain = 0.0
    hands = 0
    for ev in st.log:
        kind = ev.get("event")
        if kind == "hand":
            dealer = int(ev.get("dealer", -1))
            if first < 0:
                first = dealer
        elif kind == "end_hand":
            scores = [float(x) for x in ev.get("scores", [])]
            if 0 <= dealer < len(scores) == len(before) > 1:
                change = [a - b for a, b in zip(scores, before)]
                others = [c for p, c in enumerate(change) if p != dealer]
                gain += change[dealer] - sum(others) / len(others)
                hands += 1
            before = scores
    return {"first_dealer": first, "dealer_gain": gain, "scored_hands": hands,
            "turn": st.prog.turn}


def direction(recs: Sequence[MatchRecord]) -> int:
    """+1 when winners end with higher scores than the others, -1 when lower (0 unknown)."""
    diff = 0.0
    for r in recs:
        if not r.winners or len(r.winners) == len(r.scores):
            continue
        win = [s for p, s in enumerate(r.scores) if p in r.winners]
        lose = [s for p, s in enumerate(r.scores) if p not in r.winners]
        diff += sum(win) / len(win) - sum(lose) / len(lose)
    return 1 if diff > 0 else -1 if diff < 0 else 0


def audit_measures(recs: Sequence[AuditRecord], players: int) -> list[Measure]:
    """The audit's measures of one cell (see the module doc)."""
    ms: list[Measure] = []
    matches = [a.match for a in recs]
    n = len(matches)
    sign = direction(matches) or 1
    single = sum(1 for r in matches if len(r.winners) == 1)
    ms.append(_rate("match.decisive", "matches with one winner", "audit", single, n))
    ms.append(_rate("match.tie", "matches with tied winners", "audit",
                    sum(1 for r in matches if len(r.winners) > 1), n))
    margins = []
    for r in matches:
        if len(r.winners) == 1 and len(r.scores) > 1:
            w = r.winners[0]
            best_other = max(sign * s for p, s in enumerate(r.scores) if p != w)
            margins.append(float(sign * r.scores[w] - best_other))
    ms.append(_mean("match.margin", "winner's lead (decisive matches)", "audit", margins))
    known = [a for a in recs if a.first_dealer >= 0]
    for k in range(players):
        label = "first dealer" if k == 0 else f"{k} seat{'s' if k > 1 else ''} after the first dealer"
        ms.append(_rate(f"advantage.seat.{k}", f"wins: {label}", "advantage",
                        sum(1 for a in known
                            if (a.first_dealer + a.turn * k) % players in a.match.winners),
                        len(known)))
    ms.append(_mean("advantage.dealer", "dealer's gain over the others, per hand", "advantage",
                    [sign * a.dealer_gain / a.scored_hands for a in recs if a.scored_hands]))
    total: Counter[str] = Counter()
    for r in matches:
        total.update(r.counts)
    for key in sorted(k for k in total if k.startswith("choice:")):
        name, _, choice = key[len("choice:"):].partition(":")
        ms.append(_mean(f"hand.choice.{name}.{choice}", f"{name}: '{choice}' per hand",
                        "per hand", [r.counts.get(key, 0) / r.hands for r in matches if r.hands]))
    skilled = [a for a in recs if a.strong_seat >= 0]
    if skilled and players > 1:
        strong = sum(1 for a in skilled if a.strong_seat in a.match.winners)
        weak = [sum(1 for p in a.match.winners if p != a.strong_seat) for a in skilled]
        ms.append(_rate("skill.strong", "stronger bot's wins", "skill", strong, len(skilled)))
        ms.append(_rate("skill.weak", "a weaker seat's wins", "skill", sum(weak),
                        len(skilled) * (players - 1)))
        ms.append(_mean("skill.gain", "stronger bot's gain (its wins less a weaker seat's)",
                        "skill", [float(a.strong_seat in a.match.winners) - w / (players - 1)
                                  for a, w in zip(skilled, weak)]))
    return ms
