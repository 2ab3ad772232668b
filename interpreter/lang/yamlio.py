"""Safe YAML loading with source positions.

Specs are read with PyYAML's *composer* only (no object construction from
tags): this module builds the plain data tree itself, so nothing but ``dict``,
``list``, ``str``, ``int``, ``float``, ``bool`` and ``None`` can come out of a
spec.  It also refuses everything a spec never needs and an attacker might use:
aliases and anchors (alias bombs), explicit tags, duplicate keys, deep nesting,
huge documents, NUL bytes and control characters.

Scalars are resolved with a deliberately small rule set (close to YAML 1.2's
core schema): ``true``/``false`` are booleans, ``null``/``~``/nothing is
``None``, decimal (and ``0x``/``0o``) numbers are ints, decimal fractions are
floats, and **everything else stays a string** -- in particular YAML 1.1's
``yes``/``no``/``on``/``off`` (``choose: [yes, no]`` means two words).  Quoted
and block scalars are always strings.  Map keys are always the key's text.

Positions
---------
``load_yaml`` returns ``(data, positions)``.  ``positions`` maps a *path* (a
tuple of map keys and list indexes; ``()`` is the document root) to the 1-based
``(line, col)`` where that node's **value** starts.  The same table also holds
the position of each map **key**, under the path ``(KEY, *path)``: ``KEY`` is
the string ``"<key>"``, which can never be a top-level key of a valid spec, so
key entries never collide with value entries.  Use :func:`key_path` to build
them.  Where each character of a string value sits (quotes, escapes and folded
lines undone) is :mod:`~spelbok.lang.yaml_positions`.

>>> data, pos = load_yaml("name: Demo\\nplayers: {min: 2, max: 4}\\n", "demo.yaml")
>>> data
{'name': 'Demo', 'players': {'min': 2, 'max': 4}}
>>> pos[("players", "max")], pos[key_path(("players", "max"))]
((2, 24), (2, 19))
>>> load_yaml("choose: [yes, no, on]\\n", "x.yaml")[0]
{'choose': ['yes', 'no', 'on']}
"""

from __future__ import annotations

import importlib
import re
from typing import TYPE_CHECKING, Any

import yaml
from yaml.composer import Composer
from yaml.events import AliasEvent, CollectionStartEvent, ScalarEvent
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode
from yaml.parser import Parser
from yaml.reader import Reader
from yaml.resolver import Resolver
from yaml.scanner import Scanner

from ..errors import SpecError
from ..limits import MAX_SEED
from .yaml_positions import (
    _SPREAD,
    _SURROGATE,
    Decoder,
    ScalarPosition,
    _decode_block,
    _decode_flow,
    locate_in_text,
    place_in_text,
)

__all__ = [
    "Decoder",
    "KEY",
    "MAX_BYTES",
    "MAX_DEPTH",
    "MAX_INT",
    "MAX_NODES",
    "Positions",
    "ScalarPosition",
    "decode_spec_bytes",
    "key_path",
    "load_yaml",
    "check_text",
    "locate_in_text",
    "place_in_text",
    "plain_value",
    "whole_number",
]

#: First element of a path in the position table that locates a map *key*.
KEY = "<key>"
#: Largest spec text accepted, in bytes (UTF-8).
MAX_BYTES = 1024 * 1024
#: Deepest nesting of maps and lists accepted.
MAX_DEPTH = 64
#: Most YAML nodes (maps, lists and scalars) accepted in one document.
MAX_NODES = 100_000
#: Largest size of a whole number written in a spec, reading file or log (YAML or DSL): a
#: longer literal (a 5000-digit one, say) is refused while reading.  Seeds are the largest
#: numbers these files hold; each field's own bound is narrower (the schemas, spelbok.limits).
MAX_INT = MAX_SEED

Positions = dict[tuple[Any, ...], tuple[int, int]]

