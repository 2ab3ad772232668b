"""The ``auction`` step compiled: its start, its bids (each in turn, or with doubles out of
turn: ``auction_doubling``), the trump, the called card, then its ``all_pass`` steps.

The auction's instructions live in ``auction`` and ``auction_doubling``; this driver picks
and wires them, so neither imports the other's choice.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..lang import vocabulary as _v
from .auction import (
    DECLARERS,
    HOLDS,
    MODES,
    AuctionBid,
    AuctionCall,
    AuctionStart,
    AuctionTrump,
    Rules,
)
from .auction_doubling import AnyTurnBid
from .flow import Redeal
from .steps import Fn, Instr, Jump, Path, const

if TYPE_CHECKING:
    from .compiler import Compiler


def compile_auction(c: Compiler, step: dict[str, Any], path: Path, code: list[Instr]) -> None:
    """An ``auction`` step: its start, bids, trump and called card, then its ``all_pass`` steps
    (by default a redeal), skipped when someone bids."""
    d = step["auction"]
    p = (*path, "auction")
    first = c.contract_first.get(path, 0)
    count = len(d.get("contracts", []))
    mode = c.constant(d.get("partner", "none"), (*p, "partner"), MODES)
    ranks = tuple(c.pack.rank_index[str(r).upper()] for r in d.get("called_ranks", ["A"])
                  ) if mode == "called_card" else ()  # a pack may have no ace
    rules = Rules(c.contracts, first, count, MODES.index(mode), ranks,
                  c.resolver.team_of)
    rules.once = c.constant(d.get("speak", "any"), (*p, "speak"), ("any", "once")) == "once"
    doubling = c.constant(d.get("doubling", "open"), (*p, "doubling"),
                          _v.words("auction", "doubling"))
    rules.closes = doubling != "open"  # any_turn: a double out of turn closes it too
    rules.rank_order = c.constant(d.get("call", "not_held"), (*p, "call"),
                                  ("not_held", "rank_order")) == "rank_order"
    if rules.rank_order:
        c.calls_own = True  # a sample may deal the called card to the declarer (observe)
    rules.hold = HOLDS.index(c.constant(d.get("hold", "none"), (*p, "hold"), HOLDS))
    rules.first_to_name = c.constant(d.get("declarer", "highest"), (*p, "declarer"),
                                     DECLARERS) == "first_to_name"
    if mode == "called_card" and d.get("call_allow", True) not in (True, "true"):
        rules.call_allow = c.formula(d["call_allow"], (*p, "call_allow"), True)
    for i, k in enumerate(d.get("contracts", [])):
        allow = k.get("allow", True)
        if allow is not True and allow != "true":
            rules.allow[i] = c.formula(allow, (*p, "contracts", i, "allow"), True)
        ends = k.get("ends", False)
        if ends is not False and ends != "false":
            rules.ends[i] = c.formula(ends, (*p, "contracts", i, "ends"), True)

    def cond(key: str, default: bool) -> Fn:
        v = d.get(key, default)
        return const(v) if isinstance(v, bool) else c.formula(v, (*p, key), False)

    last = d.get("last_word", False)
    if last not in (False, "false"):
        rules.last_word = cond("last_word", False)
    code.append(AuctionStart(rules, c.number(d.get("first", "(dealer + 1) % seats"),
                                             (*p, "first"), False),
                             cond("pass_final", True), cond("double", False),
                             cond("redouble", False)))
    if doubling == "any_turn":
        code.append(AnyTurnBid(rules))
    else:
        code.append(AuctionBid(rules))
    pack = c.pack
    suits = tuple(sorted({pack.suit[k] for k in c.deck if pack.suit[k] >= 0}))
    code.append(AuctionTrump(rules, suits, None if c.pack.french else c.pack))
    code.append(AuctionCall(rules))
    skip = Jump()
    code.append(skip)
    rules.all_pass = len(code)
    after = d.get("all_pass") or []
    if after:
        c.compile_steps(after, (*p, "all_pass"), code)
    else:
        code.append(Redeal(False))
    skip.target = len(code)


__all__ = ["compile_auction"]
