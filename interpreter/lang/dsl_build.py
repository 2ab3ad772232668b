"""The DSL's tree builder: walks the Lark parse tree and builds the raw spec tree
(the keys and shapes of the YAML surface) and its position table.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

from ..cards import SUIT_INDEX, SUITS, normalize_rank
from ..errors import SpecError
from .constructs import STEP_HOMES
from .dsl_nodes import is_node as _is
from .dsl_nodes import is_token as _tok

#: Position table: node path -> (file path, line, column), all 1-based.
Positions = dict[tuple[Any, ...], tuple[str, int, int]]

# Formula-valued fields whose YAML form is naturally a number: a formula that is
# just a whole number comes back as an int, like ``size: 5`` in YAML.
_INT_FIELDS = frozenset({"size", "max", "min", "repeat", "widow", "count"})


#: The DSL reader of each grammar rule of a step (its home's ``builds``).
_STEP_BUILDS: dict[str, Callable[..., None]] = {
    rule: build for h in STEP_HOMES for rule, build in h.builds.items()}

_ESCAPES = {"\\": "\\", '"': '"', "n": "\n", "t": "\t", "r": "\r"}


class _Builder:
    """Walks the parse tree top-down, building the raw spec tree and positions."""

    def __init__(self, text: str, path: str) -> None:
        self.text = text
        self.path = path
        self.tree: dict[str, Any] = {}
        self.pos: Positions = {}
        self.lines: dict[tuple[Any, ...], int] = {}
        # formula nodes whose text is not the file's (several lines, comments, runs of
        # spaces): id -> (start, end) in the text
        self.spread: dict[int, tuple[int, int]] = {}

    # -- helpers --------------------------------------------------------------

    def fail(self, message: str, node: Any, hint: str | None = None) -> SpecError:
        line, col = self.where(node)
        return SpecError(message, self.path, line, col, hint=hint)

    @staticmethod
    def where(node: Any) -> tuple[int, int]:
        from lark import Token

        if isinstance(node, Token):
            return node.line or 1, node.column or 1
        meta = node.meta
        if getattr(meta, "empty", True):
            return 1, 1
        return meta.line, meta.column

    def mark(self, path: tuple[Any, ...], node: Any) -> None:
        line, col = self.where(node)
        span = self.spread.get(id(node))
        if span is None:
            self.pos[path] = (self.path, line, col)
        else:
            from .yamlio import ScalarPosition

            self.pos[path] = ScalarPosition((self.path, line, col), self.text, *span, _readings)

    def mark_items(self, path: tuple[Any, ...], nodes: list[Any]) -> None:
        """Positions of a list (at its first item) and of each item."""
        if nodes:
            self.mark(path, nodes[0])
        for i, node in enumerate(nodes):
            self.mark((*path, i), node)

    def put(self, container: dict[str, Any], path: tuple[Any, ...], value: Any, node: Any,
            what: str) -> None:
        key = path[-1]
        if key in container:
            first = self.pos.get(path)
            on = f" (first given on line {first[1]})" if first else ""
            raise self.fail(f"{what} is given twice{on}", node)
        container[key] = value
        self.mark(path, node)

    def section(self, key: str, node: Any) -> dict[str, Any]:
        sub = self.tree.get(key)
        if sub is None:
            sub = self.tree[key] = {}
            self.mark((key,), node)
        return sub

    def string(self, tok: Any) -> str:
        raw = str(tok)[1:-1]
        if "\\" not in raw:
            return raw
        out: list[str] = []
        i = 0
        while i < len(raw):
            ch = raw[i]
            if ch != "\\":
                out.append(ch)
                i += 1
                continue
            nxt = raw[i + 1]
            if nxt in _ESCAPES:
                out.append(_ESCAPES[nxt])
                i += 2
                continue
            width = 4 if nxt == "u" else 8 if nxt == "U" else 0
            digits = raw[i + 2 : i + 2 + width]
            if width and re.fullmatch(r"[0-9a-fA-F]+", digits or "x") and len(digits) == width:
                code = int(digits, 16)
                if 0xD800 <= code <= 0xDFFF:
                    line, col = self.where(tok)
                    raise SpecError(
                        f"'\\{nxt}{digits}' is a lone surrogate, not a character (write the"
                        " character itself, or \\U0001F600 for one beyond U+FFFF)",
                        self.path, line, col + 1 + i,
                    )
                if code <= 0x10FFFF:
                    out.append(chr(code))
                    i += 2 + width
                    continue
            line, col = self.where(tok)
            raise SpecError(
                f"unknown escape '\\{nxt}' in a quoted text (write \\\\ for a backslash,"
                ' \\" for a quote, \\n for a line break)',
                self.path, line, col + 1 + i,
            )
        return "".join(out)

    def formula(self, node: Any, field: str = "") -> Any:
        meta = node.meta
        src = self.text[meta.start_pos : meta.end_pos]
        if "\n" in src or "#" in src or "  " in src or "\t" in src:
            # the text as used is not the file's text: keep the map for formula errors
            self.spread[id(node)] = (meta.start_pos, meta.end_pos)
        if "\n" in src or "#" in src:
            src = _join_formula_lines(src)
        if field in _INT_FIELDS and src.isdigit() and str(int(src)) == src:
            return int(src)
        return src

    def text_of(self, children: list[Any]) -> str:
        """Joins the ``text`` children of a text body with single spaces."""
        parts = [self.string(c.children[0]) for c in children if _is(c, "text")]
        return " ".join(parts)

    def first_text(self, children: list[Any]) -> Any:
        for c in children:
            if _is(c, "text"):
                return c.children[0]
        return None

    def citation(self, node: Any, target: dict[str, Any], path: tuple[Any, ...]) -> None:
        """Applies a trailing ``source "…"`` and ``source`` lines among node's children."""
        for c in node.children:
            if _is(c, "citation"):
                tok = c.children[0]
                self.put(target, (*path, "source"), self.string(tok), tok, "the source of this rule")
            elif _is(c, "source_line"):
                tok = self.first_text(c.children)
                self.put(target, (*path, "source"), self.text_of(c.children), tok,
                         "the source of this rule")

    def attrs(self, node: Any, step: dict[str, Any], path: tuple[Any, ...]) -> None:
        self.citation(node, step, path)
        for c in node.children:
            if _is(c, "label_line"):
                tok = c.children[0]
                value = self.string(tok) if tok.type == "TEXT" else str(tok)
                self.put(step, (*path, "label"), value, tok, "the label of this step")
            elif _is(c, "when_line"):
                f = c.children[0]
                self.put(step, (*path, "when"), self.formula(f), f, "the condition of this step")
            elif _is(c, "part_source"):
                self.part_source(c, step, path)

    def part_source(self, node: Any, owner: dict[str, Any], path: tuple[Any, ...]) -> None:
        part = node.children[0]
        name = str(part.children[0])
        key = name.replace("-", "_")
        body = owner.get(key)
        if not isinstance(body, dict):
            raise self.fail(
                f"'source of the {name}' belongs under a rule that has a {name}", part
            )
        tok = self.first_text(node.children)
        self.put(body, (*path, key, "source"), self.text_of(node.children), tok,
                 f"the source of the {name}")

    def word(self, node: Any) -> str:
        tok = node.children[0] if not hasattr(node, "type") else node
        return self.string(tok) if tok.type == "TEXT" else str(tok)

    def value(self, node: Any) -> Any:
        tok = node.children[0]
        if not hasattr(tok, "type"):  # neg_int
            return -int(tok.children[0])
        if tok.type == "INT":
            return int(tok)
        if tok.type == "TEXT":
            return self.string(tok)
        if tok.type == "TRUE":
            return True
        if tok.type == "FALSE":
            return False
        return str(tok)

    def ranks(self, nodes: list[Any]) -> list[str]:
        return [self.string(n.children[0]).strip().upper() if _tok(n.children[0], "TEXT")
                else normalize_rank(str(n.children[0])) or str(n.children[0]) for n in nodes]

    def suit(self, node: Any) -> str:
        if _tok(node.children[0], "TEXT"):  # a declared pack's letter
            return self.string(node.children[0]).strip().upper()
        return SUITS[SUIT_INDEX[str(node.children[0]).upper()]]

    def card(self, node: Any) -> str:
        if _tok(node.children[0], "TEXT"):  # a declared pack's card (or rank@relation)
            # as written: the YAML surface keeps a card's case too, so both convert alike
            return self.string(node.children[0]).strip()
        text = str(node.children[0])
        if "@" in text:
            rank, rel = text.split("@", 1)
            return f"{normalize_rank(rank)}@{rel}"
        return f"{normalize_rank(text[:-1])}{SUITS[SUIT_INDEX[text[-1].upper()]]}"

    # -- the game -------------------------------------------------------------

    def build(self, root: Any) -> None:
        self.pos[()] = (self.path, 1, 1)
        for st in root.children:
            getattr(self, "s_" + st.data)(st)

    def s_version(self, st: Any) -> None:
        tok = st.children[0]
        self.put(self.tree, ("spelbok",), int(tok), tok, "the format version ('spelbok')")

    def s_game(self, st: Any) -> None:
        tok = st.children[0]
        self.put(self.tree, ("name",), self.string(tok), tok, "the game's name")

    def s_extends(self, st: Any) -> None:
        tok = st.children[0]
        self.put(self.tree, ("extends",), self.string(tok), tok, "the base spec ('extends')")

    def s_about(self, st: Any, target: dict[str, Any] | None = None,
                path: tuple[Any, ...] = ()) -> None:
        tok = self.first_text(st.children)
        self.put(self.tree if target is None else target, (*path, "about"),
                 self.text_of(st.children), tok, "the 'about' text")

    def s_bibliography(self, st: Any) -> None:
        name = st.children[0]
        key = self.word(name)
        sources = self.section("sources", st)
        self.put(sources, ("sources", key), self.text_of(st.children[1:]), name,
                 f"the source '{key}'")

    def s_players(self, st: Any) -> None:
        ints = [c for c in st.children if _tok(c, "INT")]
        value: dict[str, Any] = {"min": int(ints[0]), "max": int(ints[-1])}
        self.put(self.tree, ("players",), value, st, "the number of players")
        self.mark(("players", "min"), ints[0])
        self.mark(("players", "max"), ints[-1])
        self.citation(st, value, ("players",))

    def s_option(self, st: Any) -> None:
        name = st.children[0]
        options = self.section("options", st)
        path = ("options", str(name))
        opt: dict[str, Any] = {}
        self.put(options, path, opt, name, f"the option '{name}'")
        values = [c for c in st.children if _is(c, "value")]
        opt["values"] = [self.value(v) for v in values]
        self.mark((*path, "values"), values[0])
        for i, v in enumerate(values):
            self.mark((*path, "values", i), v)
        for c in st.children:
            if _is(c, "default"):
                self.put(opt, (*path, "default"), self.value(c.children[0]), c, "the default")
            elif _is(c, "about"):
                self.s_about(c, opt, path)
        self.citation(st, opt, path)

    def s_meld(self, st: Any) -> None:
        name = st.children[0]
        melds = self.section("melds", st)
        path = ("melds", self.word(name))
        meld: dict[str, Any] = {}
        self.put(melds, path, meld, name, f"the meld '{self.word(name)}'")
        items = [c for c in st.children if _is(c, "rank")]
        if items:
            meld["ranks"] = self.ranks(items)
            self.mark_items((*path, "ranks"), items)
        for c in st.children:
            if _is(c, "meld_run"):
                meld["run"] = int(c.children[0])
                self.mark((*path, "run"), c.children[0])
            elif getattr(c, "data", "") in ("meld_one_suit", "meld_every_suit",
                                            "meld_spread_word"):
                word = {"meld_one_suit": "one_suit", "meld_every_suit": "every_suit"}.get(c.data)
                meld["spread"] = word or self.word(c.children[-1])
                self.mark((*path, "spread"), c)
        f = next(c for c in st.children if _is(c, "formula"))
        meld["points"] = self.formula(f)
        self.mark((*path, "points"), f)
        self.citation(st, meld, path)

    def s_deck(self, st: Any) -> None:
        deck = self.tree.setdefault("deck", [])
        if not deck:
            self.mark(("deck",), st)
        path = ("deck", len(deck))
        ints = [c for c in st.children if _tok(c, "INT")]
        entry: dict[str, Any] = {}
        deck.append(entry)
        self.mark(path, st)
        if ints:
            entry["players"] = [int(ints[0]), int(ints[-1])]
            self.mark_items((*path, "players"), [ints[0], ints[-1]])
        ranks = [c for c in st.children if _is(c, "rank")]
        entry["ranks"] = self.ranks(ranks)
        self.mark_items((*path, "ranks"), ranks)
        for c in st.children:
            if _is(c, "deck_suits"):
                entry["suits"] = [self.suit(s) for s in c.children]
                self.mark_items((*path, "suits"), c.children)
        self.citation(st, entry, path)

    def s_pack(self, st: Any) -> None:
        pack: dict[str, Any] = {}
        self.put(self.tree, ("pack",), pack, st, "the pack")
        suits: list[dict[str, Any]] = []
        extra: list[dict[str, Any]] = []
        for c in st.children:
            if _is(c, "pack_suit"):
                if not suits:
                    self.mark(("pack", "suits"), c)
                path = ("pack", "suits", len(suits))
                suit: dict[str, Any] = {"letter": self.string(c.children[0])}
                self.mark(path, c)
                self.mark((*path, "letter"), c.children[0])
                for part in c.children[1:]:
                    key = {"suit_named": "name", "suit_shown": "symbol",
                           "suit_colour": "colour"}[part.data]
                    tok = part.children[0]
                    suit[key] = self.word(tok) if _is(tok, "word") else self.string(tok)
                    self.mark((*path, key), tok)
                suits.append(suit)
            elif _is(c, "pack_ranks"):
                items = [t for t in c.children if _tok(t, "TEXT") or _tok(t, "INT")
                         or _tok(t, "RANK")]
                self.put(pack, ("pack", "ranks"), [self.string(t) if _tok(t, "TEXT") else str(t)
                                                   for t in items], c, "the pack's ranks")
                self.mark_items(("pack", "ranks"), items)
            elif _is(c, "pack_copies"):
                self.put(pack, ("pack", "copies"), int(c.children[0]), c.children[0],
                         "the pack's copies")
            elif _is(c, "pack_extra"):
                if not extra:
                    self.mark(("pack", "extra"), c)
                path = ("pack", "extra", len(extra))
                card: dict[str, Any] = {"name": self.string(c.children[0])}
                self.mark(path, c)
                for part in c.children[1:]:
                    key = "suit" if part.data == "extra_suit" else "rank"
                    card[key] = self.string(part.children[0])
                    self.mark((*path, key), part.children[0])
                extra.append(card)
        pack["suits"] = suits
        if extra:
            pack["extra"] = extra
        self.citation(st, pack, ("pack",))

    def s_teams(self, st: Any) -> None:
        teams: list[list[int]] = []
        self.put(self.tree, ("teams",), teams, st, "the list of teams")
        for c in st.children:
            tok = c.children[0]
            if c.data == "team_start":
                self.mark(("teams", len(teams)), c)
                teams.append([])
            self.mark(("teams", len(teams) - 1, len(teams[-1])), tok)
            teams[-1].append(int(tok))

    def _ranking(self, st: Any, key: str, value: Any, items: list[Any] | None = None) -> None:
        ranking = self.section("ranking", st)
        self.put(ranking, ("ranking", key), value, st, f"the ranking's '{key}'")
        if items:
            self.mark_items(("ranking", key), items)
        self.citation(st, ranking, ("ranking",))

    def s_ranks(self, st: Any) -> None:
        items = [c for c in st.children if _is(c, "rank")]
        self._ranking(st, "ranks", self.ranks(items), items)

    def s_cut_ranks(self, st: Any) -> None:
        items = [c for c in st.children if _is(c, "rank")]
        self._ranking(st, "cut_ranks", self.ranks(items), items)

    def s_top_trumps(self, st: Any) -> None:
        items = [c for c in st.children if _is(c, "card")]
        self._ranking(st, "top_trumps", [self.card(c) for c in items], items)

    def s_free_cards(self, st: Any) -> None:
        items = [c for c in st.children if _is(c, "card")]
        self._ranking(st, "free_cards", [self.card(c) for c in items], items)

    def s_losing_cards(self, st: Any) -> None:
        items = [c for c in st.children if _is(c, "card")]
        self._ranking(st, "losing_cards", [self.card(c) for c in items], items)

    def s_kept_cards(self, st: Any) -> None:
        items = [c for c in st.children if _is(c, "card")]
        self._ranking(st, "kept_cards", [self.card(c) for c in items], items)

    def s_top_follow(self, st: Any) -> None:
        what = st.children[0]
        value = {"follow_trump": "trump", "follow_printed": "printed"}.get(what.data)
        if value is None:
            value = self.word(what.children[0])
        self._ranking(st, "top_trumps_follow", value)

    def _points_table(self, st: Any, key: str) -> None:
        """``points of ranks|trumps|cards: K 4, …``: a map of points, each key located."""
        from .yamlio import key_path

        points = self.section("points", st)
        table: dict[str, int] = {}
        self.put(points, ("points", key), table, st, f"the points of {key}")
        for c in st.children:
            if not (_is(c, "rank_points") or _is(c, "card_points")):
                continue
            what, amount = c.children
            text = str(what)
            if _is(c, "card_points"):
                name = self.card(c)
            elif _tok(what, "TEXT"):  # a declared pack's rank
                name = self.string(what).strip().upper()
            else:
                name = normalize_rank(text) or text
            if name in table:
                raise self.fail(f"the points of {name} are given twice", what)
            table[name] = self.value(amount)
            self.mark(key_path(("points", key, name)), what)
            self.mark(("points", key, name), amount)
        self.citation(st, points, ("points",))

    def s_points_ranks(self, st: Any) -> None:
        self._points_table(st, "ranks")

    def s_points_trumps(self, st: Any) -> None:
        self._points_table(st, "trumps")

    def s_points_cards(self, st: Any) -> None:
        self._points_table(st, "cards")

    def s_points_last(self, st: Any) -> None:
        points = self.section("points", st)
        amount = next(c for c in st.children if _is(c, "points_value"))
        self.put(points, ("points", "last_trick"), self.value(amount), amount,
                 "the points of the last trick")
        self.citation(st, points, ("points",))

    def _dealer(self, st: Any, key: str, value: Any, node: Any = None) -> None:
        dealer = self.section("dealer", st)
        self.put(dealer, ("dealer", key), value, node if node is not None else st,
                 f"the dealer's '{key}'")

    def s_first_dealer(self, st: Any) -> None:
        what = st.children[0]
        kind = what.data
        value: Any
        if kind == "first_seat":
            value = int(what.children[0])
        elif kind == "first_word":
            value = self.word(what.children[0])
        else:
            value = {"first_cut_low": "cut_low", "first_cut_high": "cut_high",
                     "first_random": "random"}[kind]
        self._dealer(st, "first", value, what)
        self.citation(st, self.tree["dealer"], ("dealer",))

    def _skip(self, st: Any) -> None:
        for c in st.children:
            if _is(c, "skip_yes") or _is(c, "skip_no"):
                self._dealer(st, "skip_out", c.data == "skip_yes", c)
            elif _is(c, "skip_if"):
                self._dealer(st, "skip_out", self.formula(c.children[-1]), c)

    def s_rotation(self, st: Any) -> None:
        what = st.children[0]
        self._dealer(st, "rotate", self.word(what.children[-1]), what)
        self._skip(st)
        self.citation(st, self.tree["dealer"], ("dealer",))

    def s_rotation_none(self, st: Any) -> None:
        self._dealer(st, "rotate", "none")
        self._skip(st)
        self.citation(st, self.tree["dealer"], ("dealer",))

    def s_skipping_yes(self, st: Any) -> None:
        self._dealer(st, "skip_out", True)
        self.citation(st, self.tree["dealer"], ("dealer",))

    def s_skipping_no(self, st: Any) -> None:
        self._dealer(st, "skip_out", False)
        self.citation(st, self.tree["dealer"], ("dealer",))

    def _vars(self, st: Any, scope: str) -> None:
        variables = self.section("variables", st)
        table = variables.get(scope)
        if table is None:
            table = variables[scope] = {}
            self.mark(("variables", scope), st)
        for init in st.children:
            name, lit = init.children
            self.put(table, ("variables", scope, str(name)), self.value(lit), name,
                     f"the variable '{name}'")

    def s_part_source(self, st: Any) -> None:
        if str(st.children[0].children[0]) == "variables":
            self.section("variables", st)
        self.part_source(st, self.tree, ())

    def s_var_player(self, st: Any) -> None:
        self._vars(st, "player")

    def s_var_hand_player(self, st: Any) -> None:
        self._vars(st, "hand_player")

    def s_var_hand(self, st: Any) -> None:
        self._vars(st, "hand")

    def s_var_match(self, st: Any) -> None:
        self._vars(st, "match")

    def s_hand(self, st: Any) -> None:
        if "hand" in self.tree:
            first = self.pos[("hand",)][1]
            raise self.fail(f"the steps of a hand are given twice (first on line {first})", st)
        self.mark(("hand",), st)
        self.tree["hand"] = self.steps(st.children, ("hand",))

    def s_match_end(self, st: Any) -> None:
        end: dict[str, Any] = {}
        self.put(self.tree, ("end",), end, st, "the end of the match")
        for c in st.children:
            if _is(c, "formula"):
                end["when"] = self.formula(c)
                self.mark(("end", "when"), c)
            elif _is(c, "winners"):
                f = c.children[0]
                self.put(end, ("end", "winners"), self.formula(f), f, "the winners")
            elif _is(c, "score"):
                f = c.children[0]
                self.put(end, ("end", "score"), self.formula(f), f, "the score of each player")
            elif _is(c, "max_hands"):
                tok = c.children[0]
                self.put(end, ("end", "max_hands"), int(tok), tok, "the most hands")
        self.citation(st, end, ("end",))

    # -- steps ----------------------------------------------------------------

    def steps(self, children: list[Any], path: tuple[Any, ...]) -> list[dict[str, Any]]:
        """The steps among ``children``, each read by its home's reader of its rule."""
        out: list[dict[str, Any]] = []
        for c in children:
            rule = getattr(c, "data", None)
            build = _STEP_BUILDS.get(rule) if isinstance(rule, str) else None
            if build is None and isinstance(rule, str) and hasattr(self, "k_" + rule):
                build = getattr(type(self), "k_" + rule)  # a step without a home yet
            if build is not None:
                p = (*path, len(out))
                self.mark(p, c)
                step: dict[str, Any] = {}
                out.append(step)
                build(self, c, step, p)
        return out

    def assigns(self, nodes: list[Any], target: dict[str, Any], path: tuple[Any, ...]) -> None:
        for a in nodes:
            if not _is(a, "assign"):
                continue
            name, f = a.children
            self.put(target, (*path, str(name)), self.formula(f), name,
                     f"a value for '{name}' in this step")
            self.mark((*path, str(name)), f)

    def flag(self, positive: bool, rest: list[Any], node: Any) -> Any:
        conds = [x for x in rest if _is(x, "cond")]
        if not conds:
            return positive
        if not positive:
            raise self.fail(
                "a rule with a condition must be written positively: 'must … if <condition>'"
                " or 'may … if <condition>'",
                conds[0],
            )
        return self.formula(conds[0].children[0])

    def k_declare_melds(self, st: Any, step: dict[str, Any], path: tuple[Any, ...]) -> None:
        body: dict[str, Any] = {}
        step["declare_melds"] = body
        self.mark((*path, "declare_melds"), st)
        for c in st.children:
            if _is(c, "for_each"):
                value, node = (self.formula(c.children[0]), c.children[0]) if c.children \
                    else ("true", c)
                self.put(step, (*path, "for"), value, node, "who declares")
            elif _is(c, "melds_hidden"):
                self.put(body, (*path, "declare_melds", "show"), False, c, "whether melds are shown")
            elif _is(c, "melds_shown_if"):
                f = c.children[0]
                self.put(body, (*path, "declare_melds", "show"), self.formula(f), f,
                         "whether melds are shown")
        self.attrs(st, step, path)


