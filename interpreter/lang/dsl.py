"""The spelbok DSL: a rulebook-like second surface for the spec model.

:func:`parse_dsl` reads DSL text (``grammar/spec.lark``, described in
``docs/dsl.md``) and returns the same *raw* spec tree the YAML surface gives
(same keys and shapes: put it through the schema and normalization to get the
canonical model), plus a position table.  Formulas are written inline in the
formula language of ``grammar/formula.lark``; each is stored as its exact
source text.  Every syntax error is one located :class:`~spelbok.errors.SpecError`
that says in words what was expected.

>>> tree, pos = parse_dsl('''
... spelbok 1
... game "Demo"
... players 2 to 4                      source "rules, 1"
... each hand:
...     deal 13 - hand_number cards in packets of 3 then 2
... ''', "demo.spel")
>>> tree["players"], tree["hand"]
({'min': 2, 'max': 4, 'source': 'rules, 1'}, [{'deal': {'size': '13 - hand_number', 'packets': [3, 2]}}])
>>> pos[("hand", 0, "deal", "size")]
('demo.spel', 6, 10)
"""

from __future__ import annotations

import functools
import re
import threading
from collections.abc import Iterable, Iterator
from typing import Any

from ..cards import SUIT_INDEX, SUITS, normalize_rank
from ..errors import SpecError, did_you_mean

__all__ = ["parse_dsl", "near_keyword", "Positions", "MAX_BYTES", "MAX_DEPTH", "MAX_TOKENS"]

#: Position table: node path -> (file path, line, column), all 1-based.
Positions = dict[tuple[Any, ...], tuple[str, int, int]]

#: Largest DSL text accepted (characters of UTF-8 text, checked as bytes).
MAX_BYTES = 1024 * 1024
#: Deepest indentation (blocks within blocks), and most parentheses open at once.
MAX_DEPTH = 64
#: Most words, numbers, signs and quoted texts in one DSL text (comments not
#: counted): the largest shipped spec has under 1000; parsing stays quick.
MAX_TOKENS = 20_000

# Formula-valued fields whose YAML form is naturally a number: a formula that is
# just a whole number comes back as an int, like ``size: 5`` in YAML.
_INT_FIELDS = frozenset({"size", "max", "min", "repeat", "widow", "count"})


# ---------------------------------------------------------------------------- parser


class _Lines:
    """Postlexer: line breaks -> _NL, indentation -> _INDENT / _DEDENT tokens.

    Inside parentheses line breaks are dropped (a formula may continue on the
    next lines).  Inconsistent indentation raises a located SpecError.
    """

    always_accept = ("_NL",)

    def __init__(self) -> None:
        self.local = threading.local()

    @property
    def last_type(self) -> str:
        """The type of the last token handed to the parser (this thread)."""
        return getattr(self.local, "last_type", "")

    @property
    def open_parens(self) -> list[Any]:
        """The '(' tokens not yet closed where the last parse stopped (this thread)."""
        return getattr(self.local, "open_parens", [])

    def process(self, stream: Iterator[Any]) -> Iterator[Any]:
        for tok in self._process(stream):
            self.local.last_type = tok.type
            yield tok

    def _process(self, stream: Iterator[Any]) -> Iterator[Any]:
        from lark import Token

        levels = [0]
        open_parens: list[Any] = []
        self.local.open_parens = open_parens
        self.local.last_type = ""
        first = True
        last: Any = None
        for tok in stream:
            if first:
                first = False
                if tok.type != "_NL" and tok.column != 1:
                    raise SpecError(
                        "unexpected indentation: the first line must start at column 1",
                        None,
                        tok.line,
                        1,
                    )
            last = tok
            if tok.type != "_NL":
                if tok.type == "LPAR":
                    open_parens.append(tok)
                    if len(open_parens) > MAX_DEPTH:
                        raise SpecError(
                            f"the formula is nested too deeply (more than {MAX_DEPTH}"
                            " parentheses open at once)",
                            None, tok.line, tok.column,
                        )
                elif tok.type == "RPAR" and open_parens:
                    open_parens.pop()
                yield tok
                continue
            if open_parens:
                continue  # a formula continues on the next line
            yield tok
            indent_str = tok.value.rsplit("\n", 1)[1]
            width = len(indent_str.expandtabs(8))
            line = tok.end_line or tok.line
            col = len(indent_str) + 1

            def make(kind: str, tok: Any = tok, line: int = line, col: int = col) -> Any:
                return Token(kind, "", tok.end_pos, line, col, line, col, tok.end_pos)

            if width > levels[-1]:
                levels.append(width)
                if len(levels) > MAX_DEPTH:
                    raise SpecError(
                        f"the spec is nested too deeply (more than {MAX_DEPTH} indented levels)",
                        None,
                        line,
                        col,
                    )
                yield make("_INDENT")
                continue
            if width not in levels:
                widths = " or ".join(str(w) for w in reversed(levels))
                raise SpecError(
                    f"bad indentation: this line is indented by {width} spaces, which matches"
                    f" no enclosing block (expected an indentation of {widths} spaces)",
                    None,
                    line,
                    col,
                )
            while width < levels[-1]:
                levels.pop()
                yield make("_DEDENT")
        while len(levels) > 1:
            levels.pop()
            if last is not None:
                yield Token("_DEDENT", "", last.end_pos, last.end_line, last.end_column,
                            last.end_line, last.end_column, last.end_pos)
            else:  # pragma: no cover - an empty stream has no indentation
                yield Token("_DEDENT", "", 0, 1, 1, 1, 1, 0)


