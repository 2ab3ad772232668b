"""Melds: the table of named combinations of cards (the ``melds`` section and its
``meld`` part) and the ``declare_melds`` step that declares them; two homes, one
construct family.

>>> MELDS.name, DECLARE_MELDS.name, DECLARE_MELDS.group
('melds', 'declare_melds', 'step')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ...cards import FRENCH
from ...errors import did_you_mean
from .. import dsl_text as t
from .. import prose as p
from ..declare import SOURCE, Construct, Field, words_of
from ..dsl_nodes import is_node
from .home import Home

if TYPE_CHECKING:
    from ..checks import _Checker as Checker
    from ..compile_checks import Typer
    from ..describe import _Ctx as Ctx
    from ..describe import _Kit as DescribeKit
    from ..dsl_build import _Builder as Builder

__all__ = ["DECLARE_MELDS", "DECLARE_MELDS_STEP", "MELD", "MELDS"]

MELD: Construct = Construct("meld", "part", "a named combination of cards a player may declare", (
    Field("ranks", "ranks", "its ranks (with `spread`)", default=[], omitted=True),
    Field("cards", "list[card]", "instead of `ranks`: these very cards (the queen of spades "
          "and the jack of diamonds)", default=[], omitted=True),
    Field("spread", "word", "how the ranks (or a run) spread over the suits", default="one_suit",
          words=words_of(("one_suit", "all of them in one suit: each suit may make one"),
                         ("every_suit", "each of them in every suit of the deck"),
                         ("trump_suit", "all of them in the trump suit"),
                         ("plain_suit", "all of them in one suit other than trumps: each "
                          "such suit may make one"))),
    Field("run", "int", "instead of `ranks`: at least this many cards in sequence (in "
          "`order`) in one suit; each such sequence makes one", default=0,
          omitted=True, minimum=0, maximum=13),
    Field("longest", "int", "with `run`: at most this many cards in sequence (a longer "
          "sequence makes another meld); 0: no limit", default=0, omitted=True, minimum=0,
          maximum=13),
    Field("order", "ranks", "the order of ranks runs follow, high to low, and melds are "
          "compared by (`compare: best`); none: the ranking's", default=[], omitted=True),
    Field("points", "formula", "per-player number: what the meld scores, each time it is "
          "made", required=True),
    Field("double", "formula", "per-player number: what it scores made twice over (every "
          "card held twice, with copies) instead of twice `points`", default=None,
          omitted=True),
    Field("class", "word", "melds of one class never use a card twice: the earlier meld of "
          "the table takes its cards first (none: a card serves every meld)", default="",
          omitted=True),
    SOURCE,
), x_name="in meld '{key}'")

# ---------------------------------------------------------------- DSL


GRAMMAR = r"""
// a meld of the `melds` table: "meld marriage: K Q in one suit, worth 20",
// "meld four_jacks: J in every suit, worth 40", "meld sequence: run of 3 in one suit, worth 30",
// "meld tierce: run of 3 to 3 ranked A K Q J 10 9 8 7 in one suit, worth 20",
// "meld pair: cards QS JD, worth 40, doubled 300", "meld royal: K Q in trumps, class a, worth 40"
meld: "meld" word ":" meld_cards? rank* meld_run? meld_order? ("in" meld_spread)? meld_class? "," "worth" formula meld_double? _end _sources?
meld_cards: "cards" card+
meld_run: "run" "of" INT meld_longest?
meld_longest: "to" INT
meld_order: "ranked" rank+
meld_class: "," "class" word
meld_double: "," "doubled" formula
meld_spread: "one" "suit"                                   -> meld_one_suit
           | "every" "suit"                                 -> meld_every_suit
           | "trumps"                                       -> meld_trump_suit
           | "a" "plain" "suit"                             -> meld_plain_suit
           | ":" word                                       -> meld_spread_word
