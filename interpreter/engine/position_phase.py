"""Where in the hand a position stands: the spec's steps in the order the compiler emits
them, the phase a position names (``tricks``, a decision, a step's label), the round of
the repeats around it and the tricks the hand has played so far."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from ..errors import did_you_mean
from ..lang.vocabulary import step_kind, walk_steps
from ..limits import short_repr
from .actions import ascii_number
from .program import Origin, Phase

if TYPE_CHECKING:
    from .game import Game
    from .program import Program
    from .state import State
from .position_reader import KeyPath, PositionError


def _walk(steps: Any, path: KeyPath) -> Iterator[tuple[str, dict[str, Any], KeyPath]]:
    """``(kind, step, path)`` of each step, depth first, in compile order (the
    paths are the keys of ``Program.step_pcs``; the vocabulary's walker)."""
    for at, step in walk_steps(steps if isinstance(steps, list) else [], path):
        if isinstance(step, dict):
            yield step_kind(step) or "", step, at


def hand_steps(tree: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    """Each step of the hand as ``(kind, step)``, depth first, in compile order
    (the steps run after each trick follow their ``tricks`` step).

    >>> import spelbok
    >>> [k for k, _ in hand_steps(spelbok.load("example").tree)][:4]
    ['deal', 'turn_up', 'decide', 'decide']
    """
    for kind, step, _ in _walk(tree.get("hand"), ("hand",)):
        yield kind, step


def step_at(tree: dict[str, Any], path: KeyPath) -> dict[str, Any]:
    """The step of the spec tree at ``path`` (a key of ``Program.step_pcs``)."""
    node: Any = tree
    for key in path:
        node = node[key]
    return dict(node)


def _tricks_of(prog: Program, phase: Phase) -> Origin | None:
    """The tricks step a phase is in (or is, or is just after): a phase inside its
    `after_each` stands between two tricks.  None outside trick play."""
    if phase.kind in ("trick", "after tricks"):
        return prog.step_origin(phase.path)
    return prog.enclosing(phase.path, "tricks")


def find_phase(game: Game, text: Any) -> Phase:
    """Resolve a ``phase`` value: ``tricks``, ``after tricks``, a decision's name
    (``exchange``, ``announce 2``: the second of that name) or a step's ``label``.

    >>> import spelbok
    >>> g = spelbok.load("example")
    >>> p = find_phase(g, "exchange"); (p.kind, p.name, g.program.origin(p.pc).part)
    ('decide', 'exchange', 'start')
    >>> find_phase(g, "bid")
    Traceback (most recent call last):
    ...
    spelbok.engine.position.PositionError: position phase: Example has no step 'bid'; phases are: tricks, after tricks, swap, announce, exchange, deal, turn-up, too few play, redeal, score
    """
    prog = game.program
    entries = list(_walk(game.tree.get("hand"), ("hand",)))

    def origin(path: KeyPath) -> Origin:
        if path not in prog.step_pcs:  # pragma: no cover - the compiler records every step
            raise PositionError(f"cannot start at '{text}'", ("phase",))
        return prog.step_origin(path)

    trick_steps = [(s, path) for k, s, path in entries if k == "tricks"]
    decide_steps = [(s, path) for k, s, path in entries if k == "decide"]
    labelled = [(k, s, path) for k, s, path in entries if isinstance(s.get("label"), str)]
    words = str(text).split()
    nth = 1
    if len(words) > 1 and (k := ascii_number(words[-1], 6)) is not None:
        nth = k
        words = words[:-1]
    name = " ".join(words).lower()
    names = ["tricks", "after tricks"]
    for s, _ in decide_steps:
        if str(s["decide"]) not in names:
            names.append(str(s["decide"]))
    names += [str(s["label"]) for _, s, _ in labelled if str(s["label"]) not in names]
    if name in ("tricks", "after tricks") and trick_steps:
        if not 1 <= nth <= len(trick_steps):
            raise PositionError(f"there are only {len(trick_steps)} tricks step(s)", ("phase",))
        step, path = trick_steps[nth - 1]
        o = origin(path)
        if name == "after tricks":
            return Phase("after tricks", o.label, 0, path, o.end)
        return Phase("trick", o.label, 0, path, o.first)
    matching = [(s, path) for s, path in decide_steps if str(s["decide"]).lower() == name]
    if matching:
        if not 1 <= nth <= len(matching):
            raise PositionError(f"there are only {len(matching)} '{name}' decision(s)", ("phase",))
        step, path = matching[nth - 1]
        return Phase("decide", str(step["decide"]), 0, path, origin(path).first)
    for kind, step, path in labelled:
        if str(step["label"]).lower() == str(text).strip().lower():
            o = origin(path)
            return Phase("trick" if kind == "tricks" else kind, o.name or o.label, 0, path,
                         o.first)
    raise PositionError(
        f"{game.name} has no step '{text}'; phases are: {', '.join(names)}",
        ("phase",),
        hint=did_you_mean(name, names),
    )


def _set_rounds(st: State, phase: Phase, rnd: Any) -> None:
    if isinstance(rnd, bool) or not isinstance(rnd, int) or rnd < 1:
        raise PositionError(f"round is 1 or more, not {short_repr(rnd)}", ("round",))
    prog = st.game.program
    # the repeat steps around the phase's step, outermost first: each in its first round
    slots: list[int] = []
    for i in range(1, len(phase.path)):
        if phase.path[:i] in prog.step_pcs and prog.step_origin(phase.path[:i]).kind == "repeat":
            init: Any = prog.code[prog.part_pc(phase.path[:i], "init")]
            slots.append(init.slot)
            st.counters[init.slot] = 1
    if slots:
        st.counters[slots[-1]] = rnd
    elif rnd != 1:
        raise PositionError("'round' is only for a decision repeated in rounds", ("round",))


def _reached(prog: Program, path: KeyPath, st: State) -> bool:
    """Whether the hand, as the position stands, got to the step at ``path``: no `when`
    of it or a step around it, and no `if` around it, skips it (loops are not followed)."""
    code: list[Any] = prog.code
    for i in range(2, len(path) + 1):
        at = path[:i]
        if at not in prog.step_pcs:
            continue
        o = prog.step_origin(at)
        guard = prog.origin(o.first - 1)
        if guard is not None and guard.path == at and guard.part == "when" \
                and not code[o.first - 1].cond(st, 0):
            return False
        # in an `if`: in its `then` when its test holds, else in its `else`
        if o.kind == "if" and i < len(path) \
                and code[prog.part_pc(at, "test")].cond(st, 0) != (path[i] == "then"):
            return False
    return True


def _tricks_played(game: Game, st: State, position: dict[str, Any], tricks: Origin
                   ) -> tuple[int, int, int | None]:
    """``(before, played, count)`` for the tricks step ``tricks``: the tricks the
    earlier tricks steps of the hand played, those this step has played, and its
    ``count`` (None: until the hands are empty).

    Counts are evaluated in the position; an earlier step without one adds nothing.
    ``tricks_played`` in the position gives the hand's total; else this step has
    played the tricks taken (``tricks``) that the earlier steps did not score (none,
    when this step's tricks are not scored)."""
    prog = game.program
    code: list[Any] = prog.code  # each tricks step's start: its count and whether it scores
    before = scored_before = 0
    for o in prog.starts("tricks"):
        ins = code[o.first]
        if o.first < tricks.first and ins.count is not None and _reached(prog, o.path, st):
            c = max(0, int(ins.count(st, 0)))
            before += c
            if ins.scored:
                scored_before += c
    ts = code[tricks.first]
    count = None if ts.count is None else max(0, int(ts.count(st, 0)))
    given = position.get("tricks_played")
    if given is None:
        played = max(0, sum(st.won) - scored_before) if ts.scored else 0
    elif isinstance(given, bool) or not isinstance(given, int) or given < 0:
        raise PositionError(f"tricks_played is a whole number, not {short_repr(given)}", ("tricks_played",))
    elif given < before:
        raise PositionError(f"the earlier tricks steps of the hand play {before} tricks, so "
                            f"tricks_played is at least {before}", ("tricks_played",))
    else:
        played = given - before
    return before, played, count


def _tricks_index(prog: Program, tricks: Origin) -> int:
    """How many tricks steps come before ``tricks``."""
    return sum(1 for o in prog.starts("tricks") if o.first < tricks.first)
