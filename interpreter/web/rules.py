"""The Rules tab: ``describe``'s text (:func:`spelbok.lang.describe.describe`, for the
match's own player count) as headings and paragraphs the page lays out, not the
terminal's hard-wrapped lines.

The text is read back by its layout alone: a line underlined with ``=`` is the title,
one underlined with ``-`` a section; a line at the paragraph's depth or deeper that
follows a line ending mid-sentence continues the paragraph; anything else starts a
new one.

>>> text = '''Game
... ====
...
... Players
... -------
...   2 to 4 players; play goes
...   clockwise.
...   [en: rules]
...   With 2 players: 5 cards each.'''
>>> for b in blocks(text):
...     print(b)
{'kind': 'title', 'text': 'Game', 'indent': 0}
{'kind': 'heading', 'text': 'Players', 'indent': 0}
{'kind': 'para', 'text': '2 to 4 players; play goes clockwise.', 'indent': 1}
{'kind': 'para', 'text': '[en: rules]', 'indent': 1}
{'kind': 'para', 'text': 'With 2 players: 5 cards each.', 'indent': 1}
"""

from __future__ import annotations

from typing import Any

#: A line ending with one of these ends its sentence (the next line at its depth is new).
_ENDS = (".", ":", "!", "?", ")", "]")


def blocks(text: str) -> list[dict[str, Any]]:
    """``describe``'s text as blocks: ``title``, ``heading`` and ``para`` (its words joined
    into one line), each with its indent (in steps of two spaces)."""
    lines = text.splitlines()
    out: list[dict[str, Any]] = []
    para: dict[str, Any] | None = None
    first = 0  # the indent of the paragraph's first line
    i = 0
    while i < len(lines):
        line = lines[i].rstrip()
        under = lines[i + 1].strip() if i + 1 < len(lines) else ""
        if line.strip() and under and set(under) <= {"="} | {"-"} and len(under) >= 3:
            out.append({"kind": "title" if under[0] == "=" else "heading",
                        "text": line.strip(), "indent": 0})
            para = None
            i += 2
            continue
        i += 1
        if not line.strip():
            para = None
            continue
        depth = len(line) - len(line.lstrip())
        words = line.strip()
        if para is not None and depth >= first and not para["text"].endswith(_ENDS):
            para["text"] += " " + words
            continue
        para = {"kind": "para", "text": words, "indent": depth // 2}
        first = depth
        out.append(para)
    return out
