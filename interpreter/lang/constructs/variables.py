"""The variables: declared state, per player or not, kept for the match or reset each hand.

>>> [f.name for f in DECL.fields]
['player', 'hand_player', 'hand', 'match', 'source']
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from .. import dsl_text as t
from .. import prose as p
from ..declare import SOURCE, Construct, Derived, Field
from .home import Home

if TYPE_CHECKING:
    from ..checks import _Checker as Checker
    from ..describe import _Kit as DescribeKit
    from ..dsl_build import _Builder as Builder

__all__ = ["VARIABLES"]

DECL: Construct = Construct("variables", "section", "declared state variables with initial values", (
    Field("player", "var_map", "per player, kept for the whole match", default={}),
    Field("hand_player", "var_map", "per player, reset at each hand start", default={}),
    Field("hand", "var_map", "one value, reset at each hand start", default={}),
    Field("match", "var_map", "one value for the match", default={}),
    SOURCE,
))

# ---------------------------------------------------------------- DSL


GRAMMAR = r"""
var_player: "each" "player" "starts" "the" "match" "with" _inits _NL
var_hand_player: "each" "player" "starts" "each" "hand" "with" _inits _NL
var_hand: "each" "hand" "starts" "with" _inits _NL
var_match: "the" "match" "starts" "with" _inits _NL
_inits: init ("," init)*
init: WORD "=" literal
literal: TEXT | INT | neg_int | TRUE | FALSE
"""


def _vars(b: Builder, st: Any, scope: str) -> None:
    variables = b.section("variables", st)
    table = variables.get(scope)
    if table is None:
        table = variables[scope] = {}
        b.mark(("variables", scope), st)
    for init in st.children:
        name, lit = init.children
        b.put(table, ("variables", scope, str(name)), b.value(lit), name,
              f"the variable '{name}'")


def read_part_source(b: Builder, st: Any) -> None:
    """Reads ``source of the variables …`` (another part's source at the top level is an error)."""
    if str(st.children[0].children[0]) == "variables":
        b.section("variables", st)
    b.part_source(st, b.tree, ())


def read_var_player(b: Builder, st: Any) -> None:
    """Reads ``each player starts the match with a = 0, …``."""
    _vars(b, st, "player")


def read_var_hand_player(b: Builder, st: Any) -> None:
    """Reads ``each player starts each hand with …``."""
    _vars(b, st, "hand_player")


def read_var_hand(b: Builder, st: Any) -> None:
    """Reads ``each hand starts with …``."""
    _vars(b, st, "hand")


def read_var_match(b: Builder, st: Any) -> None:
    """Reads ``the match starts with …``."""
    _vars(b, st, "match")


def _variables(out: t.Out, variables: Mapping[str, Any]) -> None:
    t.check(variables, t.keys(DECL), "in 'variables'")
    heads = {
        "player": "each player starts the match with",
        "hand_player": "each player starts each hand with",
        "hand": "each hand starts with",
        "match": "the match starts with",
    }
    first = True
    for scope, head in heads.items():
        table = variables.get(scope) or {}
        if not table:
            continue
        if first:
            out.blank()
            first = False
        inits = [f"{t.word(k)} = {t.literal(v)}" for k, v in table.items()]
        # one line per scope unless it gets long; several lines of one scope merge
        line = f"{head} " + ", ".join(inits)
        if len(line) <= t.WIDTH:
            out.add(0, line)
        else:
            for init in inits:
                out.add(0, f"{head} {init}")
    if isinstance(variables.get("source"), str):
        if first:
            out.blank()
        t.text(out, 0, "source of the variables", variables["source"])


def write(out: t.Out, tree: Mapping[str, Any]) -> None:
    """The variables, a line a scope."""
    _variables(out, tree.get("variables") or {})


# ---------------------------------------------------------------- describe


def describe(ctx: DescribeKit, tree: Mapping[str, Any]) -> list[str]:
    """"Score and other counts": the variables by scope, with their start values."""
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
            items = ", ".join(f"{name} (starts at {json.dumps(val)})" for name, val in names.items())
            body += p.wrap(f"{words}: {items}.")
    if not body:
        return []
    return ctx.title("Score and other counts") + body + p.cite(v, 2)


# ---------------------------------------------------------------- checks


def check(ck: Checker, tree: Mapping[str, Any]) -> None:
    """No variable named as a built-in name or an option, nor declared in two scopes."""
    seen: dict[str, str] = {}
    for scope, names in tree["variables"].items():
        if not isinstance(names, dict):
            continue
        for name in names:
            at = ("variables", scope, name)
            if name in ck.RESERVED:
                ck.err(
                    at,
                    f"the variable '{name}' clashes with a builtin name of the formula language",
                    key=True,
                )
            elif name in ck.options:
                ck.err(
                    at, f"the variable '{name}' clashes with the option '{name}'", key=True
                )
            elif name in seen:
                ck.err(
                    at,
                    f"the variable '{name}' is declared both in '{seen[name]}' and in '{scope}'",
                    key=True,
                )
            seen.setdefault(name, scope)


VARIABLES: Home = Home(
    DECL,
    grammar=GRAMMAR,
    entries=("var_player", "var_hand_player", "var_hand", "var_match", "part_source"),
    builds={
        "var_player": read_var_player, "var_hand_player": read_var_hand_player,
        "var_hand": read_var_hand, "var_match": read_var_match, "part_source": read_part_source},
    write=write,
    describe=describe,
    check=check,
    keys=(Field("variables", "variables", "declared state variables with initial values",
                default=Derived("its keys' defaults"), doc_type="map",
                doc_default="all empty"),),
)
