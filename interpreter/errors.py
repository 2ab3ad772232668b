"""One exception family for everything spelbok raises on purpose.

>>> str(SpecError("unknown key 'deel'", path="g.yaml", line=3, col=1, hint="deal"))
"g.yaml:3:1: unknown key 'deel' (did you mean 'deal'?)"
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable

# Control characters (C0 but tab and newline, DEL, C1) and the bidi overrides that can
# reorder what a line shows.
_CONTROL_RE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
# The colour codes spelbok itself writes (click.style): select graphic rendition only, and of
# that only reset, bold, dim, italic, underline and foreground colours -- a spec's text may
# hold such codes too, but none that hides what follows (conceal, same-colour background).
_SGR_RE = re.compile("\x1b\\[([0-9;]*)m")
_SGR_KEPT = frozenset({"", "0", "1", "2", "3", "4", "22", "23", "24", "39",
                       *map(str, range(30, 38)), *map(str, range(90, 98))})


def _escape_char(m: re.Match[str]) -> str:
    c = m.group()
    return f"\\x{ord(c):02x}" if ord(c) < 0x100 else f"\\u{ord(c):04x}"


def escape_controls(text: str, keep_colour: bool = True) -> str:
    r"""``text`` with its control characters written out (``\x1b``), colour codes kept.

    >>> escape_controls("a\x1b]0;title\x07b \x1b[31mred\x1b[0m")
    'a\\x1b]0;title\\x07b \x1b[31mred\x1b[0m'
    >>> escape_controls("\x1b[2J", keep_colour=False)
    '\\x1b[2J'
    >>> escape_controls("a\x1b[8mhidden")  # conceal is not a colour spelbok writes
    'a\\x1b[8mhidden'
    """
    if not keep_colour:
        return _CONTROL_RE.sub(_escape_char, text)
    out: list[str] = []
    last = 0
    for m in _SGR_RE.finditer(text):
        if not _SGR_KEPT.issuperset(m.group(1).split(";")):
            continue  # escaped with the rest
        out.append(_CONTROL_RE.sub(_escape_char, text[last:m.start()]))
        out.append(m.group())
        last = m.end()
    out.append(_CONTROL_RE.sub(_escape_char, text[last:]))
    return "".join(out)


class SpelbokError(Exception):
    r"""Base of every error spelbok raises deliberately.

    Its text never holds a raw control character: a message may quote untrusted input
    (a card name, an option, a file name), and a terminal would obey an escape in it.

    >>> print(SpelbokError("no option '\x1b[2J'"))
    no option '\x1b[2J'
    """

    def __str__(self) -> str:
        return escape_controls(super().__str__(), keep_colour=False)


class SpecError(SpelbokError):
    """A located problem in a spec, a variant or a reading file.

    ``str()`` reads ``path:line:col: message`` (parts that are unknown are left out),
    followed by ``(did you mean 'x'?)`` when a hint is known.
    """

    def __init__(
        self,
        message: str,
        path: str | None = None,
        line: int | None = None,
        col: int | None = None,
        hint: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.path = path
        self.line = line
        self.col = col
        self.hint = hint
        self.also: tuple[str, ...] = ()  # where the same error was found again (collapse())

    def located(
        self, path: str | None = None, line: int | None = None, col: int | None = None
    ) -> SpecError:
        """Fill in location parts that are still unknown; returns self."""
        if self.path is None:
            self.path = path
        if self.line is None:
            self.line = line
        if self.col is None:
            self.col = col
        return self

    @property
    def location(self) -> str:
        parts = [self.path or "<spec>"]
        if self.line is not None:
            parts.append(str(self.line))
            if self.col is not None:
                parts.append(str(self.col))
        return ":".join(parts)

    def __str__(self) -> str:
        text = f"{self.location}: {self.message}"
        if self.hint:
            text += f" (did you mean '{self.hint}'?)"
        return escape_controls(text + self._also(), keep_colour=False)

    def _also(self) -> str:
        also: tuple[str, ...] = getattr(self, "also", ())  # a subclass may skip __init__
        if not also:
            return ""
        shown = ", ".join(also[:_ALSO_SHOWN])
        rest = len(also) - _ALSO_SHOWN
        more = f" and {rest} more" if rest > 0 else ""
        return f"; the same at {_count(len(also), 'more place')}: {shown}{more}"


_ALSO_SHOWN = 5


def _count(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def collapse(errors: Iterable[SpecError]) -> list[SpecError]:
    """``errors`` with each message said once: an error repeated word for word (one
    misspelt name in many formulas) is kept at its first place, with the count and the
    other places (``also``) after it; an error found twice at the same place is one.

    >>> e = collapse([SpecError("bad 'X'", "g.yaml", 3, 1), SpecError("bad 'X'", "g.yaml", 9, 5),
    ...               SpecError("bad 'X'", "g.yaml", 3, 1), SpecError("other", "g.yaml", 4, 1)])
    >>> [str(x) for x in e]
    ["g.yaml:3:1: bad 'X'; the same at 1 more place: 9:5", 'g.yaml:4:1: other']
    """
    first: dict[tuple[str, str | None, type], SpecError] = {}
    places: dict[tuple[str, str | None, type], set[str]] = {}  # sets: 20 000 repeats stay linear
    also: dict[tuple[str, str | None, type], list[str]] = {}
    out: list[SpecError] = []
    for e in errors:
        key = (e.message, e.hint, type(e))
        kept = first.get(key)
        if kept is None or isinstance(e, SpecErrors):
            if kept is not None and also.get(key):
                kept.also = (*kept.also, *also.pop(key))
            first[key] = e
            places[key] = {e.location}
            out.append(e)
            continue
        place = e.location
        if place in places[key]:
            continue  # the same error at the same place: once
        places[key].add(place)
        short = place[len(kept.path) + 1:] if kept.path and e.path == kept.path else place
        also.setdefault(key, []).append(short)
    for key, more in also.items():
        kept = first[key]
        kept.also = (*kept.also, *more)
    return out


class SpecErrors(SpecError):
    """Several spec errors at once (validation reports them all; an error repeated word for
    word is reported once, with its count: :func:`collapse`)."""

    def __init__(self, errors: Iterable[SpecError]) -> None:
        self.errors = collapse(errors)
        first = self.errors[0] if self.errors else SpecError("invalid spec")
        super().__init__(first.message, first.path, first.line, first.col, first.hint)

    def __str__(self) -> str:
        return "\n".join(str(e) for e in self.errors)


class SpecWarning(SpecError):
    """A located doubt about a spec that is valid: legal, but probably not what was meant.

    Never raised: ``spelbok validate`` reports warnings beside the errors (see
    :func:`spelbok.validation.diagnose`); loading a spec ignores them.

    >>> str(SpecWarning("every word has a 'when'", path="g.yaml", line=9, col=13))
    "g.yaml:9:13: warning: every word has a 'when'"
    """

    def __str__(self) -> str:
        text = f"{self.location}: warning: {self.message}"
        if self.hint:
            text += f" (did you mean '{self.hint}'?)"
        return escape_controls(text + self._also(), keep_colour=False)


class FormulaError(SpecError):
    """A formula that does not parse or does not make sense (column is inside the formula)."""


def kind_fault(error: Exception) -> FormulaError:
    """The error for a TypeError or ValueError met while a match runs: a formula combined
    values of different kinds (a variable declared as text, then compared with a
    number).  Said once, where play enters the engine, so the hot path pays nothing."""
    return FormulaError(f"a formula met a value of the wrong kind while the match ran "
                        f"({error}); check the variables' initial values and what the "
                        f"steps set them to")


class ActionError(SpelbokError, ValueError):
    """An action that cannot be applied in the current state."""


class InvalidActionError(ActionError):
    """The text is not action notation at all (cannot be parsed)."""


class IllegalActionError(ActionError):
    """A well-formed action that the rules do not allow here.

    ``reason``: the rules' own words for the refusal (the message less the action), which
    a reading file's ``reason`` check reads."""

    def __init__(self, message: str, reason: str = "") -> None:
        super().__init__(message)
        self.reason = reason or message