@functools.lru_cache(maxsize=1)
def _parser() -> Any:
    """The Lark parser, built once on first use (``import spelbok.lang.dsl`` builds nothing)."""
    from lark import Lark

    return Lark.open_from_package(
        "spelbok.grammar",
        "spec.lark",
        parser="lalr",
        lexer="contextual",
        propagate_positions=True,
        maybe_placeholders=False,
        postlex=_Lines(),
    )


# ---------------------------------------------------------------------------- errors

_FORMULA_START = {"NAME", "INT", "formula__STRING", "LPAR", "MINUS", "NOT", "IF", "TRUE", "FALSE"}
_OPERATORS = {"PLUS", "MINUS", "STAR", "SLASH", "PERCENT", "LESSTHAN", "MORETHAN", "AND", "OR"}
# terminals Lark names __ANON_n (the number depends on the grammar): found by their text
_OPERATOR_TEXTS = {"==", "!=", "<=", ">="}
_QUIET_TEXTS = {"—"}
_DESCRIBE = {
    "NAME": "a name",
    "INT": "a whole number",
    "formula__STRING": "a quoted text",
    "WORD": "a word",
    "TEXT": 'a quoted text like "…"',
    "RANK": "a card rank like A, K, 10",
    "SUIT": "a suit like ♣ or C",
    "CARD": "a card like J♣ or 10H",
    "ALL_CARDS": "'all cards'",
    "_NL": "the end of the line",
    "_INDENT": "an indented block of lines",
    "_DEDENT": "the end of the indented block",
    "$END": "the end of the file",
}
_QUIET = {"SOURCE", "COMMENT"}  # the trailing citation is possible almost anywhere


def _terminal_words(names: set[str]) -> tuple[list[str], list[str]]:
    """(readable descriptions, keyword texts) for a set of expected terminal names."""
    parser = _parser()
    by_name = {t.name: t for t in parser.terminals}
    by_text = {t.pattern.value: t.name for t in parser.terminals if t.pattern.type == "str"}
    operators = _OPERATORS | {by_text[v] for v in _OPERATOR_TEXTS if v in by_text}
    quiet = _QUIET | {by_text[v] for v in _QUIET_TEXTS if v in by_text}
    names = set(names)
    if "_NL" in names:  # a trailing citation is possible at almost every line end
        names -= quiet
    out: list[str] = []
    keywords: list[str] = []
    if "NAME" in names and "LPAR" in names:
        out.append("a formula")
        names -= _FORMULA_START
    if len(names & operators) >= 3:
        out.append("an operator like + or ==")
        names -= operators
    ordered = sorted(names, key=lambda n: (n in _DESCRIBE, n))
    for n in ordered:
        if n in _DESCRIBE:
            out.append(_DESCRIBE[n])
            continue
        term = by_name.get(n)
        value = term.pattern.value if term is not None and term.pattern.type == "str" else None
        if value is None:
            out.append(n.lower())
            continue
        out.append(f"'{value}'")
        if re.fullmatch(r"[a-z][a-z_-]*", value):
            keywords.append(value)
    return out, keywords


def _or_list(items: list[str], limit: int = 10) -> str:
    if len(items) > limit:
        items = items[:limit] + ["…"]
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " or " + items[-1]


def _context(lines: list[str], line: int, col: int) -> str:
    """Words for where an error is: "after '…'" (the text before it) or "at …"."""
    src = lines[line - 1] if 0 < line <= len(lines) else ""
    before = _strip_comment(src[: col - 1]).strip()
    if not before:
        for prev in range(line - 2, -1, -1):
            text = _strip_comment(lines[prev]).strip()
            if text:
                before = text
                break
        else:
            return "at the start of the spec"
    if len(before) > 50:
        before = "…" + before[-48:]
    return f"after '{before}'"


