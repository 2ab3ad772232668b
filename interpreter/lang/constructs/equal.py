"""A family of the ranking: cards of equal power (``equal_cards``) and what happens when
the best cards of a trick are equal (``equal_best``: the first played wins, the last
played wins, or the trick is tied and won by nobody).

The engine plays them: :func:`spelbok.engine.order.equal_cards` gives each group the
power of its highest card, :func:`spelbok.engine.trick.equal_best` is the rule (in the
one winner rule, ``Trick``).  This module gives the ranking home their keys, grammar,
reading, writing, prose and checks.

>>> [f.name for f in FIELDS]
['equal_cards', 'equal_best', 'equal_best_cards']
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ...cards import FRENCH
from ...errors import did_you_mean
from .. import dsl_text as t
from .. import prose as p
from ..declare import Field, words_of
from ..dsl_nodes import is_node

if TYPE_CHECKING:
    from ..checks import _Checker as Checker
    from ..describe import _Kit as DescribeKit
    from ..dsl_build import _Builder as Builder

__all__ = ["BUILDS", "ENTRIES", "FIELDS", "GRAMMAR", "check", "describe", "write"]

FIELDS: tuple[Field, ...] = (
    Field("equal_cards", "list[card_group]", "groups of cards of equal power: each card of a "
          "group ranks as the group's highest (e.g. `[[3C, 3H, 3S, 3D]]`: the threes are "
          "equal whatever their order among the top trumps); see `equal_best`",
          default=[], omitted=True, doc_type="list of card lists"),
    Field("equal_best", "word", "when the best cards of a trick are equal (copies of a "
          "card, or cards of one `equal_cards` group): which wins it", default="first",
          omitted=True,
          words=words_of(("first", "the first played"),
                         ("last", "the last played"),
                         ("tie", "neither, when they were played by different sides (teams, "
                                 "or seats without teams): the trick is tied and won by "
                                 "nobody (`tied_tricks`, `tied_by`) and its leader leads "
                                 "again (`last_winner`); a higher card played after them "
                                 "wins it as usual"))),
    Field("equal_best_cards", "list[card]", "the cards `equal_best` holds for (absent: every "
          "card): of two other equal cards the first played wins (e.g. `[TH]`: the later "
          "of two copies of that card alone takes the trick)", default=[], omitted=True),
)
RULES: tuple[str, ...] = tuple(w.name for w in FIELDS[1].words)  # equal_best's words

GRAMMAR = r"""
// cards of equal power (ranking.equal_cards, ranking.equal_best)
equal_cards: "cards" "of" "equal" "power" ":" card+ _end _sources?
equal_best: equal_rule _end _sources?
equal_rule: "of" "equal" "best" "cards" "the" "first" "played" "wins"  -> equal_first
          | "of" "equal" "best" "cards" "the" "last" "played" "wins"   -> equal_last
          | "equal" "best" "cards" "tie" "the" "trick"                  -> equal_tie
          | "equal" "best" "cards" ":" word                             -> equal_word
