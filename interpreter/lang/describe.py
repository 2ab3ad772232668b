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

from .constructs import STEP_HOMES
from .prose import SYMBOLS as _SYMBOLS
from .prose import cite as _cite
from .prose import formula as _f
from .prose import or_ as _or
from .prose import wrap as _wrap
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


def _section_players(tree: Mapping[str, Any]) -> list[str]:
    p = tree.get("players") or {}
    lines = _title("Players")
    lines += _wrap(f"{_range(p.get('min', '?'), p.get('max', '?'))} players; play goes clockwise "
                   "(to the left).")
    teams = tree.get("teams")
    if teams:
        parts = [" and ".join(f"seat {q}" for q in team) for team in teams]
        lines += _wrap("Partnerships: " + "; ".join(parts) + ". Partners share their tricks "
                       "(team_tricks).")
    return lines + _cite(p, 2)


def _deck_cards(entry: Mapping[str, Any], ranking: Sequence[str]) -> list[str]:
    ranks = [r for r in ranking if r in entry.get("ranks", [])]
    ranks += [r for r in entry.get("ranks", []) if r not in ranks]
    return ranks


def _section_cards(tree: Mapping[str, Any], ctx: _Ctx) -> list[str]:
    lines = _title("Cards")
    ranking = tree.get("ranking") or {}
    order = list(ranking.get("ranks") or [])
    pack = _pack_prose(tree, lines)
    for entry in tree.get("deck") or []:
        lo, hi = entry.get("players", [0, 0])
        if ctx.players is not None and not lo <= ctx.players <= hi:
            continue
        ranks = _deck_cards(entry, order)
        suits = entry.get("suits", [])
        size = len(ranks) * len(suits)
        shown = _suits(suits)
        extra = ""
        if pack is not None:
            size = (size + len(pack.extras)) * pack.copies
            shown = " ".join(pack.symbols[pack.suit_index[s]] if s in pack.suit_index else s
                             for s in suits)
            extra = f", {pack.copies} of each" if pack.copies > 1 else ""
            if pack.extras:
                extra += f", and {_or([e[0] for e in pack.extras], 'and')}"
        lines += _wrap(f"For {_range(lo, hi)} players: {size} cards, {' '.join(ranks)} "
                       f"in each of {shown}{extra}.")
        lines += _cite(entry, 4)
    if ctx.players is not None:
        lines += _deal_arithmetic(tree, ctx)
    return lines


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


def _pack_prose(tree: Mapping[str, Any], lines: list[str]) -> Any:
    """The declared pack's sentences (added to ``lines``), and its Pack; None without one."""
    from ..cards import COLOURS

    pack = _declared_pack(tree)
    if pack is None:
        return None
    suits = [f"{n} ({x}{', ' + s if s != x else ''}, {COLOURS[c]})" for n, x, s, c in
             zip(pack.suit_names, pack.letters, pack.symbols, pack.colours, strict=True)]
    text = (f"The pack: suits {_or(suits, 'and')}; ranks {' '.join(pack.ranks)} (low to high; "
            f"a card is written rank then suit letter, e.g. {pack.names[len(pack.ranks) - 1]})")
    if pack.copies > 1:
        text += f"; {pack.copies} copies of each card (of equal cards, the first played wins)"
    for name, s, r in pack.extras:
        belongs = f"of suit {pack.letters[s]}" if s >= 0 else "of no suit"
        rank = f", rank {pack.ranks[r]}" if r >= 0 else ""
        text += f"; an extra card {name}, {belongs}{rank}"
    lines += _wrap(text + ".")
    return pack


def _deal_arithmetic(tree: Mapping[str, Any], ctx: _Ctx) -> list[str]:
    n = ctx.players or 0
    entry = next((e for e in tree.get("deck") or []
                  if e.get("players", [0, 0])[0] <= n <= e.get("players", [0, 0])[1]), None)
    if entry is None:
        return []
    size = len(entry.get("ranks", [])) * len(entry.get("suits", []))
    from .checks import hand_cards  # counted as the deck-size check counts

    counted = hand_cards(tree, n)
    if counted is None:
        return []
    each, widow, ups = counted
    left = size - each * n - widow - ups
    text = f"With {n} players: {each} cards each ({each * n} in all)"
    if widow:
        text += f", {widow} to the widow"
    if ups:
        text += f", {ups} turned up"
    text += f", {left} left in the stock (talon)." if left >= 0 else \
        f": {-left} cards more than the pack holds!"
    return _wrap(text)