def _strip_comment(line: str) -> str:
    quote = ""
    for i, ch in enumerate(line):
        if quote:
            if ch == "\\" and quote == '"':
                continue
            if ch == quote:
                quote = ""
        elif ch in "\"'":
            quote = ch
        elif ch == "#":
            return line[:i]
    return line


def _expected(exc: Any, fallback: Any) -> set[str]:
    """The terminals the parser could take where it stopped (not just what the lexer tried)."""
    from copy import copy

    from lark import Token
    from lark.exceptions import UnexpectedToken

    state = getattr(exc, "state", None)
    try:
        keys = state.parse_conf.states[state.position].keys()  # type: ignore[union-attr]
    except (AttributeError, KeyError, TypeError):
        return set(fallback)
    terminals = {k for k in keys if k.split("__")[-1].isupper() or k == "$END"}
    # LALR merges look-aheads of similar states: keep only what really goes on from here
    conf = copy(state.parse_conf)  # type: ignore[union-attr]
    conf.callbacks = {}
    accepted: set[str] = set()
    for name in terminals:
        trial = state.copy(deepcopy_values=False)  # type: ignore[union-attr]
        trial.parse_conf = conf
        try:
            trial.feed_token(Token(name, ""), is_end=name == "$END")
        except UnexpectedToken:
            continue
        except Exception:  # pragma: no cover - be generous: an error message is at stake
            pass
        accepted.add(name)
    return accepted or terminals


_WORD_AT = re.compile(r"[^\s,:()#\"']+|\S")


def _translate(exc: Exception, text: str, path: str, lines_pp: _Lines) -> SpecError:
    from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedToken

    lines = text.split("\n")
    if isinstance(exc, UnexpectedEOF):  # not raised by LALR, handled all the same
        line, col = len(lines), len(lines[-1]) + 1
        kind, value = "$END", ""
        expected = {getattr(e, "name", str(e)) for e in exc.expected or ()}
    elif isinstance(exc, UnexpectedToken):
        tok = exc.token
        kind = tok.type
        if kind == "$END":
            line = len(lines)
            col = len(lines[-1]) + 1
        else:
            line, col = tok.line, tok.column
        expected = _expected(exc, exc.expected)
        value = str(tok.value)
    elif isinstance(exc, UnexpectedCharacters):
        line, col = exc.line, exc.column
        expected = _expected(exc, exc.allowed or ())
        src = lines[line - 1] if 0 < line <= len(lines) else ""
        m = _WORD_AT.match(src, col - 1)
        value = m.group() if m else src[col - 1 : col]
        kind = "?"
        if value[:1] in "\"'":
            rest = src[col:]
            if value[0] not in _strip_comment(rest) and value[0] not in rest:
                return SpecError(
                    f"unclosed quoted text: the text that starts here needs a closing {value[0]}"
                    " on the same line (a long text may go on several quoted lines)",
                    path, line, col,
                )
    else:  # pragma: no cover - only the two Lark errors above reach here
        return SpecError(str(exc), path)

    described, keywords = _terminal_words(expected)
    where = _context(lines, line, col)
    if kind == "_INDENT":
        problem = "unexpected indentation"
    elif kind == "_DEDENT" or kind == "$END":
        problem = "the block ends too early" if kind == "_DEDENT" else "the spec ends too early"
    elif kind == "_NL":
        problem = "the line ends too early"
    elif value.isdigit() and "INT" not in expected and (
        "RANK" not in expected or value in ("1", "0")
    ):
        problem = f"unexpected number {value}"
    else:
        problem = f"unexpected '{value}'"
    hint = None
    if "RANK" in expected and kind not in ("_NL", "_DEDENT", "$END", "_INDENT"):
        problem = f"'{value}' is not a card rank (ranks are 2 3 4 5 6 7 8 9 10 J Q K A)"
    elif "CARD" in expected and kind not in ("_NL", "_DEDENT", "$END", "_INDENT"):
        problem = (
            f"'{value}' is not a card (a card is a rank 2-10, J, Q, K or A followed by"
            " a suit C, S, H, D or ♣ ♠ ♥ ♦)"
        )
    elif "SUIT" in expected and kind not in ("_NL", "_DEDENT", "$END", "_INDENT"):
        problem = f"'{value}' is not a suit (suits are C S H D or ♣ ♠ ♥ ♦)"
    elif re.fullmatch(r"[A-Za-z_][\w-]*", value) and keywords:
        hint = did_you_mean(value, keywords)
        if hint is None and value.lower() in keywords:
            hint = value.lower()
        if not {"NAME", "WORD"} & expected:
            problem = f"unknown word '{value}'"
    if (
        hint is None
        and lines_pp.last_type == "_INDENT"
        and kind not in ("_INDENT", "_DEDENT", "_NL", "$END")
        and "_INDENT" not in expected
    ):
        problem += " (or is this line indented too far?)"
    if lines_pp.open_parens and kind not in ("_NL",):
        paren = lines_pp.open_parens[-1]
        if paren.line < line:
            problem += f" (the '(' on line {paren.line}, column {paren.column}, is never closed)"
    message = f"{problem}: expected {_or_list(described)} {where}"
    return SpecError(message, path, line, col, hint=hint)


