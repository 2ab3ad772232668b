"""Bounds on sizes and values, declared once.

Specs, reading files, logs and snapshots are untrusted data: every count and
integer they hold is bounded, so that a bad file fails fast with a clear
message instead of hanging or exhausting memory.  The JSON schemas
(``spec.schema.json``, ``reading.schema.json``) repeat the bounds a schema can
state; a test checks that they agree with these.

>>> MAX_PLAYERS, MAX_HANDS
(12, 100000)
>>> json_depth('[[1, "[["], {"a": []}]')
3
"""

from __future__ import annotations

import json
import re
from typing import Any

from .errors import ArgumentError, LimitError

MAX_PLAYERS = 12
"""Most seats at a table (seat numbers are 0..MAX_PLAYERS-1)."""
MAX_CARDS = 112
"""The largest pack (copies and extra cards included): a card count (a packet, a number of tricks or cards moved) is at most this."""
MAX_VALUE = 10**15
"""Largest magnitude of an integer in a spec, an option, a variable or a snapshot."""
MAX_HANDS = 100_000
"""Largest ``end.max_hands`` (and ``max_hands=`` argument)."""
MAX_REPEAT = 10_000
"""Most rounds one ``repeat`` step may run in one go."""
MAX_CHOICES = 10_000
"""Most options a number decision may offer at once."""
MAX_EXCHANGES = 1 << 20
"""Most card sets one exchange or discard decision may offer at once (its hand's subsets
within its bounds: thirteen cards give 8,192, and more than this means a 'max' to set)."""
MAX_STEPS = 1_000
"""Most steps in one spec, nested steps included (the largest shipped spec has 27): each
step costs its share of every check, so many thousands would make validation slow."""
MAX_NOTATION = 200
"""Longest action notation read (an exchange of a whole hand fits many times over)."""
MAX_FILE_BYTES = 16 * 1024 * 1024
"""Largest log, snapshot or reading file read (checked before it is read)."""
MAX_TABLE_LEVELS = 3
"""Most levels of keys in one of a spec's tables (a function of at most this many keys)."""
MAX_TABLE_ENTRIES = 4_096
"""Most entries in one of a spec's tables."""
MAX_NESTING = 64
"""Deepest nesting of lists and maps in a JSON log or snapshot."""
MAX_VECTOR_ENVS = 65_536
"""Most matches one batched environment (``spelbok.rl.vector``) steps together."""


MAX_SEED = 2**64 - 1
"""Largest magnitude of a match seed (shuffles use its low 64 bits)."""


def seat_arg(value: object, n: int, what: str = "seat") -> int:
    """``value`` when it is a seat of an ``n``-player game, else ArgumentError."""
    if type(value) is not int or not 0 <= value < n:
        raise ArgumentError(f"{what} must be a seat number 0..{n - 1}, not {short_repr(value, 40)}")
    return value


def digits(value: int) -> int:
    """How many decimal digits ``value`` has, without converting a huge one to text
    (which is slow, then refused past Python's own limit).

    >>> digits(-999), digits(10**5000)
    (3, 5001)
    """
    size = abs(value)
    if size.bit_length() < 10_000:
        return len(str(size))
    return size.bit_length() * 30103 // 100000 + 1  # log10(2): exact to a digit or so


def short_repr(x: object, size: int = 40) -> str:
    """``x`` for an error message: a scalar cut short, a container by its kind only (an
    untrusted one may be huge or nested too deeply to print).

    >>> short_repr("x" * 50, 4), short_repr(10**5000), short_repr([[[]]])
    ("'xxxx'…", 'a 5001-digit number', 'a list')
    """
    if isinstance(x, str):
        return repr(x[:size]) + ("…" if len(x) > size else "")
    if type(x) is int and x.bit_length() > 200:
        return f"a {digits(x)}-digit number"
    if x is None or isinstance(x, (bool, int, float)):
        return repr(x)[:size]
    kind = type(x).__name__[:size]  # a kind, never object.__repr__ (no memory address)
    return f"{'an' if kind[:1].lower() in 'aeiou' else 'a'} {kind}"


def held(value: int) -> int:
    """``value`` held at the bound it is past: a value a step stores is at most
    ``MAX_VALUE`` either way, and a match goes on (validate's promise: a spec that
    validates never stops a match; a formula growing without end then stays at the bound).

    >>> held(10**20), held(-10**20)
    (1000000000000000, -1000000000000000)
    """
    return MAX_VALUE if value > 0 else -MAX_VALUE


_STRING_RE = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')
_OTHER_RE = re.compile(r"[^\[\]{}]+")
_PAIR_RE = re.compile(r"\[\]|\{\}")


def json_depth(text: str, limit: int = MAX_NESTING) -> int:
    """How deeply lists and maps nest in JSON ``text`` (``limit + 1`` when deeper).

    Worked out without recursion, in C-speed passes: strings (which may hold
    brackets) and everything but brackets go, then each pass removes the
    innermost pairs.
    """
    brackets = _OTHER_RE.sub("", _STRING_RE.sub("", text))
    depth = 0
    while brackets and depth <= limit:
        inner = _PAIR_RE.sub("", brackets)
        if len(inner) == len(brackets):
            break  # unbalanced: not JSON at all, which the parser will say
        brackets = inner
        depth += 1
    return depth


def _json_int(digits: str) -> int:
    """A JSON integer, refused past the largest seed (before Python converts it: a
    100 000-digit number would cost time, then fail on the interpreter's own limit)."""
    if len(digits.lstrip("-")) > 20 or abs(value := int(digits)) > MAX_SEED:
        raise LimitError(f"the number {digits[:12]}… ({len(digits.lstrip('-'))} digits) is too "
                         f"large: no number in these files exceeds {MAX_SEED}")
    return value


def load_json(text: str, what: str, path: str = "", limit: int = MAX_NESTING) -> Any:
    """``json.loads(text)``, refusing (LimitError) data nested deeper than ``limit``.

    The check comes first: the JSON parser recurses, so very deep data would
    otherwise end in a RecursionError.  Invalid JSON raises json.JSONDecodeError
    as usual.
    """
    if text.count("[") + text.count("{") > limit and json_depth(text, limit) > limit:
        raise LimitError(f"{path + ': ' if path else ''}the {what} is nested too deeply "
                         f"(more than {limit} levels)")
    try:
        return json.loads(text, parse_int=_json_int)
    except RecursionError:  # unbalanced brackets, deep: the depth check could not count them
        raise LimitError(f"{path + ': ' if path else ''}the {what} is nested too deeply "
                         f"(more than {limit} levels)") from None