_IMPLICIT = "!spelbok-implicit"
_STR_TAG = "tag:yaml.org,2002:str"
_ALLOWED_EXPLICIT = {
    _STR_TAG,
    "tag:yaml.org,2002:map",
    "tag:yaml.org,2002:seq",
}

_INT_RE = re.compile(r"[-+]?[0-9]+\Z")
_HEX_RE = re.compile(r"0x[0-9a-fA-F]+\Z")
_OCT_RE = re.compile(r"0o[0-7]+\Z")
_FLOAT_RE = re.compile(r"[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?\Z")
_INF_RE = re.compile(r"[-+]?\.(inf|Inf|INF)\Z")
_NAN_RE = re.compile(r"\.(nan|NaN|NAN)\Z")
_TRUE = {"true", "True", "TRUE"}
_FALSE = {"false", "False", "FALSE"}
_NULL = {"", "~", "null", "Null", "NULL"}

# Characters YAML allows (plus nothing else): tab, LF, CR, printable ASCII, NEL,
# and the printable Unicode ranges.  Anything outside is binary garbage.
_BAD_CHAR_RE = re.compile("[^\t\n\r\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def key_path(path: tuple[Any, ...]) -> tuple[Any, ...]:
    """The position-table path that locates the *key* of the node at ``path``.

    >>> key_path(("hand", 0, "deal"))
    ('<key>', 'hand', 0, 'deal')
    """
    return (KEY, *path)


def _line_col(text: str, index: int) -> tuple[int, int]:
    line = text.count("\n", 0, index) + 1
    start = text.rfind("\n", 0, index) + 1
    return line, index - start + 1


def decode_spec_bytes(data: bytes, path: str) -> str:
    """Decode a spec file's bytes as UTF-8 (a leading BOM is dropped).

    Raises a located :class:`SpecError` for a file over :data:`MAX_BYTES` or for
    bytes that are not UTF-8 (the line and column of the first bad byte).

    >>> decode_spec_bytes("name: Ø\\n".encode(), "x.yaml")
    'name: Ø\\n'
    >>> decode_spec_bytes(b"a: 1\\nb: \\xff\\n", "x.yaml")
    Traceback (most recent call last):
    ...
    spelbok.errors.SpecError: x.yaml:2:4: the file is not valid UTF-8 (byte 0xff at offset 8)
    """
    if len(data) > MAX_BYTES:
        raise SpecError(
            f"the file is too large ({len(data)} bytes; a spec may have at most {MAX_BYTES})",
            path=path,
        )
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = data[: exc.start]
        line = before.count(b"\n") + 1
        line_start = before.rfind(b"\n") + 1
        col = len(before[line_start:].decode("utf-8", errors="replace")) + 1
        bad = data[exc.start]
        raise SpecError(
            f"the file is not valid UTF-8 (byte 0x{bad:02x} at offset {exc.start})",
            path=path,
            line=line,
            col=col,
        ) from None


def check_text(text: str, path: str) -> None:
    """Refuse spec text that is too large or holds NUL bytes / control characters.

    The size is checked before anything else is looked at, so a huge text fails
    fast.  Shared by the YAML and DSL surfaces.

    >>> check_text("a: 1\\x00", "x.yaml")
    Traceback (most recent call last):
    ...
    spelbok.errors.SpecError: x.yaml:1:5: the file contains a NUL byte: this looks like binary data, not a spec
    """
    if len(text) > MAX_BYTES or (
        len(text) * 4 > MAX_BYTES and len(text.encode("utf-8", "surrogatepass")) > MAX_BYTES
    ):
        raise SpecError(
            f"the spec text is too large (more than {MAX_BYTES} bytes)",
            path=path,
        )
    bad = _BAD_CHAR_RE.search(text)
    if bad is not None:
        line, col = _line_col(text, bad.start())
        ch = bad.group()
        if ch == "\x00":
            msg = "the file contains a NUL byte: this looks like binary data, not a spec"
        else:
            msg = (
                f"the file contains the control character U+{ord(ch):04X}, which a spec cannot hold"
            )
        raise SpecError(msg, path=path, line=line, col=col)


def _mark_pos(mark: Any) -> tuple[int, int]:
    return mark.line + 1, mark.column + 1


class _SpecComposer(Composer, Resolver):
    """PyYAML's composer with limits and no anchors/aliases/tags; no construction."""

    spec_path = "<spec>"
    depth = 0
    nodes = 0

    if TYPE_CHECKING:  # provided by the parser half of the concrete loaders

        def check_event(self, *choices: Any) -> bool: ...
        def peek_event(self) -> Any: ...

    def setup(self, path: str) -> None:
        Composer.__init__(self)
        Resolver.__init__(self)
        self.spec_path = path
        self.depth = 0
        self.nodes = 0

    def fail(self, message: str, mark: Any) -> SpecError:
        line, col = _mark_pos(mark)
        return SpecError(message, path=self.spec_path, line=line, col=col)

    # Every scalar/collection resolves to one marker tag: we resolve ourselves.
    def resolve(self, kind: Any, value: Any, implicit: Any) -> str:
        return _IMPLICIT

    def compose_node(self, parent: Node | None, index: Any) -> Node:
        if self.check_event(AliasEvent):
            event = self.peek_event()
            raise self.fail(
                f"YAML aliases are not allowed in specs (found '*{event.anchor}')",
                event.start_mark,
            )
        event = self.peek_event()
        if isinstance(event, ScalarEvent | CollectionStartEvent):
            if event.anchor is not None:
                raise self.fail(
                    f"YAML aliases are not allowed in specs (found the anchor '&{event.anchor}')",
                    event.start_mark,
                )
            tag = event.tag
            if tag not in (None, "!") and tag not in _ALLOWED_EXPLICIT:
                short = tag.replace("tag:yaml.org,2002:", "!!")
                raise self.fail(
                    f"YAML tags are not allowed in specs (found '{short}')", event.start_mark
                )
        self.nodes += 1
        if self.nodes > MAX_NODES:
            raise self.fail(
                f"the spec is too large (more than {MAX_NODES} YAML nodes)", event.start_mark
            )
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise self.fail(
                f"the spec is nested too deeply (more than {MAX_DEPTH} levels)", event.start_mark
            )
        try:
            node = super().compose_node(parent, index)
            assert node is not None
            return node
        finally:
            self.depth -= 1


class _PyLoader(Reader, Scanner, Parser, _SpecComposer):
    """Pure-Python event source."""

    def __init__(self, stream: str, path: str) -> None:
        Reader.__init__(self, stream)
        Scanner.__init__(self)
        Parser.__init__(self)
        self.setup(path)


try:
    _CParser: Any = getattr(importlib.import_module("yaml.cyaml"), "CParser", None)
except ImportError:  # pragma: no cover - PyYAML built without libyaml
    _CParser = None

if _CParser is not None:

    class _CLoader(_SpecComposer, _CParser):
        """libyaml event source (much faster); composition stays in Python."""

        def __init__(self, stream: str, path: str) -> None:
            _CParser.__init__(self, stream)
            self.setup(path)

    _Loader: Any = _CLoader
else:  # pragma: no cover
    _Loader = _PyLoader


def _scalar(node: ScalarNode) -> Any:
    value = node.value
    if node.tag == _STR_TAG or node.style not in (None, ""):
        return value
    return plain_value(value)


def whole_number(text: str, digits: str, base: int = 10) -> int:
    """The whole number ``digits`` (written ``text``), or a SpecError (not yet located)
    when it is beyond :data:`MAX_INT` in size: a spec never needs one, and a huge
    literal costs time.

    >>> whole_number("-0x10", "-10", 16)
    -16
    >>> whole_number("9" * 5000, "9" * 5000)
    Traceback (most recent call last):
    ...
    spelbok.errors.SpecError: <spec>: the number 999999999999… (5000 digits) is too large: a number in a spec is at most 18446744073709551615 in size
    """
    value = int(digits, base) if len(digits.lstrip("+-0")) <= 24 else MAX_INT + 1
    if -MAX_INT <= value <= MAX_INT:
        return value
    short = text if len(text) <= 20 else f"{text[:12]}… ({len(digits.lstrip('+-'))} digits)"
    raise SpecError(
        f"the number {short} is too large: a number in a spec is at most {MAX_INT} in size"
    )


def plain_value(value: str) -> Any:
    """What the text of a plain (unquoted) scalar means in a spec; a writer quotes
    a string unless this gives it back.

    >>> plain_value("yes"), plain_value("1e3"), plain_value("0o17"), plain_value("~")
    ('yes', 1000.0, 15, None)
    """
    if value in _NULL:
        return None
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    if _INT_RE.match(value):
        return whole_number(value, value)
    if _HEX_RE.match(value):
        return whole_number(value, value[2:], 16)
    if _OCT_RE.match(value):
        return whole_number(value, value[2:], 8)
    if _FLOAT_RE.match(value) and any(c.isdigit() for c in value):
        return float(value)
    if _INF_RE.match(value):
        return float("-inf") if value.startswith("-") else float("inf")
    if _NAN_RE.match(value):
        return float("nan")
    return value


def _build(
    node: Node, path: tuple[Any, ...], positions: Positions, spec_path: str, text: str
) -> Any:
    positions[path] = _mark_pos(node.start_mark)
    if isinstance(node, ScalarNode):
        try:
            value = _scalar(node)
        except SpecError as exc:  # a number too large
            raise exc.located(spec_path, *positions[path]) from None
        start, end = node.start_mark, node.end_mark
        if isinstance(value, str) and (
            node.style not in (None, "") or start.line != end.line or _SPREAD.search(value)
        ):
            # quoted, block, multi-line or with runs of spaces (squeezed in a formula):
            # the characters of the text as used do not sit one after the other
            decode = _decode_block if node.style in ("|", ">") else _decode_flow
            positions[path] = ScalarPosition(
                positions[path], text, start.index, end.index, decode
            )
        bad = _SURROGATE.search(value) if isinstance(value, str) else None
        if bad is not None:
            # only an escape makes one ("\ud800"); libyaml refuses it, so must we
            at = bad.start()
            line, col = place_in_text(
                positions[path], value, value.count("\n", 0, at) + 1, at - value.rfind("\n", 0, at)
            )
            raise SpecError(
                "a text holds a lone surrogate (an escape like \\ud800), which is not a"
                " character; write the character itself, or \\U0001F600 for one beyond U+FFFF",
                path=spec_path, line=line, col=col,
            )
        return value
    if isinstance(node, SequenceNode):
        return [
            _build(item, (*path, i), positions, spec_path, text)
            for i, item in enumerate(node.value)
        ]
    assert isinstance(node, MappingNode)
    result: dict[str, Any] = {}
    for key_node, value_node in node.value:
        if not isinstance(key_node, ScalarNode):
            line, col = _mark_pos(key_node.start_mark)
            raise SpecError(
                "a map key must be a plain word, not a list or a map",
                path=spec_path,
                line=line,
                col=col,
            )
        key = key_node.value
        child = (*path, key)
        if _SURROGATE.search(key):
            line, col = _mark_pos(key_node.start_mark)
            raise SpecError(
                "a key holds a lone surrogate (an escape like \\ud800), which is not a character",
                path=spec_path, line=line, col=col,
            )
        if key in result:
            line, col = _mark_pos(key_node.start_mark)
            first_line = positions[key_path(child)][0]
            raise SpecError(
                f"duplicate key '{key}' (first given on line {first_line})",
                path=spec_path,
                line=line,
                col=col,
            )
        positions[key_path(child)] = _mark_pos(key_node.start_mark)
        result[key] = _build(value_node, child, positions, spec_path, text)
    return result


def _leading_tab(text: str, line: int) -> bool:
    lines = text.split("\n")
    if not 1 <= line <= len(lines):
        return False
    src = lines[line - 1]
    stripped = src.lstrip(" \t")
    return "\t" in src[: len(src) - len(stripped)]


def _char_at(text: str, line: int, col: int | None) -> str:
    lines = text.split("\n")
    if col is None or not 1 <= line <= len(lines) or not 1 <= col <= len(lines[line - 1]):
        return ""
    return lines[line - 1][col - 1]


def _translate(exc: yaml.MarkedYAMLError, text: str, path: str) -> SpecError:
    mark = exc.problem_mark or exc.context_mark
    line, col = _mark_pos(mark) if mark is not None else (None, None)
    problem = exc.problem or exc.context or "malformed YAML"
    if "'\\t'" in problem or (line is not None and _char_at(text, line, col) == "\t"):
        if line is not None and _leading_tab(text, line):
            msg = "a tab character is used for indentation; YAML indentation must use spaces"
        else:
            msg = "a tab character is not allowed here; use spaces"
        return SpecError(msg, path=path, line=line, col=col)
    if (exc.context or "").startswith("expected a single document"):
        return SpecError(
            "a spec file must hold a single YAML document (found a second '---')",
            path=path,
            line=line,
            col=col,
        )
    msg = f"invalid YAML: {problem}"
    if exc.context and exc.problem and exc.context_mark is not None:
        cline = exc.context_mark.line + 1
        where = "" if cline == line else f" on line {cline}"
        msg += f" ({exc.context}{where})"
    return SpecError(msg, path=path, line=line, col=col)


def _describe(value: Any) -> str:
    if isinstance(value, list):
        return "a list"
    if isinstance(value, bool):
        return f"a boolean {str(value).lower()}"
    if isinstance(value, int):
        return f"an integer {value}"
    if isinstance(value, float):
        return f"a number {value}"
    return f"a string {value!r}"


def load_yaml(text: str, path: str) -> tuple[Any, Positions]:
    """Parse one spec document; return ``(data, positions)``.

    See the module docstring for the position table.  Every problem is a
    :class:`SpecError` located in ``path`` (never a PyYAML exception).

    >>> load_yaml("a: 1\\na: 2\\n", "x.yaml")
    Traceback (most recent call last):
    ...
    spelbok.errors.SpecError: x.yaml:2:1: duplicate key 'a' (first given on line 1)
    >>> load_yaml("a: &x 1\\nb: *x\\n", "x.yaml")
    Traceback (most recent call last):
    ...
    spelbok.errors.SpecError: x.yaml:1:4: YAML aliases are not allowed in specs (found the anchor '&x')
    """
    check_text(text, path)
    loader = _Loader(text, path)
    try:
        try:
            node = loader.get_single_node()
        finally:
            loader.dispose()
    except SpecError:
        raise
    except yaml.MarkedYAMLError as exc:
        raise _translate(exc, text, path) from None
    except yaml.YAMLError as exc:  # ReaderError and friends: no mark
        raise SpecError(f"invalid YAML: {exc}", path=path) from None
    except RecursionError:
        raise SpecError(
            f"the spec is nested too deeply (more than {MAX_DEPTH} levels)", path=path
        ) from None
    if node is None:
        raise SpecError("the spec is empty", path=path, line=1, col=1)
    positions: Positions = {}
    data = _build(node, (), positions, path, text)
    if data is None:
        raise SpecError("the spec is empty", path=path, line=1, col=1)
    if not isinstance(data, dict):
        line, col = positions[()]
        raise SpecError(
            # the kind only, never the text: the file may be no spec at all (/etc/passwd)
            f"the top level of a spec must be a map of keys (found {' '.join(_describe(data).split(' ')[:2])})",
            path=path,
            line=line,
            col=col,
        )
    return data, positions