def _section_ranking(tree: Mapping[str, Any], ctx: _Ctx) -> list[str]:
    r = tree.get("ranking") or {}
    in_decks: set[str] = set()
    for entry in tree.get("deck") or []:
        lo, hi = entry.get("players", [0, 0])
        if ctx.players is None or lo <= ctx.players <= hi:
            in_decks.update(entry.get("ranks", []))
    order = [x for x in r.get("ranks", []) if x in in_decks] or list(r.get("ranks", []))
    top = list(r.get("top_trumps") or [])
    pack = _declared_pack(tree)
    lines = _title("Ranking")
    if top:
        sep = ", " if any("@" in t for t in top) else " "
        lines += _wrap(f"Top trumps (permanent trumps), high to low, above the whole trump suit: "
                       f"{sep.join(_card(t, pack) for t in top)}.")
        follow, note = ctx.enum(r.get("top_trumps_follow", "trump"), ("trump", "printed"))
        if follow == "printed":
            lines += _wrap("They follow, and are led as, their printed suit, but win as top "
                           f"trumps{note}.")
        else:
            lines += _wrap("They belong to the trump suit whatever their printed suit: they "
                           f"follow trump leads and count as trumps when led{note}.")
        if note:
            lines += _wrap("With 'printed' a top trump follows its printed suit but still wins "
                           "as a top trump; with 'trump' it belongs to the trump suit only.")
    taken = {t[:-1] for t in top if "@" not in t
             and all(f"{t[:-1]}{s}" in top for s in "CSHD")}
    plain = [x for x in order if x not in taken]
    in_trumps = [x for x in plain if f"{x}@trump" not in top]
    if top and in_trumps:
        lines += _wrap(f"Below them the trump suit ranks {' '.join(in_trumps)}.")
    if plain:
        lines += _wrap(f"Plain suits rank {' '.join(plain)} (high to low)"
                       + (f"; every {_or(sorted(taken), 'and')} is a top trump." if taken else "."))
    else:  # every card is a top trump: their order alone ranks the cards
        lines += _wrap("Every card is a top trump: the list above ranks them all.")
    cut = list(r.get("cut_ranks") or [])
    if cut and cut != list(r.get("ranks", [])):
        lines += _wrap(f"For cutting, cards rank {' '.join(x for x in cut if x in in_decks)}.")
    lines += _wrap("A trick is won by the highest trump in it, or else by the highest card of "
                   "the suit led.")
    free, losing = list(r.get("free_cards") or []), list(r.get("losing_cards") or [])
    if free:
        lines += _wrap(f"{' '.join(_card(c, pack) for c in free)} may always be played, whatever the "
                       "rules of the trick say.")
    if losing:
        one = len(losing) == 1
        lines += _wrap(f"{' '.join(_card(c, pack) for c in losing)} never win{'s' if one else ''} a "
                       f"trick: {'it belongs' if one else 'they belong'} to no suit and "
                       f"{'is' if one else 'are'} no trump (one led leaves the suit led to the "
                       "next card).")
    kept = list(r.get("kept_cards") or [])
    if kept:
        one = len(kept) == 1
        lines += _wrap(f"{' '.join(_card(c, pack) for c in kept)} never win{'s' if one else ''} a "
                       f"trick and stay{'s' if one else ''} with {'its' if one else 'their'} "
                       "owner: played to a trick, it goes into its player's won cards, not "
                       "the winner's.")
    return lines + _cite(r, 2)


def _points_list(table: Mapping[str, Any], show: Any = str) -> str:
    return ", ".join(f"{show(k)} {v}" for k, v in table.items())


def _section_points(tree: Mapping[str, Any]) -> list[str]:
    """Card points: what the cards in a player's tricks are worth (``card_points``)."""
    p = tree.get("points")
    if not isinstance(p, Mapping):
        return []
    lines = _title("Card points")
    ranks = p.get("ranks") or {}
    text = ("The cards in the tricks a player wins count points (card_points): "
            + (f"{_points_list(ranks)}, any other card 0." if ranks else "no card by its rank."))
    lines += _wrap(text)
    if p.get("trumps"):
        lines += _wrap(f"As trumps: {_points_list(p['trumps'])} (the other trumps as above).")
    if p.get("cards"):
        lines += _wrap(f"Single cards: {_points_list(p['cards'], _card)}, whatever the trump.")
    if p.get("last_trick"):
        lines += _wrap(f"Winning the last trick of a hand scores {p['last_trick']} more.")
    return lines + _cite(p, 2)


