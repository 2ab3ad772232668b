"""The options: named readings of the rules, or rule parameters, each with its values.

>>> OPTIONS.name, OPTIONS.decl is None, [f.name for f in OPTION.fields][:2]
('options', True, ['values', 'default'])
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ...errors import did_you_mean
from ...limits import short_repr
from .. import dsl_text as t
from .. import prose as p
from ..declare import SOURCE, Construct, Derived, Field
from ..dsl_nodes import is_node
from .home import Home

if TYPE_CHECKING:
    from ..checks import _Checker as Checker
    from ..describe import _Kit as DescribeKit
    from ..dsl_build import _Builder as Builder

__all__ = ["OPTION", "OPTIONS"]

OPTION: Construct = Construct("option", "part", "a named reading or rule parameter", (
    Field("values", "list[scalar]", "the values it may take (str, int or bool)", required=True,
          min_items=1),
    Field("default", "scalar", "its value unless a variant or the caller sets one",
          default=Derived("the first value")),
    Field("about", "text", "what it decides, for `describe`", default=""),
    SOURCE,
), x_name="in option '{key}'")

# ---------------------------------------------------------------- DSL


GRAMMAR = r"""
option: "option" WORD ":" value (("," | "or") value)* ("," "default" default)? _end _option_details?
default: value
_option_details: _INDENT (about | source_line)+ _DEDENT
"""


def read_option(b: Builder, st: Any) -> None:
    """Reads ``option NAME: a, b or c, default b`` and its about and source."""
    name = st.children[0]
    options = b.section("options", st)
    path = ("options", str(name))
    opt: dict[str, Any] = {}
    b.put(options, path, opt, name, f"the option '{name}'")
    values = [c for c in st.children if is_node(c, "value")]
    opt["values"] = [b.value(v) for v in values]
    b.mark((*path, "values"), values[0])
    for i, v in enumerate(values):
        b.mark((*path, "values", i), v)
    for c in st.children:
        if is_node(c, "default"):
            b.put(opt, (*path, "default"), b.value(c.children[0]), c, "the default")
        elif is_node(c, "about"):
            b.s_about(c, opt, path)
    b.citation(st, opt, path)


def _options(out: t.Out, options: Mapping[str, Any]) -> None:
    for name, opt in options.items():
        t.check(opt, t.keys(OPTION), f"in option '{name}'")
        out.blank()
        values = list(opt.get("values") or [])
        if not values:
            raise ValueError(f"to_dsl: option '{name}' has no values")
        shown = [t.value(v) for v in values]
        listed = shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " or " + shown[-1]
        line = f"option {t.word(name)}: {listed}"
        if "default" in opt:
            line += f", default {t.value(opt['default'])}"
        out.add(0, line)
        if opt.get("about"):
            t.text(out, 1, "about", str(opt["about"]))
        t.source(out, 1, opt)


def write(out: t.Out, tree: Mapping[str, Any]) -> None:
    """The options, one line each (values, default), about and source under it."""
    _options(out, tree.get("options") or {})


# ---------------------------------------------------------------- describe


def describe(ctx: DescribeKit, tree: Mapping[str, Any]) -> list[str]:
    """"Options (readings)": each option, its values and default, what it decides."""
    options = tree.get("options") or {}
    if not options:
        return []
    lines = ctx.title("Options (readings)")
    lines += p.wrap("Each option names a reading of a rule the source leaves open; choose one "
                    "with --option NAME=VALUE.")
    for name, opt in options.items():
        values = " | ".join(json.dumps(v) if isinstance(v, bool) else str(v)
                            for v in opt.get("values", []))
        default = opt.get("default")
        shown = json.dumps(default) if isinstance(default, bool) else str(default)
        lines.append("")
        lines.append(f"  {name}: {values} (default {shown})")
        if opt.get("about"):
            lines += p.wrap(str(opt["about"]), 6)
        lines += p.cite(opt, 6)
    return lines


# ---------------------------------------------------------------- checks


def check(ck: Checker, tree: Mapping[str, Any]) -> None:
    """No option named as a built-in name; its values once each, its default one of them."""
    for name, opt in ck.options.items():
        if name in ck.RESERVED:
            ck.err(
                ("options", name),
                f"the option name '{name}' clashes with a builtin name of the formula language",
                key=True,
            )
        values = opt["values"]
        ck.no_repeats(values, ("options", name, "values"), "value")
        default = opt["default"]
        if not any(type(v) is type(default) and v == default for v in values):
            shown = ", ".join(str(v) for v in values)
            ck.err(
                ("options", name, "default"),
                f"the default {short_repr(default)} of option '{name}' is not one of its values ({shown})",
                hint=did_you_mean(str(default), [str(v) for v in values]),
            )


OPTIONS: Home = Home(
    None, parts=(OPTION,),
    grammar=GRAMMAR,
    entries=("option",),
    builds={"option": read_option},
    write=write,
    describe=describe,
    check=check,
    keys=(Field("options", "names[option]", "named readings / rule parameters, see below",
                default={}, doc_type="map name → option"),),
)
