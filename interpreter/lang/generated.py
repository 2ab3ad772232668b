"""The files generated from the language's declarations, rewritten or checked.

The grammar (:mod:`.spec_grammar`), the JSON Schema (:mod:`.schema`) and the
reference's tables (:mod:`.reference`) are each written from the code and committed;
each module's ``python -m`` takes ``--write`` (rewrite what is stale) or ``--check``
(exit status 1 when a file differs, as the tests ask) through :func:`regenerate`.

>>> regenerate(["--nope"], "spelbok.lang.x", "the vocabulary", dict)
2
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from pathlib import Path

from ..errors import SpelbokError

#: The repository's root (the generated files are named relative to it).
ROOT = Path(__file__).resolve().parents[2]


def regenerate(argv: list[str] | None, module: str, source: str,
               make: Callable[[], Mapping[str, str]]) -> int:
    """Run ``python -m module --write|--check`` over the files ``make`` gives (relative
    path -> text); ``source`` says what they are made from, in the message of a stale
    file.  Returns the exit status: 0, 1 (stale under ``--check``, or an error), 2 (usage)."""
    args = sys.argv[1:] if argv is None else argv
    if args not in (["--write"], ["--check"]):
        print(f"usage: python -m {module} --write|--check", file=sys.stderr)
        return 2
    try:
        files = make()
        stale = [(p, text) for p, text in files.items() if not (ROOT / p).is_file()
                 or (ROOT / p).read_text("utf-8") != text]
    except (OSError, SpelbokError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    if args == ["--write"]:
        for p, text in stale:
            (ROOT / p).write_text(text, "utf-8")
            print(f"wrote {p}")
        return 0
    for p, _ in stale:
        print(f"{p} differs from {source} (run: python -m {module} --write)", file=sys.stderr)
    return 1 if stale else 0