# ---------------------------------------------------------------------------- building


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
        return [normalize_rank(str(n.children[0])) or str(n.children[0]) for n in nodes]

    @staticmethod
    def suit(node: Any) -> str:
        return SUITS[SUIT_INDEX[str(node.children[0]).upper()]]

    @staticmethod
    def card(node: Any) -> str:
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

    def s_top_follow(self, st: Any) -> None:
        what = st.children[0]
        value = {"follow_trump": "trump", "follow_printed": "printed"}.get(what.data)
        if value is None:
            value = self.word(what.children[0])
        self._ranking(st, "top_trumps_follow", value)

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
        out: list[dict[str, Any]] = []
        for c in children:
            if hasattr(c, "data") and hasattr(self, "k_" + c.data):
                p = (*path, len(out))
                self.mark(p, c)
                step: dict[str, Any] = {}
                out.append(step)
                getattr(self, "k_" + c.data)(c, step, p)
        return out

    def k_deal(self, st: Any, step: dict[str, Any], path: tuple[Any, ...]) -> None:
        deal: dict[str, Any] = {}
        step["deal"] = deal
        self.mark((*path, "deal"), st)
        size = st.children[0]
        deal["size"] = self.formula(size, "size")
        self.mark((*path, "deal", "size"), size)
        packets = [c for c in st.children if _is(c, "packet")]
        if packets:
            deal["packets"] = [int(c.children[0]) for c in packets]
            self.mark_items((*path, "deal", "packets"), packets)
        for c in st.children[1:]:
            if _is(c, "deal_to"):
                f = c.children[0]
                deal["to"] = self.formula(f)
                self.mark((*path, "deal", "to"), f)
            elif _is(c, "widow"):
                f = c.children[0]
                deal["widow"] = self.formula(f, "widow")
                self.mark((*path, "deal", "widow"), f)
        self.attrs(st, step, path)

    def k_turn_up(self, st: Any, step: dict[str, Any], path: tuple[Any, ...]) -> None:
        turn: dict[str, Any] = {}
        step["turn_up"] = turn
        self.mark((*path, "turn_up"), st)
        for c in st.children:
            if _is(c, "turn_trump"):
                conds = [x for x in c.children if _is(x, "cond")]
                turn["trump"] = self.formula(conds[0].children[0]) if conds else True
                self.mark((*path, "turn_up", "trump"), _cond_at(c.children, c))
            elif _is(c, "turn_no_trump"):
                turn["trump"] = False
                self.mark((*path, "turn_up", "trump"), c)
        self.attrs(st, step, path)

    def who(self, node: Any, step: dict[str, Any], path: tuple[Any, ...], key: str,
            where_key: str) -> None:
        kind = node.data
        if kind == "who":
            node = node.children[0]
            kind = node.data
        if kind == "who_each":
            step[key] = "each"
            self.mark((*path, key), node)
            if node.children:
                f = node.children[0]
                step[where_key] = self.formula(f)
                self.mark((*path, where_key), f)
            return
        if kind == "who_first":
            self.who(node.children[0], step, path, key, where_key)
            f = node.children[1]
            step[where_key] = self.formula(f)
            self.mark((*path, where_key), f)
            return
        self.mark((*path, key), node)
        if kind == "who_dealer":
            step[key] = "dealer"
        elif kind == "who_forehand":
            step[key] = "forehand"
        elif kind == "who_last_winner":
            step[key] = "last_winner"
        elif kind == "who_text":
            step[key] = self.string(node.children[0])
        else:  # who_most
            most: dict[str, Any] = {"most": self.formula(node.children[0])}
            self.mark((*path, key, "most"), node.children[0])
            if len(node.children) > 1:
                most["ties"] = self.word(node.children[1])
                self.mark((*path, key, "ties"), node.children[1])
            step[key] = most

    def k_decide(self, st: Any, step: dict[str, Any], path: tuple[Any, ...]) -> None:
        who, name, choice = st.children[:3]
        step["decide"] = self.word(name)
        self.mark((*path, "decide"), name)
        self.who(who, step, path, "who", "where")
        self.mark((*path, "choose"), choice)
        if choice.data == "choose_suit":
            step["choose"] = "suit"
            if choice.children:
                step["suits"] = [self.suit(s) for s in choice.children]
                self.mark_items((*path, "suits"), choice.children)
        elif choice.data == "choose_number":
            step["choose"] = "number"
            for key, f in zip(("min", "max"), choice.children, strict=True):
                step[key] = self.formula(f, key)
                self.mark((*path, key), f)
        elif choice.data == "choose_exchange":
            step["choose"] = "exchange"
            zone = choice.children[0]
            exch: dict[str, Any] = {}
            step["exchange"] = exch
            self.mark((*path, "exchange"), zone)
            exch["draw_from"] = self.zone(zone)
            self.mark((*path, "exchange", "draw_from"), zone)
            for b in choice.children[1:]:
                key = "max" if b.data == "bound_max" else "min"
                f = b.children[0]
                self.put(exch, (*path, "exchange", key), self.formula(f, key), f,
                         f"the exchange's {'most' if key == 'max' else 'least'} number of cards")
        else:
            words: list[Any] = []
            step["choose"] = words
            for i, w in enumerate(choice.children):
                word, *cond = w.children
                self.mark((*path, "choose", i), w)
                if cond:
                    words.append({"word": self.word(word), "when": self.formula(cond[0])})
                    self.mark((*path, "choose", i, "word"), word)
                    self.mark((*path, "choose", i, "when"), cond[0])
                else:
                    words.append(self.word(word))
        for c in st.children[3:]:
            if _is(c, "then_line"):
                then = step.setdefault("then", {})
                if len(then) == 0:
                    self.mark((*path, "then"), c)
                self.assigns(c.children, then, (*path, "then"))
            elif _is(c, "decide_allow"):
                f = c.children[0]
                self.put(step, (*path, "allow"), self.formula(f), f,
                         "the condition on the choices ('allowed when')")
        self.attrs(st, step, path)

    def zone(self, node: Any) -> str:
        """A zone's name: ``the stock`` -> ``stock``, ``zone WORD`` -> the word."""
        if node.data == "zone_word":
            return self.word(node.children[0])
        return node.data[len("zone_"):]

    def assigns(self, nodes: list[Any], target: dict[str, Any], path: tuple[Any, ...]) -> None:
        for a in nodes:
            if not _is(a, "assign"):
                continue
            name, f = a.children
            self.put(target, (*path, str(name)), self.formula(f), name,
                     f"a value for '{name}' in this step")
            self.mark((*path, str(name)), f)

    def k_tricks(self, st: Any, step: dict[str, Any], path: tuple[Any, ...]) -> None:
        tricks: dict[str, Any] = {}
        step["tricks"] = tricks
        tp = (*path, "tricks")
        self.mark(tp, st)
        verbs: list[Any] = []
        for c in st.children:
            kind = getattr(c, "data", None)
            if kind in ("trick_count", "count_line"):
                f = c.children[0].children[0] if kind == "count_line" else c.children[0]
                self.put(tricks, (*tp, "count"), self.formula(f, "count"), f,
                         "the number of tricks")
            elif kind in ("scored_yes", "scored_no"):
                self.put(tricks, (*tp, "scored"), self.flag(kind == "scored_yes", c.children, c),
                         _cond_at(c.children, c), "whether these tricks count")
            elif kind == "after_each":
                self.put(tricks, (*tp, "after_each"), [], c, "the steps after each trick")
                tricks["after_each"] = self.steps(c.children, (*tp, "after_each"))
            elif kind == "formula":
                tricks["players"] = self.formula(c)
                self.mark((*tp, "players"), c)
            elif kind in ("who", "who_each", "who_first"):
                self.who(c, tricks, tp, "leader", "leader_where")
            elif kind in _DUTY_FIELDS:
                duty, *rest = c.children
                key = _DUTY_FIELDS[kind]
                self.put(tricks, (*tp, key), self.flag(duty.data == "must", rest, c),
                         _cond_at(rest, c), f"the rule '{key}'")
            elif kind in ("lead_any", "lead_broken", "lead_word"):
                value = ("any" if kind == "lead_any" else "broken" if kind == "lead_broken"
                         else self.word(c.children[0]))
                self.put(tricks, (*tp, "lead_trumps"), value, c, "the rule on leading trumps")
            elif kind in ("broken_ruff", "broken_any", "broken_word"):
                value = ("ruff" if kind == "broken_ruff" else "any" if kind == "broken_any"
                         else self.word(c.children[0]))
                self.put(tricks, (*tp, "trumps_broken_by"), value, c, "what breaks trumps")
            elif kind in ("first_trick_yes", "first_trick_no"):
                self.put(tricks, (*tp, "first_trick_trumps"),
                         self.flag(kind == "first_trick_yes", c.children, c),
                         _cond_at(c.children, c), "the rule on trumps in the first trick")
            elif kind == "abstain":
                verb = c.children[0]
                verbs.append(verb)
                self.put(tricks, (*tp, "abstain_word"), self.word(verb), verb,
                         "the word for abstaining")
                conds = [x for x in c.children if _is(x, "cond")]
                value = self.formula(conds[0].children[0]) if conds else "true"
                self.put(tricks, (*tp, "abstain"), value, _cond_at(c.children, c),
                         "the rule on abstaining")
            elif kind in ("abstain_lead", "abstain_with_suit"):
                may = not any(_is(x, "may_not") for x in c.children)
                rest = [x for x in c.children if not _is(x, "may_not")]
                verbs.append(rest[0])
                self.put(tricks, (*tp, kind), self.flag(may, rest[1:], c),
                         _cond_at(rest, c), f"the rule '{kind}'")
            elif kind == "allow":
                f = c.children[0]
                self.put(tricks, (*tp, "allow"), self.formula(f), f, "the rule 'allow'")
                for tok in c.children[1:]:  # ', otherwise "…"': the reason for a refused card
                    self.put(tricks, (*tp, "reason"), self.string(tok), tok,
                             "the reason for a refused card")
        word = tricks.get("abstain_word", "knock")
        for verb in verbs:
            if self.word(verb) != word:
                raise self.fail(
                    f"this rule calls abstaining '{self.word(verb)}', but the trick rules call it"
                    f" '{word}': use one word (set it with 'a player may {word} if …')",
                    verb,
                )
        self.attrs(st, step, path)

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

    def k_set_step(self, st: Any, step: dict[str, Any], path: tuple[Any, ...]) -> None:
        values: dict[str, Any] = {}
        step["set"] = values
        self.mark((*path, "set"), st)
        for c in st.children:
            if _is(c, "for_each"):
                if c.children:
                    step["for"] = self.formula(c.children[0])
                    self.mark((*path, "for"), c.children[0])
                else:
                    step["for"] = "true"
                    self.mark((*path, "for"), c)
        self.assigns(st.children, values, (*path, "set"))
        self.attrs(st, step, path)

    def k_move(self, st: Any, step: dict[str, Any], path: tuple[Any, ...]) -> None:
        move: dict[str, Any] = {}
        step["move"] = move
        mp = (*path, "move")
        self.mark(mp, st)
        zones = iter(("from", "to"))
        for c in st.children:
            kind = getattr(c, "data", None)
            if kind == "move_all":
                move["count"] = "all"
                self.mark((*mp, "count"), c)
            elif kind == "move_some":
                f = c.children[0]
                move["count"] = self.formula(f, "count")
                self.mark((*mp, "count"), f)
            elif kind is not None and kind.startswith("zone_"):
                key = next(zones)
                move[key] = self.zone(c)
                self.mark((*mp, key), c)
            elif kind in ("for_each", "move_whose"):
                if c.children:
                    value, node = self.formula(c.children[0]), c.children[0]
                else:
                    value, node = "true", c
                self.put(step, (*path, "for"), value, node, "whose hand ('of each player')")
            elif kind in _PLACES:
                move["position"] = _PLACES[kind] or self.word(c.children[0])
                self.mark((*mp, "position"), c)
        for key in ("from", "to", "count", "position"):  # the order of the YAML surface
            if key in move:
                move[key] = move.pop(key)
        self.attrs(st, step, path)

    def k_if_step(self, st: Any, step: dict[str, Any], path: tuple[Any, ...]) -> None:
        cond = st.children[0]
        step["if"] = self.formula(cond)
        self.mark((*path, "if"), cond)
        self.mark((*path, "then"), st)
        step["then"] = self.steps(st.children[1:], (*path, "then"))
        self.attrs(st, step, path)
        for c in st.children:
            if _is(c, "else_block"):
                self.mark((*path, "else"), c)
                step["else"] = self.steps(c.children, (*path, "else"))
                self.attrs(c, step, path)

    def k_repeat(self, st: Any, step: dict[str, Any], path: tuple[Any, ...]) -> None:
        formulas = [c for c in st.children if _is(c, "formula")]
        step["repeat"] = self.formula(formulas[0], "repeat")
        self.mark((*path, "repeat"), formulas[0])
        if len(formulas) > 1:
            step["while"] = self.formula(formulas[1])
            self.mark((*path, "while"), formulas[1])
        self.mark((*path, "steps"), st)
        step["steps"] = self.steps(st.children[len(formulas):], (*path, "steps"))
        self.attrs(st, step, path)

    def k_redeal(self, st: Any, step: dict[str, Any], path: tuple[Any, ...]) -> None:
        redeal: dict[str, Any] = {}
        step["redeal"] = redeal
        self.mark((*path, "redeal"), st)
        for c in st.children:
            if _is(c, "redeal_same") or _is(c, "redeal_next"):
                redeal["dealer"] = "same" if c.data == "redeal_same" else "next"
                self.mark((*path, "redeal", "dealer"), c)
            elif _is(c, "redeal_word"):
                redeal["dealer"] = self.word(c.children[0])
                self.mark((*path, "redeal", "dealer"), c.children[0])
        self.attrs(st, step, path)

    def k_end_hand(self, st: Any, step: dict[str, Any], path: tuple[Any, ...]) -> None:
        step["end_hand"] = True
        self.mark((*path, "end_hand"), st)
        self.attrs(st, step, path)


