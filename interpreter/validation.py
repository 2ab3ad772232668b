"""Validate a spec: schema, then structural checks, then the checks of compiling it at
each player count (:class:`~spelbok.lang.compile_checks.Typer`: every formula typed,
every step's parameters checked).

It drives the language's stages and needs no engine: what compiling a game could find
wrong, the Typer finds first (the compiler runs it too).

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
    from .lang.checks import structural_diagnosis
    from .lang.compile_checks import Typer
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
            Typer(doc.tree, n, None, doc.locate).check()
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
