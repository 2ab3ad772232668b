"""The reading workbench's library: a spec being edited (a :class:`~spelbok.lang.loader.SpecText`)
checked, described and run against a reading file, as plain data for a page.

Each function takes the text as it stands in the editor and reads no file but the
shipped specs and reading files: :func:`check` gives ``validate``'s problems with
their line and column, :func:`describe_spec` gives ``describe``'s prose and what a
variant changes against its base, :func:`run_readings` runs a reading file's cases
against the text and gives each case's result with its position (:func:`position`).

>>> text = open_shipped("example")["text"]
>>> check(spec_text(text, near="example"))["ok"]
True
>>> bad = text.replace("name: Example", "name: Example\\nplayerz: 3", 1)
>>> check(spec_text(bad))["problems"][0]["text"]
"<pasted>:4:1: unknown key 'playerz' at the top level (did you mean 'players'?)"
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Callable
from importlib import resources
from typing import TYPE_CHECKING, Any

from ..errors import ReadingError, SpecError, SpecErrors, SpelbokError
from ..lang.loader import SpecText, shipped_spec_names
from ..lang.yamlio import MAX_BYTES

if TYPE_CHECKING:
    from ..engine.state import State

#: The largest reading file the workbench runs (characters).
MAX_READING = MAX_BYTES
#: Lines of the prose diff kept around each change.
CONTEXT = 1
SURFACES = {"yaml": ".yaml", "dsl": ".spel"}
#: How a page draws a card (``suit`` False) or a suit of a pack: ``draw(name, pack, suit)``.
Draw = Callable[[str, Any, bool], Any]


class WorkbenchError(SpelbokError):
    """A request the workbench cannot take (an unknown spec, a text too large)."""


def _text_arg(text: object, what: str, limit: int = MAX_BYTES) -> str:
    if not isinstance(text, str):
        raise WorkbenchError(f"{what} must be text")
    if len(text) > limit:
        raise WorkbenchError(f"{what} is too large (more than {limit} characters)")
    return text


def spec_text(text: object, surface: object = "yaml", near: object = None) -> SpecText:
    """The editor's text as a spec: ``near`` is the shipped spec it was opened from (its
    ``extends`` then reads from that spec's folder, and its errors name that file);
    None for pasted text (``<pasted>:line:col``).

    >>> spec_text("x", near="/etc/passwd")
    Traceback (most recent call last):
    ...
    spelbok.analysis.workbench.WorkbenchError: no shipped spec '/etc/passwd': open one of the shipped specs, or paste a spec
    """
    body = _text_arg(text, "the spec")
    if surface not in SURFACES:
        raise WorkbenchError("surface must be 'yaml' or 'dsl'")
    if near is None:
        return SpecText(body, "<pasted>", str(surface))
    if not isinstance(near, str) or near not in shipped_spec_names():
        raise WorkbenchError(f"no shipped spec {str(near)[:60]!r}: open one of the shipped "
                             "specs, or paste a spec")
    return SpecText(body, os.path.basename(near) + SURFACES[str(surface)], str(surface), near)


# -- opening --------------------------------------------------------------------------


def reading_names() -> list[str]:
    """The shipped reading files, by name.

    >>> "example" in reading_names()
    True
    """
    root = resources.files("spelbok.specs").joinpath("readings")
    return sorted(t.name[:-5] for t in root.iterdir() if t.name.endswith(".yaml"))


def reading_text(name: object) -> str:
    """The text of a shipped reading file (a name of :func:`reading_names`)."""
    if not isinstance(name, str) or name not in reading_names():
        raise WorkbenchError(f"no shipped reading file {str(name)[:60]!r}")
    return resources.files("spelbok.specs").joinpath("readings", name + ".yaml").read_text(
        encoding="utf-8")


def reading_for(spec: str) -> str | None:
    """The shipped reading file whose ``spec:`` is ``spec`` (a shipped name), if any.

    >>> reading_for("example"), reading_for("variants/no-such-variant")
    ('example', None)
    """
    import yaml

    base = spec
    if "/" in spec:  # a variant: its base's reading file
        try:
            from ..lang.loader import read_spec

            parents = read_spec(spec).parents
            base = os.path.basename(parents[0]).rsplit(".", 1)[0] if parents else spec
        except SpecError:
            return None
    for name in reading_names():
        head = reading_text(name).split("\ncases:", 1)[0]
        data = yaml.safe_load(head)
        target = str(data.get("spec", "")) if isinstance(data, dict) else ""
        if os.path.basename(target).rsplit(".", 1)[0] == base:
            return name
    return None


def open_shipped(name: object, surface: object = "yaml") -> dict[str, Any]:
    """A shipped spec's text for the editor, and its reading file's name.

    >>> d = open_shipped("example", "dsl")
    >>> d["file"], d["reading"], d["text"].startswith("spelbok 1")
    ('example.spel', 'example', True)
    """
    if not isinstance(name, str) or name not in shipped_spec_names():
        raise WorkbenchError(f"no shipped spec {str(name)[:60]!r}")
    if surface not in SURFACES:
        raise WorkbenchError("surface must be 'yaml' or 'dsl'")
    root = resources.files("spelbok.specs")
    wanted = [str(surface)] + [s for s in SURFACES if s != surface]
    for s in wanted:
        item = root.joinpath(*(name + SURFACES[s]).split("/"))
        if item.is_file():
            return {"spec": name, "surface": s, "file": item.name,
                    "text": item.read_text(encoding="utf-8"), "reading": reading_for(name)}
    raise WorkbenchError(f"no shipped spec {name!r}")  # pragma: no cover - listed above


# -- checking -------------------------------------------------------------------------


def _problem(e: SpecError, severity: str) -> dict[str, Any]:
    return {"severity": severity, "line": e.line, "col": e.col, "message": e.message,
            "hint": e.hint, "text": str(e)}


def check(source: SpecText) -> dict[str, Any]:
    """``validate``'s errors and warnings for the text, each with its line and column
    (the same ``path:line:col: message`` text as ``spelbok validate`` prints)."""
    from ..validation import diagnose

    errors, warnings = diagnose(source)
    return {"ok": not errors,
            "problems": [_problem(e, "error") for e in errors]
            + [_problem(w, "warning") for w in warnings]}


# -- describing -----------------------------------------------------------------------


def _prose_diff(old: str, new: str) -> list[dict[str, str]]:
    """The lines of ``describe`` that a variant changes, with a line of context."""
    a, b = old.splitlines(), new.splitlines()
    out: list[dict[str, str]] = []
    for group in difflib.SequenceMatcher(None, a, b, autojunk=False).get_grouped_opcodes(CONTEXT):
        if out:
            out.append({"op": "…", "text": ""})
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                out += [{"op": " ", "text": line} for line in a[i1:i2]]
                continue
            out += [{"op": "-", "text": line} for line in a[i1:i2]]
            out += [{"op": "+", "text": line} for line in b[j1:j2]]
    return out


def _options(tree: dict[str, Any]) -> dict[str, Any]:
    """The spec's options: their values and default, as JSON."""
    import json

    out = {}
    for name, o in (tree.get("options") or {}).items():
        if isinstance(o, dict):
            out[name] = json.loads(json.dumps({"values": o.get("values"),
                                               "default": o.get("default")}, default=str))
    return out


