"""``grammar/spec.lark``, assembled from the shared part and the constructs' pieces.

The DSL's grammar is written in two places: ``grammar/spec_core.lark`` holds the
shared part by hand (lines starting ``//!`` are its own notes; the shared rules, the terminals, the sections not yet in a
home), and each construct's :class:`~spelbok.lang.constructs.home.Home` holds the
rules of its own phrases (``Home.grammar``).  :func:`grammar_text` puts them
together: the marks of the core file are replaced, ``@@top@@`` and ``@@step@@``
by the alternatives the registry adds to ``_top`` and ``_step`` (each home's
``alternatives``), ``@@sections@@`` and ``@@steps@@`` by the homes' rules, in the
registry's order.  The result is committed as ``grammar/spec.lark`` (the file the
parser reads, and the one a reader opens), so that parsing assembles nothing.

``python -m spelbok.lang.spec_grammar --write`` rewrites it; ``--check`` exits 1
when it differs from what the pieces make.

>>> text = grammar_text()
>>> text.startswith("// GENERATED"), "@@" in text
(True, False)
>>> _alternatives("_x", ["a", "@@m@@", "b"], {"m": ["c", "d"]})
'_x: a | c | d | b'
"""

from __future__ import annotations

import re
import sys
from importlib import resources

from ..cards import READ_RANK, READ_SUIT
from .constructs import PART_HOMES, SECTION_HOMES, STEP_HOMES, Home
from .generated import ROOT, regenerate

__all__ = ["CORE", "SHIPPED", "grammar_text", "main"]

CORE = "grammar/spec_core.lark"
"""The hand-written shared part, relative to the repository root."""
SHIPPED = "grammar/spec.lark"
"""The assembled grammar the parser reads, relative to the repository root."""

_WIDTH = 95
_HEADER = ("// GENERATED from grammar/spec_core.lark and the grammar pieces of the constructs'\n"
           "// homes (interpreter/lang/constructs/): edit those, then run\n"
           "// `python -m spelbok.lang.spec_grammar --write`.\n//\n")
# a rule whose alternatives hold a mark: its head and its alternatives, on one or more lines
_RULE = re.compile(r"^(\w+):([^\n]*@@\w+@@[^\n]*(?:\n[ \t]+\|[^\n]*)*)", re.M)
_PIECES = re.compile(r"^@@(\w+)@@$", re.M)


def _alternatives(head: str, alts: list[str], marks: dict[str, list[str]]) -> str:
    """``head: a | b ...`` with each ``@@mark@@`` replaced, wrapped with ``|`` under the ``:``."""
    names: list[str] = []
    for a in alts:
        m = re.fullmatch(r"@@(\w+)@@", a)
        names.extend(marks[m.group(1)] if m else [a])
    lines, line = [], f"{head}: {names[0]}"
    for n in names[1:]:
        if len(line) + len(n) + 3 > _WIDTH:
            lines.append(line)
            line = " " * len(head) + f"| {n}"
        else:
            line += f" | {n}"
    return "\n".join([*lines, line])


def _piece(home: Home) -> str:
    """A home's rules under a line naming it (where to edit them)."""
    return f"// -- the {home.group} '{home.name}' (its home in lang/constructs/)\n" \
        + home.grammar.strip("\n")


def grammar_text(core: str | None = None) -> str:
    """The assembled grammar: ``core`` (by default the shipped core file) with its marks filled."""
    if core is None:
        core = resources.files("spelbok.grammar").joinpath("spec_core.lark").read_text("utf-8")
    marks = {"top": [a for h in SECTION_HOMES for a in h.alternatives],
             "step": [a for h in STEP_HOMES for a in h.alternatives]}
    pieces = {"sections": [_piece(h) for h in SECTION_HOMES if h.grammar],
              "steps": [_piece(h) for h in (*STEP_HOMES, *PART_HOMES) if h.grammar]}
    core = "".join(line for line in core.splitlines(keepends=True) if not line.startswith("//!"))
    core = core.replace("@@rank@@", READ_RANK).replace("@@suit@@", READ_SUIT)  # cards.py's
    text = _RULE.sub(lambda m: _alternatives(
        m.group(1), [a.strip() for a in m.group(2).split("|")], marks), core)
    text = _PIECES.sub(lambda m: "\n\n".join(p.strip("\n") for p in pieces[m.group(1)]), text)
    text = re.sub(r"\n{3,}", "\n\n", text)  # an empty mark leaves no gap
    return _HEADER + text


def main(argv: list[str] | None = None) -> int:
    """``--write``: rewrite ``grammar/spec.lark``; ``--check``: 1 when it differs."""
    return regenerate(argv, "spelbok.lang.spec_grammar", "its pieces", lambda: {
        SHIPPED: grammar_text((ROOT / CORE).read_text("utf-8"))})


if __name__ == "__main__":
    sys.exit(main())
