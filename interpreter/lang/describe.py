"""The rules of a spec in readable prose, with the source citations.

:func:`describe` walks the canonical model (see :mod:`spelbok.lang.model`) and
writes one section per part of the game: players, cards and ranking, the
options (readings) with their defaults and reasons, dealing, each step of a
hand in plain words, and the end of the match.  Formulas are shown as written,
between backticks.  A spec that extends another also gets a section listing
what it changes against its base.

>>> from spelbok.lang.loader import read_spec
>>> text = describe(read_spec("example"))
>>> text.splitlines()[0]
'Example'
>>> "J♣" in text and "[doc: the jack of clubs" in text
True
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from .constructs import PROSE_ORDER, STEP_HOMES
from .prose import SYMBOLS as _SYMBOLS
from .prose import cite as _cite
from .prose import formula as _f
from .prose import wrap as _wrap
from .tree_diff import ABSENT, path_text, tree_changes  # noqa: F401  (ABSENT, tree_changes: their old home)
from .vocabulary import PER_TRICK_NAMES
from .vocabulary import step_kind as _step_kind

__all__ = ["describe", "spec_changes"]



# ------------------------------------------------------------------------- helpers


def _card(name: str, pack: Any = None) -> str:
    """A card of the spec in prose: its suit as a symbol (a declared pack's own)."""
    text = str(name)
    if "@" in text:
        rank, _, rel = text.partition("@")
        if rel == "trump":
            return f"the {rank} of trumps"
        if rel == "trump_colour":
            return f"the {rank} of the other suit of the trump's colour"
        return text
    if pack is not None:
        c = pack.parse_card(text)
        return pack.symbol_names[c] if c is not None else text
    if len(text) >= 2 and text[-1] in _SYMBOLS:
        return text[:-1] + _SYMBOLS[text[-1]]
    return text


def _suits(suits: Iterable[str]) -> str:
    return " ".join(_SYMBOLS.get(s, s) for s in suits)


def _range(lo: int, hi: int) -> str:
    if lo == hi:
        return f"{lo}"
    if hi == lo + 1:
        return f"{lo} or {hi}"
    return f"{lo} to {hi}"


class _Ctx:
    """What the prose needs besides the node at hand: option defaults, player count."""

    def __init__(self, tree: Mapping[str, Any], players: int | None) -> None:
        self.tree = tree
        self.players = players
        self.options = {k: v.get("default") for k, v in (tree.get("options") or {}).items()}

    def default_of(self, text: Any) -> Any:
        """The value of a formula over options only, with the default options; else None."""
        if isinstance(text, bool | int):
            return text
        try:
            from ..formula import DictResolver, compile_formula

            seats = self.players or int(self.tree.get("players", {}).get("min", 2))
            compiled = compile_formula(str(text), DictResolver(seats, self.options),
                                       per_player=False)
        except Exception:
            return None
        return compiled.value if compiled.constant else None

    def option_note(self, text: Any) -> str:
        """`` (with the default options: yes)`` for a condition that reads options only."""
        value = self.default_of(text)
        if isinstance(value, bool):
            return f" (with the default options: {'yes' if value else 'no'})"
        return ""

    def enum(self, value: Any, known: Iterable[Any]) -> tuple[Any, str]:
        """A field that is a fixed word or a formula over options: (value, note)."""
        if value in tuple(known):
            return value, ""
        default = self.default_of(value)
        name = str(value)
        if name in self.options:
            return default, f" (as option {name} says; by default {default})"
        return default, f" (given by {_f(value)}; by default {default})"

    #: Names whose value changes from one trick to the next (a rule reading one is told so).
    per_trick_names = PER_TRICK_NAMES

    def step_lines(self, step: Mapping[str, Any], number: str, indent: int) -> list[str]:
        """The lines of ``step``, numbered ``number`` (a step holding steps describes them)."""
        return _step_lines(step, number, indent, self)

    def suit_name(self, letter: Any) -> str:
        """A suit letter as its name (``spades``), in the spec's declared pack if any."""
        return _suit_name(letter, _declared_pack(self.tree))


# ------------------------------------------------------------------------- sections


def _title(text: str) -> list[str]:
    return ["", text, "-" * len(text)]


def _suit_name(letter: Any, pack: Any = None) -> str:
    """A suit letter as its name (``spades``), in the declared pack if any."""
    from ..cards import FRENCH

    p = pack or FRENCH
    text = str(letter).upper()
    return p.suit_names[p.suit_index[text]] if text in p.suit_index else str(letter)


def _declared_pack(tree: Mapping[str, Any]) -> Any:
    """The spec's declared Pack, or None (the French pack, or a pack section in error)."""
    section = tree.get("pack")
    if not isinstance(section, Mapping):
        return None
    from ..cards import pack_of

    try:
        return pack_of(dict(section))
    except (KeyError, ValueError, TypeError, IndexError):
        return None  # not checked: say nothing of it




# ------------------------------------------------------------------------- steps




#: The text of each step kind (its home's ``describe``): its sentence, the lines under it
#: and its citation.
_STEP_TEXT: dict[str, Callable[[_Ctx, Mapping[str, Any], str, int],
                               tuple[str, list[str], list[str]]]] = {
    **{h.name: h.describe for h in STEP_HOMES if h.describe is not None},
}


def _step_lines(step: Mapping[str, Any], number: str, indent: int, ctx: _Ctx) -> list[str]:
    kind = _step_kind(step)
    first = " " * indent + f"{number}. "
    sub = indent + len(number) + 2
    prefix = ""
    if step.get("label"):
        prefix += f"({step['label']}) "
    if step.get("when") not in (None, "true", True):
        prefix += f"Only when {_f(step['when'])}{ctx.option_note(step['when'])}: "
    if kind is not None:
        text, body, citation = _STEP_TEXT[kind](ctx, step, number, sub)
    else:
        text, body, citation = "(a step spelbok does not know)", [], []
    lines = _wrap(prefix + text, sub, first=first) if (prefix + text) else [first.rstrip()]
    lines[1:] = [" " * sub + line.lstrip() for line in lines[1:]]
    return lines + body + citation + _cite(step, sub)




# ------------------------------------------------------------------------- changes


def _short(value: Any, limit: int = 70) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def spec_changes(base: Any, variant: Any, path: tuple[Any, ...] = ()) -> list[tuple[str, str]]:
    """The keys that differ between two canonical trees: ``(path, "old → new")``.

    >>> spec_changes({"a": 1, "b": {"c": [1, 2]}}, {"a": 1, "b": {"c": [1, 3]}, "d": True})
    [('b.c[1]', '2 → 3'), ('d', '(new) true')]
    """
    out: list[tuple[str, str]] = []
    for shown, _, old, new in tree_changes(base, variant, path):
        if new is ABSENT:
            out.append((path_text(shown), f"{_short(old)} → (removed)"))
        elif old is ABSENT:
            out.append((path_text(shown), f"(new) {_short(new)}"))
        else:
            out.append((path_text(shown), f"{_short(old)} → {_short(new)}"))
    return out


def _read_base(name: str) -> Any:
    from .loader import read_spec

    if not os.path.exists(name) and name.startswith("spelbok.specs/"):
        name = name[len("spelbok.specs/"):]
    return read_spec(name)


def _section_changes(doc: Any) -> list[str]:
    parents = tuple(getattr(doc, "parents", ()) or ())
    if not parents:
        return []
    base_name = parents[0]
    lines = _title(f"Changes against {os.path.basename(base_name)}")
    try:
        base = _read_base(base_name)
    except Exception as exc:  # the base loaded once already; report rather than fail
        return lines + _wrap(f"(cannot read the base spec {base_name}: {exc})")
    changes = [(p, c) for p, c in spec_changes(base.tree, doc.tree) if p not in ("name", "about")]
    name_change = base.tree.get("name") != doc.tree.get("name")
    shown = os.path.normpath(base_name)
    if os.path.isabs(shown):
        try:
            rel = os.path.relpath(shown)
            shown = shown if rel.startswith("..") else rel
        except ValueError:
            pass
    lines += _wrap(f"This spec extends {shown}"
                   + (f" ({base.tree.get('name')})" if name_change else "") + ".")
    if not changes:
        return lines + _wrap("It changes no rule.")
    for path, change in changes:
        lines += _wrap(f"{path}: {change}", 4, first="  - ")
    from .fixed_conditions import variant_disabled_rules
    from .option_reads import dropped_options

    for dropped in dropped_options(base.tree, doc.tree):
        lines += _wrap(f"note: {dropped.note}", 4, first="  ")
    for rule in variant_disabled_rules(base, doc):
        lines += _wrap(f"note: {rule.note}", 4, first="  ")
    return lines


# ------------------------------------------------------------------------- entry point


class _Kit(_Ctx):
    """describe's context for a section's prose, its first argument: the context
    (``tree``, ``players``, ``enum``, ``option_note``...), with the helpers of the prose
    that live here (:mod:`spelbok.lang.prose` has the others)."""

    card = staticmethod(_card)
    suits = staticmethod(_suits)
    span = staticmethod(_range)
    title = staticmethod(_title)
    declared_pack = staticmethod(_declared_pack)

    def __init__(self, tree: Mapping[str, Any], players: int | None, doc: Any = None) -> None:
        super().__init__(tree, players)
        self.doc = doc

    def hand_cards(self, players: int) -> tuple[int, int, int] | None:
        """What a hand deals with ``players`` seats (each, widow, turned up), counted as the
        deck-size check counts; None when it cannot be told."""
        from .deck_size import hand_cards

        return hand_cards(self.tree, players)

    def seats_dealt(self, players: int) -> int:
        """The seats a hand deals to (all but those sitting it out, ``sit_out``)."""
        from .deck_size import seats_dealt

        return seats_dealt(self.tree, players)

    def changes(self) -> list[str]:
        """The section of what a variant changes against its base (none for a base)."""
        return _section_changes(self.doc)


def describe(doc: Any, players: int | None = None) -> str:
    """The rules of a loaded spec (a :class:`~spelbok.lang.model.SpecDoc`, or a path or
    shipped name to read) as readable text.

    ``players`` narrows the cards to that player count and adds how the pack
    divides between hands, turn-up and stock.

    >>> text = describe("example", players=3)
    >>> "With 3 players: 5 cards each (15 in all), 1 turned up, 16 left in the stock" in text
    True
    >>> "Changes against" in text
    False
    """
    if not hasattr(doc, "tree"):
        from .loader import read_spec

        doc = read_spec(doc)
    tree = doc.tree
    if players is not None:
        lo, hi = tree["players"]["min"], tree["players"]["max"]
        if not lo <= players <= hi:
            from ..errors import SpecError

            raise SpecError(f"{tree.get('name', 'this game')} is for {_range(lo, hi)} players, "
                            f"not {players}")
    kit = _Kit(tree, players, doc)
    lines: list[str] = []
    for home in PROSE_ORDER:  # each section's prose, in describe's order
        if home.describe is not None:
            lines += home.describe(kit, tree)
    return "\n".join(line.rstrip() for line in lines) + "\n"


def describe_step(doc: Any, path: Sequence[Any], players: int | None = None) -> str:
    """The rules of the hand's step holding ``path`` (a step's path in the spec tree, as
    :class:`~spelbok.engine.program.Origin` gives it), numbered as :func:`describe` does;
    "" when ``path`` is not in the hand.

    >>> describe_step("example", ("hand", 0)).splitlines()[0]
    '1. (deal) Shuffle and deal 5 cards to each player still in, in packets of 2 then 3,'
    """
    if not hasattr(doc, "tree"):
        from .loader import read_spec

        doc = read_spec(doc)
    steps = doc.tree.get("hand") or []
    if len(path) < 2 or path[0] != "hand" or not isinstance(path[1], int) \
            or not 0 <= path[1] < len(steps):
        return ""
    return "\n".join(_step_lines(steps[path[1]], str(path[1] + 1), 0, _Ctx(doc.tree, players)))