# where a move puts cards in the stock ('' : the option named by a word)
_PLACES = {"place_shuffled": "shuffled", "place_top": "top", "place_bottom": "bottom",
           "place_word": ""}

_DUTY_FIELDS = {
    "follow": "follow",
    "head": "head",
    "head_after_trump": "head_after_trump",
    "void_trump": "void_trump",
    "void_beat": "void_beat",
    "overtrump": "overtrump",
}


def _cond_at(children: list[Any], default: Any) -> Any:
    """The formula of an ``if …`` among children (to locate it), else ``default``."""
    for c in children:
        if _is(c, "cond"):
            return c.children[0]
    return default


def _is(node: Any, data: str) -> bool:
    return getattr(node, "data", None) == data


def _tok(node: Any, kind: str) -> bool:
    return getattr(node, "type", None) == kind


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


# ---------------------------------------------------------------------------- entry point


def parse_dsl(text: str, path: str) -> tuple[dict[str, Any], Positions]:
    """Parse DSL text into the raw spec tree and its position table.

    ``path`` names the file in positions and errors.  The tree has the keys and
    shapes of the YAML surface; the position table maps each node path (a tuple
    of keys and list indexes, ``()`` for the root) to ``(path, line, column)``.
    Every problem is a :class:`~spelbok.errors.SpecError` located in ``path``.

    >>> parse_dsl('spelbok 1\\ngame "Demo"\\nplayers 2 to 5\\n', "d.spel")[0]
    {'spelbok': 1, 'name': 'Demo', 'players': {'min': 2, 'max': 5}}
    >>> parse_dsl('spelbok 1\\nranks from high to low: A K 1\\n', "d.spel")
    Traceback (most recent call last):
    ...
    spelbok.errors.SpecError: d.spel:2:29: '1' is not a card rank (ranks are 2 3 4 5 6 7 8 9 10 J Q K A): expected a card rank like A, K, 10 or the end of the line after 'ranks from high to low: A K'
    """
    from lark.exceptions import UnexpectedInput, VisitError

    _check_text(text, path)
    _check_tokens(text, path)
    if not _strip_blank(text):
        raise SpecError(
            "the spec is empty: a DSL spec starts with 'spelbok 1' and 'game \"Name\"'",
            path, 1, 1,
        )
    if not text.endswith("\n"):
        text += "\n"
    parser = _parser()
    try:
        root = _parse_checking_words(parser, text)
    except UnexpectedInput as exc:
        raise _translate(exc, text, path, parser.options.postlex) from None
    except SpecError as exc:
        raise exc.located(path) from None
    except RecursionError:  # pragma: no cover - the depth limit comes first
        raise SpecError("the spec is nested too deeply", path) from None
    except VisitError as exc:  # pragma: no cover - no transformer runs during parsing
        raise SpecError(str(exc.orig_exc), path) from None
    builder = _Builder(text, path)
    try:
        builder.build(root)
    except RecursionError:  # pragma: no cover - the depth limit comes first
        raise SpecError("the spec is nested too deeply", path) from None
    return builder.tree, builder.pos


