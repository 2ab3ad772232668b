"""Modes: rank orders, top trumps and card points that change with the game played.

The ``modes`` section names other rankings beside the spec's ``ranking`` (and card
points beside its ``points``); a step chooses one for the rest of the hand by setting
the built-in ``mode`` (``set: {mode: "'null'"}``), and a new hand starts again in the
mode ``none``: the ranking as written.  A mode gives only what differs: a key it leaves
out is the ranking's (its ``ranks``, ``top_trumps``...), and its ``points`` replace the
points by rank.  Everything that reads the order of the cards (who wins a trick, who
must follow, the legal cards, the bots, the observations, the order of a hand on the
table, ``describe``) reads the mode in force; a spec without modes has no mode to read.

>>> MODES.name, MODE.field("top_trumps").type
('modes', 'list[top_trump]')
>>> mode_ranking({"ranks": ["A", "10", "K"], "top_trumps": ["JC"]}, {"top_trumps": []})
{'ranks': ['A', '10', 'K'], 'top_trumps': []}
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ...cards import normalize_rank
from .. import dsl_text as t
from .. import prose as p
from ..declare import SOURCE, Construct, Field, words_of
from ..dsl_nodes import is_node, is_token
from .home import Home
from .ranking import _distinct

if TYPE_CHECKING:
    from ..checks import _Checker as Checker
    from ..describe import _Kit as DescribeKit
    from ..dsl_build import _Builder as Builder

__all__ = ["MODE", "MODES", "RANKING_KEYS", "mode_ranking"]

#: The keys of the ranking a mode may give again (the rest stay the ranking's).
RANKING_KEYS = ("ranks", "suit_ranks", "trump_ranks", "top_trumps", "top_trumps_follow")

MODE: Construct = Construct("mode", "part", "a ranking chosen in play (by setting `mode`)", (
    Field("ranks", "ranks", "the rank order, high to low (absent: the ranking's)"),
    Field("suit_ranks", "map[ranks]", "the rank order of particular suits, by suit letter "
          "(absent or empty: the ranking's)", default={}, omitted=True),
    Field("trump_ranks", "ranks", "the trump suit's rank order (absent: the ranking's)"),
    Field("top_trumps", "list[top_trump]", "permanent trumps, high to low (`[]`: none; "
          "absent: the ranking's)", keep_empty=True),
    Field("top_trumps_follow", "word", "which suit top trumps follow (absent: the "
          "ranking's)", words=words_of(("trump", "the trump suit"),
                                       ("printed", "their printed suit"))),
    Field("points", "points_by_rank", "card points by rank, in place of the `points` "
          "section's `ranks` (absent: the same)"),
    SOURCE,
), x_name="in mode '{key}'")


def mode_ranking(ranking: Mapping[str, Any], mode: Mapping[str, Any]) -> dict[str, Any]:
    """The ranking in force in ``mode``: the ranking's keys, with the mode's over them."""
    out = dict(ranking)
    out.update({k: mode[k] for k in RANKING_KEYS if k in mode})
    return out


# ---------------------------------------------------------------- DSL


GRAMMAR = r"""
// a ranking chosen in play by setting `mode`: "mode null:" and, indented, the keys it
// changes: its ranks, suit and trump orders, top trumps, what they follow, card points
mode: "mode" word ":" _NL (_INDENT _mode_line+ _DEDENT)?
_mode_line: mode_ranks | mode_suit_ranks | mode_trump_ranks | mode_tops | mode_follow
          | mode_points | source_line
