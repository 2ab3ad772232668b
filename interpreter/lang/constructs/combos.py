"""Plays of several cards at once (``tricks.combos``: pairs, runs of pairs that the
others follow in kind) and a trump rank that follows a formula (``ranking.trump_rank``).

The engine's part is :mod:`spelbok.engine.combos` (:class:`ComboPlay`, the order
tables of a trump rank).  This module gives the ``tricks`` home and the ``ranking``
section their keys, grammar, reading, writing, prose and checks.

>>> [f.name for f in FIELDS], TRUMP_RANK.name
(['combos'], 'trump_rank')
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from ...errors import did_you_mean
from .. import dsl_text as t
from .. import prose as p
from ..declare import Field
from ..dsl_nodes import is_node

if TYPE_CHECKING:
    from ..checks import _Checker
    from ..compile_checks import Typer
    from ..describe import _Ctx
    from ..dsl_build import _Builder

__all__ = ["FIELDS", "GRAMMAR", "KINDS", "RANK_GRAMMAR", "READERS", "TRUMP_RANK", "check",
           "compile_check", "compile_check_ranking", "describe", "describe_rank",
           "read_trump_rank", "write", "write_rank"]

Path = tuple[Any, ...]
#: The kinds of play (the engine's ``KINDS``, in the same order).
KINDS: tuple[str, ...] = ("single", "pair", "tractor", "throw")

FIELDS: tuple[Field, ...] = (
    Field("combos", "list[word]", "the kinds of play a leader may make, several cards at "
          "once: `single` (one card), `pair` (two copies of one card), `tractor` (two or "
          "more pairs next to each other in their suit's order), `throw` (several of them "
          "at once, all of one suit or all trumps, each one that no other hand could beat: "
          "when one could be, the leader plays instead the one of fewest cards, then the "
          "lowest, that could, and `failed_throws` counts it); the others play as many "
          "cards, following in kind (notation `pair 7H 7H`, `throw AH AH KH`); a throw is "
          "beaten only by an all-trump play of its shape (its first component's top "
          "decides); of equal plays `ranking.equal_best` says which wins", default=[], omitted=True,
          schema_doc="The kinds of play a leader may make (single, pair, tractor, throw: "
                     "several unbeatable ones of one suit at once): the others play as "
                     "many cards, a pair to a pair and a tractor to a tractor when they "
                     "can."),
)

#: ``ranking.trump_rank`` (the ranking's field list takes it from here).
TRUMP_RANK: Field = Field(
    "trump_rank", "formula", "a rank whose cards are all trumps, named by a formula read as "
    "each hand starts and when trump is set (e.g. a side's level): they rank below the top "
    "trumps and above the trump suit, the trump suit's own above the others, which are "
    "equal (the first played wins); the rank leaves its suits' order", omitted=True)

GRAMMAR = r"""
// plays of several cards (tricks.combos)
combos: "the" "leader" "may" "play" ":" word ("," word)* _NL
"""

RANK_GRAMMAR = r"""
trump_rank: "trump" "rank" "follows" formula _end _sources?
"""


def _read_combos(b: _Builder, c: Any, kind: str, tricks: dict[str, Any], tp: Path,
                 verbs: list[Any]) -> None:
    words = [x for x in c.children if is_node(x, "word")]
    b.put(tricks, (*tp, "combos"), [b.word(w) for w in words], c,
          "the kinds of play a leader may make")
    b.mark_items((*tp, "combos"), words)


#: The reader of its line, by grammar rule (the tricks home's reader calls it).
READERS: dict[str, Callable[..., None]] = {"combos": _read_combos}


def read_trump_rank(b: _Builder, st: Any) -> None:
    """Reads ``trump rank follows FORMULA`` in the ranking."""
    ranking = b.section("ranking", st)
    node = next(x for x in st.children if is_node(x, "formula"))
    b.put(ranking, ("ranking", "trump_rank"), b.formula(node), node, "the trump rank")
    b.citation(st, ranking, ("ranking",))


def write(out: t.Out, ind: int, tr: Mapping[str, Any]) -> None:
    """Its line, when the step lists kinds of play."""
    kinds = list(tr.get("combos") or [])
    if kinds:
        out.add(ind, "the leader may play: " + ", ".join(t.word(k) for k in kinds))


def write_rank(ranking: Mapping[str, Any]) -> list[str]:
    """The ranking's line of a trump rank (none without one)."""
    if ranking.get("trump_rank") is None:
        return []
    return [f"trump rank follows {t.formula(ranking['trump_rank'])}"]