def _join_formula_lines(src: str) -> str:
    """A formula continued over several lines (inside parentheses) as one line.

    Comments are dropped and each line break with the spaces around it becomes
    one space; quoted texts are kept as they are.

    >>> _join_formula_lines("max(0,   # never below zero\\n      score - 5)")
    'max(0, score - 5)'
    >>> _join_formula_lines("max(\\n    0, x\\n)")
    'max( 0, x )'
    """
    return _join_with_index(src)[0]


def _join_with_index(src: str) -> tuple[str, list[int]]:
    """:func:`_join_formula_lines`, with the index in ``src`` of each character."""
    out: list[str] = []
    where: list[int] = []
    i = 0
    n = len(src)
    while i < n:
        ch = src[i]
        if ch in "'\"":
            j = src.find(ch, i + 1)
            j = n if j < 0 else j + 1
            out.extend(src[i:j])
            where.extend(range(i, j))
            i = j
        elif ch == "#":
            j = src.find("\n", i)
            i = n if j < 0 else j
        elif ch == "\n":
            while out and out[-1] in " \t\r":
                out.pop()
                where.pop()
            at = i
            i += 1
            while i < n and src[i] in " \t\r\n":
                i += 1
            if out and i < n:  # one space, as in the canonical text of a folded formula
                out.append(" ")
                where.append(at)
        else:
            out.append(ch)
            where.append(i)
            i += 1
    lead = 0
    while lead < len(out) and out[lead].isspace():
        lead += 1
    while len(out) > lead and out[-1].isspace():
        out.pop()
    return "".join(out[lead:]), where[lead : len(out)]


def _readings(text: str, start: int, end: int) -> Iterator[tuple[str, list[int]]]:
    """The formula at ``text[start:end]`` as used, with its source indexes
    (a :data:`~spelbok.lang.yamlio.Decoder` for :class:`~spelbok.lang.yamlio.ScalarPosition`)."""
    joined, where = _join_with_index(text[start:end])
    yield joined, [start + i for i in where]