def _section_options(tree: Mapping[str, Any]) -> list[str]:
    options = tree.get("options") or {}
    if not options:
        return []
    lines = _title("Options (readings)")
    lines += _wrap("Each option names a reading of a rule the source leaves open; choose one "
                   "with --option NAME=VALUE.")
    for name, opt in options.items():
        values = " | ".join(json.dumps(v) if isinstance(v, bool) else str(v)
                            for v in opt.get("values", []))
        default = opt.get("default")
        shown = json.dumps(default) if isinstance(default, bool) else str(default)
        lines.append("")
        lines.append(f"  {name}: {values} (default {shown})")
        if opt.get("about"):
            lines += _wrap(str(opt["about"]), 6)
        lines += _cite(opt, 6)
    return lines


def _section_melds(tree: Mapping[str, Any]) -> list[str]:
    melds = tree.get("melds") or {}
    if not melds:
        return []
    lines = _title("Melds")
    lines += _wrap("A meld scores each time a hand makes it, when declared.")
    for name, m in melds.items():
        ranks = " ".join(str(r) for r in m.get("ranks") or [])
        if m.get("run"):
            what = f"at least {m['run']} cards in sequence in one suit (each sequence counts)"
        elif m.get("spread", "one_suit") == "every_suit":
            what = f"{ranks} of every suit"
        elif m.get("spread", "one_suit") == "one_suit":
            what = f"{ranks} of one suit (each suit may make one)"
        else:
            what = f"{ranks} (spread: {m['spread']})"
        lines += _wrap(f"{name}: {what}, worth {_f(m.get('points', 0))}.", 4, first="  ")
        lines += _cite(m, 6)
    return lines


def _section_variables(tree: Mapping[str, Any]) -> list[str]:
    v = tree.get("variables") or {}
    scopes = (
        ("player", "For each player, kept for the whole match"),
        ("hand_player", "For each player, reset at the start of each hand"),
        ("hand", "For the hand, reset at its start"),
        ("match", "For the whole match"),
    )
    body: list[str] = []
    for key, words in scopes:
        names = v.get(key) or {}
        if names:
            items = ", ".join(f"{k} (starts at {json.dumps(val)})" for k, val in names.items())
            body += _wrap(f"{words}: {items}.")
    if not body:
        return []
    return _title("Score and other counts") + body + _cite(v, 2)


def _section_dealer(tree: Mapping[str, Any], ctx: _Ctx) -> list[str]:
    d = tree.get("dealer") or {}
    first = d.get("first", "cut_low")
    if first == "cut_low":
        text = "The players cut for the first deal: the lowest card deals (ties cut again)."
    elif first == "cut_high":
        text = "The players cut for the first deal: the highest card deals (ties cut again)."
    elif first == "random":
        text = "The first dealer is chosen at random."
    elif isinstance(first, int):
        text = f"Seat {first} deals first."
    else:
        value, note = ctx.enum(first, ("cut_low", "cut_high", "random"))
        text = f"The first dealer is chosen by {_f(first)}{note}."
    rotate, note = ctx.enum(d.get("rotate", "left"), ("left", "right", "none"))
    if rotate == "none":
        text += f" The same player deals every hand{note}."
    else:
        text += f" The deal then passes to the {rotate}{note}"
        text += ", skipping players who are out." if d.get("skip_out", True) else "."
    text += " Forehand is the player to the dealer's left."
    return _title("Dealing") + _wrap(text) + _cite(d, 2)


# ------------------------------------------------------------------------- steps


def _step_declare_melds(step: Mapping[str, Any], number: str, sub: int,
                        ctx: _Ctx) -> tuple[str, list[str], list[str]]:
    body = step["declare_melds"]
    each = step.get("for", "not out")
    who = ("Each player still in" if each == "not out" else "Each player" if each in (True, "true")
           else f"Each player where {_f(each)}")
    show = body.get("show", True)
    shown = (" and shows their cards to all" if show is True else "" if show is False
             else f" and, when {_f(show)}, shows their cards to all")
    text = (f"{who}, from forehand, declares the melds their hand makes{shown}; "
            "`meld_points` is what they score.")
    return text, [], _cite(body, sub)