def describe(ctx: _Ctx, tr: Mapping[str, Any]) -> list[str]:
    """Its sentences (none without kinds of play)."""
    kinds = [str(k) for k in tr.get("combos") or []]
    if not kinds:
        return []
    return ([f"The leader may lead {p.or_(kinds, 'or')}: a pair is two copies of one card, a "
            "tractor two or more pairs next to each other in their suit's order (write: "
            "pair 7H 7H). Each other player plays as many cards: as many of the suit led as "
            "he holds; a pair to a pair and a tractor to a tractor when he holds one, else "
            "as many pairs as he can; then any cards. A play wins only when it is of the "
            "lead's kind, in the suit led or wholly in trumps, and higher; of equal plays "
            "the first keeps the trick (unless the ranking says otherwise of equal cards)."]
            + ([_THROW] if "throw" in kinds else []))


_THROW = ("A throw is several such plays at once, all of one suit or all trumps, split into "
          "its longest tractors, then its pairs, then its singles; each must be one that "
          "no other player's hand could beat with a higher play of its kind in its suit. "
          "When one could be beaten the throw fails: the leader plays instead, of those "
          "that could be, the one of fewest cards, then the lowest, and the failure counts "
          "in failed_throws. To a throw each other player plays as many cards: as many of "
          "the suit as he holds; when he holds more, a tractor as long for each tractor "
          "(else as many pairs) and a pair for each pair, as far as he can. Only a play "
          "wholly in trumps that splits into the throw's shape can beat it, a higher one by "
          "its first component's top card.")


def describe_rank(ranking: Mapping[str, Any]) -> list[str]:
    """The ranking's sentence of a trump rank."""
    rank = ranking.get("trump_rank")
    if rank is None:
        return []
    return p.wrap(f"Every card of the rank {p.formula(rank)} (read as each hand starts) is a "
                  "trump: below the top trumps, above the rest of the trump suit, the trump "
                  "suit's own above the others, which are equal (the first played wins). "
                  "That rank leaves the order of its suits.")


def check(chk: _Checker, path: Path, body: Mapping[str, Any]) -> None:
    """Each kind is known, and pairs need a pack with copies."""
    kinds = body.get("combos") or []
    copies = chk.cards.copies if chk.cards is not None else 1
    for i, k in enumerate(kinds):
        at = (*path, "combos", i)
        if k not in KINDS:
            chk.err(at, f"'{k}' is not a kind of play: the kinds are {', '.join(KINDS)}",
                    did_you_mean(str(k), list(KINDS)))
        elif k != "single" and copies < 2:
            chk.err(at, f"a {k} is two copies of a card, but the pack has one copy of each",
                    "declare the pack with `copies: 2`")


def compile_check(c: Typer, t_: Mapping[str, Any], p_: Path, plain: bool) -> None:
    """Plays of several cards go with a plain trick play only."""
    if t_.get("combos") and not plain:
        c.error((*p_, "combos"), "plays of several cards cannot yet be made in a tricks "
                "step with card-play mechanics (trump named by a lead, free, losing or kept "
                "cards, face-down plays, declarations, announcements, a dummy)")
    if t_.get("combos") and t_.get("abstain") not in (None, False, "false"):
        c.error((*p_, "combos"), "plays of several cards cannot yet be made in a tricks "
                "step where a player may abstain")


def compile_check_ranking(c: Typer, tree: dict[str, Any], path: Path) -> None:
    """The trump rank's formula; no modes beside it (not yet)."""
    ranking = tree.get("ranking") or {}
    if ranking.get("trump_rank") is None:
        return
    c.formula(ranking["trump_rank"], ("ranking", "trump_rank"), False)
    if tree.get("modes"):
        c.error(("ranking", "trump_rank"), "a trump rank cannot yet be combined with modes")
