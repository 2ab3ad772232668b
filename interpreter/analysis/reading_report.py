"""The results of running a reading file: each :class:`Mismatch` between the
expected and the actual, each case's :class:`CaseResult`, and the file's
:class:`ReadingReport` (as text for ``spelbok verify``, or as JSON).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..errors import escape_controls

# ----------------------------------------------------------------------------- results


@dataclass
class Mismatch:
    """One expectation that did not hold: what, expected and actual values as text."""

    what: str
    expected: str
    actual: str

    def to_dict(self) -> dict[str, str]:
        return {"what": self.what, "expected": self.expected, "actual": self.actual}


@dataclass
class CaseResult:
    """The outcome of one case: ``status`` is ``pass``, ``fail`` or ``error``.

    For a failure, ``step`` is the 1-based step where reading and engine part,
    ``history`` the actions applied before it and ``mismatches`` the values
    side by side.  ``compared`` is the same case run under the spec's own
    reading, when the case assumes another one (see :attr:`separates`).
    """

    name: str
    status: str
    cites: list[str]
    line: int | None = None
    reading: dict[str, Any] = field(default_factory=dict)
    options: dict[str, Any] = field(default_factory=dict)
    step: int | None = None
    step_line: int | None = None
    history: list[str] = field(default_factory=list)
    mismatches: list[Mismatch] = field(default_factory=list)
    message: str = ""
    note: str = ""
    compared: CaseResult | None = None
    spec_reading: dict[str, Any] = field(default_factory=dict)
    separates: bool | None = None
    compare_text: str = ""
    #: the state the case set up, and the state where it stopped (its last step, or the
    #: one that failed): for a page that draws the position; not in :meth:`to_dict`
    start: Any = field(default=None, repr=False, compare=False)
    end: Any = field(default=None, repr=False, compare=False)

    @property
    def ok(self) -> bool:
        return self.status == "pass"

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "name": self.name,
            "status": self.status,
            "cites": self.cites,
            "line": self.line,
            "reading": self.reading,
            "options": self.options,
        }
        if self.status != "pass":
            d.update(step=self.step, step_line=self.step_line, history=self.history,
                     mismatches=[m.to_dict() for m in self.mismatches], message=self.message)
        if self.note:
            d["note"] = self.note
        if self.separates is not None:
            d["separates"] = self.separates
            d["compared"] = self.compare_text
            if self.spec_reading:
                d["spec_reading"] = self.spec_reading
            if self.compared is not None:
                d["other_run"] = self.compared.to_dict()
        return d


@dataclass
class ReadingReport:
    """Every case of one reading file run against one spec.

    >>> from spelbok.analysis.readings import run_reading
    >>> r = run_reading("example", only=lambda name: name.startswith("a void player may"))
    >>> print(r.format().splitlines()[-3])
      1 passed, 0 failed; 1 case(s) assume another reading than the spec's, 1 separate it
    >>> r.to_dict()["separating"]
    ['a void player may play any card']
    """

    path: str
    spec: str
    title: str
    cases: list[CaseResult]
    players: int | None = None
    versus: str | None = None

    @property
    def ok(self) -> bool:
        """True when every case passed (separating cases do not count as failures)."""
        return all(c.ok for c in self.cases)

    @property
    def passed(self) -> int:
        return sum(c.ok for c in self.cases)

    @property
    def failed(self) -> int:
        return len(self.cases) - self.passed

    @property
    def separating(self) -> list[CaseResult]:
        """Cases that tell their assumed reading apart from the spec's own."""
        return [c for c in self.cases if c.separates]

    def to_dict(self) -> dict[str, Any]:
        return {
            "file": self.path,
            "spec": self.spec,
            "title": self.title,
            "ok": self.ok,
            "passed": self.passed,
            "failed": self.failed,
            "versus": self.versus,
            "separating": [c.name for c in self.separating],
            "cases": [c.to_dict() for c in self.cases],
        }

    def format(self, verbose: bool = False, style: Callable[..., str] | None = None) -> str:
        """The report as text: one line a case, details for failures and separations.

        ``style(text, fg=..., bold=...)`` colours words (``click.style``); default none.
        """
        st = style or (lambda text, **kw: text)
        lines = [st(f"{self.path}", bold=True) + (f" — {self.title}" if self.title else ""),
                 f"  spec: {self.spec}" + (f"  (compared with the file's {self.versus})"
                                          if self.versus else "")]
        for c in self.cases:
            tag = {"pass": st("PASS ", fg="green"), "fail": st("FAIL ", fg="red", bold=True),
                   "error": st("ERROR", fg="red", bold=True)}[c.status]
            assumed = _opts_text(c.reading)
            head = f"  {tag} {c.name}" + (f"  [{assumed}]" if assumed else "")
            if c.line:
                head += st(f"  (line {c.line})", fg="bright_black")
            lines.append(head)
            if c.status != "pass" or verbose:
                for cite in c.cites:
                    lines.append(f"        cites: {cite}")
            if c.status != "pass":
                lines.extend(_detail(c, "        "))
            if c.separates:
                lines.append("        " + st("SEPARATES", fg="yellow", bold=True)
                             + (f" the readings: {c.compare_text}" if self.versus else
                                f" the readings: {c.compare_text} it fails")
                             + (":" if c.compared is not None else ""))
                if c.compared is not None:
                    lines.extend(_detail(c.compared, "          "))
            elif c.separates is False and not self.versus:
                lines.append("        " + st("same", fg="cyan")
                             + f" {c.compare_text}: this case does not tell them apart")
            if c.note:
                lines.append(f"        note: {c.note}")
        sep = self.separating
        summary = f"  {self.passed} passed, {self.failed} failed"
        if self.versus:
            summary += f"; {len(sep)} case(s) separate {self.versus} from {self.spec}"
        else:
            compared = [c for c in self.cases if c.separates is not None]
            if compared:
                summary += (f"; {len(compared)} case(s) assume another reading than the "
                            f"spec's, {len(sep)} separate it")
        lines.append(st(summary, bold=True, fg="green" if self.ok else "red"))
        if sep:
            lines.append("  separating cases:")
            for c in sep:
                what = c.compare_text if self.versus else (
                    f"{_opts_text(c.reading)} vs {_opts_text(c.spec_reading)}")
                lines.append(f"    - {c.name}  [{what}]")
        # a reading file is untrusted: its names, notation and titles reach the terminal
        # (colour codes of ``style`` kept, any other control character written out)
        return escape_controls("\n".join(lines))


