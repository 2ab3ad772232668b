"""The spelbok DSL: a rulebook-like second surface for the spec model.

:func:`parse_dsl` reads DSL text (``grammar/spec.lark``, described in
``docs/dsl.md``) and returns the same *raw* spec tree the YAML surface gives
(same keys and shapes: put it through the schema and normalization to get the
canonical model), plus a position table.  Formulas are written inline in the
formula language of ``grammar/formula.lark``; each is stored as its exact
source text.  Every syntax error is one located :class:`~spelbok.errors.SpecError`
that says in words what was expected.

This module is the entry point; the work is done in three modules:
:mod:`~spelbok.lang.dsl_parse` (the Lark parser, its postlexer and the checks
around a parse), :mod:`~spelbok.lang.dsl_errors` (a parse error in words) and
:mod:`~spelbok.lang.dsl_build` (the parse tree -> the raw spec tree and positions).

>>> tree, pos = parse_dsl('''
... spelbok 1
... game "Demo"
... players 2 to 4                      source "rules, 1"
... each hand:
...     deal 13 - hand_number cards in packets of 3 then 2
... ''', "demo.spel")
>>> tree["players"], tree["hand"]
({'min': 2, 'max': 4, 'source': 'rules, 1'}, [{'deal': {'size': '13 - hand_number', 'packets': [3, 2]}}])
>>> pos[("hand", 0, "deal", "size")]
('demo.spel', 6, 10)
"""

from __future__ import annotations

from typing import Any

from ..errors import SpecError
from .dsl_build import Positions, _Builder
from .dsl_errors import _translate
from .dsl_parse import (
    MAX_BYTES,
    MAX_DEPTH,
    MAX_TOKENS,
    _check_text,
    _check_tokens,
    _parse_checking_words,
    _parser,
    _strip_blank,
    near_keyword,
)

__all__ = ["parse_dsl", "near_keyword", "Positions", "MAX_BYTES", "MAX_DEPTH", "MAX_TOKENS"]


def parse_dsl(text: str, path: str) -> tuple[dict[str, Any], Positions]:
    """Parse DSL text into the raw spec tree and its position table.

    ``path`` names the file in positions and errors.  The tree has the keys and
    shapes of the YAML surface; the position table maps each node path (a tuple
    of keys and list indexes, ``()`` for the root) to ``(path, line, column)``.
    Every problem is a :class:`~spelbok.errors.SpecError` located in ``path``.

    >>> parse_dsl('spelbok 1\\ngame "Demo"\\nplayers 2 to 5\\n', "d.spel")[0]
    {'spelbok': 1, 'name': 'Demo', 'players': {'min': 2, 'max': 5}}
    >>> parse_dsl('spelbok 1\\nranks from high to low: A K 1\\n', "d.spel")
    Traceback (most recent call last):
    ...
    spelbok.errors.SpecError: d.spel:2:29: '1' is not a card rank (ranks are 2 3 4 5 6 7 8 9 10 J Q K A): expected a card rank like A, K, 10, a quoted text like "…" or the end of the line after 'ranks from high to low: A K'
    """
    from lark.exceptions import UnexpectedInput, VisitError

    _check_text(text, path)
    _check_tokens(text, path)
    if not _strip_blank(text):
        raise SpecError(
            "the spec is empty: a DSL spec starts with 'spelbok 1' and 'game \"Name\"'",
            path, 1, 1,
        )
    if not text.endswith("\n"):
        text += "\n"
    parser = _parser()
    try:
        root = _parse_checking_words(parser, text)
    except UnexpectedInput as exc:
        raise _translate(exc, text, path, parser.options.postlex) from None
    except SpecError as exc:
        raise exc.located(path) from None
    except RecursionError:  # pragma: no cover - the depth limit comes first
        raise SpecError("the spec is nested too deeply", path) from None
    except VisitError as exc:  # pragma: no cover - no transformer runs during parsing
        raise SpecError(str(exc.orig_exc), path) from None
    builder = _Builder(text, path)
    try:
        builder.build(root)
    except RecursionError:  # pragma: no cover - the depth limit comes first
        raise SpecError("the spec is nested too deeply", path) from None
    return builder.tree, builder.pos
