"""The DSL writer's text helpers: quoting, words, formulas, the lines of a text.

Shared by :mod:`spelbok.lang.dslwrite` (the driver) and the constructs' homes (each
writes its own phrases with these).

>>> word("trump"), word("two words"), formula(True), cond("true")
('trump', '"two words"', 'true', True)
>>> card("10H"), card("JK")
('10♥', '"JK"')
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from ..cards import SUIT_INDEX, SUIT_SYMBOLS, WRITTEN_RANK, WRITTEN_SUIT
from ..errors import SpecError
from .dsl_parse import near_keyword
from .yamlio import check_text

if TYPE_CHECKING:
    from .declare import Construct

__all__ = ["WIDTH", "Out", "UnwritableError", "assignments", "card", "cards", "check", "cond", "flag", "formula", "keys",
           "literal", "quote", "rank", "source", "suits", "text", "value", "word"]

_WORD_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
WIDTH = 100  # longest line for inline texts and assignments
_TEXT_WIDTH = 76  # a long text is cut into quoted lines of about this width


class Out:
    """The DSL lines written so far.  The writer (:mod:`spelbok.lang.dslwrite`) gives
    ``steps`` (write a list of steps) and ``attrs`` (a step's common lines)."""

    def __init__(self, direction: str = "left") -> None:
        self.lines: list[str] = []
        self.direction = direction  # the spec's play direction (defaults that follow it)
        self.declared_pack = False  # the spec declares its pack (cards keep their letters)

    def add(self, indent: int, text: str) -> None:
        self.lines.append("    " * indent + text)

    def blank(self) -> None:
        if self.lines and self.lines[-1] != "":
            self.lines.append("")

    def steps(self, indent: int, steps: list[Any]) -> None:
        """Writes ``steps``, each by its kind's writer (the driver's)."""
        raise NotImplementedError

    def attrs(self, indent: int, step: Mapping[str, Any], part: str | None = None) -> None:
        """Writes the lines every step may have: the source of its ``part``, when, label,
        source (the driver's)."""
        raise NotImplementedError


def quote(text: str) -> str:
    """``text`` between double quotes, escaped as the DSL reads it back."""
    out = ['"']
    for ch in text:
        if ch == "\\":
            out.append("\\\\")
        elif ch == '"':
            out.append('\\"')
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ch == "\r":
            out.append("\\r")
        elif not ch.isprintable() and ch != " ":
            code = ord(ch)
            out.append(f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def word(value: Any, reserved: Iterable[str] = ()) -> str:
    """A word as written: bare when it is a plain word, else quoted (also when it
    is one of the keywords taken at its place, or a near miss of one: the parser
    refuses those bare)."""
    text = str(value)
    keywords = tuple(reserved)
    if _WORD_RE.match(text) and text not in keywords and near_keyword(text, keywords) is None:
        return text
    return quote(text)


class UnwritableError(ValueError):
    """A value the DSL cannot hold; ``value`` is that value (for a caller to locate it)."""

    def __init__(self, message: str, value: Any) -> None:
        super().__init__(message)
        self.value = value


def formula(value: Any) -> str:
    """A formula's text on one line (raw trees may hold ints and bools).

    Line breaks between the parts of a formula become spaces; one inside a
    quoted text, or a character no spec file may hold, cannot be written.

    >>> formula("a +\\n   b")
    'a + b'
    >>> formula("choice == 'a\\nb'")
    Traceback (most recent call last):
    ...
    spelbok.lang.dsl_text.UnwritableError: to_dsl: the formula "choice == 'a\\nb'" has a line break inside a quoted text, which a DSL line cannot hold
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    text = str(value).strip()
    if "\n" in text or "\r" in text:
        out: list[str] = []
        q = ""  # the quote open, if any
        for ch in text:
            if q and ch in "\r\n":
                raise UnwritableError(
                    f"to_dsl: the formula {quote(text)} has a line break inside a quoted text,"
                    " which a DSL line cannot hold", value)
            if q:
                q = "" if ch == q else q
            elif ch in "'\"":
                q = ch
            elif ch in "\r\n" or (ch in " \t" and out and out[-1] == "\n"):
                while out and out[-1] in " \t":
                    out.pop()
                ch = "\n"
                if out and out[-1] == "\n":
                    continue
            out.append(ch)
        text = "".join(out).replace("\n", " ")
    try:
        check_text(text, "formula")
    except SpecError as exc:
        raise UnwritableError(f"to_dsl: the formula {quote(text)}: {exc.message}", value) from None
    return text


def cond(value: Any) -> bool | str:
    """A bool-or-condition field's value."""
    if isinstance(value, bool):
        return value
    text = formula(value)
    if text == "true":
        return True
    if text == "false":
        return False
    return text


def _chunks(text: str) -> list[str]:
    """Cuts a text at single spaces into pieces that join back with one space."""
    words = re.split(r"(?<=\S) (?=\S)", text)
    lines: list[str] = []
    cur = ""
    for w in words:
        if cur and len(cur) + 1 + len(w) > _TEXT_WIDTH:
            lines.append(cur)
            cur = w
        else:
            cur = f"{cur} {w}" if cur else w
    lines.append(cur)
    return lines


def text(out: Out, indent: int, head: str, text: str) -> None:
    """``head "text"`` on one line, or ``head`` and the text in quoted lines under it."""
    line = f"{head} {quote(text)}"
    if len("    " * indent + line) <= WIDTH:
        out.add(indent, line)
        return
    pieces = _chunks(text)
    if len(pieces) == 1:
        out.add(indent, line)
        return
    out.add(indent, head)
    for piece in pieces:
        out.add(indent + 1, quote(piece))


def source(out: Out, indent: int, node: Mapping[str, Any]) -> None:
    """``source "…"`` of ``node``, when it has one."""
    if isinstance(node.get("source"), str):
        text(out, indent, "source", node["source"])


def check(node: Mapping[str, Any], known: Iterable[str], where: str) -> None:
    """Refuses a key of ``node`` outside ``known`` (the DSL has no words for it)."""
    extra = set(node) - set(known)
    if extra:
        raise ValueError(f"to_dsl: cannot write {sorted(extra)} {where}")


# the ranks and cards the DSL writes bare: notation's letters (cards.WRITTEN_RANK: a
# declared pack's capital letters too); others (a rank of two letters, "1O") are quoted
_BARE_RANK = re.compile(f"({WRITTEN_RANK})")
_BARE_CARD = re.compile(f"({WRITTEN_RANK})({WRITTEN_SUIT}|@[a-z_][a-z0-9_]*)")


def suits(suits: list[Any]) -> str:
    return " ".join(SUIT_SYMBOLS[SUIT_INDEX[str(s).upper()]] if str(s).upper() in SUIT_INDEX
                    and len(str(s)) == 1 else quote(str(s)) for s in suits)


def rank(rank: Any) -> str:
    return str(rank) if _BARE_RANK.fullmatch(str(rank)) else quote(str(rank))


def card(card: str, out: Out | None = None) -> str:
    """A card as the DSL writes it: bare when notation's letters spell it (the French
    suit letter as its symbol, ``K♦``; a declared pack's letters as they are, ``RD``,
    when ``out`` writes a spec with a ``pack:``), else quoted."""
    if not _BARE_CARD.fullmatch(card):
        return quote(card)
    if "@" in card or (out is not None and out.declared_pack):
        return card
    if card[-1].upper() not in SUIT_INDEX:
        return quote(card)  # a declared pack's letter, read back only with its pack
    return card[:-1] + SUIT_SYMBOLS[SUIT_INDEX[card[-1].upper()]]


def literal(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    return quote(str(value))


def value(value: Any, reserved: Iterable[str] = ("true", "false", "default")) -> str:
    if isinstance(value, bool | int):
        return literal(value)
    return word(value, reserved)


def keys(c: Construct, body: bool = False) -> tuple[str, ...]:
    """The keys construct ``c`` declares (a step: its kind key and its own keys; ``body``:
    the keys of the map under its kind key)."""
    if body:
        return tuple(f.name for f in c.body or ())
    kind = (c.name,) if c.group == "step" else ()
    return (*kind, *(f.name for f in c.own_fields()))


def cards(count: Any) -> str:
    """``1 card``, ``N cards``."""
    t = formula(count)
    return f"{t} card" if t == "1" else f"{t} cards"


def assignments(out: Out, indent: int, head: str, values: Mapping[str, Any],
                each_head: str) -> None:
    """``head a = x, b = y`` on one line when it fits, else one line per assignment."""
    if not values:
        return
    parts = [f"{word(k)} = {formula(v)}" for k, v in values.items()]
    line = head + ", ".join(parts)
    if len("    " * indent + line) <= WIDTH or len(parts) == 1:
        out.add(indent, line)
        return
    for part in parts:
        out.add(indent, each_head + part)


def flag(out: Out, indent: int, value: Any, yes: str, no: str) -> None:
    """A rule on (line ``yes``), off (``no``) or on a condition (``yes if …``)."""
    c = cond(value)
    out.add(indent, yes if c is True else no if c is False else f"{yes} if {c}")
