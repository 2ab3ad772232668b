"""A construct's home: everything the language knows of one construct, in one place.

Each module of :mod:`spelbok.lang.constructs` (``deal.py``, ``melds.py``, ...) ends
with one :class:`Home` (or a few, for a family): its declaration (the keys and
their types, :class:`~spelbok.lang.declare.Construct`), its DSL grammar piece,
and the functions each stage calls for it: reading the DSL parse tree, writing
the DSL, the prose of ``describe``, the structural checks; and where its compile
step lives in the engine.  The stage modules (``dsl_build``, ``dslwrite``,
``describe``, ``checks``, the engine's compiler) are drivers: they iterate over
:data:`spelbok.lang.constructs.HOMES` and call what a home gives; they hold no
construct's own code.

The functions take the stage's toolkit as their first argument (the DSL builder,
the writer's output, the describe context, the checker), so a home imports no
stage module and no stage imports a home but through the registry.

>>> from spelbok.lang.declare import Construct
>>> h = Home(Construct("demo", "step", "a demo step"))
>>> h.name, h.group, h.builds
('demo', 'step', {})
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..declare import Construct, Field

__all__ = ["UNSET", "Home"]

#: What the checker's toolkit gives for a formula not fixed when the game loads (see
#: :meth:`spelbok.lang.compile_checks.Typer.formula`).
UNSET: Any = type("Unset", (), {"__repr__": lambda self: "UNSET", "__slots__": ()})()


@dataclass(frozen=True)
class Home:
    """One construct of the language and what each stage does with it.

    ``decl``: its map (keys, types, defaults, words).  ``parts``: the part maps
    only this construct holds (an auction's contracts).  ``grammar``: its rules
    in Lark, assembled into ``grammar/spec.lark``; ``entries``: the rules of it
    that are alternatives of ``_step`` (a step) or ``_top`` (a section), by
    default the one named for the construct.  ``builds``: for each grammar
    rule it owns (a parse node's ``data``), the DSL reader of that node.
    ``write``, ``describe``, ``check``: the writer, the prose and the checks of
    its part of a canonical tree (their arguments depend on the group: a step
    gets the step, a section the whole tree).  ``compile``: ``module:function``
    of its compile step in the engine, beside the instructions it makes;
    ``code_parts``: those instructions named by their part in the step, in order
    (none: one instruction, part ``run``), as program listings and reading files
    name them (:data:`spelbok.engine.program.STEP_PARTS`).
    ``compile_check(typer, step, path)``: the checks a step must pass before it is
    compiled, at one player count (its formulas typed, its enum-or-option fields
    worked out, its parameters against each other and the game), reported through
    the :class:`~spelbok.lang.compile_checks.Typer`'s toolkit; the compile step
    itself reports nothing.
    ``keys``: the keys of the top level it holds (a section's one key; the game's
    version, name, about...): :data:`spelbok.lang.vocabulary.SPEC` lists them in
    the registry's order.  A section whose key holds no map of its own (a list
    of deck entries, a table of melds) has no ``decl``: its ``parts`` declare
    the maps, and its name is its key's.

    ``ends_hand`` (a step that may end the hand): ``ends_hand(step, ends)`` is true
    when the step, once it runs, always ends the hand (``ends(steps)`` asks it of a
    list of steps); the checks find the steps that can never run with it.

    A step's functions, each given the stage's toolkit first:
    ``builds[rule](b, node, step, path)`` fills ``step`` (a map) from its parse node
    (``b``: the DSL builder: ``formula``, ``mark``, ``put``, ``attrs``, ``steps``...);
    ``write(out, indent, step)`` adds its DSL lines (``out``: a
    :class:`~spelbok.lang.dsl_text.Out`, with ``steps`` and ``attrs``);
    ``describe(ctx, step, number, sub)`` gives its sentence, the lines under it and its
    citation (``ctx``: describe's context: ``enum``, ``option_note``, ``step_lines``);
    ``check(chk, path, step)`` reports its problems (``chk``: the checker: ``err``,
    ``warn``, ``enum``, ``no_repeats``, ``written``).

    A section's (the top level's) functions get the whole canonical tree:
    ``builds[rule](b, node)`` reads one statement of the top level into ``b.tree``;
    ``write(out, tree)`` adds its DSL lines; ``describe(ctx, tree)`` gives its lines of
    prose (``ctx``: describe's section context, with ``title``, ``card``, ``changes``...);
    ``check(chk, tree)`` reports its problems (``chk`` also gives ``span``, ``walk``,
    ``kind``, ``steps`` and the declared pack, ``cards``).  A section with formulas of
    its own (``hidden``) types them in ``compile_check(typer, tree, ())``.
    """

    decl: Construct | None
    parts: tuple[Construct, ...] = ()
    grammar: str = ""
    entries: tuple[str, ...] = ()
    builds: Mapping[str, Callable[..., Any]] = field(default_factory=dict)
    write: Callable[..., Any] | None = None
    describe: Callable[..., Any] | None = None
    check: Callable[..., Any] | None = None
    compile: str = ""
    code_parts: tuple[str, ...] = ()
    compile_check: Callable[..., None] | None = None
    keys: tuple[Field, ...] = ()
    ends_hand: Callable[..., bool] | None = None

    @property
    def name(self) -> str:
        """The construct's name (a step kind, a section's key)."""
        return self.decl.name if self.decl is not None else self.keys[0].name

    @property
    def group(self) -> str:
        """``top``, ``section``, ``step`` or ``part``."""
        return self.decl.group if self.decl is not None else "section"

    @property
    def alternatives(self) -> tuple[str, ...]:
        """The grammar rules that enter ``_step`` or ``_top`` for it (none without grammar).

        >>> from spelbok.lang.declare import Construct
        >>> Home(Construct("demo", "step", "d"), grammar="demo: 'demo'").alternatives
        ('demo',)
        """
        return self.entries or ((self.name,) if self.grammar else ())