def _sections(prose: str) -> str:
    """``describe``'s prose from its first section on (without the title and about text).

    >>> _sections("Game\\n====\\nabout\\n\\nCards\\n-----\\n  c")
    'Cards\\n-----\\n  c'
    """
    lines = prose.split("\n")
    for i in range(len(lines) - 1):
        if lines[i] and lines[i + 1] and set(lines[i + 1]) == {"-"}:
            return "\n".join(lines[i:])
    return prose


def _without_changes(prose: str) -> str:
    """``describe``'s prose without its section of changes (the page lists them apart).

    >>> _without_changes("A\\n\\nChanges against b\\n---\\n  - x\\n\\nCards\\n-----\\n  c")
    'A\\n\\nCards\\n-----\\n  c'
    """
    lines = prose.split("\n")
    out: list[str] = []
    skipping = False
    for i, line in enumerate(lines):
        nxt = lines[i + 1] if i + 1 < len(lines) else ""
        title = bool(nxt) and set(nxt) == {"-"}
        if title:
            skipping = line.startswith("Changes against ")
        if not skipping:
            out.append(line)
    return "\n".join(out)


def describe_spec(source: SpecText, players: int | None = None) -> dict[str, Any]:
    """``describe``'s prose for the text and, for a variant (``extends``), what it changes:
    each key changed against its base, the notes ``describe`` adds (an option a changed
    formula no longer reads), and the lines of the base's prose that change."""
    from ..lang.describe import _read_base, describe, spec_changes
    from ..lang.loader import read_spec
    from ..lang.option_reads import dropped_options

    doc = read_spec(source)
    prose = describe(doc, players)
    out: dict[str, Any] = {"name": doc.tree.get("name"), "describe": prose, "base": None,
                           "changes": [], "notes": [], "diff": [],
                           "players": {"min": doc.tree["players"]["min"],
                                       "max": doc.tree["players"]["max"]},
                           "options": _options(doc.tree)}
    if not doc.parents:
        return out
    base = _read_base(doc.parents[0])
    out["base"] = base.tree.get("name")
    out["changes"] = [{"path": p, "change": c} for p, c in spec_changes(base.tree, doc.tree)
                      if p not in ("name", "about")]
    out["notes"] = [d.note for d in dropped_options(base.tree, doc.tree)]
    base_prose = describe(base, players)
    # the sections only: the title and the about text are the variant's own, not a rule
    out["diff"] = _prose_diff(_sections(base_prose), _sections(_without_changes(prose)))
    return out


