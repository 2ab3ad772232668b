"""The ``tricks`` step: its compile step, which chooses and builds its instructions.

The instructions are :class:`TricksStart`, :class:`TrickPlay` (or
:class:`TrickPlayEach`) and :class:`TrickNext` (:mod:`spelbok.engine.trick_play`),
or :class:`CardPlay` for a step that declares card-play mechanics
(:mod:`spelbok.engine.card_play`), with the stock's draw
(:mod:`spelbok.engine.stock`); the rules they apply are :mod:`spelbok.engine.trick`'s.
All of them can be imported from here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..lang import vocabulary as _v
from ..lang.model import TRUMPS_BROKEN_BY
from .announce import AnnounceBack, Announcement
from .any_turn import AnyTurnPlay
from .blind import BlindPlay
from .card_play import CardPlay, Declaration, playable
from .dummy import DummyPlay
from .program import Origin
from .steps import Fn, Instr, Path, const
from .stock import StockDraw
from .trick_play import TrickNext, TrickPlay, TrickPlayEach, TricksStart

if TYPE_CHECKING:
    from .compiler import Compiler


def _assigned(steps: list[Any]) -> set[str]:
    """The variables that ``steps`` (and the steps inside them) assign."""
    names: set[str] = set()
    for _, item in _v.walk_steps(steps):
        if "set" in item and isinstance(item["set"], dict):
            names.update(item["set"])
        elif "decide" in item and isinstance(item.get("then"), dict):
            names.update(item["then"])
    return names


def compile_tricks(c: Compiler, step: dict[str, Any], path: Path, code: list[Instr]) -> None:
    """A ``tricks`` step: the rules (each a fixed value, or a condition worked out as the
    step starts, or as each trick starts when it reads a name that changes), the play
    instruction, and the after-trick part (the stock's draw, ``after_each``)."""
    t = step["tricks"]
    p = (*path, "tricks")
    flags: dict[str, Fn] = {}
    # names whose value changes between tricks: a rule reading one is worked out per trick
    changing = set(_v.PER_TRICK_NAMES) | _assigned(t.get("after_each") or [])
    per_trick = False
    for key, default in _v.TRICK_RULES.items():
        v = t.get(key, default)
        flags[key] = c.condition(v, (*p, key)) if not isinstance(v, bool) else const(v)
        if not isinstance(v, bool) and c.names_read(v) & changing:
            per_trick = True
    lead_trumps = c.constant(t.get("lead_trumps", "any"), (*p, "lead_trumps"),
                             ("any", "broken"))
    flags["lead_broken"] = const(lead_trumps == "broken")
    broken_by = c.constant(t.get("trumps_broken_by", TRUMPS_BROKEN_BY[0]),
                           (*p, "trumps_broken_by"), TRUMPS_BROKEN_BY)
    flags["broken_any"] = const(broken_by == "any")
    abstain = t.get("abstain")
    abstain_fn = None
    if abstain not in (None, False, "false"):
        abstain_fn = c.formula(abstain, (*p, "abstain"), True)
    allow = t.get("allow")
    reason = t.get("reason")
    levels = c.allow_levels(allow, reason, (*p, "allow"), True)
    allow_fn, refused = levels[0] if levels else (None, "")
    play = play_instruction(c, t, p, abstain_fn, allow_fn, refused, levels[1:] or None,
                            per_trick)
    if not c.pack.french:
        play.pack = c.pack
    # a step that leaves following to its own `allow` (follow: false): a play may show a
    # void in any suit, not only the suit led or the trumps (TrickPlay._allowed_voids)
    play.any_suit_voids = allow_fn is not None and t.get("follow", True) in (False, "false")
    if t.get("takes_trick", "false") not in (False, "false"):
        play.takes = c.formula(t["takes_trick"], (*p, "takes_trick"), True)
    leader = c.selector(t.get("leader", "forehand"), t.get("leader_where"), p)
    # seats out of the match never play: the default needs no formula
    players = (c.formula(t["players"], (*p, "players"), True)
               if t.get("players", "not out") != "not out" else const(True))
    count = t.get("count", "all")
    count_fn = None if count in ("all", None) else c.formula(count, (*p, "count"), False)
    scored = c.constant(t.get("scored", True), (*p, "scored"), (True, False))
    players_vec = (c.local_vec(t["players"])
                   if t.get("players", "not out") != "not out" else None)
    start = TricksStart(players, leader, flags, play, count_fn, bool(scored), players_vec)
    if per_trick and isinstance(play, TrickPlayEach):  # CardPlay is one too: only then
        play.start = start
    code.append(start)
    # the stock: a draw after each trick, an instruction of its own only when used
    draw = c.constant(t.get("draw", "none"), (*p, "draw"), _v.words("tricks", "draw"))
    stock_pcs: list[int] = []
    at = len(code)
    code.append(play)
    after = t.get("after_each") or []
    if after or draw != "none":
        play.has_after = True
        if draw == "winner_first":
            stock_pcs.append(len(code))
            code.append(StockDraw())
        outer, c.resolver.after_trick = c.resolver.after_trick, True
        c.compile_steps(after, (*p, "after_each"), code)
        c.resolver.after_trick = outer
        code.append(TrickNext(play, at))
    _announcement_steps(c, t, p, play, at, code)
    play.end = len(code)
    for pc in stock_pcs:  # claimed here, so that the step's parts stay start, play, next
        c.origins[pc] = Origin(path, "tricks", "run", str(step.get("label") or ""), "",
                               c.step_pcs[path], len(code))


def play_instruction(c: Compiler, t: dict[str, Any], p: Path, abstain_fn: Fn | None,
                     allow_fn: Fn | None, refused: str, more: list[tuple[Fn, str]] | None,
                     per_trick: bool) -> TrickPlay:
    """The play instruction of a tricks step: its class chosen here, so that a spec
    that uses no card-play mechanics (``trump_from``, special cards) plays its tricks
    with :class:`TrickPlay` and pays nothing for them."""
    word = str(t.get("abstain_word", "knock"))
    trump_from = c.constant(t.get("trump_from", "none"), (*p, "trump_from"),
                            _v.words("tricks", "trump_from"))
    by = t.get("trump_by", "true")
    down = t.get("face_down", "false")
    down_fn = None if down in (False, "false") else c.formula(down, (*p, "face_down"), True)
    blind = t.get("blind", "false")
    blind_fn = None if blind in (False, "false") else c.formula(blind, (*p, "blind"), True)
    decls = declarations(c, t.get("declare") or [], (*p, "declare"))
    calls = announcements(c, t.get("announce") or [], (*p, "announce"))
    dummy = t.get("dummy", "false")
    if dummy not in (False, "false"):  # a dummy (no card-play mechanics: compile_check)
        return DummyPlay(abstain_fn, word, allow_fn, refused, more,
                         c.formula(dummy, (*p, "dummy"), True),
                         c.formula(t.get("dummy_by", "false"), (*p, "dummy_by"), True))
    aside = bool(c.constant(t.get("aside_turn", False), (*p, "aside_turn"), (True, False)))
    whole = c.constant(t.get("new_trump", "later"), (*p, "new_trump"),
                       _v.words("tricks", "new_trump")) == "whole_trick"
    down_as = c.constant(t.get("face_down_as", "lowest_trump"), (*p, "face_down_as"),
                         _v.words("tricks", "face_down_as"))
    c.new_trump = (whole, down_as == "lowest_trump", c.losing_mask)
    if t.get("combos"):  # plays of several cards (engine/combos.py): a plain play only
        from .combos import KINDS, ComboPlay

        return ComboPlay(tuple(KINDS.index(str(k)) for k in t["combos"]), refused)
    if (trump_from == "none" and not c.free_mask and not c.losing_mask
            and down_fn is None and not decls and not calls and not aside and blind_fn is None):
        kind = TrickPlayEach if per_trick else TrickPlay
        return kind(abstain_fn, word, allow_fn, refused, more)
    by_fn = None if by in (True, "true") else c.formula(by, (*p, "trump_by"), True)
    down_word = str(t.get("face_down_word", "down"))
    shown = c.constant(t.get("face_down_shown", True), (*p, "face_down_shown"),
                       (True, False))
    # announcements made out of turn: a window before each card (engine/any_turn.py)
    card_play: type[CardPlay] = AnyTurnPlay if any(a.any_turn for a in calls) else CardPlay
    args = (abstain_fn, word, allow_fn, refused, trump_from == "first_lead", by_fn,
            c.free_mask, c.losing_mask, down_fn, down_word,
            down_as == "lowest_trump", bool(shown), decls, more, calls)
    if blind_fn is None:
        play = card_play(*args)
    else:
        play = BlindPlay(*args)
        play.blind = blind_fn
    play.kept = c.kept_mask
    play.aside = aside
    return play


def declarations(c: Compiler, entries: list[Any], path: Path) -> list[Declaration]:
    """The declarations a player may attach to a card play (``tricks.declare``)."""
    out = []
    for k, d in enumerate(entries):
        here = (*path, k)
        when = d.get("when", "true")
        binds = d.get("binds", "true")
        reason = d.get("reason")
        out.append(Declaration(
            str(d.get("word", "")),
            None if when in (True, "true") else c.formula(when, (*here, "when"), True),
            c.assigns(d.get("then") or {}, (*here, "then"), True),
            None if binds in (True, "true") else c.formula(binds, (*here, "binds"), True),
            str(reason) if reason else f"the demand `{binds}` binds you",
            c.where(here),
            c.constant(d.get("bound", "next"), (*here, "bound"), ("next", "rest")) == "rest",
            c.constant(d.get("required", False), (*here, "required"), (True, False))
            in (True, "true")))
    return out


def announcements(c: Compiler, entries: list[Any], path: Path) -> list[Announcement]:
    """The announcements a player may make at his turn, before his card
    (``tricks.announce``); their steps are compiled by :func:`_announcement_steps`."""
    out = []
    for k, d in enumerate(entries):
        here = (*path, k)
        when = d.get("when", "true")
        shows = d.get("shows")
        ends = d.get("ends_tricks", "false")
        out.append(Announcement(
            str(d.get("word", "")).lower(),
            None if when in (True, "true") else c.formula(when, (*here, "when"), True),
            c.assigns(d.get("then") or {}, (*here, "then"), True),
            None if shows is None else c.formula(shows, (*here, "shows"), True),
            None if ends in (False, "false") else c.formula(ends, (*here, "ends_tricks"),
                                                             False),
            c.constant(d.get("any_turn", False), (*here, "any_turn"), (True, False)) in (True, "true")))
    return out


def _announcement_steps(c: Compiler, t: dict[str, Any], p: Path, play: TrickPlay, at: int,
                        code: list[Instr]) -> None:
    """Each announcement's steps, after the trick play's other parts (reached only from
    the announcement), ended by an :class:`AnnounceBack` to the trick play at ``at``."""
    calls = getattr(play, "calls", [])
    for k, d in enumerate(t.get("announce") or []):
        steps = d.get("steps") or []
        if steps:
            calls[k].at = len(code)
            c.compile_steps(steps, (*p, "announce", k, "steps"), code)
            code.append(AnnounceBack(at, calls[k]))


__all__ = ["CardPlay", "Declaration", "DummyPlay", "TrickNext", "TrickPlay", "TrickPlayEach", "TricksStart",
           "compile_tricks", "playable"]