mode_ranks: "ranks" "from" "high" "to" "low" ":" rank+ _NL
mode_suit_ranks: "ranks" "of" suit+ "from" "high" "to" "low" ":" rank+ _NL
mode_trump_ranks: "trump" "ranks" "from" "high" "to" "low" ":" rank+ _NL
mode_tops: "top" "trumps" ("from" "high" "to" "low")? ":" (card+ | mode_none) _NL
mode_follow: "top" "trumps" "follow" follow_what _NL
mode_points: "points" "of" "ranks" ":" (rank_points ("," rank_points)* | mode_none) _NL
mode_none: "none"
"""


def read_mode(b: Builder, st: Any) -> None:
    """Reads ``mode NAME:`` and its indented lines."""
    name = b.word(st.children[0])
    modes = b.section("modes", st)
    path = ("modes", name)
    mode: dict[str, Any] = {}
    b.put(modes, path, mode, st.children[0], f"the mode '{name}'")
    for c in st.children[1:]:
        data = getattr(c, "data", "")
        if data in _LINES:
            _LINES[data](b, c, mode, path)
    b.citation(st, mode, path)


def _ranks_line(key: str) -> Any:
    def read(b: Builder, c: Any, mode: dict[str, Any], path: tuple[Any, ...]) -> None:
        items = [x for x in c.children if is_node(x, "rank")]
        b.put(mode, (*path, key), b.ranks(items), c, f"the mode's {key}")
        b.mark_items((*path, key), items)
    return read


def _suit_ranks(b: Builder, c: Any, mode: dict[str, Any], path: tuple[Any, ...]) -> None:
    order = b.ranks([x for x in c.children if is_node(x, "rank")])
    orders = mode.setdefault("suit_ranks", {})
    for node in (x for x in c.children if is_node(x, "suit")):
        # a declared pack's letter is quoted: kept as written (the YAML keeps its case)
        suit = (b.string(node.children[0]).strip() if is_token(node.children[0], "TEXT")
                else b.suit(node))
        b.put(orders, (*path, "suit_ranks", suit), list(order), c, f"the order of the suit {suit}")


def _tops(b: Builder, c: Any, mode: dict[str, Any], path: tuple[Any, ...]) -> None:
    items = [x for x in c.children if is_node(x, "card")]
    b.put(mode, (*path, "top_trumps"), [b.card(x) for x in items], c, "the mode's top trumps")
    b.mark_items((*path, "top_trumps"), items)


def _follow(b: Builder, c: Any, mode: dict[str, Any], path: tuple[Any, ...]) -> None:
    what = c.children[0]
    value = {"follow_trump": "trump", "follow_printed": "printed"}.get(what.data)
    b.put(mode, (*path, "top_trumps_follow"), value or b.word(what.children[0]), c,
          "what the mode's top trumps follow")


def _points(b: Builder, c: Any, mode: dict[str, Any], path: tuple[Any, ...]) -> None:
    table: dict[str, int] = {}
    b.put(mode, (*path, "points"), table, c, "the mode's card points")
    for x in c.children:
        if not is_node(x, "rank_points"):
            continue
        what, amount = x.children
        name = (b.string(what).strip().upper() if is_token(what, "TEXT")
                else normalize_rank(str(what)) or str(what))
        if name in table:
            raise b.fail(f"the points of {name} are given twice", what)
        table[name] = b.value(amount)
        b.mark((*path, "points", name), amount)


_LINES = {"mode_ranks": _ranks_line("ranks"), "mode_trump_ranks": _ranks_line("trump_ranks"),
          "mode_suit_ranks": _suit_ranks, "mode_tops": _tops, "mode_follow": _follow,
          "mode_points": _points}


def write(out: t.Out, tree: Mapping[str, Any]) -> None:
    """Each mode: ``mode NAME:`` and the keys it gives, indented."""
    for name, mode in (tree.get("modes") or {}).items():
        t.check(mode, t.keys(MODE), f"in mode '{name}'")
        out.blank()
        out.add(0, f"mode {t.word(name)}:")
        if "ranks" in mode:
            out.add(1, "ranks from high to low: " + " ".join(t.rank(r) for r in mode["ranks"]))
        orders = mode.get("suit_ranks") or {}
        for order in _distinct(orders.values()):
            suits = [k for k, v in orders.items() if list(v) == order]
            out.add(1, f"ranks of {t.suits(suits)} from high to low: "
                    + " ".join(t.rank(r) for r in order))
        if "trump_ranks" in mode:
            out.add(1, "trump ranks from high to low: "
                    + " ".join(t.rank(r) for r in mode["trump_ranks"]))
        if "top_trumps" in mode:
            tops = [t.card(str(c)) for c in mode["top_trumps"]]
            out.add(1, "top trumps from high to low: " + (" ".join(tops) or "none"))
        if "top_trumps_follow" in mode:
            follow = mode["top_trumps_follow"]
            out.add(1, "top trumps follow " + {"trump": "the trump suit",
                                               "printed": "their printed suit"}.get(
                str(follow), t.word(follow, ("the", "their"))))
        if "points" in mode:
            items = (mode["points"] or {}).items()
            for k, v in items:
                if isinstance(v, bool) or not isinstance(v, int):
                    raise ValueError(f"to_dsl: cannot write {k!r}: {v!r} in mode {name}'s points")
            out.add(1, "points of ranks: "
                    + (", ".join(f"{t.rank(str(k))} {v}" for k, v in items) or "none"))
        t.source(out, 1, mode)


# ---------------------------------------------------------------- describe


def describe(ctx: DescribeKit, tree: Mapping[str, Any]) -> list[str]:
    """"Modes": each mode's ranking, what it changes, and how it is chosen."""
    modes = tree.get("modes") or {}
    if not modes:
        return []
    pack = ctx.declared_pack(tree)
    lines = ctx.title("Modes")
    lines += p.wrap("The ranking above holds unless a step sets `mode` to one of these, for "
                    "the rest of the hand (each hand starts in the mode none, the ranking "
                    "above). A mode changes only what it says:")
    for name, m in modes.items():
        said: list[str] = []
        if "ranks" in m:
            said.append(f"cards rank {' '.join(str(r) for r in m['ranks'])} (high to low)")
        for suit, order in (m.get("suit_ranks") or {}).items():
            said.append(f"{ctx.suit_name(suit)} ranks {' '.join(str(r) for r in order)}")
        if "trump_ranks" in m:
            said.append(f"the trump suit ranks {' '.join(str(r) for r in m['trump_ranks'])}")
        if "top_trumps" in m:
            tops = m["top_trumps"]
            said.append("there are no top trumps" if not tops else
                        "the top trumps are " + " ".join(ctx.card(str(c), pack) for c in tops))
        if "top_trumps_follow" in m:
            said.append("top trumps follow " + ("their printed suit"
                        if m["top_trumps_follow"] == "printed" else "the trump suit"))
        if "points" in m:
            pts = ", ".join(f"{k} {v}" for k, v in (m["points"] or {}).items()) or "none"
            said.append(f"cards count {pts} (any other rank nothing)")
        text = "; ".join(said) or "the same as the ranking"
        lines += p.wrap(f"{name}: {text}.", 4, first="  ")
        lines += p.cite(m, 6)
    return lines