# -- readings -------------------------------------------------------------------------


def position(state: State, draw: Draw | None = None) -> dict[str, Any]:
    """A state as a table: every seat's hand, tricks, score and role, and what lies on
    the table (trump, turn-up, talon, the trick).  Cards and suits are the game's notation,
    or what ``draw(name, pack, suit)`` makes of them (the page's card drawing).

    >>> import spelbok
    >>> p = position(spelbok.load("example", players=3).new_state(seed=1))
    >>> len(p["seats"]), len(p["seats"][0]["hand"]), p["trump"]
    (3, 5, 'D')
    """
    n = state.game.players
    pack = state.game.program.pack

    def d(name: str | None, suit: bool = False) -> Any:
        return name if draw is None or name is None else draw(name, pack, suit)

    views = [state.view(p) for p in range(n)]
    v = views[0]
    current = v["current_player"]
    seats = [{"seat": p, "hand": [d(c) for c in views[p]["hand"]], "tricks": (v.get("tricks") or [0] * n)[p],
              "score": v["scores"][p] if p < len(v["scores"]) else None,
              "dealer": p == v["dealer"], "to_act": p == current,
              "out": bool((v.get("out") or [False] * n)[p])} for p in range(n)]
    # each card of the trick as its player sees it (a card played face down is still known)
    trick = [[p, d(views[p]["trick"][k][1])] for k, (p, _) in enumerate(v["trick"])]
    return {"seats": seats, "trump": d(v.get("trump"), True),
            "turn_up": [d(c) for c in v.get("turn_up") or []],
            "talon": v.get("talon", 0), "trick": trick, "led": d(v.get("led"), True),
            "hand_number": v["hand_number"], "decision": v.get("decision"),
            "terminal": v["terminal"], "winners": v.get("winners") or []}


def _case(c: Any, draw: Draw | None) -> dict[str, Any]:
    d = c.to_dict()
    d.pop("other_run", None)
    d["start"] = position(c.start, draw) if c.start is not None else None
    d["end"] = position(c.end, draw) if c.end is not None else None
    return d


def run_readings(source: SpecText, reading: object, text: object = None,
                 draw: Draw | None = None) -> dict[str, Any]:
    """Run a reading file's cases against the text: each case's result (as ``verify
    --json`` gives it) with its position where it started and where it stopped.

    ``reading`` names a shipped reading file; ``text``, when given, is that file as
    edited (its ``spec:`` still reaches only the shipped specs); ``draw``: as for
    :func:`position`.
    """
    from ..analysis.readings import run_reading

    name = reading if isinstance(reading, str) else ""
    body = reading_text(name) if text is None else _text_arg(text, "the reading file",
                                                             MAX_READING)
    if text is not None and name not in reading_names():
        name = "<reading>"
    folder = resources.files("spelbok.specs").joinpath("readings")
    try:
        report = run_reading(f"{name}.yaml" if name != "<reading>" else name, spec=source,
                             text=body, folder=os.fspath(str(folder)))
    except (SpecError, ReadingError) as e:
        errors = e.errors if isinstance(e, SpecErrors) else [e]
        return {"ok": False, "error": "\n".join(str(x) for x in errors), "cases": []}
    d = report.to_dict()
    d["cases"] = [_case(c, draw) for c in report.cases]
    return d
