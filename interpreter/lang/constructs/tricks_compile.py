"""The ``tricks`` step's checks before it is compiled (its home is :mod:`.tricks`): the
rules' conditions, the words of the card play, face-down plays and declarations.

They follow the engine's compile step (``spelbok.engine.tricks``) key by key, so that
every problem it could meet is reported here, located, before anything is compiled.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import announcements, blind, combos, laid_aside, trick_takes

if TYPE_CHECKING:
    from ..compile_checks import Typer
    from ..declare import Construct

__all__ = ["compile_check"]

Path = tuple[Any, ...]


def _words(decl: Construct, key: str) -> tuple[str, ...]:
    return tuple(w.name for w in decl.field(key).words)


def compile_check(c: Typer, step: dict[str, Any], path: Path, *, decl: Construct) -> None:
    """The rules (conditions), the words and play of the cards, who leads, who plays,
    how many tricks, the stock's draw, then the steps after each trick (``decl``: the
    step's declaration, which its home gives)."""
    t = step["tricks"]
    p = (*path, "tricks")
    for f in decl.body or ():
        v = t.get(f.name, f.default) if f.rule else True
        if not isinstance(v, bool):
            c.condition(v, (*p, f.name))
    c.constant(t.get("lead_trumps", "any"), (*p, "lead_trumps"), ("any", "broken"))
    broken_by = _words(decl, "trumps_broken_by")
    c.constant(t.get("trumps_broken_by", broken_by[0]), (*p, "trumps_broken_by"), broken_by)
    if t.get("abstain") not in (None, False, "false"):
        c.formula(t["abstain"], (*p, "abstain"), True)
    reason = t.get("reason")
    if not c.allow_levels(t.get("allow"), reason, (*p, "allow")) and reason is not None:
        c.error((*p, "reason"), "'reason' explains a card that 'allow' refuses, "
                "but this step has no 'allow'")
    _play(c, decl, t, p)
    c.selector(t.get("leader", "forehand"), t.get("leader_where"), p)
    if t.get("players", "not out") != "not out":
        c.formula(t["players"], (*p, "players"), True)
    if t.get("count", "all") not in ("all", None):
        c.formula(t["count"], (*p, "count"), False)
    c.constant(t.get("scored", True), (*p, "scored"), (True, False))
    c.constant(t.get("draw", "none"), (*p, "draw"), _words(decl, "draw"))
    trick_takes.compile_check(c, t, p)
    c.check_steps(t.get("after_each") or [], (*p, "after_each"))


def _play(c: Typer, decl: Construct, t: dict[str, Any], p: Path) -> None:
    """The card play's mechanics: trump named by a lead, face-down plays, declarations
    (each with a word of its own)."""
    word = str(t.get("abstain_word", "knock"))
    trump_from = c.constant(t.get("trump_from", "none"), (*p, "trump_from"),
                            _words(decl, "trump_from"))
    by = t.get("trump_by", "true")
    if trump_from == "none" and by not in (True, "true"):
        c.error((*p, "trump_by"), "'trump_by' says whose lead names trump, but "
                "this step has no 'trump_from'", "add 'trump_from: first_lead'")
    down = t.get("face_down", "false")
    face_down = down not in (False, "false")
    if face_down:
        c.formula(down, (*p, "face_down"), True)
    else:
        for key in ("face_down_word", "face_down_as", "face_down_shown"):
            if key in t:
                c.error((*p, key), f"'{key}' says how a card is played face down, "
                        "but this step has no 'face_down'",
                        "add 'face_down: CONDITION' (who may play face down)")
    decls = t.get("declare") or []
    _declarations(c, decls, (*p, "declare"))
    calls = t.get("announce") or []
    if calls:
        taken = [word, str(t.get("face_down_word", "down")) if face_down else word,
                 *(str(d.get("word", "")) for d in decls)]
        announcements.compile_check(c, calls, (*p, "announce"), taken)
    laid_aside.compile_check(c, t, p)
    blind.compile_check(c, t, p)
    plain = (trump_from == "none" and not c.free_mask and not c.losing_mask
             and not face_down and not decls and not calls)
    _dummy(c, t, p, plain)
    combos.compile_check(c, t, p, plain and t.get("dummy", "false") in (False, "false"))
    if plain:
        return  # a plain trick play: none of the keys below is read
    if by not in (True, "true"):
        c.formula(by, (*p, "trump_by"), True)
    down_word = str(t.get("face_down_word", "down"))
    if face_down and down_word == word:
        c.error((*p, "face_down_word"), f"'{down_word}' is already the word for "
                "knocking: a face-down play needs a word of its own")
    c.constant(t.get("face_down_as", "lowest_trump"), (*p, "face_down_as"),
               _words(decl, "face_down_as"))
    c.constant(t.get("face_down_shown", True), (*p, "face_down_shown"), (True, False))
    taken = [word] + ([down_word] if face_down else [])
    for k, d in enumerate(decls):
        w = str(d.get("word", ""))
        if w in taken:
            c.error((*p, "declare", k, "word"), f"'{w}' is already a word of this "
                    "tricks step: a declaration needs a word of its own")
        taken.append(w)


def _dummy(c: Typer, t: dict[str, Any], p: Path, plain: bool) -> None:
    """A dummy: who it is and who plays its cards (per-player conditions), in a plain
    trick play only."""
    dummy = t.get("dummy", "false")
    if dummy in (False, "false"):
        return
    c.condition(dummy, (*p, "dummy"), True, "`declarer_team and not is_declarer`")
    c.condition(t.get("dummy_by", "false"), (*p, "dummy_by"), True, "`is_declarer`")
    if not plain:
        c.error((*p, "dummy"), "a dummy cannot yet be played in a tricks step with "
                "card-play mechanics (trump named by a lead, free, losing or kept cards, "
                "face-down plays, declarations, announcements)")


def _declarations(c: Typer, entries: list[Any], path: Path) -> None:
    """Each declaration's condition, what it sets, and the demand it binds."""
    for k, d in enumerate(entries):
        here = (*path, k)
        when = d.get("when", "true")
        binds = d.get("binds", "true")
        if d.get("reason") is not None and binds in (True, "true"):
            c.error((*here, "reason"), "'reason' explains a card that 'binds' refuses, "
                    "but this declaration has no 'binds'")
        if when not in (True, "true"):
            c.formula(when, (*here, "when"), True)
        c.assigns(d.get("then") or {}, (*here, "then"), True)
        if binds not in (True, "true"):
            c.formula(binds, (*here, "binds"), True)
        bound = d.get("bound", "next")
        c.constant(bound, (*here, "bound"), ("next", "rest"))
        required = d.get("required", False)
        if required not in (False, "false"):
            c.constant(required, (*here, "required"), (True, False))
        if bound != "next" and binds in (True, "true"):
            c.error((*here, "bound"), "'bound' says whom 'binds' binds, but this "
                    "declaration has no 'binds'")
