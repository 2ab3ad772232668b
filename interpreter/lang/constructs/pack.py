"""A declared pack: its suits, ranks, copies and extra cards (absent: the French 52); its
prose is told with the deck's.

>>> PACK.name, [c.name for c in PACK.parts]
('pack', ['pack_suit', 'pack_extra'])
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ...cards import COLOURS, MAX_COPIES, MAX_SUITS, pack_of
from ...errors import did_you_mean
from ...limits import MAX_CARDS
from .. import dsl_text as t
from .. import prose as p
from ..declare import SOURCE, Construct, Derived, Field, Word
from ..dsl_nodes import is_node, is_token
from .home import Home

if TYPE_CHECKING:
    from ..checks import _Checker as Checker
    from ..describe import _Kit as DescribeKit
    from ..dsl_build import _Builder as Builder

__all__ = ["PACK", "PACK_EXTRA", "PACK_SUIT"]

DECL: Construct = Construct("pack", "section", "the cards: suits, ranks, copies, extra cards (absent: the "
          "French 52)", (
    Field("suits", "list[pack_suit]", f"the suits, in order (1..{MAX_SUITS})",
          required=True, min_items=1, doc_type="list of pack suits, required"),
    Field("ranks", "list[scalar]", "the ranks, low to high (the default rank order, "
          "reversed)", required=True, min_items=1, doc_type="list of rank texts, required"),
    Field("copies", "int", "how many copies of the pack make the deck (copies of a card "
          "share its name: the first played of equal cards wins)", default=1, minimum=1,
          maximum=MAX_COPIES),
    Field("extra", "list[pack_extra]", "cards outside the suits' grid (jokers), in every "
          "deck", default=[], doc_type="list of extra cards"),
    SOURCE,
))

PACK_SUIT: Construct = Construct("pack_suit", "part", "a suit of a declared pack", (
    Field("letter", "str", "its letter in card names (one character, not a digit)",
          required=True, min_items=1),
    Field("name", "str", "its name, for `describe`", default=Derived("the letter")),
    Field("symbol", "str", "its symbol on screen", default=Derived("the letter")),
    Field("colour", "word", "its colour (for `J@trump_colour` and the screen)", default="black",
          words=tuple(Word(c, f"{c} suits") for c in COLOURS)),
), x_name="in a pack suit")
PACK_EXTRA: Construct = Construct("pack_extra", "part", "a card outside the grid of suits and ranks "
                       "(a joker)", (
    Field("name", "str", "its name in notation (e.g. `JK`)", required=True, min_items=1),
    Field("suit", "str", "the letter of the suit it belongs to, or `none`", default="none"),
    Field("rank", "scalar", "its rank (one of the pack's), or `none`", default="none"),
), x_name="in a pack's extra card")

# ---------------------------------------------------------------- DSL


GRAMMAR = r"""
// a declared pack (see spec-reference.md, `pack`)
pack: "pack" ":" _NL _INDENT _pack_part+ _DEDENT
_pack_part: pack_suit | pack_ranks | pack_copies | pack_extra | source_line
pack_suit: "suit" TEXT suit_named? suit_shown? suit_colour? _NL
suit_named: "named" TEXT
suit_shown: "shown" "as" TEXT
suit_colour: "coloured" word
pack_ranks: "ranks" "from" "low" "to" "high" ":" (TEXT | INT | RANK)+ _NL
pack_copies: INT "copies" _NL
pack_extra: "extra" "card" TEXT extra_suit? extra_rank? _NL
extra_suit: "of" "suit" TEXT
extra_rank: "rank" TEXT
"""


def read_pack(b: Builder, st: Any) -> None:
    """Reads ``pack:`` and its suits, ranks, copies and extra cards."""
    pack: dict[str, Any] = {}
    b.put(b.tree, ("pack",), pack, st, "the pack")
    suits: list[dict[str, Any]] = []
    extra: list[dict[str, Any]] = []
    for c in st.children:
        if is_node(c, "pack_suit"):
            if not suits:
                b.mark(("pack", "suits"), c)
            path = ("pack", "suits", len(suits))
            suit: dict[str, Any] = {"letter": b.string(c.children[0])}
            b.mark(path, c)
            b.mark((*path, "letter"), c.children[0])
            for part in c.children[1:]:
                key = {"suit_named": "name", "suit_shown": "symbol",
                       "suit_colour": "colour"}[part.data]
                tok = part.children[0]
                suit[key] = b.word(tok) if is_node(tok, "word") else b.string(tok)
                b.mark((*path, key), tok)
            suits.append(suit)
        elif is_node(c, "pack_ranks"):
            items = [t for t in c.children if is_token(t, "TEXT") or is_token(t, "INT")
                     or is_token(t, "RANK")]
            b.put(pack, ("pack", "ranks"), [b.string(t) if is_token(t, "TEXT") else str(t)
                                               for t in items], c, "the pack's ranks")
            b.mark_items(("pack", "ranks"), items)
        elif is_node(c, "pack_copies"):
            b.put(pack, ("pack", "copies"), int(c.children[0]), c.children[0],
                  "the pack's copies")
        elif is_node(c, "pack_extra"):
            if not extra:
                b.mark(("pack", "extra"), c)
            path = ("pack", "extra", len(extra))
            card: dict[str, Any] = {"name": b.string(c.children[0])}
            b.mark(path, c)
            for part in c.children[1:]:
                key = "suit" if part.data == "extra_suit" else "rank"
                card[key] = b.string(part.children[0])
                b.mark((*path, key), part.children[0])
            extra.append(card)
    pack["suits"] = suits
    if extra:
        pack["extra"] = extra
    b.citation(st, pack, ("pack",))


def _pack(out: t.Out, pack: Mapping[str, Any] | None) -> None:
    """A declared pack: one line per suit, its ranks, copies and extra cards."""
    if pack is None:
        return
    t.check(pack, t.keys(DECL), "in 'pack'")
    out.blank()
    out.add(0, "pack:")
    for suit in pack.get("suits") or []:
        t.check(suit, t.keys(PACK_SUIT), "in a pack suit")
        letter = str(suit["letter"])
        line = f"suit {t.quote(letter)}"
        if suit.get("name", letter) != letter:
            line += f" named {t.quote(str(suit['name']))}"
        if suit.get("symbol", letter) != letter:
            line += f" shown as {t.quote(str(suit['symbol']))}"
        if suit.get("colour", "black") != "black":
            line += f" coloured {t.word(suit['colour'])}"
        out.add(1, line)
    out.add(1, "ranks from low to high: " + " ".join(t.rank(str(r)) for r in pack["ranks"]))
    if pack.get("copies", 1) != 1:
        out.add(1, f"{int(pack['copies'])} copies")
    for card in pack.get("extra") or []:
        t.check(card, t.keys(PACK_EXTRA), "in a pack's extra card")
        line = f"extra card {t.quote(str(card['name']))}"
        if card.get("suit", "none") != "none":
            line += f" of suit {t.quote(str(card['suit']))}"
        if card.get("rank", "none") != "none":
            line += f" rank {t.quote(str(card['rank']))}"
        out.add(1, line)
    t.source(out, 1, pack)


def write(out: t.Out, tree: Mapping[str, Any]) -> None:
    """The declared pack, if any."""
    _pack(out, tree.get("pack"))


# ---------------------------------------------------------------- describe


def prose(ctx: DescribeKit, tree: Mapping[str, Any], lines: list[str]) -> Any:
    """The declared pack's sentences (added to ``lines``), and its Pack; None without one:
    told with the deck."""
    from ...cards import COLOURS

    pack = ctx.declared_pack(tree)
    if pack is None:
        return None
    suits = [f"{n} ({x}{', ' + s if s != x else ''}, {COLOURS[c]})" for n, x, s, c in
             zip(pack.suit_names, pack.letters, pack.symbols, pack.colours, strict=True)]
    text = (f"The pack: suits {p.or_(suits, 'and')}; ranks {' '.join(pack.ranks)} (low to high; "
            f"a card is written rank then suit letter, e.g. {pack.names[len(pack.ranks) - 1]})")
    if pack.copies > 1:
        text += f"; {pack.copies} copies of each card (of equal cards, the first played wins)"
    for name, s, r in pack.extras:
        belongs = f"of suit {pack.letters[s]}" if s >= 0 else "of no suit"
        rank = f", rank {pack.ranks[r]}" if r >= 0 else ""
        text += f"; an extra card {name}, {belongs}{rank}"
    lines += p.wrap(text + ".")
    return pack


# ---------------------------------------------------------------- checks


def check(ck: Checker, tree: Mapping[str, Any]) -> None:
    """A declared pack: letters, ranks and extra names each once, extra cards of its
    suits and ranks, at most MAX_CARDS cards; the deck entries name its suits and ranks."""
    section = tree.get("pack")
    if section is None:
        return
    errors = len(ck.errors)
    suits, ranks = section["suits"], section["ranks"]
    letters = [s["letter"] for s in suits]
    if len(suits) > MAX_SUITS:
        ck.err(("pack", "suits"), f"a pack has at most {MAX_SUITS} suits, not {len(suits)}")
    for i, letter in enumerate(letters):
        if len(letter) != 1 or letter.isdigit() or letter in "@_ ":
            ck.err(("pack", "suits", i, "letter"),
                   f"a suit letter is one character, not a digit: {letter!r}")
    ck.no_repeats(letters, ("pack", "suits"), "suit letter")
    ck.no_repeats([str(r) for r in ranks], ("pack", "ranks"), "rank")
    for j, r in enumerate(ranks):
        if not str(r) or any(ch.isspace() or ch in "@" for ch in str(r)):
            ck.err(("pack", "ranks", j), f"a rank is a short text without spaces: {r!r}")
    names = [r + x for r in ranks for x in letters]
    for j, e in enumerate(section["extra"]):
        at = ("pack", "extra", j)
        if e["name"].upper() in names:
            ck.err((*at, "name"), f"the extra card '{e['name']}' has the name of a card "
                   "of the suits")
        if e["suit"] != "none" and e["suit"] not in letters:
            ck.err((*at, "suit"), f"'{e['suit']}' is not a suit of the pack",
                   did_you_mean(e["suit"], letters))
        if e["rank"] != "none" and str(e["rank"]) not in ranks:
            ck.err((*at, "rank"), f"'{e['rank']}' is not a rank of the pack",
                   did_you_mean(str(e["rank"]), [str(r) for r in ranks]))
    ck.no_repeats([e["name"].upper() for e in section["extra"]], ("pack", "extra"),
                  "extra card")
    total = (len(letters) * len(ranks) + len(section["extra"])) * section["copies"]
    if total > MAX_CARDS:
        ck.err(("pack",), f"the pack has {total} cards, but spelbok supports at most "
               f"{MAX_CARDS}")
    for i, entry in enumerate(tree["deck"]):
        for j, r in enumerate(entry["ranks"]):
            if r not in ranks:
                ck.err(("deck", i, "ranks", j), f"the rank '{r}' is not in the pack",
                       did_you_mean(r, [str(x) for x in ranks]))
        for j, x in enumerate(entry["suits"]):
            if x not in letters:
                ck.err(("deck", i, "suits", j), f"the suit '{x}' is not in the pack",
                       did_you_mean(x, letters))
    ranking = tree["ranking"]
    for field in ("ranks", "cut_ranks"):
        for j, r in enumerate(ranking[field]):
            if r not in ranks:
                ck.err(("ranking", field, j), f"the rank '{r}' is not in the pack",
                       did_you_mean(r, [str(x) for x in ranks]))
    if len(ck.errors) == errors:
        ck.cards = pack_of(section)


PACK: Home = Home(
    DECL,
    parts=(PACK_SUIT, PACK_EXTRA),
    grammar=GRAMMAR,
    entries=("pack",),
    builds={"pack": read_pack},
    write=write,
    check=check,
    keys=(Field("pack", "pack", "the cards: suits, ranks, copies, jokers (absent: the French "
                "52; `ranks`, `suits` and cards elsewhere then name the pack's)",
                doc_type="map", doc_default="the French 52"),),
)
