"""The DSL's tree builder: walks the Lark parse tree and builds the raw spec tree
(the keys and shapes of the YAML surface) and its position table.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

from ..cards import SUIT_INDEX, SUITS, normalize_rank
from ..errors import SpecError
from .constructs import SECTION_HOMES, STEP_HOMES
from .dsl_nodes import is_node as _is
from .dsl_nodes import is_token as _tok

#: Position table: node path -> (file path, line, column), all 1-based.
Positions = dict[tuple[Any, ...], tuple[str, int, int]]

# Formula-valued fields whose YAML form is naturally a number: a formula that is
# just a whole number comes back as an int, like ``size: 5`` in YAML.
_INT_FIELDS = frozenset({"size", "max", "min", "repeat", "widow", "count"})


#: The DSL reader of each grammar rule of a step (its home's ``builds``).
#: The reader of each statement of the top level (a rule of ``_top``), from the homes.
_SECTION_BUILDS: dict[str, Callable[..., None]] = {
    rule: build for h in SECTION_HOMES for rule, build in h.builds.items()}
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

    def letters(self, tok: Any) -> str:
        """A bare rank or card as written; a capital letter outside the French pack's is
        one of a declared pack's own (``R``, ``RD``), so only after its ``pack:``."""
        text = str(tok)
        rank, _, rel = text.partition("@")
        if not rel and _tok(tok, "CARD"):
            rank = text[:-1]
        french = normalize_rank(rank) is not None and (
            bool(rel) or not _tok(tok, "CARD") or text[-1].upper() in SUIT_INDEX)
        if not french and "pack" not in self.tree:
            what = "card" if _tok(tok, "CARD") else "card rank"
            raise self.fail(
                f"'{text}' is not a {what} (a card is a rank 2-10, J, Q, K or A followed by "
                "a suit C, S, H, D or ♣ ♠ ♥ ♦; other letters are a declared pack's, "
                "after its 'pack:')", tok)
        return text

    def ranks(self, nodes: list[Any]) -> list[str]:
        return [self.string(n.children[0]).strip().upper() if _tok(n.children[0], "TEXT")
                else normalize_rank(self.letters(n.children[0])) or str(n.children[0])
                for n in nodes]

    def suit(self, node: Any) -> str:
        if _tok(node.children[0], "TEXT"):  # a declared pack's letter
            return self.string(node.children[0]).strip().upper()
        return SUITS[SUIT_INDEX[str(node.children[0]).upper()]]

    def card(self, node: Any) -> str:
        if _tok(node.children[0], "TEXT"):  # a declared pack's card (or rank@relation)
            # as written: the YAML surface keeps a card's case too, so both convert alike
            return self.string(node.children[0]).strip()
        text = self.letters(node.children[0])
        if "@" in text:
            rank, rel = text.split("@", 1)
            return f"{normalize_rank(rank) or rank}@{rel}"
        suit = text[-1].upper()  # a declared pack's own letter stays as written (RD, CB)
        return (f"{normalize_rank(text[:-1]) or text[:-1]}"
                f"{SUITS[SUIT_INDEX[suit]] if suit in SUIT_INDEX else suit}")

    # -- the game -------------------------------------------------------------

    def build(self, root: Any) -> None:
        self.pos[()] = (self.path, 1, 1)
        for st in root.children:  # each statement, read by its section's home
            _SECTION_BUILDS[st.data](self, st)

    def s_about(self, st: Any, target: dict[str, Any] | None = None,
                path: tuple[Any, ...] = ()) -> None:
        """An ``about`` text (a shared rule: the game's, an option's)."""
        tok = self.first_text(st.children)
        self.put(self.tree if target is None else target, (*path, "about"),
                 self.text_of(st.children), tok, "the 'about' text")

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