equal_best_cards: "the" "rule" "for" "equal" "best" "cards" "holds" "only" "for" ":" card+ _end _sources?
"""
#: Its grammar rules that are sections' statements.
ENTRIES: tuple[str, ...] = ("equal_cards", "equal_best", "equal_best_cards")


def read_equal_cards(b: Builder, st: Any) -> None:
    """Reads ``cards of equal power: 3C 3H 3S 3D`` (one group a line)."""
    items = [c for c in st.children if is_node(c, "card")]
    ranking = b.section("ranking", st)
    groups = ranking.setdefault("equal_cards", [])
    groups.append([b.card(c) for c in items])
    b.citation(st, ranking, ("ranking",))


def read_equal_best(b: Builder, st: Any) -> None:
    """Reads ``of equal best cards the first played wins`` (or the last, or ``equal best
    cards tie the trick``, or ``equal best cards: <option>``)."""
    rule = st.children[0]
    value = {"equal_first": "first", "equal_last": "last", "equal_tie": "tie"}.get(rule.data)
    if value is None:
        value = b.word(rule.children[0])
    ranking = b.section("ranking", st)
    b.put(ranking, ("ranking", "equal_best"), value, st, "the rule for equal best cards")
    b.citation(st, ranking, ("ranking",))


def read_equal_best_cards(b: Builder, st: Any) -> None:
    """Reads ``the rule for equal best cards holds only for: 10H``."""
    items = [c for c in st.children if is_node(c, "card")]
    ranking = b.section("ranking", st)
    b.put(ranking, ("ranking", "equal_best_cards"), [b.card(c) for c in items], st,
          "the cards the rule for equal best cards holds for")
    b.citation(st, ranking, ("ranking",))


#: The reader of each of its grammar rules.
BUILDS = {"equal_cards": read_equal_cards, "equal_best": read_equal_best,
          "equal_best_cards": read_equal_best_cards}


def write(out: t.Out, ranking: Mapping[str, Any]) -> list[str]:
    """Its DSL lines (none at the defaults), which the ranking writes."""
    got = ["cards of equal power: " + " ".join(t.card(str(c), out) for c in group)
           for group in ranking.get("equal_cards") or []]
    rule = ranking.get("equal_best", "first")
    if "equal_best" in ranking and (rule != "first" or got):
        got.append({"first": "of equal best cards the first played wins",
                    "last": "of equal best cards the last played wins",
                    "tie": "equal best cards tie the trick"}.get(
                        str(rule), f"equal best cards: {t.word(rule)}"))
    if ranking.get("equal_best_cards"):
        got.append("the rule for equal best cards holds only for: "
                   + " ".join(t.card(str(c), out) for c in ranking["equal_best_cards"]))
    return got


def describe(ctx: DescribeKit, tree: Mapping[str, Any]) -> list[str]:
    """Its sentences: the groups of equal cards, and the rule for equal best cards."""
    r = tree.get("ranking") or {}
    pack = ctx.declared_pack(tree)
    out: list[str] = []
    groups = r.get("equal_cards") or []
    if groups:
        named = "; ".join(" ".join(ctx.card(c, pack) for c in g) for g in groups)
        out += p.wrap(f"Cards of equal power (each ranks as the highest of its group): {named}.")
    if "equal_best" not in r and not groups:
        return out
    rule, note = ctx.enum(r.get("equal_best", "first"), RULES)
    text = {
        "first": "When the best cards of a trick are equal, the first of them played wins it",
        "last": "When the best cards of a trick are equal, the last of them played wins it",
        "tie": "When the best cards of a trick are equal and were played by different sides, "
               "the trick is tied: nobody wins it, and its leader leads again (the builtins "
               "tied_tricks and tied_by tell it); a higher card played after them still wins it",
    }[rule]
    only = r.get("equal_best_cards") or []
    if only:
        text += (" (this holds for " + " ".join(ctx.card(c, pack) for c in only)
                 + " alone: of other equal cards the first played wins)")
    return out + p.wrap(text + note + ".")


def check(ck: Checker, tree: Mapping[str, Any]) -> None:
    """Each group names two cards or more, cards of the pack, and a card is in one group
    only (reported at its second place, naming the first)."""
    ranking = tree["ranking"]
    groups = ranking.get("equal_cards") or []
    if tree.get("pack") and ck.cards is None:
        return  # a bad pack is reported already
    pack = ck.cards or FRENCH
    first: dict[int, tuple[int, int]] = {}
    for i, group in enumerate(groups):
        at = ("ranking", "equal_cards", i)
        if len(group) < 2:
            ck.err(at, "a group of equal cards names two cards or more (a card alone is "
                   "equal only to itself)")
        for j, name in enumerate(group):
            card = pack.parse_card(str(name))
            if card is None:
                ck.err((*at, j), f"'{name}' is not a card" + ("" if pack.french else " of the pack"),
                       did_you_mean(str(name).upper(), sorted(set(pack.names))))
                continue
            if card in first:
                gi, gj = first[card]
                file, line, col = ck.doc.locate(("ranking", "equal_cards", gi, gj))
                where = ":".join(str(x) for x in (file, line, col) if x is not None)
                ck.err((*at, j), f"the card '{name}' is in two groups of equal cards (first "
                       f"in group {gi + 1}, at {where}): a card has one power")
                continue
            first[card] = (i, j)
    if "equal_best" in ranking:
        ck.enum(("ranking", "equal_best"), ranking["equal_best"], "ranking.equal_best")
    for j, name in enumerate(ranking.get("equal_best_cards") or []):
        if pack.parse_card(str(name)) is None:
            ck.err(("ranking", "equal_best_cards", j), f"'{name}' is not a card"
                   + ("" if pack.french else " of the pack"),
                   did_you_mean(str(name).upper(), sorted(set(pack.names))))