"""


def read_meld(b: Builder, st: Any) -> None:
    """Reads ``meld NAME: K Q in one suit, worth 20``."""
    name = st.children[0]
    melds = b.section("melds", st)
    path = ("melds", b.word(name))
    meld: dict[str, Any] = {}
    b.put(melds, path, meld, name, f"the meld '{b.word(name)}'")
    items = [c for c in st.children if is_node(c, "rank")]
    if items:
        meld["ranks"] = b.ranks(items)
        b.mark_items((*path, "ranks"), items)
    for c in st.children:
        _read_meld_part(b, c, meld, path)
    f = next(c for c in st.children if is_node(c, "formula"))
    meld["points"] = b.formula(f)
    b.mark((*path, "points"), f)
    b.citation(st, meld, path)


_SPREADS = {"meld_one_suit": "one_suit", "meld_every_suit": "every_suit",
            "meld_trump_suit": "trump_suit", "meld_plain_suit": "plain_suit"}


def _read_meld_part(b: Builder, c: Any, meld: dict[str, Any], path: tuple[Any, ...]) -> None:
    """One optional part of a meld's line: its cards, run, order, spread, class, double."""
    if is_node(c, "meld_cards"):
        items = [x for x in c.children if is_node(x, "card")]
        meld["cards"] = [b.card(x) for x in items]
        b.mark_items((*path, "cards"), items)
    elif is_node(c, "meld_run"):
        meld["run"] = int(c.children[0])
        b.mark((*path, "run"), c.children[0])
        for x in c.children[1:]:
            meld["longest"] = int(x.children[0])
            b.mark((*path, "longest"), x.children[0])
    elif is_node(c, "meld_order"):
        items = [x for x in c.children if is_node(x, "rank")]
        meld["order"] = b.ranks(items)
        b.mark_items((*path, "order"), items)
    elif is_node(c, "meld_class"):
        meld["class"] = b.word(c.children[0])
        b.mark((*path, "class"), c.children[0])
    elif is_node(c, "meld_double"):
        meld["double"] = b.formula(c.children[0])
        b.mark((*path, "double"), c.children[0])
    elif getattr(c, "data", "") in (*_SPREADS, "meld_spread_word"):
        meld["spread"] = _SPREADS.get(c.data) or b.word(c.children[-1])
        b.mark((*path, "spread"), c)


def _melds(out: t.Out, melds: Mapping[str, Any]) -> None:
    """``meld NAME: RANKS in one suit, worth FORMULA`` (or ``in every suit``, ``run of N``)."""
    for name, meld in melds.items():
        t.check(meld, t.keys(MELD), f"in meld '{name}'")
        out.blank()
        out.add(0, f"meld {t.word(name)}: {_meld_text(meld)}")
        t.source(out, 1, meld)


_SPREAD_TEXT = {"one_suit": "in one suit", "every_suit": "in every suit",
                "trump_suit": "in trumps", "plain_suit": "in a plain suit"}


def _meld_text(meld: Mapping[str, Any]) -> str:
    """What follows ``meld NAME:``: its cards, ranks or run, spread, class and values
    (``in one suit``, the default, left out only after cards)."""
    parts = ["cards", *(t.card(str(c)) for c in meld["cards"])] if meld.get("cards") else []
    parts += [str(r) for r in meld.get("ranks") or []]
    if meld.get("run") or meld.get("longest"):
        parts.append(f"run of {int(meld.get('run') or 0)}")
        if meld.get("longest"):
            parts.append(f"to {int(meld['longest'])}")
    if meld.get("order"):
        parts += ["ranked", *(t.rank(r) for r in meld["order"])]
    where = meld.get("spread", "one_suit")
    if not (meld.get("cards") and where == "one_suit"):
        parts.append(_SPREAD_TEXT.get(where) or f"in: {t.word(where)}")
    text = " ".join(parts)
    if meld.get("class"):
        text += f", class {t.word(meld['class'])}"
    text += f", worth {t.formula(meld.get('points', 0))}"
    if meld.get("double") is not None:
        text += f", doubled {t.formula(meld['double'])}"
    return text


def write(out: t.Out, tree: Mapping[str, Any]) -> None:
    """The table of melds, one line a meld."""
    _melds(out, tree.get("melds") or {})