def _parse_checking_words(parser: Any, text: str) -> Any:
    """Parse ``text``, refusing a bare word that is a near miss of a keyword the
    grammar also takes at its place (``, defualt b`` would else be one more option
    value), and numbers too large; when the parse fails right after a word that is
    a near miss of a keyword it could have been (``follow teh trump suit``), the
    error is that word."""
    from lark import Token
    from lark.exceptions import UnexpectedInput

    from .yamlio import whole_number

    ip = parser.parse_interactive(text)
    state = ip.parser_state
    tok: Any = None
    last_word: tuple[Any, tuple[str, ...]] | None = None
    try:
        for tok in ip.lexer_thread.lex(state):  # the loop of Lark's own LALR parse
            keywords: tuple[str, ...] = ()
            if tok.type == "INT":
                try:
                    whole_number(str(tok), str(tok))
                except SpecError as exc:
                    raise exc.located(None, tok.line, tok.column) from None
            elif tok.type == "WORD":
                keywords, free = _word_keywords(state)
                near = near_keyword(str(tok), keywords) if free else None
                if near is not None:
                    raise SpecError(
                        f"unknown word '{tok}' (to mean the word itself, write it in quotes:"
                        f' "{tok}")',
                        None, tok.line, tok.column, hint=near,
                    )
            state.feed_token(tok)
            last_word = (tok, keywords) if keywords else None
    except UnexpectedInput:
        near = near_keyword(str(last_word[0]), last_word[1], shortest=3) if last_word else None
        if last_word is None or near is None:
            raise
        word = last_word[0]
        raise SpecError(f"unknown word '{word}'", None, word.line, word.column, hint=near) from None
    end = Token.new_borrow_pos("$END", "", tok) if tok is not None else Token("$END", "", 0, 1, 1)
    return state.feed_token(end, True)


