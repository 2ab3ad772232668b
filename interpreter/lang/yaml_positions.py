"""Positions inside a YAML string: where each character of a scalar's value sits in the
source text (quotes, escapes, folded lines and block indentation undone), so that an
error inside a formula points at its own line and column.

:class:`ScalarPosition` is the position the loader records for a string;
:func:`place_in_text` and :func:`locate_in_text` turn an offset in the value into a
line and column of the file."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

from yaml.scanner import Scanner

_BREAKS = "\r\n\x85\u2028\u2029"
_SURROGATE = re.compile("[\ud800-\udfff]")
_SPREAD = re.compile("  |\t")
_BREAK_RE = re.compile("\r\n|[\r\n\x85\u2028\u2029]")
_ESCAPES: dict[str, str] = dict(Scanner.ESCAPE_REPLACEMENTS)
_ESCAPE_CODES: dict[str, int] = dict(Scanner.ESCAPE_CODES)

#: ``decode(source, start, end)``: the readings of the string that starts at
#: ``source[start]`` (a block scalar's indentation may have several), each as
#: ``(text, index)`` with the source index of every character of the text.
Decoder = Callable[[str, int, int], Iterator[tuple[str, list[int]]]]


class ScalarPosition(tuple):
    """A position, ``(line, col)`` or ``(file, line, col)``, of a string value whose
    characters do not sit one after the other in the file: a quoted, folded,
    literal or multi-line scalar, or a DSL formula written over several lines.

    It is a plain position tuple for everyone else; :func:`place_in_text` also
    uses it to place a character of the value (a formula error) in the file.  The
    source is decoded again only then, so keeping it costs nothing.

    >>> from spelbok.lang.yamlio import load_yaml
    >>> data, pos = load_yaml('a: "x\\\\ty + z"\\n', "x.yaml")
    >>> pos[("a",)], place_in_text(pos[("a",)], data["a"], 1, 5)
    ((1, 4), (1, 10))
    """

    source: str
    start: int
    end: int
    decode: Decoder

    def __new__(
        cls, items: tuple[Any, ...], source: str, start: int, end: int, decode: Decoder
    ) -> ScalarPosition:
        self = super().__new__(cls, items)
        self.source, self.start, self.end, self.decode = source, start, end, decode
        return self

    def __reduce__(self) -> Any:
        return (ScalarPosition, (tuple(self), self.source, self.start, self.end, self.decode))

    def moved(self, items: tuple[Any, ...]) -> ScalarPosition:
        """The same text mapping under another position tuple (e.g. with the file added)."""
        return ScalarPosition(items, self.source, self.start, self.end, self.decode)

    def place(self, value: str, line: int, col: int) -> tuple[int, int] | None:
        """File ``(line, col)`` of ``(line, col)`` inside ``value`` (1-based), or None."""
        rows = value.split("\n")
        if not 1 <= line <= len(rows) or col < 1:
            return None
        offset = sum(len(r) + 1 for r in rows[: line - 1]) + col - 1
        if offset > len(value):
            return None
        for text, where in self.decode(self.source, self.start, self.end):
            index = _align(text, where, value)
            if index is not None:
                break
        else:
            return None
        if offset < len(index):
            at = index[offset]
        elif index:
            at = index[-1] + 1  # just after the text (an error "at the end of the formula")
        else:
            return None
        row, column = self[-2], self[-1]
        breaks = list(_BREAK_RE.finditer(self.source, self.start, at))
        if not breaks:
            return row, column + at - self.start
        return row + len(breaks), at - breaks[-1].end() + 1


def place_in_text(
    pos: tuple[Any, ...], value: str, line: int | None, col: int | None
) -> tuple[int | None, int | None]:
    """The file ``(line, col)`` of ``(line, col)`` inside the string ``value`` at ``pos``.

    ``pos`` is the value's position tuple (``(line, col)`` or ``(file, line,
    col)``).  Exact for a :class:`ScalarPosition` and for a one-line plain
    value; otherwise (no column known, a value changed since it was read) the
    value's own start.

    >>> place_in_text(("g.yaml", 12, 9), "score + x", 1, 9)
    (12, 17)
    """
    base_line, base_col = pos[-2], pos[-1]
    if line is None or col is None or base_line is None or base_col is None:
        return base_line, base_col
    if isinstance(pos, ScalarPosition):
        return pos.place(value, line, col) or (base_line, base_col)
    if line == 1 and "\n" not in value:
        return base_line, base_col + col - 1
    return base_line, base_col


def locate_in_text(
    locate: Callable[[Any], Any], path: Any, value: str, line: int | None, col: int | None
) -> tuple[Any, int | None, int | None]:
    """``(file, line, col)`` of ``(line, col)`` inside the string at ``path``, as
    :func:`place_in_text` places it.  For compiled callers: a position must reach
    :func:`place_in_text` as the object ``locate`` returned, and mypyc would unbox a
    :class:`ScalarPosition` typed as a tuple into a plain one, losing its map.

    >>> locate_in_text(lambda path: ("g.yaml", 12, 9), ("end", "when"), "score + x", 1, 9)
    ('g.yaml', 12, 17)
    """
    pos = locate(path)
    line, col = place_in_text(pos, value, line, col)
    return pos[0], line, col


def _align(text: str, where: list[int], value: str) -> list[int] | None:
    """``where`` (source indexes of ``text``'s characters) for the characters of
    ``value``: ``text`` with runs of white space squeezed (a canonical formula),
    or None when ``value`` is not that."""
    if text == value:
        return where
    out: list[int] = []
    j = 0
    for ch in value:
        if ch == " " and j < len(text) and text[j] in " \t\r\n":
            ch = text[j]  # a squeezed run of white space: at its first character
        while j < len(text) and text[j] != ch and text[j] in " \t\r\n":
            j += 1
        if j >= len(text) or text[j] != ch:
            return None
        out.append(where[j])
        j += 1
    return out


def _line_break(src: str, i: int) -> tuple[str, int]:
    """YAML's reading of the line break at ``i``: (what it means, the index after it)."""
    if src.startswith("\r\n", i):
        return "\n", i + 2
    ch = src[i : i + 1]
    if ch and ch in "\r\n\x85":
        return "\n", i + 1
    if ch and ch in _BREAKS:
        return ch, i + 1
    return "", i


def _fold(src: str, i: int, out: list[str], index: list[int], escaped: bool) -> int:
    """A line break in a flow (quoted or plain) scalar, from the break at ``i``:
    folded as YAML does (one space, or one line break per empty line after it).
    Returns the index of the next content character."""
    at = i
    first, i = _line_break(src, i)
    breaks: list[tuple[str, int]] = []
    while True:
        while i < len(src) and src[i] in " \t":
            i += 1
        if i < len(src) and src[i] in _BREAKS:
            j = i
            chunk, i = _line_break(src, i)
            breaks.append((chunk, j))
        else:
            break
    if not escaped:
        if first != "\n":
            breaks.insert(0, (first, at))
        elif not breaks:
            breaks.append((" ", at))
    for chunk, j in breaks:
        out.append(chunk)
        index.append(j)
    return i


def _decode_flow(src: str, start: int, end: int) -> Iterator[tuple[str, list[int]]]:
    """Source indexes of a quoted or plain scalar's characters (see :data:`Decoder`)."""
    quote = src[start : start + 1]
    if quote not in ("'", '"'):
        quote = ""  # a plain scalar: it ends at ``end``
    double = quote == '"'
    out: list[str] = []
    index: list[int] = []
    n = len(src) if quote else end
    i = start + 1 if quote else start
    while i < n:
        ch = src[i]
        if ch == quote:
            if quote == "'" and src[i + 1 : i + 2] == "'":
                out.append("'")
                index.append(i)
                i += 2
                continue
            break
        if ch in " \t" or ch in _BREAKS:
            j = i
            while j < n and src[j] in " \t":
                j += 1
            if j < n and src[j] in _BREAKS:
                i = _fold(src, j, out, index, escaped=False)
            else:
                out.append(src[i:j])
                index.extend(range(i, j))
                i = j
            continue
        if double and ch == "\\":
            code = src[i + 1 : i + 2]
            if code in _ESCAPES:
                out.append(_ESCAPES[code])
                index.append(i)
                i += 2
            elif code in _ESCAPE_CODES:
                digits = src[i + 2 : i + 2 + _ESCAPE_CODES[code]]
                try:
                    out.append(chr(int(digits, 16)))
                except ValueError:
                    return
                index.append(i)
                i += 2 + len(digits)
            elif code and code in _BREAKS:
                i = _fold(src, i + 1, out, index, escaped=True)
            else:
                return
            continue
        out.append(ch)
        index.append(i)
        i += 1
    yield "".join(out), index


def _decode_block(src: str, start: int, end: int) -> Iterator[tuple[str, list[int]]]:
    """Readings of a literal (``|``) or folded (``>``) scalar (see :data:`Decoder`).

    The content indentation may also depend on the enclosing block, which is not
    known here: each possible one is a reading (the likeliest first).
    """
    folded = src[start : start + 1] == ">"
    i = start + 1
    chomp: bool | None = None
    increment: int | None = None
    for _ in range(2):
        ch = src[i : i + 1]
        if ch and ch in "+-":
            chomp = ch == "+"
            i += 1
        elif ch and ch in "123456789":
            increment = int(ch)
            i += 1
    while i < len(src) and src[i] not in _BREAKS:
        i += 1  # spaces and a comment after the indicator
    _, i = _line_break(src, i)
    line_start = i
    column = src.rfind("\n", 0, start)
    most = start - column  # the indicator's column + 1: enough for any enclosing block
    if increment is None:
        j, widest = i, 0
        ls = line_start
        while j < len(src) and (src[j] == " " or src[j] in _BREAKS):
            if src[j] == " ":
                j += 1
                widest = max(widest, j - ls)
            else:
                _, j = _line_break(src, j)
                ls = j
        indents = [max(widest, 1)] + [max(m, widest) for m in range(1, most + 1)]
    else:
        indents = [m + increment - 1 for m in range(1, most + 1)]
    for indent in dict.fromkeys(indents):
        yield _block_body(src, i, line_start, indent, folded, chomp)


def _block_body(
    src: str, i: int, ls: int, indent: int, folded: bool, chomp: bool | None
) -> tuple[str, list[int]]:
    """PyYAML's block scalar reading, with the source index of every character."""
    n = len(src)
    out: list[str] = []
    index: list[int] = []

    def breaks_from(i: int, ls: int) -> tuple[list[tuple[str, int]], int, int]:
        found: list[tuple[str, int]] = []
        while i - ls < indent and i < n and src[i] == " ":
            i += 1
        while i < n and src[i] in _BREAKS:
            j = i
            chunk, i = _line_break(src, i)
            ls = i
            found.append((chunk, j))
            while i - ls < indent and i < n and src[i] == " ":
                i += 1
        return found, i, ls

    def add(chunks: list[tuple[str, int]]) -> None:
        for chunk, j in chunks:
            if chunk:
                out.append(chunk)
                index.append(j)

    pending, i, ls = breaks_from(i, ls)
    last: tuple[str, int] = ("", i)
    while i - ls == indent and i < n:
        add(pending)
        plain_line = src[i] not in " \t"
        j = i
        while j < n and src[j] not in _BREAKS:
            j += 1
        out.append(src[i:j])
        index.extend(range(i, j))
        chunk, k = _line_break(src, j)
        last = (chunk, j)
        pending, i, ls = breaks_from(k, k)
        if i - ls == indent and i < n:
            if folded and chunk == "\n" and plain_line and src[i] not in " \t":
                if not pending:
                    add([(" ", j)])
            else:
                add([last])
        else:
            break
    if chomp is not False:
        add([last])
    if chomp is True:
        add(pending)
    return "".join(out), index