# ---------------------------------------------------------------- checks


def check(ck: Checker, tree: Mapping[str, Any]) -> None:
    """Each mode: not named ``none``; its orders name every rank of the decks once, its
    top trumps are cards of the decks, its points are ranks of the decks."""
    from .ranking import check as check_ranking

    base = tree["ranking"]
    for name, m in (tree.get("modes") or {}).items():
        at = ("modes", name)
        if name == "none":
            ck.err(at, "a mode cannot be named 'none': that is the ranking itself, the mode "
                   "each hand starts in", key=True)
        if "top_trumps_follow" in m:
            ck.enum((*at, "top_trumps_follow"), m["top_trumps_follow"], "top_trumps_follow")
        # the ranking's own checks, run on the mode's ranking, reported at the mode's keys
        merged = mode_ranking(base, m)
        merged["top_trumps_follow"] = base["top_trumps_follow"]
        merged["cut_ranks"] = merged["ranks"]
        for key in ("free_cards", "losing_cards", "kept_cards"):
            merged[key] = []
        check_ranking(_Moved(ck, at, m), {**tree, "ranking": merged})  # type: ignore[arg-type]
        decks = {str(r) for e in tree["deck"] for r in e["ranks"]}
        for rank in (m.get("points") or {}):
            if str(rank) not in decks:
                ck.err((*at, "points", rank), f"the mode '{name}' gives points to the rank "
                       f"'{rank}', which no deck has")


class _Moved:
    """A checker that reports the ranking's problems at a mode's keys: a problem of a key
    the mode gives is its own; one of a key it leaves to the ranking is the ranking's (and
    reported there already), and one at the deck (a rank the mode's order leaves out) is
    reported at the mode's order."""

    def __init__(self, ck: Checker, at: tuple[Any, ...], mode: Mapping[str, Any]) -> None:
        self._ck, self._at, self._mode = ck, at, mode

    def __getattr__(self, name: str) -> Any:
        return getattr(self._ck, name)

    def _where(self, path: tuple[Any, ...]) -> tuple[Any, ...] | None:
        if path[:1] == ("deck",):
            return (*self._at, "ranks") if "ranks" in self._mode else None
        if path[:1] == ("ranking",) and len(path) > 1 and path[1] in self._mode:
            return (*self._at, *path[1:])
        return None

    def err(self, path: tuple[Any, ...], message: str, hint: str | None = None, *,
            key: bool = False) -> None:
        where = self._where(path)
        if where is not None:
            name = self._at[-1]
            if "ranking.ranks" in message:
                message = (message.replace("ranking.ranks", f"the order of mode '{name}'")
                           + " (a mode's ranks name every rank of the decks once; leave "
                           "them out to keep the ranking's)")
            else:
                message = f"in mode '{name}': {message}"
            self._ck.err(where, message, hint, key=key)

    def no_repeats(self, items: list[Any], path: tuple[Any, ...], what: str) -> None:
        where = self._where(path)
        if where is not None:
            self._ck.no_repeats(items, where, what)

    def enum(self, path: tuple[Any, ...], value: Any, field: str) -> None:
        return None


#: The modes (a key of the top level).
MODES: Home = Home(
    None, parts=(MODE,),
    grammar=GRAMMAR,
    entries=("mode",),
    builds={"mode": read_mode},
    write=write,
    describe=describe,
    check=check,
    keys=(Field("modes", "names[mode]", "rankings chosen in play by setting `mode` (a "
                "contract's rank order, top trumps, card points), see below", default={},
                omitted=True, doc_type="map name → mode"),),
)
