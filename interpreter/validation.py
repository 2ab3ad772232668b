"""Validate a spec: schema, then structural checks, then compiling it at each player count.

It drives every stage (the language's checks, then the engine's compiler), so it sits
above both.

>>> validate("example")
[]
>>> diagnose("example")
([], [])
"""

from __future__ import annotations

import os
from collections.abc import Iterable

from .errors import SpecError, SpecErrors, collapse
from .lang.promise import player_counts_to_compile


def validate(source: str | os.PathLike[str], *,
             allow_paths: Iterable[str | os.PathLike[str]] = ()) -> list[SpecError]:
    """Every problem found in a spec, located; an empty list means valid.

    ``allow_paths``: folders ``extends`` may reach besides the spec's own.
    """
    return diagnose(source, allow_paths=allow_paths)[0]


def diagnose(source: str | os.PathLike[str], *,
             allow_paths: Iterable[str | os.PathLike[str]] = ()
             ) -> tuple[list[SpecError], list[SpecError]]:
    """The errors of a spec (as :func:`validate`) and its warnings
    (:class:`~spelbok.errors.SpecWarning`: valid, but probably not what was meant)."""
    from .engine.game import Game
    from .lang.checks import structural_diagnosis
    from .lang.loader import read_spec

    try:
        doc = read_spec(source, allow_paths=allow_paths)
    except SpecErrors as e:
        return list(e.errors), []
    except SpecError as e:
        return [e], []
    errors, warnings = structural_diagnosis(doc)
    # one misspelt name in many formulas is one error, with its count and places
    errors, warnings = collapse(errors), collapse(warnings)
    if errors:
        return errors, warnings
    seen: set[str] = set()
    for n in player_counts_to_compile(doc.tree):
        try:
            Game(doc, n)
        except SpecErrors as e:
            for err in e.errors:
                if str(err) not in seen:
                    seen.add(str(err))
                    errors.append(err)
        except SpecError as err:
            if str(err) not in seen:
                seen.add(str(err))
                errors.append(err)
    return collapse(errors), warnings