# ---------------------------------------------------------------- describe


def describe(ctx: DescribeKit, tree: Mapping[str, Any]) -> list[str]:
    """"Melds": each meld of the table, what makes it and what it scores."""
    melds = tree.get("melds") or {}
    if not melds:
        return []
    lines = ctx.title("Melds")
    lines += p.wrap("A meld scores each time a hand makes it, when declared.")
    for name, m in melds.items():
        lines += p.wrap(f"{name}: {_meld_prose(m)}.", 4, first="  ")
        lines += p.cite(m, 6)
    return lines


def _meld_prose(m: Mapping[str, Any]) -> str:
    """What makes a meld and what it scores, in a sentence."""
    ranks = " ".join(str(r) for r in m.get("ranks") or [])
    spread = m.get("spread", "one_suit")
    suit = {"trump_suit": "the trump suit", "plain_suit": "a suit other than trumps"}.get(
        spread, "one suit")
    if m.get("cards"):
        what = "the cards " + " ".join(str(c) for c in m["cards"])
    elif m.get("run"):
        count = (f"exactly {m['run']}" if m.get("longest") == m["run"]
                 else f"{m['run']} to {m['longest']}" if m.get("longest")
                 else f"at least {m['run']}")
        what = f"{count} cards in sequence in {suit} (each sequence counts)"
    elif spread == "every_suit":
        what = f"{ranks} of every suit"
    elif spread in ("one_suit", "plain_suit"):
        what = f"{ranks} of {suit} (each suit may make one)"
    elif spread == "trump_suit":
        what = f"{ranks} of the trump suit"
    else:
        what = f"{ranks} (spread: {spread})"
    if m.get("order"):
        what += ", ranked " + " ".join(str(r) for r in m["order"])
    text = f"{what}, worth {p.formula(m.get('points', 0))}"
    if m.get("double") is not None:
        text += f"; made twice over, {p.formula(m['double'])}"
    if m.get("class"):
        text += f"; class {m['class']}: a card serves one meld of the class"
    return text


# ---------------------------------------------------------------- checks


def check(ck: Checker, tree: Mapping[str, Any]) -> None:
    """Each meld: ranks, cards or a run (one of them), that some deck of the spec can make."""
    for name, m in (tree.get("melds") or {}).items():
        at = ("melds", name)
        ck.enum((*at, "spread"), m["spread"], "meld.spread")
        ranks, run, cards = m.get("ranks") or [], m.get("run", 0), m.get("cards") or []
        if bool(ranks) + bool(run) + bool(cards) != 1:
            ck.err(at, f"the meld '{name}' needs one of 'ranks', 'cards' or 'run'"
                   + (", not more" if ranks or cards else ""), key=True)
            continue
        ck.no_repeats(ranks, (*at, "ranks"), "rank")
        ck.no_repeats(cards, (*at, "cards"), "card")
        decks = [set(map(str, e["ranks"])) for e in tree["deck"]]
        missing = [r for r in ranks if not any(str(r) in d for d in decks)]
        if missing:
            ck.err((*at, "ranks", ranks.index(missing[0])),
                   f"the meld '{name}' can never be made: no deck has the rank "
                   f"{missing[0]}")
        if run and not any(run <= len(d) for d in decks):
            ck.err((*at, "run"), f"the meld '{name}' can never be made: no deck has "
                   f"{run} ranks")
        _check_more(ck, tree, name, m)


