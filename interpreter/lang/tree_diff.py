"""What differs between two canonical trees: a variant against its base.

``describe`` tells the changes (:func:`spelbok.lang.describe.spec_changes`) and
:mod:`.option_reads` finds the options a change no longer reads, from the same diff.

>>> path_text(("hand", 3, "set", "score"))
'hand[3].set.score'
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from typing import Any


def path_text(path: Sequence[Any]) -> str:
    out = ""
    for p in path:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return out or "(the whole spec)"


class _Absent:
    def __repr__(self) -> str:
        return "<absent>"


#: A value one of two trees does not have (:func:`tree_changes`).
ABSENT: Any = _Absent()


def tree_changes(base: Any, variant: Any, path: tuple[Any, ...] = ()
                 ) -> Iterator[tuple[tuple[Any, ...], tuple[Any, ...], Any, Any]]:
    """The values that differ between two canonical trees, as ``(path, base's path, old,
    new)`` (``ABSENT`` for a value one side lacks; a list's items are matched as a diff
    matches lines, the path is the variant's but a removed item's is the base's).

    >>> [(p, b, o, n) for p, b, o, n in tree_changes({"a": [1, 2]}, {"a": [0, 1, 3]})]
    [(('a', 0), ('a', 0), <absent>, 0), (('a', 2), ('a', 1), 2, 3)]
    """
    yield from _tree_changes(base, variant, path, path)


def _tree_changes(base: Any, variant: Any, path: tuple[Any, ...], bpath: tuple[Any, ...]
                  ) -> Iterator[tuple[tuple[Any, ...], tuple[Any, ...], Any, Any]]:
    if isinstance(base, Mapping) and isinstance(variant, Mapping):
        for key in [*base, *(k for k in variant if k not in base)]:
            sub, bsub = (*path, key), (*bpath, key)
            if key not in variant:
                yield sub, bsub, base[key], ABSENT
            elif key not in base:
                yield sub, bsub, ABSENT, variant[key]
            else:
                yield from _tree_changes(base[key], variant[key], sub, bsub)
        return
    if isinstance(base, list) and isinstance(variant, list):
        import difflib

        keys_a = [json.dumps(x, sort_keys=True) for x in base]
        keys_b = [json.dumps(x, sort_keys=True) for x in variant]
        matcher = difflib.SequenceMatcher(a=keys_a, b=keys_b, autojunk=False)
        for op, a0, a1, b0, b1 in matcher.get_opcodes():
            if op == "equal":
                continue
            pairs = min(a1 - a0, b1 - b0) if op == "replace" else 0
            for k in range(pairs):
                yield from _tree_changes(base[a0 + k], variant[b0 + k], (*path, b0 + k),
                                         (*bpath, a0 + k))
            for i in range(a0 + pairs, a1):
                yield (*path, i), (*bpath, i), base[i], ABSENT
            for i in range(b0 + pairs, b1):
                yield (*path, i), (*bpath, i), ABSENT, variant[i]
        return
    if base == variant and type(base) is type(variant):
        return
    yield path, bpath, base, variant
