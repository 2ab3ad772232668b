"""Error translation for the DSL: a Lark parse error becomes one located
:class:`~spelbok.errors.SpecError` that says in words what was expected there.
"""

from __future__ import annotations

import re
from typing import Any

from ..errors import SpecError, did_you_mean
from .dsl_parse import _Lines, _parser, _strip_comment

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
        # after a formula, 'where' (a card set's filter) is one of its operators too
        names -= operators | {by_text.get("where", "")}
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