def _check_more(ck: Checker, tree: Mapping[str, Any], name: str, m: Mapping[str, Any]) -> None:
    """A meld's cards are cards of the pack; `longest` and `order` go with a run, and
    `order` names ranks of the deck, once each; a meld of cards has no spread."""
    at = ("melds", name)
    pack = ck.cards or FRENCH
    for j, card in enumerate(m.get("cards") or []):
        if pack.parse_card(str(card)) is None:
            ck.err((*at, "cards", j), f"'{card}' is not a card" + ("" if pack.french
                                                                 else " of the pack"),
                   did_you_mean(str(card).upper(), sorted(set(pack.names))))
    if m.get("cards") and m["spread"] != "one_suit":
        ck.err((*at, "spread"), f"the meld '{name}' names its cards: it has no spread")
    run = m.get("run", 0)
    if m.get("longest") and (not run or m["longest"] < run):
        ck.err((*at, "longest"), f"the meld '{name}' has 'longest' {m['longest']} "
               + ("without a 'run'" if not run else f"below its 'run' of {run}"))
    order = m.get("order") or []
    ck.no_repeats(order, (*at, "order"), "rank")
    if run and order:
        ranks = {str(r) for e in tree["deck"] for r in e["ranks"]}
        missing = [r for r in ranks if r not in {str(x) for x in order}]
        if missing:
            ck.err((*at, "order"), f"the order of the meld '{name}' leaves out the "
                   f"rank {sorted(missing)[0]} of the deck")
    if m["spread"] == "every_suit" and run:
        ck.err((*at, "spread"), f"the run meld '{name}' cannot spread over every suit")


#: The table of melds (a key of the top level).
MELDS: Home = Home(
    None, parts=(MELD,),
    grammar=GRAMMAR,
    entries=("meld",),
    builds={"meld": read_meld},
    write=write,
    describe=describe,
    check=check,
    keys=(Field("melds", "names[meld]", "named combinations of cards (declared by a "
                "`declare_melds` step), see below", default={}, omitted=True,
                doc_type="map name → meld"),),
)

#: The step in which each player declares the melds of their hand.
DECLARE_MELDS_STEP: Construct = Construct(
    "declare_melds", "step", "each player declares the melds of their hand",
    body=(
        Field("show", "condition", "the cards of the melds that count are shown to every "
              "player", default=True),
        Field("choose", "condition", "each player picks the melds they declare, one at a "
              "time (by name), then says `done`: a meld kept back scores nothing and shows "
              "nothing; false: every meld the hand makes is declared", default=False,
              omitted=True),
        Field("compare", "word", "which melds count", default="total", omitted=True,
              words=words_of(("total", "every player's declared melds"),
                             ("best", "only the side (team) holding the best single meld "
                              "scores its melds: the highest points, then the most cards, "
                              "then the highest top card (in the meld's `order`), then "
                              "one in trumps"))),
        Field("tie", "word", "with `compare: best`, melds equal on every count",
              default="none", omitted=True,
              words=words_of(("none", "no side scores"),
                             ("forehand", "the side of the first player from forehand "
                              "holding one scores"))),
        Field("reveal", "condition", "declare nothing: show the cards of the melds that "
              "counted at the last declare_melds step, those still held (melds announced "
              "first and shown later)", default=False, omitted=True),
        Field("wait", "condition", "the declarations wait, kept beside those others made "
              "earlier in the hand (each player declares in his turn, e.g. from an "
              "announcement's `steps` at his first card): nothing is compared until a "
              "step with `settle`; `meld_points` is each one's own meanwhile, and `show` "
              "shows his declared cards at once", default=False, omitted=True),
        Field("settle", "condition", "declare nothing: compare the declarations that "
              "waited (`wait`) by `compare` and `tie`; with `show`, the cards of the melds "
              "that count, still held, are shown", default=False, omitted=True),
        SOURCE,
    ),
    fields=(Field("for", "formula", "per-player condition: who declares", default="not out"),),
    schema_doc="Each player (`for`) declares the melds of the `melds` table in their hand "
               "(all, or with `choose` those they pick): `meld_points` is what they score "
               "(`compare: best`: only the side of the best meld); with `show`, their cards "
               "become public (`reveal`: later).")

# ---------------------------------------------------------------- the declare_melds step

