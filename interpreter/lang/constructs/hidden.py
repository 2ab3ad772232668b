"""Hidden variables: per-player variables each seat sees only for itself, until shown.

A partnership found as the cards are played (the sides that the two queens of clubs
make, say) is a per-player variable no other seat may read: ``hidden:
{re: {reveal: "times_played('QC') > 0", sample: "holds('QC')"}}``.  Every seat's view,
observation tensor and bots see a hidden value only for the seat itself and for the
seats whose ``reveal`` condition holds; a bot's sample of the hidden cards gives the
other seats the value ``sample`` works out from the cards it dealt them.  The engine's
part is :mod:`spelbok.engine.hidden`.

>>> HIDDEN.name, [f.name for f in SECRET.fields]
('hidden', ['reveal', 'sample', 'source'])
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from .. import dsl_text as t
from .. import prose as p
from ..declare import SOURCE, Construct, Field
from ..dsl_nodes import is_node
from .home import Home

if TYPE_CHECKING:
    from ..checks import _Checker as Checker
    from ..compile_checks import Typer
    from ..describe import _Kit as DescribeKit
    from ..dsl_build import _Builder as Builder

__all__ = ["HIDDEN", "SECRET"]

SECRET: Construct = Construct("secret", "part", "a per-player variable hidden from the "
                              "other seats until shown", (
    Field("reveal", "condition", "read for each seat: while it holds, the seat's value is "
          "shown to every seat (a seat always sees its own; all are shown once the match "
          "is over)", default=False),
    Field("sample", "formula", "read for each seat whose value a bot cannot see, in its "
          "sample of the hidden cards: the value the seat takes there, from the cards the "
          "sample gave it", required=True),
    SOURCE,
), x_name="in hidden variable '{key}'")

# ---------------------------------------------------------------- DSL

GRAMMAR = r"""
// a per-player variable the other seats cannot see: "the variable re is hidden", then
// when it is shown and how a bot's sample guesses it
hidden_var: "the" "variable" WORD "is" "hidden" _NL _INDENT _hidden_line+ _DEDENT
_hidden_line: hidden_reveal | hidden_sample | source_line
hidden_reveal: "shown" "to" "all" "when" formula _NL
hidden_sample: "guessed" "as" formula _NL
"""


def read_hidden(b: Builder, st: Any) -> None:
    """Reads ``the variable NAME is hidden`` and its lines."""
    name = st.children[0]
    hidden = b.section("hidden", st)
    path = ("hidden", str(name))
    entry: dict[str, Any] = {}
    b.put(hidden, path, entry, name, f"the hidden variable '{name}'")
    for c in st.children:
        if is_node(c, "hidden_reveal"):
            f = c.children[0]
            b.put(entry, (*path, "reveal"), b.formula(f), f, "when it is shown")
        elif is_node(c, "hidden_sample"):
            f = c.children[0]
            b.put(entry, (*path, "sample"), b.formula(f), f, "how a sample guesses it")
    b.citation(st, entry, path)


def write(out: t.Out, tree: Mapping[str, Any]) -> None:
    """Each hidden variable, its reveal and sample lines under it."""
    for name, entry in (tree.get("hidden") or {}).items():
        t.check(entry, t.keys(SECRET), f"in hidden variable '{name}'")
        out.blank()
        out.add(0, f"the variable {t.word(name)} is hidden")
        if t.cond(entry.get("reveal", False)) is not False:
            out.add(1, f"shown to all when {t.formula(entry['reveal'])}")
        if "sample" in entry:
            out.add(1, f"guessed as {t.formula(entry['sample'])}")
        t.source(out, 1, entry)


# ---------------------------------------------------------------- describe


def describe(ctx: DescribeKit, tree: Mapping[str, Any]) -> list[str]:
    """"Hidden variables": whose value each seat sees, and when it is shown."""
    hidden = tree.get("hidden") or {}
    if not hidden:
        return []
    body: list[str] = []
    for name, entry in hidden.items():
        reveal = entry.get("reveal", False)
        shown = ("never shown to the others before the match ends"
                 if reveal in (False, "false")
                 else f"shown to every seat while {p.formula(reveal)}")
        body += p.wrap(f"{name}: each player sees only his own value; a seat's value is "
                       f"{shown}. A bot guessing the hidden cards takes it to be "
                       f"{p.formula(entry.get('sample', ''))}.")
        body += p.cite(entry, 2)
    return ctx.title("Hidden variables") + body


# ---------------------------------------------------------------- checks


def check(ck: Checker, tree: Mapping[str, Any]) -> None:
    """A hidden variable is a declared per-player variable reset each hand."""
    variables = tree.get("variables") or {}
    per_hand = variables.get("hand_player") or {}
    for name in tree.get("hidden") or {}:
        if name in per_hand:
            continue
        scope = next((s for s, names in variables.items()
                      if isinstance(names, Mapping) and name in names), None)
        where = (f"it is a '{scope}' variable" if scope
                 else "no such variable is declared")
        ck.err(("hidden", name), f"the hidden variable '{name}' must be a per-player "
               f"variable reset each hand (under variables: hand_player): {where}", key=True)


def compile_check(c: Typer, tree: dict[str, Any], path: tuple[Any, ...]) -> None:
    """Its reveal condition and its sample, per seat, typed at this player count."""
    for name, entry in (tree.get("hidden") or {}).items():
        if not isinstance(entry, dict):
            continue
        at = (*path, "hidden", name)
        reveal = entry.get("reveal", False)
        if not isinstance(reveal, bool):
            c.condition(reveal, (*at, "reveal"), True, "`times_played('QC') > 0`")
        if "sample" in entry:
            c.formula(entry["sample"], (*at, "sample"), True)


HIDDEN: Home = Home(
    None, parts=(SECRET,),
    grammar=GRAMMAR,
    entries=("hidden_var",),
    builds={"hidden_var": read_hidden},
    write=write,
    describe=describe,
    check=check,
    compile_check=compile_check,
    compile="spelbok.engine.hidden:compile_hidden",
    keys=(Field("hidden", "names[secret]", "per-player variables each seat sees only for "
                "itself until shown (views, observations, bots), see below", default={},
                omitted=True, doc_type="map name → hidden variable"),),
)