def _option_diff(a: dict[str, Any], b: dict[str, Any]
                 ) -> tuple[dict[str, Any], dict[str, Any]]:
    """The options on which two games differ, as two maps (a's values, b's values)."""
    keys = [k for k in {**a, **b} if not (k in a and k in b and _same_value(a[k], b[k]))]
    return ({k: a[k] for k in keys if k in a}, {k: b[k] for k in keys if k in b})


def _opts_text(opts: dict[str, Any]) -> str:
    return ", ".join(f"{k}={_show(v)}" for k, v in opts.items())


def _show(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if v is None:
        return "none"
    if isinstance(v, list):
        return "[" + ", ".join(_show(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k}: {_show(x)}" for k, x in v.items()) + "}"
    return str(v)


def _detail(c: CaseResult, pad: str) -> list[str]:
    out = []
    where = f"at step {c.step}" if c.step else "while setting up"
    if c.step_line:
        where += f" (line {c.step_line})"
    hist = ", ".join(c.history) if c.history else "no action yet"
    if c.step:
        where += f", after: {hist}"
    out.append(pad + where)
    if c.message:
        out.append(pad + c.message)
    if c.mismatches:
        w1 = max(len("expect"), *(len(m.what) for m in c.mismatches))
        w2 = max(len("expected"), *(len(m.expected) for m in c.mismatches))
        out.append(pad + f"{'':<{w1}}  {'expected':<{w2}}  actual")
        for m in c.mismatches:
            out.append(pad + f"{m.what:<{w1}}  {m.expected:<{w2}}  {m.actual}")
    return out


def _same_value(a: Any, b: Any) -> bool:
    return str(a).lower() == str(b).lower()