STEP_GRAMMAR = r"""
// every player (or those `for each player where …,` names) declares the melds of the table:
// "declare melds, by choice, best meld counts, ties to forehand, not shown";
// "reveal declared melds" shows the cards of the melds declared earlier
// "for each player where seat == melder, declare melds, by choice, waiting, not shown" keeps
// the hand's earlier declarations; "settle declared melds, best meld counts" compares them
declare_melds: for_each? "declare" "melds" _melds_opts _end _attrs?
             | for_each? "reveal" "declared" "melds" _melds_opts _end _attrs? -> reveal_melds
             | for_each? "settle" "declared" "melds" _melds_opts _end _attrs? -> settle_melds
_melds_opts: melds_choose? melds_wait? melds_compare? melds_tie? melds_show? melds_reveal_if? melds_settle_if?
melds_settle_if: "," "settled" ("if" formula)?
melds_wait: "," "waiting" ("if" formula)?
melds_choose: "," "by" "choice" ("if" formula)?
melds_compare: "," "best" "meld" "counts"                  -> melds_best
             | "," "compared" ":" word
melds_tie: "," "ties" "to" "forehand"                      -> melds_tie_forehand
         | "," "ties" ":" word
melds_show: "," "not" "shown"                               -> melds_hidden
          | "," "shown" "if" formula                        -> melds_shown_if
melds_reveal_if: "," "revealed" "if" formula
"""


def read_step(b: Builder, st: Any, step: dict[str, Any], path: tuple[Any, ...]) -> None:
    """Reads ``[for each player where …,] declare melds[, by choice][, best meld counts][,
    ties to forehand][, not shown | , shown if …]`` (or ``reveal declared melds``)."""
    body: dict[str, Any] = {"reveal": True} if st.data == "reveal_melds" else \
        {"settle": True} if st.data == "settle_melds" else {}
    step["declare_melds"] = body
    at = (*path, "declare_melds")
    b.mark(at, st)
    for c in st.children:
        if is_node(c, "for_each"):
            value, node = (b.formula(c.children[0]), c.children[0]) if c.children \
                else ("true", c)
            b.put(step, (*path, "for"), value, node, "who declares")
        elif getattr(c, "data", "") in _OPTION_READS:
            key, what, read = _OPTION_READS[c.data]
            b.put(body, (*at, key), read(b, c), c.children[0] if c.children else c, what)
    b.attrs(st, step, path)


def _formula_or_true(b: Builder, c: Any) -> Any:
    return b.formula(c.children[0]) if c.children else True


#: each option of the step's line: its key, what it says (for a repeat) and its value
_OPTION_READS: dict[str, tuple[str, str, Any]] = {
    "melds_choose": ("choose", "whether melds are picked", _formula_or_true),
    "melds_wait": ("wait", "whether declarations wait", _formula_or_true),
    "melds_settle_if": ("settle", "whether declarations are settled", _formula_or_true),
    "melds_best": ("compare", "which melds count", lambda b, c: "best"),
    "melds_compare": ("compare", "which melds count", lambda b, c: b.word(c.children[0])),
    "melds_tie_forehand": ("tie", "a tie of melds", lambda b, c: "forehand"),
    "melds_tie": ("tie", "a tie of melds", lambda b, c: b.word(c.children[0])),
    "melds_hidden": ("show", "whether melds are shown", lambda b, c: False),
    "melds_shown_if": ("show", "whether melds are shown", lambda b, c: b.formula(c.children[0])),
    "melds_reveal_if": ("reveal", "whether melds are revealed",
                        lambda b, c: b.formula(c.children[0])),
}