#: The text of each step kind (its home's ``describe``): its sentence, the lines under it
#: and its citation.
_STEP_TEXT: dict[str, Callable[[_Ctx, Mapping[str, Any], str, int],
                               tuple[str, list[str], list[str]]]] = {
    **{h.name: h.describe for h in STEP_HOMES if h.describe is not None},
    # the steps without a home yet
    "declare_melds": lambda ctx, step, number, sub: _step_declare_melds(step, number, sub, ctx),
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


def _section_hand(tree: Mapping[str, Any], ctx: _Ctx) -> list[str]:
    lines = _title("Each hand")
    for i, step in enumerate(tree.get("hand") or [], 1):
        lines += _step_lines(step, str(i), 2, ctx)
    return lines


def _section_end(tree: Mapping[str, Any]) -> list[str]:
    e = tree.get("end") or {}
    lines = _title("End of the match")
    lines += _wrap(f"After each hand, the match ends when {_f(e.get('when'))}.")
    lines += _wrap(f"The winners are the players where {_f(e.get('winners'))}.")
    if e.get("score") is not None:
        lines += _wrap(f"Each player's reported score is {_f(e['score'])}.")
    if e.get("max_hands") is not None:
        lines += _wrap(f"As a safety bound, the match stops after {e['max_hands']} hands "
                       "(redeals count).")
    return lines + _cite(e, 2)


# ------------------------------------------------------------------------- changes


def _path_text(path: Sequence[Any]) -> str:
    out = ""
    for p in path:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return out or "(the whole spec)"


def _short(value: Any, limit: int = 70) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def spec_changes(base: Any, variant: Any, path: tuple[Any, ...] = ()) -> list[tuple[str, str]]:
    """The keys that differ between two canonical trees: ``(path, "old → new")``.

    >>> spec_changes({"a": 1, "b": {"c": [1, 2]}}, {"a": 1, "b": {"c": [1, 3]}, "d": True})
    [('b.c[1]', '2 → 3'), ('d', '(new) true')]
    """
    if isinstance(base, Mapping) and isinstance(variant, Mapping):
        out: list[tuple[str, str]] = []
        for key in [*base, *(k for k in variant if k not in base)]:
            sub = (*path, key)
            if key not in variant:
                out.append((_path_text(sub), f"{_short(base[key])} → (removed)"))
            elif key not in base:
                out.append((_path_text(sub), f"(new) {_short(variant[key])}"))
            else:
                out += spec_changes(base[key], variant[key], sub)
        return out
    if isinstance(base, list) and isinstance(variant, list):
        import difflib

        out = []
        keys_a = [json.dumps(x, sort_keys=True) for x in base]
        keys_b = [json.dumps(x, sort_keys=True) for x in variant]
        matcher = difflib.SequenceMatcher(a=keys_a, b=keys_b, autojunk=False)
        for op, a0, a1, b0, b1 in matcher.get_opcodes():
            if op == "equal":
                continue
            pairs = min(a1 - a0, b1 - b0) if op == "replace" else 0
            for k in range(pairs):
                out += spec_changes(base[a0 + k], variant[b0 + k], (*path, b0 + k))
            for i in range(a0 + pairs, a1):
                out.append((_path_text((*path, i)), f"{_short(base[i])} → (removed)"))
            for i in range(b0 + pairs, b1):
                out.append((_path_text((*path, i)), f"(new) {_short(variant[i])}"))
        return out
    if base == variant and type(base) is type(variant):
        return []
    return [(_path_text(path), f"{_short(base)} → {_short(variant)}")]


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
    return lines


# ------------------------------------------------------------------------- entry point


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
    ctx = _Ctx(tree, players)
    name = str(tree.get("name", "game"))
    lines = [name, "=" * len(name)]
    if tree.get("about"):
        lines += [""] + _wrap(str(tree["about"]), 0)
    sources = tree.get("sources") or {}
    if sources:
        lines += _title("Sources")
        for key, text in sources.items():
            lines += _wrap(f"[{key}] {text}", 4, first="  ")
    lines += _section_changes(doc)
    lines += _section_players(tree)
    lines += _section_cards(tree, ctx)
    lines += _section_ranking(tree, ctx)
    lines += _section_points(tree)
    lines += _section_options(tree)
    lines += _section_melds(tree)
    lines += _section_variables(tree)
    lines += _section_dealer(tree, ctx)
    lines += _section_hand(tree, ctx)
    lines += _section_end(tree)
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