_STATE_KEYWORDS: dict[int, tuple[tuple[str, ...], bool]] = {}


def _word_keywords(state: Any) -> tuple[tuple[str, ...], bool]:
    """The keywords the parser's state takes besides a word, and whether the word
    is a free one (bare or quoted: ``WORD | TEXT``), not a name (a variable's, say)."""
    got = _STATE_KEYWORDS.get(state.position)
    if got is None:
        keys = state.parse_conf.states[state.position]
        texts = {t.name: t.pattern.value for t in _parser().terminals if t.pattern.type == "str"}
        got = (
            tuple(sorted(
                texts[k] for k in keys if re.fullmatch(r"[a-z][a-z-]+", texts.get(k, ""))
            )),
            "WORD" in keys and "TEXT" in keys,
        )
        _STATE_KEYWORDS[state.position] = got
    return got


def near_keyword(word: str, keywords: Iterable[str], shortest: int = 4) -> str | None:
    """The keyword ``word`` looks like a misspelling of, if any.

    Keywords shorter than ``shortest`` are left out (too many real words are one
    letter away from 'the' or 'not'); a keyword of up to 6 letters allows one
    slip (a letter wrong, missing, extra, or two letters swapped), a longer one two.

    >>> near_keyword("defualt", ["default", "true"]), near_keyword("Default", ["default"])
    ('default', 'default')
    >>> near_keyword("defaults", ["default"]), near_keyword("pass", ["default", "true"])
    ('default', None)
    """
    low = word.lower()
    best: tuple[int, str] | None = None
    for kw in keywords:
        if len(kw) < shortest:
            continue
        limit = 1 if len(kw) <= 6 else 2
        if abs(len(low) - len(kw)) > limit:
            continue
        d = _slips(low, kw)
        if d <= limit and (best is None or d < best[0]):
            best = (d, kw)
    return None if best is None or word == best[1] else best[1]