def write_step(out: t.Out, indent: int, step: Mapping[str, Any]) -> None:
    """``[for each player where …,] declare melds[, by choice][, best meld counts…][, not
    shown | , shown if …]``, or ``reveal declared melds``."""
    t.check(step, t.keys(DECLARE_MELDS_STEP), "in a declare_melds step")
    body = step["declare_melds"] or {}
    t.check(body, t.keys(DECLARE_MELDS_STEP, body=True), "in 'declare_melds'")
    head = ""
    each = step.get("for")
    if each is not None and t.formula(each) != "not out":
        head = ("for each player, " if t.formula(each) == "true"
                else f"for each player where {t.formula(each)}, ")
    show = body.get("show", True)
    choose = body.get("choose", False)
    tail = ("" if choose is False else ", by choice" if choose is True
            else f", by choice if {t.formula(choose)}")
    wait = body.get("wait", False)
    tail += ("" if wait is False else ", waiting" if wait is True
             else f", waiting if {t.formula(wait)}")
    compare = body.get("compare", "total")
    tail += ("" if compare == "total" else ", best meld counts" if compare == "best"
             else f", compared: {t.word(compare)}")
    tie = body.get("tie", "none")
    tail += ("" if tie == "none" else ", ties to forehand" if tie == "forehand"
             else f", ties: {t.word(tie)}")
    tail += ("" if show is True else ", not shown" if show is False
             else f", shown if {t.formula(show)}")
    reveal = body.get("reveal", False)
    if reveal not in (True, False):
        tail += f", revealed if {t.formula(reveal)}"
    settle = body.get("settle", False)
    verb = ("reveal declared melds" if body.get("reveal") is True
            else "settle declared melds" if settle is True else "declare melds")
    if settle is not False and not verb.startswith("settle"):
        tail += ", settled" if settle is True else f", settled if {t.formula(settle)}"
    out.add(indent, f"{head}{verb}{tail}")
    out.attrs(indent + 1, step, "declare-melds")


def describe_step(ctx: Ctx, step: Mapping[str, Any], number: str,
                  sub: int) -> tuple[str, list[str], list[str]]:
    """Who declares, which melds (all, or picked), which count, whether shown."""
    body = step["declare_melds"]
    if body.get("reveal") is True:
        return ("Each player shows to all the cards of the melds that counted at the last "
                "declaration, those still in his hand.", [], p.cite(body, sub))
    if body.get("settle") is True:
        return _settle_prose(body), [], p.cite(body, sub)
    each = step.get("for", "not out")
    who = ("Each player still in" if each == "not out" else "Each player" if each in (True, "true")
           else f"Each player where {p.formula(each)}")
    show = body.get("show", True)
    shown = (" and shows their cards to all" if show is True else "" if show is False
             else f" and, when {p.formula(show)}, shows their cards to all")
    what = ("the melds they pick among those their hand makes, one at a time, then says "
            "'done' (a meld kept back scores nothing and stays hidden)"
            if body.get("choose") is True else "the melds their hand makes")
    text = f"{who}, from forehand, declares {what}{shown}; `meld_points` is what they score."
    if body.get("wait", False) is not False:
        text = (f"{who} declares {what}{shown}, beside the declarations others made earlier "
                "in the hand; nothing is compared until the declarations are settled, and "
                "meanwhile `meld_points` is each one's own.")
        if body.get("wait") is not True:
            text += f" (When {p.formula(body['wait'])} does not hold, it replaces them.)"
        return text, [], p.cite(body, sub)
    return text + _best_prose(body), [], p.cite(body, sub)


def _settle_prose(body: Mapping[str, Any]) -> str:
    """A step that settles the declarations that waited."""
    show = body.get("show", True)
    text = "The declarations made so far in the hand are settled" + (
        "" if show is False else ": the cards of the melds that count, those still held, "
        "are shown to all" if show is True
        else f"; when {p.formula(show)}, the cards of the melds that count, still held, "
        "are shown to all") + "."
    return text + _best_prose(body)


def _best_prose(body: Mapping[str, Any]) -> str:
    """Which side's melds count, with ``compare: best`` (and its tie)."""
    text = ""
    compare = body.get("compare", "total")
    if compare != "total":
        tie = body.get("tie", "none")
        at_tie = {"forehand": "the side of the first from forehand holding one scores",
                  "none": "no side scores"}.get(
            tie, f"the option {p.formula(tie)} says who scores (none: no side; forehand: the "
            "side of the first from forehand holding one)")
        best = ("Only the side holding the best single meld (the most points, then the most "
                "cards, then the highest top card, then one in trumps) scores its melds, and "
                f"only its melds count as shown; at a tie {at_tie}.")
        text += (f" {best}" if compare == "best"
                 else f" When {p.formula(compare)} is 'best': {best[0].lower()}{best[1:]}")
    return text


