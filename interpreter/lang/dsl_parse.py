"""The DSL's Lark parser: the postlexer that turns indentation into blocks, the
parser built once on first use, the checks made before parsing (size, token
count) and the parse loop that refuses near misses of keywords.

The public entry is :func:`spelbok.lang.dsl.parse_dsl`; error messages are made
in :mod:`spelbok.lang.dsl_errors`, the spec tree in :mod:`spelbok.lang.dsl_build`.
"""

from __future__ import annotations

import functools
import re
import threading
from collections.abc import Iterable, Iterator
from typing import Any

from ..errors import SpecError

#: Largest DSL text accepted (characters of UTF-8 text, checked as bytes).
MAX_BYTES = 1024 * 1024
#: Deepest indentation (blocks within blocks), and most parentheses open at once.
MAX_DEPTH = 64
#: Most words, numbers, signs and quoted texts in one DSL text (comments not
#: counted): the largest shipped spec has under 1000; parsing stays quick.
MAX_TOKENS = 20_000


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