def _slips(a: str, b: str) -> int:
    """Edit distance with swaps of two neighbouring letters (optimal string alignment)."""
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        row = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            row[j] = min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                row[j] = min(row[j], prev2[j - 2] + 1)
        prev2, prev = prev, row
    return prev[len(b)]


_TOKEN_RE = re.compile(r'"(?:[^"\\\n]|\\.)*"|#[^\n]*|\w+|[^\w\s]')


def _check_tokens(text: str, path: str) -> None:
    """Refuse a text of more than MAX_TOKENS words and signs before parsing it
    (a quick count by a regular expression: a huge spec fails at once)."""
    count = 0
    for m in _TOKEN_RE.finditer(text):
        if m.group()[0] == "#":
            continue
        count += 1
        if count > MAX_TOKENS:
            at = m.start()
            raise SpecError(
                f"the spec is too large (more than {MAX_TOKENS} words, numbers and signs)",
                path, text.count("\n", 0, at) + 1, at - text.rfind("\n", 0, at),
            )


def _strip_blank(text: str) -> str:
    return "".join(_strip_comment(line).strip() for line in text.split("\n"))


def _check_text(text: str, path: str) -> None:
    try:
        from .yamlio import check_text
    except ImportError:  # pragma: no cover - yamlio ships with spelbok
        if len(text.encode("utf-8", "surrogatepass")) > MAX_BYTES:
            raise SpecError(
                f"the spec text is too large (more than {MAX_BYTES} bytes)", path
            ) from None
        return
    check_text(text, path)