def check_step(ck: Checker, path: tuple[Any, ...], step: dict[str, Any]) -> None:
    """A spec that declares melds has a table of them; `reveal` stands alone."""
    body = step["declare_melds"] or {}
    if not ck.tree.get("melds"):
        ck.err((*path, "declare_melds"), "there are no melds to declare: the spec has no "
               "'melds' table", key=True)
    if body.get("reveal") is True:
        extra = [k for k in ("choose", "compare", "tie", "wait", "settle") if k in body]
        if extra:
            ck.err((*path, "declare_melds", extra[0]), f"a declare_melds step that reveals "
                   f"declares nothing: '{extra[0]}' has no use with 'reveal'")
        return
    _check_wait(ck, path, step, body)
    if "tie" in body and body.get("compare", "total") != "best":
        ck.err((*path, "declare_melds", "tie"), "'tie' settles a tie of best melds: it "
               "needs 'compare: best'")


def _check_wait(ck: Checker, path: tuple[Any, ...], step: Mapping[str, Any],
                body: Mapping[str, Any]) -> None:
    """A waiting declaration compares nothing (its `settle` step does); a settling step
    declares nothing; the waiting declarations have a step that settles them."""
    at = (*path, "declare_melds")
    if body.get("settle") is True:
        extra = [k for k in ("choose", "wait") if k in body] + (["for"] if step.get("for", "not out") != "not out" else [])
        if extra:
            where = (*path, "for") if extra[0] == "for" else (*at, extra[0])
            ck.err(where, f"a declare_melds step that settles declares nothing: "
                   f"'{extra[0]}' has no use with 'settle'")
    elif body.get("wait") is True:
        extra = [k for k in ("compare", "tie") if k in body]
        if extra:
            ck.err((*at, extra[0]), f"a waiting declaration is compared later: "
                   f"'{extra[0]}' belongs to the step that settles (settle: true)")
        if not _settles(dict(ck.tree)):
            ck.err((*at, "wait"), "the declarations wait, but no declare_melds step "
                   "settles them (settle: true)")


def _settles(steps: Any) -> bool:
    """Whether some step, at any depth, is a ``declare_melds`` with ``settle: true``."""
    if isinstance(steps, Mapping):
        body = steps.get("declare_melds")
        if isinstance(body, Mapping) and body.get("settle") is True:
            return True
        return any(_settles(v) for v in steps.values() if isinstance(v, (Mapping, list)))
    if isinstance(steps, list):
        return any(_settles(x) for x in steps)
    return False


def compile_check(c: Typer, step: dict[str, Any], path: tuple[Any, ...]) -> None:
    """The melds table (each meld's spread, points and double), whose melds, whether
    picked, compared and shown."""
    p = (*path, "declare_melds")
    table = c.tree.get("melds") or {}
    if not table:
        c.error(p, "there are no melds to declare: the spec has no 'melds' table")
    spreads = tuple(w.name for w in MELD.field("spread").words)
    for name, m in table.items():
        c.constant(m.get("spread", "one_suit"), ("melds", name, "spread"), spreads)
        c.number(m["points"], ("melds", name, "points"), True)
        if m.get("double") is not None:
            c.number(m["double"], ("melds", name, "double"), True)
    each = step.get("for", "not out")
    if each != "not out":
        c.formula(each, (*path, "for"), True)
    body = step["declare_melds"]
    for key, default in (("show", True), ("choose", False), ("reveal", False), ("wait", False),
                         ("settle", False)):
        c.constant(body.get(key, default), (*p, key), (True, False))
    c.constant(body.get("compare", "total"), (*p, "compare"), ("total", "best"))
    c.constant(body.get("tie", "none"), (*p, "tie"), ("none", "forehand"))


DECLARE_MELDS: Home = Home(DECLARE_MELDS_STEP, grammar=STEP_GRAMMAR,
                     entries=("declare_melds",),
                     builds={"declare_melds": read_step, "reveal_melds": read_step,
                             "settle_melds": read_step},
                     write=write_step, describe=describe_step, check=check_step,
                     compile_check=compile_check,
                     compile="spelbok.engine.melds:compile_declare_melds")