class AmbiguousActionError(ActionError):
    """The notation matches more than one legal action."""


class ReadingError(SpelbokError):
    """A rule-reading (scenario) file that cannot be run."""


class ArgumentError(SpelbokError, ValueError):
    """A bad argument to the library's API (a seat out of range, a seed that is not an int...)."""


class SnapshotError(SpelbokError):
    """A snapshot (``game.restore(d)``) that is not one this game could have made."""

    def __init__(self, message: str, hint: str | None = None) -> None:
        super().__init__(message + (f" (did you mean '{hint}'?)" if hint else ""))


class LimitError(SpelbokError):
    """A size or value over one of spelbok's bounds (see :mod:`spelbok.limits`)."""


def did_you_mean(word: str, candidates: Iterable[str]) -> str | None:
    """The closest candidate to ``word``, if any is close enough.

    >>> did_you_mean("scroe", ["score", "tricks"])
    'score'
    """
    matches = difflib.get_close_matches(word, list(candidates), n=1, cutoff=0.6)
    return matches[0] if matches else None


def error_lines(exc: BaseException) -> list[str]:
    """How an error reads on stderr: located spec errors as ``path:line:col: message``,
    everything else as ``error: message``.

    >>> error_lines(SpecError("bad key", path="g.yaml", line=3, col=1))
    ['g.yaml:3:1: bad key']
    >>> error_lines(SpecError("unknown option 'x'"))
    ["error: unknown option 'x'"]
    >>> error_lines(SpelbokError("no such bot"))
    ['error: no such bot']
    """
    if isinstance(exc, SpecErrors) and exc.errors:
        return [line for e in exc.errors for line in error_lines(e)]
    if isinstance(exc, SpecError):
        if exc.line is not None:
            return [str(exc)]
        text = str(exc)
        if exc.path is None and text.startswith("<spec>: "):
            text = text[len("<spec>: "):]
        return [f"error: {text}"]
    text = str(exc) or type(exc).__name__
    return [f"error: {line}" if i == 0 else f"  {line}" for i, line in enumerate(text.splitlines())]
